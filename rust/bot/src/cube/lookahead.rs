//! Cube decisions in bear-offs by looking ahead: both sides' next rolls played out, the cube
//! decisions on the way made by the same rule, the cube model judging only the positions at the
//! end.
//!
//! Janowski's model prices the cube with one efficiency for every bear-off, and that is worst at
//! match scores where the cube's life is uneven: at 2-away 4-away, for instance, the leader's
//! double hands the trailer a cube that wins the match when redoubled, and the trailer times that
//! redouble by the roll in a short race. Looking two rolls ahead sees those doubling windows
//! directly. Where both sides are bearing off, the databases give every position's
//! probabilities without a net, and each side plays every roll as the one-sided database assumes,
//! to bear off in the fewest rolls on average, which depends on its own checkers alone: two plies
//! then cost 42 move generations and 441 lookups, and the bot decides every such cube on them
//! ([`PLIES`]).
//!
//! Values here are absolute, for the player on roll: points won (the cube's value times the
//! normalised equity) in money play, the match winning chance in match play, so that the values
//! of different cubes and of both players can be compared and negated.

use super::{CubeAction, CubeContext, Stake};
use crate::bearoff;
use crate::Probabilities;
use gammon_backgammon::board::Position;
use gammon_backgammon::dice_game::{Backgammon, DiceGame};
use gammon_backgammon::moves::legal_positions_into;
use gammon_core::dice::ALL_ROLLS;
use std::collections::HashMap;

/// How many plies a bear-off cube decision looks ahead: both sides' next roll.
pub const PLIES: u8 = 2;

/// One side's checkers on its home points 1 to 6, in its own numbering.
type Board = [u8; 6];

/// The cube decision of the player on roll in `position`, looking `plies` plies ahead, when both
/// sides have every checker home, the game is not over and the player may double; `None`
/// otherwise. In money play the exact equities of the two-sided database are used where they
/// apply. (Where no double is possible there is nothing to decide, and the cube model's equities
/// keep their hypothetical double/take.)
///
/// ```
/// use gammon_bot::cube::{lookahead, CubeContext, CubeOwner};
/// use gammon_backgammon::{pos, Position};
/// // Two checkers each, ours on the 6-point and theirs on their 5-point, at 2-away 4-away.
/// let p = pos!(6 => 2, 20 => -2);
/// let ctx = CubeContext::match_play([2, 4], 1, CubeOwner::Centred, false).unwrap();
/// assert!(lookahead::decide(&ctx, &p, 2).is_some());
/// assert!(lookahead::decide(&ctx, &Position::initial(), 2).is_none());
/// ```
pub fn decide(ctx: &CubeContext, position: &Position, plies: u8) -> Option<CubeAction> {
    if !ctx.may_double() {
        return None;
    }
    if let (Stake::Money { .. }, Some(_)) = (ctx.stake, super::money::exact(ctx, position)) {
        return None;
    }
    look(ctx, position, plies)
}

/// [`decide`] without its two exceptions at the root, the exact money equities (the look
/// ahead's leaves still use them) and a cube nobody may turn, which the tests compare it with.
fn look(ctx: &CubeContext, position: &Position, plies: u8) -> Option<CubeAction> {
    let (ours, theirs) = bearoff::home_boards(position)?;
    if Backgammon.result(position).is_some() {
        return None;
    }
    if plies == 0 {
        return Some(ctx.decide(position, &bearoff::probabilities(position)?));
    }
    let mut look = Lookahead::default();
    let no_double = normalised(ctx, look.rolled(ctx, &ours, &theirs, plies));
    let (double_take, double_pass) = match ctx.taken() {
        Ok(taken) => (normalised(ctx, look.rolled(&taken, &ours, &theirs, plies)), ctx.result_equity(1)),
        // No double is possible: the verdict ignores these.
        Err(_) => (no_double, no_double),
    };
    Some(ctx.verdict(no_double, double_take, double_pass))
}

/// The absolute value of an equity normalised as [`CubeAction`]'s in `ctx`.
fn absolute(ctx: &CubeContext, equity: f64) -> f64 {
    ctx.mwc_of_equity(equity).unwrap_or(equity * ctx.value as f64)
}

/// The normalised equity of an absolute value in `ctx`.
fn normalised(ctx: &CubeContext, value: f64) -> f64 {
    ctx.equity_of_mwc(value).unwrap_or(value / ctx.value as f64)
}

/// The value for one player of an absolute value for the other.
fn for_opponent(ctx: &CubeContext, value: f64) -> f64 {
    match ctx.stake {
        Stake::Match { .. } => 1.0 - value,
        Stake::Money { .. } => -value,
    }
}

/// The position with `mover` on roll against `other`, both all home.
fn position_of(mover: &Board, other: &Board) -> Position {
    // Boards read from a valid position and played on by the move generator hold at most 15
    // checkers a side, so this cannot fail; an empty position is a defensive fallback.
    bearoff::position_of(mover, other)
        .unwrap_or_else(|| Position::from_board([0; 26]).expect("the empty board is valid"))
}

/// One decision's look ahead, remembering each board's best plays and each position's
/// probabilities (the same positions are reached with the cube at different values).
#[derive(Default)]
struct Lookahead {
    best: HashMap<Board, [Board; 21]>,
    leaves: HashMap<(Board, Board), (Position, Probabilities)>,
}

impl Lookahead {
    /// The board each of the 21 rolls leaves `board` with, played to bear off in the fewest
    /// rolls on average (the opponent's checkers cannot change a bear-off's plays).
    fn best(&mut self, board: &Board) -> [Board; 21] {
        if let Some(best) = self.best.get(board) {
            return *best;
        }
        let db = bearoff::database();
        let position = position_of(board, &[0; 6]);
        let mut plays = Vec::new();
        let best = ALL_ROLLS.map(|dice| {
            legal_positions_into(&position, dice, &mut plays);
            let mut best = (f64::INFINITY, *board);
            for p in &plays {
                let left = bearoff::home_boards(p).map_or(*board, |(left, _)| left);
                let rolls = db.mean_rolls(&left);
                if rolls < best.0 {
                    best = (rolls, left);
                }
            }
            best.1
        });
        self.best.insert(*board, best);
        best
    }

    /// The value to `mover`, on roll against `other` before rolling, who doubles when that is
    /// right, looking `plies` plies ahead.
    fn value(&mut self, ctx: &CubeContext, mover: &Board, other: &Board, plies: u8) -> f64 {
        if plies == 0 {
            let (position, probs) = self.leaves.entry((*mover, *other)).or_insert_with(|| {
                let position = position_of(mover, other);
                (position, bearoff::probabilities(&position).unwrap_or_default())
            });
            return absolute(ctx, ctx.decide(position, probs).equity());
        }
        let no_double = self.rolled(ctx, mover, other, plies);
        match ctx.taken() {
            Ok(taken) => {
                let pass = absolute(ctx, ctx.result_equity(1));
                no_double.max(self.rolled(&taken, mover, other, plies).min(pass))
            }
            Err(_) => no_double,
        }
    }

    /// The value to `mover` after rolling, with no cube action now, looking `plies` plies ahead
    /// (this roll the first of them).
    fn rolled(&mut self, ctx: &CubeContext, mover: &Board, other: &Board, plies: u8) -> f64 {
        let theirs = ctx.swapped();
        let best = self.best(mover);
        let mut sum = 0.0;
        for (left, dice) in best.iter().zip(ALL_ROLLS) {
            let v = if left.iter().all(|&n| n == 0) {
                // The last checker is off: the game's own scoring says what the win is worth.
                let points = Backgammon.result(&position_of(left, other)).unwrap_or(1);
                absolute(ctx, ctx.result_equity(points))
            } else {
                for_opponent(ctx, self.value(&theirs, other, left, plies - 1))
            };
            sum += dice.weight() as f64 / 36.0 * v;
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::CubeOwner;

    /// Every race of one checker against one (no play to choose, so the look ahead plays as the
    /// database does).
    fn single_checkers() -> impl Iterator<Item = Position> {
        (1..=6).flat_map(|ours| {
            (1..=6).map(move |theirs| {
                let mut b = [0i8; 26];
                b[ours] = 1;
                b[25 - theirs] = -1;
                Position::from_board(b).unwrap()
            })
        })
    }

    #[test]
    fn with_the_exact_money_leaves_it_gives_the_exact_money_equities() {
        // The database's money equities satisfy the same recursion, so two plies of it over
        // them give them back: the signs, the cube's owner at each ply and the weights of the
        // rolls all have to be right for this to hold.
        for ctx in [
            CubeContext::default(),
            CubeContext::money(2, CubeOwner::Us, false, false).unwrap(),
            CubeContext::money(2, CubeOwner::Them, false, false).unwrap(),
        ] {
            for p in single_checkers() {
                let (nd, dt, dp) = crate::cube::money::exact(&ctx, &p).unwrap();
                let ours = look(&ctx, &p, PLIES).unwrap();
                assert!((ours.no_double - nd).abs() < 1e-5, "{ctx:?} {p:?}: {} against {nd}", ours.no_double);
                if ctx.may_double() {
                    assert!((ours.double_take - dt).abs() < 1e-5, "{p:?}: {} against {dt}", ours.double_take);
                    assert_eq!(ours.double_pass, dp);
                }
            }
        }
    }

    #[test]
    fn a_dead_cube_gives_the_cubeless_equity() {
        // The cube at its limit: nobody doubles on the way, and the look ahead averages the
        // database's exact chances over two rolls, which is the chance it started from.
        let ctx = CubeContext::money(64, CubeOwner::Us, false, false).unwrap();
        for p in single_checkers() {
            let win = bearoff::probabilities(&p).unwrap().win;
            assert!(decide(&ctx, &p, PLIES).is_none());
            let ours = look(&ctx, &p, PLIES).unwrap();
            assert!(!ours.may_double);
            assert!(
                (ours.no_double - (2.0 * win - 1.0)).abs() < 1e-5,
                "{p:?}: {} against {win}",
                ours.no_double
            );
        }
    }

    #[test]
    fn only_bear_offs_of_games_in_progress_look_ahead() {
        let ctx = CubeContext::match_play([2, 4], 1, CubeOwner::Centred, false).unwrap();
        assert!(decide(&ctx, &Position::initial(), PLIES).is_none());
        let won = Position::from_board({
            let mut b = [0i8; 26];
            b[20] = -3;
            b
        })
        .unwrap();
        assert!(decide(&ctx, &won, PLIES).is_none());
        // In money play the exact database answers where it applies.
        let small = single_checkers().next().unwrap();
        assert!(decide(&CubeContext::default(), &small, PLIES).is_none());
        assert!(decide(&ctx, &small, PLIES).is_some());
    }
}
