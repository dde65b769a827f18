//! Trains the screen (`gammon_bot::net::screen`) on the full nets' judgements.
//!
//! ```text
//! cargo run --release --example train_screen -- [--games 400000] [--alpha 0.002] [--seed 1]
//!     [--test-games 4000] [--net NET.bin] [--out rust/engine/data/screen-v1.bin]
//! ```
//!
//! The full nets (the shipped ones, or `--net`) play themselves at 0-ply; at every roll with
//! two or more plays the screen takes one step towards the nets' equities of those plays
//! ([`Screen::learn_roll`]). The step size falls linearly from `--alpha` to a tenth of it. Game
//! `g` rolls dice stream `g` of the seed, so a run is reproducible; it takes a few minutes on
//! one core. Then, on `--test-games` further games, it reports how often the nets' best play is
//! among the screen's `keep` best and what keeping only those costs per roll, in the nets' own
//! equity, for `keep` from 1 to 12.

use gammon_backgammon::{legal_plays_into, Backgammon, DiceGame, DiceStream, Play, Position};
use gammon_bot::net::screen::Screen;
use gammon_bot::net::NeuralNet;
use gammon_bot::Probabilities;

/// Plays game `index` of `seed` with the nets at 0-ply, calling `roll` with each position
/// before a roll, its legal plays and their equities.
fn self_play(net: &NeuralNet, seed: u64, index: u64, mut roll: impl FnMut(&Position, &[Play], &[f32])) {
    let mut stream = DiceStream::new(seed, index);
    let mut position = Position::initial();
    let (mut plays, mut values) = (Vec::new(), Vec::<Probabilities>::new());
    let mut equities = Vec::new();
    loop {
        legal_plays_into(&position, stream.roll(), &mut plays);
        net.evaluate_plays(&position, &plays, &mut values);
        equities.clear();
        equities.extend(values.iter().map(|v| v.equity() as f32));
        roll(&position, &plays, &equities);
        let best = (0..plays.len()).fold(0, |b, k| if equities[k] > equities[b] { k } else { b });
        let after = plays[best].position.swapped();
        if Backgammon.result(&after).is_some() {
            return;
        }
        position = after;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().position(|a| a == name).map(|i| args[i + 1].clone());
    let games: u64 = flag("--games").map_or(400_000, |v| v.parse().expect("--games N"));
    let alpha: f32 = flag("--alpha").map_or(0.002, |v| v.parse().expect("--alpha A"));
    let seed: u64 = flag("--seed").map_or(1, |v| v.parse().expect("--seed S"));
    let test_games: u64 = flag("--test-games").map_or(4000, |v| v.parse().expect("--test-games N"));
    let out = flag("--out").unwrap_or_else(|| "rust/engine/data/screen-v1.bin".into());
    let owned;
    let net = match flag("--net") {
        Some(path) => {
            owned = NeuralNet::from_bytes(&std::fs::read(path).expect("read --net")).expect("a net file");
            &owned
        }
        None => NeuralNet::builtin(),
    };

    let mut screen = Screen::random(seed);
    let start = std::time::Instant::now();
    let (mut squares, mut count) = (0.0f64, 0u64);
    for g in 0..games {
        let a = alpha * (1.0 - 0.9 * g as f32 / games as f32);
        self_play(net, seed, g, |before, plays, equities| {
            squares += screen.learn_roll(before, plays, equities, a) as f64;
            count += plays.len() as u64;
        });
        if (g + 1) % 20_000 == 0 || g + 1 == games {
            let rms = (squares / count.max(1) as f64).sqrt();
            println!("{} games: rms error {rms:.4} ({:.0} s)", g + 1, start.elapsed().as_secs_f64());
            (squares, count) = (0.0, 0);
        }
    }
    std::fs::write(&out, screen.to_bytes()).expect("write --out");
    println!("wrote {out}");

    // Held-out games: dice streams after the training ones.
    const KEEPS: usize = 12;
    let (mut found, mut loss, mut rolls) = ([0u64; KEEPS], [0.0f64; KEEPS], 0u64);
    let mut kept = Vec::new();
    for g in games..games + test_games {
        self_play(net, seed, g, |before, plays, equities| {
            if plays.len() < 2 {
                return;
            }
            rolls += 1;
            let best = (0..plays.len()).fold(0, |b, k| if equities[k] > equities[b] { k } else { b });
            for keep in 1..=KEEPS {
                screen.keep_best(before, plays, keep, &mut kept);
                let chosen =
                    kept.iter().copied().fold(kept[0], |b, k| if equities[k] > equities[b] { k } else { b });
                found[keep - 1] += kept.contains(&best) as u64;
                loss[keep - 1] += (equities[best] - equities[chosen]) as f64;
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
