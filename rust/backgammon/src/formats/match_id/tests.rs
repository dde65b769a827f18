use super::*;

/// The vectors of formats.md §2.2: id, cube, owner, on roll, Crawford, state, to act, doubled,
/// resignation, dice, length, scores, bit 66.
#[allow(clippy::type_complexity)]
const VECTORS: [(
    &str,
    u32,
    Option<u8>,
    u8,
    bool,
    GameState,
    u8,
    bool,
    u8,
    Option<(u8, u8)>,
    u32,
    [u32; 2],
    u8,
); 14] = [
    ("QYkqASAAIAAA", 2, Some(0), 1, false, GameState::Playing, 1, false, 0, Some((5, 2)), 9, [2, 4], 0),
    ("cAlvATAAIAAA", 1, None, 1, false, GameState::Playing, 1, false, 0, Some((6, 3)), 11, [3, 4], 0),
    ("MIHlAEAAAAAA", 1, None, 0, false, GameState::Playing, 0, false, 0, Some((3, 1)), 7, [4, 0], 0),
    ("cAkAAAAAAAAA", 1, None, 1, false, GameState::Playing, 1, false, 0, None, 0, [0, 0], 0),
    ("8IluACAACAAE", 1, None, 1, true, GameState::Playing, 1, false, 0, Some((5, 3)), 3, [2, 1], 1),
    ("8IhuACAACAAE", 1, None, 1, true, GameState::NoGame, 1, false, 0, Some((5, 3)), 3, [2, 1], 1),
    ("cAkAALAAMAAE", 1, None, 1, false, GameState::Playing, 1, false, 0, None, 0, [11, 6], 1),
    ("MAEAAAAAAAAA", 1, None, 0, false, GameState::Playing, 0, false, 0, None, 0, [0, 0], 0),
    ("MAEAAAAAAAAE", 1, None, 0, false, GameState::Playing, 0, false, 0, None, 0, [0, 0], 1),
    ("MBngAAAAAAAA", 1, None, 0, false, GameState::Playing, 1, true, 0, None, 7, [0, 0], 0),
    ("EgG7ABAAGAAA", 4, Some(1), 0, false, GameState::Playing, 0, false, 0, Some((6, 6)), 5, [1, 3], 0),
    ("8AmlAEAAEAAA", 1, None, 1, true, GameState::Playing, 1, false, 0, Some((2, 1)), 5, [4, 2], 0),
    ("AUkAAAAAAAAA", 2, Some(0), 0, false, GameState::Playing, 1, false, 2, None, 0, [0, 0], 0),
    ("cIkuA4ABwAAA", 1, None, 1, false, GameState::Playing, 1, false, 0, Some((5, 3)), 25, [24, 24], 0),
];

#[test]
fn formats_md_vectors_decode_and_encode() {
    for (id, cube, owner, on_roll, crawford, state, to_act, doubled, resign, dice, length, score, bit66) in
        VECTORS
    {
        let m = decode(id).unwrap();
        let want = MatchIdFields {
            cube_value: cube,
            cube_owner: owner,
            on_roll,
            crawford,
            state,
            to_act,
            doubled,
            resignation: resign,
            dice,
            length,
            score,
            jacoby: bit66 == 0,
        };
        assert_eq!(m, want, "{id}");
        assert_eq!(encode(&want), id);
    }
}

#[test]
fn manual_key_bytes() {
    let m = decode("QYkqASAAIAAA").unwrap();
    assert_eq!(key(&m), [0x41, 0x89, 0x2A, 0x01, 0x20, 0x00, 0x20, 0x00, 0x00]);
}

#[test]
fn rejects_malformed_ids() {
    let mut over_length = decode("QYkqASAAIAAA").unwrap();
    over_length.score = [10, 4];
    let mut crawford_money = decode("cAkAAAAAAAAA").unwrap();
    crawford_money.crawford = true;
    let mut seven = decode("QYkqASAAIAAA").unwrap();
    seven.dice = Some((7, 2));
    for id in
        ["", "QYkqASAAIAA", "QYkqASAAIAAAA", "QYkqASAA!AAA", &encode(&over_length), &encode(&crawford_money)]
    {
        assert!(decode(id).is_err(), "{id}");
    }
    assert!(decode(&encode(&seven)).is_err());
}

#[test]
fn undefined_cube_owner_code_is_refused() {
    let e = decode("IQGgAAAAAAAE").unwrap_err().to_string();
    assert!(e.contains("cube owner code 2"), "{e}");
}
