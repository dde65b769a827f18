//! Money-play cube equities: Janowski's formulas.
//!
//! With `W` and `L` the average points of a win and of a loss (1 for a plain game, more with
//! gammons) and `p` the chance of winning, a dead cube is worth `pW - (1-p)L`. A fully live cube
//! lets its owner cash at the point where the opponent's take is marginal, `(L + 1) / (W + L +
//! 1/2)`, and the opponent's owned cube cashes at `(L - 1/2) / (W + L + 1/2)`; between those
//! points equity is linear; beyond them it heads for the game played out (`-L` at `p = 0`, `W` at
//! `p = 1`), since a player too good to double plays on for the gammon. The cubeful equity mixes the two as `x live + (1 - x) dead`.

use super::{outcome_shares, CubeContext, CubeOwner};
use crate::bearoff::two_sided;
use crate::Probabilities;
use gammon_backgammon::board::Position;

/// Average points of a win and of a loss: `(W, L)`.
pub fn win_loss_values(probs: &Probabilities) -> (f64, f64) {
    let (w, l) = outcome_shares(probs);
    let avg = |s: [f64; 3]| s[0] + 2.0 * s[1] + 3.0 * s[2];
    (avg(w), avg(l))
}

/// Equity per unit stake with a dead cube.
pub fn dead(p: f64, w: f64, l: f64) -> f64 {
    p * w - (1.0 - p) * l
}

/// Equity per unit stake with a fully live cube that `owner` holds: linear between the cash
/// points, and beyond them linear towards the game played out (`-L` at `p = 0`, `W` at `p = 1`),
/// since a player too good to double plays on for the gammon.
pub fn live(p: f64, w: f64, l: f64, owner: CubeOwner) -> f64 {
    live_to(p, w, l, owner, (-l, w))
}

/// [`live`] with the played-out ends given apart from the cash points: under the Jacoby rule a
/// centred cube's game played out is worth -1 or +1, while the cash points, reached by turning
/// the cube, still see gammons.
fn live_to(p: f64, w: f64, l: f64, owner: CubeOwner, ends: (f64, f64)) -> f64 {
    let span = w + l + 0.5;
    let their_cash = (l - 0.5) / span;
    let our_cash = (l + 1.0) / span;
    let left = if owner == CubeOwner::Us { (0.0, ends.0) } else { (their_cash, -1.0) };
    let right = if owner == CubeOwner::Them { (1.0, ends.1) } else { (our_cash, 1.0) };
    polyline(p, &[(0.0, ends.0), left, right, (1.0, ends.1)])
}

/// The piecewise linear function through `points` (increasing in x, repeated points allowed).
pub(crate) fn polyline(p: f64, points: &[(f64, f64)]) -> f64 {
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        if p <= x1 {
            return if x1 > x0 { y0 + (y1 - y0) * (p - x0) / (x1 - x0) } else { y1 };
        }
    }
    points.last().map_or(0.0, |q| q.1)
}

/// `(no_double, double_take, double_pass)` per unit of the current cube, at cube efficiency `x`.
/// A cube that can no longer be turned by its holder counts as dead for him.
pub fn equities(ctx: &CubeContext, probs: &Probabilities, x: f64, jacoby: bool) -> (f64, f64, f64) {
    let p = probs.win;
    let (w, l) = win_loss_values(probs);
    let cubeful = |owner: CubeOwner, can_redouble: bool| {
        let d = dead(p, w, l);
        if can_redouble {
            x * live(p, w, l, owner) + (1.0 - x) * d
        } else {
            d
        }
    };
    let no_double = if jacoby && ctx.owner == CubeOwner::Centred {
        // The Jacoby rule: while the cube is centred, a game played out counts plain wins and
        // losses; the cash points, reached by turning the cube, still see the gammons.
        x * live_to(p, w, l, CubeOwner::Centred, (-1.0, 1.0)) + (1.0 - x) * dead(p, 1.0, 1.0)
    } else {
        cubeful(ctx.owner, ctx.value * 2 <= ctx.max)
    };
    let double_take = 2.0 * cubeful(CubeOwner::Them, ctx.value * 4 <= ctx.max);
    (no_double, double_take, 1.0)
}

/// `(no_double, double_take, double_pass)` per unit of the current cube, exact, for a position of
/// the two-sided bear-off database (both sides home, at most six checkers each); `None`
/// elsewhere, and within two doublings of the cube's limit, where the database's unlimited cube
/// does not hold. No gammons are possible there, so the Jacoby rule changes nothing.
pub fn exact(ctx: &CubeContext, position: &Position) -> Option<(f64, f64, f64)> {
    if ctx.value * 4 > ctx.max {
        return None;
    }
    let e = two_sided::entry(position)?;
    let no_double = match ctx.owner {
        CubeOwner::Centred => e.centred,
        CubeOwner::Us => e.owned,
        CubeOwner::Them => e.theirs,
    };
    Some((no_double, e.double_take(), 1.0))
}
