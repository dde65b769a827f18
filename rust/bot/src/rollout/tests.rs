use super::*;
use crate::{BuiltinPolicy, Evaluator, EvaluatorPolicy, Probabilities, PubevalPolicy};
use gammon_backgammon::pos;
use gammon_core::dice::ALL_ROLLS;
use gammon_core::pip_race::{pips, Counts, PipRace};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::sync::Arc;

fn options(trials: u64, seed: u64, threads: usize) -> RolloutOptions {
    RolloutOptions { trials, seed, threads: Some(threads), ..RolloutOptions::default() }
}

fn check_invariants(r: &RolloutResult) {
    let p = r.probabilities;
    for x in p.to_array() {
        assert!((0.0..=1.0).contains(&x), "{r:?}");
    }
    assert!(p.win >= p.win_gammon && p.win_gammon >= p.win_backgammon, "{r:?}");
    // Means of the same trials: 1 - win may round just below lose_gammon when every loss is one.
    assert!(1.0 - p.win >= p.lose_gammon - 1e-12 && p.lose_gammon >= p.lose_backgammon, "{r:?}");
    assert!((p.equity() - r.equity).abs() < 1e-9, "{r:?}");
    assert!(r.std_error >= 0.0 && r.std_errors.to_array().iter().all(|&e| e >= 0.0));
}

#[test]
fn same_seed_same_result_at_any_thread_count() {
    let p = Position::initial();
    // `net` carries its hidden sums from turn to turn on each thread.
    for policy in [BuiltinPolicy::Random, BuiltinPolicy::Pubeval, BuiltinPolicy::Net] {
        let one = rollout(&p, &policy, &options(300, 5, 1)).unwrap();
        let two = rollout(&p, &policy, &options(300, 5, 2)).unwrap();
        // More threads than cores: trials finish far out of order.
        let seven = rollout(&p, &policy, &options(300, 5, 7)).unwrap();
        let global =
            rollout(&p, &policy, &RolloutOptions { trials: 300, seed: 5, ..Default::default() }).unwrap();
        assert!(one.same_trials(&two) && one.same_trials(&seven) && one.same_trials(&global), "{policy:?}");
        assert_eq!(one.equity.to_bits(), two.equity.to_bits());
        assert_eq!(one.trials, 300);
        check_invariants(&one);
        let other = rollout(&p, &policy, &options(300, 6, 2)).unwrap();
        assert_ne!(one.sums, other.sums, "{policy:?}");
    }
}

#[test]
fn partial_rollouts_merge_exactly() {
    let p = Position::initial();
    let policy = BuiltinPolicy::Pubeval;
    let part = |first, trials, threads| {
        rollout(&p, &policy, &RolloutOptions { first_trial: first, ..options(trials, 11, threads) }).unwrap()
    };
    let whole = part(0, 500, 2);
    for a in [1, 36, 217, 499] {
        let merged = merge(&[part(a, 500 - a, 1), part(0, a, 2)]).unwrap();
        assert!(merged.same_trials(&whole), "split at {a}");
        assert_eq!(merged.std_error.to_bits(), whole.std_error.to_bits());
        assert_eq!(merged.probabilities, whole.probabilities);
    }
    // Gaps, overlaps and other seeds are refused.
    assert!(merge(&[part(0, 10, 1), part(11, 10, 1)]).is_err());
    assert!(merge(&[part(0, 10, 1), part(5, 10, 1)]).is_err());
    let other = rollout(&p, &policy, &RolloutOptions { first_trial: 10, ..options(10, 12, 1) }).unwrap();
    assert!(merge(&[part(0, 10, 1), other]).is_err());
    assert!(merge(&[]).is_err());
}

/// How the exact computation resolves a roll: as the policy under test does.
#[derive(Clone, Copy)]
enum Choice {
    Random,
    Pubeval,
    Best,
}

/// Exact chance that the player on roll wins a race in which neither side can be gammoned,
/// when both sides play by `choice`: a recursion over every roll and every play.
struct ExactRace {
    choice: Choice,
    memo: HashMap<Position, f64>,
}

impl ExactRace {
    fn new(choice: Choice) -> ExactRace {
        ExactRace { choice, memo: HashMap::new() }
    }

    fn win(&mut self, p: &Position) -> f64 {
        if let Some(&v) = self.memo.get(p) {
            return v;
        }
        let mut total = 0.0;
        for dice in ALL_ROLLS {
            let plays = p.legal_plays(dice);
            let values: Vec<f64> =
                plays
                    .iter()
                    .map(|play| {
                        if play.position.we_have_won() {
                            1.0
                        } else {
                            1.0 - self.win(&play.position.swapped())
                        }
                    })
                    .collect();
            let value = match self.choice {
                Choice::Random => values.iter().sum::<f64>() / values.len() as f64,
                Choice::Pubeval => values[PubevalPolicy::best(p, &plays)],
                Choice::Best => values.iter().cloned().fold(f64::MIN, f64::max),
            };
            total += dice.weight() as f64 / 36.0 * value;
        }
        self.memo.insert(*p, total);
        total
    }
}

/// The exact values as an evaluator (for positions the recursion has visited).
struct Table(HashMap<Position, f64>);

impl Evaluator<Position> for Table {
    fn evaluate(&self, p: &Position) -> Probabilities {
        Probabilities { win: self.0[p], ..Probabilities::default() }
    }
}

fn races() -> Vec<Position> {
    vec![
        pos!(6 => 2, 4 => 1, 20 => -1, 23 => -2),
        pos!(5 => 2, 3 => 2, 19 => -2, 21 => -1, 24 => -1),
        pos!(1 => 1, 6 => 1, 19 => -3),
        pos!(6 => 3, 2 => 1, 19 => -1, 20 => -1, 22 => -2),
    ]
}

#[test]
fn bear_off_races_agree_with_the_exact_computation() {
    for (choice, policy) in
        [(Choice::Random, BuiltinPolicy::Random), (Choice::Pubeval, BuiltinPolicy::Pubeval)]
    {
        let mut exact = ExactRace::new(choice);
        for (k, p) in races().iter().enumerate() {
            let v = exact.win(p);
            let r = rollout(p, &policy, &options(2592, 100 + k as u64, 2)).unwrap();
            check_invariants(&r);
            assert!(!r.variance_reduction);
            assert_eq!(r.probabilities.win_gammon, 0.0);
            let z = (r.probabilities.win - v) / r.std_errors.win;
            assert!(
                z.abs() < 3.0,
                "{policy:?} {p:?}: rollout {} exact {v} ({z:.2} standard errors)",
                r.probabilities.win
            );
            assert!((r.equity - (2.0 * v - 1.0)).abs() < 3.0 * r.std_error);
        }
    }
}

#[test]
fn variance_reduction_with_an_exact_evaluator_leaves_no_error() {
    let mut exact = ExactRace::new(Choice::Best);
    let starts = races();
    let values: Vec<f64> = starts.iter().map(|p| exact.win(p)).collect();
    let policy = EvaluatorPolicy::new(Table(exact.memo), "exact");
    for (p, v) in starts.iter().zip(values) {
        // Every trial's result minus its luck telescopes to the start's exact value.
        let r = rollout_game(&Backgammon, Start::Position(*p), &policy, &options(360, 3, 2), None).unwrap();
        assert!(r.variance_reduction);
        assert!((r.probabilities.win - v).abs() < 1e-9, "{} vs {v}", r.probabilities.win);
        assert!(r.std_error < 1e-7 && r.plain_std_error > 0.01, "{r:?}");
        // Truncated games end on the evaluator's value; the estimate stays exact.
        for plies in [0, 1, 3] {
            let t = RolloutOptions { truncate: Some(plies), ..options(72, 4, 1) };
            let r = rollout_game(&Backgammon, Start::Position(*p), &policy, &t, None).unwrap();
            assert!((r.probabilities.win - v).abs() < 1e-9, "truncated after {plies}");
        }
        // Without variance reduction the plain result is reported.
        let plain = RolloutOptions { variance_reduction: false, ..options(360, 3, 2) };
        let r2 = rollout_game(&Backgammon, Start::Position(*p), &policy, &plain, None).unwrap();
        assert!(!r2.variance_reduction && r2.std_error == r.plain_std_error);
    }
}

#[test]
fn truncation_needs_an_evaluator() {
    let t = RolloutOptions { truncate: Some(4), ..options(36, 0, 1) };
    assert!(rollout(&Position::initial(), &BuiltinPolicy::Pubeval, &t).is_err());
    assert!(rollout(&Position::initial(), &BuiltinPolicy::Pubeval, &options(0, 0, 1)).is_err());
    assert!(rollout(&Position::initial(), &BuiltinPolicy::Pubeval, &options(10, 0, 0)).is_err());
    let bad = RolloutOptions { max_std_error: Some(-1.0), ..options(36, 0, 1) };
    assert!(rollout(&Position::initial(), &BuiltinPolicy::Pubeval, &bad).is_err());
}

#[test]
fn the_opening_is_even_between_equal_players() {
    for (policy, trials) in [(BuiltinPolicy::Pubeval, 2160), (BuiltinPolicy::Random, 2160)] {
        let r = rollout_opening(&policy, &options(trials, 1, 2)).unwrap();
        check_invariants(&r);
        assert_eq!(r.trials, trials);
        assert!(r.equity.abs() < 3.0 * r.std_error, "{policy:?}: {r:?}");
        // Gammons happen in full games.
        assert!(r.probabilities.win_gammon > 0.0 && r.probabilities.lose_gammon > 0.0);
    }
}

#[test]
fn stopping_on_the_standard_error_is_reproducible() {
    let p = Position::initial();
    let opts = |threads| RolloutOptions {
        max_std_error: Some(0.05),
        min_trials: 72,
        ..options(100_000, 2, threads)
    };
    let one = rollout(&p, &BuiltinPolicy::Pubeval, &opts(1)).unwrap();
    let two = rollout(&p, &BuiltinPolicy::Pubeval, &opts(2)).unwrap();
    assert!(one.converged && one.same_trials(&two));
    assert!(one.trials < 100_000 && one.trials % 36 == 0);
    assert!(one.std_error < 0.05);
    // One block less was not yet enough.
    let before = rollout(&p, &BuiltinPolicy::Pubeval, &options(one.trials - 36, 2, 2)).unwrap();
    assert!(one.trials - 36 < 72 || before.std_error >= 0.05);
}

#[test]
fn cancellation_returns_a_reproducible_prefix() {
    let p = Position::initial();
    let flag = Arc::new(AtomicBool::new(false));
    let opts = RolloutOptions { cancel: Some(flag.clone()), ..options(1_000_000, 8, 2) };
    let mut reports = 0;
    let mut stop = |r: &RolloutResult| {
        reports += 1;
        assert!(r.trials > 0);
        if reports == 2 {
            flag.store(true, Ordering::Relaxed);
        }
    };
    let r = rollout_game(&Backgammon, Start::Position(p), &BuiltinPolicy::Random, &opts, Some(&mut stop))
        .unwrap();
    assert!(r.cancelled && r.trials > 0 && r.trials < 1_000_000);
    let again = rollout(&p, &BuiltinPolicy::Random, &options(r.trials, 8, 1)).unwrap();
    assert!(again.same_trials(&r));

    // Cancelled from another thread, a long rollout stops promptly.
    let flag = Arc::new(AtomicBool::new(false));
    let opts = RolloutOptions { cancel: Some(flag.clone()), ..options(100_000_000, 9, 2) };
    let setter = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            flag.store(true, Ordering::Relaxed);
        })
    };
    let started = std::time::Instant::now();
    let r = rollout(&p, &BuiltinPolicy::Pubeval, &opts).unwrap();
    setter.join().unwrap();
    assert!(r.cancelled && started.elapsed().as_secs_f64() < 1.0, "{:?}", started.elapsed());
    let again = rollout(&p, &BuiltinPolicy::Pubeval, &options(r.trials.max(1), 9, 2)).unwrap();
    assert!(r.trials == 0 || again.same_trials(&r));
}

#[test]
fn candidate_plays_are_ranked_from_the_movers_view() {
    let p = pos!(6 => 2, 4 => 1, 20 => -1, 23 => -2);
    let dice = gammon_backgammon::Dice::new(2, 1).unwrap();
    let ranked = rollout_plays(&p, dice, &BuiltinPolicy::Pubeval, &options(1296, 4, 2)).unwrap();
    assert_eq!(ranked.len(), p.legal_plays(dice).len());
    let mut exact = ExactRace::new(Choice::Pubeval);
    for w in ranked.windows(2) {
        assert!(w[0].result.equity >= w[1].result.equity);
    }
    for c in &ranked {
        check_invariants(&c.result);
        let v = 1.0 - exact.win(&c.play.position.swapped());
        assert!((c.result.probabilities.win - v).abs() <= 3.0 * c.result.std_errors.win + 1e-12);
    }
}

/// Exact chance that the side to roll wins the toy race.
fn pip_race_win(a: i32, b: i32, memo: &mut HashMap<(i32, i32), f64>) -> f64 {
    if let Some(&v) = memo.get(&(a, b)) {
        return v;
    }
    let mut v = 0.0;
    for dice in ALL_ROLLS {
        let pips = pips(dice);
        let w = dice.weight() as f64 / 36.0;
        v += w * if a - pips <= 0 { 1.0 } else { 1.0 - pip_race_win(b, a - pips, memo) };
    }
    memo.insert((a, b), v);
    v
}

#[test]
fn the_driver_runs_any_dice_game() {
    let mut memo = HashMap::new();
    for (a, b) in [(30, 30), (40, 25), (20, 35)] {
        let exact = pip_race_win(a, b, &mut memo);
        let start = Counts { to_roll: a, other: b };
        let r =
            rollout_game(&PipRace, Start::Position(start), &crate::RandomPolicy, &options(3600, 2, 2), None)
                .unwrap();
        check_invariants(&r);
        let z = (r.probabilities.win - exact) / r.std_errors.win;
        assert!(z.abs() < 3.0, "{a} v {b}: rollout {} exact {exact}", r.probabilities.win);
        // Before the opening roll, the side that wins it moves first with a non-double.
        let o =
            rollout_game(&PipRace, Start::Opening(start), &crate::RandomPolicy, &options(3600, 2, 2), None)
                .unwrap();
        let mut opening = 0.0;
        for k in OPENING_OUTCOMES {
            let (ours, theirs) = (k / 6 + 1, k % 6 + 1);
            let pips = (ours + theirs) as i32;
            opening += if ours > theirs {
                if a - pips <= 0 {
                    1.0
                } else {
                    1.0 - pip_race_win(b, a - pips, &mut memo)
                }
            } else if b - pips <= 0 {
                0.0
            } else {
                pip_race_win(a, b - pips, &mut memo)
            } / 30.0;
        }
        let z = (o.probabilities.win - opening) / o.std_errors.win;
        assert!(z.abs() < 3.0, "opening {a} v {b}: rollout {} exact {opening}", o.probabilities.win);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    #[test]
    fn results_are_consistent_anywhere(seed in 0u64..1000, plies in 0usize..40, trials in 1u64..60) {
        // A position reached by random play.
        let mut stream = gammon_backgammon::DiceStream::new(seed, 0);
        let mut p = Position::initial();
        for _ in 0..plies {
            let plays = p.legal_plays(stream.roll());
            let next = plays[stream.below(plays.len())].position;
            if next.we_have_won() {
                break;
            }
            p = next.swapped();
        }
        let opts = options(trials, seed, 2);
        let r = rollout(&p, &BuiltinPolicy::Pubeval, &opts).unwrap();
        check_invariants(&r);
        proptest::prop_assert_eq!(r.trials, trials);
        // A candidate's result is the opponent's rollout of the position after it, turned round.
        let dice = gammon_backgammon::Dice::new(3, 1).unwrap();
        let ranked = rollout_plays(&p, dice, &BuiltinPolicy::Pubeval, &opts).unwrap();
        let first = &ranked[0];
        let theirs = rollout(&first.play.position.swapped(), &BuiltinPolicy::Pubeval, &opts).unwrap();
        proptest::prop_assert_eq!(first.result.sums, theirs.sums.flipped(false));
        proptest::prop_assert!((first.result.equity + theirs.equity).abs() < 1e-12);
    }
}

/// Exact outcome probabilities of the toy race for the side to roll.
fn pip_race_exact(a: i32, b: i32, memo: &mut HashMap<(i32, i32), Probabilities>) -> Probabilities {
    if let Some(&v) = memo.get(&(a, b)) {
        return v;
    }
    let mut v = [0.0; 5];
    for dice in ALL_ROLLS {
        let pips = pips(dice);
        let w = dice.weight() as f64 / 36.0;
        let next =
            match gammon_backgammon::DiceGame::result(&PipRace, &Counts { to_roll: b, other: a - pips }) {
                Some(points) => Probabilities::from_points(-points),
                None => pip_race_exact(b, a - pips, memo).flipped(),
            };
        for (acc, x) in v.iter_mut().zip(next.to_array()) {
            *acc += w * x;
        }
    }
    let v = Probabilities::from_array(v);
    memo.insert((a, b), v);
    v
}

struct PipRaceExact(HashMap<(i32, i32), Probabilities>);

impl Evaluator<Counts> for PipRaceExact {
    fn evaluate(&self, p: &Counts) -> Probabilities {
        self.0[&(p.to_roll, p.other)]
    }
}

#[test]
fn variance_reduction_handles_gammons_from_both_sides() {
    let mut memo = HashMap::new();
    for a in 1..=80 {
        for b in 1..=80 {
            pip_race_exact(a, b, &mut memo);
        }
    }
    let exact = pip_race_exact(50, 45, &mut memo);
    assert!(exact.win_gammon > 0.01 && exact.lose_gammon > 0.01 && exact.lose_backgammon > 0.001);
    let policy = EvaluatorPolicy::new(PipRaceExact(memo), "exact");
    let start = Counts { to_roll: 50, other: 45 };
    let r = rollout_game(&PipRace, Start::Position(start), &policy, &options(360, 5, 2), None).unwrap();
    assert!(r.variance_reduction);
    for ((got, want), err) in
        r.probabilities.to_array().iter().zip(exact.to_array()).zip(r.std_errors.to_array())
    {
        assert!((got - want).abs() < 1e-9 && err < 1e-7, "{r:?} vs {exact:?}");
    }
    assert!(r.plain_std_error > 0.05);
}

/// A built-in policy making the same choices, but claiming less of them, so that a rollout makes
/// them afresh: never [`Policy::deterministic`] (the first two plies are played again in every
/// trial), and with `reuses_best` false, not [`Policy::chooses_the_evaluators_best`] either (each
/// choice is made again after the luck pass).
struct Afresh<P> {
    policy: P,
    reuses_best: bool,
}

impl<P: Policy<Backgammon>> Policy<Backgammon> for Afresh<P> {
    fn choose(
        &self,
        game: &Backgammon,
        position: &Position,
        dice: gammon_backgammon::Dice,
        plays: &[gammon_backgammon::Play],
        stream: &mut gammon_backgammon::DiceStream,
    ) -> usize {
        self.policy.choose(game, position, dice, plays, stream)
    }

    fn evaluator(&self) -> Option<&dyn Evaluator<Position>> {
        self.policy.evaluator()
    }

    fn roll_values(
        &self,
        game: &Backgammon,
        position: &Position,
        plays: &mut Vec<gammon_backgammon::Play>,
        out: &mut [Probabilities; 21],
        best: &mut [usize; 21],
    ) -> bool {
        self.policy.roll_values(game, position, plays, out, best)
    }

    fn chooses_the_evaluators_best(&self) -> bool {
        self.reuses_best && self.policy.chooses_the_evaluators_best()
    }

    fn forget_history(&self) {
        self.policy.forget_history()
    }

    fn name(&self) -> &str {
        "afresh"
    }
}

#[test]
fn reusing_the_luck_pass_choice_changes_nothing() {
    let p = pos!(24 => 2, 13 => 4, 8 => 3, 6 => 5, 5 => 1, 1 => -2, 12 => -5, 17 => -3, 19 => -4, 20 => -1);
    let o = options(72, 3, 2);
    assert!(o.variance_reduction);
    // The net policies measure the luck of contact on the screen's first plays, not on their
    // choices; the bot at 0-ply measures it on its choices.
    assert!(!BuiltinPolicy::NetFast.chooses_the_evaluators_best());
    assert!(!BuiltinPolicy::NetAll.chooses_the_evaluators_best());
    let policy = crate::search::Bot::new(0).unwrap();
    assert!(policy.chooses_the_evaluators_best());
    let reused = rollout(&p, &policy, &o).unwrap();
    let afresh = rollout(&p, &Afresh { policy, reuses_best: false }, &o).unwrap();
    // The same games (the setups differ only in the policies' names).
    assert_eq!(reused.sums, afresh.sums);
    assert_eq!(reused.equity.to_bits(), afresh.equity.to_bits());
    assert!(reused.variance_reduction && reused.std_error < reused.plain_std_error);
}

#[test]
fn the_first_two_plies_played_once_give_the_same_games() {
    let p = pos!(24 => 2, 13 => 4, 8 => 3, 6 => 5, 5 => 1, 1 => -2, 12 => -5, 17 => -3, 19 => -4, 20 => -1);
    assert!(BuiltinPolicy::NetFast.deterministic() && !BuiltinPolicy::Random.deterministic());
    // `net` carries its hidden sums from turn to turn: the same games all the same.
    for (policy, reduce) in [
        (BuiltinPolicy::Pubeval, false),
        (BuiltinPolicy::NetFast, false),
        (BuiltinPolicy::NetFast, true),
        (BuiltinPolicy::Net, false),
        (BuiltinPolicy::Net, true),
    ] {
        for threads in [1, 2] {
            let o = RolloutOptions { variance_reduction: reduce, ..options(108, 3, threads) };
            let once = rollout(&p, &policy, &o).unwrap();
            let afresh = rollout(&p, &Afresh { policy, reuses_best: true }, &o).unwrap();
            assert_eq!(once.sums, afresh.sums, "{policy:?} {reduce} {threads}");
            let once = rollout_opening(&policy, &o).unwrap();
            let afresh = rollout_opening(&Afresh { policy, reuses_best: true }, &o).unwrap();
            assert_eq!(once.sums, afresh.sums, "opening {policy:?} {reduce} {threads}");
        }
    }
}

#[test]
fn the_setup_names_the_shipped_weights_the_policy_plays() {
    let p = pos!(24 => 2, 13 => 4, 8 => 3, 6 => 5, 5 => 1, 1 => -2, 12 => -5, 17 => -3, 19 => -4, 20 => -1);
    let o = options(4, 3, 1);
    let named = format!("weights={}", crate::net::shipped_weights());
    for policy in [BuiltinPolicy::Net, BuiltinPolicy::NetFast, BuiltinPolicy::NetAll] {
        assert!(rollout(&p, &policy, &o).unwrap().setup.contains(&named), "{policy:?}");
    }
    assert!(rollout(&p, &crate::search::Bot::new(0).unwrap(), &o).unwrap().setup.contains(&named));
    // Pubeval's weights never change, and a net being trained has no name yet.
    assert!(!rollout(&p, &BuiltinPolicy::Pubeval, &o).unwrap().setup.contains("weights="));
    let training = crate::net::NeuralNet::random(8, 1);
    let policy = crate::NetPolicy::new(&training, crate::net::screen::Screen::builtin(), 8);
    assert!(!rollout(&p, &policy, &o).unwrap().setup.contains("weights="));
}
