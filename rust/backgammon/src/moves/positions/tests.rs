//! The positions-only generator against the full one (itself checked against GNU Backgammon's
//! fixtures and a naive generator): the same set of positions, each once.

use super::*;
use crate::moves::legal_plays;
use gammon_core::ALL_ROLLS;
use proptest::prelude::*;
use std::collections::HashSet;

fn same_set(p: &Position, dice: Dice) -> Result<(), String> {
    let ours = legal_positions(p, dice);
    let unique: HashSet<Position> = ours.iter().copied().collect();
    if unique.len() != ours.len() {
        return Err(format!(
            "{} {}: {} results, {} distinct",
            p.id(),
            dice.to_text(),
            ours.len(),
            unique.len()
        ));
    }
    let full: HashSet<Position> = legal_plays(p, dice).iter().map(|play| play.position).collect();
    if unique != full {
        return Err(format!(
            "{} {}: {} results, the full generator {}",
            p.id(),
            dice.to_text(),
            unique.len(),
            full.len()
        ));
    }
    Ok(())
}

fn benchmark_positions(name: &str) -> Vec<Position> {
    let path = format!("{}/../../data/positions/{name}.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| Position::from_id(l.trim()).unwrap()).collect()
}

#[test]
fn agrees_on_the_benchmark_positions_and_counts() {
    // Totals are GNU Backgammon's for the same work (tests/fixtures/benchmark_counts.csv), which
    // wildbg's benchmark asserts too.
    for (name, expected) in [("contact", 404_313), ("race", 263_290)] {
        let mut total = 0;
        for p in benchmark_positions(name) {
            for dice in ALL_ROLLS {
                same_set(&p, dice).unwrap();
                total += legal_positions(&p, dice).len();
            }
        }
        assert_eq!(total, expected, "{name}");
    }
}

/// The generator without a hash table gives exactly the plays of the one with it (the previous
/// generator, [`crate::moves::PlayGenerator`]): the same moves in the same order.
fn same_plays(p: &Position, dice: Dice) -> Result<(), String> {
    let mut old = Vec::new();
    crate::moves::PlayGenerator::new().generate(p, dice, &mut old);
    let new = legal_plays(p, dice);
    if old != new {
        return Err(format!("{} {}: the plays differ", p.id(), dice.to_text()));
    }
    Ok(())
}

#[test]
fn plays_equal_the_hashing_generator_on_the_benchmark_positions() {
    for name in ["contact", "race"] {
        for p in benchmark_positions(name) {
            for dice in ALL_ROLLS {
                same_plays(&p, dice).unwrap();
            }
        }
    }
}

#[test]
fn edge_cases() {
    // Entering from the bar, closed boards, bear-offs with larger dice, a blot on the way.
    for id in [
        "4HPwATDgc/ABMA",
        "AAAAAAAAAAAAAA",
        "sGfwATDgc/ABUA",
        "2+4OAADgc/ABMA",
        "AQAAAAAAAAAAAA",
        "AwAAwAEAAAAAAA",
    ] {
        let Ok(p) = Position::from_id(id) else { continue };
        for dice in ALL_ROLLS {
            same_set(&p, dice).unwrap();
            same_set(&p.swapped(), dice).unwrap();
            same_plays(&p, dice).unwrap();
            same_plays(&p.swapped(), dice).unwrap();
        }
    }
}

fn slot() -> impl Strategy<Value = u8> {
    prop_oneof![1u8..=6, 1u8..=26, 1u8..=25, Just(26u8), 19u8..=25]
}

fn position() -> impl Strategy<Value = Position> {
    (prop::collection::vec(slot(), 15), prop::collection::vec(slot(), 15)).prop_map(|(ours, theirs)| {
        let mut board = [0i8; 26];
        for &s in &ours {
            if (1..=25).contains(&s) {
                board[s as usize] += 1;
            }
        }
        for &s in &theirs {
            let s = 25 - s as i32;
            if (0..=24).contains(&s) && board[s as usize] <= 0 {
                board[s as usize] -= 1;
            }
        }
        Position::from_board(board).unwrap_or_else(|_| {
            board[25] = 0;
            Position::from_board(board).unwrap()
        })
    })
}

/// A race: all of ours (some perhaps off) on points below all of theirs, our highest between 2
/// and 16 so that bear-offs, one checker outside (the others home, when `home`) and several
/// outside all come up.
fn race() -> impl Strategy<Value = Position> {
    (2usize..=16, any::<bool>()).prop_flat_map(|(cut, home)| {
        let below = if home { cut.min(6) } else { cut };
        (Just(cut), prop::collection::vec(0..=below, 15), prop::collection::vec(cut + 1..=25, 15)).prop_map(
            |(cut, ours, theirs)| {
                let mut board = [0i8; 26];
                board[cut] = 1;
                for &s in &ours[1..] {
                    if s > 0 {
                        board[s] += 1;
                    }
                }
                for &s in &theirs {
                    if s < 25 {
                        board[s] -= 1;
                    }
                }
                Position::from_board(board).unwrap()
            },
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn agrees_with_the_full_generator_in_races(p in race(), roll in 0u8..36) {
        let dice = Dice::from_outcome(roll);
        prop_assert_eq!(same_set(&p, dice), Ok(()));
        prop_assert_eq!(same_plays(&p, dice), Ok(()));
    }

    #[test]
    fn agrees_with_the_full_generator(p in position(), roll in 0u8..36) {
        let dice = Dice::from_outcome(roll);
        prop_assert_eq!(same_set(&p, dice), Ok(()));
        prop_assert_eq!(same_plays(&p, dice), Ok(()));
    }
}

#[test]
fn positions_written_from_registers_are_the_positions() {
    // `Out::push` writes the two register halves over the bytes of a `Position` (`repr(C)`): each
    // benchmark position read into registers and written back must come out equal to itself.
    for name in ["contact", "race"] {
        let positions = benchmark_positions(name);
        let mut written = Vec::new();
        let mut out = lanes::Out::new(&mut written);
        for p in &positions {
            out.push(Lanes::of(p));
        }
        out.finish();
        assert_eq!(written, positions, "{name}");
    }
}
