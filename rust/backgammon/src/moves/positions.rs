//! Legal plays as resulting positions only: what rollouts, searches and training need, without
//! the moves, the hits or a hash table.
//!
//! The results are the same set as [`super::legal_plays`] gives (one per distinct position), found
//! so that duplicates cannot arise where they need not be looked for:
//!
//! - A double moves checkers in non-increasing order of their starting points. A position after
//!   moves of one length fixes how many checkers left each point (count them from the top down),
//!   so each sorted sequence is a different position and nothing is compared at all.
//! - Two different dice: two moves that neither start from the bar, nor bear off, nor touch each
//!   other (the second starting where the first landed, or landing where the first started) give a
//!   position that no other pair of moves gives, and are legal in either order. So they are kept
//!   from the larger-die-first pass and skipped in the other one. Every other play (a checker that
//!   moves twice, a bear-off, an entry) is compared with the few other such plays found so far.

use super::{movable, top};
use crate::board::{Position, BAR, OFF};
use gammon_core::dice::Dice;

/// Our occupied slots (as [`super::occupied`]) and the points 1..=24 that the opponent does not
/// hold with two or more checkers, as bits, in one pass over the whole board, which the compiler
/// can turn into vector compares. Our moves only ever hit blots, so open points stay open for a
/// whole play.
#[inline(always)]
fn occupied_and_open(p: &Position) -> (u32, u32) {
    let b = p.board();
    let (mut ours, mut open) = (0u32, 0u32);
    for (i, &n) in b.iter().enumerate() {
        ours |= ((n > 0) as u32) << i;
        open |= ((n >= -1) as u32) << i;
    }
    (ours & !1, open & 0x01FF_FFFE)
}

/// The slots of `froms` (see [`movable`]) from which a checker can move `die`: onto an open point,
/// or off when all of ours are home (`highest`, our highest occupied slot, is at most 6) from the
/// point `die` itself or, with a larger die, from the highest point.
#[inline(always)]
pub(super) fn legal_froms(froms: u32, open: u32, die: usize, highest: usize) -> u32 {
    let mut legal = froms & (open << die);
    if highest <= 6 {
        legal |= froms & (1 << die);
        if highest < die && highest > 0 {
            legal |= froms & (1 << highest);
        }
    }
    legal
}

/// Where a checker on `from` (one of [`legal_froms`]) lands with `die`.
#[inline(always)]
pub(super) fn landing(from: usize, die: usize) -> usize {
    from.saturating_sub(die)
}

/// Our occupied slots after a move `from` -> `to` that left `q`.
#[inline(always)]
fn mask_after(mask: u32, q: &Position, from: usize, to: usize) -> u32 {
    let mut m = mask;
    if q.at(from) <= 0 {
        m &= !(1 << from);
    }
    if to != OFF {
        m |= 1 << to;
    }
    m
}

/// Fills `out` with every distinct position the legal plays of `dice` lead to from `position`,
/// still seen from the player who moved (call [`Position::swapped`] to hand over the turn).
///
/// The set is the one of [`super::legal_plays`]'s positions, in an order of its own; a roll that
/// cannot be played gives the position unchanged. `out` is cleared first. Nothing is allocated once
/// `out` has grown to fit.
///
/// ```
/// use gammon_backgammon::{legal_positions_into, Dice, Position};
/// let mut out = Vec::new();
/// legal_positions_into(&Position::initial(), Dice::new(6, 5).unwrap(), &mut out);
/// assert_eq!(out.len(), 7);
/// ```
pub fn legal_positions_into(position: &Position, dice: Dice, out: &mut Vec<Position>) {
    out.clear();
    let high = dice.high() as usize;
    if dice.is_double() {
        let (mask, open) = occupied_and_open(position);
        let mut most = 0u8;
        doubles(position, high, BAR, mask, open, 0, &mut most, out);
        if out.is_empty() {
            out.push(*position);
        }
    } else {
        mixed(position, high, dice.low() as usize, out);
    }
}

/// The positions of [`legal_positions_into`] in a new vector.
pub fn legal_positions(position: &Position, dice: Dice) -> Vec<Position> {
    let mut out = Vec::with_capacity(32);
    legal_positions_into(position, dice, &mut out);
    out
}

/// Depth-first over a double: `done` moves made, the next one from a slot no higher than `start`.
/// `most` is the largest number of moves of the positions in `out`.
#[allow(clippy::too_many_arguments)]
fn doubles(
    p: &Position,
    die: usize,
    start: usize,
    mask: u32,
    open: u32,
    done: u8,
    most: &mut u8,
    out: &mut Vec<Position>,
) {
    let mut froms = legal_froms(movable(p, mask) & ((2u32 << start) - 1), open, die, top(mask));
    if froms == 0 {
        if done > 0 && done >= *most {
            if done > *most {
                *most = done;
                out.clear();
            }
            out.push(*p);
        }
        return;
    }
    if done == 3 {
        if *most < 4 {
            *most = 4;
            out.clear();
        }
        while froms != 0 {
            let from = top(froms);
            froms &= !(1 << from);
            let mut q = *p;
            q.apply_move(from, landing(from, die));
            out.push(q);
        }
        return;
    }
    while froms != 0 {
        let from = top(froms);
        froms &= !(1 << from);
        let to = landing(from, die);
        let mut q = *p;
        q.apply_move(from, to);
        doubles(&q, die, from, mask_after(mask, &q, from, to), open, done + 1, most, out);
    }
}

/// Most plays that need comparing (see the module's documentation) in one roll; past this the
/// comparison falls back to a scan of everything found.
pub(super) const TRACKED: usize = 96;

/// What a play of two moves changed, exactly and in a few bytes: our count on each slot (0 standing
/// for off) as the digits, from -2 to 2, of a number in base 16, and the points where a blot was
/// hit. Two plays from one position lead to the same position exactly when their changes are equal.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Change {
    counts: i128,
    hits: u32,
}

impl Change {
    #[inline(always)]
    pub(super) fn of(from: usize, to: usize, hit: bool, from2: usize, to2: usize, hit2: bool) -> Change {
        let digit = |slot: usize| 1i128 << (4 * slot);
        Change {
            counts: digit(to) + digit(to2) - digit(from) - digit(from2),
            hits: (hit as u32) << to | (hit2 as u32) << to2,
        }
    }
}

/// Two different dice.
fn mixed(p: &Position, high: usize, low: usize, out: &mut Vec<Position>) {
    let (mask, open) = occupied_and_open(p);
    let highest = top(mask);
    // The plays that may equal one another, each as [`Change`]: few, so a scan finds a repeat.
    let mut tracked = [Change::default(); TRACKED];
    let mut n_tracked = 0usize;
    let mut both = false;
    for (first, second) in [(high, low), (low, high)] {
        let larger_first = first == high;
        let mut froms = legal_froms(movable(p, mask), open, first, highest);
        while froms != 0 {
            let from = top(froms);
            froms &= !(1 << from);
            let to = landing(from, first);
            let mut q = *p;
            let hit = q.apply_move(from, to);
            let q_mask = mask_after(mask, &q, from, to);
            let mut froms2 = movable(&q, q_mask);
            let plain_first = from != BAR && to != OFF;
            if !larger_first && plain_first {
                // Only second moves that touch the first one or bear off can give something new.
                let mut keep = (1u32 << to) | ((2u32 << second) - 1);
                if from + second <= BAR {
                    keep |= 1 << (from + second);
                }
                froms2 &= keep;
            }
            let mut froms2 = legal_froms(froms2, open, second, top(q_mask));
            while froms2 != 0 {
                let from2 = top(froms2);
                froms2 &= !(1 << from2);
                let to2 = landing(from2, second);
                both = true;
                let plain = plain_first && from2 != BAR && to2 != OFF && from2 != to && to2 != from;
                let mut r = q;
                let hit2 = r.apply_move(from2, to2);
                if !plain {
                    let change = Change::of(from, to, hit, from2, to2, hit2);
                    let seen = if n_tracked < TRACKED {
                        tracked[..n_tracked].contains(&change)
                    } else {
                        out.contains(&r)
                    };
                    if seen {
                        continue;
                    }
                    if n_tracked < TRACKED {
                        tracked[n_tracked] = change;
                    }
                    n_tracked += 1;
                }
                out.push(r);
            }
        }
    }
    if both {
        return;
    }
    // Only one die can be played: the larger if it can.
    for die in [high, low] {
        let mut froms = legal_froms(movable(p, mask), open, die, highest);
        while froms != 0 {
            let from = top(froms);
            froms &= !(1 << from);
            let mut q = *p;
            q.apply_move(from, landing(from, die));
            out.push(q);
        }
        if !out.is_empty() {
            return;
        }
    }
    out.push(*p);
}

#[cfg(test)]
mod tests;
