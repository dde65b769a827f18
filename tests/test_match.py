"""Matches through Python: games replayed against GNU Backgammon's IDs, the Crawford rule, `.mat`
files gnubg wrote and read, ID round trips, and random action sequences that must keep the
invariants of the rules.
"""

from __future__ import annotations

import base64
import json
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from gammon import Game, GammonError, IllegalActionError, Match, MatchEquityTable

from support import FIXTURES, read_fixture

MET_DATA = Path(__file__).resolve().parents[1] / "data" / "met"


def match_id_key(match_id: str) -> int:
    """The Match ID's 66 bits as an int, with the dice as an unordered pair (gnubg keeps the order
    thrown, we write the larger first)."""
    key = int.from_bytes(base64.b64decode(match_id + "=="), "little")
    d1, d2 = (key >> 15) & 7, (key >> 18) & 7
    key &= ~(0x3F << 15)
    return key | (max(d1, d2) << 15) | (min(d1, d2) << 18)


def act(m: Match, action: str) -> bool:
    """Applies one action of `gnubg_games.csv`; False for the bookkeeping `end` rows."""
    verb, _, rest = action.partition(" ")
    nums = [int(t) for t in rest.split() if t.isdigit()]
    g = m.game
    if verb == "opening":
        if g.is_over:
            g = m.next_game()
        g.roll((nums[0], nums[1]))
    elif verb == "roll":
        g.roll((nums[0], nums[1]))
    elif verb == "move":
        g.play(rest)
    elif verb == "resign":
        g.resign(("single", "gammon", "backgammon")[nums[0] - 1])
    elif verb in ("accept", "reject"):
        getattr(g, verb + "_resignation")()
    elif verb == "end":
        assert (g.winner, g.points) == (nums[0], nums[1]), "gnubg's result of the game"
        return False
    else:
        getattr(g, verb)()
    return True


def gnubg_sessions():
    sessions: dict[int, list[dict[str, str]]] = defaultdict(list)
    for row in read_fixture("games/gnubg_games.csv"):
        sessions[int(row["session"])].append(row)
    return list(sessions.values())


def new_session(first: dict[str, str]) -> Match:
    # gnubg played with beavers allowed; its Jacoby setting is in the Match ID.
    jacoby = Game.from_gnubg_id(f"{first['position_id']}:{first['match_id']}").jacoby
    return Match(int(first["length"]), seed=1, jacoby=jacoby, beavers=True, cube_max=4096)


def test_games_replayed_reach_gnubgs_ids_and_refusals():
    states = refusals = games = 0
    for rows in gnubg_sessions():
        m = new_session(rows[0])
        prev = ""
        for i, row in enumerate(rows):
            theirs = f"{row['position_id']}:{row['match_id']}"
            gnubg_refused = i > 0 and theirs == prev and not row["action"].startswith("end")
            before = (m.gnubg_id, m.game.history)
            try:
                if not act(m, row["action"]):
                    games += 1
                    continue
                assert not gnubg_refused, f"gnubg refused {row['action']!r}, we allowed it"
            except IllegalActionError:
                assert gnubg_refused, f"we refused {row['action']!r}"
                assert (m.gnubg_id, m.game.history) == before
                refusals += 1
            assert m.game.position_id == row["position_id"], row
            assert match_id_key(m.match_id) == match_id_key(row["match_id"]), row
            states += 1
            prev = theirs
        assert m.is_over or m.length == 0
    assert states > 1500 and refusals >= 1 and games >= 20


def test_ids_rebuild_games_and_matches_in_progress():
    checked = 0
    for rows in gnubg_sessions():
        m = new_session(rows[0])
        for k, row in enumerate(rows):
            try:
                act(m, row["action"])
            except IllegalActionError:
                continue  # gnubg refused it too (checked above)
            g = m.game
            if k % 3 or g.turn is None or g.is_over or g.resignation is not None:
                continue
            assert Game.from_gnubg_id(g.gnubg_id).gnubg_id == g.gnubg_id
            assert Game.from_xgid(g.xgid).xgid == g.xgid
            rebuilt = Match.from_gnubg_id(g.gnubg_id)
            assert (rebuilt.gnubg_id, rebuilt.length) == (g.gnubg_id, m.length)
            assert Match.from_xgid(g.xgid).game.xgid == g.xgid
            # gnubg's own Position ID:Match ID of the state rebuilds it too.
            from_gnubg = Game.from_gnubg_id(f"{row['position_id']}:{row['match_id']}")
            assert from_gnubg.position_id == row["position_id"]
            assert match_id_key(from_gnubg.match_id) == match_id_key(row["match_id"])
            checked += 1
    assert checked > 300


def test_a_three_point_match_through_crawford_and_post_crawford():
    m = Match(3, seed=9)
    assert (m.length, m.score, m.is_crawford_game, m.is_over, m.winner) == (3, (0, 0), False, False, None)
    g = m.game
    g.roll((3, 1))
    g.play("8/5 6/5")
    g.double()  # player 1
    g.take()
    g.resign("single")  # player 1, at a cube of 2
    g.accept_resignation()
    assert m.score == (2, 0) and not m.is_over
    with pytest.raises(IllegalActionError):
        g.roll()
    # Player 0 reached 2 = N-1: the next game is the Crawford game, without the cube.
    g = m.next_game()
    assert m.is_crawford_game and len(m.games) == 2
    g.roll((1, 2))
    g.play("13/11 6/5")  # player 1
    before = (g.gnubg_id, g.history)
    with pytest.raises(IllegalActionError, match="Crawford"):
        g.double()
    assert (g.gnubg_id, g.history) == before
    g.resign("single")  # player 0
    g.accept_resignation()
    assert m.score == (2, 1)
    # Post-Crawford: the cube is back for the trailer; the leader's cube is dead.
    g = m.next_game()
    assert not m.is_crawford_game and m.is_post_crawford
    g.roll((2, 5))
    g.play("13/8 13/11")  # player 1
    assert g.turn == 0 and not g.may_double
    with pytest.raises(IllegalActionError, match="dead"):
        g.double()
    g.roll((6, 4))
    g.play("24/18 13/9")
    assert g.may_double
    g.double()  # player 1
    g.take()
    g.resign("gammon")  # player 1 gives up 2 x 2 = 4, but 1 point wins the match
    g.accept_resignation()
    assert (m.score, m.is_over, m.winner, g.points) == ((3, 1), True, 0, 4)
    before = m.gnubg_id
    with pytest.raises(IllegalActionError, match="over"):
        m.next_game()
    assert m.gnubg_id == before and len(m.games) == 3
    # The .mat file holds all three games.
    back = Match.from_mat(m.to_mat())
    assert (back.score, back.winner, len(back.games)) == ((3, 1), 0, 3)
    assert [x.history for x in back.games] == [x.history for x in m.games]


def test_match_game_is_a_handle_on_the_match():
    m = Match(5, seed=2)
    g = m.game
    g.roll((6, 1))
    assert m.game.dice == (6, 1) and m.game.history == g.history
    m.game.play("13/7 8/7")
    assert g.turn == 1 and len(m.game.history) == 2
    with pytest.raises(IllegalActionError, match="not over"):
        m.next_game()
    g.double()
    g.drop()  # player 0 drops player 1's double
    assert m.score == (0, 1)
    new = m.next_game()
    assert new.turn is None and g.is_over and len(m.games) == 2
    # The old handle still shows the first game, which refuses every action.
    before = (m.gnubg_id, g.gnubg_id, g.history)
    for action in (Game.roll, Game.double, lambda x: x.resign("single")):
        with pytest.raises(IllegalActionError):
            action(g)
    assert (m.gnubg_id, g.gnubg_id, g.history) == before
    assert m.games[0].history == g.history
    assert "5-point match, score 0-1, game 2" in repr(m)


def test_money_session_never_ends():
    m = Match(0, seed=4, jacoby=True)
    for _ in range(3):
        g = m.game
        assert g.jacoby
        g.roll((4, 2))
        g.resign("gammon")
        g.accept_resignation()
        assert g.points == 1  # Jacoby: the cube was never turned
        m.next_game()
    assert (m.is_over, m.winner, m.score, len(m.games)) == (False, None, (0, 3), 4)


def test_match_arguments():
    with pytest.raises(GammonError, match="length"):
        Match(-1)
    with pytest.raises(GammonError):
        Match(1 << 20)
    m = Match(7, seed=12345)
    assert m.seed == 12345 and m.names == ("Player 0", "Player 1")
    m.names = ("Alice", "Bob")
    assert m.names == ("Alice", "Bob") and "Alice : 0" in m.to_mat()


# ----- .mat files -----


def gnubg_results() -> dict[str, list[tuple[int, int]]]:
    """Per file, gnubg's (winner, points) of every game after importing it."""
    out: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for row in read_fixture("mat/gnubg_records.csv"):
        if row["kind"] == "game":
            out[row["file"]].append((int(row["winner"]), int(row["points"])))
    return out


@pytest.mark.parametrize("name", sorted(gnubg_results()))
def test_mat_files_load_with_gnubgs_results(name):
    text = (FIXTURES / "mat" / name).read_text()
    m = Match.from_mat(text)
    results = gnubg_results()[name]
    assert [(g.winner, g.points) for g in m.games] == results
    length = int(text.split("point match")[0].split()[-1])
    final = [0, 0]
    for winner, points in results:
        final[winner] += points
    assert m.length == length and m.score == (min(final[0], length), min(final[1], length))
    assert m.is_over and m.winner == (0 if final[0] >= length else 1)
    again = Match.from_mat(m.to_mat())
    assert again.to_mat() == m.to_mat() and again.score == m.score


def test_bad_mat_text_is_refused():
    with pytest.raises(GammonError):
        Match.from_mat("this is not a match")


# ----- random actions keep the invariants -----

OPS = ["roll"] * 4 + ["play"] * 4 + ["roll_given", "play_text", "double", "take", "drop", "beaver"]
OPS += ["resign", "accept", "reject", "next_game"]


def attempt(m: Match, op: str, data: st.DataObject) -> None:
    g = m.game
    if op == "roll":
        g.roll()
    elif op == "roll_given":
        g.roll(data.draw(st.tuples(st.integers(1, 6), st.integers(1, 6))))
    elif op == "play":
        plays = g.legal_plays()
        g.play(data.draw(st.sampled_from(plays)) if plays else "24/23")
    elif op == "play_text":
        g.play(data.draw(st.sampled_from(["8/5 6/5", "24/18", "bar/22", "6/off", "13/11*", "x"])))
    elif op == "resign":
        g.resign(data.draw(st.sampled_from(["single", "gammon", "backgammon"])))
    elif op in ("accept", "reject"):
        getattr(g, op + "_resignation")()
    elif op == "next_game":
        m.next_game()
    else:
        getattr(g, op)()


def sensible(m: Match) -> list[str]:
    """Actions a player would consider now; the test mixes them with anything at all."""
    g = m.game
    if g.is_over:
        return ["next_game"]
    if g.resignation is not None:
        return ["accept", "reject"]
    if g.double_offered:
        return ["take", "take", "drop", "beaver"]
    if g.dice is not None:
        return ["play"]
    return ["roll"] * 8 + ["double", "resign"]


@settings(max_examples=30, deadline=None)
@given(length=st.integers(1, 3), seed=st.integers(0, 2**64 - 1), data=st.data())
def test_random_actions_keep_the_invariants(length, seed, data):
    m = Match(length, seed=seed)
    ends = 0
    score = m.score
    history = m.game.history
    for _ in range(data.draw(st.integers(0, 400))):
        op = data.draw(st.sampled_from(sensible(m) if data.draw(st.integers(0, 5)) else OPS))
        before = (m.gnubg_id, history, len(m.games))
        try:
            attempt(m, op, data)
        except GammonError:
            assert (m.gnubg_id, m.game.history, len(m.games)) == before, op
            continue
        g = m.game
        history = g.history
        board = g.position.to_list()
        ours, theirs = g.position.off
        assert sum(c for c in board if c > 0) + ours == 15
        assert -sum(c for c in board if c < 0) + theirs == 15
        takes = [a.player for a in history if a.kind == "take"]
        assert g.cube_value == 2 ** len(takes)  # no beavers in a match
        assert g.cube_owner == (takes[-1] if takes else None)
        assert all(new >= old for new, old in zip(m.score, score, strict=True))
        assert max(m.score) <= length
        score = m.score
        if m.is_over and ends == 0:
            ends = 1
            assert m.winner == (0 if m.score[0] == length else 1)
        assert m.is_over == (ends == 1)
    event(f"games played: {min(len(m.games), 3)}+, match over: {m.is_over}")
    if m.is_over:
        with pytest.raises(IllegalActionError):
            m.next_game()


# ----- match equity -----


def test_match_equity_table():
    met = MatchEquityTable.kazaross_xg2()
    assert met.size == 25 and "Kazaross" in met.name and met.notice
    for a in range(1, 26):
        for b in range(1, 26):
            assert met.mwc(a, b) + met.mwc(b, a) == pytest.approx(1.0)
    assert met.mwc(0, 5) == 1.0 and met.mwc(3, 0) == 0.0
    assert met.mwc_at_score((2, 4), 7, 0) == met.mwc(5, 3)
    assert met.mwc(1, 4, post_crawford=True) == pytest.approx(1 - met.post_crawford(4))
    with pytest.raises(GammonError):
        met.mwc(30, 2)


def test_match_equity_table_is_the_published_one():
    path = MET_DATA / "met_kazaross_xg2.json"
    published = json.loads(path.read_text())
    met = MatchEquityTable.kazaross_xg2()
    loaded = MatchEquityTable.load(path)
    for a, row in enumerate(published["pre_crawford"], 1):
        for b, p in enumerate(row, 1):
            assert met.pre_crawford(a, b) == p == loaded.pre_crawford(a, b)
    for n, p in enumerate(published["post_crawford"], 1):
        assert met.post_crawford(n) == p
