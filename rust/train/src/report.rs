//! Duels as the programs report them: points per game of the first side with a standard error,
//! and the benchmark duel against pubeval that training runs are compared by.

use gammon_bot::duel::backgammon_duel;
use gammon_bot::net::NeuralNet;
use gammon_bot::search::Bot;
use gammon_bot::PubevalPolicy;
use gammon_core::duel::DuelResult;

/// The dice seed of the benchmark duel against pubeval: the same for every run and program, so
/// that the nets of different runs meet the same dice.
pub const PUBEVAL_SEED: u64 = 12345;

/// A mirrored-dice duel of `net` at 0-ply against pubeval over `pairs` pairs of games, on
/// [`PUBEVAL_SEED`]. Runs on the current rayon pool.
pub fn against_pubeval(net: &NeuralNet, pairs: u32) -> DuelResult {
    let bot = Bot::with_net(net, 0).expect("ply 0 is valid");
    backgammon_duel(&bot, &PubevalPolicy, pairs, PUBEVAL_SEED)
}

/// The first side's mean points per game and its standard error, to the digits the error's
/// first two figures need and at least three: `+0.123 +- 0.045`, `+0.0121 +- 0.0024`.
pub fn points(result: &DuelResult) -> String {
    let error = result.points_std_error();
    // A long duel's error of 0.002 would otherwise print as one figure, and the means of seeds
    // that differ in the fourth place would look alike.
    let digits = if error > 0.0 { (1.0 - error.log10().floor()).clamp(3.0, 6.0) as usize } else { 3 };
    format!("{:+.*} +- {:.*}", digits, result.points_per_game(), digits, error)
}

/// [`points`] with the unit and the number of games: `+0.123 +- 0.045 ppg over 1000 games`.
pub fn ppg(result: &DuelResult) -> String {
    format!("{} ppg over {} games", points(result), result.games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_per_game_are_signed_with_the_games_played() {
        let r = DuelResult { games: 2, wins: [1, 1], draws: 0, points: [2, 1], pair_squares: 1 };
        let text = ppg(&r);
        assert!(text.starts_with("+0.500 +- "), "{text}");
        assert!(text.ends_with(" ppg over 2 games"), "{text}");
    }
}
