"""Benchmark fixtures: each position set with one row per (position, roll)."""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Position

from bench_data import ROLLS, SETS


@pytest.fixture(scope="session", params=["contact", "race"])
def position_set(request):
    """``(name, positions, boards, dice)`` with one row per (position, roll)."""
    name = request.param
    positions = [Position.from_id(line.strip()) for line in open(SETS / f"{name}.csv") if line.strip()]
    boards = np.array([p.to_list() for p in positions for _ in ROLLS], dtype=np.int64)
    dice = np.array([roll for _ in positions for roll in ROLLS], dtype=np.int64)
    return name, positions, boards, dice
