//! GNU Backgammon Position ID: 14 base64 characters for 80 bits of run-length checker counts.
//!
//! The player NOT on roll is encoded first (gnubg's behaviour, whatever its manual's prose says):
//! for each player, points 1..24 in that player's own numbering and then the bar, a `1` bit per
//! checker and a `0` bit to close each slot, packed least significant bit first.

use crate::board::{Position, BAR, CHECKERS, OPPONENT_BAR};
use base64::engine::general_purpose::STANDARD_NO_PAD;
use base64::Engine as _;
use gammon_core::error::{Error, Result};

/// Per player, 25 slot counts in that player's own numbering: index 0..24 = points 1..24, 24 = bar.
fn slots(p: &Position) -> [[u8; 25]; 2] {
    let b = p.board();
    let mut s = [[0u8; 25]; 2];
    for i in 1..=24 {
        // The opponent's own point i is our point 25 - i.
        s[0][i - 1] = (-b[25 - i]).max(0) as u8;
        s[1][i - 1] = b[i].max(0) as u8;
    }
    s[0][24] = (-b[OPPONENT_BAR]) as u8;
    s[1][24] = b[BAR] as u8;
    s
}

/// The 10-byte key of a position.
pub fn key(p: &Position) -> [u8; 10] {
    let mut key = [0u8; 10];
    let mut bit = 0usize;
    for player in slots(p) {
        for count in player {
            for _ in 0..count {
                key[bit / 8] |= 1 << (bit % 8);
                bit += 1;
            }
            bit += 1;
        }
    }
    key
}

/// The 14-character Position ID.
///
/// ```
/// use gammon_backgammon::Position;
/// assert_eq!(Position::initial().id(), "4HPwATDgc/ABMA");
/// ```
pub fn encode(p: &Position) -> String {
    STANDARD_NO_PAD.encode(key(p))
}

/// Reads a Position ID, checking every count.
pub fn decode(id: &str) -> Result<Position> {
    let bad = |why: &str| Error::InvalidPosition(format!("invalid Position ID {id:?}: {why}"));
    if id.len() != 14 {
        return Err(bad(&format!("it has {} characters; a Position ID has 14", id.chars().count())));
    }
    let bytes = STANDARD_NO_PAD.decode(id).map_err(|_| {
        bad("it is not base64 (A-Z a-z 0-9 + /), or its last character is not one of A Q g w")
    })?;
    let mut counts = [[0u8; 25]; 2];
    let (mut player, mut slot, mut ones) = (0usize, 0usize, 0u32);
    let mut bits_used = 0;
    'outer: for (k, byte) in bytes.iter().enumerate() {
        for b in 0..8 {
            let bit = byte >> b & 1;
            if bit == 1 {
                counts[player][slot] += 1;
                ones += 1;
                if ones > 30 {
                    return Err(bad("it holds more than 30 checkers"));
                }
            } else {
                slot += 1;
                if slot == 25 {
                    slot = 0;
                    player += 1;
                    if player == 2 {
                        bits_used = k * 8 + b + 1;
                        break 'outer;
                    }
                }
            }
        }
    }
    if player < 2 {
        return Err(bad("it ends before both players' 25 slots are closed"));
    }
    for bit in bits_used..80 {
        if bytes[bit / 8] >> (bit % 8) & 1 == 1 {
            return Err(bad("bits after the last slot are not zero"));
        }
    }
    for (who, c) in [("the player not on roll", &counts[0]), ("the player on roll", &counts[1])] {
        let total: u32 = c.iter().map(|&n| n as u32).sum();
        if total > CHECKERS as u32 {
            return Err(bad(&format!("{who} has {total} checkers; at most 15 are allowed")));
        }
    }
    let mut board = [0i8; 26];
    for i in 1..=24 {
        let (ours, theirs) = (counts[1][i - 1], counts[0][24 - i]);
        if ours > 0 && theirs > 0 {
            return Err(bad(&format!("point {i} (of the player on roll) holds checkers of both players")));
        }
        board[i] = ours as i8 - theirs as i8;
    }
    board[BAR] = counts[1][24] as i8;
    board[OPPONENT_BAR] = -(counts[0][24] as i8);
    Position::from_board(board).map_err(|e| bad(e.message()))
}

/// Shows the Position ID, which names the position exactly in one short word.
impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", encode(self))
    }
}

impl Position {
    /// Reads a GNU Backgammon Position ID (14 characters; the player not on roll is encoded first).
    pub fn from_id(id: &str) -> Result<Position> {
        decode(id)
    }

    /// The GNU Backgammon Position ID.
    pub fn id(&self) -> String {
        encode(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pos;

    #[test]
    fn manual_vectors() {
        assert_eq!(encode(&Position::initial()), "4HPwATDgc/ABMA");
        let key_hex: String = key(&Position::initial()).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(key_hex, "e073f00130e073f00130");
        // On roll: 6:5 7:2 8:3 13:3 21:2; opponent (own numbering): 5:2 6:4 8:2 13:5 15:2.
        let p = pos!(6 => 5, 7 => 2, 8 => 3, 13 => 3, 21 => 2,
                     20 => -2, 19 => -4, 17 => -2, 12 => -5, 10 => -2);
        assert_eq!(encode(&p), "sGfwGQDg28EBBg");
        assert_eq!(decode("sGfwGQDg28EBBg").unwrap(), p);
        // On roll: 6:5 7:2 8:2 13:4 24:2 ; opponent 5:1 6:4 8:3 9:1 13:4 24:2 (pips 160 / 162).
        let p = decode("0HPhATDg2+ABMA").unwrap();
        assert_eq!(p.pips(), (160, 162));
    }

    #[test]
    fn bar_and_off_vectors() {
        // On roll: 1:1 4:2 6:5 13:4 24:2 bar:1; opponent: 3:2 5:2 6:2 8:2 10:1 13:4 17:1 22:1.
        let p = pos!(1 => 1, 4 => 2, 6 => 5, 13 => 4, 24 => 2, 25 => 1,
                     22 => -2, 20 => -2, 19 => -2, 17 => -2, 15 => -1, 12 => -4, 8 => -1, 3 => -1);
        assert_eq!(encode(&p), "zGbiIQgxH/AAWA");
        let extreme = decode("/38AAAAAAAD/fw").unwrap();
        assert_eq!(extreme.at(25), 15);
        assert_eq!(extreme.at(24), -15);
        assert_eq!(decode("AAAAAAAAAAAAAA").unwrap().off(), (15, 15));
    }

    #[test]
    fn rejects_malformed() {
        for id in
            ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPwATDgc/AB!A", "4HPwATDgc/ABMB", "//////////////"]
        {
            assert!(decode(id).is_err(), "{id}");
        }
    }
}
