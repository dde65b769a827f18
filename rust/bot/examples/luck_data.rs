//! Writes the luck net's training data: positions from the rollouts' net policy playing itself
//! (one play in ten a random one, for variety), each with its inputs, the roll features and, for
//! each of the 21 rolls, the value of the policy's own play of it (depth 1, the default) or the
//! mean, over the opponent's 21 rolls, of the value after the policy's reply (depth 2, seen from
//! the player who rolled; a play that ends the game keeps its result).
//!
//! ```text
//! cargo run --release -p gammon-bot --example luck_data -- POSITIONS SEED FILE contact|race|bearoff [1|2]
//! ```
//!
//! The depth does not change the positions: a seed gives the same positions at either depth.
//! Each record is little-endian `f32`: the [`INPUTS`] inputs of the position before the roll,
//! 21 x `ROLL_FEATURES` roll features, then the 21 rolls' equities (`ALL_ROLLS` order). The
//! positions' IDs go to `FILE.ids`.

use gammon_backgammon::{legal_plays, Backgammon, DiceGame, DiceStream, Position, Probabilities, ALL_ROLLS};
use gammon_bot::net::inputs::{encode, INPUTS};
use gammon_bot::net::luck::roll_features;
use gammon_bot::net::{screen::Screen, Class, NeuralNet};
use gammon_bot::policy::KEEP;
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: luck_data POSITIONS SEED FILE contact|race|bearoff [1|2]";
    let (Some(n), Some(seed), Some(file), Some(class)) = (args.get(1), args.get(2), args.get(3), args.get(4))
    else {
        panic!("{usage}");
    };
    let n: usize = n.parse().expect(usage);
    let seed: u64 = seed.parse().expect(usage);
    let want = match class.as_str() {
        "contact" => Class::Contact,
        "race" => Class::Race,
        "bearoff" => Class::BearOff,
        _ => panic!("{usage}"),
    };
    let depth: u32 = args.get(5).map_or(1, |d| d.parse().expect(usage));
    assert!(depth == 1 || depth == 2, "{usage}");
    let (net, screen) = (NeuralNet::fast(), Screen::builtin());
    let mut stream = DiceStream::new(seed, 0);
    let mut out = std::io::BufWriter::new(std::fs::File::create(file).expect("the output file"));
    // The positions' IDs, a line each, for tests that pin the trained net's values.
    let mut ids =
        std::io::BufWriter::new(std::fs::File::create(format!("{file}.ids")).expect("the IDs file"));
    let (mut p, mut plays) = (Position::initial(), vec![]);
    let (mut values, mut best) = ([Probabilities::default(); 21], [0; 21]);
    let mut x = [0f32; INPUTS];
    let mut written = 0;
    while written < n {
        if Class::of(&p) == want {
            encode(&p, &mut x);
            net.roll_values_screened(screen, KEEP, &p, &mut plays, &mut values, &mut best);
            if depth == 2 {
                for ((value, &k), roll) in values.iter_mut().zip(&best).zip(ALL_ROLLS) {
                    let after = legal_plays(&p, roll)[k].position.swapped();
                    if Backgammon.result(&after).is_some() {
                        continue;
                    }
                    let (mut replies, mut chosen) = ([Probabilities::default(); 21], [0; 21]);
                    net.roll_values_screened(screen, KEEP, &after, &mut plays, &mut replies, &mut chosen);
                    let mean: f64 = replies
                        .iter()
                        .zip(ALL_ROLLS)
                        .map(|(v, r)| v.equity() * r.weight() as f64 / 36.0)
                        .sum();
                    // All of it in the win, as the rollouts' luck holds the luck net's equities.
                    *value = Probabilities { win: 0.5 - 0.5 * mean, ..Probabilities::default() };
                }
            }
            let features = roll_features(&p);
            let floats = x.iter().chain(features.iter().flatten()).copied();
            let floats = floats.chain(values.iter().map(|v| v.equity() as f32));
            for f in floats {
                out.write_all(&f.to_le_bytes()).expect("write");
            }
            writeln!(ids, "{}", p.id()).expect("write");
            written += 1;
        }
        let all = legal_plays(&p, stream.roll());
        let k = if stream.below(10) == 0 {
            stream.below(all.len())
        } else {
            net.best_of_screened(screen, KEEP, &p, &all).0
        };
        p = all[k].position.swapped();
        if Backgammon.result(&p).is_some() {
            p = Position::initial();
        }
    }
}
