//! Thread pools for calls that take `threads=`: `None` means every core.

use crate::errors::GammonError;
use pyo3::prelude::*;
use std::sync::Arc;

/// The number of workers `threads=` asks for, checked: `None` is one per core, an int is 1 to
/// the engine's maximum (see `args::threads`).
pub fn count(threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    match crate::args::threads(threads)? {
        None => Ok(std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)),
        Some(n) => Ok(n),
    }
}

/// A pool with `n` workers (from [`count`]), reused across calls of the same size
/// ([`gammon_core::threads::pool`]).
pub fn pool(n: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    gammon_core::threads::pool(n).map_err(|e| GammonError::new_err(e.to_string()))
}
