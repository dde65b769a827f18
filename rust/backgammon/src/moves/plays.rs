//! Whole legal plays (moves, hits and the resulting position) without a hash table: the
//! generator behind [`super::legal_plays_into`].
//!
//! It finds its results as the positions-only generator does (see the documentation of
//! `positions.rs`), so duplicates arise only where they are looked for: a double moves its checkers
//! in non-increasing order of their starting points; for two different dice, two moves that neither
//! enter, bear off nor touch each other are kept from the larger-die-first pass only, and the few
//! other plays are compared by an exact summary of what they changed. The order is the one
//! [`super::legal_plays`] documents (a double depth first from the highest checker down; otherwise
//! the larger die first, from the highest point down, then the plays that need the smaller die
//! first), each result coming with the first play found that reaches it: exactly the plays of the
//! hash-table generator, [`super::PlayGenerator`] (tested on the benchmark positions and random
//! ones).
//!
//! Positions are worked on as two 128-bit words, a byte per slot ([`Words`]), and a play's moves
//! as one 64-bit word ([`Trail`]): a move is a few register operations and a result is written out
//! with whole-word stores. Changing bytes of a position or a play in memory and then copying it out
//! whole (as the hash-table generator does) makes the processor wait for each copy until the byte
//! writes before it have landed.

// The steps and the exact comparison of two-move plays are the positions-only generator's.
use super::positions::{landing, legal_froms, Change, TRACKED};
use super::{movable, smaller_first_finds_nothing, top, Move, Play};
use crate::board::{Position, BAR, OFF};
use gammon_core::dice::Dice;
use std::mem::MaybeUninit;

/// A position as 28 byte lanes in two words: `lo` holds slots 0..=15, `hi` slots 16..=25 and the
/// two trays (lanes 26 and 27). Every lane stays in 0..=255 as a byte of [`Position::to_bytes`],
/// so adding or subtracting a lane's unit never carries into its neighbour (see [`Words::moved`]).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Words {
    lo: u128,
    hi: u128,
}

/// Our tray's lane in [`Words`].
const TRAY_LANE: usize = 26;

/// The unit of each lane as `[lo, hi]`; 32 rows so that a slot index masked with 31 needs no bounds
/// check.
const LANES: [[u128; 2]; 32] = {
    let mut t = [[0u128; 2]; 32];
    let mut i = 0;
    while i < 28 {
        if i < 16 {
            t[i][0] = 1 << (8 * i);
        } else {
            t[i][1] = 1 << (8 * (i - 16));
        }
        i += 1;
    }
    t
};

impl Words {
    #[inline(always)]
    fn of(p: &Position) -> Words {
        let bytes = p.to_bytes();
        let mut lo = [0u8; 16];
        let mut hi = [0u8; 16];
        lo.copy_from_slice(&bytes[..16]);
        hi[..12].copy_from_slice(&bytes[16..]);
        Words { lo: u128::from_le_bytes(lo), hi: u128::from_le_bytes(hi) }
    }

    #[inline(always)]
    fn position(self) -> Position {
        let mut bytes = [0u8; 28];
        bytes[..16].copy_from_slice(&self.lo.to_le_bytes());
        bytes[16..].copy_from_slice(&self.hi.to_le_bytes()[..12]);
        Position::from_bytes(bytes)
    }

    /// Our signed count on `slot` (1..=25).
    #[inline(always)]
    fn count(self, slot: usize) -> i8 {
        // Through memory: two whole-word stores and a byte load inside them, which the processor
        // forwards at once (a variable shift of a 128-bit word costs more).
        let mut bytes = [0u8; 32];
        bytes[..16].copy_from_slice(&self.lo.to_le_bytes());
        bytes[16..].copy_from_slice(&self.hi.to_le_bytes());
        bytes[slot & 31] as i8
    }

    /// One of our checkers moved `from` -> `to` (0 = off), hitting the blot there if `hit`.
    ///
    /// No lane carries: `from` holds at least one of ours; `to` holds none of theirs unless `hit`,
    /// and then exactly one, whose lane goes from -1 to 1 by an exclusive or; their bar (lane 0,
    /// the lowest) is decremented on its own; our tray counts at most 15.
    #[inline(always)]
    fn moved(self, from: usize, to: usize, hit: bool) -> Words {
        let [from_lo, from_hi] = LANES[from & 31];
        let (mut lo, mut hi) = (self.lo - from_lo, self.hi - from_hi);
        if hit {
            let [to_lo, to_hi] = LANES[to & 31];
            lo ^= to_lo.wrapping_mul(0xFE);
            hi ^= to_hi.wrapping_mul(0xFE);
            lo = (lo & !0xFF) | (lo as u8).wrapping_sub(1) as u128;
        } else {
            let [to_lo, to_hi] = LANES[if to == OFF { TRAY_LANE } else { to & 31 }];
            lo += to_lo;
            hi += to_hi;
        }
        Words { lo, hi }
    }
}

/// Where the generator's results go, and what a result needs to remember of the moves that led
/// to it (`Trail`). Only whole plays use it now; the positions-only generator (`positions.rs`), which
/// the same approach made slower on contact positions, keeps its own code.
trait Sink {
    type Trail: Copy;
    const START: Self::Trail;
    fn step(trail: Self::Trail, from: usize, to: usize, hit: bool) -> Self::Trail;
    fn emit(&mut self, w: Words, trail: Self::Trail);
    fn clear(&mut self);
    fn is_empty(&self) -> bool;
    /// Whether a result equal to `w` is already out (the slow path past [`TRACKED`]).
    fn has(&self, w: Words) -> bool;
    /// The one result of a roll that cannot be played.
    fn unchanged(&mut self, p: &Position);
}

/// The moves of a play being built, packed into registers (a byte each for `from` and `to`, move
/// `k` in bits `16k..16k+16`), and which of them hit: byte-wise writes to an array in memory that is
/// then copied out whole would stall as for positions (see the module's documentation).
#[derive(Clone, Copy)]
struct Trail {
    moves: u64,
    len: u32,
    hit_mask: u32,
}

impl Sink for Vec<Play> {
    type Trail = Trail;
    const START: Trail = Trail { moves: 0, len: 0, hit_mask: 0 };
    #[inline(always)]
    fn step(trail: Trail, from: usize, to: usize, hit: bool) -> Trail {
        let k = trail.len & 3;
        Trail {
            moves: trail.moves | (from as u64 | (to as u64) << 8) << (16 * k),
            len: trail.len + 1,
            hit_mask: trail.hit_mask | (hit as u32) << k,
        }
    }
    #[inline(always)]
    fn emit(&mut self, w: Words, trail: Trail) {
        let b = trail.moves.to_le_bytes();
        let moves = [
            Move { from: b[0], to: b[1] },
            Move { from: b[2], to: b[3] },
            Move { from: b[4], to: b[5] },
            Move { from: b[6], to: b[7] },
        ];
        self.push(Play {
            position: w.position(),
            moves,
            len: trail.len as u8,
            hit_mask: trail.hit_mask as u8,
        });
    }
    fn clear(&mut self) {
        Vec::clear(self);
    }
    fn is_empty(&self) -> bool {
        <[Play]>::is_empty(self)
    }
    fn has(&self, w: Words) -> bool {
        let p = w.position();
        self.iter().any(|play| play.position == p)
    }
    fn unchanged(&mut self, p: &Position) {
        self.push(Play::none(*p));
    }
}

/// Our occupied slots 1..=25, the points 1..=24 the opponent does not hold with two or more
/// checkers, and their blots, as bits. Our moves only ever hit blots, so open points stay open for
/// a whole play; a blot stops being one once we land there.
#[inline(always)]
fn scan(w: Words) -> (u32, u32, u32) {
    let (ours, open, blots) = lane_masks(w);
    (ours & 0x03FF_FFFE, open & 0x01FF_FFFE, blots & 0x01FF_FFFE)
}

/// For every lane of `w` (bit `i` for lane `i`): greater than 0, at least -1, equal to -1. Three
/// byte compares of each word and their sign bits, on x86_64 (where SSE2 is always present).
#[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
#[inline(always)]
fn lane_masks(w: Words) -> (u32, u32, u32) {
    use std::arch::x86_64::*;
    // SAFETY: these intrinsics need SSE2 only, which every x86_64 processor has (it is enabled for
    // the target by default); none of them touches memory.
    unsafe {
        let lo = _mm_set_epi64x((w.lo >> 64) as i64, w.lo as i64);
        let hi = _mm_set_epi64x((w.hi >> 64) as i64, w.hi as i64);
        let bits =
            |a: __m128i, b: __m128i| (_mm_movemask_epi8(a) as u32) | (_mm_movemask_epi8(b) as u32) << 16;
        let (zero, minus_one, minus_two) = (_mm_setzero_si128(), _mm_set1_epi8(-1), _mm_set1_epi8(-2));
        (
            bits(_mm_cmpgt_epi8(lo, zero), _mm_cmpgt_epi8(hi, zero)),
            bits(_mm_cmpgt_epi8(lo, minus_two), _mm_cmpgt_epi8(hi, minus_two)),
            bits(_mm_cmpeq_epi8(lo, minus_one), _mm_cmpeq_epi8(hi, minus_one)),
        )
    }
}

/// As the x86_64 version, a lane at a time.
#[cfg(any(not(target_arch = "x86_64"), gammon_portable))]
#[inline(always)]
fn lane_masks(w: Words) -> (u32, u32, u32) {
    let (mut ours, mut open, mut blots) = (0u32, 0u32, 0u32);
    for i in 0..28 {
        let word = if i < 16 { w.lo >> (8 * i) } else { w.hi >> (8 * (i - 16)) };
        let n = word as u8 as i8;
        ours |= ((n > 0) as u32) << i;
        open |= ((n >= -1) as u32) << i;
        blots |= ((n == -1) as u32) << i;
    }
    (ours, open, blots)
}

/// Our occupied slots after a move `from` -> `to` that left `q`.
#[inline(always)]
fn mask_after(mask: u32, q: Words, from: usize, to: usize) -> u32 {
    let mut m = mask;
    if q.count(from) <= 0 {
        m &= !(1 << from);
    }
    if to != OFF {
        m |= 1 << to;
    }
    m
}

/// Whether a move landing on `to` hits: a blot there (never off).
#[inline(always)]
fn hits(blots: u32, to: usize) -> bool {
    blots >> to & 1 == 1
}

/// The whole plays, in the order of [`super::legal_plays`]; `out` is cleared first.
pub(super) fn plays_into(position: &Position, dice: Dice, out: &mut Vec<Play>) {
    generate(position, dice, out);
}

#[inline(always)]
fn generate<S: Sink>(position: &Position, dice: Dice, out: &mut S) {
    out.clear();
    let high = dice.high() as usize;
    if dice.is_double() {
        let w = Words::of(position);
        let (mask, open, blots) = scan(w);
        let mut most = 0u8;
        let board = Board { die: high, open };
        board.doubles(w, S::START, BAR, mask, blots, 0, &mut most, out);
        if out.is_empty() {
            out.unchanged(position);
        }
    } else {
        mixed(position, high, dice.low() as usize, out);
    }
}

/// What stays fixed while a double is played.
struct Board {
    die: usize,
    open: u32,
}

impl Board {
    /// Depth first: `done` moves made, the next one from a slot no higher than `start`; `mask`
    /// and `blots` as [`scan`] gives them for `w`. `most` is the largest number of moves of the
    /// results in `out`.
    #[allow(clippy::too_many_arguments)]
    fn doubles<S: Sink>(
        &self,
        w: Words,
        trail: S::Trail,
        start: usize,
        mask: u32,
        blots: u32,
        done: u8,
        most: &mut u8,
        out: &mut S,
    ) {
        let die = self.die;
        let mut froms = legal_froms(movable(mask) & ((2u32 << start) - 1), self.open, die, top(mask));
        if froms == 0 {
            if done > 0 && done >= *most {
                if done > *most {
                    *most = done;
                    out.clear();
                }
                out.emit(w, trail);
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
                let to = landing(from, die);
                let hit = hits(blots, to);
                out.emit(w.moved(from, to, hit), S::step(trail, from, to, hit));
            }
            return;
        }
        while froms != 0 {
            let from = top(froms);
            froms &= !(1 << from);
            let to = landing(from, die);
            let hit = hits(blots, to);
            let q = w.moved(from, to, hit);
            let next = S::step(trail, from, to, hit);
            self.doubles(
                q,
                next,
                from,
                mask_after(mask, q, from, to),
                blots & !(1 << to),
                done + 1,
                most,
                out,
            );
        }
    }
}

/// Two different dice.
#[inline(always)]
fn mixed<S: Sink>(p: &Position, high: usize, low: usize, out: &mut S) {
    let w = Words::of(p);
    let (mask, open, blots) = scan(w);
    let highest = top(mask);
    // The plays that may equal one another, each as [`Change`]: few, so a scan finds a repeat.
    // Left uninitialised: filling all of it costs more than most rolls' whole generation.
    let mut tracked = [const { MaybeUninit::<Change>::uninit() }; TRACKED];
    let mut n_tracked = 0usize;
    let mut both = false;
    let passes =
        if smaller_first_finds_nothing(mask, open, blots, low, w.count(highest) == 1) { 1 } else { 2 };
    for (first, second) in [(high, low), (low, high)].into_iter().take(passes) {
        let larger_first = first == high;
        let mut froms = legal_froms(movable(mask), open, first, highest);
        while froms != 0 {
            let from = top(froms);
            froms &= !(1 << from);
            let to = landing(from, first);
            let hit = hits(blots, to);
            let q = w.moved(from, to, hit);
            let q_mask = mask_after(mask, q, from, to);
            let q_blots = blots & !(1 << to);
            let trail = S::step(S::START, from, to, hit);
            let mut froms2 = movable(q_mask);
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
                let hit2 = hits(q_blots, to2);
                let r = q.moved(from2, to2, hit2);
                if !plain {
                    let change = Change::of(from, to, hit, from2, to2, hit2);
                    let seen = if n_tracked < TRACKED {
                        // SAFETY: the first `n_tracked` entries were written below.
                        tracked[..n_tracked].iter().any(|t| unsafe { t.assume_init_ref() } == &change)
                    } else {
                        out.has(r)
                    };
                    if seen {
                        continue;
                    }
                    if n_tracked < TRACKED {
                        tracked[n_tracked].write(change);
                    }
                    n_tracked += 1;
                }
                out.emit(r, S::step(trail, from2, to2, hit2));
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
            let hit = hits(blots, to);
            out.emit(w.moved(from, to, hit), S::step(S::START, from, to, hit));
        }
        if !out.is_empty() {
            return;
        }
    }
    out.unchanged(p);
}
