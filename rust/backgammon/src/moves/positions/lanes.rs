//! A position held in registers while the positions-only generator plays moves on it, and the
//! buffer its results go to.
//!
//! Changing a few bytes of a position in memory and then copying it out whole makes the processor
//! wait for each copy until the byte writes before it have landed (a wide load over narrow stores
//! cannot be forwarded). Here a position is 28 byte lanes in two SSE2 registers, a move is a few
//! byte-wise additions of rows from a table, and a result is written with two 16-byte stores.

use crate::board::{Position, OFF};

/// Our tray's lane, after the 26 board slots (see [`Position::to_bytes`]).
const TRAY_LANE: usize = 26;

/// The lanes of one slot-sized change, as two 16-byte halves that overlap: lanes 0..=15 and
/// lanes 12..=27, so that each half is one whole-register load or store of a 28-byte position.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Row([i8; 16], [i8; 16]);

/// `by` in lane `lane` (in both halves where they overlap), and `extra` in lane 0.
const fn row(lane: usize, by: i8, extra: i8) -> Row {
    let mut lanes = [0i8; 28];
    if lane < 28 {
        lanes[lane] = by;
    }
    lanes[0] += extra;
    let (mut a, mut b) = ([0i8; 16], [0i8; 16]);
    let mut i = 0;
    while i < 16 {
        a[i] = lanes[i];
        b[i] = lanes[i + 12];
        i += 1;
    }
    Row(a, b)
}

/// Lane `i` minus one: a checker leaving slot `i`. 32 rows so that an index masked with 31 needs
/// no bounds check.
static LEAVE: [Row; 32] = {
    let mut t = [const { Row([0; 16], [0; 16]) }; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = row(i, -1, 0);
        i += 1;
    }
    t
};

/// A checker arriving on slot `i` (our tray for 0, off), without a hit (`[0]`) or hitting the
/// blot there (`[1]`: the lane goes from -1 to 1 and their bar, lane 0, gets the checker).
static ARRIVE: [[Row; 32]; 2] = {
    let mut t = [[const { Row([0; 16], [0; 16]) }; 32]; 2];
    let mut i = 0;
    while i < 32 {
        t[0][i] = row(if i == OFF { TRAY_LANE } else { i }, 1, 0);
        t[1][i] = row(i, 2, -1);
        i += 1;
    }
    t
};

/// A whole move of a checker from slot `from` with die `die` (`[die][hit][from]`, 8 dice so that an
/// index masked with 7 needs no bounds check): the sum of a [`LEAVE`] and an [`ARRIVE`] row, so
/// that a move is one addition per half.
static MOVES: [[[Row; 32]; 2]; 8] = {
    let mut t = [[[const { Row([0; 16], [0; 16]) }; 32]; 2]; 8];
    let mut die = 1;
    while die <= 6 {
        let mut hit = 0;
        while hit < 2 {
            let mut from = 1;
            while from < 32 {
                let to = if from > die { from - die } else { OFF };
                let (leave, arrive) = (&LEAVE[from], &ARRIVE[hit][to]);
                let mut i = 0;
                while i < 16 {
                    t[die][hit][from].0[i] = leave.0[i] + arrive.0[i];
                    t[die][hit][from].1[i] = leave.1[i] + arrive.1[i];
                    i += 1;
                }
                from += 1;
            }
            hit += 1;
        }
        die += 1;
    }
    t
};

/// A position as byte lanes in registers: lanes 0..=25 the board slots, 26 and 27 the trays.
#[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
#[derive(Clone, Copy)]
pub(super) struct Lanes {
    /// Lanes 0..=15.
    a: std::arch::x86_64::__m128i,
    /// Lanes 12..=27.
    b: std::arch::x86_64::__m128i,
}

// SAFETY (for every `unsafe` block of this implementation): the intrinsics need SSE2 only, which
// every x86_64 processor has and the target enables by default; the loads read a 16-byte half of
// a 32-byte aligned `Row` or of a 28-byte `Position` or array at offset 0 or 12, and the stores
// write the same halves of a 28-byte array.
#[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
impl Lanes {
    /// The lanes of `p`.
    #[inline(always)]
    pub(super) fn of(p: &Position) -> Lanes {
        use std::arch::x86_64::*;
        // Straight from the position's bytes (`repr(C)`, in `to_bytes`' order): through a copy
        // made by narrower stores, the second load would wait for them to land.
        let bytes = (p as *const Position).cast::<u8>();
        unsafe { Lanes { a: _mm_loadu_si128(bytes.cast()), b: _mm_loadu_si128(bytes.add(12).cast()) } }
    }

    /// The position these lanes hold (through memory: for the rare comparisons with results
    /// already written).
    #[inline(always)]
    pub(super) fn position(self) -> Position {
        use std::arch::x86_64::*;
        let mut bytes = [0u8; 28];
        unsafe {
            _mm_storeu_si128(bytes.as_mut_ptr().cast(), self.a);
            _mm_storeu_si128(bytes.as_mut_ptr().add(12).cast(), self.b);
        }
        Position::from_bytes(bytes)
    }

    /// Writes the position to `dst` with two 16-byte stores: `Position` is `repr(C)`, its 28
    /// bytes those of [`Position::to_bytes`] in order (checked by a test).
    ///
    /// # Safety
    ///
    /// `dst` must be valid for writing a `Position`.
    #[inline(always)]
    pub(super) unsafe fn write(self, dst: *mut Position) {
        use std::arch::x86_64::*;
        const { assert!(std::mem::size_of::<Position>() == 28) };
        let dst = dst.cast::<u8>();
        // SAFETY: both stores are inside the 28 bytes of `*dst` (the caller's promise).
        unsafe {
            _mm_storeu_si128(dst.cast(), self.a);
            _mm_storeu_si128(dst.add(12).cast(), self.b);
        }
    }

    /// Whether the two positions are equal.
    #[inline(always)]
    pub(super) fn same(self, other: Lanes) -> bool {
        use std::arch::x86_64::*;
        unsafe {
            let eq = _mm_and_si128(_mm_cmpeq_epi8(self.a, other.a), _mm_cmpeq_epi8(self.b, other.b));
            _mm_movemask_epi8(eq) == 0xFFFF
        }
    }

    /// One of our checkers moved from `from` with `die` (1..=6), to the landing of
    /// [`super::landing`], hitting the blot there if `hit`. No lane leaves -128..=127: `from` holds
    /// one of ours, the landing none of theirs unless `hit`, and then exactly one.
    #[inline(always)]
    pub(super) fn played(self, from: usize, die: usize, hit: bool) -> Lanes {
        use std::arch::x86_64::*;
        let row = &MOVES[die & 7][hit as usize][from & 31];
        unsafe {
            Lanes {
                a: _mm_add_epi8(self.a, _mm_load_si128(row.0.as_ptr().cast())),
                b: _mm_add_epi8(self.b, _mm_load_si128(row.1.as_ptr().cast())),
            }
        }
    }

    /// Bit `i` set for each lane `i` whose count is greater than `than`.
    #[inline(always)]
    pub(super) fn greater(self, than: i8) -> u32 {
        use std::arch::x86_64::*;
        unsafe {
            let t = _mm_set1_epi8(than);
            let a = _mm_movemask_epi8(_mm_cmpgt_epi8(self.a, t)) as u32;
            let b = _mm_movemask_epi8(_mm_cmpgt_epi8(self.b, t)) as u32;
            a | b << 12
        }
    }

    /// Bit `i` set for each lane `i` whose count is `n`.
    #[inline(always)]
    pub(super) fn equal(self, n: i8) -> u32 {
        use std::arch::x86_64::*;
        unsafe {
            let t = _mm_set1_epi8(n);
            let a = _mm_movemask_epi8(_mm_cmpeq_epi8(self.a, t)) as u32;
            let b = _mm_movemask_epi8(_mm_cmpeq_epi8(self.b, t)) as u32;
            a | b << 12
        }
    }
}

/// Elsewhere the lanes are the bytes of the position, changed a byte at a time.
#[cfg(any(not(target_arch = "x86_64"), gammon_portable))]
#[derive(Clone, Copy)]
pub(super) struct Lanes([i8; 28]);

#[cfg(any(not(target_arch = "x86_64"), gammon_portable))]
impl Lanes {
    #[inline(always)]
    pub(super) fn of(p: &Position) -> Lanes {
        Lanes(p.to_bytes().map(|b| b as i8))
    }

    #[inline(always)]
    pub(super) fn position(self) -> Position {
        Position::from_bytes(self.0.map(|b| b as u8))
    }

    /// Writes the position to `dst`.
    ///
    /// # Safety
    ///
    /// `dst` must be valid for writing a `Position`.
    #[inline(always)]
    pub(super) unsafe fn write(self, dst: *mut Position) {
        // SAFETY: the caller's promise.
        unsafe { dst.write(self.position()) };
    }

    #[inline(always)]
    pub(super) fn same(self, other: Lanes) -> bool {
        self.0 == other.0
    }

    #[inline(always)]
    pub(super) fn played(mut self, from: usize, die: usize, hit: bool) -> Lanes {
        let row = &MOVES[die & 7][hit as usize][from & 31];
        for (i, lane) in self.0.iter_mut().enumerate() {
            *lane = lane.wrapping_add(if i < 16 { row.0[i] } else { row.1[i - 12] });
        }
        self
    }

    #[inline(always)]
    pub(super) fn greater(self, than: i8) -> u32 {
        self.0.iter().enumerate().fold(0, |m, (i, &n)| m | ((n > than) as u32) << i)
    }

    #[inline(always)]
    pub(super) fn equal(self, n: i8) -> u32 {
        self.0.iter().enumerate().fold(0, |m, (i, &v)| m | ((v == n) as u32) << i)
    }
}

/// The results of one roll, written straight into the caller's vector: its pointer, length and
/// capacity stay in registers while the generator runs, instead of being read and written back
/// through the vector for each result.
pub(super) struct Out<'a> {
    vec: &'a mut Vec<Position>,
    ptr: *mut Position,
    len: usize,
    cap: usize,
}

impl<'a> Out<'a> {
    /// Empties `vec` and starts writing at its beginning.
    #[inline(always)]
    pub(super) fn new(vec: &'a mut Vec<Position>) -> Out<'a> {
        vec.clear();
        let (ptr, cap) = (vec.as_mut_ptr(), vec.capacity());
        Out { vec, ptr, len: 0, cap }
    }

    #[inline(always)]
    pub(super) fn push(&mut self, w: Lanes) {
        if self.len == self.cap {
            (self.ptr, self.cap) = grow(self.vec, self.len);
        }
        // SAFETY: `len < cap`, so the slot is inside the vector's allocation, and no reference to
        // it exists; `finish` makes the vector's length cover the slots written.
        unsafe { w.write(self.ptr.add(self.len)) };
        self.len += 1;
    }

    /// Drops the results written so far.
    #[inline(always)]
    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether a result equal to `p` is already written (a scan: only for rolls with many results
    /// that need comparing).
    pub(super) fn contains(&self, p: &Position) -> bool {
        // SAFETY: the first `len` slots were written by `push`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }.contains(p)
    }

    /// Sets the vector's length to the results written.
    #[inline(always)]
    pub(super) fn finish(self) {
        // SAFETY: the first `len` slots were written by `push`, and `len <= cap`.
        unsafe { self.vec.set_len(self.len) };
    }
}

/// Makes room in `vec`, whose first `len` slots [`Out::push`] wrote, and returns its new pointer
/// and capacity. Apart from the `Out`, so that the `Out` itself can stay in registers.
#[cold]
#[inline(never)]
fn grow(vec: &mut Vec<Position>, len: usize) -> (*mut Position, usize) {
    // SAFETY: the first `len` slots were written by `Out::push`, within the capacity.
    unsafe { vec.set_len(len) };
    vec.reserve(len.max(16));
    (vec.as_mut_ptr(), vec.capacity())
}
