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

/// A pool with `n` workers (from [`count`]), reused across calls of the same size.
pub fn pool(n: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    use std::sync::Mutex;
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = pools.iter().find(|(k, _)| *k == n) {
        return Ok(p.clone());
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| GammonError::new_err(format!("cannot start {n} threads: {e}")))?,
    );
    pools.push((n, p.clone()));
    Ok(p)
}
