//! Error-weighted gradients of a [`Network`]'s outputs, summed over positions and applied at once.
//!
//! Training moves each of the five outputs along the gradient of its logit (the sum before the
//! sigmoid) times that output's error, `target - y`: for a sigmoid output under cross-entropy,
//! that is the gradient of the log-likelihood of the target. [`Network::learn`] takes that step
//! for one position right away; a [`Gradient`] keeps the sum over many positions instead, to be
//! applied once with [`Apply::apply`] (a step on a batch of positions), and is the layout of
//! the eligibility traces of TD(lambda) ([`crate::traces`]).

use gammon_bot::net::head::MAX_UNITS;
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
    /// The head's, laid out like its weights (all empty for a net without one): `hidden *
    /// units` input-major, `units`, `OUTPUTS * units` output-major.
    head_w: Vec<f32>,
    head_b: Vec<f32>,
    head_out: Vec<f32>,
}

impl Gradient {
    /// The zero gradient for nets shaped like `net`.
    pub fn zeros(net: &Network) -> Gradient {
        let (inputs, hidden) = (net.inputs(), net.hidden());
        let units = net.head.as_ref().map_or(0, |h| h.units());
        Gradient {
            inputs,
            hidden,
            w1: vec![0.0; inputs * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; OUTPUTS * hidden],
            b2: [0.0; OUTPUTS],
            head_w: vec![0.0; units * hidden],
            head_b: vec![0.0; units],
            head_out: vec![0.0; OUTPUTS * units],
        }
    }

    /// Adds `sum over k of error[k] * (gradient of output k's logit)` at inputs `x`, where `hidden`
    /// is the hidden layer of `net`'s forward pass on `x`. With `error = target - y` this is the
    /// direction [`Network::learn`] steps in.
    pub fn accumulate(&mut self, net: &Network, x: &[f32], hidden: &[f32], error: &[f32; OUTPUTS]) {
        let mut act = [0.0f32; MAX_UNITS];
        if let Some(head) = &net.head {
            head.add_logits(hidden, &mut act, &mut [0.0; OUTPUTS]);
        }
        self.accumulate_kept(net, x, hidden, &act, error);
    }

    /// [`Gradient::accumulate`] given the head's activations `act` as well (from
    /// [`Network::forward_keeping_all`]; ignored for a net without a head), which saves
    /// computing them again: the same sum to the bit.
    pub fn accumulate_kept(
        &mut self,
        net: &Network,
        x: &[f32],
        hidden: &[f32],
        act: &[f32],
        error: &[f32; OUTPUTS],
    ) {
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
        if let Some(head) = &net.head {
            let u = head.units();
            assert_eq!(self.head_b.len(), u, "gradient of another shape");
            for (k, &e) in error.iter().enumerate() {
                for (g, &a) in self.head_out[k * u..(k + 1) * u].iter_mut().zip(&act[..u]) {
                    *g += e * a;
                }
            }
            // The error reaching each unit's sum; a rectified unit passes none where it is off.
            let mut d = [0.0f32; MAX_UNITS];
            for (m, (d, &a)) in d.iter_mut().zip(&act[..u]).enumerate() {
                if a > 0.0 {
                    *d = (0..OUTPUTS).map(|k| error[k] * head.out[k * u + m]).sum();
                }
            }
            for (g, &d) in self.head_b.iter_mut().zip(&d[..u]) {
                *g += d;
            }
            let rows = head.w.chunks_exact(u).zip(self.head_w.chunks_exact_mut(u));
            for ((b, &a), (weights, grad)) in back[..h].iter_mut().zip(hidden).zip(rows) {
                for ((g, &w), &d) in grad.iter_mut().zip(weights).zip(&d[..u]) {
                    *b += d * w;
                    *g += d * a;
                }
            }
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
        assert_eq!(other.head_b.len(), self.head_b.len(), "gradient of another shape");
        for (g, o) in self.components_mut().zip(other.components()) {
            *g += factor * o;
        }
    }

    /// Multiplies every component by `factor`.
    pub fn scale(&mut self, factor: f32) {
        for g in self.components_mut() {
            *g *= factor;
        }
    }

    /// The components in the order of the net's weights: w1, b1, w2, b2, then the head's.
    pub fn components(&self) -> impl Iterator<Item = f32> + '_ {
        let head = self.head_w.iter().chain(&self.head_b).chain(&self.head_out);
        self.w1.iter().chain(&self.b1).chain(&self.w2).chain(&self.b2).chain(head).copied()
    }

    /// [`Gradient::components`], to change in place.
    fn components_mut(&mut self) -> impl Iterator<Item = &mut f32> + '_ {
        let head = self.head_w.iter_mut().chain(&mut self.head_b).chain(&mut self.head_out);
        self.w1.iter_mut().chain(&mut self.b1).chain(&mut self.w2).chain(&mut self.b2).chain(head)
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
            gradient.inputs == self.inputs()
                && gradient.hidden == self.hidden()
                && gradient.head_b.len() == self.head.as_ref().map_or(0, |h| h.units()),
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
        let head: Vec<f64> = net.head.as_ref().map_or(vec![], |head| {
            (0..head.units())
                .map(|m| {
                    let units = head.units();
                    let u = head.b[m] as f64
                        + (0..h).map(|j| head.w[j * units + m] as f64 * hidden[j]).sum::<f64>();
                    u.max(0.0)
                })
                .collect()
        });
        std::array::from_fn(|k| {
            let u = head.len();
            let from_head: f64 = net
                .head
                .as_ref()
                .map_or(0.0, |hd| (0..u).map(|m| hd.out[k * u + m] as f64 * head[m]).sum::<f64>());
            net.b2[k] as f64 + (0..h).map(|j| net.w2[k * h + j] as f64 * hidden[j]).sum::<f64>() + from_head
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

    /// [`test_net`] with a head of three units, one of them off at the test's inputs, and
    /// output weights that are not zero.
    fn deep_test_net(inputs: usize, hidden: usize) -> Network {
        let mut net = test_net(inputs, hidden).deepened(3, 5);
        let head = net.head.as_mut().unwrap();
        head.w.iter_mut().for_each(|w| *w *= 4.0);
        head.b = vec![0.4, -5.0, 0.1];
        head.out.iter_mut().enumerate().for_each(|(i, w)| *w = 0.3 - 0.07 * i as f32);
        net
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        check_gradient(&test_net(6, 4));
    }

    #[test]
    fn the_gradient_with_a_head_matches_finite_differences() {
        let net = deep_test_net(6, 4);
        check_gradient(&net);
        // Training a copy moves every part of the head that is switched on.
        let x = [1.0, 0.0, 0.5, 2.0, 0.0, 0.25];
        let (hidden, _) = forward(&net, &x);
        let mut g = Gradient::zeros(&net);
        g.accumulate(&net, &x, &hidden, &[0.5, 0.1, 0.0, -0.2, 0.0]);
        assert!(g.head_out.iter().any(|&v| v != 0.0) && g.head_w.iter().any(|&v| v != 0.0));
    }

    fn check_gradient(net: &Network) {
        let net = net.clone();
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
        learned.write(&mut a, false);
        applied.write(&mut b, false);
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

    #[test]
    fn kept_head_activations_give_the_same_gradient() {
        let net = deep_test_net(6, 8);
        let x = [1.0, 0.0, 0.5, 0.25, 0.0, 1.0];
        let (mut hidden, mut act) = ([0.0; MAX_HIDDEN], [0.0; MAX_UNITS]);
        let y = net.forward_keeping_all(&x, &mut hidden, &mut act);
        assert_eq!(y, net.forward(&x));
        assert!(act[..3].iter().any(|&a| a > 0.0));
        let error = [0.5, -0.1, 0.0, 0.2, 0.3];
        let (mut recomputed, mut kept) = (Gradient::zeros(&net), Gradient::zeros(&net));
        recomputed.accumulate(&net, &x, &hidden[..8], &error);
        kept.accumulate_kept(&net, &x, &hidden[..8], &act, &error);
        assert_eq!(recomputed, kept);
        assert!(kept.head_w.iter().any(|&g| g != 0.0));
    }
}
