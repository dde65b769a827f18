//! Writing GNU Backgammon's `.sgf` dialect (see the parent module for the format).
//!
//! One game tree per game; the root holds `FF[4]GM[6]CA[UTF-8]AP[..]MI[..]PW[..]PB[..]RU[..]` and,
//! once the game is over, `RE[W+n]` (`R` appended for a resignation). Then one node per roll
//! (`;W[31hefe]`, the dice high first, then the checker steps), per cube action (`;B[double]`,
//! `;W[take]`, `;W[drop]`; a beaver is a `double` by the doubled player) in the order played.
//! Resignations live only in `RE`: a rejected one leaves no trace, as in GNU Backgammon's files.

use crate::game::{Action, EndReason, Game};
use crate::match_play::Match;
use gammon_core::error::{Error, Result};

/// Extra properties for a node, asked for by game index (from 0) and by the index in that game's
/// history of the first action the node records: the roll (or opening roll) for a move node, the
/// cube action itself for a cube node. The writer escapes the values; a property with an empty
/// name adds one more value to the property before it (`A[0][x][y]`).
pub type Notes<'a> = &'a dyn Fn(usize, usize) -> Vec<(&'static str, String)>;

/// A property value with `]` and `\` escaped, as SGF requires.
fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// The letter of point `p` (25 the bar, 0 off) of player `who`, counted on White's side.
fn letter(p: u8, who: u8) -> char {
    match p {
        25 => 'y',
        0 => 'z',
        p => {
            let white = if who == 0 { p } else { 25 - p };
            (b'a' + white - 1) as char
        }
    }
}

fn colour(who: u8) -> char {
    if who == 0 {
        'W'
    } else {
        'B'
    }
}

/// The root properties of game `k` of `m`.
fn root(m: &Match, k: usize, game: &Game) -> String {
    let c = game.context();
    let names = m.names();
    let mut s = format!(
        "(;FF[4]GM[6]CA[UTF-8]AP[gammon:{}]MI[length:{}][game:{k}][ws:{}][bs:{}]PW[{}]PB[{}]",
        env!("CARGO_PKG_VERSION"),
        c.length,
        c.score[0],
        c.score[1],
        escape(&names[0]),
        escape(&names[1]),
    );
    if c.length > 0 {
        s.push_str(if c.crawford { "RU[Crawford:CrawfordGame]" } else { "RU[Crawford]" });
    } else if game.rules().jacoby {
        s.push_str("RU[Jacoby]");
    }
    if let Some(r) = game.result() {
        let resigned = if r.reason == EndReason::Resigned { "R" } else { "" };
        s.push_str(&format!("RE[{}+{}{resigned}]", colour(r.winner), r.points));
    }
    s
}

/// Writes a whole match, every game from its opening roll; `notes` adds properties to nodes.
pub fn write_annotated(m: &Match, notes: Notes<'_>) -> Result<String> {
    let mut s = String::new();
    for (k, game) in m.games().iter().enumerate() {
        if !game.starts_from_opening() {
            return Err(Error::InvalidArgument(format!(
                "game {} starts from a position set up from an ID; a .sgf file here holds games from the opening",
                k + 1
            )));
        }
        s.push_str(&root(m, k, game));
        let h = game.history();
        // The roll waiting for its play: its index, mover and dice (high first).
        let mut open: Option<(usize, u8, (u8, u8))> = None;
        let node = |s: &mut String, at: usize, who: u8, value: String| {
            s.push_str(&format!("\n;{}[{value}]", colour(who)));
            for (name, v) in notes(k, at) {
                s.push_str(&format!("{name}[{}]", escape(&v)));
            }
        };
        for (i, a) in h.iter().enumerate() {
            // A roll not followed by its play passed the turn (or awaits a play or a resignation).
            if let Some((at, who, (hi, lo))) = open {
                if !matches!(a, Action::Play { .. }) {
                    node(&mut s, at, who, format!("{hi}{lo}"));
                    open = None;
                }
            }
            match *a {
                Action::OpeningRoll { die0, die1 } => {
                    let who = if die0 > die1 { 0 } else { 1 };
                    open = Some((i, who, (die0.max(die1), die0.min(die1))));
                }
                Action::Roll { player, dice } => open = Some((i, player, (dice.high(), dice.low()))),
                Action::Play { player, dice, play } => {
                    let at = open.take().map_or(i, |(at, _, _)| at);
                    let mut v = format!("{}{}", dice.high(), dice.low());
                    for mv in play.moves() {
                        v.push(letter(mv.from, player));
                        v.push(letter(mv.to, player));
                    }
                    node(&mut s, at, player, v);
                }
                Action::Double { player, .. } => node(&mut s, i, player, "double".into()),
                Action::Take { player } => node(&mut s, i, player, "take".into()),
                Action::Drop { player } => node(&mut s, i, player, "drop".into()),
                // GNU Backgammon writes a beaver as a double by the doubled player.
                Action::Beaver { player, .. } => node(&mut s, i, player, "double".into()),
                Action::Resign { .. }
                | Action::AcceptResignation { .. }
                | Action::RejectResignation { .. } => {}
            }
        }
        if let Some((at, who, (hi, lo))) = open {
            node(&mut s, at, who, format!("{hi}{lo}"));
        }
        s.push_str(")\n");
    }
    Ok(s)
}

/// Writes a whole match as GNU Backgammon `.sgf` text (games rebuilt from an ID are refused).
///
/// ```
/// use gammon_backgammon::Match;
/// let mut m = Match::new(3, Some(5)).unwrap();
/// m.game_mut().set_dice(3, 1).unwrap();
/// m.game_mut().play_text("8/5 6/5").unwrap();
/// let text = m.to_sgf().unwrap();
/// assert!(text.contains("MI[length:3][game:0][ws:0][bs:0]") && text.contains(";W[31hefe]"));
/// assert_eq!(Match::from_sgf(&text).unwrap().game().history(), m.game().history());
/// ```
pub fn write(m: &Match) -> Result<String> {
    write_annotated(m, &|_, _| Vec::new())
}

impl Match {
    /// The match as GNU Backgammon `.sgf` text (see [`write`]).
    pub fn to_sgf(&self) -> Result<String> {
        write(self)
    }
}
