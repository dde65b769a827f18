"""Counts of distinct legal plays over the benchmark position sets, from GNU Backgammon.

For each set in ``data/positions`` (contact, race) and each of the 21 rolls, sums the
number of distinct resulting positions gnubg's move generator gives (a roll that cannot be played
counts as one play, the engine's convention). The benchmarks assert these totals, so a fast but
wrong generator cannot report a figure.

    pip install gnubg-nn==1.1.0a11
    python3 tools/oracle/benchmark_counts.py > tests/fixtures/benchmark_counts.csv
"""

from __future__ import annotations

import sys
from pathlib import Path

import gnubg_nn
from oracle_common import decode_id

ROOT = Path(__file__).resolve().parents[2]
SETS = ROOT / "data" / "positions"
ROLLS = [(d, d) for d in range(1, 7)] + [(a, b) for a in range(2, 7) for b in range(1, a)]


def main() -> None:
    print("set,positions,rolls,plays")
    for name in ("contact", "race"):
        ids = [line.strip() for line in open(SETS / f"{name}.csv") if line.strip()]
        total = 0
        for pid in ids:
            board = decode_id(pid)
            for d1, d2 in ROLLS:
                total += max(1, len(gnubg_nn.moves(board, d1, d2, 1)))
        print(f"{name},{len(ids)},{len(ROLLS)},{total}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
