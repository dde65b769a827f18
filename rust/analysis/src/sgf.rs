//! The analysis written into GNU Backgammon's `.sgf` match file, in the properties GNU Backgammon
//! reads back as its own analysis marks, so that it shows them when it opens the file.
//!
//! On a move node: `LU[x]` the roll's luck for the mover (normalised equity); `GB[1]`/`GB[2]` the
//! roll was good (or very good) for Black, `GW[1]`/`GW[2]` for White, that is lucky for the mover
//! or unlucky for him, from 0.3 and 0.6; `DO[]`, `BM[1]`, `BM[2]` the checker play was doubtful,
//! bad, very bad; `DC[]`, `BC[1]`, `BC[2]` the same for the cube decision before the roll (a
//! missed double). On a `double`, `take` or `drop` node, `DO[]`/`BM[1]`/`BM[2]` mark that decision.
//! The writing of the nodes themselves is `gammon_backgammon::formats::sgf::write`.

use crate::record::{Analysis, Kind, LuckMark, Mark};
use gammon_backgammon::formats::sgf::write::write_annotated;
use gammon_backgammon::Match;
use gammon_core::error::{Error, Result};
use std::collections::HashMap;

/// The properties of an error mark, `cube` for the cube decision on a move node.
fn skill(mark: Mark, cube: bool) -> Option<(&'static str, String)> {
    let (doubtful, bad) = if cube { ("DC", "BC") } else { ("DO", "BM") };
    match mark {
        Mark::None => None,
        Mark::Doubtful => Some((doubtful, String::new())),
        Mark::Bad => Some((bad, "1".into())),
        Mark::VeryBad => Some((bad, "2".into())),
    }
}

/// The property of a luck mark for a roll of `player` (0 White, 1 Black): good for one colour.
fn luck(mark: LuckMark, player: u8) -> Option<(&'static str, String)> {
    let (mover, other) = if player == 0 { ("GW", "GB") } else { ("GB", "GW") };
    match mark {
        LuckMark::None => None,
        LuckMark::Lucky => Some((mover, "1".into())),
        LuckMark::VeryLucky => Some((mover, "2".into())),
        LuckMark::Unlucky => Some((other, "1".into())),
        LuckMark::VeryUnlucky => Some((other, "2".into())),
    }
}

impl Analysis {
    /// `m` as GNU Backgammon `.sgf` text with this analysis's luck and marks on its nodes; `m` must
    /// be the match analysed (the same games, each decision's action in its game's history).
    pub fn to_sgf(&self, m: &Match) -> Result<String> {
        if m.games().len() != self.games {
            return Err(Error::InvalidArgument(format!(
                "the analysis is of {} game(s), the match has {}",
                self.games,
                m.games().len()
            )));
        }
        let mut notes: HashMap<(usize, usize), Vec<(&'static str, String)>> = HashMap::new();
        for d in &self.decisions {
            let Some(game) = m.games().get(d.game).filter(|g| d.action < g.history().len()) else {
                return Err(Error::InvalidArgument(format!(
                    "decision of game {}, action {} is not in the match",
                    d.game + 1,
                    d.action + 1
                )));
            };
            // A cube decision is made by whoever acts at its action (resignations are judged for
            // both sides at the offer, and an opening roll belongs to no one).
            let cube = matches!(d.kind, Kind::Double | Kind::Take);
            if cube && game.history()[d.action].player() != d.player {
                return Err(Error::InvalidArgument(format!(
                    "decision of game {}, action {}: the match has another player there",
                    d.game + 1,
                    d.action + 1
                )));
            }
            let node = notes.entry((d.game, d.action)).or_default();
            match d.kind {
                Kind::Checker => {
                    if let Some(x) = d.luck {
                        node.push(("LU", format!("{x:.5}")));
                    }
                    node.extend(luck(d.luck_mark(), d.player));
                    node.extend(skill(d.mark, false));
                }
                // A cube decision on a roll (no double) marks the move node's cube; a double
                // marks its own node.
                Kind::Double => node.extend(skill(d.mark, d.played != "double")),
                Kind::Take => node.extend(skill(d.mark, false)),
                Kind::Resign | Kind::AcceptResignation => {}
            }
        }
        write_annotated(m, &|g, a| notes.get(&(g, a)).cloned().unwrap_or_default())
    }
}
