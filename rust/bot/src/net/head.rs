//! A second hidden layer on top of a net's first, added to its outputs.
//!
//! A [`Network`](super::network::Network) maps its hidden units straight to the five output
//! logits. With a head, a second layer of `units` rectified units reads the same hidden units and
//! its own output weights add to those logits:
//!
//! ```text
//! logit_k = b2_k + sum_j w2_kj h_j + sum_m out_km max(0, b_m + sum_j w_mj h_j)
//! ```
//!
//! The direct path is kept so that a head can be grown on a trained net without changing what it
//! computes: a new head's output weights are zero ([`Head::new`]), and training lets it learn
//! what one layer could not fit (the interactions between the first layer's features). The
//! rectifier costs nothing to evaluate and keeps the layer's arithmetic exact in the same order
//! on every build.

use super::shape::{dot_onto, uniform, OUTPUTS};

/// The largest head supported (its activations live on the stack).
pub const MAX_UNITS: usize = 128;

/// A second hidden layer's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Head {
    units: usize,
    hidden: usize,
    // Public for training, which updates them in place; their lengths are fixed by the shape.
    /// From the first hidden layer, `hidden * units`, input-major like a net's first layer
    /// (`w[j * units + m]`): a pass adds one row per first-layer unit to all the sums at once.
    pub w: Vec<f32>,
    /// The units' biases, `units`.
    pub b: Vec<f32>,
    /// To the output logits, `OUTPUTS * units`, output-major.
    pub out: Vec<f32>,
}

impl Head {
    /// A head of `units` units over `hidden` first-layer units that adds nothing yet: small
    /// reproducible input weights, positive biases (so that every unit starts active and learns),
    /// zero output weights.
    pub fn new(units: usize, hidden: usize, seed: u64) -> Head {
        assert!(units > 0 && units <= MAX_UNITS && hidden > 0);
        let mut next = uniform(seed ^ 0xD1B5_4A32_D192_ED03);
        // Inputs in 0..1 summed over `hidden` units: weights of this size keep the sums of order 1.
        let scale = 1.0 / (hidden as f32).sqrt();
        let w = (0..hidden * units).map(|_| next() * scale).collect();
        Head { units, hidden, w, b: vec![0.1; units], out: vec![0.0; OUTPUTS * units] }
    }

    /// The same function with `units` units, the new ones drawn as [`Head::new`] draws them
    /// (so they add nothing until trained); no more units than it has keeps it as it is.
    pub fn widened(&self, units: usize, seed: u64) -> Head {
        if units <= self.units {
            return self.clone();
        }
        let fresh = Head::new(units, self.hidden, seed);
        let (old, mut w) = (self.units, fresh.w);
        for (row, old_row) in w.chunks_exact_mut(units).zip(self.w.chunks_exact(old)) {
            row[..old].copy_from_slice(old_row);
        }
        let mut b = fresh.b;
        b[..old].copy_from_slice(&self.b);
        let mut out = fresh.out;
        for (row, old_row) in out.chunks_exact_mut(units).zip(self.out.chunks_exact(old)) {
            row[..old].copy_from_slice(old_row);
        }
        Head { units, hidden: self.hidden, w, b, out }
    }

    /// The same function over `hidden` first-layer units, the new ones read with zero weights
    /// (so they change nothing until trained): the head of a net whose first layer is widened.
    pub fn reading(&self, hidden: usize) -> Head {
        assert!(hidden >= self.hidden);
        let mut w = Vec::with_capacity(hidden * self.units);
        w.extend_from_slice(&self.w);
        w.resize(hidden * self.units, 0.0);
        Head { units: self.units, hidden, w, b: self.b.clone(), out: self.out.clone() }
    }

    /// Number of units.
    pub fn units(&self) -> usize {
        self.units
    }

    /// Number of first-layer units it reads.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The units' activations for first-layer activations `hidden` into `act[..units]`, and the
    /// head's contribution added to the logits `z`.
    #[inline(always)]
    pub fn add_logits(&self, hidden: &[f32], act: &mut [f32], z: &mut [f32]) {
        match self.units {
            32 => self.activations_fixed::<32, 32>(hidden, act),
            64 => self.activations_fixed::<64, 64>(hidden, act),
            128 => self.activations_fixed::<128, 64>(hidden, act),
            u => {
                let act = &mut act[..u];
                act.copy_from_slice(&self.b);
                for (&a, row) in hidden[..self.hidden].iter().zip(self.w.chunks_exact(u)) {
                    for (s, &w) in act.iter_mut().zip(row) {
                        *s += a * w;
                    }
                }
                act.iter_mut().for_each(|s| *s = s.max(0.0));
            }
        }
        self.add_outputs(&act[..self.units], z);
    }

    /// The units' contribution to the logits `z`, for their activations `act`.
    #[inline(always)]
    fn add_outputs(&self, act: &[f32], z: &mut [f32]) {
        add_outputs(&self.out, act, z)
    }

    /// [`Head::add_logits`] for two candidates' first-layer activations at once, leaving their
    /// logits as two calls would to the bit: each weight read from memory serves both (the
    /// weights of a wide head do not fit in the first-level cache, and reading them is what an
    /// evaluation waits for).
    #[inline(always)]
    pub fn add_logits_pair(&self, hidden: [&[f32]; 2], z: [&mut [f32]; 2]) {
        let mut act = [[0.0f32; MAX_UNITS]; 2];
        match self.units {
            128 => self.activations_pair::<128, 32>(hidden, &mut act),
            64 => self.activations_pair::<64, 32>(hidden, &mut act),
            _ => {
                let [z0, z1] = z;
                let [a0, a1] = &mut act;
                self.add_logits(hidden[0], a0, z0);
                return self.add_logits(hidden[1], a1, z1);
            }
        }
        for (act, z) in act.iter().zip(z) {
            self.add_outputs(&act[..self.units], z);
        }
    }

    /// [`Head::add_logits_pair`] for four candidates at once: each weight read serves all four,
    /// the same values to the bit.
    #[inline(always)]
    pub fn add_logits_quad(&self, hidden: [&[f32]; 4], z: [&mut [f32]; 4]) {
        let mut act = [[0.0f32; MAX_UNITS]; 4];
        match self.units {
            128 => self.activations_quad::<128, 16>(hidden, &mut act),
            64 => self.activations_quad::<64, 16>(hidden, &mut act),
            _ => {
                let [z0, z1, z2, z3] = z;
                self.add_logits_pair([hidden[0], hidden[1]], [z0, z1]);
                return self.add_logits_pair([hidden[2], hidden[3]], [z2, z3]);
            }
        }
        for (act, z) in act.iter().zip(z) {
            self.add_outputs(&act[..self.units], z);
        }
    }

    /// [`Head::activations_pair`] of four candidates, `B` units of each at a time (sixteen, so
    /// that the sums of all four fit in AVX2's registers too).
    #[inline(always)]
    fn activations_quad<const U: usize, const B: usize>(
        &self,
        hidden: [&[f32]; 4],
        act: &mut [[f32; MAX_UNITS]; 4],
    ) {
        let [h0, h1, h2, h3] = hidden.map(|h| &h[..self.hidden]);
        for b in (0..U).step_by(B) {
            let mut s: [[f32; B]; 4] = [self.b[b..b + B].try_into().unwrap(); 4];
            let inputs = h0.iter().zip(h1).zip(h2).zip(h3);
            for ((((&a0, &a1), &a2), &a3), row) in inputs.zip(self.w.chunks_exact(U)) {
                let row: &[f32; B] = row[b..b + B].try_into().unwrap();
                for m in 0..B {
                    s[0][m] += a0 * row[m];
                    s[1][m] += a1 * row[m];
                    s[2][m] += a2 * row[m];
                    s[3][m] += a3 * row[m];
                }
            }
            for c in 0..4 {
                for m in 0..B {
                    act[c][b + m] = s[c][m].max(0.0);
                }
            }
        }
    }

    /// [`Head::activations_fixed`] of two candidates, `B` units of both at a time.
    ///
    /// Kept apart from it on purpose: one function generic in the number of candidates gave the
    /// same values, but the compiler no longer kept the sums in registers, and a rollout game of
    /// the `net` policy took more than twice the instructions.
    #[inline(always)]
    fn activations_pair<const U: usize, const B: usize>(
        &self,
        hidden: [&[f32]; 2],
        act: &mut [[f32; MAX_UNITS]; 2],
    ) {
        for b in (0..U).step_by(B) {
            let mut s: [[f32; B]; 2] = [self.b[b..b + B].try_into().unwrap(); 2];
            let inputs = hidden[0][..self.hidden].iter().zip(&hidden[1][..self.hidden]);
            for ((&a0, &a1), row) in inputs.zip(self.w.chunks_exact(U)) {
                let row: &[f32; B] = row[b..b + B].try_into().unwrap();
                for m in 0..B {
                    s[0][m] += a0 * row[m];
                    s[1][m] += a1 * row[m];
                }
            }
            for c in 0..2 {
                for m in 0..B {
                    act[c][b + m] = s[c][m].max(0.0);
                }
            }
        }
    }

    /// [`Head::add_logits`]'s activations for a number of units known when compiling, `B` units
    /// at a time so that their sums stay in registers: the same sums in the same order as the
    /// general code.
    #[inline(always)]
    fn activations_fixed<const U: usize, const B: usize>(&self, hidden: &[f32], act: &mut [f32]) {
        for b in (0..U).step_by(B) {
            let mut s: [f32; B] = self.b[b..b + B].try_into().unwrap();
            for (&a, row) in hidden[..self.hidden].iter().zip(self.w.chunks_exact(U)) {
                let row: &[f32; B] = row[b..b + B].try_into().unwrap();
                for m in 0..B {
                    s[m] += a * row[m];
                }
            }
            for m in 0..B {
                act[b + m] = s[m].max(0.0);
            }
        }
    }

    /// Every weight, in the order of the file format: w, b, out.
    pub fn weights(&self) -> impl Iterator<Item = f32> + '_ {
        self.w.iter().chain(&self.b).chain(&self.out).copied()
    }

    /// [`Head::weights`], to change in place.
    pub fn weights_mut(&mut self) -> impl Iterator<Item = &mut f32> + '_ {
        self.w.iter_mut().chain(&mut self.b).chain(&mut self.out)
    }

    /// How many weights a head of this shape has.
    pub fn count(units: usize, hidden: usize) -> usize {
        hidden * units + units + OUTPUTS * units
    }

    /// The head read from `values` (in the order of [`Head::weights`]).
    pub fn from_weights(units: usize, hidden: usize, values: &mut impl Iterator<Item = f32>) -> Head {
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<f32>>();
        let w = take(hidden * units);
        let b = take(units);
        let out = take(OUTPUTS * units);
        Head { units, hidden, w, b, out }
    }
}

/// A head's contribution to the logits `z`: output weights `out` (`OUTPUTS * units`,
/// output-major) times the units' activations `act` (`units` of them). Shared with the head in
/// integers, whose output layer is this one's.
#[inline(always)]
pub(super) fn add_outputs(out: &[f32], act: &[f32], z: &mut [f32]) {
    let units = act.len();
    for (k, zk) in z[..OUTPUTS].iter_mut().enumerate() {
        *zk += dot_onto(0.0, &out[k * units..(k + 1) * units], act);
    }
}
