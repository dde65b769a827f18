"""``gammon analyse FILE``: a match file analysed, as a text summary, JSON or a one-page HTML report."""

from __future__ import annotations

import argparse
import html
import json
from pathlib import Path

from gammon._core import Analysis, AnalysisDecision, GammonError, Match, Position
from gammon.analysis import analyse

# The marks listed as blunders in the summary and the report.
LISTED = ("very bad",)


def read_match(path: str) -> Match:
    """The match in ``path``: GNU Backgammon's ``.sgf`` when the name ends in ``.sgf`` or the text
    opens a game tree, a Jellyfish ``.mat`` file otherwise. Errors name the file."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise GammonError(f"cannot read {path}: {e.strerror or e}") from None
    sgf = path.lower().endswith(".sgf") or text.lstrip("\ufeff \t\r\n").startswith("(")
    try:
        return Match.from_sgf(text) if sgf else Match.from_mat(text)
    except GammonError as e:
        raise type(e)(f"{path}: {e}") from None


def run(args: argparse.Namespace) -> int:
    """Analyses ``args.file`` and prints or writes what was asked."""
    m = read_match(args.file)
    a = _analyse_with_bar(m, args)
    if args.html:
        Path(args.html).write_text(html_report(a, args.file), encoding="utf-8")
    if args.sgf:
        Path(args.sgf).write_text(a.to_sgf(), encoding="utf-8")
    if args.json:
        print(json.dumps(json.loads(a.to_json()), indent=1))
    else:
        print(summary(a))
        if args.html:
            print(f"\nreport written to {args.html}")
        if args.sgf:
            print(f"annotated match written to {args.sgf}")
    return 0


def _analyse_with_bar(m: Match, args: argparse.Namespace) -> Analysis:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    bar = Progress(
        TextColumn("[bold]analyse"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("decisions"),
        TimeElapsedColumn(),
        console=console,
        disable=not console.is_terminal,
        transient=True,
    )
    with bar:
        task = bar.add_task("analyse", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return analyse(m, ply=args.ply, threads=args.threads, progress=progress)


def _kind_words(d: AnalysisDecision) -> str:
    if d.kind == "checker" and d.dice:
        return f"{d.dice[0]}{d.dice[1]}"
    return d.kind


def _label(d: AnalysisDecision) -> str:
    """The bot's cube decision in words after a cube or take decision, e.g. ``(Double, pass)``."""
    return f" ({d.cube_label})" if d.cube_label else ""


def summary(a: Analysis) -> str:
    """Per player: decisions, error rate with GNU Backgammon's rating, PR, luck; then the blunders
    with their Position ID, the play made and the best play."""
    unit = "EMG" if a.length else "equity"
    lines = [f"{a.games} game(s), {'money' if a.length == 0 else f'{a.length}-point match'}, {a.ply}-ply"]
    for p in a.players:
        lines.append(
            f"{p.name}: error rate {p.error_rate:.1f} m{unit} per decision ({p.rating}), PR {p.pr:.1f}; "
            f"{p.decisions} decisions ({p.unforced_plays} unforced plays, {p.cube_decisions} cube), "
            f"{p.equity_lost:.3f} lost; luck {p.luck:+.3f} ({p.luck_rating}; rolls {p.very_lucky} "
            f"very lucky, {p.lucky} lucky, {p.unlucky} unlucky, {p.very_unlucky} very unlucky); "
            f"result {_result(a, p.result)}, luck-adjusted {_result(a, p.luck_adjusted_result)}; "
            f"marked {p.doubtful} doubtful, {p.bad} bad, "
            f"{p.very_bad} very bad"
        )
    blunders = [d for d in a.decisions if d.mark in LISTED]
    if blunders:
        lines.append("")
        lines.append("blunders:")
        for d in blunders:
            name = a.players[d.player].name
            lines.append(
                f"  game {d.game + 1}, {name}, {_kind_words(d)}: {d.position_id}:{d.match_id} "
                f"played {d.played or '(nothing)'}, best {d.best}{_label(d)} (-{d.equity_lost:.3f})"
            )
    return "\n".join(lines)


def _result(a: Analysis, value: float) -> str:
    """A result as GNU Backgammon prints it: a percentage of match winning chance, or money points."""
    return f"{100 * value:+.2f}%" if a.length else f"{value:+.3f} points"


def _graph(a: Analysis, game: int) -> str:
    """An inline SVG of player 0's winning chances (match) or equity (money) through one game."""
    points = []
    for d in a.decisions:
        if d.game != game or d.kind != "checker":
            continue
        if d.mwc is not None:
            y = d.mwc if d.player == 0 else 1.0 - d.mwc
        else:
            e = d.equity * d.cube_value
            y = (e if d.player == 0 else -e) / 6.0 + 0.5
        points.append(max(0.0, min(1.0, y)))
    width, height = 600, 120
    if len(points) < 2:
        return ""
    step = width / (len(points) - 1)
    path = " ".join(f"{k * step:.1f},{height - p * height:.1f}" for k, p in enumerate(points))
    label = "player 0's match winning chance" if a.length else "player 0's equity (scaled)"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{label}">'
        f'<rect width="{width}" height="{height}" fill="#f7f7f2" stroke="#999"/>'
        f'<line x1="0" y1="{height / 2}" x2="{width}" y2="{height / 2}" stroke="#bbb" stroke-dasharray="4"/>'
        f'<polyline fill="none" stroke="#2a5d9f" stroke-width="2" points="{path}"/></svg>'
    )


def _board(d: AnalysisDecision) -> str:
    """The board before the decision, with the dice of a checker play, as an inline SVG."""
    position = Position.from_id(d.position_id)
    return position.to_svg(d.dice) if d.dice else position.to_svg()


def html_report(a: Analysis, source: str) -> str:
    """A one-page HTML report: the players' figures, a graph per game, the blunders."""
    e = html.escape
    rows = "".join(
        f"<tr><td>{e(p.name)}</td><td>{p.decisions}</td><td>{p.equity_lost:.3f}</td>"
        f"<td>{p.error_rate:.1f}</td><td>{e(p.rating)}</td><td>{p.pr:.1f}</td><td>{p.luck:+.3f}</td>"
        f"<td>{e(p.luck_rating)}</td><td>{p.very_lucky}/{p.lucky}/{p.unlucky}/{p.very_unlucky}</td>"
        f"<td>{_result(a, p.result)}</td><td>{_result(a, p.luck_adjusted_result)}</td>"
        f"<td>{p.doubtful}/{p.bad}/{p.very_bad}</td></tr>"
        for p in a.players
    )
    games = "".join(f"<h3>Game {g + 1}</h3>{_graph(a, g)}" for g in range(a.games))
    blunders = []
    for d in a.decisions:
        if d.mark not in LISTED:
            continue
        blunders.append(
            f"<li><b>game {d.game + 1}, {e(a.players[d.player].name)}</b>, {e(_kind_words(d))}: "
            f"played <code>{e(d.played or '(nothing)')}</code>, best <code>{e(d.best)}</code>, "
            f"-{d.equity_lost:.3f}<br><code>{e(d.position_id)}:{e(d.match_id)}</code>"
            f"<div>{_board(d)}</div></li>"
        )
    listed = "<ul>" + "".join(blunders) + "</ul>" if blunders else "<p>No blunders.</p>"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Analysis of {e(Path(source).name)}</title>
<style>body{{font-family:sans-serif;max-width:52em;margin:auto}}td,th{{padding:2px 8px;text-align:right}}
td:first-child{{text-align:left}}</style></head><body>
<h1>Analysis of {e(Path(source).name)}</h1>
<p>{a.games} game(s), {"money" if a.length == 0 else f"{a.length}-point match"}, {a.ply}-ply; equities
are equivalent money equity at the cube in play (error rate in thousandths per decision).</p>
<table><tr><th>player</th><th>decisions</th><th>lost</th><th>error rate</th><th>rating</th><th>PR</th>
<th>luck</th><th>luck rating</th><th>very lucky/lucky/unlucky/very unlucky</th><th>result</th>
<th>luck-adjusted</th><th>doubtful/bad/very bad</th></tr>{rows}</table>
<h2>Games</h2>{games}
<h2>Blunders</h2>{listed}
</body></html>
"""
