//! Match equity tables: a player's chance of winning the match from a score.
//!
//! `pre[i][j]` is the match-winning chance (MWC) of a player who needs `i + 1` points against one
//! who needs `j + 1`, before a game with the cube centred; row or column 0 (a player 1-away) is the
//! Crawford game. `post[n]` is the MWC of the trailer who needs `n + 1` when the leader needs 1 in
//! a post-Crawford game. Kazaross-XG2 (GNU Backgammon's default) is built in; other tables in the
//! same JSON layout load from a string or a file.
//!
//! ```
//! use gammon_backgammon::MatchEquityTable;
//! let met = MatchEquityTable::kazaross_xg2();
//! assert_eq!(met.pre_crawford(1, 2).unwrap(), 0.67736);
//! assert_eq!(met.post_crawford(2).unwrap(), 0.48803);
//! ```

use gammon_core::error::{Error, Result};
use serde_json::Value;
use std::sync::OnceLock;

/// The Kazaross-XG2 table as shipped, with its permission notice (field
/// `license_notice_verbatim_from_file`), which must stay with the numbers.
pub const KAZAROSS_XG2_JSON: &str = include_str!("../data/met_kazaross_xg2.json");

/// A match equity table.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchEquityTable {
    name: String,
    notice: String,
    pre: Vec<Vec<f64>>,
    post: Vec<f64>,
}

fn bad(why: String) -> Error {
    Error::InvalidFormat(format!("invalid match equity table: {why}"))
}

fn numbers(v: &Value, what: &str) -> Result<Vec<f64>> {
    let arr = v.as_array().ok_or_else(|| bad(format!("{what} is not a list")))?;
    arr.iter()
        .enumerate()
        .map(|(i, x)| {
            x.as_f64()
                .filter(|p| (0.0..=1.0).contains(p))
                .ok_or_else(|| bad(format!("{what}[{i}] is {x}, not a probability")))
        })
        .collect()
}

impl MatchEquityTable {
    /// Kazaross-XG2, 25 x 25 (GNU Backgammon's default table).
    pub fn kazaross_xg2() -> &'static MatchEquityTable {
        static TABLE: OnceLock<MatchEquityTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            MatchEquityTable::from_json(KAZAROSS_XG2_JSON).expect("the built-in table is valid")
        })
    }

    /// Reads a table from JSON with `name`, `pre_crawford` (square list of rows) and
    /// `post_crawford` (a list), as in the repository's `data/met/met_*.json`.
    pub fn from_json(text: &str) -> Result<MatchEquityTable> {
        let v: Value = serde_json::from_str(text).map_err(|e| bad(format!("not JSON: {e}")))?;
        let name = v.get("name").and_then(Value::as_str).unwrap_or("unnamed").to_string();
        let notice =
            v.get("license_notice_verbatim_from_file").and_then(Value::as_str).unwrap_or("").to_string();
        let rows = v
            .get("pre_crawford")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("no pre_crawford list".into()))?;
        let pre = rows
            .iter()
            .enumerate()
            .map(|(i, r)| numbers(r, &format!("pre_crawford[{i}]")))
            .collect::<Result<Vec<_>>>()?;
        if pre.is_empty() || pre.iter().any(|r| r.len() != pre.len()) {
            return Err(bad("pre_crawford must be a non-empty square table".into()));
        }
        let post = numbers(
            v.get("post_crawford").ok_or_else(|| bad("no post_crawford list".into()))?,
            "post_crawford",
        )?;
        if post.is_empty() {
            return Err(bad("post_crawford is empty".into()));
        }
        Ok(MatchEquityTable { name, notice, pre, post })
    }

    /// Reads a table from a JSON file.
    pub fn load(path: &str) -> Result<MatchEquityTable> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::InvalidArgument(format!("cannot read match equity table {path:?}: {e}")))?;
        MatchEquityTable::from_json(&text)
    }

    /// The table's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The permission notice that came with the numbers.
    pub fn notice(&self) -> &str {
        &self.notice
    }

    /// The largest away count the pre-Crawford table covers.
    pub fn size(&self) -> u32 {
        self.pre.len() as u32
    }

    /// MWC of a player `me_away` points from winning against one `opp_away` from winning, before a
    /// game that is not post-Crawford (1-away rows are the Crawford game). A player 0-away has won.
    pub fn pre_crawford(&self, me_away: u32, opp_away: u32) -> Result<f64> {
        match (me_away, opp_away) {
            (0, 0) => Err(Error::InvalidArgument("both players cannot have won".into())),
            (0, _) => Ok(1.0),
            (_, 0) => Ok(0.0),
            (a, b) if a > self.size() || b > self.size() => Err(Error::InvalidArgument(format!(
                "{a}-away/{b}-away is beyond the {} table ({} x {})",
                self.name,
                self.size(),
                self.size()
            ))),
            (a, b) => Ok(self.pre[a as usize - 1][b as usize - 1]),
        }
    }

    /// MWC of the trailer `trailer_away` points from winning when the leader needs 1, in a
    /// post-Crawford game.
    pub fn post_crawford(&self, trailer_away: u32) -> Result<f64> {
        match trailer_away {
            0 => Ok(1.0),
            n if n as usize > self.post.len() => Err(Error::InvalidArgument(format!(
                "{n}-away is beyond the post-Crawford row of {} ({} entries)",
                self.name,
                self.post.len()
            ))),
            n => Ok(self.post[n as usize - 1]),
        }
    }

    /// MWC of a player `me_away` from winning against one `opp_away`, where `post_crawford` says the
    /// game about to be played is post-Crawford (it matters only when a player is 1-away).
    pub fn mwc(&self, me_away: u32, opp_away: u32, post_crawford: bool) -> Result<f64> {
        match (me_away, opp_away) {
            (a, 1) if post_crawford && a > 1 => self.post_crawford(a),
            (1, b) if post_crawford && b > 1 => Ok(1.0 - self.post_crawford(b)?),
            (a, b) => self.pre_crawford(a, b),
        }
    }

    /// MWC of `player` at `score` in a match to `length`, before a game (`post_crawford` as in
    /// [`MatchEquityTable::mwc`]).
    pub fn mwc_at_score(&self, score: [u32; 2], length: u32, player: u8, post_crawford: bool) -> Result<f64> {
        if length == 0 || player > 1 {
            return Err(Error::InvalidArgument(format!(
                "needs a match length > 0 and player 0 or 1, got length {length}, player {player}"
            )));
        }
        let away = |s: u32| length.saturating_sub(s);
        let (me, opp) = (score[player as usize], score[1 - player as usize]);
        self.mwc(away(me), away(opp), post_crawford)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_md_quick_checks() {
        let met = MatchEquityTable::kazaross_xg2();
        assert_eq!(met.pre_crawford(1, 2).unwrap(), 0.67736);
        assert_eq!(met.pre_crawford(2, 3).unwrap(), 0.59947);
        assert_eq!(met.pre_crawford(3, 4).unwrap(), 0.5715);
        assert_eq!(met.pre_crawford(5, 7).unwrap(), 0.62638);
        for (away, mwc) in [(2, 0.48803), (3, 0.32264), (4, 0.31002), (5, 0.19012)] {
            assert_eq!(met.post_crawford(away).unwrap(), mwc);
        }
        assert!(met.notice().contains("permission notice are preserved"));
    }

    #[test]
    fn formats_md_seven_by_seven_grid() {
        let grid = [
            [0.5000, 0.6774, 0.7508, 0.8144, 0.8418, 0.8873, 0.9072],
            [0.3226, 0.5000, 0.5995, 0.6687, 0.7436, 0.7994, 0.8423],
            [0.2492, 0.4005, 0.5000, 0.5715, 0.6480, 0.7112, 0.7621],
            [0.1856, 0.3313, 0.4285, 0.5000, 0.5773, 0.6429, 0.6992],
            [0.1582, 0.2564, 0.3520, 0.4227, 0.5000, 0.5664, 0.6264],
            [0.1127, 0.2006, 0.2888, 0.3572, 0.4336, 0.5000, 0.5626],
            [0.0928, 0.1578, 0.2379, 0.3008, 0.3736, 0.4374, 0.5000],
        ];
        let met = MatchEquityTable::kazaross_xg2();
        for (i, row) in grid.iter().enumerate() {
            for (j, &want) in row.iter().enumerate() {
                let got = met.pre_crawford(i as u32 + 1, j as u32 + 1).unwrap();
                assert!((got - want).abs() <= 0.00005 + 1e-12, "{}a-{}a: {got} vs {want}", i + 1, j + 1);
            }
        }
    }

    #[test]
    fn table_is_antisymmetric_and_lookups_agree() {
        let met = MatchEquityTable::kazaross_xg2();
        for a in 1..=25 {
            for b in 1..=25 {
                let s = met.pre_crawford(a, b).unwrap() + met.pre_crawford(b, a).unwrap();
                assert!((s - 1.0).abs() < 1e-9, "{a},{b}");
            }
        }
        assert_eq!(met.mwc(3, 1, true).unwrap(), 0.32264);
        assert!((met.mwc(1, 3, true).unwrap() - 0.67736).abs() < 1e-12);
        assert_eq!(met.mwc(1, 2, false).unwrap(), 0.67736);
        // 7-point match, 4-5: player 0 is 3-away, player 1 2-away.
        assert_eq!(met.mwc_at_score([4, 5], 7, 0, false).unwrap(), met.pre_crawford(3, 2).unwrap());
        assert_eq!(met.mwc_at_score([7, 5], 7, 0, false).unwrap(), 1.0);
        assert!(met.pre_crawford(26, 1).is_err());
        assert!(met.post_crawford(26).is_err());
    }

    #[test]
    fn other_tables_load_and_bad_json_is_refused() {
        // The repository's copies of the published tables; the test needs every one of them.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/met");
        for (file, size, post) in
            [("met_g11.json", 25, 24), ("met_woolsey.json", 15, 15), ("met_rockwell_kazaross.json", 25, 25)]
        {
            let path = format!("{dir}/{file}");
            let met = MatchEquityTable::load(&path).unwrap();
            assert_eq!(met.size(), size, "{file}");
            assert!(met.post_crawford(post).is_ok() && met.post_crawford(post + 1).is_err(), "{file}");
        }
        assert_eq!(MatchEquityTable::kazaross_xg2().size(), 25);
        for text in [
            "",
            "[]",
            r#"{"pre_crawford": [[0.5, 0.6]], "post_crawford": [0.5]}"#,
            r#"{"pre_crawford": [[1.5]], "post_crawford": [0.5]}"#,
            r#"{"pre_crawford": [[0.5]]}"#,
        ] {
            assert!(MatchEquityTable::from_json(text).is_err(), "{text}");
        }
        let small =
            MatchEquityTable::from_json(r#"{"name": "t", "pre_crawford": [[0.5]], "post_crawford": [0.5]}"#);
        assert_eq!(small.unwrap().pre_crawford(1, 1).unwrap(), 0.5);
    }
}
