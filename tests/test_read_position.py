"""The engine's one reader of positions and dice, seen from Python."""

from __future__ import annotations

import pytest

import gammon
from gammon import (
    PROBABILITY_NAMES,
    GammonError,
    InvalidDiceError,
    InvalidFormatError,
    InvalidPositionError,
    Position,
    read_dice,
    read_position,
    rollout,
)

INITIAL = Position.initial()
XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:1:2:0:5:10"


@pytest.mark.parametrize(
    "text, notation",
    [
        ("4HPwATDgc/ABMA", "position_id"),
        ("4HPwATDgc/ABMA:cAkAAAAAAAAA", "gnubg_id"),
        ("cAkAAAAAAAAA:4HPwATDgc/ABMA", "gnubg_id"),
        (XGID, "xgid"),
        ("-b----E-C---eE---c-e----B-", "xgid_board"),
        (str(INITIAL.to_list()), "list"),
        (" ".join(map(str, INITIAL.to_list())), "list"),
        (" initial ", "named"),
        ("Opening", "named"),
    ],
)
def test_every_notation_reads_the_initial_position(text: str, notation: str) -> None:
    read = read_position(text)
    assert read.position == INITIAL and read.notation == notation


def test_ids_bring_their_match_and_dice() -> None:
    read = read_position(XGID)
    assert read.dice == (3, 1)
    assert read.match is not None and read.match.length == 5
    assert read.game is not None and read.game.dice == (3, 1)
    plain = read_position("4HPwATDgc/ABMA")
    assert (plain.match, plain.game, plain.dice, plain.named) == (None, None, None, None)


def test_opening_and_initial_mean_one_thing_each() -> None:
    opening, initial = read_position("opening"), read_position("start")
    assert (opening.named, initial.named) == ("opening", "initial")
    assert initial.on_roll() == INITIAL and initial.with_dice(4, 4) == INITIAL
    assert opening.with_dice(3, 1) == INITIAL
    with pytest.raises(InvalidDiceError, match="never a double"):
        opening.with_dice(4, 4)
    with pytest.raises(InvalidPositionError, match='"initial"'):
        opening.on_roll()
    # Rolled out, "opening" starts before the opening roll; "initial" is the board with a player on roll.
    before = rollout("opening", trials=36, seed=4, policy="random")
    on_roll = rollout("initial", trials=36, seed=4, policy="random")
    assert rollout(read_position("opening"), trials=36, seed=4, policy="random").equity == before.equity
    assert rollout(INITIAL, trials=36, seed=4, policy="random").equity == on_roll.equity
    assert before.equity != on_roll.equity


@pytest.mark.parametrize(
    "text, error, fragment",
    [
        ("nonsense", InvalidPositionError, "Position ID"),
        ("4HPwATDgc/ABMA:junk", InvalidFormatError, "GNU Backgammon ID"),
        ("XGID=nonsense", InvalidPositionError, "XGID"),
        ("[0, 1, 2]", InvalidPositionError, "26 entries"),
        ("0 -2 x", InvalidPositionError, "not an integer"),
    ],
)
def test_bad_positions_say_what_was_wrong(text: str, error: type[GammonError], fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        read_position(text)


def test_dice_are_read_once() -> None:
    for text in ("53", "3-5", " 5 3 ", "5,3", "5:3", "5/3", "5\t3"):
        assert read_dice(text) == (5, 3), text
    for bad in ("71", "07", "5", "533", "ab"):
        with pytest.raises(InvalidDiceError, match="dice"):
            read_dice(bad)
    with pytest.raises(InvalidDiceError, match="1..6"):
        INITIAL.legal_plays(7, 1)


def test_probability_names_are_the_attributes() -> None:
    assert PROBABILITY_NAMES == ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
    result = rollout("opening", trials=36, seed=1, policy="random")
    assert set(result.std_errors) == set(PROBABILITY_NAMES)
    assert all(isinstance(getattr(result, name), float) for name in PROBABILITY_NAMES)
    assert gammon.read_position is read_position
