//! Worker pools shared by every call that asks for the same number of threads.
//!
//! Starting a pool for each call costs more than its threads' start: their caches, their
//! allocator's arenas and their thread-local scratch all begin cold. A 1296-trial cubeful
//! rollout of a contact position on two threads took about a tenth longer on a fresh pool than
//! on one kept from the call before (docs/performance.md), so pools are kept.

use crate::error::{Error, Result};
use std::sync::{Arc, Mutex};

/// How many pools of different sizes are kept at once: a program alternating between a few
/// thread counts keeps them all, and one trying every count does not pile up idle threads.
const KEPT: usize = 4;

/// A pool of `n` worker threads, the same one for every call asking for `n` while it is kept.
/// An error if `n` is 0 or the threads cannot be started.
///
/// ```
/// let a = gammon_core::threads::pool(2).unwrap();
/// let b = gammon_core::threads::pool(2).unwrap();
/// assert!(std::sync::Arc::ptr_eq(&a, &b));
/// assert_eq!(a.install(rayon::current_num_threads), 2);
/// ```
pub fn pool(n: usize) -> Result<Arc<rayon::ThreadPool>> {
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    if n == 0 {
        return Err(Error::InvalidArgument("threads must be at least 1".into()));
    }
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(k) = pools.iter().position(|(m, _)| *m == n) {
        // Most recently used last, so that the one dropped is the one least recently used.
        let kept = pools.remove(k);
        pools.push(kept);
        return Ok(pools[pools.len() - 1].1.clone());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| Error::InvalidArgument(format!("cannot start {n} threads: {e}")))?;
    let pool = Arc::new(pool);
    if pools.len() == KEPT {
        // Its threads end once the calls still using it are done.
        pools.remove(0);
    }
    pools.push((n, pool.clone()));
    Ok(pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_is_kept_for_its_size_and_the_least_recently_used_one_goes_first() {
        assert!(pool(0).is_err());
        let three = pool(3).unwrap();
        assert!(Arc::ptr_eq(&three, &pool(3).unwrap()));
        for n in 4..4 + KEPT {
            pool(n).unwrap();
        }
        // Four other sizes since: the pool of three was dropped from the cache (its threads
        // live on here through `three`), and asking again starts another.
        let again = pool(3).unwrap();
        assert!(!Arc::ptr_eq(&three, &again));
        assert_eq!(again.install(rayon::current_num_threads), 3);
    }
}
