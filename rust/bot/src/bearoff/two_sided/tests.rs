use super::*;
use crate::bearoff::ways;
use gammon_backgammon::pos;
use std::collections::HashMap;

#[test]
fn indices_cover_every_board_once() {
    assert_eq!(ways(POINTS, CHECKERS), BOARDS);
    for b in 0..BOARDS {
        let c = board(b);
        assert!(c.iter().map(|&n| n as usize).sum::<usize>() <= CHECKERS);
        assert_eq!(board_index(&c), Some(b));
    }
    assert_eq!(board_index(&[0; 6]), Some(0));
    assert_eq!(board_index(&[6, 0, 0, 0, 0, 0]), Some(BOARDS - 1));
    assert_eq!(board_index(&[0, 0, 0, 0, 0, 7]), None);
    assert_eq!(board_index(&[2, 2, 2, 1, 0, 0]), None);
}

/// The values of a pair computed again by plain memoised recursion, with moves from the
/// one-sided database's own generator (written apart from the engine's) rather than
/// [`legal_positions`], and positions keyed by its indices rather than ours: `[win, centred,
/// owned, theirs, dead]`, where `dead` is the equity when nobody may double.
struct Brute {
    memo: HashMap<(usize, usize), [f64; 5]>,
    results: Vec<(usize, bool)>,
}

impl Brute {
    fn value(&mut self, mover: usize, opponent: usize) -> [f64; 5] {
        if let Some(&v) = self.memo.get(&(mover, opponent)) {
            return v;
        }
        let c = crate::bearoff::unindex(mover);
        let mut sum = [0.0f64; 5];
        for d1 in 1..=6 {
            for d2 in d1..=6 {
                let w = if d1 == d2 { 1.0 } else { 2.0 } / 36.0;
                crate::bearoff::plays(&c, d1, d2, &mut self.results);
                let mut afters: Vec<usize> = self.results.iter().map(|r| r.0).collect();
                afters.sort_unstable();
                afters.dedup();
                let mut best = [-9.0f64; 5];
                for a in afters {
                    let v = if a == 0 {
                        [1.0; 5]
                    } else {
                        let o = self.value(opponent, a);
                        let take = 2.0 * o[3];
                        [1.0 - o[0], -o[1].max(take.min(1.0)), -o[3], -o[2].max(take.min(1.0)), -o[4]]
                    };
                    for k in 0..5 {
                        best[k] = best[k].max(v[k]);
                    }
                }
                for k in 0..5 {
                    sum[k] += w * best[k];
                }
            }
        }
        self.memo.insert((mover, opponent), sum);
        sum
    }
}

#[test]
fn the_database_agrees_with_a_plain_recursion() {
    // Every pair of boards with at most three checkers a side.
    let db = database();
    let mut brute = Brute { memo: HashMap::new(), results: Vec::new() };
    let small: Vec<usize> = (1..BOARDS).filter(|&b| board(b).iter().sum::<u8>() <= 3).collect();
    assert_eq!(small.len(), 83); // C(9, 3) boards, less the empty one
    let mut worst = 0.0f64;
    for &m in &small {
        for &o in &small {
            let one_sided = |b: usize| crate::bearoff::index(&board(b));
            let v = brute.value(one_sided(m), one_sided(o));
            let e = db.entry(m, o);
            for (ours, theirs) in [(e.win, v[0]), (e.centred, v[1]), (e.owned, v[2]), (e.theirs, v[3])] {
                worst = worst.max((ours - theirs).abs());
            }
            // A dead cube is worth the cubeless equity, 2p - 1 without gammons.
            assert!((v[4] - (2.0 * e.win - 1.0)).abs() < 1e-6, "{m} {o}: {} vs {}", v[4], e.win);
        }
    }
    assert!(worst < 1e-6, "{worst}");
}

#[test]
fn owning_the_cube_is_worth_something_and_the_opponents_costs() {
    // By induction on the pips: the cube owned by the opponent is worth at most a dead cube to
    // the player on roll, and owned by the player at least a dead cube; a centred cube lies
    // between (either side's option to double). Checked on every pair.
    let db = database();
    for m in 1..BOARDS {
        for o in 1..BOARDS {
            let e = db.entry(m, o);
            let dead = 2.0 * e.win - 1.0;
            let tol = 1e-5;
            assert!(e.theirs <= dead + tol && dead <= e.owned + tol, "{m} {o}: {e:?}");
            assert!(e.theirs <= e.centred + tol && e.centred <= e.owned + tol, "{m} {o}: {e:?}");
            assert!((0.0..=1.0).contains(&e.win) && e.theirs >= -1.0 - tol && e.owned <= 1.0 + tol);
        }
    }
}

#[test]
fn a_certain_bear_off_is_a_win_and_a_double_pass() {
    // Two checkers on the one-point come off with any roll, whatever the opponent has.
    for theirs in [pos!(2 => 2, 24 => -6), pos!(1 => 2, 19 => -6), pos!(1 => 1, 2 => 1, 24 => -1)] {
        let e = entry(&theirs).unwrap();
        assert_eq!((e.win, e.centred, e.owned, e.theirs), (1.0, 1.0, 1.0, 1.0));
        assert!(e.double_take() > 1.0 && e.best_centred() == 1.0);
    }
}

#[test]
fn a_last_roll_position_derived_by_hand() {
    // We have checkers on our 3- and 2-points; they have one checker on their 1-point and are
    // sure to finish next roll. We win only by bearing both off now: any two different dice of
    // 2 to 6 (20 rolls) or a double of 2 or more (5 rolls), 25 of 36. The game ends at their
    // roll whatever the cube, so the cube is dead: no double = 2p - 1 = 14/36, double/take twice
    // that, 28/36 < 1: a double and a take (a last roll is a double above 50% and a take up to
    // 75%).
    let e = entry(&pos!(3 => 1, 2 => 1, 24 => -1)).unwrap();
    let tol = 1e-6;
    assert!((e.win - 25.0 / 36.0).abs() < tol, "{e:?}");
    for nd in [e.centred, e.owned, e.theirs] {
        assert!((nd - 14.0 / 36.0).abs() < tol, "{e:?}");
    }
    assert!((e.best_centred() - 28.0 / 36.0).abs() < tol);
}

#[test]
fn positions_outside_the_database() {
    assert!(entry(&Position::initial()).is_none());
    // Seven checkers on one side's board.
    assert!(entry(&pos!(6 => 7, 24 => -1)).is_none());
    assert!(entry(&pos!(6 => 1, 18 => -1)).is_none());
    assert!(entry(&pos!(6 => 6, 19 => -6)).is_some());
}

#[test]
fn the_exact_win_chances_against_the_one_sided_approximation() {
    // The one-sided combination assumes each side plays to bear off in the fewest rolls on
    // average; where that is the winning play too the two agree. Both sides racing with one
    // checker each leaves no choice of play: they must agree exactly.
    for (ours, theirs) in [(6usize, 6usize), (5, 3), (2, 6), (4, 4)] {
        let mut cells = [0i8; 26];
        cells[ours] = 1;
        cells[25 - theirs] = -1;
        let p = Position::from_board(cells).unwrap();
        let exact = probabilities(&p).unwrap().win;
        let approx = crate::bearoff::one_sided_probabilities(&p).unwrap().win;
        assert!((exact - approx).abs() < 1e-6, "{ours} vs {theirs}: {exact} {approx}");
    }
}

#[test]
fn each_rolls_win_is_the_best_play_of_it_and_their_mean_the_entry() {
    // Checked against the engine's plays of the real position, each judged by a lookup of the
    // pair it leaves, rather than against the successor lists the database was built from.
    let db = database();
    let mut stream = gammon_backgammon::DiceStream::new(9, 0);
    let mut played = 0;
    for _ in 0..300 {
        let (mover, opponent) = (1 + stream.below(BOARDS - 1), 1 + stream.below(BOARDS - 1));
        let position = crate::bearoff::position_of(&board(mover), &board(opponent)).unwrap();
        assert_eq!(boards_of(&position), Some((mover, opponent)));
        let wins = db.roll_wins(mover, opponent);
        let mut mean = 0.0;
        let mut out = vec![];
        for (roll, &win) in ALL_ROLLS.iter().zip(&wins) {
            legal_positions_into(&position, *roll, &mut out);
            played += out.len();
            let best = out
                .iter()
                .map(|after| match probabilities(&after.swapped()) {
                    Some(theirs) => 1.0 - theirs.win,
                    None => 1.0,
                })
                .fold(0.0, f64::max);
            assert!((best - win).abs() < 1e-6, "{} {roll:?}: {win} against {best}", position.id());
            mean += roll.weight() as f64 / 36.0 * win;
        }
        assert!((mean - db.entry(mover, opponent).win).abs() < 1e-5, "{}", position.id());
    }
    assert!(played > 3000, "{played}");
}

#[test]
fn the_cache_check_passes_the_database_and_fails_a_changed_entry() {
    let s = successors();
    let mut values = database().values.clone();
    assert!(consistent(&values, &s));
    // The first pair of the check's sample with checkers on both sides, changed in its last bit.
    let k = (0..PAIRS).step_by(997).find(|k| k / BOARDS > 0 && k % BOARDS > 0).unwrap();
    values[k][1] = f32::from_bits(values[k][1].to_bits() ^ 1);
    assert!(!consistent(&values, &s));
}
