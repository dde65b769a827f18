//! Python arguments shared by several classes, converted to engine types with clear errors.

use crate::errors::{GammonError, InvalidDiceError};
use gammon_backgammon::Dice;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

/// The seed of a game or match: None, or an int in 0..2^64.
pub fn seed(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    seed.map(|s| {
        s.extract::<u64>()
            .map_err(|_| GammonError::new_err(format!("seed must be None or an int in 0..2**64; got {s}")))
    })
    .transpose()
}

/// A size or count argument: a Python int from `lo` to `hi`, else a `GammonError` (a
/// `ValueError`) naming the argument, whatever the int's size (never an `OverflowError`).
pub fn int_in(value: &Bound<'_, PyAny>, name: &str, lo: u64, hi: u64) -> PyResult<u64> {
    let bad = || {
        let shown = value.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
        GammonError::new_err(format!("{name} must be an int from {lo} to {hi}; got {shown}"))
    };
    if !value.is_instance_of::<PyInt>() {
        return Err(bad());
    }
    value.extract::<u64>().ok().filter(|v| (lo..=hi).contains(v)).ok_or_else(bad)
}

/// A `threads=` argument: None (every core) or an int from 1 to the engine's maximum.
pub fn threads(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    let most = gammon_bot::rollout::max_threads();
    value
        .filter(|v| !v.is_none())
        .map(|v| int_in(v, "threads", 1, most as u64).map(|n| n as usize))
        .transpose()
}

/// `trials=` of a rollout: 1 to the engine's maximum, 2^30.
pub fn trials(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    int_in(value, "trials", 1, gammon_bot::rollout::MAX_TRIALS)
}

/// `first_trial=` of a rollout: 0 to 2^60, where the trial numbering ends.
pub fn first_trial(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    int_in(value, "first_trial", 0, gammon_bot::rollout::MAX_TRIAL_INDEX)
}

/// The seed of a rollout's dice: an int in 0..2^64.
pub fn dice_seed(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    int_in(value, "seed", 0, u64::MAX)
}

/// Two dice from a pair of ints `(d1, d2)`, each in 1..6; returns them in the order given.
pub fn dice_pair(given: &Bound<'_, PyAny>) -> PyResult<(Dice, u8, u8)> {
    let items: Vec<Bound<'_, PyAny>> = match given.is_instance_of::<PyString>() {
        true => Vec::new(),
        false => given.try_iter().and_then(|it| it.collect()).unwrap_or_default(),
    };
    let [d1, d2] = &items[..] else {
        return Err(InvalidDiceError::new_err(format!(
            "dice are a pair of ints 1..6; got {}",
            given.repr()?
        )));
    };
    let roll = crate::position::dice(d1, d2)?;
    // `dice` has checked both are ints in 1..6.
    Ok((roll, d1.extract()?, d2.extract()?))
}

/// A roll as Python sees it: `(high, low)`.
pub fn dice_tuple(d: Dice) -> (u8, u8) {
    (d.high(), d.low())
}
