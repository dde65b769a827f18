//! The seed corpus through every check, without a fuzzer: a quick `cargo test` that the
//! properties hold on the fixtures (run `fuzz/seeds.sh` first to write them).

use std::path::Path;

#[test]
fn seeds_hold_the_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("out/seeds");
    assert!(root.is_dir(), "no seeds at {}: run fuzz/seeds.sh first", root.display());
    for (name, check) in gammon_fuzz::TARGETS {
        let dir = root.join(name);
        let mut count = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            check(&std::fs::read(&path).unwrap());
            count += 1;
        }
        assert!(count > 0, "no seeds in {}", dir.display());
    }
}

#[test]
fn the_play_positions_are_valid() {
    for id in gammon_fuzz::PLAY_POSITIONS {
        gammon_backgammon::Position::from_id(id).unwrap();
    }
}

#[cfg(feature = "server")]
#[test]
fn server_seeds_read() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("out/seeds/server_json");
    for entry in std::fs::read_dir(&dir).unwrap() {
        gammon_fuzz::server_json(&std::fs::read(entry.unwrap().path()).unwrap());
    }
}
