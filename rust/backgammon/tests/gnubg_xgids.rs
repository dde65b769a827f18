//! XGIDs of real game states against GNU Backgammon's XGID importer.
//!
//! `ours_xgids.csv` holds our XGID of every fourth state of the replayed gnubg games (in play, no
//! resignation pending) with gnubg's own `PositionID:MatchID` of that state; the test checks it is
//! still what we write (`GAMMON_WRITE_FIXTURES=1` rewrites it). `scripts/oracle/gen_xgid_import.py`
//! fed each XGID to gnubg (`set gnubgid XGID=...`) and stored the IDs gnubg made of it in
//! `gnubg_xgid_import.csv`. gnubg relabels on import (the player on roll becomes its player 1) and
//! drops a pending double, so the two are compared field by field relative to the player on roll.

mod common;

use common::{fixture, replay};
use gammon_backgammon::formats::match_id::{self, MatchIdFields};
use gammon_backgammon::Position;

fn ours() -> String {
    let mut out = String::from("xgid,gnubg_id\n");
    let mut k = 0;
    replay(|m, _| {
        let g = m.game();
        if g.turn().is_none() || g.is_over() || g.resignation().is_some() {
            return;
        }
        k += 1;
        if k % 4 == 0 {
            out.push_str(&format!("{},{}\n", g.xgid(), g.gnubg_id()));
        }
    });
    out
}

/// Cube value, owner is the player on roll, dice, length, (his score, the other's), Crawford.
type Relative = (u32, Option<bool>, Option<(u8, u8)>, u32, [u32; 2], bool);

/// The fields that survive gnubg's relabelling: on-roll-relative cube owner and scores.
fn relative(m: &MatchIdFields) -> Relative {
    let me = m.on_roll as usize;
    let dice = m.dice.map(|(a, b)| (a.max(b), a.min(b)));
    (
        m.cube_value,
        m.cube_owner.map(|o| o == m.on_roll),
        dice,
        m.length,
        [m.score[me], m.score[1 - me]],
        m.crawford,
    )
}

#[test]
fn our_xgids_are_what_we_write() {
    let text = ours();
    let path = format!("{}/../../tests/fixtures/games/ours_xgids.csv", env!("CARGO_MANIFEST_DIR"));
    if std::env::var("GAMMON_WRITE_FIXTURES").is_ok() {
        std::fs::write(&path, &text).unwrap();
    }
    assert_eq!(fixture("games/ours_xgids.csv"), text);
}

#[test]
fn gnubg_reads_our_xgids_as_the_same_states() {
    let ours: Vec<(String, String)> = fixture("games/ours_xgids.csv")
        .lines()
        .skip(1)
        .map(|l| {
            let (a, b) = l.split_once(',').unwrap();
            (a.to_string(), b.to_string())
        })
        .collect();
    let gnubg: Vec<(String, String)> = fixture("games/gnubg_xgid_import.csv")
        .lines()
        .skip(1)
        .map(|l| {
            let (a, b) = l.split_once(',').unwrap();
            (a.to_string(), b.to_string())
        })
        .collect();
    assert_eq!(ours.len(), gnubg.len());
    let (mut same, mut doubles) = (0, 0);
    for ((xgid, state), (xgid2, imported)) in ours.iter().zip(&gnubg) {
        assert_eq!(xgid, xgid2);
        let (sp, sm) = state.split_once(':').unwrap();
        let (ip, im) = imported.split_once(':').unwrap();
        assert_eq!(Position::from_id(ip).unwrap(), Position::from_id(sp).unwrap(), "{xgid}: board");
        let (s, i) = (match_id::decode(sm).unwrap(), match_id::decode(im).unwrap());
        assert_eq!(relative(&i), relative(&s), "{xgid}: {imported} against {state}");
        assert_eq!(i.on_roll, 1, "gnubg puts the player on roll as its player 1");
        if s.doubled {
            assert!(!i.doubled, "gnubg drops a pending double on import");
            doubles += 1;
        } else {
            same += 1;
        }
    }
    eprintln!(
        "gnubg read {} of our XGIDs: {same} states agree, {doubles} more apart from the pending double",
        ours.len()
    );
    assert!(same > 300);
}
