//! Random action sequences, legal or not, never break the invariants of games and matches.

use gammon_backgammon::{Action, CubeRules, DiceStream, Match, Phase, ResultKind};
use proptest::prelude::*;

/// Per-player borne-off counts, (player 0, player 1).
fn off_by_player(m: &Match) -> [u8; 2] {
    let g = m.game();
    let (a, b) = g.position().off();
    match g.turn() {
        Some(1) => [b, a],
        _ => [a, b],
    }
}

fn state_key(m: &Match) -> (String, usize, usize, [u32; 2]) {
    (m.game().gnubg_id(), m.game().history().len(), m.games().len(), m.score())
}

/// Tries an action drawn from `kind` (0..200, weighted towards rolls and plays so that games run to
/// their end); any of them may be refused.
fn attempt(m: &mut Match, kind: u8, pick: &mut DiceStream) -> bool {
    let g = m.game_mut();
    let r = match kind {
        0..=89 => g.roll().map(|_| ()),
        90..=179 => {
            let plays = g.legal_plays();
            if plays.is_empty() {
                g.play_text("24/18").map(|_| ())
            } else {
                g.play(&plays[pick.below(plays.len())])
            }
        }
        180..=185 => g.double(),
        186..=189 => g.take(),
        190 => g.drop(),
        191..=192 => g.beaver(),
        193 => g.resign(ResultKind::from_multiplier(1 + pick.below(3) as u32).unwrap()),
        194..=195 => g.accept_resignation(),
        196..=197 => g.reject_resignation(),
        _ => m.next_game(),
    };
    r.is_ok()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold(seed in any::<u64>(), length in prop::sample::select(vec![0u32, 1, 3, 5]),
                       kinds in prop::collection::vec(0u8..200, 100..2500)) {
        let rules = CubeRules::new(seed % 2 == 0, true, 64).unwrap();
        let mut m = Match::with_rules(length, Some(seed), rules).unwrap();
        let mut pick = DiceStream::new(seed, 1);
        let mut owner = None;
        let mut off = [0u8; 2];
        let mut ended = 0;
        for kind in kinds {
            let before = state_key(&m);
            let was_over = m.is_over();
            let games = m.games().len();
            let phase_before = m.game().phase();
            if !attempt(&mut m, kind, &mut pick) {
                prop_assert_eq!(state_key(&m), before, "a refused action changed something");
                continue;
            }
            if m.games().len() != games {
                owner = None;
                off = [0, 0];
            }
            let g = m.game();
            match g.history().last() {
                // After a beaver the first doubler takes, and the beaverer keeps the cube.
                Some(Action::Take { player }) if phase_before != Phase::Beavered => owner = Some(*player),
                Some(Action::Beaver { player, .. }) => owner = Some(*player),
                _ => {}
            }
            prop_assert_eq!(g.cube_owner(), owner, "the owner is the last taker");
            prop_assert!(g.cube_value().is_power_of_two() && g.cube_value() <= 64);
            let now = off_by_player(&m);
            prop_assert!(now[0] >= off[0] && now[1] >= off[1], "borne-off checkers never come back");
            off = now;
            let (ours, theirs) = g.position().off();
            let on_board: i32 = g.position().board().iter().map(|&n| (n as i32).abs()).sum();
            prop_assert_eq!(on_board + ours as i32 + theirs as i32, 30);
            let after = m.score();
            prop_assert!(after[0] >= before.3[0] && after[1] >= before.3[1], "scores only grow");
            if m.is_over() && !was_over {
                ended += 1;
                prop_assert_eq!(after.iter().copied().max(), Some(length));
            }
            prop_assert!(!was_over || m.is_over(), "a finished match stays finished");
            if g.is_over() {
                prop_assert!(g.result().unwrap().points >= 1);
                prop_assert!(matches!(g.phase(), Phase::Over(_)));
            }
        }
        prop_assert!(ended <= 1);
        prop_assert_eq!(m.is_over(), ended == 1);
        prop_assert!(m.games().iter().filter(|g| g.context().crawford).count() <= 1);
        for g in m.games() {
            let again = g.replayed().unwrap();
            prop_assert!(again.same_state(g), "the history replays the game");
        }
        if length > 0 && m.is_over() {
            prop_assert!(m.next_game().is_err());
        }
    }
}
