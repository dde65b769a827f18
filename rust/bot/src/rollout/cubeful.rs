//! Cubeful backgammon rollouts: the bot's cube decisions played in every trial.
//!
//! Before each roll the player on roll of each cube line asks [`CubeContext::decide`] whether to
//! double, on a 0-ply evaluation by the policy's own evaluator (the net policy's narrower nets;
//! the bot's nets for a policy without one), or on the bot's 1-ply evaluation in a 1-ply
//! rollout (see [`BotCube::for_policy`]). At 0-ply the decision reuses the probabilities the
//! policy computed for the play that led to the position (turned around), where it has them, so
//! it mostly costs no evaluation; the rolled-out position, where every trial's first decision is
//! made before any play, is evaluated once for them all. The opponent takes, beavers or passes
//! by the same decision; a pass ends the line for the cube's value. The game itself is played
//! by the rollout's policy as in a cubeless rollout until every line has ended: a trial stops at
//! the pass that ends its last line, its cubeless figures then taken from the policy's
//! evaluation of that position, as at truncation (see [`gammon_core::rollout::cube`]).
//! So a cubeful rollout's cubeless figures are those of the cubeless rollout with the same seed
//! only where nobody passes; its cubeful figures are unchanged by the stop, trial by trial.
//!
//! A line's value is the game's result times the cube, counted as the context counts it: in
//! money play gammons count unless the Jacoby rule applies with the cube still centred, and
//! the equity is per unit of the starting cube; in match play the result is the match winning
//! chance (MWC) of the score it leads to (Crawford and post-Crawford by the match equity
//! table), reported also as an equity normalised to the starting stake, as
//! [`CubeAction`]'s are. At truncation a line takes the cubeful evaluation
//! ([`CubeContext::equity`]) of the position with its cube.
//!
//! Variance reduction subtracts from each line's value the luck of every roll measured in that
//! line's own cube state ([`RolloutCube::roll_values`]): the policy's luck measure gives each of
//! the 21 rolls a value (the same values the cubeless figures' luck uses), the cube model turns
//! each into the cubeful equity of the opponent, on roll next with the cube as it is
//! ([`CubeContext::model_equity`]), and the roll thrown counts for its value less their mean.
//! The line's state is settled before the roll, so each such term has expectation zero and the
//! estimate stays unbiased whatever the model's errors; the closer the model, the more noise
//! goes. Cube decisions draw no dice, so they have no luck to take out.

use super::{
    rollout_game_cubeful, rollout_game_plays_cubeful, CubeKind, CubeLines, CubeTurn, CubeValue, PlayRollout,
    RolloutCube, RolloutOptions, RolloutResult, Start,
};
use crate::cube::{efficiency, CubeAction, CubeContext, Stake};
use crate::search::Bot;
use gammon_backgammon::{Backgammon, Dice, DiceGame, Play, Position, Result};
use gammon_core::error::Error;
use gammon_core::policy::{Evaluator, Policy};
use gammon_core::Probabilities;

/// What a [`BotCube`] evaluates positions with before deciding.
#[derive(Clone, Copy)]
enum CubeEvaluator<'a> {
    /// The bot at its ply.
    Bot(Bot<'a>),
    /// A 0-ply evaluator: the one the rollout's policy plays with.
    Policy(&'a dyn Evaluator<Position>),
}

impl CubeEvaluator<'_> {
    fn evaluate(&self, position: &Position) -> Probabilities {
        match self {
            CubeEvaluator::Bot(bot) => bot.evaluate(position),
            CubeEvaluator::Policy(e) => match Backgammon.result(position) {
                Some(points) => Probabilities::from_points(points),
                None => e.evaluate(position),
            },
        }
    }

    fn ply(&self) -> u8 {
        match self {
            CubeEvaluator::Bot(bot) => bot.ply(),
            CubeEvaluator::Policy(_) => 0,
        }
    }
}

/// The bot's cube play for a rollout: its decisions at its ply, from a starting context seen by
/// the player on roll in the rolled-out position.
#[derive(Clone, Copy)]
pub struct BotCube<'a> {
    evaluator: CubeEvaluator<'a>,
    start: CubeContext,
    /// The rolled-out position and its evaluation, made once: every trial's first cube
    /// decision is made there, before any play has valued it.
    first: Option<(Position, Probabilities)>,
}

impl std::fmt::Debug for BotCube<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let by = match self.evaluator {
            CubeEvaluator::Bot(bot) => format!("{bot:?}"),
            CubeEvaluator::Policy(_) => "the policy's evaluator".to_string(),
        };
        f.debug_struct("BotCube").field("evaluator", &by).field("start", &self.start).finish()
    }
}

impl<'a> BotCube<'a> {
    /// The cube played by `bot` (its ply is the ply of the cube decisions) from `start`.
    pub fn new(bot: Bot<'a>, start: CubeContext) -> BotCube<'a> {
        BotCube { evaluator: CubeEvaluator::Bot(bot), start, first: None }
    }

    /// The cube decisions of a rollout played by `policy`, at `ply` (0 or 1), from `start`. At
    /// 0-ply they use the policy's own evaluator where it has one (for the net policy, the
    /// rollouts' narrower nets, [`NeuralNet::fast`](crate::net::NeuralNet::fast)): one
    /// evaluation of those costs a fraction of a play choice, where the bot's wider nets would
    /// cost about as much as the play itself. Otherwise the bot at `ply` decides.
    pub fn for_policy<P: Policy<Backgammon>>(
        policy: &'a P,
        ply: u8,
        start: CubeContext,
    ) -> Result<BotCube<'a>> {
        let bot = cube_bot(ply)?;
        let evaluator = match (ply, policy.evaluator()) {
            (0, Some(e)) => CubeEvaluator::Policy(e),
            _ => CubeEvaluator::Bot(bot),
        };
        Ok(BotCube { evaluator, start, first: None })
    }

    /// The same cube player, evaluating `start` once for the first decision of every trial of a
    /// rollout from there (the same evaluation each trial would make, so the same decisions).
    fn knowing(self, start: &Start<Position>) -> BotCube<'a> {
        match start {
            Start::Position(p) if Backgammon.result(p).is_none() => {
                BotCube { first: Some((*p, self.evaluator.evaluate(p))), ..self }
            }
            _ => self,
        }
    }

    /// The value of a finished line for the reported side: `equity` for the player on roll in
    /// `state` normalised to its cube, or the player's `mwc` in match play.
    fn value(&self, state: &CubeContext, equity: f64, mwc: Option<f64>, ours: bool) -> CubeValue {
        match mwc {
            None => {
                let points = equity * state.value() as f64 / self.start.value() as f64;
                CubeValue { equity: if ours { points } else { -points }, mwc: 0.0 }
            }
            Some(m) => {
                let mwc = if ours { m } else { 1.0 - m };
                CubeValue { equity: self.start.equity_of_mwc(mwc).unwrap_or(0.0), mwc }
            }
        }
    }
}

impl RolloutCube<Position> for BotCube<'_> {
    type State = CubeContext;

    fn start(&self) -> CubeContext {
        self.start
    }

    fn start_taken(&self) -> Option<CubeContext> {
        self.start.taken().ok()
    }

    fn may_double(&self, state: &CubeContext) -> bool {
        state.may_double()
    }

    fn turn(
        &self,
        position: &Position,
        state: &CubeContext,
        value: Option<&Probabilities>,
    ) -> CubeTurn<CubeContext> {
        // The policy's evaluator already judged the position when the previous play was chosen.
        let probs = match (self.evaluator, value, self.first) {
            (CubeEvaluator::Policy(_), Some(&v), _) => v,
            (_, _, Some((first, v))) if first == *position => v,
            _ => self.evaluator.evaluate(position),
        };
        let action = state.decide(position, &probs);
        if !action.double {
            return CubeTurn::Play;
        }
        if action.beaver {
            if let Ok(beavered) = state.beavered() {
                return CubeTurn::Taken(beavered);
            }
        }
        match (action.take, state.taken()) {
            (true, Ok(taken)) => CubeTurn::Taken(taken),
            _ => CubeTurn::Passed,
        }
    }

    fn swapped(&self, state: &CubeContext) -> CubeContext {
        state.swapped()
    }

    fn settle(&self, state: &CubeContext, points: i8, ours: bool) -> CubeValue {
        self.value(state, state.result_equity(points), state.result_mwc(points), ours)
    }

    fn truncated(&self, position: &Position, state: &CubeContext, ours: bool) -> CubeValue {
        let equity = state.equity(position, &self.evaluator.evaluate(position));
        self.value(state, equity, state.mwc_of_equity(equity), ours)
    }

    fn roll_values(
        &self,
        position: &Position,
        state: &CubeContext,
        rolls: &[Probabilities; 21],
        ours: bool,
        out: &mut [CubeValue; 21],
    ) -> bool {
        // After the roll the opponent is on roll with the cube as it is, facing its own cube
        // decision: the cube model's equity of its chances, at the efficiency of the position
        // before the roll (one position's for all 21, which any estimate may be).
        let theirs = state.swapped();
        let x = efficiency(&position.swapped());
        for (v, probs) in out.iter_mut().zip(rolls) {
            let equity = theirs.model_equity(&chances(probs).flipped(), x);
            if !equity.is_finite() {
                return false;
            }
            *v = self.value(&theirs, equity, theirs.mwc_of_equity(equity), !ours);
        }
        true
    }

    fn describe(&self) -> String {
        // "luck=cubeful": the cubeful figures take the luck out under variance reduction, which
        // results made before they did must not merge with.
        format!("{:?} cube_ply={} luck=cubeful", self.start, self.evaluator.ply())
    }

    fn kind(&self) -> CubeKind {
        match self.start.stake() {
            Stake::Money { .. } => CubeKind::Money,
            Stake::Match { .. } => CubeKind::Match,
        }
    }
}

/// `value`, a roll's value for variance reduction, as chances the cube model reads: the luck
/// net puts all of a roll's equity in the win, which leaves 0..=1 where the equity passes 1 or
/// -1; the excess goes to the gammons and backgammons, keeping the equity.
fn chances(value: &Probabilities) -> Probabilities {
    if value.win < 0.0 {
        // A loss beyond one game is the other side's win beyond one game.
        return chances(&value.flipped()).flipped();
    }
    if value.win <= 1.0 {
        return *value;
    }
    let equity = value.equity();
    let gammon = (equity - 1.0).clamp(0.0, 1.0);
    Probabilities {
        win: 1.0,
        win_gammon: gammon,
        win_backgammon: (equity - 2.0).clamp(0.0, gammon),
        ..*value
    }
}

/// The bot at `ply` (0 or 1) making a cubeful rollout's cube decisions.
fn cube_bot(ply: u8) -> Result<Bot<'static>> {
    if ply > 1 {
        return Err(Error::InvalidArgument(format!("a rollout's ply must be 0 or 1, got {ply}")));
    }
    Bot::new(ply)
}

/// Rolls out `start` with the cube in `context` (seen by the player on roll): `policy` plays the
/// checkers, the bot at `cube_ply` (0 or 1) decides every double, take and pass. The result has
/// the cubeless figures and [`RolloutResult::cubeful_equity`] (and [`RolloutResult::mwc`] in
/// match play). Nobody doubles before an opening roll. A trial stops at a pass, its cubeless
/// figures taken from the evaluation of the position there (with a policy that has an
/// evaluator).
///
/// ```
/// use gammon_bot::cube::CubeContext;
/// use gammon_bot::policy::BuiltinPolicy;
/// use gammon_bot::rollout::{rollout_cubeful, RolloutOptions, Start};
/// use gammon_backgammon::Position;
/// let options = RolloutOptions { trials: 36, truncate: Some(6), ..RolloutOptions::default() };
/// let start = Start::Position(Position::initial());
/// let r = rollout_cubeful(start, &BuiltinPolicy::NetFast, &CubeContext::default(), 0, &options).unwrap();
/// assert!(r.cubeful_equity().is_some() && r.mwc().is_none());
/// ```
pub fn rollout_cubeful<P: Policy<Backgammon>>(
    start: Start<Position>,
    policy: &P,
    context: &CubeContext,
    cube_ply: u8,
    options: &RolloutOptions,
) -> Result<RolloutResult> {
    rollout_cubeful_with_progress(start, policy, context, cube_ply, options, None)
}

/// [`rollout_cubeful`] reporting the running result about every 100 ms.
pub fn rollout_cubeful_with_progress<P: Policy<Backgammon>>(
    start: Start<Position>,
    policy: &P,
    context: &CubeContext,
    cube_ply: u8,
    options: &RolloutOptions,
    progress: Option<super::Progress<'_>>,
) -> Result<RolloutResult> {
    let cube = BotCube::for_policy(policy, cube_ply, *context)?.knowing(&start);
    rollout_game_cubeful(&Backgammon, start, policy, &cube, CubeLines::Cubeful, options, progress)
}

/// A cube-decision rollout: "no double" and "double, take" rolled out over the same games and
/// dice, and the decision they call for.
#[derive(Clone, Debug)]
pub struct CubeRollout {
    /// The rollout: its cubeful equity is that of not doubling; [`RolloutResult::double_take`]
    /// holds the other line.
    pub result: RolloutResult,
    /// The decision, made by [`CubeContext::verdict`] from the rolled-out equities (normalised
    /// as [`CubeAction`]'s: `double_pass` is 1 by definition).
    pub action: CubeAction,
    /// Standard error of `action.no_double`.
    pub no_double_std_error: f64,
    /// Standard error of `action.double_take`.
    pub double_take_std_error: f64,
    /// Standard error of `double_take - no_double`, from the paired trials.
    pub difference_std_error: f64,
}

impl CubeRollout {
    /// The decision and its figures from a cube-decision rollout's result in `context`.
    pub fn from_result(result: RolloutResult, context: &CubeContext) -> Result<CubeRollout> {
        let (Some(no_double), Some(no_double_std_error), Some((double_take, double_take_std_error, diff))) =
            (result.cubeful_equity(), result.cubeful_std_error(), result.double_take())
        else {
            return Err(Error::InvalidArgument("not the result of a cube-decision rollout".into()));
        };
        let action = context.verdict(no_double, double_take, 1.0);
        Ok(CubeRollout {
            result,
            action,
            no_double_std_error,
            double_take_std_error,
            difference_std_error: diff,
        })
    }
}

/// Rolls out the cube decision of the player on roll in `position` in `context`: the lines
/// "no double" and "double, take" over the same trials (see [`CubeLines::Decision`]), `policy`
/// playing the checkers and the bot at `cube_ply` making the later cube decisions. An error
/// where the player on roll may not double.
///
/// ```
/// use gammon_bot::cube::CubeContext;
/// use gammon_bot::policy::BuiltinPolicy;
/// use gammon_bot::rollout::{rollout_cube, RolloutOptions};
/// use gammon_backgammon::Position;
/// let options = RolloutOptions { trials: 36, truncate: Some(4), ..RolloutOptions::default() };
/// let p = Position::initial();
/// let r = rollout_cube(&p, &BuiltinPolicy::NetFast, &CubeContext::default(), 0, &options, None).unwrap();
/// assert!(!r.action.double && r.action.double_pass == 1.0);
/// ```
pub fn rollout_cube<P: Policy<Backgammon>>(
    position: &Position,
    policy: &P,
    context: &CubeContext,
    cube_ply: u8,
    options: &RolloutOptions,
    progress: Option<super::Progress<'_>>,
) -> Result<CubeRollout> {
    if Backgammon.result(position).is_some() {
        return Err(Error::IllegalAction("the game is over: a side has borne off every checker".into()));
    }
    let start = Start::Position(*position);
    let cube = BotCube::for_policy(policy, cube_ply, *context)?.knowing(&start);
    let result =
        rollout_game_cubeful(&Backgammon, start, policy, &cube, CubeLines::Decision, options, progress)?;
    CubeRollout::from_result(result, context)
}

/// Rolls out every legal play of `dice` from `position` with the cube in `context` (seen by the
/// mover), best first by cubeful equity for the mover; see [`super::rollout_plays`].
pub fn rollout_plays_cubeful<P: Policy<Backgammon>>(
    position: &Position,
    dice: Dice,
    policy: &P,
    context: &CubeContext,
    cube_ply: u8,
    options: &RolloutOptions,
) -> Result<Vec<PlayRollout<Play>>> {
    let plays = position.legal_plays(dice);
    let cube = BotCube::for_policy(policy, cube_ply, context.swapped())?;
    rollout_game_plays_cubeful(&Backgammon, &plays, policy, Some(&cube), options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::CubeOwner;
    use crate::rollout::{merge, rollout};
    use crate::BuiltinPolicy;
    use gammon_backgammon::pos;
    use gammon_core::dice::{DiceStream, ALL_ROLLS};
    use std::collections::HashMap;

    fn options(trials: u64, threads: usize) -> RolloutOptions {
        RolloutOptions { trials, seed: 3, threads: Some(threads), ..RolloutOptions::default() }
    }

    #[test]
    fn a_cube_nobody_may_turn_gives_the_cubeless_equity_bit_for_bit() {
        // The cube at its maximum (64) and owned: nobody may double, so every game is worth
        // its cubeless result times 64, per unit of the starting 64-cube.
        let dead = CubeContext::money(64, CubeOwner::Us, false, false).unwrap();
        let p = Position::from_id("4HPwATDgc/ABMA").unwrap();
        let plain = RolloutOptions { variance_reduction: false, ..options(144, 2) };
        let cubeless = rollout(&p, &BuiltinPolicy::NetFast, &plain).unwrap();
        let cubeful = rollout_cubeful(Start::Position(p), &BuiltinPolicy::NetFast, &dead, 0, &plain).unwrap();
        assert_eq!(cubeful.cubeful_equity().unwrap().to_bits(), cubeless.equity.to_bits());
        assert_eq!(cubeful.cubeful_std_error().unwrap().to_bits(), cubeless.std_error.to_bits());
        assert_eq!(cubeful.probabilities, cubeless.probabilities);
        // With variance reduction both are reduced: the cubeless figures by the luck in
        // probabilities, the cubeful one by the luck in the cube model's equities, which for a
        // dead cube are the cubeless equities (to the rounding of the rolls' values to f32).
        let reduced = options(144, 2);
        let r = rollout_cubeful(Start::Position(p), &BuiltinPolicy::NetFast, &dead, 0, &reduced).unwrap();
        let cubeless_reduced = rollout(&p, &BuiltinPolicy::NetFast, &reduced).unwrap();
        assert_eq!(r.equity.to_bits(), cubeless_reduced.equity.to_bits());
        assert!((r.cubeful_equity().unwrap() - cubeless_reduced.equity).abs() < 1e-5);
        assert!((r.cubeful_std_error().unwrap() - cubeless_reduced.std_error).abs() < 1e-5);
        assert!(r.cubeful_std_error().unwrap() < 0.6 * cubeless.std_error);
        assert!(r.mwc().is_none());
    }

    #[test]
    fn cubeful_rollouts_are_reproducible_and_merge_exactly() {
        let p = Position::from_id("4HPwATDgc/ABMA").unwrap();
        let ctx = CubeContext::match_play([3, 5], 1, CubeOwner::Centred, false).unwrap();
        let policy = BuiltinPolicy::NetFast;
        let run = |first, trials, threads| {
            let o = RolloutOptions { first_trial: first, truncate: Some(12), ..options(trials, threads) };
            rollout_cubeful(Start::Position(p), &policy, &ctx, 0, &o).unwrap()
        };
        let whole = run(0, 100, 1);
        assert!(whole.same_trials(&run(0, 100, 2)));
        let merged = merge(&[run(37, 63, 2), run(0, 37, 1)]).unwrap();
        assert!(merged.same_trials(&whole));
        assert_eq!(merged.cubeful_equity(), whole.cubeful_equity());
        let mwc = whole.mwc().unwrap();
        assert!((0.0..=1.0).contains(&mwc) && whole.mwc_std_error().unwrap() > 0.0);
        // The equity is the MWC on the equivalent-to-money scale of the starting cube.
        let emg = ctx.equity_of_mwc(mwc).unwrap();
        assert!((emg - whole.cubeful_equity().unwrap()).abs() < 1e-9);
        // Seen by the other side: MWC and equity turn around exactly.
        let flipped = whole.flipped();
        assert!((flipped.mwc().unwrap() - (1.0 - mwc)).abs() < 1e-12);
        assert_eq!(flipped.cubeful_equity().unwrap(), -whole.cubeful_equity().unwrap());
        // A cubeless rollout of the same seed does not merge with it.
        let cubeless = rollout(&p, &policy, &options(10, 1)).unwrap();
        assert!(merge(&[whole.clone(), RolloutResult { first_trial: 100, ..cubeless }]).is_err());
    }

    /// The exact cubeful equity (per unit of the starting cube) of a bear-off race, both sides
    /// playing `policy` and turning the cube by `cube.turn`, the decision function the rollout
    /// uses: dynamic programming over every roll.
    struct Exact<'a> {
        cube: BotCube<'a>,
        policy: BuiltinPolicy,
        memo: HashMap<(Position, u32, CubeOwner), f64>,
    }

    impl Exact<'_> {
        /// Equity in points (times the cube) of the player on roll, before the cube decision.
        fn before_cube(&mut self, p: &Position, ctx: CubeContext) -> f64 {
            let key = (*p, ctx.value(), ctx.owner());
            if let Some(&v) = self.memo.get(&key) {
                return v;
            }
            let v = if ctx.may_double() {
                match self.cube.turn(p, &ctx, None) {
                    CubeTurn::Play => self.roll(p, ctx),
                    CubeTurn::Taken(taken) => self.roll(p, taken),
                    CubeTurn::Passed => ctx.value() as f64,
                }
            } else {
                self.roll(p, ctx)
            };
            self.memo.insert(key, v);
            v
        }

        fn roll(&mut self, p: &Position, ctx: CubeContext) -> f64 {
            let mut sum = 0.0;
            let mut stream = DiceStream::new(0, 0);
            for dice in ALL_ROLLS {
                let plays = p.legal_plays(dice);
                let k = self.policy.choose(&Backgammon, p, dice, &plays, &mut stream);
                let next = Backgammon.after(&plays[k]);
                let v = match Backgammon.result(&next) {
                    Some(points) => -(points as f64) * ctx.value() as f64,
                    None => -self.before_cube(&next, ctx.swapped()),
                };
                sum += v * dice.weight() as f64 / 36.0;
            }
            sum
        }
    }

    #[test]
    fn a_small_race_agrees_with_its_exact_cubeful_equity() {
        // Two checkers each (the others borne off, so no gammons): we need 11 pips, they 10.
        let p = pos!(6 => 1, 5 => 1, 19 => -1, 21 => -1);
        let ctx = CubeContext::default();
        let cube = BotCube::for_policy(&BuiltinPolicy::NetFast, 0, ctx).unwrap();
        let mut exact = Exact { cube, policy: BuiltinPolicy::NetFast, memo: HashMap::new() };
        let truth = exact.before_cube(&p, ctx);
        // With and without variance reduction: the luck taken out of the cubeful value keeps it
        // unbiased and narrows it.
        let plain = RolloutOptions { variance_reduction: false, ..options(5184, 2) };
        let mut errors = vec![];
        for o in [plain, options(5184, 2)] {
            let r = rollout_cubeful(Start::Position(p), &BuiltinPolicy::NetFast, &ctx, 0, &o).unwrap();
            let (mean, se) = (r.cubeful_equity().unwrap(), r.cubeful_std_error().unwrap());
            assert!((mean - truth).abs() < 3.0 * se, "rollout {mean} ± {se}, exact {truth}");
            errors.push(se);
        }
        assert!(errors[1] < 0.5 * errors[0], "{errors:?}");
        let se = errors[0];
        // Measured: exact 0.8561; rollout 0.8738 ± 0.0296 plain, 0.8560 ± 0.0019 with variance
        // reduction; cubeless 0.4519 (5184 trials, seed 3).
        // The cube matters here: the cubeful equity is not the cubeless one.
        let cubeless = rollout(&p, &BuiltinPolicy::NetFast, &options(5184, 2)).unwrap();
        assert!((truth - cubeless.equity).abs() > 3.0 * se, "{truth} {}", cubeless.equity);
    }

    #[test]
    fn a_rolls_value_reaches_the_cube_model_as_chances_of_the_same_equity() {
        for equity in [-2.5, -1.6, -1.0, -0.2, 0.0, 0.7, 1.0, 1.3, 2.2, 2.9] {
            let value = Probabilities { win: 0.5 + 0.5 * equity, ..Probabilities::default() };
            let c = chances(&value);
            assert!((0.0..=1.0).contains(&c.win), "{c:?}");
            assert!(c.win_backgammon <= c.win_gammon && c.win_gammon <= 1.0, "{c:?}");
            assert!(c.lose_backgammon <= c.lose_gammon && c.lose_gammon <= 1.0, "{c:?}");
            assert!((c.equity() - equity).abs() < 1e-12, "{equity} {c:?}");
        }
    }

    #[test]
    fn a_cube_decision_rollout_pairs_its_lines() {
        let p = Position::from_id("4HPwATDgc/ABMA").unwrap();
        let ctx = CubeContext::default();
        let o = RolloutOptions { truncate: Some(8), ..options(216, 2) };
        let r = rollout_cube(&p, &BuiltinPolicy::NetFast, &ctx, 0, &o, None).unwrap();
        // Its "double, take" line is the cubeful rollout from the doubled cube, trial for trial
        // (normalised to the starting cube, so twice that rollout's equity per 2-cube).
        let taken =
            rollout_cubeful(Start::Position(p), &BuiltinPolicy::NetFast, &ctx.taken().unwrap(), 0, &o)
                .unwrap();
        let (dt, dt_se, diff_se) = r.result.double_take().unwrap();
        assert!((dt - 2.0 * taken.cubeful_equity().unwrap()).abs() < 1e-9);
        assert!((dt_se - 2.0 * taken.cubeful_std_error().unwrap()).abs() < 1e-9);
        assert_eq!(r.double_take_std_error, dt_se);
        // Paired trials: the difference is known better than either line.
        assert!(diff_se < r.double_take_std_error, "{diff_se} {dt_se}");
        // The verdict is the cube model's own, applied to the rolled-out equities.
        assert_eq!(r.action, ctx.verdict(r.action.no_double, dt, 1.0));
        assert_eq!(r.action.double_pass, 1.0);
        let nobody = CubeContext::money(2, CubeOwner::Them, false, false).unwrap();
        assert!(rollout_cube(&p, &BuiltinPolicy::NetFast, &nobody, 0, &o, None).is_err());
        assert!(rollout_cubeful(Start::Position(p), &BuiltinPolicy::NetFast, &ctx, 2, &o).is_err());
    }
}
