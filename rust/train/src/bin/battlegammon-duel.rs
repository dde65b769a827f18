//! The full Battlegammon duels: the bot against the random and the greedy policies, each over
//! mirrored dice (every dice sequence played twice, seats swapped), on the duel harness every
//! dice game shares.
//!
//! `cargo run --release --example battlegammon_duel -- [PAIRS] [SEED] [DUEL...]` (defaults: 1000
//! pairs, that is 2,000 games per duel, seed 2024; duels `greedy-random`, `random`, `greedy`, and
//! on request `depth1` and `backgammon`, pubeval against random in money points).

use gammon_backgammon::{Backgammon, Position};
use gammon_battlegammon::{Battlegammon, Bot, GreedyBot, TurnPosition};
use gammon_bot::rollout::Start;
use gammon_bot::{Policy, PubevalPolicy, RandomPolicy};
use gammon_core::duel::{duel, DuelResult};
use std::time::Instant;

fn report(name: &str, result: &DuelResult, seconds: f64) {
    println!(
        "{name}: {} games, won {} lost {} drew {}: {:.1}% +- {:.1}%, {:+.3} points a game ({seconds:.0} s)",
        result.games,
        result.wins[0],
        result.wins[1],
        result.draws,
        100.0 * result.score(0),
        100.0 * result.std_error(),
        result.points_per_game()
    );
}

fn battlegammon<A: Policy<Battlegammon>, B: Policy<Battlegammon>>(
    name: &str,
    a: &A,
    b: &B,
    pairs: u32,
    seed: u64,
) {
    let t = Instant::now();
    let r = duel(&Battlegammon::default(), Start::Position(TurnPosition::initial()), a, b, pairs, seed);
    report(name, &r, t.elapsed().as_secs_f64());
}

fn main() {
    let mut args = std::env::args().skip(1);
    let pairs: u32 = args.next().map(|a| a.parse().expect("PAIRS must be a number")).unwrap_or(1000);
    let seed: u64 = args.next().map(|a| a.parse().expect("SEED must be a number")).unwrap_or(2024);
    let which: Vec<String> = args.collect();
    let all = which.is_empty();
    let wanted = |name: &str| all || which.iter().any(|w| w == name);
    if wanted("greedy-random") {
        battlegammon("greedy vs random", &GreedyBot, &RandomPolicy, pairs, seed);
    }
    if wanted("random") {
        battlegammon("bot vs random", &Bot::new(), &RandomPolicy, pairs, seed);
    }
    if wanted("greedy") {
        battlegammon("bot vs greedy", &Bot::new(), &GreedyBot, pairs, seed);
    }
    if which.iter().any(|w| w == "depth1") {
        battlegammon("bot depth 1 vs greedy", &Bot::new().with_depth(1).unwrap(), &GreedyBot, pairs, seed);
    }
    if which.iter().any(|w| w == "backgammon") {
        let t = Instant::now();
        let r = duel(
            &Backgammon,
            Start::Opening(Position::initial()),
            &PubevalPolicy,
            &RandomPolicy,
            pairs,
            seed,
        );
        report("backgammon pubeval vs random", &r, t.elapsed().as_secs_f64());
    }
}
