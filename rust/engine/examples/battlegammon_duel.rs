//! The full Battlegammon duels: the bot against the random and the greedy policies, each over
//! mirrored dice (every dice sequence played twice, seats swapped).
//!
//! `cargo run --release --example battlegammon_duel -- [PAIRS] [SEED]` (defaults: 1000 pairs, that
//! is 2,000 games per duel, seed 2024).

use gammon_engine::battlegammon::{Bot, GreedyBot, RandomBot, Rules};
use gammon_engine::duel::{duel, DuelResult};
use std::time::Instant;

fn report(name: &str, result: &DuelResult, seconds: f64) {
    println!(
        "{name}: {} games, bot won {} lost {} drew {}: {:.1}% +- {:.1}% ({seconds:.0} s)",
        result.games,
        result.wins[0],
        result.wins[1],
        result.draws,
        100.0 * result.score(0),
        100.0 * result.std_error()
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let pairs: u32 = args.next().map(|a| a.parse().expect("PAIRS must be a number")).unwrap_or(1000);
    let seed: u64 = args.next().map(|a| a.parse().expect("SEED must be a number")).unwrap_or(2024);
    let rules = Rules::default();
    let which: Vec<String> = std::env::args().skip(3).collect();
    let all = which.is_empty();
    if all || which.iter().any(|w| w == "greedy-random") {
        let t = Instant::now();
        let r = duel(&rules, |_| GreedyBot::new(), RandomBot::new, pairs, seed);
        report("greedy vs random", &r, t.elapsed().as_secs_f64());
    }
    if all || which.iter().any(|w| w == "random") {
        let t = Instant::now();
        let r = duel(&rules, |_| Bot::new(), RandomBot::new, pairs, seed);
        report("bot vs random", &r, t.elapsed().as_secs_f64());
    }
    if all || which.iter().any(|w| w == "greedy") {
        let t = Instant::now();
        let r = duel(&rules, |_| Bot::new(), |_| GreedyBot::new(), pairs, seed);
        report("bot vs greedy", &r, t.elapsed().as_secs_f64());
    }
    if which.iter().any(|w| w == "depth1") {
        let t = Instant::now();
        let r = duel(&rules, |_| Bot::new().with_depth(1).unwrap(), |_| GreedyBot::new(), pairs, seed);
        report("bot depth 1 vs greedy", &r, t.elapsed().as_secs_f64());
    }
}
