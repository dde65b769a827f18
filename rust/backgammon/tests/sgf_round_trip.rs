//! `.sgf` written by `Match::to_sgf` reads back to the same match: every real match file of
//! `tests/fixtures/mat-corpus/` (read from its `.mat`), and random matches and money sessions
//! played through the rules with cube actions and resignations.

use gammon_backgammon::{CubeRules, Match, ResultKind};
use proptest::prelude::*;

fn corpus() -> String {
    format!("{}/../../tests/fixtures/mat-corpus", env!("CARGO_MANIFEST_DIR"))
}

/// The file as text: UTF-8, or else Latin-1 (some producers write player names in it).
fn text(path: &str) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    String::from_utf8(bytes).unwrap_or_else(|e| e.into_bytes().iter().map(|&b| b as char).collect())
}

/// The same match: names, length, rules, and every game's history and result.
fn assert_same(a: &Match, b: &Match, what: &str) {
    assert_eq!(a.names(), b.names(), "{what}: names");
    assert_eq!(a.length(), b.length(), "{what}: length");
    assert_eq!(a.games().len(), b.games().len(), "{what}: games");
    for (k, (x, y)) in a.games().iter().zip(b.games()).enumerate() {
        assert_eq!(x.history(), y.history(), "{what}: game {} history", k + 1);
        assert_eq!(x.result(), y.result(), "{what}: game {} result", k + 1);
        assert_eq!(x.context(), y.context(), "{what}: game {} score", k + 1);
        assert_eq!(x.rules().jacoby, y.rules().jacoby, "{what}: game {} Jacoby", k + 1);
    }
    assert_eq!(a.score(), b.score(), "{what}: score");
}

#[test]
fn every_corpus_match_round_trips_through_sgf() {
    let manifest = text(&format!("{}/manifest.tsv", corpus()));
    let mut checked = 0;
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if !cols[6].is_empty() {
            continue; // refused as .mat: nothing to write
        }
        let m = Match::from_mat(&text(&format!("{}/{}", corpus(), cols[0]))).unwrap();
        let sgf = m.to_sgf().unwrap();
        let back = Match::from_sgf(&sgf).unwrap_or_else(|e| panic!("{}: {e}\n{sgf}", cols[0]));
        assert_same(&m, &back, cols[0]);
        // Written again, the text is the same.
        assert_eq!(back.to_sgf().unwrap(), sgf, "{}", cols[0]);
        checked += 1;
    }
    assert!(checked >= 50, "only {checked} corpus files");
}

/// A match (or money session) played at random from `seed`: `choices` steer the cube and
/// resignations, every move is a random legal play.
fn random_match(length: u32, jacoby: bool, beavers: bool, choices: &[u8], seed: u64) -> Match {
    let rules = CubeRules { jacoby, beavers, ..CubeRules::default() };
    let mut m = Match::with_rules(length, Some(seed), rules).unwrap();
    m.set_names("White ]side[", "Black \\ side");
    let mut c = choices.iter().copied().cycle();
    let games = if length == 0 { 3 } else { 40 };
    for _ in 0..games {
        let mut turns = 0;
        while !m.game().is_over() && turns < 400 {
            turns += 1;
            let g = m.game_mut();
            let pick = c.next().unwrap_or(0);
            if g.double_offered() {
                let r = match pick % 4 {
                    0 => g.drop(),
                    1 if g.rules().beavers => g.beaver(),
                    _ => g.take(),
                };
                if r.is_err() {
                    g.take().unwrap();
                }
                continue;
            }
            if g.resignation().is_some() {
                g.accept_resignation().unwrap();
                continue;
            }
            // Under the Jacoby rule a resigned gammon on a centred cube scores as a single, and
            // RE keeps only the points: such resignations do not round-trip, so none is offered.
            let jacoby_centred = g.rules().jacoby && g.cube_owner().is_none();
            if pick % 23 == 0 && !jacoby_centred {
                let kind =
                    [ResultKind::Single, ResultKind::Gammon, ResultKind::Backgammon][pick as usize % 3];
                if g.resign(kind).is_ok() {
                    continue;
                }
            }
            if g.dice().is_none() {
                if pick % 5 == 0 && g.may_double() && g.double().is_ok() {
                    continue;
                }
                g.roll().unwrap();
                continue;
            }
            let plays = g.legal_plays();
            let play = plays[pick as usize % plays.len()];
            g.play(&play).unwrap();
        }
        if !m.game().is_over() || m.is_over() || m.next_game().is_err() {
            break;
        }
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_matches_round_trip_through_sgf(
        length in prop::sample::select(vec![0u32, 1, 3, 5, 7]),
        jacoby in any::<bool>(),
        beavers in any::<bool>(),
        choices in prop::collection::vec(any::<u8>(), 1..64),
        seed in any::<u64>(),
    ) {
        let m = random_match(length, jacoby && length == 0, beavers && length == 0, &choices, seed);
        let sgf = m.to_sgf().unwrap();
        let back = Match::from_sgf(&sgf).unwrap_or_else(|e| panic!("{e}\n{sgf}"));
        assert_same(&m, &back, "random match");
    }
}

/// `tests/fixtures/sgf-gnubg/` (made by `tools/analysis/sgf_gnubg.py` with GNU Backgammon 1.07):
/// our `.sgf` of a corpus match, gnubg's `.mat` export of it and gnubg's `.sgf` of the corpus file.
#[test]
fn gnubg_reads_our_sgf_to_the_same_games_and_we_read_its_sgf() {
    let dir = format!("{}/../../tests/fixtures/sgf-gnubg", env!("CARGO_MANIFEST_DIR"));
    let results = text(&format!("{dir}/results.tsv"));
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(stem) = name.strip_suffix(".ours.sgf") else { continue };
        let (producer, file) = stem.split_once('_').unwrap();
        let original = std::fs::read_dir(format!("{}/{producer}", corpus()))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.file_stem().and_then(|s| s.to_str()) == Some(file))
            .unwrap();
        let m = Match::from_mat(&text(original.to_str().unwrap())).unwrap();
        assert_eq!(text(&format!("{dir}/{name}")), m.to_sgf().unwrap(), "{stem}");
        // gnubg keeps at most 31 characters of a name: the games, results and scores must agree.
        let named = |mut x: Match| {
            x.set_names(&m.names()[0], &m.names()[1]);
            x
        };
        assert_same(&named(Match::from_mat(&text(&format!("{dir}/{stem}.gnubg.mat"))).unwrap()), &m, stem);
        let theirs = named(Match::from_sgf(&text(&format!("{dir}/{stem}.gnubg.sgf"))).unwrap());
        // gnubg's .sgf has no node for a roll left unplayed before a resignation.
        let row = format!("{producer}/{file}.");
        let unplayed = results.lines().any(|l| l.starts_with(&row) && l.ends_with("before a resignation"));
        if unplayed {
            assert_eq!((theirs.games().len(), theirs.score()), (m.games().len(), m.score()), "{stem}");
        } else {
            assert_same(&theirs, &m, stem);
        }
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} fixtures");
}
