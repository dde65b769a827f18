//! A fully connected net with one hidden layer of sigmoid units and five sigmoid outputs, in f32,
//! and optionally a [`Head`]: a second hidden layer adding to the outputs.
//!
//! The first layer is stored input-major (`w1[i * hidden + j]`), so one input's contribution to
//! all hidden sums is one contiguous row: a forward pass adds the rows of the non-zero inputs,
//! and a position that differs from an already evaluated one in a few inputs costs only those
//! rows (see [`Network::update_sums`]). Plain loops over rows auto-vectorise.

use super::head::{Head, MAX_UNITS};
use super::integer_head::IntegerHead;
use super::shape::{dot_onto, uniform};
pub use super::shape::{MAX_HIDDEN, OUTPUTS};
use gammon_core::error::{Error, Result};

/// The hidden width of the shipped race net (and of TD training), which gets builds of its own:
/// with the width known when compiling, sums stay in registers and loops have no remainders.
const SHIPPED_HIDDEN: usize = 80;
/// The hidden width of the shipped contact net, with builds of its own too.
const WIDE_HIDDEN: usize = 256;
/// How many hidden sums the wide builds keep in registers at once: all 256 would not fit in the
/// sixteen vector registers of AVX2 and spill to memory at every row, so the rows are added to
/// one block of sums at a time (each sum still adds its terms in the same order).
pub(super) const BLOCK: usize = 64;
/// The most inputs a net may have.
const MAX_INPUTS: usize = 10_000;

/// Where [`Network::outputs_after_keeping_hidden`] keeps a candidate's hidden activations and
/// its direct path's logits.
type Kept<'a> = Option<(&'a mut [f32], &'a mut [f32; 8])>;

/// One net's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    inputs: usize,
    hidden: usize,
    // The weights are public for training (`gammon-train`), which updates them in place; their
    // lengths are fixed by the shape and must stay so.
    /// First layer, `inputs * hidden`, input-major.
    pub w1: Vec<f32>,
    /// Hidden biases, `hidden`.
    pub b1: Vec<f32>,
    /// Second layer, `OUTPUTS * hidden`, output-major.
    pub w2: Vec<f32>,
    /// Output biases.
    pub b2: [f32; OUTPUTS],
    /// A second hidden layer adding to the outputs, if the net has one.
    pub head: Option<Head>,
}

/// The direct path's running sums, eight lanes an output: lane `i` of output `k` adds
/// `hidden[8c + i] * w2[k * H + 8c + i]` over the chunks `c` in order.
#[inline(always)]
fn direct_sums<const H: usize>(hidden: &[f32; H], w2: &[f32]) -> [[f32; 8]; OUTPUTS] {
    // Each row taken as an array of the width in chunks of eight: with the bounds known, each
    // output's sums are one vector over whole chunks. (Indexing the rows by offsets instead, the
    // compiler gathered lanes one by one or split them into pieces, whichever loop was
    // outermost.)
    let (chunks, _) = hidden.as_chunks::<8>();
    let mut acc = [[0.0f32; 8]; OUTPUTS];
    for (k, a) in acc.iter_mut().enumerate() {
        let row: &[f32; H] = w2[k * H..(k + 1) * H].try_into().unwrap();
        for (h, w) in chunks.iter().zip(row.as_chunks::<8>().0) {
            for i in 0..8 {
                a[i] += h[i] * w[i];
            }
        }
    }
    acc
}

/// [`direct_sums`] in AVX, the five outputs' sums side by side a chunk at a time: five
/// independent chains of additions, where the compiled loop above runs one output's whole chain
/// after another and waits on each addition (and interleaved by hand in plain Rust, the compiler
/// gathers lanes one by one). The same products added in the same order, so the same bits.
///
/// # Safety
/// The CPU must support AVX.
#[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
#[target_feature(enable = "avx")]
unsafe fn direct_sums_avx<const H: usize>(hidden: &[f32; H], w2: &[f32]) -> [[f32; 8]; OUTPUTS] {
    use std::arch::x86_64::{
        _mm256_add_ps, _mm256_loadu_ps, _mm256_mul_ps, _mm256_setzero_ps, _mm256_storeu_ps,
    };
    assert!(H.is_multiple_of(8) && w2.len() >= OUTPUTS * H);
    let mut acc = [_mm256_setzero_ps(); OUTPUTS];
    for c in 0..H / 8 {
        // SAFETY: 8c + 8 <= H, and k * H + 8c + 8 <= OUTPUTS * H <= w2.len(), asserted above.
        let h = unsafe { _mm256_loadu_ps(hidden.as_ptr().add(8 * c)) };
        for (k, a) in acc.iter_mut().enumerate() {
            let w = unsafe { _mm256_loadu_ps(w2.as_ptr().add(k * H + 8 * c)) };
            *a = _mm256_add_ps(*a, _mm256_mul_ps(h, w));
        }
    }
    acc.map(|a| {
        let mut lanes = [0.0f32; 8];
        // SAFETY: `lanes` holds eight floats.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), a) };
        lanes
    })
}

/// `2^t` for |t| <= 115, to about 8e-8 relative error beyond the rounding of `t` itself,
/// written without branches so that loops over it vectorise.
#[inline(always)]
fn exp2(t: f32) -> f32 {
    let t = t.clamp(-115.0, 115.0);
    // Rounds to the nearest integer by letting the float addition drop the fraction (exact for
    // |t| < 2^22): unlike `f32::round`, a library call, this keeps the loops over hidden units
    // vectorised.
    const ROUNDER: f32 = 12_582_912.0; // 1.5 * 2^23
    let r = t + ROUNDER;
    let g = t - (r - ROUNDER);
    // 2^g on |g| <= 1/2: the polynomial of degree 5 of least relative error there (fitted by
    // `tools/exp2_fit.py`), by Horner's rule. Multiplications by constants rather than the
    // divisions of a Taylor series: a division costs several multiplications' time.
    let p = 1.000_000_1
        + g * (0.693_146_94
            + g * (0.240_221_2 + g * (0.055_507_13 + g * (0.009_675_485 + g * 0.001_327_630_8))));
    // The integer n read from the bits of r, whose last place is worth 1 (`n as i32` would
    // saturate, which compiles to scalar code in the middle of the vector loop), added to the
    // exponent of p: p * 2^n, as p in 0.7..1.5 and n in -115..=115 keep it a normal number.
    let n = r.to_bits() as i32 - ROUNDER.to_bits() as i32;
    f32::from_bits((p.to_bits() as i32 + (n << 23)) as u32)
}

/// The logistic function `1 / (1 + e^-x)`, to about 1.1e-7 absolute error (tested): the same
/// bits in every build, as it takes only additions, multiplications, one division and bit
/// operations, none fused.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + exp2(x * -std::f32::consts::LOG2_E))
}

/// The five outputs from their logits (padded to eight).
#[inline(always)]
fn squash(mut z: [f32; 8]) -> [f32; OUTPUTS] {
    // A plain loop rather than `map`, which is not inlined into the vector builds.
    for v in &mut z {
        *v = sigmoid(*v);
    }
    [z[0], z[1], z[2], z[3], z[4]]
}

impl Network {
    /// A net with small weights from a simple reproducible generator (for training from scratch).
    pub fn random(inputs: usize, hidden: usize, seed: u64) -> Network {
        assert!(hidden <= MAX_HIDDEN && hidden > 0 && inputs > 0);
        let mut next = uniform(seed ^ 0x9E37_79B9_7F4A_7C15);
        let w1 = (0..inputs * hidden).map(|_| next() * 0.1).collect();
        let w2 = (0..OUTPUTS * hidden).map(|_| next() * 0.1).collect();
        Network { inputs, hidden, w1, b1: vec![0.0; hidden], w2, b2: [0.0; OUTPUTS], head: None }
    }

    /// The same function with `hidden` units: the new units get small random input weights and
    /// zero output weights, and a head reads them with zero weights ([`Head::reading`]), so
    /// training can grow a net without starting over.
    pub fn widened(&self, hidden: usize, seed: u64) -> Network {
        assert!(hidden >= self.hidden && hidden <= MAX_HIDDEN);
        let fresh = Network::random(self.inputs, hidden, seed);
        let (old, h) = (self.hidden, hidden);
        let mut w1 = fresh.w1;
        for i in 0..self.inputs {
            w1[i * h..i * h + old].copy_from_slice(&self.w1[i * old..(i + 1) * old]);
        }
        let mut b1 = vec![0.0; h];
        b1[..old].copy_from_slice(&self.b1);
        let mut w2 = vec![0.0; OUTPUTS * h];
        for k in 0..OUTPUTS {
            w2[k * h..k * h + old].copy_from_slice(&self.w2[k * old..(k + 1) * old]);
        }
        let head = self.head.as_ref().map(|head| head.reading(h));
        Network { inputs: self.inputs, hidden: h, w1, b1, w2, b2: self.b2, head }
    }

    /// The same function with a [`Head`] of `units` units added (which adds nothing until
    /// trained), or its own head grown to `units` ([`Head::widened`]) when it has one already.
    pub fn deepened(&self, units: usize, seed: u64) -> Network {
        let mut net = self.clone();
        net.head = Some(match &self.head {
            Some(head) => head.widened(units, seed),
            None => Head::new(units, self.hidden, seed),
        });
        net
    }

    /// Every weight and bias, in the order of the file format: w1, b1, w2, b2, then the head's.
    pub fn weights(&self) -> impl Iterator<Item = f32> + '_ {
        let head = self.head.iter().flat_map(|h| h.weights());
        self.w1.iter().chain(&self.b1).chain(&self.w2).chain(&self.b2).copied().chain(head)
    }

    /// [`Network::weights`], to change in place.
    pub fn weights_mut(&mut self) -> impl Iterator<Item = &mut f32> + '_ {
        let head = self.head.iter_mut().flat_map(|h| h.weights_mut());
        self.w1.iter_mut().chain(&mut self.b1).chain(&mut self.w2).chain(&mut self.b2).chain(head)
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Number of hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The hidden layer's weighted sums for inputs `x` (zero inputs skipped) into `sums`.
    #[inline(always)]
    pub fn hidden_sums(&self, x: &[f32], sums: &mut [f32]) {
        match self.hidden {
            SHIPPED_HIDDEN => return self.hidden_sums_fixed::<SHIPPED_HIDDEN, SHIPPED_HIDDEN>(x, sums),
            WIDE_HIDDEN => return self.hidden_sums_fixed::<WIDE_HIDDEN, BLOCK>(x, sums),
            _ => {}
        }
        let h = self.hidden;
        let sums = &mut sums[..h];
        sums.copy_from_slice(&self.b1);
        for (i, &v) in x.iter().enumerate().take(self.inputs) {
            if v != 0.0 {
                let row = &self.w1[i * h..(i + 1) * h];
                for (s, &w) in sums.iter_mut().zip(row) {
                    *s += v * w;
                }
            }
        }
    }

    /// [`Network::hidden_sums`] for a width known when compiling, `B` hidden units at a time
    /// (see [`BLOCK`]): the same sums in the same order.
    #[inline(always)]
    fn hidden_sums_fixed<const H: usize, const B: usize>(&self, x: &[f32], sums: &mut [f32]) {
        for b in (0..H).step_by(B) {
            let mut s: [f32; B] = self.b1[b..b + B].try_into().unwrap();
            // The non-zero inputs through bit masks and a loop over the set bits: a branch per
            // input would be mispredicted often, as which inputs are zero changes from one
            // position to the next. The rows are added in increasing order all the same. Finding
            // them again for each block costs less than listing them.
            for (c, chunk) in x[..self.inputs].chunks(64).enumerate() {
                let mut mask = 0u64;
                for (k, &v) in chunk.iter().enumerate() {
                    mask |= ((v != 0.0) as u64) << k;
                }
                while mask != 0 {
                    let k = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    self.add_rows::<H, B>(b, &[((64 * c + k) as u32, chunk[k])], &mut s);
                }
            }
            sums[b..b + B].copy_from_slice(&s);
        }
    }

    /// Adds `d` times columns `b..b + B` of the first-layer row of each `(input, d)` of `rows`
    /// to `s`, in the order listed.
    #[inline(always)]
    fn add_rows<const H: usize, const B: usize>(&self, b: usize, rows: &[(u32, f32)], s: &mut [f32; B]) {
        for &(i, d) in rows {
            let at = i as usize * H + b;
            let row: &[f32; B] = self.w1[at..at + B].try_into().unwrap();
            for j in 0..B {
                s[j] += d * row[j];
            }
        }
    }

    /// Adds to `sums` what input `i` contributes when it grows by `d`.
    #[inline(always)]
    pub fn add_input(&self, i: usize, d: f32, sums: &mut [f32]) {
        let h = self.hidden;
        let row = &self.w1[i * h..(i + 1) * h];
        for (s, &w) in sums[..h].iter_mut().zip(row) {
            *s += d * w;
        }
    }

    /// Turns `sums`, the hidden sums for inputs `old`, into those for inputs `new`, touching only
    /// the inputs that differ.
    pub fn update_sums(&self, old: &[f32], new: &[f32], sums: &mut [f32]) {
        let changes: Vec<(u32, f32)> = (old.iter().zip(new).enumerate().take(self.inputs))
            .filter(|(_, (a, b))| a != b)
            .map(|(i, (&a, &b))| (i as u32, b - a))
            .collect();
        self.add_changes(&changes, sums);
    }

    /// Adds to `sums` what each `(input, d)` of `changes` contributes when that input grows by
    /// `d`, in the order listed: [`Network::add_input`] for each, to the bit.
    #[inline(always)]
    pub fn add_changes(&self, changes: &[(u32, f32)], sums: &mut [f32]) {
        match self.hidden {
            SHIPPED_HIDDEN => self.add_changes_fixed::<SHIPPED_HIDDEN, SHIPPED_HIDDEN>(changes, sums),
            WIDE_HIDDEN => self.add_changes_fixed::<WIDE_HIDDEN, BLOCK>(changes, sums),
            _ => {
                for &(i, d) in changes {
                    self.add_input(i as usize, d, sums);
                }
            }
        }
    }

    #[inline(always)]
    fn add_changes_fixed<const H: usize, const B: usize>(&self, changes: &[(u32, f32)], sums: &mut [f32]) {
        for b in (0..H).step_by(B) {
            let mut s: [f32; B] = sums[b..b + B].try_into().unwrap();
            self.add_rows::<H, B>(b, changes, &mut s);
            sums[b..b + B].copy_from_slice(&s);
        }
    }

    /// The hidden activations from the hidden sums.
    #[inline(always)]
    pub fn activate(&self, sums: &[f32], hidden: &mut [f32]) {
        for (a, &s) in hidden[..self.hidden].iter_mut().zip(&sums[..self.hidden]) {
            *a = sigmoid(s);
        }
    }

    /// The five outputs from the hidden activations.
    #[inline(always)]
    pub fn outputs(&self, hidden: &[f32]) -> [f32; OUTPUTS] {
        self.outputs_with(hidden, Some(&mut [0.0; MAX_UNITS]))
    }

    /// The outputs from the hidden activations, through the head (its activations, if the net
    /// has one, left in `act[..units]`) or, with `None`, by the direct path alone.
    #[inline(always)]
    fn outputs_with(&self, hidden: &[f32], act: Option<&mut [f32]>) -> [f32; OUTPUTS] {
        self.outputs_from_direct(hidden, self.direct_logits(hidden), act)
    }

    /// [`Network::outputs`] of hidden activations whose direct-path logits `direct`
    /// ([`Network::direct_logits`]) are already known, as
    /// [`Network::outputs_after_keeping_hidden`] leaves them: the same outputs to the bit,
    /// without the direct path again.
    #[inline(always)]
    pub fn outputs_given(&self, hidden: &[f32], direct: [f32; 8]) -> [f32; OUTPUTS] {
        self.outputs_from_direct(hidden, direct, Some(&mut [0.0; MAX_UNITS]))
    }

    /// The outputs from the direct path's logits `z` of `hidden`, the head's added as
    /// [`Network::outputs_with`] adds them.
    #[inline(always)]
    fn outputs_from_direct(
        &self,
        hidden: &[f32],
        mut z: [f32; 8],
        act: Option<&mut [f32]>,
    ) -> [f32; OUTPUTS] {
        if let (Some(head), Some(act)) = (&self.head, act) {
            head.add_logits(hidden, act, &mut z);
        }
        squash(z)
    }

    /// [`Network::outputs_given`] of two candidates, to the bit, with the head judging both in
    /// one pass over its weights ([`Head::add_logits_pair`]).
    #[inline(always)]
    pub fn outputs_pair(&self, hidden: [&[f32]; 2], direct: [[f32; 8]; 2]) -> [[f32; OUTPUTS]; 2] {
        let mut z = direct;
        if let Some(head) = &self.head {
            let [z0, z1] = &mut z;
            head.add_logits_pair(hidden, [z0, z1]);
        }
        z.map(squash)
    }

    /// [`Network::outputs_pair`] of four candidates, to the bit, the head judging all four in
    /// one pass over its weights ([`Head::add_logits_quad`]).
    #[inline(always)]
    pub fn outputs_quad(&self, hidden: [&[f32]; 4], direct: [[f32; 8]; 4]) -> [[f32; OUTPUTS]; 4] {
        let mut z = direct;
        if let Some(head) = &self.head {
            let [z0, z1, z2, z3] = &mut z;
            head.add_logits_quad(hidden, [z0, z1, z2, z3]);
        }
        z.map(squash)
    }

    /// [`Network::outputs_given`] of `C` candidates (at most
    /// [`MOST`](super::integer_head::MOST)), the head's input layer in integers (`head`, made
    /// from this net's head) judging them all in one pass over its weights: nearly the same
    /// values as the `f32` head's, in less time.
    #[inline(always)]
    pub fn outputs_integer<const C: usize>(
        &self,
        head: &IntegerHead,
        hidden: [&[f32]; C],
        direct: [[f32; 8]; C],
    ) -> [[f32; OUTPUTS]; C] {
        let mut z = direct;
        head.add_logits_many(hidden, z.each_mut().map(|z| &mut z[..]));
        z.map(squash)
    }

    /// The output logits of the direct path (hidden units to outputs), padded to eight so that
    /// their sigmoids take one vector pass.
    #[inline(always)]
    pub fn direct_logits(&self, hidden: &[f32]) -> [f32; 8] {
        match self.hidden {
            SHIPPED_HIDDEN => {
                return self
                    .direct_logits_fixed::<SHIPPED_HIDDEN>(hidden[..SHIPPED_HIDDEN].try_into().unwrap())
            }
            WIDE_HIDDEN => {
                return self.direct_logits_fixed::<WIDE_HIDDEN>(hidden[..WIDE_HIDDEN].try_into().unwrap())
            }
            _ => {}
        }
        let h = self.hidden;
        let mut z = [0.0f32; 8];
        for (k, out) in z[..OUTPUTS].iter_mut().enumerate() {
            *out = dot_onto(self.b2[k], &hidden[..h], &self.w2[k * h..(k + 1) * h]);
        }
        z
    }

    /// [`Network::direct_logits`] for a width known when compiling, a multiple of eight: the
    /// same sums in the same order (the general code's empty remainder adds nothing), written so
    /// that each output's eight running sums stay one vector.
    #[inline(always)]
    fn direct_logits_fixed<const H: usize>(&self, hidden: &[f32; H]) -> [f32; 8] {
        let w2: &[f32] = &self.w2[..OUTPUTS * H];
        #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
        let acc = if std::is_x86_feature_detected!("avx") {
            // SAFETY: the CPU supports AVX, checked just above.
            unsafe { direct_sums_avx(hidden, w2) }
        } else {
            direct_sums(hidden, w2)
        };
        #[cfg(not(all(target_arch = "x86_64", not(gammon_portable))))]
        let acc = direct_sums(hidden, w2);
        let mut z = [0.0f32; 8];
        for k in 0..OUTPUTS {
            z[k] = self.b2[k] + acc[k].iter().sum::<f32>();
        }
        z
    }

    /// A full forward pass that keeps the hidden activations in `hidden[..self.hidden()]`, as a
    /// learning step ([`Network::learn`]) needs them.
    pub fn forward_keeping_hidden(&self, x: &[f32], hidden: &mut [f32]) -> [f32; OUTPUTS] {
        self.forward_keeping_all(x, hidden, &mut [0.0; MAX_UNITS])
    }

    /// [`Network::forward_keeping_hidden`] that also keeps the head's activations in
    /// `act[..units]` (nothing for a net without a head), so that a gradient need not
    /// recompute them.
    pub fn forward_keeping_all(&self, x: &[f32], hidden: &mut [f32], act: &mut [f32]) -> [f32; OUTPUTS] {
        let mut sums = [0.0f32; MAX_HIDDEN];
        self.hidden_sums(x, &mut sums);
        self.activate(&sums, hidden);
        self.outputs_with(&hidden[..self.hidden], Some(act))
    }

    /// The outputs for hidden sums `sums`.
    #[inline(always)]
    pub fn outputs_from_sums(&self, sums: &[f32]) -> [f32; OUTPUTS] {
        let mut hidden = [0.0f32; MAX_HIDDEN];
        self.activate(sums, &mut hidden);
        self.outputs(&hidden[..self.hidden])
    }

    /// The outputs for inputs that differ from those behind the hidden sums `sums` by the
    /// `(input, difference)` pairs of `changes`: [`Network::add_input`] for each, then
    /// [`Network::outputs_from_sums`], with the same result to the bit.
    #[inline(always)]
    pub fn outputs_after(&self, sums: &[f32], changes: &[(u32, f32)]) -> [f32; OUTPUTS] {
        self.outputs_after_with(sums, changes, Some(&mut [0.0; MAX_UNITS]), None)
    }

    /// [`Network::outputs_after`] by the direct path alone, leaving out the head (the same
    /// outputs for a net without one): what the first layer makes of the candidate, for ranking
    /// candidates before the head judges the few best. The candidate's hidden activations are
    /// left in `hidden[..self.hidden()]` and its direct path's logits in `direct`, so that
    /// [`Network::outputs_given`] of them later gives [`Network::outputs_after`]'s outputs to
    /// the bit, the head included, without the first layer or the direct path again.
    #[inline(always)]
    pub fn outputs_after_keeping_hidden(
        &self,
        sums: &[f32],
        changes: &[(u32, f32)],
        hidden: &mut [f32],
        direct: &mut [f32; 8],
    ) -> [f32; OUTPUTS] {
        self.outputs_after_with(sums, changes, None, Some((hidden, direct)))
    }

    /// The outputs from a candidate's hidden activations, by the head with `act` as in
    /// [`Network::outputs_with`], or, with `keep`, by the direct path alone, the activations and
    /// the direct path's logits kept there.
    #[inline(always)]
    fn outputs_or_keep(&self, hidden: &[f32], act: Option<&mut [f32]>, keep: Kept) -> [f32; OUTPUTS] {
        match keep {
            Some((kept, direct)) => {
                kept[..hidden.len()].copy_from_slice(hidden);
                *direct = self.direct_logits(hidden);
                self.outputs_from_direct(hidden, *direct, None)
            }
            None => self.outputs_with(hidden, act),
        }
    }

    #[inline(always)]
    fn outputs_after_with(
        &self,
        sums: &[f32],
        changes: &[(u32, f32)],
        act: Option<&mut [f32]>,
        keep: Kept,
    ) -> [f32; OUTPUTS] {
        match self.hidden {
            SHIPPED_HIDDEN => {
                self.outputs_after_fixed::<SHIPPED_HIDDEN, SHIPPED_HIDDEN>(sums, changes, act, keep)
            }
            WIDE_HIDDEN => self.outputs_after_fixed::<WIDE_HIDDEN, BLOCK>(sums, changes, act, keep),
            _ => {
                let mut s = [0.0f32; MAX_HIDDEN];
                s[..self.hidden].copy_from_slice(&sums[..self.hidden]);
                for &(i, d) in changes {
                    self.add_input(i as usize, d, &mut s);
                }
                let mut hidden = [0.0f32; MAX_HIDDEN];
                self.activate(&s, &mut hidden);
                self.outputs_or_keep(&hidden[..self.hidden], act, keep)
            }
        }
    }

    #[inline(always)]
    fn outputs_after_fixed<const H: usize, const B: usize>(
        &self,
        sums: &[f32],
        changes: &[(u32, f32)],
        act: Option<&mut [f32]>,
        keep: Kept,
    ) -> [f32; OUTPUTS] {
        // Kept activations are written where they are kept rather than copied there.
        match keep {
            Some((kept, direct)) => {
                let hidden: &mut [f32; H] = (&mut kept[..H]).try_into().unwrap();
                self.activations_after::<H, B>(sums, changes, hidden);
                *direct = self.direct_logits(hidden);
                self.outputs_from_direct(hidden, *direct, None)
            }
            None => {
                let mut hidden = [0.0f32; H];
                self.activations_after::<H, B>(sums, changes, &mut hidden);
                self.outputs_with(&hidden, act)
            }
        }
    }

    /// The hidden activations of the inputs whose hidden sums are `sums` once `changes` are
    /// added, `B` sums at a time.
    #[inline(always)]
    fn activations_after<const H: usize, const B: usize>(
        &self,
        sums: &[f32],
        changes: &[(u32, f32)],
        hidden: &mut [f32; H],
    ) {
        for b in (0..H).step_by(B) {
            let mut s: [f32; B] = sums[b..b + B].try_into().unwrap();
            self.add_rows::<H, B>(b, changes, &mut s);
            for j in 0..B {
                hidden[b + j] = sigmoid(s[j]);
            }
        }
    }

    /// A full forward pass.
    pub fn forward(&self, x: &[f32]) -> [f32; OUTPUTS] {
        let mut sums = [0.0f32; MAX_HIDDEN];
        self.hidden_sums(x, &mut sums);
        self.outputs_from_sums(&sums)
    }

    /// One gradient step moving the outputs for `x` towards `target` under cross-entropy (the
    /// output error is `target - y` on each logit), with learning rate `alpha`. `hidden` and `y`
    /// are the activations of a forward pass on `x`.
    pub fn learn(
        &mut self,
        x: &[f32],
        hidden: &[f32],
        y: &[f32; OUTPUTS],
        target: &[f32; OUTPUTS],
        alpha: f32,
    ) {
        assert!(self.head.is_none(), "per-position steps train nets without a head");
        let h = self.hidden;
        let mut back = [0.0f32; MAX_HIDDEN];
        for k in 0..OUTPUTS {
            let delta = target[k] - y[k];
            if delta == 0.0 {
                continue;
            }
            let row = &mut self.w2[k * h..(k + 1) * h];
            for ((b, w), &a) in back.iter_mut().zip(row.iter_mut()).zip(hidden) {
                *b += delta * *w;
                *w += alpha * delta * a;
            }
            self.b2[k] += alpha * delta;
        }
        for ((b, &a), bias) in back[..h].iter_mut().zip(hidden).zip(self.b1.iter_mut()) {
            *b *= a * (1.0 - a) * alpha;
            *bias += *b;
        }
        for (i, &v) in x.iter().enumerate().take(self.inputs) {
            if v != 0.0 {
                let row = &mut self.w1[i * h..(i + 1) * h];
                for (w, &b) in row.iter_mut().zip(&back[..h]) {
                    *w += v * b;
                }
            }
        }
    }

    /// Appends the net to `out`: inputs, hidden (u32 LE), with `units` the head's units (0 for
    /// none, u32 LE), then w1, b1, w2, b2 and the head's weights (f32 LE). Without `units` the
    /// net must have no head (the format of nets before heads).
    pub fn write(&self, out: &mut Vec<u8>, units: bool) {
        assert!(units || self.head.is_none(), "a head needs the format with units");
        out.extend((self.inputs as u32).to_le_bytes());
        out.extend((self.hidden as u32).to_le_bytes());
        if units {
            out.extend((self.head.as_ref().map_or(0, Head::units) as u32).to_le_bytes());
        }
        for v in self.weights() {
            out.extend(v.to_le_bytes());
        }
    }

    /// Reads a net written by [`Network::write`] (with `units` as written) from the front of
    /// `bytes`, returning it and the rest of the bytes.
    pub fn read(bytes: &[u8], units: bool) -> Result<(Network, &[u8])> {
        let bad = |what: &str| Error::InvalidFormat(format!("net weights: {what}"));
        let word = |b: &[u8], at: usize| -> Result<u32> {
            b.get(at..at + 4)
                .map(|s| u32::from_le_bytes(s.try_into().unwrap()))
                .ok_or_else(|| bad("truncated"))
        };
        let inputs = word(bytes, 0)? as usize;
        let hidden = word(bytes, 4)? as usize;
        if inputs == 0 || inputs > MAX_INPUTS || hidden == 0 || hidden > MAX_HIDDEN {
            return Err(bad(&format!("unsupported shape {inputs} x {hidden}")));
        }
        let (start, head_units) = if units { (12, word(bytes, 8)? as usize) } else { (8, 0) };
        if head_units > MAX_UNITS {
            return Err(bad(&format!("unsupported head of {head_units} units")));
        }
        let head_count = if head_units > 0 { Head::count(head_units, hidden) } else { 0 };
        let count = inputs * hidden + hidden + OUTPUTS * hidden + OUTPUTS + head_count;
        let body = bytes.get(start..start + 4 * count).ok_or_else(|| bad("truncated"))?;
        let mut values = body.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap()));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<f32>>();
        let w1 = take(inputs * hidden);
        let b1 = take(hidden);
        let w2 = take(OUTPUTS * hidden);
        let b2: [f32; OUTPUTS] = take(OUTPUTS).try_into().unwrap();
        let head = (head_units > 0).then(|| Head::from_weights(head_units, hidden, &mut values));
        let net = Network { inputs, hidden, w1, b1, w2, b2, head };
        if net.weights().any(|v| !v.is_finite()) {
            return Err(bad("non-finite weight"));
        }
        Ok((net, &bytes[start + 4 * count..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp2_and_sigmoid_are_accurate() {
        for k in -1150..=1150 {
            let t = k as f32 / 10.0;
            let rel = (exp2(t) as f64 - (t as f64).exp2()).abs() / (t as f64).exp2();
            assert!(rel < 2e-7, "exp2({t}): {rel}");
        }
        for k in -40_000..=40_000 {
            let x = k as f32 / 1000.0;
            let want = 1.0 / (1.0 + (-(x as f64)).exp());
            let err = (sigmoid(x) as f64 - want).abs();
            assert!(err < 1.5e-7 && err / want < 3e-6, "sigmoid({x}): {err}");
        }
        // Far out, where the clamp acts, still the right end of the range.
        assert_eq!(sigmoid(200.0), 1.0);
        assert!(sigmoid(-200.0) < 1e-34);
    }

    #[test]
    fn the_direct_paths_sums_are_its_lanes_to_the_bit_in_every_build() {
        fn check<const H: usize>(seed: u64) {
            let net = Network::random(20, H, seed);
            let hidden: [f32; H] = std::array::from_fn(|i| sigmoid((i as f32 * 0.37).sin() * 3.0));
            // Lane `i` of output `k`, added up chunk by chunk as the definition reads.
            let mut want = [[0.0f32; 8]; OUTPUTS];
            for (k, lanes) in want.iter_mut().enumerate() {
                for (i, lane) in lanes.iter_mut().enumerate() {
                    for c in 0..H / 8 {
                        *lane += hidden[8 * c + i] * net.w2[k * H + 8 * c + i];
                    }
                }
            }
            let bits = |a: [[f32; 8]; OUTPUTS]| a.map(|lanes| lanes.map(f32::to_bits));
            assert_eq!(bits(direct_sums(&hidden, &net.w2)), bits(want));
            assert!(want.iter().flatten().any(|&x| x != 0.0));
            #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
            if std::is_x86_feature_detected!("avx") {
                // SAFETY: the CPU supports AVX, checked just above.
                let avx = unsafe { direct_sums_avx(&hidden, &net.w2) };
                assert_eq!(bits(avx), bits(want));
            }
        }
        check::<80>(1);
        check::<256>(2);
        check::<8>(3);
    }

    #[test]
    fn incremental_sums_match_a_full_pass() {
        let net = Network::random(20, 16, 3);
        let a: Vec<f32> = (0..20).map(|i| (i % 3) as f32 * 0.5).collect();
        let mut b = a.clone();
        b[4] = 1.0;
        b[7] = 0.0;
        let mut s = [0.0; MAX_HIDDEN];
        net.hidden_sums(&a, &mut s);
        net.update_sums(&a, &b, &mut s);
        let mut full = [0.0; MAX_HIDDEN];
        net.hidden_sums(&b, &mut full);
        for j in 0..16 {
            assert!((s[j] - full[j]).abs() < 1e-5);
        }
    }

    #[test]
    fn learning_moves_outputs_towards_the_target() {
        let mut net = Network::random(10, 8, 1);
        let x: Vec<f32> = (0..10).map(|i| (i % 2) as f32).collect();
        let target = [1.0, 0.0, 0.0, 1.0, 0.0];
        let before = net.forward(&x);
        for _ in 0..50 {
            let mut hidden = [0.0; MAX_HIDDEN];
            let y = net.forward_keeping_hidden(&x, &mut hidden);
            net.learn(&x, &hidden[..8], &y, &target, 0.5);
        }
        let after = net.forward(&x);
        for k in 0..OUTPUTS {
            assert!((after[k] - target[k]).abs() < (before[k] - target[k]).abs());
        }
    }

    #[test]
    fn weights_round_trip_and_bad_bytes_are_refused() {
        let net = Network::random(12, 8, 5);
        let mut bytes = vec![];
        net.write(&mut bytes, false);
        let (back, rest) = Network::read(&bytes, false).unwrap();
        assert_eq!(back, net);
        assert!(rest.is_empty());
        assert!(Network::read(&bytes[..bytes.len() - 1], false).is_err());
        assert!(Network::read(&[0; 8], false).is_err());
        // With a head, in the format that has room for it.
        let mut deep = net.deepened(6, 2);
        deep.head.as_mut().unwrap().out.iter_mut().enumerate().for_each(|(i, w)| *w = 0.01 * i as f32);
        let mut bytes = vec![];
        deep.write(&mut bytes, true);
        let (back, rest) = Network::read(&bytes, true).unwrap();
        assert_eq!(back, deep);
        assert!(rest.is_empty());
        assert!(Network::read(&bytes[..bytes.len() - 4], true).is_err());
    }
}
