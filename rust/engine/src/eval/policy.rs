//! Policies: uniform random, greedy on an evaluator, and the built-in choices by name.

use super::net::screen::Screen;
use super::net::NeuralNet;
use super::{best_play, Evaluator, Policy, Probabilities, PubevalPolicy};
use crate::dice::{Dice, DiceStream};
use crate::dice_game::{Backgammon, DiceGame};
use crate::error::{Error, Result};

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

/// The backgammon policies that need no outside data, chosen by name (as the Python API's
/// `policy=` argument does).
///
/// ```
/// use gammon_engine::eval::BuiltinPolicy;
/// assert_eq!(BuiltinPolicy::from_name("pubeval").unwrap(), BuiltinPolicy::Pubeval);
/// assert!(BuiltinPolicy::from_name("gnubg").is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinPolicy {
    /// [`RandomPolicy`].
    Random,
    /// [`PubevalPolicy`], Tesauro's linear evaluator.
    Pubeval,
    /// The neural net at 0-ply, judging the [`KEEP`] plays of each roll that its screen
    /// ranks highest ([`NeuralNet::best_of_screened`]); it also lends its evaluator to
    /// truncation and variance reduction.
    Net,
}

impl BuiltinPolicy {
    /// `"random"`, `"pubeval"`, `"net"`, or `"default"` (the net, the strongest).
    pub fn from_name(name: &str) -> Result<BuiltinPolicy> {
        match name {
            "random" => Ok(BuiltinPolicy::Random),
            "pubeval" => Ok(BuiltinPolicy::Pubeval),
            "net" | "default" => Ok(BuiltinPolicy::Net),
            _ => Err(Error::InvalidArgument(format!(
                "unknown policy {name:?}: expected \"random\", \"pubeval\", \"net\" or \"default\""
            ))),
        }
    }
}

impl Policy<Backgammon> for BuiltinPolicy {
    #[inline]
    fn choose(
        &self,
        game: &Backgammon,
        position: &crate::Position,
        dice: Dice,
        plays: &[crate::Play],
        stream: &mut DiceStream,
    ) -> usize {
        match self {
            BuiltinPolicy::Random => RandomPolicy.choose(game, position, dice, plays, stream),
            BuiltinPolicy::Pubeval => PubevalPolicy.choose(game, position, dice, plays, stream),
            BuiltinPolicy::Net if plays.len() == 1 => 0,
            BuiltinPolicy::Net => {
                NeuralNet::builtin().best_of_screened(Screen::builtin(), KEEP, position, plays).0
            }
        }
    }

    fn evaluator(&self) -> Option<&dyn Evaluator<crate::Position>> {
        match self {
            BuiltinPolicy::Net => Some(NeuralNet::builtin()),
            _ => None,
        }
    }

    fn roll_values(
        &self,
        _: &Backgammon,
        position: &crate::Position,
        plays: &mut Vec<crate::Play>,
        out: &mut [Probabilities; 21],
        best: &mut [usize; 21],
    ) -> bool {
        match self {
            BuiltinPolicy::Net => {
                NeuralNet::builtin().roll_values_screened(
                    Screen::builtin(),
                    KEEP,
                    position,
                    plays,
                    out,
                    best,
                );
                true
            }
            _ => false,
        }
    }

    fn chooses_the_evaluators_best(&self) -> bool {
        // `choose` and `roll_values` both take `NeuralNet::best_of_screened`'s play.
        *self == BuiltinPolicy::Net
    }

    fn deterministic(&self) -> bool {
        *self != BuiltinPolicy::Random
    }

    fn name(&self) -> &str {
        match self {
            BuiltinPolicy::Random => "random",
            BuiltinPolicy::Pubeval => "pubeval",
            BuiltinPolicy::Net => "net",
        }
    }
}

/// How many plays of a roll the net policy judges with the full nets. Rollouts spend nearly all
/// their time judging plays; with eight, the full nets judge about a third as many as without
/// the screen, and the play chosen is nearly always the one they would choose among all (the
/// figures are in the `train_screen` example's report and the training notes).
pub const KEEP: usize = 8;
