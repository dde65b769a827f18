"""Benchmark inputs: the shared benchmark position sets with all 21 rolls."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from gammon import Position

ROOT = Path(__file__).resolve().parents[1]
SETS = ROOT.parent / "shared" / "data" / "positions"
ROLLS = [(d, d) for d in range(1, 7)] + [(a, b) for a in range(2, 7) for b in range(1, a)]


def gnubg_count(name: str) -> int:
    with open(ROOT / "tests" / "fixtures" / "benchmark_counts.csv", newline="") as f:
        return next(int(r["plays"]) for r in csv.DictReader(f) if r["set"] == name)


@pytest.fixture(scope="session", params=["contact", "race"])
def position_set(request):
    """``(name, positions, boards, dice)`` with one row per (position, roll)."""
    name = request.param
    positions = [Position.from_id(line.strip()) for line in open(SETS / f"{name}.csv") if line.strip()]
    boards = np.array([p.to_list() for p in positions for _ in ROLLS], dtype=np.int64)
    dice = np.array([roll for _ in positions for roll in ROLLS], dtype=np.int64)
    return name, positions, boards, dice
