"""The HTTP bot backend over real sockets: in-process through ``gammon.Server`` and as the
``gammon serve`` command, checked against the Python API and GNU Backgammon's play counts."""

from __future__ import annotations

import http.client
import json
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlencode

import pytest

from gammon import Bot, CubeContext, GammonError, Position, Server, battlegammon, rollout

from support import read_fixture

ROUTES = {
    ("/move", "get"),
    ("/eval", "get"),
    ("/health", "get"),
    ("/openapi.json", "get"),
    ("/v1/plays", "post"),
    ("/v1/best-play", "post"),
    ("/v1/evaluate", "post"),
    ("/v1/cube", "post"),
    ("/v1/rollout", "post"),
    ("/v1/rollout/stream", "post"),
    ("/v1/game", "post"),
    ("/v1/battlegammon/plays", "post"),
    ("/v1/battlegammon/best-play", "post"),
    ("/v1/battlegammon/game", "post"),
    ("/v1/analyse", "post"),
    ("/v1/board.svg", "get"),
    ("/v1/battlegammon/board.svg", "get"),
}


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server("127.0.0.1", 0, threads=2) as s:
        yield s


def request(
    server: Server, method: str, path: str, body: Any = None, raw: bytes | None = None
) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        headers = {"Content-Type": "application/json"} if data is not None else {}
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        text = response.read()
        return response.status, json.loads(text) if text else None
    finally:
        conn.close()


def get(server: Server, path: str) -> tuple[int, Any]:
    return request(server, "GET", path)


def post(server: Server, path: str, body: Any) -> tuple[int, Any]:
    return request(server, "POST", path, body)


def board_query(p: Position) -> str:
    """The wildbg query of a position: only the occupied points, as its clients send them."""
    return urlencode({f"p{i}": n for i, n in enumerate(p.to_list()) if n})


def cumulative_equity(probabilities: dict[str, float]) -> float:
    p = probabilities
    return 2 * p["win"] - 1 + p["winG"] - p["loseG"] + p["winBg"] - p["loseBg"]


def fixture_rows(step: int) -> list[dict[str, str]]:
    return read_fixture("legal_plays.csv")[::step]


@pytest.mark.parametrize("row", fixture_rows(200), ids=lambda r: f"{r['position_id']}-{r['d1']}{r['d2']}")
def test_move_lists_every_legal_play_best_first(server: Server, row: dict[str, str]) -> None:
    p, d1, d2 = Position.from_id(row["position_id"]), int(row["d1"]), int(row["d2"])
    status, body = get(server, f"/move?die1={d1}&die2={d2}&{board_query(p)}")
    assert status == 200, body
    moves = body["moves"]
    # GNU Backgammon's count of distinct results, and our own plays move for move.
    assert len(moves) == len(row["results"].split())
    served = {tuple((m["from"], m["to"]) for m in entry["play"]) for entry in moves}
    assert served == {play.moves for play in p.legal_plays(d1, d2)}
    ranked = Bot().rank_plays(p, d1, d2)
    # The first play is the ranking's first, as `Bot.best_play` gives it.
    assert tuple((m["from"], m["to"]) for m in moves[0]["play"]) == ranked[0].play.moves
    equities = [cumulative_equity(entry["probabilities"]) for entry in moves]
    assert equities == sorted(equities, reverse=True) or len(moves) == 1
    by_moves = {r.play.moves: r.probabilities for r in ranked}
    for entry in moves:
        e = by_moves[tuple((m["from"], m["to"]) for m in entry["play"])]
        expected = [e.win, e.win_gammon, e.win_backgammon, e.lose_gammon, e.lose_backgammon]
        assert [entry["probabilities"][k] for k in ("win", "winG", "winBg", "loseG", "loseBg")] == expected


def test_a_blocked_roll_gives_one_empty_play(server: Server) -> None:
    board = [0] * 26
    board[25], board[6] = 1, 14
    for point in range(19, 25):
        board[point] = -2
    status, body = get(server, f"/move?die1=6&die2=6&{board_query(Position.from_list(board))}")
    assert status == 200
    assert body == {"moves": [{"play": [], "probabilities": body["moves"][0]["probabilities"]}]}


def test_eval_gives_the_probabilities_and_the_cube_advice(server: Server) -> None:
    p = Position.from_id("jGfkASjg8wcBMA")
    status, body = get(server, f"/eval?{board_query(p)}")
    assert status == 200
    e = Bot().evaluate(p)
    assert body["probabilities"] == {
        "win": e.win,
        "winG": e.win_gammon,
        "winBg": e.win_backgammon,
        "loseG": e.lose_gammon,
        "loseBg": e.lose_backgammon,
    }
    action = Bot().cube_action(p)
    assert body["cube"] == {"double": action.double, "accept": action.take}
    status, body = get(server, f"/eval?x_away=1&o_away=3&{board_query(p)}")
    action = Bot().cube_action(p, CubeContext.match((1, 3)))
    assert body["cube"] == {"double": action.double, "accept": action.take}


def test_move_at_a_match_score_ranks_by_match_equity(server: Server) -> None:
    p = Position.initial()
    status, body = get(server, f"/move?die1=6&die2=4&x_away=2&o_away=2&{board_query(p)}")
    assert status == 200
    ranked = Bot().rank_plays(p, 6, 4, context=CubeContext.match((2, 2)))
    assert [tuple((m["from"], m["to"]) for m in e["play"]) for e in body["moves"]] == [
        r.play.moves for r in ranked
    ]


@pytest.mark.parametrize(
    ("query", "parameter"),
    [
        ("/move?die2=3", "die1"),
        ("/move?die1=7&die2=3", "die1"),
        ("/move?die1=3&die2=x", "die2"),
        ("/move?die1=3&die2=1&p25=-2", "p25"),
        ("/move?die1=3&die2=1&p0=1", "p0"),
        ("/move?die1=3&die2=1&p12=99", "p12"),
        ("/move?die1=3&die2=1&p3=15&p4=1", "p0..p25"),
        ("/move?die1=3&die2=1&x_away=3", "x_away"),
        ("/eval?x_away=99&o_away=1", "x_away"),
        ("/eval?p1=-9&p2=-9", "p0..p25"),
    ],
)
def test_bad_wildbg_parameters_are_400_naming_the_parameter(
    server: Server, query: str, parameter: str
) -> None:
    status, body = get(server, query)
    assert status == 400
    assert parameter in body["message"]


def test_plays_read_ids_xgids_and_lists(server: Server) -> None:
    ranked = Bot(ply=1).rank_plays(Position.initial(), 6, 4)
    for position in ("4HPwATDgc/ABMA", Position.initial().to_list(), "-b----E-C---eE---c-e----B-"):
        status, body = post(server, "/v1/plays", {"position": position, "dice": [6, 4], "ply": 1})
        assert status == 200, body
        assert [p["play"] for p in body["plays"]] == [str(r.play) for r in ranked]
        assert [p["equity"] for p in body["plays"]] == [r.equity for r in ranked]
        assert [tuple(map(tuple, p["moves"])) for p in body["plays"]] == [r.play.moves for r in ranked]
        first = body["plays"][0]
        assert first["next_position"] == ranked[0].play.position.swapped().id
    status, body = post(server, "/v1/best-play", {"position": "4HPwATDgc/ABMA", "dice": "64", "ply": 1})
    assert status == 200
    assert body["best"]["play"] == str(Bot(ply=1).best_play(Position.initial(), 6, 4))


def test_plays_in_a_match_rank_as_the_bot_does_in_that_context(server: Server) -> None:
    p = Position.from_id("jGfkASjg8wcBMA")
    context = CubeContext.match((3, 2), value=2, owner="them")
    request_body = {
        "position": p.id,
        "dice": [5, 3],
        "match": {"away": [3, 2]},
        "cube": {"value": 2, "owner": "them"},
    }
    status, body = post(server, "/v1/plays", request_body)
    assert status == 200, body
    ranked = Bot().rank_plays(p, 5, 3, context=context)
    assert [pl["play"] for pl in body["plays"]] == [str(r.play) for r in ranked]
    assert body["context"]["away"] == [3, 2] and body["context"]["owner"] == "them"
    status, body = post(server, "/v1/best-play", request_body)
    assert body["best"]["play"] == str(Bot().best_play(p, 5, 3, context=context))


def test_evaluate_cube_and_rollout_agree_with_the_python_api(server: Server) -> None:
    p = Position.from_id("jGfkASjg8wcBMA")
    status, body = post(server, "/v1/evaluate", {"position": p.xgid})
    assert status == 200
    assert body["equity"] == Bot().evaluate(p).equity
    assert body["probabilities"]["win_gammon"] == Bot().evaluate(p).win_gammon

    status, body = post(
        server,
        "/v1/cube",
        {"position": p.id, "cube": {"value": 2, "owner": "us"}, "money": {"beavers": True}},
    )
    assert status == 200, body
    action = Bot().cube_action(p, CubeContext.money(value=2, owner="us", beavers=True))
    for key in ("double", "take", "beaver", "no_double", "double_take", "double_pass", "label"):
        assert body[key] == getattr(action, key), key

    status, body = post(server, "/v1/rollout", {"position": p.id, "trials": 144, "seed": 3})
    assert status == 200, body
    direct = rollout(p, trials=144, seed=3)  # both take the default policy
    assert body["trials"] == 144 and not body["cancelled"]
    assert body["equity"] == direct.equity and body["std_error"] == direct.std_error


def test_battlegammon_plays_come_from_its_bot(server: Server) -> None:
    p = battlegammon.Position.initial()
    status, body = post(server, "/v1/battlegammon/plays", {"position": p.id, "dice": [5, 3]})
    assert status == 200, body
    assert sorted(x["play"] for x in body["plays"]) == sorted(str(q) for q in p.legal_plays(5, 3))
    assert [x["play"] for x in body["plays"]] == [str(q) for q, _ in battlegammon.Bot().rank_plays(p, 5, 3)]
    status, body = post(server, "/v1/battlegammon/best-play", {"position": "initial", "dice": "53"})
    assert body["best"]["play"] == str(battlegammon.Bot().best_play(p, 5, 3))
    assert body["best"]["next_position"] == battlegammon.Bot().best_play(p, 5, 3).position.id


@pytest.mark.parametrize(
    ("path", "body", "word"),
    [
        ("/v1/plays", {"position": "4HPwATDgc/ABMA"}, "dice"),
        ("/v1/plays", {"position": "4HPwATDgc/ABMA", "dice": [0, 3]}, "dice"),
        ("/v1/plays", {"position": "4HPwATDgc/ABMA", "dice": [3, 1], "ply": 7}, "ply"),
        ("/v1/plays", {"position": "AAAAAAAAAAAAAA!", "dice": [3, 1]}, "position"),
        ("/v1/plays", {"position": [0] * 25, "dice": [3, 1]}, "position"),
        ("/v1/plays", {"position": [0, 16] + [0] * 24, "dice": [3, 1]}, "position"),
        ("/v1/plays", {"position": "initial", "dice": [3, 1], "extra": 1}, "extra"),
        ("/v1/evaluate", [], "JSON"),
        ("/v1/cube", {"position": "initial", "cube": {"value": 3}}, "cube value"),
        ("/v1/cube", {"position": "initial", "match": {"away": [0, 3]}}, "away"),
        ("/v1/rollout", {"position": "initial", "trials": 10**6}, "trials"),
        ("/v1/rollout", {"position": "initial", "trials": 36, "policy": "pubeval", "truncate": 5}, "truncat"),
        ("/v1/battlegammon/plays", {"position": "b:", "dice": [3, 1]}, "position"),
    ],
)
def test_bad_bodies_are_400_naming_the_field(server: Server, path: str, body: Any, word: str) -> None:
    status, answer = post(server, path, body)
    assert status == 400, answer
    assert word in answer["message"]


def test_the_openapi_document_describes_every_route(server: Server) -> None:
    status, doc = get(server, "/openapi.json")
    assert status == 200
    assert doc["openapi"].startswith("3.")
    described = {(path, method) for path, item in doc["paths"].items() for method in item}
    assert described == ROUTES
    for path, method in described:
        assert doc["paths"][path][method]["responses"], (path, method)
        # Every described route is served: a bare call may be refused, but not as unknown.
        status, _ = request(server, method.upper(), path, {} if method == "post" else None)
        # /v1/analyse takes a .mat file as text/plain, so a JSON body is refused as such (415).
        assert status in ((200, 400, 415) if path == "/v1/analyse" else (200, 400)), (path, method, status)
    refs = set(re.findall(r'"\$ref": "#/components/schemas/(\w+)"', json.dumps(doc)))
    assert refs and refs <= set(doc["components"]["schemas"])
    move_parameters = {p["name"] for p in doc["paths"]["/move"]["get"]["parameters"]}
    assert move_parameters == {"die1", "die2", "x_away", "o_away"} | {f"p{i}" for i in range(26)}


def test_oversized_and_unknown_requests_are_refused(server: Server) -> None:
    status, body = request(server, "POST", "/v1/plays", raw=b" " * (100 * 1024))
    assert status == 413 and "bytes" in body["message"]
    status, body = get(server, "/eval?" + "p1=0&" * 2000)
    assert status == 414
    status, body = get(server, "/no/such/endpoint")
    assert status == 404 and "/no/such/endpoint" in body["message"]
    status, body = request(server, "DELETE", "/move")
    assert status == 405 and "DELETE" in body["message"]
    status, _ = get(server, "/health")
    assert status == 200


def test_a_slow_client_does_not_hold_up_others(server: Server) -> None:
    slow = socket.create_connection(("127.0.0.1", server.port))
    silent = socket.create_connection(("127.0.0.1", server.port))
    try:
        # Half a request head, then nothing; and a connection that never says a word.
        slow.sendall(b"GET /move?die1=3&die2=1 HTTP/1.1\r\nHost: slow\r\n")
        started = time.monotonic()
        for _ in range(5):
            status, body = get(server, f"/move?die1=3&die2=1&{board_query(Position.initial())}")
            assert status == 200 and len(body["moves"]) == 16
        assert time.monotonic() - started < 10
    finally:
        slow.close()
        silent.close()


def test_parallel_requests_all_get_their_own_answer(server: Server) -> None:
    rows = fixture_rows(100)

    def ask(row: dict[str, str]) -> tuple[int, int]:
        p = Position.from_id(row["position_id"])
        status, body = get(server, f"/move?die1={row['d1']}&die2={row['d2']}&{board_query(p)}")
        assert status == 200
        return len(body["moves"]), len(row["results"].split())

    with ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(ask, rows))
    assert len(answers) == len(rows)
    assert all(served == expected for served, expected in answers)


def test_the_server_stops_and_refuses_bad_settings() -> None:
    s = Server(port=0)
    port = s.port
    assert s.running and s.url == f"http://127.0.0.1:{port}" and s.address == ("127.0.0.1", port)
    s.stop()
    s.stop()
    assert not s.running
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2)
    with pytest.raises(GammonError, match="ply"):
        Server(port=0, ply=3)
    with pytest.raises(GammonError, match="threads"):
        Server(port=0, threads=0)
    with Server(port=0) as busy, pytest.raises(OSError):
        Server(port=busy.port)


def test_gammon_serve_prints_its_address_serves_and_stops_on_ctrl_c() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "gammon", "serve", "--port", "0", "--threads", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.fullmatch(r"listening on http://127\.0\.0\.1:(\d+)\n", line)
        assert match, line
        conn = http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=30)
        conn.request("GET", f"/move?die1=3&die2=1&{board_query(Position.initial())}")
        answer = json.loads(conn.getresponse().read())
        conn.close()
        assert [(m["from"], m["to"]) for m in answer["moves"][0]["play"]] == [(8, 5), (6, 5)]
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_gammon_serve_reports_bad_settings_without_a_traceback() -> None:
    for args in (["--ply", "5"], ["--port", "70000"]):
        out = subprocess.run(
            [sys.executable, "-m", "gammon", "serve", *args], capture_output=True, text=True, timeout=60
        )
        assert out.returncode == 2, out
        assert "gammon: error:" in out.stderr and "Traceback" not in out.stderr
