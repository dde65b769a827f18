use super::*;
use gammon_backgammon::moves::legal_plays;
use gammon_backgammon::pos;
use gammon_core::dice::{DiceStream, ALL_ROLLS};
use screen::Screen;

/// Positions from games of random plays, to test on more than a few hand-made ones.
pub(super) fn sample_positions(count: usize) -> Vec<Position> {
    let mut out = vec![];
    let mut stream = DiceStream::new(11, 0);
    let mut p = Position::initial();
    while out.len() < count {
        let plays = legal_plays(&p, stream.roll());
        let next = plays[stream.below(plays.len())].position.swapped();
        if Backgammon.result(&next).is_some() {
            p = Position::initial();
        } else {
            out.push(next);
            p = next;
        }
    }
    out
}

#[test]
fn batched_candidates_match_single_evaluations() {
    // A width of the general code, and the two shipped widths (80 and 256), which have builds of
    // their own, in both nets.
    let (builtin, fast) = (NeuralNet::builtin(), NeuralNet::fast());
    let wide_race = NeuralNet {
        contact: fast.contact.clone(),
        race: fast.race.widened(256, 4),
        back_game: None,
        ..*fast
    };
    for net in [&NeuralNet::random(32, 9), builtin, fast, &wide_race] {
        batched_candidates_match_single_evaluations_of(net);
    }
    // And with heads, on the general width and the wide build.
    for net in [&NeuralNet::random(32, 9), builtin] {
        batched_candidates_match_single_evaluations_of(&with_head(net));
    }
}

/// `net` with a head on its contact net whose output weights are not zero, so that it counts.
fn with_head(net: &NeuralNet) -> NeuralNet {
    let mut contact = net.contact.deepened(16, 3);
    let head = contact.head.as_mut().unwrap();
    head.out.iter_mut().enumerate().for_each(|(i, w)| *w = ((i % 7) as f32 - 3.0) * 0.05);
    NeuralNet { contact, race: net.race.clone(), back_game: net.back_game.clone(), ..*net }
}

fn batched_candidates_match_single_evaluations_of(net: &NeuralNet) {
    let mut values = vec![];
    for p in sample_positions(200) {
        for dice in [ALL_ROLLS[0], ALL_ROLLS[7], ALL_ROLLS[20]] {
            let plays = legal_plays(&p, dice);
            net.evaluate_plays(&p, &plays, &mut values);
            assert_eq!(values.len(), plays.len());
            for (play, v) in plays.iter().zip(&values) {
                let expected = crate::value_after(&Backgammon, net, play);
                for (a, b) in v.to_array().iter().zip(expected.to_array()) {
                    assert!((a - b).abs() < 1e-5, "{p:?} {play}: {v:?} vs {expected:?}");
                }
            }
        }
    }
}

#[test]
fn outputs_are_consistent_probabilities() {
    let p = consistent(&[0.3, 0.5, 0.6, 0.9, 0.95]);
    assert_eq!(
        (p.win, p.win_gammon, p.win_backgammon),
        (0.30000001192092896, 0.30000001192092896, 0.30000001192092896)
    );
    assert!((p.lose_gammon - 0.7).abs() < 1e-6 && (p.lose_backgammon - 0.7).abs() < 1e-6);
    for position in sample_positions(300) {
        let v = NeuralNet::builtin().evaluate(&position);
        assert!(v.win >= v.win_gammon && v.win_gammon >= v.win_backgammon && v.win_backgammon >= 0.0);
        assert!(1.0 - v.win >= v.lose_gammon - 1e-12 && v.lose_gammon >= v.lose_backgammon);
    }
}

#[test]
fn weights_round_trip() {
    let net = NeuralNet::random(16, 2);
    assert_eq!(NeuralNet::from_bytes(&net.to_bytes()).unwrap(), net);
    assert_eq!(&net.to_bytes()[..8], b"GAMMONN1");
    let deep = with_head(&net);
    assert_eq!(&deep.to_bytes()[..8], b"GAMMONN2");
    assert_eq!(NeuralNet::from_bytes(&deep.to_bytes()).unwrap(), deep);
    assert!(NeuralNet::from_bytes(b"not a net").is_err());
    let mut bytes = net.to_bytes();
    bytes.push(0);
    assert!(NeuralNet::from_bytes(&bytes).is_err());
}

#[test]
fn classes() {
    assert_eq!(Class::of(&Position::initial()), Class::Contact);
    assert_eq!(Class::of(&pos!(8 => 3, 6 => 2, 20 => -4)), Class::Race);
    assert_eq!(Class::of(&pos!(6 => 3, 20 => -4)), Class::BearOff);
}

#[test]
fn every_instruction_set_gives_the_same_bits() {
    // `evaluate_plays` picks a vectorised build at run time; rollouts must not depend on which.
    every_instruction_set_gives_the_same_bits_of(NeuralNet::builtin());
    every_instruction_set_gives_the_same_bits_of(&with_head(NeuralNet::builtin()));
}

fn every_instruction_set_gives_the_same_bits_of(net: &NeuralNet) {
    let (mut fast, mut plain) = (vec![], vec![]);
    for p in sample_positions(300) {
        let plays = legal_plays(&p, ALL_ROLLS[9]);
        net.prepare(&p).evaluate_with(&plays, &mut plain, None);
        net.evaluate_plays(&p, &plays, &mut fast);
        assert_eq!(fast, plain, "{p:?}");
        #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
        {
            let bits = super::has_bit_instructions();
            if bits && std::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU supports AVX-512F and the bit instructions.
                unsafe { net.prepare(&p).evaluate_avx512(&plays, &mut fast, None) };
                assert_eq!(fast, plain, "AVX-512 {p:?}");
            }
            if bits && std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2 and the bit instructions.
                unsafe { net.prepare(&p).evaluate_avx2(&plays, &mut fast, None) };
                assert_eq!(fast, plain, "AVX2 {p:?}");
            }
        }
    }
}

#[test]
fn positions_alone_give_the_plays_values_to_the_bit() {
    // The search judges the positions-only generator's results; the rankings judge plays. Both
    // nets, races, bear-offs, hits and entering checkers all come up in these games.
    for net in [NeuralNet::builtin(), NeuralNet::fast()] {
        let (mut by_play, mut by_position, mut positions) = (vec![], vec![], vec![]);
        for p in sample_positions(300) {
            for dice in ALL_ROLLS {
                let plays = legal_plays(&p, dice);
                net.prepare(&p).evaluate_plays(&plays, &mut by_play);
                gammon_backgammon::legal_positions_into(&p, dice, &mut positions);
                net.prepare(&p).evaluate_positions(&positions, &mut by_position);
                assert_eq!(positions.len(), plays.len());
                for (q, v) in positions.iter().zip(&by_position) {
                    let k = plays.iter().position(|play| play.position == *q).expect("the same results");
                    assert_eq!(by_play[k], *v, "{p:?} {}", dice.to_text());
                }
                let best = net.prepare(&p).best_of(&plays);
                match net.prepare(&p).best_of_positions(&positions) {
                    Some((k, v)) => assert_eq!((plays[best.0].position, best.1), (positions[k], v)),
                    // A tie at the top: the first of equals needs the plays' order.
                    None => assert!(by_position.iter().filter(|v| v.equity() == best.1.equity()).count() > 1),
                }
            }
        }
    }
}

#[test]
fn best_of_is_the_first_best_candidate() {
    // Without a head every candidate is judged in full.
    let net = NeuralNet::fast();
    let mut values = vec![];
    for p in sample_positions(100) {
        let plays = legal_plays(&p, ALL_ROLLS[4]);
        net.evaluate_plays(&p, &plays, &mut values);
        let (k, v) = net.best_of(&p, &plays);
        assert_eq!(v, values[k]);
        assert!(values.iter().all(|x| x.equity() <= v.equity()));
        assert!(values[..k].iter().all(|x| x.equity() < v.equity()));
    }
}

/// Of the `candidates` (indices into `plays`), those that leave a position with the game going
/// on that `net`'s contact net judges (not its back-game net), and of those the ones a head
/// keeping `keep` judges: the best by the direct path's values `first_layer`, at most
/// `keep.most` (at least one), within `keep.margin` of the best.
fn head_judged(
    net: &NeuralNet,
    plays: &[Play],
    candidates: &[usize],
    first_layer: &[Probabilities],
    keep: Keep,
) -> (Vec<usize>, Vec<usize>) {
    let contact: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&k| {
            let after = plays[k].position.swapped();
            Backgammon.result(&after).is_none()
                && net.net_for(&after).is_some_and(|n| std::ptr::eq(n, &net.contact))
        })
        .collect();
    let mut ranked = contact.clone();
    ranked.sort_by(|&a, &b| first_layer[b].equity().total_cmp(&first_layer[a].equity()));
    let judged = ranked
        .iter()
        .take(keep.most.max(1))
        .enumerate()
        .take_while(|&(r, &k)| {
            r == 0 || first_layer[ranked[0]].equity() - first_layer[k].equity() <= keep.margin as f64
        })
        .map(|(_, &k)| k)
        .collect();
    (contact, judged)
}

#[test]
fn with_a_head_best_of_judges_the_direct_paths_best_contact_candidates() {
    let net = NeuralNet::builtin();
    let mut direct = net.clone();
    direct.contact.head = None;
    let (mut full, mut first_layer) = (vec![], vec![]);
    let (mut decisions, mut changed) = (0, 0);
    // The default (`best_of`), then narrower heads through `with_head`: at most 2, and the
    // default's 4 only within 0.06 of the direct path's best.
    let heads =
        [None, Some(Keep::from(2)), Some(Keep::from(super::HEAD_KEEP).within(0.06)), Some(Keep::from(1))];
    for p in sample_positions(300) {
        for dice in [ALL_ROLLS[2], ALL_ROLLS[9], ALL_ROLLS[15]] {
            let plays = legal_plays(&p, dice);
            net.evaluate_plays(&p, &plays, &mut full);
            direct.evaluate_plays(&p, &plays, &mut first_layer);
            let every: Vec<usize> = (0..plays.len()).collect();
            for head in heads {
                let keep = head.unwrap_or(Keep::from(super::HEAD_KEEP));
                let (contact, judged) = head_judged(net, &plays, &every, &first_layer, keep);
                let screened = keep.screens(plays.len());
                let eligible = |k: usize| !screened || !contact.contains(&k) || judged.contains(&k);
                let mut expected = None::<usize>;
                for k in (0..plays.len()).filter(|&k| eligible(k)) {
                    if expected.is_none_or(|e| full[k].equity() > full[e].equity()) {
                        expected = Some(k);
                    }
                }
                let expected = expected.unwrap();
                let chosen = match head {
                    None => net.best_of(&p, &plays),
                    Some(head) => net.prepare(&p).with_head(head).best_of(&plays),
                };
                assert_eq!(chosen, (expected, full[expected]), "{p:?} {} {keep:?}", dice.to_text());
                if head.is_none() {
                    let (unscreened, value) = net.prepare(&p).best_of_all(&plays);
                    assert_eq!(value, full[unscreened]);
                    decisions += 1;
                    changed += (unscreened != expected) as u32;
                }
            }
        }
    }
    // The direct path rarely misses the head's choice (about one contact decision in 250).
    assert!(changed * 50 < decisions, "{changed} of {decisions}");
}

#[test]
fn a_deepened_net_computes_the_same_function() {
    let net = NeuralNet::builtin();
    let deep = net.contact.deepened(32, 1);
    let mut x = [0.0f32; INPUTS];
    for p in sample_positions(50) {
        inputs::encode(&p, &mut x);
        assert_eq!(net.contact.forward(&x), deep.forward(&x));
    }
}

#[test]
fn a_grown_head_computes_the_same_function() {
    // A head of 16 units that counts, grown by the general code and to the widths with builds
    // of their own.
    let net = with_head(&NeuralNet::random(32, 9));
    let mut bare = net.contact.clone();
    bare.head = None;
    let mut x = [0.0f32; INPUTS];
    let mut head_counted = false;
    for units in [40, 64, 128] {
        let grown = net.contact.deepened(units, 4);
        assert_eq!(grown.head.as_ref().map(|h| h.units()), Some(units));
        for p in sample_positions(50) {
            inputs::encode(&p, &mut x);
            let (a, b) = (net.contact.forward(&x), grown.forward(&x));
            head_counted |= a != bare.forward(&x);
            for (u, v) in a.iter().zip(b) {
                assert!((u - v).abs() < 1e-6, "{units}: {a:?} vs {b:?}");
            }
        }
    }
    assert!(head_counted);
}

#[test]
fn a_widened_net_computes_the_same_function() {
    let net = NeuralNet::random(24, 3);
    // The general code, then the widths with builds of their own.
    for width in [40, 80, 128, 256] {
        let wide = net.contact.widened(width, 8);
        assert_eq!(wide.hidden(), width);
        let mut x = [0.0f32; INPUTS];
        for p in sample_positions(50) {
            inputs::encode(&p, &mut x);
            let (a, b) = (net.contact.forward(&x), wide.forward(&x));
            for (u, v) in a.iter().zip(b) {
                assert!((u - v).abs() < 1e-6, "{width}: {a:?} vs {b:?}");
            }
        }
    }
}

#[test]
fn a_widened_net_with_a_head_computes_the_same_function() {
    // A head that adds to the outputs (a new head adds nothing): the first layer's new units
    // must reach neither the outputs nor the head until trained.
    let mut net = NeuralNet::random(40, 3).contact.deepened(16, 5);
    let head = net.head.as_mut().unwrap();
    let mut next = shape::uniform(11);
    head.out.iter_mut().for_each(|w| *w = next());
    for width in [80, 256] {
        let wide = net.widened(width, 8);
        assert_eq!((wide.hidden(), wide.head.as_ref().map(|h| h.hidden())), (width, Some(width)));
        let mut x = [0.0f32; INPUTS];
        for p in sample_positions(50) {
            inputs::encode(&p, &mut x);
            let (a, b) = (net.forward(&x), wide.forward(&x));
            assert!(a.iter().zip(&b).all(|(u, v)| (u - v).abs() < 1e-5), "{width}: {a:?} vs {b:?}");
        }
    }
}

#[test]
fn roll_values_are_the_best_plays_of_each_roll() {
    let net = NeuralNet::builtin();
    let mut plays = vec![];
    let mut values = [Probabilities::default(); 21];
    let mut best = [0; 21];
    for p in sample_positions(40) {
        net.roll_values(&p, &mut plays, &mut values, &mut best);
        for ((value, k), roll) in values.iter().zip(best).zip(ALL_ROLLS) {
            assert_eq!((k, *value), net.best_of_all(&p, &legal_plays(&p, roll)), "{p:?} {roll:?}");
        }
    }
}

#[test]
fn a_game_goes_on_from_the_inputs_of_the_chosen_play() {
    let net = NeuralNet::builtin();
    let mut stream = DiceStream::new(5, 1);
    let (mut plies, mut derived) = (0, 0);
    for _game in 0..3 {
        let mut p = Position::initial();
        while Backgammon.result(&p).is_none() {
            let plays = legal_plays(&p, stream.roll());
            if !plays.is_empty() {
                plies += 1;
                derived +=
                    CHOSEN.with_borrow(|c| matches!(c, Some(super::Last::Chosen(c)) if c.after == p)) as u32;
                // Derived from the last choice where it can be: the same bits as afresh.
                let bits = |x: [f32; INPUTS]| x.map(f32::to_bits);
                assert_eq!(bits(net.prepare(&p).reference.x), bits(Reference::new(&p.swapped()).x), "{p:?}");
            }
            p = if plays.is_empty() {
                p.swapped()
            } else {
                plays[net.best_of(&p, &plays).0].position.swapped()
            };
        }
    }
    // Every ply but the first of each game and those after a dance follows a choice.
    assert!(derived > plies * 9 / 10, "{derived} of {plies}");
}

#[test]
fn screened_best_is_the_best_of_the_kept_plays() {
    let (net, screen) = (NeuralNet::builtin(), Screen::builtin());
    let mut direct = net.clone();
    direct.contact.head = None;
    let (mut values, mut first_layer, mut kept) = (vec![], vec![], vec![]);
    let mut differs = 0;
    for p in sample_positions(200) {
        for roll in [ALL_ROLLS[3], ALL_ROLLS[20]] {
            let plays = legal_plays(&p, roll);
            let (k, v) = net.best_of_screened(screen, 8, &p, &plays);
            screen.keep_best(&p, &plays, 8, &mut kept);
            assert!(kept.contains(&k), "{p:?} {roll:?}");
            net.evaluate_plays(&p, &plays, &mut values);
            assert_eq!(v, values[k]);
            // The first best of the kept plays that the head judges: of the kept contact
            // candidates, only the HEAD_KEEP that the direct path ranks highest.
            direct.evaluate_plays(&p, &plays, &mut first_layer);
            let head = Keep::from(super::HEAD_KEEP);
            let (contact, judged) = head_judged(net, &plays, &kept, &first_layer, head);
            let screened = head.screens(kept.len());
            for &j in kept.iter().filter(|j| !screened || !contact.contains(j) || judged.contains(j)) {
                assert!(values[j].equity() < v.equity() || (values[j].equity() == v.equity() && j >= k));
            }
            // Keeping every play is the plain best.
            assert_eq!(net.best_of_screened(screen, plays.len(), &p, &plays), net.best_of(&p, &plays));
            differs += (net.best_of(&p, &plays).0 != k) as u32;
        }
    }
    // The screen keeps the full nets' choice nearly always.
    assert!(differs < 20, "{differs} of 400 choices differ");
}

#[test]
fn screened_roll_values_are_the_screened_best_plays_of_each_roll() {
    let (net, screen) = (NeuralNet::builtin(), Screen::builtin());
    let mut plays = vec![];
    let mut values = [Probabilities::default(); 21];
    let mut best = [0; 21];
    for p in sample_positions(30) {
        net.roll_values_screened(screen, 8, &p, &mut plays, &mut values, &mut best);
        for ((value, k), roll) in values.iter().zip(best).zip(ALL_ROLLS) {
            let expected = net.best_of_screened(screen, 8, &p, &legal_plays(&p, roll));
            assert_eq!((k, *value), expected, "{p:?} {roll:?}");
        }
    }
}

#[test]
fn the_integer_head_judges_as_the_head_does() {
    let net = NeuralNet::builtin();
    let q = net.integer_head().expect("the bot's net has an integer head");
    let (mut x, mut sums, mut hidden) = ([0.0; INPUTS], [0.0; MAX_HIDDEN], [0.0; MAX_HIDDEN]);
    let (mut worst, mut contact) = (0.0f32, 0);
    for p in sample_positions(2000) {
        if Class::of(&p) != Class::Contact {
            continue;
        }
        contact += 1;
        encode(&p, &mut x);
        net.contact.hidden_sums(&x, &mut sums);
        net.contact.activate(&sums, &mut hidden);
        let hidden = &hidden[..net.contact.hidden()];
        let direct = net.contact.direct_logits(hidden);
        let (float, [integer]) =
            (net.contact.outputs(hidden), net.contact.outputs_integer(q, [hidden], [direct]));
        worst = float.iter().zip(integer).map(|(a, b)| (a - b).abs()).fold(worst, f32::max);
        assert_eq!(net.contact.outputs_integer(q, [hidden; 4], [direct; 4]), [integer; 4]);
    }
    assert!(contact > 1000);
    assert!(worst < 3e-4, "outputs differ by up to {worst}");
    assert!(worst > 0.0, "the integer head should round somewhere");
}

#[test]
fn choosing_only_takes_the_same_plays() {
    let net = NeuralNet::builtin();
    let keep = Keep::from(HEAD_KEEP).within(0.06);
    let (mut skipped, mut choices) = (0, 0);
    for p in sample_positions(300) {
        for dice in [ALL_ROLLS[2], ALL_ROLLS[9], ALL_ROLLS[16]] {
            let plays = legal_plays(&p, dice);
            let full = net.prepare(&p).with_head(keep).with_integer_head(true).best_of(&plays);
            let only =
                net.prepare(&p).with_head(keep).with_integer_head(true).choosing_only(true).best_of(&plays);
            assert_eq!(full.0, only.0, "{p:?} {dice:?}");
            choices += 1;
            skipped += (full.1 != only.1) as u32;
        }
    }
    // The head is left out of a fair share of choices, not of none.
    assert!(skipped * 10 > choices, "{skipped} of {choices}");
}

#[test]
fn four_candidates_at_once_are_judged_as_one_at_a_time() {
    // The shipped head (128 units), a 64-unit one, and a width of the general code.
    let (builtin, random) = (NeuralNet::builtin(), NeuralNet::random(32, 9));
    let mut wide64 = builtin.contact.clone();
    wide64.head = Some(head::Head::new(64, wide64.hidden(), 5));
    let head = wide64.head.as_mut().unwrap();
    head.out.iter_mut().enumerate().for_each(|(i, w)| *w = ((i % 5) as f32 - 2.0) * 0.05);
    let nets = [&builtin.contact, &with_head(&random).contact, &wide64];
    let mut x = [0.0; INPUTS];
    let (mut sums, mut hidden) = ([0.0; MAX_HIDDEN], vec![]);
    for net in nets {
        hidden.clear();
        for p in sample_positions(8) {
            encode(&p, &mut x);
            net.hidden_sums(&x, &mut sums);
            let mut h = [0.0; MAX_HIDDEN];
            net.activate(&sums, &mut h);
            hidden.push(h[..net.hidden()].to_vec());
        }
        for four in hidden.chunks_exact(4) {
            let direct = [0, 1, 2, 3].map(|i| net.direct_logits(&four[i]));
            let got = net.outputs_quad([&four[0], &four[1], &four[2], &four[3]], direct);
            let pair = net.outputs_pair([&four[0], &four[1]], [direct[0], direct[1]]);
            for ((h, y), d) in four.iter().zip(got).zip(direct) {
                assert_eq!(y.map(f32::to_bits), net.outputs(h).map(f32::to_bits));
                assert_eq!(y.map(f32::to_bits), net.outputs_given(h, d).map(f32::to_bits));
            }
            assert_eq!(pair.map(|y| y.map(f32::to_bits)), [got[0], got[1]].map(|y| y.map(f32::to_bits)));
        }
    }
}

/// A back game: they hold our 2- and 3-points, 60 pips behind.
fn held_board() -> [i8; 26] {
    let mut board = [0i8; 26];
    for (point, n) in [(4, 3), (5, 3), (6, 2), (7, 2), (8, 2), (9, 3), (2, -2), (3, -2), (19, -11)] {
        board[point] = n;
    }
    board
}

#[test]
fn back_games_are_told_from_either_side() {
    assert!(!back_game(&Position::initial()));
    let mut board = held_board();
    let held = Position::from_board(board).unwrap();
    assert_eq!(held.pips(), (96, 156));
    assert!(back_game(&held) && back_game(&held.swapped()));
    // One point held is not a back game.
    board[2] = 0;
    board[19] = -13;
    assert!(!back_game(&Position::from_board(board).unwrap()));
}

#[test]
fn the_bot_judges_back_games_by_their_own_net() {
    let net = NeuralNet::builtin();
    let back = net.back_game.as_ref().expect("the bot has a back-game net");
    let mut x = [0.0f32; inputs::INPUTS];
    for (p, by) in [(Position::from_board(held_board()).unwrap(), back), (Position::initial(), &net.contact)]
    {
        assert!(std::ptr::eq(net.net_for(&p).unwrap(), by));
        inputs::encode(&p, &mut x);
        assert_eq!(net.evaluate(&p), consistent(&by.forward(&x)));
    }
    // The nets read from a weights file have none.
    assert!(NeuralNet::fast().back_game.is_none());
}

#[test]
fn the_cheap_test_never_misses_a_back_game_a_play_leaves() {
    let (mut ruled_out, mut leading) = (0, 0);
    for p in sample_positions(3000) {
        let possible = back_game_possible(&p);
        ruled_out += !possible as u32;
        for dice in ALL_ROLLS {
            for play in legal_plays(&p, dice) {
                if back_game(&play.position) {
                    leading += 1;
                    assert!(possible, "{p:?} {} leads to a back game", dice.to_text());
                }
            }
        }
    }
    // The test is worth making: it rules most positions out, and some plays do lead to one.
    assert!(ruled_out > 1500 && leading > 0, "{ruled_out} ruled out, {leading} plays to a back game");
}

#[test]
fn carried_hidden_sums_are_the_fresh_ones_up_to_rounding() {
    let nets = NeuralNet::builtin();
    let (mut carried, mut fresh) = ([0.0f32; MAX_HIDDEN], [0.0f32; MAX_HIDDEN]);
    carry::forget();
    let (mut carries, mut worst) = (0, 0.0f32);
    // Turns of games in a row, as a game's choices prepare them.
    for p in sample_positions(600) {
        let Some(net) = nets.net(Class::of(&p)) else { continue };
        let x = Reference::new(&p.swapped()).x;
        carry::hidden_sums(net, &x, &mut carried);
        net.hidden_sums(&x, &mut fresh);
        for u in 0..net.hidden() {
            worst = worst.max((carried[u] - fresh[u]).abs() / (1.0 + fresh[u].abs()));
        }
        carries += (carry::last_carries() > 0) as usize;
    }
    assert!(worst < 1e-5, "{worst}");
    assert!(carries > 300, "{carries}");
    // Forgotten, they are summed afresh, to the bit.
    let p = pos!(24 => 2, 13 => 5, 8 => 3, 6 => 5, 1 => -2, 12 => -5, 17 => -3, 19 => -5);
    let net = nets.net(Class::Contact).unwrap();
    let x = Reference::new(&p.swapped()).x;
    carry::hidden_sums(net, &x, &mut carried);
    let mut x2 = x;
    x2[0] += 1.0;
    carry::hidden_sums(net, &x2, &mut carried);
    assert!(carry::last_carries() > 0);
    carry::forget();
    carry::hidden_sums(net, &x, &mut carried);
    net.hidden_sums(&x, &mut fresh);
    assert_eq!(carried, fresh);
    assert_eq!(carry::last_carries(), 0);
}
