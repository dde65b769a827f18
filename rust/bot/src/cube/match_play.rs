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
//! trailer's free doubles post-Crawford) come out of the table without special cases. One fact
//! needs a rule of its own: an owner whose redouble would turn the last cube hands over no
//! recube, so he redoubles at once where that pays him rather than waiting for his cash point as
//! Janowski's efficiency assumes (the trailer at 2-away 4-away, after taking the leader's 2-cube).

use super::money::polyline;
use super::{outcome_shares, CubeContext, CubeOwner};
use crate::Probabilities;
use gammon_backgammon::met::MatchEquityTable;

/// The most cube levels a model has: from a 1-cube, doubling up to the first cube that covers
/// what the side further behind needs (32 for the 25-point table); more only for scores beyond
/// any table, where the chain is cut at a 65,536-cube.
const MAX_LEVELS: usize = 17;

/// Every match equity table lookup a decision at one score and cube makes: the MWC of winning and
/// of losing 1, 2 or 3 times each cube level's value. They depend on the score and the cube only,
/// so a thread keeps the last few ([`with_lookups`]) instead of looking them up again at every
/// decision of a rollout.
#[derive(Clone, Copy)]
struct Lookups {
    /// How many cube levels there are: the first is the current cube, each next one twice the
    /// last; the top level is dead for both sides.
    levels: usize,
    /// `wins[k][j]`: the MWC after winning `j + 1` times the cube of level `k`; level `levels`
    /// is the cube above the top.
    wins: [[f64; 3]; MAX_LEVELS + 1],
    /// Likewise after losing.
    losses: [[f64; 3]; MAX_LEVELS + 1],
}

/// What [`Lookups`] depend on: the score (`away`), the cube's value and the Crawford game.
type Key = ([u32; 2], u32, bool);

impl Lookups {
    /// The lookups of `key`; `next_post_crawford`: the games after this one are post-Crawford
    /// (this one is the Crawford game or later).
    fn new(&(away, value, crawford): &Key, next_post_crawford: bool) -> Lookups {
        let met = MatchEquityTable::kazaross_xg2();
        // The context was validated against the table, so these lookups cannot fail; a
        // defensive 0.5 keeps a decision well defined if that ever changes.
        let mwc = |we: u32, they: u32| met.mwc(we, they, next_post_crawford).unwrap_or(0.5);
        let mut cubes = [0; MAX_LEVELS];
        cubes[0] = value;
        let mut levels = 1;
        // Level k holds cube value * 2^k, up to the first that covers both sides' needs.
        while !crawford && cubes[levels - 1] < away[0].max(away[1]) && levels < MAX_LEVELS {
            cubes[levels] = cubes[levels - 1] * 2;
            levels += 1;
        }
        let mut wins = [[0.0; 3]; MAX_LEVELS + 1];
        let mut losses = [[0.0; 3]; MAX_LEVELS + 1];
        for k in 0..=levels {
            let c = if k < levels { cubes[k] } else { cubes[levels - 1] * 2 };
            for j in 0..3 {
                let points = (j as u32 + 1) * c;
                wins[k][j] = mwc(away[0].saturating_sub(points), away[1]);
                losses[k][j] = mwc(away[0], away[1].saturating_sub(points));
            }
        }
        Lookups { levels, wins, losses }
    }
}

/// Runs `f` on the lookups of a decision in `ctx` at the score `away` (`crawford`: this is the
/// Crawford game), made at most once per thread for the last few asked for: a rollout meets a
/// handful of scores and cubes (each seen from both sides) over and over.
fn with_lookups<R>(ctx: &CubeContext, away: [u32; 2], crawford: bool, f: impl FnOnce(&Lookups) -> R) -> R {
    let key = (away, ctx.value(), crawford);
    /// How many keys a thread keeps: a cube-decision rollout of one score follows two lines, each
    /// with a few cube values, each seen from both sides.
    const KEPT: usize = 16;
    thread_local! {
        static CACHE: std::cell::RefCell<(usize, Vec<(Key, Lookups)>)> =
            const { std::cell::RefCell::new((0, Vec::new())) };
    }
    CACHE.with_borrow_mut(|(next, cache)| {
        if let Some((_, lookups)) = cache.iter().find(|(k, _)| *k == key) {
            return f(lookups);
        }
        let lookups = Lookups::new(&key, crawford || ctx.is_post_crawford());
        // Full: the oldest entry makes room.
        if cache.len() < KEPT {
            cache.push((key, lookups));
        } else {
            cache[*next] = (key, lookups);
            *next = (*next + 1) % KEPT;
        }
        f(&lookups)
    })
}

/// One cube level: each side's cash point (`None` when that side never cashes at this level,
/// because it may not double or doubling gains it nothing).
#[derive(Clone, Copy, Default)]
struct Level {
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

struct Model<'a> {
    lookups: &'a Lookups,
    levels: [Level; MAX_LEVELS],
    /// The average MWC of a win and of a loss at each level and at the cube above the top: the
    /// solution asks for each many times.
    win_loss: [(f64, f64); MAX_LEVELS + 1],
}

impl<'a> Model<'a> {
    fn build(lookups: &'a Lookups, probs: &Probabilities) -> Model<'a> {
        let (wins, losses) = outcome_shares(probs);
        let n = lookups.levels;
        let mut win_loss = [(0.0, 0.0); MAX_LEVELS + 1];
        for (k, wl) in win_loss.iter_mut().enumerate().take(n + 1) {
            let avg = |shares: &[f64; 3], mwc: &[f64; 3]| (0..3).map(|j| shares[j] * mwc[j]).sum();
            *wl = (avg(&wins, &lookups.wins[k]), avg(&losses, &lookups.losses[k]));
        }
        let mut model = Model { lookups, levels: [Level::default(); MAX_LEVELS], win_loss };
        // Solved from the top down; the top level is dead for both sides.
        for k in (0..n.saturating_sub(1)).rev() {
            // We cash where their take of 2c (they own it) is worth exactly our win of c.
            let (a, b) = model.anchors(k + 1, CubeOwner::Them);
            let ours = crossing(lookups.wins[k][0], a, b);
            // They cash where our take of 2c (we own it) is worth exactly our loss of c.
            let (a, b) = model.anchors(k + 1, CubeOwner::Us);
            let theirs = crossing(lookups.losses[k][0], a, b);
            model.levels[k].ours = (ours < 1.0).then_some(ours);
            model.levels[k].theirs = (theirs > 0.0).then_some(theirs);
        }
        model
    }

    /// The two ends of the live-cube line at level `k` with the cube held by `owner`: left of
    /// the first the opponent has cashed (or we lose the game), right of the second we have
    /// cashed (or win it).
    fn anchors(&self, k: usize, owner: CubeOwner) -> ((f64, f64), (f64, f64)) {
        let k = k.min(self.lookups.levels);
        // The cube above the top has no cash points (the unused entries have none either).
        let level = self.levels.get(k).copied().unwrap_or_default();
        let (w, l) = self.win_loss[k];
        let theirs = if owner == CubeOwner::Us { None } else { level.theirs };
        let ours = if owner == CubeOwner::Them { None } else { level.ours };
        let left = theirs.map_or((0.0, l), |p| (p, self.lookups.losses[k][0]));
        let right = ours.map_or((1.0, w), |p| (p, self.lookups.wins[k][0]));
        (left, right)
    }

    /// Cubeful MWC at level `k` with the cube held by `owner`, efficiency `x`.
    fn cubeful(&self, p: f64, k: usize, owner: CubeOwner, x: f64) -> f64 {
        let janowski = self.janowski(p, k, owner, x);
        // Where their redouble would turn the last cube (the level above is dead for both),
        // redoubling costs them no recube: they need not wait for their cash point, as the
        // efficiency `x` assumes, and redouble at once wherever the game for the last cube is
        // worth more to them, we taking or passing as suits us. At 2-away 4-away, say, the
        // trailer who takes the leader's 2-cube redoubles at once to play for the match.
        if owner == CubeOwner::Them && k + 2 == self.lookups.levels {
            let redoubled = self.dead(p, k + 1).max(self.lookups.losses[k][0]);
            return janowski.min(redoubled);
        }
        janowski
    }

    /// MWC at level `k` with the cube dead: the game played out at that stake.
    fn dead(&self, p: f64, k: usize) -> f64 {
        let (w, l) = self.win_loss[k.min(self.lookups.levels)];
        p * w + (1.0 - p) * l
    }

    /// Janowski's cubeful MWC at level `k` with the cube held by `owner`: the dead cube's and
    /// the fully live cube's, weighed by the efficiency `x`.
    fn janowski(&self, p: f64, k: usize, owner: CubeOwner, x: f64) -> f64 {
        let (w, l) = self.win_loss[k.min(self.lookups.levels)];
        let dead = self.dead(p, k);
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
    with_lookups(ctx, away, crawford, |lookups| {
        let model = Model::build(lookups, probs);
        let p = probs.win;
        let no_double = model.cubeful(p, 0, ctx.owner(), x);
        let double_take = model.cubeful(p, 1, CubeOwner::Them, x);
        let (win, lose) = (lookups.wins[0][0], lookups.losses[0][0]);
        let emg = |mwc: f64| equivalent_money(mwc, win, lose);
        (emg(no_double), emg(double_take), emg(win))
    })
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
    let k = points.unsigned_abs() as u32;
    if !(1..=3).contains(&k) {
        // Not the result of a game (no score change, or more than a backgammon): looked up
        // directly, as the table has no entry kept for it.
        let met = MatchEquityTable::kazaross_xg2();
        let next_post_crawford = crawford || ctx.is_post_crawford();
        let won = k * ctx.value();
        let (we, they) = if points >= 0 {
            (away[0].saturating_sub(won), away[1])
        } else {
            (away[0], away[1].saturating_sub(won))
        };
        return met.mwc(we, they, next_post_crawford).unwrap_or(0.5);
    }
    with_lookups(ctx, away, crawford, |lookups| {
        let j = k as usize - 1;
        if points > 0 {
            lookups.wins[0][j]
        } else {
            lookups.losses[0][j]
        }
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The model as it was before the table lookups were kept per thread: every lookup made
    /// afresh from the table at every use, levels and averages in vectors.
    fn looked_up_afresh(
        ctx: &CubeContext,
        away: [u32; 2],
        crawford: bool,
        probs: &Probabilities,
        x: f64,
    ) -> [f64; 3] {
        let met = MatchEquityTable::kazaross_xg2();
        let post = crawford || ctx.is_post_crawford();
        let win = |k: u32, c: u32| met.mwc(away[0].saturating_sub(k * c), away[1], post).unwrap_or(0.5);
        let lose = |k: u32, c: u32| met.mwc(away[0], away[1].saturating_sub(k * c), post).unwrap_or(0.5);
        let (wins, losses) = outcome_shares(probs);
        let win_loss = |c: u32| -> (f64, f64) {
            let w: f64 = (1..=3).map(|k| wins[k - 1] * win(k as u32, c)).sum();
            let l: f64 = (1..=3).map(|k| losses[k - 1] * lose(k as u32, c)).sum();
            (w, l)
        };
        let mut cubes = vec![ctx.value()];
        while !crawford && *cubes.last().unwrap() < away[0].max(away[1]) {
            cubes.push(cubes.last().unwrap() * 2);
        }
        // (cube, ours, theirs) per level.
        let mut levels: Vec<(u32, Option<f64>, Option<f64>)> =
            cubes.iter().map(|&c| (c, None, None)).collect();
        let anchors = |levels: &[(u32, Option<f64>, Option<f64>)], k: usize, owner: CubeOwner| {
            let level = levels.get(k).copied().unwrap_or((levels.last().unwrap().0 * 2, None, None));
            let (w, l) = win_loss(level.0);
            let theirs = if owner == CubeOwner::Us { None } else { level.2 };
            let ours = if owner == CubeOwner::Them { None } else { level.1 };
            let left = theirs.map_or((0.0, l), |p| (p, lose(1, level.0)));
            let right = ours.map_or((1.0, w), |p| (p, win(1, level.0)));
            (left, right)
        };
        for k in (0..levels.len() - 1).rev() {
            let c = levels[k].0;
            let (a, b) = anchors(&levels, k + 1, CubeOwner::Them);
            let ours = crossing(win(1, c), a, b);
            let (a, b) = anchors(&levels, k + 1, CubeOwner::Us);
            let theirs = crossing(lose(1, c), a, b);
            levels[k].1 = (ours < 1.0).then_some(ours);
            levels[k].2 = (theirs > 0.0).then_some(theirs);
        }
        let p = probs.win;
        let cubeful = |k: usize, owner: CubeOwner| {
            let cube = levels.get(k).map_or(levels.last().unwrap().0 * 2, |l| l.0);
            let (w, l) = win_loss(cube);
            let dead = p * w + (1.0 - p) * l;
            let (a, b) = anchors(&levels, k, owner);
            let janowski = if b.0 <= a.0 {
                dead
            } else {
                x * polyline(p, &[(0.0, l), a, b, (1.0, w)]) + (1.0 - x) * dead
            };
            if owner == CubeOwner::Them && k + 2 == levels.len() {
                let (w, l) = win_loss(levels[k + 1].0);
                return janowski.min((p * w + (1.0 - p) * l).max(lose(1, levels[k].0)));
            }
            janowski
        };
        let (w1, l1) = (win(1, ctx.value()), lose(1, ctx.value()));
        let emg = |m: f64| equivalent_money(m, w1, l1);
        [emg(cubeful(0, ctx.owner())), emg(cubeful(1, CubeOwner::Them)), emg(w1)]
    }

    #[test]
    fn kept_lookups_give_the_decisions_of_looking_up_afresh_to_the_bit() {
        // Every score of the table, several cubes and owners, the Crawford game, and chances
        // with and without gammons: more keys than a thread keeps, so entries are replaced too.
        let chances = [
            Probabilities {
                win: 0.72,
                win_gammon: 0.21,
                win_backgammon: 0.02,
                lose_gammon: 0.05,
                ..Default::default()
            },
            Probabilities {
                win: 0.31,
                win_gammon: 0.04,
                lose_gammon: 0.18,
                lose_backgammon: 0.01,
                ..Default::default()
            },
            Probabilities { win: 0.55, ..Default::default() },
            Probabilities { win: 0.97, win_gammon: 0.6, ..Default::default() },
        ];
        let mut compared = 0;
        for a in 1..=25 {
            for b in 1..=25 {
                for (value, owner) in
                    [(1, CubeOwner::Centred), (2, CubeOwner::Us), (4, CubeOwner::Them), (16, CubeOwner::Us)]
                {
                    for crawford in [false, true] {
                        let Ok(ctx) = CubeContext::match_play([a, b], value, owner, crawford) else {
                            continue;
                        };
                        for (probs, x) in chances.iter().zip([0.68, 0.6, 0.7, 0.68]) {
                            let kept = equities(&ctx, [a, b], crawford, probs, x);
                            let afresh = looked_up_afresh(&ctx, [a, b], crawford, probs, x);
                            let bits = |v: [f64; 3]| v.map(f64::to_bits);
                            assert_eq!(bits([kept.0, kept.1, kept.2]), bits(afresh), "{ctx:?} {probs:?}");
                            compared += 1;
                        }
                        for points in -3..=3i8 {
                            let post = crawford || ctx.is_post_crawford();
                            let k = points.unsigned_abs() as u32 * value;
                            let (we, they) =
                                if points >= 0 { (a.saturating_sub(k), b) } else { (a, b.saturating_sub(k)) };
                            let afresh = MatchEquityTable::kazaross_xg2().mwc(we, they, post).unwrap_or(0.5);
                            assert_eq!(
                                result_mwc(&ctx, [a, b], crawford, points).to_bits(),
                                afresh.to_bits()
                            );
                        }
                    }
                }
            }
        }
        assert!(compared > 8000, "{compared}");
    }

    #[test]
    fn a_redouble_to_the_last_cube_is_made_at_once() {
        // 2-away 4-away, the leader doubling with 80% and no gammons: the trailer who takes
        // redoubles to 4 at once, so the game is for the match and the take is worth the
        // leader's plain chances; a pass leaves him 1-away (Crawford).
        let ctx = CubeContext::match_play([2, 4], 1, CubeOwner::Centred, false).unwrap();
        let probs = Probabilities { win: 0.8, ..Default::default() };
        let (_, double_take, double_pass) = equities(&ctx, [2, 4], false, &probs, 0.68);
        with_lookups(&ctx, [2, 4], false, |lookups| {
            let model = Model::build(lookups, &probs);
            let emg = |mwc: f64| equivalent_money(mwc, lookups.wins[0][0], lookups.losses[0][0]);
            assert_eq!(double_take, emg(0.8));
            // Janowski's blend with the dead 2-cube, worth more to the leader, passed.
            let janowski = model.janowski(0.8, 1, CubeOwner::Them, 0.68);
            assert!(emg(janowski) > double_pass && double_take < double_pass, "{janowski}");
        });
        // Past his cash point the trailer cashes at once (a redouble the leader passes, which
        // leaves 2-away 2-away), where Janowski's blend with the dead cube gave the leader more.
        let probs = Probabilities { win: 0.3, ..Default::default() };
        with_lookups(&ctx, [2, 4], false, |lookups| {
            let model = Model::build(lookups, &probs);
            assert_eq!(model.cubeful(0.3, 1, CubeOwner::Them, 0.68), lookups.losses[1][0]);
            assert!(model.janowski(0.3, 1, CubeOwner::Them, 0.68) > lookups.losses[1][0]);
        });
        // Where redoubling at once does not pay, Janowski's value stands: at 3-away 3-away the
        // trailer with 40% holding the 2-cube would hand the leader 60% of the match.
        let ctx3 = CubeContext::match_play([3, 3], 1, CubeOwner::Centred, false).unwrap();
        let probs = Probabilities { win: 0.6, ..Default::default() };
        with_lookups(&ctx3, [3, 3], false, |lookups| {
            let model = Model::build(lookups, &probs);
            let janowski = model.janowski(0.6, 1, CubeOwner::Them, 0.68);
            assert!(janowski < 0.6);
            assert_eq!(model.cubeful(0.6, 1, CubeOwner::Them, 0.68), janowski);
        });
        // Below the last level but one there is no such redouble: 5-away 5-away.
        let ctx = CubeContext::match_play([5, 5], 1, CubeOwner::Centred, false).unwrap();
        with_lookups(&ctx, [5, 5], false, |lookups| {
            let model = Model::build(lookups, &probs);
            for p in [0.2, 0.5, 0.8] {
                assert_eq!(
                    model.cubeful(p, 1, CubeOwner::Them, 0.68),
                    model.janowski(p, 1, CubeOwner::Them, 0.68)
                );
            }
        });
    }
}
