use super::*;

/// A game with `position` seen from `turn`, who is about to roll; money play unless `context`.
fn setup(position: Position, turn: u8, rules: CubeRules, context: MatchContext) -> Game {
    let state = State { position, turn, cube: Cube::centred(), phase: Phase::Rolling, resignation: None };
    Game::from_state(Some(1), rules, context, state)
}

fn money(position: Position, turn: u8) -> Game {
    setup(position, turn, CubeRules::default(), MatchContext::default())
}

/// We have one checker on our 1-point; `theirs` is the opponent's side (negative counts).
fn last_checker(theirs: &[(usize, i8)]) -> Position {
    let mut b = [0i8; 26];
    b[1] = 1;
    for &(i, n) in theirs {
        b[i] = n;
    }
    Position::from_board(b).unwrap()
}

fn snapshot(g: &Game) -> (String, usize, Phase) {
    (g.gnubg_id(), g.history().len(), g.phase())
}

/// Asserts that `f` is refused as an illegal action and changes nothing.
fn refused(g: &mut Game, f: impl FnOnce(&mut Game) -> Result<()>) {
    let before = snapshot(g);
    match f(g) {
        Err(Error::IllegalAction(_)) | Err(Error::IllegalPlay(_)) => {}
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(snapshot(g), before);
}

#[test]
fn opening_roll_one_die_each_higher_moves_first() {
    let mut g = Game::new(Some(9), CubeRules::default());
    assert_eq!((g.turn(), g.to_act(), g.dice()), (None, None, None));
    refused(&mut g, |g| g.set_dice(4, 4).map(|_| ()));
    g.set_dice(2, 5).unwrap();
    assert_eq!((g.turn(), g.dice()), (Some(1), Some(Dice::new(5, 2).unwrap())));
    assert_eq!(g.history(), &[Action::OpeningRoll { die0: 2, die1: 5 }]);
    for seed in 0..200 {
        let mut g = Game::new(Some(seed), CubeRules::default());
        let d = g.roll().unwrap();
        assert!(!d.is_double(), "seed {seed}: an opening roll is never a double");
        let Action::OpeningRoll { die0, die1 } = g.history()[0] else { panic!() };
        assert_eq!(g.turn(), Some(if die0 > die1 { 0 } else { 1 }));
        assert_eq!(d, Dice::new(die0, die1).unwrap());
    }
}

#[test]
fn seeded_games_repeat_and_replay() {
    let play_out = |seed| {
        let mut g = Game::new(Some(seed), CubeRules::default());
        while !g.is_over() {
            g.roll().unwrap();
            if let Some(p) = g.legal_plays().first().copied() {
                g.play(&p).unwrap();
            }
        }
        g
    };
    let (a, b) = (play_out(5), play_out(5));
    assert_eq!(a.history(), b.history());
    let again = a.replayed().unwrap();
    assert!(again.same_state(&a));
    assert_eq!(again.gnubg_id(), a.gnubg_id());
}

#[test]
fn single_gammon_and_backgammon_by_bearing_off() {
    // (their checkers, expected kind): one of theirs off; none off; none off and one in our home
    // board; none off and one on the bar.
    let cases: [(&[(usize, i8)], ResultKind); 4] = [
        (&[(20, -14)], ResultKind::Single),
        (&[(20, -15)], ResultKind::Gammon),
        (&[(20, -14), (3, -1)], ResultKind::Backgammon),
        (&[(20, -14), (0, -1)], ResultKind::Backgammon),
    ];
    for (theirs, kind) in cases {
        for cube_turned in [false, true] {
            let mut g = money(last_checker(theirs), 1);
            if cube_turned {
                g.double().unwrap();
                g.take().unwrap();
            }
            g.set_dice(3, 2).unwrap();
            g.play_text("1/off").unwrap();
            let r = g.result().unwrap();
            let cube = if cube_turned { 2 } else { 1 };
            assert_eq!(
                (r.winner, r.kind, r.points, r.reason),
                (1, kind, kind.multiplier() * cube, EndReason::BorneOff)
            );
            assert_eq!(
                (g.winner(), g.points(), g.result_kind()),
                (Some(1), kind.multiplier() * cube, Some(kind))
            );
            refused(&mut g, |g| g.roll().map(|_| ()));
            refused(&mut g, |g| g.double());
            refused(&mut g, |g| g.resign(ResultKind::Single));
        }
    }
}

#[test]
fn jacoby_counts_gammons_only_after_the_cube_is_turned() {
    let rules = CubeRules::new(true, false, 64).unwrap();
    let mut g = setup(last_checker(&[(20, -15)]), 0, rules, MatchContext::default());
    g.set_dice(6, 5).unwrap();
    g.play_text("1/off").unwrap();
    assert_eq!((g.result_kind(), g.points()), (Some(ResultKind::Gammon), 1));
    let mut g = setup(last_checker(&[(20, -15)]), 0, rules, MatchContext::default());
    g.double().unwrap();
    g.take().unwrap();
    g.set_dice(6, 5).unwrap();
    g.play_text("1/off").unwrap();
    assert_eq!(g.points(), 4);
    // Jacoby never applies in match play.
    let ctx = MatchContext { length: 7, score: [0, 0], crawford: false };
    let mut g = setup(last_checker(&[(20, -15)]), 0, rules, ctx);
    g.set_dice(6, 5).unwrap();
    g.play_text("1/off").unwrap();
    assert_eq!(g.points(), 2);
}

#[test]
fn cube_take_drop_and_ownership() {
    let mut g = Game::new(Some(3), CubeRules::default());
    refused(&mut g, |g| g.double());
    g.set_dice(3, 1).unwrap();
    refused(&mut g, |g| g.double());
    g.play_text("8/5 6/5").unwrap();
    g.double().unwrap();
    assert_eq!((g.to_act(), g.turn(), g.cube_value()), (Some(0), Some(1), 1));
    refused(&mut g, |g| g.roll().map(|_| ()));
    refused(&mut g, |g| g.double());
    refused(&mut g, |g| g.beaver());
    g.take().unwrap();
    assert_eq!((g.cube_value(), g.cube_owner(), g.to_act()), (2, Some(0), Some(1)));
    refused(&mut g, |g| g.double()); // player 1 no longer owns the cube
    g.set_dice(6, 4).unwrap();
    g.play_text("24/14").unwrap();
    g.double().unwrap(); // the owner redoubles
    g.drop().unwrap();
    let r = g.result().unwrap();
    assert_eq!((r.winner, r.points, r.kind, r.reason), (0, 2, ResultKind::Single, EndReason::Dropped));
    assert_eq!(g.cube_value(), 2, "a dropped double leaves the cube where it was");
}

#[test]
fn cube_maximum_is_enforced() {
    let rules = CubeRules::new(false, false, 4).unwrap();
    let mut g = Game::new(Some(3), rules);
    g.set_dice(3, 1).unwrap();
    g.play_text("8/5 6/5").unwrap();
    g.double().unwrap();
    g.take().unwrap();
    g.set_dice(2, 1).unwrap();
    g.play_text("13/11 6/5").unwrap();
    g.double().unwrap();
    g.take().unwrap();
    assert_eq!(g.cube_value(), 4);
    g.set_dice(2, 1).unwrap();
    g.play_text("13/11 6/5").unwrap();
    assert!(!g.may_double());
    refused(&mut g, |g| g.double());
}

#[test]
fn beavers_in_money_play() {
    let rules = CubeRules::new(false, true, 64).unwrap();
    let mut g = setup(Position::initial(), 0, rules, MatchContext::default());
    g.double().unwrap();
    g.beaver().unwrap();
    assert_eq!(
        (g.phase(), g.to_act(), g.cube_value(), g.cube_owner()),
        (Phase::Beavered, Some(0), 2, Some(1))
    );
    refused(&mut g, |g| g.beaver());
    let mut dropped = g.clone();
    g.take().unwrap();
    assert_eq!(
        (g.cube_value(), g.cube_owner(), g.to_act(), g.phase()),
        (4, Some(1), Some(0), Phase::Rolling)
    );
    dropped.drop().unwrap();
    assert_eq!((dropped.winner(), dropped.points()), (Some(1), 2));
    // Not without the option, and never in a match.
    let mut g = money(Position::initial(), 0);
    g.double().unwrap();
    refused(&mut g, |g| g.beaver());
    let ctx = MatchContext { length: 5, score: [0, 0], crawford: false };
    let mut g = setup(Position::initial(), 0, rules, ctx);
    g.double().unwrap();
    refused(&mut g, |g| g.beaver());
}

#[test]
fn resignations_accepted_and_rejected() {
    for kind in [ResultKind::Single, ResultKind::Gammon, ResultKind::Backgammon] {
        let mut g = money(Position::initial(), 0);
        g.double().unwrap();
        g.take().unwrap();
        g.set_dice(3, 1).unwrap();
        g.resign(kind).unwrap();
        assert_eq!((g.resignation(), g.to_act()), (Some((0, kind)), Some(1)));
        refused(&mut g, |g| g.play_text("8/5 6/5").map(|_| ()));
        refused(&mut g, |g| g.resign(ResultKind::Single));
        refused(&mut g, |g| g.roll().map(|_| ()));
        let mut rejected = g.clone();
        g.accept_resignation().unwrap();
        let r = g.result().unwrap();
        assert_eq!(
            (r.winner, r.kind, r.points, r.reason),
            (1, kind, 2 * kind.multiplier(), EndReason::Resigned)
        );
        rejected.reject_resignation().unwrap();
        assert_eq!((rejected.resignation(), rejected.dice()), (None, Some(Dice::new(3, 1).unwrap())));
        rejected.play_text("8/5 6/5").unwrap();
    }
    let mut g = money(Position::initial(), 0);
    refused(&mut g, |g| g.accept_resignation());
    refused(&mut g, |g| g.reject_resignation());
}

#[test]
fn forbidden_actions_change_nothing() {
    let mut g = Game::new(Some(4), CubeRules::default());
    refused(&mut g, |g| g.play_text("8/5 6/5").map(|_| ()));
    refused(&mut g, |g| g.take());
    refused(&mut g, |g| g.drop());
    refused(&mut g, |g| g.resign(ResultKind::Single));
    g.set_dice(3, 1).unwrap();
    refused(&mut g, |g| g.roll().map(|_| ()));
    refused(&mut g, |g| g.set_dice(2, 2).map(|_| ()));
    refused(&mut g, |g| g.play_text("24/18").map(|_| ()));
    refused(&mut g, |g| g.play(&Play::none(Position::initial())));
    refused(&mut g, |g| g.take());
    let before = snapshot(&g);
    assert!(g.set_dice(7, 1).is_err());
    assert_eq!(snapshot(&g), before);
    g.play_text("8/5 6/5").unwrap();
    refused(&mut g, |g| g.play_text("8/5 6/5").map(|_| ()));
    refused(&mut g, |g| g.apply(&Action::Take { player: 1 }));
    refused(&mut g, |g| g.apply(&Action::Double { player: 0, value: 2 }));
}

#[test]
fn an_unplayable_roll_passes_by_itself() {
    // We are on the bar against a closed board: no roll can enter.
    let mut b = [0i8; 26];
    b[25] = 1;
    b[6] = 14;
    b[19..=24].fill(-2);
    b[12] = -3;
    let mut g = money(Position::from_board(b).unwrap(), 0);
    g.set_dice(6, 5).unwrap();
    assert_eq!((g.turn(), g.phase(), g.dice()), (Some(1), Phase::Rolling, None));
    assert_eq!(g.history(), &[Action::Roll { player: 0, dice: Dice::new(6, 5).unwrap() }]);
    assert_eq!(g.position(), Position::from_board(b).unwrap().swapped());
}

#[test]
fn crawford_and_dead_cubes_in_match_play() {
    let crawford = MatchContext { length: 5, score: [4, 2], crawford: true };
    let mut g = setup(Position::initial(), 1, CubeRules::default(), crawford);
    assert!(!g.may_double());
    refused(&mut g, |g| g.double());
    // Post-Crawford the trailer may double; the leader (1 point needed) has a dead cube.
    let post = MatchContext { length: 5, score: [4, 2], crawford: false };
    let mut g = setup(Position::initial(), 0, CubeRules::default(), post);
    refused(&mut g, |g| g.double());
    // Where the rules allow it (as match files record), the leader's dead-cube double stands.
    let dead_ok = CubeRules { dead_cube_doubles: true, ..CubeRules::default() };
    let mut g = setup(Position::initial(), 0, dead_ok, post);
    assert!(g.cube_is_dead() && g.may_double());
    g.double().unwrap();
    g.take().unwrap();
    assert_eq!((g.cube_value(), g.cube_owner()), (2, Some(1)));
    let mut g = setup(Position::initial(), 1, CubeRules::default(), post);
    assert!(!g.cube_is_dead());
    g.double().unwrap();
    g.take().unwrap();
    assert_eq!(g.cube_value(), 2);
}

/// formats.md §3: XGIDs and the GNU IDs gnubg's XGID importer makes of them (bottom = player 1).
const XGID_VECTORS: [(&str, &str); 8] = [
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:53:1:2:1:3:10", "4HPwATDgc/ABMA:8IluACAACAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "4HPwATDgc/ABMA:cAkAAAAAAAAE"),
    ("XGID=-bb---D-C---dD---c-d---BB-:0:0:1:00:0:0:0:0:10", "4Dl4ADbgOXgANg:cAkAAAAAAAAE"),
    ("XGID=-a----E-CAA-fC---c-e----B-:0:0:1:44:0:0:3:0:10", "4HPwAyDgc8UBMA:cAkSAAAAAAAA"),
    ("XGID=---BBBBBA----B--a-a-Bbcce-:0:0:1:00:0:0:3:0:10", "391IAABs24IBAw:cAkAAAAAAAAA"),
    ("XGID=------EBC-b-eC---b-dbB----:0:0:1:63:4:3:0:11:10", "sGfwGQDg28EBBg:cAlvATAAIAAE"),
    ("XGID=-b---AD-CA--dD---bbe----B-:0:0:-1:31:0:4:0:7:10", "0HPhATDg2+ABMA:MIHlAEAAAAAE"),
    ("XGID=--a---------b--A-A------A-:0:0:1:00:0:0:0:0:10", "ADAAAQAkIAAAAA:cAkAAAAAAAAE"),
];

#[test]
fn xgid_vectors_give_gnubg_ids_and_round_trip() {
    for (xgid, gnu) in XGID_VECTORS {
        let g = Game::from_xgid(xgid, Some(0)).unwrap();
        assert_eq!(g.gnubg_id(), gnu, "{xgid}");
        assert_eq!(g.xgid(), xgid, "{xgid} round trip");
        let h = Game::from_gnubg_id(gnu, Some(0)).unwrap();
        assert_eq!(h.gnubg_id(), gnu);
        // Neither the MC field nor the beaver option (CJ bit 2) is in a GNU ID; everything else is.
        let mut want: Vec<&str> = xgid.split(':').collect();
        let ours_text = h.xgid();
        let mut ours: Vec<&str> = ours_text.split(':').collect();
        want[7] = if want[8] == "0" && want[7] == "3" { "1" } else { want[7] };
        want.pop();
        ours.pop();
        assert_eq!(ours, want, "{gnu}");
    }
}

#[test]
fn pending_doubles_and_beavers_in_ids() {
    let rules = CubeRules::new(false, true, 64).unwrap();
    let mut g = setup(Position::initial(), 0, rules, MatchContext::default());
    g.double().unwrap();
    // formats.md §2.2 `MBngAAAAAAAA` is player 0's double in a 7-point match; here money play.
    let m = g.match_id_fields();
    assert_eq!((m.doubled, m.on_roll, m.to_act, m.cube_value), (true, 0, 1, 1));
    assert!(g.xgid().contains(":0:0:-1:D:"), "{}", g.xgid());
    let back = Game::from_gnubg_id(&g.gnubg_id(), Some(0)).unwrap();
    assert_eq!((back.phase(), back.to_act()), (Phase::Doubled, Some(1)));
    let back = Game::from_xgid(&g.xgid(), Some(0)).unwrap();
    assert_eq!((back.phase(), back.to_act()), (Phase::Doubled, Some(1)));
    g.beaver().unwrap();
    for back in
        [Game::from_gnubg_id(&g.gnubg_id(), Some(0)).unwrap(), Game::from_xgid(&g.xgid(), Some(0)).unwrap()]
    {
        assert_eq!(
            (back.phase(), back.to_act(), back.cube_value(), back.cube_owner()),
            (Phase::Beavered, Some(0), 2, Some(1))
        );
    }
    // A pending resignation survives a GNU ID (formats.md §2.2 `AUkAAAAAAAAA` has one).
    let mut g = money(Position::initial(), 0);
    g.resign(ResultKind::Gammon).unwrap();
    let back = Game::from_gnubg_id(&g.gnubg_id(), Some(0)).unwrap();
    assert_eq!(back.resignation(), Some((0, ResultKind::Gammon)));
    assert_eq!(back.match_id(), g.match_id());
    for bad in ["", "4HPwATDgc/ABMA", "4HPwATDgc/ABMA:cAkAAAAAAAA", "AAAAAAAAAAAAAA:cAkAAAAAAAAA"] {
        assert!(Game::from_gnubg_id(bad, None).is_err(), "{bad}");
    }
}

#[test]
fn a_crawford_flag_needs_a_player_one_point_from_winning() {
    // 9-point match at 2-4 marked as the Crawford game: inconsistent, refused rather than
    // silently dropped.
    let err = Game::from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:4:1:9:10", None).unwrap_err();
    assert!(err.to_string().contains("nobody is 1 point from winning"), "{err}");
    // At 8-4 it is the Crawford game indeed.
    let g = Game::from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:8:4:1:9:10", None).unwrap();
    assert!(g.context().crawford);
}
