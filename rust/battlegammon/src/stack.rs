//! The tokens on one field of the track other than a start field: at most two, ordered.

use super::side::Side;

/// An ordered stack of at most two tokens, bottom to top.
///
/// Only the top token can move; the bottom one of a two-token stack is pinned. Stored as one
/// canonical byte so that positions compare and hash cheaply: bits 0-1 the height, bit 2 set when the
/// bottom token is Black, bit 3 set when the top token of a two-stack is Black.
///
/// ```
/// use gammon_battlegammon::{Side, Stack};
/// let s = Stack::EMPTY.push(Side::Black).push(Side::White);
/// assert_eq!((s.bottom(), s.top()), (Some(Side::Black), Some(Side::White)));
/// assert_eq!(s.pop(), Stack::EMPTY.push(Side::Black));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Stack(u8);

impl Stack {
    /// No token.
    pub const EMPTY: Stack = Stack(0);
    /// Tokens a field other than a start field can hold.
    pub const CAPACITY: u8 = 2;

    /// How many tokens: 0, 1 or 2.
    pub const fn len(self) -> u8 {
        self.0 & 3
    }

    /// True when no token stands here.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the stack holds two tokens, so that nothing may land on it.
    pub const fn is_full(self) -> bool {
        self.len() == Stack::CAPACITY
    }

    /// The lowest token.
    pub const fn bottom(self) -> Option<Side> {
        match self.len() {
            0 => None,
            _ => Some(side_of_bit(self.0 >> 2 & 1)),
        }
    }

    /// The token that may move.
    pub const fn top(self) -> Option<Side> {
        match self.len() {
            0 => None,
            1 => Some(side_of_bit(self.0 >> 2 & 1)),
            _ => Some(side_of_bit(self.0 >> 3 & 1)),
        }
    }

    /// The token held under the top one, if the stack is full.
    pub const fn pinned(self) -> Option<Side> {
        match self.len() {
            2 => self.bottom(),
            _ => None,
        }
    }

    /// The stack with `side` landed on top. The caller checks that it is not full.
    pub const fn push(self, side: Side) -> Stack {
        match self.len() {
            0 => Stack(1 | (side as u8) << 2),
            _ => Stack(2 | (self.0 & 4) | (side as u8) << 3),
        }
    }

    /// The stack with its top token gone. The caller checks that it is not empty.
    pub const fn pop(self) -> Stack {
        match self.len() {
            2 => Stack(1 | (self.0 & 4)),
            _ => Stack::EMPTY,
        }
    }

    /// How many of the tokens belong to `side`.
    pub const fn count(self, side: Side) -> u8 {
        let bottom = matches!(self.bottom(), Some(s) if s as u8 == side as u8) as u8;
        let top = self.len() == 2 && matches!(self.top(), Some(s) if s as u8 == side as u8);
        bottom + top as u8
    }

    /// The tokens bottom to top.
    pub fn tokens(self) -> impl Iterator<Item = Side> {
        [self.bottom(), self.pinned().and(self.top())].into_iter().flatten()
    }

    /// The canonical byte (0..16), as used by position keys.
    pub(crate) const fn code(self) -> u8 {
        self.0
    }
}

const fn side_of_bit(bit: u8) -> Side {
    if bit == 0 {
        Side::White
    } else {
        Side::Black
    }
}
