//! The match equity table built into the engine is the same file as the one in `data/met/`,
//! which the documentation and the Python package describe: one table, two places, no drift.

use gammon_backgammon::met::KAZAROSS_XG2_JSON;

#[test]
fn the_builtin_met_is_the_one_in_data_met() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/met/met_kazaross_xg2.json");
    let shared = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(shared == KAZAROSS_XG2_JSON, "rust/backgammon/data/met_kazaross_xg2.json differs from {path}");
}
