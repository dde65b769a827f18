//! The luck net: for each of the 21 rolls, a prediction of the rollouts' net policy's value of
//! the play it would make, from the position before the roll alone, without generating a play.
//!
//! A variance-reduced rollout subtracts at every ply `f(roll thrown) - mean of f over the 21
//! rolls` (see `rollout::luck`). Any `f` of the position and the roll keeps the estimate
//! unbiased; the closer it follows the value the game goes on with, the more variance it
//! removes, and the cheaper it is, the more trials the same time buys. Judging each roll's best
//! play with the full net follows it closely but costs about ten plies of the game; this net
//! costs a fraction of one.
//!
//! Its inputs are the full nets' ([`inputs`](super::inputs)) and, per roll, [`ROLL_FEATURES`]
//! counts of what the roll can do, found with a few point tests and no move generation (see
//! [`roll_features`]): hits, points made, entering from the bar, the rearmost checker escaping.
//! One hidden layer of rectified units reads the position and is narrowed linearly to a few
//! values; each roll's value is a weighted sum of those plus, for each of its features, the
//! feature times another weighted sum of them, so that what a hit or a new point is worth
//! depends on the position.
//!
//! The shipped weights, `data/luck-v2.bin`, predict the cubeless equity of the play the policy
//! over `data/net-v4.bin` ([`NeuralNet::fast`](super::NeuralNet::fast)) makes, one set each for
//! contact, races and bear-offs; `tools/train_luck.py` makes them from the data of the
//! `luck_data` example (docs/training.md).

use super::inputs::INPUTS;
use super::{Class, NeuralNet};
use gammon_backgammon::board::{Position, BAR};
use gammon_backgammon::ALL_ROLLS;
use gammon_core::error::{Error, Result};
use std::sync::OnceLock;

/// The most units a layer may have. The hidden layer's must be a multiple of [`BLOCK`], the
/// narrow one's of eight.
const MAX_HIDDEN: usize = 256;

/// The hidden units summed together, in four vector registers.
const BLOCK: usize = 32;

/// What [`roll_features`] counts for each roll.
pub const ROLL_FEATURES: usize = 11;

/// The weights of one class of positions.
#[derive(Clone, Debug)]
struct Layer {
    hidden: usize,
    narrow: usize,
    /// `INPUTS` rows of `hidden`: the hidden layer's weights, input by input.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// `hidden` rows of `narrow`: the narrowing, without bias or activation, hidden unit by
    /// hidden unit (the file holds it the other way round).
    wn: Vec<f32>,
    /// `narrow` rows of [`OUTPUTS`]: the weights of the 21 rolls' values without features, then
    /// of what each roll's features are worth (roll by roll, feature by feature), then zeros.
    wo: Vec<f32>,
    /// Their biases.
    bo: Vec<f32>,
}

/// The 21 rolls' values and their features' worths, rounded up to whole blocks of outputs.
const OUTPUTS: usize = 256;

/// The outputs summed together, in eight vector registers.
const OUTPUT_BLOCK: usize = 64;

/// The luck net's weights: one [`Layer`] each for contact, races and bear-offs (both sides
/// home), the classes of [`Class`].
#[derive(Clone, Debug)]
pub struct LuckNet {
    contact: Layer,
    race: Layer,
    bearoff: Layer,
}

static BUILTIN: &[u8] = include_bytes!("../../data/luck-v2.bin");

const MAGIC: &[u8; 8] = b"GLUCK02\n";

impl LuckNet {
    /// The shipped weights, made for the rollouts' net policy over
    /// [`NeuralNet::fast`](super::NeuralNet::fast).
    pub fn builtin() -> &'static LuckNet {
        static NET: OnceLock<LuckNet> = OnceLock::new();
        NET.get_or_init(|| LuckNet::from_bytes(BUILTIN).expect("the shipped luck net reads"))
    }

    /// Reads weights as `tools/train_luck.py` writes them: the magic `GLUCK02\n`, then for
    /// contact, race and bear-off the hidden and narrow sizes as little-endian `u32` and the
    /// arrays `w1, b1, wn, w2, b2, u, c` as little-endian `f32`.
    pub fn from_bytes(bytes: &[u8]) -> Result<LuckNet> {
        let rest = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or_else(|| Error::InvalidArgument("not a luck net: bad magic".into()))?;
        let (contact, rest) = Layer::read(rest)?;
        let (race, rest) = Layer::read(rest)?;
        let (bearoff, rest) = Layer::read(rest)?;
        if !rest.is_empty() {
            return Err(Error::InvalidArgument(format!("luck net: {} bytes left over", rest.len())));
        }
        Ok(LuckNet { contact, race, bearoff })
    }

    /// For each of the 21 rolls ([`ALL_ROLLS`] order) from `before` (the position of the player
    /// to roll, of class `class`), the predicted cubeless equity for that player after the play
    /// of the roll.
    pub fn roll_equities(&self, before: &Position, class: Class) -> [f32; 21] {
        // The same code compiled for AVX-512 or AVX2 and the bit instructions where the CPU has
        // them, without fused multiply-add: each sum runs in the same order on every machine,
        // whatever the width of the vectors, so the values are the same to the bit.
        #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
        if std::is_x86_feature_detected!("popcnt") && std::is_x86_feature_detected!("lzcnt") {
            if std::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU supports AVX-512F, POPCNT and LZCNT, checked just above.
                return unsafe { self.roll_equities_avx512(before, class) };
            }
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2, POPCNT and LZCNT, checked just above.
                return unsafe { self.roll_equities_avx2(before, class) };
            }
        }
        self.roll_equities_with(before, class)
    }

    #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
    #[target_feature(enable = "avx512f,popcnt,lzcnt")]
    unsafe fn roll_equities_avx512(&self, before: &Position, class: Class) -> [f32; 21] {
        self.roll_equities_with(before, class)
    }

    #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
    #[target_feature(enable = "avx2,popcnt,lzcnt")]
    unsafe fn roll_equities_avx2(&self, before: &Position, class: Class) -> [f32; 21] {
        self.roll_equities_with(before, class)
    }

    #[inline(always)]
    fn roll_equities_with(&self, before: &Position, class: Class) -> [f32; 21] {
        let layer = match class {
            Class::Contact => &self.contact,
            Class::Race => &self.race,
            Class::BearOff => &self.bearoff,
        };
        let mut x = [0.0f32; INPUTS];
        // In a rollout the last play chosen led here, and its inputs are at hand.
        NeuralNet::inputs_again(before, &mut x);
        let features = features_of(before);
        layer.forward(&x, &features)
    }
}

impl Layer {
    fn read(bytes: &[u8]) -> Result<(Layer, &[u8])> {
        let short = || Error::InvalidArgument("luck net: file too short".into());
        let (sizes, mut rest) = bytes.split_first_chunk::<8>().ok_or_else(short)?;
        let hidden = u32::from_le_bytes(sizes[..4].try_into().unwrap()) as usize;
        let narrow = u32::from_le_bytes(sizes[4..].try_into().unwrap()) as usize;
        for (n, multiple) in [(hidden, BLOCK), (narrow, 8)] {
            if n == 0 || n > MAX_HIDDEN || n % multiple != 0 {
                return Err(Error::InvalidArgument(format!("luck net: a layer of {n} units")));
            }
        }
        let mut take = |n: usize| -> Result<Vec<f32>> {
            let bytes = rest.get(..4 * n).ok_or_else(short)?;
            rest = &rest[4 * n..];
            Ok(bytes.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect())
        };
        let w1 = take(INPUTS * hidden)?;
        let b1 = take(hidden)?;
        let by_narrow = take(narrow * hidden)?;
        let wn = (0..hidden * narrow).map(|k| by_narrow[(k % narrow) * hidden + k / narrow]).collect();
        let w2 = take(21 * narrow)?;
        let b2 = take(21)?;
        let u = take(21 * ROLL_FEATURES * narrow)?;
        let c = take(21 * ROLL_FEATURES)?;
        // Output by output in the file; narrow unit by narrow unit here, so that the outputs'
        // sums run side by side in vector registers.
        let mut wo = vec![0.0; narrow * OUTPUTS];
        for k in 0..narrow {
            for r in 0..21 {
                wo[k * OUTPUTS + r] = w2[r * narrow + k];
            }
            for j in 0..21 * ROLL_FEATURES {
                wo[k * OUTPUTS + 21 + j] = u[j * narrow + k];
            }
        }
        let mut bo = vec![0.0; OUTPUTS];
        bo[..21].copy_from_slice(&b2);
        bo[21..21 + 21 * ROLL_FEATURES].copy_from_slice(&c);
        Ok((Layer { hidden, narrow, w1, b1, wn, wo, bo }, rest))
    }

    #[inline(always)]
    fn forward(&self, x: &[f32; INPUTS], features: &[[f32; ROLL_FEATURES]; 21]) -> [f32; 21] {
        let n = self.hidden;
        // The inputs are mostly zero: only the rows of those that are not are added, block by
        // block of hidden units, so that each block's sums stay in registers.
        let mut nonzero = [(0u32, 0.0f32); INPUTS];
        let mut count = 0;
        for (i, &xi) in x.iter().enumerate() {
            nonzero[count] = ((i * n) as u32, xi);
            count += (xi != 0.0) as usize;
        }
        let mut hidden = [0.0f32; MAX_HIDDEN];
        for start in (0..n).step_by(BLOCK) {
            // Four rows of eight, each a vector register.
            let mut sums = [[0.0f32; 8]; BLOCK / 8];
            for (j, lane) in sums.iter_mut().enumerate() {
                lane.copy_from_slice(&self.b1[start + 8 * j..start + 8 * j + 8]);
            }
            for &(row, xi) in &nonzero[..count] {
                let row = row as usize + start;
                let w: &[f32; BLOCK] = self.w1[row..row + BLOCK].try_into().unwrap();
                for (j, lane) in sums.iter_mut().enumerate() {
                    for k in 0..8 {
                        lane[k] += xi * w[8 * j + k];
                    }
                }
            }
            for (j, lane) in sums.iter().enumerate() {
                for k in 0..8 {
                    hidden[start + 8 * j + k] = lane[k].max(0.0);
                }
            }
        }
        let h = &hidden[..n];
        let m = self.narrow;
        // Rectified units are often zero: only the rows of those that are not are added.
        let mut narrowed = [0.0f32; MAX_HIDDEN];
        let z = &mut narrowed[..m];
        for (j, &hj) in h.iter().enumerate() {
            if hj != 0.0 {
                for (zk, w) in z.iter_mut().zip(&self.wn[j * m..(j + 1) * m]) {
                    *zk += hj * w;
                }
            }
        }
        let z = &narrowed[..m];
        let mut outputs = [0.0f32; OUTPUTS];
        for start in (0..OUTPUTS).step_by(OUTPUT_BLOCK) {
            let mut sums = [[0.0f32; 8]; OUTPUT_BLOCK / 8];
            for (j, lane) in sums.iter_mut().enumerate() {
                lane.copy_from_slice(&self.bo[start + 8 * j..start + 8 * j + 8]);
            }
            for (k, &zk) in z.iter().enumerate() {
                let row = k * OUTPUTS + start;
                let w: &[f32; OUTPUT_BLOCK] = self.wo[row..row + OUTPUT_BLOCK].try_into().unwrap();
                for (j, lane) in sums.iter_mut().enumerate() {
                    for i in 0..8 {
                        lane[i] += zk * w[8 * j + i];
                    }
                }
            }
            for (j, lane) in sums.iter().enumerate() {
                outputs[start + 8 * j..start + 8 * j + 8].copy_from_slice(lane);
            }
        }
        let worths = &outputs[21..21 + 21 * ROLL_FEATURES];
        // Loops rather than `array::from_fn`, whose closures are not compiled for the CPU's
        // features with the function that calls them.
        let mut values = [0.0f32; 21];
        for (r, value) in values.iter_mut().enumerate() {
            let worth = &worths[r * ROLL_FEATURES..(r + 1) * ROLL_FEATURES];
            *value = outputs[r] + features[r].iter().zip(worth).map(|(f, w)| f * w).sum::<f32>();
        }
        values
    }
}

/// For each of the 21 rolls ([`ALL_ROLLS`] order), what the player to roll in `before` could
/// do with it, judged point by point without making the moves (so a checker on the bar that
/// must enter first is not enforced, nor is a play's need to use both dice):
///
/// 0. whether any of the opponent's blots can be hit (directly, or by one checker with both
///    dice, or with up to four steps of a double, over open points);
/// 1. how many blots can be hit; 2. the farthest of them back for the opponent, in our point
///    number / 24; 3. whether one in our home board can be hit;
/// 4. how many new points (ours, two or more checkers, where we have at most one) the roll can
///    make; 5. how many of them on points 1..=7; 8. whether one on points 18..=24;
/// 6. with checkers on the bar, how many of the dice enter (a double's counts twice); 7. whether
///    both are blocked;
/// 9. whether the rearmost checker (from the 13 point back) can land on an open point beyond
///    every point the opponent holds within twelve pips in front of it (there must be one);
/// 10. whether each die can be played by some checker.
pub fn roll_features(before: &Position) -> [[f32; ROLL_FEATURES]; 21] {
    features_of(before)
}

/// [`roll_features`], inlined where the luck net is compiled for the CPU's bit instructions.
#[inline(always)]
fn features_of(before: &Position) -> [[f32; ROLL_FEATURES]; 21] {
    // Bit k for our point k (the bar is 25); every bit beyond our point 24 and bit 0 is open.
    // The board counts ours positive and theirs negative on our points, ours on the bar at 25.
    let board = before.board();
    let (mut source, mut one, mut two, mut open, mut blots) = (0u64, 0u64, 0u64, !0u64, 0u64);
    for (k, &n) in board.iter().enumerate().take(BAR + 1).skip(1) {
        source |= ((n >= 1) as u64) << k;
        one |= ((n == 1) as u64) << k;
        two |= ((n >= 2) as u64) << k;
        open &= !(((n <= -2) as u64) << k);
        blots |= ((n == -1) as u64) << k;
    }
    const POINTS: u64 = ((1 << 25) - 1) & !1;
    let is_open = |k: usize| open >> k & 1 == 1;
    let on_bar = board[BAR] >= 1;
    let rear = (63 - source.leading_zeros()) as usize;
    let playable = |d: usize| (source >> d) & open & POINTS != 0;
    // Targets for a new point: open, and holding at most one of ours.
    let targets = open & !two & POINTS;
    let mut features = [[0.0f32; ROLL_FEATURES]; 21];
    for (roll, out) in ALL_ROLLS.iter().zip(features.iter_mut()) {
        let (a, b) = (roll.high() as usize, roll.low() as usize);
        let (hit, reach) = if a == b {
            let (o1, o2, o3) = (open >> a, open >> (2 * a), open >> (3 * a));
            let hit = source >> a
                | (source >> (2 * a) & o1)
                | (source >> (3 * a) & o1 & o2)
                | (source >> (4 * a) & o1 & o2 & o3);
            (hit, two >> a | (one & (source >> a | (source >> (2 * a) & o1))))
        } else {
            let hit = source >> a | source >> b | (source >> (a + b) & (open >> a | open >> b));
            (hit, (one & (source >> a | source >> b)) | (source >> a & source >> b))
        };
        let hits = hit & blots & POINTS;
        let makes = reach & targets;
        let (enter_a, enter_b) = (is_open(25 - a), is_open(25 - b));
        let enters = if on_bar { enter_a as u32 + enter_b as u32 } else { 0 };
        *out = [
            (hits != 0) as u32 as f32,
            hits.count_ones() as f32,
            if hits == 0 { 0.0 } else { (63 - hits.leading_zeros()) as f32 / 24.0 },
            (hits & 0x7e != 0) as u32 as f32,
            makes.count_ones() as f32,
            (makes & 0xfe).count_ones() as f32,
            enters as f32,
            (on_bar && !enter_a && !enter_b) as u32 as f32,
            (makes >> 18 != 0) as u32 as f32,
            escapes(rear, a, b, open) as u32 as f32,
            (playable(a) && playable(b)) as u32 as f32,
        ];
    }
    features
}

/// Feature 9 of [`roll_features`]: whether the checker on `rear` (our point number, the bar
/// being 25) can land beyond every point the opponent holds within twelve pips in front of it;
/// `open` has bit k set for each of our points k the opponent does not hold.
#[inline(always)]
fn escapes(rear: usize, a: usize, b: usize, open: u64) -> bool {
    if rear < 13 {
        return false;
    }
    let window = ((1u64 << rear) - 1) & !((1u64 << rear.saturating_sub(12).max(1)) - 1);
    let held = !open & window;
    if held == 0 {
        return false;
    }
    // Landing spots before the first point held in front, open, on the board.
    let beyond = ((1u64 << held.trailing_zeros()) - 1) & open & !1;
    let at = |k: usize| beyond >> k & 1 == 1;
    let is_open = |k: usize| open >> k & 1 == 1;
    if a == b {
        let mut path = true;
        for m in 1..=4 {
            let Some(k) = rear.checked_sub(m * a) else { break };
            if path && at(k) {
                return true;
            }
            path &= is_open(k);
        }
        false
    } else {
        at(rear - a)
            || at(rear - b)
            || (rear > a + b && at(rear - a - b) && (is_open(rear - a) || is_open(rear - b)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_instruction_set_gives_the_same_bits() {
        // The build is picked at run time; a rollout's luck must not depend on which.
        let net = LuckNet::builtin();
        for p in crate::net::tests::sample_positions(300) {
            let class = Class::of(&p);
            let plain = net.roll_equities_with(&p, class).map(f32::to_bits);
            assert_eq!(net.roll_equities(&p, class).map(f32::to_bits), plain, "{p:?}");
            #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
            if std::is_x86_feature_detected!("popcnt") && std::is_x86_feature_detected!("lzcnt") {
                if std::is_x86_feature_detected!("avx512f") {
                    // SAFETY: the CPU supports AVX-512F, POPCNT and LZCNT.
                    let fast = unsafe { net.roll_equities_avx512(&p, class) };
                    assert_eq!(fast.map(f32::to_bits), plain, "AVX-512 {p:?}");
                }
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU supports AVX2, POPCNT and LZCNT.
                    let fast = unsafe { net.roll_equities_avx2(&p, class) };
                    assert_eq!(fast.map(f32::to_bits), plain, "AVX2 {p:?}");
                }
            }
        }
    }

    #[test]
    fn malformed_weights_are_refused() {
        let good = BUILTIN.to_vec();
        assert!(LuckNet::from_bytes(&good).is_ok());
        let mut bad_magic = good.clone();
        bad_magic[0] = b'X';
        let mut bad_size = good.clone();
        bad_size[8..12].copy_from_slice(&100u32.to_le_bytes());
        let mut longer = good.clone();
        longer.push(0);
        for bytes in [&bad_magic[..], &good[..good.len() - 4], &bad_size[..], &longer[..], &[][..]] {
            let err = LuckNet::from_bytes(bytes).unwrap_err().to_string();
            assert!(err.contains("luck net"), "{err}");
        }
    }
}
