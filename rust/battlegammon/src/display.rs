//! The board drawn as text in the serpentine shape of the rules.

use super::board::Position;
use super::side::{Side, FIELDS};
use std::fmt;

const CELL: usize = 6;

/// Draws the track as the rules picture it: fields 8..1 right to left on top, 9..16 left to right
/// in the middle, 17 at the turn, 24..18 at the bottom. Each field shows its tokens bottom to top
/// (`wb` is a White token pinned under a Black one); a start field shows counts, such as `5w` or
/// `3w+1b` (one finished Black token).
///
/// ```
/// use gammon_battlegammon::Position;
/// let text = Position::initial().to_string();
/// assert!(text.contains("Black to move"));
/// assert!(text.lines().any(|l| l.trim_end().ends_with("5w"))); // White's start field, 1
/// ```
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} to move   (stacks bottom to top; fields 1-12 White's colour, 13-24 Black's)",
            self.turn()
        )?;
        let top: Vec<u8> = (1..=8).rev().collect();
        let middle: Vec<u8> = (9..=16).collect();
        let bottom: Vec<u8> = (18..=FIELDS).rev().collect();
        self.row(f, &top, 0)?;
        self.row(f, &middle, 0)?;
        self.row(f, &[17], 8)?;
        self.row(f, &bottom, 1)?;
        for side in Side::BOTH {
            writeln!(
                f,
                "{side}: {} on {}'s colour, {} in the goal (field {})",
                self.on_opponent_colour(side),
                side.opponent(),
                self.in_goal(side),
                side.goal_field()
            )?;
        }
        Ok(())
    }
}

impl Position {
    /// One row of cells: the field numbers, then the tokens, `indent` cells from the left.
    fn row(&self, f: &mut fmt::Formatter<'_>, fields: &[u8], indent: usize) -> fmt::Result {
        let pad = " ".repeat(indent * CELL);
        let numbers: String = fields
            .iter()
            .map(|&k| {
                let label = if k == 1 || k == FIELDS { format!("[{k}]") } else { k.to_string() };
                format!("{label:>CELL$}")
            })
            .collect();
        let tokens: String = fields.iter().map(|&k| format!("{:>CELL$}", self.cell(k))).collect();
        writeln!(f, "{pad}{numbers}")?;
        writeln!(f, "{pad}{tokens}")
    }

    fn cell(&self, field: u8) -> String {
        if field == 1 || field == FIELDS {
            let owner = if field == 1 { Side::White } else { Side::Black };
            let (own, finished) = (self.at_start(owner), self.in_goal(owner.opponent()));
            return match (own, finished) {
                (0, 0) => ".".into(),
                (n, 0) => format!("{n}{}", owner.letter()),
                (0, m) => format!("+{m}{}", owner.opponent().letter()),
                (n, m) => format!("{n}{}+{m}{}", owner.letter(), owner.opponent().letter()),
            };
        }
        let s: String = self.stack(field).tokens().map(Side::letter).collect();
        if s.is_empty() {
            ".".into()
        } else {
            s
        }
    }
}
