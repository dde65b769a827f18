//! `.mat` files both ways with GNU Backgammon (`scripts/oracle/gen_mat.py`):
//! files gnubg exported after playing itself must load here with the same plays, results and
//! scores, and files written here must load in gnubg with the same ones (gnubg's match record after
//! `import mat` is in `gnubg_records.csv`).
//!
//! The `ours_*.mat` files are this crate's output for seeded random matches; the test checks they
//! are still exactly what we write. Set `GAMMON_WRITE_FIXTURES=1` to rewrite them (then run the
//! oracle script again).

use gammon_backgammon::{Action, DiceStream, Game, Match, Phase, ResultKind};
use std::collections::BTreeMap;

fn dir() -> String {
    format!("{}/../../tests/fixtures/mat", env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> String {
    let path = format!("{}/{name}", dir());
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// A seeded random match: random legal plays, occasional doubles, drops and resignations.
fn random_match(length: u32, seed: u64) -> Match {
    let mut m = Match::new(length, Some(seed)).unwrap();
    m.set_names("Alice", "Bob");
    let mut choice = DiceStream::new(seed, 999);
    loop {
        let g = m.game_mut();
        match g.phase() {
            Phase::Over(_) => {
                if m.is_over() {
                    return m;
                }
                m.next_game().unwrap();
            }
            Phase::Opening => {
                g.roll().unwrap();
            }
            Phase::Rolling if g.may_double() && choice.unit() < 0.08 => g.double().unwrap(),
            Phase::Rolling if choice.unit() < 0.004 => {
                let kind = ResultKind::from_multiplier(1 + choice.below(3) as u32).unwrap();
                g.resign(kind).unwrap();
                g.accept_resignation().unwrap();
            }
            Phase::Rolling => {
                g.roll().unwrap();
            }
            Phase::Doubled if choice.unit() < 0.7 => g.take().unwrap(),
            Phase::Doubled | Phase::Beavered => g.drop().unwrap(),
            Phase::Moving(_) => {
                let plays = g.legal_plays();
                let p = plays[choice.below(plays.len())];
                g.play(&p).unwrap();
            }
        }
    }
}

const OURS: [(&str, u32, u64); 2] = [("ours_5pt.mat", 5, 31), ("ours_7pt.mat", 7, 47)];

#[test]
fn our_files_are_what_we_write() {
    for (name, length, seed) in OURS {
        let text = random_match(length, seed).to_mat().unwrap();
        if std::env::var("GAMMON_WRITE_FIXTURES").is_ok() {
            std::fs::write(format!("{}/{name}", dir()), &text).unwrap();
        }
        assert_eq!(read(name), text, "{name} is no longer what we write");
    }
}

/// What gnubg recorded for one file: the boards before each play (with dice and player), game
/// results, and the final score.
#[derive(Default, Debug)]
struct Record {
    plays: BTreeMap<usize, Vec<(u8, String, String)>>,
    results: BTreeMap<usize, (u8, u32)>,
    score: Option<[u32; 2]>,
}

fn gnubg_records() -> BTreeMap<String, Record> {
    let mut out: BTreeMap<String, Record> = BTreeMap::new();
    for line in read("gnubg_records.csv").lines().skip(1).filter(|l| !l.is_empty()) {
        let c: Vec<&str> = line.split(',').collect();
        let r = out.entry(c[0].to_string()).or_default();
        match c[2] {
            "play" => {
                let game: usize = c[1].parse().unwrap();
                let mut dice: Vec<char> = c[4].chars().collect();
                dice.sort_unstable_by(|a, b| b.cmp(a));
                r.plays.entry(game).or_default().push((
                    c[3].parse().unwrap(),
                    dice.into_iter().collect(),
                    c[5].into(),
                ));
            }
            "game" => {
                r.results.insert(c[1].parse().unwrap(), (c[6].parse().unwrap(), c[7].parse().unwrap()));
            }
            "score" => r.score = Some([c[6].parse().unwrap(), c[7].parse().unwrap()]),
            k => panic!("unknown row kind {k}"),
        }
    }
    out
}

/// Our view of a game in gnubg's terms: (player, dice, board before the play) for every play.
fn our_plays(game: &Game) -> Vec<(u8, String, String)> {
    let mut replay = Game::new(Some(0), *game.rules());
    let mut out = Vec::new();
    let h = game.history();
    for (i, a) in h.iter().enumerate() {
        match *a {
            Action::Play { player, dice, .. } => out.push((player, dice.to_text(), replay.position_id())),
            // gnubg records a roll that cannot be played as an empty play.
            Action::Roll { player, dice } if !matches!(h.get(i + 1), Some(Action::Play { .. })) => {
                out.push((player, dice.to_text(), replay.position_id()))
            }
            _ => {}
        }
        replay.apply(a).unwrap();
    }
    out
}

/// Compares a match of ours with gnubg's record of the same file; returns the plays compared.
fn compare(name: &str, m: &Match, rec: &Record) -> usize {
    assert_eq!(m.games().len(), rec.results.len().max(rec.plays.len()), "{name}: number of games");
    let mut plays = 0;
    for (k, game) in m.games().iter().enumerate() {
        let ours = our_plays(game);
        assert_eq!(ours, rec.plays[&(k + 1)], "{name} game {}: plays", k + 1);
        plays += ours.len();
        if let Some(&(winner, points)) = rec.results.get(&(k + 1)) {
            let r = game.result().unwrap_or_else(|| panic!("{name} game {} is over in gnubg", k + 1));
            assert_eq!((r.winner, r.points), (winner, points), "{name} game {}: result", k + 1);
        }
    }
    let score = rec.score.unwrap();
    let capped = score.map(|s| if m.length() > 0 { s.min(m.length()) } else { s });
    assert_eq!(m.score(), capped, "{name}: final score");
    plays
}

#[test]
fn our_files_load_in_gnubg_alike() {
    let recs = gnubg_records();
    let mut plays = 0;
    for (name, length, seed) in OURS {
        let m = random_match(length, seed);
        assert!(m.is_over());
        plays += compare(name, &m, &recs[name]);
    }
    eprintln!("gnubg imported our .mat files: {plays} plays, every board, result and score agree");
}

#[test]
fn gnubg_exports_load_in_ours() {
    let recs = gnubg_records();
    let mut plays = 0;
    for name in ["gnubg_selfplay_3pt.mat", "gnubg_selfplay_5pt.mat"] {
        let m = Match::from_mat(&read(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(m.is_over(), "{name}: the match is complete");
        plays += compare(name, &m, &recs[name]);
        // Written back and read again, it is the same match.
        let again = Match::from_mat(&m.to_mat().unwrap()).unwrap();
        for (a, b) in m.games().iter().zip(again.games()) {
            assert_eq!(a.history(), b.history(), "{name}: round trip");
        }
    }
    eprintln!("our reader on gnubg's exports: {plays} plays agree");
}

/// Hand-written files in the layouts other producers use, each with what GNU Backgammon's importer
/// makes of it: (file, final score, points of each game).
const EDGES: [(&str, [u32; 2], &[u32]); 5] = [
    ("edge_and_the_match.mat", [1, 0], &[1]),
    ("edge_resign_after_roll.mat", [1, 1], &[1, 1]),
    // gnubg reads `Wins 3` with the cube at 2 as a resigned gammon: 4 points (checked with
    // `python tools/mat_gnubg.py tests/fixtures/mat`).
    ("edge_deciding_match_length.mat", [3, 0], &[1, 4]),
    ("edge_deciding_points_needed.mat", [3, 0], &[4]),
    ("edge_losses_empty_name.mat", [1, 1], &[1, 1]),
];

#[test]
fn other_producers_layouts_read() {
    for (name, score, points) in EDGES {
        let m = Match::from_mat(&read(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(m.score(), score, "{name}");
        let got: Vec<u32> = m.games().iter().map(|g| g.points()).collect();
        assert_eq!(got, points, "{name}");
        assert!(m.games().iter().all(Game::is_over), "{name}");
        // What we read, we write back in our own layout and read again alike.
        let again = Match::from_mat(&m.to_mat().unwrap()).unwrap_or_else(|e| panic!("{name} rewritten: {e}"));
        assert_eq!(again.score(), score, "{name} rewritten");
    }
    let m = Match::from_mat(&read("edge_losses_empty_name.mat")).unwrap();
    assert_eq!(m.names()[0], "");
}

/// Still refused, naming the line: results the replay contradicts, a roll left unplayed without a
/// resignation after it.
#[test]
fn inconsistent_files_are_refused_with_the_line() {
    let head = " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n";
    let cases = [
        // A roll with a legal play left unplayed, then the game goes on.
        ("  1) 31: 8/5 6/5                 42:\n  2) 62: 24/18 13/11\n", "line 5"),
        // A 1-point drop does not end the match, so 2 points is wrong.
        ("  1) 31: 8/5 6/5                 64: 24/18 13/9\n  2)  Doubles => 2                Drops\n      Wins 2 points and the match\n", "line 7"),
    ];
    for (body, line) in cases {
        let e = Match::from_mat(&format!("{head}{body}")).unwrap_err().to_string();
        assert!(e.contains(line), "{body:?}: {e}");
    }
    // Five points with the cube at 1 in a 7-point match: not 1-3 times the cube, and even a
    // backgammon would not decide the match.
    let seven = head.replace(" 3 point match", " 7 point match");
    let body = "  1) 31: 8/5 6/5                 64: 24/18 13/9\n      Wins 5 points\n";
    let e = Match::from_mat(&format!("{seven}{body}")).unwrap_err().to_string();
    assert!(e.contains("line 6") && e.contains("not a win of the match"), "{e}");
}
