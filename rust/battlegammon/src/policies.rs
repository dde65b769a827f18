//! The greedy policy and the Battlegammon policies by name. The uniform random policy is the
//! generic [`RandomPolicy`], which serves every [`crate::DiceGame`].

use super::board::Position;
use super::bot::Bot;
use super::dice_game::{Battlegammon, TurnPlay, TurnPosition};
use super::plays::Play;
use super::rules::Rules;
use super::side::Side;
use gammon_core::dice::{Dice, DiceStream};
use gammon_core::error::{Error, Result};
use gammon_core::{Evaluator, Policy, RandomPolicy};

/// The one-ply greedy heuristic: a winning play if there is one, else the play that leaves the
/// most tokens on the opponent's colour (a finished token counting once more), then the most
/// progress (fewest pips to go); the first such play in the list on a tie.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyBot;

impl GreedyBot {
    /// The greedy policy.
    pub fn new() -> GreedyBot {
        GreedyBot
    }

    /// How much the greedy policy likes `position` for `side` (higher is better).
    pub fn score(position: &Position, side: Side, wins: bool) -> i64 {
        if wins {
            return i64::MAX;
        }
        let across = position.on_opponent_colour(side) as i64 + position.in_goal(side) as i64;
        across * 1000 - position.pips(side) as i64
    }

    /// The index of the greedy choice among `plays` (not empty; [`Play`]s or [`TurnPlay`]s) of the
    /// side to move in `position`.
    pub fn pick<P: AsRef<Play>>(&self, position: &Position, plays: &[P]) -> usize {
        let side = position.turn();
        let mut best = (i64::MIN, 0);
        for (k, play) in plays.iter().map(AsRef::as_ref).enumerate() {
            let score = GreedyBot::score(&play.position, side, play.wins());
            if score > best.0 {
                best = (score, k);
            }
        }
        best.1
    }
}

impl Policy<Battlegammon> for GreedyBot {
    fn choose(
        &self,
        _: &Battlegammon,
        at: &TurnPosition,
        _: Dice,
        plays: &[TurnPlay],
        _: &mut DiceStream,
    ) -> usize {
        self.pick(&at.position, plays)
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "greedy"
    }
}

/// The Battlegammon policies chosen by name, as the Python API's `policy=` argument does.
///
/// ```
/// use gammon_battlegammon::{BuiltinPolicy, Rules};
/// let rules = Rules::default();
/// assert!(matches!(BuiltinPolicy::from_name("default", &rules).unwrap(), BuiltinPolicy::Bot(_)));
/// assert!(BuiltinPolicy::from_name("pubeval", &rules).is_err());
/// ```
#[derive(Clone, Debug)]
pub enum BuiltinPolicy {
    /// [`RandomPolicy`]: uniform among the legal plays.
    Random,
    /// [`GreedyBot`].
    Greedy,
    /// The expectimax [`Bot`] at its default ply, playing under the given rules.
    Bot(Bot),
}

impl BuiltinPolicy {
    /// `"random"`, `"greedy"` or `"bot"` (the strongest, and the default everywhere a policy is
    /// asked for), the bot playing under `rules`; `"default"` is still read as `"bot"` so that
    /// older calls keep working.
    pub fn from_name(name: &str, rules: &Rules) -> Result<BuiltinPolicy> {
        match name {
            "random" => Ok(BuiltinPolicy::Random),
            "greedy" => Ok(BuiltinPolicy::Greedy),
            "bot" | "default" => Ok(BuiltinPolicy::Bot(Bot::with_rules(*rules)?)),
            _ => Err(Error::InvalidArgument(format!(
                "unknown Battlegammon policy {name:?}: expected \"random\", \"greedy\" or \"bot\""
            ))),
        }
    }
}

impl Policy<Battlegammon> for BuiltinPolicy {
    fn choose(
        &self,
        game: &Battlegammon,
        at: &TurnPosition,
        dice: Dice,
        plays: &[TurnPlay],
        stream: &mut DiceStream,
    ) -> usize {
        match self {
            BuiltinPolicy::Random => RandomPolicy.choose(game, at, dice, plays, stream),
            BuiltinPolicy::Greedy => GreedyBot.choose(game, at, dice, plays, stream),
            BuiltinPolicy::Bot(bot) => bot.choose(game, at, dice, plays, stream),
        }
    }

    fn evaluator(&self) -> Option<&dyn Evaluator<TurnPosition>> {
        match self {
            BuiltinPolicy::Bot(bot) => Some(bot),
            _ => None,
        }
    }

    fn deterministic(&self) -> bool {
        !matches!(self, BuiltinPolicy::Random)
    }

    fn name(&self) -> &str {
        match self {
            BuiltinPolicy::Random => "random",
            BuiltinPolicy::Greedy => "greedy",
            BuiltinPolicy::Bot(_) => "bot",
        }
    }
}
