"""A game already over: its IDs read (as GNU Backgammon writes them), but nothing in it is
evaluated, played or rolled out, from Python and over HTTP."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any

import pytest

from gammon import MAX_TRIALS, GammonError, Match, Server, max_threads, read_position, rollout

# Written by GNU Backgammon 1.07.001 (`gnubg -t`): player 1 doubled in a 5-point match at 0-0 and
# player 0 dropped ("root wins a single game and 1 point").
DROPPED = "4HPwATDgc/ABMA:cASgAAAACAAE"
# No checker on either side: a Position ID that reads, but of no game in play.
EMPTY = "AAAAAAAAAAAAAA"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server("127.0.0.1", 0, threads=2) as s:
        yield s


def post(server: Server, path: str, body: Any) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        headers = {"Content-Type": "application/json"}
        conn.request("POST", path, body=json.dumps(body).encode(), headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def test_a_finished_game_reads_as_over() -> None:
    m = Match.from_gnubg_id(DROPPED, seed=0)
    assert m.game.is_over
    assert (m.game.winner, m.game.points, m.score) == (1, 1, (0, 1))
    assert m.gnubg_id == DROPPED


@pytest.mark.parametrize("text", [EMPTY, DROPPED])
def test_python_refuses_to_evaluate_play_or_roll_out_a_game_over(text: str) -> None:
    read = read_position(text)
    for attempt in (read.on_roll, lambda: read.with_dice(3, 1), lambda: rollout(text, trials=1)):
        with pytest.raises(GammonError, match="the game is over"):
            attempt()


@pytest.mark.parametrize("text", [EMPTY, DROPPED])
@pytest.mark.parametrize(
    "path, extra",
    [
        ("/v1/evaluate", {}),
        ("/v1/cube", {}),
        ("/v1/plays", {"dice": [3, 1]}),
        ("/v1/rollout", {"trials": 1}),
    ],
)
def test_http_refuses_a_game_over_with_400(
    server: Server, text: str, path: str, extra: dict[str, Any]
) -> None:
    status, body = post(server, path, {"position": text, **extra})
    assert status == 400, body
    assert "the game is over" in body["message"]


def test_the_engine_bounds_are_exposed_once() -> None:
    from gammon import cli

    # The engine's bound (gammon_core::rollout::MAX_TRIALS) and the command line's, one value.
    assert MAX_TRIALS == 1 << 30
    assert cli.MAX_THREADS == max_threads() >= 256
    with pytest.raises(GammonError, match="trials"):
        rollout("initial", trials=MAX_TRIALS + 1)
    with pytest.raises(GammonError, match="threads"):
        rollout("initial", trials=1, threads=max_threads() + 1)
