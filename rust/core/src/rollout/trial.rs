//! One trial: a game played to the end (or to the truncation ply, or in a cubeful rollout until
//! every cube line has ended by a pass) from the start position, and the luck of its dice.

use super::cube::{CubeTurn, CubeValue, Line, Lines, RolloutCube};
use super::schedule::Schedule;
use super::stats::{fixed, with_cube, VALUES};
use crate::dice::{Dice, DiceStream, ALL_ROLLS};
use crate::dice_game::DiceGame;
use crate::{Evaluator, Policy, Probabilities};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// What every trial of a rollout shares.
pub(crate) struct Setup<'a, G: DiceGame, P, C: RolloutCube<G::Position>> {
    pub game: &'a G,
    pub policy: &'a P,
    /// Set when the policy has an evaluator and truncation or variance reduction needs it.
    pub evaluator: Option<&'a dyn Evaluator<G::Position>>,
    pub start: G::Position,
    /// The first roll is the opening roll, which also decides who moves first.
    pub opening: bool,
    pub truncate: Option<u32>,
    pub variance_reduction: bool,
    pub seed: u64,
    pub quasi_random: bool,
    pub cancel: Option<&'a AtomicBool>,
    /// The steps of the first two plies, made once for every trial that meets them (see
    /// [`early_plies`]); `None` when the policy's choices are not [`Policy::deterministic`].
    pub early: Option<Vec<OnceLock<Step<G>>>>,
    /// The evaluator's view of `start`, made once for the trials that stop there (the first
    /// cube decision a pass).
    pub start_value: OnceLock<Probabilities>,
    /// The cube rules and player of a cubeful rollout, with the starting state of each cube
    /// line (one, or two for a cube-decision rollout, whose first line does not double at
    /// once); `None` for a cubeless rollout.
    pub cube: Option<(&'a C, Lines<C::State>)>,
}

/// Room for the first two plies' steps: the first ply's depend on the first roll alone (36
/// outcomes), the second's on both (36 × 36). A rollout's trials share a start, and its first
/// two rolls are stratified, so every one of these positions and rolls comes back again and
/// again; each is played once. The same step results whichever trial makes it first, so the
/// games, and the rollout, are those of making every step afresh.
pub(crate) fn early_plies<G: DiceGame>() -> Vec<OnceLock<Step<G>>> {
    (0..36 + 36 * 36).map(|_| OnceLock::new()).collect()
}

/// One ply of a trial: the position after the play chosen and the roll's luck (variance
/// reduction), as the player to roll sees it.
pub(crate) struct Step<G: DiceGame> {
    after: G::Position,
    luck: Option<[f64; 5]>,
    /// Under variance reduction in a cubeful rollout, the value of each of the 21 rolls for
    /// the player who rolled (the policy's [`Policy::roll_values`]) and the index of the roll
    /// thrown: each cube line measures its own luck from them, in its own cube state.
    rolls: Option<([[f32; 5]; 21], u8)>,
    /// The policy's evaluator's view of `after` for the player to roll there, when the choice
    /// computed it (see [`Policy::choose_valued`]): a cube decision there reuses it.
    value: Option<Probabilities>,
}

// By hand: a derive would ask `G` itself to be `Copy`.
impl<G: DiceGame> Clone for Step<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: DiceGame> Copy for Step<G> {}

/// A trial's values in fixed point: without and with the luck of the dice removed.
pub(crate) struct TrialValues {
    pub plain: [i64; VALUES],
    pub reduced: [i64; VALUES],
}

/// Scratch space reused from trial to trial on one thread.
pub(crate) struct Worker<G: DiceGame> {
    schedule: Schedule,
    plays: Vec<G::Play>,
    luck_plays: Vec<G::Play>,
    /// The value of each roll that the last luck measured, for the player who rolled.
    roll_values: [Probabilities; 21],
}

impl<G: DiceGame> Worker<G> {
    pub(crate) fn new<P, C: RolloutCube<G::Position>>(setup: &Setup<'_, G, P, C>) -> Worker<G> {
        Worker {
            schedule: Schedule::new(setup.seed, setup.opening, setup.quasi_random),
            plays: Vec::with_capacity(64),
            luck_plays: Vec::with_capacity(64),
            roll_values: [Probabilities::default(); 21],
        }
    }

    /// Plays trial `trial`; `None` if the rollout was cancelled meanwhile.
    pub(crate) fn run<P: Policy<G>, C: RolloutCube<G::Position>>(
        &mut self,
        setup: &Setup<'_, G, P, C>,
        trial: u64,
    ) -> Option<TrialValues> {
        let game = setup.game;
        let mut stream = DiceStream::new(setup.seed, trial);
        setup.policy.forget_history();
        let (first, second) = self.schedule.first_two(trial, &mut stream);
        let mut position = setup.start;
        // Whether the player to roll is the side the result is reported for.
        let mut ours = true;
        if setup.opening && first / 6 < first % 6 {
            // The outcome is (our die, their die): the higher die moves first, with both dice.
            position = game.pass_turn(&position);
            ours = false;
        }
        let mut luck = [0.0f64; 5];
        let mut ply = 0u32;
        let mut lines = setup.cube.map(|(_, lines)| lines).unwrap_or([None, None]);
        // The value of `position` for the player on roll that the previous play computed.
        let mut known: Option<Probabilities> = None;
        if let (Some((cube, _)), false) = (setup.cube, ours) {
            // The cube's states are seen from the player on roll: here the other side.
            for line in lines.iter_mut().flatten() {
                line.state = cube.swapped(&line.state);
            }
        }
        let outcome = loop {
            if let Some(points) = game.result(&position) {
                if let Some((cube, _)) = setup.cube {
                    for line in lines.iter_mut().flatten().filter(|l| l.ended.is_none()) {
                        line.ended = Some(cube.settle(&line.state, points, ours));
                    }
                }
                break game.result_probabilities(points);
            }
            if setup.truncate == Some(ply) {
                if let Some(evaluator) = setup.evaluator {
                    if let Some((cube, _)) = setup.cube {
                        for line in lines.iter_mut().flatten().filter(|l| l.ended.is_none()) {
                            line.ended = Some(cube.truncated(&position, &line.state, ours));
                        }
                    }
                    break evaluator.evaluate(&position);
                }
            }
            if setup.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                return None;
            }
            // The cube turns before the roll; nobody doubles before the opening roll.
            if let Some((cube, _)) = setup.cube {
                if !(setup.opening && ply == 0) {
                    for line in lines.iter_mut().flatten().filter(|l| l.ended.is_none()) {
                        if std::mem::take(&mut line.decided) || !cube.may_double(&line.state) {
                            continue;
                        }
                        match cube.turn(&position, &line.state, known.as_ref()) {
                            CubeTurn::Play => {}
                            CubeTurn::Taken(state) => line.state = state,
                            CubeTurn::Passed => line.ended = Some(cube.passed(&line.state, ours)),
                        }
                    }
                    // Every line has ended by a pass: the rest of the game changes no cube
                    // value, so the trial stops, its cubeless figures taken from the evaluation
                    // of this position as at truncation (the value the previous play computed
                    // where there is one). Without an evaluator the game goes on to its end.
                    if lines.iter().flatten().all(|l| l.ended.is_some()) {
                        if let Some(evaluator) = setup.evaluator {
                            break known.unwrap_or_else(|| match ply {
                                0 => *setup.start_value.get_or_init(|| evaluator.evaluate(&position)),
                                _ => evaluator.evaluate(&position),
                            });
                        }
                    }
                }
            }
            let (dice, early) = match ply {
                0 => (Dice::from_outcome(first), Some(first as usize)),
                1 => (Dice::from_outcome(second), Some(36 * (1 + first as usize) + second as usize)),
                _ => (stream.roll(), None),
            };
            let step = match (&setup.early, early) {
                // Trials whose cube lines differ share these steps: each is valued for all.
                (Some(steps), Some(k)) => *steps[k].get_or_init(|| {
                    self.step(setup, &position, dice, ply, setup.cube.is_some(), &mut stream)
                }),
                _ => {
                    let valued = setup.cube.is_some_and(|(cube, _)| next_may_double(cube, &lines));
                    self.step(setup, &position, dice, ply, valued, &mut stream)
                }
            };
            if early.is_some() {
                // The first two plies' steps may have been made on another thread (or, for a
                // policy that is not deterministic, afresh): the choices after them start
                // afresh either way, so that the games are the same.
                setup.policy.forget_history();
            }
            if let (Some((cube, _)), Some((rolls, thrown))) = (setup.cube, &step.rolls) {
                let rolls = rolls.map(|v| Probabilities::from_array(v.map(f64::from)));
                for line in lines.iter_mut().flatten().filter(|l| l.ended.is_none()) {
                    cube_luck(cube, &position, line, &rolls, *thrown as usize, ours);
                }
            }
            if let Some(l) = step.luck {
                // Seen by the other side a difference of values changes sign for the win and
                // trades gammons won for gammons lost.
                let l = if ours { l } else { [-l[0], l[3], l[4], l[1], l[2]] };
                for (acc, x) in luck.iter_mut().zip(l) {
                    *acc += x;
                }
            }
            position = step.after;
            known = step.value;
            ours = !ours;
            ply += 1;
            if let Some((cube, _)) = setup.cube {
                for line in lines.iter_mut().flatten().filter(|l| l.ended.is_none()) {
                    line.state = cube.swapped(&line.state);
                }
            }
        };
        let outcome = if ours { outcome } else { outcome.flipped() };
        let plain = outcome.to_array();
        // Evaluators do not predict draws, so the draw has no luck to remove.
        let reduced = Probabilities {
            draw: outcome.draw,
            ..Probabilities::from_array(std::array::from_fn(|k| plain[k] - luck[k]))
        };
        let (mut plain, mut reduced) = (fixed(&outcome), fixed(&reduced));
        if setup.cube.is_some() {
            let value = |line: Option<Line<C::State>>| line.map(|l| l.ended.unwrap_or_default());
            let first = value(lines[0]).unwrap_or(CubeValue::default());
            let second = value(lines[1]).map(|v| v.equity);
            with_cube(&mut plain, (first.equity, first.mwc), second);
            // Each line's own luck, zero where it was not measured.
            let luck = |line: Option<Line<C::State>>| line.map_or(CubeValue::default(), |l| l.luck);
            let (a, b) = (luck(lines[0]), luck(lines[1]));
            let second = second.map(|v| v - b.equity);
            with_cube(&mut reduced, (first.equity - a.equity, first.mwc - a.mwc), second);
        }
        Some(TrialValues { plain, reduced })
    }

    /// Plays `dice` from `position` at ply `ply` of a trial, with the value of the position
    /// after it if `valued` (for the next cube decision) and the policy computes it.
    fn step<P: Policy<G>, C: RolloutCube<G::Position>>(
        &mut self,
        setup: &Setup<'_, G, P, C>,
        position: &G::Position,
        dice: Dice,
        ply: u32,
        valued: bool,
        stream: &mut DiceStream,
    ) -> Step<G> {
        let game = setup.game;
        let (mut luck, mut rolls) = (None, None);
        // The opening roll's luck is left alone: it is stratified over its 30 outcomes.
        if setup.variance_reduction && !(setup.opening && ply == 0) && setup.evaluator.is_some() {
            let (l, best, value, thrown) = self.roll_luck(game, setup.policy, position, dice);
            luck = Some(l.to_array());
            if setup.cube.is_some() {
                rolls = Some((self.roll_values.map(|v| v.to_array().map(|x| x as f32)), thrown as u8));
            }
            if setup.policy.chooses_the_evaluators_best() {
                game.legal_plays(position, dice, &mut self.plays);
                return Step {
                    after: game.after(&self.plays[best]),
                    luck,
                    rolls,
                    value: Some(value.flipped()),
                };
            }
        }
        if let Some((after, value)) = setup.policy.choose_after(game, position, dice, valued, stream) {
            return Step { after, luck, rolls, value: value.map(|v| v.flipped()) };
        }
        game.legal_plays(position, dice, &mut self.plays);
        let (k, value) = if valued {
            setup.policy.choose_valued(game, position, dice, &self.plays, stream)
        } else {
            (setup.policy.choose(game, position, dice, &self.plays, stream), None)
        };
        Step { after: game.after(&self.plays[k]), luck, rolls, value: value.map(|v| v.flipped()) }
    }

    /// How much better the roll thrown is than the average roll, for the player to roll: the
    /// value [`Policy::roll_values`] gives `dice`, minus the mean of those values over all 36
    /// outcomes. Its expectation is zero, so subtracting it keeps the estimate unbiased. Also the
    /// index of that roll's play among the legal plays of `dice`, its value, and the index of
    /// `dice` among the 21 rolls; every roll's value is left in `self.roll_values`.
    fn roll_luck<P: Policy<G>>(
        &mut self,
        game: &G,
        policy: &P,
        position: &G::Position,
        dice: Dice,
    ) -> (Probabilities, usize, Probabilities, usize) {
        let mut mean = [0.0f64; 5];
        let mut thrown = ([0.0f64; 5], 0, Probabilities::default(), 0);
        let mut best = [0; 21];
        assert!(
            policy.roll_values(game, position, &mut self.luck_plays, &mut self.roll_values, &mut best),
            "an evaluator"
        );
        for (r, ((roll, value), k)) in ALL_ROLLS.into_iter().zip(self.roll_values).zip(best).enumerate() {
            let v = value.to_array();
            let w = roll.weight() as f64 / 36.0;
            for i in 0..5 {
                mean[i] += w * v[i];
            }
            if roll == dice {
                thrown = (v, k, value, r);
            }
        }
        (
            Probabilities::from_array(std::array::from_fn(|i| thrown.0[i] - mean[i])),
            thrown.1,
            thrown.2,
            thrown.3,
        )
    }
}

/// Adds to `line` the luck of the roll `thrown` (an index into the 21 rolls) from `position`
/// as its cube player measures it ([`RolloutCube::roll_values`]), `rolls` the value of each
/// roll for the player who rolled (the reported side when `ours`): the value of the roll thrown
/// less the mean over all of them, which has expectation zero as the line's state is settled
/// before the roll.
fn cube_luck<P, C: RolloutCube<P>>(
    cube: &C,
    position: &P,
    line: &mut Line<C::State>,
    rolls: &[Probabilities; 21],
    thrown: usize,
    ours: bool,
) {
    let mut values = [CubeValue::default(); 21];
    if !cube.roll_values(position, &line.state, rolls, ours, &mut values) {
        return;
    }
    let (mut equity, mut mwc) = (0.0, 0.0);
    for (roll, v) in ALL_ROLLS.iter().zip(&values) {
        let w = roll.weight() as f64 / 36.0;
        equity += w * v.equity;
        mwc += w * v.mwc;
    }
    line.luck.equity += values[thrown].equity - equity;
    line.luck.mwc += values[thrown].mwc - mwc;
}

/// Whether the next player on roll may double in some line still going on after this turn (the
/// lines' states seen from the player on roll now): only then is the value of the position after
/// this turn's play used, by that player's cube decision. A cubeless rollout asks for no values.
fn next_may_double<P, C: RolloutCube<P>>(cube: &C, lines: &Lines<C::State>) -> bool {
    lines.iter().flatten().any(|l| l.ended.is_none() && cube.may_double(&cube.swapped(&l.state)))
}
