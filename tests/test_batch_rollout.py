"""Rollouts of many positions: the local backend, the trial ranges the Ray backend runs (on a
stand-in for Ray that runs tasks in this process), and ``gammon rollout --batch`` with resume."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest

from gammon import GammonError, Position, RolloutResult, rollout, rollout_batch
from gammon import batch_rollout as batch_module
from gammon.cli import main
from gammon.notation import parse_position

CONTACT = "v3sAAAhmdzMAAQ"
SPELLINGS = [
    "opening",
    CONTACT,
    "4HPwATDgc/ABMA:cAkAAAAAAAAA",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    Position.from_id("m/oZAIDb7UQAAA"),
]


def exact(r: RolloutResult) -> tuple[Any, ...]:
    """Everything a rollout computed (its integer sums and what follows from them), not its timing."""
    state = r.__reduce__()[1][0]
    return (*state[:6], r.equity, r.std_error, r.std_errors, r.setup, r.cancelled, r.converged)


def single(position: Position | str, trials: int, seed: int) -> RolloutResult:
    if isinstance(position, str) and position != "opening":
        position = parse_position(position)
    return rollout(position, trials, seed, policy="pubeval")


def test_local_batch_is_one_rollout_per_position_in_any_notation():
    results = rollout_batch(SPELLINGS, trials=150, seed=4, policy="pubeval")
    assert [exact(r) for r in results] == [exact(single(p, 150, 4)) for p in SPELLINGS]
    assert results[2].equity == results[3].equity  # the same initial position spelled two ways


def test_lone_checker_races_are_exact():
    # We bear our last checker off in one roll, or they bear theirs off next turn: the first roll
    # is stratified over the 36 outcomes, so 36 trials give the exact chance.
    def lone(point: int) -> Position:
        board = [0] * 26
        board[point], board[24] = 1, -1
        return Position.from_list(board)

    results = rollout_batch([lone(p) for p in (2, 5, 6)], trials=36, seed=1, policy="random")
    for point, r in zip((2, 5, 6), results, strict=True):
        wins = sum((4 * a if a == b else a + b) >= point for a in range(1, 7) for b in range(1, 7))
        assert r.win == pytest.approx(float(Fraction(wins, 36)), abs=1e-12)


def test_callbacks_report_each_position_and_the_running_trials():
    finished: list[int] = []
    counts: list[int] = []
    results = rollout_batch(
        ["opening", CONTACT],
        trials=200,
        seed=2,
        policy="random",
        on_result=lambda i, r: finished.append(i),
        progress=counts.append,
    )
    assert finished == [0, 1] and len(results) == 2
    assert counts == sorted(counts) and counts[-1] == 400


class FakeRay:
    """Runs Ray "tasks" at once in this process and hands them back out of order, as a cluster may."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def remote(self, **options: Any):
        assert options["max_retries"] >= 1 and options["num_cpus"] == 1

        def wrap(fn):
            fake = self

            class Task:
                @staticmethod
                def remote(*args: Any) -> int:
                    fake.calls.append(args)
                    return len(fake.calls) - 1

            fake.fn = fn
            return Task

        return wrap

    def wait(self, refs: list[int], num_returns: int, timeout: float) -> tuple[list[int], list[int]]:
        ready = sorted(refs, reverse=True)[:num_returns]  # newest first: out of trial order
        return ready, [r for r in refs if r not in ready]

    def get(self, ref: int) -> RolloutResult:
        return self.fn(*self.calls[ref])

    def cancel(self, ref: int, force: bool) -> None:
        pass


@pytest.mark.parametrize("chunk", [1, 47, 150, 1000])
def test_ray_trial_ranges_merge_into_the_local_result(chunk):
    fake = FakeRay()
    positions = ["opening", CONTACT, SPELLINGS[-1]]
    done: list[int] = []
    options = ("pubeval", None, True)
    starts = [batch_module._start_text(p) for p in positions]
    got = batch_module._over_ray(fake, starts, 150, 8, options, chunk, 3, lambda i, r: done.append(i), None)
    assert len(fake.calls) == 3 * -(-150 // chunk)
    assert sorted(done) == [0, 1, 2]
    assert [exact(r) for r in got] == [exact(r) for r in rollout_batch(positions, 150, 8, policy="pubeval")]


def test_bad_requests_are_refused_with_a_reason(monkeypatch):
    with pytest.raises(GammonError, match="backend"):
        rollout_batch(["opening"], backend="spark")
    with pytest.raises(GammonError, match="trials"):
        rollout_batch(["opening"], trials=0)
    with pytest.raises(GammonError):
        rollout_batch(["not a position"])
    with pytest.raises(GammonError, match="max_std_error"):
        rollout_batch(["opening"], backend="ray", max_std_error=0.01)
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    with pytest.raises(GammonError, match=r"pip install 'gammon\[ray\]'"):
        rollout_batch(["opening"], backend="ray")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gammon", "rollout", *args], capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def batch_file(tmp_path):
    path = tmp_path / "positions.txt"
    path.write_text(f"# three positions\nopening\n\n{CONTACT}   # a contact position\n{SPELLINGS[2]}\n")
    return path


def records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def test_cli_batch_writes_one_json_line_per_position(batch_file):
    out = cli("--batch", str(batch_file), "--trials", "120", "--seed", "5", "--policy", "pubeval")
    assert out.returncode == 0, out.stderr
    lines = records(out.stdout)
    assert [r["input"] for r in lines] == ["opening", CONTACT, SPELLINGS[2]]
    assert [r["position_id"] for r in lines] == ["4HPwATDgc/ABMA", CONTACT, "4HPwATDgc/ABMA"]
    expected = rollout_batch(["opening", CONTACT, SPELLINGS[2]], 120, 5, policy="pubeval")
    assert [(r["equity"], r["win"], r["lose_gammon"], r["trials"]) for r in lines] == [
        (e.equity, e.win, e.lose_gammon, e.trials) for e in expected
    ]


def test_cli_batch_resumes_where_a_killed_run_stopped(batch_file, tmp_path):
    output = tmp_path / "out.jsonl"
    args = ("--batch", str(batch_file), "--trials", "100", "--policy", "random", "--output", str(output))
    assert cli(*args).returncode == 0
    whole = records(output.read_text())
    # As if killed while writing the second line: one whole line and part of the next.
    output.write_text(json.dumps(whole[0]) + "\n" + json.dumps(whole[1])[:40])
    out = cli(*args)
    assert out.returncode == 0, out.stderr
    assert "1 positions already" in out.stderr
    again = records(output.read_text())
    assert [r["input"] for r in again] == [r["input"] for r in whole]
    assert [r["equity"] for r in again] == [r["equity"] for r in whole]
    out = cli(*args)
    assert out.returncode == 0 and len(records(output.read_text())) == 3
    refused = cli(*args[:3], "200", *args[4:])
    assert refused.returncode == 2 and "other settings" in refused.stderr


def test_cli_batch_names_the_bad_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("opening\n# fine\nnot-an-id\n")
    out = cli("--batch", str(path))
    assert out.returncode == 2 and f"{path}:3" in out.stderr and "Traceback" not in out.stderr


def test_cli_ray_flag_says_how_to_install_ray(batch_file, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)
    assert main(["rollout", "--batch", str(batch_file), "--ray"]) == 2
    assert "pip install 'gammon[ray]'" in capsys.readouterr().err
