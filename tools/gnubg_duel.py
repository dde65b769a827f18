"""Mirrored-dice duel of gammon's bot, GNU Backgammon's 0-ply net and pubeval (PyPI ``gnubg-nn``).

Measurement only (needs ``pip install gnubg-nn==1.1.0a11``); every rule comes from the engine:
legal plays, the play gnubg names (matched by the position it leads to) and the score of a
finished game (``Bot.evaluate`` of a won position is its value: 1, 2 or 3). Cubeless money games;
each dice sequence is played twice with the seats swapped; the report is the side's points per
game (by default gammon's bot against gnubg's net) with the standard error over the pairs.

``--side pubeval`` seats gnubg-nn's own pubeval (``pub_best_move``) instead of gammon's bot, which
measures what gnubg's 0-ply net scores against pubeval in the same harness; ``--opponent pubeval``
seats it against gammon's bot instead of gnubg's net. Besides the points per game, the games
are counted by the points the side won in them (-3 to 3), which shows where two players differ:
in the games won, or in the gammons.

``--gnubg-class contact|crashed|race`` has gammon's bot hand the positions of that gnubg position
class to gnubg's net: how much the side would gain if it played those positions as well as gnubg
does, which says where the bot's 0-ply play falls short.

``--policy NAME`` seats one of the rollouts' policies (``net``, ``net-fast``, ``net-all``, as
``gammon.policy_play`` plays them) instead of gammon's bot: how strong the players of a rollout are
against gnubg's 0-ply, directly rather than through a duel with the bot.

``--gnubg-ply N`` has gnubg search N plies deep (gnubg-nn's ``best_move`` with ``n=N``, its own
move filters) where it plays, so that each depth of ours meets gnubg's at the same depth.

    python tools/gnubg_duel.py [--pairs 500] [--seed 1] [--ply 0] [--side gammon|pubeval]
                                 [--opponent gnubg|pubeval] [--gnubg-class CLASS] [--gnubg-ply 0]
                                 [--policy NAME]
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import Counter
from collections.abc import Callable

import gnubg_nn

from gammon import Bot, Play, Position, policy_play


def gnubg_board(position: Position) -> list[list[int]]:
    """gnubg's board: [opponent, player on roll], each 24 points in its own numbering + bar."""
    b = position.to_list()
    ours = [max(b[i + 1], 0) for i in range(24)] + [b[25]]
    theirs = [max(-b[24 - i], 0) for i in range(24)] + [-b[0]]
    return [theirs, ours]


Chooser = Callable[[Position, int, int], Play]


def gnubg_play(position: Position, d1: int, d2: int, choose=gnubg_nn.best_move) -> Play:
    """The legal play that gnubg-nn's `choose` (its net's `best_move` or `pub_best_move`) names."""
    plays = position.legal_plays(d1, d2)
    if len(plays) == 1:
        return plays[0]
    board = position.to_list()
    for src, dst in choose(gnubg_board(position), d1, d2):
        board[src] -= 1
        if dst > 0:
            if board[dst] == -1:
                board[dst] = 0
                board[0] -= 1
            board[dst] += 1
    target = Position.from_list(board)
    for play in plays:
        if play.position.to_list() == target.to_list():
            return play
    raise RuntimeError(f"gnubg's play is not legal in {position.id} {d1}{d2}")


CLASSES = {gnubg_nn.c_contact: "contact", gnubg_nn.c_crashed: "crashed", gnubg_nn.c_race: "race"}


def deferring(choose: Chooser, gnubg_class: str) -> Chooser:
    """`choose`, except in the positions of gnubg's class `gnubg_class`, where gnubg's net plays."""

    def chooser(position: Position, d1: int, d2: int) -> Play:
        if CLASSES.get(gnubg_nn.classify(gnubg_board(position))) == gnubg_class:
            return gnubg_play(position, d1, d2)
        return choose(position, d1, d2)

    return chooser


def play_game(bot: Bot, side: Chooser, other: Chooser, side_seat: int, rng: random.Random) -> int:
    """Points won by seat 0 (negative when seat 1 wins); `side` plays the seat `side_seat`,
    `other` the other one."""
    position = Position.initial()
    seat = rng.randrange(2)
    while True:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        play = (side if seat == side_seat else other)(position, d1, d2)
        if play.position.off[0] == 15:
            points = round(bot.evaluate(play.position).equity)
            return points if seat == 0 else -points
        position = play.position.swapped()
        seat = 1 - seat


def pubeval_moves(board: list[list[int]], d1: int, d2: int) -> list[tuple[int, int]]:
    """gnubg-nn's pubeval play as `best_move` gives gnubg's: pairs counted from 1 (the bar 25,
    off 0), where `pub_best_move` gives a flat list from, to, from, to... counted from 0 (the bar
    24, off -1)."""
    flat = gnubg_nn.pub_best_move(board, d1, d2)
    return [(flat[k] + 1, flat[k + 1] + 1) for k in range(0, len(flat), 2)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ply", type=int, default=0)
    parser.add_argument("--side", choices=["gammon", "pubeval"], default="gammon")
    parser.add_argument("--opponent", choices=["gnubg", "pubeval"], default="gnubg")
    parser.add_argument("--gnubg-class", choices=sorted(CLASSES.values()))
    parser.add_argument("--gnubg-ply", type=int, default=0, choices=range(3))
    parser.add_argument("--policy", choices=["net", "net-fast", "net-all"])
    args = parser.parse_args()
    if args.side == args.opponent:
        parser.error("--side and --opponent must differ")
    bot = Bot(ply=args.ply)
    gammon_name, gammon_side = f"gammon bot ply {args.ply}", bot.best_play
    if args.gnubg_class:
        gammon_name += f" (gnubg's net in {args.gnubg_class} positions)"
        gammon_side = deferring(bot.best_play, args.gnubg_class)
    if args.policy:
        if args.ply or args.gnubg_class:
            parser.error("--policy plays at 0-ply, without --gnubg-class")
        policy = args.policy
        gammon_name = f"gammon rollout policy {policy}"
        gammon_side = lambda p, d1, d2: policy_play(p, d1, d2, policy)  # noqa: E731

    def gnubg_searching(board: list[list[int]], d1: int, d2: int) -> list[tuple[int, int]]:
        return gnubg_nn.best_move(board, d1, d2, args.gnubg_ply)

    players: dict[str, tuple[str, Chooser]] = {
        "gammon": (gammon_name, gammon_side),
        "gnubg": (
            f"gnubg {args.gnubg_ply}-ply",
            lambda p, d1, d2: gnubg_play(p, d1, d2, gnubg_searching),
        ),
        "pubeval": ("gnubg-nn's pubeval", lambda p, d1, d2: gnubg_play(p, d1, d2, pubeval_moves)),
    }
    name, side = players[args.side]
    opponent_name, other = players[args.opponent]

    nets: list[int] = []
    # Games by the points `side` won in them (negative: lost), -3 to 3.
    outcomes: Counter[int] = Counter()
    start = time.time()
    for pair in range(args.pairs):
        net = 0
        for side_seat in (0, 1):
            points = play_game(bot, side, other, side_seat, random.Random(args.seed * 1_000_003 + pair))
            won = points if side_seat == 0 else -points
            outcomes[won] += 1
            net += won
        nets.append(net)
    n = len(nets)
    mean = sum(nets) / n
    var = sum((x - mean) ** 2 for x in nets) / max(n - 1, 1)
    print(
        f"{name} vs {opponent_name}: {mean / 2:+.3f} +- {math.sqrt(var / n) / 2:.3f} "
        f"points per game over {2 * n} games ({time.time() - start:.0f} s)"
    )
    print("games by points won:", ", ".join(f"{k:+d}: {outcomes[k]}" for k in sorted(outcomes)))


if __name__ == "__main__":
    main()
