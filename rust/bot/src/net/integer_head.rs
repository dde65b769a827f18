//! A head whose input layer runs in 16-bit integers, for the rollouts' `net` policy.
//!
//! The head's input layer (the first layer's activations times a `hidden x units` matrix) is
//! most of the work of judging a contact candidate with the bot's net. Here the activations
//! (sigmoids, in 0..1) are rounded to steps of 1/[`STEPS`] and the weights to 16-bit integers
//! at a scale for each unit (as fine as its largest weight allows), so that the sums are exact 32-bit integer arithmetic: the
//! CPU's pairwise multiply-add (`vpmaddwd`, and `vpdpwssd` where AVX-512 VNNI has it) does two
//! products a lane, twice the lanes of `f32`, and because integer sums do not depend on their
//! order every build gives the same bits. The units' biases, the rectifier and the output
//! weights stay `f32`.
//!
//! What the rounding changes is far below what decides a play: on the shipped net the outputs
//! move by at most about 1.5e-4 on positions from games (the tests bound it), where the keep
//! margin of `net` (the candidates the head judges) is 0.06.

use super::head::{add_outputs, Head, MAX_UNITS};
use super::shape::MAX_HIDDEN;

/// Steps per unit of a first-layer activation: activations in 0..1 become 0..=8192. Finer steps
/// would leave coarser weights, as the sums must fit in 32 bits; this one gave the smallest error
/// on the shipped net (of 4096, 8192, 16384 and 32767).
pub const STEPS: f32 = 8192.0;

/// A [`Head`] with its input weights in 16-bit integers.
#[derive(Clone, Debug, PartialEq)]
pub struct IntegerHead {
    units: usize,
    hidden: usize,
    /// The input weights times their unit's scale, rounded, in pairs of first-layer units:
    /// weight `(2p + t, m)` at `(p * units + m) * 2 + t`, so that one 32-bit lane of a row
    /// holds the two weights one pairwise multiply-add needs.
    w: Vec<i16>,
    b: Vec<f32>,
    out: Vec<f32>,
    /// `1 / (scale * STEPS)` of each unit: turns its integer sum back into the head's units.
    unscale: Vec<f32>,
}

/// Units summed together: a multiple of what one vector of each instruction set holds.
const BLOCK: usize = 64;

impl IntegerHead {
    /// `head` in integers, or `None` for a shape the kernels do not take (units not a multiple
    /// of 64, an odd or too large number of first-layer units).
    ///
    /// ```
    /// use gammon_bot::net::{integer_head::IntegerHead, NeuralNet};
    /// let head = NeuralNet::builtin().contact.head.as_ref().unwrap();
    /// assert!(IntegerHead::new(head).is_some());
    /// ```
    pub fn new(head: &Head) -> Option<IntegerHead> {
        let (units, hidden) = (head.units(), head.hidden());
        if units % BLOCK != 0 || units > MAX_UNITS || hidden % 2 != 0 || hidden > MAX_HIDDEN {
            return None;
        }
        let column = |m: usize| (0..hidden).map(move |j| head.w[j * units + m].abs() as f64);
        let mut scales = vec![0.0f64; units];
        for (m, scale) in scales.iter_mut().enumerate() {
            let (largest, sum) = (column(m).fold(0.0, f64::max), column(m).sum::<f64>());
            // With every activation at its top, a unit's integer sum is at most the sum of its
            // rounded weights' sizes times STEPS (each weight rounded up by at most a half),
            // which must fit in an i32.
            let bound = (i32::MAX as f64 / STEPS as f64 - hidden as f64 / 2.0) / sum;
            *scale = if largest == 0.0 { 1.0 } else { (i16::MAX as f64 / largest).min(bound) };
        }
        let w = interleave(head, &scales);
        let unscale = scales.iter().map(|s| (1.0 / (s * STEPS as f64)) as f32).collect();
        Some(IntegerHead { units, hidden, w, b: head.b.clone(), out: head.out.clone(), unscale })
    }

    /// Number of units.
    pub fn units(&self) -> usize {
        self.units
    }

    /// The head's contribution added to the logits `z`, for first-layer activations `hidden`.
    pub fn add_logits(&self, hidden: &[f32], z: &mut [f32]) {
        self.add_logits_many([hidden], [z])
    }

    /// [`IntegerHead::add_logits`] for `C` candidates (at most [`MOST`]) in one pass over the
    /// weights, which do not fit in the first-level cache: reading them is what a pass waits
    /// for, so that each candidate more in a pass costs little. The same values as one at a
    /// time, to the bit.
    pub fn add_logits_many<const C: usize>(&self, hidden: [&[f32]; C], z: [&mut [f32]; C]) {
        assert!(C <= MOST, "at most {MOST} candidates a pass");
        // The whole pass, not only the integer sums, is compiled for the CPU's vectors: the
        // rounding, the rectifier and the output sums took as long again in the baseline build.
        #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
        {
            if std::is_x86_feature_detected!("avx512bw") && std::is_x86_feature_detected!("avx512vnni") {
                // SAFETY: the CPU has the instructions, checked just above.
                return unsafe { x86::add_logits_avx512(self, hidden, z) };
            }
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has the instructions, checked just above.
                return unsafe { x86::add_logits_avx2(self, hidden, z) };
            }
        }
        self.add_logits_with(hidden, z, sums_portable)
    }

    /// [`IntegerHead::add_logits_many`] with `kernel` summing the integers.
    #[inline(always)]
    fn add_logits_with<const C: usize>(
        &self,
        hidden: [&[f32]; C],
        z: [&mut [f32]; C],
        kernel: impl Fn(Sums<C>),
    ) {
        let half = self.hidden / 2;
        let mut pairs = [[0i32; MAX_HIDDEN / 2]; C];
        for (p, h) in pairs.iter_mut().zip(hidden) {
            pack(&h[..self.hidden], &mut p[..half]);
        }
        let mut sums = [[0i32; MAX_UNITS]; C];
        kernel((&self.w, self.units, pairs.each_ref().map(|p| &p[..half]), &mut sums));
        for (s, z) in sums.iter().zip(z) {
            let mut act = [0.0f32; MAX_UNITS];
            for (((a, &s), &b), &u) in act.iter_mut().zip(&s[..self.units]).zip(&self.b).zip(&self.unscale) {
                *a = (b + s as f32 * u).max(0.0);
            }
            add_outputs(&self.out, &act[..self.units], z);
        }
    }
}

/// The most candidates one pass over the weights judges.
pub const MOST: usize = 4;

/// The weights of `head` times their unit's scale, rounded, in the order [`IntegerHead`] keeps
/// them.
fn interleave(head: &Head, scales: &[f64]) -> Vec<i16> {
    let (units, hidden) = (head.units(), head.hidden());
    let mut w = vec![0i16; hidden * units];
    for j in 0..hidden {
        for m in 0..units {
            w[(j / 2 * units + m) * 2 + j % 2] = (head.w[j * units + m] as f64 * scales[m]).round() as i16;
        }
    }
    w
}

/// Activations in 0..1 rounded to steps of 1/[`STEPS`], two to a 32-bit word (the even unit in
/// the low half), as one lane of a pairwise multiply-add takes them.
#[inline(always)]
fn pack(hidden: &[f32], pairs: &mut [i32]) {
    for (p, h) in pairs.iter_mut().zip(hidden.chunks_exact(2)) {
        // Activations are never negative, so truncating after adding a half rounds.
        *p = truncate(h[0] * STEPS + 0.5) | (truncate(h[1] * STEPS + 0.5) << 16);
    }
}

/// `x as i32` for `x` in 0..=STEPS + 1 (anything else, NaN included, is first clipped to that
/// range): `as` must also saturate out-of-range values, which compiled to scalar code with
/// branches in the middle of this vector loop, about a twentieth of a rollout's time; clipped
/// first, the plain conversion is exact and one vector instruction.
#[inline(always)]
fn truncate(x: f32) -> i32 {
    // Two selects, as the screen's activation takes them (`f32::clamp` keeps NaN).
    let x = if x > 0.0 { x } else { 0.0 };
    let x = if x < STEPS + 1.0 { x } else { STEPS + 1.0 };
    // SAFETY: x is finite and within 0..=STEPS + 1, which an i32 holds.
    unsafe { x.to_int_unchecked::<i32>() }
}

/// What a kernel sums: the weights, the units, `C` candidates' activations in pairs
/// ([`pack`]), and where the sums go: `sums[c][m] = sum_j w(j, m) a_c(j)`. Every kernel gives
/// the same integers.
type Sums<'a, const C: usize> = (&'a [i16], usize, [&'a [i32]; C], &'a mut [[i32; MAX_UNITS]; C]);

/// The integer sums in plain Rust, for other CPUs and as the kernels' reference in tests.
fn sums_portable<const C: usize>((w, units, pairs, sums): Sums<C>) {
    for (s, pairs) in sums.iter_mut().zip(pairs) {
        let s = &mut s[..units];
        s.fill(0);
        for (p, &pair) in pairs.iter().enumerate() {
            let (lo, hi) = (pair as i16 as i32, pair >> 16);
            let row = &w[p * units * 2..(p + 1) * units * 2];
            for (s, ww) in s.iter_mut().zip(row.chunks_exact(2)) {
                *s += lo * ww[0] as i32 + hi * ww[1] as i32;
            }
        }
    }
}

#[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
// The kernels number their lanes (`c` the candidate, `v` the vector of a block, `p` the pair of
// first-layer units), as the weights' layout does.
#[allow(clippy::needless_range_loop)]
mod x86 {
    use super::{IntegerHead, Sums, BLOCK};
    use std::arch::x86_64::*;

    /// [`IntegerHead::add_logits_many`] compiled for AVX-512.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(super) unsafe fn add_logits_avx512<const C: usize>(
        head: &IntegerHead,
        hidden: [&[f32]; C],
        z: [&mut [f32]; C],
    ) {
        // SAFETY: this function's own instructions.
        head.add_logits_with(hidden, z, |s| unsafe { sums_avx512(s) })
    }

    /// [`IntegerHead::add_logits_many`] compiled for AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn add_logits_avx2<const C: usize>(
        head: &IntegerHead,
        hidden: [&[f32]; C],
        z: [&mut [f32]; C],
    ) {
        // SAFETY: this function's own instructions. Up to two candidates take 32 units at a
        // time, more take 16: eight accumulators are as many as the registers leave room for.
        head.add_logits_with(hidden, z, |s| unsafe {
            if C <= 2 {
                sums_avx2::<C, 4>(s)
            } else {
                sums_avx2::<C, 2>(s)
            }
        })
    }

    /// The integer sums with AVX-512: sixteen units a vector, a block of 64 units of every
    /// candidate at a time (four accumulators each, as each multiply-add waits for the last one
    /// on its accumulator).
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(super) unsafe fn sums_avx512<const C: usize>((w, units, pairs, sums): Sums<C>) {
        let n = pairs.iter().map(|p| p.len()).min().unwrap_or(0);
        assert!(w.len() >= n * units * 2 && units % BLOCK == 0 && units <= sums[0].len());
        for m in (0..units).step_by(BLOCK) {
            let mut acc = [[_mm512_setzero_si512(); 4]; C];
            for p in 0..n {
                // SAFETY: p < n and m + BLOCK <= units, so the block of the row is within `w`
                // (asserted above); unaligned loads.
                let row = unsafe { w.as_ptr().add((p * units + m) * 2) };
                let a: [__m512i; C] = std::array::from_fn(|c| _mm512_set1_epi32(pairs[c][p]));
                for v in 0..4 {
                    let wv = unsafe { _mm512_loadu_si512(row.add(32 * v).cast()) };
                    for c in 0..C {
                        acc[c][v] = _mm512_dpwssd_epi32(acc[c][v], a[c], wv);
                    }
                }
            }
            for c in 0..C {
                for v in 0..4 {
                    // SAFETY: m + BLOCK <= units <= the sums' length.
                    unsafe { _mm512_storeu_si512(sums[c][m + 16 * v..].as_mut_ptr().cast(), acc[c][v]) };
                }
            }
        }
    }

    /// The integer sums with AVX2: eight units a vector, `8 V` units of every candidate at a
    /// time.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn sums_avx2<const C: usize, const V: usize>((w, units, pairs, sums): Sums<C>) {
        let n = pairs.iter().map(|p| p.len()).min().unwrap_or(0);
        assert!(w.len() >= n * units * 2 && units % (8 * V) == 0 && units <= sums[0].len());
        for m in (0..units).step_by(8 * V) {
            let mut acc = [[_mm256_setzero_si256(); V]; C];
            for p in 0..n {
                // SAFETY: as in the AVX-512 kernel.
                let row = unsafe { w.as_ptr().add((p * units + m) * 2) };
                let a: [__m256i; C] = std::array::from_fn(|c| _mm256_set1_epi32(pairs[c][p]));
                for v in 0..V {
                    let wv = unsafe { _mm256_loadu_si256(row.add(16 * v).cast()) };
                    for c in 0..C {
                        acc[c][v] = _mm256_add_epi32(acc[c][v], _mm256_madd_epi16(a[c], wv));
                    }
                }
            }
            for c in 0..C {
                for v in 0..V {
                    // SAFETY: m + 8 V <= units <= the sums' length.
                    unsafe { _mm256_storeu_si256(sums[c][m + 8 * v..].as_mut_ptr().cast(), acc[c][v]) };
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::shape::{uniform, OUTPUTS};

    fn random_pairs(seed: u64, n: usize) -> Vec<i32> {
        let mut next = uniform(seed);
        let h: Vec<f32> = (0..2 * n).map(|_| (next() + 1.0) / 2.0).collect();
        let mut pairs = vec![0; n];
        pack(&h, &mut pairs);
        pairs
    }

    #[test]
    fn every_kernel_gives_the_same_sums() {
        let head = Head::new(128, 256, 5);
        let q = IntegerHead::new(&head).unwrap();
        let pairs: Vec<Vec<i32>> = (1..=4).map(|seed| random_pairs(seed, 128)).collect();
        let four = [&pairs[0][..], &pairs[1], &pairs[2], &pairs[3]];
        let mut want = [[0; MAX_UNITS]; 4];
        sums_portable((&q.w, 128, four, &mut want));
        assert!(want[0].iter().any(|&s| s != 0));
        #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
        {
            let mut got = [[0; MAX_UNITS]; 4];
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: checked just above.
                unsafe { x86::sums_avx2::<4, 2>((&q.w, 128, four, &mut got)) };
                assert_eq!(want, got);
                let mut two = [[0; MAX_UNITS]; 2];
                // SAFETY: checked above.
                unsafe { x86::sums_avx2::<2, 4>((&q.w, 128, [four[0], four[1]], &mut two)) };
                assert_eq!(two, [want[0], want[1]]);
            }
            if std::is_x86_feature_detected!("avx512bw") && std::is_x86_feature_detected!("avx512vnni") {
                got = [[0; MAX_UNITS]; 4];
                // SAFETY: checked just above.
                unsafe { x86::sums_avx512((&q.w, 128, four, &mut got)) };
                assert_eq!(want, got);
            }
        }
    }

    #[test]
    fn the_logits_are_the_same_bits_on_every_build_and_in_every_group() {
        let mut head = Head::new(128, 256, 6);
        let mut next = uniform(3);
        head.out.iter_mut().for_each(|w| *w = next());
        let q = IntegerHead::new(&head).unwrap();
        let h: Vec<Vec<f32>> = (0..3).map(|_| (0..256).map(|_| (next() + 1.0) / 2.0).collect()).collect();
        let [mut z0, mut z1, mut z2] = [[0.25f32; OUTPUTS]; 3];
        q.add_logits_many([&h[0], &h[1], &h[2]], [&mut z0, &mut z1, &mut z2]);
        let [mut y0, mut y1, mut y2] = [[0.25f32; OUTPUTS]; 3];
        q.add_logits_with([&h[0], &h[1]], [&mut y0, &mut y1], sums_portable);
        q.add_logits(&h[2], &mut y2);
        for (z, y) in [(z0, y0), (z1, y1), (z2, y2)] {
            assert_eq!(z.map(f32::to_bits), y.map(f32::to_bits));
        }
        assert_ne!(z0, z1);
    }

    #[test]
    fn the_activations_round_to_steps() {
        let mut pairs = [0; 2];
        pack(&[0.0, 1.0, 0.5, 1.0 / STEPS + 1e-6], &mut pairs);
        let top = STEPS as i32;
        assert_eq!(pairs, [top << 16, (1 << 16) | (top / 2)]);
    }

    #[test]
    fn odd_shapes_are_refused() {
        assert!(IntegerHead::new(&Head::new(96, 256, 1)).is_none());
        assert!(IntegerHead::new(&Head::new(64, 255, 1)).is_none());
        assert!(IntegerHead::new(&Head::new(64, 256, 1)).is_some());
    }
}
