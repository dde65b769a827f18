//! One rule of a turn per test.

use super::*;

#[test]
fn stacks_on_a_single_token_of_either_colour_and_never_on_two() {
    // White moves 8 and 10; Black has a single token on 12; 24 holds 3 Black + 2 White finished.
    // Tokens: White 6 parked + 2 + 2 = 10, Black 6 + 1 + 3 = 10.
    let p = parked(Side::White, &[(8, "w"), (10, "w"), (12, "b"), (24, "bbbww")]);
    let plays = p.legal_plays(dice(4, 2));
    // 4 first: 8/12 stacks on Black's 12, then 10/12 is blocked (12 full) -> [8/12] alone;
    //          10/14, then 8/10 with the 2.
    // 2 first: 8/10 stacks on White's 10; the 4 has no token left (10's top moved, bottom pinned);
    //          10/12 on Black's token, then 8/12 is blocked -> [10/12] alone.
    assert_eq!(moves_of(&plays), vec![vec![(8, 12)], vec![(10, 14), (8, 10)], vec![(8, 10)], vec![(10, 12)]]);
    assert_eq!(plays[0].position.tokens(12), vec![Side::Black, Side::White]);
    assert_eq!(plays[2].position.tokens(10), vec![Side::White, Side::White]);
    assert!(plays.iter().all(|p| p.position.turn() == Side::Black));
}

#[test]
fn a_token_under_an_opponent_does_not_move() {
    // White's 9 is pinned under Black; its free token is on 15. Fields 10 and 11 are open, so
    // only the pin keeps 9 from moving. Tokens: White 6 + 2 + 2 = 10, Black 6 + 1 + 3 = 10.
    let p = parked(Side::White, &[(9, "wb"), (15, "w"), (24, "bbbww")]);
    // 2 first: 15/17, nothing left for the 1; 1 first: 15/16, nothing for the 2.
    assert_eq!(moves_of(&p.legal_plays(dice(2, 1))), vec![vec![(15, 17)], vec![(15, 16)]]);
}

#[test]
fn a_token_covered_during_the_turn_is_pinned_for_the_second_die() {
    // White's 8 and 10 are free. Tokens: White 6 + 2 + 2 = 10, Black 6 + 4 = 10.
    let p = parked(Side::White, &[(8, "w"), (10, "w"), (24, "bbbbww")]);
    // 3 first: 8/11 10/12; 10/13 8/10.
    // 2 first: 8/10 covers 10's token, which cannot use the 3 (10/13 was open) -> [8/10];
    //          10/12 8/11 is the first play again.
    assert_eq!(
        moves_of(&p.legal_plays(dice(3, 2))),
        vec![vec![(8, 11), (10, 12)], vec![(10, 13), (8, 10)], vec![(8, 10)]]
    );
}

#[test]
fn a_token_uncovered_by_the_first_move_uses_the_second_die() {
    // White's only free token is the top of 8; the one below is pinned until it leaves.
    // Tokens: White 6 + 2 + 2 = 10, Black 6 + 4 = 10.
    let p = parked(Side::White, &[(8, "ww"), (24, "bbbbww")]);
    // 3 first: 8/11 uncovers the lower token, which plays 8/9; 1 first gives the same position.
    let plays = p.legal_plays(dice(3, 1));
    assert_eq!(moves_of(&plays), vec![vec![(8, 11), (8, 9)]]);
    assert_eq!((plays[0].position.tokens(9), plays[0].position.tokens(8)), (vec![Side::White], vec![]));
}

#[test]
fn tokens_jump_over_full_stacks_but_never_land_on_them() {
    // 9 (two Black) and 10 (White under Black) are full; White's free token is on 8.
    // Tokens: White 6 + 1 + 1 + 2 = 10, Black 6 + 2 + 1 + 1 = 10.
    let p = parked(Side::White, &[(8, "w"), (9, "bb"), (10, "wb"), (24, "bww")]);
    // 3: 8/11 jumps over both stacks; the 1 (8/9) lands on a full stack and is not playable.
    assert_eq!(moves_of(&p.legal_plays(dice(3, 1))), vec![vec![(8, 11)]]);
    // 2 and 1 both land on full stacks: the roll cannot be played; the turn passes.
    let pass = p.legal_plays(dice(2, 1));
    assert_eq!(moves_of(&pass), vec![Vec::<(u8, u8)>::new()]);
    assert!(pass[0].is_pass());
    assert_eq!(pass[0].position, p.with_turn(Side::Black));
}

/// White's free tokens on 20 and 22; pinned tokens on 2..=6 (Black's 5 on White's colour) and
/// 13..=15 (White's 3 on Black's). Tokens: White 5 + 3 + 2 = 10, Black 8 + 2 = 10.
fn near_the_goal() -> Position {
    let pins = [2, 3, 4, 5, 6, 13, 14, 15].map(|f| (f, "wb"));
    let mut fields = pins.to_vec();
    fields.extend([(20, "w"), (22, "w"), (24, "bb")]);
    board(Side::White, &fields)
}

#[test]
fn the_goal_is_reached_only_by_the_exact_number() {
    let p = near_the_goal();
    // 3 first: 20/23, then 22/24 by the exact 2 (22/25 would overshoot).
    // 2 first: 20/22 stacks on 22 and covers it -> [20/22]; 22/24 20/23 repeats the first play.
    assert_eq!(moves_of(&p.legal_plays(dice(3, 2))), vec![vec![(20, 23), (22, 24)], vec![(20, 22)]]);
    // 4 first: 20/24 exactly, then 22/23. 1 first: 20/21, and 22 cannot use the 4 -> [20/21].
    assert_eq!(moves_of(&p.legal_plays(dice(4, 1))), vec![vec![(20, 24), (22, 23)], vec![(20, 21)]]);
}

#[test]
fn no_token_overshoots_the_goal() {
    // 6 and 5 carry 20 and 22 past field 24: the roll cannot be played.
    let p = near_the_goal();
    let plays = p.legal_plays(dice(6, 5));
    assert_eq!(plays.len(), 1);
    assert!(plays[0].is_pass());
}

#[test]
fn start_fields_hold_any_number_and_every_token_there_is_free() {
    // White: 8 on its start field, one on 22, one finished; Black: all 10 still on 24, which so
    // holds 11 tokens.
    let p = board(Side::White, &[(1, "wwwwwwww"), (22, "w"), (24, "bbbbbbbbbbw")]);
    // 2 first: 1/3 then another start token 1/2, or 1/3 22/23; 22/24 into the crowded goal, 1/2.
    // 1 first: 1/2 1/3, 1/2 22/24 and 22/23 1/3 repeat those.
    let plays = p.legal_plays(dice(2, 1));
    assert_eq!(moves_of(&plays), vec![vec![(1, 3), (1, 2)], vec![(1, 3), (22, 23)], vec![(22, 24), (1, 2)]]);
    assert_eq!(plays[2].position.tokens(24).len(), 12);
    assert_eq!(plays[2].position.in_goal(Side::White), 2);
    // Black's start field with all ten: both moves may come from it.
    let all_home = board(Side::Black, &[(1, "wwwwwwwwww"), (24, "bbbbbbbbbb")]);
    assert_eq!(moves_of(&all_home.legal_plays(dice(1, 1))), vec![vec![(24, 23), (24, 23)]]);
}

/// White's free tokens: 9, and 10 on top of a Black token; 11 is full. Tokens: White 6 + 2 + 2 =
/// 10, Black 6 + 1 + 2 + 1 = 10 (Black 6 on White's colour).
pub(super) fn must_use() -> Position {
    parked(Side::White, &[(9, "w"), (10, "bw"), (11, "bb"), (24, "bww")])
}

#[test]
fn a_die_must_be_used_when_a_move_can_use_it() {
    // The 1 has no move at first: 9/10 and 10/11 land on full stacks. The 4 moves 9/13 or 10/14.
    // After 10/14, 10 holds one Black token and 9/10 with the 1 becomes legal, so it must be
    // played: [10/14] alone is not a play. After 9/13 the 1 still has no move: [9/13] alone.
    let plays = must_use().legal_plays(dice(4, 1));
    assert_eq!(moves_of(&plays), vec![vec![(9, 13)], vec![(10, 14), (9, 10)]]);
}

#[test]
fn either_die_may_go_first_even_if_the_other_is_lost() {
    // White's only free token is on 8; 9 and 10 are full. 5 first: 8/13; 3 first: 8/11. Either
    // leaves no token for the other die, and neither is preferred.
    let p = parked(Side::White, &[(8, "w"), (9, "bb"), (10, "wb"), (24, "bww")]);
    assert_eq!(moves_of(&p.legal_plays(dice(5, 3))), vec![vec![(8, 13)], vec![(8, 11)]]);
    // And with must_use: [9/13] leaves the 1 unplayed although [10/14 9/10] plays both.
    assert!(moves_of(&must_use().legal_plays(dice(4, 1))).contains(&vec![(9, 13)]));
}

#[test]
fn a_double_is_two_moves_by_two_tokens() {
    // White's free tokens 8, 12, 15; one finished. Tokens: White 6 + 3 + 1 = 10, Black 6 + 4.
    let p = parked(Side::White, &[(8, "w"), (12, "w"), (15, "w"), (24, "bbbbw")]);
    // Each pair of distinct tokens moves one field: 8+12, 8+15, 12+15; never one token twice
    // (8/9 9/10) and never more than two moves.
    assert_eq!(
        moves_of(&p.legal_plays(dice(1, 1))),
        vec![vec![(8, 9), (12, 13)], vec![(8, 9), (15, 16)], vec![(12, 13), (15, 16)]]
    );
}

#[test]
fn black_moves_down_and_first() {
    // From the setup Black rolls 6-5. Black's free tokens: 16, the tops of 19 and 20, the start 24.
    let p = Position::initial();
    assert_eq!(p.turn(), Side::Black);
    let plays = p.legal_plays(dice(6, 5));
    // First moves: 16/10, 16/11, 19/13, 19/14, 20/14, 20/15, 24/18; not 24/19 (19 is full).
    for play in &plays {
        assert!(play.moves().iter().all(|m| m.to < m.from), "{play:?} moves up");
        assert_ne!(play.move_pairs()[0], (24, 19), "19 is full");
    }
    assert!(plays.iter().any(|p| p.move_pairs() == [(24, 18), (16, 11)]));
    // Once 19/13 has lifted the top token, 19 holds one and 24/19 may land there.
    assert!(plays.iter().any(|p| p.move_pairs() == [(19, 13), (24, 19)]));
}
