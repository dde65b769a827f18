"""Size arguments of rollouts are bounded, and pickled or merged results cannot carry impossible
sums: each is refused with a GammonError (a ValueError) naming what is wrong."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import time

import pytest

from gammon import GammonError, RolloutResult, battlegammon, merge_rollouts, rollout
from gammon._core import _rollout_result_from_state, legal_plays_batch

SCALE = 1 << 32


def quick(**options: object) -> RolloutResult:
    return rollout("opening", policy="random", **{"trials": 36, "seed": 1, **options})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("trials", -1),
        ("trials", 0),
        ("trials", 2**31),
        ("trials", 2**32),
        ("trials", 2**70),
        ("trials", 1.5),
        ("seed", -1),
        ("seed", 2**64),
        ("seed", 2**70),
        ("threads", -1),
        ("threads", 0),
        ("threads", 100_000),
        ("threads", 2**40),
        ("threads", 2**70),
        ("first_trial", -1),
        ("first_trial", 2**61),
        ("first_trial", 2**70),
    ],
)
def test_rollout_sizes_are_bounded(name: str, value: object) -> None:
    started = time.monotonic()
    with pytest.raises(GammonError, match=name) as caught:
        quick(**{name: value})
    assert isinstance(caught.value, ValueError)
    assert time.monotonic() - started < 5


def test_first_trial_near_the_end_of_the_numbering() -> None:
    with pytest.raises(GammonError, match="first_trial"):
        quick(first_trial=2**60 - 10)
    assert quick(first_trial=2**60 - 36).trials == 36


@pytest.mark.parametrize(("name", "value"), [("trials", -1), ("seed", 2**70), ("threads", 2**40)])
def test_battlegammon_rollout_sizes_are_bounded(name: str, value: object) -> None:
    with pytest.raises(GammonError, match=name):
        battlegammon.rollout("initial", policy="random", **{"trials": 10, name: value})  # type: ignore[arg-type]


@pytest.mark.parametrize("threads", [-1, 0, 100_000, 2**70])
def test_batch_threads_are_bounded(threads: int) -> None:
    import numpy as np

    boards = np.zeros((1, 26), dtype=np.int64)
    dice = np.array([[3, 1]], dtype=np.int64)
    with pytest.raises(GammonError, match="threads"):
        legal_plays_batch(boards, dice, threads)


def state(result: RolloutResult) -> list[object]:
    rebuild, (saved,) = result.__reduce__()
    assert rebuild is _rollout_result_from_state
    return [saved[0], [list(saved[1][0]), list(saved[1][1])], [list(saved[2][0]), list(saved[2][1])],
            *saved[3:]]  # fmt: skip


def rebuilt(saved: list[object]) -> RolloutResult:
    parts = [saved[0], tuple(map(list, saved[1])), tuple(map(list, saved[2])), *saved[3:]]  # type: ignore[call-overload]
    return _rollout_result_from_state(tuple(parts))


def test_a_real_state_rebuilds_exactly() -> None:
    r = quick()
    again = rebuilt(state(r))
    assert (again.equity, again.trials, again.std_error) == (r.equity, r.trials, r.std_error)
    assert pickle.loads(pickle.dumps(r)).equity == r.equity


def crafted(change: str) -> list[object]:
    saved = state(quick())
    trials = saved[0]
    plain, reduced = saved[1], saved[2]
    if change == "win":
        plain[0][0] = int(5.83 * trials * SCALE)  # type: ignore[index, operator]
    elif change == "trials":
        saved[0] = 2**64 - 1
    elif change == "huge trials":
        saved[0] = 2**70
    elif change == "squares":
        plain[1][0] = 0  # type: ignore[index]
    elif change == "negative squares":
        reduced[1][2] = -1  # type: ignore[index]
    elif change == "overflow":
        reduced[1][5] = 2**127 - 1  # type: ignore[index]
    elif change == "short":
        plain[0] = plain[0][:3]  # type: ignore[index]
    return saved


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ("win", "win"),
        ("trials", "trials"),
        ("huge trials", "state"),
        ("squares", "of win are"),
        ("negative squares", "win_backgammon"),
        ("overflow", "equity"),
        ("short", "7 sums"),
    ],
)
def test_impossible_states_are_refused(change: str, named: str) -> None:
    with pytest.raises(GammonError, match=named):
        rebuilt(crafted(change))


def test_merging_cannot_overflow() -> None:
    # Consecutive parts whose sums of squares are each as large as the checks allow: together they
    # go beyond 128 bits.
    parts = []
    for k in range(5):
        saved = state(quick(trials=36, first_trial=36 * k))
        saved[2][1][5] = 2**125 - 1  # type: ignore[index]
        parts.append(rebuilt(saved))
    with pytest.raises(GammonError, match="overflow"):
        merge_rollouts(parts)


def test_merged_parts_still_add_up() -> None:
    whole = quick(trials=72)
    merged = merge_rollouts([quick(trials=36, first_trial=36), quick(trials=36)])
    assert (merged.equity, merged.trials) == (whole.equity, whole.trials)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_huge_rollout_promptly() -> None:
    code = (
        "import sys, gammon\n"
        "r = gammon.rollout('opening', trials=2**30, policy='random', threads=256)\n"
        "print(r.cancelled, r.trials > 0, flush=True)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    time.sleep(2)
    os.kill(child.pid, signal.SIGINT)
    try:
        out, _ = child.communicate(timeout=20)
    finally:
        child.kill()
    assert out.split() == ["True", "True"]


def test_a_long_rollout_says_how_long_it_will_take(capsys: pytest.CaptureFixture[str]) -> None:
    from gammon.cli import _EtaNotice

    notice = _EtaNotice(2**30, show=False)
    notice(1000, 1.0)  # too early to tell
    notice(4000, 2.0)
    notice(8000, 4.0)  # said once only
    err = capsys.readouterr().err
    assert err.count("to go") == 1 and "4,000/1,073,741,824 trials done" in err
    assert "about 149:07:49 to go at 2,000 games/s" in err
    quiet = _EtaNotice(4100, show=False)
    quiet(4000, 2.0)  # a second left: nothing to say
    assert capsys.readouterr().err == ""
