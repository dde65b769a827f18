//! A game's GNU Backgammon IDs and XGID, and games rebuilt from them.
//!
//! Players keep GNU Backgammon's labels: player 0 is gnubg's player 0 (the top player of an XGID),
//! player 1 is gnubg's player 1 (the bottom player, "X" at the bottom of gnubg's board). GNU
//! Backgammon itself relabels on XGID import so that the player on roll becomes player 1; an XGID
//! therefore round-trips through gnubg only up to that relabelling.

use super::{Game, MatchContext, Phase, State};
use crate::board::Position;
use crate::cube::{Cube, CubeRules};
use crate::formats::match_id::{self, GameState, MatchIdFields};
use crate::formats::xgid::{self, Xgid};
use crate::game::{board_result, result_points, EndReason, GameResult, ResultKind};
use gammon_core::dice::Dice;
use gammon_core::error::{Error, Result};

impl Game {
    /// The fields of the game's Match ID.
    pub fn match_id_fields(&self) -> MatchIdFields {
        let s = self.state();
        let state = match s.phase {
            Phase::Opening => GameState::NoGame,
            Phase::Over(r) => match r.reason {
                EndReason::BorneOff => GameState::Over,
                EndReason::Resigned => GameState::Resigned,
                EndReason::Dropped => GameState::Dropped,
            },
            _ => GameState::Playing,
        };
        // Once a game is over GNU Backgammon shows the scores with its points added (even beyond
        // the match length), the dropper or the acceptor of a resignation to act, and a resigned
        // game's kind in the resignation field.
        let mut score = self.context().score;
        let (mut to_act, mut resignation) = (self.to_act().unwrap_or(s.turn), s.resignation.map(|r| r.1));
        if let Phase::Over(r) = s.phase {
            score[r.winner as usize] += r.points;
            match r.reason {
                EndReason::BorneOff => {}
                EndReason::Dropped => to_act = 1 - r.winner,
                EndReason::Resigned => {
                    to_act = r.winner;
                    resignation = Some(r.kind);
                }
            }
        }
        // The finished game's flag already tells whether the *next* game is the Crawford game.
        let c = self.context();
        let mut crawford = c.crawford;
        if self.is_over() {
            let at_edge = |sc: &[u32; 2]| c.length > 0 && sc.iter().any(|&x| x + 1 == c.length);
            crawford = !c.crawford && !at_edge(&c.score) && at_edge(&score);
        }
        MatchIdFields {
            cube_value: s.cube.value(),
            cube_owner: s.cube.owner(),
            on_roll: s.turn,
            crawford,
            state,
            to_act,
            doubled: self.double_offered(),
            resignation: resignation.map_or(0, |k| k.multiplier() as u8),
            dice: self.dice().map(|d| (d.high(), d.low())),
            length: self.context().length,
            score,
            jacoby: self.rules().jacoby,
        }
    }

    /// The GNU Backgammon Match ID of the current state (scores are those before this game).
    pub fn match_id(&self) -> String {
        match_id::encode(&self.match_id_fields())
    }

    /// The GNU Backgammon Position ID, seen from the player on roll.
    pub fn position_id(&self) -> String {
        self.position().id()
    }

    /// `PositionID:MatchID`, as GNU Backgammon shows it.
    pub fn gnubg_id(&self) -> String {
        format!("{}:{}", self.position_id(), self.match_id())
    }

    /// The full XGID: player 1 at the bottom, player 0 at the top. The dice field is `00` to roll,
    /// `D` when the player on roll has doubled, `B` when his double was beavered, else the dice.
    ///
    /// ```
    /// use gammon_backgammon::Game;
    /// let mut g = Game::new(Some(1), Default::default());
    /// g.set_dice(1, 3).unwrap(); // player 1 wins the opening roll with 3-1
    /// assert_eq!(g.xgid(), "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:6");
    /// ```
    pub fn xgid(&self) -> String {
        let s = self.state();
        let bottom_view = if s.turn == 1 { s.position } else { s.position.swapped() };
        let cube_position = match s.cube.owner() {
            None => 0,
            Some(1) => 1,
            Some(_) => -1,
        };
        let turn = if s.turn == 1 { 1 } else { -1 };
        let dice = match s.phase {
            Phase::Moving(d) => d.to_text(),
            Phase::Doubled => "D".into(),
            Phase::Beavered => "B".into(),
            _ => "00".into(),
        };
        let c = self.context();
        let cj = if c.length > 0 {
            c.crawford as u8
        } else {
            self.rules().jacoby as u8 + 2 * self.rules().beavers as u8
        };
        format!(
            "XGID={}:{}:{cube_position}:{turn}:{dice}:{}:{}:{cj}:{}:{}",
            xgid::encode_board(&bottom_view),
            s.cube.log2(),
            c.score[1],
            c.score[0],
            c.length,
            self.rules().cube_max.trailing_zeros()
        )
    }

    /// A game rebuilt from `PositionID:MatchID` (either order, as gnubg accepts). Match fields
    /// (length, scores, Crawford) become the game's [`MatchContext`].
    ///
    /// A finished game reads as GNU Backgammon writes it: game state 2 (borne off: the player not
    /// on roll has no checker left), 3 (resigned: the player to act accepted a resignation of the
    /// kind in the resignation field) or 4 (dropped: the player to act dropped), the game's
    /// points already added to the winner's score, and the Crawford flag telling whether the
    /// *next* game is the Crawford game. The game returned is over ([`Game::is_over`]).
    pub fn from_gnubg_id(text: &str, seed: Option<u64>) -> Result<Game> {
        let parts: Vec<&str> = text.trim().split(':').map(str::trim).collect();
        let (pid, mid) = match parts[..] {
            [a, b] if a.len() == 14 && b.len() == 12 => (a, b),
            [a, b] if a.len() == 12 && b.len() == 14 => (b, a),
            _ => {
                return Err(Error::InvalidFormat(format!(
                    "{text:?} is not a GNU Backgammon ID: expected PositionID:MatchID (14 and 12 characters)"
                )))
            }
        };
        let position = Position::from_id(pid)?;
        let m = match_id::decode(mid)?;
        let bad = |why: &str| Error::InvalidFormat(format!("cannot rebuild a game from {text:?}: {why}"));
        let rules = CubeRules { jacoby: m.jacoby && m.length == 0, ..CubeRules::default() };
        let rules = CubeRules { cube_max: rules.cube_max.max(m.cube_value), ..rules };
        let cube = Cube::new(m.cube_value, m.cube_owner)?;
        let phase = match m.state {
            GameState::NoGame if position == Position::initial() => Phase::Opening,
            GameState::NoGame => return Err(bad("no game is in progress and the board is not the start")),
            GameState::Playing => match (m.dice, m.doubled) {
                (Some(_), true) => return Err(bad("dice are rolled and a double is offered at once")),
                (Some((a, b)), false) => Phase::Moving(Dice::new(a, b)?),
                (None, true) => {
                    let answerer = if m.resignation > 0 { 1 - m.to_act } else { m.to_act };
                    if answerer == m.on_roll {
                        Phase::Beavered
                    } else {
                        Phase::Doubled
                    }
                }
                (None, false) => Phase::Rolling,
            },
            _ => return finished(&m, position, cube, rules, seed, text),
        };
        let resignation = (m.resignation > 0).then(|| {
            (1 - m.to_act, ResultKind::from_multiplier(m.resignation as u32).unwrap_or(ResultKind::Single))
        });
        let context = MatchContext { length: m.length, score: m.score, crawford: m.crawford };
        let state = State { position, turn: m.on_roll, cube, phase, resignation };
        build(seed, rules, context, state, text)
    }

    /// A game in progress rebuilt from an XGID (top player = player 0, bottom = player 1).
    pub fn from_xgid(text: &str, seed: Option<u64>) -> Result<Game> {
        let x: Xgid = xgid::decode(text)?;
        let turn = if x.turn == 1 { 1 } else { 0 };
        let cube = Cube::new(
            1 << x.cube_log2,
            match x.cube_position {
                1 => Some(1),
                -1 => Some(0),
                _ => None,
            },
        )?;
        let phase = match (x.dice, x.doubled, x.beavered) {
            (Some((a, b)), _, _) => Phase::Moving(Dice::new(a, b)?),
            (None, true, _) => Phase::Doubled,
            (None, _, true) => Phase::Beavered,
            _ => Phase::Rolling,
        };
        let money = x.match_length == 0;
        let rules = CubeRules {
            jacoby: money && x.crawford_jacoby & 1 == 1,
            beavers: money && x.crawford_jacoby & 2 == 2,
            cube_max: 1u32 << x.max_cube_log2,
            enabled: true,
            dead_cube_doubles: false,
        };
        let context = MatchContext {
            length: x.match_length,
            score: [x.score_top, x.score_bottom],
            crawford: !money && x.crawford_jacoby == 1,
        };
        let (ours, theirs) = x.position.off();
        if ours == 15 || theirs == 15 {
            return finished_xgid(&x, turn, cube, rules, context, seed, text);
        }
        build(
            seed,
            rules,
            context,
            State { position: x.position, turn, cube, phase, resignation: None },
            text,
        )
    }
}

/// The game of an XGID where a player has borne off all 15 checkers: over, won by that player,
/// single, gammon or backgammon as the board shows. An XGID has no game state, so its scores are
/// those before the game (as [`Game::xgid`] writes a finished game); the turn is handed to the
/// loser, as after a winning play.
fn finished_xgid(
    x: &Xgid,
    turn: u8,
    cube: Cube,
    rules: CubeRules,
    context: MatchContext,
    seed: Option<u64>,
    text: &str,
) -> Result<Game> {
    let bad = |why: &str| Error::InvalidFormat(format!("cannot rebuild a game from {text:?}: {why}"));
    let (ours, theirs) = x.position.off();
    if ours == 15 && theirs == 15 {
        return Err(bad("both players have borne off all 15 checkers"));
    }
    if x.dice.is_some() || x.doubled || x.beavered {
        return Err(bad("a player has borne off all 15 checkers, so the game is over, but the dice field \
             is not 00 (dice to play or a double to answer)"));
    }
    // Seen from the loser, as a finished game keeps it.
    let (winner, loser_view) = if ours == 15 { (turn, x.position.swapped()) } else { (1 - turn, x.position) };
    let kind = board_result(&loser_view.swapped());
    let points = result_points(&rules, context.length, cube, kind);
    let result = GameResult { winner, kind, points, reason: EndReason::BorneOff };
    let state =
        State { position: loser_view, turn: 1 - winner, cube, phase: Phase::Over(result), resignation: None };
    build(seed, rules, context, state, text)
}

/// The game of a Match ID whose game state says the game has ended (2 borne off, 3 resigned,
/// 4 dropped), read as GNU Backgammon writes it: see [`Game::from_gnubg_id`].
fn finished(
    m: &MatchIdFields,
    position: Position,
    cube: Cube,
    rules: CubeRules,
    seed: Option<u64>,
    text: &str,
) -> Result<Game> {
    let bad = |why: String| Error::InvalidFormat(format!("cannot rebuild a game from {text:?}: {why}"));
    let (ours, theirs) = position.off();
    if m.doubled {
        return Err(bad("the game is over, but a double is still offered".into()));
    }
    let (winner, kind, reason) = match m.state {
        GameState::Over => {
            // GNU Backgammon hands the turn to the loser after the winning play.
            if ours == 15 {
                return Err(bad(
                    "the player on roll has borne off all 15 checkers; once a game is won by bearing \
                     off, the loser is on roll"
                        .into(),
                ));
            }
            if theirs != 15 {
                return Err(bad(format!(
                    "the game state says the game was won by bearing off, but the player not on roll \
                     has {theirs} checkers off, not 15"
                )));
            }
            if m.dice.is_some() || m.resignation > 0 {
                return Err(bad("the game was won by bearing off, but dice or a resignation are set".into()));
            }
            (1 - m.on_roll, board_result(&position.swapped()), EndReason::BorneOff)
        }
        GameState::Resigned => {
            let Some(kind) = ResultKind::from_multiplier(m.resignation as u32) else {
                return Err(bad(
                    "the game state says a resignation was accepted, but none is recorded".into()
                ));
            };
            (m.to_act, kind, EndReason::Resigned)
        }
        _ => {
            if m.dice.is_some() || m.resignation > 0 {
                return Err(bad(
                    "the game ended by a dropped double, but dice or a resignation are set".into()
                ));
            }
            (1 - m.to_act, ResultKind::Single, EndReason::Dropped)
        }
    };
    if reason != EndReason::BorneOff && (ours == 15 || theirs == 15) {
        return Err(bad(format!(
            "a player has borne off all 15 checkers, but the game state says the game ended by a {}",
            if reason == EndReason::Resigned { "resignation" } else { "dropped double" }
        )));
    }
    let points = match reason {
        EndReason::Dropped => cube.value(),
        _ => result_points(&rules, m.length, cube, kind),
    };
    // The scores include the game's points: take them off to get the scores it was played at.
    let mut before = m.score;
    let w = winner as usize;
    if before[w] < points {
        return Err(bad(format!(
            "player {winner} won {points} points, but his score with them is only {}",
            m.score[w]
        )));
    }
    before[w] -= points;
    if m.length > 0 && before.iter().any(|&s| s >= m.length) {
        return Err(bad(format!(
            "the game was played at {}-{}, which is not below the match length {}",
            before[0], before[1], m.length
        )));
    }
    // On a finished game the Crawford flag is about the next game: set exactly when this game
    // brought a player to 1 point from winning.
    let at_edge = |s: &[u32; 2]| m.length > 0 && s.iter().any(|&x| x + 1 == m.length);
    let next_crawford = !at_edge(&before) && at_edge(&m.score);
    if m.crawford != next_crawford {
        return Err(bad(format!(
            "the Crawford flag says the next game {} the Crawford game, but after {}-{} it {}",
            if m.crawford { "is" } else { "is not" },
            before[0],
            before[1],
            if next_crawford { "is" } else { "is not" }
        )));
    }
    let result = GameResult { winner, kind, points, reason };
    // Whether the finished game itself was the Crawford game is not recorded: it reads as not.
    let context = MatchContext { length: m.length, score: before, crawford: false };
    let state = State { position, turn: m.on_roll, cube, phase: Phase::Over(result), resignation: None };
    build(seed, rules, context, state, text)
}

fn build(
    seed: Option<u64>,
    rules: CubeRules,
    context: MatchContext,
    state: State,
    text: &str,
) -> Result<Game> {
    let (ours, theirs) = state.position.off();
    let over = matches!(state.phase, Phase::Over(_));
    if !over && (ours == 15 || theirs == 15) {
        return Err(Error::InvalidFormat(format!(
            "cannot rebuild a game from {text:?}: a player has borne off all 15 checkers, so the game \
             is over, but the ID says it is still in play"
        )));
    }
    let one_away = |s: u32| s + 1 == context.length;
    if context.crawford && !context.score.iter().any(|&s| one_away(s)) {
        return Err(Error::InvalidFormat(format!(
            "cannot rebuild a game from {text:?}: it is marked as the Crawford game, but at {}-{} in a \
             {}-point match nobody is 1 point from winning",
            context.score[0], context.score[1], context.length
        )));
    }
    // Nobody may double in the Crawford game, so its cube is the centred 1 throughout.
    let cube_used = state.cube.value() > 1
        || state.cube.owner().is_some()
        || matches!(state.phase, Phase::Doubled | Phase::Beavered);
    if context.crawford && cube_used {
        return Err(Error::InvalidFormat(format!(
            "cannot rebuild a game from {text:?}: it is the Crawford game, where nobody may double, \
             but its cube is {} ({}{})",
            state.cube.value(),
            state.cube.owner().map_or("centred".to_string(), |o| format!("owned by player {o}")),
            if matches!(state.phase, Phase::Doubled | Phase::Beavered) { ", a double offered" } else { "" }
        )));
    }
    Ok(Game::from_state(seed, rules, context, state))
}

#[cfg(test)]
mod tests;
