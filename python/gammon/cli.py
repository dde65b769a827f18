"""The ``gammon`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from gammon._core import GammonError
from gammon.notation import parse_dice, parse_position


def _plays(args: argparse.Namespace) -> int:
    position = parse_position(args.position)
    d1, d2 = parse_dice(args.dice)
    plays = position.legal_plays(d1, d2)
    if args.json:
        print(
            json.dumps(
                {
                    "position": position.id,
                    "dice": [d1, d2],
                    "plays": [
                        {"play": str(p), "moves": [list(m) for m in p.moves], "position": p.position.id}
                        for p in plays
                    ],
                }
            )
        )
        return 0
    print(position)
    print(f"\n{len(plays)} legal plays of {d1}{d2}:")
    for i, play in enumerate(plays, 1):
        print(f"{i:4d}. {str(play) or '(no move)'}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="gammon", description="A fast, strict backgammon engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    plays = sub.add_parser("plays", help="list the legal plays of a roll")
    plays.add_argument(
        "position", nargs="?", default="opening", help="Position ID, PositionID:MatchID, XGID or 'opening'"
    )
    plays.add_argument("dice", nargs="?", default="31", help="the roll, e.g. 31 or 3-1 (default 31)")
    plays.add_argument("--json", action="store_true", help="machine-readable output")
    plays.set_defaults(run=_plays)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``gammon`` command."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except GammonError as e:
        print(f"gammon: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
