//! Cube decisions: whether to double, take, pass or beaver, from the cubeless probabilities.
//!
//! A position's cubeless probabilities say who wins and how, but not what owning the cube is
//! worth. Following Janowski, the cubeful equity is an interpolation between two extremes: a
//! *dead* cube (nobody may double again, so the game is played out at the current stake) and a
//! *fully live* cube (the owner may double at exactly the moment the opponent's take becomes
//! marginal, so equity moves linearly between the take and cash points). The weight of the live
//! extreme is the cube efficiency `x` ([`efficiency`]): how much of the cube's theoretical value a
//! real game delivers, lower in races where market losers are rarer.
//!
//! Money play uses Janowski's closed formulas ([`money`]); match play builds the same live lines
//! out of match winning chances taken from the match equity table ([`match_play`]), level by
//! level up the cube, so gammon values, the dead cube near the end of a match, the Crawford game
//! and post-Crawford doubling all follow from the table; an owner whose redouble turns the last
//! cube makes it at once where that pays him (at 2-away 4-away, the trailer after his take).
//!
//! ```
//! use gammon_bot::cube::{CubeContext, CubeOwner};
//! use gammon_bot::Probabilities;
//! use gammon_backgammon::Position;
//! // A 70% favourite with no gammons, money, centred cube: a double and a take.
//! let p = Probabilities { win: 0.70, ..Default::default() };
//! let d = CubeContext::default().decide(&Position::initial(), &p);
//! assert!(d.double && d.take && d.double_take < d.double_pass);
//! assert_eq!(d.label(), "Double, take");
//! // The same chances with the cube on the other side of the board: no double is possible.
//! let theirs = CubeContext::money(2, CubeOwner::Them, false, false).unwrap();
//! assert!(!theirs.decide(&Position::initial(), &p).double);
//! ```

pub mod lookahead;
pub mod match_play;
pub mod money;
#[cfg(test)]
mod tests;

use super::Probabilities;
use gammon_backgammon::board::Position;
use gammon_backgammon::cube::CUBE_LIMIT;
use gammon_backgammon::game::Game;
use gammon_backgammon::met::MatchEquityTable;
use gammon_core::error::{Error, Result};

/// Who owns the cube, seen from the player on roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CubeOwner {
    /// In the middle: either player may double.
    #[default]
    Centred,
    /// The player on roll owns it and alone may redouble.
    Us,
    /// The opponent owns it.
    Them,
}

impl CubeOwner {
    /// The same owner seen by the other player.
    pub fn swapped(self) -> CubeOwner {
        match self {
            CubeOwner::Centred => CubeOwner::Centred,
            CubeOwner::Us => CubeOwner::Them,
            CubeOwner::Them => CubeOwner::Us,
        }
    }
}

/// What the game is played for: money, or a match at some score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stake {
    /// Money play, with its two optional rules.
    Money {
        /// Gammons count only once the cube has been turned.
        jacoby: bool,
        /// A doubled player may take and at once redouble, keeping the cube.
        beavers: bool,
    },
    /// Match play: each side's points still needed, and whether this is the Crawford game.
    Match {
        /// `[we, they]`: points each side still needs to win the match.
        away: [u32; 2],
        /// This is the Crawford game: nobody may double.
        crawford: bool,
    },
}

/// The cube and the score, seen from the player on roll: everything a cube decision needs
/// besides the position itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeContext {
    value: u32,
    owner: CubeOwner,
    max: u32,
    stake: Stake,
}

impl Default for CubeContext {
    /// Money play, a centred 1-cube, no Jacoby rule, no beavers, 64 at most.
    fn default() -> Self {
        CubeContext {
            value: 1,
            owner: CubeOwner::Centred,
            max: 64,
            stake: Stake::Money { jacoby: false, beavers: false },
        }
    }
}

fn check_value(value: u32) -> Result<()> {
    if !value.is_power_of_two() || value > CUBE_LIMIT {
        return Err(Error::InvalidArgument(format!(
            "cube value {value} must be a power of two between 1 and {CUBE_LIMIT}"
        )));
    }
    Ok(())
}

fn check_owner(value: u32, owner: CubeOwner) -> Result<()> {
    if value > 1 && owner == CubeOwner::Centred {
        // Automatic doubles can leave a centred cube above 1, but nothing here produces them.
        return Ok(());
    }
    if value == 1 && owner != CubeOwner::Centred {
        return Err(Error::InvalidArgument("a 1-cube cannot have an owner: nobody has doubled".into()));
    }
    Ok(())
}

impl CubeContext {
    /// Money play with the cube at `value` (a power of two) owned by `owner`; the cube may reach
    /// 64 (or `value`, if higher).
    pub fn money(value: u32, owner: CubeOwner, jacoby: bool, beavers: bool) -> Result<CubeContext> {
        check_value(value)?;
        check_owner(value, owner)?;
        Ok(CubeContext { value, owner, max: value.max(64), stake: Stake::Money { jacoby, beavers } })
    }

    /// Match play with `away = [we, they]` points still needed (each from 1 to the size of the
    /// match equity table). Post-Crawford play is implied when one side needs 1 point and this is
    /// not the Crawford game.
    ///
    /// ```
    /// use gammon_bot::cube::{CubeContext, CubeOwner};
    /// let c = CubeContext::match_play([2, 1], 1, CubeOwner::Centred, false).unwrap();
    /// assert!(c.is_post_crawford());
    /// assert!(CubeContext::match_play([0, 3], 1, CubeOwner::Centred, false).is_err());
    /// ```
    pub fn match_play(away: [u32; 2], value: u32, owner: CubeOwner, crawford: bool) -> Result<CubeContext> {
        check_value(value)?;
        check_owner(value, owner)?;
        let size = MatchEquityTable::kazaross_xg2().size();
        for (who, a) in ["our", "their"].iter().zip(away) {
            if a == 0 || a > size {
                return Err(Error::InvalidArgument(format!(
                    "{who} away count {a} is out of range: a match in progress needs 1 to {size} points"
                )));
            }
        }
        if crawford && away[0] != 1 && away[1] != 1 {
            return Err(Error::InvalidArgument(format!(
                "the Crawford game needs a side 1-away, not {}-away {}-away",
                away[0], away[1]
            )));
        }
        if crawford && (value > 1 || owner != CubeOwner::Centred) {
            return Err(Error::InvalidArgument("the cube is not used in the Crawford game".into()));
        }
        Ok(CubeContext { value, owner, max: CUBE_LIMIT, stake: Stake::Match { away, crawford } })
    }

    /// The context of `game`, seen by the player whose turn it is (the player on roll, or the
    /// doubler while a double is pending).
    pub fn from_game(game: &Game) -> CubeContext {
        let me = game.turn().unwrap_or(0);
        let cube = game.cube();
        let owner = match cube.owner() {
            None => CubeOwner::Centred,
            Some(o) if o == me => CubeOwner::Us,
            Some(_) => CubeOwner::Them,
        };
        let ctx = game.context();
        let stake = if ctx.length == 0 {
            Stake::Money { jacoby: game.rules().jacoby, beavers: game.rules().beavers }
        } else {
            let away = |p: u8| ctx.length.saturating_sub(ctx.score[p as usize]).max(1);
            Stake::Match { away: [away(me), away(1 - me)], crawford: ctx.crawford }
        };
        let max = if ctx.length == 0 { game.rules().cube_max.max(cube.value()) } else { CUBE_LIMIT };
        CubeContext { value: cube.value(), owner, max, stake }
    }

    /// The same context seen by the other player.
    pub fn swapped(&self) -> CubeContext {
        let stake = match self.stake {
            Stake::Match { away, crawford } => Stake::Match { away: [away[1], away[0]], crawford },
            money => money,
        };
        CubeContext { owner: self.owner.swapped(), stake, ..*self }
    }

    /// The context after the player on roll doubles and the opponent takes: the cube at twice
    /// the value, owned by the opponent, seen still by the player on roll (whose play comes
    /// next). The maximum may not be exceeded.
    ///
    /// ```
    /// use gammon_bot::cube::{CubeContext, CubeOwner};
    /// let t = CubeContext::default().taken().unwrap();
    /// assert_eq!((t.value(), t.owner()), (2, CubeOwner::Them));
    /// assert!(CubeContext::money(2, CubeOwner::Them, false, false).unwrap().taken().is_err());
    /// ```
    pub fn taken(&self) -> Result<CubeContext> {
        if !self.may_double() {
            return Err(Error::IllegalAction(
                "the player on roll may not double here (cube not available, at its maximum, or the Crawford game)"
                    .into(),
            ));
        }
        Ok(CubeContext { value: self.value * 2, owner: CubeOwner::Them, ..*self })
    }

    /// The context after the player on roll doubles and the opponent beavers (takes and at once
    /// redoubles, keeping the cube): four times the cube, owned by the player on roll, seen by
    /// that player. An error where the player may not double or the cube may not reach four
    /// times its value.
    pub fn beavered(&self) -> Result<CubeContext> {
        let taken = self.taken()?;
        if taken.value * 2 > self.max {
            return Err(Error::IllegalAction("the cube may not be redoubled to this value".into()));
        }
        Ok(CubeContext { value: taken.value * 2, owner: CubeOwner::Us, ..taken })
    }

    /// The match winning chance of the player on roll after a game that ends with `points`
    /// (negative for a loss) times the cube; `None` in money play.
    pub fn result_mwc(&self, points: i8) -> Option<f64> {
        match self.stake {
            Stake::Match { away, crawford } => Some(match_play::result_mwc(self, away, crawford, points)),
            Stake::Money { .. } => None,
        }
    }

    /// The match winning chance of the player on roll that an equity normalised as
    /// [`CubeAction`]'s stands for (the inverse of the equivalent-to-money scale at this cube);
    /// `None` in money play.
    pub fn mwc_of_equity(&self, equity: f64) -> Option<f64> {
        let win = self.result_mwc(1)?;
        let lose = self.result_mwc(-1)?;
        Some(lose + (equity + 1.0) / 2.0 * (win - lose))
    }

    /// The equity normalised as [`CubeAction`]'s (equivalent to money at this cube) of a match
    /// winning chance `mwc` of the player on roll; `None` in money play.
    pub fn equity_of_mwc(&self, mwc: f64) -> Option<f64> {
        let win = self.result_mwc(1)?;
        let lose = self.result_mwc(-1)?;
        Some(match_play::equivalent_money(mwc, win, lose))
    }

    /// The cube value.
    pub fn value(&self) -> u32 {
        self.value
    }

    /// Who owns the cube.
    pub fn owner(&self) -> CubeOwner {
        self.owner
    }

    /// Money or match, and its rules.
    pub fn stake(&self) -> Stake {
        self.stake
    }

    /// A post-Crawford game: one side needs a single point and the Crawford game is over.
    pub fn is_post_crawford(&self) -> bool {
        matches!(self.stake, Stake::Match { away, crawford: false } if (away[0] == 1) != (away[1] == 1))
    }

    /// Whether the player on roll may double now.
    pub fn may_double(&self) -> bool {
        let in_use = !matches!(self.stake, Stake::Match { crawford: true, .. });
        in_use && self.owner != CubeOwner::Them && self.value * 2 <= self.max
    }

    /// The cube decision of the player on roll, before rolling, in `position` whose cubeless
    /// probabilities for that player are `probs`. In money play, a position of the two-sided
    /// bear-off database is decided on its exact cubeful equities instead ([`money::exact`]).
    pub fn decide(&self, position: &Position, probs: &Probabilities) -> CubeAction {
        let x = efficiency(position);
        let (no_double, double_take, double_pass) = match self.stake {
            Stake::Money { jacoby, .. } => {
                money::exact(self, position).unwrap_or_else(|| money::equities(self, probs, x, jacoby))
            }
            Stake::Match { away, crawford } => match_play::equities(self, away, crawford, probs, x),
        };
        self.verdict(no_double, double_take, double_pass)
    }

    /// The cubeful equity of the player on roll with cubeless chances `probs`, normalised as
    /// [`CubeAction`]'s, by the cube model alone at cube efficiency `x` ([`efficiency`]) and
    /// without the bear-off database's exact money equities: what a cubeful rollout measures
    /// the luck of a roll by, for the 21 rolls from one position.
    ///
    /// ```
    /// use gammon_bot::cube::{efficiency, CubeContext};
    /// use gammon_backgammon::Position;
    /// use gammon_core::Probabilities;
    /// let (ctx, p) = (CubeContext::default(), Position::initial());
    /// let probs = Probabilities { win: 0.5, ..Probabilities::default() };
    /// assert_eq!(ctx.model_equity(&probs, efficiency(&p)), ctx.equity(&p, &probs));
    /// ```
    pub fn model_equity(&self, probs: &Probabilities, x: f64) -> f64 {
        let (no_double, double_take, double_pass) = match self.stake {
            Stake::Money { jacoby, .. } => money::equities(self, probs, x, jacoby),
            Stake::Match { away, crawford } => match_play::equities(self, away, crawford, probs, x),
        };
        self.verdict(no_double, double_take, double_pass).equity()
    }

    /// The cube decision that three equities of the player on roll (normalised as
    /// [`CubeAction`]'s, from any source: the bot's cube model, or a cube-decision rollout) call
    /// for in this context.
    ///
    /// ```
    /// use gammon_bot::cube::CubeContext;
    /// let d = CubeContext::default().verdict(0.6, 0.8, 1.0);
    /// assert_eq!(d.label(), "Double, take");
    /// ```
    pub fn verdict(&self, no_double: f64, double_take: f64, double_pass: f64) -> CubeAction {
        let beavers = matches!(self.stake, Stake::Money { beavers: true, .. });
        let may = self.may_double();
        let take = double_take <= double_pass;
        let best = double_take.min(double_pass);
        // A tie with a pass (a certain single win: cashing is as good as playing on) counts as
        // a double; a tie with a take does not.
        let gains = best > no_double + TIE || (best >= no_double - TIE && !take);
        CubeAction {
            double: may && gains,
            take,
            // A taker who is the favourite after taking redoubles at once, if the rules allow it,
            // unless the doubler would then pass: a dropped beaver pays the taker only the 2-cube
            // (-2 here), less than an equity of a better-than-2 take kept.
            beaver: may
                && beavers
                && take
                && double_take < 0.0
                && double_take > -2.0
                && self.value * 4 <= self.max,
            redouble: self.owner == CubeOwner::Us,
            may_double: may,
            no_double,
            double_take,
            double_pass,
        }
    }

    /// The equity of a finished game worth `points` (1, 2 or 3; negative for a loss) times the
    /// cube to the player on roll, normalised as [`CubeAction`]'s equities.
    ///
    /// ```
    /// use gammon_bot::cube::{CubeContext, CubeOwner};
    /// assert_eq!(CubeContext::default().result_equity(-2), -2.0);
    /// // At 2-away 2-away on a 2-cube any win takes the match: a gammon is worth no more.
    /// let ctx = CubeContext::match_play([2, 2], 2, CubeOwner::Us, false).unwrap();
    /// assert_eq!((ctx.result_equity(1), ctx.result_equity(2)), (1.0, 1.0));
    /// ```
    pub fn result_equity(&self, points: i8) -> f64 {
        match self.stake {
            Stake::Money { jacoby: true, .. } if self.owner == CubeOwner::Centred => points.signum() as f64,
            Stake::Money { .. } => points as f64,
            Stake::Match { away, crawford } => match_play::result_equity(self, away, crawford, points),
        }
    }

    /// The cubeful equity of the player on roll, who doubles when that is right: the value the
    /// bot ranks plays by in this context (normalised as [`CubeAction`]'s equities).
    pub fn equity(&self, position: &Position, probs: &Probabilities) -> f64 {
        self.decide(position, probs).equity()
    }
}

/// A cube decision and the three equities behind it, all for the player on roll and normalised
/// to the current cube: per unit of the cube's value in money play (so `double_pass` is 1), and
/// in match play as the money equity with the same distance between losing and winning the
/// current stake ("equivalent to money game").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeAction {
    /// The player on roll should double (or redouble).
    pub double: bool,
    /// The opponent should take a double.
    pub take: bool,
    /// The opponent should beaver (take and redouble at once), where beavers are allowed.
    pub beaver: bool,
    /// The player on roll owns the cube, so a double would be a redouble.
    pub redouble: bool,
    /// The player on roll may double at all (cube in use, centred or ours, below its maximum).
    pub may_double: bool,
    /// Equity if the player does not double.
    pub no_double: f64,
    /// Equity if the player doubles and the opponent takes.
    pub double_take: f64,
    /// Equity if the player doubles and the opponent passes.
    pub double_pass: f64,
}

impl CubeAction {
    /// The equity of the right action: doubling when that is better, the opponent answering
    /// as well as it can.
    pub fn equity(&self) -> f64 {
        if self.double {
            self.double_take.min(self.double_pass)
        } else {
            self.no_double
        }
    }

    /// The decision in words, as players say it: `"No double, take"`, `"Double, pass"`,
    /// `"Too good to redouble, pass"`, `"Double, beaver"`...
    pub fn label(&self) -> String {
        let verb = if self.redouble { "redouble" } else { "double" };
        let answer = if self.beaver {
            "beaver"
        } else if self.take {
            "take"
        } else {
            "pass"
        };
        if self.double {
            format!("{}, {answer}", capitalised(verb))
        } else if !self.take && self.may_double {
            format!("Too good to {verb}, {answer}")
        } else {
            format!("No {verb}, {answer}")
        }
    }
}

fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// Equities closer than this are equal: they differ only by rounding.
const TIE: f64 = 1e-12;

/// The cube efficiency of a position: the share of the fully live cube's value that real play
/// delivers. These are GNU Backgammon's published defaults, so that our decisions are comparable:
/// 0.68 while the sides are in contact; in a race `0.55 + 0.00125 x` (the pip count of the player
/// on roll), kept between 0.6 and 0.7, since long races leave more room for market losers; 0.6
/// once both sides are bearing off.
///
/// ```
/// use gammon_bot::cube::efficiency;
/// use gammon_backgammon::{pos, Position};
/// assert_eq!(efficiency(&Position::initial()), 0.68);
/// assert_eq!(efficiency(&pos!(6 => 5, 19 => -5)), 0.6);
/// ```
pub fn efficiency(position: &Position) -> f64 {
    if !position.is_race() {
        return 0.68;
    }
    let b = position.board();
    let home = (7..=24).all(|i| b[i] <= 0) && (1..=18).all(|i| b[i] >= 0);
    if home {
        return 0.6;
    }
    (0.55 + 0.00125 * position.pips().0 as f64).clamp(0.6, 0.7)
}

/// How the outcomes split given a win or a loss: `[single, gammon, backgammon]` shares of wins
/// and of losses (each summing to 1), from cumulative probabilities.
pub(crate) fn outcome_shares(probs: &Probabilities) -> ([f64; 3], [f64; 3]) {
    let split = |all: f64, gammon: f64, backgammon: f64| {
        if all <= 1e-12 {
            return [1.0, 0.0, 0.0];
        }
        let g = gammon.clamp(0.0, all);
        let bg = backgammon.clamp(0.0, g);
        [(all - g) / all, (g - bg) / all, bg / all]
    };
    (
        split(probs.win, probs.win_gammon, probs.win_backgammon),
        split(1.0 - probs.win, probs.lose_gammon, probs.lose_backgammon),
    )
}
