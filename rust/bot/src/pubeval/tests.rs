use super::*;

#[test]
fn opening_scores_match_the_reference_values() {
    let p = Position::initial();
    assert!((score(&p, Phase::Contact) - 6.84055).abs() < 5e-6);
    assert!((score(&p, Phase::Race) - 9.93903).abs() < 5e-6);
}

#[test]
fn chooses_the_listed_opening_plays() {
    // formats.md section 6: pubeval's choice for each non-double opening roll.
    let expected = [
        ("21", "24/21"),
        ("31", "8/5 6/5"),
        ("32", "24/21 13/11"),
        ("41", "24/20 24/23"),
        ("42", "8/4 6/4"),
        ("43", "24/20 24/21"),
        ("51", "24/18"),
        ("52", "13/8 13/11"),
        ("53", "8/3 6/3"),
        ("54", "24/15"),
        ("61", "13/7 8/7"),
        ("62", "24/16"),
        ("63", "24/15"),
        ("64", "24/14"),
        ("65", "24/13"),
    ];
    let p = Position::initial();
    for (roll, play) in expected {
        let dice = Dice::parse(roll).unwrap();
        let plays = p.legal_plays(dice);
        let chosen = plays[PubevalPolicy::best(&p, &plays)];
        let listed = p.parse_play(dice, play).unwrap();
        assert_eq!(
            chosen.position,
            listed.position,
            "roll {roll}: chose {}, listed {play}",
            chosen.notation()
        );
    }
}

#[test]
fn a_finished_bear_off_scores_highest() {
    let after = gammon_backgammon::pos!(19 => -2);
    assert_eq!(score(&after, Phase::Race), 99_999_999.0);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    #[test]
    fn gains_are_differences_of_scores(seed in 0u64..10_000, plies in 0usize..80) {
        let mut stream = DiceStream::new(seed, 1);
        let mut p = Position::initial();
        for _ in 0..plies {
            let plays = p.legal_plays(stream.roll());
            let next = plays[stream.below(plays.len())].position;
            if next.we_have_won() {
                break;
            }
            p = next.swapped();
        }
        let phase = Phase::of(&p);
        for roll in gammon_backgammon::ALL_ROLLS {
            for play in p.legal_plays(roll) {
                let full = score(&play.position, phase);
                if full == 99_999_999.0 {
                    proptest::prop_assert_eq!(gain(&p, &play, phase), full);
                } else {
                    let delta = full - score(&p, phase);
                    proptest::prop_assert!((gain(&p, &play, phase) - delta).abs() < 1e-9);
                }
            }
        }
    }
}
