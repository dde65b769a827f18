"""Match analysis from Python: every decision of a match judged by the bot, GNU Backgammon style."""

from __future__ import annotations

from collections.abc import Callable

from gammon import _core
from gammon._core import Analysis, Match

AnalysisProgress = Callable[[int, int], bool | None]


def analyse(
    match: Match,
    ply: int = 0,
    threads: int | None = None,
    progress: AnalysisProgress | None = None,
    *,
    doubtful: float = 0.03,
    bad: float = 0.06,
    very_bad: float = 0.12,
) -> Analysis:
    """Analyse every checker play, cube decision and resignation of ``match`` (a :class:`Match`,
    say from :meth:`Match.from_mat` or :meth:`Match.from_sgf`) with the bot at ``ply`` (0, 1 or 2).

    Checker plays are ranked by cubeful equity at the score; a cube decision counts when the
    player doubled or doubling was close (it would cost less than 0.16), and every take decision
    counts; forced plays are listed but never counted. Equities are equivalent money equity
    normalised to the cube in play (GNU Backgammon's EMG), with the match winning chance beside
    them in match play. Errors from ``doubtful``, ``bad`` and ``very_bad`` (GNU Backgammon's
    defaults 0.03, 0.06, 0.12) are marked. Each roll's luck is the equity of the best play of the
    dice rolled minus the average over all 21 rolls, at 0-ply, marked as GNU Backgammon marks it
    (``luck_mark``: lucky above +0.3, very lucky above +0.6, unlucky and very unlucky below -0.3 and
    -0.6); each player has the counts, ``luck_rating`` and ``luck_adjusted_result``.
    ``Analysis.to_sgf()`` writes the match as GNU Backgammon ``.sgf`` with the luck and the marks,
    which gnubg shows when it opens the file.

    The decisions are judged in parallel on ``threads`` workers (``None``: every core) with the
    GIL released, and the result is the same on any number of them. ``progress`` is called with
    ``(done, total)`` as decisions are judged; returning ``False`` stops the analysis, which then
    raises :class:`GammonError`; Ctrl-C raises KeyboardInterrupt.

    >>> m = Match.from_mat(" 1 point match\\n\\n Game 1\\n A : 0   B : 0\\n"
    ...                    "  1) 31: 8/5 6/5    52: 13/11 13/8\\n  2)  Doubles => 2   Drops\\n"
    ...                    "      Wins 1 point and the match\\n")
    >>> a = analyse(m)
    >>> [d.kind for d in a.decisions]
    ['checker', 'checker', 'double', 'take']
    >>> a.players[0].name, a.decisions[0].played, a.decisions[0].best
    ('A', '8/5 6/5', '8/5 6/5')
    """
    return _core.analyse(match, ply, threads, progress, doubtful, bad, very_bad)
