//! Python arguments shared by several classes, converted to engine types with clear errors.

use crate::errors::{GammonError, InvalidDiceError};
use gammon_backgammon::Dice;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// The seed of a game or match: None, or an int in 0..2^64.
pub fn seed(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    seed.map(|s| {
        s.extract::<u64>()
            .map_err(|_| GammonError::new_err(format!("seed must be None or an int in 0..2**64; got {s}")))
    })
    .transpose()
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
