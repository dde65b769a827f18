use super::match_play::dead_take_point;
use super::money;
use super::*;
use gammon_backgammon::pos;
use proptest::prelude::*;

fn plain(win: f64) -> Probabilities {
    Probabilities { win, ..Default::default() }
}

/// The winning chance at which `f` (increasing) crosses zero, by bisection.
fn root(f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if f(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

fn contact() -> Position {
    Position::initial()
}

#[test]
fn money_take_points_follow_janowski() {
    // The taker's point is where double/take equals double/pass for the doubler. With no
    // gammons Janowski's formula gives (L - 1/2) / (W + L + x/2) = 0.5 / (2 + x/2) for the taker.
    let ctx = CubeContext::default();
    let p = root(|p| ctx.decide(&contact(), &plain(p)).double_take - 1.0);
    let x = 0.68;
    assert!((1.0 - p - 0.5 / (2.0 + x / 2.0)).abs() < 1e-9, "{p}");
    // A dead cube gives the classic 25%.
    let dead = root(|p| money::equities(&ctx, &plain(p), 0.0, false).1 - 1.0);
    assert!((dead - 0.75).abs() < 1e-9);
}

#[test]
fn a_fully_live_cube_doubles_only_at_the_cash_point() {
    // With x = 1 and no gammons the doubling window closes: no double until the opponent's
    // take point (80% for us, since the live take point is 20%).
    let ctx = CubeContext::default();
    let gain = |p: f64| {
        let (nd, dt, dp) = money::equities(&ctx, &plain(p), 1.0, false);
        dt.min(dp) - nd
    };
    assert!(gain(0.79) < 0.0 && gain(0.81) < 1e-12);
    assert!((root(|p| money::equities(&ctx, &plain(p), 1.0, false).1 - 1.0) - 0.8).abs() < 1e-9);
}

#[test]
fn money_verdicts_across_the_range() {
    let ctx = CubeContext::default();
    let d = ctx.decide(&contact(), &plain(0.55));
    assert!(!d.double && d.take && d.label() == "No double, take");
    let d = ctx.decide(&contact(), &plain(0.85));
    assert!(d.double && !d.take && d.label() == "Double, pass");
    assert_eq!(d.equity(), 1.0);
    // Gammonish enough to play on: too good.
    let gammons = Probabilities { win: 0.85, win_gammon: 0.6, ..Default::default() };
    let d = ctx.decide(&contact(), &gammons);
    assert!(!d.double && !d.take && d.no_double > 1.0);
    assert_eq!(d.label(), "Too good to double, pass");
    // The same with the cube ours is a redouble, with theirs no double at all.
    let ours = CubeContext::money(2, CubeOwner::Us, false, false).unwrap();
    assert_eq!(ours.decide(&contact(), &plain(0.85)).label(), "Redouble, pass");
    let theirs = CubeContext::money(2, CubeOwner::Them, false, false).unwrap();
    let d = theirs.decide(&contact(), &plain(0.85));
    assert!(!d.double && !d.may_double && d.label() == "No double, pass");
}

#[test]
fn jacoby_ignores_gammons_while_the_cube_is_centred() {
    let gammons = Probabilities { win: 0.6, win_gammon: 0.3, lose_gammon: 0.05, ..Default::default() };
    let jacoby = CubeContext::money(1, CubeOwner::Centred, true, false).unwrap();
    let plain_rules = CubeContext::default();
    let (j, n) = (jacoby.decide(&contact(), &gammons), plain_rules.decide(&contact(), &gammons));
    assert!(j.no_double < n.no_double);
    assert_eq!(j.double_take, n.double_take);
    assert_eq!(
        jacoby.decide(&contact(), &plain(0.6)).no_double,
        plain_rules.decide(&contact(), &plain(0.6)).no_double
    );
}

#[test]
fn beavers_when_the_taker_is_the_favourite() {
    let ctx = CubeContext::money(1, CubeOwner::Centred, false, true).unwrap();
    let d = ctx.decide(&contact(), &plain(0.4));
    assert!(d.take && d.beaver && d.double_take < 0.0);
    assert_eq!(d.label(), "No double, beaver");
    assert!(!CubeContext::default().decide(&contact(), &plain(0.4)).beaver);
}

#[test]
fn the_top_cube_is_dead() {
    let ctx = CubeContext::money(64, CubeOwner::Us, false, false).unwrap();
    let d = ctx.decide(&contact(), &plain(0.9));
    assert!(!d.may_double && !d.double);
    assert!((d.no_double - 0.8).abs() < 1e-12);
}

#[test]
fn match_take_points_come_from_the_table() {
    let met = gammon_backgammon::met::MatchEquityTable::kazaross_xg2();
    // 2-away 2-away: after a take the 2-cube decides the match, so the take point is exactly
    // the MWC the taker keeps by passing (2-away against the Crawford game at 1-away).
    let tp = 1.0 - met.pre_crawford(1, 2).unwrap();
    assert!((dead_take_point([2, 2], 1, false).unwrap() - tp).abs() < 1e-12);
    let ctx = CubeContext::match_play([2, 2], 1, CubeOwner::Centred, false).unwrap();
    let p = root(|p| ctx.decide(&contact(), &plain(p)).double_take - 1.0);
    assert!((1.0 - p - tp).abs() < 1e-9, "{p} vs {tp}");
    // Post-Crawford at 2-away 1-away, a pass leaves double match point: the leader's take point
    // is 50%, the free drop.
    let post = CubeContext::match_play([2, 1], 1, CubeOwner::Centred, false).unwrap();
    assert!(post.is_post_crawford());
    let p = root(|p| post.decide(&contact(), &plain(p)).double_take - 1.0);
    assert!((p - 0.5).abs() < 1e-9);
    assert!((dead_take_point([2, 1], 1, true).unwrap() - 0.5).abs() < 1e-12);
}

#[test]
fn gammons_count_at_the_score() {
    // At 2-away 2-away a gammon after the double is worth no more than a win: both win the match.
    let ctx = CubeContext::match_play([2, 2], 1, CubeOwner::Centred, false).unwrap();
    let gammons = Probabilities { win: 0.7, win_gammon: 0.3, ..Default::default() };
    let (g, n) = (ctx.decide(&contact(), &gammons), ctx.decide(&contact(), &plain(0.7)));
    assert!((g.double_take - n.double_take).abs() < 1e-12);
    assert!(g.no_double > n.no_double);
}

#[test]
fn crawford_and_post_crawford_doubles() {
    let crawford = CubeContext::match_play([1, 3], 1, CubeOwner::Centred, true).unwrap();
    let d = crawford.decide(&contact(), &plain(0.9));
    assert!(!d.may_double && !d.double);
    assert!(CubeContext::match_play([1, 3], 2, CubeOwner::Us, true).is_err());
    assert!(CubeContext::match_play([2, 3], 1, CubeOwner::Centred, true).is_err());
    // Post-Crawford the trailer doubles at once: he loses nothing by it.
    let trailer = CubeContext::match_play([3, 1], 1, CubeOwner::Centred, false).unwrap();
    assert!(trailer.decide(&contact(), &plain(0.3)).double);
    // The leader never gains by doubling.
    let leader = trailer.swapped();
    for p in [0.5, 0.7, 0.9, 0.99] {
        assert!(!leader.decide(&contact(), &plain(p)).double, "{p}");
    }
}

#[test]
fn contexts_from_games_are_seen_by_the_player_to_act() {
    let mut g = Game::with_context(
        Some(1),
        gammon_backgammon::CubeRules::default(),
        gammon_backgammon::MatchContext { length: 7, score: [2, 5], crawford: false },
    );
    g.roll().unwrap();
    let ctx = CubeContext::from_game(&g);
    let me = g.turn().unwrap() as usize;
    let away = [7 - [2, 5][me], 7 - [2, 5][1 - me]];
    assert_eq!(ctx.stake(), Stake::Match { away, crawford: false });
    assert_eq!(ctx.swapped().swapped(), ctx);
    let money =
        CubeContext::from_game(&Game::new(None, gammon_backgammon::CubeRules::new(true, true, 16).unwrap()));
    assert_eq!(money.stake(), Stake::Money { jacoby: true, beavers: true });
}

#[test]
fn efficiency_by_kind_of_position() {
    assert_eq!(efficiency(&contact()), 0.68);
    assert_eq!(efficiency(&pos!(6 => 15, 19 => -15)), 0.6);
    // A long race sits at the top of the range, a short one at its bottom.
    assert_eq!(efficiency(&pos!(12 => 15, 13 => -15)), 0.7);
    assert!((efficiency(&pos!(8 => 5, 24 => -15)) - 0.6).abs() < 1e-12);
    assert!((efficiency(&pos!(10 => 8, 24 => -15)) - 0.65).abs() < 1e-12);
}

fn probabilities() -> impl Strategy<Value = Probabilities> {
    (0.0..=1.0f64, 0.0..=1.0f64, 0.0..=1.0f64, 0.0..=1.0f64, 0.0..=1.0f64).prop_map(|(w, g, b, lg, lb)| {
        let lose = 1.0 - w;
        Probabilities {
            win: w,
            win_gammon: w * g,
            win_backgammon: w * g * b,
            lose_gammon: lose * lg,
            lose_backgammon: lose * lg * lb,
            draw: 0.0,
        }
    })
}

fn contexts() -> impl Strategy<Value = CubeContext> {
    let owner = prop_oneof![Just(CubeOwner::Centred), Just(CubeOwner::Us), Just(CubeOwner::Them)];
    (1u32..=11, 1u32..=11, 0u32..3, owner, any::<bool>(), any::<bool>()).prop_map(
        |(a, b, log, owner, money, j)| {
            let value = 1 << log;
            let owner = if value == 1 { CubeOwner::Centred } else { owner };
            if money {
                CubeContext::money(value, owner, j, !j).unwrap()
            } else {
                CubeContext::match_play([a, b], value, owner, false).unwrap()
            }
        },
    )
}

proptest! {
    #[test]
    fn decisions_are_consistent(ctx in contexts(), probs in probabilities()) {
        let d = ctx.decide(&contact(), &probs);
        prop_assert!(d.no_double.is_finite() && d.double_take.is_finite());
        prop_assert!((d.double_pass - 1.0).abs() < 1e-9);
        if matches!(ctx.stake(), Stake::Money { .. }) {
            // Match equities are normalised to the current stake and may go beyond a backgammon.
            prop_assert!(d.no_double.abs() <= 3.0 + 1e-9);
        }
        let best = d.double_take.min(d.double_pass);
        if d.double {
            prop_assert!(d.may_double && best >= d.no_double - 1e-12);
        } else if d.may_double {
            prop_assert!(best <= d.no_double + 1e-12);
        }
        prop_assert_eq!(d.take, d.double_take <= d.double_pass);
        prop_assert!(d.equity() >= d.no_double);
    }

    #[test]
    fn more_wins_never_hurt(ctx in contexts(), probs in probabilities(), extra in 0.0..0.2f64) {
        // Turn some losses into single wins: every equity may only rise.
        let lose = 1.0 - probs.win;
        let shift = extra.min(lose - probs.lose_gammon).max(0.0);
        let better = Probabilities { win: probs.win + shift, ..probs };
        let (a, b) = (ctx.decide(&contact(), &probs), ctx.decide(&contact(), &better));
        prop_assert!(b.no_double >= a.no_double - 1e-9, "{:?} {:?}", a, b);
        prop_assert!(b.double_take >= a.double_take - 1e-9);
    }
}
