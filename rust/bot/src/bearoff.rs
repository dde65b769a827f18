//! Exact bear-off: a one-sided database of every way to hold up to 15 checkers on the six home
//! points (54,264 positions), built by the engine on first use.
//!
//! For each position it holds the distribution of the number of rolls needed to bear everything
//! off when each roll is played to minimise the expected number of rolls, and the distribution of
//! the number of rolls until the first checker is off, when each roll is played to minimise that
//! instead (the play of a side saving a gammon). When both sides have every checker at home,
//! [`probabilities`] combines the two sides' distributions: the side on roll wins when it needs
//! at most as many rolls as the other; it wins a gammon when the other side still has all 15
//! checkers and cannot take one off in time. Both sides are assumed to play for their own
//! target without looking at the other's position, the usual one-sided approximation (exact for
//! the win probability whenever each side simply races, which is nearly always the best play).
//! Backgammons cannot happen in such positions.
//!
//! Where neither side has more than six checkers left, [`probabilities`] answers instead from
//! the exact [`two_sided`] database (both sides playing each roll to win), which also holds the
//! cubeful money equities behind the bot's cube decisions there.

// Loops run over point numbers, which index several arrays at once.
#![allow(clippy::needless_range_loop)]

mod cache;
pub mod two_sided;

use super::Probabilities;
use gammon_backgammon::board::{Position, BAR};
use std::sync::OnceLock;

/// Home points.
const POINTS: usize = 6;
/// Positions in the database: `C(21, 6)`.
pub const POSITIONS: usize = 54_264;
/// Longest number of rolls kept in a distribution (no position needs more).
pub const MAX_ROLLS: usize = 32;

/// Number of ways to hold at most `n` checkers on `k` points: `C(n + k, k)`.
const fn ways(k: usize, n: usize) -> usize {
    let mut r = 1usize;
    let mut i = 1;
    while i <= k {
        r = r * (n + i) / i;
        i += 1;
    }
    r
}

/// `SKIP[k][left][v]`: how many indices the positions with fewer than `v` checkers on a point
/// take, when `left` checkers remain for it and the `k` points after it.
const SKIP: [[[u32; 16]; 16]; POINTS] = {
    let mut t = [[[0u32; 16]; 16]; POINTS];
    let mut k = 0;
    while k < POINTS {
        let mut left = 0;
        while left < 16 {
            let mut v = 1;
            while v <= left {
                t[k][left][v] = t[k][left][v - 1] + ways(k, left - (v - 1)) as u32;
                v += 1;
            }
            left += 1;
        }
        k += 1;
    }
    t
};

/// The database index of checkers `c[0..6]` on points 1..6 (at most 15 in all): positions in
/// lexicographic order of their counts.
pub fn index(c: &[u8; POINTS]) -> usize {
    let mut idx = 0;
    let mut left = 15usize;
    for p in 0..POINTS {
        let v = c[p] as usize;
        idx += SKIP[POINTS - 1 - p][left][v] as usize;
        left -= v;
    }
    idx
}

/// The checkers on points 1..6 of database entry `idx`.
fn unindex(idx: usize) -> [u8; POINTS] {
    counts(idx, 15)
}

/// The checkers on points 1..6 at index `idx` in the lexicographic order of the ways to hold at
/// most `most` checkers there: [`index`]'s order for 15, the two-sided database's boards for 6.
fn counts(mut idx: usize, most: usize) -> [u8; POINTS] {
    let mut c = [0u8; POINTS];
    let mut left = most;
    for p in 0..POINTS {
        let k = POINTS - 1 - p;
        let mut v = 0;
        while idx >= ways(k, left - v) {
            idx -= ways(k, left - v);
            v += 1;
        }
        c[p] = v as u8;
        left -= v;
    }
    c
}

/// The two tables, each `POSITIONS * MAX_ROLLS` probabilities: `off[i * MAX_ROLLS + n]` is the
/// chance that position `i` needs exactly `n` rolls to bear off; `first` likewise for the first
/// checker off.
pub struct Database {
    off: Vec<f32>,
    first: Vec<f32>,
    /// How many leading entries of each position's row of `off` (then of `first`) can be
    /// non-zero: the rest are exact zeros, which sums may skip and keep their bits.
    support: Vec<[u8; 2]>,
}

/// Plays the dice `dice` from `c` in every legal way, pushing each result's index and whether it
/// took a checker off (duplicates included: callers only take minima). Moves of a double are
/// generated from non-increasing points (`max_from`), which reaches every result once or more.
fn walk(c: &[u8; POINTS], dice: &[usize], max_from: usize, offed: bool, out: &mut Vec<(usize, bool)>) {
    let Some((&d, rest)) = dice.split_first() else {
        out.push((index(c), offed));
        return;
    };
    let Some(highest) = (0..POINTS).rev().find(|&p| c[p] > 0).map(|h| h + 1) else {
        out.push((index(c), offed));
        return;
    };
    let double = rest.first() == Some(&d);
    for from in (1..=max_from.min(highest)).rev() {
        if c[from - 1] == 0 {
            continue;
        }
        let mut n = *c;
        n[from - 1] -= 1;
        let off = if from > d {
            n[from - d - 1] += 1;
            false
        } else if from == d || from == highest {
            true
        } else {
            continue;
        };
        walk(&n, rest, if double { from } else { POINTS }, offed || off, out);
    }
}

/// Every result of a roll: index and whether a checker came off.
fn plays(c: &[u8; POINTS], d1: usize, d2: usize, out: &mut Vec<(usize, bool)>) {
    out.clear();
    if d1 == d2 {
        walk(c, &[d1; 4], POINTS, false, out);
    } else {
        walk(c, &[d1, d2], POINTS, false, out);
        walk(c, &[d2, d1], POINTS, false, out);
    }
}

/// One position's entry: its two distributions and their means.
struct Entry {
    off: [f32; MAX_ROLLS],
    first: [f32; MAX_ROLLS],
    mean_off: f64,
    mean_first: f64,
}

/// The tables built so far: every position with fewer pips than those being built is complete.
struct Tables {
    off: Vec<f32>,
    first: Vec<f32>,
    mean_off: Vec<f64>,
    mean_first: Vec<f64>,
}

/// The result among `results` with the smallest mean in `means`, the first of equals.
fn best(results: &[(usize, bool)], means: &[f64]) -> usize {
    results.iter().map(|&(p, _)| p).min_by(|&a, &b| means[a].total_cmp(&means[b])).unwrap()
}

/// Adds to `dist` `w` times the distribution of `table` for position `i`, one roll later.
fn add_one_roll_later(dist: &mut [f64; MAX_ROLLS], w: f64, table: &[f32], i: usize) {
    for n in 1..MAX_ROLLS {
        dist[n] += w * table[i * MAX_ROLLS + n - 1] as f64;
    }
}

/// The entry of position `i` (with at least one checker), from the entries of the positions
/// its rolls lead to, which all have fewer pips.
fn entry(t: &Tables, i: usize, results: &mut Vec<(usize, bool)>) -> Entry {
    let c = unindex(i);
    let mut dist_off = [0.0f64; MAX_ROLLS];
    let mut dist_first = [0.0f64; MAX_ROLLS];
    let (mut e_off, mut e_first) = (1.0, 1.0);
    for d1 in 1..=6 {
        for d2 in d1..=6 {
            let w = if d1 == d2 { 1.0 / 36.0 } else { 2.0 / 36.0 };
            plays(&c, d1, d2, results);
            let best_off = best(results, &t.mean_off);
            e_off += w * t.mean_off[best_off];
            add_one_roll_later(&mut dist_off, w, &t.off, best_off);
            if results.iter().any(|&(_, offed)| offed) {
                dist_first[1] += w;
            } else {
                let best_first = best(results, &t.mean_first);
                e_first += w * t.mean_first[best_first];
                add_one_roll_later(&mut dist_first, w, &t.first, best_first);
            }
        }
    }
    Entry {
        off: dist_off.map(|p| p as f32),
        first: dist_first.map(|p| p as f32),
        mean_off: e_off,
        mean_first: e_first,
    }
}

fn build() -> Tables {
    let mut order: Vec<(u32, usize)> = (0..POSITIONS)
        .map(|i| {
            let c = unindex(i);
            ((0..POINTS).map(|p| (p as u32 + 1) * c[p] as u32).sum(), i)
        })
        .collect();
    order.sort_unstable();
    let mut t = Tables {
        off: vec![0.0f32; POSITIONS * MAX_ROLLS],
        first: vec![0.0f32; POSITIONS * MAX_ROLLS],
        mean_off: vec![0.0f64; POSITIONS],
        mean_first: vec![0.0f64; POSITIONS],
    };
    // The position with no checkers has borne off already.
    t.off[order[0].1 * MAX_ROLLS] = 1.0;
    t.first[order[0].1 * MAX_ROLLS] = 1.0;
    // Positions with the same pip count depend only on positions with fewer, so each count is
    // built on every core. Plain scoped threads rather than rayon's pool: the database may be
    // first needed by a thread outside the pool while the pool's threads wait for it.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut rest = &order[1..];
    while let Some(&(pips, _)) = rest.first() {
        let level = rest.partition_point(|&(p, _)| p == pips);
        let (now, later) = rest.split_at(level);
        rest = later;
        let chunk = now.len().div_ceil(threads);
        let entries: Vec<Entry> = std::thread::scope(|scope| {
            let t = &t;
            let handles: Vec<_> = now
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        let mut results = Vec::with_capacity(256);
                        part.iter().map(|&(_, i)| entry(t, i, &mut results)).collect::<Vec<_>>()
                    })
                })
                .collect();
            handles.into_iter().flat_map(|h| h.join().expect("a bear-off worker")).collect()
        });
        for (&(_, i), e) in now.iter().zip(entries) {
            t.off[i * MAX_ROLLS..(i + 1) * MAX_ROLLS].copy_from_slice(&e.off);
            t.first[i * MAX_ROLLS..(i + 1) * MAX_ROLLS].copy_from_slice(&e.first);
            t.mean_off[i] = e.mean_off;
            t.mean_first[i] = e.mean_first;
        }
    }
    t
}

impl Tables {
    /// The database these complete tables make.
    fn into_database(self) -> Database {
        let support = (0..POSITIONS).map(|i| [support(&self.off, i), support(&self.first, i)]).collect();
        Database { off: self.off, first: self.first, support }
    }

    /// The tables as the cache file holds them.
    fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(2 * POSITIONS * (4 * MAX_ROLLS + 8));
        cache::put_f32(&mut out, &self.off);
        cache::put_f32(&mut out, &self.first);
        cache::put_f64(&mut out, &self.mean_off);
        cache::put_f64(&mut out, &self.mean_first);
        out
    }

    /// The tables of a cache file, if it holds exactly as many values as they have.
    fn from_bytes(mut bytes: &[u8]) -> Option<Tables> {
        let b = &mut bytes;
        let t = Tables {
            off: cache::take_f32(b, POSITIONS * MAX_ROLLS)?,
            first: cache::take_f32(b, POSITIONS * MAX_ROLLS)?,
            mean_off: cache::take_f64(b, POSITIONS)?,
            mean_first: cache::take_f64(b, POSITIONS)?,
        };
        b.is_empty().then_some(t)
    }

    /// Whether a sample of entries (one position in 97, and the empty one) are what this build
    /// computes from the entries they depend on, to the bit: tables read from a file made by a
    /// build whose rules for them differed fail it.
    fn consistent(&self) -> bool {
        fn row(table: &[f32], i: usize) -> &[f32] {
            &table[i * MAX_ROLLS..(i + 1) * MAX_ROLLS]
        }
        let same = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
        let empty = index(&[0; POINTS]);
        let mut base = [0.0f32; MAX_ROLLS];
        base[0] = 1.0;
        if !same(row(&self.off, empty), &base)
            || !same(row(&self.first, empty), &base)
            || self.mean_off[empty] != 0.0
            || self.mean_first[empty] != 0.0
        {
            return false;
        }
        let mut results = Vec::new();
        (0..POSITIONS).step_by(97).filter(|&i| i != empty).all(|i| {
            let e = entry(self, i, &mut results);
            same(&e.off, row(&self.off, i))
                && same(&e.first, row(&self.first, i))
                && e.mean_off.to_bits() == self.mean_off[i].to_bits()
                && e.mean_first.to_bits() == self.mean_first[i].to_bits()
        })
    }
}

/// The name of the one-sided database's file in the cache directory ([`cache`]).
const CACHE_FILE: &str = "bearoff-one-sided.bin";

/// The tables read from the cache file where it holds good ones, else built and written there.
fn cached() -> Database {
    let decode = |bytes: &[u8]| Tables::from_bytes(bytes).filter(Tables::consistent);
    cache::load_or_build(CACHE_FILE, decode, build, Tables::to_bytes).into_database()
}

/// One more than the last roll count of position `i`'s row of `table` with a non-zero chance.
fn support(table: &[f32], i: usize) -> u8 {
    let row = &table[i * MAX_ROLLS..(i + 1) * MAX_ROLLS];
    row.iter().rposition(|&p| p != 0.0).map_or(0, |n| n as u8 + 1)
}

/// The database, built on first use (about half a second on two cores in a release build, or
/// read from the file an earlier process wrote: docs/bearoff.md), together with the [`two_sided`] one,
/// since [`probabilities`] needs both: a program that calls this before its clock starts (a
/// server warming up) has both ready.
pub fn database() -> &'static Database {
    static DB: OnceLock<Database> = OnceLock::new();
    DB.get_or_init(|| {
        two_sided::database();
        cached()
    })
}

impl Database {
    /// The chance that checkers `c` (on points 1..6) need exactly `n` rolls to bear off.
    pub fn rolls_to_bear_off(&self, c: &[u8; POINTS], n: usize) -> f64 {
        self.dists(c).0.get(n).copied().unwrap_or(0.0) as f64
    }

    /// The chance that checkers `c` need exactly `n` rolls to take their first checker off.
    pub fn rolls_to_first_off(&self, c: &[u8; POINTS], n: usize) -> f64 {
        self.dists(c).1.get(n).copied().unwrap_or(0.0) as f64
    }

    /// The distributions of rolls to bear off and to take the first checker off of `c`, each
    /// cut after its last non-zero chance.
    fn dists(&self, c: &[u8; POINTS]) -> (&[f32], &[f32]) {
        let i = index(c);
        let [off, first] = self.support[i].map(usize::from);
        let start = i * MAX_ROLLS;
        (&self.off[start..start + off], &self.first[start..start + first])
    }

    /// The mean number of rolls `c` needs to bear off.
    pub fn mean_rolls(&self, c: &[u8; POINTS]) -> f64 {
        self.dists(c).0.iter().enumerate().map(|(n, &p)| n as f64 * p as f64).sum()
    }
}

/// Starts loading what [`probabilities`] reads for `position`, without waiting for it. The
/// databases hold megabytes, so a lookup mostly misses the caches: a choice that prefetches all
/// its candidates before judging them waits for their misses together rather than one by one.
/// Does nothing for a position outside the home boards.
pub fn prefetch(position: &Position) {
    let Some((ours, theirs)) = home_boards(position) else { return };
    if let (Some(a), Some(b)) = (two_sided::board_index(&ours), two_sided::board_index(&theirs)) {
        return two_sided::database().prefetch(a, b);
    }
    let db = database();
    for c in [&ours, &theirs] {
        let i = index(c);
        let start = i * MAX_ROLLS;
        prefetch_slice(&db.off[start..start + MAX_ROLLS]);
        prefetch_slice(&db.first[start..start + MAX_ROLLS]);
        prefetch_slice(&db.support[i..=i]);
    }
}

/// Prefetches every cache line of `items` into all cache levels (nothing where the CPU has no
/// such instruction in this build).
fn prefetch_slice<T>(items: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let (start, bytes) = (items.as_ptr().cast::<i8>(), std::mem::size_of_val(items));
        for offset in (0..bytes).step_by(64).chain([bytes.saturating_sub(1)]) {
            // SAFETY: every x86_64 CPU has SSE; a prefetch reads nothing the program sees, and
            // the address is inside `items` anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = items;
}

/// The home boards of both sides, each in its own numbering, when every checker of both sides is
/// on its home points or off; `None` otherwise.
pub fn home_boards(position: &Position) -> Option<([u8; POINTS], [u8; POINTS])> {
    let b = position.board();
    if b[BAR] != 0 || b[0] != 0 || b[7..=18].iter().any(|&n| n != 0) {
        return None;
    }
    let mut ours = [0u8; POINTS];
    let mut theirs = [0u8; POINTS];
    for p in 1..=POINTS {
        if b[p] < 0 || b[25 - p] > 0 {
            return None;
        }
        ours[p - 1] = b[p] as u8;
        theirs[p - 1] = (-b[25 - p]) as u8;
    }
    Some((ours, theirs))
}

/// The position with `ours` on roll against `theirs`, each side's checkers on its own home points
/// 1 to 6 (the inverse of [`home_boards`]); `None` if a side would have more than 15 checkers.
///
/// ```
/// use gammon_bot::bearoff::{home_boards, position_of};
/// let p = position_of(&[2, 0, 0, 0, 0, 1], &[0, 3, 0, 0, 0, 0]).unwrap();
/// assert_eq!(home_boards(&p), Some(([2, 0, 0, 0, 0, 1], [0, 3, 0, 0, 0, 0])));
/// ```
pub fn position_of(ours: &[u8; POINTS], theirs: &[u8; POINTS]) -> Option<Position> {
    let mut b = [0i8; 26];
    for p in 1..=POINTS {
        b[p] = ours[p - 1] as i8;
        b[25 - p] = -(theirs[p - 1] as i8);
    }
    Position::from_board(b).ok()
}

/// The probabilities of a position where both sides have every checker home, or `None` for any
/// other position: exact from the [`two_sided`] database where neither side has more than six
/// checkers left, otherwise from this one-sided database (see the module documentation).
pub fn probabilities(position: &Position) -> Option<Probabilities> {
    two_sided::probabilities(position).or_else(|| one_sided_probabilities(position))
}

/// The probabilities of a position where both sides have every checker home from this one-sided
/// database alone, even where the [`two_sided`] one is exact; `None` for any other position.
pub fn one_sided_probabilities(position: &Position) -> Option<Probabilities> {
    let (ours, theirs) = home_boards(position)?;
    let db = database();
    let (us, ours_first) = db.dists(&ours);
    let (them, theirs_first) = db.dists(&theirs);
    // tail[n] = P(X >= n). The distributions stop at their last non-zero chance: every term
    // skipped is an exact zero, so the sums below have the bits of sums over all 32 counts.
    let tail = |d: &[f32]| {
        let mut t = [0.0f64; MAX_ROLLS + 1];
        for n in (0..d.len()).rev() {
            t[n] = t[n + 1] + d[n] as f64;
        }
        t
    };
    let dot = |d: &[f32], t: &[f64], shift: usize| {
        (1..d.len()).fold(0.0, |s, n| s + d[n] as f64 * t[(n + shift).min(MAX_ROLLS)])
    };
    let win = dot(us, &tail(them), 0).clamp(0.0, 1.0);
    let (ours_off, theirs_off) = position.off();
    let win_gammon = if theirs_off == 0 { dot(us, &tail(theirs_first), 0) } else { 0.0 };
    let lose_gammon = if ours_off == 0 { dot(them, &tail(ours_first), 1) } else { 0.0 };
    Some(Probabilities {
        win,
        win_gammon: win_gammon.clamp(0.0, win),
        win_backgammon: 0.0,
        lose_gammon: lose_gammon.clamp(0.0, 1.0 - win),
        lose_backgammon: 0.0,
        draw: 0.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gammon_backgammon::pos;

    #[test]
    fn tables_come_back_from_their_bytes_and_the_cache_check_fails_a_changed_entry() {
        let built = build();
        let bytes = built.to_bytes();
        let mut read = Tables::from_bytes(&bytes).unwrap();
        assert!(read.consistent());
        assert_eq!(read.to_bytes(), bytes);
        assert!(Tables::from_bytes(&bytes[..bytes.len() - 8]).is_none());
        // A sampled position's mean changed in its last bit, then one of its chances.
        let i = 97;
        read.mean_off[i] = f64::from_bits(read.mean_off[i].to_bits() ^ 1);
        assert!(!read.consistent());
        read.mean_off[i] = built.mean_off[i];
        read.first[i * MAX_ROLLS + 2] += 1e-3;
        assert!(!read.consistent());
        // The database made from the tables is the one in use.
        let db = built.into_database();
        assert_eq!(
            (&db.off, &db.first, &db.support),
            (&database().off, &database().first, &database().support)
        );
    }

    #[test]
    fn indices_cover_every_position_once() {
        assert_eq!(ways(6, 15), POSITIONS);
        for i in (0..POSITIONS).step_by(7) {
            assert_eq!(index(&unindex(i)), i);
        }
        assert_eq!(index(&[0; 6]), 0);
        assert_eq!(index(&[15, 0, 0, 0, 0, 0]), POSITIONS - 1);
    }

    #[test]
    fn distributions_sum_to_one() {
        let db = database();
        for i in (0..POSITIONS).step_by(97).chain([POSITIONS - 1]) {
            let s: f32 = db.off[i * MAX_ROLLS..(i + 1) * MAX_ROLLS].iter().sum();
            assert!((s - 1.0).abs() < 1e-4, "position {i}: {s}");
            let s: f32 = db.first[i * MAX_ROLLS..(i + 1) * MAX_ROLLS].iter().sum();
            assert!((s - 1.0).abs() < 1e-4, "position {i}: {s}");
        }
    }

    #[test]
    fn one_sided_sums_over_the_support_have_the_bits_of_sums_over_every_count() {
        // The plain sums over all 32 roll counts, as the probabilities were first computed.
        let db = database();
        let row = |t: &[f32], c: &[u8; POINTS]| {
            let i = index(c);
            t[i * MAX_ROLLS..(i + 1) * MAX_ROLLS].to_vec()
        };
        let tail = |d: &[f32]| {
            let mut t = [0.0f64; MAX_ROLLS + 1];
            for n in (0..MAX_ROLLS).rev() {
                t[n] = t[n + 1] + d[n] as f64;
            }
            t
        };
        let mut checked = 0;
        for (a, b) in (1..POSITIONS).step_by(211).zip((1..POSITIONS).rev().step_by(89)) {
            let (ours, theirs) = (unindex(a), unindex(b));
            let p = position_of(&ours, &theirs).unwrap();
            let got = one_sided_probabilities(&p).unwrap();
            let (us, them) = (row(&db.off, &ours), row(&db.off, &theirs));
            let them_tail = tail(&them);
            let win = (1..MAX_ROLLS).map(|n| us[n] as f64 * them_tail[n]).sum::<f64>().clamp(0.0, 1.0);
            let first = tail(&row(&db.first, &theirs));
            let win_gammon = (1..MAX_ROLLS).map(|n| us[n] as f64 * first[n]).sum::<f64>();
            let first = tail(&row(&db.first, &ours));
            let lose_gammon =
                (1..MAX_ROLLS).map(|m| them[m] as f64 * first[(m + 1).min(MAX_ROLLS)]).sum::<f64>();
            let (ours_off, theirs_off) = p.off();
            assert_eq!(got.win.to_bits(), win.to_bits(), "{ours:?} {theirs:?}");
            if theirs_off == 0 {
                assert_eq!(got.win_gammon.to_bits(), win_gammon.clamp(0.0, win).to_bits());
            }
            if ours_off == 0 {
                assert_eq!(got.lose_gammon.to_bits(), lose_gammon.clamp(0.0, 1.0 - win).to_bits());
            }
            checked += 1;
        }
        assert!(checked > 200);
    }

    #[test]
    fn prefetching_changes_nothing_and_skips_other_positions() {
        for p in [Position::initial(), pos!(1 => 3, 2 => 2, 24 => -4, 19 => -1), pos!(6 => 15, 19 => -15)] {
            let before = probabilities(&p);
            prefetch(&p);
            assert_eq!(probabilities(&p), before);
        }
        assert_eq!(probabilities(&Position::initial()), None);
    }

    #[test]
    fn one_checker_on_the_one_point_needs_one_roll() {
        let db = database();
        assert_eq!(db.rolls_to_bear_off(&[1, 0, 0, 0, 0, 0], 1), 1.0);
        assert_eq!(db.rolls_to_bear_off(&[0; 6], 0), 1.0);
    }

    #[test]
    fn one_checker_on_the_six_point() {
        // It is off in one roll unless neither die is a 6 and the dice cannot carry it 6 pips:
        // a roll fails when both dice are below 6 and (for non-doubles) they sum to less than 6,
        // since a checker moved to a lower point then bears off with the other die whatever it is.
        let mut fail = 0;
        for d1 in 1..=6 {
            for d2 in 1..=6 {
                let total = if d1 == d2 { 4 * d1 } else { d1 + d2 };
                if total < 6 {
                    fail += 1;
                }
            }
        }
        let db = database();
        let p1 = db.rolls_to_bear_off(&[0, 0, 0, 0, 0, 1], 1);
        assert!((p1 - (36 - fail) as f64 / 36.0).abs() < 1e-6, "{p1} vs {}", (36 - fail) as f64 / 36.0);
        // A failing roll still moves it at least 3 pips (1-2) or 4 (1-1), to the 3-point or
        // lower, from where every roll (at least 3 pips) bears it off.
        let p2 = db.rolls_to_bear_off(&[0, 0, 0, 0, 0, 1], 2);
        assert!((p1 + p2 - 1.0).abs() < 1e-6);
    }

    #[test]
    fn two_checkers_on_the_one_point_take_one_roll_and_the_race_is_won() {
        let db = database();
        assert_eq!(db.rolls_to_bear_off(&[2, 0, 0, 0, 0, 0], 1), 1.0);
        // We are on roll with two checkers on our 1-point: a certain win, no gammon (they have
        // checkers off).
        let p = probabilities(&pos!(1 => 2, 24 => -1)).unwrap();
        assert!((p.win - 1.0).abs() < 1e-6);
        // They have one checker on their 1-point and the 14 others off; we have 15 checkers on
        // our 6-point. We lose; we save the gammon only by taking a checker off with our one
        // roll: any 6 (11 rolls), 5-1 and 4-2 (6-5-0, 6-4-0 and the like: 4 rolls), 3-3 and 2-2.
        // The other 19 rolls lose a gammon.
        let p = probabilities(&pos!(6 => 15, 24 => -1)).unwrap();
        assert_eq!(p.win, 0.0);
        assert!((p.lose_gammon - 19.0 / 36.0).abs() < 1e-6, "{}", p.lose_gammon);
    }

    #[test]
    fn positions_outside_the_home_boards_are_not_covered() {
        assert!(probabilities(&Position::initial()).is_none());
        assert!(probabilities(&pos!(7 => 1, 24 => -1)).is_none());
    }
}
