//! Analyses a `.mat` file and prints each player's totals and the time taken:
//! `cargo run --release -p gammon-analysis --example analyse -- FILE [PLY] [THREADS]`.

use gammon_analysis::{analyse, Options};
use gammon_backgammon::Match;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: analyse FILE.mat [PLY] [THREADS]");
        std::process::exit(2);
    };
    let ply = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let threads = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2);
    let text = std::fs::read_to_string(path).expect("readable file");
    let m = Match::from_mat(&text).expect("a .mat file");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("threads");
    let options = Options { ply, ..Options::default() };
    // The nets and the bear-off database are built on first use: once before the clock starts,
    // as a long-running program (the server, a Python session) has them.
    let _ = gammon_bot::search::Bot::new(0).map(|b| b.evaluate(&gammon_backgammon::Position::initial()));
    let setup = Instant::now();
    let _ = gammon_bot::bearoff::database();
    println!("bear-off database built in {:.3} s (once per process)", setup.elapsed().as_secs_f64());
    let start = Instant::now();
    let a = pool.install(|| analyse(&m, &options, None)).expect("analysis");
    let seconds = start.elapsed().as_secs_f64();
    for p in &a.players {
        println!(
            "{:>12}: {} unforced plays, {} cube decisions, error rate {:.1} mEMG ({}), luck {:+.3}",
            p.name,
            p.unforced_plays,
            p.cube_decisions,
            p.error_rate(),
            p.rating(),
            p.luck
        );
    }
    println!("{} decisions at ply {ply} on {threads} threads in {seconds:.3} s", a.decisions.len());
}
