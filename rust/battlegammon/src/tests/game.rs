//! The game state machine: dice, refused actions, history.

use super::*;
use crate::{Game, Rules};
use gammon_core::error::Error;

fn snapshot(game: &Game) -> (Position, Option<Dice>, u32, Option<crate::Outcome>) {
    (*game.position(), game.dice(), game.turns(), game.outcome())
}

#[test]
fn refused_actions_change_nothing() {
    let mut game = Game::new(Some(42), Rules::default()).unwrap();
    let before = snapshot(&game);
    assert!(matches!(game.legal_plays(), Err(Error::IllegalAction(_))));
    let some_play = Position::initial().legal_plays(dice(6, 5))[0];
    assert!(matches!(game.play(&some_play), Err(Error::IllegalAction(_))));
    assert!(game.play_moves(&[]).is_err());
    assert_eq!(snapshot(&game), before);

    game.set_dice(dice(2, 1)).unwrap();
    let rolled = snapshot(&game);
    assert!(game.roll().is_err());
    assert!(game.set_dice(dice(3, 3)).is_err());
    // A play of another roll, moves no play of 2-1 makes, and a pass while moves exist.
    assert!(matches!(game.play(&some_play), Err(Error::IllegalPlay(_))));
    assert!(game.play_moves(&[(24, 18)]).is_err());
    assert!(game.play_moves(&[(16, 14), (16, 15)]).is_err(), "one token cannot move twice");
    assert!(game.play_moves(&[]).is_err());
    assert_eq!(snapshot(&game), rolled);

    game.play_moves(&[(24, 22), (16, 15)]).unwrap();
    assert_eq!(game.turns(), 1);
    assert_eq!(game.turn(), Side::White);
    assert_eq!(game.position().tokens(15), vec![Side::Black]);
    assert_eq!(game.history()[0].dice, dice(2, 1));
    assert_eq!(game.history()[0].side, Side::Black);
    assert_eq!(game.history()[0].play.move_pairs(), [(24, 22), (16, 15)]);
}

#[test]
fn a_seed_fixes_the_game() {
    let run = |seed| {
        let mut game = Game::new(Some(seed), Rules::default()).unwrap();
        while !game.is_over() {
            game.roll().unwrap();
            let plays = game.legal_plays().unwrap();
            let last = plays[plays.len() - 1];
            game.play(&last).unwrap();
        }
        game.history().to_vec()
    };
    assert_eq!(run(9), run(9));
    assert_ne!(run(9), run(10));
}

#[test]
fn a_pass_is_played_like_any_play() {
    // White cannot move (see wins::a_side_that_cannot_move_passes_and_the_game_goes_on).
    let mut fields: Vec<(u8, &str)> = (2..=7).map(|f| (f, "wb")).collect();
    fields.extend([(1, "wwww"), (24, "bbbb")]);
    let mut game = Game::from_position(board(Side::White, &fields), None, Rules::default()).unwrap();
    game.roll().unwrap();
    game.play_moves(&[]).unwrap();
    assert_eq!(game.turn(), Side::Black);
    assert!(game.history()[0].play.is_pass());
}

#[test]
fn a_game_says_why_it_ended() {
    let mut capped = Game::new(Some(3), Rules { turn_cap: 2, ..Rules::default() }).unwrap();
    assert_eq!(capped.end_reason(), None);
    while !capped.is_over() {
        capped.roll().unwrap();
        let first = capped.legal_plays().unwrap()[0];
        capped.play(&first).unwrap();
    }
    assert_eq!(capped.end_reason(), Some(crate::EndReason::TurnCap));
    // Games played to a win end by one of the two conditions, as the final position shows.
    let mut reasons = std::collections::HashSet::new();
    for seed in 0..40 {
        let mut game = Game::new(Some(seed), Rules::default()).unwrap();
        while !game.is_over() {
            game.roll().unwrap();
            let first = game.legal_plays().unwrap()[0];
            game.play(&first).unwrap();
        }
        let Some(side) = game.winner() else { continue };
        let reason = game.end_reason().unwrap();
        let in_goal = game.position().in_goal(side) >= crate::GOAL_TO_WIN;
        assert_eq!(reason == crate::EndReason::Goal, in_goal, "seed {seed}");
        reasons.insert(reason);
    }
    assert!(!reasons.is_empty());
}
