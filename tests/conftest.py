"""Session fixtures shared by the tests."""

from __future__ import annotations

import pytest

from support import read_fixture


@pytest.fixture(scope="session")
def legal_play_rows() -> list[dict[str, str]]:
    return read_fixture("legal_plays.csv")
