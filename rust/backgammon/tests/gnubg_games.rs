//! Games and matches against GNU Backgammon: `scripts/oracle/gen_games.py` drove gnubg action by
//! action and recorded its Position ID and Match ID after each one. We replay the same actions and
//! must reach the same IDs; an action gnubg refused (its IDs did not change) must be refused here.
//!
//! Players carry gnubg's labels (0 and 1) throughout, so Match IDs are compared field by field
//! with the dice as an unordered pair (gnubg keeps the order thrown, we write the larger first).

mod common;

use common::{act, new_match, normalised, rows};
use gammon_backgammon::formats::match_id;
use gammon_backgammon::Match;

#[test]
fn replayed_games_reach_gnubg_ids() {
    let rows = rows();
    assert!(rows.len() > 1000, "fixture too small: {}", rows.len());
    let (mut compared, mut refused, mut games) = (0, 0, 0);
    let mut m: Option<Match> = None;
    let mut prev_id = String::new();
    for (i, row) in rows.iter().enumerate() {
        let new_session = i == 0 || rows[i - 1].session != row.session;
        if new_session {
            m = Some(new_match(row));
            prev_id.clear();
        }
        let m = m.as_mut().unwrap();
        let gnubg_id = format!("{}:{}", row.position_id, row.match_id);
        let before = m.game().gnubg_id();
        let gnubg_refused = !new_session && gnubg_id == prev_id && !row.action.starts_with("end");
        match act(m, &row.action) {
            Ok(false) => {
                games += 1;
                continue;
            }
            Ok(true) => {
                assert!(!gnubg_refused, "row {}: gnubg refused {:?} but we allowed it", i + 2, row.action)
            }
            Err(e) => {
                assert!(gnubg_refused, "row {}: {:?} refused: {e}", i + 2, row.action);
                assert_eq!(m.game().gnubg_id(), before, "a refused action changed the game");
                refused += 1;
            }
        }
        let g = m.game();
        assert_eq!(g.position_id(), row.position_id, "row {}: position after {:?}", i + 2, row.action);
        let ours = normalised(g.match_id_fields());
        let theirs = normalised(match_id::decode(&row.match_id).unwrap());
        assert_eq!(ours, theirs, "row {}: match ID after {:?}", i + 2, row.action);
        if ours.dice.is_none() || g.match_id() == row.match_id {
            assert_eq!(g.match_id(), row.match_id, "row {}: identical fields must give identical IDs", i + 2);
        }
        // A game in progress can be rebuilt from gnubg's ID alone.
        if g.turn().is_some() && !g.is_over() {
            let rebuilt = gammon_backgammon::Game::from_gnubg_id(&gnubg_id, Some(0)).unwrap();
            assert_eq!(
                normalised(rebuilt.match_id_fields()),
                theirs,
                "row {}: rebuilt from {gnubg_id}",
                i + 2
            );
            assert_eq!(rebuilt.position_id(), row.position_id);
        }
        compared += 1;
        prev_id = gnubg_id;
    }
    eprintln!(
        "gnubg games: {compared} states identical, {refused} refusals shared, {games} games ended alike"
    );
    assert!(games >= 20 && refused >= 1);
}
