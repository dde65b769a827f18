//! A game from the first roll to a win or a draw: dice, turns, the turn cap and the history.

use super::board::Position;
use super::plays::{find_play, legal_plays, Move, Play};
use super::rules::Rules;
use super::side::{Side, GOAL_TO_WIN};
use gammon_core::dice::{Dice, DiceStream};
use gammon_core::error::{Error, Result};
use std::hash::{BuildHasher, Hasher};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side met a winning condition.
    Win(Side),
    /// Neither side can move under any roll, or the turn cap was reached.
    Draw,
}

/// Why a game ended: the winning condition met, or the kind of draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The winner has three tokens on the opponent's start field (its goal).
    Goal,
    /// The winner has eight tokens (or, with `count_distinct_fields`, fields) on the opponent's
    /// colour.
    Colour,
    /// Neither side can move under any roll.
    Deadlock,
    /// The game reached the turn cap.
    TurnCap,
}

impl EndReason {
    /// `"goal"`, `"colour"`, `"deadlock"` or `"turn_cap"`.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Goal => "goal",
            EndReason::Colour => "colour",
            EndReason::Deadlock => "deadlock",
            EndReason::TurnCap => "turn_cap",
        }
    }
}

/// One turn of a game's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The side that moved.
    pub side: Side,
    /// Its roll.
    pub dice: Dice,
    /// What it played (possibly the pass of an unplayable roll).
    pub play: Play,
}

/// A game under a set of [`Rules`]: roll, choose one of the legal plays, repeat until it is over.
///
/// Dice come from a seeded [`DiceStream`] or from the caller ([`Game::set_dice`]). An action the
/// rules do not allow returns `Err(Error::IllegalAction)` (or `IllegalPlay`) and changes nothing.
///
/// ```
/// use gammon_battlegammon::{Game, Rules, Side};
/// let mut game = Game::new(Some(7), Rules::default()).unwrap();
/// while !game.is_over() {
///     game.roll().unwrap();
///     let play = game.legal_plays().unwrap()[0];
///     game.play(&play).unwrap();
/// }
/// assert!(game.turns() <= 1000);
/// assert!(game.roll().is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    position: Position,
    stream: DiceStream,
    dice: Option<Dice>,
    plays: Vec<Play>,
    history: Vec<Turn>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game from the initial position (Black to move). `seed` fixes the dice; `None` draws a
    /// seed from the operating system's hasher keys.
    pub fn new(seed: Option<u64>, rules: Rules) -> Result<Game> {
        Game::from_position(Position::initial(), seed, rules)
    }

    /// A game continuing from `position` (validated again), the side to move first.
    pub fn from_position(position: Position, seed: Option<u64>, rules: Rules) -> Result<Game> {
        rules.validate()?;
        position.validate()?;
        let seed =
            seed.unwrap_or_else(|| std::collections::hash_map::RandomState::new().build_hasher().finish());
        let mut game = Game {
            rules,
            position,
            stream: DiceStream::new(seed, 0),
            dice: None,
            plays: Vec::new(),
            history: Vec::new(),
            outcome: None,
        };
        game.outcome = game.decide();
        Ok(game)
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.position.turn()
    }

    /// The dice rolled and not yet played, if any.
    pub fn dice(&self) -> Option<Dice> {
        self.dice
    }

    /// Turns played so far (passes included).
    pub fn turns(&self) -> u32 {
        self.history.len() as u32
    }

    /// Every turn played, in order.
    pub fn history(&self) -> &[Turn] {
        &self.history
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The winner; `None` while the game runs or after a draw.
    pub fn winner(&self) -> Option<Side> {
        match self.outcome {
            Some(Outcome::Win(side)) => Some(side),
            _ => None,
        }
    }

    /// Whether the game ended in a draw.
    pub fn is_draw(&self) -> bool {
        self.outcome == Some(Outcome::Draw)
    }

    /// Why the game ended, if it has. A win by both conditions at once counts as the goal.
    pub fn end_reason(&self) -> Option<EndReason> {
        match self.outcome? {
            Outcome::Win(side) if self.position.in_goal(side) >= GOAL_TO_WIN => Some(EndReason::Goal),
            Outcome::Win(_) => Some(EndReason::Colour),
            Outcome::Draw if self.position.is_deadlocked() => Some(EndReason::Deadlock),
            Outcome::Draw => Some(EndReason::TurnCap),
        }
    }

    /// Rolls the dice from the game's stream. Refused when the game is over or the dice are
    /// already rolled.
    pub fn roll(&mut self) -> Result<Dice> {
        self.check_can_roll()?;
        let dice = self.stream.roll();
        self.accept_dice(dice);
        Ok(dice)
    }

    /// Uses `dice` as the roll of the side to move (dice chosen by the caller).
    pub fn set_dice(&mut self, dice: Dice) -> Result<()> {
        self.check_can_roll()?;
        self.accept_dice(dice);
        Ok(())
    }

    fn check_can_roll(&self) -> Result<()> {
        if self.is_over() {
            return Err(Error::IllegalAction("the game is over; nothing can be rolled".into()));
        }
        if let Some(d) = self.dice {
            return Err(Error::IllegalAction(format!(
                "the dice are already rolled ({}); play them first",
                d.to_text()
            )));
        }
        Ok(())
    }

    fn accept_dice(&mut self, dice: Dice) {
        self.dice = Some(dice);
        self.plays = legal_plays(&self.position, dice, &self.rules);
    }

    /// The legal plays of the rolled dice. Refused before the roll.
    pub fn legal_plays(&self) -> Result<Vec<Play>> {
        self.check_can_play()?;
        Ok(self.plays.clone())
    }

    fn check_can_play(&self) -> Result<Dice> {
        if self.is_over() {
            return Err(Error::IllegalAction("the game is over; nothing can be played".into()));
        }
        self.dice.ok_or_else(|| Error::IllegalAction("roll the dice before playing".into()))
    }

    /// Plays `play`, which must lead to the position of one of [`Game::legal_plays`].
    pub fn play(&mut self, play: &Play) -> Result<()> {
        let dice = self.check_can_play()?;
        let chosen = self.plays.iter().find(|p| p.position == play.position).copied().ok_or_else(|| {
            Error::IllegalPlay(format!("{} is not a legal play of {} here", play.notation(), dice.to_text()))
        })?;
        self.commit(dice, chosen);
        Ok(())
    }

    /// Plays the token moves `moves` ((from, to) field pairs in the order played); an empty list
    /// passes when the roll cannot be played.
    pub fn play_moves(&mut self, moves: &[(u8, u8)]) -> Result<()> {
        let dice = self.check_can_play()?;
        let moves: Vec<Move> = moves.iter().map(|&(from, to)| Move { from, to }).collect();
        let play = find_play(&self.position, dice, &self.rules, &moves).ok_or_else(|| {
            let text: Vec<String> = moves.iter().map(|m| format!("{}/{}", m.from, m.to)).collect();
            let text = if text.is_empty() { "pass".to_string() } else { text.join(" ") };
            Error::IllegalPlay(format!("{text} is not a legal play of {} here", dice.to_text()))
        })?;
        self.commit(dice, play);
        Ok(())
    }

    fn commit(&mut self, dice: Dice, play: Play) {
        self.history.push(Turn { side: self.position.turn(), dice, play });
        self.position = play.position;
        self.dice = None;
        self.plays.clear();
        self.outcome = self.decide();
    }

    fn decide(&self) -> Option<Outcome> {
        outcome_of(&self.position, self.turns(), &self.rules)
    }
}

/// The outcome of a game standing at `position` after `turns` turns, if it is over: a winner,
/// a deadlock, or the turn cap.
pub fn outcome_of(position: &Position, turns: u32, rules: &Rules) -> Option<Outcome> {
    if let Some(side) = position.winner_with(rules) {
        Some(Outcome::Win(side))
    } else if position.is_deadlocked() || turns >= rules.turn_cap {
        Some(Outcome::Draw)
    } else {
        None
    }
}
