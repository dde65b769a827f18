#!/usr/bin/env python3
"""Cubeful rollouts next to GNU Backgammon's: agreement and games per second, in one run.

GNU Backgammon is an outside program used only for this comparison
(`apt-get install -y gnubg`); nothing of it is copied here. Without it the
script says so and exits 0.

Every position of tools/gnubg_cubeful_positions.csv (Position IDs from real
games, the player on roll before rolling) is rolled out cubefully by both
programs in four contexts: money with a centred 1-cube, and three scores of a
7-point match (7-away 7-away, 4-away 2-away, 2-away 4-away), each with a
centred 1-cube. Same trials, same thread count, quasi-random dice, no
truncation, and variance reduction off on both sides (`--variance-reduction`
turns it on on both: ours measures each roll's luck with the luck net, gnubg
with its own net over the 21 rolls, as its defaults do):

* ours: `gammon.rollout(position, context=..., policy="net", ply=0)`: the
  bot's nets at 0-ply play the checkers, as strong as gnubg's 0-ply (cubeless
  choices; `--policy net-fast` has the narrower rollout net play them), the bot's 0-ply
  cube decisions turn the cube; a trial stops at a pass, as gnubg's do. Timed
  by the rollouts' own clock, after one rollout that builds the bear-off
  database (our start-up);
* gnubg: `set rollout cubeful on`, chequer play and cube decisions at 0-ply
  (its chequer play is cubeful), money play without the Jacoby rule or beavers (its
  defaults have both), driven by `gnubg -t -q` on standard input
  under `script` (it prints its final table only to a terminal). Each context
  is one gnubg run over all positions (`set matchid` with a hand-built Match
  ID, then `set board`, then `rollout`); its time minus that of the same
  commands without `rollout` (start-up) is its rollouts' time.

Equities are per unit of the cube in money play and normalised to the stake
(equivalent to money, `set output mwc off`) in match play. A row agrees when
the two cubeful equities are within 3 combined standard errors; the two
programs' cube decisions and chequer play differ (different nets, gnubg's
cubeful chequer play and cube model), so some rows are expected outside.

Besides games per second, the run prints each side's mean squared standard error of the
cubeful equity and from it the ratio of the times the two would take to reach the same
standard error (time times variance: a rollout's variance falls as one over its trials).

Usage (from the repository root, with the package installed):
    python3 tools/gnubg_cubeful.py [--trials 1296] [--threads 2] [--seed 1] [--limit N]
        [--policy net] [--kind contact|race] [--python DIR] [--ours-only]
        [--variance-reduction]
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
FIXTURE = os.path.join(ROOT, "tools", "gnubg_cubeful_positions.csv")
LENGTH = 7
# (name, match length, our score, their score): money, then three scores of a 7-point match.
CONTEXTS = [
    ("money", 0, 0, 0),
    ("7-away 7-away", LENGTH, 0, 0),
    ("4-away 2-away", LENGTH, 3, 5),
    ("2-away 4-away", LENGTH, 5, 3),
]


def find_gnubg() -> str | None:
    for cand in (shutil.which("gnubg"), "/usr/games/gnubg"):
        if cand and os.path.exists(cand):
            return cand
    return None


def match_id(length: int, ours: int, theirs: int) -> str:
    """GNU Backgammon's Match ID (its documented bit layout) for a game in progress with a centred
    1-cube, the bottom player (player 1) on roll before rolling, at score `ours`-`theirs`."""
    fields = [
        (0, 4),  # log2 of the cube
        (3, 2),  # cube owner: centred
        (1, 1),  # player on roll: 1
        (0, 1),  # Crawford
        (1, 3),  # game state: playing
        (1, 1),  # turn: player 1
        (0, 1),  # double offered
        (0, 2),  # resignation
        (0, 3),  # die 1: not rolled
        (0, 3),  # die 2
        (length, 15),
        (theirs, 15),  # player 0's score
        (ours, 15),  # player 1's score
    ]
    data = bytearray(9)
    bit = 0
    for value, width in fields:
        for i in range(width):
            if (value >> i) & 1:
                data[bit // 8] |= 1 << (bit % 8)
            bit += 1
    return base64.b64encode(bytes(data)).decode()[:12]


def gnubg_commands(args: argparse.Namespace, positions: list[str], context: tuple, rollout: bool) -> str:
    _, length, ours, theirs = context
    lines = [
        f"set threads {args.threads}",
        f"set rollout trials {args.trials}",
        f"set rollout seed {args.seed}",
        "set rollout cubeful on",
        "set rollout chequerplay plies 0",
        "set rollout chequerplay cubeful on",
        "set rollout cubedecision plies 0",
        f"set rollout varredn {'on' if args.variance_reduction else 'off'}",
        "set rollout quasirandom on",
        "set rollout truncation enable off",
        "set rollout bearofftruncation exact off",
        "set rollout bearofftruncation onesided off",
        "set rollout later enable off",
        "set output mwc off",
        "set jacoby off",  # gnubg's default money play counts gammons only once the cube has turned
        "set beavers 0",
        "set player 0 human",
        "set player 1 human",
        f"new match {LENGTH}",
    ]
    for p in positions:
        lines += [f"set matchid {match_id(length, ours, theirs)}", f"set board {p}"]
        if rollout:
            lines.append("rollout")
    return "\n".join(lines) + "\n"


def run_gnubg(gnubg: str, text: str) -> tuple[float, str]:
    with tempfile.NamedTemporaryFile("w", suffix=".cmd", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        inner = f"{gnubg} -t -q < {path}"
        cmd = ["script", "-qec", inner, "/dev/null"] if shutil.which("script") else ["sh", "-c", inner]
        start = time.perf_counter()
        out = subprocess.run(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, check=False
        ).stdout
        return time.perf_counter() - start, out.decode("utf-8", "replace").replace("\r", "\n")
    finally:
        os.unlink(path)


def gnubg_results(text: str) -> list[tuple[float, float, float]]:
    """(cubeless equity, cubeful equity, cubeful standard error) of each finished rollout: the
    estimates line and the standard errors line after each "Rollout done"."""
    found = []
    for block in text.split("Rollout done.")[1:]:
        est = re.search(r"CL ([+-]\d\.\d{3}) CF ([+-]\d+\.\d{3})", block)
        err = re.search(r"\[.*CL\s+(\d\.\d{3}) CF\s+(\d+\.\d{3})\]", block)
        if est and err:
            found.append((float(est.group(1)), float(est.group(2)), float(err.group(2))))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1296)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None, help="only the first N positions")
    parser.add_argument("--policy", default="net", help="our rollouts' policy (default net; or net-fast)")
    parser.add_argument("--kind", choices=["contact", "race"], help="only the positions of this kind")
    parser.add_argument(
        "--python",
        default=os.path.join(ROOT, "python"),
        help="the directory to import gammon from (default: the repository's python/), to time another build",
    )
    parser.add_argument("--ours-only", action="store_true", help="time our rollouts only (no gnubg run)")
    parser.add_argument(
        "--variance-reduction",
        action="store_true",
        help="variance reduction on both sides (default: off on both)",
    )
    args = parser.parse_args()
    gnubg = find_gnubg()
    if gnubg is None and not args.ours_only:
        print("GNU Backgammon is not installed (apt-get install -y gnubg): nothing to compare")
        return 0
    sys.path.insert(0, os.path.abspath(args.python))
    import gammon

    # Our start-up, as gnubg's is subtracted from its time: the first rollout that meets a
    # bear-off position builds the bear-off database (about a second) or reads it from the
    # cache file an earlier process wrote, once per process.
    gammon.rollout(gammon.Position.from_id("v90EAIC3BgAAAA"), trials=36, seed=args.seed, threads=1)

    rows = [
        line.split(",") for line in open(FIXTURE) if line.strip() and not line.startswith(("#", "position"))
    ]
    positions = [(p.strip(), k.strip()) for p, k in rows if args.kind in (None, k.strip())][: args.limit]
    ids = [p for p, _ in positions]
    # The machine may be shared: the load average says how much the figures below can be trusted.
    load = os.getloadavg()[0]
    print(
        f"{len(ids)} positions, {args.trials} trials, {args.threads} threads, seed {args.seed}, "
        f"policy {args.policy}, variance reduction {'on' if args.variance_reduction else 'off'}, "
        f"load {load:.1f}"
    )
    print()
    print("| context | position | kind | ours cubeful | gnubg cubeful | difference | within 3 s.e. |")
    print("|---|---|---|---:|---:|---:|:---:|")
    ours_seconds = gnubg_seconds = 0.0
    agree = total = 0
    ours_variance = gnubg_variance = 0.0
    for context in CONTEXTS:
        name, length, a, b = context
        if length == 0:
            ctx = gammon.CubeContext.money()
        else:
            ctx = gammon.CubeContext.match((length - a, length - b))
        mine = []
        for p in ids:
            r = gammon.rollout(
                gammon.Position.from_id(p),
                trials=args.trials,
                seed=args.seed,
                threads=args.threads,
                variance_reduction=args.variance_reduction,
                context=ctx,
                policy=args.policy,
            )
            ours_seconds += r.seconds
            mine.append(r)
        if args.ours_only:
            continue
        assert gnubg is not None
        with_rollout, text = run_gnubg(gnubg, gnubg_commands(args, ids, context, True))
        start_up, _ = run_gnubg(gnubg, gnubg_commands(args, ids, context, False))
        gnubg_seconds += max(with_rollout - start_up, 0.0)
        theirs = gnubg_results(text)
        if len(theirs) != len(ids):
            print(f"gnubg gave {len(theirs)} results for {len(ids)} positions in {name}; its output:")
            print(text[-3000:])
            return 1
        for (p, kind), r, (_, cf, se) in zip(positions, mine, theirs):
            diff = r.cubeful_equity - cf
            combined = (r.cubeful_std_error**2 + se**2) ** 0.5
            ok = abs(diff) <= 3 * combined
            ours_variance += r.cubeful_std_error**2
            gnubg_variance += se**2
            agree += ok
            total += 1
            print(
                f"| {name} | {p} | {kind} | {r.cubeful_equity:+.3f} ± {r.cubeful_std_error:.3f} "
                f"| {cf:+.3f} ± {se:.3f} | {diff:+.3f} | {'yes' if ok else 'no'} |"
            )
    if args.ours_only:
        games = len(ids) * len(CONTEXTS) * args.trials
        print(f"games per second: ours {games / ours_seconds:,.0f}; {games} games, {args.threads} threads")
        return 0
    games = total * args.trials
    print()
    print(f"{agree} of {total} within 3 combined standard errors")
    print(
        f"games per second: ours {games / ours_seconds:,.0f}, gnubg {games / gnubg_seconds:,.0f} "
        f"(ratio {gnubg_seconds / ours_seconds:.2f}); {games} games each, {args.threads} threads"
    )
    print(
        f"mean squared standard error: ours {ours_variance / total:.6f}, gnubg {gnubg_variance / total:.6f}; "
        f"time to the same standard error, gnubg's over ours: "
        f"{gnubg_seconds * gnubg_variance / (ours_seconds * ours_variance):.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
