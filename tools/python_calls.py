"""Legal plays from Python, one call per position and roll: gammon against GNU Backgammon's generator.

The same work as ``benches/test_legal_plays.py -k gnubg`` (the first 300 positions of each set in
``data/positions`` x the 21 rolls), run from a plain script so that pytest is not in the loop, in
rounds that alternate the programs; each figure is the best round, in microseconds per call:

- ``plays``: ``Position.legal_plays(d1, d2)``, a list of ``Play`` objects;
- ``plays+position``: the same and every play's ``position`` read;
- ``positions``: ``Position.legal_positions(d1, d2)``, one ``(n, 26)`` int8 array;
- ``gnubg``: ``gnubg_nn.moves(board, d1, d2, 1)`` (PyPI ``gnubg-nn==1.1.0a11``), a tuple with each
  play's resulting position key and moves.

Wall time moves with the machine's load; ``--count`` instead counts the instructions of each call
under ``valgrind --tool=lackey`` (one run per kind over 100 contact positions x 21 rolls, less a
run that loads the same data and calls nothing), which the load does not move. Needs ``valgrind``
(Debian package) for ``--count``.

    python tools/python_calls.py [--rounds 5] [--positions 300]
    python tools/python_calls.py --count [--positions 100] [--set contact]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROLLS = [(d, d) for d in range(1, 7)] + [(a, b) for a in range(2, 7) for b in range(1, a)]
KINDS = ("plays", "plays+position", "positions", "gnubg")


def load(name: str, n: int):
    from gammon import Position

    lines = [line.strip() for line in open(ROOT / "data" / "positions" / f"{name}.csv") if line.strip()]
    return [Position.from_id(line) for line in lines[:n]]


def loops(positions):
    """One function per kind, each making every call once and returning the number of plays."""
    import gnubg_nn
    from gnubg_duel import gnubg_board

    boards = [gnubg_board(p) for p in positions]

    def plays() -> int:
        return sum(len(p.legal_plays(d1, d2)) for p in positions for d1, d2 in ROLLS)

    def plays_position() -> int:
        return sum(len([q.position for q in p.legal_plays(d1, d2)]) for p in positions for d1, d2 in ROLLS)

    def array() -> int:
        return sum(len(p.legal_positions(d1, d2)) for p in positions for d1, d2 in ROLLS)

    def gnubg() -> int:
        return sum(max(1, len(gnubg_nn.moves(b, d1, d2, 1))) for b in boards for d1, d2 in ROLLS)

    return {"plays": plays, "plays+position": plays_position, "positions": array, "gnubg": gnubg}


def time_rounds(rounds: int, n: int) -> None:
    load_avg = os.getloadavg()[0]
    print(f"load average {load_avg:.1f}; best of {rounds} alternating rounds, us per call")
    for name in ("contact", "race"):
        positions = load(name, n)
        fns = loops(positions)
        counts = {k: f() for k, f in fns.items()}
        assert len(set(counts.values())) == 1, counts
        calls = len(positions) * len(ROLLS)
        best = dict.fromkeys(KINDS, float("inf"))
        for _ in range(rounds):
            for kind in KINDS:
                start = time.perf_counter()
                fns[kind]()
                best[kind] = min(best[kind], time.perf_counter() - start)
        us = {k: t / calls * 1e6 for k, t in best.items()}
        row = ", ".join(f"{k} {us[k]:.2f} ({us['gnubg'] / us[k]:.1f}x)" for k in KINDS[:3])
        print(f"{name}: gnubg {us['gnubg']:.2f}; {row}")


def count(name: str, n: int) -> None:
    def instructions(kind: str) -> int:
        out = subprocess.run(
            ["valgrind", "--tool=lackey", "--basic-counts=yes", sys.executable, __file__]
            + ["--run", kind, "--set", name, "--positions", str(n)],
            capture_output=True,
            text=True,
            check=True,
        ).stderr
        return int(re.search(r"guest instrs:\s+([\d,]+)", out).group(1).replace(",", ""))

    calls = n * len(ROLLS)
    base = instructions("none")
    per = {k: (instructions(k) - base) / calls for k in KINDS}
    row = ", ".join(f"{k} {per[k]:,.0f} ({per['gnubg'] / per[k]:.1f}x)" for k in KINDS[:3])
    print(f"{name}, instructions per call: gnubg {per['gnubg']:,.0f}; {row}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument(
        "--positions", type=int, default=None, help="positions of each set (300; 100 with --count)"
    )
    ap.add_argument(
        "--count", action="store_true", help="count instructions under valgrind instead of timing"
    )
    ap.add_argument("--set", default="contact", choices=("contact", "race"), help="the set --count uses")
    ap.add_argument("--run", choices=("none",) + KINDS, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.run:
        positions = load(a.set, a.positions)
        fns = loops(positions)
        if a.run != "none":
            fns[a.run]()
    elif a.count:
        count(a.set, a.positions or 100)
    else:
        time_rounds(a.rounds, a.positions or 300)


if __name__ == "__main__":
    main()
