//! The bot: an expectimax search over the opponent's dice with the evaluation of [`super::eval`].

use super::board::Position;
use super::dice_game::{Battlegammon, TurnPlay, TurnPosition};
use super::eval::{evaluate, Weights};
use super::plays::{legal_plays, legal_plays_into, Play};
use super::rules::Rules;
use gammon_core::dice::{Dice, DiceStream, ALL_ROLLS};
use gammon_core::error::{Error, Result};
use gammon_core::{Evaluator, Policy, Probabilities};

/// A Battlegammon bot. At ply 1 (the default) it ranks its plays by the evaluation, and for the
/// best `candidates` of them averages, over the opponent's 21 rolls, the evaluation after the
/// opponent's best reply; at ply 0 it plays the best play by the evaluation alone. Plies count
/// as backgammon's bot counts them: the lookahead beyond judging each play.
///
/// # Strength
///
/// Mirrored-dice duels of 2,000 games each (1,000 dice sequences, each played with both seatings;
/// `cargo run --release -p gammon-train --bin battlegammon-duel`, default rules, seed 2024):
///
/// | duel | won | lost | drawn | score |
/// |---|---|---|---|---|
/// | bot vs [`RandomPolicy`](gammon_core::RandomPolicy) | 1977 | 23 | 0 | 98.9% ± 0.2% |
/// | bot vs [`GreedyBot`](super::GreedyBot) | 1757 | 243 | 0 | 87.8% ± 0.7% |
/// | greedy vs random (for scale) | 1898 | 102 | 0 | 94.9% ± 0.5% |
///
/// The bot vs greedy duel takes about a minute on one core.
///
/// ```
/// use gammon_battlegammon::{Bot, Position};
/// use gammon_core::Dice;
/// let play = Bot::new().best_play(&Position::initial(), Dice::new(4, 3).unwrap()).unwrap();
/// assert_eq!(play.moves().len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Bot {
    rules: Rules,
    weights: Weights,
    ply: u8,
    candidates: usize,
}

impl Default for Bot {
    fn default() -> Bot {
        Bot::new()
    }
}

impl Bot {
    /// The default bot: default rules, ply 1, eight candidates.
    pub fn new() -> Bot {
        Bot { rules: Rules::default(), weights: Weights::default(), ply: 1, candidates: 8 }
    }

    /// The bot playing under `rules`.
    pub fn with_rules(rules: Rules) -> Result<Bot> {
        rules.validate()?;
        Ok(Bot { rules, ..Bot::new() })
    }

    /// Sets the search ply: 0 (evaluation only) or 1 (expectimax over the opponent's roll).
    pub fn with_ply(mut self, ply: u8) -> Result<Bot> {
        if ply > 1 {
            return Err(Error::InvalidArgument(format!("ply must be 0 or 1; got {ply}")));
        }
        self.ply = ply;
        Ok(self)
    }

    /// The search ply: 0 (evaluation only) or 1 (expectimax over the opponent's roll).
    pub fn ply(&self) -> u8 {
        self.ply
    }

    /// Sets how many of the best plays by the evaluation the ply-1 search examines (>= 1).
    pub fn with_candidates(mut self, candidates: usize) -> Result<Bot> {
        if candidates == 0 {
            return Err(Error::InvalidArgument("the search needs at least one candidate".into()));
        }
        self.candidates = candidates;
        Ok(self)
    }

    /// Replaces the evaluation's weights.
    pub fn with_weights(mut self, weights: Weights) -> Bot {
        self.weights = weights;
        self
    }

    /// The rules the bot plays under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The evaluation's chance that the side to move in `position` wins.
    pub fn evaluate(&self, position: &Position) -> f64 {
        match position.winner_with(&self.rules) {
            Some(side) => (side == position.turn()) as u8 as f64,
            None => evaluate(position, position.turn(), &self.weights),
        }
    }

    /// The bot's choice for `dice` in `position`. Refused for a finished position.
    pub fn best_play(&self, position: &Position, dice: Dice) -> Result<Play> {
        let plays = legal_plays(position, dice, &self.rules);
        if plays.is_empty() {
            return Err(Error::IllegalAction(format!("the game is over: {position:?} has a winner")));
        }
        Ok(plays[self.choose_among(position, &plays)])
    }

    /// Every legal play with the bot's chance of winning after it, best first: the searched
    /// candidates by their search value, then the others by the evaluation.
    pub fn rank_plays(&self, position: &Position, dice: Dice) -> Result<Vec<(Play, f64)>> {
        let plays = legal_plays(position, dice, &self.rules);
        if plays.is_empty() {
            return Err(Error::IllegalAction(format!("the game is over: {position:?} has a winner")));
        }
        let mut ranked: Vec<(usize, f64)> = self.static_ranking(position, &plays);
        if self.ply >= 1 {
            let n = self.candidates.min(ranked.len());
            let mut buffer = Vec::with_capacity(64);
            for entry in &mut ranked[..n] {
                entry.1 = self.expectation(&plays[entry.0], &mut buffer);
            }
            ranked[..n].sort_by(|a, b| b.1.total_cmp(&a.1));
        }
        Ok(ranked.into_iter().map(|(k, v)| (plays[k], v)).collect())
    }

    /// The index of the bot's choice among `plays` (the legal plays of the side to move, as
    /// [`Play`]s or as the [`TurnPlay`]s of [`Battlegammon`]).
    pub fn choose_among<P: AsRef<Play>>(&self, position: &Position, plays: &[P]) -> usize {
        if plays.len() == 1 {
            return 0;
        }
        if let Some(k) = plays.iter().position(|p| p.as_ref().wins()) {
            return k;
        }
        let ranked = self.static_ranking(position, plays);
        if self.ply < 1 {
            return ranked[0].0;
        }
        let mut buffer = Vec::with_capacity(64);
        let mut best = (f64::NEG_INFINITY, ranked[0].0);
        for &(k, _) in ranked.iter().take(self.candidates) {
            let value = self.expectation(plays[k].as_ref(), &mut buffer);
            if value > best.0 {
                best = (value, k);
            }
        }
        best.1
    }

    /// Indices of `plays` with the mover's evaluated chance after each, best first (stable).
    fn static_ranking<P: AsRef<Play>>(&self, position: &Position, plays: &[P]) -> Vec<(usize, f64)> {
        let me = position.turn();
        let mut ranked: Vec<(usize, f64)> = plays
            .iter()
            .map(AsRef::as_ref)
            .enumerate()
            .map(|(k, p)| (k, if p.wins() { 1.0 } else { evaluate(&p.position, me, &self.weights) }))
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        ranked
    }

    /// The mover's chance after `play`, averaged over the opponent's rolls and best replies.
    fn expectation(&self, play: &Play, buffer: &mut Vec<Play>) -> f64 {
        if play.wins() {
            return 1.0;
        }
        let after = play.position;
        let opponent = after.turn();
        let mut total = 0.0;
        for dice in ALL_ROLLS {
            legal_plays_into(&after, dice, &self.rules, buffer);
            let best_reply = buffer
                .iter()
                .map(|r| if r.wins() { 1.0 } else { evaluate(&r.position, opponent, &self.weights) })
                .fold(0.0f64, f64::max);
            total += dice.weight() as f64 * (1.0 - best_reply);
        }
        total / 36.0
    }
}

/// The bot as a rollout or duel policy. Build it with the rules of the [`Battlegammon`] it plays
/// (its search generates the opponent's replies under its own rules).
impl Policy<Battlegammon> for Bot {
    fn choose(
        &self,
        _: &Battlegammon,
        at: &TurnPosition,
        _: Dice,
        plays: &[TurnPlay],
        _: &mut DiceStream,
    ) -> usize {
        self.choose_among(&at.position, plays)
    }

    fn evaluator(&self) -> Option<&dyn Evaluator<TurnPosition>> {
        Some(self)
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "bot"
    }
}

/// The bot's evaluation as the five probabilities: the chance of winning, no draws or gammons
/// foreseen. It lets a rollout with the bot subtract the luck of each roll.
impl Evaluator<TurnPosition> for Bot {
    fn evaluate(&self, at: &TurnPosition) -> Probabilities {
        Probabilities { win: Bot::evaluate(self, &at.position), ..Probabilities::default() }
    }
}
