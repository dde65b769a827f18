//! Jellyfish `.mat` match files, as GNU Backgammon and eXtreme Gammon export them.
//!
//! A file is a ` N point match` header (0 = money session), then per game a ` Game k` line, a score
//! line (`Name0 : s0` then `Name1 : s1`, scores before the game) and numbered lines holding player
//! 0's entry on the left and player 1's on the right: `dd: from/to ...` (mover's numbering, 25 =
//! bar, 0 = off, `*` a hit; `dd:` alone for a roll that cannot be played), ` Doubles => v`,
//! ` Takes`, ` Drops`, ` Beavers => v`, and `Wins n point(s)` under the winner once the game ends.
//! A `Wins` while the game is still going is an accepted resignation.

use crate::cube::CubeRules;
use crate::game::{Action, Game, Phase, ResultKind};
use crate::match_play::Match;
use gammon_core::error::{Error, Result};

/// One entry of a move line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Entry {
    Roll {
        dice: (u8, u8),
        play: String,
    },
    Double,
    Beaver,
    Take,
    Drop,
    Wins(u32),
    /// `Losses n point(s)`, which some producers write beside the winner's `Wins`: skipped.
    Loses,
}

fn entry_text(e: &Entry) -> String {
    match e {
        Entry::Roll { dice, play } if play.is_empty() => format!("{}{}:", dice.0, dice.1),
        Entry::Roll { dice, play } => format!("{}{}: {play}", dice.0, dice.1),
        Entry::Double | Entry::Beaver | Entry::Take | Entry::Drop | Entry::Wins(_) | Entry::Loses => {
            unreachable!()
        }
    }
}

/// The moves of a play as `.mat` writes them: one `from/to` per checker step, `*` on hits.
fn play_steps(play: &crate::moves::Play) -> String {
    play.moves()
        .iter()
        .enumerate()
        .map(|(k, m)| format!("{}/{}{}", m.from, m.to, if play.is_hit(k) { "*" } else { "" }))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a roll, followed by the actions `after`, is written alone (`dd:`, no move): when it
/// passed the turn because it could not be played, or when the game ended by a resignation
/// before it was played (the reader takes `dd:` then a `Wins` as exactly that). A roll that is
/// played is written with its play, and the game's last roll still to be played (`pending`) is
/// not written.
fn written_alone(after: &[Action], pending: bool) -> bool {
    for a in after {
        match a {
            Action::Play { .. } => return false,
            Action::Resign { .. } | Action::RejectResignation { .. } => continue,
            _ => return true,
        }
    }
    !pending
}

/// The entries of one game in order, each with its player.
fn game_entries(game: &Game) -> Vec<(u8, String)> {
    let h = game.history();
    let pending = matches!(game.phase(), Phase::Moving(_));
    let mut out = Vec::new();
    for (i, a) in h.iter().enumerate() {
        match *a {
            // An opening roll is otherwise written with the play that follows it.
            Action::OpeningRoll { die0, die1 } if written_alone(&h[i + 1..], pending) => {
                let (player, dice) = if die0 > die1 { (0, (die0, die1)) } else { (1, (die1, die0)) };
                out.push((player, entry_text(&Entry::Roll { dice, play: String::new() })));
            }
            Action::Roll { player, dice } if written_alone(&h[i + 1..], pending) => out.push((
                player,
                entry_text(&Entry::Roll { dice: (dice.high(), dice.low()), play: String::new() }),
            )),
            Action::Play { player, dice, play } => out.push((
                player,
                entry_text(&Entry::Roll { dice: (dice.high(), dice.low()), play: play_steps(&play) }),
            )),
            Action::Double { player, value } => out.push((player, format!(" Doubles => {value}"))),
            Action::Beaver { player, value } => out.push((player, format!(" Beavers => {value}"))),
            Action::Take { player } => out.push((player, " Takes".into())),
            Action::Drop { player } => out.push((player, " Drops".into())),
            _ => {}
        }
    }
    if let Some(r) = game.result() {
        let plural = if r.points == 1 { "" } else { "s" };
        out.push((r.winner, format!("Wins {} point{plural}", r.points)));
    }
    out
}

/// Writes a whole match: every game from its opening roll (games rebuilt from an ID are refused).
///
/// ```
/// use gammon_backgammon::Match;
/// let mut m = Match::new(1, Some(5)).unwrap();
/// m.game_mut().set_dice(3, 1).unwrap();
/// m.game_mut().play_text("8/5 6/5").unwrap();
/// let text = gammon_backgammon::formats::mat::write(&m).unwrap();
/// assert!(text.contains(" 1 point match") && text.contains("  1) 31: 8/5 6/5"));
/// ```
pub fn write(m: &Match) -> Result<String> {
    let mut s = format!(" {} point match\n\n", m.length());
    let names = m.names();
    for (k, game) in m.games().iter().enumerate() {
        if !game.starts_from_opening() {
            return Err(Error::InvalidArgument(format!(
                "game {} starts from a position set up from an ID; a .mat file can only hold games from the opening",
                k + 1
            )));
        }
        let sc = game.context().score;
        s.push_str(&format!(" Game {}\n", k + 1));
        s.push_str(&format!(" {:<30} {} : {}\n", format!("{} : {}", names[0], sc[0]), names[1], sc[1]));
        let mut lines: Vec<[Option<String>; 2]> = Vec::new();
        for (player, text) in game_entries(game) {
            let p = player as usize;
            let fits = p == 1 && lines.last().is_some_and(|l| l[1].is_none());
            if !fits {
                lines.push([None, None]);
            }
            lines.last_mut().expect("a line was just pushed")[p] = Some(text);
        }
        let mut number = 0;
        for [left, right] in lines {
            let only_wins = [&left, &right].iter().all(|e| e.as_ref().is_none_or(|t| t.starts_with("Wins")));
            let line = if only_wins {
                match (left, right) {
                    (Some(l), _) => format!("      {l}"),
                    (None, Some(r)) => format!("{:34}{r}", ""),
                    (None, None) => String::new(),
                }
            } else {
                number += 1;
                // The left column is 28 wide; a longer entry still needs a space before the right one.
                format!("{number:3}) {:<27} {}", left.unwrap_or_default(), right.unwrap_or_default())
            };
            s.push_str(line.trim_end());
            s.push('\n');
        }
        s.push('\n');
    }
    Ok(s)
}

fn bad(line_no: usize, why: String) -> Error {
    Error::InvalidFormat(format!(".mat line {line_no}: {why}"))
}

/// Reads the entries of the text after a line number, the first one in the left column when `left`.
fn parse_entries(text: &str, left: bool, line_no: usize) -> Result<Vec<(u8, Entry)>> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut entries = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        let lower = t.to_ascii_lowercase();
        let b = t.as_bytes();
        let entry =
            if b.len() == 3 && b[2] == b':' && (b'1'..=b'6').contains(&b[0]) && (b'1'..=b'6').contains(&b[1])
            {
                let mut steps = Vec::new();
                // Question marks stand for a move left unplayed (a resignation after the roll).
                let unknown = |w: &str| !w.is_empty() && w.bytes().all(|c| c == b'?');
                while i + 1 < tokens.len() && (tokens[i + 1].contains('/') || unknown(tokens[i + 1])) {
                    i += 1;
                    if !unknown(tokens[i]) {
                        steps.push(tokens[i]);
                    }
                }
                // eXtreme Gammon writes "Cannot Move" for a roll that cannot be played.
                if tokens.get(i + 1).is_some_and(|w| w.eq_ignore_ascii_case("cannot")) {
                    i += 2;
                }
                Entry::Roll { dice: (b[0] - b'0', b[1] - b'0'), play: steps.join(" ") }
            } else if lower == "doubles" || lower == "beavers" || lower == "raccoons" {
                if tokens.get(i + 1) == Some(&"=>") {
                    i += 2;
                }
                if lower == "doubles" {
                    Entry::Double
                } else {
                    Entry::Beaver
                }
            } else if lower == "takes" || lower == "take" || lower == "accepts" {
                Entry::Take
            } else if lower == "drops" || lower == "drop" || lower == "passes" || lower == "pass" {
                Entry::Drop
            } else if lower == "wins" {
                let n = tokens.get(i + 1).and_then(|n| n.parse::<u32>().ok()).ok_or_else(|| {
                    bad(line_no, format!("\"Wins\" is not followed by a number of points in {text:?}"))
                })?;
                i += 1;
                // "point(s)", then "and the match" in the deciding game.
                if tokens.get(i + 1).is_some_and(|w| w.to_ascii_lowercase().starts_with("point")) {
                    i += 1;
                }
                let rest: Vec<String> =
                    tokens[i + 1..].iter().take(3).map(|w| w.to_ascii_lowercase()).collect();
                if rest == ["and", "the", "match"] {
                    i += 3;
                }
                Entry::Wins(n)
            } else if lower == "losses" || lower == "loses" {
                // Some producers note the loser's side too; the winner's "Wins" says it all.
                if tokens.get(i + 1).is_some_and(|n| n.parse::<u32>().is_ok()) {
                    i += 1;
                }
                if tokens.get(i + 1).is_some_and(|w| w.to_ascii_lowercase().starts_with("point")) {
                    i += 1;
                }
                Entry::Loses
            } else {
                return Err(bad(line_no, format!("cannot read {t:?} in {text:?}")));
            };
        let player = if entries.is_empty() { !left as u8 } else { 1 };
        if entries.len() >= 2 || (entries.len() == 1 && !left) {
            return Err(bad(line_no, format!("more than one entry per column in {text:?}")));
        }
        entries.push((player, entry));
        i += 1;
    }
    Ok(entries)
}

/// Whether `n`, written as the points of a game that ends the match, is one of the other numbers
/// producers write there: the points the winner needed, or the match length.
fn match_points(length: u32, before: u32, n: u32) -> bool {
    length > 0 && (n == length || n == length.saturating_sub(before))
}

fn apply_entry(m: &mut Match, player: u8, entry: Entry, line_no: usize) -> Result<()> {
    let at = |e: Error| bad(line_no, e.to_string());
    let length = m.length();
    let g = m.game_mut();
    let before = g.context().score[player as usize];
    if let Entry::Wins(n) = entry {
        // A resignation whose points are not 1-3 times the cube, read as GNU Backgammon reads it.
        let mut rounded = false;
        if !g.is_over() {
            // A resignation: by the loser whether or not he was to act (a resignation or a
            // timeout while the winner was on roll shows the same way).
            let value = g.cube_value();
            let kind = (n % value == 0).then(|| ResultKind::from_multiplier(n / value)).flatten();
            let kind = match kind {
                Some(kind) => kind,
                None => {
                    // Producers write such numbers in the game that ends the match: the points
                    // the winner needed, the match length, or for a match abandoned 4016 (say).
                    // GNU Backgammon reads them as the points over the cube rounded up, at most a
                    // backgammon; so do we, when that result does end the match.
                    let k = n.div_ceil(value).clamp(1, 3);
                    match ResultKind::from_multiplier(k) {
                        Some(kind) if n > 0 && length > 0 && before + k * value >= length => {
                            rounded = true;
                            kind
                        }
                        _ => {
                            return Err(bad(
                                line_no,
                                format!(
                                    "player {player} wins {n} points with the cube at {value}: not 1-3 \
                                     times the cube, and not a win of the match"
                                ),
                            ))
                        }
                    }
                }
            };
            if g.resignation().is_some() {
                return Err(bad(line_no, "a resignation is already pending".into()));
            }
            g.resign_as(1 - player, kind).map_err(at)?;
            g.accept_resignation().map_err(at)?;
        }
        let r = g.result().expect("the game is over");
        let ends_match = length > 0 && before + r.points >= length;
        let beyond_backgammon = n > 3 * g.cube_value();
        let same = r.points == n
            || (ends_match && (rounded || match_points(length, before, n) || beyond_backgammon));
        if r.winner != player || !same {
            return Err(bad(
                line_no,
                format!(
                    "the file says player {player} wins {n}; the replay gives player {} {}",
                    r.winner, r.points
                ),
            ));
        }
        return Ok(());
    }
    if entry == Entry::Loses {
        return Ok(());
    }
    if g.is_over() {
        return Err(bad(line_no, "an entry after the end of the game".into()));
    }
    if let Entry::Roll { dice: (d1, d2), play } = &entry {
        let opening = g.turn().is_none();
        if opening {
            let (hi, lo) = ((*d1).max(*d2), (*d1).min(*d2));
            let (die0, die1) = if player == 0 { (hi, lo) } else { (lo, hi) };
            g.set_dice(die0, die1).map_err(at)?;
        } else {
            if g.to_act() != Some(player) {
                return Err(bad(line_no, format!("player {player} rolls out of turn")));
            }
            g.set_dice(*d1, *d2).map_err(at)?;
        }
        let passed = g.dice().is_none();
        return match (passed, play.is_empty()) {
            (true, true) => Ok(()),
            (true, false) => {
                Err(bad(line_no, format!("{d1}{d2} cannot be played here, but the file plays {play}")))
            }
            // Left unplayed: the next entry must be the opponent's win (checked by `read`).
            (false, true) => Ok(()),
            (false, false) => g.play_text(play).map(|_| ()).map_err(at),
        };
    }
    if g.to_act() != Some(player) {
        return Err(bad(line_no, format!("{entry:?} by player {player} is out of turn")));
    }
    match entry {
        Entry::Double => g.double(),
        Entry::Beaver => g.beaver(),
        Entry::Take => g.take(),
        Entry::Drop => g.drop(),
        Entry::Roll { .. } | Entry::Wins(_) | Entry::Loses => unreachable!("handled above"),
    }
    .map_err(at)
}

fn unplayed_error(line_no: usize, player: u8, (d1, d2): (u8, u8)) -> Error {
    bad(
        line_no,
        format!(
            "player {player} has a legal play of {d1}{d2} but plays none, and the game does not end by \
             a resignation after it"
        ),
    )
}

/// Reads the score line `Name0 : s0   Name1 : s1`.
fn parse_score_line(line: &str, line_no: usize) -> Result<([String; 2], [u32; 2])> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let colons: Vec<usize> = tokens.iter().enumerate().filter(|(_, t)| **t == ":").map(|(i, _)| i).collect();
    let fail = || bad(line_no, format!("expected a score line \"Name0 : s0   Name1 : s1\", got {line:?}"));
    let [c0, c1] = colons[..] else { return Err(fail()) };
    let s0: u32 = tokens.get(c0 + 1).and_then(|t| t.parse().ok()).ok_or_else(fail)?;
    let s1: u32 = tokens.get(c1 + 1).and_then(|t| t.parse().ok()).ok_or_else(fail)?;
    if c1 < c0 + 2 {
        return Err(fail());
    }
    Ok(([tokens[..c0].join(" "), tokens[c0 + 2..c1].join(" ")], [s0, s1]))
}

/// Reads a `.mat` file: the match replayed through the rules, each game's scores checked.
pub fn read(text: &str) -> Result<Match> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut m: Option<Match> = None;
    let mut games = 0;
    let mut expect_score = false;
    // A roll with a legal play left unplayed: line, player, dice.
    let mut unplayed: Option<(usize, u8, (u8, u8))> = None;
    for (k, raw) in text.lines().enumerate() {
        let line_no = k + 1;
        let line = raw.trim_end();
        let t = line.trim_start();
        if t.is_empty() || t.starts_with(';') || t.starts_with('#') {
            continue;
        }
        let Some(mm) = m.as_mut() else {
            let words: Vec<&str> = t.split_whitespace().collect();
            if words.len() >= 2 && words[1].starts_with("point") {
                let n = words[0].parse().map_err(|_| bad(line_no, format!("bad match length in {t:?}")))?;
                // Match files may record a dead-cube double (see `CubeRules::dead_cube_doubles`).
                let rules = CubeRules { dead_cube_doubles: true, ..CubeRules::default() };
                m = Some(Match::with_rules(n, Some(0), rules)?);
                continue;
            }
            return Err(bad(line_no, format!("expected \"N point match\", got {t:?}")));
        };
        if let Some(rest) = t.strip_prefix("Game ") {
            if let Some((at, p, d)) = unplayed.take() {
                return Err(unplayed_error(at, p, d));
            }
            rest.trim().parse::<u32>().map_err(|_| bad(line_no, format!("bad game line {t:?}")))?;
            if games > 0 {
                mm.next_game().map_err(|e| bad(line_no, format!("cannot start game {}: {e}", games + 1)))?;
            }
            games += 1;
            expect_score = true;
            continue;
        }
        if expect_score {
            let (names, score) = parse_score_line(t, line_no)?;
            if score != mm.score() {
                return Err(bad(
                    line_no,
                    format!(
                        "game {games} starts at {}-{}, but the replay gives {:?}",
                        score[0],
                        score[1],
                        mm.score()
                    ),
                ));
            }
            mm.set_names(&names[0], &names[1]);
            expect_score = false;
            continue;
        }
        if games == 0 {
            return Err(bad(line_no, format!("{t:?} comes before the first \"Game\" line")));
        }
        let indent = line.len() - t.len();
        let (body, body_start) = match t.find(')') {
            Some(p) if t[..p].trim().chars().all(|c| c.is_ascii_digit()) && p > 0 => {
                let after = &t[p + 1..];
                let gap = after.len() - after.trim_start().len();
                (after, indent + p + 1 + gap)
            }
            _ => (t, indent),
        };
        // Left entries start a few columns in; right ones past the middle (column 28 or so).
        let left = body_start < 20;
        for (player, entry) in parse_entries(body, left, line_no)? {
            if entry == Entry::Loses {
                continue;
            }
            // A roll left unplayed must be followed by the end of the game by a resignation, by
            // either player (the engine lets either resign while the dice wait to be played).
            if let Some((at, p, d)) = unplayed.take() {
                if !matches!(entry, Entry::Wins(_)) {
                    return Err(unplayed_error(at, p, d));
                }
            }
            let roll = match &entry {
                Entry::Roll { dice, play } if play.is_empty() => Some(*dice),
                _ => None,
            };
            apply_entry(mm, player, entry, line_no)?;
            if let (Some(d), Phase::Moving(_)) = (roll, mm.game().phase()) {
                unplayed = Some((line_no, player, d));
            }
        }
    }
    if let Some((at, p, d)) = unplayed {
        return Err(unplayed_error(at, p, d));
    }
    let m = m.ok_or_else(|| Error::InvalidFormat(".mat text has no \"N point match\" line".into()))?;
    if games == 0 {
        return Err(Error::InvalidFormat(".mat text has no games".into()));
    }
    Ok(m)
}

impl Match {
    /// The match as a Jellyfish `.mat` text (see [`write`]).
    pub fn to_mat(&self) -> Result<String> {
        write(self)
    }

    /// A match read from `.mat` text, replayed through the rules (see [`read`]).
    pub fn from_mat(text: &str) -> Result<Match> {
        read(text)
    }
}

#[cfg(test)]
mod tests;
