//! The rule options: where the sources leave room, each choice of this project can be switched.

use gammon_core::error::{Error, Result};

/// The rule options of a game, with the defaults of the rules document.
///
/// ```
/// use gammon_battlegammon::Rules;
/// let mut rules = Rules::default();
/// assert_eq!(rules.turn_cap, 1000);
/// rules.set("maximize_dice", 1).unwrap();
/// assert!(rules.maximize_dice);
/// assert!(rules.set("turn_cap", 0).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Apply backgammon's dice rule: play both dice when any play can, otherwise the larger die
    /// when either one could be played. Off by default: either die may be played first even when
    /// that leaves the other one unplayable. A play that wins is complete with one move either way.
    pub maximize_dice: bool,
    /// Win (b) needs eight distinct fields of the opponent's colour (the goal counting once)
    /// instead of eight tokens. Off by default.
    pub count_distinct_fields: bool,
    /// The game is a draw once this many turns (passes included) have been played without a
    /// winner. At least 1; 1000 by default.
    ///
    /// The other draw of the rules, a position where neither side can move under any roll, is
    /// always in force but cannot arise with ten tokens a side (see
    /// [`Position::is_deadlocked`](super::Position::is_deadlocked)), so the cap is the only way a
    /// game is drawn in practice.
    pub turn_cap: u32,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules { maximize_dice: false, count_distinct_fields: false, turn_cap: 1000 }
    }
}

impl Rules {
    /// The names [`Rules::set`] understands, in declaration order.
    pub const OPTION_NAMES: [&'static str; 3] = ["maximize_dice", "count_distinct_fields", "turn_cap"];

    /// Sets the option called `name` (one of [`Rules::OPTION_NAMES`]); switches take 0 or 1.
    /// Bindings use this to turn keyword arguments into rules.
    pub fn set(&mut self, name: &str, value: i64) -> Result<()> {
        let switch = |value: i64| match value {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Error::InvalidArgument(format!("rule option {name} is a switch; got {value}"))),
        };
        match name {
            "maximize_dice" => self.maximize_dice = switch(value)?,
            "count_distinct_fields" => self.count_distinct_fields = switch(value)?,
            "turn_cap" => {
                self.turn_cap = u32::try_from(value).ok().filter(|&cap| cap >= 1).ok_or_else(|| {
                    Error::InvalidArgument(format!("turn_cap must be between 1 and 2^32-1; got {value}"))
                })?
            }
            _ => {
                return Err(Error::InvalidArgument(format!(
                    "unknown rule option {name:?}; known: {}",
                    Rules::OPTION_NAMES.join(", ")
                )))
            }
        }
        Ok(())
    }

    /// Checks the options for values no game can use (a turn cap of 0).
    pub fn validate(&self) -> Result<()> {
        if self.turn_cap == 0 {
            return Err(Error::InvalidArgument("turn_cap must be at least 1".into()));
        }
        Ok(())
    }
}
