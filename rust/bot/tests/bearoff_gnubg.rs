//! The two-sided bear-off database against GNU Backgammon's: `tests/fixtures/bearoff/two_sided.csv`,
//! made by `tools/oracle/gen_bearoff2.py` from gnubg 1.07's built-in two-sided database (six
//! points, six checkers a side) on 400 random positions: the cubeless chance of winning and the
//! cubeful money equities with the cube centred, owned by the player on roll and owned by the
//! opponent. Run with `--nocapture` for the largest differences and the build time.

use gammon_backgammon::Position;
use gammon_bot::bearoff::two_sided;
use gammon_bot::cube::{CubeContext, CubeOwner};
use gammon_bot::search::Bot;
use std::time::Instant;

/// gnubg's values run a little low, by up to 7e-5 here (see
/// [`gnubgs_values_run_a_little_low`]); double/take, twice an equity, twice that.
const TOLERANCE: f64 = 1e-4;

struct Row {
    position: Position,
    /// win, centred no double, centred double/take, owned no double, opponent's cube.
    gnubg: [f64; 5],
}

fn rows() -> Vec<Row> {
    let path = format!("{}/../../tests/fixtures/bearoff/two_sided.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "position_id,win,centred_no_double,centred_double_take,owned_no_double,theirs_no_double"
    );
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            let num = |k: usize| f[k].parse::<f64>().unwrap_or_else(|_| panic!("bad number {:?}", f[k]));
            Row {
                position: Position::from_id(f[0]).unwrap(),
                gnubg: [num(1), num(2), num(3), num(4), num(5)],
            }
        })
        .collect()
}

#[test]
fn the_database_agrees_with_gnubgs() {
    let start = Instant::now();
    two_sided::database();
    println!("two-sided database built in {:.2} s", start.elapsed().as_secs_f64());
    let rows = rows();
    assert_eq!(rows.len(), 400);
    let names = ["win", "centred no double", "centred double/take", "owned no double", "opponent's cube"];
    let mut worst = [0.0f64; 5];
    for row in &rows {
        let e = two_sided::entry(&row.position)
            .unwrap_or_else(|| panic!("{} not in the database", row.position.id()));
        let ours = [e.win, e.centred, e.double_take(), e.owned, e.theirs];
        for k in 0..5 {
            let d = (ours[k] - row.gnubg[k]).abs();
            worst[k] = worst[k].max(d);
            let tolerance = if k == 2 { 2.0 * TOLERANCE } else { TOLERANCE };
            assert!(
                d < tolerance,
                "{} {}: ours {}, gnubg {}",
                row.position.id(),
                names[k],
                ours[k],
                row.gnubg[k]
            );
        }
    }
    for (name, w) in names.iter().zip(worst) {
        println!("{name:<22} largest difference {w:.2e}");
    }
}

#[test]
fn the_bots_cube_decisions_there_use_the_database() {
    // The bot's money cube decisions in these positions are gnubg's equities: no double and
    // double/take with a centred cube, no double with an owned one.
    let bot = Bot::new(0).unwrap();
    let centred = CubeContext::money(1, CubeOwner::Centred, false, false).unwrap();
    let owned = CubeContext::money(2, CubeOwner::Us, false, false).unwrap();
    let theirs = CubeContext::money(2, CubeOwner::Them, false, false).unwrap();
    for row in rows() {
        let [win, nd, dt, owned_nd, theirs_nd] = row.gnubg;
        assert!((bot.evaluate(&row.position).win - win).abs() < TOLERANCE);
        let d = bot.cube_action(&row.position, &centred).unwrap();
        assert!((d.no_double - nd).abs() < TOLERANCE && (d.double_take - dt).abs() < 2.0 * TOLERANCE);
        // Where gnubg's choice is clear, ours is the same.
        if (dt.min(1.0) - nd).abs() > 3.0 * TOLERANCE {
            assert_eq!(d.double, dt.min(1.0) > nd, "{}", row.position.id());
        }
        if (dt - 1.0).abs() > 2.0 * TOLERANCE {
            assert_eq!(d.take, dt < 1.0, "{}", row.position.id());
        }
        let d = bot.cube_action(&row.position, &owned).unwrap();
        assert!((d.no_double - owned_nd).abs() < TOLERANCE);
        let d = bot.cube_action(&row.position, &theirs).unwrap();
        assert!(!d.double && (d.no_double - theirs_nd).abs() < TOLERANCE);
    }
}

#[test]
fn gnubgs_values_run_a_little_low() {
    // xAAAMAEAAAAAAA: we have two checkers on our 1-point and one on our 3-point; they have two
    // on their 6-point and one on their 3-point. We finish now with any double but 1-1 (5 rolls of
    // 36); any other roll leaves at most two checkers on our 1-point, off next turn, and they
    // finish at once only with 6-6 (3 checkers need a double, and 5-5 and below leave one). So
    // we win 5/36 + 31/36 x 35/36 = 1265/1296 = 0.976080; gnubg's database says 0.976059, and its
    // other values in the fixture sit as far or a little further below ours.
    let row = rows().into_iter().find(|r| r.position.id() == "xAAAMAEAAAAAAA").unwrap();
    let exact = 1265.0 / 1296.0;
    let ours = two_sided::entry(&row.position).unwrap();
    assert!((ours.win - exact).abs() < 1e-6, "{}", ours.win);
    assert!((2.0 * exact - 1.0 - ours.centred).abs() < 1e-6); // no cube play left: they never double
    let below = exact - row.gnubg[0];
    assert!(below > 1e-5 && below < 3e-5, "{below}");
}
