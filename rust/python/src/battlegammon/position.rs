//! The Battlegammon `Position` and `Play`.

use crate::errors::{IntoPy, InvalidPositionError};
use crate::position::dice;
use gammon_battlegammon::{Play, Position};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple, PyType};

/// The strings of a list of fields, refusing anything else with the entry that is wrong.
fn field_texts(fields: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let bad = |what: String| {
        InvalidPositionError::new_err(format!("a position is a list of 24 strings of w/b tokens; {what}"))
    };
    let shown = fields.repr()?;
    if fields.is_instance_of::<PyString>() {
        return Err(bad(format!("got the string {shown}")));
    }
    let items = fields.try_iter().map_err(|_| bad(format!("got {shown}")))?;
    items
        .enumerate()
        .map(|(k, item)| {
            let item = item?;
            item.extract::<String>().map_err(|_| bad(format!("entry {k} (field {}) is {item}", k + 1)))
        })
        .collect()
}

/// A Battlegammon position: the tokens on the 24 fields and the side to move.
#[pyclass(name = "Position", module = "gammon.battlegammon", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BgPosition {
    pub inner: Position,
}

#[pymethods]
impl BgPosition {
    /// The setup of the rules, Black to move.
    #[staticmethod]
    fn initial() -> BgPosition {
        BgPosition { inner: Position::initial() }
    }

    /// A position from its ID (`Position.id`). A classmethod, so that the bound method pickles
    /// by reference to this class.
    #[classmethod]
    fn from_id(_cls: &Bound<'_, PyType>, id: &str) -> PyResult<BgPosition> {
        Ok(BgPosition { inner: Position::from_id(id).py_err()? })
    }

    /// A position from 24 strings laid out as `to_list()` and the side to move.
    #[staticmethod]
    fn from_list(fields: &Bound<'_, PyAny>, turn: &str) -> PyResult<BgPosition> {
        Ok(BgPosition { inner: Position::from_list(&field_texts(fields)?, super::side(turn)?).py_err()? })
    }

    /// The side to move: `"white"` or `"black"`.
    #[getter]
    fn turn(&self) -> &'static str {
        self.inner.turn().name()
    }

    /// The compact ID, such as `b:wwwww////w///ww/ww///////b///bb/bb////bbbbb`.
    #[getter]
    fn id(&self) -> String {
        self.inner.id()
    }

    /// 24 strings, entry k-1 for field k: its tokens bottom to top as `w`/`b`.
    #[allow(clippy::wrong_self_convention)] // Python methods receive &self
    fn to_list(&self) -> Vec<String> {
        self.inner.to_list()
    }

    /// The side that has won under the default rules, or None.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.inner.winner().map(|s| s.name())
    }

    /// The legal plays of a roll under the default rules, one per distinct result.
    fn legal_plays(
        &self,
        py: Python<'_>,
        d1: &Bound<'_, PyAny>,
        d2: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<BgPlay>> {
        let dice = dice(d1, d2)?;
        let plays = py.allow_threads(|| self.inner.legal_plays(dice));
        Ok(plays.into_iter().map(|inner| BgPlay { inner }).collect())
    }

    /// The track as an SVG document, drawn by the Rust picture crate: `dice` as `(d1, d2)` or
    /// `"42"`, and a `play` of this position drawn as arrows.
    #[pyo3(signature = (dice=None, *, play=None))]
    #[allow(clippy::wrong_self_convention)] // Python methods receive &self
    fn to_svg(&self, dice: Option<&Bound<'_, PyAny>>, play: Option<&BgPlay>) -> PyResult<String> {
        crate::picture::track(&self.inner, dice, play.map(|p| &p.inner))
    }

    /// The track as SVG, for notebooks.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.to_svg(None, None)
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position.from_id('{}')", self.inner.id())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let from_id = slf.get_type().getattr("from_id")?;
        let args = PyTuple::new(slf.py(), [slf.get().inner.id()])?;
        Ok((from_id, args))
    }
}

/// A legal play: its token moves and the position it leads to, the turn passed on.
#[pyclass(name = "Play", module = "gammon.battlegammon", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BgPlay {
    pub inner: Play,
}

#[pymethods]
impl BgPlay {
    /// `(from_field, to_field)` pairs in the order played; empty for a roll that cannot be played.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.move_pairs())
    }

    /// The position after the play, the opponent to move (or the winning position).
    #[getter]
    fn position(&self) -> BgPosition {
        BgPosition { inner: self.inner.position }
    }

    /// Whether the play wins the game.
    #[getter]
    fn wins(&self) -> bool {
        self.inner.wins()
    }

    /// Whether the play only passes the turn (the roll cannot be played).
    #[getter]
    fn is_pass(&self) -> bool {
        self.inner.is_pass()
    }

    /// The position after the play as an SVG document, with its moves as arrows.
    #[allow(clippy::wrong_self_convention)] // Python methods receive &self
    fn to_svg(&self) -> PyResult<String> {
        crate::picture::track(&self.inner.position, None, Some(&self.inner))
    }

    /// The position after the play as SVG, for notebooks.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.to_svg()
    }

    fn __str__(&self) -> String {
        self.inner.notation()
    }

    fn __repr__(&self) -> String {
        format!("Play('{}')", self.inner.notation())
    }
}

/// Reads a Battlegammon position as people write it: an ID (`Position.id`) or `"initial"`.
#[pyfunction]
pub fn read_position(text: &str) -> PyResult<BgPosition> {
    Ok(BgPosition { inner: gammon_battlegammon::read_position(text).py_err()? })
}
