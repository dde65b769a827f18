//! The batch path for search and reinforcement learning: every resulting position of many
//! (position, roll) pairs as one numpy array, computed with the GIL released.

use crate::errors::{to_py, GammonError};
use gammon_backgammon::{legal_plays_into, Dice, Play, Position};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use rayon::prelude::*;

/// Reads and checks every row before any work starts, naming the first bad row.
fn read_inputs(
    boards: &PyReadonlyArray2<'_, i64>,
    dice: &PyReadonlyArray2<'_, i64>,
) -> PyResult<Vec<(Position, Dice)>> {
    let boards = boards.as_array();
    let dice = dice.as_array();
    if boards.ncols() != 26 {
        return Err(GammonError::new_err(format!("boards must have 26 columns, got {}", boards.ncols())));
    }
    if dice.ncols() != 2 || dice.nrows() != boards.nrows() {
        return Err(GammonError::new_err(format!(
            "dice must have shape ({}, 2) to match the boards, got ({}, {})",
            boards.nrows(),
            dice.nrows(),
            dice.ncols()
        )));
    }
    let mut out = Vec::with_capacity(boards.nrows());
    let mut row = Vec::with_capacity(26);
    for (i, (b, d)) in boards.rows().into_iter().zip(dice.rows()).enumerate() {
        row.clear();
        row.extend(b.iter().copied());
        let position = Position::from_list(&row).map_err(|e| annotate(i, e))?;
        let roll = Dice::from_ints(d[0], d[1]).map_err(|e| annotate(i, e))?;
        out.push((position, roll));
    }
    Ok(out)
}

fn annotate(row: usize, e: gammon_backgammon::Error) -> PyErr {
    let err = to_py(e);
    Python::with_gil(|py| {
        let message = format!("row {row}: {}", err.value(py));
        PyErr::from_type(err.get_type(py), message)
    })
}

/// Appends the resulting boards of one (position, roll) to `out`; returns how many.
fn expand(position: &Position, dice: Dice, plays: &mut Vec<Play>, out: &mut Vec<i8>) -> usize {
    legal_plays_into(position, dice, plays);
    for play in plays.iter() {
        out.extend_from_slice(play.position.board());
    }
    plays.len()
}

/// Resulting boards `(m, 26)` and row offsets `(n + 1,)`.
type BatchResult<'py> = (Bound<'py, PyArray2<i8>>, Bound<'py, PyArray1<i64>>);

/// `legal_plays_batch(boards, dice, threads=None) -> (results, offsets)`; see the Python docs.
#[pyfunction]
#[pyo3(signature = (boards, dice, threads=None))]
fn legal_plays_batch<'py>(
    py: Python<'py>,
    boards: PyReadonlyArray2<'py, i64>,
    dice: PyReadonlyArray2<'py, i64>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<BatchResult<'py>> {
    let threads = crate::threads::count(threads)?;
    let inputs = read_inputs(&boards, &dice)?;
    let (flat, counts) = py.allow_threads(|| -> PyResult<(Vec<i8>, Vec<usize>)> {
        if threads == 1 || inputs.len() < 64 {
            let mut plays = Vec::with_capacity(64);
            let mut flat = Vec::with_capacity(inputs.len() * 26 * 16);
            let counts = inputs.iter().map(|(p, d)| expand(p, *d, &mut plays, &mut flat)).collect();
            return Ok((flat, counts));
        }
        let pool = crate::threads::pool(threads)?;
        let chunk = inputs.len().div_ceil(pool.current_num_threads() * 8).max(16);
        let parts: Vec<(Vec<i8>, Vec<usize>)> = pool.install(|| {
            inputs
                .par_chunks(chunk)
                .map(|part| {
                    let mut plays = Vec::with_capacity(64);
                    let mut flat = Vec::with_capacity(part.len() * 26 * 16);
                    let counts = part.iter().map(|(p, d)| expand(p, *d, &mut plays, &mut flat)).collect();
                    (flat, counts)
                })
                .collect()
        });
        let total: usize = parts.iter().map(|p| p.0.len()).sum();
        let mut flat = Vec::with_capacity(total);
        let mut counts = Vec::with_capacity(inputs.len());
        for (f, c) in parts {
            flat.extend_from_slice(&f);
            counts.extend(c);
        }
        Ok((flat, counts))
    })?;
    let rows = flat.len() / 26;
    let results = Array2::from_shape_vec((rows, 26), flat).expect("26 entries per board").into_pyarray(py);
    let mut offsets = Vec::with_capacity(counts.len() + 1);
    offsets.push(0i64);
    let mut acc = 0i64;
    for c in counts {
        acc += c as i64;
        offsets.push(acc);
    }
    Ok((results, offsets.into_pyarray(py)))
}

/// The native baseline of the batch benchmark: generates the same plays, copies nothing out, and
/// returns how many there were.
#[pyfunction]
fn _count_legal_plays(
    py: Python<'_>,
    boards: PyReadonlyArray2<'_, i64>,
    dice: PyReadonlyArray2<'_, i64>,
) -> PyResult<usize> {
    let inputs = read_inputs(&boards, &dice)?;
    Ok(py.allow_threads(|| {
        let mut plays = Vec::with_capacity(64);
        inputs
            .iter()
            .map(|(p, d)| {
                legal_plays_into(p, *d, &mut plays);
                plays.len()
            })
            .sum()
    }))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(legal_plays_batch, m)?)?;
    m.add_function(wrap_pyfunction!(_count_legal_plays, m)?)?;
    Ok(())
}
