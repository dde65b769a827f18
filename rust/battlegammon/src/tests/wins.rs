//! The two winning conditions, the win ending the turn, and the draw.

use super::*;
use crate::{Game, Outcome, Rules};

/// White: two finished, 21 and 10 free, pinned under Black on 2, 3, 4 and 13, 14, 15.
/// Tokens: White 2 + 2 + 6 = 10 (6 on Black's colour), Black 6 + 4 = 10.
pub(super) fn two_in_the_goal() -> Position {
    let mut fields: Vec<(u8, &str)> = [2, 3, 4, 13, 14, 15].map(|f| (f, "wb")).to_vec();
    fields.extend([(10, "w"), (21, "w"), (24, "bbbbww")]);
    board(Side::White, &fields)
}

#[test]
fn three_in_the_goal_wins_and_ends_the_turn_at_once() {
    let plays = two_in_the_goal().legal_plays(dice(3, 2));
    // 3 first: 10/13 lands on a full stack; 21/24 is the third token in the goal: the game is won
    //          and the 2 is not played although 10/12 was open.
    // 2 first: 10/12, then 21/24 wins; 21/23, then 10/13 is blocked -> [21/23].
    assert_eq!(moves_of(&plays), vec![vec![(21, 24)], vec![(10, 12), (21, 24)], vec![(21, 23)]]);
    assert_eq!(plays.iter().map(Play::wins).collect::<Vec<_>>(), vec![true, true, false]);
    let won = plays[0].position;
    assert_eq!((won.winner(), won.in_goal(Side::White)), (Some(Side::White), 3));
    // A finished position has no plays.
    assert!(won.legal_plays(dice(1, 2)).is_empty());
}

/// White: 7 on Black's colour counting the finished one, the one pinned under Black on 16 and
/// both of the stack on 18; free tokens also on 3 and 10; one pinned under Black on 2.
/// Tokens: White 1 + 1 + 1 + 1 + 1 + 2 + 1 + 1 + 1 = 10, Black 1 + 1 + 8 = 10.
pub(super) fn seven_across() -> Position {
    board(
        Side::White,
        &[
            (2, "wb"),
            (3, "w"),
            (10, "w"),
            (14, "w"),
            (15, "w"),
            (16, "wb"),
            (17, "w"),
            (18, "ww"),
            (24, "bbbbbbbbw"),
        ],
    )
}

#[test]
fn eight_tokens_on_the_opponents_colour_win_counting_pinned_and_finished_ones() {
    let p = seven_across();
    assert_eq!(p.on_opponent_colour(Side::White), 7);
    let plays = p.legal_plays(dice(3, 1));
    // 10/13 brings the eighth token over (13 is Black's colour): it wins on its own, the 1 unplayed.
    assert!(plays.iter().any(|p| p.move_pairs() == [(10, 13)] && p.wins()));
    // 1 first, then 10/13 wins with the second move, e.g. 3/4 10/13.
    assert!(plays.iter().any(|p| p.move_pairs() == [(3, 4), (10, 13)] && p.wins()));
    // Every play with 10/13 wins, no play continues after it, and only those win.
    for play in &plays {
        let crosses = play.move_pairs().contains(&(10, 13));
        assert_eq!(play.wins(), crosses, "{play:?}");
        assert_eq!(play.position.winner() == Some(Side::White), crosses);
        if play.moves().len() == 2 {
            assert_ne!(play.move_pairs()[0], (10, 13), "the game ended at 10/13: {play:?}");
        }
    }
}

#[test]
fn black_wins_by_eight_on_whites_colour_and_by_three_in_the_goal() {
    // Black: 2 + 2 on 2 and 3, the lower token of 5, 7, 12 and the finished one on 1 make 8.
    let eight = board(
        Side::White,
        &[
            (1, "wwwwwwb"),
            (2, "bb"),
            (3, "bb"),
            (5, "bw"),
            (7, "b"),
            (12, "b"),
            (20, "ww"),
            (21, "w"),
            (24, "bb"),
        ],
    );
    assert_eq!(eight.on_opponent_colour(Side::Black), 8);
    assert_eq!(eight.winner(), Some(Side::Black));
    let goal = board(Side::White, &[(1, "wwwwwwwwwwbbb"), (24, "bbbbbbb")]);
    assert_eq!(goal.winner(), Some(Side::Black));
    assert_eq!(Position::initial().winner(), None);
}

#[test]
fn when_both_sides_meet_a_condition_the_last_mover_wins() {
    // Each side has eight tokens on the other's colour: only a built position can. The side not
    // to move moved last, and wins were checked after its move.
    let fields = [(1, "ww"), (2, "bb"), (3, "bb"), (4, "bb"), (5, "bb"), (13, "ww"), (14, "ww"), (15, "ww")];
    let mut fields = fields.to_vec();
    fields.extend([(16, "ww"), (24, "bb")]);
    assert_eq!(board(Side::White, &fields).winner(), Some(Side::Black));
    assert_eq!(board(Side::Black, &fields).winner(), Some(Side::White));
}

#[test]
fn a_game_stops_at_the_win() {
    let mut game = Game::from_position(two_in_the_goal(), Some(1), Rules::default()).unwrap();
    game.set_dice(dice(3, 2)).unwrap();
    game.play_moves(&[(21, 24)]).unwrap();
    assert_eq!(
        (game.is_over(), game.winner(), game.outcome()),
        (true, Some(Side::White), Some(Outcome::Win(Side::White)))
    );
    assert!(game.roll().is_err());
}

#[test]
fn the_turn_cap_ends_a_game_in_a_draw() {
    // Three turns (Black, White, Black) are at most six moves: Black cannot bring eight tokens to
    // White's colour (it has none there) nor three to field 1 (23 fields away), so no one wins.
    let rules = Rules { turn_cap: 3, ..Rules::default() };
    let mut game = Game::new(Some(11), rules).unwrap();
    for _ in 0..3 {
        assert!(!game.is_over());
        game.roll().unwrap();
        let play = game.legal_plays().unwrap()[0];
        game.play(&play).unwrap();
    }
    assert_eq!((game.is_over(), game.is_draw(), game.winner()), (true, true, None));
    assert_eq!(game.turns(), 3);
}

#[test]
fn a_side_that_cannot_move_passes_and_the_game_goes_on() {
    // White's four start tokens face full fields 2..=7 (White under Black): no roll moves them,
    // and the six pinned ones cannot move. Black's tops on 2..=7 can (six on White's colour, two
    // short of a win). Tokens: White 4 + 6 = 10, Black 6 + 4 = 10.
    let mut fields: Vec<(u8, &str)> = (2..=7).map(|f| (f, "wb")).collect();
    fields.extend([(1, "wwww"), (24, "bbbb")]);
    let p = board(Side::White, &fields);
    assert!(!p.can_move(Side::White) && p.can_move(Side::Black));
    for d in gammon_core::dice::ALL_ROLLS {
        let plays = p.legal_plays(d);
        assert_eq!(plays.len(), 1);
        assert!(plays[0].is_pass());
    }
    // Not a deadlock, so not a draw: see Position::is_deadlocked for why no position with ten
    // tokens a side ever is.
    assert!(!p.is_deadlocked());
    let game = Game::from_position(p, Some(3), Rules::default()).unwrap();
    assert!(!game.is_over());
}
