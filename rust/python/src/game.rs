//! `Game` and its recorded `Action`s for Python.
//!
//! A `Game` either owns its engine game or is a handle on one game of a `Match`, so that
//! `match.game.play(...)` acts on the match itself.

use crate::args::{self, dice_pair, dice_tuple};
use crate::errors::{GammonError, IntoPy};
use crate::position::{Play, Position};
use gammon_backgammon::{
    Action as EngineAction, CubeRules, EndReason, Game as EngineGame, Phase, Result as EngineResult,
    ResultKind,
};
use pyo3::prelude::*;

// A match's games are handles on it (`Source::InMatch`), so the match lives beside them.
mod match_play;
pub use match_play::Match;

/// Where a game lives: in the Python object, or in a match (game `index` of it).
enum Source {
    Own(EngineGame),
    InMatch { owner: Py<Match>, index: usize },
}

/// One game of backgammon between players 0 and 1: a state machine that refuses every action
/// the rules do not allow, leaving the game as it was.
#[pyclass(module = "gammon")]
pub struct Game {
    source: Source,
}

impl Game {
    /// A handle on game `index` of `owner`.
    pub fn in_match(owner: Py<Match>, index: usize) -> Game {
        Game { source: Source::InMatch { owner, index } }
    }

    pub(crate) fn read<R>(&self, py: Python<'_>, f: impl FnOnce(&EngineGame) -> R) -> R {
        match &self.source {
            Source::Own(g) => f(g),
            Source::InMatch { owner, index } => f(&owner.borrow(py).inner.games()[*index]),
        }
    }

    fn act<R>(&mut self, py: Python<'_>, f: impl FnOnce(&mut EngineGame) -> EngineResult<R>) -> PyResult<R> {
        match &mut self.source {
            Source::Own(g) => f(g).py_err(),
            Source::InMatch { owner, index } => {
                let mut m = owner.try_borrow_mut(py)?;
                if *index + 1 == m.inner.games().len() {
                    f(m.inner.game_mut()).py_err()
                } else {
                    // An earlier game of a match is over, so the engine refuses every action on
                    // it; a copy gives that refusal without touching the match.
                    let mut finished = m.inner.games()[*index].clone();
                    f(&mut finished).py_err()
                }
            }
        }
    }
}

/// Cube rules from the constructor's arguments.
pub fn cube_rules(jacoby: bool, beavers: bool, cube_max: i64) -> PyResult<CubeRules> {
    let max = u32::try_from(cube_max).map_err(|_| {
        GammonError::new_err(format!("cube_max must be a power of two from 1 to 32768; got {cube_max}"))
    })?;
    CubeRules::new(jacoby, beavers, max).py_err()
}

fn result_kind(kind: &str) -> PyResult<ResultKind> {
    ResultKind::parse(kind).ok_or_else(|| {
        GammonError::new_err(format!(
            "a resignation is \"single\", \"gammon\" or \"backgammon\"; got {kind:?}"
        ))
    })
}

#[pymethods]
impl Game {
    /// A money game from the starting position; `seed` fixes the dice (random when None).
    #[new]
    #[pyo3(signature = (seed=None, jacoby=false, beavers=false, cube_max=64))]
    fn new(seed: Option<&Bound<'_, PyAny>>, jacoby: bool, beavers: bool, cube_max: i64) -> PyResult<Game> {
        let rules = cube_rules(jacoby, beavers, cube_max)?;
        Ok(Game { source: Source::Own(EngineGame::new(args::seed(seed)?, rules)) })
    }

    /// A game in progress rebuilt from `PositionID:MatchID`.
    #[staticmethod]
    #[pyo3(signature = (gnubg_id, seed=None))]
    fn from_gnubg_id(gnubg_id: &str, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Game> {
        let game = EngineGame::from_gnubg_id(gnubg_id, args::seed(seed)?).py_err()?;
        Ok(Game { source: Source::Own(game) })
    }

    /// A game in progress rebuilt from an XGID (top player = player 0, bottom = player 1).
    #[staticmethod]
    #[pyo3(signature = (xgid, seed=None))]
    fn from_xgid(xgid: &str, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Game> {
        let game = EngineGame::from_xgid(xgid, args::seed(seed)?).py_err()?;
        Ok(Game { source: Source::Own(game) })
    }

    /// Rolls the dice, or uses `dice` `(d1, d2)`; returns the roll, larger die first. The first
    /// roll is the opening roll: one die each (`d1` player 0's, `d2` player 1's), ties rolled
    /// again. A roll that cannot be played passes the turn at once.
    #[pyo3(signature = (dice=None))]
    fn roll(&mut self, py: Python<'_>, dice: Option<&Bound<'_, PyAny>>) -> PyResult<(u8, u8)> {
        let rolled = match dice {
            None => self.act(py, |g| g.roll())?,
            Some(given) => {
                let (_, d1, d2) = dice_pair(given)?;
                self.act(py, |g| g.set_dice(d1, d2))?
            }
        };
        Ok(dice_tuple(rolled))
    }

    /// The legal plays of the dice to play (empty unless the player on roll has rolled).
    fn legal_plays(&self, py: Python<'_>) -> Vec<Play> {
        let plays = self.read(py, |g| py.allow_threads(|| g.legal_plays()));
        plays.into_iter().map(|inner| Play { inner }).collect()
    }

    /// Plays a `Play` or the play that notation text names (`"24/18 13/11*"`); returns the play.
    fn play(&mut self, py: Python<'_>, play_or_text: &Bound<'_, PyAny>) -> PyResult<Play> {
        if let Ok(play) = play_or_text.downcast::<Play>() {
            let play = play.get().inner;
            self.act(py, |g| g.play(&play))?;
            return Ok(Play { inner: play });
        }
        let Ok(text) = play_or_text.extract::<String>() else {
            return Err(crate::errors::IllegalPlayError::new_err(format!(
                "a play is a Play or notation text such as \"8/5 6/5\"; got {}",
                play_or_text.repr()?
            )));
        };
        Ok(Play { inner: self.act(py, |g| g.play_text(&text))? })
    }

    /// The player on roll doubles, before rolling.
    fn double(&mut self, py: Python<'_>) -> PyResult<()> {
        self.act(py, |g| g.double())
    }

    /// The doubled player takes (after a beaver, the first doubler takes).
    fn take(&mut self, py: Python<'_>) -> PyResult<()> {
        self.act(py, |g| g.take())
    }

    /// The doubled player drops: the doubler wins the stake as it was before the double.
    fn drop(&mut self, py: Python<'_>) -> PyResult<()> {
        self.act(py, |g| g.drop())
    }

    /// The doubled player beavers: takes and at once redoubles, keeping the cube.
    fn beaver(&mut self, py: Python<'_>) -> PyResult<()> {
        self.act(py, |g| g.beaver())
    }

    /// The player to act offers to resign `"single"`, `"gammon"` or `"backgammon"`.
    fn resign(&mut self, py: Python<'_>, kind: &str) -> PyResult<()> {
        let kind = result_kind(kind)?;
        self.act(py, |g| g.resign(kind))
    }

    /// The opponent accepts the resignation offered: the game ends.
    fn accept_resignation(&mut self, py: Python<'_>) -> PyResult<()> {
        self.act(py, |g| g.accept_resignation())
    }

    /// The opponent rejects the resignation offered: play goes on.
    fn reject_resignation(&mut self, py: Python<'_>) -> PyResult<()> {
        self.act(py, |g| g.reject_resignation())
    }

    /// The board seen from the player on roll.
    #[getter]
    fn position(&self, py: Python<'_>) -> Position {
        Position { inner: self.read(py, |g| g.position()) }
    }

    /// The player on roll, 0 or 1; None before the opening roll.
    #[getter]
    fn turn(&self, py: Python<'_>) -> Option<u8> {
        self.read(py, |g| g.turn())
    }

    /// The player who must act now (the doubled player while a double awaits an answer, the
    /// opponent of a resigner); None before the opening roll and once the game is over.
    #[getter]
    fn to_act(&self, py: Python<'_>) -> Option<u8> {
        self.read(py, |g| g.to_act())
    }

    /// The dice to play, larger first, while the player on roll has rolled and not yet played.
    #[getter]
    fn dice(&self, py: Python<'_>) -> Option<(u8, u8)> {
        self.read(py, |g| g.dice().map(dice_tuple))
    }

    /// The cube's value.
    #[getter]
    fn cube_value(&self, py: Python<'_>) -> u32 {
        self.read(py, |g| g.cube_value())
    }

    /// The cube's owner, 0 or 1; None while centred.
    #[getter]
    fn cube_owner(&self, py: Python<'_>) -> Option<u8> {
        self.read(py, |g| g.cube_owner())
    }

    /// Whether the player on roll may double now.
    #[getter]
    fn may_double(&self, py: Python<'_>) -> bool {
        self.read(py, |g| g.may_double())
    }

    /// A double (or beaver) awaits an answer.
    #[getter]
    fn double_offered(&self, py: Python<'_>) -> bool {
        self.read(py, |g| g.double_offered())
    }

    /// The resignation awaiting an answer as `(player, kind)`, or None.
    #[getter]
    fn resignation(&self, py: Python<'_>) -> Option<(u8, &'static str)> {
        self.read(py, |g| g.resignation().map(|(p, k)| (p, k.name())))
    }

    /// True once the game has ended.
    #[getter]
    fn is_over(&self, py: Python<'_>) -> bool {
        self.read(py, |g| g.is_over())
    }

    /// The winner, 0 or 1, once the game is over.
    #[getter]
    fn winner(&self, py: Python<'_>) -> Option<u8> {
        self.read(py, |g| g.winner())
    }

    /// Points won (0 while the game goes on).
    #[getter]
    fn points(&self, py: Python<'_>) -> u32 {
        self.read(py, |g| g.points())
    }

    /// `"single"`, `"gammon"` or `"backgammon"` once over (a dropped double is single).
    #[getter]
    fn result_kind(&self, py: Python<'_>) -> Option<&'static str> {
        self.read(py, |g| g.result_kind().map(ResultKind::name))
    }

    /// How the game ended: `"borne_off"`, `"dropped"` or `"resigned"`; None while it goes on.
    #[getter]
    fn end_reason(&self, py: Python<'_>) -> Option<&'static str> {
        self.read(py, |g| {
            g.result().map(|r| match r.reason {
                EndReason::BorneOff => "borne_off",
                EndReason::Dropped => "dropped",
                EndReason::Resigned => "resigned",
            })
        })
    }

    /// The GNU Backgammon Position ID, seen from the player on roll.
    #[getter]
    fn position_id(&self, py: Python<'_>) -> String {
        self.read(py, |g| g.position_id())
    }

    /// The GNU Backgammon Match ID (scores before this game).
    #[getter]
    fn match_id(&self, py: Python<'_>) -> String {
        self.read(py, |g| g.match_id())
    }

    /// `PositionID:MatchID`, as GNU Backgammon shows it.
    #[getter]
    fn gnubg_id(&self, py: Python<'_>) -> String {
        self.read(py, |g| g.gnubg_id())
    }

    /// The full XGID (player 1 at the bottom, player 0 at the top).
    #[getter]
    fn xgid(&self, py: Python<'_>) -> String {
        self.read(py, |g| g.xgid())
    }

    /// Every action so far, in order: enough to replay the game.
    #[getter]
    fn history(&self, py: Python<'_>) -> Vec<Action> {
        self.read(py, |g| g.history().iter().map(|&inner| Action { inner }).collect())
    }

    /// The seed of the dice.
    #[getter]
    fn seed(&self, py: Python<'_>) -> u64 {
        self.read(py, |g| g.seed())
    }

    /// The Jacoby rule is in force (money play only).
    #[getter]
    fn jacoby(&self, py: Python<'_>) -> bool {
        self.read(py, |g| g.rules().jacoby)
    }

    /// Beavers are allowed (money play only).
    #[getter]
    fn beavers(&self, py: Python<'_>) -> bool {
        self.read(py, |g| g.rules().beavers)
    }

    /// The highest value the cube may reach.
    #[getter]
    fn cube_max(&self, py: Python<'_>) -> u32 {
        self.read(py, |g| g.rules().cube_max)
    }

    /// The current state as an SVG document: the board seen from the player on roll, the cube,
    /// the dice if rolled (or `dice`), the score in a match; `bottom` "us" (the player on roll)
    /// or "them".
    #[pyo3(signature = (dice=None, *, bottom="us"))]
    #[allow(clippy::wrong_self_convention)] // Python methods receive &self
    fn to_svg(&self, py: Python<'_>, dice: Option<&Bound<'_, PyAny>>, bottom: &str) -> PyResult<String> {
        self.read(py, |g| crate::picture::game_svg(g, dice, bottom))
    }

    /// The current state as SVG, for notebooks.
    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<String> {
        self.to_svg(py, None, "us")
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        self.read(py, |g| {
            let p = g.turn().unwrap_or(0);
            let state = match (g.phase(), g.resignation()) {
                (_, Some((by, kind))) => format!("player {by} offers to resign a {kind}"),
                (Phase::Over(r), _) => {
                    format!("won by player {} ({} points, {})", r.winner, r.points, r.kind)
                }
                (Phase::Opening, _) => "before the opening roll".to_string(),
                (Phase::Rolling, _) => format!("player {p} to roll or double"),
                (Phase::Moving(d), _) => format!("player {p} to play {}", d.to_text()),
                (Phase::Doubled, _) => format!("player {p} doubled"),
                (Phase::Beavered, _) => format!("player {} beavered", 1 - p),
            };
            format!("<Game {state}, cube {}: {}>", g.cube_value(), g.gnubg_id())
        })
    }
}

/// One recorded action of a game: who did what.
///
/// `kind` is `"opening_roll"`, `"roll"`, `"play"`, `"double"`, `"take"`, `"drop"`,
/// `"beaver"`, `"resign"`, `"accept_resignation"` or `"reject_resignation"`.
#[pyclass(module = "gammon", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Action {
    inner: EngineAction,
}

#[pymethods]
impl Action {
    /// The player who acted, 0 or 1; None for the opening roll, which both throw.
    #[getter]
    fn player(&self) -> Option<u8> {
        match self.inner {
            EngineAction::OpeningRoll { .. } => None,
            a => Some(a.player()),
        }
    }

    /// What was done: the name of the `Game` method that does it (`"opening_roll"` for the
    /// first roll).
    #[getter]
    fn kind(&self) -> &'static str {
        match self.inner {
            EngineAction::OpeningRoll { .. } => "opening_roll",
            EngineAction::Roll { .. } => "roll",
            EngineAction::Play { .. } => "play",
            EngineAction::Double { .. } => "double",
            EngineAction::Take { .. } => "take",
            EngineAction::Drop { .. } => "drop",
            EngineAction::Beaver { .. } => "beaver",
            EngineAction::Resign { .. } => "resign",
            EngineAction::AcceptResignation { .. } => "accept_resignation",
            EngineAction::RejectResignation { .. } => "reject_resignation",
        }
    }

    /// The dice of a roll or play (larger first); for the opening roll `(player 0's die, player
    /// 1's die)`. None for other actions.
    #[getter]
    fn dice(&self) -> Option<(u8, u8)> {
        match self.inner {
            EngineAction::OpeningRoll { die0, die1 } => Some((die0, die1)),
            EngineAction::Roll { dice, .. } | EngineAction::Play { dice, .. } => Some(dice_tuple(dice)),
            _ => None,
        }
    }

    /// The play made, for a `"play"`.
    #[getter]
    fn play(&self) -> Option<Play> {
        match self.inner {
            EngineAction::Play { play, .. } => Some(Play { inner: play }),
            _ => None,
        }
    }

    /// The cube value offered, for a `"double"` or `"beaver"`.
    #[getter]
    fn value(&self) -> Option<u32> {
        match self.inner {
            EngineAction::Double { value, .. } | EngineAction::Beaver { value, .. } => Some(value),
            _ => None,
        }
    }

    /// What the resigner offered to lose, for a `"resign"`.
    #[getter]
    fn result_kind(&self) -> Option<&'static str> {
        match self.inner {
            EngineAction::Resign { kind, .. } => Some(kind.name()),
            _ => None,
        }
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<Action {}>", self.inner)
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<Action>()?;
    match_play::register(m)
}
