//! Tests of the Battlegammon rules. Expected plays are worked out by hand from the rules document
//! in the comments next to each position; positions are written field by field.

mod bots;
mod game;
mod ids;
mod options;
mod properties;
mod rollouts;
mod turn_rules;
mod wins;

use super::{Play, Position, Side};
use gammon_core::dice::Dice;

/// A position with `turn` to move and the given fields (tokens bottom to top); all others empty.
fn board(turn: Side, fields: &[(u8, &str)]) -> Position {
    let mut list = vec![String::new(); 24];
    for &(field, tokens) in fields {
        list[field as usize - 1] = tokens.to_string();
    }
    Position::from_list(&list, turn).unwrap()
}

fn dice(a: u8, b: u8) -> Dice {
    Dice::new(a, b).unwrap()
}

/// The moves of each play as (from, to) pairs, in the order of the list.
fn moves_of(plays: &[Play]) -> Vec<Vec<(u8, u8)>> {
    plays.iter().map(Play::move_pairs).collect()
}

/// Six White tokens pinned under Black ones that never take part (2, 3, 4 on White's colour,
/// 21, 22, 23 on Black's): White counts 3 on Black's colour, Black 3 on White's.
const PARKED: [(u8, &str); 6] = [(2, "wb"), (3, "wb"), (4, "wb"), (21, "wb"), (22, "wb"), (23, "wb")];

/// [`PARKED`] plus `extra` fields.
fn parked(turn: Side, extra: &[(u8, &str)]) -> Position {
    let fields: Vec<(u8, &str)> = PARKED.iter().copied().chain(extra.iter().copied()).collect();
    board(turn, &fields)
}
