"""``gammon show``: a position as a board in the terminal, as SVG, or as JSON.

The position is read by the one reader (Position ID, ``PositionID:MatchID``, XGID, ...); a
``PositionID:MatchID`` or a whole XGID also brings the cube, the score and the dice rolled, which
the SVG picture shows. The picture is drawn by the Rust picture crate, as ``Position.to_svg`` and
the server's ``/v1/board.svg`` draw it.
"""

from __future__ import annotations

import argparse
import json
import sys

from gammon._core import ReadPosition, read_dice, read_position
from gammon.cli.hint import describe
from gammon.cli.results import output_console


def svg(situation: ReadPosition, dice: tuple[int, int] | None, bottom: str) -> str:
    """The SVG picture of what was read: with the match around it when the text carried one."""
    if situation.match is not None:
        return situation.match.to_svg(dice, bottom="us" if bottom == "us" else "them")
    return situation.position.to_svg(dice, bottom="us" if bottom == "us" else "them")


def show(args: argparse.Namespace) -> int:
    """Runs ``gammon show`` with parsed arguments; the exit status."""
    situation = read_position(args.position)
    dice = read_dice(" ".join(args.dice)) if args.dice else situation.dice
    position = situation.position
    if args.svg is not None:
        text = svg(situation, dice, args.bottom)
        if args.svg == "-":
            sys.stdout.write(text)
        else:
            with open(args.svg, "w", encoding="utf-8") as f:
                f.write(text)
        if args.svg == "-" or not args.json:
            return 0
    if args.json:
        data = {
            "input": args.position,
            "position": position.id,
            "xgid": position.xgid,
            "context": describe(situation),
            "board": position.to_list(),
            "pips": list(position.pips),
            "off": list(position.off),
            "dice": None if dice is None else list(dice),
        }
        print(json.dumps(data))
        return 0
    _board(args.position.strip(), situation, dice)
    return 0


def _board(shown: str, situation: ReadPosition, dice: tuple[int, int] | None) -> None:
    """The engine's board diagram (its last line has the pips and the borne-off checkers) with the
    player on roll's checkers (X) and the opponent's (O) in colour, and the dice."""
    from rich.text import Text

    position = situation.position
    out = output_console()
    out.print(f"{shown}: {describe(situation)}", highlight=False)
    diagram = Text(str(position))
    diagram.highlight_regex(r"X", "bold bright_white on blue")
    diagram.highlight_regex(r"O", "bold black on bright_red")
    out.print(diagram)
    if dice is not None:
        out.print(f"dice: {dice[0]}-{dice[1]}", highlight=False)
