//! Trains the contact and race nets from scratch by TD(0) self-play, resumably.
//!
//! ```text
//! cargo run --release --example train -- --dir DIR [--games N] [--hidden 80] [--alpha 0.1]
//!     [--checkpoint-every 5000] [--duel-every 20000] [--duel-pairs 500] [--seed 1]
//! ```
//!
//! Every game the net plays both sides greedily (0-ply, the plays of a roll judged together).
//! Before each roll, the position's outputs are moved towards the value of the play then
//! chosen (the next position's outputs turned around, or the game's result): TD(lambda) with
//! lambda = 0, cross-entropy gradient on each of the five outputs. Positions where both sides
//! are home take their value from the bear-off database and are not trained on; positions
//! without contact train the race net, all others the contact net.
//!
//! `DIR/checkpoint.bin` (the weights, in the format of `NeuralNet::to_bytes`, with the games
//! played) is rewritten every `--checkpoint-every` games; a run started on a directory with a
//! checkpoint resumes from it. Game `g` uses dice stream `g` of the seed, so a resumed run plays
//! the games the uninterrupted run would have. Every `--duel-every` games a mirrored-dice duel
//! against pubeval is appended to `DIR/train.log`, and the weights are kept as
//! `DIR/net-GAMES.bin`. The shipped `data/net-v1.bin` is such a file, copied.

use gammon_engine::dice_game::{Backgammon, DiceGame};
use gammon_engine::eval::duel::backgammon_duel;
use gammon_engine::eval::net::inputs::{encode, INPUTS};
use gammon_engine::eval::net::network::{MAX_HIDDEN, OUTPUTS};
use gammon_engine::eval::net::{Class, NeuralNet};
use gammon_engine::eval::search::Bot;
use gammon_engine::eval::{Probabilities, PubevalPolicy};
use gammon_engine::{legal_plays_into, DiceStream, Position};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

struct Options {
    dir: PathBuf,
    games: u64,
    hidden: usize,
    alpha: f32,
    checkpoint_every: u64,
    duel_every: u64,
    duel_pairs: u32,
    seed: u64,
}

fn parse() -> Options {
    let mut o = Options {
        dir: PathBuf::new(),
        games: u64::MAX,
        hidden: 80,
        alpha: 0.1,
        checkpoint_every: 5000,
        duel_every: 20000,
        duel_pairs: 500,
        seed: 1,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.chunks(2);
    for pair in &mut it {
        let [flag, value] = pair else { panic!("every option takes a value") };
        match flag.as_str() {
            "--dir" => o.dir = PathBuf::from(value),
            "--games" => o.games = value.parse().unwrap_or_else(|_| panic!("bad value {value:?} for {flag}")),
            "--hidden" => {
                o.hidden = value.parse().unwrap_or_else(|_| panic!("bad value {value:?} for {flag}"))
            }
            "--alpha" => o.alpha = value.parse().unwrap_or_else(|_| panic!("bad value {value:?} for {flag}")),
            "--checkpoint-every" => {
                o.checkpoint_every =
                    value.parse().unwrap_or_else(|_| panic!("bad value {value:?} for {flag}"))
            }
            "--duel-every" => {
                o.duel_every = value.parse().unwrap_or_else(|_| panic!("bad value {value:?} for {flag}"))
            }
            "--duel-pairs" => {
                o.duel_pairs = value.parse().unwrap_or_else(|_| panic!("bad value {value:?} for {flag}"))
            }
            "--seed" => o.seed = value.parse().unwrap_or_else(|_| panic!("bad value {value:?} for {flag}")),
            _ => panic!("unknown option {flag}"),
        }
    }
    assert!(!o.dir.as_os_str().is_empty(), "--dir is required");
    o
}

fn target(p: &Probabilities) -> [f32; OUTPUTS] {
    p.to_array().map(|v| v as f32)
}

/// One self-play game, learning as it goes; returns the number of plies.
fn play_game(net: &mut NeuralNet, stream: &mut DiceStream, alpha: f32) -> u32 {
    let mut position = Position::initial();
    let mut plays = Vec::with_capacity(64);
    let mut values = Vec::with_capacity(64);
    let mut x = [0.0f32; INPUTS];
    let mut sums = [0.0f32; MAX_HIDDEN];
    let mut hidden = [0.0f32; MAX_HIDDEN];
    let mut plies = 0;
    loop {
        plies += 1;
        let dice = stream.roll();
        legal_plays_into(&position, dice, &mut plays);
        net.evaluate_plays(&position, &plays, &mut values);
        let mut best = 0;
        for k in 1..values.len() {
            if values[k].equity() > values[best].equity() {
                best = k;
            }
        }
        let class = Class::of(&position);
        if class != Class::BearOff {
            let layer = if class == Class::Race { &mut net.race } else { &mut net.contact };
            encode(&position, &mut x);
            layer.hidden_sums(&x, &mut sums);
            let h = layer.hidden();
            layer.activate(&sums, &mut hidden);
            let y = layer.outputs(&hidden[..h]);
            layer.learn(&x, &hidden[..h], &y, &target(&values[best]), alpha);
        }
        let next = Backgammon.after(&plays[best]);
        if Backgammon.result(&next).is_some() {
            return plies;
        }
        position = next;
    }
}

fn save(path: &std::path::Path, net: &NeuralNet) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, net.to_bytes()).expect("write checkpoint");
    std::fs::rename(&tmp, path).expect("rename checkpoint");
}

fn log(dir: &std::path::Path, line: &str) {
    println!("{line}");
    let mut f =
        std::fs::OpenOptions::new().create(true).append(true).open(dir.join("train.log")).expect("log");
    writeln!(f, "{line}").expect("log");
}

fn main() {
    let o = parse();
    std::fs::create_dir_all(&o.dir).expect("create --dir");
    let checkpoint = o.dir.join("checkpoint.bin");
    let mut net = match std::fs::read(&checkpoint) {
        Ok(bytes) => NeuralNet::from_bytes(&bytes).expect("a valid checkpoint"),
        Err(_) => NeuralNet::random(o.hidden, o.seed),
    };
    log(
        &o.dir,
        &format!(
            "start at game {} (hidden {}, alpha {}, seed {})",
            net.trained_games,
            net.contact.hidden(),
            o.alpha,
            o.seed
        ),
    );
    let start = Instant::now();
    let mut plies = 0u64;
    while net.trained_games < o.games {
        let mut stream = DiceStream::new(o.seed, net.trained_games);
        plies += play_game(&mut net, &mut stream, o.alpha) as u64;
        net.trained_games += 1;
        let g = net.trained_games;
        if g % o.checkpoint_every == 0 {
            save(&checkpoint, &net);
        }
        if g % o.duel_every == 0 {
            save(&o.dir.join(format!("net-{g}.bin")), &net);
            let t = Instant::now();
            let bot = Bot::with_net(&net, 0).expect("ply 0");
            let r = backgammon_duel(&bot, &PubevalPolicy, o.duel_pairs, 12345);
            log(
                &o.dir,
                &format!(
                    "games {g} elapsed {:.0}s plies/game {:.1}: vs pubeval {:+.3} +- {:.3} ppg over {} games, \
                     wins {:.1}% (duel {:.0}s)",
                    start.elapsed().as_secs_f64(),
                    plies as f64 / o.duel_every as f64,
                    r.points_per_game(),
                    r.points_std_error(),
                    r.games,
                    100.0 * r.score(0),
                    t.elapsed().as_secs_f64()
                ),
            );
            plies = 0;
        }
    }
    save(&checkpoint, &net);
}
