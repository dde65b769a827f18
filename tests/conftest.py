"""Session fixtures shared by the tests."""

from __future__ import annotations

import signal

import pytest

from support import read_fixture

# A shell without job control starts a background run with SIGINT ignored, and every child inherits
# that, so the tests that press Ctrl-C on a child would wait for nothing. A handler set here is reset
# to the default in each child, which then turns Ctrl-C into KeyboardInterrupt as it would in a terminal.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def legal_play_rows() -> list[dict[str, str]]:
    return read_fixture("legal_plays.csv")
