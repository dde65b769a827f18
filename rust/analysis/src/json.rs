//! The analysis as JSON: the one layout the command line, Python's `to_json` and the HTTP answer
//! share.

use crate::record::{Analysis, Decision, PlayerTotals};
use serde_json::{json, Value};

/// One player's totals with the derived figures (decisions, error rate, PR, rating).
pub fn player_json(p: &PlayerTotals) -> Value {
    json!({
        "name": p.name,
        "decisions": p.decisions(),
        "unforced_plays": p.unforced_plays,
        "plays": p.plays,
        "cube_decisions": p.cube_decisions,
        "equity_lost": p.equity_lost(),
        "checker_error": p.checker_error,
        "cube_error": p.cube_error,
        "mwc_lost": p.mwc_lost(),
        "error_rate": p.error_rate(),
        "pr": p.pr(),
        "rating": p.rating(),
        "luck": p.luck,
        "luck_mwc": p.luck_mwc,
        "luck_rate": p.luck_rate(),
        "luck_rating": p.luck_rating(),
        "very_lucky": p.very_lucky,
        "lucky": p.lucky,
        "unlucky": p.unlucky,
        "very_unlucky": p.very_unlucky,
        "result": p.result,
        "luck_adjusted_result": p.luck_adjusted_result,
        "missed_doubles": p.missed_doubles,
        "wrong_doubles": p.wrong_doubles,
        "wrong_takes": p.wrong_takes,
        "wrong_passes": p.wrong_passes,
        "doubtful": p.doubtful,
        "bad": p.bad,
        "very_bad": p.very_bad,
        "resignation_error": p.resignation_error,
    })
}

/// One decision record.
pub fn decision_json(d: &Decision) -> Value {
    json!({
        "game": d.game,
        "action": d.action,
        "player": d.player,
        "kind": d.kind.name(),
        "position_id": d.position_id,
        "match_id": d.match_id,
        "dice": d.dice.map(|x| [x.high(), x.low()]),
        "played": d.played,
        "best": d.best,
        "equity_lost": d.equity_lost,
        "mwc_lost": d.mwc_lost,
        "counted": d.counted,
        "mark": d.mark.name(),
        "rank": d.rank,
        "alternatives": d.alternatives,
        "equity": d.equity,
        "mwc": d.mwc,
        "luck": d.luck,
        "luck_mwc": d.luck_mwc,
        "luck_mark": d.luck_mark().name(),
        "cube_equities": d.cube_equities,
        "cube_label": d.cube_label,
        "cube_value": d.cube_value,
    })
}

impl Analysis {
    /// The whole analysis as a JSON value: `length`, `games`, `ply`, `thresholds`, `players`
    /// (two entries) and `decisions`.
    pub fn to_json_value(&self) -> Value {
        json!({
            "length": self.length,
            "games": self.games,
            "ply": self.ply,
            "thresholds": {
                "doubtful": self.thresholds.doubtful,
                "bad": self.thresholds.bad,
                "very_bad": self.thresholds.very_bad,
            },
            "players": self.players.iter().map(player_json).collect::<Vec<_>>(),
            "decisions": self.decisions.iter().map(decision_json).collect::<Vec<_>>(),
        })
    }

    /// The JSON text of [`Analysis::to_json_value`].
    pub fn to_json(&self) -> String {
        self.to_json_value().to_string()
    }
}
