use super::*;
use crate::pos;
use proptest::prelude::*;
use std::collections::HashSet;

fn d(a: u8, b: u8) -> Dice {
    Dice::new(a, b).unwrap()
}

fn results(p: &Position, dice: Dice) -> HashSet<Position> {
    legal_plays(p, dice).iter().map(|pl| pl.position).collect()
}

fn notations(p: &Position, dice: Dice) -> Vec<String> {
    let mut v: Vec<String> = legal_plays(p, dice).iter().map(|pl| pl.notation()).collect();
    v.sort();
    v
}

#[test]
fn opening_counts_per_roll() {
    let expected = [
        ((1, 1), 42),
        ((2, 1), 15),
        ((2, 2), 75),
        ((3, 1), 16),
        ((3, 2), 17),
        ((3, 3), 73),
        ((4, 1), 14),
        ((4, 2), 18),
        ((4, 3), 17),
        ((4, 4), 52),
        ((5, 1), 8),
        ((5, 2), 8),
        ((5, 3), 9),
        ((5, 4), 9),
        ((5, 5), 4),
        ((6, 1), 10),
        ((6, 2), 14),
        ((6, 3), 14),
        ((6, 4), 14),
        ((6, 5), 7),
        ((6, 6), 11),
    ];
    let p = Position::initial();
    let mut total = 0;
    for ((a, b), n) in expected {
        assert_eq!(legal_plays(&p, d(a, b)).len(), n, "roll {a}{b}");
        total += n;
    }
    assert_eq!(total, 447);
}

// The edge cases are in the mover's numbering; a lone opposing checker sits out of the way where
// the case has none, so the game is not over.
#[test]
fn bear_off_with_both_dice_or_one_checker() {
    let p = pos!(1 => 1, 2 => 1, 0 => -1);
    // Both off, or one checker using both dice (2/1/off) and one left on the 1-point.
    assert_eq!(notations(&p, d(1, 2)), vec!["2/off", "2/off 1/off"]);
    assert_eq!(notations(&p, d(5, 6)), vec!["2/off 1/off"]);
}

#[test]
fn double_ones_from_the_back() {
    let p = pos!(24 => 2, 1 => -1);
    assert_eq!(notations(&p, d(1, 1)), vec!["24/20", "24/22(2)", "24/23 24/21"]);
}

#[test]
fn intermediate_points_must_be_open() {
    let hit = pos!(24 => 1, 18 => -1);
    assert_eq!(notations(&hit, d(5, 6)), vec!["24/13", "24/18*/13"]);
    let block = pos!(24 => 1, 18 => -2);
    assert_eq!(notations(&block, d(5, 6)), vec!["24/13"]);
    let none = legal_plays(&block, d(6, 6));
    assert_eq!(none.len(), 1);
    assert!(none[0].is_empty());
    assert_eq!(none[0].position, block);
}

#[test]
fn bar_entry_first() {
    let p = pos!(25 => 1, 19 => -1);
    assert_eq!(notations(&p, d(5, 6)), vec!["bar/14", "bar/19*/14"]);
    let q = pos!(25 => 1, 6 => 1, 24 => -2, 23 => -2, 20 => -2, 19 => -2, 18 => -2, 2 => -2);
    assert_eq!(notations(&q, d(3, 4)), vec!["bar/21 6/3"]);
    let two = pos!(25 => 2, 22 => -1, 19 => -2);
    assert_eq!(notations(&two, d(3, 3)), vec!["bar/22*(2)"]);
    assert_eq!(legal_plays(&two, d(3, 3))[0].position.at(0), -1);
}

#[test]
fn bar_checkers_that_cannot_all_enter_forfeit_the_rest() {
    // Two on the bar, only the 5 enters: one entry and nothing else.
    let p = pos!(25 => 2, 13 => 5, 24 => -2, 23 => -2, 22 => -2, 21 => -2, 19 => -2);
    assert_eq!(notations(&p, d(5, 3)), vec!["bar/20"]);
}

#[test]
fn doubles_in_the_home_board() {
    let p = pos!(4 => 1, 3 => 1, 2 => 4, 22 => -2);
    assert_eq!(results(&p, d(2, 2)).len(), 4);
    let q = pos!(10 => 4, 22 => -1, 4 => -2);
    assert_eq!(notations(&q, d(3, 3)), vec!["10/7(4)"]);
}

#[test]
fn larger_die_when_only_one_can_be_played() {
    // 6 or 5 from 24; after either, the other die is blocked: only the 6 may be played.
    let p = pos!(24 => 1, 13 => -2, 12 => -2, 7 => -2, 8 => -2, 19 => -2, 1 => -1);
    let plays = notations(&p, d(6, 5));
    assert_eq!(plays, vec!["24/18"]);
}

#[test]
fn both_dice_when_the_smaller_first_allows_it() {
    // The 5 cannot be played first (7/2 is blocked, nothing else may bear off yet), but 7/6 then
    // 6/1 plays both: so both must be played.
    let p = pos!(7 => 1, 1 => 1, 2 => -2);
    assert_eq!(notations(&p, d(5, 1)), vec!["7/1"]);
}

#[test]
fn bear_off_with_a_higher_die_only_from_the_highest_point() {
    let p = pos!(5 => 1, 3 => 1, 24 => -1);
    // The 6 bears off only from the 5 while it is the highest point; after 5/1 the 3 is highest.
    assert_eq!(notations(&p, d(6, 4)), vec!["5/1 3/off", "5/off 3/off"]);
    // With 4-1 the 4 cannot bear off the 3 while the 5 is occupied.
    assert!(notations(&p, d(4, 1)).iter().all(|s| !s.starts_with("3/off")));
}

#[test]
fn a_finished_side_has_no_moves() {
    let p = pos!(19 => -1);
    let plays = legal_plays(&p, d(6, 5));
    assert_eq!(plays.len(), 1);
    assert!(plays[0].is_empty());
}

/// Whether no roll lets the player on roll move.
fn no_roll_moves(p: &Position) -> bool {
    (0..36).all(|k| legal_plays(p, Dice::from_outcome(k)).iter().all(|play| play.moves().is_empty()))
}

#[test]
fn closed_out_on_the_bar_against_a_closed_board() {
    let ours = [25, 25, 6, 6, 6, 6, 6, 8, 8, 8, 13, 13, 13, 13, 13];
    // Their home board, our points 19 to 24, closed, then with the 22 point open.
    let theirs = [19, 19, 20, 20, 21, 21, 22, 22, 23, 23, 24, 24, 12, 12, 12];
    let closed = position_from(&ours, &theirs);
    assert!(closed.closed_out() && no_roll_moves(&closed));
    let theirs = [19, 19, 20, 20, 21, 21, 12, 12, 23, 23, 24, 24, 12, 12, 12];
    let open = position_from(&ours, &theirs);
    assert!(!open.closed_out() && !no_roll_moves(&open));
}

/// An independent, slow generator: every order of every die, no pruning, then the usage rules.
fn naive(p: &Position, dice: Dice) -> HashSet<Position> {
    fn go(p: &Position, dice: &[usize], used: Vec<usize>, out: &mut Vec<(Position, Vec<usize>)>) {
        let mut moved = false;
        for k in 0..dice.len() {
            for from in 1..=25 {
                if let Some(to) = destination_of(p, from, dice[k]) {
                    moved = true;
                    let mut q = *p;
                    q.apply_move(from, to);
                    let mut rest = dice.to_vec();
                    rest.remove(k);
                    let mut u = used.clone();
                    u.push(dice[k]);
                    go(&q, &rest, u, out);
                }
            }
        }
        if !moved {
            out.push((*p, used));
        }
    }
    let dice_list: Vec<usize> = if dice.is_double() {
        vec![dice.high() as usize; 4]
    } else {
        vec![dice.high() as usize, dice.low() as usize]
    };
    let mut all = Vec::new();
    go(p, &dice_list, vec![], &mut all);
    let most = all.iter().map(|(_, u)| u.len()).max().unwrap();
    let mut keep: Vec<&(Position, Vec<usize>)> = all.iter().filter(|(_, u)| u.len() == most).collect();
    if most == 1 && !dice.is_double() && keep.iter().any(|(_, u)| u[0] == dice.high() as usize) {
        keep.retain(|(_, u)| u[0] == dice.high() as usize);
    }
    keep.iter().map(|(q, _)| *q).collect()
}

/// A legal position from two lists of slots: ours over 1..=25 (bar) and theirs over 0 (bar)..=24,
/// where a slot value of 26 means borne off and clashes send their checker off.
fn position_from(ours: &[u8], theirs: &[u8]) -> Position {
    let mut board = [0i8; 26];
    for &s in ours {
        if (1..=25).contains(&s) {
            board[s as usize] += 1;
        }
    }
    for &s in theirs {
        if s <= 24 && board[s as usize] <= 0 && s != 25 {
            board[s as usize] -= 1;
        }
    }
    Position::from_board(board).unwrap_or_else(|_| {
        board[25] = 0;
        Position::from_board(board).unwrap()
    })
}

/// Checkers cluster near the home boards, as in real games, so bear-offs and blocks appear often.
fn slot_strategy() -> impl Strategy<Value = u8> {
    prop_oneof![1u8..=6, 1u8..=26, 1u8..=25, Just(26u8)]
}

fn position_strategy() -> impl Strategy<Value = Position> {
    (prop::collection::vec(slot_strategy(), 15), prop::collection::vec(slot_strategy(), 15)).prop_map(
        |(ours, theirs)| {
            let theirs: Vec<u8> = theirs.iter().map(|&s| if s == 26 { 26 } else { 25 - s }).collect();
            position_from(&ours, &theirs)
        },
    )
}

fn count(p: &Position) -> (u32, u32) {
    let b = p.board();
    let ours: u32 = b.iter().filter(|&&n| n > 0).map(|&n| n as u32).sum();
    let theirs: u32 = b.iter().filter(|&&n| n < 0).map(|&n| (-n) as u32).sum();
    (ours + p.off().0 as u32, theirs + p.off().1 as u32)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn agrees_with_the_naive_generator(p in position_strategy(), roll in 0u8..36) {
        let dice = Dice::from_outcome(roll);
        prop_assert_eq!(results(&p, dice), naive(&p, dice));
    }

    #[test]
    fn plays_keep_every_invariant(p in position_strategy(), roll in 0u8..36) {
        let dice = Dice::from_outcome(roll);
        let plays = legal_plays(&p, dice);
        let used = plays[0].moves().len();
        let mut seen = HashSet::new();
        for play in &plays {
            prop_assert!(seen.insert(play.position), "duplicate result");
            prop_assert_eq!(play.moves().len(), used, "plays use different numbers of dice");
            let most = if dice.is_double() { 4 } else { 2 };
            prop_assert!(used <= most);
            prop_assert_eq!(count(&play.position), (15, 15));
            let mut drop = 0u32;
            let mut dice_left: Vec<u32> = if dice.is_double() { vec![dice.high() as u32; 4] } else { vec![dice.high() as u32, dice.low() as u32] };
            for m in play.moves() {
                let dist = (m.from - m.to) as u32;
                drop += dist;
                // Each move is exactly one die, or a bear-off with a larger die.
                let k = dice_left.iter().position(|&x| x == dist)
                    .or_else(|| if m.to == 0 { dice_left.iter().position(|&x| x > dist) } else { None });
                prop_assert!(k.is_some(), "move {:?} matches no die left of {:?}", m, dice_left);
                dice_left.remove(k.unwrap());
            }
            prop_assert_eq!(p.pips().0 - play.position.pips().0, drop);
            prop_assert_eq!(play.hits(), (p.at(0) - play.position.at(0)) as u32);
            prop_assert!(play.position.pips().1 >= p.pips().1);
        }
    }

    #[test]
    fn ids_round_trip(p in position_strategy()) {
        prop_assert_eq!(Position::from_id(&p.id()).unwrap(), p);
        prop_assert_eq!(Position::from_xgid(&p.xgid()).unwrap(), p);
        prop_assert_eq!(p.swapped().swapped(), p);
        prop_assert_eq!(p.swapped().pips(), (p.pips().1, p.pips().0));
    }

    #[test]
    fn closed_out_is_no_roll_moving_from_the_bar(p in position_strategy()) {
        // Off the bar a player can be primed without being closed out.
        if p.board()[crate::board::BAR] > 0 {
            prop_assert_eq!(p.closed_out(), no_roll_moves(&p));
        } else {
            prop_assert!(!p.closed_out());
        }
    }

    #[test]
    fn every_play_reads_back_from_its_notation(p in position_strategy(), roll in 0u8..36) {
        let dice = Dice::from_outcome(roll);
        for play in legal_plays(&p, dice) {
            let back = p.parse_play(dice, &play.notation());
            prop_assert!(back.is_ok(), "{} -> {:?}", play.notation(), back);
            prop_assert_eq!(back.unwrap().position, play.position);
        }
    }
}
