//! Battlegammon rollouts: `rollout` and its `RolloutResult` (win, lose and draw chances).

use super::position::BgPosition;
use crate::errors::IntoPy;
use crate::rollout::{from_state, reduce, with_progress};
use gammon_battlegammon::{rollout as engine_rollout, Battlegammon, BuiltinPolicy, Chances};
use gammon_bot::rollout::{merge, RolloutOptions, RolloutResult as EngineResult};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The result of a Battlegammon rollout, from the view of the side to move in the rolled-out
/// position: the chances of a win, a loss and a draw, and `equity = win - lose`.
#[pyclass(name = "RolloutResult", module = "gammon.battlegammon", frozen)]
#[derive(Clone)]
pub struct BgRolloutResult {
    inner: EngineResult,
}

impl BgRolloutResult {
    fn chances(&self) -> Chances {
        Chances::of(&self.inner)
    }
}

#[pymethods]
impl BgRolloutResult {
    /// Probability of winning.
    #[getter]
    fn win(&self) -> f64 {
        self.chances().win
    }
    /// Probability of losing.
    #[getter]
    fn lose(&self) -> f64 {
        self.chances().lose
    }
    /// Probability of a draw (the turn cap).
    #[getter]
    fn draw(&self) -> f64 {
        self.chances().draw
    }
    /// `win - lose`.
    #[getter]
    fn equity(&self) -> f64 {
        self.inner.equity
    }
    /// Standard error of the equity (after variance reduction when it was applied).
    #[getter]
    fn std_error(&self) -> f64 {
        self.inner.std_error
    }
    /// Trials run.
    #[getter]
    fn trials(&self) -> u64 {
        self.inner.trials
    }
    /// Index of the first trial (trials `first_trial .. first_trial + trials` of the seed).
    #[getter]
    fn first_trial(&self) -> u64 {
        self.inner.first_trial
    }
    /// The seed of the dice.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed
    }
    /// Wall-clock seconds.
    #[getter]
    fn seconds(&self) -> f64 {
        self.inner.seconds
    }
    /// Stopped early by cancellation (Ctrl-C or a progress callback returning False).
    #[getter]
    fn cancelled(&self) -> bool {
        self.inner.cancelled
    }
    /// Whether the luck of each roll was subtracted (with the bot's evaluation).
    #[getter]
    fn variance_reduction(&self) -> bool {
        self.inner.variance_reduction
    }
    /// A description of what was rolled out and how.
    #[getter]
    fn setup(&self) -> &str {
        &self.inner.setup
    }

    /// Pickles through the exact sums, so a result rebuilt elsewhere still merges bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        reduce(py, &self.inner, "battlegammon._rollout_result_from_state")
    }

    fn __repr__(&self) -> String {
        let c = self.chances();
        format!(
            "RolloutResult(equity={:+.4} ± {:.4}, win={:.4}, lose={:.4}, draw={:.4}, trials={})",
            self.inner.equity, self.inner.std_error, c.win, c.lose, c.draw, self.inner.trials
        )
    }
}

/// `rollout(position, ...)`; see `gammon.battlegammon.rollout` for the documentation.
#[pyfunction]
#[pyo3(signature = (position, trials=1296, seed=0, threads=None, policy="bot", first_trial=0,
                    progress=None, **rule_options))]
#[allow(clippy::too_many_arguments)]
fn rollout(
    py: Python<'_>,
    position: BgPosition,
    #[pyo3(from_py_with = crate::args::trials)] trials: u64,
    #[pyo3(from_py_with = crate::args::dice_seed)] seed: u64,
    threads: Option<&Bound<'_, PyAny>>,
    policy: &str,
    #[pyo3(from_py_with = crate::args::first_trial)] first_trial: u64,
    progress: Option<PyObject>,
    rule_options: Option<&Bound<'_, PyDict>>,
) -> PyResult<BgRolloutResult> {
    let threads = crate::args::threads(threads)?;
    let game = Battlegammon::new(super::rules(rule_options)?).py_err()?;
    let policy = BuiltinPolicy::from_name(policy, game.rules()).py_err()?;
    let cancel = Arc::new(AtomicBool::new(false));
    let options = RolloutOptions {
        trials,
        seed,
        threads,
        first_trial,
        cancel: Some(cancel.clone()),
        ..RolloutOptions::default()
    };
    let wrap = |py: Python<'_>, partial: EngineResult| {
        Ok(BgRolloutResult { inner: partial }.into_pyobject(py)?.into_any().unbind())
    };
    let result = with_progress(py, progress.as_ref(), &cancel, wrap, |report| {
        engine_rollout(&game, &position.inner, &policy, &options, Some(report))
    })?;
    Ok(BgRolloutResult { inner: result.py_err()? })
}

/// Rebuilds a pickled Battlegammon `RolloutResult`.
#[pyfunction(name = "_rollout_result_from_state")]
fn rollout_result_from_state(state: &Bound<'_, PyAny>) -> PyResult<BgRolloutResult> {
    Ok(BgRolloutResult { inner: from_state(state)? })
}

/// `merge_rollouts(results)`: consecutive parts of one Battlegammon rollout combined exactly;
/// parts of different seeds, positions, policies or rules are refused.
#[pyfunction]
fn merge_rollouts(results: Vec<PyRef<'_, BgRolloutResult>>) -> PyResult<BgRolloutResult> {
    let parts: Vec<EngineResult> = results.iter().map(|r| r.inner.clone()).collect();
    Ok(BgRolloutResult { inner: merge(&parts).py_err()? })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BgRolloutResult>()?;
    m.add_function(wrap_pyfunction!(rollout, m)?)?;
    m.add_function(wrap_pyfunction!(merge_rollouts, m)?)?;
    m.add_function(wrap_pyfunction!(rollout_result_from_state, m)?)?;
    Ok(())
}
