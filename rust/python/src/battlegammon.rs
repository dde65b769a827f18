//! `gammon._core.battlegammon`: `Position`, `Play`, `Game`, `Bot`, `RolloutResult`, `rollout`
//! and `merge_rollouts` of the engine's Battlegammon, a native submodule of `_core` that
//! `python/gammon/battlegammon.py` re-exports.

use crate::errors::{GammonError, InvalidPositionError};
use gammon_battlegammon::{Rules, Side};
use pyo3::prelude::*;
use pyo3::types::PyDict;

mod bot;
mod game;
mod position;
mod rollout;

pub use position::{BgPlay, BgPosition};

/// The side named `name` (`"white"`/`"black"`).
fn side(name: &str) -> PyResult<Side> {
    Side::from_name(name).ok_or_else(|| {
        InvalidPositionError::new_err(format!("a side is \"white\" or \"black\"; got {name:?}"))
    })
}

/// The options in `rule_options` applied over the default rules through `Rules::set`.
fn rules(rule_options: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
    let mut rules = Rules::default();
    for (name, value) in rule_options.into_iter().flat_map(|d| d.iter()) {
        let name: String = name.extract()?;
        let value: i64 = value.extract().map_err(|_| {
            GammonError::new_err(format!("rule option {name} takes a bool or an int; got {value}"))
        })?;
        rules.set(&name, value).map_err(crate::errors::to_py)?;
    }
    Ok(rules)
}

/// The rules as a dict of the option names `Game(**rule_options)` takes.
fn rules_dict<'py>(py: Python<'py>, rules: &Rules) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("maximize_dice", rules.maximize_dice)?;
    d.set_item("count_distinct_fields", rules.count_distinct_fields)?;
    d.set_item("turn_cap", rules.turn_cap)?;
    Ok(d)
}

/// Adds the submodule `battlegammon` to `_core`, and to `sys.modules` as
/// `gammon._core.battlegammon` so that `import gammon._core.battlegammon` finds it.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // The full dotted name, so that its functions' `__module__` lets pickle find them.
    let sub = PyModule::new(py, "gammon._core.battlegammon")?;
    sub.add_class::<BgPosition>()?;
    sub.add_class::<BgPlay>()?;
    sub.add_class::<game::BgGame>()?;
    sub.add_class::<bot::BgBot>()?;
    sub.add_function(wrap_pyfunction!(position::read_position, &sub)?)?;
    rollout::register(&sub)?;
    m.add("battlegammon", &sub)?;
    py.import("sys")?.getattr("modules")?.set_item("gammon._core.battlegammon", &sub)?;
    Ok(())
}
