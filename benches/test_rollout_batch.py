"""A batch of contact positions rolled out locally and over a Ray started on this machine.

Run: ``GAMMON_BENCH_BATCH=200 pytest benches/test_rollout_batch.py -s`` for the full batch of 200
positions (1296 trials each, pubeval on both sides: the policy is not what is measured); by default
a small batch keeps the suite quick. Prints the local time, Ray's start-up time, the Ray batch time
(first call, then again on the running Ray) and the ratios, so the cost of the distributed path on
one machine is known. Both results are checked equal.
"""

from __future__ import annotations

import os
import time

import pytest

from gammon import rollout_batch

from bench_data import SETS

SIZE = int(os.environ.get("GAMMON_BENCH_BATCH", "8"))
TRIALS = 1296
POLICY = {"policy": "pubeval"}


@pytest.fixture(scope="module")
def batch() -> list[str]:
    ids = [line.strip() for line in open(SETS / "contact.csv") if line.strip()]
    return ids[:SIZE]


def exact(results):
    return [(r.__reduce__()[1][0][:6], r.equity, r.std_error) for r in results]


def test_local_batch(benchmark, batch):
    results = benchmark.pedantic(
        rollout_batch, args=(batch, TRIALS, 1), kwargs=POLICY, rounds=1, iterations=1
    )
    assert len(results) == len(batch) and all(r.trials == TRIALS for r in results)


def test_ray_batch_against_local(batch):
    ray = pytest.importorskip("ray", reason="needs Ray: pip install 'gammon[ray]' (or ray[default])")
    began = time.perf_counter()
    local = rollout_batch(batch, TRIALS, 1, **POLICY)
    t_local = time.perf_counter() - began
    began = time.perf_counter()
    ray.init(address="local", num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False)
    t_start = time.perf_counter() - began
    try:
        began = time.perf_counter()
        first = rollout_batch(batch, TRIALS, 1, backend="ray", **POLICY)
        t_first = time.perf_counter() - began
        began = time.perf_counter()
        again = rollout_batch(batch, TRIALS, 1, backend="ray", **POLICY)
        t_again = time.perf_counter() - began
    finally:
        ray.shutdown()
    assert exact(first) == exact(again) == exact(local)
    games = len(batch) * TRIALS
    print(
        f"\n{len(batch)} positions x {TRIALS} trials ({games} games) on {os.cpu_count()} cores: "
        f"local {t_local:.2f} s ({games / t_local:,.0f} games/s); Ray start {t_start:.1f} s; "
        f"Ray first batch {t_first:.2f} s ({t_first / t_local:.2f}x local), "
        f"again {t_again:.2f} s ({t_again / t_local:.2f}x local)"
    )
