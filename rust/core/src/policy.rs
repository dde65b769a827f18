//! Evaluators and policies: what a rollout or a duel asks of a player, in any [`DiceGame`].
//!
//! An [`Evaluator`] estimates a position's outcome as five cumulative probabilities. A [`Policy`]
//! picks one of the legal plays of a roll. A policy built on an evaluator (see
//! [`EvaluatorPolicy`]) also exposes it, which lets a rollout truncate games and reduce variance;
//! policies without one ([`RandomPolicy`]) play whole games with plain errors. The backgammon
//! bot's evaluators and policies are in the `gammon-bot` crate.

use crate::dice::{Dice, DiceStream};
use crate::dice_game::DiceGame;
use crate::probabilities::Probabilities;

/// Estimates who wins a position and how.
///
/// The position is seen from the player about to roll, and the game is not over.
pub trait Evaluator<P>: Sync {
    /// The five cumulative probabilities for the player about to roll.
    fn evaluate(&self, position: &P) -> Probabilities;
}

/// Chooses one of the legal plays of a roll.
pub trait Policy<G: DiceGame>: Sync {
    /// The index in `plays` (the legal plays of `dice` from `position`, never empty) of the play
    /// to make. `dice_stream` is the trial's own stream, for policies that need randomness: drawing
    /// from it keeps a rollout reproducible.
    fn choose(
        &self,
        game: &G,
        position: &G::Position,
        dice: Dice,
        plays: &[G::Play],
        dice_stream: &mut DiceStream,
    ) -> usize;

    /// [`Policy::choose`], with the chosen play's value for the player who makes it by the
    /// policy's evaluator ([`Policy::evaluator`]; up to rounding, what [`value_after`] gives) when
    /// making the choice computed it, `None` otherwise. A cubeful rollout takes it, turned
    /// around, as the next player's view of the position for that player's cube decision
    /// instead of evaluating the position again.
    fn choose_valued(
        &self,
        game: &G,
        position: &G::Position,
        dice: Dice,
        plays: &[G::Play],
        dice_stream: &mut DiceStream,
    ) -> (usize, Option<Probabilities>) {
        (self.choose(game, position, dice, plays, dice_stream), None)
    }

    /// The choice of [`Policy::choose_valued`] (with the value when `valued`, else as
    /// [`Policy::choose`], value `None`) made without the list of plays: the position the chosen
    /// play leads to, as `game.after` gives it, for a policy that can choose among the resulting
    /// positions alone, which costs less to generate. It must be the position and value the
    /// choice among the plays would give, so that a rollout comes out the same either way.
    /// `None` (the default) when the policy cannot, or cannot this time (equals whose order only
    /// the plays tell); the caller then asks [`Policy::choose`] or [`Policy::choose_valued`].
    fn choose_after(
        &self,
        game: &G,
        position: &G::Position,
        dice: Dice,
        valued: bool,
        dice_stream: &mut DiceStream,
    ) -> Option<(G::Position, Option<Probabilities>)> {
        let _ = (game, position, dice, valued, dice_stream);
        None
    }

    /// The evaluator behind the choices, if any. A rollout uses it to truncate games and to
    /// measure the luck of each roll (variance reduction).
    fn evaluator(&self) -> Option<&dyn Evaluator<G::Position>> {
        None
    }

    /// For each of the 21 rolls ([`ALL_ROLLS`](crate::dice::ALL_ROLLS) order) from `position`, the
    /// value for the player to roll of a play of that roll by the policy's evaluator, into
    /// `out`; `false`, with `out` untouched, without an evaluator. `plays` is scratch space. A
    /// rollout measures the luck of each roll with it, once a ply: the value of the roll thrown
    /// minus the mean over all 21. Any values that depend on the position and the roll alone
    /// keep the rollout unbiased, since that mean is exact; the closer they follow the game, the
    /// more variance they remove. By default each roll's play is the evaluator's best; a policy
    /// may take a cheaper one (the net policies take the screen's first play in contact), or
    /// judge the plays of a position's rolls together more cheaply than one by one.
    ///
    /// `best` gets the index of each roll's play in the list `game.legal_plays` makes.
    fn roll_values(
        &self,
        game: &G,
        position: &G::Position,
        plays: &mut Vec<G::Play>,
        out: &mut [Probabilities; 21],
        best: &mut [usize; 21],
    ) -> bool {
        let Some(evaluator) = self.evaluator() else {
            return false;
        };
        for ((value, k), roll) in out.iter_mut().zip(best.iter_mut()).zip(crate::dice::ALL_ROLLS) {
            game.legal_plays(position, roll, plays);
            (*k, *value) = best_play(game, evaluator, plays);
        }
        true
    }

    /// True when [`Policy::choose`] always takes the play [`Policy::roll_values`] gives for the
    /// roll, so that a rollout measuring each roll's luck reuses that choice instead of making
    /// it again. False unless a policy says so.
    fn chooses_the_evaluators_best(&self) -> bool {
        false
    }

    /// True when [`Policy::choose`] depends on its position, dice and plays alone and never
    /// draws from the stream, so that a rollout may make a choice once for all the trials that
    /// meet the same position and roll (its first two plies). False unless a policy says so.
    fn deterministic(&self) -> bool {
        false
    }

    /// Called by a driver wherever the choices to come must not depend on what this thread
    /// chose before: at the start of each game (a rollout's trial, a duel's game) and after a
    /// step that a rollout's trials share, which another thread may have made. A policy that
    /// keeps something between its calls on a thread (the net policies' carried hidden sums)
    /// drops it here. Does nothing by default.
    fn forget_history(&self) {}

    /// A short name for reports, e.g. `"pubeval"`.
    fn name(&self) -> &str;

    /// What names the weights this policy plays with, where a later release may change them
    /// under the same [`name`](Policy::name): a rollout's setup carries it, so that results made
    /// with other weights never merge. `None` (the default) for a policy whose play never
    /// changes.
    fn weights(&self) -> Option<&str> {
        None
    }
}

/// The value of `play` for the player who made it: the game result if it ended the game, else the
/// evaluator's view of the position that follows, turned around.
pub fn value_after<G: DiceGame>(
    game: &G,
    evaluator: &(impl Evaluator<G::Position> + ?Sized),
    play: &G::Play,
) -> Probabilities {
    let next = game.after(play);
    match game.result(&next) {
        Some(points) => game.result_probabilities(-points),
        None => evaluator.evaluate(&next).flipped(),
    }
}

/// The play of `plays` with the highest cubeless equity under `evaluator` (the first one on ties),
/// and its value for the player who makes it. `plays` must not be empty.
pub fn best_play<G: DiceGame>(
    game: &G,
    evaluator: &(impl Evaluator<G::Position> + ?Sized),
    plays: &[G::Play],
) -> (usize, Probabilities) {
    let mut best = (0, value_after(game, evaluator, &plays[0]));
    let mut best_equity = best.1.equity();
    for (k, play) in plays.iter().enumerate().skip(1) {
        let value = value_after(game, evaluator, play);
        let equity = value.equity();
        if equity > best_equity {
            best = (k, value);
            best_equity = equity;
        }
    }
    best
}

/// Picks uniformly among the legal plays (each distinct resulting position equally likely), with
/// the trial's own dice stream.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPolicy;

impl<G: DiceGame> Policy<G> for RandomPolicy {
    #[inline]
    fn choose(&self, _: &G, _: &G::Position, _: Dice, plays: &[G::Play], stream: &mut DiceStream) -> usize {
        if plays.len() == 1 {
            0
        } else {
            stream.below(plays.len())
        }
    }

    fn name(&self) -> &str {
        "random"
    }
}

/// Plays the move with the highest cubeless equity under an evaluator (0-ply, GNU Backgammon's
/// "evaluation" chequer play), and offers that evaluator to the rollout.
#[derive(Clone, Debug)]
pub struct EvaluatorPolicy<E> {
    evaluator: E,
    name: String,
}

impl<E> EvaluatorPolicy<E> {
    /// A policy playing greedily on `evaluator`, called `name` in reports.
    pub fn new(evaluator: E, name: impl Into<String>) -> Self {
        EvaluatorPolicy { evaluator, name: name.into() }
    }

    /// The evaluator behind the policy.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }
}

impl<G: DiceGame, E: Evaluator<G::Position>> Policy<G> for EvaluatorPolicy<E> {
    fn choose(&self, game: &G, _: &G::Position, _: Dice, plays: &[G::Play], _: &mut DiceStream) -> usize {
        if plays.len() == 1 {
            return 0;
        }
        best_play(game, &self.evaluator, plays).0
    }

    fn evaluator(&self) -> Option<&dyn Evaluator<G::Position>> {
        Some(&self.evaluator)
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        &self.name
    }
}
