//! Exact two-sided bear-off: every pair of home boards with at most six checkers a side (924
//! boards a side, 853,776 pairs), with the cubeless chance of winning and the cubeful money
//! equities of the three cube states, built by the engine on first use.
//!
//! A side's board is its checkers on its six home points, the rest borne off. A pair is the
//! board of the side on roll (the mover) and the opponent's. Each pair holds, for the mover,
//! before the roll:
//! - the chance of winning when both sides play every roll to win (no gammons are possible: each
//!   side has at least nine checkers off);
//! - the cubeful money equity of not doubling, per unit of the cube, with the cube centred, owned
//!   by the mover, and owned by the opponent, every later cube decision of either side taken
//!   optimally and each roll played to maximise that equity.
//!
//! The tables are filled by dynamic programming in increasing order of the two sides' total
//! pips: every roll of a board in its home moves at least one checker, so each pair depends only
//! on pairs with fewer pips. A roll's plays come from the engine's own move generator
//! ([`legal_positions`](gammon_backgammon::legal_positions)), so the bear-off rules are the engine's. The mover's value of a play is
//! minus the opponent's value of the pair it leaves, seen from the opponent, who is then on roll:
//! - win: `1 - win(opponent, after)`, or 1 when the play bore the last checker off;
//! - no double, cube centred: `-E_centred(opponent, after)`; owned by the mover:
//!   `-E_theirs(opponent, after)` (the opponent sees a cube it does not own); owned by the
//!   opponent: `-E_owned(opponent, after)`;
//!
//! where a side's equity before its roll is the better of not doubling and doubling, the opponent
//! answering with the lesser of taking (twice the equity with the cube owned by the opponent) and
//! passing (+1): `E_centred = max(ND_centred, min(1, 2 ND_theirs))`, `E_owned = max(ND_owned,
//! min(1, 2 ND_theirs))`, `E_theirs = ND_theirs`. The cube is taken as unlimited and the Jacoby
//! rule does not matter (no gammons); beavers are not considered.
//!
//! Values are kept as `f32`: four for each of the 853,776 pairs, 13.7 MB, with the boards each
//! board's plays of each roll leave (69,022 in all, 0.2 MB). The build takes about a second on
//! two cores in a release build (see `docs/bearoff.md`).

use super::SKIP;
use crate::Probabilities;
use gammon_backgammon::board::Position;
use gammon_backgammon::{legal_positions_into, ALL_ROLLS};
use std::sync::OnceLock;

/// Home points.
const POINTS: usize = 6;
/// Most checkers a side may have on its home board for the pair to be in the database.
pub const CHECKERS: usize = 6;
/// Boards of one side: at most six checkers on six points, `C(12, 6)`.
pub const BOARDS: usize = 924;
/// Pairs in the database.
pub const PAIRS: usize = BOARDS * BOARDS;

/// The index of a board: its checkers `c[0..6]` on points 1..6, at most six in all, in
/// lexicographic order of the counts (the empty board is 0). `None` for more than six checkers.
pub fn board_index(c: &[u8; POINTS]) -> Option<usize> {
    let mut idx = 0;
    let mut left = CHECKERS;
    for p in 0..POINTS {
        let v = c[p] as usize;
        if v > left {
            return None;
        }
        // The one-sided database's table: the same counts, its order restricted to at most six.
        idx += SKIP[POINTS - 1 - p][left][v] as usize;
        left -= v;
    }
    Some(idx)
}

/// The checkers on points 1..6 of board `idx`.
pub fn board(idx: usize) -> [u8; POINTS] {
    super::counts(idx, CHECKERS)
}

fn pips(c: &[u8; POINTS]) -> usize {
    c.iter().enumerate().map(|(p, &n)| (p + 1) * n as usize).sum()
}

/// What the database holds for the player on roll of a pair: the cubeless chance of winning and
/// the three no-double cubeful money equities, per unit of the cube.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// The chance of winning, both sides playing to win.
    pub win: f64,
    /// Equity of not doubling now, the cube centred.
    pub centred: f64,
    /// Equity of not doubling now, the cube owned by the player on roll.
    pub owned: f64,
    /// Equity with the cube owned by the opponent (the player on roll cannot double).
    pub theirs: f64,
}

impl Entry {
    /// The equity of doubling when the opponent takes: twice the equity with the cube owned by
    /// the opponent, per unit of the cube before the double.
    pub fn double_take(&self) -> f64 {
        2.0 * self.theirs
    }

    /// The equity before the roll with the cube centred, the player on roll doubling when that
    /// is better and the opponent taking or passing, whichever is better for it.
    pub fn best_centred(&self) -> f64 {
        self.centred.max(self.double_take().min(1.0))
    }

    /// As [`Entry::best_centred`] with the cube owned by the player on roll.
    pub fn best_owned(&self) -> f64 {
        self.owned.max(self.double_take().min(1.0))
    }
}

/// The values of each pair, indexed by `mover * BOARDS + opponent`: `[win, centred, owned,
/// theirs]` as in [`Entry`], together so that a lookup reads one cache line.
pub struct Database {
    values: Vec<[f32; 4]>,
    /// Kept for [`Database::roll_wins`].
    successors: Successors,
}

impl Database {
    /// The entry of the pair of boards `mover` (on roll) and `opponent`, by their indices
    /// (below [`BOARDS`]).
    pub fn entry(&self, mover: usize, opponent: usize) -> Entry {
        let [win, centred, owned, theirs] = self.values[mover * BOARDS + opponent];
        Entry { win: win as f64, centred: centred as f64, owned: owned as f64, theirs: theirs as f64 }
    }

    /// Starts loading the entry of the pair (`mover`, `opponent`) without waiting for it
    /// ([`super::prefetch`]).
    pub fn prefetch(&self, mover: usize, opponent: usize) {
        super::prefetch_slice(&self.values[mover * BOARDS + opponent..][..1]);
    }

    /// For each of the 21 rolls ([`ALL_ROLLS`] order), the chance of winning of the player on
    /// roll of the pair (`mover`, `opponent`), both holding checkers, after its best play of the
    /// roll: 1 when a play bears off its last checker, else one minus the opponent's chance at
    /// the pair left. The database's win of the pair is their mean over the 36 outcomes, and a
    /// rollout's variance reduction takes them as the exact value of each roll.
    ///
    /// ```
    /// use gammon_bot::bearoff::two_sided::{board_index, database};
    /// // One checker on the six point against one on the one point: every roll of six pips or
    /// // more bears it off and wins; 1-1, 2-1, 3-1, 3-2 and 4-1 lose.
    /// let mover = board_index(&[0, 0, 0, 0, 0, 1]).unwrap();
    /// let opponent = board_index(&[1, 0, 0, 0, 0, 0]).unwrap();
    /// let wins = database().roll_wins(mover, opponent);
    /// assert_eq!(wins.iter().filter(|&&w| w == 1.0).count(), 16);
    /// assert_eq!(wins.iter().filter(|&&w| w == 0.0).count(), 5);
    /// ```
    pub fn roll_wins(&self, mover: usize, opponent: usize) -> [f64; 21] {
        let s = &self.successors;
        let row = &self.values[opponent * BOARDS..(opponent + 1) * BOARDS];
        let mut wins = [0.0; 21];
        for (r, win) in wins.iter_mut().enumerate() {
            *win = s
                .after(mover, r)
                .iter()
                .map(|&a| if a == 0 { 1.0 } else { 1.0 - row[a as usize][0] as f64 })
                .fold(0.0, f64::max);
        }
        wins
    }
}

/// For each board and each of the 21 rolls (in [`ALL_ROLLS`] order), the distinct boards its
/// legal plays leave, found by the engine's move generator: `boards[starts[b * 21 + r]..starts[b
/// * 21 + r + 1]]`.
struct Successors {
    starts: Vec<u32>,
    boards: Vec<u16>,
}

impl Successors {
    /// The boards the plays of roll `r` leave from board `b`.
    fn after(&self, b: usize, r: usize) -> &[u16] {
        let k = b * 21 + r;
        &self.boards[self.starts[k] as usize..self.starts[k + 1] as usize]
    }
}

fn successors() -> Successors {
    let mut starts = Vec::with_capacity(BOARDS * 21 + 1);
    let mut boards = Vec::new();
    let mut out = Vec::new();
    starts.push(0);
    for b in 0..BOARDS {
        let c = board(b);
        // The opponent's checkers, all in its own home board, can neither block nor be hit, so
        // one checker on its one-point stands for every opponent board.
        let position =
            super::position_of(&c, &[1, 0, 0, 0, 0, 0]).expect("a bear-off board is a legal position");
        for dice in ALL_ROLLS {
            if b != 0 {
                legal_positions_into(&position, dice, &mut out);
                let first = boards.len();
                for after in &out {
                    let (home, _) = super::home_boards(after).expect("a bear-off play stays home");
                    let idx = board_index(&home).expect("a play never adds checkers") as u16;
                    if !boards[first..].contains(&idx) {
                        boards.push(idx);
                    }
                }
            }
            starts.push(boards.len() as u32);
        }
    }
    Successors { starts, boards }
}

/// The values of the pair (`mover`, `opponent`), both boards holding checkers, from the pairs
/// its plays leave, all complete in `t` (they have fewer total pips).
fn compute(t: &[[f32; 4]], s: &Successors, mover: usize, opponent: usize) -> [f32; 4] {
    let (mut win, mut centred, mut owned, mut theirs) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for (r, dice) in ALL_ROLLS.iter().enumerate() {
        let w = dice.weight() as f64 / 36.0;
        let after = s.after(mover, r);
        let (mut bw, mut bc, mut bo, mut bt) = (-2.0f64, -2.0f64, -2.0f64, -2.0f64);
        for &a in after {
            let (vw, vc, vo, vt) = if a == 0 {
                (1.0, 1.0, 1.0, 1.0)
            } else {
                // The opponent is on roll at the pair it is left with.
                let [win, centred, owned, theirs] = t[opponent * BOARDS + a as usize];
                let their_take = (2.0 * theirs as f64).min(1.0);
                (
                    1.0 - win as f64,
                    -(centred as f64).max(their_take),
                    -(theirs as f64),
                    -(owned as f64).max(their_take),
                )
            };
            bw = bw.max(vw);
            bc = bc.max(vc);
            bo = bo.max(vo);
            bt = bt.max(vt);
        }
        win += w * bw;
        centred += w * bc;
        owned += w * bo;
        theirs += w * bt;
    }
    [win as f32, centred as f32, owned as f32, theirs as f32]
}

/// The values of a pair whose mover has borne off every checker (won), and of one whose
/// opponent has (lost).
const WON: [f32; 4] = [1.0; 4];
const LOST: [f32; 4] = [0.0, -1.0, -1.0, -1.0];

/// Every pair's values, built from the pairs with the fewest pips up.
fn build(s: &Successors) -> Vec<[f32; 4]> {
    let board_pips: Vec<usize> = (0..BOARDS).map(|b| pips(&board(b))).collect();
    let mut order: Vec<(usize, usize, usize)> = (1..BOARDS)
        .flat_map(|m| (1..BOARDS).map(move |o| (m, o)))
        .map(|(m, o)| (board_pips[m] + board_pips[o], m, o))
        .collect();
    order.sort_unstable();
    let mut t = vec![[0.0f32; 4]; PAIRS];
    // A side with no checkers left has won: the mover of (empty, _) has, the mover of (_, empty)
    // has lost. (The empty pair is never reached.)
    for b in 1..BOARDS {
        t[b] = WON;
        t[b * BOARDS] = LOST;
    }
    // Pairs with the same total pips depend only on pairs with fewer, so each total is built on
    // every core, with plain scoped threads as the one-sided database is.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut rest = &order[..];
    while let Some(&(total, _, _)) = rest.first() {
        let level = rest.partition_point(|&(p, _, _)| p == total);
        let (now, later) = rest.split_at(level);
        rest = later;
        let chunk = now.len().div_ceil(threads);
        let values: Vec<[f32; 4]> = std::thread::scope(|scope| {
            let t = &t[..];
            let handles: Vec<_> = now
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || part.iter().map(|&(_, m, o)| compute(t, s, m, o)).collect::<Vec<_>>())
                })
                .collect();
            handles.into_iter().flat_map(|h| h.join().expect("a two-sided bear-off worker")).collect()
        });
        for (&(_, m, o), v) in now.iter().zip(values) {
            t[m * BOARDS + o] = v;
        }
    }
    t
}

/// The database, built on first use, or read from the file an earlier process wrote
/// (docs/bearoff.md).
pub fn database() -> &'static Database {
    static DB: OnceLock<Database> = OnceLock::new();
    DB.get_or_init(cached)
}

/// The name of the database's file in the cache directory ([`super::cache`]).
const CACHE_FILE: &str = "bearoff-two-sided.bin";

/// The database read from the cache file where it holds a good one, else built and written
/// there. The successors are quick to make again and are not kept in the file.
fn cached() -> Database {
    let s = successors();
    let decode = |bytes: &[u8]| {
        let mut rest = bytes;
        let flat = super::cache::take_f32(&mut rest, 4 * PAIRS)?;
        let values: Vec<[f32; 4]> = flat.chunks_exact(4).map(|v| [v[0], v[1], v[2], v[3]]).collect();
        (rest.is_empty() && consistent(&values, &s)).then_some(values)
    };
    let encode = |values: &Vec<[f32; 4]>| {
        let mut bytes = Vec::with_capacity(16 * PAIRS);
        super::cache::put_f32(&mut bytes, values.as_flattened());
        bytes
    };
    let values = super::cache::load_or_build(CACHE_FILE, decode, || build(&s), encode);
    Database { values, successors: s }
}

/// Whether the won and lost pairs and a sample of the others (one pair in 997) hold what this
/// build computes from the pairs they lead to, to the bit: a file made by a build whose rules
/// for the database differed fails it.
fn consistent(t: &[[f32; 4]], s: &Successors) -> bool {
    let bits = |v: [f32; 4]| v.map(f32::to_bits);
    let ends = (1..BOARDS).all(|b| bits(t[b]) == bits(WON) && bits(t[b * BOARDS]) == bits(LOST));
    ends && (0..PAIRS)
        .step_by(997)
        .map(|k| (k / BOARDS, k % BOARDS))
        .filter(|&(m, o)| m > 0 && o > 0)
        .all(|(m, o)| bits(compute(t, s, m, o)) == bits(t[m * BOARDS + o]))
}

/// The indices of the two boards of `position` (the player on roll's first) when every checker
/// of both sides is home and neither side has more than six on its board; `None` otherwise.
pub fn boards_of(position: &Position) -> Option<(usize, usize)> {
    let (ours, theirs) = super::home_boards(position)?;
    Some((board_index(&ours)?, board_index(&theirs)?))
}

/// The database's entry for the player on roll of `position`, or `None` where the position is
/// not in the database (see [`boards_of`]).
pub fn entry(position: &Position) -> Option<Entry> {
    let (ours, theirs) = boards_of(position)?;
    Some(database().entry(ours, theirs))
}

/// The exact cubeless probabilities of `position` for the player on roll, or `None` where it is
/// not in the database. Gammons cannot happen: each side has nine checkers off or more.
pub fn probabilities(position: &Position) -> Option<Probabilities> {
    let e = entry(position)?;
    Some(Probabilities { win: e.win, ..Default::default() })
}

#[cfg(test)]
mod tests;
