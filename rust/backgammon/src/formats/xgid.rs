//! XGID (eXtreme Gammon ID): `XGID=<26 board chars>:CV:CP:T:D:S1:S2:CJ:ML:MC`.
//!
//! The board is drawn from the bottom player's side: character 0 is the top player's bar,
//! characters 1..24 the points 1..24 of the bottom player, character 25 the bottom player's bar.
//! `A`..`O` count bottom-player checkers, `a`..`o` top-player checkers, `-` an empty point.

use crate::board::{Position, BAR, OPPONENT_BAR};
use gammon_core::error::{Error, Result};

/// Every field of an XGID, as written (the board already turned to the player on roll).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xgid {
    /// The position seen from the player on roll (the player in field T).
    pub position: Position,
    /// log2 of the cube value.
    pub cube_log2: u8,
    /// Cube position: 1 the bottom player owns it, 0 centred, -1 the top player owns it.
    pub cube_position: i8,
    /// 1 when the bottom player is on roll, -1 for the top player.
    pub turn: i8,
    /// `None` before rolling (`00`), `Some((d1, d2))` once rolled; see `doubled`.
    pub dice: Option<(u8, u8)>,
    /// The player in T has doubled and the other must take or drop (`D`).
    pub doubled: bool,
    /// The player in T doubled and the other beavered; T must take or drop (`B`, written by
    /// eXtreme Gammon; GNU Backgammon does not read it). The cube fields show the beavered cube.
    pub beavered: bool,
    /// Score of the bottom player.
    pub score_bottom: u32,
    /// Score of the top player.
    pub score_top: u32,
    /// Match play: 1 in the Crawford game. Money: Jacoby + 2 x beaver.
    pub crawford_jacoby: u8,
    /// Match length, 0 for money.
    pub match_length: u32,
    /// log2 of the maximum cube (not carried by GNU Backgammon).
    pub max_cube_log2: u8,
}

/// The 26 board characters with the player on roll as the bottom player.
pub fn encode_board(p: &Position) -> String {
    let b = p.board();
    let mut s = String::with_capacity(26);
    s.push(checker_char(b[OPPONENT_BAR]));
    for &n in &b[1..=24] {
        s.push(checker_char(n));
    }
    s.push(checker_char(b[BAR]));
    s
}

fn checker_char(n: i8) -> char {
    match n {
        0 => '-',
        n if n > 0 => (b'A' + n as u8 - 1) as char,
        n => (b'a' + (-n) as u8 - 1) as char,
    }
}

/// A full XGID for the position alone: the player on roll at the bottom, to roll, money, centred cube.
///
/// ```
/// use gammon_backgammon::Position;
/// assert_eq!(Position::initial().xgid(), "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10");
/// ```
pub fn encode_position(p: &Position) -> String {
    format!("XGID={}:0:0:1:00:0:0:0:0:10", encode_board(p))
}

fn decode_board(text: &str, whole: &str) -> Result<Position> {
    let bad = |why: String| Error::InvalidPosition(format!("invalid XGID {whole:?}: {why}"));
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 26 {
        return Err(bad(format!("the board part has {} characters; it needs 26", chars.len())));
    }
    let mut board = [0i8; 26];
    for (i, &c) in chars.iter().enumerate() {
        // gnubg accepts up to 16 (`P`/`p`); more than 15 fails the checker count below anyway.
        let n: i8 = match c {
            '-' => 0,
            'A'..='P' => (c as u8 - b'A' + 1) as i8,
            'a'..='p' => -((c as u8 - b'a' + 1) as i8),
            _ => return Err(bad(format!("character {i} is {c:?}; expected '-', A-O or a-o"))),
        };
        board[i] = n;
    }
    if board[0] > 0 {
        return Err(bad("character 0 is the top player's bar and must be '-' or a-o".into()));
    }
    if board[25] < 0 {
        return Err(bad("character 25 is the bottom player's bar and must be '-' or A-O".into()));
    }
    Position::from_board(board).map_err(|e| bad(e.message().to_string()))
}

/// Reads an XGID, with or without `XGID=`, or its 26-character board alone (bottom player on roll).
pub fn decode(text: &str) -> Result<Xgid> {
    let whole = text.trim();
    let body = whole.strip_prefix("XGID=").unwrap_or(whole);
    let fields: Vec<&str> = body.split(':').collect();
    let bad = |why: String| Error::InvalidPosition(format!("invalid XGID {whole:?}: {why}"));
    let bottom_view = decode_board(fields[0], whole)?;
    if fields.len() == 1 {
        return Ok(Xgid {
            position: bottom_view,
            cube_log2: 0,
            cube_position: 0,
            turn: 1,
            dice: None,
            doubled: false,
            beavered: false,
            score_bottom: 0,
            score_top: 0,
            crawford_jacoby: 0,
            match_length: 0,
            max_cube_log2: 10,
        });
    }
    if fields.len() != 10 {
        return Err(bad(format!("it has {} fields after the board; an XGID has 9", fields.len() - 1)));
    }
    // Numbers as XG writes them: no sign but a minus, no leading zeros, no "-0".
    let num = |i: usize, name: &str| -> Result<i64> {
        let f = fields[i];
        let digits = f.strip_prefix('-').unwrap_or(f);
        let canonical = !digits.is_empty()
            && digits.bytes().all(|c| c.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'))
            && f != "-0";
        let n = f.parse::<i64>().ok().filter(|_| canonical);
        n.ok_or_else(|| bad(format!("field {name} is {f:?}, not a number as XG writes it")))
    };
    let cube_log2 = num(1, "cube value")?;
    if !(0..=15).contains(&cube_log2) {
        return Err(bad(format!("cube value 2^{cube_log2} is out of range")));
    }
    let cube_position = num(2, "cube position")?;
    if !(-1..=1).contains(&cube_position) {
        return Err(bad(format!("cube position {cube_position} must be -1, 0 or 1")));
    }
    let turn = num(3, "turn")?;
    if turn != 1 && turn != -1 {
        return Err(bad(format!("turn {turn} must be 1 or -1")));
    }
    let (dice, doubled, beavered) = match fields[4] {
        "00" => (None, false, false),
        "D" => (None, true, false),
        "B" => (None, false, true),
        d if d.len() == 2 && d.chars().all(|c| ('1'..='6').contains(&c)) => {
            let b = d.as_bytes();
            (Some((b[0] - b'0', b[1] - b'0')), false, false)
        }
        d => return Err(bad(format!("dice field {d:?} must be 00, D, B or two digits 1-6"))),
    };
    let score_bottom = num(5, "bottom score")?;
    let score_top = num(6, "top score")?;
    let crawford_jacoby = num(7, "Crawford/Jacoby")?;
    let match_length = num(8, "match length")?;
    let max_cube_log2 = num(9, "max cube")?;
    if !(0..=3).contains(&crawford_jacoby) {
        return Err(bad(format!("Crawford/Jacoby field {crawford_jacoby} must be 0..3")));
    }
    if !(0..32768).contains(&match_length)
        || !(0..32768).contains(&score_bottom)
        || !(0..32768).contains(&score_top)
    {
        return Err(bad("match length and scores must be in 0..32767".into()));
    }
    if match_length > 0 && (score_bottom >= match_length || score_top >= match_length) {
        return Err(bad(format!(
            "score {score_bottom}-{score_top} is not below the match length {match_length}"
        )));
    }
    if !(0..=15).contains(&max_cube_log2) {
        return Err(bad(format!("max cube 2^{max_cube_log2} is out of range")));
    }
    // XG never writes a cube above the maximum it names, and raising the maximum to fit would
    // change the rules the ID states: refused.
    if cube_log2 > max_cube_log2 {
        return Err(bad(format!("cube 2^{cube_log2} is above the maximum cube 2^{max_cube_log2}")));
    }
    let position = if turn == 1 { bottom_view } else { bottom_view.swapped() };
    Ok(Xgid {
        position,
        cube_log2: cube_log2 as u8,
        cube_position: cube_position as i8,
        turn: turn as i8,
        dice,
        doubled,
        beavered,
        score_bottom: score_bottom as u32,
        score_top: score_top as u32,
        crawford_jacoby: crawford_jacoby as u8,
        match_length: match_length as u32,
        max_cube_log2: max_cube_log2 as u8,
    })
}

impl Position {
    /// Reads the position of an XGID (the full ID, with or without `XGID=`, or its 26-character
    /// board alone, which puts the bottom player on roll).
    pub fn from_xgid(text: &str) -> Result<Position> {
        Ok(decode(text)?.position)
    }

    /// A full XGID for this position: we are the bottom player, to roll, money, centred cube.
    pub fn xgid(&self) -> String {
        encode_position(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::position_id;

    #[test]
    fn vectors_agree_with_position_ids() {
        let cases = [
            ("XGID=-b----E-C---eE---c-e----B-:0:0:1:53:1:2:1:3:10", "4HPwATDgc/ABMA"),
            ("XGID=-bb---D-C---dD---c-d---BB-:0:0:1:00:0:0:0:0:10", "4Dl4ADbgOXgANg"),
            ("XGID=-a----E-CAA-fC---c-e----B-:0:0:1:44:0:0:3:0:10", "4HPwAyDgc8UBMA"),
            ("XGID=---BBBBBA----B--a-a-Bbcce-:0:0:1:00:0:0:3:0:10", "391IAABs24IBAw"),
            ("XGID=------EBC-b-eC---b-dbB----:0:0:1:63:4:3:0:11:10", "sGfwGQDg28EBBg"),
            ("XGID=-b---AD-CA--dD---bbe----B-:0:0:-1:31:0:4:0:7:10", "0HPhATDg2+ABMA"),
            ("XGID=--a---------b--A-A------A-:0:0:1:00:0:0:0:0:10", "ADAAAQAkIAAAAA"),
        ];
        for (xgid, id) in cases {
            let x = decode(xgid).unwrap();
            assert_eq!(position_id::encode(&x.position), id, "{xgid}");
        }
    }

    #[test]
    fn round_trip_and_errors() {
        let p = Position::initial();
        assert_eq!(decode(&encode_position(&p)).unwrap().position, p);
        assert_eq!(decode(&encode_board(&p)).unwrap().position, p);
        for bad in [
            "",
            "XGID=abc",
            "XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10",
            // Numbers XG would not write: a plus sign, "-0", a leading zero.
            "XGID=-b----E-C---eE---c-e----B-:0:0:+1:00:0:0:0:0:10",
            "XGID=-b----E-C---eE---c-e----B-:0:-0:1:00:0:0:0:0:10",
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:00:10",
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:70:0:0:0:0:10",
            "XGID=-b----E-C---eE---c-e----Bz",
            "XGID=-b----E-C---eE---c-e----B-:0:0:1",
        ] {
            assert!(decode(bad).is_err(), "{bad}");
        }
    }
}
