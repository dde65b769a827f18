//! Trains the screen (`gammon_bot::net::screen`) on the full nets' judgements.
//!
//! ```text
//! cargo run --release -p gammon-train --bin train-screen -- [--games 400000] [--alpha 0.002]
//!     [--focus inf] [--seed 1] [--test-games 4000] [--net NET.bin] [--from SCREEN.bin]
//!     [--out rust/bot/data/screen-v1.bin]
//! ```
//!
//! The full nets (the shipped ones, or `--net`) play themselves at 0-ply; at every roll with
//! two or more plays the screen takes one step towards the nets' equities of those plays
//! ([`Screen::learn_roll`]). The step size falls linearly from `--alpha` to a tenth of it. Game
//! `g` rolls dice stream `g` of the seed, so a run is reproducible; it takes a few minutes on
//! one core. Then, on `--test-games` further games, it reports how often the nets' best play is
//! among the screen's `keep` best and what keeping only those costs per roll, in the nets' own
//! equity, for `keep` from 1 to 12. The default `--out` is relative to the repository's root,
//! where `cargo run` is meant to be started.

use clap::Parser;
use gammon_backgammon::{Play, Position};
use gammon_bot::net::screen::Screen;
use gammon_bot::net::NeuralNet;
use gammon_train::files::{read_net, read_screen, save};
use gammon_train::selfplay::{best, self_play};
use std::path::PathBuf;

/// The command line.
#[derive(Parser)]
#[command(about = "Trains the screen on the full nets' judgements, then measures it on further games.")]
#[command(args_override_self = true)]
struct Options {
    /// Self-play games to train on.
    #[arg(long, value_name = "N", default_value_t = 400_000)]
    games: u64,
    /// The first step size; it falls linearly to a tenth of it over the games.
    #[arg(long, value_name = "A", default_value_t = 0.002)]
    alpha: f32,
    /// How fast a play's weight in training falls with its equity below the roll's best: a
    /// play `focus` worse counts 1/e as much; infinite (the default) counts every play alike.
    #[arg(long, value_name = "E", default_value_t = f32::INFINITY)]
    focus: f32,
    /// The seed of the games' dice and of the screen's first weights.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Held-out games after the training ones to measure the screen on.
    #[arg(long, value_name = "N", default_value_t = 4000)]
    test_games: u64,
    /// Weights of the nets to learn from [default: the shipped nets].
    #[arg(long, value_name = "NET.bin")]
    net: Option<PathBuf>,
    /// A screen to start from instead of random weights; with `--games 0` it is only measured,
    /// and nothing is written.
    #[arg(long, value_name = "SCREEN.bin")]
    from: Option<PathBuf>,
    /// Where the screen goes.
    #[arg(long, value_name = "FILE", default_value = "rust/bot/data/screen-v1.bin")]
    out: PathBuf,
}

/// Plays game `index` of `seed` with the nets at 0-ply, calling `roll` with each position
/// before a roll, its legal plays and their equities.
fn greedy_game(net: &NeuralNet, seed: u64, index: u64, mut roll: impl FnMut(&Position, &[Play], &[f32])) {
    let mut equities = Vec::new();
    self_play(net, seed, index, |position, plays, values, _| {
        equities.clear();
        equities.extend(values.iter().map(|v| v.equity() as f32));
        roll(position, plays, &equities);
        best(&equities)
    });
}

fn main() {
    let o = Options::parse();
    let (games, alpha, seed, test_games) = (o.games, o.alpha, o.seed, o.test_games);
    let owned = o.net.as_deref().map(|path| read_net(path, "--net"));
    let net = owned.as_ref().unwrap_or_else(|| NeuralNet::builtin());

    let mut screen =
        o.from.as_deref().map_or_else(|| Screen::random(seed), |path| read_screen(path, "--from"));
    let start = std::time::Instant::now();
    let (mut squares, mut count) = (0.0f64, 0u64);
    for g in 0..games {
        let a = alpha * (1.0 - 0.9 * g as f32 / games as f32);
        greedy_game(net, seed, g, |_, plays, equities| {
            squares += screen.learn_roll(plays, equities, a, o.focus) as f64;
            count += plays.len() as u64;
        });
        if (g + 1) % 20_000 == 0 || g + 1 == games {
            let rms = (squares / count.max(1) as f64).sqrt();
            println!("{} games: rms error {rms:.4} ({:.0} s)", g + 1, start.elapsed().as_secs_f64());
            (squares, count) = (0.0, 0);
        }
    }
    if games > 0 || o.from.is_none() {
        save(&o.out, &screen.to_bytes());
        println!("wrote {}", o.out.display());
    }

    // Held-out games: dice streams after the training ones.
    const KEEPS: usize = 12;
    let (mut found, mut loss, mut rolls) = ([0u64; KEEPS], [0.0f64; KEEPS], 0u64);
    let mut kept = Vec::new();
    for g in games..games + test_games {
        greedy_game(net, seed, g, |before, plays, equities| {
            if plays.len() < 2 {
                return;
            }
            rolls += 1;
            let top = best(equities);
            for keep in 1..=KEEPS {
                screen.keep_best(before, plays, keep, &mut kept);
                let chosen =
                    kept.iter().copied().fold(kept[0], |b, k| if equities[k] > equities[b] { k } else { b });
                found[keep - 1] += kept.contains(&top) as u64;
                loss[keep - 1] += (equities[top] - equities[chosen]) as f64;
            }
        });
    }
    println!("{test_games} held-out games, {rolls} rolls with a choice");
    println!("{:>4} {:>14} {:>14}", "keep", "best kept", "loss per roll");
    for keep in 1..=KEEPS {
        println!(
            "{keep:>4} {:>13.2}% {:>14.5}",
            100.0 * found[keep - 1] as f64 / rolls as f64,
            loss[keep - 1] / rolls as f64
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    gammon_train::command_line_test!(Options);
}
