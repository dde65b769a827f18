//! The engine's one reader of what people type, for Python: `read_position`, `read_dice`,
//! `ReadPosition`, and the names of the five probabilities.

use crate::errors::IntoPy;
use crate::game::{Game, Match};
use crate::position::Position;
use gammon_backgammon::formats::reader::ReadPosition as EngineRead;
use gammon_backgammon::{read_position as engine_read, Dice, Probabilities};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// A position read by `read_position`, with whatever else its text carried.
#[pyclass(module = "gammon", frozen)]
pub struct ReadPosition {
    pub inner: EngineRead,
    /// The match the text described, shared by `match` and `game` so that both show one state.
    match_state: Option<Py<Match>>,
}

#[pymethods]
impl ReadPosition {
    /// The board, seen from the player on roll (`Position.initial()` for a named start).
    #[getter]
    fn position(&self) -> Position {
        Position { inner: self.inner.position }
    }

    /// The match or money session of a `PositionID:MatchID` or a whole XGID; None otherwise.
    #[getter(r#match)]
    fn match_state(&self, py: Python<'_>) -> Option<Py<Match>> {
        self.match_state.as_ref().map(|m| m.clone_ref(py))
    }

    /// The current game of `match` (cube, turn, dice), or None.
    #[getter]
    fn game(&self, py: Python<'_>) -> Option<Game> {
        let owner = self.match_state.as_ref()?;
        let index = owner.borrow(py).inner.games().len() - 1;
        Some(Game::in_match(owner.clone_ref(py), index))
    }

    /// The dice the text says are rolled, larger first, or None.
    #[getter]
    fn dice(&self) -> Option<(u8, u8)> {
        self.inner.dice().map(|d| (d.high(), d.low()))
    }

    /// `"opening"` or `"initial"` when the text named a start (`"start"` is `"initial"`), else None.
    #[getter]
    fn named(&self) -> Option<&'static str> {
        self.inner.named.map(|n| n.name())
    }

    /// How the text wrote the position: `"position_id"`, `"gnubg_id"`, `"xgid"`,
    /// `"xgid_board"`, `"list"` or `"named"`.
    #[getter]
    fn notation(&self) -> &'static str {
        self.inner.notation.name()
    }

    /// The position where a player on roll is needed and no dice are given: `"opening"` is
    /// refused (nobody is on roll before the opening roll; use `"initial"`).
    fn on_roll(&self) -> PyResult<Position> {
        Ok(Position { inner: self.inner.on_roll().py_err()? })
    }

    /// The position whose plays of `d1`-`d2` are wanted: for `"opening"` the opening roll, so a
    /// double is refused.
    fn with_dice(&self, d1: &Bound<'_, PyAny>, d2: &Bound<'_, PyAny>) -> PyResult<Position> {
        let dice = crate::position::dice(d1, d2)?;
        Ok(Position { inner: self.inner.with_dice(dice).py_err()? })
    }

    fn __repr__(&self) -> String {
        let named = self.inner.named.map(|n| format!(", named='{}'", n.name())).unwrap_or_default();
        let dice =
            self.inner.dice().map(|d| format!(", dice=({}, {})", d.high(), d.low())).unwrap_or_default();
        format!(
            "ReadPosition(position='{}', notation='{}'{named}{dice})",
            self.inner.position.id(),
            self.inner.notation.name()
        )
    }
}

impl ReadPosition {
    /// Wraps an engine reading, giving its match a Python owner.
    pub fn new(py: Python<'_>, inner: EngineRead) -> PyResult<ReadPosition> {
        let match_state = match &inner.match_state {
            Some(m) => Some(Py::new(py, Match { inner: m.clone() })?),
            None => None,
        };
        Ok(ReadPosition { inner, match_state })
    }
}

/// Reads a position in any notation the tools accept: a Position ID, `PositionID:MatchID`
/// (either order), an XGID (with or without `XGID=`, or its 26-character board alone), 26 ints
/// written as text (`"[0, -2, ...]"` or `"0 -2 ..."`), `"initial"` or `"opening"`.
#[pyfunction]
pub fn read_position(py: Python<'_>, text: &str) -> PyResult<ReadPosition> {
    ReadPosition::new(py, engine_read(text).py_err()?)
}

/// Reads a roll as people type it: `"53"`, `"5-3"`, `"5 3"`, `"5,3"`; returns `(high, low)`.
#[pyfunction]
fn read_dice(text: &str) -> PyResult<(u8, u8)> {
    let d = Dice::parse(text).py_err()?;
    Ok((d.high(), d.low()))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ReadPosition>()?;
    m.add_function(wrap_pyfunction!(read_position, m)?)?;
    m.add_function(wrap_pyfunction!(read_dice, m)?)?;
    m.add("PROBABILITY_NAMES", PyTuple::new(m.py(), Probabilities::NAMES)?)?;
    Ok(())
}
