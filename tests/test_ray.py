"""Rollouts over a Ray started on this machine give exactly the local results, even when a worker
dies mid-run and its task is run again. Skipped when Ray is not installed."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from gammon import GammonError, RolloutResult, rollout_batch
from gammon import batch_rollout as batch_module

ray = pytest.importorskip("ray", reason="needs Ray: pip install 'gammon[ray]' (or ray[default])")

POSITIONS = [
    "opening",
    "v3sAAAhmdzMAAQ",
    "m/oZAIDb7UQAAA",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
]


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    # The tasks below are defined here; workers cannot import this file, so they get them by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    yield
    ray.shutdown()


def exact(r: RolloutResult) -> tuple[Any, ...]:
    state = r.__reduce__()[1][0]
    return (*state[:6], r.equity, r.std_error, r.std_errors, r.setup, r.cancelled, r.converged)


@pytest.fixture(scope="module")
def local_results() -> list[tuple[Any, ...]]:
    return [exact(r) for r in rollout_batch(POSITIONS, trials=300, seed=6, policy="pubeval")]


def test_ray_results_are_the_local_results_bit_for_bit(local_results):
    finished: list[int] = []
    results = rollout_batch(
        POSITIONS, trials=300, seed=6, policy="pubeval", backend="ray", chunk_trials=71,
        on_result=lambda i, r: finished.append(i),
    )  # fmt: skip
    assert [exact(r) for r in results] == local_results
    assert sorted(finished) == [0, 1, 2, 3]


def dying_once(marker: Path):
    """A task that kills its own worker the first time any task runs, then works as the real one."""

    def task(*args: Any) -> RolloutResult:
        from gammon.batch_rollout import _rollout_chunk  # the worker's own, unpatched

        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            if marker.read_text() == repr(args):
                marker.with_suffix(".again").write_text("run again after its worker died")
            return _rollout_chunk(*args)
        os.write(fd, repr(args).encode())
        os.close(fd)
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("unreachable")

    return task


def test_a_task_whose_worker_dies_is_run_again(local_results, tmp_path, monkeypatch):
    marker = tmp_path / "killed"
    monkeypatch.setattr(batch_module, "_rollout_chunk", dying_once(marker))
    results = rollout_batch(POSITIONS, trials=300, seed=6, policy="pubeval", backend="ray", chunk_trials=100)
    assert marker.exists() and marker.with_suffix(".again").exists()
    assert [exact(r) for r in results] == local_results


def test_without_retries_the_dead_worker_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setattr(batch_module, "_rollout_chunk", dying_once(tmp_path / "killed"))
    with pytest.raises(ray.exceptions.WorkerCrashedError):
        rollout_batch(POSITIONS[:1], trials=100, seed=6, policy="pubeval", backend="ray", max_retries=0)


def test_engine_errors_come_back_from_the_workers():
    with pytest.raises(GammonError):
        rollout_batch(["opening"], trials=10, policy="no-such-policy", backend="ray")
