//! Agreement with GNU Backgammon's move generator on fixtures it produced
//! (`scripts/oracle/gen_legal_plays.py`): positions from real games, each with a roll and gnubg's
//! set of resulting positions.

use gammon_backgammon::{Dice, Position};
use std::collections::BTreeSet;

fn fixture(name: &str) -> String {
    let path = format!("{}/../../tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// Rows of `position_id,d1,d2,results,...`; returns how many rows agreed (all, or it panics).
fn check(name: &str) -> usize {
    let text = fixture(name);
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&header[..4], &["position_id", "d1", "d2", "results"]);
    let mut rows = 0;
    let mut failures = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split(',').collect();
        let position = Position::from_id(cols[0]).unwrap();
        let dice = Dice::new(cols[1].parse().unwrap(), cols[2].parse().unwrap()).unwrap();
        let expected: BTreeSet<&str> = cols[3].split_whitespace().collect();
        let ours: BTreeSet<String> = position.legal_plays(dice).iter().map(|p| p.position.id()).collect();
        let ours: BTreeSet<&str> = ours.iter().map(|s| s.as_str()).collect();
        // The positions-only generator must give the same set, each position once.
        let only = gammon_backgammon::legal_positions(&position, dice);
        let only_ids: BTreeSet<String> = only.iter().map(|p| p.id()).collect();
        if only_ids.len() != only.len()
            || only_ids.iter().map(|s| s.as_str()).collect::<BTreeSet<_>>() != expected
        {
            failures.push(format!("{} {}: legal_positions differs from gnubg", cols[0], dice.to_text()));
        }
        if ours != expected {
            failures.push(format!(
                "{} {}: gnubg {} results, ours {}; only gnubg: {:?}; only ours: {:?}",
                cols[0],
                dice.to_text(),
                expected.len(),
                ours.len(),
                expected.difference(&ours).collect::<Vec<_>>(),
                ours.difference(&expected).collect::<Vec<_>>()
            ));
        }
        rows += 1;
    }
    assert!(failures.is_empty(), "{} of {rows} rows disagree:\n{}", failures.len(), failures.join("\n"));
    rows
}

#[test]
fn legal_plays_agree_with_gnubg_on_real_game_positions() {
    assert!(check("legal_plays.csv") >= 2000);
}

#[test]
fn edge_cases_agree_with_gnubg() {
    assert!(check("edge_cases.csv") >= 11);
}

#[test]
fn opening_counts_agree_with_gnubg() {
    let text = fixture("opening_counts.csv");
    let mut total = 0;
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split(',').collect();
        let position = Position::from_id(cols[0]).unwrap();
        let dice = Dice::new(cols[1].parse().unwrap(), cols[2].parse().unwrap()).unwrap();
        let n: usize = cols[3].parse().unwrap();
        assert_eq!(position.legal_plays(dice).len(), n, "roll {}", dice.to_text());
        total += n;
    }
    assert_eq!(total, 447);
}
