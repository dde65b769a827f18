//! Battlegammon on the shared dice-game interface: results, rollouts and duels.

use super::wins::two_in_the_goal;
use super::*;
use crate::{rollout, Battlegammon, BuiltinPolicy, Chances, GreedyBot, Rules, TurnPosition};
use gammon_core::dice_game::DiceGame;
use gammon_core::duel::duel;
use gammon_core::rollout::{merge, RolloutOptions, RolloutResult, Start};
use gammon_core::RandomPolicy;

fn options(trials: u64, seed: u64, threads: usize) -> RolloutOptions {
    RolloutOptions { trials, seed, threads: Some(threads), ..RolloutOptions::default() }
}

/// White to move with two tokens in the goal and free tokens 2..=6 fields before it (18..22),
/// and 7 on Black's colour counting the goal: any die of 2 or more brings the third token home,
/// a 1 takes 12/13 over as the eighth. Every roll wins. Black has not moved.
/// Tokens: White 2 + 1 + 1 + 5 + 1 = 10; Black 10 on its start field.
fn every_roll_wins() -> Position {
    board(
        Side::White,
        &[
            (2, "w"),
            (3, "w"),
            (12, "w"),
            (18, "w"),
            (19, "w"),
            (20, "w"),
            (21, "w"),
            (22, "w"),
            (24, "bbbbbbbbbbww"),
        ],
    )
}

fn chances_add_up(r: &RolloutResult) -> Chances {
    let c = Chances::of(r);
    for x in [c.win, c.lose, c.draw] {
        assert!((-1e-12..=1.0 + 1e-12).contains(&x), "{c:?} {r:?}");
    }
    assert!((c.win + c.lose + c.draw - 1.0).abs() < 1e-9, "{c:?}");
    assert!((c.equity() - r.equity).abs() < 1e-9, "{c:?} {r:?}");
    c
}

#[test]
fn results_are_seen_from_the_side_to_move() {
    let game = Battlegammon::default();
    let start = TurnPosition::initial();
    assert_eq!(game.result(&start), None);
    // wins::two_in_the_goal with 3-2: 21/24 wins for White; Black is then to move and has lost.
    let mut plays = Vec::new();
    game.legal_plays(&TurnPosition::new(two_in_the_goal()), dice(3, 2), &mut plays);
    let won = game.after(&plays[0]);
    assert_eq!((won.position.turn(), won.turns), (Side::Black, 1));
    assert_eq!(game.result(&won), Some(-1));
    assert_eq!(game.result(&game.pass_turn(&won)), Some(1));
    // The turn cap draws: with a cap of 3 the position after three turns is over.
    let capped = Battlegammon::new(Rules { turn_cap: 3, ..Rules::default() }).unwrap();
    assert_eq!(capped.result(&TurnPosition { position: Position::initial(), turns: 2 }), None);
    assert_eq!(capped.result(&TurnPosition { position: Position::initial(), turns: 3 }), Some(0));
    assert!(Battlegammon::new(Rules { turn_cap: 0, ..Rules::default() }).is_err());
}

#[test]
fn draws_stay_apart_from_wins_and_losses() {
    let game = Battlegammon::default();
    for (points, (win, lose, draw)) in [(1, (1.0, 0.0, 0.0)), (-1, (0.0, 1.0, 0.0)), (0, (0.0, 0.0, 1.0))] {
        let p = game.result_probabilities(points);
        let c = Chances::from_probabilities(&p);
        assert_eq!((c.win, c.lose, c.draw), (win, lose, draw));
        assert_eq!(p.equity(), points as f64);
        assert_eq!(p.flipped(), game.result_probabilities(-points));
    }
}

#[test]
fn same_seed_same_result_at_one_and_two_threads() {
    let game = Battlegammon::default();
    let p = Position::initial();
    for policy in [BuiltinPolicy::Random, BuiltinPolicy::Greedy] {
        let one = rollout(&game, &p, &policy, &options(144, 3, 1), None).unwrap();
        let two = rollout(&game, &p, &policy, &options(144, 3, 2), None).unwrap();
        assert!(one.same_trials(&two), "{policy:?}");
        assert_eq!(one.equity.to_bits(), two.equity.to_bits());
        assert_eq!(one.trials, 144);
        chances_add_up(&one);
        let other = rollout(&game, &p, &policy, &options(144, 4, 2), None).unwrap();
        assert_ne!(one.sums, other.sums);
    }
    // The bot, with its evaluation subtracting the luck of each roll, on a few trials.
    let bot = BuiltinPolicy::from_name("bot", game.rules()).unwrap();
    let one = rollout(&game, &p, &bot, &options(6, 3, 1), None).unwrap();
    let two = rollout(&game, &p, &bot, &options(6, 3, 2), None).unwrap();
    assert!(one.same_trials(&two) && one.variance_reduction);
    chances_add_up(&one);
}

#[test]
fn partial_rollouts_merge_exactly() {
    let game = Battlegammon::default();
    let part = |first, trials, threads| {
        let options = RolloutOptions { first_trial: first, ..options(trials, 8, threads) };
        rollout(&game, &Position::initial(), &GreedyBot, &options, None).unwrap()
    };
    let whole = part(0, 100, 2);
    for a in [1, 36, 99] {
        let merged = merge(&[part(a, 100 - a, 1), part(0, a, 2)]).unwrap();
        assert!(merged.same_trials(&whole), "split at {a}");
        assert_eq!(merged.probabilities, whole.probabilities);
    }
    // Parts played under other rules are refused, even with the same seed and policy.
    let capped = Battlegammon::new(Rules { turn_cap: 50, ..Rules::default() }).unwrap();
    let options = RolloutOptions { first_trial: 50, ..options(50, 8, 1) };
    let other = rollout(&capped, &Position::initial(), &GreedyBot, &options, None).unwrap();
    assert!(other.setup.contains("turn_cap: 50"), "{}", other.setup);
    assert!(merge(&[part(0, 50, 1), other]).is_err());
}

#[test]
fn a_position_where_every_roll_wins_is_won_exactly() {
    let p = every_roll_wins();
    for roll in gammon_core::ALL_ROLLS {
        assert!(p.legal_plays(roll).iter().any(|play| play.wins()), "{roll:?}");
    }
    let game = Battlegammon::default();
    let bot = BuiltinPolicy::from_name("bot", game.rules()).unwrap();
    for policy in [BuiltinPolicy::Greedy, bot] {
        let r = rollout(&game, &p, &policy, &options(72, 1, 2), None).unwrap();
        let c = chances_add_up(&r);
        assert_eq!((c.win, c.lose, c.draw, r.equity), (1.0, 0.0, 0.0, 1.0), "{policy:?}");
        assert_eq!(r.std_error, 0.0);
    }
}

#[test]
fn a_turn_cap_of_one_draws_every_game() {
    // Every game stops after the first turn: nobody can win in one turn from the start.
    let game = Battlegammon::new(Rules { turn_cap: 1, ..Rules::default() }).unwrap();
    let r = rollout(&game, &Position::initial(), &RandomPolicy, &options(36, 2, 1), None).unwrap();
    let c = chances_add_up(&r);
    assert_eq!((c.win, c.lose, c.draw, r.equity), (0.0, 0.0, 1.0, 0.0));
    let d = duel(&game, Start::Position(TurnPosition::initial()), &GreedyBot, &RandomPolicy, 5, 1);
    assert_eq!((d.games, d.draws, d.wins), (10, 10, [0, 0]));
}

#[test]
fn the_initial_position_keeps_the_invariants() {
    // Black moves first and the setup is not mirror-symmetric: no even result is assumed, only
    // that a short cap brings draws and that the three chances add up.
    let game = Battlegammon::new(Rules { turn_cap: 30, ..Rules::default() }).unwrap();
    let r = rollout(&game, &Position::initial(), &RandomPolicy, &options(360, 5, 2), None).unwrap();
    let c = chances_add_up(&r);
    assert!(c.draw > 0.0 && c.win > 0.0 && c.lose > 0.0, "{c:?}");
    let full = rollout(&Battlegammon::default(), &Position::initial(), &GreedyBot, &options(360, 5, 2), None)
        .unwrap();
    let c = chances_add_up(&full);
    assert_eq!(c.draw, 0.0, "greedy games end long before the turn cap");
    assert!(full.std_error > 0.0 && full.std_error < 0.06);
}
