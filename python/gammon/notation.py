"""Reading what people type: the engine's one reader, :func:`gammon._core.read_position`, and its
dice reader :func:`gammon._core.read_dice`, re-exported with a shorthand for the board alone."""

from __future__ import annotations

from gammon._core import Position, ReadPosition, read_dice, read_position

__all__ = ["ReadPosition", "parse_position", "read_dice", "read_position"]


def parse_position(text: str) -> Position:
    """The board of any notation :func:`read_position` reads (for ``opening`` and ``initial``,
    the starting position).

    >>> parse_position("4HPwATDgc/ABMA:cAkAAAAAAAAA") == Position.initial()
    True
    """
    return read_position(text).position
