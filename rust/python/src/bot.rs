//! `Bot`, `Probabilities` and `RankedPlay` for Python: the neural-net player.

use crate::cube::{CubeAction, CubeContext};
use crate::errors::{GammonError, IllegalActionError, IntoPy};
use crate::game::Game;
use crate::position::{dice, Play, Position};
use gammon_bot::cube::CubeContext as EngineContext;
use gammon_bot::search::{Bot as EngineBot, RankedPlay as EngineRankedPlay};
use gammon_bot::Probabilities as EngineProbabilities;
use pyo3::prelude::*;

/// The five cumulative outcome probabilities of a position and its cubeless equity: what the
/// bot's evaluation, a ranked play and a rollout result share.
#[pyclass(module = "gammon", frozen, eq)]
#[derive(Clone, Copy, PartialEq)]
pub struct Probabilities {
    pub(crate) inner: EngineProbabilities,
}

#[pymethods]
impl Probabilities {
    /// Wins of any kind.
    #[getter]
    fn win(&self) -> f64 {
        self.inner.win
    }
    /// Gammons and backgammons won.
    #[getter]
    fn win_gammon(&self) -> f64 {
        self.inner.win_gammon
    }
    /// Backgammons won.
    #[getter]
    fn win_backgammon(&self) -> f64 {
        self.inner.win_backgammon
    }
    /// Gammons and backgammons lost.
    #[getter]
    fn lose_gammon(&self) -> f64 {
        self.inner.lose_gammon
    }
    /// Backgammons lost.
    #[getter]
    fn lose_backgammon(&self) -> f64 {
        self.inner.lose_backgammon
    }
    /// Cubeless equity per unit stake.
    #[getter]
    fn equity(&self) -> f64 {
        self.inner.equity()
    }

    fn __repr__(&self) -> String {
        let p = &self.inner;
        format!(
            "Probabilities(win={:.4}, win_gammon={:.4}, win_backgammon={:.4}, lose_gammon={:.4}, \
             lose_backgammon={:.4}, equity={:+.4})",
            p.win,
            p.win_gammon,
            p.win_backgammon,
            p.lose_gammon,
            p.lose_backgammon,
            p.equity()
        )
    }
}

/// A play with the bot's evaluation of it, for the player who makes it.
#[pyclass(module = "gammon", frozen)]
#[derive(Clone, Copy)]
pub struct RankedPlay {
    inner: EngineRankedPlay,
}

#[pymethods]
impl RankedPlay {
    /// The play.
    #[getter]
    fn play(&self) -> Play {
        Play { inner: self.inner.play }
    }
    /// Its equity for the mover: cubeless per unit stake, or cubeful in the context the plays
    /// were ranked in.
    #[getter]
    fn equity(&self) -> f64 {
        self.inner.equity
    }
    /// Its outcome probabilities for the mover.
    #[getter]
    fn probabilities(&self) -> Probabilities {
        Probabilities { inner: self.inner.probabilities }
    }
    /// The same as `probabilities`, under its former name.
    #[getter]
    fn evaluation(&self) -> Probabilities {
        self.probabilities()
    }
    /// The search depth behind the evaluation.
    #[getter]
    fn ply(&self) -> u8 {
        self.inner.ply
    }

    fn __repr__(&self) -> String {
        format!(
            "RankedPlay('{}', equity={:+.4}, ply={})",
            self.inner.play.notation(),
            self.inner.equity,
            self.inner.ply
        )
    }
}

/// A `ply=` argument: the int, or the text of whatever else was passed, so that any bad value
/// raises a gammon error rather than a TypeError or OverflowError.
pub struct Ply(Result<u8, String>);

impl<'py> FromPyObject<'py> for Ply {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        Ok(Ply(ob.extract::<u8>().map_err(|_| ob.to_string())))
    }
}

impl Default for Ply {
    fn default() -> Ply {
        Ply(Ok(0))
    }
}

impl Ply {
    /// The depth passed, or a gammon error naming what was passed instead; the engine checks
    /// the range.
    pub fn depth(self) -> PyResult<u8> {
        self.0
            .map_err(|text| crate::errors::GammonError::new_err(format!("ply must be 0, 1 or 2, got {text}")))
    }
}

/// The built-in neural-net player, searching `ply` plies (0, 1 or 2).
#[pyclass(module = "gammon", frozen)]
pub struct Bot {
    inner: EngineBot<'static>,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (ply=Ply::default()), text_signature = "(ply=0)")]
    fn new(ply: Ply) -> PyResult<Bot> {
        Ok(Bot { inner: EngineBot::new(ply.depth()?).py_err()? })
    }

    /// The search depth.
    #[getter]
    fn ply(&self) -> u8 {
        self.inner.ply()
    }

    /// The bot's play for the roll; with a `context` (the cube and the score) the play with the
    /// best cubeful equity there. Always the first play of `rank_plays` with the same
    /// arguments.
    #[pyo3(signature = (position, d1, d2, context=None))]
    fn best_play(
        &self,
        py: Python<'_>,
        position: &Position,
        d1: &Bound<'_, PyAny>,
        d2: &Bound<'_, PyAny>,
        context: Option<&CubeContext>,
    ) -> PyResult<Play> {
        let dice = dice(d1, d2)?;
        let p = position.inner;
        let context = context.map(|c| c.inner);
        let best = py.allow_threads(|| self.inner.best_play(&p, dice, context.as_ref())).py_err()?;
        Ok(Play { inner: best.play })
    }

    /// Every legal play of the roll with its evaluation, best first: by cubeless equity, or by
    /// cubeful equity in `context` when one is given.
    #[pyo3(signature = (position, d1, d2, context=None))]
    fn rank_plays(
        &self,
        py: Python<'_>,
        position: &Position,
        d1: &Bound<'_, PyAny>,
        d2: &Bound<'_, PyAny>,
        context: Option<&CubeContext>,
    ) -> PyResult<Vec<RankedPlay>> {
        let dice = dice(d1, d2)?;
        let p = position.inner;
        let context = context.map(|c| c.inner);
        let ranked = py.allow_threads(|| self.inner.rank_plays(&p, dice, context.as_ref()));
        Ok(ranked.py_err()?.into_iter().map(|inner| RankedPlay { inner }).collect())
    }

    /// The cube decision of the player on roll, before rolling: for a `Game` (in its cube and
    /// match context, seen by the player whose turn it is), or for a `Position` in `context`
    /// (money with a centred cube when omitted). Where both sides are bearing off, the decision
    /// looks two plies ahead over the bear-off databases, at any ply.
    #[pyo3(signature = (game, context=None))]
    fn cube_action(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        context: Option<&CubeContext>,
    ) -> PyResult<CubeAction> {
        let (position, ctx) = if let Ok(g) = game.downcast::<Game>() {
            if context.is_some() {
                return Err(GammonError::new_err(
                    "a Game carries its own cube and score: pass context only with a Position",
                ));
            }
            g.borrow().read(py, |g| {
                if g.is_over() {
                    return Err(IllegalActionError::new_err("the game is over: there is no cube decision"));
                }
                if g.turn().is_none() {
                    return Err(IllegalActionError::new_err(
                        "nobody is on roll before the opening roll: there is no cube decision",
                    ));
                }
                Ok((g.position(), EngineContext::from_game(g)))
            })?
        } else if let Ok(p) = game.downcast::<Position>() {
            (p.get().inner, context.map_or_else(EngineContext::default, |c| c.inner))
        } else {
            return Err(GammonError::new_err(format!(
                "cube_action needs a Game or a Position, got {}",
                game.get_type().name()?
            )));
        };
        let decision = py.allow_threads(|| self.inner.cube_action(&position, &ctx)).py_err()?;
        Ok(CubeAction { inner: decision })
    }

    /// The position's outcome probabilities and cubeless equity for the player on roll.
    fn evaluate(&self, py: Python<'_>, position: &Position) -> Probabilities {
        let p = position.inner;
        Probabilities { inner: py.allow_threads(|| self.inner.evaluate(&p)) }
    }

    fn __repr__(&self) -> String {
        format!("Bot(ply={})", self.inner.ply())
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Bot>()?;
    m.add_class::<Probabilities>()?;
    m.add_class::<RankedPlay>()?;
    Ok(())
}
