//! `rollout_cube` and `CubeRolloutResult` for Python: a cube decision rolled out.

use crate::cube::{CubeAction, CubeContext};
use crate::errors::{GammonError, IntoPy};
use crate::position::Position;
use crate::rollout::{ply_arg, with_progress, RolloutResult};
use gammon_bot::cube::CubeContext as EngineContext;
use gammon_bot::policy::RolloutPlayer;
use gammon_bot::rollout::{rollout_cube as engine_rollout_cube, CubeRollout, RolloutOptions};
use pyo3::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A cube decision rolled out: "no double" and "double, take" over the same games and dice,
/// with their equities (normalised as `CubeAction`'s: per unit of the cube in money play,
/// equivalent to money at the cube in match play; `double_pass` is 1 by definition), their
/// standard errors and the standard error of their difference, and the decision they call for,
/// named as `Bot.cube_action` names it.
#[pyclass(module = "gammon", frozen)]
pub struct CubeRolloutResult {
    inner: CubeRollout,
}

#[pymethods]
impl CubeRolloutResult {
    /// Equity if the player on roll does not double.
    #[getter]
    fn no_double(&self) -> f64 {
        self.inner.action.no_double
    }
    /// Equity if the player doubles and the opponent takes.
    #[getter]
    fn double_take(&self) -> f64 {
        self.inner.action.double_take
    }
    /// Equity if the player doubles and the opponent passes: 1 by definition.
    #[getter]
    fn double_pass(&self) -> f64 {
        self.inner.action.double_pass
    }
    /// Standard error of `no_double`.
    #[getter]
    fn no_double_std_error(&self) -> f64 {
        self.inner.no_double_std_error
    }
    /// Standard error of `double_take`.
    #[getter]
    fn double_take_std_error(&self) -> f64 {
        self.inner.double_take_std_error
    }
    /// Standard error of `double_take - no_double`, from the paired trials: smaller than
    /// either line's own.
    #[getter]
    fn difference_std_error(&self) -> f64 {
        self.inner.difference_std_error
    }
    /// The player on roll should double.
    #[getter]
    fn double(&self) -> bool {
        self.inner.action.double
    }
    /// The opponent should take.
    #[getter]
    fn take(&self) -> bool {
        self.inner.action.take
    }
    /// The opponent should beaver (where beavers are allowed).
    #[getter]
    fn beaver(&self) -> bool {
        self.inner.action.beaver
    }
    /// The decision in words, as `CubeAction.label`: "No double, take", "Double, pass"...
    #[getter]
    fn label(&self) -> String {
        self.inner.action.label()
    }
    /// The decision as a `CubeAction`, built from the rolled-out equities.
    #[getter]
    fn action(&self) -> CubeAction {
        CubeAction { inner: self.inner.action }
    }
    /// The rollout itself: its cubeless figures, and its `cubeful_equity` (that of not
    /// doubling).
    #[getter]
    fn result(&self) -> RolloutResult {
        RolloutResult { inner: self.inner.result.clone() }
    }
    /// Trials run.
    #[getter]
    fn trials(&self) -> u64 {
        self.inner.result.trials
    }
    /// Wall-clock seconds.
    #[getter]
    fn seconds(&self) -> f64 {
        self.inner.result.seconds
    }
    /// Stopped early by cancellation (Ctrl-C or a progress callback returning False).
    #[getter]
    fn cancelled(&self) -> bool {
        self.inner.result.cancelled
    }

    fn __repr__(&self) -> String {
        let r = &self.inner;
        format!(
            "CubeRolloutResult({:?}, no_double={:+.4} ± {:.4}, double_take={:+.4} ± {:.4}, \
             difference ± {:.4}, trials={})",
            r.action.label(),
            r.action.no_double,
            r.no_double_std_error,
            r.action.double_take,
            r.double_take_std_error,
            r.difference_std_error,
            r.result.trials
        )
    }
}

/// `rollout_cube(position, context=None, trials=1296, seed=0, ...)`; see `gammon.rollout_cube`.
#[pyfunction]
#[pyo3(signature = (position, context=None, trials=1296, seed=0, threads=None, policy="net",
                    truncate=None, variance_reduction=true, ply=0, progress=None))]
#[allow(clippy::too_many_arguments)]
fn rollout_cube(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    context: Option<&CubeContext>,
    #[pyo3(from_py_with = crate::args::trials)] trials: u64,
    #[pyo3(from_py_with = crate::args::dice_seed)] seed: u64,
    threads: Option<&Bound<'_, PyAny>>,
    policy: &str,
    truncate: Option<u32>,
    variance_reduction: bool,
    #[pyo3(from_py_with = ply_arg)] ply: u8,
    progress: Option<PyObject>,
) -> PyResult<CubeRolloutResult> {
    let position = match position.downcast::<Position>() {
        Ok(p) => p.get().inner,
        Err(_) => match position.extract::<String>() {
            Ok(text) => gammon_backgammon::read_position(&text).py_err()?.position,
            Err(_) => {
                return Err(GammonError::new_err(format!(
                    "position must be a gammon.Position or text such as a Position ID, got {}",
                    position.repr().map(|r| r.to_string()).unwrap_or_default()
                )))
            }
        },
    };
    let threads = crate::args::threads(threads)?;
    let policy = RolloutPlayer::new(policy, ply).py_err()?;
    let context = context.map_or_else(EngineContext::default, |c| c.inner);
    let cancel = Arc::new(AtomicBool::new(false));
    let options = RolloutOptions {
        trials,
        seed,
        threads,
        truncate,
        variance_reduction,
        cancel: Some(cancel.clone()),
        ..RolloutOptions::default()
    };
    let wrap = |py: Python<'_>, partial: gammon_bot::rollout::RolloutResult| {
        Ok(RolloutResult { inner: partial }.into_pyobject(py)?.into_any().unbind())
    };
    let result = with_progress(py, progress.as_ref(), &cancel, wrap, |report| {
        engine_rollout_cube(&position, &policy, &context, ply, &options, Some(report))
    })?;
    Ok(CubeRolloutResult { inner: result.py_err()? })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<CubeRolloutResult>()?;
    m.add_function(wrap_pyfunction!(rollout_cube, m)?)?;
    Ok(())
}
