//! Helpers shared by the tests that replay `tests/fixtures/games/gnubg_games.csv`.
#![allow(dead_code)]

use gammon_backgammon::formats::match_id::MatchIdFields;
use gammon_backgammon::{Match, ResultKind};

pub fn fixture(name: &str) -> String {
    let path = format!("{}/../../tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

pub fn normalised(mut m: MatchIdFields) -> MatchIdFields {
    m.dice = m.dice.map(|(a, b)| (a.max(b), a.min(b)));
    m
}

pub struct Row {
    pub session: u32,
    pub length: u32,
    pub action: String,
    pub position_id: String,
    pub match_id: String,
}

pub fn rows() -> Vec<Row> {
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
pub fn act(m: &mut Match, action: &str) -> gammon_backgammon::Result<bool> {
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
        "drop" => g.drop()?,
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

/// The match a fixture session starts: gnubg allowed one beaver in money play and wrote its Jacoby
/// setting in bit 66 of the Match ID.
pub fn new_match(row: &Row) -> Match {
    let fields = gammon_backgammon::formats::match_id::decode(&row.match_id).unwrap();
    let rules = gammon_backgammon::CubeRules::new(fields.jacoby, true, 4096).unwrap();
    Match::with_rules(row.length, Some(1), rules).unwrap()
}

/// Replays every session, calling `visit` after each action that gnubg accepted.
pub fn replay(mut visit: impl FnMut(&Match, &Row)) {
    let rows = rows();
    let mut m: Option<Match> = None;
    for (i, row) in rows.iter().enumerate() {
        if i == 0 || rows[i - 1].session != row.session {
            m = Some(new_match(row));
        }
        let m = m.as_mut().unwrap();
        if let Ok(true) = act(m, &row.action) {
            visit(m, row);
        }
    }
}
