//! The screen's weights in 16-bit integers, from which every score is computed.
//!
//! A candidate's score is a row swap per slot its play changed and one dot product over the 32
//! hidden units: in `f32` four vectors of AVX2 a row, in 16-bit integers two, and the dot product
//! one pairwise multiply-add (`vpmaddwd`). Integer sums are exact whatever their order, so every
//! build gives the same scores, and a candidate's score from swapped rows equals its score
//! summed afresh: additions wrap, and each unit's scale is chosen so that its true sum always
//! fits in 16 bits, so no wrap survives to the end.
//!
//! The rounding moves a score by about 1e-3 at most on the shipped screens (a test bounds it),
//! far below what separates the plays a screen keeps from those it drops.

use super::{Screen, HIDDEN, SLOTS, VALUES};

/// The weights of a [`Screen`] in integers: each unit's sums in steps of `1 / scale` (its own
/// scale), its activation clipped to `0..=scale`, the output weights in steps fine enough for
/// 32-bit sums.
#[derive(Clone, Debug)]
pub(super) struct Fixed {
    /// `SLOTS * VALUES` rows of `HIDDEN`, slot-major, each weight times its unit's scale.
    table: Vec<[i16; HIDDEN]>,
    bias: [i16; HIDDEN],
    /// Each unit's scale: its activation's top, 1 in the `f32` screen.
    top: [i16; HIDDEN],
    /// The output weights divided by their unit's scale, times a common factor.
    out: [i16; HIDDEN],
    /// One over that factor.
    unscale: f32,
    out_bias: f32,
}

/// The slot values a position can give: a point's signed count -15..=15 (31 values), a bar's
/// or tray's count 0..=15.
fn values(slot: usize) -> usize {
    if slot < 24 {
        31
    } else {
        16
    }
}

impl Fixed {
    /// `screen`'s weights rounded to integers.
    pub(super) fn new(screen: &Screen) -> Fixed {
        // A unit's largest possible sum: its bias and the largest row entry of each slot.
        let mut bound: [f64; HIDDEN] = screen.bias.map(|b| b.abs() as f64);
        for slot in 0..SLOTS {
            let rows = &screen.table[slot * VALUES..slot * VALUES + values(slot)];
            for (j, bound) in bound.iter_mut().enumerate() {
                *bound += rows.iter().map(|row| row[j].abs() as f64).fold(0.0, f64::max);
            }
        }
        // Room for the rounding of the 29 terms of a sum (each off by at most a half).
        let room = i16::MAX as f64 - 29.0;
        let scale: [f64; HIDDEN] = bound.map(|b| (room / b).floor().clamp(1.0, room));
        let round = |x: f64| x.round() as i16;
        let table =
            screen.table.iter().map(|row| std::array::from_fn(|j| round(row[j] as f64 * scale[j]))).collect();
        let bias = std::array::from_fn(|j| round(screen.bias[j] as f64 * scale[j]));
        // The output weights per step of their unit, times a factor as large as 16 bits allow
        // and small enough that the dot product (activations at most `scale`) fits in 32.
        let per_step: [f64; HIDDEN] = std::array::from_fn(|j| screen.out[j] as f64 / scale[j]);
        let largest = per_step.iter().fold(0.0, |m: f64, c| m.max(c.abs()));
        let total: f64 = screen.out.iter().map(|o| o.abs() as f64).sum();
        let factor = if largest == 0.0 { 1.0 } else { (i16::MAX as f64 / largest).min(2.0e9 / total) };
        Fixed {
            table,
            bias,
            top: scale.map(|s| s as i16),
            out: per_step.map(|c| round(c * factor)),
            unscale: (1.0 / factor) as f32,
            out_bias: screen.out_bias,
        }
    }

    /// The row of `slot` at `value`.
    #[inline(always)]
    pub(super) fn row(&self, slot: usize, value: u8) -> &[i16; HIDDEN] {
        &self.table[slot * VALUES + value as usize]
    }

    /// The hidden sums of a position with slot values `slots`.
    pub(super) fn sums(&self, slots: &[u8; SLOTS]) -> [i16; HIDDEN] {
        let mut sums = self.bias;
        for (k, &v) in slots.iter().enumerate() {
            let row = self.row(k, v);
            for j in 0..HIDDEN {
                sums[j] = sums[j].wrapping_add(row[j]);
            }
        }
        sums
    }

    /// The score of hidden sums `sums` with the rows of `rows` (`(old, new)`) swapped in.
    #[inline(always)]
    pub(super) fn score_swapped<'a>(
        &self,
        sums: &[i16; HIDDEN],
        rows: impl Iterator<Item = (&'a [i16; HIDDEN], &'a [i16; HIDDEN])>,
    ) -> f32 {
        let mut sums = *sums;
        for (old, new) in rows {
            for j in 0..HIDDEN {
                sums[j] = sums[j].wrapping_add(new[j].wrapping_sub(old[j]));
            }
        }
        self.score(&sums)
    }

    /// The score of hidden sums `sums`.
    #[inline(always)]
    pub(super) fn score(&self, sums: &[i16; HIDDEN]) -> f32 {
        let mut acc = 0i32;
        for ((&s, &top), &out) in sums.iter().zip(&self.top).zip(&self.out) {
            acc = acc.wrapping_add(s.max(0).min(top) as i32 * out as i32);
        }
        self.finish(acc)
    }

    /// The score from the dot product of the activations and the output weights.
    #[inline(always)]
    fn finish(&self, acc: i32) -> f32 {
        self.out_bias + acc as f32 * self.unscale
    }
}

/// The screen's integer arithmetic in the registers of AVX2.
#[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
pub(super) mod x86 {
    use super::{Fixed, HIDDEN};
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256,
        _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_setzero_si256,
        _mm256_sub_epi16, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32,
    };

    /// [`Fixed::score_swapped`] with the 32 sums in two registers throughout: the same integers,
    /// so the same score.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(in super::super) unsafe fn score_swapped<'a>(
        fixed: &Fixed,
        sums: &[i16; HIDDEN],
        rows: impl Iterator<Item = (&'a [i16; HIDDEN], &'a [i16; HIDDEN])>,
    ) -> f32 {
        // SAFETY (every load): offsets 16q + 16 <= HIDDEN of arrays of HIDDEN 16-bit integers.
        let load = |a: &[i16; HIDDEN], q: usize| unsafe {
            _mm256_loadu_si256(a.as_ptr().add(16 * q) as *const __m256i)
        };
        let mut s = [load(sums, 0), load(sums, 1)];
        for (old, new) in rows {
            for (q, s) in s.iter_mut().enumerate() {
                *s = _mm256_add_epi16(*s, _mm256_sub_epi16(load(new, q), load(old, q)));
            }
        }
        let zero = _mm256_setzero_si256();
        let mut acc = zero;
        for (q, s) in s.iter().enumerate() {
            let h = _mm256_min_epi16(_mm256_max_epi16(*s, zero), load(&fixed.top, q));
            // Each pair of products is at most 2 * 32767^2, which fits in an i32.
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(h, load(&fixed.out, q)));
        }
        let x = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256::<1>(acc));
        let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b01_00_11_10>(x));
        let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b10_11_00_01>(x));
        fixed.finish(_mm_cvtsi128_si32(x))
    }
}
