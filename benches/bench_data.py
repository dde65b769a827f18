"""Benchmark inputs: the position sets in data/positions, the 21 rolls and GNU Backgammon's counts."""

from __future__ import annotations

import csv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETS = ROOT / "data" / "positions"
ROLLS = [(d, d) for d in range(1, 7)] + [(a, b) for a in range(2, 7) for b in range(1, a)]


def gnubg_count(name: str) -> int:
    with open(ROOT / "tests" / "fixtures" / "benchmark_counts.csv", newline="") as f:
        return next(int(r["plays"]) for r in csv.DictReader(f) if r["set"] == name)
