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

use super::inputs::{INPUTS, SIDE_INPUTS};
use super::{Class, NeuralNet};
use gammon_backgammon::board::{Position, BAR};
use gammon_backgammon::ALL_ROLLS;
use gammon_core::error::{Error, Result};
use std::sync::OnceLock;

/// The most units a layer may have. The hidden layer's must be a multiple of [`BLOCK`], the
/// narrow one's of [`NARROW_BLOCK`].
const MAX_HIDDEN: usize = 256;

/// The hidden units summed together, in eight vector registers: enough independent sums to
/// keep the adders busy while each waits for the one before.
const BLOCK: usize = 64;

/// What [`roll_features`] counts for each roll.
pub const ROLL_FEATURES: usize = 11;

/// The 21 rolls rounded up to whole vector registers.
const ROLLS: usize = 24;

/// The roll features feature by feature, roll by roll in [`ALL_ROLLS`] order (the last three
/// zero), so that a feature's worths for all the rolls are taken in a few vector operations.
type ByFeature = [[f32; ROLLS]; ROLL_FEATURES];

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
    /// `narrow` rows of [`OUTPUTS`]: the weights of the 21 rolls' values without features from
    /// column 0, of what feature `f` is worth in roll `r` in column `WORTHS[f] + r`, zeros
    /// elsewhere.
    wo: Vec<f32>,
    /// Their biases.
    bo: Vec<f32>,
}

/// The narrow layer's units summed together, in four vector registers.
const NARROW_BLOCK: usize = 32;

/// The outputs: the 21 rolls' values and their features' worths, in groups of columns, each
/// rounded up to whole vector registers. What no roll of a position needs is not summed: the
/// worths of hits where no roll hits (about half of contact positions), of making a point on
/// 18 to 24 or of escaping where no roll does (about half), of entering where no checker is on
/// the bar (three quarters).
///
/// The first group, columns 0 to 87, always summed, holds the values and the worths of
/// features 4, 5 and 10.
const OUTPUTS: usize = 272;

/// Where the worths of the hit features 0 to 2 start.
const HITS: usize = 88;

/// Where the worths of hitting in our home board (feature 3) start, summed only where some
/// roll hits there.
const HOME_HITS: usize = 152;

/// Where the worths of making a point on 18 to 24 (feature 8) start.
const FAR_POINTS: usize = 176;

/// Where the worths of escaping (feature 9) start.
const ESCAPES: usize = 200;

/// Where the worths of entering from the bar, features 6 and 7, start.
const ENTERING: usize = 224;

/// Where each feature's worths start among the outputs, roll by roll from there.
const WORTHS: [usize; ROLL_FEATURES] =
    [HITS, HITS + 21, HITS + 42, HOME_HITS, 21, 42, ENTERING, ENTERING + 21, FAR_POINTS, ESCAPES, 63];

/// The luck net's weights: one `Layer` each for contact, races and bear-offs (both sides
/// home), the classes of [`Class`].
#[derive(Clone, Debug)]
pub struct LuckNet {
    contact: Layer,
    race: Layer,
    bearoff: Layer,
}

pub(super) static BUILTIN: &[u8] = include_bytes!("../../data/luck-v2.bin");

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
        let bits = Bits::of(before);
        layer.forward(&x, bits.occupied(), &features_from(&bits))
    }
}

impl Layer {
    fn read(bytes: &[u8]) -> Result<(Layer, &[u8])> {
        let short = || Error::InvalidArgument("luck net: file too short".into());
        let (sizes, mut rest) = bytes.split_first_chunk::<8>().ok_or_else(short)?;
        let hidden = u32::from_le_bytes(sizes[..4].try_into().unwrap()) as usize;
        let narrow = u32::from_le_bytes(sizes[4..].try_into().unwrap()) as usize;
        for (n, multiple) in [(hidden, BLOCK), (narrow, NARROW_BLOCK)] {
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
            for r in 0..21 {
                for (f, start) in WORTHS.iter().enumerate() {
                    wo[k * OUTPUTS + start + r] = u[(r * ROLL_FEATURES + f) * narrow + k];
                }
            }
        }
        let mut bo = vec![0.0; OUTPUTS];
        bo[..21].copy_from_slice(&b2);
        for r in 0..21 {
            for (f, start) in WORTHS.iter().enumerate() {
                bo[start + r] = c[r * ROLL_FEATURES + f];
            }
        }
        Ok((Layer { hidden, narrow, w1, b1, wn, wo, bo }, rest))
    }

    #[inline(always)]
    fn forward(&self, x: &[f32; INPUTS], occupied: [u32; 2], features: &ByFeature) -> [f32; 21] {
        let n = self.hidden;
        // The inputs are mostly zero: only the rows of those that are not are added, block by
        // block of hidden units, so that each block's sums stay in registers. An empty point's
        // four inputs are all zero, so only the occupied points' are looked at.
        let mut nonzero = [(0u32, 0.0f32); INPUTS];
        let mut count = 0;
        for (side, mut points) in occupied.into_iter().enumerate() {
            let base = side * SIDE_INPUTS;
            let mut take = |i: usize| {
                nonzero[count] = ((i * n) as u32, x[i]);
                count += (x[i] != 0.0) as usize;
            };
            while points != 0 {
                let first = base + 4 * (points.trailing_zeros() as usize - 1);
                points &= points - 1;
                for i in first..first + 4 {
                    take(i);
                }
            }
            for i in base + 96..base + SIDE_INPUTS {
                take(i);
            }
        }
        let mut hidden = [0.0f32; MAX_HIDDEN];
        // Rectified units are often zero: a bit for each that is not, a word per block, so that
        // only their rows are added.
        let mut active = [0u64; MAX_HIDDEN / BLOCK];
        for (block, start) in (0..n).step_by(BLOCK).enumerate() {
            // Eight rows of eight, each a vector register.
            let mut sums = [[0.0f32; 8]; BLOCK / 8];
            for (j, lane) in sums.iter_mut().enumerate() {
                lane.copy_from_slice(&self.b1[start + 8 * j..start + 8 * j + 8]);
            }
            add_rows(&mut sums, &nonzero[..count], &self.w1, start);
            let mut bits = 0u64;
            for (j, lane) in sums.iter().enumerate() {
                for k in 0..8 {
                    hidden[start + 8 * j + k] = lane[k].max(0.0);
                    bits |= ((lane[k] > 0.0) as u64) << (8 * j + k);
                }
            }
            active[block] = bits;
        }
        let m = self.narrow;
        let mut narrowed = [[[0.0f32; 8]; NARROW_BLOCK / 8]; MAX_HIDDEN / NARROW_BLOCK];
        for (b, sums) in narrowed[..m / NARROW_BLOCK].iter_mut().enumerate() {
            for (block, &word) in active[..n / BLOCK].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let j = BLOCK * block + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    add_row(sums, hidden[j], &self.wn, j * m + b * NARROW_BLOCK);
                }
            }
        }
        let z = &narrowed.as_flattened().as_flattened()[..m];
        let mut outputs = [0.0f32; OUTPUTS];
        self.sum_outputs::<11>(z, 0, &mut outputs);
        // Worths not summed stay zero, and no roll has their features.
        let any = |f: usize| features[f].iter().any(|&v| v != 0.0);
        if any(0) {
            self.sum_outputs::<8>(z, HITS, &mut outputs);
            if any(3) {
                self.sum_outputs::<3>(z, HOME_HITS, &mut outputs);
            }
        }
        if any(8) {
            self.sum_outputs::<3>(z, FAR_POINTS, &mut outputs);
        }
        if any(9) {
            self.sum_outputs::<3>(z, ESCAPES, &mut outputs);
        }
        if any(6) || any(7) {
            self.sum_outputs::<6>(z, ENTERING, &mut outputs);
        }
        let mut worth = [0.0f32; ROLLS];
        for (feature, &start) in features.iter().zip(&WORTHS) {
            let worths = &outputs[start..start + ROLLS];
            for r in 0..ROLLS {
                worth[r] += feature[r] * worths[r];
            }
        }
        let mut values = [0.0f32; 21];
        for (r, value) in values.iter_mut().enumerate() {
            *value = outputs[r] + worth[r];
        }
        values
    }

    /// Sums the outputs `start..start + 8 * L` from the narrow layer `z`, each in a vector
    /// register's lane, narrow unit by narrow unit.
    #[inline(always)]
    fn sum_outputs<const L: usize>(&self, z: &[f32], start: usize, outputs: &mut [f32; OUTPUTS]) {
        let mut sums = [[0.0f32; 8]; L];
        for (j, lane) in sums.iter_mut().enumerate() {
            lane.copy_from_slice(&self.bo[start + 8 * j..start + 8 * j + 8]);
        }
        for (k, &zk) in z.iter().enumerate() {
            let row = k * OUTPUTS + start;
            let w = &self.wo[row..row + 8 * L];
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
}

/// Adds to `sums` each `(row, x)` of `rows` times the weights from `row + start` on, in the
/// order given, so that each sum is the same to the bit in every build.
#[inline(always)]
fn add_rows<const L: usize>(sums: &mut [[f32; 8]; L], rows: &[(u32, f32)], weights: &[f32], start: usize) {
    for &(row, x) in rows {
        add_row(sums, x, weights, row as usize + start);
    }
}

/// Adds to `sums` `x` times the weights from `row` on.
#[inline(always)]
fn add_row<const L: usize>(sums: &mut [[f32; 8]; L], x: f32, weights: &[f32], row: usize) {
    let w = &weights[row..row + 8 * L];
    for (j, lane) in sums.iter_mut().enumerate() {
        for k in 0..8 {
            lane[k] += x * w[8 * j + k];
        }
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
    let by_feature = features_from(&Bits::of(before));
    let mut features = [[0.0f32; ROLL_FEATURES]; 21];
    for (r, roll) in features.iter_mut().enumerate() {
        for (f, value) in roll.iter_mut().enumerate() {
            *value = by_feature[f][r];
        }
    }
    features
}

/// Our points 1..=24, as bits.
const POINTS: u64 = ((1 << 25) - 1) & !1;

/// The board as bit masks, bit k for our point k (the bar is 25), read in one pass for the
/// roll features and the inputs worth looking at.
#[derive(Clone, Copy)]
struct Bits {
    /// Ours: at least one checker (the bar included), exactly one, two or more.
    source: u64,
    one: u64,
    two: u64,
    /// Points the opponent does not hold; every bit beyond our point 24 and bit 0 is open.
    open: u64,
    /// The opponent's blots.
    blots: u64,
}

impl Bits {
    #[inline(always)]
    fn of(before: &Position) -> Bits {
        // The board counts ours positive and theirs negative on our points, ours on the bar
        // at 25.
        // Each mask taken over all 32 bytes of a padded copy of the board at once, which
        // compiles to a vector comparison and a byte mask; bit 0 (their bar) is dropped.
        let mut board = [0i8; 32];
        board[..=BAR].copy_from_slice(&before.board()[..=BAR]);
        let mask = |test: fn(i8) -> bool| -> u64 {
            let mut bits = 0u32;
            for (k, &n) in board.iter().enumerate() {
                bits |= (test(n) as u32) << k;
            }
            (bits & !1) as u64
        };
        let source = mask(|n| n >= 1);
        let one = mask(|n| n == 1);
        let two = mask(|n| n >= 2);
        let open = !mask(|n| n <= -2);
        let blots = mask(|n| n == -1);
        Bits { source, one, two, open, blots }
    }

    /// The points holding checkers of each side, in its own numbering (bit `i` for point `i`):
    /// the side on roll, then the other.
    #[inline(always)]
    fn occupied(&self) -> [u32; 2] {
        let theirs = (!self.open | self.blots) & POINTS;
        // Reversed, our point k (bit k) becomes bit 63 - k, and 38 places lower their point
        // 25 - k.
        [(self.source & POINTS) as u32, (theirs.reverse_bits() >> 38) as u32]
    }
}

/// [`roll_features`], inlined where the luck net is compiled for the CPU's bit instructions.
#[inline(always)]
fn features_from(bits: &Bits) -> ByFeature {
    let Bits { source, one, two, open, blots } = *bits;
    let on_bar = source >> BAR & 1 == 1;
    let rear = (63 - source.leading_zeros()) as usize;
    // Per die, bit d: whether some checker can play it, whether it enters from the bar.
    let (mut playable, mut entering) = (0u32, 0u32);
    for d in 1..=6 {
        playable |= ((source >> d & open & POINTS != 0) as u32) << d;
        entering |= ((open >> (25 - d) & 1) as u32) << d;
    }
    let (far, far_open) = escape_masks(rear, open);
    // Targets for a new point: open, and holding at most one of ours.
    let targets = open & !two & POINTS;
    let mut features = [[0.0f32; ROLLS]; ROLL_FEATURES];
    for (r, roll) in ALL_ROLLS.iter().enumerate() {
        let (a, b) = (roll.high() as usize, roll.low() as usize);
        let hits = reached(source, open, a, b) & blots & POINTS;
        let reach = if a == b {
            two >> a | (one & (source >> a | (source >> (2 * a) & open >> a)))
        } else {
            (one & (source >> a | source >> b)) | (source >> a & source >> b)
        };
        let makes = reach & targets;
        let (enter_a, enter_b) = (entering >> a & 1, entering >> b & 1);
        let values = [
            (hits != 0) as u32 as f32,
            hits.count_ones() as f32,
            if hits == 0 { 0.0 } else { (63 - hits.leading_zeros()) as f32 / 24.0 },
            (hits & 0x7e != 0) as u32 as f32,
            makes.count_ones() as f32,
            (makes & 0xfe).count_ones() as f32,
            if on_bar { (enter_a + enter_b) as f32 } else { 0.0 },
            (on_bar && enter_a + enter_b == 0) as u32 as f32,
            (makes >> 18 != 0) as u32 as f32,
            (reached(far, far_open, a, b) & 1) as f32,
            (playable >> a & playable >> b & 1) as f32,
        ];
        for (feature, value) in features.iter_mut().zip(values) {
            feature[r] = value;
        }
    }
    features
}

/// The points a checker on each of the points of `from` reaches with the roll `a`-`b` (bit k
/// for point k, each bit of `from` a point, distances counted downwards): with either die, or
/// with both dice (up to four steps of a double) over points `open` holds.
#[inline(always)]
fn reached(from: u64, open: u64, a: usize, b: usize) -> u64 {
    if a == b {
        let (o1, o2, o3) = (open >> a, open >> (2 * a), open >> (3 * a));
        from >> a | (from >> (2 * a) & o1) | (from >> (3 * a) & o1 & o2) | (from >> (4 * a) & o1 & o2 & o3)
    } else {
        from >> a | from >> b | (from >> (a + b) & (open >> a | open >> b))
    }
}

/// For feature 9 of [`roll_features`], seen from the rearmost checker on `rear` (our point
/// number, the bar being 25), bit k for the point k pips in front of it: the points where it
/// would land beyond every point the opponent holds within twelve pips in front of it (none if
/// no point is held there), and the points open to it (`open` has bit k set for each of our
/// points k the opponent does not hold). The checker escapes with a roll when bit 0 of what
/// [`reached`] makes of them is set.
#[inline(always)]
fn escape_masks(rear: usize, open: u64) -> (u64, u64) {
    if rear < 13 {
        return (0, 0);
    }
    let window = ((1u64 << rear) - 1) & !((1u64 << rear.saturating_sub(12).max(1)) - 1);
    let held = !open & window;
    if held == 0 {
        return (0, 0);
    }
    // Landing spots before the first point held in front, open, on the board.
    let beyond = ((1u64 << held.trailing_zeros()) - 1) & open & !1;
    // Reversed, point k becomes bit 63 - k, and 63 - rear places lower rear - k; the points
    // behind the checker fall off.
    (beyond.reverse_bits() >> (63 - rear), open.reverse_bits() >> (63 - rear))
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
    fn the_forward_pass_is_the_plain_sums() {
        // The forward pass skips zero inputs, empty points, inactive units and the worths of
        // features no roll has; here every weight is read from the file's own layout and every
        // sum is taken in full, in double precision.
        let bytes = &BUILTIN[MAGIC.len()..];
        let mut at = 0;
        let mut classes = vec![];
        for _ in 0..3 {
            let size = |k: usize| u32::from_le_bytes(bytes[at + 4 * k..at + 4 * k + 4].try_into().unwrap());
            let (hidden, narrow) = (size(0) as usize, size(1) as usize);
            at += 8;
            let mut take = |n: usize| -> Vec<f64> {
                let v = bytes[at..at + 4 * n]
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes(b.try_into().unwrap()) as f64)
                    .collect();
                at += 4 * n;
                v
            };
            let w1 = take(INPUTS * hidden);
            let b1 = take(hidden);
            let wn = take(narrow * hidden);
            let w2 = take(21 * narrow);
            let b2 = take(21);
            let u = take(21 * ROLL_FEATURES * narrow);
            let c = take(21 * ROLL_FEATURES);
            classes.push((hidden, narrow, w1, b1, wn, w2, b2, u, c));
        }
        let net = LuckNet::builtin();
        let mut hits_and_bars = [0; 2];
        for p in crate::net::tests::sample_positions(400) {
            let class = Class::of(&p);
            let (hidden, narrow, w1, b1, wn, w2, b2, u, c) = &classes[match class {
                Class::Contact => 0,
                Class::Race => 1,
                Class::BearOff => 2,
            }];
            let mut x = [0.0f32; INPUTS];
            super::super::inputs::encode(&p, &mut x);
            let h: Vec<f64> = (0..*hidden)
                .map(|j| {
                    (b1[j] + (0..INPUTS).map(|i| x[i] as f64 * w1[i * hidden + j]).sum::<f64>()).max(0.0)
                })
                .collect();
            let z: Vec<f64> =
                (0..*narrow).map(|k| (0..*hidden).map(|j| h[j] * wn[k * hidden + j]).sum()).collect();
            let features = roll_features(&p);
            hits_and_bars[0] += features.iter().any(|f| f[0] != 0.0) as usize;
            hits_and_bars[1] += features.iter().any(|f| f[6] != 0.0) as usize;
            let got = net.roll_equities(&p, class);
            for r in 0..21 {
                let dot = |w: &[f64]| (0..*narrow).map(|k| w[k] * z[k]).sum::<f64>();
                let mut want = b2[r] + dot(&w2[r * narrow..]);
                for (f, &feature) in features[r].iter().enumerate() {
                    let j = r * ROLL_FEATURES + f;
                    want += feature as f64 * (c[j] + dot(&u[j * narrow..]));
                }
                assert!(
                    (got[r] as f64 - want).abs() < 1e-4,
                    "{} roll {r}: {} against {want}",
                    p.id(),
                    got[r]
                );
            }
        }
        assert!(hits_and_bars.iter().all(|&n| n > 20), "{hits_and_bars:?}");
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
