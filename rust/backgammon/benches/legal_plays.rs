//! Legal-play generation over the benchmark position sets (1,000 contact and 1,000 race positions,
//! each with the 6 doubles and the 15 other rolls), printing generated positions per second.
//!
//! The total number of plays is asserted against GNU Backgammon's count for the same work
//! (`tests/fixtures/benchmark_counts.csv`), so the figure is never for a wrong generator.
//!
//! Each set is timed twice: `legal_plays_into` (full plays: moves, hits and the resulting position)
//! and `legal_positions_into` (the resulting positions only, what rollouts and searches use).
//!
//! Run: `cargo bench -p gammon-backgammon --bench legal_plays`. `BENCH_SECONDS` sets the time per set
//! (default 2); 0 runs one pass, for counting instructions under `valgrind --tool=callgrind`.
//! `BENCH_GENERATOR=plays` or `positions` times only that generator (for `perf record`, which sees
//! the whole process); `BENCH_ROLLS=doubles` or `mixed` times only those rolls (the counts are
//! still checked over all 21); `BENCH_SET=contact` or `race` runs only that set.

use gammon_backgammon::{legal_plays_into, legal_positions_into, Dice, Position, ALL_ROLLS};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load(name: &str) -> Vec<Position> {
    let path = root().join("data/positions").join(format!("{name}.csv"));
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| Position::from_id(l.trim()).unwrap()).collect()
}

fn gnubg_count(name: &str) -> usize {
    let text = std::fs::read_to_string(root().join("tests/fixtures/benchmark_counts.csv")).unwrap();
    let line = text.lines().find(|l| l.starts_with(&format!("{name},"))).unwrap();
    line.rsplit(',').next().unwrap().parse().unwrap()
}

/// One pass: every position with every roll; returns the number of plays generated.
fn pass(positions: &[Position], rolls: &[Dice], out: &mut Vec<gammon_backgammon::Play>) -> usize {
    let mut total = 0;
    for p in positions {
        for &dice in rolls {
            legal_plays_into(p, dice, out);
            total += out.len();
        }
    }
    total
}

/// As [`pass`] with the positions-only generator.
fn pass_positions(positions: &[Position], rolls: &[Dice], out: &mut Vec<Position>) -> usize {
    let mut total = 0;
    for p in positions {
        for &dice in rolls {
            legal_positions_into(p, dice, out);
            total += out.len();
        }
    }
    total
}

/// The time this thread has run on a processor, in seconds, where Linux tells it (the first field
/// of `/proc/thread-self/schedstat`, in nanoseconds): unlike the wall time, it leaves out the time
/// other processes held the processor, which on a shared machine is most of the noise.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(text.split_whitespace().next()?.parse::<f64>().ok()? * 1e-9)
}

/// Runs `f` for `budget` seconds (at least once) and returns the wall and processor seconds per
/// run.
fn time(budget: f64, mut f: impl FnMut() -> usize) -> (f64, Option<f64>) {
    let (start, cpu_start) = (Instant::now(), cpu_seconds());
    let mut rounds = 0u32;
    while start.elapsed() < Duration::from_secs_f64(budget) || rounds < 1 {
        std::hint::black_box(f());
        rounds += 1;
    }
    let cpu = cpu_start.zip(cpu_seconds()).map(|(a, b)| (b - a) / rounds as f64);
    (start.elapsed().as_secs_f64() / rounds as f64, cpu)
}

fn main() {
    let budget: f64 = std::env::var("BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let generator = std::env::var("BENCH_GENERATOR").unwrap_or_default();
    let mut out = Vec::with_capacity(1024);
    println!("legal-play generation, one thread ({} rolls per position)", ALL_ROLLS.len());
    let sets = std::env::var("BENCH_SET").unwrap_or_default();
    for name in ["contact", "race"] {
        if !sets.is_empty() && sets != name {
            continue;
        }
        let positions = load(name);
        let count = pass(&positions, &ALL_ROLLS, &mut out);
        assert_eq!(count, gnubg_count(name), "{name}: play count differs from GNU Backgammon's");
        let mut positions_out = Vec::with_capacity(1024);
        let count_positions = pass_positions(&positions, &ALL_ROLLS, &mut positions_out);
        assert_eq!(count_positions, count, "{name}: the positions-only generator's count differs");
        let rolls: Vec<Dice> = match std::env::var("BENCH_ROLLS").as_deref() {
            Ok("doubles") => ALL_ROLLS.iter().copied().filter(|d| d.is_double()).collect(),
            Ok("mixed") => ALL_ROLLS.iter().copied().filter(|d| !d.is_double()).collect(),
            _ => ALL_ROLLS.to_vec(),
        };
        let count = if rolls.len() == ALL_ROLLS.len() { count } else { pass(&positions, &rolls, &mut out) };
        let calls = positions.len() * rolls.len();
        let plays = (generator != "positions")
            .then(|| time(budget, || pass(std::hint::black_box(&positions), &rolls, &mut out)));
        let only = (generator != "plays").then(|| {
            time(budget, || pass_positions(std::hint::black_box(&positions), &rolls, &mut positions_out))
        });
        for (what, seconds) in [("plays", plays), ("positions", only)] {
            let Some((seconds, cpu)) = seconds else { continue };
            let cpu =
                cpu.map_or(String::new(), |c| format!("; {:.3} ms of processor time per pass", c * 1e3));
            println!(
                "{name:>8} {what:>9}: {calls} position-rolls, {count} results per pass; {:.3} ms per pass, \
                 {:.2} M results/s, {:.0} ns per position-roll{cpu}",
                seconds * 1e3,
                count as f64 / seconds / 1e6,
                seconds * 1e9 / calls as f64
            );
        }
    }
}
