//! Dice: a validated roll, the 21 distinct rolls with their weights, and seeded dice streams.

use crate::error::{Error, Result};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// One roll of two dice, stored larger die first.
///
/// ```
/// use gammon_core::Dice;
/// let d = Dice::new(3, 5).unwrap();
/// assert_eq!((d.high(), d.low()), (5, 3));
/// assert!(!d.is_double());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dice {
    high: u8,
    low: u8,
}

impl Dice {
    /// A roll of `d1` and `d2`, each in 1..=6, in either order.
    pub fn new(d1: u8, d2: u8) -> Result<Dice> {
        for d in [d1, d2] {
            if !(1..=6).contains(&d) {
                return Err(Error::InvalidDice(format!("die value {d} is not in 1..=6")));
            }
        }
        Ok(Dice::new_unchecked(d1, d2))
    }

    /// As [`Dice::new`] for values already known to be in range.
    pub(crate) const fn new_unchecked(d1: u8, d2: u8) -> Dice {
        if d1 >= d2 {
            Dice { high: d1, low: d2 }
        } else {
            Dice { high: d2, low: d1 }
        }
    }

    /// Reads a roll as a person types it: two digits 1-6, with any whitespace and the separators
    /// `-`, `,`, `:` and `/` skipped, so `"53"`, `"5-3"`, `"5 3"`, `"5,3"` and `" 5\t3 "` are the
    /// same roll. This is the only reader of dice written as text.
    ///
    /// ```
    /// use gammon_core::Dice;
    /// assert_eq!(Dice::parse("3-5").unwrap(), Dice::new(5, 3).unwrap());
    /// assert!(Dice::parse("71").unwrap_err().message().contains("dice"));
    /// ```
    pub fn parse(text: &str) -> Result<Dice> {
        let digits: Vec<u8> = text
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '-' | ',' | ':' | '/'))
            .map(|c| match c {
                '1'..='6' => c as u8 - b'0',
                _ => 0,
            })
            .collect();
        match digits[..] {
            [a, b] if a != 0 && b != 0 => Ok(Dice::new_unchecked(a, b)),
            // One message for every failure, a bad die ("71") included, so that it always says
            // what was being read.
            _ => Err(Error::InvalidDice(format!(
                "cannot read dice from {text:?}: expected two digits 1-6 such as \"53\""
            ))),
        }
    }

    /// A roll from two integers, as a program gives it (JSON, Python, query strings); each must
    /// be in 1..=6. Integers of any width are taken, so a huge value gets the same clear error as
    /// a 7 instead of wrapping into range.
    ///
    /// ```
    /// use gammon_core::Dice;
    /// assert_eq!(Dice::from_ints(3, 5).unwrap(), Dice::new(5, 3).unwrap());
    /// assert!(Dice::from_ints(7, 1).unwrap_err().message().contains("1..6"));
    /// ```
    pub fn from_ints(d1: i64, d2: i64) -> Result<Dice> {
        match (u8::try_from(d1), u8::try_from(d2)) {
            (Ok(a @ 1..=6), Ok(b @ 1..=6)) => Ok(Dice::new_unchecked(a, b)),
            _ => Err(Error::InvalidDice(format!("dice must be two ints in 1..6, got ({d1}, {d2})"))),
        }
    }

    /// The larger die.
    pub const fn high(self) -> u8 {
        self.high
    }

    /// The smaller die.
    pub const fn low(self) -> u8 {
        self.low
    }

    /// Both dice show the same number: it is played four times.
    pub const fn is_double(self) -> bool {
        self.high == self.low
    }

    /// How many of the 36 equally likely outcomes give this roll (1 for a double, 2 otherwise).
    pub const fn weight(self) -> u8 {
        if self.is_double() {
            1
        } else {
            2
        }
    }

    /// The roll as `"53"`.
    pub fn to_text(self) -> String {
        format!("{}{}", self.high, self.low)
    }

    /// Outcome `k` of the 36 ordered outcomes (`k` in 0..36): dice `k / 6 + 1` and `k % 6 + 1`.
    pub const fn from_outcome(k: u8) -> Dice {
        Dice::new_unchecked(k / 6 + 1, k % 6 + 1)
    }
}

/// The 21 distinct rolls, doubles first, with the weights of [`Dice::weight`].
pub const ALL_ROLLS: [Dice; 21] = {
    let mut rolls = [Dice { high: 1, low: 1 }; 21];
    let mut i = 0;
    let mut d = 1;
    while d <= 6 {
        rolls[i] = Dice::new_unchecked(d, d);
        i += 1;
        d += 1;
    }
    let mut hi = 2;
    while hi <= 6 {
        let mut lo = 1;
        while lo < hi {
            rolls[i] = Dice::new_unchecked(hi, lo);
            i += 1;
            lo += 1;
        }
        hi += 1;
    }
    rolls
};

/// A reproducible stream of dice.
///
/// Stream `index` of seed `seed` is independent of every other stream of that seed, so work split
/// over threads (trial `i` uses stream `i`) gives the same dice whatever the thread count.
#[derive(Clone, Debug)]
pub struct DiceStream {
    rng: Xoshiro256PlusPlus,
}

impl DiceStream {
    /// Stream `index` of `seed`.
    pub fn new(seed: u64, index: u64) -> DiceStream {
        // SplitMix64 of (seed, index) spreads neighbouring indices far apart in the seed space.
        let mut state = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
        let mut key = [0u8; 32];
        for chunk in key.chunks_mut(8) {
            chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
        }
        DiceStream { rng: Xoshiro256PlusPlus::from_seed(key) }
    }

    /// One die, uniform in 1..=6.
    pub fn die(&mut self) -> u8 {
        self.rng.gen_range(1..=6)
    }

    /// One roll of two dice.
    pub fn roll(&mut self) -> Dice {
        Dice::from_outcome(self.outcome())
    }

    /// One of the 36 ordered outcomes, uniform in 0..36.
    pub fn outcome(&mut self) -> u8 {
        self.rng.gen_range(0..36)
    }

    /// A uniform index in `0..n` (`n` > 0), for random policies.
    pub fn below(&mut self, n: usize) -> usize {
        self.rng.gen_range(0..n)
    }

    /// A uniform float in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.rng.gen()
    }
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_rolls_cover_36_outcomes_once() {
        let total: u32 = ALL_ROLLS.iter().map(|d| d.weight() as u32).sum();
        assert_eq!(total, 36);
        let mut seen = std::collections::HashSet::new();
        for k in 0..36 {
            seen.insert(Dice::from_outcome(k));
        }
        assert_eq!(seen.len(), 21);
        assert!(ALL_ROLLS.iter().all(|d| seen.contains(d)));
    }

    #[test]
    fn rejects_bad_dice() {
        assert!(Dice::new(0, 3).is_err());
        assert!(Dice::new(7, 1).is_err());
        assert!(Dice::parse("5").is_err());
        assert!(Dice::parse("5x").is_err());
        assert_eq!(Dice::parse("3-5").unwrap(), Dice::new(5, 3).unwrap());
    }

    #[test]
    fn text_dice_skip_whitespace_and_separators() {
        let five_three = Dice::new(5, 3).unwrap();
        for text in ["53", "35", "5-3", "5 3", "5,3", "5:3", "5/3", " 5\t3\n", "5 - 3"] {
            assert_eq!(Dice::parse(text).unwrap(), five_three, "{text:?}");
        }
        for bad in ["", "5", "533", "5x", "71", "07", "00", "a b", "5.3"] {
            let message = Dice::parse(bad).unwrap_err().message().to_string();
            assert!(message.contains("dice") && message.contains(&format!("{bad:?}")), "{bad:?}: {message}");
        }
    }

    #[test]
    fn int_dice_are_checked_whatever_their_width() {
        assert_eq!(Dice::from_ints(1, 6).unwrap(), Dice::new(6, 1).unwrap());
        for (a, b) in [(0, 3), (3, 7), (-1, 2), (256 + 3, 1), (i64::MAX, i64::MIN)] {
            let message = Dice::from_ints(a, b).unwrap_err().message().to_string();
            assert!(message.contains("1..6") && message.contains(&format!("({a}, {b})")), "{message}");
        }
    }

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u8> = (0..50)
            .map({
                let mut s = DiceStream::new(7, 3);
                move |_| s.outcome()
            })
            .collect();
        let b: Vec<u8> = (0..50)
            .map({
                let mut s = DiceStream::new(7, 3);
                move |_| s.outcome()
            })
            .collect();
        let c: Vec<u8> = (0..50)
            .map({
                let mut s = DiceStream::new(7, 4);
                move |_| s.outcome()
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
