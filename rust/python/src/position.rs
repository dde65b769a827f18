//! `Position` and `Play` for Python.

use crate::errors::IntoPy;
use gammon_backgammon::{Dice, Play as EnginePlay, Position as EnginePosition};
use numpy::{PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use std::cell::Cell;

thread_local! {
    /// Scratch space for [`Position::legal_plays`], reused by every call on a thread. Taken out
    /// for the call and put back after, so that a call made while the list is built (a finalizer
    /// run by the garbage collector, say) finds an empty buffer instead of a borrowed one.
    static PLAYS: Cell<Vec<EnginePlay>> = const { Cell::new(Vec::new()) };
    /// The same for `legal_positions`.
    static POSITIONS: Cell<Vec<EnginePosition>> = const { Cell::new(Vec::new()) };
}

/// Dice from two Python ints, refusing anything outside 1..6 (however large) with a clear message.
pub fn dice(d1: &Bound<'_, PyAny>, d2: &Bound<'_, PyAny>) -> PyResult<Dice> {
    match (d1.extract::<i64>(), d2.extract::<i64>()) {
        (Ok(a), Ok(b)) => Dice::from_ints(a, b).py_err(),
        // Not ints (or too large for any): the same words as `Dice::from_ints`.
        _ => Err(crate::errors::InvalidDiceError::new_err(format!(
            "dice must be two ints in 1..6, got ({d1}, {d2})"
        ))),
    }
}

/// A list of ints for a board; values that do not fit an i64 are reported as out of range.
fn board_values(board: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    let mut values = Vec::with_capacity(26);
    for (i, item) in board.try_iter()?.enumerate() {
        let item = item?;
        values.push(item.extract::<i64>().map_err(|_| {
            crate::errors::InvalidPositionError::new_err(format!(
                "entry {i} of the board is {item}; it must be an int in -15..=15"
            ))
        })?);
    }
    Ok(values)
}

/// A backgammon position seen from the player on roll.
#[pyclass(module = "gammon", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub inner: EnginePosition,
}

#[pymethods]
impl Position {
    /// The starting position.
    #[staticmethod]
    fn initial() -> Position {
        Position { inner: EnginePosition::initial() }
    }

    /// A position from its GNU Backgammon Position ID.
    #[staticmethod]
    fn from_id(id: &str) -> PyResult<Position> {
        Ok(Position { inner: EnginePosition::from_id(id).py_err()? })
    }

    /// A position from an XGID or its 26-character board part.
    #[staticmethod]
    fn from_xgid(xgid: &str) -> PyResult<Position> {
        Ok(Position { inner: EnginePosition::from_xgid(xgid).py_err()? })
    }

    /// A position from 26 ints laid out as `to_list()`.
    #[staticmethod]
    fn from_list(board: &Bound<'_, PyAny>) -> PyResult<Position> {
        Ok(Position { inner: EnginePosition::from_list(&board_values(board)?).py_err()? })
    }

    /// The GNU Backgammon Position ID.
    #[getter]
    fn id(&self) -> String {
        self.inner.id()
    }

    /// A full XGID of the position (we are the bottom player, to roll).
    #[getter]
    fn xgid(&self) -> String {
        self.inner.xgid()
    }

    /// 26 ints: `[0]` their bar (<= 0), `[1..24]` points (ours > 0), `[25]` our bar (>= 0).
    #[allow(clippy::wrong_self_convention)] // Python methods receive &self
    fn to_list(&self) -> Vec<i8> {
        self.inner.board().to_vec()
    }

    /// Borne-off checkers `(ours, theirs)`.
    #[getter]
    fn off(&self) -> (u8, u8) {
        self.inner.off()
    }

    /// Pip counts `(ours, theirs)`.
    #[getter]
    fn pips(&self) -> (u32, u32) {
        self.inner.pips()
    }

    /// True when the two sides can no longer meet.
    #[getter]
    fn is_race(&self) -> bool {
        self.inner.is_race()
    }

    /// The same position seen by the other player.
    fn swapped(&self) -> Position {
        Position { inner: self.inner.swapped() }
    }

    /// The legal plays of a roll, one per distinct resulting position.
    fn legal_plays<'py>(
        &self,
        py: Python<'py>,
        d1: &Bound<'py, PyAny>,
        d2: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let dice = dice(d1, d2)?;
        // Generation takes under a microsecond, not much more than releasing and taking back the
        // GIL, so it runs holding it; the thread's buffer saves an allocation per call, and the
        // list is filled straight from it (no vector of plays in between).
        let mut plays = PLAYS.take();
        gammon_backgammon::legal_plays_into(&self.inner, dice, &mut plays);
        let list = PyList::new(py, plays.iter().map(|&inner| Play { inner }));
        PLAYS.set(plays);
        list
    }

    /// The positions the legal plays of a roll lead to, as one `(n, 26)` int8 array of boards
    /// (each row as `to_list()` gives it, still seen from the mover): the set of `legal_plays`'
    /// positions in an order of their own, from the generator that builds positions only. For
    /// callers that need no `Play` objects (search, training), one object a call instead of one
    /// a play.
    fn legal_positions<'py>(
        &self,
        py: Python<'py>,
        d1: &Bound<'py, PyAny>,
        d2: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let dice = dice(d1, d2)?;
        let mut positions = POSITIONS.take();
        gammon_backgammon::legal_positions_into(&self.inner, dice, &mut positions);
        // SAFETY: the array is new, C-contiguous and not yet seen by Python or any other
        // reference, and every one of its bytes is written before it is returned. (The checked
        // `readwrite()` borrow would register with numpy's borrow table, a good part of a call.)
        let array = unsafe { PyArray2::<i8>::new(py, [positions.len(), 26], false) };
        let flat = unsafe { array.as_slice_mut() }.expect("a new array is contiguous");
        for (row, position) in flat.chunks_exact_mut(26).zip(&positions) {
            row.copy_from_slice(position.board());
        }
        POSITIONS.set(positions);
        Ok(array)
    }

    /// The legal play that `text` names in standard notation.
    fn parse_play(&self, d1: &Bound<'_, PyAny>, d2: &Bound<'_, PyAny>, text: &str) -> PyResult<Play> {
        Ok(Play { inner: self.inner.parse_play(dice(d1, d2)?, text).py_err()? })
    }

    /// The board as an SVG document, drawn by the Rust picture crate: `dice` as `(d1, d2)` or
    /// `"31"`; the cube (`cube_value=None` draws none; `cube_owner` None, "us" or "them"); the
    /// `score` `(ours, theirs)` and the match `length` (0: money); a `play` of this position (a
    /// `Play`, or its notation with `dice`) drawn as arrows; the side at the `bottom`; `names`.
    #[pyo3(signature = (dice=None, *, cube_value=Some(1), cube_owner=None, score=None, length=None, play=None, bottom="us", names=None))]
    #[allow(clippy::too_many_arguments, clippy::wrong_self_convention)] // Python methods receive &self
    fn to_svg(
        &self,
        dice: Option<&Bound<'_, PyAny>>,
        cube_value: Option<i64>,
        cube_owner: Option<&str>,
        score: Option<(i64, i64)>,
        length: Option<i64>,
        play: Option<&Bound<'_, PyAny>>,
        bottom: &str,
        names: Option<(Option<String>, Option<String>)>,
    ) -> PyResult<String> {
        use crate::picture::PlayArg;
        let play = match play {
            None => None,
            Some(p) if p.is_instance_of::<pyo3::types::PyString>() => Some(PlayArg::Notation(p.extract()?)),
            Some(p) => {
                let kind = p.get_type().name()?;
                let play = p.downcast::<Play>().map_err(|_| {
                    crate::errors::GammonError::new_err(format!("play is a Play or its notation, got {kind}"))
                })?;
                Some(PlayArg::Moves(play.get().inner.moves().to_vec()))
            }
        };
        let args =
            crate::picture::BoardArgs { dice, cube_value, cube_owner, score, length, play, bottom, names };
        let options = crate::picture::board_options(&self.inner, args)?;
        crate::picture::position_svg(&self.inner, &options)
    }

    /// The board as SVG, for notebooks.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.to_svg(None, Some(1), None, None, None, None, "us", None)
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

/// A legal play: its moves and the position it leads to (still seen from the mover).
#[pyclass(module = "gammon", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Play {
    pub inner: EnginePlay,
}

#[pymethods]
impl Play {
    /// `(from, to)` pairs in the order played; 25 is the bar, 0 is off.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.moves().iter().map(|m| (m.from, m.to)))
    }

    /// The resulting position, still seen from the player who moved.
    #[getter]
    fn position(&self) -> Position {
        Position { inner: self.inner.position }
    }

    /// How many opposing checkers the play hit.
    #[getter]
    fn hits(&self) -> u32 {
        self.inner.hits()
    }

    /// The board after the play as an SVG document, with arrows from where its checkers were.
    #[allow(clippy::wrong_self_convention)] // Python methods receive &self
    fn to_svg(&self) -> PyResult<String> {
        crate::picture::play_svg(&self.inner)
    }

    /// The board after the play as SVG, for notebooks.
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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Position>()?;
    m.add_class::<Play>()?;
    Ok(())
}
