"""Legal-play generation against wildbg's, in alternating rounds on the same machine.

Both programs' own benchmarks run over the same 2,000 positions (data/positions/ here,
crates/benchmarks/resources/ in wildbg; the script checks that the files are equal) and the 21
rolls, and both assert the same counts (404,313 results for contact, 263,290 for race). Each
round runs wildbg's criterion benchmark (its four groups: contact and race, doubles and the other
rolls; 10 samples each, as criterion's default of 100 takes minutes a group) and then ours; a set's time for wildbg is the sum of its two groups' median estimates. The
script prints, per round and set, the ratio of wildbg's time to ours for our positions-only
generator (``legal_positions_into``) and for the full one (``legal_plays_into``), then the median
ratio over the rounds.

Usage (from the repository root, with a clone of wildbg's public repository)::

    python tools/movegen_vs_wildbg.py --wildbg PATH/TO/wildbg --rounds 5

It builds both benchmarks first (wildbg's pulls in its neural-net crates: many minutes the first
time).

With ``--cpu-time`` the rounds compare processor time instead of wall time: the time each
program's measuring thread ran on a processor (Linux's ``/proc/thread-self/schedstat``), which
leaves out the time other processes held it, so it varies far less on a shared machine. wildbg's
criterion benchmark cannot report it, so for wildbg the script writes a small driver of its own
into the wildbg checkout (``crates/benchmarks/examples/gammon_movegen_cpu.rs``; wildbg's generator
and allocator as shipped, its release profile) that makes the same calls as wildbg's benchmark
(for each roll, every position's ``all_positions_after_moving``) for the given seconds, and
removes it afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COUNTS = {"contact": 404_313, "race": 263_290}
UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
CRITERION = re.compile(
    r"generate moves: (contact|race), (double|mixed)\s+time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]"
)
OURS = re.compile(r"(contact|race)\s+(plays|positions): .*?; ([\d.]+) ms per pass")


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    """Runs `cmd` in `cwd` and returns its standard output; stops the script if it fails."""
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env={**os.environ, **(env or {})})
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def wildbg_round(wildbg: Path, seconds: float) -> dict[str, float]:
    """Seconds per pass over each set (doubles plus the other rolls) from wildbg's benchmark."""
    out = run(
        [
            "cargo",
            "bench",
            "-q",
            "-p",
            "benchmarks",
            "--bench",
            "move_generation_bench",
            "--",
            "--noplot",
            "--sample-size",
            "10",
            "--warm-up-time",
            "1",
            "--measurement-time",
            str(seconds),
        ],
        wildbg,
    )
    times: dict[str, float] = {"contact": 0.0, "race": 0.0}
    found = 0
    for name, _kind, value, unit in CRITERION.findall(out):
        times[name] += float(value) * UNITS[unit]
        found += 1
    if found != 4:
        sys.exit(f"could not read wildbg's four timings from:\n{out}")
    return times


# wildbg's side of --cpu-time: the calls of its move_generation_bench, timed by processor time.
CPU_DRIVER = """
use engine::dice::Dice;
use engine::position::Position;
use mimalloc::MiMalloc;
use std::hint::black_box;
use std::time::Instant;

#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

fn cpu_seconds() -> f64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
    text.split_whitespace().next().unwrap().parse::<f64>().unwrap() * 1e-9
}

fn main() {
    let seconds: f64 = std::env::args().nth(1).unwrap().parse().unwrap();
    let dice: Vec<Dice> = Dice::all_6_double().into_iter().chain(Dice::all_15_mixed()).collect();
    for name in ["contact", "race"] {
        let text = std::fs::read_to_string(format!("resources/{name}.csv")).unwrap();
        let positions: Vec<Position> = text.lines().map(Position::from_id).collect();
        let pass = |positions: &[Position]| -> usize {
            dice.iter()
                .map(|d| positions.iter().map(|p| p.all_positions_after_moving(d).len()).sum::<usize>())
                .sum()
        };
        let count = pass(&positions);
        let (start, cpu_start) = (Instant::now(), cpu_seconds());
        let mut runs = 0;
        while start.elapsed().as_secs_f64() < seconds || runs == 0 {
            black_box(pass(black_box(&positions)));
            runs += 1;
        }
        let cpu = (cpu_seconds() - cpu_start) / runs as f64;
        println!("{name} {count} {cpu}");
    }
}
"""
CPU_DRIVER_PATH = "crates/benchmarks/examples/gammon_movegen_cpu.rs"
OURS_CPU = re.compile(r"(contact|race)\s+(plays|positions): .*?; ([\d.]+) ms of processor time per pass")


def wildbg_cpu_round(wildbg: Path, seconds: float) -> dict[str, float]:
    """Processor seconds per pass over each set from the driver (counts checked as wildbg's)."""
    out = run(
        [
            "cargo",
            "run",
            "-q",
            "--release",
            "-p",
            "benchmarks",
            "--example",
            "gammon_movegen_cpu",
            "--",
            str(seconds),
        ],
        wildbg / "crates/benchmarks",
    )
    times: dict[str, float] = {}
    for line in out.split("\n"):
        if line.strip():
            name, count, cpu = line.split()
            if int(count) != COUNTS[name]:
                sys.exit(f"wildbg's count for {name} is {count}, not {COUNTS[name]}")
            times[name] = float(cpu)
    return times


def ours_round(bench: str, seconds: float, cpu: bool = False) -> dict[tuple[str, str], float]:
    """Seconds per pass over each set for each of our generators, from the built `bench` (wall
    time, or processor time with `cpu`)."""
    out = run([bench, "--bench"], ROOT, {"BENCH_SECONDS": str(seconds)})
    pattern = OURS_CPU if cpu else OURS
    times = {(name, what): float(ms) / 1e3 for name, what, ms in pattern.findall(out)}
    if len(times) != 4:
        sys.exit(f"could not read our four timings from:\n{out}")
    return times


def main() -> None:
    """Checks the inputs, builds both, runs the rounds and prints the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wildbg", type=Path, required=True, help="a clone of wildbg")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per set")
    parser.add_argument("--cpu-time", action="store_true", help="compare processor time (see above)")
    args = parser.parse_args()
    for name in ("contact", "race"):
        theirs = (args.wildbg / "crates/benchmarks/resources" / f"{name}.csv").read_text()
        ours = (ROOT / "data/positions" / f"{name}.csv").read_text()
        if theirs.split() != ours.split():
            sys.exit(f"{name}: wildbg's positions differ from data/positions/{name}.csv")
    # Our bench runs from its executable, so that other cargo commands holding the build
    # directory's lock do not stall the rounds.
    built = run(
        ["cargo", "bench", "-q", "-p", "gammon-backgammon", "--bench", "legal_plays", "--no-run"]
        + ["--message-format", "json"],
        ROOT,
    )
    bench = next(
        m["executable"]
        for m in map(json.loads, built.splitlines())
        if m.get("reason") == "compiler-artifact" and m.get("executable")
    )
    run(
        ["cargo", "bench", "-q", "-p", "benchmarks", "--bench", "move_generation_bench", "--no-run"],
        args.wildbg,
    )
    driver = args.wildbg / CPU_DRIVER_PATH
    made_folder = not driver.parent.exists()
    if args.cpu_time:
        driver.parent.mkdir(exist_ok=True)
        driver.write_text(CPU_DRIVER)
    try:
        rounds(args, bench)
    finally:
        # Leave wildbg's checkout as it was.
        if args.cpu_time:
            driver.unlink()
            if made_folder:
                driver.parent.rmdir()


def rounds(args: argparse.Namespace, bench: str) -> None:
    """The alternating rounds and their ratios."""
    commits = {
        "gammon": run(["git", "rev-parse", "--short", "HEAD"], ROOT).strip(),
        "wildbg": run(["git", "rev-parse", "--short", "HEAD"], args.wildbg).strip(),
    }
    print(f"commits: gammon {commits['gammon']}, wildbg {commits['wildbg']}")
    ratios: dict[tuple[str, str], list[float]] = {}
    for k in range(args.rounds):
        if args.cpu_time:
            theirs = wildbg_cpu_round(args.wildbg, args.seconds)
            ours = ours_round(bench, args.seconds, cpu=True)
        else:
            theirs = wildbg_round(args.wildbg, args.seconds)
            ours = ours_round(bench, args.seconds)
        cells = []
        for (name, what), seconds in sorted(ours.items()):
            ratio = theirs[name] / seconds
            ratios.setdefault((name, what), []).append(ratio)
            cells.append(f"{name} {what} {ratio:.2f}x ({theirs[name] * 1e3:.1f} / {seconds * 1e3:.1f} ms)")
        print(f"round {k + 1}: " + "; ".join(cells), flush=True)
    kind = "processor time" if args.cpu_time else "wall time"
    print(f"median of the rounds (wildbg's {kind} over ours; above 1 means we are faster):")
    for (name, what), values in sorted(ratios.items()):
        print(f"  {name:>7} {what:>9}: {statistics.median(values):.2f}x")


if __name__ == "__main__":
    main()
