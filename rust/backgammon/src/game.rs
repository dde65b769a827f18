//! One game as a state machine that cannot be driven into an illegal state.
//!
//! The game moves through [`Phase`]s: the opening roll (one die each, ties re-rolled, the higher die
//! plays both numbers), then turns of roll-or-double and play, with cube answers and resignations
//! in between. Every action checks that the rules allow it *now*; a refused action returns
//! `Err(Error::IllegalAction)` naming the reason and leaves the game exactly as it was.
//!
//! ```
//! use gammon_backgammon::Game;
//! let mut g = Game::new(Some(7), Default::default());
//! g.set_dice(3, 1).unwrap(); // opening: player 0 threw 3, player 1 threw 1
//! assert_eq!(g.turn(), Some(0));
//! g.play_text("8/5 6/5").unwrap();
//! assert_eq!(g.turn(), Some(1));
//! g.double().unwrap();
//! g.drop().unwrap();
//! assert_eq!((g.winner(), g.points()), (Some(1), 1));
//! assert!(g.roll().is_err());
//! ```

mod cube_actions;
mod ids;
pub mod record;
mod resignation;
#[cfg(test)]
mod tests;

pub use record::{Action, EndReason, GameResult, ResultKind};

use crate::board::{Position, OPPONENT_BAR};
use crate::cube::{Cube, CubeRules};
use crate::moves::{legal_plays, Play};
use gammon_core::dice::{Dice, DiceStream};
use gammon_core::error::{Error, Result};

/// Where a game stands: what the player to act may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Before the opening roll.
    Opening,
    /// The player on roll may double or roll.
    Rolling,
    /// The player on roll must play these dice.
    Moving(Dice),
    /// The player on roll has doubled; the opponent must take, drop or beaver.
    Doubled,
    /// The opponent beavered; the player on roll (the first doubler) must take or drop.
    Beavered,
    /// The game is over.
    Over(GameResult),
}

/// The match a game belongs to: length (0 = money), scores before the game, Crawford flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MatchContext {
    /// Points needed to win the match; 0 for money play.
    pub length: u32,
    /// Scores of players 0 and 1 before this game.
    pub score: [u32; 2],
    /// This game is the Crawford game: nobody may double.
    pub crawford: bool,
}

/// Everything that changes during a game; `Copy`, so an action builds a new one and commits it only
/// when every check has passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct State {
    /// Seen from `turn`, the player on roll (or who rolled, or who doubled first).
    pub position: Position,
    pub turn: u8,
    pub cube: Cube,
    pub phase: Phase,
    /// A resignation awaiting an answer: who offered it and what.
    pub resignation: Option<(u8, ResultKind)>,
}

impl State {
    pub(crate) fn opening() -> State {
        State {
            position: Position::initial(),
            turn: 0,
            cube: Cube::centred(),
            phase: Phase::Opening,
            resignation: None,
        }
    }
}

/// One game of backgammon between players 0 and 1.
#[derive(Clone, Debug)]
pub struct Game {
    rules: CubeRules,
    context: MatchContext,
    start: State,
    state: State,
    history: Vec<Action>,
    stream: DiceStream,
    seed: u64,
    stream_index: u64,
}

fn illegal(why: impl Into<String>) -> Error {
    Error::IllegalAction(why.into())
}

/// A seed for games created without one.
pub(crate) fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// Points a result of `kind` is worth with this cube: the Jacoby rule (money play, cube centred)
/// counts it single.
pub(crate) fn result_points(rules: &CubeRules, length: u32, cube: Cube, kind: ResultKind) -> u32 {
    let jacoby = rules.jacoby && length == 0 && cube.is_centred();
    let multiplier = if jacoby { 1 } else { kind.multiplier() };
    multiplier * cube.value()
}

/// What a finished game is worth on the board, seen from the winner who just bore off.
pub(crate) fn board_result(winner_view: &Position) -> ResultKind {
    if winner_view.off().1 > 0 {
        ResultKind::Single
    } else if winner_view.at(OPPONENT_BAR) < 0 || (1..=6).any(|i| winner_view.at(i) < 0) {
        ResultKind::Backgammon
    } else {
        ResultKind::Gammon
    }
}

impl Game {
    /// A money game from the starting position, dice from `seed` (a random seed when `None`).
    pub fn new(seed: Option<u64>, rules: CubeRules) -> Game {
        Game::with_context(seed, rules, MatchContext::default())
    }

    /// A game of a match (or money session when `context.length` is 0). In match play the Jacoby rule
    /// and beavers are switched off, and the cube is out of use in the Crawford game.
    pub fn with_context(seed: Option<u64>, rules: CubeRules, context: MatchContext) -> Game {
        Game::from_state(seed, rules, context, State::opening())
    }

    pub(crate) fn from_state(
        seed: Option<u64>,
        rules: CubeRules,
        context: MatchContext,
        state: State,
    ) -> Game {
        Game::from_stream(seed.unwrap_or_else(fresh_seed), 0, rules, context, state)
    }

    /// A game whose dice are stream `index` of `seed` (a match gives game k stream k).
    pub(crate) fn from_stream(
        seed: u64,
        index: u64,
        rules: CubeRules,
        context: MatchContext,
        state: State,
    ) -> Game {
        let mut rules = rules;
        if context.length > 0 {
            rules.jacoby = false;
            rules.beavers = false;
            rules.enabled = !context.crawford;
        }
        let stream = DiceStream::new(seed, index);
        Game { rules, context, start: state, state, history: Vec::new(), stream, seed, stream_index: index }
    }

    // ----- what the game looks like -----

    /// The cube options in force.
    pub fn rules(&self) -> &CubeRules {
        &self.rules
    }

    /// The match this game belongs to (length 0 for money).
    pub fn context(&self) -> &MatchContext {
        &self.context
    }

    /// The seed of the dice.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Where the game stands.
    pub fn phase(&self) -> Phase {
        self.state.phase
    }

    /// The board seen from the player on roll (the starting position before the opening roll; once
    /// a game is borne off, the loser's view, as the turn has passed to him).
    pub fn position(&self) -> Position {
        self.state.position
    }

    /// The player on roll (who rolls, plays, or has doubled), `None` before the opening roll.
    pub fn turn(&self) -> Option<u8> {
        (self.state.phase != Phase::Opening).then_some(self.state.turn)
    }

    /// The player who must act now: differs from [`Game::turn`] while a double or resignation awaits
    /// an answer; `None` before the opening roll and once the game is over.
    pub fn to_act(&self) -> Option<u8> {
        if let Some((by, _)) = self.state.resignation {
            return Some(1 - by);
        }
        match self.state.phase {
            Phase::Opening | Phase::Over(_) => None,
            Phase::Doubled => Some(1 - self.state.turn),
            Phase::Rolling | Phase::Moving(_) | Phase::Beavered => Some(self.state.turn),
        }
    }

    /// The dice to play, while the player on roll has rolled and not yet played.
    pub fn dice(&self) -> Option<Dice> {
        match self.state.phase {
            Phase::Moving(d) => Some(d),
            _ => None,
        }
    }

    /// The cube.
    pub fn cube(&self) -> Cube {
        self.state.cube
    }

    /// The cube's value.
    pub fn cube_value(&self) -> u32 {
        self.state.cube.value()
    }

    /// Who owns the cube, `None` while centred.
    pub fn cube_owner(&self) -> Option<u8> {
        self.state.cube.owner()
    }

    /// A double (or beaver) awaits an answer.
    pub fn double_offered(&self) -> bool {
        matches!(self.state.phase, Phase::Doubled | Phase::Beavered)
    }

    /// A resignation awaiting an answer: who offered it and what kind.
    pub fn resignation(&self) -> Option<(u8, ResultKind)> {
        self.state.resignation
    }

    /// True once the game has ended.
    pub fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// How the game ended, once over.
    pub fn result(&self) -> Option<GameResult> {
        match self.state.phase {
            Phase::Over(r) => Some(r),
            _ => None,
        }
    }

    /// The winner, once over.
    pub fn winner(&self) -> Option<u8> {
        self.result().map(|r| r.winner)
    }

    /// Points won (0 while the game goes on).
    pub fn points(&self) -> u32 {
        self.result().map_or(0, |r| r.points)
    }

    /// Single, gammon or backgammon, once over.
    pub fn result_kind(&self) -> Option<ResultKind> {
        self.result().map(|r| r.kind)
    }

    /// Every action so far, in order.
    pub fn history(&self) -> &[Action] {
        &self.history
    }

    /// The legal plays of the dice to play (empty unless the player on roll has rolled).
    pub fn legal_plays(&self) -> Vec<Play> {
        match self.state.phase {
            Phase::Moving(d) if self.state.resignation.is_none() => legal_plays(&self.state.position, d),
            _ => Vec::new(),
        }
    }

    // ----- actions -----

    fn commit(&mut self, state: State, action: Action) {
        self.state = state;
        self.history.push(action);
    }

    fn no_resignation(&self, doing: &str) -> Result<()> {
        match self.state.resignation {
            Some((by, kind)) => Err(illegal(format!(
                "cannot {doing}: player {by} has offered to resign a {kind}; player {} must accept or reject it",
                1 - by
            ))),
            None => Ok(()),
        }
    }

    fn wrong_phase(&self, doing: &str) -> Error {
        let now = match self.state.phase {
            Phase::Opening => "the game has not started: roll the opening roll".to_string(),
            Phase::Rolling => format!("player {} must roll or double", self.state.turn),
            Phase::Moving(d) => format!("player {} must play {}", self.state.turn, d.to_text()),
            Phase::Doubled => format!("player {} must answer the double", 1 - self.state.turn),
            Phase::Beavered => format!("player {} must answer the beaver", self.state.turn),
            Phase::Over(r) => format!("the game is over (player {} won {} points)", r.winner, r.points),
        };
        illegal(format!("cannot {doing} now: {now}"))
    }

    /// Rolls the dice from the game's seeded stream: the opening roll (one die each, ties
    /// re-rolled) or the roll of the player on roll. A roll that cannot be played passes the turn.
    pub fn roll(&mut self) -> Result<Dice> {
        self.no_resignation("roll")?;
        match self.state.phase {
            Phase::Opening => {
                let mut stream = self.stream.clone();
                let (a, b) = loop {
                    let (a, b) = (stream.die(), stream.die());
                    if a != b {
                        break (a, b);
                    }
                };
                let dice = self.set_dice(a, b)?;
                self.stream = stream;
                Ok(dice)
            }
            Phase::Rolling => {
                let mut stream = self.stream.clone();
                let d = stream.roll();
                self.set_dice(d.high(), d.low())?;
                self.stream = stream;
                Ok(d)
            }
            _ => Err(self.wrong_phase("roll")),
        }
    }

    /// Rolls given dice. For the opening roll `d1` is player 0's die and `d2` player 1's (they must
    /// differ: a tie is rolled again); later either order. A roll that cannot be played passes.
    pub fn set_dice(&mut self, d1: u8, d2: u8) -> Result<Dice> {
        self.no_resignation("roll")?;
        let dice = Dice::new(d1, d2)?;
        let mut s = self.state;
        let action = match s.phase {
            Phase::Opening => {
                if d1 == d2 {
                    return Err(illegal(format!(
                        "the opening roll {d1}-{d2} is a tie: ties are rolled again, so an opening roll never shows a double"
                    )));
                }
                s.turn = if d1 > d2 { 0 } else { 1 };
                Action::OpeningRoll { die0: d1, die1: d2 }
            }
            Phase::Rolling => Action::Roll { player: s.turn, dice },
            _ => return Err(self.wrong_phase("roll")),
        };
        let plays = legal_plays(&s.position, dice);
        if plays.len() == 1 && plays[0].is_empty() {
            s.position = s.position.swapped();
            s.turn = 1 - s.turn;
            s.phase = Phase::Rolling;
        } else {
            s.phase = Phase::Moving(dice);
        }
        self.commit(s, action);
        Ok(dice)
    }

    /// Plays `play` (one of [`Game::legal_plays`], matched by its resulting position).
    pub fn play(&mut self, play: &Play) -> Result<()> {
        self.no_resignation("play")?;
        let Phase::Moving(dice) = self.state.phase else { return Err(self.wrong_phase("play")) };
        let legal = legal_plays(&self.state.position, dice);
        let chosen = legal
            .iter()
            .find(|p| *p == play)
            .or_else(|| legal.iter().find(|p| p.position == play.position))
            .copied()
            .ok_or_else(|| {
                Error::IllegalPlay(format!(
                    "{} is not a legal play of {} here (position {})",
                    if play.is_empty() { "no move".to_string() } else { play.notation() },
                    dice.to_text(),
                    self.state.position.id()
                ))
            })?;
        let mut s = self.state;
        let mover = s.turn;
        // The turn passes even after the winning play, as GNU Backgammon records it.
        s.position = chosen.position.swapped();
        s.turn = 1 - mover;
        s.phase = Phase::Rolling;
        if chosen.position.we_have_won() {
            let kind = board_result(&chosen.position);
            s.phase = Phase::Over(GameResult {
                winner: mover,
                kind,
                points: self.score_of(kind),
                reason: EndReason::BorneOff,
            });
        }
        self.commit(s, Action::Play { player: mover, dice, play: chosen });
        Ok(())
    }

    /// Plays the legal play that `text` names in standard notation (`"24/18 13/11*"`); returns it.
    pub fn play_text(&mut self, text: &str) -> Result<Play> {
        self.no_resignation("play")?;
        let Phase::Moving(dice) = self.state.phase else { return Err(self.wrong_phase("play")) };
        let play = self.state.position.parse_play(dice, text)?;
        self.play(&play)?;
        Ok(play)
    }

    /// Points a result of `kind` is worth now: Jacoby (money play, cube centred) counts it single.
    fn score_of(&self, kind: ResultKind) -> u32 {
        result_points(&self.rules, self.context.length, self.state.cube, kind)
    }

    /// Applies one recorded action, checking that `action.player()` is the player who must act.
    pub fn apply(&mut self, action: &Action) -> Result<()> {
        let actor = self.to_act();
        match *action {
            Action::OpeningRoll { die0, die1 } => {
                if self.state.phase != Phase::Opening {
                    return Err(self.wrong_phase("roll the opening roll"));
                }
                return self.set_dice(die0, die1).map(|_| ());
            }
            // Either player may resign (see `resign_as`).
            Action::Resign { player, kind } => return self.resign_as(player, kind),
            _ if actor != Some(action.player()) => {
                return Err(illegal(format!(
                    "{action} is out of turn: the player to act is {}",
                    actor.map_or("nobody".to_string(), |p| p.to_string())
                )))
            }
            _ => {}
        }
        match *action {
            Action::Roll { dice, .. } => self.set_dice(dice.high(), dice.low()).map(|_| ()),
            Action::Play { play, .. } => self.play(&play),
            Action::Double { .. } => self.double(),
            Action::Take { .. } => self.take(),
            Action::Drop { .. } => self.drop(),
            Action::Beaver { .. } => self.beaver(),
            Action::AcceptResignation { .. } => self.accept_resignation(),
            Action::RejectResignation { .. } => self.reject_resignation(),
            Action::OpeningRoll { .. } | Action::Resign { .. } => unreachable!("handled above"),
        }
    }

    /// The same game rebuilt from its starting state by applying its history again.
    pub fn replayed(&self) -> Result<Game> {
        let mut g = Game::from_stream(self.seed, self.stream_index, self.rules, self.context, self.start);
        g.rules = self.rules;
        for a in &self.history {
            g.apply(a)?;
        }
        Ok(g)
    }

    /// Whether two games stand in the same state (position, turn, cube, phase, resignation).
    pub fn same_state(&self, other: &Game) -> bool {
        self.state == other.state
    }

    /// The starting state was the usual opening (not a position set up from an ID).
    pub fn starts_from_opening(&self) -> bool {
        self.start == State::opening()
    }

    pub(crate) fn state(&self) -> &State {
        &self.state
    }
}
