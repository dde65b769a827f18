//! The doubling cube in a rollout: what the driver asks of a game's cube rules.
//!
//! The driver knows nothing of cube values, owners or scores; a [`RolloutCube`] does. Checker
//! play does not depend on the cube (the policy plays the cubeless game), so a trial plays its
//! game once and follows one or two *cube lines* along it: before each roll the line's player
//! on roll decides whether to double, the opponent takes or passes, and a pass ends that line
//! (not the game, which goes on for the other line). A cube-decision rollout follows two lines
//! over the same dice, "no double" and "double, take", so their difference is measured trial by
//! trial.
//!
//! Once every line of a trial has ended by a pass, the rest of its game could change no cube
//! value, so the trial stops there, as GNU Backgammon's cubeful rollouts do; its cubeless
//! figures are then the policy's evaluation of the position at the pass (the player on roll
//! about to roll), as at truncation. A cubeful rollout's cubeless figures are therefore those of
//! games cut at the pass, not those of the cubeless rollout of the same seed, except where no
//! line ends by a pass (a cube nobody may turn gives exactly the cubeless rollout). A policy
//! without an evaluator plays every game to its end.

use crate::Probabilities;
use std::fmt::Debug;

/// What the player on roll's cube decision, and the answer to it, do to a cube line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CubeTurn<S> {
    /// No double: the line goes on in the same state.
    Play,
    /// A double taken (or beavered): the line goes on in this state, seen still from the player
    /// on roll, who plays next.
    Taken(S),
    /// A double passed: the line ends with the player on roll winning the cube's value. The value
    /// of that ending, as [`RolloutCube::settle`] gives it for a win of one point.
    Passed,
}

/// A line's value for the side the rollout reports for: the cubeful equity in the units of the
/// starting cube, and the match winning chance (0 in money play).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CubeValue {
    /// Cubeful equity: per unit of the starting cube in money play; in match play the match
    /// winning chance normalised to the starting stake (equivalent to money).
    pub equity: f64,
    /// Match winning chance (0 in money play).
    pub mwc: f64,
}

/// A game's cube rules and a cube player, for cubeful rollouts. The state is the cube (and the
/// score), always seen from the player on roll.
pub trait RolloutCube<P>: Sync {
    /// The cube and the score, seen from the player on roll.
    type State: Copy + Debug + Send + Sync;

    /// The state at the start of the rollout, seen from the player on roll there.
    fn start(&self) -> Self::State;

    /// The state after the player on roll doubles and the opponent takes, at the start (the
    /// second line of a cube-decision rollout); `None` where the player may not double.
    fn start_taken(&self) -> Option<Self::State>;

    /// True when the player on roll may double in `state`: only then is the position evaluated
    /// for a cube decision.
    fn may_double(&self, state: &Self::State) -> bool;

    /// The player on roll's cube decision in `position` (game not over) and the answer to it.
    /// `value` is the policy's evaluator's view of `position` for the player on roll when the
    /// play that led to it computed it ([`Policy::choose_valued`](crate::Policy::choose_valued)),
    /// for a cube player that decides on that evaluator to use instead of evaluating again.
    fn turn(&self, position: &P, state: &Self::State, value: Option<&Probabilities>)
        -> CubeTurn<Self::State>;

    /// The state seen by the other player, once the turn passes.
    fn swapped(&self, state: &Self::State) -> Self::State;

    /// The value, for the side the rollout reports for (`ours`: that side is the player on roll),
    /// of a game that ended with `points` (negative for a loss) for the player on roll times
    /// the cube in `state`.
    fn settle(&self, state: &Self::State, points: i8, ours: bool) -> CubeValue;

    /// The value, for the reported side, of stopping a game in `position` (not over, player on
    /// roll about to roll): its cubeful evaluation in `state`.
    fn truncated(&self, position: &P, state: &Self::State, ours: bool) -> CubeValue;

    /// What variance reduction measures the luck of a roll by, for a line in `state`: for each
    /// of the 21 rolls (in the order of [`ALL_ROLLS`](crate::dice::ALL_ROLLS)), an estimate of
    /// the line's value for the reported side once the player on roll in `position` has rolled
    /// it and played to a position whose cubeless chances for that player are `rolls[k]`, into
    /// `out`. The rollout subtracts, ply by ply, the value of the roll thrown less the mean over
    /// all 21, which has expectation zero whatever the estimate, since the state is settled
    /// before the roll: the closer the estimate to the line's value, the more noise it removes.
    /// False (the default) leaves the line's value plain.
    fn roll_values(
        &self,
        position: &P,
        state: &Self::State,
        rolls: &[Probabilities; 21],
        ours: bool,
        out: &mut [CubeValue; 21],
    ) -> bool {
        let _ = (position, state, rolls, ours, out);
        false
    }

    /// The equity a line ended by a pass is worth to the doubler: `settle(state, 1, ours)`.
    fn passed(&self, state: &Self::State, ours: bool) -> CubeValue {
        self.settle(state, 1, ours)
    }

    /// Short text for the rollout's setup description (so that only rollouts of the same cube
    /// context merge).
    fn describe(&self) -> String;

    /// The kind of figures the rollout reports: money or match.
    fn kind(&self) -> super::CubeKind;
}

/// A trial's cube lines: the first, and the second of a cube-decision rollout.
pub(crate) type Lines<S> = [Option<Line<S>>; 2];

/// One line of a trial: its state, and its value once it has ended.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line<S> {
    pub state: S,
    pub ended: Option<CubeValue>,
    /// The first cube decision is already made (the lines of a cube-decision rollout).
    pub decided: bool,
    /// The luck of the rolls so far, measured by [`RolloutCube::roll_values`], for the side
    /// the rollout reports for: subtracted from the line's value under variance reduction.
    pub luck: CubeValue,
}

/// No cube: the type a cubeless rollout's driver is instantiated with. Never asked anything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCube;

impl<P> RolloutCube<P> for NoCube {
    type State = ();

    fn start(&self) {}

    fn start_taken(&self) -> Option<()> {
        None
    }

    fn may_double(&self, _: &()) -> bool {
        false
    }

    fn turn(&self, _: &P, _: &(), _: Option<&Probabilities>) -> CubeTurn<()> {
        CubeTurn::Play
    }

    fn swapped(&self, _: &()) {}

    fn settle(&self, _: &(), _: i8, _: bool) -> CubeValue {
        CubeValue::default()
    }

    fn truncated(&self, _: &P, _: &(), _: bool) -> CubeValue {
        CubeValue::default()
    }

    fn describe(&self) -> String {
        String::new()
    }

    fn kind(&self) -> super::CubeKind {
        super::CubeKind::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pip_race::{Counts, PipRace};
    use crate::rollout::{rollout_game_cubeful, CubeKind, CubeLines, RolloutOptions, Start};
    use crate::{Evaluator, EvaluatorPolicy, RandomPolicy};

    /// A cube whose state says which side it is seen from (+1: the side the rollout reports for):
    /// every line it settles is worth 1 if the state was seen from the wrong side, 0 otherwise.
    struct Witness;

    impl RolloutCube<Counts> for Witness {
        type State = i32;

        fn start(&self) -> i32 {
            1
        }

        fn start_taken(&self) -> Option<i32> {
            Some(1)
        }

        fn may_double(&self, _: &i32) -> bool {
            true
        }

        fn turn(&self, _: &Counts, _: &i32, _: Option<&Probabilities>) -> CubeTurn<i32> {
            CubeTurn::Play
        }

        fn swapped(&self, state: &i32) -> i32 {
            -state
        }

        fn settle(&self, state: &i32, _: i8, ours: bool) -> CubeValue {
            CubeValue { equity: f64::from(u8::from((*state == 1) != ours)), mwc: 0.0 }
        }

        fn truncated(&self, _: &Counts, state: &i32, ours: bool) -> CubeValue {
            self.settle(state, 0, ours)
        }

        fn describe(&self) -> String {
            "witness".into()
        }

        fn kind(&self) -> CubeKind {
            CubeKind::Money
        }
    }

    #[test]
    fn cube_states_follow_the_player_on_roll_from_any_start() {
        let counts = Counts { to_roll: 30, other: 32 };
        let options = RolloutOptions { trials: 72, ..RolloutOptions::default() };
        let run = |start, lines| {
            rollout_game_cubeful(&PipRace, start, &RandomPolicy, &Witness, lines, &options, None)
        };
        for (start, lines) in [
            (Start::Position(counts), CubeLines::Cubeful),
            (Start::Position(counts), CubeLines::Decision),
            (Start::Opening(counts), CubeLines::Cubeful),
        ] {
            let r = run(start, lines).unwrap();
            assert_eq!(r.cubeful_equity(), Some(0.0), "{start:?} {lines:?}");
            assert_eq!(r.double_take().map(|d| d.0), (lines == CubeLines::Decision).then_some(0.0));
        }
        // Nobody doubles before the opening roll.
        assert!(run(Start::Opening(counts), CubeLines::Decision).is_err());
    }

    /// Doubles whenever it may, and the opponent always passes.
    struct Passer;

    impl RolloutCube<Counts> for Passer {
        type State = ();

        fn start(&self) {}

        fn start_taken(&self) -> Option<()> {
            Some(())
        }

        fn may_double(&self, _: &()) -> bool {
            true
        }

        fn turn(&self, _: &Counts, _: &(), _: Option<&Probabilities>) -> CubeTurn<()> {
            CubeTurn::Passed
        }

        fn swapped(&self, _: &()) {}

        fn settle(&self, _: &(), points: i8, ours: bool) -> CubeValue {
            let points = f64::from(points);
            CubeValue { equity: if ours { points } else { -points }, mwc: 0.0 }
        }

        fn truncated(&self, _: &Counts, _: &(), _: bool) -> CubeValue {
            unreachable!("no truncation in these rollouts")
        }

        fn describe(&self) -> String {
            "passer".into()
        }

        fn kind(&self) -> CubeKind {
            CubeKind::Money
        }
    }

    /// A made-up evaluator of the pip race: the side with fewer pips to throw is the favourite.
    struct Lead;

    impl crate::Evaluator<Counts> for Lead {
        fn evaluate(&self, p: &Counts) -> Probabilities {
            let win = (0.5 + f64::from(p.other - p.to_roll) / 100.0).clamp(0.0, 1.0);
            Probabilities { win, win_gammon: win / 10.0, ..Probabilities::default() }
        }
    }

    #[test]
    fn a_trial_stops_once_every_line_has_ended_by_a_pass() {
        let counts = Counts { to_roll: 30, other: 40 };
        let options =
            RolloutOptions { trials: 72, seed: 5, variance_reduction: false, ..RolloutOptions::default() };
        let start = Start::Position(counts);
        // The first decision is a double passed, before any roll: with an evaluator every trial
        // stops there, its cubeless figures the evaluation of the start (as at truncation), and
        // its cubeful value the point won.
        let policy = EvaluatorPolicy::new(Lead, "lead");
        let r = rollout_game_cubeful(&PipRace, start, &policy, &Passer, CubeLines::Cubeful, &options, None)
            .unwrap();
        let expected = Lead.evaluate(&counts).to_array();
        for (a, b) in r.probabilities.to_array().into_iter().zip(expected) {
            assert!((a - b).abs() < 1e-9, "{r:?}");
        }
        assert_eq!(r.cubeful_equity(), Some(1.0));
        assert!(r.cubeful_std_error().unwrap() < 1e-9);
        // A cube-decision rollout: its "double, take" line (which this cube lets the taker's
        // opponent redouble at once) ends by a pass before the first roll, its "no double" line
        // when the opponent doubles after it, so every trial stops after one roll (this cube
        // counts a pass as one point whatever the cube).
        let d = rollout_game_cubeful(&PipRace, start, &policy, &Passer, CubeLines::Decision, &options, None)
            .unwrap();
        assert_eq!((d.cubeful_equity(), d.double_take().map(|t| t.0)), (Some(-1.0), Some(1.0)));
        assert!(d.probabilities != r.probabilities && d.probabilities.win > 0.0 && d.probabilities.win < 1.0);
        // Without an evaluator the game goes on to its end for the cubeless figures: wins and
        // losses only (a truncated estimate would not be 0 or 1 trial by trial).
        let random =
            rollout_game_cubeful(&PipRace, start, &RandomPolicy, &Passer, CubeLines::Cubeful, &options, None)
                .unwrap();
        let win = random.probabilities.win * 72.0;
        assert!((win - win.round()).abs() < 1e-9 && random.probabilities.win > 0.5, "{random:?}");
        assert_eq!(random.cubeful_equity(), Some(1.0));
    }

    /// Never doubles. Only the side on roll at the start (state +1) may double, or, with `both`,
    /// either side.
    struct Owner {
        both: bool,
    }

    impl RolloutCube<Counts> for Owner {
        type State = i32;

        fn start(&self) -> i32 {
            1
        }

        fn start_taken(&self) -> Option<i32> {
            None
        }

        fn may_double(&self, state: &i32) -> bool {
            self.both || *state == 1
        }

        fn turn(&self, _: &Counts, _: &i32, _: Option<&Probabilities>) -> CubeTurn<i32> {
            CubeTurn::Play
        }

        fn swapped(&self, state: &i32) -> i32 {
            -state
        }

        fn settle(&self, _: &i32, _: i8, _: bool) -> CubeValue {
            CubeValue::default()
        }

        fn truncated(&self, _: &Counts, _: &i32, _: bool) -> CubeValue {
            CubeValue::default()
        }

        fn describe(&self) -> String {
            "owner".into()
        }

        fn kind(&self) -> CubeKind {
            CubeKind::Money
        }
    }

    /// The random policy, counting the plays it is asked to value and the others.
    #[derive(Default)]
    struct Counting {
        valued: std::sync::atomic::AtomicU64,
        plain: std::sync::atomic::AtomicU64,
    }

    impl crate::Policy<PipRace> for Counting {
        fn choose(
            &self,
            game: &PipRace,
            p: &Counts,
            dice: crate::dice::Dice,
            plays: &[Counts],
            stream: &mut crate::dice::DiceStream,
        ) -> usize {
            self.plain.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            RandomPolicy.choose(game, p, dice, plays, stream)
        }

        fn choose_valued(
            &self,
            game: &PipRace,
            p: &Counts,
            dice: crate::dice::Dice,
            plays: &[Counts],
            stream: &mut crate::dice::DiceStream,
        ) -> (usize, Option<Probabilities>) {
            self.valued.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            (RandomPolicy.choose(game, p, dice, plays, stream), None)
        }

        fn name(&self) -> &str {
            "counting"
        }
    }

    #[test]
    fn a_play_is_valued_only_where_the_next_player_may_double() {
        let options = RolloutOptions { trials: 36, threads: Some(1), ..RolloutOptions::default() };
        let start = Start::Position(Counts { to_roll: 40, other: 40 });
        let count = |both| {
            let policy = Counting::default();
            rollout_game_cubeful(
                &PipRace,
                start,
                &policy,
                &Owner { both },
                CubeLines::Cubeful,
                &options,
                None,
            )
            .unwrap();
            (policy.valued.into_inner(), policy.plain.into_inner())
        };
        // Only the side on roll at the start may double: the plays of that side (plies 0, 2,
        // ...) are not valued, the other side's are, so each game has as many of each or one
        // more unvalued.
        let (valued, plain) = count(false);
        assert!(valued > 36 && plain >= valued && plain - valued <= 36, "{valued} {plain}");
        // Both sides may double: every play is valued.
        let (valued, plain) = count(true);
        assert!(valued > 72 && plain == 0, "{valued} {plain}");
    }
}
