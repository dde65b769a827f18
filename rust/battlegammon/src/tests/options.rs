//! Each rule option switched on.

use super::turn_rules::must_use;
use super::wins::{seven_across, two_in_the_goal};
use super::*;
use crate::{Game, Rules};

fn with(name: &str, value: i64) -> Rules {
    let mut rules = Rules::default();
    rules.set(name, value).unwrap();
    rules
}

#[test]
fn maximize_dice_plays_both_dice_when_possible() {
    // must_use: [9/13] alone leaves the 1 unplayed while [10/14 9/10] plays both: only the latter.
    let plays = must_use().legal_plays_with(dice(4, 1), &with("maximize_dice", 1));
    assert_eq!(moves_of(&plays), vec![vec![(10, 14), (9, 10)]]);
}

#[test]
fn maximize_dice_plays_the_larger_die_when_only_one_can_be_played() {
    // One free token on 8, 9 and 10 full: 8/13 or 8/11, never both; backgammon's rule takes the 5.
    let p = parked(Side::White, &[(8, "w"), (9, "bb"), (10, "wb"), (24, "bww")]);
    assert_eq!(moves_of(&p.legal_plays_with(dice(5, 3), &with("maximize_dice", 1))), vec![vec![(8, 13)]]);
}

#[test]
fn maximize_dice_keeps_a_win_with_one_move() {
    // The third token home ends the game: a complete play though the 2 is unused. [21/23] alone is
    // dropped because [10/12 21/24] uses both dice.
    let plays = two_in_the_goal().legal_plays_with(dice(3, 2), &with("maximize_dice", 1));
    assert_eq!(moves_of(&plays), vec![vec![(21, 24)], vec![(10, 12), (21, 24)]]);
}

#[test]
fn count_distinct_fields_needs_eight_fields() {
    // seven_across: White tokens on 14, 15, 16 (pinned), 17, 18 (two) and the goal: 7 tokens but
    // 6 fields. 10/13 makes 8 tokens (a win by default) but 7 fields, so the 1 must still be
    // played; 18/19 then adds an eighth field (18 keeps its lower token) and wins, 3/4 does not.
    let rules = with("count_distinct_fields", 1);
    let p = seven_across();
    assert_eq!(p.opponent_colour_fields(Side::White), 6);
    let plays = p.legal_plays_with(dice(3, 1), &rules);
    assert!(!plays.iter().any(|p| p.move_pairs() == [(10, 13)]));
    let find = |pairs: &[(u8, u8)]| plays.iter().find(|p| p.move_pairs() == pairs).copied().unwrap();
    assert!(find(&[(10, 13), (18, 19)]).wins());
    assert!(!find(&[(10, 13), (3, 4)]).wins());
    // 14/15 empties 14: back to 6 fields.
    assert!(!find(&[(10, 13), (14, 15)]).wins());
    assert_eq!(find(&[(10, 13), (18, 19)]).position.winner_with(&rules), Some(Side::White));
    assert_eq!(find(&[(10, 13), (3, 4)]).position.winner_with(&rules), None);
}

#[test]
fn turn_cap_sets_the_number_of_turns_before_a_draw() {
    // One turn cannot win from the setup (at most two tokens move), so a cap of 1 draws.
    let mut game = Game::new(Some(5), with("turn_cap", 1)).unwrap();
    game.roll().unwrap();
    let play = game.legal_plays().unwrap()[0];
    game.play(&play).unwrap();
    assert!(game.is_draw());
}

#[test]
fn rule_options_are_checked() {
    let mut rules = Rules::default();
    assert_eq!(
        rules,
        Rules { maximize_dice: false, count_distinct_fields: false, turn_cap: 1000 },
        "the defaults of the rules document"
    );
    assert!(rules.set("maximize_dice", 2).is_err());
    assert!(rules.set("turn_cap", -1).is_err());
    assert!(rules.set("no_such_rule", 1).is_err());
    assert_eq!(rules, Rules::default(), "refused settings change nothing");
    assert!(Game::new(Some(1), Rules { turn_cap: 0, ..Rules::default() }).is_err());
}
