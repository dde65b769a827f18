//! The doubling cube: its value, who owns it, and the options that change how it is used.

use gammon_core::error::{Error, Result};

/// The highest cube value a Match ID can carry (15 bits of log2 would allow more, but gnubg caps at
/// 2^15 in its fields and no real game gets near it).
pub const CUBE_LIMIT: u32 = 1 << 15;

/// How the cube may be used in one game.
///
/// ```
/// use gammon_backgammon::CubeRules;
/// let rules = CubeRules::new(true, false, 64).unwrap();
/// assert!(rules.jacoby && !rules.beavers && rules.enabled);
/// assert!(CubeRules::new(false, false, 48).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CubeRules {
    /// Gammons and backgammons count only once the cube has been turned (money play only).
    pub jacoby: bool,
    /// A doubled player may beaver: take and at once redouble, keeping the cube (money play only).
    pub beavers: bool,
    /// The highest value the cube may reach (a power of two; 64 by convention).
    pub cube_max: u32,
    /// False in the Crawford game, where nobody may double.
    pub enabled: bool,
    /// A player whose match cube is dead (at or above the points he needs) may still double, as
    /// some clients let players do and their match files record. Off by default, as in GNU
    /// Backgammon's play; the `.mat` reader switches it on.
    pub dead_cube_doubles: bool,
}

impl Default for CubeRules {
    fn default() -> Self {
        CubeRules { jacoby: false, beavers: false, cube_max: 64, enabled: true, dead_cube_doubles: false }
    }
}

impl CubeRules {
    /// Money-play rules with the cube in use; `cube_max` must be a power of two from 1 to 2^15.
    pub fn new(jacoby: bool, beavers: bool, cube_max: u32) -> Result<CubeRules> {
        if !cube_max.is_power_of_two() || cube_max > CUBE_LIMIT {
            return Err(Error::InvalidArgument(format!(
                "cube_max {cube_max} must be a power of two between 1 and {CUBE_LIMIT}"
            )));
        }
        Ok(CubeRules { jacoby, beavers, cube_max, enabled: true, dead_cube_doubles: false })
    }
}

/// The cube: a value (a power of two) and its owner, `None` while it sits in the middle.
///
/// ```
/// use gammon_backgammon::Cube;
/// let c = Cube::centred();
/// assert_eq!((c.value(), c.owner()), (1, None));
/// let c = Cube::new(4, Some(1)).unwrap();
/// assert_eq!(c.log2(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cube {
    value: u32,
    owner: Option<u8>,
}

impl Default for Cube {
    fn default() -> Self {
        Cube::centred()
    }
}

impl Cube {
    /// The cube at the start of a game: 1, in the middle.
    pub const fn centred() -> Cube {
        Cube { value: 1, owner: None }
    }

    /// A cube of `value` (a power of two up to 2^15) owned by `owner` (0, 1 or `None`).
    pub fn new(value: u32, owner: Option<u8>) -> Result<Cube> {
        if !value.is_power_of_two() || value > CUBE_LIMIT {
            return Err(Error::InvalidArgument(format!(
                "cube value {value} must be a power of two between 1 and {CUBE_LIMIT}"
            )));
        }
        if matches!(owner, Some(p) if p > 1) {
            return Err(Error::InvalidArgument(format!("cube owner {owner:?} must be 0, 1 or None")));
        }
        Ok(Cube { value, owner })
    }

    /// The value shown: the stake multiplier.
    pub const fn value(&self) -> u32 {
        self.value
    }

    /// log2 of the value, as Match IDs and XGIDs store it.
    pub const fn log2(&self) -> u32 {
        self.value.trailing_zeros()
    }

    /// The player who owns the cube, `None` while it is in the middle.
    pub const fn owner(&self) -> Option<u8> {
        self.owner
    }

    /// Still in the middle: nobody has doubled yet.
    pub const fn is_centred(&self) -> bool {
        self.owner.is_none()
    }

    /// Whether `player` may offer a double under `rules`: the cube is in use, in the middle or his,
    /// and doubling stays within the maximum.
    pub fn may_double(&self, player: u8, rules: &CubeRules) -> bool {
        rules.enabled && self.owner.is_none_or(|o| o == player) && self.value * 2 <= rules.cube_max
    }

    /// Why `player` may not double, or `None` when he may.
    pub(crate) fn why_not_double(&self, player: u8, rules: &CubeRules) -> Option<String> {
        if !rules.enabled {
            return Some("the cube is not in use in this game (Crawford game)".into());
        }
        if let Some(o) = self.owner.filter(|&o| o != player) {
            return Some(format!("player {o} owns the cube; only the owner may redouble"));
        }
        if self.value * 2 > rules.cube_max {
            return Some(format!("the cube is at {}, its maximum is {}", self.value, rules.cube_max));
        }
        None
    }

    /// The cube after `taker` accepts a double: twice the value, owned by the taker.
    pub(crate) fn taken_by(self, taker: u8) -> Cube {
        Cube { value: self.value * 2, owner: Some(taker) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ownership_decides_who_may_double() {
        let rules = CubeRules::default();
        let c = Cube::centred();
        assert!(c.may_double(0, &rules) && c.may_double(1, &rules));
        let c = c.taken_by(1);
        assert_eq!((c.value(), c.owner()), (2, Some(1)));
        assert!(!c.may_double(0, &rules) && c.may_double(1, &rules));
        let top = Cube::new(64, Some(0)).unwrap();
        assert!(!top.may_double(0, &rules));
        let crawford = CubeRules { enabled: false, ..rules };
        assert!(!Cube::centred().may_double(0, &crawford));
    }

    #[test]
    fn rejects_bad_values() {
        assert!(Cube::new(3, None).is_err());
        assert!(Cube::new(0, None).is_err());
        assert!(Cube::new(2, Some(2)).is_err());
        assert!(CubeRules::new(false, false, 0).is_err());
        assert!(CubeRules::new(false, false, 1 << 16).is_err());
    }
}
