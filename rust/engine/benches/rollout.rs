//! Rollout speed: games per second of the opening position for each built-in policy at 1 and 2
//! threads, and the standard errors. Run with `cargo bench -p gammon-engine --bench rollout`;
//! `ROLLOUT_BENCH_TRIALS=N` changes the number of games per measurement (default 20736).

use gammon_engine::eval::BuiltinPolicy;
use gammon_engine::rollout::{rollout, RolloutOptions};
use gammon_engine::Position;

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too, so keep that quick.
    let testing = !std::env::args().any(|a| a == "--bench");
    let trials: u64 = match std::env::var("ROLLOUT_BENCH_TRIALS") {
        Ok(v) => v.parse().expect("ROLLOUT_BENCH_TRIALS must be a number"),
        Err(_) if testing => 72,
        Err(_) => 20_736,
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "rollout of the starting position (player on roll about to roll), {trials} games, {cores} cores"
    );
    println!(
        "{:<8} {:>7} {:>12} {:>11} {:>9} {:>10} {:>10}",
        "policy", "threads", "games/s", "us/game", "equity", "std error", "reduced"
    );
    for policy in [BuiltinPolicy::Random, BuiltinPolicy::Pubeval] {
        for threads in [1, 2] {
            let options =
                RolloutOptions { trials, seed: 1, threads: Some(threads), ..RolloutOptions::default() };
            let r = rollout(&Position::initial(), &policy, &options).unwrap();
            let reduced =
                if r.variance_reduction { format!("{:.5}", r.equity_std_error) } else { "n/a".to_string() };
            println!(
                "{:<8} {:>7} {:>12.0} {:>11.2} {:>+9.4} {:>10.5} {:>10}",
                format!("{policy:?}").to_lowercase(),
                threads,
                r.trials as f64 / r.seconds,
                1e6 * r.seconds / r.trials as f64,
                r.equity,
                r.plain_equity_std_error,
                reduced
            );
        }
    }
}
