//! Legal plays: every distinct position a roll can lead to, with the dice-usage rules applied to the
//! whole play (as many dice as possible; the larger die when only one of two can be played).

use crate::board::{Position, BAR, OFF};
use gammon_core::dice::Dice;

mod plays;
mod positions;
pub use positions::{legal_positions, legal_positions_into};

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
}

/// Where a checker on `from` lands with `die`, if that move is legal in `p`.
/// `highest` is `p.highest_point()`, passed in because callers reuse it across many `from`s.
#[inline]
fn destination(p: &Position, from: usize, die: usize, highest: usize) -> Option<usize> {
    if p.at(BAR) > 0 && from != BAR {
        return None;
    }
    destination_entered(p, from, die, highest)
}

/// As [`destination`] for a checker that may move as far as the bar is concerned: the bar
/// itself, or any point when our bar is empty (callers narrow their `from`s with [`movable`]).
#[inline]
fn destination_entered(p: &Position, from: usize, die: usize, highest: usize) -> Option<usize> {
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

/// The first generator: the plays found by trying every move and kept once per position with a
/// hash set of the positions found so far. [`legal_plays_into`] gives exactly its plays (the same
/// moves in the same order; tested) without the table, about a third faster; this one stays for
/// callers that hold one and as the tests' reference.
///
/// Generation itself allocates nothing once the output buffer and this table have grown to fit.
#[derive(Default)]
pub struct PlayGenerator {
    /// Open addressing: slot -> `stamp << 32 | (index + 1)` into the output; slots of an older
    /// stamp are empty, so emptying the table is one increment.
    slots: Vec<u64>,
    stamp: u32,
    /// Dice used by the plays currently in the output (0 = none yet).
    rank: u8,
}

impl PlayGenerator {
    /// A generator with an empty table.
    pub fn new() -> PlayGenerator {
        PlayGenerator { slots: vec![0; 256], stamp: 0, rank: 0 }
    }

    /// Fills `out` with the legal plays of `dice` from `position`, one per distinct resulting
    /// position, in generation order (see [`legal_plays`]). `out` is cleared first.
    pub fn generate(&mut self, position: &Position, dice: Dice, out: &mut Vec<Play>) {
        out.clear();
        if self.slots.is_empty() {
            self.slots = vec![0; 256];
        }
        self.empty_table();
        self.rank = 0;
        if dice.is_double() {
            self.doubles(&Play::none(*position), dice.high() as usize, BAR, occupied(position), out);
        } else {
            self.mixed(position, dice.high() as usize, dice.low() as usize, out);
        }
        if out.is_empty() {
            out.push(Play::none(*position));
        }
    }

    /// Two different dice: each order, each first checker, each second checker.
    fn mixed(&mut self, p: &Position, high: usize, low: usize, out: &mut Vec<Play>) {
        let mask = occupied(p);
        let highest = top(mask);
        for (first, second) in [(high, low), (low, high)] {
            let mut froms = movable(mask);
            while froms != 0 {
                let from = top(froms);
                froms &= !(1 << from);
                let Some(to) = destination_entered(p, from, first, highest) else { continue };
                let mut one = Play::none(*p);
                one.push(from, to);
                let q = one.position;
                let q_mask = after_move(mask, &q, from, to);
                let q_highest = top(q_mask);
                let mut two_found = false;
                let mut froms2 = movable(q_mask);
                while froms2 != 0 {
                    let from2 = top(froms2);
                    froms2 &= !(1 << from2);
                    if let Some(to2) = destination_entered(&q, from2, second, q_highest) {
                        two_found = true;
                        // Most plays with the smaller die first were already found the other way
                        // round; skipping them saves the look-up in the table.
                        if first == low && found_larger_first(p, highest, high, low, from, to, from2) {
                            continue;
                        }
                        let mut two = one;
                        two.push(from2, to2);
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
    /// `mask` is [`occupied`] for the play's position.
    fn doubles(&mut self, play: &Play, die: usize, start: usize, mask: u32, out: &mut Vec<Play>) {
        let p = play.position;
        let highest = top(mask);
        let mut moved = false;
        // Our points no higher than `start`, highest first.
        let mut froms = movable(mask) & ((2u32 << start) - 1);
        while froms != 0 {
            let from = top(froms);
            froms &= !(1 << from);
            let Some(to) = destination_entered(&p, from, die, highest) else { continue };
            moved = true;
            let mut next = *play;
            next.push(from, to);
            if next.len == 4 {
                self.record(next, 4, out);
            } else {
                let next_mask = after_move(mask, &next.position, from, to);
                self.doubles(&next, die, from, next_mask, out);
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
            self.empty_table();
        }
        if 2 * (out.len() + 1) > self.slots.len() {
            self.grow(out);
        }
        let mask = self.slots.len() - 1;
        let mut slot = hash(&play.position) as usize & mask;
        loop {
            let entry = self.slots[slot];
            if (entry >> 32) as u32 != self.stamp {
                self.slots[slot] = (self.stamp as u64) << 32 | (out.len() as u64 + 1);
                out.push(play);
                return;
            }
            if out[(entry as u32 - 1) as usize].position == play.position {
                return;
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Forgets every position recorded so far.
    #[inline]
    fn empty_table(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // After 2^32 uses old stamps could come back: really clear the table once.
            self.slots.fill(0);
            self.stamp = 1;
        }
    }

    fn grow(&mut self, out: &[Play]) {
        let size = self.slots.len() * 2;
        self.slots = vec![0; size];
        for (i, play) in out.iter().enumerate() {
            let mut slot = hash(&play.position) as usize & (size - 1);
            while (self.slots[slot] >> 32) as u32 == self.stamp {
                slot = (slot + 1) & (size - 1);
            }
            self.slots[slot] = (self.stamp as u64) << 32 | (i as u64 + 1);
        }
    }
}

/// Whether playing `from_a` with the smaller die and then `from_b` with the larger one reaches a
/// position that the larger-die-first pass also reached: the same two moves in the other order,
/// or one checker moving larger die first without landing on a blot on the way.
fn found_larger_first(
    p: &Position,
    highest: usize,
    high: usize,
    low: usize,
    from_a: usize,
    to_a: usize,
    from_b: usize,
) -> bool {
    // Two checkers clear of the bar and the tray commute: a quick answer for most pairs.
    if from_b != to_a && from_a != BAR && from_b != BAR && to_a != OFF && from_b > high {
        return true;
    }
    // Two checkers: the final position does not depend on the order (a blot on either landing
    // point is hit whichever lands first).
    if p.at(from_b) > 0 {
        if let Some(to_b) = destination(p, from_b, high, highest) {
            let mut p1 = *p;
            p1.apply_move(from_b, to_b);
            if p1.at(from_a) > 0 && destination(&p1, from_a, low, p1.highest_from(highest)).is_some() {
                return true;
            }
        }
    }
    // One checker: the same only if neither order stops on a blot.
    if from_b == to_a && p.at(to_a) != -1 {
        if let Some(mid) = destination(p, from_a, high, highest) {
            if mid != OFF && p.at(mid) != -1 {
                let mut p1 = *p;
                p1.apply_move(from_a, mid);
                return destination(&p1, mid, low, p1.highest_from(highest)).is_some();
            }
        }
    }
    false
}

/// Bit `i` set for each slot 1..=25 (points and our bar) holding one of our checkers.
#[inline]
fn occupied(p: &Position) -> u32 {
    let b = p.board();
    let mut mask = 0u32;
    for (i, &n) in b.iter().enumerate().skip(1) {
        mask |= ((n > 0) as u32) << i;
    }
    mask
}

/// The slots of `mask` (our occupied slots, as [`occupied`] gives them) whose checkers may move:
/// only the bar while a checker of ours is on it.
#[inline(always)]
fn movable(mask: u32) -> u32 {
    if mask & (1 << BAR) != 0 {
        1 << BAR
    } else {
        mask
    }
}

/// [`occupied`] after our checker moved `from` -> `to`, given the new position `q`.
#[inline]
fn after_move(mask: u32, q: &Position, from: usize, to: usize) -> u32 {
    let mut m = mask;
    if q.at(from) <= 0 {
        m &= !(1 << from);
    }
    if to != OFF {
        m |= 1 << to;
    }
    m
}

/// Whether, for two different dice with `low` the smaller, the pass that plays the smaller die
/// first can find no play the larger-die-first pass does not: in a race (no blot of theirs to hit
/// and no point of theirs below our highest checker, none of ours on the bar) where no checker can
/// bear off during the play. Every pair of moves is found by the first pass then, and one checker
/// moving on with both dice is found there the larger-die way, which is open. A checker bears off
/// only if every checker is home after one move: at most one is outside, and the smaller die
/// brings it home. `mask`, `open` and `blots` are the generators' bit masks of the position;
/// `highest_single` whether our highest point holds a single checker.
#[inline(always)]
fn smaller_first_finds_nothing(mask: u32, open: u32, blots: u32, low: usize, highest_single: bool) -> bool {
    let highest = top(mask);
    let below = (1u32 << highest).wrapping_sub(2);
    let outside = mask & !0x7F;
    let one_outside = outside.is_power_of_two() && highest_single;
    blots & below == 0
        && open & below == below
        && mask & (1 << BAR) == 0
        && (outside != 0 && !one_outside || one_outside && highest > 6 + low)
}

/// The highest set bit of `mask` (0 for none): our highest occupied slot.
#[inline(always)]
fn top(mask: u32) -> usize {
    (31 - (mask | 1).leading_zeros()) as usize
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
    let word = |k: usize| u64::from_le_bytes(std::array::from_fn(|j| b[k + j] as u8));
    let tail = (b[24] as u8 as u64) | (b[25] as u8 as u64) << 8;
    // Independent products (no chain of dependent multiplications), then the high bits, where
    // products mix best, folded down onto the low bits the table uses.
    let h = word(0).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ word(8).wrapping_mul(0xBF58_476D_1CE4_E5B9)
        ^ word(16).wrapping_mul(0x94D0_49BB_1331_11EB)
        ^ tail.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 32) ^ (h >> 48)
}

/// Fills `out` with the legal plays of `dice` from `position` using this thread's generator.
///
/// Order: for a double, plays are found depth first, moving the highest checker first; for other
/// rolls, the larger die first then the smaller, each from the highest point down. Every distinct
/// resulting position appears once; a roll that cannot be played gives one empty play.
pub fn legal_plays_into(position: &Position, dice: Dice, out: &mut Vec<Play>) {
    plays::plays_into(position, dice, out);
}

/// The legal plays of `dice` from `position`; see [`legal_plays_into`].
///
/// ```
/// use gammon_backgammon::{Dice, Position};
/// let plays = Position::initial().legal_plays(Dice::new(6, 5).unwrap());
/// assert_eq!(plays.len(), 7);
/// assert!(plays.iter().any(|p| p.notation() == "24/13"));
/// ```
pub fn legal_plays(position: &Position, dice: Dice) -> Vec<Play> {
    let mut out = Vec::with_capacity(32);
    legal_plays_into(position, dice, &mut out);
    out
}

impl Position {
    /// Every legal play of `dice`, one per distinct resulting position.
    pub fn legal_plays(&self, dice: Dice) -> Vec<Play> {
        legal_plays(self, dice)
    }
}

#[cfg(test)]
mod tests;
