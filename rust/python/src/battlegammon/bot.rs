//! The Battlegammon `Bot`.

use super::position::{BgPlay, BgPosition};
use crate::errors::{GammonError, IntoPy};
use crate::position::dice;
use gammon_battlegammon::Bot;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The engine's expectimax bot; its searches run with the GIL released.
#[pyclass(name = "Bot", module = "gammon.battlegammon", frozen)]
pub struct BgBot {
    inner: Bot,
}

/// An int argument converted to the engine's type, or a `GammonError` naming it.
fn convert<T: TryFrom<i64>>(name: &str, value: i64, expected: &str) -> PyResult<T> {
    T::try_from(value).map_err(|_| GammonError::new_err(format!("{name} must be {expected}; got {value}")))
}

#[pymethods]
impl BgBot {
    /// A bot searching `ply` plies beyond judging each play (0 or 1, as backgammon's `Bot`
    /// counts them) over its best `candidates` plays, under the rule options `Game` takes.
    #[new]
    #[pyo3(signature = (ply=1, candidates=8, **rule_options))]
    fn new(ply: i64, candidates: i64, rule_options: Option<&Bound<'_, PyDict>>) -> PyResult<BgBot> {
        let ply = convert("ply", ply, "0 or 1")?;
        let candidates = convert("candidates", candidates, "at least 1")?;
        let inner = Bot::with_rules(super::rules(rule_options)?)
            .and_then(|b| b.with_ply(ply))
            .and_then(|b| b.with_candidates(candidates))
            .py_err()?;
        Ok(BgBot { inner })
    }

    /// The search ply: 0 (evaluation only) or 1 (expectimax over the opponent's roll).
    #[getter]
    fn ply(&self) -> u8 {
        self.inner.ply()
    }

    /// The bot's play for the roll `d1`, `d2` in `position`.
    fn best_play(
        &self,
        py: Python<'_>,
        position: BgPosition,
        d1: &Bound<'_, PyAny>,
        d2: &Bound<'_, PyAny>,
    ) -> PyResult<BgPlay> {
        let dice = dice(d1, d2)?;
        let play = py.allow_threads(|| self.inner.best_play(&position.inner, dice)).py_err()?;
        Ok(BgPlay { inner: play })
    }

    /// Every legal play with the bot's chance of winning after it, best first.
    fn rank_plays(
        &self,
        py: Python<'_>,
        position: BgPosition,
        d1: &Bound<'_, PyAny>,
        d2: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<(BgPlay, f64)>> {
        let dice = dice(d1, d2)?;
        let ranked = py.allow_threads(|| self.inner.rank_plays(&position.inner, dice)).py_err()?;
        Ok(ranked.into_iter().map(|(inner, chance)| (BgPlay { inner }, chance)).collect())
    }

    /// The evaluation's chance that the side to move in `position` wins (1 or 0 once decided).
    fn evaluate(&self, position: BgPosition) -> f64 {
        self.inner.evaluate(&position.inner)
    }
}
