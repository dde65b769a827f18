//! The Adam optimiser, for supervised training on batches of labelled positions.
//!
//! Plain gradient steps scale every weight's step by the same rate, so weights whose gradients
//! are small or rare (the rows of inputs that are seldom non-zero, a wide net's new units)
//! barely move while the rest would diverge at a larger rate. Adam divides each weight's step by
//! a running estimate of its own gradient's size, which lets a wide net fit labelled data far
//! better than per-position steps did at any rate tried (see `docs/training.md`).

use crate::gradient::Gradient;
use gammon_bot::net::network::Network;

/// Adam's running moments for one [`Network`], in the order of [`Network::weights`].
///
/// ```
/// use gammon_train::adam::Adam;
/// use gammon_train::gradient::Gradient;
/// use gammon_bot::net::network::{Network, MAX_HIDDEN};
/// let mut net = Network::random(3, 4, 1);
/// let x = [1.0, 0.0, 1.0];
/// let mut adam = Adam::new(&net);
/// let before = net.forward(&x)[0];
/// for _ in 0..20 {
///     let mut hidden = [0.0; MAX_HIDDEN];
///     let y = net.forward_keeping_hidden(&x, &mut hidden);
///     let mut g = Gradient::zeros(&net);
///     g.accumulate(&net, &x, &hidden[..4], &[1.0 - y[0], 0.0, 0.0, 0.0, 0.0]);
///     adam.step(&mut net, &g, 0.01);
/// }
/// assert!(net.forward(&x)[0] > before);
/// ```
#[derive(Clone, Debug)]
pub struct Adam {
    mean: Vec<f32>,
    square: Vec<f32>,
    steps: i32,
}

/// Decay of the running mean of the gradient.
const BETA1: f32 = 0.9;
/// Decay of the running mean of its square.
const BETA2: f32 = 0.999;
/// Keeps the step finite where a weight's gradient has always been zero.
const EPSILON: f32 = 1e-8;

impl Adam {
    /// Zero moments for a net shaped like `net`.
    pub fn new(net: &Network) -> Adam {
        let n = net.weights().count();
        Adam { mean: vec![0.0; n], square: vec![0.0; n], steps: 0 }
    }

    /// One step of size about `rate` per weight along `gradient`, an ascent direction (the sum of
    /// error-weighted logit gradients over a batch, as [`Gradient::accumulate`] makes it).
    pub fn step(&mut self, net: &mut Network, gradient: &Gradient, rate: f32) {
        assert_eq!(gradient.components().count(), self.mean.len(), "gradient of another shape");
        self.steps += 1;
        // The moments start at zero; these undo that bias in the first steps.
        let c1 = 1.0 - BETA1.powi(self.steps);
        let c2 = 1.0 - BETA2.powi(self.steps);
        let moments = self.mean.iter_mut().zip(self.square.iter_mut());
        for ((w, g), (m, v)) in net.weights_mut().zip(gradient.components()).zip(moments) {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *w += rate * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gammon_bot::net::network::MAX_HIDDEN;

    #[test]
    fn the_first_step_moves_each_weight_by_the_rate_along_its_gradient_sign() {
        let mut net = Network::random(4, 8, 3);
        let before: Vec<f32> = net.weights().collect();
        let x = [1.0, 0.0, 0.5, 1.0];
        let mut hidden = [0.0; MAX_HIDDEN];
        net.forward_keeping_hidden(&x, &mut hidden);
        let mut g = Gradient::zeros(&net);
        g.accumulate(&net, &x, &hidden[..8], &[0.5, -0.25, 0.0, 0.1, 0.0]);
        let mut adam = Adam::new(&net);
        adam.step(&mut net, &g, 0.01);
        for ((a, b), g) in net.weights().zip(before).zip(g.components()) {
            let expected = if g.abs() > 1e-6 { 0.01 * g.signum() } else { a - b };
            assert!((a - b - expected).abs() < 1e-4, "moved {} for gradient {g}", a - b);
        }
        // The input that was zero has a zero gradient row and did not move.
        let h = net.hidden();
        let row: Vec<f32> = net.weights().skip(h).take(h).collect();
        let old: Vec<f32> = Network::random(4, 8, 3).weights().skip(h).take(h).collect();
        assert_eq!(row, old);
    }
}
