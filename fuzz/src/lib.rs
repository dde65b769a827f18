//! The properties the fuzz targets check, one function per reader, each taking the raw input.
//!
//! Every check holds two properties: the reader never panics, whatever the bytes; and what it
//! accepts round-trips (written back out, the text reads again to the same thing). A broken
//! property panics, which the fuzzer records as a crash. The binaries in `src/bin` hand the
//! fuzzer's bytes to these functions; `tests/corpus.rs` runs the seed corpus through them.

use gammon_backgammon::formats::{match_id, xgid};
use gammon_backgammon::{read_position, Dice, EndReason, Game, Match, Position, ALL_ROLLS};

/// The input as text, or `None` when it is not UTF-8 (the readers take `&str`).
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// GNU Backgammon Position ID: an accepted ID re-encodes to one that decodes to the same position.
pub fn position_id(data: &[u8]) {
    let Some(s) = text(data) else { return };
    if let Ok(p) = Position::from_id(s) {
        let id = p.id();
        let again = Position::from_id(&id).unwrap_or_else(|e| panic!("{s:?} read, its ID {id:?} not: {e}"));
        assert!(again == p, "{s:?} and its re-encoding {id:?} read to different positions");
        assert_eq!(again.id(), id, "{s:?}: the ID is not stable");
    }
}

/// GNU Backgammon Match ID: accepted fields encode to an ID that decodes to the same fields.
pub fn match_id(data: &[u8]) {
    let Some(s) = text(data) else { return };
    if let Ok(m) = match_id::decode(s) {
        let id = match_id::encode(&m);
        let again = match_id::decode(&id).unwrap_or_else(|e| panic!("{s:?} read, its ID {id:?} not: {e}"));
        assert_eq!(again, m, "{s:?} and its re-encoding {id:?} read differently");
    }
}

/// The text reader of positions (IDs, `PositionID:MatchID`, XGIDs, names): what it accepts
/// reads again from the position's own ID, and a match state from its own `PositionID:MatchID`
/// and XGID, each written back the same.
pub fn reader(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let Ok(r) = read_position(s) else { return };
    let id = r.position.id();
    let again =
        read_position(&id).unwrap_or_else(|e| panic!("{s:?} read, its position's ID {id:?} not: {e}"));
    assert!(again.position == r.position, "{s:?}: its position's ID {id:?} reads to another position");
    if let Some(m) = &r.match_state {
        let gnubg = m.gnubg_id();
        let back = read_position(&gnubg).unwrap_or_else(|e| panic!("{s:?} read, its {gnubg:?} not: {e}"));
        let back_match = back.match_state.unwrap_or_else(|| panic!("{s:?}: {gnubg:?} reads without a match"));
        assert_eq!(back_match.gnubg_id(), gnubg, "{s:?}: PositionID:MatchID is not stable");
        assert!(back.position == r.position, "{s:?}: {gnubg:?} reads to another position");
        // An XGID has no game state: a game ended by a drop or a resignation writes as its board.
        if m.game().result().is_some_and(|r| r.reason != EndReason::BorneOff) {
            return;
        }
        let x = m.game().xgid();
        let back = read_position(&x).unwrap_or_else(|e| panic!("{s:?} read, its XGID {x:?} not: {e}"));
        let back_match = back.match_state.unwrap_or_else(|| panic!("{s:?}: {x:?} reads without a match"));
        assert_eq!(back_match.game().xgid(), x, "{s:?}: the XGID is not stable");
    }
}

/// XGID: an accepted XGID's position re-encodes to one that reads to the same position, and the
/// game it describes writes an XGID that reads back to the same XGID.
pub fn xgid(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let Ok(x) = xgid::decode(s) else { return };
    let board = x.position.xgid();
    let again =
        Position::from_xgid(&board).unwrap_or_else(|e| panic!("{s:?} read, its board {board:?} not: {e}"));
    assert!(again == x.position, "{s:?}: its board {board:?} reads to another position");
    if let Ok(g) = Game::from_xgid(s, Some(0)) {
        let written = g.xgid();
        let back =
            Game::from_xgid(&written, Some(0)).unwrap_or_else(|e| panic!("{s:?} read, {written:?} not: {e}"));
        assert_eq!(back.xgid(), written, "{s:?}: the game's XGID is not stable");
        assert!(back.position() == g.position(), "{s:?}: {written:?} reads to another position");
    }
}

/// Positions the play target moves from: the start, a contact middle game, checkers on the
/// bar against a closed board, a bear-off.
pub const PLAY_POSITIONS: [&str; 5] =
    ["4HPwATDgc/ABMA", "0HPwASTgc/ABMA", "++8AAAjNNgMgcA", "+54BIEDb7g0AAA", "+fgJEQA/AAAAAA"];

/// Play notation: the first byte picks a position and a roll, the rest is the play's text. An
/// accepted play is written in standard notation, which reads back to the same play.
pub fn play(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Some(s) = text(rest) else { return };
    let n = PLAY_POSITIONS.len();
    let position =
        Position::from_id(PLAY_POSITIONS[pick as usize % n]).expect("the play positions are valid IDs");
    let dice: Dice = ALL_ROLLS[(pick as usize / n) % ALL_ROLLS.len()];
    let Ok(play) = position.parse_play(dice, s) else { return };
    let written = play.notation();
    let again = position
        .parse_play(dice, &written)
        .unwrap_or_else(|e| panic!("{s:?} read with {dice:?}, its notation {written:?} not: {e}"));
    assert!(again.position == play.position, "{s:?}: {written:?} reads to another play");
    assert_eq!(again.notation(), written, "{s:?}: the notation is not stable");
}

/// Jellyfish `.mat`: an accepted match is written out, and that text reads to a match written
/// the same again (same games, same plays, same cube actions).
pub fn mat(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let Ok(m) = Match::from_mat(s) else { return };
    let written = m.to_mat().unwrap_or_else(|e| panic!("{s:?} read as a match that cannot be written: {e}"));
    let back =
        Match::from_mat(&written).unwrap_or_else(|e| panic!("{s:?} read, its rewrite {written:?} not: {e}"));
    let again =
        back.to_mat().unwrap_or_else(|e| panic!("{s:?}: its rewrite reads but cannot be written: {e}"));
    assert_eq!(again, written, "{s:?}: the .mat rewrite is not stable");
}

/// GNU Backgammon `.sgf`: an accepted file is a match that can be written as `.sgf`, whose text
/// reads back to a match written the same.
pub fn sgf(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let Ok(m) = Match::from_sgf(s) else { return };
    let written = m.to_sgf().unwrap_or_else(|e| panic!("{s:?} read as a match that cannot be written: {e}"));
    let back =
        Match::from_sgf(&written).unwrap_or_else(|e| panic!("{s:?} read, its rewrite {written:?} not: {e}"));
    let again =
        back.to_sgf().unwrap_or_else(|e| panic!("{s:?}: its rewrite reads but cannot be written: {e}"));
    assert_eq!(again, written, "{s:?}: the .sgf rewrite is not stable");
}

/// Battlegammon IDs: an accepted position's ID reads to the same position.
pub fn battlegammon(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let Ok(p) = gammon_battlegammon::read_position(s) else { return };
    let id = p.id();
    let again = gammon_battlegammon::Position::from_id(&id)
        .unwrap_or_else(|e| panic!("{s:?} read, its ID {id:?} not: {e}"));
    assert!(again == p, "{s:?}: its ID {id:?} reads to another position");
    assert_eq!(again.id(), id, "{s:?}: the ID is not stable");
}

/// A check: the property of one reader, given the fuzzer's bytes.
pub type Check = fn(&[u8]);

/// Every target by name, as `src/bin` names them, for the seed test.
pub const TARGETS: [(&str, Check); 8] = [
    ("position_id", position_id),
    ("match_id", match_id),
    ("reader", reader),
    ("xgid", xgid),
    ("play", play),
    ("mat", mat),
    ("sgf", sgf),
    ("battlegammon", battlegammon),
];

/// The HTTP server's JSON request bodies (feature `server`): the first byte picks the request
/// type, the rest is the body. Whatever deserialises has its position, dice and depth read as the
/// handlers read them, without a panic. (The request types are only read, never written, so
/// there is no round trip to check.)
#[cfg(feature = "server")]
pub fn server_json(data: &[u8]) {
    use gammon_server::battlegammon::BattlegammonRequest;
    use gammon_server::cube::CubeRequest;
    use gammon_server::evaluate::EvaluateRequest;
    use gammon_server::input::{self, PositionInput};
    use gammon_server::plays::PlaysRequest;
    use gammon_server::rollout::RolloutRequest;

    fn read(position: &PositionInput) {
        let _ = position.read();
    }
    let Some((&pick, body)) = data.split_first() else { return };
    match pick % 5 {
        0 => {
            if let Ok(r) = serde_json::from_slice::<PlaysRequest>(body) {
                if let Ok(read) = r.position.read() {
                    let _ = input::roll(r.dice.as_ref(), &read);
                }
                let _ = input::ply(r.ply, 1);
            }
        }
        1 => {
            if let Ok(r) = serde_json::from_slice::<EvaluateRequest>(body) {
                read(&r.position);
            }
        }
        2 => {
            if let Ok(r) = serde_json::from_slice::<CubeRequest>(body) {
                read(&r.position);
            }
        }
        3 => {
            if let Ok(r) = serde_json::from_slice::<RolloutRequest>(body) {
                read(&r.position);
            }
        }
        _ => {
            if let Ok(r) = serde_json::from_slice::<BattlegammonRequest>(body) {
                let _ = gammon_battlegammon::read_position(&r.position);
                let _ = r.dice.read();
            }
        }
    }
}
