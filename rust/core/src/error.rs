//! The one error type of the engine. Every fallible public function returns [`Result`].

use std::fmt;

/// What went wrong, with a message that names the offending value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A board, Position ID or XGID that does not describe a legal position.
    InvalidPosition(String),
    /// A die outside 1..=6, or a malformed dice string.
    InvalidDice(String),
    /// A play that is not legal for the roll, or notation that names no legal play.
    IllegalPlay(String),
    /// An action the rules forbid in the current state of a game or match.
    IllegalAction(String),
    /// A malformed Match ID, match file or other interchange text.
    InvalidFormat(String),
    /// An argument outside its allowed range (trial counts, ply depth, ...).
    InvalidArgument(String),
}

impl Error {
    /// The message without the kind.
    pub fn message(&self) -> &str {
        match self {
            Error::InvalidPosition(m)
            | Error::InvalidDice(m)
            | Error::IllegalPlay(m)
            | Error::IllegalAction(m)
            | Error::InvalidFormat(m)
            | Error::InvalidArgument(m) => m,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

/// The engine's result type.
pub type Result<T> = std::result::Result<T, Error>;
