"""Battlegammon: the race game of ten tokens a side on one shared track of 24 fields.

White starts on field 1 and moves up, Black starts on field 24 and moves down, and Black moves
first. A roll moves two different tokens, one by each die; a token landing on a single token
stacks on it and pins it. A side wins with three tokens on the opponent's start field or eight on
fields of the opponent's colour. Sides are named ``"white"`` and ``"black"``; the rules enforced
are those of ``docs/rules/battlegammon.md`` in the repository.

A game between the bot (Black) and a player who always takes the first legal play, and the
first plays of a 4-2 at the start (the 4 first, tokens from the lowest field up)::

    >>> from gammon.battlegammon import Bot, Game, Position
    >>> game = Game(seed=7)
    >>> bot = Bot()
    >>> while not game.is_over:
    ...     d1, d2 = game.roll()
    ...     if game.turn == "black":
    ...         _ = game.play(bot.best_play(game.position, d1, d2))
    ...     else:
    ...         _ = game.play(game.legal_plays()[0])
    >>> game.is_over, game.winner in ("white", "black", None)
    (True, True)
    >>> [str(play) for play in Position.initial().legal_plays(4, 2)][:2]
    ['16/12 19/17', '16/12 20/18']

Rollouts play a position out many times with one policy on both sides and report the chances of
a win, a loss and a draw for the side to move (see :func:`rollout`).

Errors derive from :class:`gammon.GammonError`; a refused action leaves the game unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from gammon._core import battlegammon as _native
from gammon._core.battlegammon import Bot, Game, Play, Position, RolloutResult, read_position

Side = Literal["white", "black"]
"""A side as the API names it."""

ProgressCallback = Callable[[RolloutResult], bool | None]


def parse_position(text: str) -> Position:
    """A position from its ID, or ``"initial"`` for the setup of the rules (the engine's reader,
    :func:`read_position`)."""
    return read_position(text)


def rollout(
    position: Position | str,
    trials: int = 1296,
    seed: int = 0,
    threads: int | None = None,
    policy: str = "bot",
    first_trial: int = 0,
    progress: ProgressCallback | None = None,
    **rule_options: bool | int,
) -> RolloutResult:
    """Play ``position`` out ``trials`` times with ``policy`` on both sides.

    ``position`` is a :class:`Position`, its ID, or ``"initial"``; the side to move is about to
    roll and the result is from its view: ``win``, ``lose`` and ``draw`` (games reaching the turn
    cap, which counts turns from ``position`` on) add up to 1, and ``equity = win - lose``.
    ``policy`` is ``"random"``, ``"greedy"``, ``"bot"`` (the expectimax :class:`Bot`, whose
    evaluation also removes the luck of each roll from the estimate; the default).
    Trial ``i`` uses dice stream ``i`` of ``seed``, so the result is the same at any ``threads``
    (``None``: every core), and ``first_trial`` runs trials ``first_trial .. first_trial +
    trials`` of the seed. ``progress`` is called with the running result about ten times a
    second; returning ``False`` stops early, as does Ctrl-C (``cancelled`` is then true).
    ``rule_options`` are those of :class:`Game`.

    >>> r = rollout("initial", trials=72, seed=1, policy="greedy")
    >>> r.trials, round(r.win + r.lose + r.draw, 9), abs(r.equity - (r.win - r.lose)) < 1e-9
    (72, 1.0, True)
    """
    start = parse_position(position) if isinstance(position, str) else position
    return _native.rollout(start, trials, seed, threads, policy, first_trial, progress, **rule_options)


def merge_rollouts(results: Sequence[RolloutResult]) -> RolloutResult:
    """Combine consecutive parts of one rollout into exactly what one run over all their trials
    gives: parts made with ``first_trial`` ranges that cover ``0 .. n`` without gaps, the same
    seed, position, policy and rule options (anything else raises :class:`gammon.GammonError`).
    Results survive pickling, so the parts may come from other processes or machines.

    >>> whole = rollout("initial", trials=72, seed=3, policy="greedy")
    >>> parts = [rollout("initial", trials=36, seed=3, policy="greedy", first_trial=k) for k in (36, 0)]
    >>> merge_rollouts(parts).equity == whole.equity
    True
    """
    return _native.merge_rollouts(list(results))


__all__ = [
    "Bot",
    "Game",
    "Play",
    "Position",
    "RolloutResult",
    "Side",
    "merge_rollouts",
    "parse_position",
    "read_position",
    "rollout",
]
