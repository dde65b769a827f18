"""A rollout result as the JSON fields the command line writes, for single and batch rollouts alike."""

from __future__ import annotations

from gammon._core import PROBABILITY_NAMES, RolloutResult


def result_dict(r: RolloutResult) -> dict[str, object]:
    """Every figure of ``r`` under its attribute name, ready for ``json.dumps``."""
    return {
        **{name: getattr(r, name) for name in PROBABILITY_NAMES},
        "equity": r.equity,
        "std_error": r.std_error,
        "std_errors": r.std_errors,
        "trials": r.trials,
        "seed": r.seed,
        "seconds": r.seconds,
        "games_per_second": r.games_per_second,
        "cancelled": r.cancelled,
        "converged": r.converged,
    }
