//! GNU Backgammon Match ID: 12 base64 characters for a 72-bit key of the match and cube state.
//!
//! Fields, each least significant bit first from the bit offset shown: 0 log2 cube (4), 4 cube
//! owner (2: 0, 1, 3 = centred), 6 player on roll (1), 7 Crawford game (1), 8 game state (3),
//! 11 player to act (1), 12 double offered (1), 13 resignation offered (2), 15 die 1 (3),
//! 18 die 2 (3), 21 match length (15), 36 score 0 (15), 51 score 1 (15), 66 NOT Jacoby (1).

use base64::engine::general_purpose::STANDARD_NO_PAD;
use base64::Engine as _;
use gammon_core::error::{Error, Result};

/// The state of the game as a Match ID stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameState {
    /// No game is being played (before the first one, or between games).
    NoGame = 0,
    /// A game is in progress.
    Playing = 1,
    /// The game was played to the end.
    Over = 2,
    /// The game ended by an accepted resignation.
    Resigned = 3,
    /// The game ended by a dropped double.
    Dropped = 4,
}

impl GameState {
    fn from_code(code: u64) -> Option<GameState> {
        Some(match code {
            0 => GameState::NoGame,
            1 => GameState::Playing,
            2 => GameState::Over,
            3 => GameState::Resigned,
            4 => GameState::Dropped,
            _ => return None,
        })
    }
}

/// Every field of a Match ID, with players 0 and 1 as GNU Backgammon labels them.
///
/// ```
/// use gammon_backgammon::formats::match_id::{decode, encode};
/// let m = decode("QYkqASAAIAAA").unwrap();
/// assert_eq!((m.cube_value, m.cube_owner, m.dice, m.length, m.score), (2, Some(0), Some((5, 2)), 9, [2, 4]));
/// assert_eq!(encode(&m), "QYkqASAAIAAA");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchIdFields {
    /// The cube value (a power of two).
    pub cube_value: u32,
    /// Who owns the cube, `None` when centred.
    pub cube_owner: Option<u8>,
    /// The player on roll, or who rolled (gnubg's `fMove`); the Position ID is seen from him.
    pub on_roll: u8,
    /// This game is the Crawford game.
    pub crawford: bool,
    /// No game, playing, or how the game ended.
    pub state: GameState,
    /// The player who must act now (gnubg's `fTurn`).
    pub to_act: u8,
    /// A double awaits an answer.
    pub doubled: bool,
    /// A resignation awaits an answer: 0 none, 1 single, 2 gammon, 3 backgammon.
    pub resignation: u8,
    /// The dice rolled and not yet played, as stored (gnubg writes them in the order thrown).
    pub dice: Option<(u8, u8)>,
    /// Match length, 0 for money.
    pub length: u32,
    /// Scores of players 0 and 1.
    pub score: [u32; 2],
    /// The Jacoby rule is on (stored inverted in bit 66).
    pub jacoby: bool,
}

fn put(key: &mut [u8; 9], offset: usize, width: usize, value: u64) {
    for b in 0..width {
        if value >> b & 1 == 1 {
            let bit = offset + b;
            key[bit / 8] |= 1 << (bit % 8);
        }
    }
}

fn get(key: &[u8], offset: usize, width: usize) -> u64 {
    (0..width).fold(0, |acc, b| {
        let bit = offset + b;
        acc | (((key[bit / 8] >> (bit % 8)) & 1) as u64) << b
    })
}

/// The 9-byte key of a Match ID.
pub fn key(m: &MatchIdFields) -> [u8; 9] {
    let mut key = [0u8; 9];
    put(&mut key, 0, 4, m.cube_value.trailing_zeros() as u64);
    put(&mut key, 4, 2, m.cube_owner.map_or(3, |o| o as u64));
    put(&mut key, 6, 1, m.on_roll as u64);
    put(&mut key, 7, 1, m.crawford as u64);
    put(&mut key, 8, 3, m.state as u64);
    put(&mut key, 11, 1, m.to_act as u64);
    put(&mut key, 12, 1, m.doubled as u64);
    put(&mut key, 13, 2, m.resignation as u64);
    let (d1, d2) = m.dice.unwrap_or((0, 0));
    put(&mut key, 15, 3, d1 as u64);
    put(&mut key, 18, 3, d2 as u64);
    put(&mut key, 21, 15, m.length as u64);
    put(&mut key, 36, 15, m.score[0] as u64);
    put(&mut key, 51, 15, m.score[1] as u64);
    put(&mut key, 66, 1, !m.jacoby as u64);
    key
}

/// The 12-character Match ID.
pub fn encode(m: &MatchIdFields) -> String {
    STANDARD_NO_PAD.encode(key(m))
}

/// Reads a Match ID, with the checks GNU Backgammon makes (dice 0..6, no Crawford flag in money
/// play) plus a few of ours: a cube value up to 2^15, both dice or none, the unused bits 67-71
/// zero, and both scores below the length while a game is in play (a finished game's scores
/// include its points, so they may reach or pass it).
pub fn decode(id: &str) -> Result<MatchIdFields> {
    let bad = |why: String| Error::InvalidFormat(format!("invalid Match ID {id:?}: {why}"));
    let id = id.trim();
    if id.len() != 12 {
        return Err(bad(format!("it has {} characters; a Match ID has 12", id.chars().count())));
    }
    let key = STANDARD_NO_PAD.decode(id).map_err(|_| bad("it is not base64 (A-Z a-z 0-9 + /)".into()))?;
    // GNU Backgammon ignores bits 67..71 and always writes them as 0; an ID with any of them set
    // was not written by it, and reading it as if they were 0 would not be exact: refused.
    if get(&key, 67, 5) != 0 {
        return Err(bad("its unused bits 67-71 (the end of the last character) are not all zero".into()));
    }
    let cube_log2 = get(&key, 0, 4);
    if cube_log2 > 15 {
        return Err(bad(format!("cube 2^{cube_log2} is out of range")));
    }
    let cube_owner = match get(&key, 4, 2) {
        0 => Some(0),
        1 => Some(1),
        3 => None,
        code => return Err(bad(format!("cube owner code {code} is undefined (0, 1 or 3 = centred)"))),
    };
    let state = GameState::from_code(get(&key, 8, 3))
        .ok_or_else(|| bad(format!("game state {} is not 0-4", get(&key, 8, 3))))?;
    let (d1, d2) = (get(&key, 15, 3) as u8, get(&key, 18, 3) as u8);
    if d1 > 6 || d2 > 6 || (d1 == 0) != (d2 == 0) {
        return Err(bad(format!("dice {d1}-{d2} must both be 1-6, or both 0 (not rolled)")));
    }
    let length = get(&key, 21, 15) as u32;
    let score = [get(&key, 36, 15) as u32, get(&key, 51, 15) as u32];
    let playing = matches!(state, GameState::NoGame | GameState::Playing);
    // A game is played only while both scores are below the length (the XGID reader agrees); a
    // finished game's points are already added to the scores, even past the length.
    if length > 0 && playing && (score[0] >= length || score[1] >= length) {
        return Err(bad(format!(
            "score {}-{} is not below the match length {length}, so no game can be in play",
            score[0], score[1]
        )));
    }
    let crawford = get(&key, 7, 1) == 1;
    if length == 0 && crawford {
        return Err(bad("a money game cannot be the Crawford game".into()));
    }
    Ok(MatchIdFields {
        cube_value: 1 << cube_log2,
        cube_owner,
        on_roll: get(&key, 6, 1) as u8,
        crawford,
        state,
        to_act: get(&key, 11, 1) as u8,
        doubled: get(&key, 12, 1) == 1,
        resignation: get(&key, 13, 2) as u8,
        dice: (d1 != 0).then_some((d1, d2)),
        length,
        score,
        jacoby: get(&key, 66, 1) == 0,
    })
}

#[cfg(test)]
mod tests;
