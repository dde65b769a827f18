"""A rollout result as the JSON fields the command line writes, for single and batch rollouts alike,
and the pieces its tables share: the console they print on and how a probability is shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gammon._core import PROBABILITY_NAMES, RolloutResult

if TYPE_CHECKING:
    from rich.console import Console

# Under a table where a probability was shown as 0 or 1 rather than as its estimate.
CLAMPED_NOTE = (
    "* a probability estimated just below 0 (or above 1) by variance reduction is shown as 0 (or 1); "
    "--json gives the exact value"
)

# Width of the lines written to a file or a pipe: wide enough that no table or sentence is wrapped.
PIPE_WIDTH = 1000


def result_dict(r: RolloutResult, policy: str) -> dict[str, object]:
    """Every figure of ``r`` under its attribute name, with the ``policy`` that played the games and
    whether variance reduction was used, ready for ``json.dumps``. The probabilities are the exact
    estimates, which variance reduction can put a little below 0 or above 1. A cubeful rollout adds
    ``cubeful_equity`` and ``cubeful_std_error``, and in match play ``mwc`` and ``mwc_std_error``."""
    cubeful: dict[str, object] = {}
    if r.cubeful_equity is not None:
        cubeful = {"cubeful_equity": r.cubeful_equity, "cubeful_std_error": r.cubeful_std_error}
    if r.mwc is not None:
        cubeful.update(mwc=r.mwc, mwc_std_error=r.mwc_std_error)
    return {
        **{name: getattr(r, name) for name in PROBABILITY_NAMES},
        "equity": r.equity,
        "std_error": r.std_error,
        "std_errors": r.std_errors,
        "trials": r.trials,
        "seed": r.seed,
        "policy": policy,
        "variance_reduction": r.variance_reduction,
        "seconds": r.seconds,
        "games_per_second": r.games_per_second,
        "cancelled": r.cancelled,
        "converged": r.converged,
        **cubeful,
    }


def output_console() -> Console:
    """A rich console on standard output. At a terminal it fits the window; written to a file or a
    pipe, lines are never wrapped, so no phrase is cut in two whatever the assumed width."""
    from rich.console import Console

    console = Console()
    if console.is_terminal:
        return console
    return Console(width=PIPE_WIDTH, soft_wrap=True)


class ProbabilityCells:
    """Formats probabilities for a table, clamping to [0, 1] what variance reduction pushed out of
    it; ``clamped`` then says a cell was changed, so the table can carry :data:`CLAMPED_NOTE`."""

    def __init__(self) -> None:
        self.clamped = False

    def __call__(self, p: float) -> str:
        """``p`` to four places, between 0 and 1, starred when it was clamped."""
        shown = min(max(p, 0.0), 1.0)
        if shown != p:
            self.clamped = True
            return f"{shown:.4f}*"
        return f"{shown:.4f}"
