//! The position: checkers on the 24 points, the bars and the trays, seen from the player on roll.

use gammon_core::error::{Error, Result};
use std::fmt;

/// Checkers a side has in a game.
pub const CHECKERS: u8 = 15;
/// The slot of our bar in [`Position::board`]: a checker there enters as if from point 25.
pub const BAR: usize = 25;
/// The slot of the opponent's bar in [`Position::board`] (its counts are negative).
pub const OPPONENT_BAR: usize = 0;
/// Bearing off is a move to point 0.
pub const OFF: usize = 0;

/// A backgammon position seen from the player on roll ("we").
///
/// We move from point 24 towards point 1 and bear off from 1..6. `board()` holds, as in
/// `Position.to_list()` of the Python API: `[1..=24]` the points (ours > 0, theirs < 0), `[25]` our bar
/// (>= 0), `[0]` their bar (<= 0). Borne-off checkers are what is missing from 15.
///
/// ```
/// use gammon_backgammon::Position;
/// let p = Position::initial();
/// assert_eq!(p.pips(), (167, 167));
/// assert_eq!(p.swapped(), p);
/// ```
// `repr(C)`: the bytes of `board` then `off`, as `to_bytes` gives them, so that the move generator
// can write a position it holds in registers with whole-register stores.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Position {
    board: [i8; 26],
    off: [u8; 2],
}

impl Position {
    /// The starting position of a game.
    pub const fn initial() -> Position {
        let mut board = [0i8; 26];
        board[24] = 2;
        board[13] = 5;
        board[8] = 3;
        board[6] = 5;
        board[1] = -2;
        board[12] = -5;
        board[17] = -3;
        board[19] = -5;
        Position { board, off: [0, 0] }
    }

    /// A position from 26 signed counts laid out as [`Position::board`], checked for legality:
    /// at most 15 checkers a side, our bar >= 0, their bar <= 0, and not both sides stuck on the bar
    /// against closed boards.
    pub fn from_board(board: [i8; 26]) -> Result<Position> {
        if board[BAR] < 0 {
            return Err(Error::InvalidPosition(format!(
                "our bar (slot 25) holds {} checkers; it must be >= 0",
                board[BAR]
            )));
        }
        if board[OPPONENT_BAR] > 0 {
            return Err(Error::InvalidPosition(format!(
                "their bar (slot 0) holds {}; their checkers are negative, so it must be <= 0",
                board[OPPONENT_BAR]
            )));
        }
        let (mut ours, mut theirs) = (0i32, 0i32);
        for &n in &board {
            if n > 0 {
                ours += n as i32;
            } else {
                theirs -= n as i32;
            }
        }
        for (who, count) in [("we", ours), ("they", theirs)] {
            if count > CHECKERS as i32 {
                return Err(Error::InvalidPosition(format!(
                    "{who} have {count} checkers on the board; at most 15 are allowed"
                )));
            }
        }
        let p = Position { board, off: [CHECKERS - ours as u8, CHECKERS - theirs as u8] };
        if p.board[BAR] > 0 && p.board[OPPONENT_BAR] < 0 && p.closed_board(true) && p.closed_board(false) {
            return Err(Error::InvalidPosition(
                "both sides have checkers on the bar against a closed board: no one could ever move".into(),
            ));
        }
        Ok(p)
    }

    /// As [`Position::from_board`] from a list laid out as [`Position::to_list`], which must have
    /// exactly 26 entries in -15..=15 (Python's `Position.from_list`).
    pub fn from_list(values: &[i64]) -> Result<Position> {
        if values.len() != 26 {
            return Err(Error::InvalidPosition(format!(
                "a board has 26 entries (their bar, points 1-24, our bar), got {}",
                values.len()
            )));
        }
        let mut board = [0i8; 26];
        for (i, &v) in values.iter().enumerate() {
            if !(-15..=15).contains(&v) {
                return Err(Error::InvalidPosition(format!(
                    "entry {i} of the board is {v}; it must be in -15..=15"
                )));
            }
            board[i] = v as i8;
        }
        Position::from_board(board)
    }

    /// The 26 signed counts: `[0]` their bar (<= 0), `[1..=24]` points, `[25]` our bar (>= 0).
    pub const fn board(&self) -> &[i8; 26] {
        &self.board
    }

    /// The 26 signed counts as a list, laid out as [`Position::board`] (Python's
    /// `Position.to_list()`); [`Position::from_list`] reads it back.
    pub fn to_list(self) -> Vec<i64> {
        self.board.iter().map(|&v| i64::from(v)).collect()
    }

    /// Signed count on slot `i` (0..=25).
    #[inline]
    pub fn at(&self, i: usize) -> i8 {
        self.board[i]
    }

    /// Borne-off checkers: `(ours, theirs)`.
    pub const fn off(&self) -> (u8, u8) {
        (self.off[0], self.off[1])
    }

    /// Pip counts: `(ours, theirs)`; a checker on the bar counts 25.
    pub fn pips(&self) -> (u32, u32) {
        let (mut ours, mut theirs) = (0u32, 0u32);
        for i in 1..=24 {
            let n = self.board[i];
            if n > 0 {
                ours += n as u32 * i as u32;
            } else {
                theirs += (-n) as u32 * (25 - i) as u32;
            }
        }
        ours += self.board[BAR] as u32 * 25;
        theirs += (-self.board[OPPONENT_BAR]) as u32 * 25;
        (ours, theirs)
    }

    /// The same position seen by the other player.
    pub fn swapped(&self) -> Position {
        let mut board = [0i8; 26];
        for (i, slot) in board.iter_mut().enumerate() {
            *slot = -self.board[25 - i];
        }
        Position { board, off: [self.off[1], self.off[0]] }
    }

    /// True when no checker of one side can ever meet a checker of the other: a pure race.
    pub fn is_race(&self) -> bool {
        if self.board[BAR] > 0 || self.board[OPPONENT_BAR] < 0 {
            return false;
        }
        // Our rearmost checker must be in front of (lower than) their rearmost one.
        let our_back = (1..=24).rev().find(|&i| self.board[i] > 0).unwrap_or(0);
        let their_back = (1..=24).find(|&i| self.board[i] < 0).unwrap_or(25);
        our_back < their_back
    }

    /// The player on roll has a checker on the bar and the opponent's home board is closed: no
    /// roll lets them move.
    ///
    /// ```
    /// use gammon_backgammon::Position;
    /// assert!(!Position::initial().closed_out());
    /// ```
    pub fn closed_out(&self) -> bool {
        self.board[BAR] > 0 && self.closed_board(false)
    }

    /// The player on roll has borne off all 15 checkers.
    pub fn we_have_won(&self) -> bool {
        self.off[0] == CHECKERS
    }

    /// The player not on roll has borne off all 15 checkers (the game ended on their play).
    pub fn they_have_won(&self) -> bool {
        self.off[1] == CHECKERS
    }

    /// Our highest occupied point counting the bar as 25, or 0 when every checker is off.
    #[inline]
    pub(crate) fn highest_point(&self) -> usize {
        self.highest_from(BAR)
    }

    /// As [`Position::highest_point`] when it is known to be at most `start` (moves only ever
    /// lower it), scanning down from there.
    #[inline]
    pub(crate) fn highest_from(&self, start: usize) -> usize {
        let mut i = start;
        while i > 0 && self.board[i] <= 0 {
            i -= 1;
        }
        i
    }

    /// Whether a home board is closed: ours (points 1..6) when `ours`, else theirs (19..24).
    fn closed_board(&self, ours: bool) -> bool {
        if ours {
            (1..=6).all(|i| self.board[i] >= 2)
        } else {
            (19..=24).all(|i| self.board[i] <= -2)
        }
    }

    /// The position as 28 bytes: the 26 board slots (two's complement), then our tray and theirs.
    /// The move generator works on these as two 128-bit words.
    #[inline(always)]
    pub(crate) fn to_bytes(self) -> [u8; 28] {
        let mut bytes = [0u8; 28];
        for (byte, &n) in bytes.iter_mut().zip(&self.board) {
            *byte = n as u8;
        }
        bytes[26] = self.off[0];
        bytes[27] = self.off[1];
        bytes
    }

    /// The position [`Position::to_bytes`] gave (no check: only for bytes made from a position by
    /// legal moves).
    #[inline(always)]
    pub(crate) fn from_bytes(bytes: [u8; 28]) -> Position {
        let mut board = [0i8; 26];
        for (n, &byte) in board.iter_mut().zip(&bytes) {
            *n = byte as i8;
        }
        Position { board, off: [bytes[26], bytes[27]] }
    }

    /// Moves one of our checkers `from` -> `to` (25 = bar, 0 = off) with no legality check,
    /// hitting a lone opposing checker there. Returns whether it hit.
    #[inline]
    pub(crate) fn apply_move(&mut self, from: usize, to: usize) -> bool {
        self.board[from] -= 1;
        if to == OFF {
            self.off[0] += 1;
            return false;
        }
        let hit = self.board[to] == -1;
        if hit {
            self.board[to] = 0;
            self.board[OPPONENT_BAR] -= 1;
        }
        self.board[to] += 1;
        hit
    }

    /// The position drawn as ASCII, ours `X` moving down to 1, theirs `O`; see [`fmt::Display`].
    pub fn diagram(&self) -> String {
        self.to_string()
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::initial()
    }
}

impl fmt::Display for Position {
    /// Top row points 13..24 left to right, bottom row 12..1; X is the player on roll.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = |i: usize, level: usize| -> char {
            let n = self.board[i];
            let count = n.unsigned_abs() as usize;
            if count > level {
                if level == 4 && count > 5 {
                    // The fifth row shows the height of a tall stack.
                    return std::char::from_digit(count as u32 % 10, 10).unwrap_or('+');
                }
                if n > 0 {
                    'X'
                } else {
                    'O'
                }
            } else {
                '.'
            }
        };
        let row = |points: &[usize], level: usize| -> String {
            let mut s = String::new();
            for (k, &i) in points.iter().enumerate() {
                if k == 6 {
                    s.push_str("| ");
                }
                s.push(cell(i, level));
                s.push(' ');
            }
            s
        };
        let top: Vec<usize> = (13..=24).collect();
        let bottom: Vec<usize> = (1..=12).rev().collect();
        writeln!(f, " 13 14 15 16 17 18   19 20 21 22 23 24")?;
        for level in 0..5 {
            writeln!(f, " {}", row(&top, level).replace(' ', "  ").trim_end())?;
        }
        writeln!(f, " {:^37}", format!("bar: X {}  O {}", self.board[BAR], -self.board[OPPONENT_BAR]))?;
        for level in (0..5).rev() {
            writeln!(f, " {}", row(&bottom, level).replace(' ', "  ").trim_end())?;
        }
        writeln!(f, " 12 11 10  9  8  7    6  5  4  3  2  1")?;
        let (po, pt) = self.pips();
        write!(f, " X (on roll): pips {po}, off {} | O: pips {pt}, off {}", self.off[0], self.off[1])
    }
}

/// Builds a [`Position`] from `point => count` pairs, ours positive and theirs negative; `25` is
/// our bar and `0` their bar. Panics on an illegal position (it is meant for tests and examples).
///
/// ```
/// use gammon_backgammon::pos;
/// let p = pos!(6 => 2, 1 => 1, 19 => -3);
/// assert_eq!(p.off(), (12, 12));
/// ```
#[macro_export]
macro_rules! pos {
    ($($point:expr => $count:expr),* $(,)?) => {{
        #[allow(unused_mut)]
        let mut board = [0i8; 26];
        $( board[$point] = $count; )*
        $crate::Position::from_board(board).expect("pos!: illegal position")
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_is_symmetric_with_167_pips() {
        let p = Position::initial();
        assert_eq!(p.pips(), (167, 167));
        assert_eq!(p.swapped(), p);
        assert_eq!(p.off(), (0, 0));
        assert!(!p.is_race());
    }

    #[test]
    fn swap_maps_bars_and_offs() {
        let p = pos!(25 => 1, 3 => 2, 0 => -2, 20 => -1);
        let s = p.swapped();
        assert_eq!(s.at(0), -1);
        assert_eq!(s.at(22), -2);
        assert_eq!(s.at(25), 2);
        assert_eq!(s.at(5), 1);
        assert_eq!(s.off(), (12, 12));
        assert_eq!(s.swapped(), p);
    }

    #[test]
    fn rejects_bad_boards() {
        let mut b = [0i8; 26];
        b[25] = -1;
        assert!(Position::from_board(b).is_err());
        let mut b = [0i8; 26];
        b[0] = 1;
        assert!(Position::from_board(b).is_err());
        let mut b = [0i8; 26];
        b[3] = 16;
        assert!(Position::from_board(b).is_err());
        assert!(Position::from_list(&[0; 25]).is_err());
        assert_eq!(Position::from_list(&Position::initial().to_list()).unwrap(), Position::initial());
        // Both on the bar against closed boards.
        let mut b = [0i8; 26];
        for i in 1..=6 {
            b[i] = 2;
            b[25 - i] = -2;
        }
        b[25] = 1;
        b[0] = -1;
        assert!(Position::from_board(b).is_err());
    }

    #[test]
    fn race_detection() {
        assert!(pos!(6 => 3, 19 => -3).is_race());
        assert!(!pos!(20 => 1, 19 => -3).is_race());
        assert!(!pos!(6 => 3, 0 => -1).is_race());
    }
}
