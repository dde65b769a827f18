//! The full Battlegammon duels: the bot against the random and the greedy policies, each over
//! mirrored dice (every dice sequence played twice, seats swapped), on the duel harness every
//! dice game shares.
//!
//! ```text
//! cargo run --release -p gammon-train --bin battlegammon-duel -- [PAIRS] [SEED] [DUEL...]
//! ```
//!
//! Defaults: 1000 pairs, that is 2,000 games per duel, seed 2024; the duels `greedy-random`,
//! `random` and `greedy`, and on request `depth1` and `backgammon` (pubeval against random in
//! money points). The duels named run in that order, whatever the order given.

use clap::{Parser, ValueEnum};
use gammon_backgammon::{Backgammon, Position};
use gammon_battlegammon::{Battlegammon, Bot, GreedyBot, TurnPosition};
use gammon_bot::rollout::Start;
use gammon_bot::{Policy, PubevalPolicy, RandomPolicy};
use gammon_core::duel::{duel, DuelResult};
use std::time::Instant;

/// A duel to run.
#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum Duel {
    /// The greedy policy against random, for scale.
    GreedyRandom,
    /// The bot against random.
    Random,
    /// The bot against greedy.
    Greedy,
    /// The bot judging its plays by the evaluation alone (ply 0) against greedy (not run by
    /// default).
    // Named when the search counted depth 1 for what is now ply 0; kept so that commands quoted
    // in the docs still work.
    Depth1,
    /// Backgammon, pubeval against random, in money points (not run by default).
    Backgammon,
}

/// The command line.
#[derive(Parser)]
#[command(about = "Battlegammon duels of the bot against the random and greedy policies, on mirrored dice.")]
struct Options {
    /// Pairs of games on the same dice, seats swapped, in each duel.
    #[arg(default_value_t = 1000)]
    pairs: u32,
    /// The seed of the dice.
    #[arg(default_value_t = 2024)]
    seed: u64,
    /// The duels to run [default: greedy-random, random and greedy].
    #[arg(value_enum)]
    duels: Vec<Duel>,
}

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
    let o = Options::parse();
    let (pairs, seed) = (o.pairs, o.seed);
    let wanted = |duel: Duel| o.duels.contains(&duel);
    let by_default = |duel: Duel| o.duels.is_empty() || wanted(duel);
    if by_default(Duel::GreedyRandom) {
        battlegammon("greedy vs random", &GreedyBot, &RandomPolicy, pairs, seed);
    }
    if by_default(Duel::Random) {
        battlegammon("bot vs random", &Bot::new(), &RandomPolicy, pairs, seed);
    }
    if by_default(Duel::Greedy) {
        battlegammon("bot vs greedy", &Bot::new(), &GreedyBot, pairs, seed);
    }
    if wanted(Duel::Depth1) {
        battlegammon(
            "bot depth 1 vs greedy",
            &Bot::new().with_ply(0).expect("ply 0"),
            &GreedyBot,
            pairs,
            seed,
        );
    }
    if wanted(Duel::Backgammon) {
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

#[cfg(test)]
mod tests {
    use super::*;

    gammon_train::command_line_test!(Options);

    #[test]
    fn duels_are_named_after_the_seed() {
        let o = Options::try_parse_from(["battlegammon-duel", "10", "7", "depth1", "backgammon"]).unwrap();
        assert_eq!((o.pairs, o.seed), (10, 7));
        assert!(o.duels == [Duel::Depth1, Duel::Backgammon]);
        assert!(Options::try_parse_from(["battlegammon-duel", "10", "7", "depth3"]).is_err());
    }
}
