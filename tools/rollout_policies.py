#!/usr/bin/env python3
"""CPU time a game and standard error of the net rollout policies, with and without variance
reduction, on one thread, in one run (so that the ratios compare like with like).

    python tools/rollout_policies.py [--rounds 2] [--trials 1296]

Each policy gets ``--trials`` games of the starting position (``net-fast`` twice as many, ``net-all``
half), seed 1, in alternating rounds; the CPU time is the process's, so that other work on the
machine shows less in the figures.
"""

from __future__ import annotations

import argparse
import resource

from gammon import rollout


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--trials", type=int, default=1296)
    args = parser.parse_args()
    # The nets and databases load on first use, before any clock starts.
    for policy in ("net", "net-fast"):
        rollout("initial", trials=36, policy=policy)
    shares = (("net-fast", 2.0), ("net", 1.0), ("net-all", 0.5))
    for _ in range(args.rounds):
        for policy, share in shares:
            trials = int(args.trials * share)
            for reduced in (False, True):
                start = cpu_seconds()
                r = rollout(
                    "initial", trials=trials, seed=1, threads=1, policy=policy, variance_reduction=reduced
                )
                per_game = 1e6 * (cpu_seconds() - start) / trials
                print(
                    f"{policy:9} variance reduction {'on ' if reduced else 'off'} {trials:6} games "
                    f"{per_game:7.0f} us cpu a game, std error {r.std_error:.4f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
