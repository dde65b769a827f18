"""The ``gammon`` command line."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from gammon._core import (
    MAX_TRIALS,
    PROBABILITY_NAMES,
    GammonError,
    Play,
    Position,
    RolloutResult,
    __version__,
    max_threads,
    read_dice,
    read_position,
)
from gammon.cli import cubeful as cube_options
from gammon.cli.results import CLAMPED_NOTE, ProbabilityCells, output_console, result_dict
from gammon.rollouts import rollout, rollout_plays

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from gammon._core import CubeContext, ReadPosition

GAMES = ("backgammon", "battlegammon")
RULE_HELP = "a Battlegammon rule option, e.g. turn_cap=200 or maximize_dice=1 (repeatable)"
# The engine's bounds on one rollout's trials and worker threads, read from it so they never drift.
MAX_THREADS = max_threads()
STOPPED = "stopped by Ctrl-C"


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high`` (no bound when None), or an
    error that says what the argument must be."""

    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number; got {text.strip()!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}; got {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high}; got {value}")
        return value

    return read


def positive_number(text: str) -> float:
    """An argparse ``type``: a finite number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number; got {text.strip()!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a number above 0; got {text}")
    return value


SEED = whole_number(0, (1 << 64) - 1)


class ArgumentParser(argparse.ArgumentParser):
    """argparse with errors as one line, ``gammon: error: --trials must be ...``, naming the
    argument, with no usage block before it."""

    def error(self, message: str) -> NoReturn:
        """Prints ``message`` as one line on standard error and exits with status 2."""
        message = re.sub(r"^argument ([^:]+): (must|is)\b", r"\1 \2", message)
        message = re.sub(r"^argument ([^:]+): ", r"\1: ", message)
        hint = f" (see {self.prog} --help)" if "required" in message or "unrecognized" in message else ""
        self.exit(2, f"gammon: error: {message}{hint}\n")


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
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    return Progress(
        TextColumn("[bold]rollout"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} trials"),
        TextColumn("{task.fields[speed]}"),
        TextColumn("{task.fields[equity]}"),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=not show,
    )


def _games_per_second(trials: int, seconds: float) -> float:
    return trials / seconds if seconds > 0 else 0.0


class _EtaNotice:
    """Where no bar shows progress, one line on stderr once a long rollout's pace is known: how
    long the rest will take, so a huge job does not run for hours without a word."""

    def __init__(self, total: int, show: bool) -> None:
        self.total, self.pending = total, not show

    def __call__(self, trials: int, seconds: float) -> None:
        if not self.pending or seconds < 2 or trials <= 0:
            return
        self.pending = False
        left = (self.total - trials) * seconds / trials
        if left >= 60:
            hours, rest = divmod(round(left), 3600)
            clock = f"{hours}:{rest // 60:02}:{rest % 60:02}"
            print(
                f"rollout: {trials:,}/{self.total:,} trials done, about {clock} to go "
                f"at {trials / seconds:,.0f} games/s",
                file=sys.stderr,
                flush=True,
            )


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
    name = args.position or "initial"
    start = battlegammon.parse_position(name)
    console = Console(stderr=True)
    show = not args.json and console.is_terminal
    eta = _EtaNotice(args.trials, show)
    with _progress_bar(console, args.trials, show) as bar:
        task = bar.add_task("rollout", total=args.trials, speed="", equity="")

        def progress(r: battlegammon.RolloutResult) -> None:
            eta(r.trials, r.seconds)
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
            "policy": args.policy,
            "variance_reduction": False,
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
    out = output_console()
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
        if not args.variance_reduction:
            raise GammonError("--no-variance-reduction is for backgammon rollouts")
        if cube_options.wanted(args) or args.ply:
            raise GammonError("--cube, --cubeful and --ply are for backgammon rollouts")
        return _battlegammon_rollout(args)
    if args.rule:
        raise GammonError("--rule is for Battlegammon rollouts (--game battlegammon)")
    args.position = args.position or "opening"
    start = read_position(args.position)
    common = {
        "trials": args.trials,
        "seed": args.seed,
        "threads": args.threads,
        "policy": args.policy,
        "variance_reduction": args.variance_reduction,
    }
    if args.truncate is not None:
        common["truncate"] = args.truncate
    console = Console(stderr=True)
    ctx = None
    if cube_options.wanted(args):
        ctx = cube_options.context(args, start)
    else:
        cube_options.check_unused(args)
    common["ply"] = args.ply
    if args.cube:
        if args.plays or args.cubeful or args.max_std_error is not None:
            raise GammonError("--cube is one cube decision: not with --plays, --cubeful, --max-std-error")
        return _rollout_cube(args, start, ctx, common, console)
    if ctx is not None:
        common["context"] = ctx
    if args.plays:
        if args.max_std_error is not None:
            raise GammonError("--max-std-error is for the rollout of one position, not with --plays")
        return _rollout_plays(args, start.with_dice(*read_dice(args.plays)), common, console)
    show = not args.json and console.is_terminal
    eta = _EtaNotice(args.trials, show)
    with _progress_bar(console, args.trials, show) as bar:
        task = bar.add_task("rollout", total=args.trials, speed="", equity="")

        def progress(r: RolloutResult) -> None:
            eta(r.trials, r.seconds)
            shown = f"equity {r.equity:+.4f} ± {r.std_error:.4f}"
            if r.cubeful_equity is not None:
                shown = f"cubeful {r.cubeful_equity:+.4f} ± {r.cubeful_std_error:.4f}"
            bar.update(task, completed=r.trials, speed=f"{r.games_per_second:,.0f} games/s", equity=shown)

        result = rollout(start, max_std_error=args.max_std_error, progress=progress, **common)  # type: ignore[arg-type]
    # In the command line a rollout is only ever cancelled by Ctrl-C.
    stopped = 130 if result.cancelled else 0
    if args.json:
        data = {"position": args.position, "named": start.named, **result_dict(result, args.policy)}
        if ctx is not None:
            data["context"] = cube_options.describe(ctx)
        print(json.dumps(data))
        return _stopped_note(stopped, f"the result of the {result.trials} trials run is above")
    vr = "" if result.variance_reduction else ", no variance reduction"
    table = Table(title=f"Rollout of {args.position} ({args.policy}, seed {args.seed}{vr})")
    for column in ("", "win", "win gammon", "win bg", "lose", "lose gammon", "lose bg", "equity"):
        table.add_column(column, justify="right")
    e = result.std_errors
    # The columns: the three wins, then "lose" (1 - win, so its standard error is win's), then the
    # two losses.
    names = [*PROBABILITY_NAMES[:3], PROBABILITY_NAMES[0], *PROBABILITY_NAMES[3:]]
    values = [getattr(result, name) for name in names]
    values[3] = 1 - values[3]
    errors = [e[name] for name in names]
    cell = ProbabilityCells()
    table.add_row("value", *(cell(v) for v in values), f"{result.equity:+.4f}")
    table.add_row("± s.e.", *(f"{v:.4f}" for v in errors), f"{result.std_error:.4f}")
    if cell.clamped:
        table.caption = CLAMPED_NOTE
    out = output_console()
    out.print(table)
    if ctx is not None:
        out.print(f"{cube_options.describe(ctx)}: " + ", ".join(cube_options.cubeful_lines(result)))
    note = ""
    if result.cancelled:
        note = f" ({STOPPED})"
    elif result.converged:
        note = " (stopped: standard error reached)"
    speed = f"{result.games_per_second:,.0f} games/s"
    out.print(f"{result.trials} trials in {result.seconds:.2f} s, {speed}{note}")
    return _stopped_note(stopped, f"the result of the {result.trials} trials run is above")


def _rollout_cube(
    args: argparse.Namespace,
    start: ReadPosition,
    ctx: CubeContext | None,
    common: dict[str, Any],
    console: Console,
) -> int:
    """``gammon rollout POSITION --cube``: the cube decision rolled out, with a progress bar."""
    from gammon.rollouts import rollout_cube

    show = not args.json and console.is_terminal
    eta = _EtaNotice(args.trials, show)
    with _progress_bar(console, args.trials, show) as bar:
        task = bar.add_task("cube", total=args.trials, speed="", equity="")

        def progress(r: RolloutResult) -> None:
            eta(r.trials, r.seconds)
            bar.update(task, completed=r.trials, speed=f"{r.games_per_second:,.0f} games/s")

        result = rollout_cube(start.position, ctx, progress=progress, **common)
    assert ctx is not None
    cube_options.print_cube(args, ctx, result)
    status = 130 if result.cancelled else 0
    return _stopped_note(status, f"the result of the {result.trials} trials run is above")


def _shown_equity(r: RolloutResult) -> float:
    """The equity a rollout is ranked and shown by: cubeful when it has one."""
    return r.equity if r.cubeful_equity is None else r.cubeful_equity


def _shown_std_error(r: RolloutResult) -> float:
    """The standard error of :func:`_shown_equity`."""
    return r.std_error if r.cubeful_std_error is None else r.cubeful_std_error


def _stopped_note(status: int, kept: str) -> int:
    """``status``; when it is 130 (Ctrl-C), first a line on standard error saying what was kept."""
    if status == 130:
        print(f"gammon: {STOPPED}; {kept}", file=sys.stderr)
    return status


def _rollout_plays(
    args: argparse.Namespace, position: Position, common: dict[str, Any], console: Console
) -> int:
    """``gammon rollout --plays DICE``: every play rolled out and ranked, with a progress bar at a
    terminal; Ctrl-C ranks the plays done so far."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    d1, d2 = read_dice(args.plays)
    count = len(position.legal_plays(d1, d2))
    trials = args.trials
    show = not args.json and console.is_terminal
    if not show:
        # A line that says the work has begun, where there is no bar to show it.
        print(f"rolling out the {count} plays of {d1}{d2}, {trials} trials each", file=sys.stderr, flush=True)
    # The latest result of each play reached; those before the one under way are finished.
    latest: dict[int, tuple[Play, RolloutResult]] = {}
    bar = Progress(
        TextColumn(f"[bold]{d1}{d2}"),
        BarColumn(),
        TextColumn("play {task.fields[play]}/{task.fields[plays]}, {task.completed:,}/{task.total:,} trials"),
        TextColumn("{task.fields[leader]}"),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=not show,
    )
    with bar:
        task = bar.add_task("plays", total=count * trials, play=1, plays=count, leader="")

        def progress(index: int, play: Play, partial: RolloutResult) -> None:
            latest[index] = (play, partial)
            finished = [entry for i, entry in latest.items() if i < index or entry[1].trials == trials]
            best = max(finished, key=lambda entry: _shown_equity(entry[1]), default=None)
            lead = "" if best is None else f"{_shown_equity(best[1]):+.4f}"
            leader = "" if best is None else f"leading: {best[0] or '(no move)'} {lead}"
            done = index * trials + partial.trials
            bar.update(task, completed=done, play=index + 1, leader=leader)

        ranked = rollout_plays(position, d1, d2, progress=progress, **common)
    rolled = sum(r.trials for _, r in ranked)
    stopped = rolled < count * trials
    status = 130 if stopped else 0
    kept = f"the ranking above has the {len(ranked)} of the {count} plays rolled out so far"
    if args.json:
        plays = [{"play": str(p), **result_dict(r, args.policy)} for p, r in ranked]
        data = {"dice": [d1, d2], "legal_plays": count, "stopped": stopped, "plays": plays}
        print(json.dumps({**data, "policy": args.policy, "variance_reduction": args.variance_reduction}))
        return _stopped_note(status, kept)
    from rich.table import Table

    vr = "" if args.variance_reduction else ", no variance reduction"
    kind = "cubeless" if "context" not in common else f"cubeful ({cube_options.describe(common['context'])})"
    title = f"Plays of {d1}{d2}, ranked by {kind} rollout equity ({args.policy}{vr})"
    if stopped:
        title += f": {STOPPED}, {len(ranked)} of {count} plays"
    table = Table(title=title)
    for column in ("#", "play", "equity", "± s.e.", "win", "win g", "lose g", "trials"):
        table.add_column(column, justify="left" if column == "play" else "right")
    cell = ProbabilityCells()
    for i, (play, r) in enumerate(ranked, 1):
        done = str(r.trials) if r.trials == trials else f"{r.trials} (stopped)"
        table.add_row(
            str(i), str(play) or "(no move)", f"{_shown_equity(r):+.4f}", f"{_shown_std_error(r):.4f}",
            cell(r.win), cell(r.win_gammon), cell(r.lose_gammon), done,
        )  # fmt: skip
    if cell.clamped:
        table.caption = CLAMPED_NOTE
    output_console().print(table)
    return _stopped_note(status, kept)


def _play(args: argparse.Namespace) -> int:
    if args.game == "battlegammon":
        from gammon.cli.play_battlegammon import play as play_battlegammon

        if args.match or args.save or args.ply is not None:
            raise GammonError("--match, --save and --ply are for backgammon; Battlegammon plays one game")
        return play_battlegammon(args.seed, _rule_options(args), args.bot_name)
    if args.rule:
        raise GammonError("--rule is for Battlegammon games (--game battlegammon)")
    from gammon.cli.play import play

    if args.match < 0:
        raise GammonError(f"--match takes a length of at least 1; got {args.match}")
    return play(args.match, args.seed, args.save, args.ply or 0, args.bot_name)


def _hint(args: argparse.Namespace) -> int:
    from gammon.cli.hint import hint

    return hint(args)


def _show(args: argparse.Namespace) -> int:
    from gammon.cli.show import show

    return show(args)


def _analyse(args: argparse.Namespace) -> int:
    from gammon.cli.analyse import run

    return run(args)


def _ubgi(args: argparse.Namespace) -> int:
    from gammon.cli.ubgi import serve

    return serve()


def _serve(args: argparse.Namespace) -> int:
    import signal
    import threading

    from gammon._core import Server

    try:
        server = Server(args.host, args.port, args.ply, args.threads, args.token)
    except OSError as e:
        # An address in use or not local: the user's setting, so no traceback.
        raise GammonError(str(e)) from e
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"warning: serving on {args.host}, not only on this machine; anyone who can reach it "
            "can use it" + ("" if args.token else " (--token asks them for a token)"),
            file=sys.stderr,
            flush=True,
        )
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
    parser = ArgumentParser(
        prog="gammon",
        description="A fast, strict backgammon engine.",
        epilog="A POSITION may begin with '-' (a bare XGID board such as -b----E-C---eE---...); "
        "'--' before it also ends the options.",
    )
    parser.add_argument("--version", action="version", version=f"gammon {__version__}")
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
        "--top", type=whole_number(0), default=0, metavar="N", help="show the N best plays (default: all)"
    )
    advice.add_argument("--json", action="store_true", help="machine-readable output")
    advice.set_defaults(run=_hint)

    board = sub.add_parser(
        "show",
        help="a position as a board in the terminal, or as an SVG picture",
        description="Show a position as a board. A PositionID:MatchID or an XGID also carries the cube, "
        "the score and the dice rolled, which the SVG picture draws.",
    )
    board.add_argument("position", help="Position ID, PositionID:MatchID, XGID, 26 ints or 'initial'")
    board.add_argument(
        "dice", nargs="*", help="dice to draw, e.g. 31 or 3-1 (default: the ID's dice, if any)"
    )
    board.add_argument(
        "--svg", metavar="FILE", default=None, help="write the board as an SVG picture to FILE ('-': stdout)"
    )
    board.add_argument(
        "--bottom",
        choices=("us", "them"),
        default="us",
        help="the side drawn at the bottom of the picture: us, the player on roll (default), or them",
    )
    board.add_argument("--json", action="store_true", help="machine-readable output: IDs, board, pips")
    board.set_defaults(run=_show)

    roll = sub.add_parser("rollout", help="roll a position out (Monte Carlo, cubeless or with the cube)")
    roll.add_argument(
        "position",
        nargs="?",
        default=None,
        help="Position ID, PositionID:MatchID, XGID, 26 ints, 'initial' (a player on roll) or 'opening' "
        "(default: before the opening roll); for Battlegammon its "
        "position ID or 'initial' (default)",
    )
    roll.add_argument("--game", choices=GAMES, default="backgammon", help="the game (default backgammon)")
    roll.add_argument(
        "--trials", type=whole_number(1, MAX_TRIALS), default=1296, help="number of games (default 1296)"
    )
    roll.add_argument("--seed", type=SEED, default=0, help="dice seed (default 0)")
    roll.add_argument(
        "--threads",
        type=whole_number(1, MAX_THREADS),
        default=None,
        help="worker threads (default: every core)",
    )
    roll.add_argument(
        "--policy",
        default=None,
        help="random, pubeval, net (default: the bot's net judging the plays its screen ranks "
        "highest), net-fast (a narrower net: faster, weaker) or net-all (the bot's net judging "
        "every play); "
        "for Battlegammon random, greedy or bot (default)",
    )
    roll.add_argument(
        "--truncate",
        type=whole_number(1, (1 << 32) - 1),
        default=None,
        help="stop each game after this many plies",
    )
    roll.add_argument(
        "--no-variance-reduction",
        dest="variance_reduction",
        action="store_false",
        help="count each game's result as it fell, without subtracting the luck of the rolls "
        "(the net policies reduce variance by default)",
    )
    roll.add_argument(
        "--max-std-error",
        type=positive_number,
        default=None,
        help="stop once the equity's standard error is below this",
    )
    roll.add_argument("--plays", metavar="DICE", help="rank every play of this roll by rollout instead")
    batch = roll.add_argument(
        "--batch",
        metavar="FILE",
        help="roll out every position of FILE (one a line, any notation; '#' comments), one JSON line each",
    )
    output = roll.add_argument(
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
        type=whole_number(1, MAX_TRIALS),
        default=1296,
        metavar="N",
        help="with --ray: trials per Ray task (default 1296)",
    )
    roll.add_argument("--json", action="store_true", help="machine-readable output")
    roll.add_argument("--rule", action="append", metavar="NAME=VALUE", help=RULE_HELP)
    cube_options.add_options(roll)
    roll.set_defaults(run=_rollout)

    game = sub.add_parser(
        "play",
        help="play a game or match against the bot",
        description="Play at the terminal against the built-in bot, which also handles the cube "
        "(see gammon.cli.play).",
    )
    game.add_argument(
        "--match", type=whole_number(0), default=0, metavar="N", help="play a match to N points"
    )
    game.add_argument("--seed", type=SEED, default=None, help="seed of the dice")
    game.add_argument(
        "--ply", type=int, choices=(0, 1, 2), default=None, help="the bot's plies of lookahead (default 0)"
    )
    game.add_argument("--save", metavar="FILE", help="save the .mat record to FILE (default: ask)")
    game.add_argument(
        "--bot-name", default="the bot", metavar="NAME", help="the bot's name (default: the bot)"
    )
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
        "/openapi.json; /move and /eval answer as wildbg's API does. The page at / plays the bot and "
        "analyses positions in a browser (with --token, open it as /#token=TOKEN).",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument(
        "--port", type=whole_number(0, 65535), default=8080, help="port (default 8080; 0 picks a free one)"
    )
    serve.add_argument(
        "--ply", type=whole_number(0, 2), default=0, help="search depth of requests naming none (0-2)"
    )
    serve.add_argument(
        "--threads",
        type=whole_number(1, MAX_THREADS),
        default=None,
        help="evaluation threads (default: every core)",
    )
    serve.add_argument(
        "--token",
        default=None,
        help="require 'Authorization: Bearer TOKEN' on every endpoint but /health",
    )
    serve.set_defaults(run=_serve)

    study = sub.add_parser(
        "analyse",
        help="analyse a match file: every checker play and cube decision judged",
        description="Analyse every checker play, cube decision and resignation of a match file "
        "(.mat or GNU Backgammon's .sgf) with the bot: error rates with GNU Backgammon's rating, luck, "
        "and the blunders.",
    )
    study.add_argument("file", metavar="FILE", help="a .mat or .sgf match file")
    study.add_argument("--ply", type=whole_number(0, 2), default=0, help="search depth (0-2, default 0)")
    study.add_argument(
        "--threads", type=whole_number(1, MAX_THREADS), default=None, help="threads (default: every core)"
    )
    study.add_argument("--json", action="store_true", help="print the whole analysis as JSON")
    study.add_argument("--html", metavar="FILE", default=None, help="write a one-page HTML report to FILE")
    study.add_argument(
        "--sgf", metavar="OUT", default=None, help="write the match as .sgf with the analysis's marks to OUT"
    )
    study.set_defaults(run=_analyse)
    _completion(parser, (batch, output))
    return parser


def _completion(parser: argparse.ArgumentParser, files: Sequence[argparse.Action]) -> None:
    """``--print-completion SHELL``, which prints a completion script for bash, zsh or tcsh (made by
    shtab); ``files`` are the options that complete file names."""
    try:
        import shtab
    except ImportError:  # an install from before shtab was a dependency: no completion, all else works
        return
    for action in files:
        setattr(action, "complete", shtab.FILE)  # noqa: B010 (an attribute argparse does not declare)
    shtab.add_argument_to(
        parser,
        ["--print-completion"],
        help="print the completion script of SHELL and exit, e.g. "
        "gammon --print-completion bash > ~/.local/share/bash-completion/completions/gammon",
    )


# What argparse takes for a negative number rather than an option.
NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")
# A bare XGID board: 26 points, '-' for an empty one.
XGID_BOARD = re.compile(r"^[-a-oA-O]{26}(:|$)")


def _is_option(parser: argparse.ArgumentParser, word: str) -> bool:
    """Whether argparse reads ``word`` as one of ``parser``'s options (``--name=value`` and unique
    abbreviations of long names included)."""
    options = parser._option_string_actions
    name = word.split("=", 1)[0] if word.startswith("--") else word
    return name in options or (word.startswith("--") and any(o.startswith(name) for o in options))


def mark_dashed_positionals(parser: argparse.ArgumentParser, argv: Sequence[str]) -> list[str]:
    """``argv`` with every word that begins with '-' but is no option of its subcommand (a bare
    XGID board such as ``-b----E-C---eE---c-e----B-:0:0:1:52:2:4:0:5:10``) given a leading space,
    which argparse takes for the mark of a positional; :func:`unmark` strips it after parsing.
    Words after ``--`` are left as they are. A word beginning with ``--`` is taken as an option
    unless it is an XGID board, so a mistyped option is reported as one."""
    subcommands: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            subcommands = action.choices
    current = parser
    marked: list[str] = []
    for i, word in enumerate(argv):
        if word == "--":
            marked.extend(argv[i:])
            break
        if current is parser and word in subcommands:
            current = subcommands[word]
        elif (
            word.startswith("-")
            and len(word) > 1
            and not NEGATIVE_NUMBER.match(word)
            and not _is_option(current, word)
            and (not word.startswith("--") or XGID_BOARD.match(word))
        ):
            word = " " + word
        marked.append(word)
    return marked


def unmark(args: argparse.Namespace) -> None:
    """Strips the space :func:`mark_dashed_positionals` put before words that begin with '-'."""

    def clean(value: Any) -> Any:
        if isinstance(value, str) and value.startswith(" -"):
            return value[1:]
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    for name, value in vars(args).items():
        setattr(args, name, clean(value))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``gammon`` command: the exit status (2 for a bad argument, 130 after
    Ctrl-C, 141 when the reader of standard output went away)."""
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        # Parsing prints too (--help, --print-completion), to a pipe that may close as well.
        args = parser.parse_args(mark_dashed_positionals(parser, words))
        unmark(args)
        args.argv = words
        status = int(args.run(args))
        sys.stdout.flush()
        return status
    except GammonError as e:
        print(f"gammon: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (gammon plays ... | head -1): end quietly. Standard output is pointed
        # at the null device, as the Python documentation advises, so that the flush at exit cannot
        # fail again and print a traceback.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
