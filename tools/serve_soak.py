"""A soak test of ``gammon serve``: minutes of mixed traffic against one server process, which must
keep answering ``/health``, never answer 5xx, and keep its memory flat.

    python tools/serve_soak.py                    # the long form: 5 minutes
    python tools/serve_soak.py --seconds 25       # the short form the tests run

The server is a ``gammon serve`` process of its own on a free loopback port (never another host),
so that its resident memory can be read from ``/proc/<pid>/status`` alone. For the whole run:

- client processes from ``tools/serve_load.py`` send good plays (``GET /move``,
  ``POST /v1/best-play``) mixed with malformed requests (400) and oversized bodies (413), and 50
  connections hold half a request head open;
- one process sends the other hostile requests, in turn: a body sent one byte a second (408), a
  foreign ``Host`` or ``Origin`` (403), a body that is not JSON-typed (415), an over-long query
  (414) and a request head over 16 KiB (431);
- one process runs small rollouts one after another (``POST /v1/rollout``, 200 each: one at a
  time never exceeds the server's rollout slots, so a 503 is a failure);
- ``/health`` is asked every half second on a fresh connection and must answer 200 within a
  generous bound (the check is that it answers, not how fast);
- the server's RSS is sampled every second.

Passes when every answer is the one expected, no answer is 5xx, ``/health`` always answered, and
the RSS after the first fifth of the run (warm-up: thread pools, the net, allocator arenas) grows
by at most 25% + 32 MiB to its end. Every part is bounded by the run's time limit. Prints a
summary (``--json``: also as JSON); exit status 0 on a pass.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import serve_load  # noqa: E402  (a sibling tool, imported by name so spawned clients find it)

# /health must answer within this; far above its usual millisecond, so that a busy machine does
# not fail the run, while a server that stops answering does.
HEALTH_BOUND = 5.0
# Memory may grow by this much after the warm-up: a fraction of the RSS then, plus a constant.
RSS_GROWTH, RSS_SLACK = 0.25, 32 * 1024 * 1024


def rss_bytes(pid: int) -> int | None:
    """The resident set of process `pid`, from /proc (Linux); None where it cannot be read."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def exchange(port: int, raw: bytes, pause_each: float = 0.0, timeout: float = 30.0) -> int:
    """Sends raw bytes (one at a time `pause_each` seconds apart, if set) and returns the status
    of the answer, or 0 if the connection closed without one."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            if pause_each:
                for k in range(len(raw)):
                    s.sendall(raw[k : k + 1])
                    time.sleep(pause_each)
            else:
                s.sendall(raw)
            line = s.recv(64).split(b"\r\n", 1)[0].decode(errors="replace")
        except OSError:
            # The server may answer and close while the rest is still being sent.
            try:
                line = s.recv(64).split(b"\r\n", 1)[0].decode(errors="replace")
            except OSError:
                return 0
    match = re.match(r"HTTP/1\.1 (\d{3})", line)
    return int(match.group(1)) if match else 0


def hostile_requests(port: int) -> list[tuple[str, bytes, float, int]]:
    """(name, raw request, pause between bytes, expected status)."""
    host = f"127.0.0.1:{port}"
    body = b'{"position": "4HPwATDgc/ABMA", "dice": [3, 1]}'
    json_head = f"POST /v1/best-play HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
    slow = (json_head + f"Content-Length: {len(body)}\r\n\r\n").encode()
    return [
        # The head at once, then the body a byte a second: past 5 s, 408.
        ("slow body", slow + body, 0.0, 408),
        ("foreign Host", b"GET /health HTTP/1.1\r\nHost: evil.example\r\n\r\n", 0.0, 403),
        (
            "foreign Origin",
            f"GET /eval?p6=5 HTTP/1.1\r\nHost: {host}\r\nOrigin: http://evil.example\r\n\r\n".encode(),
            0.0,
            403,
        ),
        (
            "not JSON-typed",
            f"POST /v1/best-play HTTP/1.1\r\nHost: {host}\r\nContent-Type: text/plain\r\n"
            f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body,
            0.0,
            415,
        ),
        ("long query", f"GET /eval?{'p1=0&' * 2000} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode(), 0.0, 414),
        (
            "huge head",
            f"GET /health HTTP/1.1\r\nHost: {host}\r\nX-Pad: {'a' * 20000}\r\n\r\n".encode(),
            0.0,
            431,
        ),
    ]


def hostile_client(args: tuple[int, float]) -> serve_load.Tally:
    """The hostile requests in turn until `deadline`; the slow body is sent in two parts: its head,
    then its body a byte a second, which the server cuts off at 5 s."""
    port, deadline = args
    tally = serve_load.Tally()
    tally.first = time.time()
    k = 0
    requests = hostile_requests(port)
    while time.time() < deadline:
        name, raw, _, expected = requests[k % len(requests)]
        started = time.perf_counter()
        if name == "slow body":
            head_end = raw.index(b"\r\n\r\n") + 4
            status = slow_body(port, raw[:head_end], raw[head_end:])
        else:
            status = exchange(port, raw)
        tally.add(name, time.perf_counter() - started, status, expected)
        k += 1
        time.sleep(0.05)
    tally.last = time.time()
    return tally


def slow_body(port: int, head: bytes, body: bytes) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(head)
        s.settimeout(1.0)
        for k in range(len(body)):
            try:
                s.sendall(body[k : k + 1])
            except OSError:
                break
            try:
                answer = s.recv(64)
            except TimeoutError:
                continue
            except OSError:
                break
            match = re.match(rb"HTTP/1\.1 (\d{3})", answer)
            return int(match.group(1)) if match else 0
        s.settimeout(30)
        try:
            answer = s.recv(64)
        except OSError:
            return 0
    match = re.match(rb"HTTP/1\.1 (\d{3})", answer)
    return int(match.group(1)) if match else 0


def rollout_client(args: tuple[int, float]) -> serve_load.Tally:
    """Small rollouts, one after another, until `deadline`."""
    port, deadline = args
    tally = serve_load.Tally()
    tally.first = time.time()
    positions = ["initial", "4HPwATDgc/ABMA", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"]
    k = 0
    while time.time() < deadline:
        body = json.dumps({"position": positions[k % len(positions)], "trials": 36, "seed": k})
        started = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            conn.request("POST", "/v1/rollout", body=body, headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            status = 0
        finally:
            conn.close()
        tally.add("POST /v1/rollout", time.perf_counter() - started, status, 200)
        k += 1
    tally.last = time.time()
    return tally


def watch(port: int, pid: int, deadline: float, health: list[tuple[float, int, float]], rss: list) -> None:
    """Asks /health every half second and samples the server's RSS every second, until `deadline`."""
    start = time.time()
    next_rss = start
    while time.time() < deadline:
        now = time.time()
        if now >= next_rss:
            value = rss_bytes(pid)
            if value is not None:
                rss.append((now - start, value))
            next_rss += 1.0
        started = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HEALTH_BOUND)
        try:
            conn.request("GET", "/health")
            response = conn.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            status = 0
        finally:
            conn.close()
        health.append((now - start, status, time.perf_counter() - started))
        time.sleep(0.5)


def start_server(threads: int) -> tuple[subprocess.Popen, int]:
    """`gammon serve` on a free loopback port; the process and its port."""
    process = subprocess.Popen(
        [sys.executable, "-m", "gammon", "serve", "--port", "0", "--ply", "0", "--threads", str(threads)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.fullmatch(r"listening on http://127\.0\.0\.1:(\d+)\n", line)
    if not match:
        process.kill()
        raise RuntimeError(
            f"gammon serve did not start: {line!r} {process.stderr.read() if process.stderr else ''}"
        )
    return process, int(match.group(1))


def soak(seconds: float, clients: int, threads: int) -> dict:
    """One run; the summary as a dict."""
    process, port = start_server(threads)
    try:
        half_open = []
        for _ in range(50):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"GET /move?die1=3&die2=1 HTTP/1.1\r\nHost: slow\r\n")
            half_open.append(s)
        deadline = time.time() + seconds
        health: list[tuple[float, int, float]] = []
        rss: list[tuple[float, int]] = []
        watcher = threading.Thread(target=watch, args=(port, process.pid, deadline, health, rss))
        watcher.start()
        jobs = [("127.0.0.1", port, 10**9, deadline, 7000 + k, True) for k in range(clients)]
        with multiprocessing.get_context("spawn").Pool(clients + 2) as pool:
            load = pool.map_async(serve_load.client, jobs)
            hostile = pool.apply_async(hostile_client, ((port, deadline),))
            rollouts = pool.apply_async(rollout_client, ((port, deadline),))
            # Every part stops at the deadline; the longest request left then is a rollout or a
            # 5 s slow body, far below this margin.
            margin = 90
            tallies = load.get(seconds + margin) + [hostile.get(margin), rollouts.get(margin)]
        watcher.join(seconds + margin)
        for s in half_open:
            s.close()
        alive = process.poll() is None
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    total = serve_load.Tally()
    for t in tallies:
        total.merge(t)
    server_errors = sum(n for status, n in total.statuses.items() if status >= 500)
    warm = [v for t, v in rss if t >= seconds / 5] or [v for _, v in rss]
    rss_start, rss_end, rss_peak = warm[0], warm[-1], max(warm)
    rss_bound = rss_start * (1 + RSS_GROWTH) + RSS_SLACK
    missed = [
        (round(t, 1), status, round(d, 3)) for t, status, d in health if status != 200 or d > HEALTH_BOUND
    ]
    summary = {
        "seconds": seconds,
        "requests": total.requests,
        "statuses": {str(k): v for k, v in sorted(total.statuses.items())},
        "by_kind": {name: len(v) for name, v in sorted(total.latencies.items())},
        "unexpected": total.unexpected,
        "server_errors": server_errors,
        "health_checks": len(health),
        "health_missed": missed,
        "health_p99_ms": round(1000 * serve_load.percentile([d for _, _, d in health], 0.99), 2)
        if health
        else None,
        "rss_mib": {
            "after_warmup": round(rss_start / 2**20, 1),
            "end": round(rss_end / 2**20, 1),
            "peak": round(rss_peak / 2**20, 1),
            "bound": round(rss_bound / 2**20, 1),
        },
        "server_alive": alive,
    }
    summary["passed"] = (
        alive
        and not total.unexpected
        and server_errors == 0
        and bool(health)
        and not missed
        and rss_peak <= rss_bound
    )
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=300.0, help="length of the run (default 300)")
    parser.add_argument("--clients", type=int, default=2, help="client processes of plays (default 2)")
    parser.add_argument("--threads", type=int, default=2, help="server evaluation threads (default 2)")
    parser.add_argument("--json", action="store_true", help="also print the summary as JSON")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or min(args.clients, args.threads) < 1:
        parser.error("--seconds must be positive, --clients and --threads at least 1")
    if not os.path.exists("/proc/self/status"):
        parser.error("the soak test reads the server's memory from /proc: Linux only")
    s = soak(args.seconds, args.clients, args.threads)
    print(f"soak of gammon serve: {s['seconds']:.0f} s, {s['requests']} requests, statuses {s['statuses']}")
    print(f"  by kind: {s['by_kind']}")
    print(
        f"  /health: {s['health_checks']} checks, {len(s['health_missed'])} missed (bound {HEALTH_BOUND} s), "
        f"p99 {s['health_p99_ms']} ms"
    )
    r = s["rss_mib"]
    print(
        f"  server RSS: {r['after_warmup']} MiB after warm-up, {r['end']} at the end, peak {r['peak']} (bound {r['bound']})"
    )
    print(f"  5xx answers: {s['server_errors']}; unexpected answers: {len(s['unexpected'])}")
    for line in s["unexpected"]:
        print(f"    {line}")
    print("  PASSED" if s["passed"] else "  FAILED")
    if args.json:
        print(json.dumps(s))
    return 0 if s["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
