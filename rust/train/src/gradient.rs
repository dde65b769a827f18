//! Error-weighted gradients of a [`Network`]'s outputs, summed over positions and applied at once.
//!
//! Training moves each of the five outputs along the gradient of its logit (the sum before the
//! sigmoid) times that output's error, `target - y`: for a sigmoid output under cross-entropy,
//! that is the gradient of the log-likelihood of the target. [`Network::learn`] takes that step
//! for one position right away; a [`Gradient`] keeps the sum over many positions instead, to be
//! applied once with [`Apply::apply`] (a step on a batch of positions), and is the layout of
//! the eligibility traces of TD(lambda) ([`crate::traces`]).

use gammon_bot::net::network::{Network, MAX_HIDDEN, OUTPUTS};

/// A sum of error-weighted logit gradients, laid out like the weights of the [`Network`] it was
/// made for.
///
/// ```
/// use gammon_train::gradient::{Apply, Gradient};
/// use gammon_bot::net::network::{Network, MAX_HIDDEN};
/// let mut net = Network::random(4, 3, 1);
/// let x = [1.0, 0.0, 0.5, 0.0];
/// let (mut sums, mut hidden) = ([0.0; MAX_HIDDEN], [0.0; MAX_HIDDEN]);
/// net.hidden_sums(&x, &mut sums);
/// net.activate(&sums, &mut hidden);
/// let before = net.outputs(&hidden[..3]);
/// let mut g = Gradient::zeros(&net);
/// // Raise the first output, leave the others.
/// g.accumulate(&net, &x, &hidden[..3], &[1.0, 0.0, 0.0, 0.0, 0.0]);
/// net.apply(&g, 0.1);
/// let after = net.forward(&x);
/// assert!(after[0] > before[0]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Gradient {
    inputs: usize,
    hidden: usize,
    /// `inputs * hidden`, input-major like the net's.
    pub(super) w1: Vec<f32>,
    pub(super) b1: Vec<f32>,
    /// `OUTPUTS * hidden`, output-major.
    pub(super) w2: Vec<f32>,
    pub(super) b2: [f32; OUTPUTS],
}

impl Gradient {
    /// The zero gradient for nets shaped like `net`.
    pub fn zeros(net: &Network) -> Gradient {
        let (inputs, hidden) = (net.inputs(), net.hidden());
        Gradient {
            inputs,
            hidden,
            w1: vec![0.0; inputs * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; OUTPUTS * hidden],
            b2: [0.0; OUTPUTS],
        }
    }

    /// Adds `sum over k of error[k] * (gradient of output k's logit)` at inputs `x`, where `hidden`
    /// is the hidden layer of `net`'s forward pass on `x`. With `error = target - y` this is the
    /// direction [`Network::learn`] steps in.
    pub fn accumulate(&mut self, net: &Network, x: &[f32], hidden: &[f32], error: &[f32; OUTPUTS]) {
        assert!(net.inputs() == self.inputs && net.hidden() == self.hidden, "gradient of another shape");
        let h = self.hidden;
        // The error reaching each hidden unit's output, then its sum (through the sigmoid).
        let mut back = [0.0f32; MAX_HIDDEN];
        for (k, &e) in error.iter().enumerate() {
            if e == 0.0 {
                continue;
            }
            let weights = &net.w2[k * h..(k + 1) * h];
            let grad = &mut self.w2[k * h..(k + 1) * h];
            for (((b, g), &w), &a) in back.iter_mut().zip(grad).zip(weights).zip(hidden) {
                *b += e * w;
                *g += e * a;
            }
            self.b2[k] += e;
        }
        for ((b, &a), g) in back[..h].iter_mut().zip(hidden).zip(self.b1.iter_mut()) {
            *b *= a * (1.0 - a);
            *g += *b;
        }
        for (i, &v) in x.iter().enumerate().take(self.inputs) {
            if v != 0.0 {
                let row = &mut self.w1[i * h..(i + 1) * h];
                for (g, &b) in row.iter_mut().zip(&back[..h]) {
                    *g += v * b;
                }
            }
        }
    }

    /// Adds `factor` times `other` (of the same shape).
    pub fn add_scaled(&mut self, other: &Gradient, factor: f32) {
        assert!(other.inputs == self.inputs && other.hidden == self.hidden, "gradient of another shape");
        let ours = self.w1.iter_mut().chain(&mut self.b1).chain(&mut self.w2).chain(&mut self.b2);
        let theirs = other.w1.iter().chain(&other.b1).chain(&other.w2).chain(&other.b2);
        for (g, &o) in ours.zip(theirs) {
            *g += factor * o;
        }
    }

    /// Multiplies every component by `factor`.
    pub fn scale(&mut self, factor: f32) {
        for g in self.w1.iter_mut().chain(&mut self.b1).chain(&mut self.w2).chain(&mut self.b2) {
            *g *= factor;
        }
    }

    /// The components in the order of the net's weights: w1, b1, w2, b2.
    pub fn components(&self) -> impl Iterator<Item = f32> + '_ {
        self.w1.iter().chain(&self.b1).chain(&self.w2).chain(&self.b2).copied()
    }
}

/// Steps a [`Network`] along a [`Gradient`]. A trait, because the network belongs to the bot and
/// its training only to this crate.
pub trait Apply {
    /// Moves the weights by `alpha` times `gradient` (made for a net of this shape).
    fn apply(&mut self, gradient: &Gradient, alpha: f32);
}

impl Apply for Network {
    fn apply(&mut self, gradient: &Gradient, alpha: f32) {
        assert!(
            gradient.inputs == self.inputs() && gradient.hidden == self.hidden(),
            "gradient of another shape"
        );
        for (w, g) in self.weights_mut().zip(gradient.components()) {
            *w += alpha * g;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The logits of `net` at `x`, in f64 with an exact sigmoid: the reference for finite
    /// differences.
    fn logits(net: &Network, x: &[f32]) -> [f64; OUTPUTS] {
        let h = net.hidden();
        let hidden: Vec<f64> = (0..h)
            .map(|j| {
                let s = net.b1[j] as f64
                    + x.iter().enumerate().map(|(i, &v)| v as f64 * net.w1[i * h + j] as f64).sum::<f64>();
                1.0 / (1.0 + (-s).exp())
            })
            .collect();
        std::array::from_fn(|k| {
            net.b2[k] as f64 + (0..h).map(|j| net.w2[k * h + j] as f64 * hidden[j]).sum::<f64>()
        })
    }

    fn forward(net: &Network, x: &[f32]) -> (Vec<f32>, [f32; OUTPUTS]) {
        let mut hidden = [0.0; MAX_HIDDEN];
        let y = net.forward_keeping_hidden(x, &mut hidden);
        (hidden[..net.hidden()].to_vec(), y)
    }

    /// A net with larger weights than `Network::random` gives, so that no gradient is tiny.
    fn test_net(inputs: usize, hidden: usize) -> Network {
        let mut net = Network::random(inputs, hidden, 7);
        net.w1.iter_mut().chain(&mut net.w2).for_each(|w| *w *= 8.0);
        net.b1.iter_mut().enumerate().for_each(|(j, b)| *b = 0.3 - 0.1 * j as f32);
        net.b2 = [0.2, -0.4, -1.0, -0.3, -0.9];
        net
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let net = test_net(6, 4);
        let x = [1.0, 0.0, 0.5, 2.0, 0.0, 0.25];
        let (hidden, _) = forward(&net, &x);
        let error = [0.7, -0.3, 0.2, 0.5, -0.6];
        let mut g = Gradient::zeros(&net);
        g.accumulate(&net, &x, &hidden, &error);
        // The derivative of sum_k error[k] * logit_k with respect to each weight in turn, by
        // central differences on an f64 copy of the weights.
        let weighted =
            |net: &Network| logits(net, &x).iter().zip(error).map(|(z, e)| z * e as f64).sum::<f64>();
        let count = g.components().count();
        for (n, analytic) in g.components().enumerate() {
            let step = 1e-3f32;
            let mut up = net.clone();
            let mut down = net.clone();
            let (u, d) = (weight_mut(&mut up, n), weight_mut(&mut down, n));
            let w = *u;
            *u = w + step;
            *d = w - step;
            let numeric = (weighted(&up) - weighted(&down)) / ((w + step) as f64 - (w - step) as f64);
            assert!(
                (numeric - analytic as f64).abs() < 1e-4 * (1.0 + numeric.abs()),
                "weight {n} of {count}: {numeric} vs {analytic}"
            );
        }
        // Inputs at zero contribute nothing to their rows.
        assert!(g.w1[4..8].iter().chain(&g.w1[16..20]).all(|&v| v == 0.0));
    }

    /// The `n`-th weight in the order of [`Gradient::components`].
    fn weight_mut(net: &mut Network, n: usize) -> &mut f32 {
        net.weights_mut().nth(n).unwrap()
    }

    #[test]
    fn one_applied_step_is_a_learn_step() {
        let net = test_net(10, 8);
        let x: Vec<f32> = (0..10).map(|i| (i % 3) as f32 * 0.5).collect();
        let (hidden, y) = forward(&net, &x);
        let target = [1.0, 0.0, 0.0, 1.0, 0.4];
        let mut learned = net.clone();
        learned.learn(&x, &hidden, &y, &target, 0.3);
        let mut g = Gradient::zeros(&net);
        g.accumulate(&net, &x, &hidden, &std::array::from_fn(|k| target[k] - y[k]));
        let mut applied = net.clone();
        applied.apply(&g, 0.3);
        let mut a = vec![];
        let mut b = vec![];
        learned.write(&mut a);
        applied.write(&mut b);
        assert_ne!(learned, net);
        // The same sums, multiplied in another order: equal up to rounding.
        for (u, v) in a[8..].chunks(4).zip(b[8..].chunks(4)) {
            let (u, v) =
                (f32::from_le_bytes(u.try_into().unwrap()), f32::from_le_bytes(v.try_into().unwrap()));
            assert!((u - v).abs() <= 1e-6 * (1.0 + u.abs()), "{u} vs {v}");
        }
    }

    #[test]
    fn sums_scale_and_add() {
        let net = test_net(5, 3);
        let x = [0.0, 1.0, 0.0, 0.5, 1.0];
        let (hidden, _) = forward(&net, &x);
        let mut once = Gradient::zeros(&net);
        once.accumulate(&net, &x, &hidden, &[0.5, 0.0, -0.25, 0.0, 1.0]);
        let mut twice = once.clone();
        twice.accumulate(&net, &x, &hidden, &[0.5, 0.0, -0.25, 0.0, 1.0]);
        let mut doubled = once.clone();
        doubled.scale(2.0);
        assert_eq!(twice, doubled);
        let mut sum = Gradient::zeros(&net);
        sum.add_scaled(&once, 2.0);
        assert_eq!(sum, doubled);
    }
}
