"""gammon: a fast, strict backgammon engine written in Rust.

Positions are always seen from the player on roll, who moves from point 24 towards point 1::

    >>> from gammon import Position
    >>> p = Position.initial()
    >>> [str(play) for play in p.legal_plays(6, 5)][:2]
    ['24/13', '24/18 13/8']
    >>> p.parse_play(3, 1, "8/5 6/5").position.swapped().pips
    (167, 163)

Games and matches enforce the rules, the cube and the Crawford rule; a refused action raises
:class:`IllegalActionError` and changes nothing::

    >>> from gammon import Match
    >>> m = Match(3, seed=1)
    >>> m.game.roll((3, 1))  # the opening roll: player 0 threw 3, player 1 threw 1
    (3, 1)
    >>> str(m.game.play("8/5 6/5")), m.game.turn
    ('8/5 6/5', 1)
"""

from __future__ import annotations

from gammon._core import (
    MAX_TRIALS,
    PROBABILITY_NAMES,
    Action,
    Analysis,
    AnalysisDecision,
    AnalysisPlayer,
    Bot,
    CubeAction,
    CubeContext,
    CubeRolloutResult,
    Game,
    GammonError,
    IllegalActionError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidFormatError,
    InvalidPositionError,
    Match,
    MatchEquityTable,
    Play,
    Position,
    Probabilities,
    RankedPlay,
    ReadPosition,
    RolloutResult,
    Server,
    __version__,
    max_threads,
    read_dice,
    read_position,
)
from gammon.analysis import analyse
from gammon.batch import legal_plays_batch
from gammon.batch_rollout import rollout_batch
from gammon.rollouts import merge_rollouts, policy_play, rollout, rollout_cube, rollout_plays

Evaluation = Probabilities
"""The former name of :class:`Probabilities`, kept so that older code still imports it."""

__all__ = [
    "Action",
    "Analysis",
    "AnalysisDecision",
    "AnalysisPlayer",
    "Bot",
    "CubeAction",
    "CubeContext",
    "CubeRolloutResult",
    "Evaluation",
    "Game",
    "GammonError",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidFormatError",
    "InvalidPositionError",
    "MAX_TRIALS",
    "Match",
    "MatchEquityTable",
    "PROBABILITY_NAMES",
    "Play",
    "Position",
    "Probabilities",
    "RankedPlay",
    "ReadPosition",
    "RolloutResult",
    "Server",
    "__version__",
    "analyse",
    "legal_plays_batch",
    "max_threads",
    "merge_rollouts",
    "policy_play",
    "read_dice",
    "read_position",
    "rollout",
    "rollout_batch",
    "rollout_cube",
    "rollout_plays",
]
