//! The policies, the bot and the duel harness.

use super::wins::{seven_across, two_in_the_goal};
use super::*;
use crate::{evaluate, Battlegammon, Bot, GreedyBot, TurnPosition, Weights};
use gammon_core::dice::DiceStream;
use gammon_core::dice_game::DiceGame;
use gammon_core::duel::{duel, DuelResult};
use gammon_core::rollout::Start;
use gammon_core::{Policy, RandomPolicy};

/// A duel of `pairs` pairs of Battlegammon games from the initial position, default rules.
fn duel_from_initial<A: Policy<Battlegammon>, B: Policy<Battlegammon>>(
    a: &A,
    b: &B,
    pairs: u32,
    seed: u64,
) -> DuelResult {
    duel(&Battlegammon::default(), Start::Position(TurnPosition::initial()), a, b, pairs, seed)
}

#[test]
fn the_bot_takes_a_win() {
    // 21/24 wins on the spot with 3-2 (see wins::three_in_the_goal_wins_and_ends_the_turn_at_once).
    let play = Bot::new().best_play(&two_in_the_goal(), dice(3, 2)).unwrap();
    assert!(play.wins());
    let ranked = Bot::new().rank_plays(&seven_across(), dice(3, 1)).unwrap();
    assert!(ranked[0].0.wins() && ranked[0].1 == 1.0);
    assert_eq!(ranked.len(), seven_across().legal_plays(dice(3, 1)).len());
}

#[test]
fn the_bot_refuses_finished_positions_and_bad_settings() {
    let won = two_in_the_goal().legal_plays(dice(3, 2))[0].position;
    assert!(Bot::new().best_play(&won, dice(1, 1)).is_err());
    assert!(Bot::new().rank_plays(&won, dice(1, 1)).is_err());
    assert_eq!(Bot::new().evaluate(&won), 0.0, "Black to move has lost");
    assert!(Bot::new().with_ply(2).is_err());
    assert!(Bot::new().with_candidates(0).is_err());
}

#[test]
fn the_evaluation_is_a_chance_shared_by_both_sides() {
    let p = Position::initial();
    let w = Weights::default();
    for q in p.legal_plays(dice(5, 2)).iter().map(|pl| pl.position).chain([p, seven_across()]) {
        let (white, black) = (evaluate(&q, Side::White, &w), evaluate(&q, Side::Black, &w));
        assert!((white + black - 1.0).abs() < 1e-12 && (0.0..=1.0).contains(&white));
    }
    // seven_across: White needs one token over (10/13 is three fields), Black eight: White leads.
    assert!(evaluate(&seven_across(), Side::White, &w) > 0.9);
}

#[test]
fn greedy_brings_tokens_over_first() {
    // turn_rules::must_use with 4-1: [9/13] and [10/14 9/10] each bring one token over (White
    // then has 6 on Black's colour), a tie; [9/13] covers 4 fields and [10/14 9/10] covers 5, so
    // greedy, preferring progress next, takes the latter.
    let p = super::turn_rules::must_use();
    let plays = p.legal_plays(dice(4, 1));
    assert_eq!(plays[GreedyBot::new().pick(&p, &plays)].move_pairs(), [(10, 14), (9, 10)]);
    // The same choice through the policy interface, on the plays as the game lists them.
    let (game, at) = (Battlegammon::default(), TurnPosition::new(p));
    let mut listed = Vec::new();
    game.legal_plays(&at, dice(4, 1), &mut listed);
    assert_eq!(listed.iter().map(|t| t.play).collect::<Vec<_>>(), plays);
    let mut stream = DiceStream::new(3, 0);
    assert_eq!(GreedyBot.choose(&game, &at, dice(4, 1), &listed, &mut stream), GreedyBot.pick(&p, &plays));
    assert!(RandomPolicy.choose(&game, &at, dice(4, 1), &listed, &mut stream) < plays.len());
}

#[test]
fn a_policy_against_itself_on_mirrored_dice_wins_exactly_half() {
    // Both games of a pair see the same dice and the same deterministic choices, seats swapped:
    // each policy wins one of the two.
    let result = duel_from_initial(&GreedyBot, &GreedyBot, 30, 9);
    assert_eq!((result.games, result.wins, result.draws, result.points), (60, [30, 30], 0, [30, 30]));
    assert_eq!(
        duel_from_initial(&GreedyBot, &RandomPolicy, 20, 4),
        duel_from_initial(&GreedyBot, &RandomPolicy, 20, 4)
    );
}

#[test]
fn the_bot_beats_random_and_greedy_in_a_short_duel() {
    // The full 2,000-game duels are the example battlegammon_duel; these are small samples.
    let vs_random = duel_from_initial(&Bot::new(), &RandomPolicy, 20, 77);
    assert!(vs_random.score(0) >= 0.9, "{vs_random:?}");
    let vs_greedy = duel_from_initial(&Bot::new(), &GreedyBot, 50, 77);
    assert!(vs_greedy.score(0) >= 0.7, "{vs_greedy:?}");
}
