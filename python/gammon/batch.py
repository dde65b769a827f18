"""Legal plays of many positions at once, as numpy arrays (for search and reinforcement learning)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from gammon import _core
from gammon._core import Position

BoardsLike = npt.ArrayLike | Sequence[Position]


def legal_plays_batch(
    boards: BoardsLike, dice: npt.ArrayLike, threads: int | None = None
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """Every resulting position of many (position, roll) pairs.

    ``boards`` is an ``(n, 26)`` integer array laid out as :meth:`Position.to_list` (or a sequence of
    :class:`Position`), ``dice`` an ``(n, 2)`` integer array. Returns ``(results, offsets)``:
    ``results`` is an ``(m, 26)`` int8 array of resulting boards, still seen from the mover, and the
    plays of row ``i`` are ``results[offsets[i]:offsets[i + 1]]``. A roll that cannot be played
    yields the position itself. Work runs in Rust with the GIL released, on ``threads`` cores
    (``None``: all of them); the output does not depend on the thread count.

    >>> import numpy as np
    >>> from gammon import Position, legal_plays_batch
    >>> results, offsets = legal_plays_batch([Position.initial()], np.array([[6, 5]]))
    >>> int(offsets[1])
    7
    """
    if isinstance(boards, Sequence) and boards and isinstance(boards[0], Position):
        board_array = np.array([p.to_list() for p in boards], dtype=np.int64).reshape(-1, 26)
    else:
        board_array = np.ascontiguousarray(boards, dtype=np.int64)
    dice_array = np.ascontiguousarray(dice, dtype=np.int64)
    if board_array.ndim != 2 or dice_array.ndim != 2:
        raise _core.GammonError(
            f"boards and dice must be 2-dimensional, got shapes {board_array.shape} and {dice_array.shape}"
        )
    return _core.legal_plays_batch(board_array, dice_array, threads)
