//! Battlegammon as a [`DiceGame`]: what lets the rollout driver and the duel harness run it.
//!
//! The turn cap makes the number of turns played part of what decides the rest of a game, so the
//! game's positions are a [`TurnPosition`] (the board and that count) and its plays a
//! [`TurnPlay`].

use super::board::Position;
use super::game::{outcome_of, Outcome};
use super::plays::{legal_plays_into, Play};
use super::rules::Rules;
use gammon_core::dice::Dice;
use gammon_core::dice_game::DiceGame;
use gammon_core::Probabilities;

/// Battlegammon under a set of [`Rules`], as a [`DiceGame`].
///
/// Results count 1 for a win, -1 for a loss and 0 for a draw (the turn cap, or a deadlock).
/// Battlegammon has no gammons; a draw is the outcome's own `draw`, and counts as half a win
/// in `win` as in every game, so a drawn game's equity is 0. An average over games reads back
/// with [`Chances`]: `P(win) = win − draw/2`, `P(lose) = 1 − win − draw/2`,
/// `equity = P(win) − P(lose)`.
///
/// ```
/// use gammon_battlegammon::{Battlegammon, Rules, TurnPosition};
/// use gammon_core::{Dice, DiceGame};
/// let game = Battlegammon::new(Rules { turn_cap: 1, ..Rules::default() }).unwrap();
/// let start = TurnPosition::initial();
/// assert_eq!(game.result(&start), None);
/// let mut plays = Vec::new();
/// game.legal_plays(&start, Dice::new(4, 2).unwrap(), &mut plays);
/// let after = game.after(&plays[0]);
/// assert_eq!(after.turns, 1);
/// assert_eq!(game.result(&after), Some(0)); // the turn cap: a draw
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Battlegammon {
    rules: Rules,
}

impl Battlegammon {
    /// The game under `rules` (validated).
    pub fn new(rules: Rules) -> gammon_core::Result<Battlegammon> {
        rules.validate()?;
        Ok(Battlegammon { rules })
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

/// A position and the turns played to reach it (counted towards the turn cap).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnPosition {
    /// The board and the side to move.
    pub position: Position,
    /// Turns played so far, passes included.
    pub turns: u32,
}

impl TurnPosition {
    /// `position` with no turn played yet: the turn cap counts from here.
    pub fn new(position: Position) -> TurnPosition {
        TurnPosition { position, turns: 0 }
    }

    /// The initial position, Black to move, no turn played.
    pub fn initial() -> TurnPosition {
        TurnPosition::new(Position::initial())
    }
}

/// A legal play and the turns played once it is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnPlay {
    /// The play.
    pub play: Play,
    /// Turns played after it.
    pub turns: u32,
}

impl AsRef<Play> for TurnPlay {
    fn as_ref(&self) -> &Play {
        &self.play
    }
}

impl AsRef<Play> for Play {
    fn as_ref(&self) -> &Play {
        self
    }
}

impl DiceGame for Battlegammon {
    type Position = TurnPosition;
    type Play = TurnPlay;

    fn rules_text(&self) -> String {
        format!("{:?}", self.rules())
    }

    fn legal_plays(&self, position: &TurnPosition, dice: Dice, out: &mut Vec<TurnPlay>) {
        thread_local! {
            // The plays as the rules generate them, before the turn count is attached; kept per
            // thread so that a rollout does not allocate on every ply.
            static PLAYS: std::cell::RefCell<Vec<Play>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        out.clear();
        let turns = position.turns + 1;
        PLAYS.with_borrow_mut(|plays| {
            legal_plays_into(&position.position, dice, &self.rules, plays);
            out.extend(plays.iter().map(|&play| TurnPlay { play, turns }));
        });
    }

    fn after(&self, play: &TurnPlay) -> TurnPosition {
        TurnPosition { position: play.play.position, turns: play.turns }
    }

    fn result(&self, position: &TurnPosition) -> Option<i8> {
        outcome_of(&position.position, position.turns, &self.rules).map(|outcome| match outcome {
            Outcome::Win(side) if side == position.position.turn() => 1,
            Outcome::Win(_) => -1,
            Outcome::Draw => 0,
        })
    }

    fn pass_turn(&self, position: &TurnPosition) -> TurnPosition {
        TurnPosition { position: position.position.passed(), turns: position.turns }
    }
}

/// Win, loss and draw chances read from the probabilities of a Battlegammon result or rollout,
/// where `win` counts a draw as half a win (see [`Probabilities::draw`]).
///
/// ```
/// use gammon_battlegammon::{Battlegammon, Chances};
/// use gammon_core::DiceGame;
/// let draw = Chances::from_probabilities(&Battlegammon::default().result_probabilities(0));
/// assert_eq!((draw.win, draw.lose, draw.draw), (0.0, 0.0, 1.0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Chances {
    /// Games won.
    pub win: f64,
    /// Games lost.
    pub lose: f64,
    /// Games drawn.
    pub draw: f64,
}

impl Chances {
    /// The chances behind `p`.
    pub fn from_probabilities(p: &Probabilities) -> Chances {
        Chances { win: p.win - p.draw / 2.0, lose: 1.0 - p.win - p.draw / 2.0, draw: p.draw }
    }

    /// `win - lose`: the equity of a game worth one point with draws worth nothing.
    pub fn equity(&self) -> f64 {
        self.win - self.lose
    }
}
