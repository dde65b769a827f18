//! Rollout speed: games per second of the opening position for each built-in policy at 1 and 2
//! threads (the net without variance reduction, then with it), and the standard errors. Run with `cargo bench -p gammon-bot --bench rollout`;
//! `ROLLOUT_BENCH_TRIALS=N` changes the number of games per measurement (default 20736);
//! `ROLLOUT_BENCH_ROWS=net,net-fast` runs only the rows named; `ROLLOUT_BENCH_ALL_TRIALS=1` gives
//! the net rows every game too, where they otherwise play a quarter of them.

use gammon_backgammon::Backgammon;
use gammon_backgammon::Position;
use gammon_bot::rollout::{rollout, RolloutOptions};
use gammon_bot::{BuiltinPolicy, Policy};

/// CPU time used by this process so far (Linux `/proc/self/stat`, in clock ticks of 10 ms), so
/// that the cost per game can be read even on a machine busy with other work.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

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
        "{:<8} {:>7} {:>10} {:>9} {:>13} {:>9} {:>10} {:>9}",
        "policy", "threads", "games/s", "us/game", "cpu us/game", "equity", "std error", "reduced"
    );
    // The net plays far more slowly than the others, so it gets a quarter of the games, and no
    // variance reduction, like GNU Backgammon's rollouts in `tools/gnubg_rollout.py`; the
    // net-vr row gets a quarter too, with it (that script's `--varredn`).
    // The net's weights and the bear-off database are built on first use; do that before any
    // clock starts, so that the first net row does not pay for it.
    let bearing_off = Position::from_board([
        0, 0, 0, 0, 0, 0, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -15, 0, 0, 0, 0, 0, 0,
    ])
    .expect("a valid bear-off position");
    for net in [gammon_bot::net::NeuralNet::builtin(), gammon_bot::net::NeuralNet::fast()] {
        gammon_bot::Evaluator::evaluate(net, &bearing_off);
    }
    let all = std::env::var("ROLLOUT_BENCH_ALL_TRIALS").is_ok_and(|v| v == "1");
    let games = |share: u64| if all { trials } else { (trials / share).max(36) };
    let rows = std::env::var("ROLLOUT_BENCH_ROWS").ok();
    let wanted = |row: &str| rows.as_deref().is_none_or(|r| r.split(',').any(|w| w == row));
    // Each row: its name, the policy, variance reduction, and the share of the games it gets.
    let table = [
        ("random", BuiltinPolicy::Random, true, 1),
        ("pubeval", BuiltinPolicy::Pubeval, true, 1),
        // The default: the bot's nets judging the plays the bot's screen ranks highest.
        ("net", BuiltinPolicy::Net, false, 4),
        // The rollouts' narrower nets judging the plays their own screen ranks highest.
        ("net-fast", BuiltinPolicy::NetFast, false, 4),
        // The bot's wider nets judging every play (the bot at 0-ply).
        ("net-all", BuiltinPolicy::NetAll, false, 4),
        // Variance reduction asks the luck net for the value of each of the 21 rolls at every
        // turn (`gammon_bot::rollout::luck`).
        ("net-vr", BuiltinPolicy::Net, true, 4),
        ("net-fast-vr", BuiltinPolicy::NetFast, true, 4),
    ];
    for (row, policy, variance_reduction, share) in table {
        if wanted(row) {
            bench_rows(row, &policy, variance_reduction, games(share));
        }
    }
}

/// One row per thread count (1 and 2): `policy` rolling out the starting position `trials` times.
fn bench_rows<P: Policy<Backgammon>>(row: &str, policy: &P, variance_reduction: bool, trials: u64) {
    for threads in [1, 2] {
        let options = RolloutOptions {
            trials,
            seed: 1,
            threads: Some(threads),
            variance_reduction,
            ..RolloutOptions::default()
        };
        let cpu = cpu_seconds();
        let r = rollout(&Position::initial(), policy, &options).unwrap();
        let cpu = match (cpu, cpu_seconds()) {
            (Some(a), Some(b)) => format!("{:.2}", 1e6 * (b - a) / r.trials as f64),
            _ => "n/a".to_string(),
        };
        let reduced = if r.variance_reduction { format!("{:.5}", r.std_error) } else { "n/a".to_string() };
        println!(
            "{:<8} {:>7} {:>10.0} {:>9.2} {:>13} {:>+9.4} {:>10.5} {:>9}",
            row,
            threads,
            r.trials as f64 / r.seconds,
            1e6 * r.seconds / r.trials as f64,
            cpu,
            r.equity,
            r.plain_std_error,
            reduced
        );
    }
}
