//! The screen: a small net that takes a first look at the candidate plays of a roll, so that the
//! net policy of rollouts judges only the most promising few with the full nets.
//!
//! Why: in a rollout nearly all the time goes to judging every legal play of every roll with the
//! full nets, whose inputs include costly features such as shot counts, and a roll has 16
//! candidates on average (hundreds for some doubles). Most are plainly bad. The screen reads
//! only the checker counts: each of its [`SLOTS`] (the mover's points 1..=24 by signed count,
//! mover positive; the mover's bar; the opponent's bar; the mover's tray; the opponent's tray)
//! adds one table row per value to [`HIDDEN`] sums, so a candidate costs a row swap per point
//! the play changed, then a clipped activation and one dot product, all in 16-bit integers
//! (`screen/fixed.rs`, made from the `f32` weights, in which it learns). Its score is a cubeless
//! equity, but only its order within a roll matters: it is trained (the `train-screen` program)
//! on self-play rolls to reproduce the differences between the full nets' equities of a roll's
//! plays ([`Screen::learn_roll`]).
//!
//! Two screens are compiled into the crate like the nets: `data/screen-v1.bin`
//! ([`Screen::builtin`]), trained on the rollouts' narrower nets' play, and `data/screen-v2.bin`
//! ([`Screen::bot`]), trained on the bot's nets' play with the best few plays of each roll
//! weighted most, which ranks well enough that the wide nets judge fewer plays.

use gammon_backgammon::board::{Position, BAR, OPPONENT_BAR};
use gammon_backgammon::moves::Play;
use gammon_core::error::{Error, Result};
use std::sync::OnceLock;

mod fixed;
use fixed::Fixed;

/// Hidden units.
pub const HIDDEN: usize = 32;
/// Table slots: 24 points, two bars, two trays.
pub const SLOTS: usize = 28;
/// Values per slot: a point's signed count -15..=15 at index count + 15 (padded to 32); a bar or
/// tray count 0..=15.
const VALUES: usize = 32;

const MAGIC: &[u8; 8] = b"GAMMONS1";

/// The screen shipped with the crate for the rollouts' narrower nets.
pub(super) static BUILTIN: &[u8] = include_bytes!("../../data/screen-v1.bin");
/// The screen shipped with the crate for the bot's nets.
pub(super) static BOT: &[u8] = include_bytes!("../../data/screen-v2.bin");

/// A screen's weights, learned in `f32` and scored in 16-bit integers (made from them when
/// first needed).
#[derive(Clone, Debug)]
pub struct Screen {
    /// `SLOTS * VALUES` rows of `HIDDEN`, slot-major.
    table: Vec<[f32; HIDDEN]>,
    bias: [f32; HIDDEN],
    out: [f32; HIDDEN],
    out_bias: f32,
    /// The weights in integers, which every score is computed from; emptied when they learn.
    fixed: OnceLock<Fixed>,
}

/// Screens are equal when their weights are, whether or not their integers are made yet.
impl PartialEq for Screen {
    fn eq(&self, other: &Screen) -> bool {
        self.weights().eq(other.weights())
    }
}

/// How many of a roll's candidates the screen passes on to the full nets: at most `most` (at
/// least one), and only those it scores within `margin` of its best. `Keep::from(8)` keeps
/// eight whatever their scores.
///
/// ```
/// use gammon_bot::net::screen::Keep;
/// let keep = Keep::from(8).within(0.2);
/// assert_eq!((keep.most, keep.margin), (8, 0.2));
/// assert!(keep.screens(2) && !Keep::from(8).screens(8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Keep {
    /// The most candidates kept.
    pub most: usize,
    /// How far below the best score a candidate may score and still be kept (infinite: any).
    pub margin: f32,
}

impl From<usize> for Keep {
    fn from(most: usize) -> Keep {
        Keep { most, margin: f32::INFINITY }
    }
}

impl Keep {
    /// The same, keeping only candidates that score within `margin` of the best.
    pub fn within(self, margin: f32) -> Keep {
        Keep { margin, ..self }
    }

    /// Whether `n` candidates need screening: more than `most`, or more than one under a margin.
    pub fn screens(&self, n: usize) -> bool {
        n > self.most.max(1) || n > 1 && self.margin.is_finite()
    }
}

/// The slot values of a position seen by the player who just moved (or is to move).
fn slots(position: &Position) -> [u8; SLOTS] {
    let b = position.board();
    let mut v = [0u8; SLOTS];
    for i in 1..=24 {
        v[i - 1] = (b[i] + 15) as u8;
    }
    let (ours_off, theirs_off) = position.off();
    v[24] = b[BAR] as u8;
    v[25] = (-b[OPPONENT_BAR]) as u8;
    v[26] = ours_off;
    v[27] = theirs_off;
    v
}

impl Screen {
    /// A screen with small weights from a reproducible generator (the start of training).
    pub fn random(seed: u64) -> Screen {
        let mut state = seed ^ 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            // xorshift64
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.2
        };
        let table = (0..SLOTS * VALUES).map(|_| std::array::from_fn(|_| next())).collect();
        let out = std::array::from_fn(|_| next());
        Screen { table, bias: [0.0; HIDDEN], out, out_bias: 0.0, fixed: OnceLock::new() }
    }

    /// The shipped screen for the rollouts' narrower nets ([`NeuralNet::fast`](super::NeuralNet::fast)),
    /// loaded once.
    pub fn builtin() -> &'static Screen {
        static SCREEN: OnceLock<Screen> = OnceLock::new();
        SCREEN.get_or_init(|| Screen::from_bytes(BUILTIN).expect("the shipped screen is valid"))
    }

    /// The shipped screen for the bot's nets ([`NeuralNet::builtin`](super::NeuralNet::builtin)),
    /// loaded once: trained on their play, it keeps their best play among its best few more
    /// often than [`Screen::builtin`] does.
    pub fn bot() -> &'static Screen {
        static SCREEN: OnceLock<Screen> = OnceLock::new();
        SCREEN.get_or_init(|| Screen::from_bytes(BOT).expect("the shipped screen is valid"))
    }

    /// Reads a screen written by [`Screen::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Screen> {
        let bad = |what: &str| Error::InvalidFormat(format!("screen weights: {what}"));
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err(bad("not a gammon screen file"));
        }
        let hidden = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
        if hidden != HIDDEN {
            return Err(bad(&format!("{hidden} hidden units, expected {HIDDEN}")));
        }
        let count = (SLOTS * VALUES + 2) * HIDDEN + 1;
        if bytes.len() != 12 + 4 * count {
            return Err(bad("wrong length"));
        }
        let mut values = bytes[12..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap()));
        let mut row = || -> [f32; HIDDEN] { std::array::from_fn(|_| values.next().unwrap()) };
        let table = (0..SLOTS * VALUES).map(|_| row()).collect();
        let (bias, out) = (row(), row());
        let out_bias = values.next().unwrap();
        let screen = Screen { table, bias, out, out_bias, fixed: OnceLock::new() };
        if screen.weights().any(|w| !w.is_finite()) {
            return Err(bad("non-finite weight"));
        }
        Ok(screen)
    }

    /// The weights as bytes: magic, hidden units (u32 LE), then the table, the hidden biases,
    /// the output weights and the output bias (f32 LE).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend((HIDDEN as u32).to_le_bytes());
        for w in self.weights() {
            bytes.extend(w.to_le_bytes());
        }
        bytes
    }

    fn weights(&self) -> impl Iterator<Item = f32> + '_ {
        self.table.iter().flatten().chain(&self.bias).chain(&self.out).chain([&self.out_bias]).copied()
    }

    /// The weights in integers, made the first time they are asked for.
    fn fixed(&self) -> &Fixed {
        self.fixed.get_or_init(|| Fixed::new(self))
    }

    /// `before`, the position of the player about to move, ready for scoring its plays.
    pub fn look(&self, before: &Position) -> Look<'_> {
        let fixed = self.fixed();
        let slots = slots(before);
        Look { fixed, slots, sums: fixed.sums(&slots) }
    }

    /// The hidden activations of `position` (seen by the player who just moved) in `f32`, as
    /// learning reads them.
    fn hidden(&self, position: &Position) -> [f32; HIDDEN] {
        let mut sums = self.bias;
        for (k, &v) in slots(position).iter().enumerate() {
            let row = &self.table[k * VALUES + v as usize];
            for j in 0..HIDDEN {
                sums[j] += row[j];
            }
        }
        sums.map(activation)
    }

    /// The indices of the `keep` plays (at least one) of a roll from `before` that the screen
    /// scores highest (the first of equal scores), in increasing order, into `kept` (cleared
    /// first); every index when there are no more than `keep` plays.
    ///
    /// ```
    /// use gammon_bot::net::screen::Screen;
    /// use gammon_backgammon::{Dice, Position};
    /// let p = Position::initial();
    /// let plays = p.legal_plays(Dice::new(6, 4).unwrap());
    /// let mut kept = vec![];
    /// Screen::builtin().keep_best(&p, &plays, 3, &mut kept);
    /// assert_eq!(kept.len(), 3);
    /// assert!(kept.windows(2).all(|w| w[0] < w[1]));
    /// ```
    pub fn keep_best(&self, before: &Position, plays: &[Play], keep: impl Into<Keep>, kept: &mut Vec<usize>) {
        kept.clear();
        let keep = keep.into();
        if !keep.screens(plays.len()) {
            kept.extend(0..plays.len());
            return;
        }
        // As for the full nets: the same code compiled for AVX2 where the CPU has it, without
        // fused multiply-add, so that every build scores to the same bit.
        #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("bmi1") {
            // SAFETY: the CPU supports AVX2 and BMI1, checked just above.
            return unsafe { self.keep_best_avx2(before, plays, keep, kept) };
        }
        self.keep_best_with::<false>(before, plays, keep, kept)
    }

    #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
    #[target_feature(enable = "avx2,bmi1")]
    unsafe fn keep_best_avx2(&self, before: &Position, plays: &[Play], keep: Keep, kept: &mut Vec<usize>) {
        self.keep_best_with::<true>(before, plays, keep, kept)
    }

    /// `WIDE`: compiled for AVX2, the CPU checked ([`Look::score_with`]).
    #[inline(always)]
    fn keep_best_with<const WIDE: bool>(
        &self,
        before: &Position,
        plays: &[Play],
        keep: Keep,
        kept: &mut Vec<usize>,
    ) {
        let look = self.look(before);
        TOP.with_borrow_mut(|top| {
            keep_highest(plays.iter().map(|play| look.score_with::<WIDE>(play)), keep, top);
            kept.extend(top.iter().map(|&(_, k)| k));
        });
        kept.sort_unstable();
    }

    /// [`Screen::keep_best`] for a roll's candidates given as the positions they lead to: of
    /// `after` (the distinct positions the plays of one roll from `before` lead to, seen from the
    /// mover, as [`legal_positions_into`](gammon_backgammon::legal_positions_into) gives them), the
    /// `keep` (at least one) the screen scores highest, into `kept` (cleared first, in no
    /// particular order); every position when there are no more. `false` when a position left
    /// out scores the same as the lowest kept: `keep_best` keeps the first of equals in the order
    /// of the plays, which the positions alone do not tell, so a caller that must keep what it
    /// keeps asks it then. Otherwise the set kept is `keep_best`'s, as the scores are to the bit
    /// ([`Look::score_position`]).
    pub fn keep_best_positions(
        &self,
        before: &Position,
        after: &[Position],
        keep: impl Into<Keep>,
        kept: &mut Vec<Position>,
    ) -> bool {
        kept.clear();
        let keep = keep.into();
        if !keep.screens(after.len()) {
            kept.extend_from_slice(after);
            return true;
        }
        #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("bmi1") {
            // SAFETY: the CPU supports AVX2 and BMI1, checked just above.
            return unsafe { self.keep_best_positions_avx2(before, after, keep, kept) };
        }
        self.keep_best_positions_with::<false>(before, after, keep, kept)
    }

    #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
    #[target_feature(enable = "avx2,bmi1")]
    unsafe fn keep_best_positions_avx2(
        &self,
        before: &Position,
        after: &[Position],
        keep: Keep,
        kept: &mut Vec<Position>,
    ) -> bool {
        self.keep_best_positions_with::<true>(before, after, keep, kept)
    }

    /// `WIDE`: compiled for AVX2, the CPU checked ([`Look::score_with`]).
    #[inline(always)]
    fn keep_best_positions_with<const WIDE: bool>(
        &self,
        before: &Position,
        after: &[Position],
        keep: Keep,
        kept: &mut Vec<Position>,
    ) -> bool {
        let look = self.look(before);
        TOP.with_borrow_mut(|top| {
            let cut = keep_highest(after.iter().map(|q| look.score_position_with::<WIDE>(q)), keep, top);
            kept.extend(top.iter().map(|&(_, k)| after[k]));
            top.last().is_some_and(|&(lowest, _)| cut < lowest)
        })
    }

    /// One step of training on the plays of one roll, whose full-net equities are `targets`:
    /// moves each play's score (in `f32`; the integers that scores are computed from are made
    /// again when next needed) so that its difference from the roll's mean score approaches
    /// its equity's difference from the mean equity, with step size `alpha`. With a
    /// finite `focus` each play counts by `exp(-(best - equity) / focus)` and the means are
    /// weighted alike, so that the order among the best few plays, the only order a screen
    /// that keeps a few needs, is learned before that among plainly bad ones;
    /// `f32::INFINITY` counts every play alike. Returns the weighted sum of the squared errors
    /// before the step.
    pub fn learn_roll(&mut self, plays: &[Play], targets: &[f32], alpha: f32, focus: f32) -> f32 {
        let n = plays.len();
        if n < 2 {
            return 0.0;
        }
        // The weights change below, so their integers must be made again.
        self.fixed = OnceLock::new();
        let hidden: Vec<[f32; HIDDEN]> = plays.iter().map(|p| self.hidden(&p.position)).collect();
        let scores: Vec<f32> = hidden.iter().map(|h| self.output(h)).collect();
        let best = targets.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let weights: Vec<f32> = targets.iter().map(|&t| (-(best - t) / focus).exp()).collect();
        let total: f32 = weights.iter().sum();
        let mean = |values: &[f32]| values.iter().zip(&weights).map(|(v, w)| v * w).sum::<f32>() / total;
        let (mean_score, mean_target) = (mean(&scores), mean(targets));
        let mut squares = 0.0;
        // The weighted errors sum to zero over the roll, so each play's gradient is its own
        // weighted error.
        for (((play, h), (&s, &t)), &w) in
            plays.iter().zip(&hidden).zip(scores.iter().zip(targets)).zip(&weights)
        {
            let err = (t - mean_target) - (s - mean_score);
            squares += w * err * err;
            let step = alpha * w * err;
            let mut back = [0.0f32; HIDDEN];
            for j in 0..HIDDEN {
                // The slope of the clipped activation: 1 inside (0, 1), else 0.
                let slope = (h[j] > 0.0 && h[j] < 1.0) as u8 as f32;
                back[j] = step * self.out[j] * slope;
                self.out[j] += step * h[j];
                self.bias[j] += back[j];
            }
            self.out_bias += step;
            for (k, &v) in slots(&play.position).iter().enumerate() {
                let row = &mut self.table[k * VALUES + v as usize];
                for j in 0..HIDDEN {
                    row[j] += back[j];
                }
            }
        }
        squares
    }

    #[inline(always)]
    fn output(&self, hidden: &[f32; HIDDEN]) -> f32 {
        let mut acc = [0.0f32; 8];
        for c in 0..HIDDEN / 8 {
            for i in 0..8 {
                acc[i] += hidden[8 * c + i] * self.out[8 * c + i];
            }
        }
        self.out_bias + acc.iter().sum::<f32>()
    }
}

/// A position before a play with the screen's hidden sums for it, from which each play's score
/// costs only the points it changed. Made by [`Screen::look`].
#[derive(Clone, Debug)]
pub struct Look<'a> {
    fixed: &'a Fixed,
    slots: [u8; SLOTS],
    sums: [i16; HIDDEN],
}

impl Look<'_> {
    /// The screen's score of the position after `play` (a play from the looked-at position),
    /// for the player who moved.
    #[inline]
    pub fn score(&self, play: &Play) -> f32 {
        self.score_with::<false>(play)
    }

    /// [`Look::score`], its row sums and activations in AVX2 registers when `WIDE` (for callers
    /// that have checked the CPU). The same bits either way.
    #[inline(always)]
    fn score_with<const WIDE: bool>(&self, play: &Play) -> f32 {
        self.score_swapped::<WIDE>(self.swaps_after(play))
    }

    /// The score of the looked-at position with the rows of `swaps` (`(slot, old value, new
    /// value)`) swapped in: the sums in registers of AVX2 when `WIDE` (whose callers have
    /// checked the CPU), the same integers either way.
    #[inline(always)]
    fn score_swapped<const WIDE: bool>(&self, swaps: impl Iterator<Item = (usize, u8, u8)>) -> f32 {
        let rows = swaps.map(|(k, old, new)| (self.fixed.row(k, old), self.fixed.row(k, new)));
        #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
        if WIDE {
            // SAFETY: only the builds for AVX2 ask for it, after checking the CPU.
            return unsafe { fixed::x86::score_swapped(self.fixed, &self.sums, rows) };
        }
        self.fixed.score_swapped(&self.sums, rows)
    }

    /// [`Look::score`] of the play that leads to `after` (a position a play from the looked-at
    /// position leads to, still seen from the mover, as
    /// [`legal_positions_into`](gammon_backgammon::legal_positions_into) gives it): the same
    /// score to the bit, since both swap the rows of the slots that differ, in slot order.
    #[inline]
    pub fn score_position(&self, after: &Position) -> f32 {
        self.score_position_with::<false>(after)
    }

    /// [`Look::score_position`], compiled for AVX2 when `WIDE` as [`Look::score_with`] is.
    #[inline(always)]
    fn score_position_with<const WIDE: bool>(&self, after: &Position) -> f32 {
        let now = slots(after);
        // The slots that differ as a mask first (compared all at once, without a branch each),
        // then swapped in slot order as before. The opponent's tray (slot 27) never changes in
        // a play.
        let mut changed = 0u32;
        for (k, (&old, &new)) in self.slots.iter().zip(&now).enumerate().take(27) {
            changed |= ((old != new) as u32) << k;
        }
        let swaps = std::iter::from_fn(|| {
            let k = changed.trailing_zeros() as usize;
            changed &= changed.wrapping_sub(1);
            (k < 27).then(|| (k, self.slots[k], now[k]))
        });
        self.score_swapped::<WIDE>(swaps)
    }

    /// The row swaps of `play` for [`Look::score_swapped`]: `(slot, old value, new value)` of
    /// each slot it changed, in slot order ([`Look::changed_after`]).
    #[inline(always)]
    fn swaps_after(&self, play: &Play) -> impl Iterator<Item = (usize, u8, u8)> + '_ {
        let (changed, n) = self.changed_after(play);
        changed
            .into_iter()
            .take(n)
            .map(|(k, new)| (k, self.slots[k], new))
            .filter(|&(_, old, new)| old != new)
    }

    /// The slots that `play` can have changed, with their values after it, in slot order, and
    /// how many: only the points a move left or landed on can differ (a hit lands on one), and
    /// the bars and the mover's tray, at most 8 points and 3 more slots.
    #[inline(always)]
    fn changed_after(&self, play: &Play) -> ([(usize, u8); 11], usize) {
        let b = play.position.board();
        let mut changed = [(0usize, 0u8); 11];
        let mut points = 0u32;
        let mut borne_off = 0;
        for m in play.moves() {
            points |= 1 << m.from | 1 << m.to;
            borne_off += (m.to == 0) as u8;
        }
        points &= 0x1FF_FFFE;
        let mut n = 0;
        while points != 0 {
            let i = points.trailing_zeros() as usize;
            points &= points - 1;
            changed[n] = (i - 1, (b[i] + 15) as u8);
            n += 1;
        }
        changed[n] = (24, b[BAR] as u8);
        changed[n + 1] = (25, (-b[OPPONENT_BAR]) as u8);
        changed[n + 2] = (26, self.slots[26] + borne_off);
        (changed, n + 3)
    }
}

/// The hidden units' activation: the identity clipped to 0..=1. Far cheaper than a sigmoid,
/// whose evaluation took about a third of the screen's time.
#[inline(always)]
fn activation(x: f32) -> f32 {
    // Two selects, each one vector instruction; `f32::clamp` handles NaN in ways that compile
    // to scalar branches.
    let x = if x > 0.0 { x } else { 0.0 };
    if x < 1.0 {
        x
    } else {
        1.0
    }
}

thread_local! {
    // The scratch space of `keep_highest` for `keep_best` and `keep_best_positions`: rollouts
    // ask at every roll, and need not allocate each time.
    static TOP: std::cell::RefCell<Vec<(f32, usize)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Puts into `top` (cleared first) the `keep.most` (at least one) highest of `scores` with their
/// places, best first, the first of equals ahead, less those more than `keep.margin` below the
/// best, and returns the highest score left out (negative infinity when none was). One pass: a
/// score enters only if it beats the lowest kept.
#[inline(always)]
fn keep_highest(scores: impl Iterator<Item = f32>, keep: Keep, top: &mut Vec<(f32, usize)>) -> f32 {
    let most = keep.most.max(1);
    top.clear();
    let mut cut = f32::NEG_INFINITY;
    for (k, s) in scores.enumerate() {
        if top.len() == most && s <= top[most - 1].0 {
            cut = cut.max(s);
            continue;
        }
        let at = top.iter().position(|&(t, _)| s > t).unwrap_or(top.len());
        top.insert(at, (s, k));
        if top.len() > most {
            let (dropped, _) = top.pop().expect("more than kept");
            cut = cut.max(dropped);
        }
    }
    if let Some(&(best, _)) = top.first() {
        let floor = best - keep.margin;
        while top.len() > 1 && top[top.len() - 1].0 < floor {
            let (dropped, _) = top.pop().expect("more than one kept");
            cut = cut.max(dropped);
        }
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;
    use gammon_backgammon::dice_game::DiceGame;
    use gammon_backgammon::{legal_plays, Dice};

    #[test]
    fn a_margin_keeps_the_best_and_those_within_it_of_the_best() {
        let scores = [0.5, 0.9, 0.1, 0.85, 0.7, 0.9, 0.2];
        let mut top = vec![];
        // Four kept at most; of those, only the ones scoring at least 0.9 - 0.2.
        let cut = keep_highest(scores.into_iter(), Keep::from(4).within(0.2), &mut top);
        assert_eq!(top, vec![(0.9, 1), (0.9, 5), (0.85, 3), (0.7, 4)]);
        assert_eq!(cut, 0.5);
        let cut = keep_highest(scores.into_iter(), Keep::from(4).within(0.1), &mut top);
        assert_eq!(top, vec![(0.9, 1), (0.9, 5), (0.85, 3)]);
        assert_eq!(cut, 0.7);
        // The best is always kept, whatever the margin.
        keep_highest(scores.into_iter(), Keep::from(4).within(0.0), &mut top);
        assert_eq!(top, vec![(0.9, 1), (0.9, 5)]);
        keep_highest(scores.into_iter(), Keep::from(1).within(-1.0), &mut top);
        assert_eq!(top, vec![(0.9, 1)]);
        // Without a margin, as many as asked.
        keep_highest(scores.into_iter(), Keep::from(6), &mut top);
        assert_eq!(top.len(), 6);
    }

    #[test]
    fn focused_learning_fits_the_best_plays_order_first() {
        // One roll's plays, with targets that rank them by an arbitrary rule, learned again and
        // again: the weighted error falls, and with a focus the best plays' differences are
        // fitted closer than the roll's mean error, which the bad plays dominate.
        let p = Position::initial();
        let plays = legal_plays(&p, Dice::new(6, 3).unwrap());
        assert!(plays.len() > 10);
        let targets: Vec<f32> = (0..plays.len()).map(|k| -0.02 * ((k * 7) % plays.len()) as f32).collect();
        let error = |screen: &Screen, top: usize| {
            let look = screen.look(&p);
            let mut order: Vec<usize> = (0..plays.len()).collect();
            order.sort_by(|&a, &b| targets[b].total_cmp(&targets[a]));
            let scores: Vec<f32> = order[..top].iter().map(|&k| look.score(&plays[k])).collect();
            (1..top)
                .map(|i| ((scores[0] - scores[i]) - (targets[order[0]] - targets[order[i]])).abs())
                .sum::<f32>()
        };
        let (mut plain, mut focused) = (Screen::random(4), Screen::random(4));
        let before = (plain.learn_roll(&plays, &targets, 0.0, f32::INFINITY), error(&plain, 4));
        for _ in 0..200 {
            plain.learn_roll(&plays, &targets, 0.01, f32::INFINITY);
            focused.learn_roll(&plays, &targets, 0.01, 0.02);
        }
        let after = plain.learn_roll(&plays, &targets, 0.0, f32::INFINITY);
        assert!(after < before.0 / 4.0, "{after} vs {}", before.0);
        assert!(error(&focused, 4) < error(&plain, 4), "{} vs {}", error(&focused, 4), error(&plain, 4));
        assert!(error(&focused, 4) < before.1 / 4.0);
        // A step of size zero changes nothing, whatever the focus.
        let copy = focused.clone();
        focused.learn_roll(&plays, &targets, 0.0, 0.05);
        assert_eq!(focused, copy);
    }

    #[test]
    fn a_plays_score_from_the_changes_is_a_fresh_looks_to_the_bit_and_near_the_f32_screens() {
        for screen in [&Screen::random(3), Screen::builtin(), Screen::bot()] {
            let mut p = Position::initial();
            let mut stream = gammon_backgammon::DiceStream::new(5, 0);
            let (mut worst, mut squares, mut n) = (0.0f64, 0.0f64, 0);
            for _ in 0..40 {
                for roll in gammon_backgammon::ALL_ROLLS {
                    for play in legal_plays(&p, roll) {
                        let from_changes = screen.look(&p).score(&play);
                        let fresh = screen.fixed().score(&screen.look(&play.position).sums);
                        assert_eq!(from_changes.to_bits(), fresh.to_bits(), "{play:?}");
                        // What the weights in f32 make of it, as they learned it.
                        let exact = screen.output(&screen.hidden(&play.position));
                        let error = (from_changes - exact).abs() as f64;
                        (worst, squares, n) = (worst.max(error), squares + error * error, n + 1);
                    }
                }
                let plays = legal_plays(&p, stream.roll());
                p = plays[plays.len() / 2].position.swapped();
                if gammon_backgammon::Backgammon.result(&p).is_some() {
                    break;
                }
            }
            let rms = (squares / n as f64).sqrt();
            assert!(worst < 2e-3 && rms < 5e-4, "worst {worst}, rms {rms} over {n}");
        }
    }

    #[test]
    fn a_positions_score_is_its_plays_to_the_bit() {
        let screen = Screen::builtin();
        let mut p = Position::initial();
        let mut stream = gammon_backgammon::DiceStream::new(11, 0);
        for _ in 0..60 {
            let look = screen.look(&p);
            for roll in gammon_backgammon::ALL_ROLLS {
                for play in legal_plays(&p, roll) {
                    let score = look.score(&play).to_bits();
                    assert_eq!(score, look.score_position(&play.position).to_bits());
                    // And the same from the builds for AVX2.
                    #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
                    if std::is_x86_feature_detected!("avx2") {
                        assert_eq!(score, look.score_with::<true>(&play).to_bits());
                        assert_eq!(score, look.score_position_with::<true>(&play.position).to_bits());
                    }
                }
            }
            let plays = legal_plays(&p, stream.roll());
            p = plays[plays.len() / 3].position.swapped();
            if gammon_backgammon::Backgammon.result(&p).is_some() {
                p = Position::initial();
            }
        }
    }

    #[test]
    fn keeping_picks_the_highest_scores() {
        let screen = Screen::random(8);
        let p = Position::initial();
        let plays = legal_plays(&p, Dice::new(2, 2).unwrap());
        let look = screen.look(&p);
        let mut kept = vec![];
        screen.keep_best(&p, &plays, 5, &mut kept);
        assert_eq!(kept.len(), 5);
        let worst_kept = kept.iter().map(|&k| look.score(&plays[k])).fold(f32::INFINITY, f32::min);
        for (k, play) in plays.iter().enumerate() {
            if !kept.contains(&k) {
                assert!(look.score(play) <= worst_kept);
            }
        }
        screen.keep_best(&p, &plays[..3], 5, &mut kept);
        assert_eq!(kept, [0, 1, 2]);
        // Keeping none keeps one all the same.
        screen.keep_best(&p, &plays, 0, &mut kept);
        assert_eq!(kept.len(), 1);
        assert!(look.score(&plays[kept[0]]) >= worst_kept);
    }

    #[test]
    fn weights_round_trip_and_bad_bytes_are_refused() {
        let screen = Screen::random(1);
        let bytes = screen.to_bytes();
        assert_eq!(Screen::from_bytes(&bytes).unwrap(), screen);
        assert!(Screen::from_bytes(&bytes[..bytes.len() - 4]).is_err());
        assert!(Screen::from_bytes(b"GAMMONN1").is_err());
        assert!(Screen::builtin().weights().all(f32::is_finite));
        assert!(Screen::bot().weights().all(f32::is_finite));
        assert_ne!(Screen::bot(), Screen::builtin());
    }
}
