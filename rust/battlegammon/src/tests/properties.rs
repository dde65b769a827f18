//! Properties over random games, and a check of the play generator against a second, naive
//! reading of the turn rules that works on the token lists of `to_list`.

use super::*;
use crate::{Game, Outcome, Rules, TOKENS};
use gammon_core::dice::DiceStream;
use proptest::prelude::*;

/// A play as the reference lists it: the moves, the resulting fields joined by `/`, whether it wins.
type Listed = (Vec<(u8, u8)>, String, bool);

/// The reference: fields as token strings, the moved token remembered by where it landed.
fn reference_plays(p: &Position, d: Dice, rules: &Rules) -> Vec<Listed> {
    let me = p.turn();
    let start = me.start_field() as usize;
    let goal = me.goal_field() as usize;
    let mine = me.letter();
    let can_leave = |fields: &[String], f: usize| {
        if f == start {
            fields[f - 1].starts_with(mine)
        } else {
            f != goal && fields[f - 1].ends_with(mine)
        }
    };
    let step = |fields: &[String], from: usize, die: usize| -> Option<Vec<String>> {
        let to = if me == Side::White { from + die } else { from.checked_sub(die)? };
        if !(1..=24).contains(&to) || (to != goal && fields[to - 1].len() >= 2) {
            return None;
        }
        let mut next = fields.to_vec();
        if from == start {
            next[from - 1].remove(0);
        } else {
            next[from - 1].pop();
        }
        // On the goal (a start field) finished tokens follow the owner's, so appending fits too.
        next[to - 1].push(mine);
        Some(next)
    };
    let won = |fields: &[String]| {
        let in_goal = fields[goal - 1].chars().filter(|&c| c == mine).count();
        let across: Vec<usize> = (1..=24)
            .filter(|&f| !me.owns_colour_of(f as u8))
            .map(|f| fields[f - 1].chars().filter(|&c| c == mine).count())
            .collect();
        let count = if rules.count_distinct_fields {
            across.iter().filter(|&&n| n > 0).count()
        } else {
            across.iter().sum()
        };
        in_goal >= 3 || count >= 8
    };
    let fields = p.to_list();
    let mut out: Vec<Listed> = Vec::new();
    if won(&fields) || p.winner_with(rules).is_some() {
        return out;
    }
    let orders = if d.is_double() {
        vec![(d.high(), d.low())]
    } else {
        vec![(d.high(), d.low()), (d.low(), d.high())]
    };
    for (a, b) in orders {
        for from in 1..=24 {
            if !can_leave(&fields, from) {
                continue;
            }
            let Some(one) = step(&fields, from, a as usize) else { continue };
            let to = if me == Side::White { from + a as usize } else { from - a as usize };
            if won(&one) {
                out.push((vec![(from as u8, to as u8)], one.join("/"), true));
                continue;
            }
            let mut second = false;
            for from2 in (1..=24).filter(|&f| f != to) {
                if !can_leave(&one, from2) {
                    continue;
                }
                if let Some(two) = step(&one, from2, b as usize) {
                    let to2 = if me == Side::White { from2 + b as usize } else { from2 - b as usize };
                    second = true;
                    let wins = won(&two);
                    out.push((vec![(from as u8, to as u8), (from2 as u8, to2 as u8)], two.join("/"), wins));
                }
            }
            if !second {
                out.push((vec![(from as u8, to as u8)], one.join("/"), false));
            }
        }
    }
    if out.is_empty() {
        out.push((vec![], fields.join("/"), false));
    }
    if rules.maximize_dice {
        if out.iter().any(|(m, _, w)| m.len() == 2 || *w) {
            out.retain(|(m, _, w)| m.len() == 2 || *w);
        } else if out.iter().any(|(m, _, _)| m.len() == 1 && m[0].0.abs_diff(m[0].1) == d.high()) {
            out.retain(|(m, _, _)| m[0].0.abs_diff(m[0].1) == d.high());
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|(_, fields, _)| seen.insert(fields.clone()));
    out
}

/// Plays a random game, checking every position and play on the way; returns how it ended.
fn random_game(seed: u64, rules: Rules) -> (Option<Outcome>, u32) {
    let mut game = Game::new(Some(seed), rules).unwrap();
    let mut choice = DiceStream::new(seed, 1);
    while !game.is_over() {
        let p = *game.position();
        check_position(&p);
        let d = game.roll().unwrap();
        let plays = game.legal_plays().unwrap();
        check_plays(&p, d, &rules, &plays);
        let play = plays[choice.below(plays.len())];
        game.play(&play).unwrap();
    }
    (game.outcome(), game.turns())
}

fn check_position(p: &Position) {
    p.validate().unwrap();
    let list = p.to_list();
    for side in Side::BOTH {
        let total: usize = list.iter().map(|f| f.chars().filter(|&c| c == side.letter()).count()).sum();
        assert_eq!(total, TOKENS as usize, "{p:?}");
    }
    for (k, field) in list.iter().enumerate().skip(1).take(22) {
        assert!(field.len() <= 2, "field {} of {p:?}", k + 1);
    }
    assert_eq!(Position::from_id(&p.id()).unwrap(), *p);
    assert!(!p.is_deadlocked(), "{p:?}");
}

fn check_plays(p: &Position, d: Dice, rules: &Rules, plays: &[Play]) {
    let mut keys: Vec<u128> = plays.iter().map(|pl| pl.position.key()).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), plays.len(), "duplicate results in {plays:?}");
    for play in plays {
        // Replaying the moves one by one: each starts from a free token, and the lower token of
        // every full stack (the pinned one) stays where it is.
        let mut q = *p;
        for (i, m) in play.moves().iter().enumerate() {
            assert!(q.origins(p.turn()).any(|f| f == m.from), "{m:?} of {play:?} from {p:?}");
            if i == 1 {
                assert_ne!(m.from, play.moves()[0].to, "the token of the first move moved again");
            }
            let next = q.after_move(m.from, m.to);
            for f in 2..24 {
                if q.stack(f).is_full() {
                    assert_eq!(next.stack(f).bottom(), q.stack(f).bottom(), "pinned token on {f} moved");
                }
            }
            q = next;
        }
        assert_eq!(q.passed(), play.position);
        let mut used: Vec<u8> = play.moves().iter().map(|m| m.distance()).collect();
        used.sort_unstable();
        assert!(used.len() <= 2 && used.iter().all(|&u| u == d.high() || u == d.low()));
        if used.len() == 2 {
            assert_eq!(used, [d.low(), d.high()]);
        }
    }
    let reference = reference_plays(p, d, rules);
    let ours: Vec<Listed> =
        plays.iter().map(|pl| (pl.move_pairs(), pl.position.to_list().join("/"), pl.wins())).collect();
    assert_eq!(ours, reference, "{p:?} {d:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_games_keep_the_invariants_and_end_with_a_win(seed in any::<u64>()) {
        let (outcome, turns) = random_game(seed, Rules::default());
        // The cap is never what ends them: tokens only move forward, no position is deadlocked,
        // so progress runs out only when someone has won.
        prop_assert!(matches!(outcome, Some(Outcome::Win(_))));
        prop_assert!(turns <= Rules::default().turn_cap);
    }

    #[test]
    fn random_games_under_every_option_keep_the_invariants(seed in any::<u64>(), maximize in any::<bool>(), distinct in any::<bool>()) {
        let rules = Rules { maximize_dice: maximize, count_distinct_fields: distinct, ..Rules::default() };
        let (outcome, turns) = random_game(seed, rules);
        prop_assert!(outcome.is_some() && turns <= rules.turn_cap);
    }
}
