//! Standard play notation: `24/18 13/11*`, `bar/22`, `6/off`, `8/5(2)`, `24/18*/13`.
//!
//! Written the way GNU Backgammon writes it: one checker's consecutive moves joined (showing a
//! landing point only where it hit), equal paths grouped with `(n)`, highest starting point first.
//! Read leniently: `8/5 8/5`, `8/5(2)`, `24/13` (one checker using both dice), `25/22`, `6/0`,
//! commas or spaces, any case; the text must still name exactly one legal play.

use crate::board::{Position, BAR, OFF};
use crate::moves::{legal_plays, Play};
use gammon_core::dice::Dice;
use gammon_core::error::{Error, Result};

/// One checker's path: the points it touched, with a hit flag on each landing.
#[derive(Clone, PartialEq, Eq)]
struct Path {
    points: Vec<(u8, bool)>,
}

impl Path {
    /// The path's text without a star on its last point, and whether that last landing hit.
    fn text(&self) -> (String, bool) {
        let last = self.points.len() - 1;
        let mut s = point_name(self.points[0].0, true);
        for (k, &(point, hit)) in self.points.iter().enumerate().skip(1) {
            if k == last || hit {
                s.push('/');
                s.push_str(&point_name(point, false));
                if hit && k != last {
                    s.push('*');
                }
            }
        }
        (s, self.points[last].1)
    }
}

fn point_name(point: u8, start: bool) -> String {
    match point as usize {
        BAR if start => "bar".into(),
        OFF if !start => "off".into(),
        n => n.to_string(),
    }
}

/// The notation of a play (empty string for a roll that cannot be played).
pub fn format_play(play: &Play) -> String {
    let mut paths: Vec<Path> = Vec::new();
    for (k, m) in play.moves().iter().enumerate() {
        let hit = play.is_hit(k);
        // Continue the path of a checker that landed here earlier and has not moved on since.
        let open = paths
            .iter_mut()
            .rev()
            .find(|p| p.points.last().map(|l| l.0) == Some(m.from) && m.from != OFF as u8);
        match open {
            Some(path) => path.points.push((m.to, hit)),
            None => paths.push(Path { points: vec![(m.from, false), (m.to, hit)] }),
        }
    }
    let mut texts: Vec<(u8, u8, String, bool)> = paths
        .iter()
        .map(|p| {
            let (text, hit) = p.text();
            (p.points[0].0, p.points.last().unwrap().0, text, hit)
        })
        .collect();
    texts.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < texts.len() {
        // Equal paths are grouped; only the first checker to land on a blot hits, but the group
        // is starred (`bar/22*(2)`), as GNU Backgammon writes it.
        let mut j = i + 1;
        while j < texts.len() && texts[j].2 == texts[i].2 {
            j += 1;
        }
        let star = if texts[i..j].iter().any(|t| t.3) { "*" } else { "" };
        let count = if j - i > 1 { format!("({})", j - i) } else { String::new() };
        parts.push(format!("{}{star}{count}", texts[i].2));
        i = j;
    }
    parts.join(" ")
}

/// A path as typed: the points a checker must visit in order (25 = bar, 0 = off).
#[derive(Clone, Debug)]
struct Wanted {
    points: Vec<u8>,
    next: usize,
}

fn parse_point(word: &str, text: &str) -> Result<u8> {
    let w = word.trim_end_matches('*').to_ascii_lowercase();
    let value = match w.as_str() {
        "bar" | "b" => 25,
        "off" | "o" => 0,
        _ => w.parse::<u8>().ok().filter(|&n| n <= 25).ok_or_else(|| {
            Error::IllegalPlay(format!(
                "cannot read {word:?} in {text:?}: a point is 1-24, bar (25) or off (0)"
            ))
        })?,
    };
    Ok(value)
}

fn parse_paths(text: &str) -> Result<(Vec<Wanted>, u32)> {
    let mut wanted = Vec::new();
    let mut stars = 0;
    for token in text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
        let (body, count) = match token.find('(') {
            Some(open) => {
                let inner = token[open + 1..].strip_suffix(')').ok_or_else(|| {
                    Error::IllegalPlay(format!("unbalanced parenthesis in {token:?} of {text:?}"))
                })?;
                let n: usize = inner.parse().ok().filter(|n| (1..=4).contains(n)).ok_or_else(|| {
                    Error::IllegalPlay(format!("repeat count ({inner}) in {text:?} must be 1 to 4"))
                })?;
                (&token[..open], n)
            }
            None => (token, 1),
        };
        let words: Vec<&str> = body.split('/').collect();
        if words.len() < 2 || words.iter().any(|w| w.is_empty()) {
            return Err(Error::IllegalPlay(format!(
                "{token:?} in {text:?} is not a move such as 13/7 or bar/22"
            )));
        }
        stars += body.matches('*').count() as u32 * count as u32;
        let points = words.iter().map(|w| parse_point(w, text)).collect::<Result<Vec<u8>>>()?;
        for pair in points.windows(2) {
            if pair[1] >= pair[0] {
                return Err(Error::IllegalPlay(format!(
                    "{token:?} in {text:?} moves backwards: checkers move from higher points to lower"
                )));
            }
        }
        if points[1..].contains(&25) || points[..points.len() - 1].contains(&0) {
            return Err(Error::IllegalPlay(format!(
                "{token:?} in {text:?}: bar can only start a move, off only end one"
            )));
        }
        for _ in 0..count {
            wanted.push(Wanted { points: points.clone(), next: 1 });
        }
    }
    if wanted.len() > 4 {
        return Err(Error::IllegalPlay(format!("{text:?} moves more than four checkers")));
    }
    Ok((wanted, stars))
}

/// Every (position, hits) that the typed paths can lead to, trying all orders and dice assignments.
fn search(play: Play, dice: &mut Vec<usize>, wanted: &mut [Wanted], found: &mut Vec<(Play, u32)>) {
    if wanted.iter().all(|w| w.next == w.points.len()) {
        found.push((play, play.hits()));
        return;
    }
    for i in 0..wanted.len() {
        if wanted[i].next == wanted[i].points.len() {
            continue;
        }
        let at = wanted[i].points[wanted[i].next - 1] as usize;
        let target = wanted[i].points[wanted[i].next] as usize;
        for k in 0..dice.len() {
            if dice[..k].contains(&dice[k]) {
                continue;
            }
            let die = dice[k];
            if target != OFF && at < target + die {
                continue;
            }
            let p = play.position;
            let Some(to) = crate::moves::destination_of(&p, at, die) else { continue };
            let mut next = play;
            next.push_move(at, to);
            let reached = to == target;
            if reached {
                wanted[i].next += 1;
            } else {
                wanted[i].points[wanted[i].next - 1] = to as u8;
            }
            let d = dice.remove(k);
            search(next, dice, wanted, found);
            dice.insert(k, d);
            if reached {
                wanted[i].next -= 1;
            } else {
                wanted[i].points[wanted[i].next - 1] = at as u8;
            }
        }
    }
}

/// The legal play of `dice` from `position` that `text` names.
///
/// ```
/// use gammon_backgammon::{Dice, Position};
/// let p = Position::initial();
/// let play = p.parse_play(Dice::new(3, 1).unwrap(), "8/5 6/5").unwrap();
/// assert_eq!(play.notation(), "8/5 6/5");
/// assert!(p.parse_play(Dice::new(3, 1).unwrap(), "8/2").is_err());
/// ```
pub fn parse_play(position: &Position, dice: Dice, text: &str) -> Result<Play> {
    let legal = legal_plays(position, dice);
    let trimmed = text.trim();
    if trimmed.is_empty()
        || matches!(trimmed.to_ascii_lowercase().as_str(), "pass" | "-" | "none" | "cannot move")
    {
        return if legal[0].is_empty() {
            Ok(legal[0])
        } else {
            Err(Error::IllegalPlay(format!(
                "{} can be played from this position; an empty play is not legal",
                dice.to_text()
            )))
        };
    }
    let (mut wanted, stars) = parse_paths(trimmed)?;
    let mut dice_left: Vec<usize> = if dice.is_double() {
        vec![dice.high() as usize; 4]
    } else {
        vec![dice.high() as usize, dice.low() as usize]
    };
    let mut found = Vec::new();
    search(Play::none(*position), &mut dice_left, &mut wanted, &mut found);
    let mut matches: Vec<(Play, u32)> = Vec::new();
    for (reached, hits) in &found {
        if let Some(play) = legal.iter().find(|l| l.position == reached.position) {
            if !matches.iter().any(|(m, h)| m.position == play.position && h == hits) {
                matches.push((*play, *hits));
            }
        }
    }
    let distinct = |m: &[(Play, u32)]| {
        let mut v: Vec<Play> = m.iter().map(|x| x.0).collect();
        v.dedup_by(|a, b| a.position == b.position);
        v
    };
    let mut plays = distinct(&matches);
    if plays.len() > 1 {
        // `24/13` passes over 18 or 19: a star says which route hits; without one, the quiet route.
        let want =
            |h: u32| if stars > 0 { h == stars } else { h == matches.iter().map(|m| m.1).min().unwrap() };
        let filtered: Vec<(Play, u32)> = matches.iter().copied().filter(|m| want(m.1)).collect();
        plays = distinct(&filtered);
    }
    match plays.len() {
        1 => Ok(plays[0]),
        0 if found.is_empty() => Err(Error::IllegalPlay(format!(
            "{text:?} cannot be played with {} from this position",
            dice.to_text()
        ))),
        0 => {
            let used = legal[0].moves().len();
            Err(Error::IllegalPlay(format!(
                "{text:?} is not a legal play of {}: a legal play here uses {used} {} (e.g. {})",
                dice.to_text(),
                if used == 1 { "die" } else { "dice" },
                legal[0].notation()
            )))
        }
        _ => Err(Error::IllegalPlay(format!(
            "{text:?} is ambiguous for {}: it could mean {}",
            dice.to_text(),
            plays.iter().map(|p| p.notation()).collect::<Vec<_>>().join(" or ")
        ))),
    }
}

impl Play {
    /// Standard notation, e.g. `24/18 13/11*`, `bar/22`, `6/off`, `8/5(2)`.
    pub fn notation(&self) -> String {
        format_play(self)
    }
}

impl std::fmt::Display for Play {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.notation())
    }
}

impl std::fmt::Debug for Play {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Play({:?} -> {:?})", self.notation(), self.position)
    }
}

impl Position {
    /// The legal play of `dice` that `text` names in standard notation.
    pub fn parse_play(&self, dice: Dice, text: &str) -> Result<Play> {
        parse_play(self, dice, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pos;

    fn d(a: u8, b: u8) -> Dice {
        Dice::new(a, b).unwrap()
    }

    #[test]
    fn writes_standard_notation() {
        let p = Position::initial();
        let texts: Vec<String> = legal_plays(&p, d(6, 5)).iter().map(|pl| pl.notation()).collect();
        for want in ["24/13", "24/18 13/8", "13/8 13/7", "13/2", "8/3 8/2"] {
            assert!(texts.contains(&want.to_string()), "{want} not in {texts:?}");
        }
        let texts: Vec<String> = legal_plays(&p, d(3, 3)).iter().map(|pl| pl.notation()).collect();
        assert!(texts.contains(&"8/5(2) 6/3(2)".to_string()), "{texts:?}");
        assert!(texts.contains(&"24/18(2)".to_string()), "{texts:?}");
    }

    #[test]
    fn hits_bar_and_off() {
        // Bar entry hitting, then moving on.
        let p = pos!(25 => 1, 6 => 14, 19 => -1, 12 => -14);
        let plays = legal_plays(&p, d(6, 5));
        let texts: Vec<String> = plays.iter().map(|pl| pl.notation()).collect();
        assert!(texts.contains(&"bar/19*/14".to_string()), "{texts:?}");
        let q = pos!(2 => 1, 1 => 1, 19 => -1);
        let texts: Vec<String> = legal_plays(&q, d(6, 5)).iter().map(|pl| pl.notation()).collect();
        assert_eq!(texts, vec!["2/off 1/off"]);
    }

    #[test]
    fn reads_equivalent_spellings() {
        let p = Position::initial();
        let a = parse_play(&p, d(3, 3), "8/5 8/5 6/3 6/3").unwrap();
        let b = parse_play(&p, d(3, 3), "8/5(2), 6/3(2)").unwrap();
        assert_eq!(a, b);
        let c = parse_play(&p, d(6, 5), "24/13").unwrap();
        assert_eq!(c.notation(), "24/13");
        assert_eq!(parse_play(&p, d(6, 5), "24/18/13").unwrap(), c);
        assert_eq!(parse_play(&p, d(6, 5), "13/7 13/8").unwrap().notation(), "13/8 13/7");
        let q = pos!(25 => 1, 6 => 14, 19 => -1, 12 => -14);
        assert_eq!(
            parse_play(&q, d(6, 5), "25/19*/14").unwrap(),
            parse_play(&q, d(6, 5), "bar/19*/14").unwrap()
        );
        assert_ne!(
            parse_play(&q, d(6, 5), "bar/14").unwrap(),
            parse_play(&q, d(6, 5), "bar/19*/14").unwrap()
        );
    }

    #[test]
    fn refuses_illegal_or_malformed() {
        let p = Position::initial();
        for text in
            ["24/18", "24/12", "13/7 13/7", "1/3", "x/y", "24/18 13/8 6/1", "8/5(9)", "bar/20", "6/off"]
        {
            assert!(parse_play(&p, d(6, 5), text).is_err(), "{text}");
        }
        assert!(parse_play(&p, d(6, 5), "").is_err());
        let blocked = pos!(24 => 1, 18 => -2, 17 => -2);
        assert!(parse_play(&blocked, d(6, 6), "").unwrap().is_empty());
    }
}
