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

#[test]
fn a_beaver_is_written_as_gnubg_writes_it_and_read_back() {
    // GNU Backgammon writes a beaver as a double by the doubled player (formats.md §4.2).
    let rules = CubeRules { beavers: true, ..CubeRules::default() };
    let mut m = Match::with_rules(0, Some(1), rules).unwrap();
    let g = m.game_mut();
    g.set_dice(3, 1).unwrap();
    g.play_text("8/5 6/5").unwrap();
    g.double().unwrap();
    g.beaver().unwrap();
    g.take().unwrap();
    let text = m.to_sgf().unwrap();
    assert!(text.contains(";W[31hefe]\n;B[double]\n;W[double]\n;B[take]"), "{text}");
    let back = Match::from_sgf(&text).unwrap();
    assert_eq!(back.game().history(), m.game().history());
    assert!(back.game().rules().beavers);
}

#[test]
fn steps_in_an_order_that_cannot_be_played_read_as_the_same_checker_movements() {
    // GNU Backgammon's save match may list steps in an order that cannot be played one by one (a
    // Backgammon Studio file's "42: 5/off" became B[42txxz], 5/1 1/off, with checkers above the
    // 1-point): the play is the one legal play moving the same checkers. Here 24/13 with 6-5,
    // written 18/13 24/18.
    let mut m = Match::new(0, Some(1)).unwrap();
    let g = m.game_mut();
    g.set_dice(6, 5).unwrap();
    g.play_text("24/13").unwrap();
    let text = m.to_sgf().unwrap();
    assert!(text.contains(";W[65xrrm]"), "{text}");
    let back = Match::from_sgf(&text.replace(";W[65xrrm]", ";W[65rmxr]")).unwrap();
    assert_eq!(back.game().history(), m.game().history());
    // Steps that no legal play makes are still refused.
    assert!(Match::from_sgf(&text.replace(";W[65xrrm]", ";W[65xrxr]")).is_err());
}
