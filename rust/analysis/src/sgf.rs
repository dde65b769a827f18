//! The analysis written into GNU Backgammon's `.sgf` match file, in the properties GNU Backgammon
//! reads back as its own analysis marks, so that it shows them when it opens the file.
//!
//! On a move node: `LU[x]` the roll's luck for the mover (normalised equity); `GB[1]`/`GB[2]` the
//! roll was good (or very good) for Black, `GW[1]`/`GW[2]` for White, that is lucky for the mover
//! or unlucky for him, from 0.3 and 0.6; `DO[]`, `BM[1]`, `BM[2]` the checker play was doubtful,
//! bad, very bad; `DC[]`, `BC[1]`, `BC[2]` the same for the cube decision before the roll (a
//! missed double). On a `double`, `take` or `drop` node, `DO[]`/`BM[1]`/`BM[2]` mark that decision.
//!
//! The equities behind the marks, in the layout GNU Backgammon 1.07 writes them (version 3 of its
//! evaluation records): on a move node `A[k][c1][c2]...`, the index `k` of the play made among the
//! candidates, then each candidate as its moves in the node's letters, `E ver 3`, the mover's five
//! probabilities after it (win, win gammon, win backgammon, lose gammon, lose backgammon), its
//! cubeful equity (normalised, as our records keep it) and the evaluation's settings (`{ply}C 0 1
//! 0.000000 1`: our ply, cubeful, no noise). On the node of a cube decision (the move node for
//! no double, else the `double`, `take` or `drop` node) `DA[E ver 3 {ply}C 1 0.000000 1 ...]` with
//! the doubler's five probabilities, the cubeless equity and the no-double equity, then the same
//! five and cubeless equity and the double/take equity; GNU Backgammon keeps these two cubeful
//! equities as match winning chances in match play (equities in money play) and derives
//! double/pass itself.
//! The writing of the nodes themselves is `gammon_backgammon::formats::sgf::write`.

use crate::record::{Analysis, Decision, Kind, LuckMark, Mark};
use gammon_backgammon::formats::sgf::write::write_annotated;
use gammon_backgammon::Match;
use gammon_core::error::{Error, Result};
use gammon_core::Probabilities;
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

/// The letter of point `p` (25 the bar, 0 off) of player `who`, as the move nodes spell it.
fn letter(p: u8, who: u8) -> char {
    match p {
        25 => 'y',
        0 => 'z',
        p => (b'a' + if who == 0 { p } else { 25 - p } - 1) as char,
    }
}

/// Five probabilities as GNU Backgammon's records list them.
fn five(p: &Probabilities) -> String {
    format!(
        "{:.6} {:.6} {:.6} {:.6} {:.6}",
        p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon
    )
}

/// The values of `A[]`: the play made's index, then every candidate (none without a play made).
fn candidates(d: &Decision) -> Vec<(&'static str, String)> {
    let Some(k) = d.played_candidate else { return vec![] };
    let mut out = vec![("A", k.to_string())];
    for c in &d.candidates {
        let moves: String =
            c.play.moves().iter().flat_map(|m| [letter(m.from, d.player), letter(m.to, d.player)]).collect();
        // An empty name adds one more value to the property before it.
        out.push((
            "",
            format!("{moves} E ver 3 {} {:.6} {}C 0 1 0.000000 1", five(&c.probabilities), c.equity, c.ply),
        ));
    }
    out
}

/// The value of `DA[]` for a cube or take decision (none without its analysis).
fn cube_analysis(d: &Decision, ply: u8) -> Option<(&'static str, String)> {
    let (p, [nd, dt, _]) = (d.cube_probabilities?, d.cube_mwc.or(d.cube_equities)?);
    let (five, cubeless) = (five(&p), p.equity());
    Some((
        "DA",
        format!("E ver 3 {ply}C 1 0.000000 1 {five} {cubeless:.6} {nd:.6} {five} {cubeless:.6} {dt:.6}"),
    ))
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
                    node.extend(candidates(d));
                }
                // A cube decision on a roll (no double) marks the move node's cube; a double
                // marks its own node.
                Kind::Double => {
                    node.extend(cube_analysis(d, self.ply));
                    node.extend(skill(d.mark, d.played != "double"));
                }
                Kind::Take => {
                    node.extend(cube_analysis(d, self.ply));
                    node.extend(skill(d.mark, false));
                }
                Kind::Resign | Kind::AcceptResignation => {}
            }
        }
        write_annotated(m, &|g, a| notes.get(&(g, a)).cloned().unwrap_or_default())
    }
}
