use super::*;

fn fixture(name: &str) -> String {
    let path = format!("{}/../../tests/fixtures/analysis/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn gnubgs_sgf_of_a_match_is_the_match_of_its_mat_file() {
    // noisy_7pt_c.sgf is GNU Backgammon 1.07's `save match` of noisy_7pt_c.mat after `import mat`.
    let from_sgf = Match::from_sgf(&fixture("noisy_7pt_c.sgf")).unwrap();
    let from_mat = Match::from_mat(&fixture("noisy_7pt_c.mat")).unwrap();
    assert_eq!(from_sgf.names(), from_mat.names());
    assert_eq!(from_sgf.games().len(), from_mat.games().len());
    for (a, b) in from_sgf.games().iter().zip(from_mat.games()) {
        assert_eq!(a.history(), b.history());
        assert_eq!(a.result(), b.result());
    }
    assert_eq!(from_sgf.score(), from_mat.score());
}

#[test]
fn bad_files_are_refused_with_the_line() {
    for (text, words) in [
        ("", "no game tree"),
        ("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]", "ends inside"),
        ("(;FF[4]GM[1])", "GM[6]"),
        ("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]\n;W[77ab])", "line 2"),
        ("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]\n;W[31hefe];W[31hefe])", "line 2"),
        ("(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]RE[W+9R]\n;W[31hefe])", "RE"),
        ("(;GM[6]MI[length:x])", "length"),
        ("((;GM[6]))", "variations"),
        ("(;GM[6]MI[length:1][game:0][ws:0][bs:0];W[31h\u{e9}fe])", "point letter"),
        ("(;GM[6]RE[W+)", "not closed"),
    ] {
        let e = Match::from_sgf(text).err().unwrap_or_else(|| panic!("{text:?} was accepted"));
        assert!(e.message().contains(words), "{text:?}: {}", e.message());
    }
}
