"""Helpers for reading what people type: positions in any accepted notation, and dice."""

from __future__ import annotations

from dataclasses import dataclass

from gammon._core import Game, InvalidDiceError, Match, Position


def parse_position(text: str) -> Position:
    """A position from a Position ID, a ``PositionID:MatchID``, an XGID, or ``opening``/``initial``.

    >>> parse_position("opening") == Position.initial()
    True
    >>> parse_position("4HPwATDgc/ABMA:cAkAAAAAAAAA") == Position.initial()
    True
    """
    s = text.strip()
    if s.lower() in ("opening", "initial", "start"):
        return Position.initial()
    if is_xgid(s):
        return Position.from_xgid(s)
    return Position.from_id(s.split(":", 1)[0])


def is_xgid(text: str) -> bool:
    """Whether ``text`` is written as an XGID rather than as GNU Backgammon IDs.

    >>> is_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"), is_xgid("4HPwATDgc/ABMA")
    (True, False)
    """
    s = text.strip()
    return s.startswith("XGID=") or s.count(":") >= 9 or len(s) == 26


@dataclass(frozen=True)
class Situation:
    """A position together with whatever else its notation carried.

    A bare Position ID gives only the board (``match`` is None: money play, centred cube, no dice);
    a ``PositionID:MatchID`` or an XGID also gives the match or money game behind it (the score and
    length, the cube, whose turn it is, the dice if they are rolled), kept in ``match``.
    """

    position: Position
    """The board, seen from the player on roll."""
    dice: tuple[int, int] | None
    """The dice already rolled, if the notation says so."""
    match: Match | None
    """The match rebuilt from a Match ID or XGID (length 0 for money), with its current game."""

    @property
    def game(self) -> Game | None:
        """The current game of :attr:`match`, which holds the cube and the turn."""
        return None if self.match is None else self.match.game


def parse_situation(text: str) -> Situation:
    """A :class:`Situation` from a Position ID, a ``PositionID:MatchID``, an XGID or ``opening``.

    >>> s = parse_situation("4HPwATDgc/ABMA:cIkWAAAAAAAA")
    >>> s.position == Position.initial(), s.dice, s.game is not None
    (True, (5, 5), True)
    >>> parse_situation("4HPwATDgc/ABMA").game is None
    True
    """
    s = text.strip()
    if s.lower() in ("opening", "initial", "start"):
        return Situation(Position.initial(), None, None)
    if is_xgid(s):
        match = Match.from_xgid(s)
    elif ":" in s:
        match = Match.from_gnubg_id(s)
    else:
        return Situation(Position.from_id(s), None, None)
    return Situation(match.game.position, match.game.dice, match)


def parse_dice(text: str) -> tuple[int, int]:
    """``"53"``, ``"5-3"``, ``"5 3"`` or ``"5,3"`` as a pair of ints in 1..6.

    >>> parse_dice("5-3")
    (5, 3)
    """
    digits = [c for c in text if not c.isspace() and c not in "-,:/"]
    if len(digits) != 2 or not all(c in "123456" for c in digits):
        raise InvalidDiceError(f"cannot read dice from {text!r}: expected two digits 1-6 such as '53'")
    return int(digits[0]), int(digits[1])
