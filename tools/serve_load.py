"""Load on the HTTP bot backend: requests per second and latency, with good and with hostile traffic.

    python tools/serve_load.py                      # starts a server on a free loopback port
    python tools/serve_load.py --url http://127.0.0.1:8080 --clients 4 --requests 4000

Client processes (not threads, so that the client side does not share one interpreter lock) each
keep one connection open and alternate wildbg's ``GET /move`` and ``POST /v1/best-play`` over the
benchmark positions (contact and race) and the 21 rolls. Each run is bounded by a request count and
by a time limit. The first run sends only good requests; the second mixes in malformed requests
(expecting 400), oversized bodies (413) and, for its whole length, connections that send half a
request head and then nothing, and checks that every answer is the one expected and that the
server is still healthy at the end. Prints requests/s and p50/p99 latency per endpoint.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import socket
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from gammon import Position, Server

# The sets the benchmarks in benches/ use, so that figures from both describe the same positions.
SETS = Path(__file__).resolve().parents[1] / "data" / "positions"
ROLLS = [(d, d) for d in range(1, 7)] + [(a, b) for a in range(2, 7) for b in range(1, a)]

BAD_QUERIES = [
    "/move?die1=7&die2=3",
    "/move?die1=3",
    "/move?die1=3&die2=1&p3=15&p4=15",
    "/eval?p0=5",
    "/eval?p12=abc",
]
BAD_BODIES = [
    b"{not json",
    b'{"position": "4HPwATDgc/ABMA", "dice": [9, 9]}',
    b'{"position": [1, 2, 3], "dice": [3, 1]}',
    b'{"position": "4HPwATDgc/ABMA", "dice": [3, 1], "ply": 5}',
]
OVERSIZED = 128 * 1024


@dataclass
class Tally:
    """What one client saw: latencies by endpoint, statuses, and answers that were not expected."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    statuses: dict[int, int] = field(default_factory=dict)
    unexpected: list[str] = field(default_factory=list)
    requests: int = 0
    # Wall-clock span of the requests, so that starting the client processes is not counted.
    first: float = float("inf")
    last: float = 0.0

    def add(self, endpoint: str, seconds: float, status: int, expected: int) -> None:
        self.requests += 1
        self.latencies.setdefault(endpoint, []).append(seconds)
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status != expected and len(self.unexpected) < 20:
            self.unexpected.append(f"{endpoint}: {status}, expected {expected}")

    def merge(self, other: Tally) -> None:
        self.requests += other.requests
        self.first, self.last = min(self.first, other.first), max(self.last, other.last)
        for k, v in other.latencies.items():
            self.latencies.setdefault(k, []).extend(v)
        for s, n in other.statuses.items():
            self.statuses[s] = self.statuses.get(s, 0) + n
        self.unexpected.extend(other.unexpected)


def positions() -> list[Position]:
    ids = []
    for name in ("contact", "race"):
        ids += [line.strip() for line in open(SETS / f"{name}.csv") if line.strip()]
    return [Position.from_id(i) for i in ids]


def oversized_request(host: str, port: int) -> int:
    """Declares a body past the limit and sends only the start of it: the server must refuse it
    from the headers alone. The status, or 0 if the connection was dropped without one."""
    with socket.create_connection((host, port), timeout=10) as s:
        head = f"POST /v1/best-play HTTP/1.1\r\nHost: load\r\nContent-Length: {OVERSIZED}\r\n\r\n"
        s.sendall(head.encode() + b" " * 1024)
        try:
            line = s.recv(64).split(b"\r\n", 1)[0].decode()
        except OSError:
            return 0
    return int(line.split()[1]) if line.startswith("HTTP/1.1 ") else 0


def client(args: tuple[str, int, int, float, int, bool]) -> Tally:
    """One client process: `count` requests at most, until `deadline` (a wall-clock time)."""
    host, port, count, deadline, seed, hostile = args
    rng = random.Random(seed)
    pool = positions()
    tally = Tally()
    conn = http.client.HTTPConnection(host, port, timeout=30)
    tally.first = time.time()
    for k in range(count):
        if time.time() > deadline:
            break
        if hostile and k % 5 == 4:
            kind = rng.randrange(3)
            started = time.perf_counter()
            if kind == 0:
                status = oversized_request(host, port)
                tally.add("oversized", time.perf_counter() - started, status, 413)
                continue
            bad = http.client.HTTPConnection(host, port, timeout=30)
            try:
                if kind == 1:
                    bad.request("GET", rng.choice(BAD_QUERIES))
                else:
                    body = rng.choice(BAD_BODIES)
                    bad.request(
                        "POST", "/v1/best-play", body=body, headers={"Content-Type": "application/json"}
                    )
                response = bad.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException):
                status = 0
            finally:
                bad.close()
            tally.add("malformed", time.perf_counter() - started, status, 400)
            continue
        p = rng.choice(pool)
        d1, d2 = rng.choice(ROLLS)
        if k % 2 == 0:
            endpoint, method, body = "GET /move", "GET", None
            board = {f"p{i}": n for i, n in enumerate(p.to_list()) if n}
            query = urlencode({"die1": d1, "die2": d2, **board})
            path = f"/move?{query}"
        else:
            endpoint, method, path = "POST /v1/best-play", "POST", "/v1/best-play"
            body = json.dumps({"position": p.id, "dice": [d1, d2]})
        started = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection(host, port, timeout=30)
            status = 0
        tally.add(endpoint, time.perf_counter() - started, status, 200)
    conn.close()
    tally.last = time.time()
    return tally


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def healthy(host: str, port: int) -> bool:
    try:
        conn = http.client.HTTPConnection(host, port, timeout=10)
        conn.request("GET", "/health")
        ok = conn.getresponse().status == 200
        conn.close()
        return ok
    except OSError:
        return False


def run(host: str, port: int, clients: int, requests: int, seconds: float, hostile: bool, seed: int) -> dict:
    """One bounded run; the summary as a dict (also printed)."""
    half_open = []
    if hostile:
        # Connections that start a request and never finish it, open for the whole run.
        for _ in range(50):
            s = socket.create_connection((host, port), timeout=10)
            s.sendall(b"GET /move?die1=3&die2=1 HTTP/1.1\r\nHost: slow\r\n")
            half_open.append(s)
    # Counted from now, so the limit also covers starting the client processes.
    deadline = time.time() + seconds
    share = [requests // clients + (1 if k < requests % clients else 0) for k in range(clients)]
    jobs = [(host, port, share[k], deadline, seed * 1000 + k, hostile) for k in range(clients)]
    with multiprocessing.get_context("spawn").Pool(clients) as workers:
        tallies = workers.map(client, jobs)
    for s in half_open:
        s.close()
    total = Tally()
    for t in tallies:
        total.merge(t)
    elapsed = max(total.last - total.first, 1e-9)
    summary = {
        "mode": "hostile" if hostile else "good",
        "clients": clients,
        "requests": total.requests,
        "seconds": round(elapsed, 3),
        "requests_per_second": round(total.requests / elapsed, 1),
        "statuses": {str(k): v for k, v in sorted(total.statuses.items())},
        "unexpected": total.unexpected,
        "healthy_after": healthy(host, port),
        "latency_ms": {
            name: {
                "count": len(v),
                "p50": round(1000 * percentile(v, 0.50), 2),
                "p99": round(1000 * percentile(v, 0.99), 2),
            }
            for name, v in sorted(total.latencies.items())
        },
    }
    print(
        f"{summary['mode']} traffic: {clients} client processes, {total.requests} requests in "
        f"{elapsed:.2f} s = {summary['requests_per_second']:,.0f} requests/s; statuses {summary['statuses']}"
    )
    for name, lat in summary["latency_ms"].items():
        print(f"  {name:20s} n={lat['count']:6d}  p50 {lat['p50']:7.2f} ms  p99 {lat['p99']:7.2f} ms")
    verdict = "yes" if summary["healthy_after"] else "NO"
    print(f"  unexpected answers: {len(total.unexpected)}; server healthy afterwards: {verdict}")
    for line in total.unexpected:
        print(f"    {line}")
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running server (default: start one on a free loopback port)")
    parser.add_argument("--clients", type=int, default=4, help="client processes (default 4)")
    parser.add_argument("--requests", type=int, default=10000, help="requests per run (default 10000)")
    parser.add_argument("--seconds", type=float, default=30.0, help="time limit per run (default 30)")
    parser.add_argument("--threads", type=int, default=None, help="server evaluation threads (own server)")
    parser.add_argument("--ply", type=int, default=0, help="server search depth (own server)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the request mix")
    parser.add_argument("--json", action="store_true", help="also print the summaries as JSON")
    args = parser.parse_args(argv)
    if min(args.clients, args.requests) < 1 or args.seconds <= 0:
        parser.error("--clients and --requests must be at least 1, --seconds positive")
    server = None
    if args.url:
        parts = urlsplit(args.url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
    else:
        server = Server("127.0.0.1", 0, ply=args.ply, threads=args.threads)
        host, port = "127.0.0.1", server.port
    try:
        load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
        print(f"server {host}:{port}; {os.cpu_count()} cores; load average {load[0]:.2f} before the runs")
        summaries = [
            run(host, port, args.clients, args.requests, args.seconds, hostile, args.seed)
            for hostile in (False, True)
        ]
    finally:
        if server is not None:
            server.stop()
    if args.json:
        print(json.dumps(summaries))
    ok = all(s["healthy_after"] and not s["unexpected"] for s in summaries)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
