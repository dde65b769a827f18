//! Finished games and the IDs refused, against what GNU Backgammon 1.07.001 writes and reads.
//!
//! The finished-game IDs below were written by `gnubg -t` (Debian's 1.07.001): a match started with
//! `new match N`, both players human, the state set with `set gnubgid`, then `resign` / `accept`,
//! `double` / `drop`, or `set dice` and a bearing-off `move`, and the ID read with
//! `gnubg.positionid()` and `gnubg.matchid()`; what each line says happened is what gnubg printed.

use super::*;
use crate::formats::reader::read_position;
use crate::Match;

/// `(id, winner, points, reason, kind, scores before the game)`.
#[allow(clippy::type_complexity)]
const FINISHED: [(&str, u8, u32, EndReason, ResultKind, [u32; 2]); 7] = [
    // 5-point match, 0-0: player 1 ("root") doubled, player 0 dropped: "root wins 1 point".
    ("4HPwATDgc/ABMA:cASgAAAACAAE", 1, 1, EndReason::Dropped, ResultKind::Single, [0, 0]),
    // 5-point match, 0-0: player 1 bore off his last checker: "root wins a gammon and 2 points".
    ("AAAAwP8fAAAAAA:MAKgAAAAEAAE", 1, 2, EndReason::BorneOff, ResultKind::Gammon, [0, 0]),
    // 3-point match, 1-1: player 1 bears off, a gammon: 1-3, "root has won the match".
    ("AAAA/v8AAAAAAA:MAJgABAAGAAE", 1, 2, EndReason::BorneOff, ResultKind::Gammon, [1, 1]),
    // 3-point match, 0-1, cube 2 owned by player 0, who bears off a gammon: 4 points, 4-1.
    ("AAAAAPD/BwAAAA:QQpgAEAACAAE", 0, 4, EndReason::BorneOff, ResultKind::Gammon, [0, 1]),
    // 7-point match, 0-0: player 1 resigned a gammon, player 0 accepted: 2 points.
    ("4HPwATDgc/ABMA:cEPgACAAAAAE", 0, 2, EndReason::Resigned, ResultKind::Gammon, [0, 0]),
    // 3-point match, 1-0: player 1 resigned, 2-0: the Crawford flag is set for the next game.
    ("4HPwATDgc/ABMA:8CNgACAAAAAE", 0, 1, EndReason::Resigned, ResultKind::Single, [1, 0]),
    // 3-point match, the Crawford game at 2-0: player 0 resigned, 2-1: "post-Crawford play".
    ("4HPwATDgc/ABMA:MCtgACAACAAE", 1, 1, EndReason::Resigned, ResultKind::Single, [2, 0]),
];

#[test]
fn finished_games_read_as_gnubg_writes_them_and_write_the_same_ids() {
    for (id, winner, points, reason, kind, before) in FINISHED {
        let g = Game::from_gnubg_id(id, Some(0)).unwrap();
        let r = g.result().unwrap_or_else(|| panic!("{id}: not over"));
        assert_eq!((r.winner, r.points, r.reason, r.kind), (winner, points, reason, kind), "{id}");
        assert_eq!(g.context().score, before, "{id}");
        assert_eq!(g.gnubg_id(), id, "{id}: written back differently");
        // An XGID has no game state: only a game won by bearing off shows as over in it, by its
        // board, with the scores before the game.
        if reason != EndReason::BorneOff {
            continue;
        }
        let x = Game::from_xgid(&g.xgid(), Some(0)).unwrap();
        assert_eq!(x.result(), g.result(), "{id}: its XGID {}", g.xgid());
        assert_eq!(x.gnubg_id(), id, "{id}: its XGID {} reads to another game", g.xgid());
    }
}

#[test]
fn a_resigned_game_keeps_no_dice() {
    // gnubg keeps the dice rolled before a resignation: player 1 rolled 6-3 and resigned a
    // single game in a 3-point match. The game reads; its own ID has no dice.
    let g = Game::from_gnubg_id("4HPwATDgc/ABMA:cCNvABAAAAAE", Some(0)).unwrap();
    assert_eq!((g.winner(), g.points(), g.context().score), (Some(0), 1, [0, 0]));
    assert_eq!(g.match_id_fields().dice, None);
}

#[test]
fn the_match_goes_on_after_a_finished_game_it_reads() {
    let mut m = Match::from_gnubg_id("4HPwATDgc/ABMA:8CNgACAAAAAE", Some(0)).unwrap();
    assert_eq!((m.score(), m.is_over()), ([2, 0], false));
    m.next_game().unwrap();
    assert!(m.is_crawford_game());
    let mut m = Match::from_gnubg_id("4HPwATDgc/ABMA:MCtgACAACAAE", Some(0)).unwrap();
    m.next_game().unwrap();
    assert!(!m.is_crawford_game() && m.is_post_crawford());
    let m = Match::from_gnubg_id("AAAAAPD/BwAAAA:QQpgAEAACAAE", Some(0)).unwrap();
    assert_eq!((m.score(), m.winner()), ([3, 1], Some(0)));
}

#[test]
fn an_xgid_with_a_side_borne_off_is_a_finished_game() {
    // The bottom player (on roll) has borne off; the top player still has 15 checkers on his
    // 7-point, so it is a gammon (cube 2: 4 points). The turn goes to the loser, as after the winning play.
    let g = Game::from_xgid("XGID=------------------o-------:1:0:1:00:0:0:0:7:10", Some(0)).unwrap();
    let r = g.result().unwrap();
    assert_eq!((r.winner, r.kind, r.points, r.reason), (1, ResultKind::Gammon, 4, EndReason::BorneOff));
    assert_eq!(g.turn(), Some(0));
    let read = read_position(&g.xgid()).unwrap();
    assert_eq!(read.game().and_then(Game::result), Some(r));
    for bad in [
        // Dice to play, or a double to answer, once the game is over.
        "XGID=------------------o-------:1:0:1:31:0:0:0:7:10",
        "XGID=------------------o-------:1:0:1:D:0:0:0:7:10",
        // Both sides borne off.
        "XGID=--------------------------:0:0:1:00:0:0:0:0:10",
    ] {
        assert!(Game::from_xgid(bad, None).is_err(), "{bad}");
    }
}

fn refusal(text: &str) -> String {
    match read_position(text) {
        Ok(_) => panic!("{text} was read"),
        Err(e) => e.message().to_string(),
    }
}

#[test]
fn inconsistent_finished_games_are_refused() {
    for (id, words) in [
        // Borne off, but nobody has 15 checkers off.
        ("4HPwATDgc/ABMA:MAKgAAAAEAAE", "not 15"),
        // Resigned, but no resignation kind.
        ("4HPwATDgc/ABMA:cAPgACAAAAAE", "none is recorded"),
        // The winner's score is below the points won.
        ("AAAAwP8fAAAAAA:MAKgAAAAAAAE", "only 0"),
        // 2-0 in 3 after a 1-point win from 1-0: the next game is the Crawford game, flag unset.
        ("4HPwATDgc/ABMA:cCNgACAAAAAE", "Crawford flag"),
    ] {
        let m = refusal(id);
        assert!(m.contains(words), "{id}: {m}");
    }
}

#[test]
fn ids_gnubg_reads_loosely_are_refused() {
    for (text, words) in [
        // The unused bits 67-71: gnubg ignores them and reads cAlvAAAAAAAE.
        ("4HPwATDgc/ABMA:cAlvAAAAAAAc", "unused bits"),
        // A game in play at 1-0 in a 1-point match: gnubg reads it; the XGID reader and we don't.
        ("/wIAAKQrAAAAAA:MIEuABAAAAAE", "not below the match length"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:1:0:0:1:10", "not below the match length"),
        // A cube above the XGID's maximum: gnubg ignores the maximum and sets the cube to 8.
        ("XGID=-b----E-C---eE---c-e----B-:3:0:1:00:0:0:0:0:2", "above the maximum"),
        // A cube of 4 in the Crawford game: gnubg says "The cube is disabled during the Crawford
        // game" and reads the cube as 1.
        ("XGID=-b----E-C---eE---c-e----B-:2:0:1:00:1:2:1:3:10", "Crawford game"),
        // A cube of 2, centred, in the Crawford game, as a Match ID.
        ("4HPwATDgc/ABMA:8QlgACAAAAAE", "Crawford game"),
    ] {
        let m = refusal(text);
        assert!(m.contains(words), "{text}: {m}");
    }
}

#[test]
fn a_game_over_is_read_but_not_evaluated_played_or_rolled_out() {
    use gammon_core::dice::Dice;
    for text in ["AAAAAAAAAAAAAA", "4HPwATDgc/ABMA:cASgAAAACAAE", "AAAAwP8fAAAAAA:MAKgAAAAEAAE"] {
        let read = read_position(text).unwrap();
        for e in [
            read.on_roll().unwrap_err(),
            read.with_dice(Dice::new(3, 1).unwrap()).unwrap_err(),
            read.rollout_start().unwrap_err(),
        ] {
            assert!(e.message().contains("the game is over"), "{text}: {}", e.message());
        }
    }
}
