//! `MatchEquityTable` for Python.

use crate::errors::IntoPy;
use gammon_backgammon::MatchEquityTable as EngineTable;
use pyo3::prelude::*;

/// A match equity table: each player's chance to win the match (MWC) from a score.
#[pyclass(module = "gammon", frozen)]
pub struct MatchEquityTable {
    inner: EngineTable,
}

#[pymethods]
impl MatchEquityTable {
    /// Kazaross-XG2, 25 x 25 (GNU Backgammon's default table).
    #[staticmethod]
    fn kazaross_xg2() -> MatchEquityTable {
        MatchEquityTable { inner: EngineTable::kazaross_xg2().clone() }
    }

    /// A table read from a JSON file with `name`, `pre_crawford` and `post_crawford`.
    #[staticmethod]
    fn load(path: std::path::PathBuf) -> PyResult<MatchEquityTable> {
        Ok(MatchEquityTable { inner: EngineTable::load(&path.to_string_lossy()).py_err()? })
    }

    /// A table from JSON text, laid out as for `load`.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<MatchEquityTable> {
        Ok(MatchEquityTable { inner: EngineTable::from_json(text).py_err()? })
    }

    /// The table's name.
    #[getter]
    fn name(&self) -> &str {
        self.inner.name()
    }

    /// The permission notice that came with the numbers.
    #[getter]
    fn notice(&self) -> &str {
        self.inner.notice()
    }

    /// The largest away count the table covers.
    #[getter]
    fn size(&self) -> u32 {
        self.inner.size()
    }

    /// MWC of a player `me_away` points from winning against one `opp_away` away, before a game
    /// that is `post_crawford` or not (which matters only when a player is 1-away).
    #[pyo3(signature = (me_away, opp_away, post_crawford=false))]
    fn mwc(&self, me_away: u32, opp_away: u32, post_crawford: bool) -> PyResult<f64> {
        self.inner.mwc(me_away, opp_away, post_crawford).py_err()
    }

    /// MWC of `player` at `score` `(player 0, player 1)` in a match to `length`, before a game.
    #[pyo3(signature = (score, length, player, post_crawford=false))]
    fn mwc_at_score(&self, score: (u32, u32), length: u32, player: u8, post_crawford: bool) -> PyResult<f64> {
        self.inner.mwc_at_score([score.0, score.1], length, player, post_crawford).py_err()
    }

    /// The pre-Crawford entry: MWC at `me_away`-away, `opp_away`-away.
    fn pre_crawford(&self, me_away: u32, opp_away: u32) -> PyResult<f64> {
        self.inner.pre_crawford(me_away, opp_away).py_err()
    }

    /// The post-Crawford entry: MWC of the trailer `trailer_away` from winning against 1-away.
    fn post_crawford(&self, trailer_away: u32) -> PyResult<f64> {
        self.inner.post_crawford(trailer_away).py_err()
    }

    fn __repr__(&self) -> String {
        format!("<MatchEquityTable {} ({} x {})>", self.inner.name(), self.inner.size(), self.inner.size())
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MatchEquityTable>()
}
