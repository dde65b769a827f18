"""The Position and Play contract of python-api.md, and agreement with GNU Backgammon."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings

import gammon
from gammon import (
    GammonError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPositionError,
    Play,
    Position,
)

from support import dice, positions, read_fixture


def test_initial_position_matches_the_rules():
    p = Position.initial()
    assert p.id == "4HPwATDgc/ABMA"
    assert p.xgid == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    assert p.pips == (167, 167)
    assert p.off == (0, 0)
    board = p.to_list()
    assert len(board) == 26
    assert (board[24], board[13], board[8], board[6]) == (2, 5, 3, 5)
    assert (board[1], board[12], board[17], board[19]) == (-2, -5, -3, -5)
    assert p.swapped() == p
    assert "X" in str(p) and "O" in str(p)


def test_position_ids_with_the_player_not_on_roll_first():
    # formats.md 1.3: 160 pips on roll, 162 for the opponent; then the bar and borne-off vectors.
    p = Position.from_id("0HPhATDg2+ABMA")
    assert p.pips == (160, 162)
    bar = Position.from_id("zGbiIQgxH/AAWA")
    assert bar.to_list()[25] == 1
    assert bar.off == (0, 0)
    off = Position.from_id("zGbiIYCYD3gALA")
    assert off.off == (0, 1)
    hyper = Position.from_id("ADAAAQAkIAAAAA")
    assert hyper.off == (12, 12)
    assert Position.from_id("sGfwGQDg28EBBg").id == "sGfwGQDg28EBBg"


def test_xgid_turn_field_decides_who_is_on_roll():
    top = Position.from_xgid("XGID=-b---AD-CA--dD---bbe----B-:0:0:-1:31:0:4:0:7:10")
    assert top.id == "0HPhATDg2+ABMA"
    assert Position.from_xgid("-b----E-C---eE---c-e----B-") == Position.initial()


def test_from_list_and_swapped_are_consistent():
    board = [0] * 26
    board[25], board[6], board[0], board[20] = 1, 3, -2, -1
    p = Position.from_list(board)
    assert p.to_list() == board
    assert p.off == (11, 12)
    s = p.swapped()
    assert s.to_list()[0] == -1 and s.to_list()[25] == 2 and s.to_list()[19] == -3 and s.to_list()[5] == 1
    assert s.swapped() == p
    assert s.pips == (p.pips[1], p.pips[0])


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "14"),
        ("4HPwATDgc/ABM", "14"),
        ("4HPwATDgc/AB!A", "base64"),
        ("/////////////w", "30 checkers"),
    ],
)
def test_malformed_ids_raise_clear_errors(text, fragment):
    with pytest.raises(InvalidPositionError, match=fragment):
        Position.from_id(text)


@pytest.mark.parametrize(
    "board, fragment",
    [
        ([0] * 25, "26 entries"),
        ([0] * 25 + [-1], "our bar"),
        ([1] + [0] * 25, "their bar"),
        ([0, 16] + [0] * 24, "-15..=15"),
        ([0, 10, 10] + [0] * 23, "at most 15"),
        ([0, 2**80] + [0] * 24, "entry 1"),
        ([0, "x"] + [0] * 24, "entry 1"),
    ],
)
def test_bad_boards_raise(board, fragment):
    with pytest.raises(InvalidPositionError, match=fragment):
        Position.from_list(board)


def test_errors_are_value_errors():
    for cls in (InvalidPositionError, InvalidDiceError, IllegalPlayError, gammon.IllegalActionError):
        assert issubclass(cls, GammonError)
    assert issubclass(GammonError, ValueError)
    with pytest.raises(ValueError):
        Position.from_xgid("XGID=nonsense")


@pytest.mark.parametrize("d1, d2", [(0, 1), (7, 3), (-1, 2), (2**40, 1), (2**80, 1), (3.5, 1), ("3", 1)])
def test_bad_dice_raise(d1, d2):
    with pytest.raises(InvalidDiceError, match="1..6"):
        Position.initial().legal_plays(d1, d2)


def test_opening_counts_agree_with_gnubg():
    for row in read_fixture("opening_counts.csv"):
        p = Position.from_id(row["position_id"])
        assert len(p.legal_plays(int(row["d1"]), int(row["d2"]))) == int(row["count"])


def test_legal_plays_agree_with_gnubg(legal_play_rows):
    assert len(legal_play_rows) >= 2000
    for row in legal_play_rows:
        p = Position.from_id(row["position_id"])
        ours = sorted(play.position.id for play in p.legal_plays(int(row["d1"]), int(row["d2"])))
        assert ours == row["results"].split(), row


def test_blocked_roll_gives_one_empty_play():
    board = [0] * 26
    board[24], board[18], board[17] = 1, -2, -2
    p = Position.from_list(board)
    (play,) = p.legal_plays(6, 6)
    assert play.moves == () and play.position == p and str(play) == ""
    assert p.parse_play(6, 6, "") == play


def test_play_attributes_and_notation():
    p = Position.initial()
    play = p.parse_play(6, 4, "24/14")
    assert play.moves == ((24, 18), (18, 14)) or play.moves == ((24, 20), (20, 14))
    assert str(play) == "24/14"
    assert play.hits == 0
    assert isinstance(play, Play)
    doubles = p.parse_play(3, 3, "8/5 8/5 6/3 6/3")
    assert str(doubles) == "8/5(2) 6/3(2)"
    assert p.parse_play(3, 3, "8/5(2) 6/3(2)") == doubles


def test_hits_and_bar_entry_notation():
    board = [0] * 26
    board[25], board[6], board[19], board[12] = 1, 14, -1, -14
    p = Position.from_list(board)
    texts = {str(x) for x in p.legal_plays(6, 5)}
    assert "bar/19*/14" in texts and "bar/14" in texts
    hit = p.parse_play(6, 5, "25/19*/14")
    assert hit.hits == 1 and hit.position.to_list()[0] == -1
    assert p.parse_play(6, 5, "bar/14").hits == 0


@pytest.mark.parametrize("text", ["24/18", "13/7 13/7", "1/3", "x/y", "24/12", "6/off", "8/5(9)"])
def test_illegal_notation_is_refused(text):
    with pytest.raises(IllegalPlayError):
        Position.initial().parse_play(6, 5, text)


def test_positions_pickle_and_hash():
    p = Position.from_id("0HPhATDg2+ABMA")
    assert pickle.loads(pickle.dumps(p)) == p
    assert len({p, Position.from_id(p.id), Position.initial()}) == 2
    assert eval(repr(p), {"Position": Position}) == p


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_plays_conserve_checkers_and_use_dice_maximally(p, roll):
    d1, d2 = roll
    plays = p.legal_plays(d1, d2)
    used = len(plays[0].moves)
    most = 4 if d1 == d2 else 2
    assert used <= most
    assert len({play.position for play in plays}) == len(plays)
    for play in plays:
        assert len(play.moves) == used  # no play uses fewer dice than another
        after = play.position
        board = after.to_list()
        assert sum(n for n in board if n > 0) + after.off[0] == 15
        assert -sum(n for n in board if n < 0) + after.off[1] == 15
        drop = p.pips[0] - after.pips[0]
        assert drop == sum(f - t for f, t in play.moves)
        if not any(t == 0 for _, t in play.moves):
            # Without a bear-off every move is exactly one die.
            expected = {d1 * used} if d1 == d2 else ({d1 + d2} if used == 2 else {d1, d2} if used else {0})
            assert drop in expected
        assert play.hits == p.to_list()[0] - board[0]
        assert p.parse_play(d1, d2, str(play)) == play


@settings(max_examples=300, deadline=None)
@given(positions())
def test_ids_round_trip(p):
    assert Position.from_id(p.id) == p
    assert Position.from_xgid(p.xgid) == p
    assert Position.from_list(p.to_list()) == p
    assert p.swapped().swapped() == p
