#!/usr/bin/env python3
"""Games per second of GNU Backgammon's own 0-ply cubeless rollout, next to ours.

GNU Backgammon is an outside program used only for this comparison
(`apt-get install -y gnubg`); nothing of it is copied here. Without it the
script says so and exits 0.

How gnubg is driven: `gnubg -t -q` (text mode, no profile) reads these
commands on standard input:

    set threads T
    set rollout trials N
    set rollout seed S
    set rollout cubeful off                      # cubeless, as ours
    set rollout chequerplay plies 0              # 0-ply chequer play (its neural net)
    set rollout chequerplay cubeful off
    set rollout varredn off|on                   # variance reduction (--varredn)
    set rollout quasirandom on                   # rotated first rolls, as ours
    set rollout truncation enable off            # every game to the end...
    set rollout bearofftruncation exact off      # ...also through the bear-off
    set rollout bearofftruncation onesided off   #    databases
    set rollout later enable off
    set rollout initial off|on                   # on = before the opening roll
    set player 0 human / set player 1 human      # so that `new game` waits
    new game
    rollout                                      # the current position

gnubg prints its final rollout table only to a terminal, so it runs under
`script` (util-linux) when that exists. The wall time of the whole run minus
that of the same commands without `rollout` (start-up: loading the network
and the databases) is the rollout's time.

Ours: `cargo bench -p gammon-bot --bench rollout` with the same number of
trials (ROLLOUT_BENCH_TRIALS, and ROLLOUT_BENCH_ALL_TRIALS=1 so that the net
rows play all of them too), whose rows at the same thread count give the
ratios. The "net" row is the like-for-like one for the default policy: the
bot's nets at 0-ply on the plays their screen ranks highest, as strong as
gnubg's 0-ply, no variance reduction; "net-fast" plays the narrower rollout
net, faster and weaker; the pubeval and
random rows show the cheaper policies. With `--varredn` both sides reduce
variance and the "net-vr" row is compared: gnubg judges the best play of all
21 rolls at every turn, ours predicts each roll's value with its luck net,
without generating plays. Our net policies screen the plays of a roll and
judge the few most promising with the full nets, where gnubg's judges all of
them with its net; the "net-all" row is ours judging all of them too.

Usage (from the repository root):
    python3 tools/gnubg_rollout.py [--trials 1296] [--threads 2] [--seed 1]
                                     [--opening] [--no-ours] [--varredn]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def find_gnubg():
    for cand in (shutil.which("gnubg"), "/usr/games/gnubg"):
        if cand and os.path.exists(cand):
            return cand
    return None


def commands(args, with_rollout):
    lines = [
        f"set threads {args.threads}",
        f"set rollout trials {args.trials}",
        f"set rollout seed {args.seed}",
        "set rollout cubeful off",
        "set rollout chequerplay plies 0",
        "set rollout chequerplay cubeful off",
        f"set rollout varredn {'on' if args.varredn else 'off'}",
        "set rollout quasirandom on",
        "set rollout truncation enable off",
        "set rollout bearofftruncation exact off",
        "set rollout bearofftruncation onesided off",
        "set rollout later enable off",
        f"set rollout initial {'on' if args.opening else 'off'}",
        "set player 0 human",
        "set player 1 human",
        "new game",
    ]
    if with_rollout:
        lines.append("rollout")
    return "\n".join(lines) + "\n"


def run_gnubg(gnubg, args, with_rollout):
    """Runs gnubg on the commands; returns (seconds, output)."""
    with tempfile.NamedTemporaryFile("w", suffix=".cmd", delete=False) as f:
        f.write(commands(args, with_rollout))
        path = f.name
    try:
        inner = f"{gnubg} -t -q < {path}"
        if shutil.which("script"):
            cmd = ["script", "-qec", inner, "/dev/null"]
        else:
            cmd = ["sh", "-c", inner]
        start = time.perf_counter()
        out = subprocess.run(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, check=False
        ).stdout
        return time.perf_counter() - start, out.decode("utf-8", "replace").replace("\r", "\n")
    finally:
        os.unlink(path)


def gnubg_result(text):
    """The last rollout table: (probabilities line, games)."""
    probs = re.findall(
        r"^\s+(\d\.\d{3} \d\.\d{3} \d\.\d{3} - \d\.\d{3} \d\.\d{3} \d\.\d{3} CL [+-]\d\.\d{3})", text, re.M
    )
    games = re.findall(r"^(\d+) games,", text, re.M)
    return (probs[-1] if probs else None, int(games[-1]) if games else None)


def ours(args):
    # Every row plays as many games as gnubg did (the bench alone gives the net rows a quarter):
    # the same trials, so that the fixed costs of a run (starting the threads, the batches'
    # last games) weigh alike on both sides.
    rows = "net-vr" if args.varredn else "random,pubeval,net,net-fast,net-all"
    env = dict(
        os.environ,
        ROLLOUT_BENCH_TRIALS=str(args.trials),
        ROLLOUT_BENCH_ALL_TRIALS="1",
        ROLLOUT_BENCH_ROWS=rows,
    )
    env.setdefault("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    out = subprocess.run(
        ["cargo", "bench", "-q", "-p", "gammon-bot", "--bench", "rollout"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        check=True,
    ).stdout.decode()
    rates = {}
    rows = ("random", "pubeval", "net", "net-fast", "net-all", "net-vr")
    for line in out.splitlines():
        cols = line.split()
        if len(cols) >= 3 and cols[0] in rows and cols[1].isdigit():
            rates[(cols[0], int(cols[1]))] = float(cols[2])
    return out, rates


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trials", type=int, default=1296)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--opening", action="store_true", help="roll out before the opening roll")
    ap.add_argument("--no-ours", action="store_true", help="skip our benchmark")
    ap.add_argument(
        "--varredn",
        action="store_true",
        help="variance reduction on for gnubg, compared with our net-vr row (the net with it)",
    )
    args = ap.parse_args()

    gnubg = find_gnubg()
    if gnubg is None:
        print("gnubg is not installed (apt-get install -y gnubg); nothing to compare")
        return 0
    startup, _ = run_gnubg(gnubg, args, False)
    total, text = run_gnubg(gnubg, args, True)
    probs, games = gnubg_result(text)
    games = games or args.trials
    seconds = max(total - startup, 1e-9)
    gnubg_rate = games / seconds
    print(f"machine: {os.cpu_count()} cores")
    what = "opening" if args.opening else "starting position"
    print(
        f"gnubg 0-ply cubeless rollout of the {what}, {games} games, {args.threads} threads: "
        f"{seconds:.2f} s (start-up {startup:.2f} s excluded), {gnubg_rate:.0f} games/s"
    )
    if probs:
        print(f"gnubg result (win wg wbg - lose lg lbg, cubeless equity): {probs}")
    if not args.no_ours:
        out, rates = ours(args)
        print(out.rstrip())
        for policy in ("net-vr",) if args.varredn else ("net", "net-fast", "net-all", "pubeval", "random"):
            rate = rates.get((policy, args.threads))
            if rate:
                ratio = rate / gnubg_rate
                print(f"ours ({policy}) / gnubg (0-ply net) at {args.threads} threads: {ratio:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
