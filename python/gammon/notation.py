"""Helpers for reading what people type: positions in any accepted notation, and dice."""

from __future__ import annotations

from gammon._core import InvalidDiceError, Position


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
    if s.startswith("XGID=") or s.count(":") >= 9 or len(s) == 26:
        return Position.from_xgid(s)
    return Position.from_id(s.split(":", 1)[0])


def parse_dice(text: str) -> tuple[int, int]:
    """``"53"``, ``"5-3"``, ``"5 3"`` or ``"5,3"`` as a pair of ints in 1..6.

    >>> parse_dice("5-3")
    (5, 3)
    """
    digits = [c for c in text if not c.isspace() and c not in "-,:/"]
    if len(digits) != 2 or not all(c in "123456" for c in digits):
        raise InvalidDiceError(f"cannot read dice from {text!r}: expected two digits 1-6 such as '53'")
    return int(digits[0]), int(digits[1])
