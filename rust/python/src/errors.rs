//! The exception hierarchy, rooted at `gammon.GammonError(ValueError)`, and the mapping from
//! engine errors.

use gammon_backgammon::Error;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(gammon, GammonError, PyValueError, "Base class of every error gammon raises.");
create_exception!(
    gammon,
    InvalidPositionError,
    GammonError,
    "A malformed or impossible position, Position ID or XGID."
);
create_exception!(gammon, InvalidDiceError, GammonError, "A die outside 1..6 or unreadable dice.");
create_exception!(
    gammon,
    IllegalPlayError,
    GammonError,
    "A play that is not legal for the roll, or notation naming none."
);
create_exception!(
    gammon,
    IllegalActionError,
    GammonError,
    "An action the rules do not allow in the current state."
);
create_exception!(
    gammon,
    InvalidFormatError,
    GammonError,
    "A malformed Match ID, match file or other interchange text."
);

/// Converts an engine error into the matching Python exception.
pub fn to_py(e: Error) -> PyErr {
    let message = e.message().to_string();
    match e {
        Error::InvalidPosition(_) => InvalidPositionError::new_err(message),
        Error::InvalidDice(_) => InvalidDiceError::new_err(message),
        Error::IllegalPlay(_) => IllegalPlayError::new_err(message),
        Error::IllegalAction(_) => IllegalActionError::new_err(message),
        Error::InvalidFormat(_) => InvalidFormatError::new_err(message),
        Error::InvalidArgument(_) => GammonError::new_err(message),
    }
}

/// `result.map_err(to_py)` in one word.
pub trait IntoPy<T> {
    fn py_err(self) -> PyResult<T>;
}

impl<T> IntoPy<T> for gammon_backgammon::Result<T> {
    fn py_err(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("GammonError", py.get_type::<GammonError>())?;
    m.add("InvalidPositionError", py.get_type::<InvalidPositionError>())?;
    m.add("InvalidDiceError", py.get_type::<InvalidDiceError>())?;
    m.add("IllegalPlayError", py.get_type::<IllegalPlayError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("InvalidFormatError", py.get_type::<InvalidFormatError>())?;
    Ok(())
}
