"""gammon: a fast, strict backgammon engine written in Rust.

Positions are always seen from the player on roll, who moves from point 24 towards point 1::

    >>> from gammon import Position
    >>> p = Position.initial()
    >>> [str(play) for play in p.legal_plays(6, 5)][:2]
    ['24/13', '24/18 13/8']
    >>> p.parse_play(3, 1, "8/5 6/5").position.swapped().pips
    (167, 163)
"""

from __future__ import annotations

from gammon._core import (
    Bot,
    Evaluation,
    GammonError,
    IllegalActionError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidFormatError,
    InvalidPositionError,
    Play,
    Position,
    RankedPlay,
    __version__,
)
from gammon.batch import legal_plays_batch

__all__ = [
    "Bot",
    "Evaluation",
    "GammonError",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidFormatError",
    "InvalidPositionError",
    "Play",
    "Position",
    "RankedPlay",
    "__version__",
    "legal_plays_batch",
]
