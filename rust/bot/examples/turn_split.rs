//! Where a contact turn of `net` goes: the rolls of 3,000 `net` games on fixed dice
//! whose position before the roll is a contact one, timed three ways (three rounds each): the
//! legal positions alone, those and the screen's choice of the plays to judge, and the whole
//! choice (`Policy::choose_after`, as rollouts make it, sums carried as they carry them). Times
//! are wall time per turn on one thread; take the lowest of a few runs on a busy machine.
//!
//! ```text
//! cargo run --release -p gammon-bot --example turn_split
//! ```

use gammon_backgammon::dice_game::{Backgammon, DiceGame};
use gammon_backgammon::{legal_plays, legal_positions_into, Position};
use gammon_bot::net::{screen::Screen, Class};
use gammon_bot::{BuiltinPolicy, Policy, WIDE_SCREEN};
use gammon_core::dice::{Dice, DiceStream};
use std::time::Instant;

/// The position after `policy`'s choice of `roll` from `p`, by the positions' path when it
/// answers and by the plays' otherwise, as rollouts take it.
fn play(policy: &BuiltinPolicy, p: &Position, roll: Dice, stream: &mut DiceStream) -> Position {
    match policy.choose_after(&Backgammon, p, roll, false, stream) {
        Some((after, _)) => after,
        None => {
            let plays = legal_plays(p, roll);
            Backgammon.after(&plays[policy.choose(&Backgammon, p, roll, &plays, stream)])
        }
    }
}

fn main() {
    let policy = BuiltinPolicy::Net;
    let mut turns: Vec<(Position, Dice)> = Vec::new();
    for g in 0..3000u64 {
        let (mut dice, mut stream) = (DiceStream::new(77, g), DiceStream::new(78, g));
        let mut p = Position::initial();
        policy.forget_history();
        while Backgammon.result(&p).is_none() {
            let roll = dice.roll();
            if Class::of(&p) == Class::Contact {
                turns.push((p, roll));
            }
            p = play(&policy, &p, roll, &mut stream);
        }
    }
    let n = turns.len() as f64;
    let micros = |start: Instant| start.elapsed().as_secs_f64() / n * 1e6;
    let (mut all, mut kept) = (Vec::new(), Vec::new());
    let (mut positions, mut judged) = (0, 0);
    println!("{} contact turns; microseconds a turn:", turns.len());
    for _ in 0..3 {
        let start = Instant::now();
        for (p, roll) in &turns {
            legal_positions_into(p, *roll, &mut all);
            positions += all.len();
        }
        let generate = micros(start);
        let start = Instant::now();
        for (p, roll) in &turns {
            legal_positions_into(p, *roll, &mut all);
            Screen::bot().keep_best_positions(p, &all, WIDE_SCREEN, &mut kept);
            judged += kept.len();
        }
        let screened = micros(start);
        let mut stream = DiceStream::new(1, 1);
        policy.forget_history();
        let start = Instant::now();
        for (p, roll) in &turns {
            play(&policy, p, *roll, &mut stream);
        }
        let whole = micros(start);
        println!("positions {generate:.2}, and the screen {screened:.2}, the whole choice {whole:.2}");
    }
    println!(
        "{:.1} positions a turn, {:.2} of them judged by the nets",
        positions as f64 / n / 3.0,
        judged as f64 / n / 3.0
    );
}
