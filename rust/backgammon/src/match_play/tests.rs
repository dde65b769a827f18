use super::*;
use crate::game::{EndReason, ResultKind};

/// Plays the current game to its end by a resignation of `kind` by `loser`.
fn resign_game(m: &mut Match, loser: u8, kind: ResultKind) {
    let g = m.game_mut();
    if g.turn().is_none() {
        // The loser wins the opening roll, so that he is the one to act.
        if loser == 0 {
            g.set_dice(4, 2).unwrap();
        } else {
            g.set_dice(2, 4).unwrap();
        }
    }
    assert_eq!(g.to_act(), Some(loser));
    g.resign(kind).unwrap();
    g.accept_resignation().unwrap();
}

#[test]
fn a_match_through_crawford_and_post_crawford_games() {
    let mut m = Match::new(3, Some(8)).unwrap();
    assert_eq!((m.length(), m.score(), m.is_crawford_game(), m.is_over()), (3, [0, 0], false, false));
    assert!(m.next_game().is_err(), "the first game is not over");
    // Game 1: player 1 resigns a gammon: 2-0, player 0 reaches N-1.
    resign_game(&mut m, 1, ResultKind::Gammon);
    assert_eq!(m.score(), [2, 0]);
    m.next_game().unwrap();
    // Game 2 is the Crawford game: nobody may double.
    assert!(m.is_crawford_game() && !m.is_post_crawford());
    let g = m.game_mut();
    g.set_dice(2, 5).unwrap();
    g.play_text("13/8 13/11").unwrap();
    assert!(g.double().is_err());
    g.set_dice(3, 1).unwrap();
    g.play_text("8/5 6/5").unwrap();
    assert!(g.double().is_err());
    g.set_dice(6, 1).unwrap();
    g.play_text("13/7 8/7").unwrap();
    resign_game(&mut m, 0, ResultKind::Single);
    assert_eq!(m.score(), [2, 1]);
    m.next_game().unwrap();
    // Game 3 is post-Crawford: the trailer doubles, the leader's cube is dead.
    assert!(!m.is_crawford_game() && m.is_post_crawford());
    let g = m.game_mut();
    g.set_dice(5, 2).unwrap();
    g.play_text("13/8 13/11").unwrap();
    g.double().unwrap();
    g.drop().unwrap();
    assert_eq!(m.score(), [2, 2]);
    m.next_game().unwrap();
    assert!(!m.is_crawford_game() && m.is_post_crawford());
    let g = m.game_mut();
    g.set_dice(4, 1).unwrap();
    g.play_text("24/23 13/9").unwrap();
    // Game 4 at 2-2 (double match point): both cubes are dead.
    assert!(g.double().is_err());
    g.set_dice(6, 2).unwrap();
    g.play_text("24/18 13/11").unwrap();
    // Player 0 resigns a backgammon: three points, but only one more counts.
    resign_game(&mut m, 0, ResultKind::Backgammon);
    assert_eq!(m.game().points(), 3);
    assert_eq!((m.score(), m.is_over(), m.winner()), ([2, 3], true, Some(1)));
    assert_eq!(m.games().len(), 4);
    assert!(matches!(m.next_game(), Err(Error::IllegalAction(_))));
    assert_eq!(m.games().len(), 4, "a refused next_game adds nothing");
    let r = m.game().result().unwrap();
    assert_eq!(r.reason, EndReason::Resigned);
}

#[test]
fn money_sessions_never_end_and_keep_scores() {
    let mut m = Match::new(0, Some(2)).unwrap();
    for k in 0..5 {
        resign_game(&mut m, (k % 2) as u8, ResultKind::Gammon);
        assert!(!m.is_over() && m.winner().is_none() && !m.is_crawford_game());
        m.next_game().unwrap();
    }
    assert_eq!(m.score(), [4, 6]);
}

#[test]
fn a_one_point_match_has_no_crawford_game_and_a_dead_cube() {
    let mut m = Match::new(1, Some(2)).unwrap();
    assert!(!m.is_crawford_game());
    m.game_mut().set_dice(3, 1).unwrap();
    m.game_mut().play_text("8/5 6/5").unwrap();
    assert!(m.game_mut().double().is_err());
    assert!(Match::new(MAX_LENGTH + 1, None).is_err());
}

#[test]
fn rebuilt_from_ids() {
    // formats.md §3: the XGID and the GNU ID of the same 3-point match position (Crawford game).
    let x = Match::from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:53:1:2:1:3:10", Some(1)).unwrap();
    assert_eq!((x.length(), x.score(), x.is_crawford_game()), (3, [2, 1], true));
    assert_eq!(x.game().turn(), Some(1));
    let g = Match::from_gnubg_id("4HPwATDgc/ABMA:8IluACAACAAE", Some(1)).unwrap();
    assert_eq!((g.length(), g.score(), g.is_crawford_game()), (3, [2, 1], true));
    assert_eq!(g.game().dice(), x.game().dice());
    // Post-Crawford: a player at N-1 without the flag.
    let p = Match::from_gnubg_id("4HPwATDgc/ABMA:cIluACAACAAE", Some(1)).unwrap();
    assert!(p.is_post_crawford() && !p.is_crawford_game());
}
