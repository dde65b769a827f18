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
//!   from the larger-die-first pass only. Moves that touch are one checker moving on with both
//!   dice: by way of the larger die's point (kept from the first pass) or of the smaller die's
//!   (kept from the second pass unless it hits nothing on the way and the first pass found the
//!   same position by the other way, with nothing hit either). The plays that enter or bear off
//!   are compared with the few other such plays found so far.
//!
//! Positions are held in registers while moves are played on them ([`lanes`]).

use super::{movable, smaller_first_finds_nothing, top};
use crate::board::{Position, BAR, OFF};
use gammon_core::dice::Dice;
use lanes::{Lanes, Out};
use std::mem::MaybeUninit;

mod lanes;

/// What the generator needs to know of a position's board, as bits: our occupied slots 1..=25,
/// the points 1..=24 that the opponent does not hold with two or more checkers, their blots there,
/// and the slots where we have exactly one checker. Our moves only ever hit blots, so open points
/// stay open for a whole play; a blot stops being one once we land there.
#[derive(Clone, Copy)]
struct Scan {
    ours: u32,
    open: u32,
    blots: u32,
    singles: u32,
}

impl Scan {
    #[inline(always)]
    fn of(w: Lanes) -> Scan {
        let ours = ours(w);
        Scan {
            ours,
            open: w.greater(-2) & 0x01FF_FFFE,
            // Moves only land below our highest checker, so blots of theirs behind it are never
            // hit: left out, they send no race to the code with hit tests.
            blots: w.equal(-1) & 0x01FF_FFFE & ((1u32 << top(ours)) - 1),
            singles: w.equal(1) & 0x03FF_FFFE,
        }
    }
}

/// Our occupied slots 1..=25 of `w`.
#[inline(always)]
fn ours(w: Lanes) -> u32 {
    w.greater(0) & 0x03FF_FFFE
}

/// Whether a move landing on `to` hits: a blot there (never off). Never when `BLOTS` is false
/// (the caller's promise that `blots` is empty), known at compile time.
#[inline(always)]
fn hits<const BLOTS: bool>(blots: u32, to: usize) -> bool {
    BLOTS && blots >> to & 1 == 1
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
    let mut out = Out::new(out);
    let w = Lanes::of(position);
    let scan = Scan::of(w);
    let high = dice.high() as usize;
    // With no blot of theirs to hit (every race, and many contact positions) the hit tests and
    // the bookkeeping of blots compile away: races have many results per roll and little else.
    match (dice.is_double(), scan.blots != 0) {
        (true, true) => doubles::<true>(w, scan, high, &mut out),
        (true, false) => doubles::<false>(w, scan, high, &mut out),
        (false, true) => mixed::<true>(w, scan, high, dice.low() as usize, &mut out),
        (false, false) => mixed::<false>(w, scan, high, dice.low() as usize, &mut out),
    }
    out.finish();
}

/// The positions of [`legal_positions_into`] in a new vector.
pub fn legal_positions(position: &Position, dice: Dice) -> Vec<Position> {
    let mut out = Vec::with_capacity(32);
    legal_positions_into(position, dice, &mut out);
    out
}

/// A double, depth first: each move from a slot no higher than the one before, as four nested
/// loops so that every position stays in registers. `most` is the number of moves of the results
/// in `out`: a play that stops early is kept only while none has been found that goes further.
#[inline(always)]
fn doubles<const BLOTS: bool>(w0: Lanes, scan: Scan, die: usize, out: &mut Out) {
    let Scan { ours: mask0, open, blots: blots0, .. } = scan;
    let mut most = 0u8;
    // A play that cannot go on after `done` moves.
    let keep = |out: &mut Out, most: &mut u8, w: Lanes, done: u8| {
        if done >= *most {
            if done > *most {
                *most = done;
                out.clear();
            }
            out.push(w);
        }
    };
    let mut froms1 = legal_froms(movable(mask0), open, die, top(mask0));
    if froms1 == 0 {
        out.push(w0);
        return;
    }
    while froms1 != 0 {
        let from1 = top(froms1);
        froms1 &= !(1 << from1);
        let to1 = landing(from1, die);
        let w1 = w0.played(from1, die, hits::<BLOTS>(blots0, to1));
        let blots1 = blots0 & !(1 << to1);
        let mask1 = ours(w1);
        let mut froms2 = legal_froms(movable(mask1) & ((2u32 << from1) - 1), open, die, top(mask1));
        if froms2 == 0 {
            keep(out, &mut most, w1, 1);
            continue;
        }
        while froms2 != 0 {
            let from2 = top(froms2);
            froms2 &= !(1 << from2);
            let to2 = landing(from2, die);
            let w2 = w1.played(from2, die, hits::<BLOTS>(blots1, to2));
            let blots2 = blots1 & !(1 << to2);
            let mask2 = ours(w2);
            let mut froms3 = legal_froms(movable(mask2) & ((2u32 << from2) - 1), open, die, top(mask2));
            if froms3 == 0 {
                keep(out, &mut most, w2, 2);
                continue;
            }
            while froms3 != 0 {
                let from3 = top(froms3);
                froms3 &= !(1 << from3);
                let to3 = landing(from3, die);
                let w3 = w2.played(from3, die, hits::<BLOTS>(blots2, to3));
                let blots3 = blots2 & !(1 << to3);
                let mask3 = ours(w3);
                let mut froms4 = legal_froms(movable(mask3) & ((2u32 << from3) - 1), open, die, top(mask3));
                if froms4 == 0 {
                    keep(out, &mut most, w3, 3);
                    continue;
                }
                if most < 4 {
                    most = 4;
                    out.clear();
                }
                while froms4 != 0 {
                    let from4 = top(froms4);
                    froms4 &= !(1 << from4);
                    let to4 = landing(from4, die);
                    out.push(w3.played(from4, die, hits::<BLOTS>(blots3, to4)));
                }
            }
        }
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
#[inline(always)]
fn mixed<const BLOTS: bool>(w: Lanes, scan: Scan, high: usize, low: usize, out: &mut Out) {
    let Scan { ours: mask, open, blots, singles } = scan;
    let highest = top(mask);
    // The results of the plays that may equal one another: few, so a scan finds a repeat, and
    // comparing two positions in registers costs less than summarising what a play changed.
    // Left uninitialised: filling all of it costs more than most rolls' whole generation.
    let mut tracked = [const { MaybeUninit::<Lanes>::uninit() }; TRACKED];
    let mut n_tracked = 0usize;
    let mut both = false;
    let passes = if smaller_first_finds_nothing(mask, open, blots, low, singles & (1 << highest) != 0) {
        1
    } else {
        2
    };
    for (first, second) in [(high, low), (low, high)].into_iter().take(passes) {
        let larger_first = first == high;
        let mut froms = legal_froms(movable(mask), open, first, highest);
        while froms != 0 {
            let from = top(froms);
            froms &= !(1 << from);
            let to = landing(from, first);
            // Nothing lands where the first move started, so that slot empties when it held one.
            let q_mask = (mask & !(singles & (1 << from))) | ((1 << to) & !1);
            let mut froms2 = movable(q_mask);
            let plain_first = from != BAR && to != OFF;
            // Smaller die first, one checker moving on with the larger die: the same position as
            // moving it with the larger die first (found in the first pass) when that way is open
            // and neither way hits a blot on the way.
            let same_checker_seen = !larger_first
                && from > second
                && open >> (from - second) & 1 == 1
                && (!BLOTS || (blots >> (from - second) | blots >> to) & 1 == 0);
            if !larger_first && plain_first {
                // Only second moves that bear off, or the same checker moving on when that gives
                // something new, can give a position the first pass did not.
                let mut keep = (2u32 << second) - 1;
                if !same_checker_seen {
                    keep |= 1 << to;
                }
                froms2 &= keep;
            }
            let mut froms2 = legal_froms(froms2, open, second, top(q_mask));
            if froms2 == 0 {
                continue;
            }
            let hit = hits::<BLOTS>(blots, to);
            let q = w.played(from, first, hit);
            let q_blots = blots & !(1 << to);
            while froms2 != 0 {
                let from2 = top(froms2);
                froms2 &= !(1 << from2);
                let to2 = landing(from2, second);
                both = true;
                let hit2 = hits::<BLOTS>(q_blots, to2);
                if plain_first && to2 != OFF {
                    // Neither move enters nor bears off. Two checkers, one landing where the other
                    // started, give the position of that checker moving on with both dice, the
                    // smaller die first: left to the second pass (which keeps it unless the first
                    // pass found it the other way). Every other such play gives a position no
                    // other play gives.
                    if larger_first && to2 == from {
                        continue;
                    }
                    if !larger_first && from2 == to && same_checker_seen {
                        continue;
                    }
                    out.push(q.played(from2, second, hit2));
                    continue;
                }
                // An entry or a bear-off: compared with the others of its kind found so far.
                let r = q.played(from2, second, hit2);
                let seen = if n_tracked < TRACKED {
                    // SAFETY: the first `n_tracked` entries were written below.
                    tracked[..n_tracked].iter().any(|t| unsafe { t.assume_init_ref() }.same(r))
                } else {
                    out.contains(&r.position())
                };
                if seen {
                    continue;
                }
                if n_tracked < TRACKED {
                    tracked[n_tracked].write(r);
                }
                n_tracked += 1;
                out.push(r);
            }
        }
    }
    if both {
        return;
    }
    // Only one die can be played: the larger if it can.
    for die in [high, low] {
        let mut froms = legal_froms(movable(mask), open, die, highest);
        while froms != 0 {
            let from = top(froms);
            froms &= !(1 << from);
            let to = landing(from, die);
            out.push(w.played(from, die, hits::<BLOTS>(blots, to)));
        }
        if !out.is_empty() {
            return;
        }
    }
    out.push(w);
}

#[cfg(test)]
mod tests;
