"""Legal-play generation through Python, against the native Rust loop measured in the same run.

Run: ``pytest benches -s``. Prints plays per second for the numpy batch path (one thread and all
cores), the per-position ``Position.legal_plays`` path, and the native loop, with ratios. Every
path's play count is checked against GNU Backgammon's for the same work.
"""

from __future__ import annotations

import sys
import time

import pytest

from gammon import _core, legal_plays_batch

from bench_data import ROLLS, ROOT, gnubg_count


def best_seconds(fn, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def test_batch_path_against_native(benchmark, position_set):
    name, positions, boards, dice = position_set
    expected = gnubg_count(name)
    assert _core._count_legal_plays(boards, dice) == expected

    results, offsets = benchmark(legal_plays_batch, boards, dice, threads=1)
    assert len(results) == expected and offsets[-1] == expected

    native = best_seconds(lambda: _core._count_legal_plays(boards, dice))
    batch = best_seconds(lambda: legal_plays_batch(boards, dice, threads=1))
    parallel = best_seconds(lambda: legal_plays_batch(boards, dice))
    print(
        f"\n{name}: {expected} plays; native {expected / native / 1e6:.2f} M/s; "
        f"batch 1 thread {expected / batch / 1e6:.2f} M/s ({batch / native:.2f}x native time); "
        f"batch all cores {expected / parallel / 1e6:.2f} M/s"
    )


def test_per_position_path(benchmark, position_set):
    name, positions, _, _ = position_set
    sample = positions[:200]

    def run() -> int:
        return sum(len(p.legal_plays(d1, d2)) for p in sample for d1, d2 in ROLLS)

    count = benchmark(run)
    assert count > len(sample) * len(ROLLS) // 2


def test_against_gnubg_move_generator(position_set):
    """GNU Backgammon's generator (PyPI ``gnubg-nn``, if installed) on the same work, both called
    once per (position, roll) from Python, so the per-call overhead is alike.

    gnubg's call (``verbose=1``) returns its data: a tuple with, per play, the resulting position's
    key (a str) and the moves (a tuple of pairs). Ours returns ``Play`` objects that make their
    moves and position on access, so the comparison is printed twice: the call alone, and the call
    plus reading every play's ``position``. A third row is ``Position.legal_positions``, the
    resulting positions as one numpy array (no ``Play`` objects; the moves are not listed). Rounds
    alternate between the programs; each figure is the best round.
    """
    gnubg_nn = pytest.importorskip(
        "gnubg_nn", reason="needs GNU Backgammon's move generator: pip install gnubg-nn==1.1.0a11"
    )
    sys.path.insert(0, str(ROOT / "tools"))
    from gnubg_duel import gnubg_board

    name, positions, _, _ = position_set
    sample = positions[:300]
    boards = [gnubg_board(p) for p in sample]
    calls = len(sample) * len(ROLLS)

    def ours() -> int:
        return sum(len(p.legal_plays(d1, d2)) for p in sample for d1, d2 in ROLLS)

    def ours_positions() -> int:
        return sum(len([q.position for q in p.legal_plays(d1, d2)]) for p in sample for d1, d2 in ROLLS)

    def ours_array() -> int:
        return sum(len(p.legal_positions(d1, d2)) for p in sample for d1, d2 in ROLLS)

    def gnubg() -> int:
        return sum(max(1, len(gnubg_nn.moves(b, d1, d2, 1))) for b in boards for d1, d2 in ROLLS)

    assert ours() == gnubg() == ours_positions() == ours_array()
    rows = (("ours", ours), ("ours + position", ours_positions), ("array", ours_array), ("gnubg", gnubg))
    best = {key: float("inf") for key, _ in rows}
    for _ in range(5):
        for key, fn in rows:
            best[key] = min(best[key], best_seconds(fn, 1))
    us = {key: t / calls * 1e6 for key, t in best.items()}
    print(
        f"\n{name}: per call from Python, gammon {us['ours']:.2f} us, with every play's position "
        f"{us['ours + position']:.2f} us; GNU Backgammon {us['gnubg']:.2f} us: "
        f"{us['gnubg'] / us['ours']:.2f}x and {us['gnubg'] / us['ours + position']:.2f}x its speed; "
        f"the positions as an array (legal_positions) {us['array']:.2f} us, {us['gnubg'] / us['array']:.2f}x"
    )
