//! The luck net (`gammon_bot::net::luck`): the shipped weights give in Rust what they gave in
//! the program that trained them, and its roll features say what the legal plays say where the
//! rules decide it.

use gammon_backgammon::{legal_plays, Backgammon, DiceGame, DiceStream, Position, ALL_ROLLS};
use gammon_bot::net::luck::{roll_features, LuckNet};
use gammon_bot::net::Class;

/// `tests/fixtures/luck_values.txt`: for six contact, six race and six bear-off positions, the 21 equities
/// `tools/train_luck.py` computed with PyTorch from the same weights, written when it made them.
#[test]
fn the_shipped_luck_net_gives_the_trainers_values() {
    let text = include_str!("fixtures/luck_values.txt");
    let mut seen = [0; 3];
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let position = Position::from_id(fields[0]).unwrap();
        let class = Class::of(&position);
        let k = ["contact", "race", "bearoff"].iter().position(|c| *c == fields[1]).unwrap();
        assert_eq!(class, [Class::Contact, Class::Race, Class::BearOff][k], "{line}");
        seen[k] += 1;
        let want: Vec<f32> = fields[2..].iter().map(|f| f.parse().unwrap()).collect();
        let got = LuckNet::builtin().roll_equities(&position, class);
        assert_eq!(want.len(), 21);
        for (roll, (g, w)) in ALL_ROLLS.iter().zip(got.iter().zip(want)) {
            assert!((g - w).abs() < 2e-5, "{} {roll:?}: {g} against {w}", fields[0]);
        }
    }
    assert_eq!(seen, [6, 6, 6]);
}

#[test]
fn the_roll_features_agree_with_the_legal_plays() {
    // A legal play that hits moves a checker over open points onto a blot, which the first
    // feature looks for; a roll both of whose dice are blocked for a checker on the bar has no
    // play at all. Checked over the positions of self-play games with random plays.
    let mut stream = DiceStream::new(3, 0);
    let mut p = Position::initial();
    let (mut hits, mut dances) = (0, 0);
    for _ in 0..20_000 {
        let features = roll_features(&p);
        for (roll, f) in ALL_ROLLS.iter().zip(features) {
            let plays = legal_plays(&p, *roll);
            if plays.iter().any(|play| play.hits() > 0) {
                assert_eq!(f[0], 1.0, "{} {roll:?}", p.id());
                assert!(f[1] >= 1.0);
                hits += 1;
            }
            if f[7] == 1.0 {
                assert!(plays.len() == 1 && plays[0].moves().is_empty(), "{} {roll:?}", p.id());
                dances += 1;
            }
        }
        let all = legal_plays(&p, stream.roll());
        p = all[stream.below(all.len())].position.swapped();
        if Backgammon.result(&p).is_some() {
            p = Position::initial();
        }
    }
    assert!(hits > 10_000 && dances > 100, "{hits} {dances}");
}
