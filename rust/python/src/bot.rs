//! `Bot`, `Evaluation` and `RankedPlay` for Python: the neural-net player.

use crate::errors::IntoPy;
use crate::position::{dice, Play, Position};
use gammon_engine::eval::search::{Bot as EngineBot, RankedPlay as EngineRankedPlay};
use gammon_engine::eval::Probabilities;
use pyo3::prelude::*;

/// The five cumulative outcome probabilities of a position and its cubeless equity.
#[pyclass(module = "gammon", frozen, eq)]
#[derive(Clone, Copy, PartialEq)]
pub struct Evaluation {
    inner: Probabilities,
}

#[pymethods]
impl Evaluation {
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
            "Evaluation(win={:.4}, win_gammon={:.4}, win_backgammon={:.4}, lose_gammon={:.4}, \
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
    /// Its cubeless equity for the mover.
    #[getter]
    fn equity(&self) -> f64 {
        self.inner.value.equity()
    }
    /// Its outcome probabilities for the mover.
    #[getter]
    fn evaluation(&self) -> Evaluation {
        Evaluation { inner: self.inner.value }
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
            self.inner.value.equity(),
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

/// The built-in neural-net player, searching `ply` plies (0, 1 or 2).
#[pyclass(module = "gammon", frozen)]
pub struct Bot {
    inner: EngineBot<'static>,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (ply=Ply(Ok(0))), text_signature = "(ply=0)")]
    fn new(ply: Ply) -> PyResult<Bot> {
        let ply = ply.0.map_err(|text| {
            crate::errors::GammonError::new_err(format!("ply must be 0, 1 or 2, got {text}"))
        })?;
        Ok(Bot { inner: EngineBot::new(ply).py_err()? })
    }

    /// The search depth.
    #[getter]
    fn ply(&self) -> u8 {
        self.inner.ply()
    }

    /// The bot's play for the roll.
    fn best_play(
        &self,
        py: Python<'_>,
        position: &Position,
        d1: &Bound<'_, PyAny>,
        d2: &Bound<'_, PyAny>,
    ) -> PyResult<Play> {
        let dice = dice(d1, d2)?;
        let p = position.inner;
        let best = py.allow_threads(|| self.inner.best_play(&p, dice)).py_err()?;
        Ok(Play { inner: best.play })
    }

    /// Every legal play of the roll with its evaluation, best first.
    fn rank_plays(
        &self,
        py: Python<'_>,
        position: &Position,
        d1: &Bound<'_, PyAny>,
        d2: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<RankedPlay>> {
        let dice = dice(d1, d2)?;
        let p = position.inner;
        let ranked = py.allow_threads(|| self.inner.rank_plays(&p, dice)).py_err()?;
        Ok(ranked.into_iter().map(|inner| RankedPlay { inner }).collect())
    }

    /// The position's outcome probabilities and cubeless equity for the player on roll.
    fn evaluate(&self, py: Python<'_>, position: &Position) -> Evaluation {
        let p = position.inner;
        Evaluation { inner: py.allow_threads(|| self.inner.evaluate(&p)) }
    }

    fn __repr__(&self) -> String {
        format!("Bot(ply={})", self.inner.ply())
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Bot>()?;
    m.add_class::<Evaluation>()?;
    m.add_class::<RankedPlay>()?;
    Ok(())
}
