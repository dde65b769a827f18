//! Thread pools for calls that take `threads=`: `None` means every core.

use crate::errors::GammonError;
use pyo3::prelude::*;
use std::sync::Arc;

/// The number of workers `threads=` asks for, checked: `None` is one per core.
pub fn count(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        None => Ok(std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)),
        Some(0) => Err(GammonError::new_err("threads must be at least 1 (or None for every core)")),
        Some(n) if n > 1024 => Err(GammonError::new_err(format!("threads={n} is more than 1024"))),
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
