"""Test support: the committed GNU Backgammon fixtures and hypothesis strategies for positions."""

from __future__ import annotations

import csv
from pathlib import Path

from hypothesis import strategies as st

from gammon import Position

FIXTURES = Path(__file__).parent / "fixtures"


def read_fixture(name: str) -> list[dict[str, str]]:
    with open(FIXTURES / name, newline="") as f:
        return list(csv.DictReader(f))


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Legal positions of every kind: contact, races, bear-offs, checkers on the bar and off."""
    board = [0] * 26
    # Slots are weighted towards the home boards, where bear-offs and closed points happen.
    slot = st.one_of(st.integers(1, 6), st.integers(1, 25), st.just(26))
    for s in draw(st.lists(slot, min_size=15, max_size=15)):
        if s <= 25:
            board[s] += 1
    for s in draw(st.lists(slot, min_size=15, max_size=15)):
        point = 25 - s if s <= 25 else None  # their slot s is our 25 - s; 25 -> their bar (0)
        if point is not None and board[point] <= 0 and point != 25:
            board[point] -= 1
    try:
        return Position.from_list(board)
    except ValueError:
        board[25] = 0  # both sides stuck on the bar against closed boards: free ours
        return Position.from_list(board)


dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
