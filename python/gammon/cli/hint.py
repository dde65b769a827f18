"""``gammon hint``: the bot's advice on a position, as a table or as JSON.

With dice (given on the command line, or rolled in the Match ID or XGID) it ranks every legal play;
without them it gives the cube decision of the player on roll. A ``PositionID:MatchID`` or an XGID
also carries the cube and the match score, and the plays are then ranked in that context; a bare
Position ID is a money game with the cube in the middle.
"""

from __future__ import annotations

import argparse
import json

from gammon._core import (
    PROBABILITY_NAMES,
    Bot,
    CubeAction,
    CubeContext,
    Position,
    Probabilities,
    RankedPlay,
    ReadPosition,
    read_dice,
    read_position,
)
from gammon.cli.results import output_console


def probabilities(e: Probabilities) -> dict[str, float]:
    """The five cumulative probabilities of an evaluation, by name."""
    return {name: getattr(e, name) for name in PROBABILITY_NAMES}


def describe(situation: ReadPosition) -> str:
    """Who is on roll, at what score and with what cube, in a few words."""
    match, game = situation.match, situation.game
    if match is None or game is None:
        return "money game, cube centred"
    if game.cube_owner is None:
        owner = "centred"
    else:
        owner = "owned by the player on roll" if game.cube_owner == game.turn else "owned by the opponent"
    if match.length == 0:
        kind = "money game" + ", Jacoby rule" * game.jacoby + ", beavers" * game.beavers
    else:
        us, them = match.score[game.turn or 0], match.score[1 - (game.turn or 0)]
        crawford = ", Crawford game" if match.is_crawford_game else ""
        kind = f"{match.length}-point match, score {us}-{them} for the player on roll{crawford}"
    return f"{kind}, cube {game.cube_value} {owner}"


def context(situation: ReadPosition) -> CubeContext | None:
    """The cube and score the ID carried; None for a bare Position ID (cubeless money)."""
    return None if situation.game is None else CubeContext.from_game(situation.game)


def hint(args: argparse.Namespace) -> int:
    """Runs ``gammon hint`` with parsed arguments; the exit status."""
    situation = read_position(args.position)
    dice = read_dice(" ".join(args.dice)) if args.dice else situation.dice
    bot = Bot(ply=args.ply)
    if dice is None:
        return _cube(args, situation, situation.on_roll(), bot)
    return _plays(args, situation, situation.with_dice(*dice), bot, dice)


def _plays(
    args: argparse.Namespace, situation: ReadPosition, position: Position, bot: Bot, dice: tuple[int, int]
) -> int:
    ctx = context(situation)
    ranked = bot.rank_plays(position, *dice, context=ctx)
    measure = "cubeless money equity" if ctx is None else "cubeful equity in this cube and score context"
    shown = ranked[: args.top] if args.top else ranked
    best = ranked[0].equity
    if args.json:
        data = {
            "input": args.position,
            "position": position.id,
            "context": describe(situation),
            "dice": list(dice),
            "ply": bot.ply,
            "cubeful": ctx is not None,
            "plays": [_play_dict(rank, r, best) for rank, r in enumerate(shown, 1)],
        }
        print(json.dumps(data))
        return 0
    from rich.table import Table

    d1, d2 = dice
    out = output_console()
    out.print(f"{args.position.strip()}: {describe(situation)}")
    out.print(f"Plays of {d1}-{d2}, ranked by the bot at {bot.ply}-ply by {measure}")
    table = Table()
    for column in ("#", "play", "equity", "diff"):
        table.add_column(column, justify="left" if column == "play" else "right")
    for rank, r in enumerate(shown, 1):
        diff = "" if rank == 1 else f"{r.equity - best:+.4f}"
        table.add_row(str(rank), str(r.play) or "(no move)", f"{r.equity:+.4f}", diff)
    out.print(table)
    p = ranked[0].probabilities
    out.print(
        f"Best play: win {p.win:.4f} (gammon {p.win_gammon:.4f}, backgammon {p.win_backgammon:.4f}), "
        f"lose {1 - p.win:.4f} (gammon {p.lose_gammon:.4f}, backgammon {p.lose_backgammon:.4f})"
    )
    if len(shown) < len(ranked):
        # How to see the rest depends on the front-end: `gammon hint`'s option, or what a caller
        # such as `gammon play` says in `args.more`.
        more = getattr(args, "more", "--top 0 lists them all")
        out.print(f"({len(ranked) - len(shown)} more plays; {more})")
    return 0


def _play_dict(rank: int, r: RankedPlay, best: float) -> dict[str, object]:
    return {
        "rank": rank,
        "play": str(r.play),
        "moves": [list(m) for m in r.play.moves],
        "equity": r.equity,
        "difference": r.equity - best,
        "probabilities": probabilities(r.probabilities),
    }


def _cube(args: argparse.Namespace, situation: ReadPosition, position: Position, bot: Bot) -> int:
    action = bot.cube_action(position, context(situation) or CubeContext.money())
    evaluation = bot.evaluate(position)
    if args.json:
        data = {
            "input": args.position,
            "position": position.id,
            "context": describe(situation),
            "ply": bot.ply,
            "cube": _cube_dict(action),
            "probabilities": probabilities(evaluation),
            "cubeless_equity": evaluation.equity,
        }
        print(json.dumps(data))
        return 0
    from rich.table import Table

    out = output_console()
    out.print(f"{args.position.strip()}: {describe(situation)}")
    out.print(
        f"Cube decision of the player on roll, by the bot at {bot.ply}-ply: [bold]{action.label}[/bold]"
    )
    if not action.may_double:
        out.print("(the cube is not available to the player on roll)")
    table = Table()
    for column in ("", "equity", "diff"):
        table.add_column(column, justify="left" if not column else "right")
    for name, equity in (
        ("No double", action.no_double),
        ("Double, take", action.double_take),
        ("Double, pass", action.double_pass),
    ):
        table.add_row(name, f"{equity:+.4f}", f"{equity - action.equity:+.4f}")
    out.print(table)
    e = evaluation
    out.print(
        f"Cubeless: win {e.win:.4f} (gammon {e.win_gammon:.4f}, backgammon {e.win_backgammon:.4f}), "
        f"lose {1 - e.win:.4f} (gammon {e.lose_gammon:.4f}, backgammon {e.lose_backgammon:.4f}), "
        f"equity {e.equity:+.4f}"
    )
    return 0


def _cube_dict(action: CubeAction) -> dict[str, object]:
    names = ("label", "double", "take", "beaver", "may_double", "no_double", "double_take", "double_pass")
    return {name: getattr(action, name) for name in (*names, "equity")}
