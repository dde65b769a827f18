//! Real `.mat` exports from several producers (Backgammon Galaxy, Backgammon Studio, GNU
//! Backgammon), collected from public repositories: `tests/fixtures/mat-corpus/`, with each file's
//! origin in its `manifest.tsv`. Each file reads to the number of games and the final score GNU
//! Backgammon 1.07's `import mat` reads (`python tools/mat_gnubg.py` records and checks them), or,
//! where the file contradicts itself, is refused by a message naming the line the manifest gives.

use gammon_backgammon::Match;

fn corpus() -> String {
    format!("{}/../../tests/fixtures/mat-corpus", env!("CARGO_MANIFEST_DIR"))
}

/// The file as text: UTF-8, or else Latin-1 (some producers write player names in it).
fn text(path: &str) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    String::from_utf8(bytes).unwrap_or_else(|e| e.into_bytes().iter().map(|&b| b as char).collect())
}

#[test]
fn every_real_file_reads_as_gnubg_reads_it_or_is_refused_at_its_line() {
    let manifest = text(&format!("{}/manifest.tsv", corpus()));
    let mut checked = 0;
    for (k, line) in manifest.lines().enumerate().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [file, _producer, _repo, _path, games, score, refused] = cols[..] else {
            panic!("manifest.tsv line {}: expected 7 columns, got {line:?}", k + 1)
        };
        let read = Match::from_mat(&text(&format!("{}/{file}", corpus())));
        if !refused.is_empty() {
            let e = read.err().unwrap_or_else(|| panic!("{file} was read; the manifest says refused"));
            assert!(e.to_string().starts_with(&format!(".mat line {refused}:")), "{file}: {e}");
        } else {
            let m = read.unwrap_or_else(|e| panic!("{file}: {e}"));
            let games: usize = games.parse().unwrap();
            assert_eq!(m.games().len(), games, "{file}: games");
            assert_eq!(format!("{}-{}", m.score()[0], m.score()[1]), score, "{file}: final score");
        }
        checked += 1;
    }
    assert!(checked >= 50, "only {checked} files in the corpus");
}
