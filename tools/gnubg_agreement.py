"""How close the bot's 0-ply evaluations come to GNU Backgammon's 0-ply net (PyPI ``gnubg-nn``).

Measurement only (needs ``pip install gnubg-nn==1.1.0a11``). The positions come from games that
gnubg plays against itself, one play in seven picked at random among the legal ones (seeded), so
that they do not depend on the net being measured; each position (the side on roll to move next)
is judged by both programs, and the report gives, per gnubg's position class, the root mean
square difference of the cubeless equities and of the winning chances. gnubg is not the truth,
but its 0-ply net is the stronger of the two, so a smaller difference is a better evaluator.

    python tools/gnubg_agreement.py [--positions 20000] [--seed 7]
"""

from __future__ import annotations

import argparse
import math
import random

import gnubg_nn
from gnubg_duel import CLASSES, gnubg_board, gnubg_play

from gammon import Bot, Position


def cubeless_equity(p: list[float]) -> float:
    return 2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bot = Bot(ply=0)
    sums: dict[str, list[float]] = {name: [0.0, 0.0, 0] for name in CLASSES.values()}
    seen = 0
    while seen < args.positions:
        position = Position.initial()
        while seen < args.positions:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            plays = position.legal_plays(d1, d2)
            play = rng.choice(plays) if rng.random() < 1 / 7 else gnubg_play(position, d1, d2)
            if play.position.off[0] == 15:
                break
            position = play.position.swapped()
            board = gnubg_board(position)
            name = CLASSES.get(gnubg_nn.classify(board))
            if name is None:
                continue
            theirs = gnubg_nn.probabilities(board, 0)
            ours = bot.evaluate(position)
            s = sums[name]
            s[0] += (ours.equity - cubeless_equity(theirs)) ** 2
            s[1] += (ours.win - theirs[0]) ** 2
            s[2] += 1
            seen += 1
    print(f"gammon bot 0-ply against gnubg 0-ply over {seen} positions (seed {args.seed})")
    print(f"{'class':10} {'positions':>9} {'equity rmse':>12} {'win rmse':>9}")
    for name, (equity, win, n) in sums.items():
        if n:
            print(f"{name:10} {n:9d} {math.sqrt(equity / n):12.4f} {math.sqrt(win / n):9.4f}")


if __name__ == "__main__":
    main()
