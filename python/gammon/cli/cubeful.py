"""``gammon rollout`` with the cube: the cube and score context from the position's Match ID or
XGID or from options, cubeful rollouts (``--cubeful``) and cube-decision rollouts (``--cube``)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from gammon._core import CubeContext, GammonError
from gammon.cli.results import output_console, result_dict

if TYPE_CHECKING:
    from gammon._core import CubeRolloutResult, ReadPosition, RolloutResult


def add_options(roll: argparse.ArgumentParser) -> None:
    """The rollout command's cube options."""
    roll.add_argument(
        "--cube",
        action="store_true",
        help="roll out the cube decision of the player on roll: no double against double, take, "
        "over the same dice",
    )
    roll.add_argument(
        "--cubeful",
        action="store_true",
        help="play the cube in every game (the bot's cube decisions): cubeful equity besides the cubeless",
    )
    roll.add_argument(
        "--money", action="store_true", help="money play with a centred 1-cube (instead of the ID's context)"
    )
    roll.add_argument("--jacoby", action="store_true", help="with --money: the Jacoby rule")
    roll.add_argument("--beavers", action="store_true", help="with --money: beavers allowed")
    roll.add_argument("--match", type=int, metavar="N", default=None, help="match play to N points")
    roll.add_argument(
        "--score",
        metavar="A,B",
        default=None,
        help="with --match: the score, player on roll first (default 0,0)",
    )
    roll.add_argument("--crawford", action="store_true", help="with --match: this is the Crawford game")
    roll.add_argument(
        "--cube-value", type=int, default=None, metavar="V", help="the cube's value (default 1)"
    )
    roll.add_argument(
        "--cube-owner", choices=("us", "them"), default=None, help="who owns the cube (default: centred)"
    )
    roll.add_argument(
        "--ply",
        type=int,
        choices=(0, 1),
        default=0,
        help="depth of the rollout's players: 0 (default) or 1 (the bot's 1-ply search; far slower)",
    )


def wanted(args: argparse.Namespace) -> bool:
    """Whether the command asks for the cube at all."""
    return bool(args.cube or args.cubeful)


def check_unused(args: argparse.Namespace) -> None:
    """Context options without --cube or --cubeful are a mistake, not silently ignored."""
    given = [
        name
        for name, value in (
            ("--money", args.money),
            ("--jacoby", args.jacoby),
            ("--beavers", args.beavers),
            ("--match", args.match is not None),
            ("--score", args.score is not None),
            ("--crawford", args.crawford),
            ("--cube-value", args.cube_value is not None),
            ("--cube-owner", args.cube_owner is not None),
        )
        if value
    ]
    if given:
        raise GammonError(f"{given[0]} goes with --cube or --cubeful")


def context(args: argparse.Namespace, start: ReadPosition | None) -> CubeContext:
    """The cube and score context: from the options when given, else from the position's Match ID or
    XGID (``start``; None in a batch, whose positions share one context), else money play with a
    centred cube."""
    value, owner = args.cube_value, args.cube_owner
    if args.match is not None:
        if args.money:
            raise GammonError("--money and --match exclude each other")
        score = (0, 0)
        if args.score is not None:
            try:
                a, b = (int(x) for x in args.score.split(","))
            except ValueError:
                raise GammonError(f"--score must be two points A,B, got {args.score!r}") from None
            score = (a, b)
        away = (args.match - score[0], args.match - score[1])
        return CubeContext.match(away, value=value, owner=owner, crawford=args.crawford)
    if args.score is not None or args.crawford:
        raise GammonError("--score and --crawford go with --match N")
    if args.money or value is not None or owner is not None or start is None or start.game is None:
        return CubeContext.money(value=value, owner=owner, jacoby=args.jacoby, beavers=args.beavers)
    if args.jacoby or args.beavers:
        raise GammonError("--jacoby and --beavers go with --money")
    return CubeContext.from_game(start.game)


def describe(ctx: CubeContext) -> str:
    """The context in a few words."""
    holder = "the player on roll" if ctx.owner == "us" else "the opponent"
    owner = "centred" if ctx.owner is None else f"owned by {holder}"
    cube = f"{ctx.value}-cube {owner}"
    if ctx.away is None:
        rules = "".join([", Jacoby" if ctx.jacoby else "", ", beavers" if ctx.beavers else ""])
        return f"money, {cube}{rules}"
    crawford = ", Crawford" if ctx.crawford else (", post-Crawford" if ctx.post_crawford else "")
    return f"{ctx.away[0]}-away {ctx.away[1]}-away{crawford}, {cube}"


def cubeful_lines(result: RolloutResult) -> list[str]:
    """The cubeful figures of a rollout, one line each, for below its table."""
    if result.cubeful_equity is None:
        return []
    lines = [f"cubeful equity {result.cubeful_equity:+.4f} ± {result.cubeful_std_error:.4f}"]
    if result.mwc is not None:
        lines.append(f"match winning chance {result.mwc:.4f} ± {result.mwc_std_error:.4f}")
    return lines


def cube_dict(r: CubeRolloutResult, policy: str) -> dict[str, Any]:
    """A cube-decision rollout's figures for ``--json``."""
    return {
        "label": r.label,
        "double": r.double,
        "take": r.take,
        "beaver": r.beaver,
        "no_double": r.no_double,
        "double_take": r.double_take,
        "double_pass": r.double_pass,
        "no_double_std_error": r.no_double_std_error,
        "double_take_std_error": r.double_take_std_error,
        "difference_std_error": r.difference_std_error,
        "rollout": result_dict(r.result, policy),
    }


def print_cube(args: argparse.Namespace, ctx: CubeContext, r: CubeRolloutResult) -> None:
    """A cube-decision rollout as JSON or as a table."""
    if args.json:
        print(json.dumps({"position": args.position, "context": describe(ctx), **cube_dict(r, args.policy)}))
        return
    from rich.table import Table

    table = Table(title=f"Cube decision of {args.position} by rollout ({describe(ctx)}; {args.policy})")
    for column in ("", "equity", "± s.e."):
        table.add_column(column, justify="right")
    table.add_row("No double", f"{r.no_double:+.4f}", f"{r.no_double_std_error:.4f}")
    table.add_row("Double, take", f"{r.double_take:+.4f}", f"{r.double_take_std_error:.4f}")
    table.add_row("Double, pass", f"{r.double_pass:+.4f}", "")
    table.add_row("take - no double", f"{r.double_take - r.no_double:+.4f}", f"{r.difference_std_error:.4f}")
    out = output_console()
    out.print(table)
    out.print(f"Proper cube action: {r.label}")
    speed = r.trials / r.seconds if r.seconds > 0 else 0.0
    note = " (stopped early: cancelled)" if r.cancelled else ""
    out.print(f"{r.trials} trials in {r.seconds:.2f} s, {speed:,.0f} games/s{note}")
