"""The HTTP server's guards over real sockets: bodies sent slowly, rollouts beside short
queries, requests from other sites, the token and the content type of JSON bodies."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from gammon import Server

START = "p24=2&p13=5&p8=3&p6=5&p1=-2&p12=-5&p17=-3&p19=-5"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server("127.0.0.1", 0, threads=2, token="s3cret") as s:
        yield s


def call(
    server: Server, method: str, path: str, body: bytes | None = None, **headers: str
) -> tuple[int, dict[str, str], Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        conn.request(method, path, body=body, headers={k.replace("_", "-"): v for k, v in headers.items()})
        response = conn.getresponse()
        text = response.read()
        return (
            response.status,
            {k.lower(): v for k, v in response.getheaders()},
            json.loads(text) if text else None,
        )
    finally:
        conn.close()


AUTH = {"Authorization": "Bearer s3cret"}
JSON = {"Content_Type": "application/json", **AUTH}


def slow_body(port: int, trickle: bool) -> tuple[bytes, float]:
    """Declares 1000 bytes of body and sends one (then one every 0.3 s with `trickle`)."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        head = (
            f"POST /v1/evaluate HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer s3cret\r\n"
            "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
        )
        s.sendall(head.encode())
        started = time.monotonic()
        s.settimeout(0.3)
        while trickle and time.monotonic() - started < 30:
            try:
                if s.recv(1, socket.MSG_PEEK):
                    break
            except TimeoutError:
                s.sendall(b" ")
        s.settimeout(60)
        answer = b""
        while chunk := s.recv(4096):
            answer += chunk
        return answer, time.monotonic() - started


def test_slow_bodies_are_cut_off_with_408_and_health_answers_meanwhile(server: Server) -> None:
    with ThreadPoolExecutor(12) as pool:
        slow = [pool.submit(slow_body, server.port, k % 2 == 1) for k in range(12)]
        time.sleep(0.5)
        status, _, body = call(server, "GET", "/health")
        assert status == 200, body
        status, _, body = call(server, "GET", f"/move?die1=3&die2=1&{START}", **AUTH)
        assert status == 200, body
        for future in slow:
            answer, took = future.result()
            head, _, rest = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 408"), answer
            assert "body" in json.loads(rest)["message"]
            assert took < 30


def test_rollouts_beyond_their_threads_get_503_and_moves_keep_answering(server: Server) -> None:
    rollout = json.dumps({"position": "initial", "trials": 2000, "policy": "net"}).encode()
    with ThreadPoolExecutor(3) as pool:
        rollouts = [pool.submit(call, server, "POST", "/v1/rollout", rollout, **JSON) for _ in range(3)]
        time.sleep(0.3)
        for _ in range(5):
            status, _, body = call(server, "GET", f"/move?die1=3&die2=1&{START}", **AUTH)
            assert status == 200, body
        answers = [f.result() for f in rollouts]
    # Two evaluation threads, so one rollout at a time: the others were refused at once.
    refused = [a for a in answers if a[0] == 503]
    assert len(refused) == 2, [a[0] for a in answers]
    for _, headers, body in refused:
        assert int(headers["retry-after"]) > 0
        assert "rollouts" in body["message"]
    assert sorted(a[0] for a in answers) == [200, 503, 503]


@pytest.mark.parametrize(
    "headers",
    [{"Host": "evil.example"}, {"Host": "127.0.0.1:1"}, {"Origin": "http://evil.example"}],
    ids=["host", "port", "origin"],
)
def test_requests_from_other_sites_are_403(server: Server, headers: dict[str, str]) -> None:
    status, response, body = call(server, "GET", f"/eval?{START}", **AUTH, **headers)
    assert status == 403, body
    assert body["message"]
    assert "access-control-allow-origin" not in response


def test_the_token_is_needed_everywhere_but_health(server: Server) -> None:
    for headers in [{}, {"Authorization": "Bearer wrong"}]:
        status, response, body = call(server, "GET", f"/eval?{START}", **headers)
        assert status == 401, body
        assert response["www-authenticate"] == "Bearer"
    status, _, body = call(server, "GET", f"/eval?{START}", Origin=f"http://localhost:{server.port}", **AUTH)
    assert status == 200, body
    assert call(server, "GET", "/health")[0] == 200


def test_json_bodies_need_their_content_type(server: Server) -> None:
    body = json.dumps({"position": "initial"}).encode()
    status, _, answer = call(server, "POST", "/v1/evaluate", body, Content_Type="text/plain", **AUTH)
    assert status == 415, answer
    assert "application/json" in answer["message"]
    assert call(server, "POST", "/v1/evaluate", body, **JSON)[0] == 200


def test_gammon_serve_warns_when_it_listens_beyond_this_machine() -> None:
    command = [sys.executable, "-m", "gammon", "serve", "--host", "0.0.0.0", "--port", "0", "--threads", "1"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline().startswith("listening on http://")
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
    assert "warning: serving on 0.0.0.0" in err
    assert "--token" in err
