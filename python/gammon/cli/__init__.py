"""The ``gammon`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gammon._core import PROBABILITY_NAMES, GammonError, RolloutResult, read_dice, read_position
from gammon.cli.results import result_dict
from gammon.rollouts import rollout, rollout_plays

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

GAMES = ("backgammon", "battlegammon")
RULE_HELP = "a Battlegammon rule option, e.g. turn_cap=200 or maximize_dice=1 (repeatable)"


def _plays(args: argparse.Namespace) -> int:
    read = read_position(args.position)
    d1, d2 = read_dice(args.dice)
    position = read.with_dice(d1, d2)
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


def _rule_options(args: argparse.Namespace) -> dict[str, int]:
    options: dict[str, int] = {}
    for item in args.rule or []:
        name, sep, value = item.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            raise GammonError(f"--rule takes NAME=INTEGER, e.g. turn_cap=200; got {item!r}")
        options[name.strip()] = int(value)
    return options


def _progress_bar(console: Console, total: int, show: bool) -> Progress:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("[bold]rollout"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} trials"),
        TextColumn("{task.fields[speed]}"),
        TextColumn("{task.fields[equity]}"),
        TimeElapsedColumn(),
        console=console,
        disable=not show,
    )


def _games_per_second(trials: int, seconds: float) -> float:
    return trials / seconds if seconds > 0 else 0.0


def _battlegammon_rollout(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from gammon import battlegammon

    for flag, value in (
        ("--truncate", args.truncate),
        ("--max-std-error", args.max_std_error),
        ("--plays", args.plays),
    ):
        if value is not None:
            raise GammonError(f"{flag} is not available for Battlegammon rollouts")
    if args.trials < 1 or args.seed < 0:
        raise GammonError(
            f"--trials must be at least 1 and --seed at least 0; got {args.trials} and {args.seed}"
        )
    name = args.position or "initial"
    start = battlegammon.parse_position(name)
    console = Console(stderr=True)
    show = not args.json and console.is_terminal
    with _progress_bar(console, args.trials, show) as bar:
        task = bar.add_task("rollout", total=args.trials, speed="", equity="")

        def progress(r: battlegammon.RolloutResult) -> None:
            bar.update(
                task,
                completed=r.trials,
                speed=f"{_games_per_second(r.trials, r.seconds):,.0f} games/s",
                equity=f"equity {r.equity:+.4f} ± {r.std_error:.4f}",
            )

        result = battlegammon.rollout(
            start,
            trials=args.trials,
            seed=args.seed,
            threads=args.threads,
            policy=args.policy,
            progress=progress,
            **_rule_options(args),
        )
    speed = _games_per_second(result.trials, result.seconds)
    if args.json:
        data = {
            "game": "battlegammon",
            "position": start.id,
            "turn": start.turn,
            "win": result.win,
            "lose": result.lose,
            "draw": result.draw,
            "equity": result.equity,
            "std_error": result.std_error,
            "trials": result.trials,
            "seed": result.seed,
            "seconds": result.seconds,
            "games_per_second": speed,
            "cancelled": result.cancelled,
        }
        print(json.dumps(data))
        return 0
    title = f"Battlegammon rollout of {name} ({args.policy}, seed {args.seed}, {start.turn} to move)"
    table = Table(title=title)
    for column in ("", "win", "lose", "draw", "equity"):
        table.add_column(column, justify="right")
    table.add_row(
        "value", f"{result.win:.4f}", f"{result.lose:.4f}", f"{result.draw:.4f}", f"{result.equity:+.4f}"
    )
    table.add_row("± s.e.", "", "", "", f"{result.std_error:.4f}")
    out = Console()
    out.print(table)
    note = " (stopped early: cancelled)" if result.cancelled else ""
    out.print(f"{result.trials} trials in {result.seconds:.2f} s, {speed:,.0f} games/s{note}")
    return 0


def _rollout(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    if args.policy is None:
        args.policy = "bot" if args.game == "battlegammon" else "net"
    if args.batch is not None:
        if args.game == "battlegammon":
            raise GammonError("--batch is for backgammon positions")
        from gammon.cli.batch import rollout_file

        return rollout_file(args)
    if args.output is not None or args.ray is not None:
        raise GammonError("--output and --ray go with --batch FILE")
    if args.game == "battlegammon":
        return _battlegammon_rollout(args)
    if args.rule:
        raise GammonError("--rule is for Battlegammon rollouts (--game battlegammon)")
    args.position = args.position or "opening"
    start = read_position(args.position)
    common = {"trials": args.trials, "seed": args.seed, "threads": args.threads, "policy": args.policy}
    if args.truncate is not None:
        common["truncate"] = args.truncate
    console = Console(stderr=True)
    if args.plays:
        d1, d2 = read_dice(args.plays)
        with console.status(f"rolling out every play of {d1}{d2} ({args.trials} trials each)..."):
            ranked = rollout_plays(start.with_dice(d1, d2), d1, d2, **common)  # type: ignore[arg-type]
        if args.json:
            plays = [{"play": str(p), **result_dict(r)} for p, r in ranked]
            print(json.dumps({"dice": [d1, d2], "plays": plays}))
            return 0
        table = Table(title=f"Plays of {d1}{d2}, ranked by cubeless rollout equity")
        for column in ("#", "play", "equity", "± s.e.", "win", "win g", "lose g", "trials"):
            table.add_column(column, justify="left" if column == "play" else "right")
        for i, (play, r) in enumerate(ranked, 1):
            table.add_row(
                str(i), str(play) or "(no move)", f"{r.equity:+.4f}", f"{r.std_error:.4f}", f"{r.win:.4f}",
                f"{r.win_gammon:.4f}", f"{r.lose_gammon:.4f}", str(r.trials),
            )  # fmt: skip
        Console().print(table)
        return 0
    show = not args.json and console.is_terminal
    with _progress_bar(console, args.trials, show) as bar:
        task = bar.add_task("rollout", total=args.trials, speed="", equity="")

        def progress(r: RolloutResult) -> None:
            bar.update(
                task,
                completed=r.trials,
                speed=f"{r.games_per_second:,.0f} games/s",
                equity=f"equity {r.equity:+.4f} ± {r.std_error:.4f}",
            )

        result = rollout(start, max_std_error=args.max_std_error, progress=progress, **common)  # type: ignore[arg-type]
    if args.json:
        print(json.dumps({"position": args.position, "named": start.named, **result_dict(result)}))
        return 0
    table = Table(title=f"Rollout of {args.position} ({args.policy}, seed {args.seed})")
    for column in ("", "win", "win gammon", "win bg", "lose", "lose gammon", "lose bg", "equity"):
        table.add_column(column, justify="right")
    e = result.std_errors
    # The columns: the three wins, then "lose" (1 - win, so its standard error is win's), then the
    # two losses.
    names = [*PROBABILITY_NAMES[:3], PROBABILITY_NAMES[0], *PROBABILITY_NAMES[3:]]
    values = [getattr(result, name) for name in names]
    values[3] = 1 - values[3]
    errors = [e[name] for name in names]
    table.add_row("value", *(f"{v:.4f}" for v in values), f"{result.equity:+.4f}")
    table.add_row("± s.e.", *(f"{v:.4f}" for v in errors), f"{result.std_error:.4f}")
    out = Console()
    out.print(table)
    note = ""
    if result.cancelled:
        note = " (stopped early: cancelled)"
    elif result.converged:
        note = " (stopped: standard error reached)"
    speed = f"{result.games_per_second:,.0f} games/s"
    out.print(f"{result.trials} trials in {result.seconds:.2f} s, {speed}{note}")
    return 0


def _play(args: argparse.Namespace) -> int:
    if args.game == "battlegammon":
        from gammon.cli.play_battlegammon import play as play_battlegammon

        if args.match or args.save or args.ply is not None:
            raise GammonError("--match, --save and --ply are for backgammon; Battlegammon plays one game")
        return play_battlegammon(args.seed, _rule_options(args))
    if args.rule:
        raise GammonError("--rule is for Battlegammon games (--game battlegammon)")
    from gammon.cli.play import play

    if args.match < 0:
        raise GammonError(f"--match takes a length of at least 1; got {args.match}")
    return play(args.match, args.seed, args.save, args.ply or 0)


def _hint(args: argparse.Namespace) -> int:
    from gammon.cli.hint import hint

    if args.top < 0:
        raise GammonError(f"--top takes a number of plays of at least 0; got {args.top}")
    return hint(args)


def _ubgi(args: argparse.Namespace) -> int:
    from gammon.cli.ubgi import serve

    return serve()


def _serve(args: argparse.Namespace) -> int:
    import signal
    import threading

    from gammon._core import Server

    try:
        server = Server(args.host, args.port, args.ply, args.threads)
    except OSError as e:
        # An address in use or not local: the user's setting, so no traceback.
        raise GammonError(str(e)) from e
    # One line that scripts can read to learn the port chosen for --port 0.
    print(f"listening on {server.url}", flush=True)
    stop = threading.Event()
    # SIGTERM (a service manager, `kill`) stops as cleanly as Ctrl-C does.
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        # A timed wait, so that Ctrl-C is noticed at once on every platform.
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.stop()
    print("stopped", file=sys.stderr, flush=True)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="gammon", description="A fast, strict backgammon engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    plays = sub.add_parser("plays", help="list the legal plays of a roll")
    plays.add_argument(
        "position",
        nargs="?",
        default="opening",
        help="Position ID, PositionID:MatchID, XGID, 26 ints, 'initial' or 'opening' (default: the "
        "opening roll played; never a double)",
    )
    plays.add_argument("dice", nargs="?", default="31", help="the roll, e.g. 31 or 3-1 (default 31)")
    plays.add_argument("--json", action="store_true", help="machine-readable output")
    plays.set_defaults(run=_plays)

    advice = sub.add_parser(
        "hint",
        help="the bot's ranking of the plays of a roll, or its cube decision",
        description="Rank every play of a roll with the bot, or without dice give its cube decision. "
        "A PositionID:MatchID or an XGID also carries the score and the cube, and the plays are ranked "
        "at that score; dice rolled in the ID are used unless DICE is given.",
    )
    advice.add_argument("position", help="Position ID, PositionID:MatchID or XGID")
    advice.add_argument(
        "dice", nargs="*", help="the roll, e.g. 31, 3-1 or 3 1 (default: the ID's dice, if any)"
    )
    advice.add_argument(
        "--ply", type=int, choices=(0, 1, 2), default=0, help="plies of lookahead (default 0)"
    )
    advice.add_argument(
        "--top", type=int, default=0, metavar="N", help="show the N best plays (default: all)"
    )
    advice.add_argument("--json", action="store_true", help="machine-readable output")
    advice.set_defaults(run=_hint)

    roll = sub.add_parser("rollout", help="roll a position out (Monte Carlo, cubeless)")
    roll.add_argument(
        "position",
        nargs="?",
        default=None,
        help="Position ID, PositionID:MatchID, XGID, 26 ints, 'initial' (a player on roll) or 'opening' "
        "(default: before the opening roll); for Battlegammon its "
        "position ID or 'initial' (default)",
    )
    roll.add_argument("--game", choices=GAMES, default="backgammon", help="the game (default backgammon)")
    roll.add_argument("--trials", type=int, default=1296, help="number of games (default 1296)")
    roll.add_argument("--seed", type=int, default=0, help="dice seed (default 0)")
    roll.add_argument("--threads", type=int, default=None, help="worker threads (default: every core)")
    roll.add_argument(
        "--policy",
        default=None,
        help="random, pubeval, net (default) or net-all (the bot's net judging every play); "
        "for Battlegammon random, greedy or bot (default)",
    )
    roll.add_argument("--truncate", type=int, default=None, help="stop each game after this many plies")
    roll.add_argument(
        "--max-std-error",
        type=float,
        default=None,
        help="stop once the equity's standard error is below this",
    )
    roll.add_argument("--plays", metavar="DICE", help="rank every play of this roll by rollout instead")
    roll.add_argument(
        "--batch",
        metavar="FILE",
        help="roll out every position of FILE (one a line, any notation; '#' comments), one JSON line each",
    )
    roll.add_argument(
        "--output",
        metavar="FILE",
        help="with --batch: append the JSON lines to FILE; a rerun skips the positions already there",
    )
    roll.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="with --batch: run over Ray, on the cluster at ADDRESS (e.g. head:6379) or a local Ray",
    )
    roll.add_argument(
        "--chunk-trials",
        type=int,
        default=1296,
        metavar="N",
        help="with --ray: trials per Ray task (default 1296)",
    )
    roll.add_argument("--json", action="store_true", help="machine-readable output")
    roll.add_argument("--rule", action="append", metavar="NAME=VALUE", help=RULE_HELP)
    roll.set_defaults(run=_rollout)

    game = sub.add_parser(
        "play",
        help="play a game or match against the bot",
        description="Play at the terminal against the built-in bot, which also handles the cube "
        "(see gammon.cli.play).",
    )
    game.add_argument("--match", type=int, default=0, metavar="N", help="play a match to N points")
    game.add_argument("--seed", type=int, default=None, help="seed of the dice")
    game.add_argument(
        "--ply", type=int, choices=(0, 1, 2), default=None, help="the bot's plies of lookahead (default 0)"
    )
    game.add_argument("--save", metavar="FILE", help="where to save the .mat record (default: dated name)")
    game.add_argument("--game", choices=GAMES, default="backgammon", help="the game (default backgammon)")
    game.add_argument("--rule", action="append", metavar="NAME=VALUE", help=RULE_HELP)
    game.set_defaults(run=_play)

    engine = sub.add_parser(
        "ubgi",
        help="serve the bot as a UBGI v0.2 engine on stdin/stdout",
        description="Speak UBGI v0.2 (Universal Backgammon Interface) on stdin and stdout, for GUIs, "
        "servers and tournament runners. Send 'ubgi' to start; see gammon.cli.ubgi for the commands.",
    )
    engine.set_defaults(run=_ubgi)

    serve = sub.add_parser(
        "serve",
        help="serve the bot over HTTP (wildbg-compatible /move and /eval, /v1/..., /openapi.json)",
        description="Serve the bot over HTTP as JSON until Ctrl-C. The endpoints are described at "
        "/openapi.json; /move and /eval answer as wildbg's API does.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8080, help="port (default 8080; 0 picks a free one)")
    serve.add_argument("--ply", type=int, default=0, help="search depth of requests naming none (0-2)")
    serve.add_argument("--threads", type=int, default=None, help="evaluation threads (default: every core)")
    serve.set_defaults(run=_serve)
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
