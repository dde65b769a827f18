//! Rounds the head's input weights of a net's contact net to 8 bits, for measuring what an 8-bit
//! head would cost in play before its kernels are written: the net written plays like an 8-bit
//! head with `f32` activations (`bot-duel screened PAIRS SEED 0 OUT --back-game ...`).
//!
//! ```text
//! cargo run --release -p gammon-train --bin quantize-head -- [--net rust/bot/data/net-v14.bin]
//!     --out OUT [--calibrate] [--games 400] [--seed 91] [--sweeps 4]
//! ```
//!
//! Each head unit's weights get a scale of their own, 127 steps up to the largest. Plain, each
//! weight rounds to its nearest step. With `--calibrate` the roundings are chosen to fit the
//! first layer's activations of contact positions met in `--games` games of `net` (every
//! seventh position after a legal play, at most 60,000): starting from the nearest, each weight
//! in turn takes the other neighbouring step where that lowers the mean squared error of its
//! unit's sum over those activations (`--sweeps` passes), and the unit's bias then takes back
//! the error's mean. It prints both errors.

// Loops run over first-layer units, which index several arrays at once.
#![allow(clippy::needless_range_loop)]

use clap::Parser;
use gammon_backgammon::dice_game::{Backgammon, DiceGame};
use gammon_backgammon::{legal_plays, Position};
use gammon_bot::net::inputs::{encode, INPUTS};
use gammon_bot::net::network::Network;
use gammon_bot::net::Class;
use gammon_bot::{BuiltinPolicy, Policy};
use gammon_core::dice::DiceStream;
use gammon_train::files::{read_net, save};
use std::path::PathBuf;

/// The command line.
#[derive(Parser)]
#[command(about = "Rounds a net's head weights to 8 bits, plainly or fitted to activations from games.")]
struct Options {
    /// The net whose contact net's head is rounded.
    #[arg(long, default_value = "rust/bot/data/net-v14.bin")]
    net: PathBuf,
    /// Where the rounded net goes.
    #[arg(long)]
    out: PathBuf,
    /// Fit the roundings to activations from games, and correct the biases.
    #[arg(long)]
    calibrate: bool,
    /// Games whose positions give the activations.
    #[arg(long, default_value_t = 400)]
    games: u64,
    /// The seed of their dice.
    #[arg(long, default_value_t = 91)]
    seed: u64,
    /// Passes over each unit's weights.
    #[arg(long, default_value_t = 4)]
    sweeps: usize,
}

/// The mean and the second moments (`hidden x hidden`) of `net`'s first-layer activations over
/// contact positions after the legal plays of `games` games of `net`.
fn moments(net: &Network, games: u64, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let h = net.hidden();
    let (mut x, mut sums, mut act) = ([0.0f32; INPUTS], vec![0.0f32; h], vec![0.0f32; h]);
    let (mut mean, mut second) = (vec![0.0f64; h], vec![0.0f64; h * h]);
    let (mut seen, mut taken) = (0u64, 0usize);
    let policy = BuiltinPolicy::Net;
    for g in 0..games {
        let (mut dice, mut stream) = (DiceStream::new(seed, g), DiceStream::new(seed + 1, g));
        let mut p = Position::initial();
        policy.forget_history();
        while Backgammon.result(&p).is_none() {
            let roll = dice.roll();
            let plays = legal_plays(&p, roll);
            for play in &plays {
                let after = Backgammon.after(play);
                seen += 1;
                if taken < 60_000 && seen % 7 == 0 && Class::of(&after) == Class::Contact {
                    encode(&after, &mut x);
                    net.hidden_sums(&x, &mut sums);
                    net.activate(&sums, &mut act);
                    for (i, &a) in act.iter().enumerate() {
                        mean[i] += a as f64;
                        for (j, &b) in act.iter().enumerate() {
                            second[i * h + j] += a as f64 * b as f64;
                        }
                    }
                    taken += 1;
                }
            }
            p = Backgammon.after(&plays[policy.choose(&Backgammon, &p, roll, &plays, &mut stream)]);
        }
    }
    println!("{taken} activation vectors from {games} games");
    let n = taken.max(1) as f64;
    (mean.iter().map(|m| m / n).collect(), second.iter().map(|s| s / n).collect())
}

/// `d . g`, with `g = G d`: the mean squared error of a unit's sum whose weights are off by `d`.
fn error(d: &[f64], g: &[f64]) -> f64 {
    d.iter().zip(g).map(|(d, g)| d * g).sum()
}

fn main() {
    let o = Options::parse();
    let mut net = read_net(&o.net, "NET");
    let stats = o.calibrate.then(|| moments(&net.contact, o.games, o.seed));
    let head = net.contact.head.as_mut().expect("a contact net with a head");
    let (units, h) = (head.units(), head.hidden());
    let (mut plain, mut fitted) = (0.0, 0.0);
    for m in 0..units {
        let w: Vec<f64> = (0..h).map(|j| head.w[j * units + m] as f64).collect();
        let largest = w.iter().fold(0.0f64, |a, &b| a.max(b.abs()));
        if largest == 0.0 {
            continue;
        }
        let scale = 127.0 / largest;
        let mut q: Vec<f64> = w.iter().map(|&v| (v * scale).round()).collect();
        if let Some((mean, second)) = &stats {
            let mut d: Vec<f64> = (0..h).map(|j| q[j] / scale - w[j]).collect();
            // g = G d, kept up to date as weights change, gives each change's effect at once.
            let mut g: Vec<f64> = (0..h).map(|i| (0..h).map(|j| second[i * h + j] * d[j]).sum()).collect();
            plain += error(&d, &g);
            for _ in 0..o.sweeps {
                for j in 0..h {
                    let other = if q[j] > w[j] * scale { q[j] - 1.0 } else { q[j] + 1.0 };
                    let step = (other / scale - w[j]) - d[j];
                    if other.abs() <= 127.0 && 2.0 * step * g[j] + step * step * second[j * h + j] < 0.0 {
                        for (i, gi) in g.iter_mut().enumerate() {
                            *gi += second[i * h + j] * step;
                        }
                        d[j] += step;
                        q[j] = other;
                    }
                }
            }
            fitted += error(&d, &g);
            head.b[m] -= (0..h).map(|j| mean[j] * d[j]).sum::<f64>() as f32;
        }
        for j in 0..h {
            head.w[j * units + m] = (q[j] / scale) as f32;
        }
    }
    if stats.is_some() {
        let per = |e: f64| e / units as f64;
        println!(
            "mean squared error of a unit's sum: {:.3e} rounded, {:.3e} fitted",
            per(plain),
            per(fitted)
        );
    }
    save(&o.out, &net.to_bytes());
    println!("wrote {}", o.out.display());
}
