//! How often `net`'s carried hidden sums change a choice: 4,000 games of `net` on fixed
//! dice, each choice among two or more plays also made by the same policy summing afresh (the
//! carried sums equal the fresh ones up to rounding, so only near-exact ties can differ).
//!
//! ```text
//! cargo run --release -p gammon-bot --example carry_check
//! ```

use gammon_backgammon::dice_game::{Backgammon, DiceGame};
use gammon_backgammon::{legal_plays, Position};
use gammon_bot::net::{screen::Screen, NeuralNet};
use gammon_bot::policy::WIDE_HEAD;
use gammon_bot::{BuiltinPolicy, NetPolicy, Policy, WIDE_SCREEN};
use gammon_core::dice::DiceStream;

/// Plays the games and prints how many choices differ.
fn main() {
    let fresh = NetPolicy::new(NeuralNet::builtin(), Screen::bot(), WIDE_SCREEN)
        .with_head(WIDE_HEAD)
        .with_integer_head(true)
        .with_back_game_net(false);
    let (mut choices, mut differ) = (0u64, 0u64);
    for g in 0..4000u64 {
        let mut dice = DiceStream::new(77, g);
        let mut s = DiceStream::new(78, g);
        let mut p = Position::initial();
        BuiltinPolicy::Net.forget_history();
        while Backgammon.result(&p).is_none() {
            let roll = dice.roll();
            let plays = legal_plays(&p, roll);
            let a = BuiltinPolicy::Net.choose(&Backgammon, &p, roll, &plays, &mut s);
            if plays.len() > 1 {
                let b = fresh.choose(&Backgammon, &p, roll, &plays, &mut s);
                choices += 1;
                differ += (a != b) as u64;
            }
            p = Backgammon.after(&plays[a]);
        }
    }
    println!("{differ} of {choices} choices differ");
}
