use super::*;
use crate::DiceStream;
use proptest::prelude::*;

const INITIAL_XGID: &str = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10";

fn initial_list() -> Vec<i64> {
    Position::initial().to_list()
}

fn message(text: &str) -> String {
    read_position(text).unwrap_err().message().to_string()
}

#[test]
fn every_notation_reads_the_initial_position() {
    let list = initial_list();
    let spaced = list.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
    let cases = [
        ("4HPwATDgc/ABMA", Notation::PositionId),
        ("4HPwATDgc/ABMA:cAkAAAAAAAAA", Notation::GnubgId),
        ("cAkAAAAAAAAA:4HPwATDgc/ABMA", Notation::GnubgId),
        (" 4HPwATDgc/ABMA : cAkAAAAAAAAA ", Notation::GnubgId),
        (INITIAL_XGID, Notation::Xgid),
        (&INITIAL_XGID[5..], Notation::Xgid),
        ("XGID=-b----E-C---eE---c-e----B-", Notation::XgidBoard),
        ("-b----E-C---eE---c-e----B-", Notation::XgidBoard),
        (&format!("{list:?}"), Notation::List),
        (&spaced, Notation::List),
        (&format!("  {}\n", spaced.replace(' ', ",")), Notation::List),
        (&format!("[ {} ]", spaced.replace(' ', " ,\t")), Notation::List),
        ("initial", Notation::Named),
        (" Opening\t", Notation::Named),
        ("START", Notation::Named),
    ];
    for (text, notation) in cases {
        let read = read_position(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(read.position, Position::initial(), "{text:?}");
        assert_eq!(read.notation, notation, "{text:?}");
        let carries_a_match = matches!(notation, Notation::GnubgId | Notation::Xgid);
        assert_eq!(read.match_state.is_some(), carries_a_match, "{text:?}");
    }
}

#[test]
fn the_named_starts_have_one_meaning_each() {
    let opening = read_position("opening").unwrap();
    assert_eq!(opening.named, Some(NamedStart::Opening));
    assert_eq!(opening.rollout_start().unwrap(), Start::Opening(Position::initial()));
    assert!(opening.on_roll().unwrap_err().message().contains("\"initial\""));
    assert_eq!(opening.with_dice(Dice::new(6, 5).unwrap()).unwrap(), Position::initial());
    let double = opening.with_dice(Dice::new(4, 4).unwrap()).unwrap_err();
    assert!(double.message().contains("never a double") && double.message().contains("44"), "{double}");

    for text in ["initial", "start"] {
        let initial = read_position(text).unwrap();
        assert_eq!(initial.named, Some(NamedStart::Initial));
        assert_eq!(initial.named.map(NamedStart::name), Some("initial"));
        assert_eq!(initial.rollout_start().unwrap(), Start::Position(Position::initial()));
        assert_eq!(initial.on_roll().unwrap(), Position::initial());
        assert_eq!(initial.with_dice(Dice::new(4, 4).unwrap()).unwrap(), Position::initial());
    }
    // Nothing else is a name, and the ID readers are left to say why.
    assert!(read_position("openings").is_err());
    assert_eq!(read_position("4HPwATDgc/ABMA").unwrap().named, None);
}

#[test]
fn ids_bring_their_game() {
    let read = read_position("4HPwATDgc/ABMA:cIkWAAAAAAAA").unwrap();
    assert_eq!(read.dice(), Some(Dice::new(5, 5).unwrap()));
    assert!(read.game().is_some());
    let xgid = read_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:1:2:0:5:10").unwrap();
    assert_eq!(xgid.dice(), Some(Dice::new(3, 1).unwrap()));
    assert_eq!(xgid.match_state.as_ref().map(|m| (m.length(), m.score())), Some((5, [2, 1])));
    let plain = read_position("4HPwATDgc/ABMA").unwrap();
    assert_eq!((plain.dice(), plain.game().is_none()), (None, true));
    // The bare board of an XGID is a board only: no cube, no score.
    assert!(read_position("-b----E-C---eE---c-e----B-").unwrap().game().is_none());
}

#[test]
fn errors_name_what_was_wrong() {
    let cases = [
        ("", "has 0 characters; a Position ID has 14"),
        ("nonsense", "invalid Position ID \"nonsense\""),
        ("AAAAAAAAAAAAA!", "not base64"),
        ("4HPwATDgc/ABMA:junk", "is not a GNU Backgammon ID"),
        ("4HPwATDgc/ABMA:cAkAAAAAAAA!", "invalid Match ID"),
        ("XGID=nonsense", "invalid XGID"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10", "dice field"),
        ("-b----E-C---eE---c-e----B!", "character 25"),
        ("[0, 1, 2]", "a board has 26 entries"),
        ("0 -2 x", "entry 2 is \"x\", not an integer"),
        ("[0, -2", "brackets are not paired"),
        ("1.5 2", "entry 0 is \"1.5\""),
    ];
    for (text, expected) in cases {
        let got = message(text);
        assert!(got.contains(expected), "{text:?}: {got}");
    }
    let sixteen: Vec<i64> = [vec![0, 16], vec![0; 24]].concat();
    assert!(message(&format!("{sixteen:?}")).contains("entry 1 of the board is 16"));
}

#[test]
fn the_list_text_keeps_its_kind_of_error() {
    assert!(matches!(read_position("[1]").unwrap_err(), Error::InvalidPosition(_)));
    assert!(matches!(read_position("4HPwATDgc/ABMA:junk").unwrap_err(), Error::InvalidFormat(_)));
}

/// A position reached by `plies` random plays from the start, stopping before the game ends.
fn random_position(seed: u64, plies: usize) -> Position {
    let mut stream = DiceStream::new(seed, 0);
    let mut position = Position::initial();
    for _ in 0..plies {
        let plays = position.legal_plays(Dice::from_outcome(stream.outcome()));
        let next = plays[stream.below(plays.len())].position;
        if next.we_have_won() {
            break;
        }
        position = next.swapped();
    }
    position
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_written_form_reads_back(seed in any::<u64>(), plies in 0usize..200) {
        let p = random_position(seed, plies);
        let spaced = p.to_list().iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
        for text in [p.id(), p.xgid(), format!("{:?}", p.to_list()), spaced] {
            let read = read_position(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            prop_assert_eq!(read.position, p, "{}", text);
        }
    }
}
