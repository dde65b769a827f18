"""The numpy batch path agrees with one-at-a-time legal plays and refuses bad rows."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon import GammonError, InvalidDiceError, InvalidPositionError, Position, legal_plays_batch

from support import positions


def expected(ps, rolls):
    rows, offsets = [], [0]
    for p, (d1, d2) in zip(ps, rolls, strict=True):
        plays = p.legal_plays(d1, d2)
        rows.extend(play.position.to_list() for play in plays)
        offsets.append(offsets[-1] + len(plays))
    return np.array(rows, dtype=np.int8).reshape(-1, 26), np.array(offsets)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(positions(), st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=80))
def test_batch_equals_single_calls_at_any_thread_count(items):
    ps = [p for p, _, _ in items]
    rolls = [(a, b) for _, a, b in items]
    want_rows, want_offsets = expected(ps, rolls)
    boards = np.array([p.to_list() for p in ps])
    for threads in (1, 2, None):
        rows, offsets = legal_plays_batch(boards, np.array(rolls), threads=threads)
        assert rows.dtype == np.int8 and rows.shape[1] == 26
        np.testing.assert_array_equal(offsets, want_offsets)
        np.testing.assert_array_equal(rows, want_rows)


def test_accepts_positions_and_large_batches():
    p = Position.initial()
    rolls = np.array([[d1, d2] for d1 in range(1, 7) for d2 in range(1, 7)] * 10)
    rows, offsets = legal_plays_batch([p] * len(rolls), rolls)
    assert offsets[-1] == len(rows)
    # 36 ordered outcomes: doubles once, the others twice, of the 447 distinct-roll total.
    per_roll = {(d1, d2): len(p.legal_plays(d1, d2)) for d1 in range(1, 7) for d2 in range(1, 7)}
    assert len(rows) == 10 * sum(per_roll.values())


def test_bad_rows_are_named():
    boards = np.zeros((3, 26), dtype=np.int64)
    boards[:, 6] = 2
    boards[:, 19] = -2
    boards[2, 25] = -1
    with pytest.raises(InvalidPositionError, match="row 2"):
        legal_plays_batch(boards, np.array([[3, 1]] * 3))
    with pytest.raises(InvalidDiceError, match="row 1"):
        legal_plays_batch(boards[:2], np.array([[3, 1], [3, 9]]))
    with pytest.raises(GammonError, match="26 columns"):
        legal_plays_batch(np.zeros((2, 25)), np.array([[3, 1]] * 2))
    with pytest.raises(GammonError, match="shape"):
        legal_plays_batch(boards, np.array([[3, 1]] * 2))
    with pytest.raises(GammonError, match="threads"):
        legal_plays_batch(boards[:1], np.array([[3, 1]]), threads=0)


@settings(max_examples=200, deadline=None)
@given(positions(), st.integers(1, 6), st.integers(1, 6))
def test_legal_positions_are_the_set_of_the_plays_positions(p, d1, d2):
    rows = p.legal_positions(d1, d2)
    assert rows.dtype == np.int8 and rows.shape == (len(p.legal_plays(d1, d2)), 26)
    got = sorted(tuple(r) for r in rows.tolist())
    assert got == sorted(tuple(play.position.to_list()) for play in p.legal_plays(d1, d2))
    assert len(set(got)) == len(got)


def test_legal_positions_refuses_bad_dice_by_name():
    p = Position.initial()
    for d1, d2 in ((0, 3), (3, 7), (2**80, 1)):
        with pytest.raises(InvalidDiceError, match="dice"):
            p.legal_positions(d1, d2)
    with pytest.raises(InvalidDiceError):
        p.legal_positions("3", 1)
