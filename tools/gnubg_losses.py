"""Where gammon's 0-ply bot plays differently from GNU Backgammon's 0-ply net (PyPI ``gnubg-nn``).

Measurement only (needs ``pip install gnubg-nn==1.1.0a11``). The bot plays pubeval with mirrored
dice, as in ``gnubg_duel.py --opponent pubeval``; at each of the bot's decisions in a contact or
crashed position, gnubg names its own play, and where the two differ gnubg's 0-ply net judges
both: the equity the bot gives up by gnubg's judgement. The report sums it per game, by gnubg's
position class and by a few features of the position (a decision can have several), and splits
it into the winning chances and the gammons. gnubg is not the truth, and the sums count errors
its net sees, not points lost (gnubg_duel.py's ``--gnubg-class`` measures those), but they show
where the two nets part.

    python tools/gnubg_losses.py [--pairs 2500] [--seed 11]
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

import gnubg_nn
from gnubg_duel import CLASSES, gnubg_board, gnubg_play, play_game, pubeval_moves

from gammon import Bot, Play, Position


def mover_probabilities(play: Play) -> list[float]:
    """gnubg's 0-ply probabilities after `play`, for the player who made it (win, win gammon,
    win backgammon, lose gammon, lose backgammon)."""
    w, wg, wb, lg, lb = gnubg_nn.probabilities(gnubg_board(play.position.swapped()), 0)
    return [1 - w, lg, lb, wg, wb]


def longest_prime(made: list[bool]) -> int:
    best = run = 0
    for m in made:
        run = run + 1 if m else 0
        best = max(best, run)
    return best


def features(position: Position) -> list[str]:
    """Some features of a position, seen from the side on roll."""
    b = position.to_list()
    ours = [max(b[i], 0) for i in range(1, 25)]
    theirs = [max(-b[i], 0) for i in range(1, 25)]
    ours_pips, theirs_pips = position.pips
    out = []
    if b[25] > 0 or b[0] < 0:
        out.append("a checker on the bar")
    if longest_prime([n >= 2 for n in ours]) >= 4:
        out.append("own prime of 4+")
    if longest_prime([n >= 2 for n in theirs]) >= 4:
        out.append("opponent's prime of 4+")
    lead = theirs_pips - ours_pips
    out.append("race lead > 30" if lead > 30 else "race deficit > 30" if lead < -30 else "race within 30")
    if ours_pips + theirs_pips >= 280:
        out.append("early (pips >= 280)")
    if sum(ours[18:24]) + b[25] == 0:
        out.append("own back checkers escaped")
    if sum(n >= 2 for n in ours[0:6]) >= 5:
        out.append("own board of 5+ points")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2500)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    bot = Bot(ply=0)
    decisions: defaultdict[str, int] = defaultdict(int)
    differing: defaultdict[str, int] = defaultdict(int)
    # Equity given up: total, in the winning chances, in the gammons and backgammons.
    given_up: defaultdict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])

    def side(position: Position, d1: int, d2: int) -> Play:
        ours = bot.best_play(position, d1, d2)
        cls = CLASSES.get(gnubg_nn.classify(gnubg_board(position)))
        if cls not in ("contact", "crashed"):
            return ours
        theirs = gnubg_play(position, d1, d2)
        loss = [0.0, 0.0, 0.0]
        if theirs.position != ours.position:
            a, b = mover_probabilities(theirs), mover_probabilities(ours)
            wins = 2 * (a[0] - b[0])
            gammons = (a[1] - b[1]) + (a[2] - b[2]) - (a[3] - b[3]) - (a[4] - b[4])
            loss = [wins + gammons, wins, gammons]
        for key in ["all", cls, *features(position)]:
            decisions[key] += 1
            differing[key] += loss[0] != 0.0
            given_up[key] = [x + y for x, y in zip(given_up[key], loss)]
        return ours

    def pubeval(position: Position, d1: int, d2: int) -> Play:
        return gnubg_play(position, d1, d2, pubeval_moves)

    for pair in range(args.pairs):
        for seat in (0, 1):
            play_game(bot, side, pubeval, seat, random.Random(args.seed * 1_000_003 + pair))
    games = 2 * args.pairs
    print(f"gammon bot ply 0 against pubeval, {games} games; equity given up by gnubg's 0-ply judgement")
    print(
        f"{'':28s} {'per game':>9s} {'differ':>7s} {'given up':>9s} {'wins':>7s} {'gammons':>8s} {'per decision':>13s}"
    )
    for key in sorted(decisions, key=lambda k: -given_up[k][0]):
        total, wins, gammons = (x / games for x in given_up[key])
        print(
            f"{key:28s} {decisions[key] / games:9.2f} {differing[key] / decisions[key]:7.1%} "
            f"{total:9.4f} {wins:7.4f} {gammons:8.4f} {given_up[key][0] / decisions[key]:13.4f}"
        )


if __name__ == "__main__":
    main()
