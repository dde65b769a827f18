"""gammon's match analysis against GNU Backgammon's, decision by decision.

    python tools/analysis/compare.py [--ply N] [--examples K]

Reads the fixtures ``tools/analysis/gnubg_analyse.py`` made (``tests/fixtures/analysis``: the
matches, ``gnubg_decisions.csv`` and ``gnubg_players.csv``), analyses every match with
``gammon.analyse`` at the same 0-ply, and prints:

* how many decisions each side found, and whether every unforced checker play gnubg judged is one
  of ours (matched by game, Position ID and dice);
* where gnubg's error is 0.05 or more, how often we mark one too (at least doubtful: 0.03, gnubg's default), and
  at least 0.05;
* how far the two evaluators' errors differ (mean and percentiles of the absolute difference),
  how often the best play agrees, and the same for cube decisions (gnubg's match winning chances
  turned into equivalent money equity with the Kazaross-XG2 table, which gnubg 1.07 also uses
  by default);
* per player, the error rates side by side;
* the largest disagreements, for a look by hand.
"""

from __future__ import annotations

import argparse
import csv
import statistics
from pathlib import Path

import gammon

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "analysis"


def emg(position_id: str, value: float) -> float:
    """gnubg's cubeful value of the player on roll (a match winning chance in match play) as
    equivalent money equity at the cube in play."""
    m = gammon.read_position(position_id).match
    if m is None or m.length == 0:
        return value
    game = m.game
    me = game.turn if game.turn is not None else 0
    away = [m.length - s for s in m.score]
    cube = game.cube_value
    post = m.is_post_crawford
    met = gammon.MatchEquityTable.kazaross_xg2()

    def mwc(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return met.mwc(a, b, post)

    win = mwc(away[me] - cube, away[1 - me])
    lose = mwc(away[me], away[1 - me] - cube)
    return 2 * (value - lose) / (win - lose) - 1 if win > lose else 0.0


def percentile(values: list[float], q: float) -> float:
    """The q-quantile of ``values`` (nearest rank)."""
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ply", type=int, default=0)
    parser.add_argument("--examples", type=int, default=8)
    args = parser.parse_args()

    gnubg_rows = list(csv.DictReader(open(FIXTURES / "gnubg_decisions.csv")))
    gnubg_players = list(csv.DictReader(open(FIXTURES / "gnubg_players.csv")))
    files = sorted({r["file"] for r in gnubg_rows})

    ours: dict[tuple[str, int, str, str, str], gammon.AnalysisDecision] = {}
    totals: dict[tuple[str, str], gammon.AnalysisPlayer] = {}
    for name in files:
        m = gammon.Match.from_mat((FIXTURES / name).read_text())
        a = gammon.analyse(m, ply=args.ply)
        for p in a.players:
            totals[(name, p.name)] = p
        for d in a.decisions:
            dice = "%d%d" % d.dice if d.dice else ""
            ours[(name, d.game + 1, d.kind, d.position_id, dice)] = d

    checker_pairs = []
    cube_pairs = []
    missing = 0
    for r in gnubg_rows:
        key = (r["file"], int(r["game"]), r["kind"], r["position_id"], r["dice"])
        d = ours.get(key)
        if r["kind"] == "checker":
            if d is None:
                missing += 1
                continue
            if d.alternatives > 1:
                checker_pairs.append((r, d))
        else:
            # gnubg lists every roll where the player could double, with no double and
            # double/take values (double/pass is 1 in these units).
            mid = d.match_id if d is not None else None
            if mid is None:
                continue
            nd = emg(r["position_id"] + ":" + mid, float(r["error"]))
            dt = emg(r["position_id"] + ":" + mid, float(r["skill"]))
            cube_pairs.append((r, d, nd, dt))
    ours_unforced = sum(1 for k, d in ours.items() if d.kind == "checker" and d.alternatives > 1)

    print(f"matches: {len(files)}; gnubg rows: {len(gnubg_rows)}")
    print(f"unforced checker plays: ours {ours_unforced}, gnubg's matched to ours {len(checker_pairs)}")
    print(f"gnubg checker rows with no decision of ours: {missing}")

    big = [(r, d) for r, d in checker_pairs if float(r["error"]) >= 0.05]
    marked = sum(1 for _, d in big if d.mark)
    same_cut = sum(1 for _, d in big if d.equity_lost >= 0.05)
    print(
        f"gnubg errors >= 0.05: {len(big)}; ours marked (>= 0.03): {marked} "
        f"({100 * marked / max(1, len(big)):.1f}%); ours >= 0.05: {same_cut} "
        f"({100 * same_cut / max(1, len(big)):.1f}%)"
    )
    ours_big = [(r, d) for r, d in checker_pairs if d.equity_lost >= 0.05]
    confirmed = sum(1 for r, _ in ours_big if float(r["error"]) >= 0.03)
    print(
        f"our errors >= 0.05: {len(ours_big)}; gnubg's >= 0.03 (marked) there: {confirmed} "
        f"({100 * confirmed / max(1, len(ours_big)):.1f}%)"
    )
    diffs = [abs(float(r["error"]) - d.equity_lost) for r, d in checker_pairs]
    # The two write plays differently (gnubg: one step per die, 25 for the bar, no hits), so
    # agreement is read from the errors: both find the play made best, or both find it not.
    same_best = sum(1 for r, d in checker_pairs if (float(r["error"]) < 1e-6) == (d.equity_lost < 1e-6))
    print(
        f"checker error |gnubg - ours|: mean {statistics.mean(diffs):.4f}, median "
        f"{percentile(diffs, 0.5):.4f}, 90% {percentile(diffs, 0.9):.4f}, 99% {percentile(diffs, 0.99):.4f}"
    )
    print(f"both find the play made best, or both not: {same_best} of {len(checker_pairs)}")

    # gnubg's cube rows; ours exist only for the close ones (a missing one means we found the
    # decision not close).
    all_cube = []
    for r in gnubg_rows:
        if r["kind"] != "double":
            continue
        d = ours.get((r["file"], int(r["game"]), "double", r["position_id"], ""))
        all_cube.append((r, d))
    agree = sum(1 for r, d, nd, dt in cube_pairs if (min(dt, 1.0) > nd) == (d.best == "double"))
    cdiff = [
        abs((nd - min(dt, 1.0)) - (d.cube_equities[0] - min(d.cube_equities[1], 1.0)))
        for r, d, nd, dt in cube_pairs
    ]
    print(
        f"gnubg cube rows: {len(all_cube)}; close or actual for us: {len(cube_pairs)}; "
        f"same double/no double there: {agree}"
    )
    if cdiff:
        print(
            f"cube |(nd - double) gnubg - ours| there: mean {statistics.mean(cdiff):.4f}, "
            f"median {percentile(cdiff, 0.5):.4f}, 90% {percentile(cdiff, 0.9):.4f}"
        )

    print()
    print(f"{'file':<20} {'player':<7} {'gnubg n':>7} {'ours n':>7} {'gnubg rate':>10} {'ours rate':>10}")
    for row in gnubg_players:
        p = totals[(row["file"], row["player"])]
        n = int(row["unforced"]) + int(row["cube_decisions"])
        print(
            f"{row['file']:<20} {row['player']:<7} {n:>7} {p.decisions:>7} "
            f"{float(row['error_rate']):>10.1f} {p.error_rate:>10.1f}"
        )

    print()
    print("largest checker disagreements (gnubg error, ours, position, dice, played, gnubg best, our best):")
    worst = sorted(checker_pairs, key=lambda rd: -abs(float(rd[0]["error"]) - rd[1].equity_lost))
    for r, d in worst[: args.examples]:
        print(
            f"  {float(r['error']):.3f} {d.equity_lost:.3f} {r['position_id']}:{d.match_id} "
            f"{r['dice']} played {r['played']!r} gnubg {r['best']!r} ours {d.best!r}"
        )


if __name__ == "__main__":
    main()
