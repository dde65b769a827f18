//! Games and matches against GNU Backgammon: `scripts/oracle/gen_games.py` drove gnubg action by
//! action and recorded its Position ID and Match ID after each one. We replay the same actions and
//! must reach the same IDs; an action gnubg refused (its IDs did not change) must be refused here.
//!
//! Players carry gnubg's labels (0 and 1) throughout, so Match IDs are compared field by field
//! with the dice as an unordered pair (gnubg keeps the order thrown, we write the larger first).

use gammon_engine::formats::match_id::{self, MatchIdFields};
use gammon_engine::{CubeRules, Match, ResultKind};

fn fixture(name: &str) -> String {
    let path = format!("{}/../../tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn normalised(mut m: MatchIdFields) -> MatchIdFields {
    m.dice = m.dice.map(|(a, b)| (a.max(b), a.min(b)));
    m
}

struct Row {
    session: u32,
    length: u32,
    action: String,
    position_id: String,
    match_id: String,
}

fn rows() -> Vec<Row> {
    fixture("games/gnubg_games.csv")
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            Row {
                session: c[0].parse().unwrap(),
                length: c[1].parse().unwrap(),
                action: c[3].to_string(),
                position_id: c[4].to_string(),
                match_id: c[5].to_string(),
            }
        })
        .collect()
}

/// Applies one fixture action; `Ok(false)` for the bookkeeping `end` rows.
fn act(m: &mut Match, action: &str) -> gammon_engine::Result<bool> {
    let (verb, rest) = action.split_once(' ').unwrap_or((action, ""));
    let nums: Vec<u32> = rest.split_whitespace().filter_map(|t| t.parse().ok()).collect();
    let g = m.game_mut();
    match verb {
        "opening" => {
            if g.is_over() {
                m.next_game()?;
            }
            m.game_mut().set_dice(nums[0] as u8, nums[1] as u8)?;
        }
        "roll" => {
            g.set_dice(nums[0] as u8, nums[1] as u8)?;
        }
        "move" => {
            g.play_text(rest)?;
        }
        "double" => g.double()?,
        "take" => g.take()?,
        "drop" => g.drop_double()?,
        "beaver" => g.beaver()?,
        "resign" => g.resign(ResultKind::from_multiplier(nums[0]).unwrap())?,
        "accept" => g.accept_resignation()?,
        "reject" => g.reject_resignation()?,
        "end" => {
            let r = g.result().expect("gnubg says the game is over");
            assert_eq!((r.winner as u32, r.points), (nums[0], nums[1]), "game result");
            return Ok(false);
        }
        _ => panic!("unknown fixture action {action:?}"),
    }
    Ok(true)
}

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
            let fields = match_id::decode(&row.match_id).unwrap();
            // gnubg was set to allow one beaver in money play and writes its Jacoby setting in bit 66.
            let rules = CubeRules::new(fields.jacoby, true, 4096).unwrap();
            m = Some(Match::with_rules(row.length, Some(1), rules).unwrap());
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
            let rebuilt = gammon_engine::Game::from_gnubg_id(&gnubg_id, Some(0)).unwrap();
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
