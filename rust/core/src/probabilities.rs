//! The five cumulative outcome probabilities of a position and the cubeless equity they imply.

/// Outcome probabilities for one player, cumulative as in GNU Backgammon: `win` includes gammons
/// and backgammons, `win_gammon` includes backgammons, and likewise for losses.
///
/// ```
/// use gammon_core::Probabilities;
/// let p = Probabilities::from_points(2); // a gammon won
/// assert_eq!((p.win, p.win_gammon, p.win_backgammon), (1.0, 1.0, 0.0));
/// assert_eq!(p.equity(), 2.0);
/// assert_eq!(p.flipped().equity(), -2.0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Probabilities {
    /// Wins of any kind.
    pub win: f64,
    /// Gammons and backgammons won.
    pub win_gammon: f64,
    /// Backgammons won.
    pub win_backgammon: f64,
    /// Gammons and backgammons lost.
    pub lose_gammon: f64,
    /// Backgammons lost.
    pub lose_backgammon: f64,
    /// Games drawn (Battlegammon's turn cap; backgammon never draws). `win` counts a draw as half
    /// a win, so [`Probabilities::equity`] and [`Probabilities::flipped`] need no case for draws,
    /// and a game without draws leaves this 0.
    pub draw: f64,
}

impl Probabilities {
    /// The names of the five probabilities, in the order of [`Probabilities::to_array`]: the
    /// field names here, and the names every front-end (Python, command line, JSON) uses.
    ///
    /// ```
    /// use gammon_core::Probabilities;
    /// assert_eq!(Probabilities::NAMES[1], "win_gammon");
    /// ```
    pub const NAMES: [&'static str; 5] =
        ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"];

    /// The certain outcome of a finished game worth `points` to this player (negative for a loss,
    /// 0 for a draw, which counts as half a win).
    pub fn from_points(points: i8) -> Probabilities {
        let won = |k: i8| if points >= k { 1.0 } else { 0.0 };
        let lost = |k: i8| if points <= -k { 1.0 } else { 0.0 };
        Probabilities {
            win: if points == 0 { 0.5 } else { won(1) },
            win_gammon: won(2),
            win_backgammon: won(3),
            lose_gammon: lost(2),
            lose_backgammon: lost(3),
            draw: if points == 0 { 1.0 } else { 0.0 },
        }
    }

    /// Cubeless equity per unit stake: `2 win - 1 + (win_gammon - lose_gammon)
    /// + (win_backgammon - lose_backgammon)`.
    pub fn equity(&self) -> f64 {
        2.0 * self.win - 1.0 + self.win_gammon - self.lose_gammon + self.win_backgammon - self.lose_backgammon
    }

    /// The same outcome seen by the opponent.
    pub fn flipped(&self) -> Probabilities {
        Probabilities {
            win: 1.0 - self.win,
            win_gammon: self.lose_gammon,
            win_backgammon: self.lose_backgammon,
            lose_gammon: self.win_gammon,
            lose_backgammon: self.win_backgammon,
            draw: self.draw,
        }
    }

    /// `[win, win_gammon, win_backgammon, lose_gammon, lose_backgammon]`.
    pub fn to_array(&self) -> [f64; 5] {
        [self.win, self.win_gammon, self.win_backgammon, self.lose_gammon, self.lose_backgammon]
    }

    /// The inverse of [`Probabilities::to_array`], with no draws.
    pub fn from_array(a: [f64; 5]) -> Probabilities {
        Probabilities {
            win: a[0],
            win_gammon: a[1],
            win_backgammon: a[2],
            lose_gammon: a[3],
            lose_backgammon: a[4],
            draw: 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_map_to_cumulative_outcomes() {
        for points in [-3i8, -2, -1, 1, 2, 3] {
            let p = Probabilities::from_points(points);
            assert_eq!(p.equity(), points as f64);
            assert_eq!(p.flipped(), Probabilities::from_points(-points));
        }
        let draw = Probabilities::from_points(0);
        assert_eq!(draw.equity(), 0.0);
        assert_eq!(draw.flipped(), draw);
        assert_eq!((draw.draw, draw.win, draw.win_gammon, draw.lose_gammon), (1.0, 0.5, 0.0, 0.0));
    }
}
