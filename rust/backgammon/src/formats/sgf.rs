//! GNU Backgammon's `.sgf` match files (SGF FF[4], GM[6]): read here, written in [`write`].
//!
//! One game tree per game, `(;FF[4]GM[6]...MI[length:N][game:k][ws:a][bs:b]PW[..]PB[..]RE[..] ;B[..] ;W[..] ...)`.
//! White (`W`) is player 0 and Black (`B`) player 1, as GNU Backgammon writes them. A move node holds
//! the two dice and up to four from/to letter pairs, every letter from White's side: `a` is White's
//! 1-point (Black's 24), `x` White's 24, `y` the bar, `z` off; `W[66]` alone is a roll that cannot be
//! played. `W[double]`, `B[take]`, `B[drop]` are cube actions; a `double` by the doubled player is
//! a beaver (money sessions, which then allow beavers), as GNU Backgammon writes it. A game that
//! stops before its end was resigned: `RE[W+2R]` says who won and how many points; only the last game may stop
//! without a result (the match is still going on), possibly on a roll not yet played. `RU[Jacoby]`
//! in a money session is the Jacoby rule. Other properties (analysis, comments, statistics) are
//! skipped; [`write::write_annotated`] writes GNU Backgammon's analysis properties beside the moves.

use crate::cube::CubeRules;
use crate::game::ResultKind;
use crate::match_play::Match;
use gammon_core::error::{Error, Result};

fn bad(line: usize, what: impl Into<String>) -> Error {
    Error::InvalidFormat(format!(".sgf line {line}: {}", what.into()))
}

/// One node: its properties in order, each with its values, and the line it starts on.
struct Node {
    line: usize,
    props: Vec<(String, Vec<String>)>,
}

impl Node {
    fn get(&self, name: &str) -> Option<&[String]> {
        self.props.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_slice())
    }
}

/// The game trees of `text`, each a list of nodes (only the main line: variations are refused).
fn parse(text: &str) -> Result<Vec<Vec<Node>>> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut line = 1;
    let mut trees: Vec<Vec<Node>> = Vec::new();
    let mut depth = 0;
    let mut current: Option<Vec<Node>> = None;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => line += 1,
            '(' => {
                depth += 1;
                if depth > 1 {
                    return Err(bad(line, "variations (nested game trees) are not read"));
                }
                current = Some(Vec::new());
            }
            ')' => {
                if depth == 0 {
                    return Err(bad(line, "')' closes no game tree"));
                }
                depth -= 1;
                trees.extend(current.take().filter(|t| !t.is_empty()));
            }
            ';' => {
                let Some(nodes) = current.as_mut() else {
                    return Err(bad(line, "a node outside a game tree"));
                };
                nodes.push(Node { line, props: Vec::new() });
            }
            c if c.is_ascii_uppercase() => {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_uppercase() {
                    i += 1;
                }
                let name: String = chars[start..i].iter().collect();
                let mut values = Vec::new();
                loop {
                    while i < chars.len() && chars[i].is_whitespace() {
                        if chars[i] == '\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                    if i >= chars.len() || chars[i] != '[' {
                        break;
                    }
                    i += 1;
                    let mut value = String::new();
                    loop {
                        let Some(&d) = chars.get(i) else {
                            return Err(bad(
                                line,
                                format!("property {name}: a value is not closed with ']'"),
                            ));
                        };
                        i += 1;
                        match d {
                            ']' => break,
                            '\\' => {
                                if let Some(&e) = chars.get(i) {
                                    value.push(e);
                                    i += 1;
                                }
                            }
                            d => {
                                if d == '\n' {
                                    line += 1;
                                }
                                value.push(d);
                            }
                        }
                    }
                    values.push(value);
                }
                if values.is_empty() {
                    return Err(bad(line, format!("property {name} has no value")));
                }
                let Some(node) = current.as_mut().and_then(|n| n.last_mut()) else {
                    return Err(bad(line, format!("property {name} outside a node")));
                };
                node.props.push((name, values));
                continue;
            }
            c if c.is_whitespace() => {}
            c => return Err(bad(line, format!("unexpected character {c:?}"))),
        }
        i += 1;
    }
    if depth != 0 {
        return Err(bad(line, "the file ends inside a game tree"));
    }
    Ok(trees)
}

/// A point letter (White's side) as the point of the player `who` (0 White, 1 Black): 25 bar, 0 off.
fn point(line: usize, letter: char, who: u8) -> Result<u8> {
    match letter {
        'a'..='x' => {
            let white = letter as u8 - b'a' + 1;
            Ok(if who == 0 { white } else { 25 - white })
        }
        'y' => Ok(25),
        'z' => Ok(0),
        other => Err(bad(line, format!("{other:?} is not a point letter (a-x, y for the bar, z for off)"))),
    }
}

/// How many of the mover's checkers a list of steps takes from or puts on each point (0 off, 25
/// the bar): the same for two orders of the same checker movements.
fn net_move(steps: impl Iterator<Item = (u8, u8)>) -> [i32; 26] {
    let mut net = [0; 26];
    for (from, to) in steps {
        net[usize::from(from.min(25))] -= 1;
        net[usize::from(to.min(25))] += 1;
    }
    net
}

/// The number after `key:` in `MI[key:value]`.
fn match_info(node: &Node, key: &str) -> Result<u32> {
    let values = node.get("MI").ok_or_else(|| bad(node.line, "the game has no MI (match information)"))?;
    for v in values {
        if let Some(rest) = v.strip_prefix(key).and_then(|r| r.strip_prefix(':')) {
            return rest
                .trim()
                .parse()
                .map_err(|_| bad(node.line, format!("MI[{v}]: {key} is not a number")));
        }
    }
    Err(bad(node.line, format!("MI has no {key}")))
}

/// Reads GNU Backgammon `.sgf` text into a match, every move replayed through the rules.
pub fn read(text: &str) -> Result<Match> {
    let trees = parse(text)?;
    let Some(first) = trees.first().and_then(|t| t.first()) else {
        return Err(Error::InvalidFormat(".sgf: no game tree".into()));
    };
    if first.get("GM").and_then(|v| v.first()).map(String::as_str) != Some("6") {
        return Err(bad(first.line, "GM[6] (backgammon) is missing"));
    }
    let length = match_info(first, "length")?;
    // Files may record a dead-cube double, as `.mat` files do (see `CubeRules::dead_cube_doubles`);
    // the Jacoby rule is RU[Jacoby] in a money session.
    let jacoby = length == 0 && first.get("RU").is_some_and(|v| v.iter().any(|r| r == "Jacoby"));
    // The files carry no beaver rule: a money session allows them if one is played, that is if
    // a double answers a double.
    let action = |n: &Node| ["W", "B"].iter().find_map(|p| n.get(p)).map(|v| v[0].clone());
    let beavers = length == 0
        && trees.iter().any(|t| {
            t.windows(2).any(|w| {
                action(&w[0]).as_deref() == Some("double") && action(&w[1]).as_deref() == Some("double")
            })
        });
    let rules = CubeRules { dead_cube_doubles: true, jacoby, beavers, ..CubeRules::default() };
    let mut m = Match::with_rules(length, Some(0), rules)?;
    let name = |n: &Node, p: &str| n.get(p).and_then(|v| v.first()).cloned().unwrap_or_default();
    m.set_names(&name(first, "PW"), &name(first, "PB"));
    for (k, tree) in trees.iter().enumerate() {
        let root = &tree[0];
        if k > 0 {
            m.next_game().map_err(|e| bad(root.line, format!("game {}: {}", k + 1, e.message())))?;
        }
        let score = [match_info(root, "ws")?, match_info(root, "bs")?];
        if length > 0 && score != m.game().context().score {
            return Err(bad(
                root.line,
                format!(
                    "game {}: MI gives the score {:?}, the games before give {:?}",
                    k + 1,
                    score,
                    m.game().context().score
                ),
            ));
        }
        // The line of a roll left unplayed, which only the game's end by resignation may follow.
        let mut pending: Option<usize> = None;
        for node in &tree[1..] {
            for (who, prop) in [(0u8, "W"), (1u8, "B")] {
                let Some(values) = node.get(prop) else { continue };
                if let Some(at) = pending {
                    return Err(bad(at, "a roll that can be played is left unplayed, and play goes on"));
                }
                let value = values[0].as_str();
                let at = |e: Error| bad(node.line, format!("{prop}[{value}]: {}", e.message()));
                let g = m.game_mut();
                match value {
                    "double" if g.phase() == crate::game::Phase::Doubled => g.beaver().map_err(at)?,
                    "double" => g.double().map_err(at)?,
                    "take" => g.take().map_err(at)?,
                    "drop" => g.drop().map_err(at)?,
                    _ => {
                        let chars: Vec<char> = value.chars().collect();
                        let die =
                            |c: Option<&char>| c.and_then(|c| c.to_digit(10)).filter(|d| (1..=6).contains(d));
                        let (Some(d1), Some(d2)) = (die(chars.first()), die(chars.get(1))) else {
                            return Err(bad(node.line, format!("{prop}[{value}]: not two dice and a move")));
                        };
                        if !chars.len().is_multiple_of(2) || chars.len() > 10 {
                            return Err(bad(
                                node.line,
                                format!("{prop}[{value}]: a move is pairs of point letters"),
                            ));
                        }
                        let opening = g.phase() == crate::game::Phase::Opening;
                        if opening {
                            // The first mover threw the higher die.
                            let (hi, lo) = (d1.max(d2) as u8, d1.min(d2) as u8);
                            let (die0, die1) = if who == 0 { (hi, lo) } else { (lo, hi) };
                            g.apply(&crate::game::Action::OpeningRoll { die0, die1 }).map_err(at)?;
                        } else {
                            if g.turn() != Some(who) {
                                return Err(bad(
                                    node.line,
                                    format!("{prop}[{value}]: it is not this player's turn"),
                                ));
                            }
                            g.set_dice(d1 as u8, d2 as u8).map_err(at)?;
                        }
                        if opening && g.turn() != Some(who) {
                            return Err(bad(
                                node.line,
                                format!("{prop}[{value}]: the other player won the opening roll"),
                            ));
                        }
                        let mut steps = Vec::new();
                        let mut pairs = Vec::new();
                        for pair in chars[2..].chunks(2) {
                            let (from, to) =
                                (point(node.line, pair[0], who)?, point(node.line, pair[1], who)?);
                            steps.push(format!("{from}/{to}"));
                            pairs.push((from, to));
                        }
                        if !matches!(g.phase(), crate::game::Phase::Moving(_)) {
                            if steps.is_empty() {
                                continue; // the roll could not be played: the turn has passed
                            }
                            return Err(bad(
                                node.line,
                                format!("{prop}[{value}]: the roll cannot be played"),
                            ));
                        }
                        if steps.is_empty() {
                            // Left unplayed: only a resignation (RE) or the end of the file may follow.
                            pending = Some(node.line);
                            continue;
                        }
                        if let Err(e) = g.play_text(&steps.join(" ")) {
                            // GNU Backgammon may list a play's steps in an order that cannot be
                            // played one by one (5/1 1/off for 5/3 3/off with 4-2): the play is
                            // then the one legal play that moves the same checkers from and to
                            // the same points.
                            let net = net_move(pairs.iter().copied());
                            let mut same = g
                                .legal_plays()
                                .into_iter()
                                .filter(|p| net_move(p.moves().iter().map(|m| (m.from, m.to))) == net);
                            match (same.next(), same.next()) {
                                (Some(play), None) => g.play(&play).map_err(at)?,
                                _ => return Err(at(e)),
                            }
                        }
                    }
                }
            }
        }
        let last = k + 1 == trees.len();
        if !m.game().is_over() && (root.get("RE").is_some() || !last) {
            // A game that stops before its end was resigned: RE[W+2R] says who won and how much.
            // Only the last game may stop without a result: the match is still going on.
            let re = root.get("RE").and_then(|v| v.first()).cloned().unwrap_or_default();
            let winner = match re.chars().next() {
                Some('W') => 0u8,
                Some('B') => 1u8,
                _ => {
                    return Err(bad(
                        root.line,
                        format!("game {} stops before its end without a result", k + 1),
                    ))
                }
            };
            let points: u32 = re
                .get(2..)
                .unwrap_or("")
                .trim_end_matches('R')
                .parse()
                .map_err(|_| bad(root.line, format!("RE[{re}]: not W+n or B+n")))?;
            let cube = m.game().cube_value();
            let kind =
                points.is_multiple_of(cube).then(|| ResultKind::from_multiplier(points / cube)).flatten();
            let Some(kind) = kind else {
                return Err(bad(
                    root.line,
                    format!("RE[{re}]: {points} points is no resignation on a {cube}-cube"),
                ));
            };
            let g = m.game_mut();
            let at = |e: Error| bad(root.line, format!("RE[{re}]: {}", e.message()));
            g.resign_as(1 - winner, kind).map_err(at)?;
            g.accept_resignation().map_err(at)?;
        }
    }
    Ok(m)
}

/// Whether `text` looks like an SGF file (its first non-blank characters open a game tree).
pub fn looks_like_sgf(text: &str) -> bool {
    text.trim_start_matches('\u{feff}').trim_start().starts_with('(')
}

/// A match file of either kind, told apart by its content: `.sgf` when it opens a game tree,
/// `.mat` otherwise.
pub fn read_match_file(text: &str) -> Result<Match> {
    if looks_like_sgf(text) {
        read(text)
    } else {
        Match::from_mat(text)
    }
}

impl Match {
    /// A match read from GNU Backgammon `.sgf` text, replayed through the rules.
    pub fn from_sgf(text: &str) -> Result<Match> {
        read(text)
    }
}

pub mod write;

#[cfg(test)]
mod tests;
