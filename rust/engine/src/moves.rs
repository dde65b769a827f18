//! Legal plays: every distinct position a roll can lead to, with the dice-usage rules applied to the
//! whole play (as many dice as possible; the larger die when only one of two can be played).

use crate::board::{Position, BAR, OFF};
use crate::dice::Dice;
use std::cell::RefCell;
use std::fmt;

/// One checker moving `from` -> `to` in the mover's numbering: 25 is the bar, 0 is off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move {
    /// Starting point (25 = bar).
    pub from: u8,
    /// Landing point (0 = borne off).
    pub to: u8,
}

/// A legal play: the moves in the order played and the position they lead to.
///
/// The resulting position is still seen from the mover; call [`Position::swapped`] to hand over the
/// turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Play {
    /// The position after the play, still seen from the player who moved.
    pub position: Position,
    moves: [Move; 4],
    len: u8,
    hit_mask: u8,
}

impl Play {
    /// The play of a roll that cannot be played: no moves, the position unchanged.
    pub fn none(position: Position) -> Play {
        Play { position, moves: [Move::default(); 4], len: 0, hit_mask: 0 }
    }

    /// The moves in the order they were played.
    pub fn moves(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    /// Whether move `k` (an index into [`Play::moves`]) hit a blot.
    pub fn is_hit(&self, k: usize) -> bool {
        self.hit_mask >> k & 1 == 1
    }

    /// How many opposing checkers this play sent to the bar.
    pub fn hits(&self) -> u32 {
        self.hit_mask.count_ones()
    }

    /// True for the empty play of a roll that cannot be played.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Standard notation, e.g. `24/18 13/11*`, `bar/22`, `6/off`, `8/5(2)`.
    pub fn notation(&self) -> String {
        crate::formats::notation::format_play(self)
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

impl fmt::Debug for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Play({:?} -> {:?})", self.notation(), self.position)
    }
}

/// Where a checker on `from` lands with `die`, if that move is legal in `p`.
/// `highest` is `p.highest_point()`, passed in because callers reuse it across many `from`s.
#[inline]
fn destination(p: &Position, from: usize, die: usize, highest: usize) -> Option<usize> {
    if p.at(BAR) > 0 && from != BAR {
        return None;
    }
    if from > die {
        let to = from - die;
        return (p.at(to) >= -1).then_some(to);
    }
    // Bearing off: everyone home, and a die larger than needed only from the highest point.
    if highest > 6 || (from < die && from != highest) {
        return None;
    }
    Some(OFF)
}

/// Reusable scratch space for play generation: a hash set of the positions found so far.
///
/// Generation itself allocates nothing once the output buffer and this table have grown to fit.
#[derive(Default)]
pub struct PlayGenerator {
    /// Open addressing: slot -> index + 1 into the output (0 = empty).
    slots: Vec<u32>,
    used: Vec<u32>,
    /// Dice used by the plays currently in the output (0 = none yet).
    rank: u8,
}

impl PlayGenerator {
    /// A generator with an empty table.
    pub fn new() -> PlayGenerator {
        PlayGenerator { slots: vec![0; 256], used: Vec::new(), rank: 0 }
    }

    /// Fills `out` with the legal plays of `dice` from `position`, one per distinct resulting
    /// position, in generation order (see [`legal_plays`]). `out` is cleared first.
    pub fn generate(&mut self, position: &Position, dice: Dice, out: &mut Vec<Play>) {
        out.clear();
        if self.slots.is_empty() {
            self.slots = vec![0; 256];
        }
        self.rank = 0;
        if dice.is_double() {
            self.doubles(&Play::none(*position), dice.high() as usize, BAR, out);
        } else {
            self.mixed(position, dice.high() as usize, dice.low() as usize, out);
        }
        for &s in &self.used {
            self.slots[s as usize] = 0;
        }
        self.used.clear();
        if out.is_empty() {
            out.push(Play::none(*position));
        }
    }

    /// Two different dice: each order, each first checker, each second checker.
    ///
    /// In the second order (smaller die first) two moves of different checkers that touch neither
    /// the bar nor the tray commute, so the first order already found their result; only
    /// order-dependent pairs are tried again.
    fn mixed(&mut self, p: &Position, high: usize, low: usize, out: &mut Vec<Play>) {
        for (first, second) in [(high, low), (low, high)] {
            let again = first == low;
            let highest = p.highest_point();
            for from in (1..=highest).rev() {
                if p.at(from) <= 0 {
                    continue;
                }
                let Some(to) = destination(p, from, first, highest) else { continue };
                let mut one = Play::none(*p);
                one.push(from, to);
                let q = one.position;
                let q_highest = q.highest_point();
                let mut two_found = false;
                for from2 in (1..=q_highest).rev() {
                    if q.at(from2) <= 0 {
                        continue;
                    }
                    if again && from2 != to && from != BAR && from2 != BAR && to != OFF && from2 > second {
                        // Commutes with a pair of the first order, unless it bears off (from2 <= second).
                        two_found |= destination(&q, from2, second, q_highest).is_some();
                        continue;
                    }
                    if let Some(to2) = destination(&q, from2, second, q_highest) {
                        let mut two = one;
                        two.push(from2, to2);
                        two_found = true;
                        self.record(two, 3, out);
                    }
                }
                // One die alone counts only if nothing else can follow it; the larger die ranks higher.
                if !two_found && self.rank < 3 {
                    self.record(one, if first == high { 2 } else { 1 }, out);
                }
            }
        }
    }

    /// A double: up to four moves, each starting no higher than the one before, which reaches every
    /// distinct result (moves of equal length commute) while skipping most permutations.
    fn doubles(&mut self, play: &Play, die: usize, start: usize, out: &mut Vec<Play>) {
        let p = play.position;
        let highest = p.highest_point();
        let mut moved = false;
        for from in (1..=start.min(highest)).rev() {
            if p.at(from) <= 0 {
                continue;
            }
            let Some(to) = destination(&p, from, die, highest) else { continue };
            moved = true;
            let mut next = *play;
            next.push(from, to);
            if next.len == 4 {
                self.record(next, 4, out);
            } else {
                self.doubles(&next, die, from, out);
            }
        }
        if !moved && play.len > 0 {
            self.record(*play, play.len, out);
        }
    }

    /// Keeps `play` if it uses at least as many dice as the best so far and is a new position.
    #[inline]
    fn record(&mut self, play: Play, rank: u8, out: &mut Vec<Play>) {
        if rank < self.rank {
            return;
        }
        if rank > self.rank {
            self.rank = rank;
            out.clear();
            for &s in &self.used {
                self.slots[s as usize] = 0;
            }
            self.used.clear();
        }
        if 2 * (out.len() + 1) > self.slots.len() {
            self.grow(out);
        }
        let mask = self.slots.len() - 1;
        let mut slot = hash(&play.position) as usize & mask;
        loop {
            match self.slots[slot] {
                0 => {
                    self.slots[slot] = out.len() as u32 + 1;
                    self.used.push(slot as u32);
                    out.push(play);
                    return;
                }
                k if out[k as usize - 1].position == play.position => return,
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    fn grow(&mut self, out: &[Play]) {
        let size = self.slots.len() * 2;
        self.slots = vec![0; size];
        self.used.clear();
        for (i, play) in out.iter().enumerate() {
            let mut slot = hash(&play.position) as usize & (size - 1);
            while self.slots[slot] != 0 {
                slot = (slot + 1) & (size - 1);
            }
            self.slots[slot] = i as u32 + 1;
            self.used.push(slot as u32);
        }
    }
}

/// Where a checker on `from` lands with `die` in `p`, if that move is legal on its own.
pub(crate) fn destination_of(p: &Position, from: usize, die: usize) -> Option<usize> {
    if from > BAR || p.at(from) <= 0 {
        return None;
    }
    destination(p, from, die, p.highest_point())
}

impl Play {
    /// Plays one more checker move on top of this play (no legality check).
    pub(crate) fn push_move(&mut self, from: usize, to: usize) {
        self.push(from, to);
    }

    #[inline]
    fn push(&mut self, from: usize, to: usize) {
        if self.position.apply_move(from, to) {
            self.hit_mask |= 1 << self.len;
        }
        self.moves[self.len as usize] = Move { from: from as u8, to: to as u8 };
        self.len += 1;
    }
}

/// A fast hash of the 26 board slots (the trays follow from them).
#[inline]
fn hash(p: &Position) -> u64 {
    let b = p.board();
    let word = |k: usize| -> u64 {
        let mut w = 0u64;
        for (j, &v) in b[k..(k + 8).min(26)].iter().enumerate() {
            w |= (v as u8 as u64) << (8 * j);
        }
        w
    };
    let mut h = word(0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h = (h ^ word(8)).rotate_left(27).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ word(16)).rotate_left(31).wrapping_mul(0x94D0_49BB_1331_11EB);
    h = (h ^ word(24)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ (h >> 29)
}

thread_local! {
    static GENERATOR: RefCell<PlayGenerator> = RefCell::new(PlayGenerator::new());
}

/// Fills `out` with the legal plays of `dice` from `position` using this thread's generator.
///
/// Order: for a double, plays are found depth first, moving the highest checker first; for other
/// rolls, the larger die first then the smaller, each from the highest point down. Every distinct
/// resulting position appears once; a roll that cannot be played gives one empty play.
pub fn legal_plays_into(position: &Position, dice: Dice, out: &mut Vec<Play>) {
    GENERATOR.with(|g| g.borrow_mut().generate(position, dice, out));
}

/// The legal plays of `dice` from `position`; see [`legal_plays_into`].
///
/// ```
/// use gammon_engine::{Dice, Position};
/// let plays = Position::initial().legal_plays(Dice::new(6, 5).unwrap());
/// assert_eq!(plays.len(), 7);
/// assert!(plays.iter().any(|p| p.notation() == "24/13"));
/// ```
pub fn legal_plays(position: &Position, dice: Dice) -> Vec<Play> {
    let mut out = Vec::with_capacity(32);
    legal_plays_into(position, dice, &mut out);
    out
}

#[cfg(test)]
mod tests;
