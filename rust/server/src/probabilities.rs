//! The five cumulative outcome probabilities as the two APIs write them.

use gammon_bot::Probabilities;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// wildbg's names: `win` includes gammons and backgammons, `winG` includes backgammons, and
/// likewise for losses; the chance to lose is `1 - win`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[allow(non_snake_case)]
pub struct WildbgProbabilities {
    /// Wins of any kind.
    #[schema(minimum = 0, maximum = 1)]
    pub win: f64,
    /// Gammons and backgammons won.
    #[schema(minimum = 0, maximum = 1)]
    pub winG: f64,
    /// Backgammons won.
    #[schema(minimum = 0, maximum = 1)]
    pub winBg: f64,
    /// Gammons and backgammons lost.
    #[schema(minimum = 0, maximum = 1)]
    pub loseG: f64,
    /// Backgammons lost.
    #[schema(minimum = 0, maximum = 1)]
    pub loseBg: f64,
}

impl From<Probabilities> for WildbgProbabilities {
    fn from(p: Probabilities) -> WildbgProbabilities {
        WildbgProbabilities {
            win: p.win,
            winG: p.win_gammon,
            winBg: p.win_backgammon,
            loseG: p.lose_gammon,
            loseBg: p.lose_backgammon,
        }
    }
}

/// The same five numbers under the engine's names, cumulative as in GNU Backgammon. The OpenAPI
/// schema calls it `Probabilities`, as Rust's `gammon_core::Probabilities` and Python's
/// `gammon.Probabilities` are called (the Rust name here stays apart from that type it converts).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = Probabilities)]
pub struct Outcome {
    /// Wins of any kind.
    #[schema(minimum = 0, maximum = 1)]
    pub win: f64,
    /// Gammons and backgammons won.
    #[schema(minimum = 0, maximum = 1)]
    pub win_gammon: f64,
    /// Backgammons won.
    #[schema(minimum = 0, maximum = 1)]
    pub win_backgammon: f64,
    /// Gammons and backgammons lost.
    #[schema(minimum = 0, maximum = 1)]
    pub lose_gammon: f64,
    /// Backgammons lost.
    #[schema(minimum = 0, maximum = 1)]
    pub lose_backgammon: f64,
}

impl From<Probabilities> for Outcome {
    fn from(p: Probabilities) -> Outcome {
        Outcome {
            win: p.win,
            win_gammon: p.win_gammon,
            win_backgammon: p.win_backgammon,
            lose_gammon: p.lose_gammon,
            lose_backgammon: p.lose_backgammon,
        }
    }
}
