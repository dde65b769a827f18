//! Matches to N points with the Crawford rule, and money sessions (length 0).
//!
//! The Crawford game is exactly the first game after a player reaches N-1 points: nobody may double
//! in it. Later games are post-Crawford and use the cube again. The match ends when a player reaches
//! N; points beyond N do not count.
//!
//! ```
//! use gammon_backgammon::Match;
//! let mut m = Match::new(1, Some(3)).unwrap();
//! assert!(!m.is_crawford_game()); // nobody has reached N-1 yet: they start there
//! let g = m.game_mut();
//! g.set_dice(6, 5).unwrap();
//! g.resign(gammon_backgammon::ResultKind::Gammon).unwrap();
//! g.accept_resignation().unwrap();
//! // Player 0 won the opening roll and resigns: a gammon is 2 points, but 1 wins the match.
//! assert_eq!((m.score(), m.is_over(), m.winner()), ([0, 1], true, Some(1)));
//! assert!(m.next_game().is_err());
//! ```

use crate::cube::CubeRules;
use crate::game::{fresh_seed, Game, MatchContext, State};
use gammon_core::error::{Error, Result};

/// The longest match a Match ID can carry.
pub const MAX_LENGTH: u32 = (1 << 15) - 1;

/// A match (or a money session when the length is 0): its games, scores and Crawford state.
#[derive(Clone, Debug)]
pub struct Match {
    length: u32,
    seed: u64,
    rules: CubeRules,
    games: Vec<Game>,
    crawford_played: bool,
    names: [String; 2],
}

impl Match {
    /// A match to `length` points (0 = a money session), dice from `seed` (random when `None`).
    /// Game k of the match uses dice stream k of the seed.
    pub fn new(length: u32, seed: Option<u64>) -> Result<Match> {
        Match::with_rules(length, seed, CubeRules::default())
    }

    /// As [`Match::new`] with cube options; Jacoby and beavers apply only to money sessions.
    pub fn with_rules(length: u32, seed: Option<u64>, rules: CubeRules) -> Result<Match> {
        if length > MAX_LENGTH {
            return Err(Error::InvalidArgument(format!("match length {length} is above {MAX_LENGTH}")));
        }
        let mut m = Match {
            length,
            seed: seed.unwrap_or_else(fresh_seed),
            rules,
            games: Vec::new(),
            crawford_played: false,
            names: ["Player 0".into(), "Player 1".into()],
        };
        m.start_game([0, 0]);
        Ok(m)
    }

    /// A match in progress whose current game is `game` (rebuilt from an ID).
    pub(crate) fn resumed(game: Game, seed: u64) -> Match {
        let c = *game.context();
        let at_edge = c.length > 0 && c.score.iter().any(|&s| s + 1 == c.length);
        Match {
            length: c.length,
            seed,
            rules: *game.rules(),
            games: vec![game],
            crawford_played: c.crawford || at_edge,
            names: ["Player 0".into(), "Player 1".into()],
        }
    }

    fn start_game(&mut self, score: [u32; 2]) {
        let n = self.length;
        // A player must *reach* N-1: the first game of a 1-point match is not a Crawford game
        // (GNU Backgammon agrees; its cube is dead anyway).
        let crawford =
            n > 0 && !self.games.is_empty() && !self.crawford_played && score.iter().any(|&s| s + 1 == n);
        self.crawford_played |= crawford;
        let context = MatchContext { length: n, score, crawford };
        let index = self.games.len() as u64;
        self.games.push(Game::from_stream(self.seed, index, self.rules, context, State::opening()));
    }

    /// Points needed to win; 0 for a money session.
    pub fn length(&self) -> u32 {
        self.length
    }

    /// The seed of the dice.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The players' names (used in `.mat` files).
    pub fn names(&self) -> &[String; 2] {
        &self.names
    }

    /// Sets the players' names.
    pub fn set_names(&mut self, name0: &str, name1: &str) {
        self.names = [name0.to_string(), name1.to_string()];
    }

    /// The current game (the last one, possibly over).
    pub fn game(&self) -> &Game {
        self.games.last().expect("a match always has a game")
    }

    /// The current game, to play on.
    pub fn game_mut(&mut self) -> &mut Game {
        self.games.last_mut().expect("a match always has a game")
    }

    /// Every game so far, the current one last.
    pub fn games(&self) -> &[Game] {
        &self.games
    }

    /// Scores of players 0 and 1, counting the current game once it is over (capped at the length).
    pub fn score(&self) -> [u32; 2] {
        let g = self.game();
        let mut score = g.context().score;
        if let Some(r) = g.result() {
            let s = &mut score[r.winner as usize];
            *s += r.points;
            if self.length > 0 {
                *s = (*s).min(self.length);
            }
        }
        score
    }

    /// The current game is the Crawford game.
    pub fn is_crawford_game(&self) -> bool {
        self.game().context().crawford
    }

    /// The current game is after the Crawford game (a player is at N-1 and the cube is back).
    pub fn is_post_crawford(&self) -> bool {
        let c = self.game().context();
        self.length > 0 && !c.crawford && c.score.iter().any(|&s| s + 1 == self.length)
    }

    /// A player has reached the match length (never for a money session).
    pub fn is_over(&self) -> bool {
        self.winner().is_some()
    }

    /// The player who won the match.
    pub fn winner(&self) -> Option<u8> {
        if self.length == 0 {
            return None;
        }
        let s = self.score();
        (0..2u8).find(|&p| s[p as usize] >= self.length)
    }

    /// Starts the next game once the current one is over; refused while it goes on or once the
    /// match is over.
    pub fn next_game(&mut self) -> Result<()> {
        if self.is_over() {
            return Err(Error::IllegalAction(format!(
                "the match is over: player {} won {}-{}",
                self.winner().unwrap_or(0),
                self.score()[0],
                self.score()[1]
            )));
        }
        if !self.game().is_over() {
            return Err(Error::IllegalAction("the current game is not over yet".into()));
        }
        let score = self.score();
        self.start_game(score);
        Ok(())
    }

    /// The Match ID of the current state (scores before the current game).
    pub fn match_id(&self) -> String {
        self.game().match_id()
    }

    /// `PositionID:MatchID` of the current state.
    pub fn gnubg_id(&self) -> String {
        self.game().gnubg_id()
    }

    /// A match in progress rebuilt from `PositionID:MatchID` (length 0 = money session). A player
    /// at N-1 without the Crawford flag means the Crawford game is past.
    pub fn from_gnubg_id(text: &str, seed: Option<u64>) -> Result<Match> {
        let seed = seed.unwrap_or_else(fresh_seed);
        Ok(Match::resumed(Game::from_gnubg_id(text, Some(seed))?, seed))
    }

    /// A match in progress rebuilt from an XGID (top player = player 0, bottom = player 1).
    pub fn from_xgid(text: &str, seed: Option<u64>) -> Result<Match> {
        let seed = seed.unwrap_or_else(fresh_seed);
        Ok(Match::resumed(Game::from_xgid(text, Some(seed))?, seed))
    }
}

#[cfg(test)]
mod tests;
