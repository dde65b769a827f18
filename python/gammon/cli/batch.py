"""``gammon rollout --batch FILE``: a file of positions rolled out, one JSON line each, resumable."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import IO, Any

from gammon._core import GammonError, RolloutResult, read_position
from gammon.batch_rollout import _start_text, import_ray, rollout_batch
from gammon.cli import cubeful as cube_options
from gammon.cli.results import result_dict


def read_positions(path: str) -> list[tuple[int, str]]:
    """``(line number, text)`` of every position line of ``path``; blank lines and ``#`` comments
    skipped. Every line is checked here, so a typo stops the batch before any work."""
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as e:
        raise GammonError(f"cannot read positions from {path}: {e.strerror}") from None
    entries = []
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            _start_text(text)
        except GammonError as e:
            raise GammonError(f"{path}:{number}: cannot read position {text!r}: {e}") from None
        entries.append((number, text))
    return entries


def _finished(path: Path, settings: dict[str, Any]) -> set[str]:
    """The inputs already rolled out in ``path`` with these settings. A last line cut short (the
    run was killed while writing it) is dropped so appending goes on cleanly."""
    if not path.exists():
        return set()
    text = path.read_text()
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
        path.write_text(text)
    done = set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            key, theirs = record["input"], record["settings"]
        except (ValueError, KeyError, TypeError):
            raise GammonError(f"{path}:{number} is not a line of gammon rollout --batch output") from None
        if not _same_settings(theirs, settings):
            raise GammonError(
                f"{path} holds results of other settings ({theirs}, not {settings}); "
                "write to another --output file"
            )
        done.add(key)
    return done


def _same_settings(theirs: Any, settings: dict[str, Any]) -> bool:
    """Whether a line written with ``theirs`` is a result of ``settings``; lines written before
    variance reduction could be turned off had it on."""
    return isinstance(theirs, dict) and {"variance_reduction": True, **theirs} == settings


def _record(text: str, result: RolloutResult, settings: dict[str, Any]) -> str:
    read = read_position(text)
    record = {"input": text, "position_id": read.position.id, "named": read.named, "settings": settings}
    return json.dumps({**record, **result_dict(result, settings["policy"])})


def _stopped(args: argparse.Namespace, written: int, todo: int, output: Path | None) -> str:
    """The line that says, after Ctrl-C, what was kept and how to go on."""
    done = f"stopped by Ctrl-C after {written} of {todo} positions"
    if output is None:
        return f"{done} (their lines are above); give --output FILE to keep results and resume a batch"
    command = shlex.join(["gammon", *args.argv])
    return f"{done}, kept in {output}; resume with: {command}"


def rollout_file(args: argparse.Namespace) -> int:
    """Runs ``gammon rollout --batch``; see ``gammon rollout --help``."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    if args.plays:
        raise GammonError("--batch and --plays do not go together")
    if args.position is not None:
        raise GammonError("--batch reads the positions from its file; give no POSITION")
    if args.ray is not None:
        import_ray()
    settings = {
        "trials": args.trials,
        "seed": args.seed,
        "policy": args.policy,
        "truncate": args.truncate,
        "max_std_error": args.max_std_error,
        "variance_reduction": args.variance_reduction,
    }
    # The cube settings join the settings only when used, so files of cubeless batches still resume.
    context = None
    if args.cube:
        raise GammonError("--cube rolls out the cube decision of one position, not a --batch")
    if args.cubeful:
        context = cube_options.context(args, None)
        settings["context"] = cube_options.describe(context)
    else:
        cube_options.check_unused(args)
    if args.ply:
        settings["ply"] = args.ply
    entries = read_positions(args.batch)
    output = Path(args.output) if args.output is not None else None
    done = _finished(output, settings) if output is not None else set()
    todo: list[str] = []
    for _, text in entries:
        if text not in done and text not in todo:
            todo.append(text)
    console = Console(stderr=True)
    skipped = len({t for _, t in entries} & done)
    if skipped:
        console.print(f"{skipped} positions already in {output}, skipped")
    sink: IO[str] = output.open("a") if output is not None else sys.stdout
    began = time.perf_counter()
    written = 0
    try:
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            disable=not console.is_terminal,
        ) as bar:
            positions = bar.add_task("positions", total=len(todo))
            trials = bar.add_task("trials   ", total=len(todo) * args.trials)

            def finished(index: int, result: RolloutResult) -> None:
                nonlocal written
                sink.write(_record(todo[index], result, settings) + "\n")
                sink.flush()
                written += 1
                bar.advance(positions)

            rollout_batch(
                todo,
                args.trials,
                args.seed,
                backend="ray" if args.ray is not None else "local",
                address=args.ray or None,
                policy=args.policy,
                truncate=args.truncate,
                variance_reduction=args.variance_reduction,
                threads=args.threads,
                num_cpus=args.threads,
                max_std_error=args.max_std_error,
                chunk_trials=args.chunk_trials,
                on_result=finished,
                progress=lambda n: bar.update(trials, completed=n),
                context=context,
                ply=args.ply,
            )
    except KeyboardInterrupt:
        # Every finished position is already on its line; say so, and how to go on.
        print(f"gammon: {_stopped(args, written, len(todo), output)}", file=sys.stderr)
        return 130
    finally:
        if output is not None:
            sink.close()
    seconds = time.perf_counter() - began
    console.print(f"{len(todo)} positions rolled out in {seconds:.1f} s")
    return 0
