//! Writes the luck net's training data: positions from the rollouts' net policy playing itself
//! (one play in ten a random one, for variety), each with its inputs, the roll features and the
//! value of the policy's own play of each of the 21 rolls.
//!
//! ```text
//! cargo run --release -p gammon-bot --example luck_data -- POSITIONS SEED FILE contact|race|bearoff
//! ```
//!
//! Each record is little-endian `f32`: the [`INPUTS`] inputs of the position before the roll,
//! 21 x `ROLL_FEATURES` roll features, then the 21 rolls' equities (`ALL_ROLLS` order). The positions' IDs go to `FILE.ids`.

use gammon_backgammon::{legal_plays, Backgammon, DiceGame, DiceStream, Position, Probabilities};
use gammon_bot::net::inputs::{encode, INPUTS};
use gammon_bot::net::luck::roll_features;
use gammon_bot::net::{screen::Screen, Class, NeuralNet};
use gammon_bot::policy::KEEP;
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: luck_data POSITIONS SEED FILE contact|race|bearoff";
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
