//! Variance reduction at equal time: for a few positions, the net policy's cubeless rollout with
//! and without it, on one thread. Prints, per position, the CPU time per game of each, the
//! variance ratio (the plain standard error of the reduced rollout's own games over its reduced
//! one, squared), the standard error each reaches in the same CPU time, and the bias check (the
//! reduced equity against an independent plain rollout of more games, in standard errors).
//! Run with `cargo bench -p gammon-bot --bench variance_reduction`; `VR_BENCH_TRIALS=N` sets the
//! reduced rollouts' games (default 2592; the plain ones get four times as many), `VR_BENCH_ROUNDS`
//! the alternating timing rounds (default 3).

use gammon_backgammon::Position;
use gammon_bot::rollout::{rollout, RolloutOptions, RolloutResult};
use gammon_bot::BuiltinPolicy;

/// CPU time used by this process so far (Linux `/proc/self/stat`, in clock ticks of 10 ms), so
/// that the cost per game can be read on a machine busy with other work.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("Linux /proc");
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
    let rest = &stat[stat.rfind(')').expect("a command name") + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}

/// Rolls out `position` with the net policy; the result and the CPU seconds it took.
fn run(position: &Position, trials: u64, seed: u64, variance_reduction: bool) -> (RolloutResult, f64) {
    let options =
        RolloutOptions { trials, seed, threads: Some(1), variance_reduction, ..RolloutOptions::default() };
    let start = cpu_seconds();
    let r = rollout(position, &BuiltinPolicy::NetFast, &options).unwrap();
    (r, cpu_seconds() - start)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too, so keep that quick.
    let testing = !std::env::args().any(|a| a == "--bench");
    let number = |name: &str, default: u64, quick: u64| match std::env::var(name) {
        Ok(v) => v.parse().unwrap_or_else(|_| panic!("{name} must be a number")),
        Err(_) if testing => quick,
        Err(_) => default,
    };
    let trials = number("VR_BENCH_TRIALS", 2592, 36);
    let rounds = number("VR_BENCH_ROUNDS", 3, 1);
    let positions = [
        // The starting position, the player on roll about to roll.
        ("start", "4HPwATDgc/ABMA"),
        // A middle game from a real game (the XGID fixture of the position ID tests), 160 pips
        // against 162.
        ("contact", "0HPhATDg2+ABMA"),
        // An even race, 96 pips each, no checker home yet on either side's 6 to 9 points.
        ("race", "2N1tAADY3W0AAA"),
    ];
    println!(
        "net policy, cubeless, 1 thread; reduced rollouts {trials} games, plain {} games, {rounds} timing rounds",
        4 * trials
    );
    println!(
        "{:<8} {:>10} {:>10} {:>10} {:>9} {:>10} {:>10} {:>9} {:>9}",
        "position", "plain us", "vr us", "cost", "var ratio", "plain se", "vr se", "gain", "bias/se"
    );
    for (name, id) in positions {
        let position = Position::from_id(id).expect("a valid position ID");
        // Warm the nets and the bear-off database outside the clocks.
        run(&position, 36, 99, true);
        let (mut plain_cpu, mut vr_cpu) = (0.0, 0.0);
        let (mut plain, mut reduced) = (None, None);
        // Alternating, so that a change in the machine's load touches both sides alike.
        for _ in 0..rounds {
            let (r, t) = run(&position, 4 * trials, 2, false);
            plain_cpu += t;
            plain = Some(r);
            let (r, t) = run(&position, trials, 1, true);
            vr_cpu += t;
            reduced = Some(r);
        }
        let (plain, reduced) = (plain.unwrap(), reduced.unwrap());
        let plain_us = 1e6 * plain_cpu / (rounds * 4 * trials) as f64;
        let vr_us = 1e6 * vr_cpu / (rounds * trials) as f64;
        let cost = vr_us / plain_us;
        let ratio = (reduced.plain_std_error / reduced.std_error).powi(2);
        // The error each would reach in one second of CPU: se * sqrt(games / games per second).
        let plain_se = plain.std_error * (plain.trials as f64 * plain_us * 1e-6).sqrt();
        let vr_se = reduced.std_error * (reduced.trials as f64 * vr_us * 1e-6).sqrt();
        let bias =
            (reduced.equity - plain.equity) / (reduced.std_error.powi(2) + plain.std_error.powi(2)).sqrt();
        println!(
            "{:<8} {:>10.1} {:>10.1} {:>10.2} {:>9.2} {:>10.5} {:>10.5} {:>9.2} {:>+9.2}",
            name,
            plain_us,
            vr_us,
            cost,
            ratio,
            plain_se,
            vr_se,
            plain_se / vr_se,
            bias
        );
    }
    println!("cost: CPU time per game with variance reduction over without; gain: the plain standard error");
    println!(
        "over the reduced one at equal CPU time (each scaled to one second); bias/se: reduced equity minus"
    );
    println!("the independent plain rollout's, in combined standard errors");
}
