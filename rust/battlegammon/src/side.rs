//! The two sides, White and Black, and the geometry of the shared track as each of them sees it.

use std::fmt;

/// Fields on the track, numbered 1..=24.
pub const FIELDS: u8 = 24;
/// Tokens each side owns.
pub const TOKENS: u8 = 10;
/// Tokens on the opponent's start field that win the game.
pub const GOAL_TO_WIN: u8 = 3;
/// Tokens (or distinct fields, under `count_distinct_fields`) on the opponent's colour that win.
pub const COLOUR_TO_WIN: u8 = 8;

/// A player: White starts on field 1 and moves up, Black starts on field 24 and moves down.
///
/// ```
/// use gammon_battlegammon::Side;
/// assert_eq!(Side::White.goal_field(), 24);
/// assert_eq!(Side::Black.target(5, 4), Some(1));
/// assert_eq!(Side::Black.target(4, 5), None); // no overshoot past the goal
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Starts on field 1, owns the colour of fields 1..=12.
    White,
    /// Starts on field 24, owns the colour of fields 13..=24; moves first.
    Black,
}

impl Side {
    /// Both sides, White first (the order of [`Side::index`]).
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// The other side.
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The field this side's tokens start on (1 for White, 24 for Black).
    pub const fn start_field(self) -> u8 {
        match self {
            Side::White => 1,
            Side::Black => FIELDS,
        }
    }

    /// The field this side's tokens finish on: the opponent's start field.
    pub const fn goal_field(self) -> u8 {
        self.opponent().start_field()
    }

    /// The token letter used by IDs and lists: `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
        }
    }

    /// The side of a token letter (`w`/`b`, either case).
    pub fn from_letter(c: char) -> Option<Side> {
        match c {
            'w' | 'W' => Some(Side::White),
            'b' | 'B' => Some(Side::Black),
            _ => None,
        }
    }

    /// `"white"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// The side named `"white"`/`"black"` (or `w`/`b`), any case.
    pub fn from_name(name: &str) -> Option<Side> {
        match name.trim().to_ascii_lowercase().as_str() {
            "white" | "w" => Some(Side::White),
            "black" | "b" => Some(Side::Black),
            _ => None,
        }
    }

    /// Whether `field` has this side's colour (White 1..=12, Black 13..=24).
    pub const fn owns_colour_of(self, field: u8) -> bool {
        match self {
            Side::White => field <= FIELDS / 2,
            Side::Black => field > FIELDS / 2,
        }
    }

    /// Where a token of this side on `from` lands with `die`, ignoring what stands there;
    /// `None` when that would run past the goal (a move that overshoots is not allowed).
    pub const fn target(self, from: u8, die: u8) -> Option<u8> {
        match self {
            Side::White if from + die <= FIELDS => Some(from + die),
            Side::Black if from > die => Some(from - die),
            _ => None,
        }
    }

    /// Fields a token of this side on `field` still has to travel to reach its goal.
    pub const fn distance_to_goal(self, field: u8) -> u8 {
        match self {
            Side::White => FIELDS - field,
            Side::Black => field - 1,
        }
    }

    /// Fields a token of this side on `field` still has to travel to reach the opponent's colour
    /// (0 once it is there).
    pub const fn distance_to_opponent_colour(self, field: u8) -> u8 {
        match self {
            Side::White => (FIELDS / 2 + 1).saturating_sub(field),
            Side::Black => field.saturating_sub(FIELDS / 2),
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::White => "White",
            Side::Black => "Black",
        })
    }
}
