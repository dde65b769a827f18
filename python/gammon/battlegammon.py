"""Battlegammon: the race game of ten tokens a side on one shared track of 24 fields.

White starts on field 1 and moves up, Black starts on field 24 and moves down, and Black moves
first. A roll moves two different tokens, one by each die; a token landing on a single token
stacks on it and pins it. A side wins with three tokens on the opponent's start field or eight on
fields of the opponent's colour. Sides are named ``"white"`` and ``"black"``; the rules enforced
are those of ``battlegammon-rules.md`` in the project's specification.

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

Errors derive from :class:`gammon.GammonError`; a refused action leaves the game unchanged.
"""

from __future__ import annotations

from typing import Literal

from gammon._core import BattlegammonBot as Bot
from gammon._core import BattlegammonGame as Game
from gammon._core import BattlegammonPlay as Play
from gammon._core import BattlegammonPosition as Position

Side = Literal["white", "black"]
"""A side as the API names it."""

__all__ = ["Bot", "Game", "Play", "Position", "Side"]
