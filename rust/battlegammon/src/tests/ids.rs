//! The list form, the ID, validation and the drawing.

use super::*;
use gammon_core::error::Error;

/// The setup table of the rules, written out by hand.
const INITIAL_ID: &str = "b:wwwww////w///ww/ww///////b///bb/bb////bbbbb";

#[test]
fn the_initial_position_matches_the_setup_table() {
    let p = Position::initial();
    let mut expected = vec![""; 24];
    for (field, tokens) in
        [(1, "wwwww"), (5, "w"), (8, "ww"), (9, "ww"), (16, "b"), (19, "bb"), (20, "bb"), (24, "bbbbb")]
    {
        expected[field - 1] = tokens;
    }
    assert_eq!(p.to_list(), expected);
    assert_eq!(p.id(), INITIAL_ID);
    assert_eq!(Position::from_id(INITIAL_ID).unwrap(), p);
    assert_eq!(Position::from_id(&INITIAL_ID.to_uppercase()).unwrap(), p);
}

#[test]
fn stacks_are_listed_bottom_to_top_and_start_fields_owner_first() {
    let p =
        board(Side::Black, &[(1, "wwwwwbb"), (6, "wb"), (7, "bw"), (13, "w"), (24, "bbbbbww"), (20, "b")]);
    let list = p.to_list();
    assert_eq!((list[0].as_str(), list[5].as_str(), list[6].as_str()), ("wwwwwbb", "wb", "bw"));
    assert_eq!(p.stack(6).pinned(), Some(Side::White));
    assert_eq!(p.stack(7).top(), Some(Side::White));
    assert_eq!((p.at_start(Side::White), p.in_goal(Side::Black)), (5, 2));
    assert_eq!(Position::from_id(&p.id()).unwrap(), p);
    assert!(p.id().starts_with("b:"));
}

#[test]
fn bad_positions_are_refused_with_a_reason() {
    let refused = |id: &str| match Position::from_id(id) {
        Err(Error::InvalidPosition(message)) => message,
        other => panic!("{id} gave {other:?}"),
    };
    // Eleven White tokens (one extra on 2).
    assert!(refused("b:wwwww/w///w///ww/ww///////b///bb/bb////bbbbb").contains("11 tokens"));
    // Three tokens on field 8.
    assert!(refused("b:wwww////w///www/ww///////b///bb/bb////bbbbb").contains("at most 2"));
    // A finished Black token listed before White's own on field 1.
    assert!(refused("w:bwwww////w///ww/ww///////b///bb/bb////bbbb").contains("first"));
    // Four White tokens in the goal: the third one ended the game.
    assert!(refused("b:ww///////ww/ww///////b///bb/bb////bbbbbwwww").contains("4 tokens"));
    assert!(refused("x:wwwww////w///ww/ww///////b///bb/bb////bbbbb").contains("side to move"));
    assert!(refused("wwwww////w///ww/ww///////b///bb/bb////bbbbb").contains("':'"));
    assert!(refused("b:wwwww////w///ww/ww///////b///bb/bb///bbbbb").contains("24 fields"));
    assert!(refused("b:wwwww////w///wx/ww///////b///bb/bb////bbbbb").contains("'x'"));
    assert!(Position::from_list(&["w"; 3], Side::White).is_err());
}

#[test]
fn the_drawing_follows_the_serpentine_track() {
    let text = Position::initial().to_string();
    let rows: Vec<Vec<String>> =
        text.lines().map(|l| l.split_whitespace().map(String::from).collect()).collect();
    // Numbers: top 8..1 (right to left), middle 9..16, then 17, then 24..18.
    assert_eq!(rows[1], ["8", "7", "6", "5", "4", "3", "2", "[1]"]);
    assert_eq!(rows[2], ["ww", ".", ".", "w", ".", ".", ".", "5w"]);
    assert_eq!(rows[3], ["9", "10", "11", "12", "13", "14", "15", "16"]);
    assert_eq!(rows[4], ["ww", ".", ".", ".", ".", ".", ".", "b"]);
    assert_eq!(rows[5], ["17"]);
    assert_eq!(rows[7], ["[24]", "23", "22", "21", "20", "19", "18"]);
    assert_eq!(rows[8], ["5b", ".", ".", ".", "bb", "bb", "."]);
}
