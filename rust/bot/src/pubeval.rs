//! Tesauro's pubeval: a linear score of the position after a play, the classic benchmark opponent.
//!
//! Written from the description of its inputs (one-hot encodings of each point's count, the
//! opponent's checkers on the bar and our checkers borne off); the weights are Tesauro's, in
//! `pubeval_weights.rs`. The race weights apply when the position *before* the play is a race.

use super::pubeval_weights::{CONTACT, RACE};
use super::Policy;
use gammon_backgammon::board::{Position, CHECKERS};
use gammon_backgammon::dice_game::Backgammon;
use gammon_backgammon::moves::Play;
use gammon_core::dice::{Dice, DiceStream};
use std::sync::OnceLock;

/// Which of pubeval's two weight sets to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The sides can no longer hit each other.
    Race,
    /// Any other position.
    Contact,
}

impl Phase {
    /// The phase whose weights score the plays from `before`, the position before the play.
    pub fn of(before: &Position) -> Phase {
        if before.is_race() {
            Phase::Race
        } else {
            Phase::Contact
        }
    }
}

/// Per point, the score of each signed count -15..=15 (at index count + 15; rows are padded to 32
/// so that a masked index needs no bounds check), folded from the five inputs of that point so
/// that scoring a position is 24 look-ups.
struct PointTables {
    race: [[f64; 32]; 24],
    contact: [[f64; 32]; 24],
}

fn point_table(w: &[f64; 122]) -> [[f64; 32]; 24] {
    let mut table = [[0.0; 32]; 24];
    for (point, row) in table.iter_mut().enumerate() {
        // Inputs are laid out from point 24 down to point 1, five per point.
        let base = 5 * (23 - point);
        for (k, cell) in row.iter_mut().enumerate() {
            let n = k as i32 - 15;
            *cell = match n {
                -1 => w[base],
                1 => w[base + 1],
                2 => w[base + 2],
                3 => w[base + 2] + w[base + 3],
                n if n >= 4 => w[base + 2] + w[base + 4] * (n - 3) as f64 / 2.0,
                _ => 0.0,
            };
        }
    }
    table
}

fn tables() -> &'static PointTables {
    static TABLES: OnceLock<PointTables> = OnceLock::new();
    TABLES.get_or_init(|| PointTables { race: point_table(&RACE), contact: point_table(&CONTACT) })
}

/// Pubeval's score of `after`, the position after a play, still seen from the player who moved;
/// higher is better for that player. A position with all 15 checkers off scores 99999999.
///
/// ```
/// use gammon_bot::pubeval::{score, Phase};
/// use gammon_backgammon::Position;
/// assert!((score(&Position::initial(), Phase::Contact) - 6.84055).abs() < 1e-5);
/// ```
pub fn score(after: &Position, phase: Phase) -> f64 {
    let (ours_off, _) = after.off();
    if ours_off == CHECKERS {
        return 99_999_999.0;
    }
    let t = tables();
    let (table, w) = match phase {
        Phase::Race => (&t.race, &RACE),
        Phase::Contact => (&t.contact, &CONTACT),
    };
    let b = after.board();
    // Four running sums shorten the chain of dependent additions.
    let mut sums = [0.0; 4];
    for (counts, rows) in b[1..25].chunks_exact(4).zip(table.chunks_exact(4)) {
        for k in 0..4 {
            sums[k] += rows[k][((counts[k] as i32 + 15) & 31) as usize];
        }
    }
    let s = (sums[0] + sums[1]) + (sums[2] + sums[3]);
    s + w[120] * -(b[0] as f64) / 2.0 + w[121] * ours_off as f64 / 15.0
}

/// Plays the move pubeval scores highest (the first of equal scores, in legal-play order).
#[derive(Clone, Copy, Debug, Default)]
pub struct PubevalPolicy;

impl PubevalPolicy {
    /// The index of pubeval's choice in `plays`, the legal plays from `before`.
    pub fn best(before: &Position, plays: &[Play]) -> usize {
        let phase = Phase::of(before);
        let mut best = (0, f64::NEG_INFINITY);
        for (k, play) in plays.iter().enumerate() {
            let s = gain(before, play, phase);
            if s > best.1 {
                best = (k, s);
            }
        }
        best.0
    }
}

/// `score(play.position) - score(before)`, from the few points the play touched: plays of one roll
/// rank the same by it, at a fraction of the cost of scoring every point.
pub fn gain(before: &Position, play: &Play, phase: Phase) -> f64 {
    let after = &play.position;
    let (ours_off, _) = after.off();
    if ours_off == CHECKERS {
        return 99_999_999.0;
    }
    let t = tables();
    let (table, w) = match phase {
        Phase::Race => (&t.race, &RACE),
        Phase::Contact => (&t.contact, &CONTACT),
    };
    let (b0, b1) = (before.board(), after.board());
    let look = |b: &[i8; 26], point: usize| table[point - 1][((b[point] as i32 + 15) & 31) as usize];
    // Points 1..=24 that a move left or landed on, each counted once.
    let mut touched = 0u32;
    for m in play.moves() {
        touched |= 1 << m.from | 1 << m.to;
    }
    touched &= 0x1FF_FFFE;
    let mut s = 0.0;
    while touched != 0 {
        let point = touched.trailing_zeros() as usize;
        touched &= touched - 1;
        s += look(b1, point) - look(b0, point);
    }
    let hit = (b0[0] - b1[0]) as f64;
    s + w[120] * hit / 2.0 + w[121] * (ours_off - before.off().0) as f64 / 15.0
}

impl Policy<Backgammon> for PubevalPolicy {
    #[inline]
    fn choose(
        &self,
        _: &Backgammon,
        position: &Position,
        _: Dice,
        plays: &[Play],
        _: &mut DiceStream,
    ) -> usize {
        if plays.len() == 1 {
            0
        } else {
            PubevalPolicy::best(position, plays)
        }
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "pubeval"
    }
}

#[cfg(test)]
mod tests;
