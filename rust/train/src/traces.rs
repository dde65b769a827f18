//! Eligibility traces for TD(lambda) on one [`Network`], learning online.
//!
//! Self-play positions alternate sides: each is seen by the player on roll, so the value of a
//! position is the next position's value turned around ([`Probabilities::flipped`]). TD(lambda)
//! keeps one trace per output `k`, a decaying sum of past gradients of that output's logit.
//! At each position the traces decay by `lambda` and are turned around like the values (the win
//! trace changes sign, the gammon traces and the backgammon traces trade places, see
//! [`turned`]), then trace `k` gains the gradient of output `k`'s logit there. The position's TD
//! error `d` (`target - y` on each output) then moves the weights by `alpha * sum_k d[k] * e[k]`.
//!
//! With `lambda = 0` a step is [`Network::learn`]'s. With the weights held still, the steps of a
//! game add up to the lambda-return's: each position's own gradient times its error plus
//! `lambda` times the next position's turned error, and so on.
//!
//! [`Probabilities::flipped`]: gammon_bot::Probabilities::flipped

use crate::gradient::Gradient;
use gammon_bot::net::network::{Network, MAX_HIDDEN, OUTPUTS};

/// An error (or a trace) of one side's outputs seen by the other side: the win part changes sign,
/// the gammon and backgammon parts trade places (as [`Probabilities::flipped`] turns values
/// around, without its constant part).
///
/// ```
/// use gammon_train::traces::turned;
/// assert_eq!(turned(&[0.1, 0.2, 0.3, 0.4, 0.5]), [-0.1, 0.4, 0.5, 0.2, 0.3]);
/// ```
///
/// [`Probabilities::flipped`]: gammon_bot::Probabilities::flipped
pub fn turned(error: &[f32; OUTPUTS]) -> [f32; OUTPUTS] {
    [-error[0], error[3], error[4], error[1], error[2]]
}

/// The eligibility traces of one net during one game.
#[derive(Clone, Debug)]
pub struct Traces {
    /// Trace `k`: the decayed, turned sum of the gradients of output `k`'s logit.
    traces: [Gradient; OUTPUTS],
    /// The first-layer rows that may be non-zero: those of inputs non-zero since the last reset
    /// (most inputs are zero in most positions, so the other rows need no work).
    live: Vec<bool>,
    rows: Vec<usize>,
}

impl Traces {
    /// Empty traces for `net`.
    pub fn new(net: &Network) -> Traces {
        Traces {
            traces: std::array::from_fn(|_| Gradient::zeros(net)),
            live: vec![false; net.inputs()],
            rows: Vec::with_capacity(net.inputs()),
        }
    }

    /// Empties the traces (at the start of a game).
    pub fn reset(&mut self) {
        let h = self.traces[0].b1.len();
        for t in &mut self.traces {
            for &i in &self.rows {
                t.w1[i * h..(i + 1) * h].fill(0.0);
            }
            t.b1.fill(0.0);
            t.w2.fill(0.0);
            t.b2 = [0.0; OUTPUTS];
        }
        self.rows.iter().for_each(|&i| self.live[i] = false);
        self.rows.clear();
    }

    /// One step of TD(lambda) at a position with inputs `x`, for which `hidden` is `net`'s hidden
    /// layer and `error` the TD error (`target - y` on each output): turns the traces around and
    /// decays them by `lambda`, adds the position's logit gradients, then moves `net`'s weights by
    /// `alpha * sum_k error[k] * trace[k]`.
    pub fn step(
        &mut self,
        net: &mut Network,
        x: &[f32],
        hidden: &[f32],
        error: &[f32; OUTPUTS],
        lambda: f32,
        alpha: f32,
    ) {
        assert!(net.head.is_none(), "TD(lambda) trains nets without a head");
        let h = net.hidden();
        assert!(self.live.len() == net.inputs() && self.traces[0].b1.len() == h, "traces of another net");
        self.traces.swap(1, 3);
        self.traces.swap(2, 4);
        let decay = [-lambda, lambda, lambda, lambda, lambda];
        let rate = error.map(|e| alpha * e);
        let hidden = &hidden[..h];
        // What output k's logit gains per unit of each hidden sum, with the weights before the step.
        let mut back = [[0.0f32; MAX_HIDDEN]; OUTPUTS];
        for (k, b) in back.iter_mut().enumerate() {
            for ((b, &w), &a) in b.iter_mut().zip(&net.w2[k * h..(k + 1) * h]).zip(hidden) {
                *b = w * a * (1.0 - a);
            }
        }
        // The output layer: output k's logit depends on its own row of w2 and its own bias only.
        for (k, t) in self.traces.iter_mut().enumerate() {
            for (o, row) in t.w2.chunks_exact_mut(h).enumerate() {
                let own = if o == k { 1.0 } else { 0.0 };
                for (e, &a) in row.iter_mut().zip(hidden) {
                    *e = decay[k] * *e + own * a;
                }
                t.b2[o] = decay[k] * t.b2[o] + own;
            }
            for (e, &b) in t.b1.iter_mut().zip(&back[k][..h]) {
                *e = decay[k] * *e + b;
            }
        }
        for (k, t) in self.traces.iter().enumerate() {
            for (w, &e) in net.w2.iter_mut().zip(&t.w2) {
                *w += rate[k] * e;
            }
            for (w, &e) in net.b2.iter_mut().zip(&t.b2) {
                *w += rate[k] * e;
            }
            for (w, &e) in net.b1.iter_mut().zip(&t.b1) {
                *w += rate[k] * e;
            }
        }
        // The first layer, row by row over the live inputs, all five traces at once.
        for (i, &v) in x.iter().enumerate().take(net.inputs()) {
            if v != 0.0 && !self.live[i] {
                self.live[i] = true;
                self.rows.push(i);
            }
        }
        let [t0, t1, t2, t3, t4] = &mut self.traces;
        for &i in &self.rows {
            let v = x[i];
            let r = i * h..(i + 1) * h;
            let (e0, e1, e2) = (&mut t0.w1[r.clone()], &mut t1.w1[r.clone()], &mut t2.w1[r.clone()]);
            let (e3, e4) = (&mut t3.w1[r.clone()], &mut t4.w1[r.clone()]);
            let w = &mut net.w1[r];
            for j in 0..h {
                let n0 = decay[0] * e0[j] + v * back[0][j];
                let n1 = decay[1] * e1[j] + v * back[1][j];
                let n2 = decay[2] * e2[j] + v * back[2][j];
                let n3 = decay[3] * e3[j] + v * back[3][j];
                let n4 = decay[4] * e4[j] + v * back[4][j];
                (e0[j], e1[j], e2[j], e3[j], e4[j]) = (n0, n1, n2, n3, n4);
                w[j] += rate[0] * n0 + rate[1] * n1 + rate[2] * n2 + rate[3] * n3 + rate[4] * n4;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gradient::Apply;

    fn forward(net: &Network, x: &[f32]) -> (Vec<f32>, [f32; OUTPUTS]) {
        let mut hidden = [0.0; MAX_HIDDEN];
        let y = net.forward_keeping_hidden(x, &mut hidden);
        (hidden[..net.hidden()].to_vec(), y)
    }

    fn close(a: impl Iterator<Item = f32>, b: impl Iterator<Item = f32>, what: &str) {
        for (n, (u, v)) in a.zip(b).enumerate() {
            assert!((u - v).abs() <= 2e-6 * (1.0 + v.abs()), "{what} {n}: {u} vs {v}");
        }
    }

    /// Sparse inputs that change from position to position, as a game's do.
    fn inputs(t: usize, n: usize) -> Vec<f32> {
        (0..n).map(|i| if (i * 7 + t * 3) % 5 < 2 { ((i + t) % 4) as f32 * 0.5 } else { 0.0 }).collect()
    }

    #[test]
    fn a_first_step_is_a_learn_step() {
        for lambda in [0.0, 0.7] {
            let mut net = Network::random(12, 6, 3);
            net.w1.iter_mut().chain(&mut net.w2).for_each(|w| *w *= 10.0);
            let x = inputs(1, 12);
            let (hidden, y) = forward(&net, &x);
            let target = [1.0, 0.6, 0.1, 0.0, 0.0];
            let mut learned = net.clone();
            learned.learn(&x, &hidden, &y, &target, 0.2);
            let mut traces = Traces::new(&net);
            traces.step(&mut net, &x, &hidden, &std::array::from_fn(|k| target[k] - y[k]), lambda, 0.2);
            close(net.weights(), learned.weights(), "weight");
        }
    }

    #[test]
    fn steps_follow_the_definition() {
        // Each step, from the traces and weights before it: trace k becomes lambda times the
        // turned-around traces plus output k's logit gradient, and the weights move by alpha
        // times the error-weighted traces. The references are `Gradient`'s, checked against
        // finite differences.
        let (n, h, lambda, alpha) = (14, 5, 0.7, 0.3);
        let mut net = Network::random(n, h, 9);
        net.w1.iter_mut().chain(&mut net.w2).for_each(|w| *w *= 10.0);
        let mut traces = Traces::new(&net);
        for t in 0..12 {
            if t == 8 {
                traces.reset();
                assert!(traces.traces.iter().all(|g| g.components().all(|v| v == 0.0)));
            }
            let x = inputs(t, n);
            let (hidden, y) = forward(&net, &x);
            let target = [(t % 2) as f32, 0.3, 0.0, 0.5, 0.2];
            let error: [f32; OUTPUTS] = std::array::from_fn(|k| target[k] - y[k]);
            let before = (net.clone(), traces.traces.clone());
            traces.step(&mut net, &x, &hidden, &error, lambda, alpha);
            // Where turning around takes each trace from, and with which sign.
            let turn = turned(&[1.0, 2.0, 3.0, 4.0, 5.0]);
            let from = turn.map(|v| v.abs() as usize - 1);
            let sign = turn.map(f32::signum);
            let mut expected_net = before.0.clone();
            for k in 0..OUTPUTS {
                let mut unit = [0.0; OUTPUTS];
                unit[k] = 1.0;
                let mut expected = Gradient::zeros(&before.0);
                expected.accumulate(&before.0, &x, &hidden, &unit);
                expected.add_scaled(&before.1[from[k]], sign[k] * lambda);
                close(traces.traces[k].components(), expected.components(), &format!("step {t} trace {k}"));
                expected.scale(error[k]);
                expected_net.apply(&expected, alpha);
            }
            close(net.weights(), expected_net.weights(), &format!("step {t} weight"));
        }
    }

    #[test]
    fn turned_errors_are_differences_of_flipped_values() {
        let e = [0.1, -0.2, 0.3, 0.4, -0.5];
        assert_eq!(turned(&turned(&e)), e);
        let a = gammon_bot::Probabilities::from_array([0.6, 0.2, 0.05, 0.1, 0.01]);
        let b = gammon_bot::Probabilities::from_array([0.5, 0.4, 0.35, 0.5, 0.01]);
        let diff = |p: [f64; 5], q: [f64; 5]| -> [f32; 5] { std::array::from_fn(|k| (p[k] - q[k]) as f32) };
        let before = diff(a.to_array(), b.to_array());
        let after = diff(a.flipped().to_array(), b.flipped().to_array());
        close(turned(&before).into_iter(), after.into_iter(), "output");
    }
}
