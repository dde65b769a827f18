"""Rollouts of many positions, on this machine or spread over a Ray cluster.

Both backends give bit-for-bit the same results: trial ``i`` of a seed always gets the same dice, so
a position's trials can be cut into ranges, run anywhere, and merged exactly with
:func:`gammon.merge_rollouts`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from gammon._core import CubeContext, GammonError, Position, RolloutResult, read_position
from gammon.rollouts import merge_rollouts, rollout

ResultCallback = Callable[[int, RolloutResult], None]
TrialsCallback = Callable[[int], bool | None]

RAY_INSTALL_HINT = (
    "the Ray backend needs Ray: install it with pip install 'gammon[ray]' (or pip install 'ray[default]')"
)

BACKENDS = ("local", "ray")


def _start_text(position: Position | str) -> str:
    """What a task needs to rebuild the start: ``"opening"`` or a Position ID (always exact)."""
    if isinstance(position, Position):
        return position.id
    if isinstance(position, str):
        read = read_position(position)
        return "opening" if read.named == "opening" else read.position.id
    raise GammonError(f"a position must be a gammon.Position or a string, got {position!r}")


# A cube context as plain data, which pickles for Ray tasks: (value, owner, away or None, crawford,
# jacoby, beavers).
ContextSpec = tuple[int, str | None, tuple[int, int] | None, bool, bool, bool]


def _context_spec(context: CubeContext | None) -> ContextSpec | None:
    """``context`` as plain data (None for a cubeless batch)."""
    if context is None:
        return None
    if not isinstance(context, CubeContext):
        raise GammonError(f"context must be a gammon.CubeContext or None, got {context!r}")
    c = context
    return (c.value, c.owner, c.away, c.crawford, c.jacoby, c.beavers)


def _context(spec: ContextSpec | None) -> CubeContext | None:
    """The context :func:`_context_spec` described."""
    if spec is None:
        return None
    value, owner, away, crawford, jacoby, beavers = spec
    if away is None:
        return CubeContext.money(value=value, owner=owner, jacoby=jacoby, beavers=beavers)
    return CubeContext.match(away, value=value, owner=owner, crawford=crawford)


def _rollout_chunk(
    start: str,
    trials: int,
    seed: int,
    first_trial: int,
    policy: str,
    truncate: int | None,
    vr: bool,
    context: ContextSpec | None = None,
    ply: int = 0,
) -> RolloutResult:
    """One range of trials of one position; the unit of work of a Ray task (one core each)."""
    return rollout(
        start,
        trials,
        seed,
        1,
        policy,
        truncate,
        vr,
        first_trial=first_trial,
        context=_context(context),
        ply=ply,
    )


def import_ray() -> Any:
    """The ``ray`` module, or a :class:`GammonError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise GammonError(RAY_INSTALL_HINT) from None
    return ray


def rollout_batch(
    positions: Iterable[Position | str],
    trials: int = 1296,
    seed: int = 0,
    backend: str = "local",
    address: str | None = None,
    *,
    policy: str = "net",
    truncate: int | None = None,
    variance_reduction: bool = True,
    threads: int | None = None,
    max_std_error: float | None = None,
    chunk_trials: int = 1296,
    num_cpus: int | None = None,
    max_retries: int = 3,
    on_result: ResultCallback | None = None,
    progress: TrialsCallback | None = None,
    context: CubeContext | None = None,
    ply: int = 0,
) -> list[RolloutResult]:
    """Roll every position out ``trials`` times with ``seed``; one :class:`RolloutResult` each, in order.

    Positions are :class:`Position` objects or text :func:`gammon.read_position` reads, where
    ``"opening"`` is before the opening roll and ``"initial"`` has a player about to roll. Each is
    rolled out exactly as :func:`gammon.rollout` does with the same ``trials``, ``seed``,
    ``policy``, ``truncate``, ``variance_reduction``, ``context`` (a :class:`CubeContext` for
    cubeful rollouts, the same for every position) and ``ply``, whatever the backend:

    - ``backend="local"``: one :func:`gammon.rollout` after another, each on ``threads`` cores
      (``None``: all). ``max_std_error`` is allowed here only.
    - ``backend="ray"``: the trials of each position are cut into ranges of ``chunk_trials``, run as
      Ray tasks of one core each (a task whose worker dies is run again, up to ``max_retries``
      times) and merged in trial order, so the results are bit-for-bit those of the local backend.
      With ``address`` (e.g. ``"head-node:6379"``, or ``"auto"`` for one ``ray start`` runs on
      this machine) it connects to that cluster; without one it starts a new Ray on this machine
      with ``num_cpus`` cores (``None``: all). A Ray this process is already connected to is
      used as it is; one started here stays up for later calls until ``ray.shutdown()`` or the
      end of the process. Every node needs gammon installed. Ray is optional:
      ``pip install 'gammon[ray]'``.

    ``on_result(index, result)`` is called as each position finishes (over Ray, in the order they
    finish); ``progress(trials_done)`` as trials complete, with the running total over the batch.
    Ctrl-C stops the batch and raises :class:`KeyboardInterrupt`; results already passed to
    ``on_result`` stay valid.

    >>> a, b = rollout_batch(["opening", "4HPwATDgc/ABMA"], trials=72, seed=2, policy="random")
    >>> a.trials, b.trials
    (72, 72)
    """
    if backend not in BACKENDS:
        raise GammonError(f"backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
    if trials < 1:
        raise GammonError(f"trials must be at least 1; got {trials}")
    if chunk_trials < 1:
        raise GammonError(f"chunk_trials must be at least 1; got {chunk_trials}")
    starts = [_start_text(p) for p in positions]
    options = (policy, truncate, variance_reduction, _context_spec(context), ply)
    if backend == "local":
        return _local(starts, trials, seed, options, threads, max_std_error, on_result, progress)
    if max_std_error is not None:
        raise GammonError(
            "max_std_error needs the trials run in order, one after another; "
            "it is only available with backend='local'"
        )
    ray = import_ray()
    if not ray.is_initialized():
        if address:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
        else:
            # "local": a new Ray of our own, never a cluster `ray start` left running on this machine.
            quiet = {"logging_level": logging.WARNING, "log_to_driver": False}
            ray.init(address="local", num_cpus=num_cpus, include_dashboard=False, **quiet)
    return _over_ray(ray, starts, trials, seed, options, chunk_trials, max_retries, on_result, progress)


def _local(
    starts: list[str],
    trials: int,
    seed: int,
    options: tuple[str, int | None, bool, ContextSpec | None, int],
    threads: int | None,
    max_std_error: float | None,
    on_result: ResultCallback | None,
    progress: TrialsCallback | None,
) -> list[RolloutResult]:
    policy, truncate, vr, spec, ply = options
    context = _context(spec)
    results = []
    done = 0
    for index, text in enumerate(starts):

        def running(partial: RolloutResult, before: int = done) -> None:
            if progress is not None:
                progress(before + partial.trials)

        result = rollout(
            text,
            trials,
            seed,
            threads,
            policy,
            truncate,
            vr,
            max_std_error=max_std_error,
            progress=running,
            context=context,
            ply=ply,
        )
        if result.cancelled:
            raise KeyboardInterrupt
        done += result.trials
        if progress is not None:
            progress(done)
        if on_result is not None:
            on_result(index, result)
        results.append(result)
    return results


def _over_ray(
    ray: Any,
    starts: list[str],
    trials: int,
    seed: int,
    options: tuple[str, int | None, bool, ContextSpec | None, int],
    chunk_trials: int,
    max_retries: int,
    on_result: ResultCallback | None,
    progress: TrialsCallback | None,
) -> list[RolloutResult]:
    # Looked up at call time (not at import), so the task is always the module's current function.
    task = ray.remote(num_cpus=1, max_retries=max_retries)(_rollout_chunk)
    ranges = [(k, min(chunk_trials, trials - k)) for k in range(0, trials, chunk_trials)]
    pending: dict[Any, tuple[int, int]] = {}
    for index, start in enumerate(starts):
        for part, (first, count) in enumerate(ranges):
            pending[task.remote(start, count, seed, first, *options)] = (index, part)
    parts: list[list[RolloutResult | None]] = [[None] * len(ranges) for _ in starts]
    missing = [len(ranges)] * len(starts)
    results: list[RolloutResult | None] = [None] * len(starts)
    done = 0
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=min(len(pending), 64), timeout=0.2)
            for ref in ready:
                index, part = pending.pop(ref)
                piece: RolloutResult = ray.get(ref)
                parts[index][part] = piece
                missing[index] -= 1
                done += piece.trials
                if missing[index] == 0:
                    results[index] = merge_rollouts([p for p in parts[index] if p is not None])
                    parts[index] = []
                    if on_result is not None:
                        on_result(index, results[index])  # type: ignore[arg-type]
            if ready and progress is not None:
                progress(done)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    return [r for r in results if r is not None]
