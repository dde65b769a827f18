//! `Match` for Python: a match to N points with the Crawford rule, or a money session (length 0).

use super::{cube_rules, Game};
use crate::args;
use crate::errors::IntoPy;
use gammon_backgammon::Match as EngineMatch;
use pyo3::prelude::*;

/// A match to `length` points with the Crawford rule (0 = a money session), dice from `seed`.
#[pyclass(module = "gammon")]
pub struct Match {
    pub inner: EngineMatch,
}

fn own(inner: EngineMatch) -> Match {
    Match { inner }
}

#[pymethods]
impl Match {
    /// A match to `length` points (0 = money) from its first game; game k uses dice stream k of
    /// `seed`. The cube options apply to money sessions only.
    #[new]
    #[pyo3(signature = (length, seed=None, *, jacoby=false, beavers=false, cube_max=64))]
    fn new(
        length: i64,
        seed: Option<&Bound<'_, PyAny>>,
        jacoby: bool,
        beavers: bool,
        cube_max: i64,
    ) -> PyResult<Match> {
        let length = u32::try_from(length).map_err(|_| {
            crate::errors::GammonError::new_err(format!("match length must be an int >= 0; got {length}"))
        })?;
        let rules = cube_rules(jacoby, beavers, cube_max)?;
        Ok(own(EngineMatch::with_rules(length, args::seed(seed)?, rules).py_err()?))
    }

    /// A match read from Jellyfish `.mat` text, replayed through the rules.
    #[staticmethod]
    fn from_mat(py: Python<'_>, text: &str) -> PyResult<Match> {
        Ok(own(py.allow_threads(|| EngineMatch::from_mat(text)).py_err()?))
    }

    /// A match read from GNU Backgammon `.sgf` text, replayed through the rules.
    #[staticmethod]
    fn from_sgf(py: Python<'_>, text: &str) -> PyResult<Match> {
        Ok(own(py.allow_threads(|| EngineMatch::from_sgf(text)).py_err()?))
    }

    /// A match in progress rebuilt from `PositionID:MatchID` (length 0 = money session).
    #[staticmethod]
    #[pyo3(signature = (gnubg_id, seed=None))]
    fn from_gnubg_id(gnubg_id: &str, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Match> {
        Ok(own(EngineMatch::from_gnubg_id(gnubg_id, args::seed(seed)?).py_err()?))
    }

    /// A match in progress rebuilt from an XGID (top player = player 0, bottom = player 1).
    #[staticmethod]
    #[pyo3(signature = (xgid, seed=None))]
    fn from_xgid(xgid: &str, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Match> {
        Ok(own(EngineMatch::from_xgid(xgid, args::seed(seed)?).py_err()?))
    }

    /// The current game: actions on it act on the match.
    #[getter]
    fn game(slf: &Bound<'_, Self>) -> Game {
        let index = slf.borrow().inner.games().len() - 1;
        Game::in_match(slf.clone().unbind(), index)
    }

    /// Every game so far, the current one last.
    #[getter]
    fn games(slf: &Bound<'_, Self>) -> Vec<Game> {
        let n = slf.borrow().inner.games().len();
        (0..n).map(|index| Game::in_match(slf.clone().unbind(), index)).collect()
    }

    /// Starts the next game once the current one is over (refused while it goes on and once the
    /// match is over); returns it.
    fn next_game(slf: &Bound<'_, Self>) -> PyResult<Game> {
        slf.borrow_mut().inner.next_game().py_err()?;
        Ok(Match::game(slf))
    }

    /// Scores `(player 0, player 1)`, counting the current game once it is over.
    #[getter]
    fn score(&self) -> (u32, u32) {
        let [a, b] = self.inner.score();
        (a, b)
    }

    /// Points needed to win; 0 for a money session.
    #[getter]
    fn length(&self) -> u32 {
        self.inner.length()
    }

    /// The seed of the dice.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed()
    }

    /// The current game is the Crawford game: nobody may double in it.
    #[getter]
    fn is_crawford_game(&self) -> bool {
        self.inner.is_crawford_game()
    }

    /// The current game comes after the Crawford game.
    #[getter]
    fn is_post_crawford(&self) -> bool {
        self.inner.is_post_crawford()
    }

    /// A player has reached the match length (never for a money session).
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The player who won the match, 0 or 1.
    #[getter]
    fn winner(&self) -> Option<u8> {
        self.inner.winner()
    }

    /// The Match ID of the current state.
    #[getter]
    fn match_id(&self) -> String {
        self.inner.match_id()
    }

    /// `PositionID:MatchID` of the current state.
    #[getter]
    fn gnubg_id(&self) -> String {
        self.inner.gnubg_id()
    }

    /// The players' names, as written in `.mat` files.
    #[getter]
    fn get_names(&self) -> (String, String) {
        let [a, b] = self.inner.names().clone();
        (a, b)
    }

    #[setter]
    fn set_names(&mut self, names: (String, String)) {
        self.inner.set_names(&names.0, &names.1);
    }

    /// The match as Jellyfish `.mat` text.
    fn to_mat(&self) -> PyResult<String> {
        self.inner.to_mat().py_err()
    }

    /// The match as GNU Backgammon `.sgf` text.
    fn to_sgf(&self) -> PyResult<String> {
        self.inner.to_sgf().py_err()
    }

    /// The current game as an SVG document, with the score, the cube, the dice if rolled (or
    /// `dice`) and the players' names; `bottom` "us" (the player on roll) or "them".
    #[pyo3(signature = (dice=None, *, bottom="us"))]
    #[allow(clippy::wrong_self_convention)] // Python methods receive &self
    fn to_svg(&self, dice: Option<&Bound<'_, PyAny>>, bottom: &str) -> PyResult<String> {
        crate::picture::match_svg(&self.inner, dice, bottom)
    }

    /// The current game as SVG, for notebooks.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.to_svg(None, "us")
    }

    fn __repr__(&self) -> String {
        let [a, b] = self.inner.score();
        let length = match self.inner.length() {
            0 => "money session".to_string(),
            n => format!("{n}-point match"),
        };
        format!(
            "<Match {length}, score {a}-{b}, game {}: {}>",
            self.inner.games().len(),
            self.inner.gnubg_id()
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Match>()
}
