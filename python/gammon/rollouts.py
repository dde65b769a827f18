"""Rollouts from Python: a position played out many times, GNU Backgammon style."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from gammon import _core
from gammon._core import Play, Position, ReadPosition, RolloutResult, read_position

if TYPE_CHECKING:
    from gammon._core import CubeContext, CubeRolloutResult

ProgressCallback = Callable[[RolloutResult], bool | None]
PlaysProgressCallback = Callable[[int, Play, RolloutResult], bool | None]


def rollout(
    position: Position | ReadPosition | str,
    trials: int = 1296,
    seed: int = 0,
    threads: int | None = None,
    policy: str = "net",
    truncate: int | None = None,
    variance_reduction: bool = True,
    *,
    first_trial: int = 0,
    max_std_error: float | None = None,
    progress: ProgressCallback | None = None,
    context: CubeContext | None = None,
    ply: int = 0,
) -> RolloutResult:
    """Roll ``position`` out ``trials`` times with ``policy`` on both sides, cubeless or cubeful.

    ``position`` is a :class:`Position` seen from the player about to roll, or what
    :func:`gammon.read_position` reads: any notation, ``"initial"`` (the starting position, a
    player about to roll) or ``"opening"`` (before the opening roll: the first roll is never a
    double; the result is from one fixed side, so its equity is 0 by symmetry). Trial ``i`` uses
    dice stream ``i`` of ``seed``, so the result is identical at any ``threads`` (``None``: all
    cores); ``first_trial`` runs trials ``first_trial .. first_trial + trials`` so parts can be
    :func:`merge_rollouts`-ed into exactly one run. ``trials`` is at most 2**30 in one call (split a
    larger job with ``first_trial``; trials end at 2**60), ``threads`` at most 4 per core (and at
    least 256 are allowed); an int out of range raises ``gammon.GammonError`` naming the argument.
    ``policy`` is ``"net"`` (the default: the bot's own nets at 0-ply judging the 6 plays their
    screen ranks highest, of those only the ones it scores within 0.15 of its best: as strong as
    GNU Backgammon's 0-ply and within about a hundredth of a point a game of the bot; with
    ``variance_reduction`` on, the luck of each roll is predicted by a small luck net and
    subtracted), ``"net-fast"`` (a narrower net judging the 8 plays its own screen ranks highest:
    about 0.6 of ``"net"``'s time a game, and about 0.08 of a point a game weaker),
    ``"net-all"`` (the bot's own nets judging every play, as :class:`Bot` does at 0-ply: about
    2.7 times ``"net"``'s time without variance reduction, 10 with it, which it
    measures with the bot's own net), ``"pubeval"`` (Tesauro's linear evaluator: weaker,
    far faster, no variance reduction) or ``"random"``. ``max_std_error`` stops early once the
    equity's standard error (the cubeful one with a ``context``) is below it. ``progress`` is
    called about ten times a second with the running result; returning ``False`` stops the
    rollout. Ctrl-C stops it too and returns the partial result (``cancelled`` is then true). The
    work runs in Rust with the GIL released.

    With a ``context`` (a :class:`CubeContext`, seen by the player on roll: money or a match score,
    the cube's value and owner) every trial plays the cube: before each roll the player on roll
    doubles when the bot's cube decision says so, the opponent takes, beavers or passes by the same
    decision, and a pass ends the game for the cube's value. The result then has
    ``cubeful_equity`` and ``cubeful_std_error`` (per unit of the starting cube in money play,
    normalised to the starting stake in match play, as :class:`CubeAction`'s equities) and, in
    match play, ``mwc``, the match winning chance. A trial stops once its game's cube has been
    passed, its cubeless figures then taken from the policy's evaluation of the position there
    (as at truncation), so they are those of the rollout without the cube only where nobody
    passes. Variance reduction takes the luck of the rolls out of the cubeful figures as well,
    measured in each game's cube state by the cube model. ``ply``
    (0 or 1) is the depth of the players: at 1 the checkers are played by the bot's 1-ply search
    (a net ``policy`` only; far slower) and cube decisions are made on 1-ply evaluations.

    >>> r = rollout("opening", trials=360, seed=1, policy="pubeval")
    >>> r.trials, abs(r.equity) < 4 * r.std_error + 0.01
    (360, True)
    """
    return _core.rollout(
        position,
        trials,
        seed,
        threads,
        policy,
        truncate,
        variance_reduction,
        first_trial,
        max_std_error,
        progress,
        context,
        ply,
    )


def rollout_cube(
    position: Position | str,
    context: CubeContext | None = None,
    trials: int = 1296,
    seed: int = 0,
    threads: int | None = None,
    policy: str = "net",
    truncate: int | None = None,
    variance_reduction: bool = True,
    *,
    ply: int = 0,
    progress: ProgressCallback | None = None,
) -> CubeRolloutResult:
    """Roll out the cube decision of the player on roll in ``position`` in ``context`` (money with
    a centred cube when None).

    "No double" and "double, take" are rolled out over the same trials and dice (the lines part
    only where the cube does), so their difference is precise: ``difference_std_error`` is the
    standard error of ``double_take - no_double`` over the paired trials. ``double_pass`` is 1 by
    definition. ``double``, ``take``, ``beaver`` and ``label`` are the decision these equities call
    for, named as :meth:`Bot.cube_action` names it. Later cube decisions are the bot's, as in a
    cubeful :func:`rollout`. A ``GammonError`` where the player on roll may not double.

    >>> r = rollout_cube("4HPwATDgc/ABMA", trials=72, truncate=4)
    >>> r.double_pass, r.difference_std_error < r.double_take_std_error
    (1.0, True)
    """
    return _core.rollout_cube(
        position, context, trials, seed, threads, policy, truncate, variance_reduction, ply, progress
    )


def rollout_plays(
    position: Position | ReadPosition | str,
    d1: int,
    d2: int,
    trials: int = 1296,
    seed: int = 0,
    threads: int | None = None,
    policy: str = "net",
    truncate: int | None = None,
    variance_reduction: bool = True,
    *,
    progress: PlaysProgressCallback | None = None,
    context: CubeContext | None = None,
    ply: int = 0,
) -> list[tuple[Play, RolloutResult]]:
    """Every legal play of ``d1``-``d2`` rolled out with the same seed, best first.

    With a ``context`` (seen by the mover) the rollouts are cubeful (see :func:`rollout`) and the
    plays are ranked by cubeful equity; ``ply`` is the players' depth, as there.

    Each result is from the mover's view after the play (the opponent then rolls). ``"opening"``
    is the opening roll played, so a double is refused there. The plays are rolled out one after
    another, in :meth:`Position.legal_plays` order; ``progress(index, play, partial)`` is called
    about ten times a second with the running result of the play at ``index`` of that order, and
    returning ``False`` stops. Ctrl-C stops too: the plays finished so far come back, ranked, with
    the one under way (``cancelled`` true) if it had any trials, so the list can be shorter than the
    legal plays.

    >>> ranked = rollout_plays("opening", 6, 5, trials=72, seed=3, policy="pubeval")
    >>> len(ranked), ranked[0][1].equity >= ranked[-1][1].equity
    (7, True)
    """
    if isinstance(position, str):
        position = read_position(position)
    start = position.with_dice(d1, d2) if isinstance(position, ReadPosition) else position
    done: list[tuple[Play, RolloutResult]] = []
    try:
        for index, play in enumerate(start.legal_plays(d1, d2)):

            def running(partial: RolloutResult, index: int = index, play: Play = play) -> bool | None:
                return None if progress is None else progress(index, play, partial.flipped())

            after = play.position.swapped()
            theirs = None if context is None else context.swapped()
            result = _core.rollout(after, trials, seed, threads, policy, truncate, variance_reduction,
                                   0, None, running, theirs, ply)  # fmt: skip
            if result.trials:
                done.append((play, result.flipped()))
            if result.cancelled:
                break
    except KeyboardInterrupt:
        # Ctrl-C between two plays: what is finished is kept, as within one.
        pass
    return sorted(done, key=lambda entry: -_ranking_equity(entry[1]))


def _ranking_equity(result: RolloutResult) -> float:
    """The equity plays are ranked by: cubeful when the rollout was."""
    cubeful = result.cubeful_equity
    return result.equity if cubeful is None else cubeful


def policy_play(position: Position, d1: int, d2: int, policy: str = "net", seed: int = 0) -> Play:
    """The play the rollout policy ``policy`` makes of ``d1``-``d2`` from ``position``, as it
    would inside a rollout: for programs that play or simulate games with the rollouts' own
    players. ``seed`` picks the ``"random"`` policy's play; the others ignore it.

    >>> from gammon import Bot
    >>> start = Position.initial()
    >>> policy_play(start, 3, 1, policy="net-all") == Bot().best_play(start, 3, 1)
    True
    """
    return _core.policy_play(position, d1, d2, policy, seed)


def merge_rollouts(results: Sequence[RolloutResult]) -> RolloutResult:
    """Combine consecutive parts of one rollout (same seed and setup) into exactly the result one
    run over all their trials gives.

    >>> a = rollout("opening", trials=36, seed=5, policy="random")
    >>> b = rollout("opening", trials=36, seed=5, policy="random", first_trial=36)
    >>> merge_rollouts([a, b]).equity == rollout("opening", trials=72, seed=5, policy="random").equity
    True
    """
    return _core.merge_rollouts(list(results))
