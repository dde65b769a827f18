//! Match-play cube equities: Janowski's live-cube lines built from match winning chances.
//!
//! Every outcome of the game (winning or losing 1, 2 or 3 times the cube) leads to a score whose
//! match winning chance (MWC) the match equity table gives. With the position's gammon and
//! backgammon shares fixed, a dead cube at value `c` is worth `p W(c) + (1-p) L(c)` in MWC, where
//! `W(c)` and `L(c)` are the average MWC of a win and of a loss at that stake.
//!
//! A live cube is a chain of take decisions: our cash point at `c` is where the opponent, taking
//! and owning `2c`, would get exactly what passing gives, and that depends on their own cash
//! point at `2c`, and so on up. The chain ends where doubling gains nothing: once the cube
//! covers what both sides need (any win wins the match), or in the Crawford game, where the cube
//! is out of play. So the levels are solved from the top down, and a side for whom a higher cube
//! is worthless gets no cash point, which is how the dead cube of a leader at 1-away (and the
//! trailer's free doubles post-Crawford) come out of the table without special cases.

use super::money::polyline;
use super::{outcome_shares, CubeContext, CubeOwner};
use crate::Probabilities;
use gammon_backgammon::met::MatchEquityTable;

/// The score seen from the player on roll and the MWC of each way this game can end.
struct Score {
    met: &'static MatchEquityTable,
    away: [u32; 2],
    /// The games after this one are post-Crawford (this one is the Crawford game or later).
    next_post_crawford: bool,
    wins: [f64; 3],
    losses: [f64; 3],
}

impl Score {
    fn mwc_after(&self, we: u32, they: u32) -> f64 {
        // The context was validated against the table, so the lookups below cannot fail; a
        // defensive 0.5 keeps a decision well defined if that ever changes.
        self.met.mwc(we, they, self.next_post_crawford).unwrap_or(0.5)
    }

    /// MWC after winning `k` times cube `c`.
    fn win(&self, k: u32, c: u32) -> f64 {
        self.mwc_after(self.away[0].saturating_sub(k * c), self.away[1])
    }

    /// MWC after losing `k` times cube `c`.
    fn lose(&self, k: u32, c: u32) -> f64 {
        self.mwc_after(self.away[0], self.away[1].saturating_sub(k * c))
    }

    /// Average MWC of a win and of a loss at cube `c`.
    fn win_loss(&self, c: u32) -> (f64, f64) {
        let avg =
            |shares: &[f64; 3], f: &dyn Fn(u32) -> f64| (1..=3).map(|k| shares[k - 1] * f(k as u32)).sum();
        (avg(&self.wins, &|k| self.win(k, c)), avg(&self.losses, &|k| self.lose(k, c)))
    }
}

/// One cube level: its stake and each side's cash point (`None` when that side never cashes at
/// this level, because it may not double or doubling gains it nothing).
#[derive(Clone, Copy)]
struct Level {
    cube: u32,
    ours: Option<f64>,
    theirs: Option<f64>,
}

/// Where the line through `a` and `b` reaches `y`, kept within `[0, 1]`.
fn crossing(y: f64, a: (f64, f64), b: (f64, f64)) -> f64 {
    if (b.1 - a.1).abs() < 1e-12 {
        return if y <= a.1 { 0.0 } else { 1.0 };
    }
    (a.0 + (b.0 - a.0) * (y - a.1) / (b.1 - a.1)).clamp(0.0, 1.0)
}

struct Model {
    score: Score,
    levels: Vec<Level>,
    /// `score.win_loss` of the cube at each level and of the one above the top (level `k`
    /// holds the lowest cube times `2^k`): the solution asks for each many times, and a rollout
    /// decides often enough for the table lookups to show.
    win_loss: Vec<(f64, f64)>,
}

impl Model {
    fn build(ctx: &CubeContext, away: [u32; 2], crawford: bool, probs: &Probabilities) -> Model {
        let (wins, losses) = outcome_shares(probs);
        let next_post_crawford = crawford || ctx.is_post_crawford();
        let score = Score { met: MatchEquityTable::kazaross_xg2(), away, next_post_crawford, wins, losses };
        // Level k holds cube value * 2^k; the top level is dead for both sides.
        let mut cubes = vec![ctx.value];
        while !crawford && *cubes.last().unwrap() < away[0].max(away[1]) {
            cubes.push(cubes.last().unwrap() * 2);
        }
        let levels = cubes.iter().map(|&cube| Level { cube, ours: None, theirs: None }).collect();
        let top = cubes.last().unwrap() * 2;
        let win_loss = cubes.iter().chain([&top]).map(|&cube| score.win_loss(cube)).collect();
        let mut model = Model { score, levels, win_loss };
        for k in (0..model.levels.len().saturating_sub(1)).rev() {
            let c = model.levels[k].cube;
            // We cash where their take of 2c (they own it) is worth exactly our win of c.
            let (a, b) = model.anchors(k + 1, CubeOwner::Them);
            let ours = crossing(model.score.win(1, c), a, b);
            // They cash where our take of 2c (we own it) is worth exactly our loss of c.
            let (a, b) = model.anchors(k + 1, CubeOwner::Us);
            let theirs = crossing(model.score.lose(1, c), a, b);
            model.levels[k].ours = (ours < 1.0).then_some(ours);
            model.levels[k].theirs = (theirs > 0.0).then_some(theirs);
        }
        model
    }

    /// The two ends of the live-cube line at level `k` with the cube held by `owner`: left of
    /// the first the opponent has cashed (or we lose the game), right of the second we have
    /// cashed (or win it).
    fn anchors(&self, k: usize, owner: CubeOwner) -> ((f64, f64), (f64, f64)) {
        let level = self.levels.get(k).copied().unwrap_or(Level {
            cube: self.levels.last().map_or(1, |l| l.cube) * 2,
            ours: None,
            theirs: None,
        });
        let (w, l) = self.win_loss[k.min(self.levels.len())];
        let theirs = if owner == CubeOwner::Us { None } else { level.theirs };
        let ours = if owner == CubeOwner::Them { None } else { level.ours };
        let left = theirs.map_or((0.0, l), |p| (p, self.score.lose(1, level.cube)));
        let right = ours.map_or((1.0, w), |p| (p, self.score.win(1, level.cube)));
        (left, right)
    }

    /// Cubeful MWC at level `k` with the cube held by `owner`, efficiency `x`.
    fn cubeful(&self, p: f64, k: usize, owner: CubeOwner, x: f64) -> f64 {
        let (w, l) = self.win_loss[k.min(self.levels.len())];
        let dead = p * w + (1.0 - p) * l;
        let (a, b) = self.anchors(k, owner);
        if b.0 <= a.0 {
            return dead;
        }
        // Beyond the cash points a side too good to double plays the game out.
        x * polyline(p, &[(0.0, l), a, b, (1.0, w)]) + (1.0 - x) * dead
    }
}

/// `(no_double, double_take, double_pass)` as equivalent money equities at the current cube.
pub fn equities(
    ctx: &CubeContext,
    away: [u32; 2],
    crawford: bool,
    probs: &Probabilities,
    x: f64,
) -> (f64, f64, f64) {
    let model = Model::build(ctx, away, crawford, probs);
    let p = probs.win;
    let no_double = model.cubeful(p, 0, ctx.owner(), x);
    let double_take = model.cubeful(p, 1, CubeOwner::Them, x);
    let c = ctx.value();
    let (win, lose) = (model.score.win(1, c), model.score.lose(1, c));
    let emg = |mwc: f64| equivalent_money(mwc, win, lose);
    (emg(no_double), emg(double_take), emg(win))
}

/// The equivalent money equity of a finished game worth `points` times the cube (negative for
/// a loss) to the player on roll.
pub fn result_equity(ctx: &CubeContext, away: [u32; 2], crawford: bool, points: i8) -> f64 {
    let mwc = result_mwc(ctx, away, crawford, points);
    let stake = |points| result_mwc(ctx, away, crawford, points);
    equivalent_money(mwc, stake(1), stake(-1))
}

/// The match winning chance of the player on roll after a finished game worth `points` times
/// the cube (negative for a loss).
pub fn result_mwc(ctx: &CubeContext, away: [u32; 2], crawford: bool, points: i8) -> f64 {
    let next_post_crawford = crawford || ctx.is_post_crawford();
    let none = [1.0, 0.0, 0.0];
    let score =
        Score { met: MatchEquityTable::kazaross_xg2(), away, next_post_crawford, wins: none, losses: none };
    let c = ctx.value();
    let k = points.unsigned_abs() as u32;
    if points >= 0 {
        score.win(k, c)
    } else {
        score.lose(k, c)
    }
}

/// A match winning chance as a money equity: -1 at `lose` (losing the current stake), +1 at
/// `win`, linear between, as GNU Backgammon reports match-play equities.
pub fn equivalent_money(mwc: f64, win: f64, lose: f64) -> f64 {
    if win > lose {
        2.0 * (mwc - lose) / (win - lose) - 1.0
    } else {
        0.0
    }
}

/// The take point of a double from cube `value` at this score, for the player doubled: the
/// lowest chance of winning at which taking is as good as passing, with a dead cube after the
/// take and no gammons. `away = [doubler, taker]`.
///
/// ```
/// use gammon_bot::cube::match_play::dead_take_point;
/// // Money-like symmetry at a long score: close to 25%.
/// let tp = dead_take_point([25, 25], 1, false).unwrap();
/// assert!((tp - 0.25).abs() < 0.02);
/// ```
pub fn dead_take_point(away: [u32; 2], value: u32, post_crawford: bool) -> gammon_core::Result<f64> {
    let met = MatchEquityTable::kazaross_xg2();
    let taker = |we: u32, they: u32| met.mwc(we, they, post_crawford);
    let [doubler, me] = away;
    let pass = taker(me, doubler.saturating_sub(value))?;
    let win = taker(me.saturating_sub(2 * value), doubler)?;
    let lose = taker(me, doubler.saturating_sub(2 * value))?;
    Ok((pass - lose) / (win - lose))
}

/// The gammon and backgammon values at a score for the player `away = [we, they]` winning with
/// cube `value`: what a gammon (backgammon) adds over a single win, in units of the distance
/// between winning and losing a single game, `(MWC(gammon) - MWC(single)) / (MWC(single win) -
/// MWC(single loss))`, and the backgammon value likewise (also over a single win, as GNU
/// Backgammon shows them). `post_crawford` says the
/// games after this one are post-Crawford. (Money play's gammon value in these units is 0.5.)
///
/// ```
/// use gammon_bot::cube::match_play::gammon_values;
/// // At 2-away 2-away a gammon on a 1-cube wins the match: worth as much again as the single
/// // win is worth over the single loss, scaled by the table.
/// let [g, bg] = gammon_values([2, 2], 1, false).unwrap();
/// assert!(g > 0.9 && (bg - g).abs() < 1e-12);
/// // With the cube at 2, any win takes the match: gammons are worth nothing.
/// assert_eq!(gammon_values([2, 2], 2, false).unwrap(), [0.0, 0.0]);
/// ```
pub fn gammon_values(away: [u32; 2], value: u32, post_crawford: bool) -> gammon_core::Result<[f64; 2]> {
    let met = MatchEquityTable::kazaross_xg2();
    let [we, they] = away;
    let win = |k: u32| met.mwc(we.saturating_sub(k * value), they, post_crawford);
    let single_loss = met.mwc(we, they.saturating_sub(value), post_crawford)?;
    let (single, gammon, backgammon) = (win(1)?, win(2)?, win(3)?);
    let unit = single - single_loss;
    Ok([(gammon - single) / unit, (backgammon - single) / unit])
}
