//! The net's inputs: what it sees of a position.
//!
//! Each side is encoded from its own point of view (its points numbered 1..24 in the direction it
//! moves, its bar, its tray), the side on roll first. Per side, [`SIDE_INPUTS`] values:
//!
//! * for each point 1..24, four units for the `n` checkers there (TD-Gammon style):
//!   `n >= 1`, `n >= 2`, `n >= 3` and `(n - 3) / 2` when `n > 3`;
//! * the bar, `n / 2`, and the tray, `n / 15`;
//! * expert features: the pip count / 100; the share of the opponent's 36 rolls that hit one of
//!   this side's blots (direct and combination shots, intermediate points blocked by this side's
//!   made points; see [`shots`]); the longest run of this side's made points / 6; the share of
//!   the rolls that enter a checker from the bar against the opponent's home board; the
//!   checkers still outside this side's home board / 15;
//! * how the back checkers fare: the share of the rolls with which this side's rearmost checker
//!   escapes the opponent's points within twelve pips in front of it ([`escapes`]); how well this
//!   side's points contain an opponent checker on its points 1..=10 (one minus the fewest
//!   escapes / 36); the pips this side must still move to bring its checkers level with the
//!   opponent's rearmost checker / 100; the point of its rearmost checker and of its rearmost
//!   made point / 24;
//! * what the next roll threatens and what the side can still do: the share of the opponent's
//!   rolls that reach two or more of this side's blots; the pips this side loses to a hit,
//!   averaged over the 36 rolls, each counting its costliest blot / 12; how far forward this
//!   side's most advanced point in the opponent's home board or on its bar point stands (0 if
//!   none, 1 for the bar point); the pips of the checkers that can move without breaking a
//!   home-board point / 100; and mobility: over the six die values, the occupied
//!   points with a checker free to move that far / 36.
//!
//! All inputs lie in 0..=1 except the stacked-point unit, the bar (up to 6), the pip counts
//! (up to 3.75), the pip loss (up to 2) and the mobility (up to 2.5).

// Loops run over point numbers, which index several arrays at once.
#![allow(clippy::needless_range_loop)]

use gammon_backgammon::board::{Position, BAR};
use gammon_backgammon::moves::Play;

/// Inputs for one side.
pub const SIDE_INPUTS: usize = 24 * 4 + 17;
/// Inputs for the whole position (both sides).
pub const INPUTS: usize = 2 * SIDE_INPUTS;

/// One side's checkers in its own numbering: `[0]` unused, `[1..=24]` points, `[25]` the bar.
type Side = [u8; 26];

/// Splits `position` into the side on roll and the other side, each in its own numbering.
pub fn sides(position: &Position) -> (Side, Side) {
    let b = position.board();
    let mut ours = [0u8; 26];
    let mut theirs = [0u8; 26];
    for i in 1..=24 {
        let n = b[i];
        if n > 0 {
            ours[i] = n as u8;
        } else if n < 0 {
            theirs[25 - i] = (-n) as u8;
        }
    }
    ours[BAR] = b[BAR] as u8;
    theirs[BAR] = (-b[0]) as u8;
    (ours, theirs)
}

/// What the expert features need to know of one side, in its own numbering: bit `i` of each mask
/// for point `i`. One pass over the points gives all of it, shared by both sides' features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Summary {
    /// Points holding at least one checker.
    occupied: u32,
    /// Points holding exactly one.
    blots: u32,
    /// Points holding two or more.
    made: u32,
    pips: u32,
    /// Checkers outside the home board (points 7..=24 and the bar).
    outside: u32,
    /// Checkers on the bar.
    bar: u32,
    /// Checkers borne off.
    off: u32,
    /// Checkers on points 1..=24.
    on_board: u32,
    /// The side's checkers point by point, as [`Side`].
    counts: Side,
}

impl Summary {
    /// The summary of `side`. Every count is a fixed pass over the 26 slots without a branch,
    /// which the compiler turns into a few vector compares and sums: cheaper, for a candidate
    /// play, than updating the reference's summary point by point, whose loop runs a different
    /// number of times for every play and so mispredicts its exit.
    #[inline(always)]
    fn of(side: &Side) -> Summary {
        let (mut occupied, mut blots, mut made) = (0u32, 0u32, 0u32);
        let (mut pips, mut on_board, mut outside) = (0u32, 0u32, 0u32);
        for i in 0..26 {
            let n = side[i] as u32;
            // Slot 0 is always empty; the bar (25) counts in the pips and outside only.
            let point = (i <= 24) as u32;
            pips += n * i as u32;
            on_board += n * point;
            outside += n * (i > 6) as u32;
            occupied |= ((n >= 1) as u32 & point) << i;
            blots |= ((n == 1) as u32 & point) << i;
            made |= ((n >= 2) as u32 & point) << i;
        }
        let bar = side[BAR] as u32;
        Summary {
            occupied,
            blots,
            made,
            pips,
            outside,
            bar,
            off: 15 - (on_board + bar),
            on_board,
            counts: *side,
        }
    }

    /// The summary of the side whose checkers are now `now(i)` on each slot `i` (the bar being
    /// [`BAR`]), which differ from this summary's on the points of `mask` and the bar alone:
    /// this summary itself when none of them changed.
    #[inline(always)]
    fn moved(self, mask: u32, now: impl Fn(usize) -> u8) -> Summary {
        if mask == 0 && now(BAR) == self.counts[BAR] {
            // Usually the side on roll after the play, none of whose checkers was hit.
            return self;
        }
        Summary::of(&std::array::from_fn(now))
    }
}

/// How many of the 36 rolls let the `attacker` hit at least one blot of `defender` (both in
/// their own numbering). Direct and combination shots count; a combination needs a landing spot
/// the defender has not made. The rule that checkers on the bar must enter first is ignored, as
/// are hits by checkers still to enter beyond the first: it is an input, not an exact count.
pub fn shots(defender: &Side, attacker: &Side) -> u32 {
    shots_between(&Summary::of(defender), &Summary::of(attacker)).hits
}

/// What the attacker's next roll threatens: see [`shots`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shots {
    /// Rolls (of 36) that reach at least one blot.
    hits: u32,
    /// Rolls that reach two blots or more, with one checker or two: a measure of double hits.
    doubles: u32,
    /// The pips the defender loses summed over the rolls, each roll counting its costliest
    /// blot within reach (a blot on the defender's point `i` loses `25 - i`).
    pips: u32,
}

fn shots_between(defender: &Summary, attacker: &Summary) -> Shots {
    let blots = defender.blots;
    if blots == 0 {
        return Shots { hits: 0, doubles: 0, pips: 0 };
    }
    // The defender's point i is the attacker's point 25 - i (bit reversal of bits 1..=24);
    // attacker positions in the defender's numbering grow as the attacker moves, from 0 (its
    // bar) upwards.
    let from = (attacker.occupied.reverse_bits() >> 6) | (attacker.bar > 0) as u32;
    let open = !defender.made & 0x1FF_FFFF;
    // Each roll is a lane, so that the compiler runs the 21 of them side by side in vector
    // registers (variable shifts). A checker moved by the first die must land open (a, b);
    // a combination reaches on with the other die (s2 and b << d1, the last landing being on a
    // blot, so open); doubles go up to four steps, each landing open (s3, s4).
    let (mut hits, mut doubles, mut pips) = (0, 0, 0);
    for r in 0..ROLL_LANES {
        let (d1, d2) = (ROLLS.d1[r], ROLLS.d2[r]);
        let a = (from << d1) & open;
        let b = (from << d2) & open;
        let s2 = (a << d2) & open;
        let s3 = (s2 << d1) & open;
        let s4 = (s3 << d1) & open;
        let reach = (a | b | s2 | (b << d1) | (ROLLS.double[r] & (s3 | s4))) & blots;
        let w = ROLLS.weight[r];
        hits += ((reach != 0) as u32) * w;
        doubles += ((reach & reach.wrapping_sub(1) != 0) as u32) * w;
        // The lowest blot reached is the furthest advanced; none reached (32 trailing zeros)
        // loses nothing.
        pips += 25u32.saturating_sub(reach.trailing_zeros()) * w;
    }
    Shots { hits, doubles, pips }
}

/// Lanes of [`RollLanes`]: the 21 rolls and three empty ones, a whole number of vectors.
const ROLL_LANES: usize = 24;

/// The 21 rolls laid out for [`shots_between`]: the dice (0 in the empty lanes), how many of
/// the 36 outcomes each is (0 in the empty lanes), and all ones for doubles.
struct RollLanes {
    d1: [u32; ROLL_LANES],
    d2: [u32; ROLL_LANES],
    weight: [u32; ROLL_LANES],
    double: [u32; ROLL_LANES],
}

const ROLLS: RollLanes = {
    let mut t = RollLanes {
        d1: [0; ROLL_LANES],
        d2: [0; ROLL_LANES],
        weight: [0; ROLL_LANES],
        double: [0; ROLL_LANES],
    };
    let mut r = 0;
    let mut d1 = 1;
    while d1 <= 6 {
        let mut d2 = d1;
        while d2 <= 6 {
            t.d1[r] = d1;
            t.d2[r] = d2;
            t.weight[r] = if d1 == d2 { 1 } else { 2 };
            t.double[r] = if d1 == d2 { u32::MAX } else { 0 };
            r += 1;
            d2 += 1;
        }
        d1 += 1;
    }
    t
};

/// The longest run of consecutive points in `mask` (bits 1..=24), made points of one side: at
/// most seven, as fifteen checkers make no more points than that.
#[inline(always)]
fn longest_run(mut mask: u32) -> u32 {
    // A fixed number of steps rather than a loop until the mask is empty, whose exit would be
    // mispredicted: each step shortens every run by one.
    let mut run = 0;
    for _ in 0..7 {
        run += (mask != 0) as u32;
        mask &= mask >> 1;
    }
    run
}

/// The four units of a point holding `n` of a side's checkers.
#[inline(always)]
fn point_units(n: u32) -> [f32; 4] {
    std::array::from_fn(|k| point_unit(n, k))
}

/// Unit `k` of a point holding `n` checkers: `n >= 1`, `n >= 2`, `n >= 3`, then `(n - 3) / 2`
/// when `n > 3`.
#[inline(always)]
fn point_unit(n: u32, k: usize) -> f32 {
    if k < 3 {
        (n > k as u32) as u8 as f32
    } else {
        (n.max(3) - 3) as f32 * 0.5
    }
}

/// Inputs per side after the point units.
const FEATURES: usize = SIDE_INPUTS - 96;

/// The inputs after the point units: bar, tray and the expert features. `same_made` holds the
/// features of a position where the side had the same made points, if known: those that depend
/// on nothing else are taken from it.
#[inline(always)]
fn features(side: &Summary, other: &Summary, same_made: Option<&[f32]>) -> [f32; FEATURES] {
    let mut f = [0.0; FEATURES];
    f[0] = side.bar as f32 * 0.5;
    f[1] = side.off as f32 / 15.0;
    f[2] = side.pips as f32 / 100.0;
    for (k, v) in FACING.into_iter().zip(facing(side, other)) {
        f[k] = v;
    }
    f[6] = side.outside as f32 / 15.0;
    f[10] = rearmost(side) as f32 / 24.0;
    f[15] = free_pips(side) as f32 / 100.0;
    if let Some(known) = same_made {
        for k in MADE_ONLY {
            f[k] = known[k];
        }
    } else {
        f[4] = longest_run(side.made) as f32 / 6.0;
        // An opponent checker on this side's point q moves up through this side's points.
        let fewest = (1..=10).map(|q| escapes(side.made, q)).min().unwrap_or(36);
        f[8] = 1.0 - fewest as f32 / 36.0;
        f[11] = highest(side.made) as f32 / 24.0;
        f[14] = forward_anchor(side.made) as f32 / 7.0;
    }
    f
}

/// The features that depend on the side's made points alone.
const MADE_ONLY: [usize; 4] = [4, 8, 11, 14];

/// The features that depend on the opponent's checkers too: the only ones that can change for
/// a side whose own checkers stayed where they were.
const FACING: [usize; 7] = [3, 5, 7, 9, 12, 13, 16];

/// The [`FACING`] features of `side` against `other`.
#[inline(always)]
fn facing(side: &Summary, other: &Summary) -> [f32; 7] {
    let shots = shots_between(side, other);
    // The opponent's home board is its points 1..6.
    let closed = (other.made & 0x7E).count_ones() as f32 / 6.0;
    // Seen from the opponent's numbering, this side's checkers move up: its rearmost checker
    // (point `back`, the bar being 25) stands at the opponent's point 25 - back.
    let back = rearmost(side);
    let escaping = if back > 0 { escapes(other.made, 25 - back) as f32 / 36.0 } else { 1.0 };
    [
        shots.hits as f32 / 36.0,
        1.0 - closed * closed,
        escaping,
        break_contact(side, other) as f32 / 100.0,
        shots.doubles as f32 / 36.0,
        shots.pips as f32 / (36.0 * 12.0),
        mobility(side, other) as f32 / 36.0,
    ]
}

/// The pips of the side's checkers that can move without breaking a point of its home board:
/// all but two checkers of each home point it has made. Little of it left means the board
/// must soon crack.
#[inline(always)]
fn free_pips(side: &Summary) -> u32 {
    side.pips - HELD_PIPS[(side.made >> 1 & 0x3F) as usize] as u32
}

/// The pips of two checkers on each home point made, by the made points 1..=6 (bit `i - 1` for
/// point `i`).
static HELD_PIPS: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut made = 0;
    while made < 64 {
        let mut i = 1;
        while i <= 6 {
            table[made] += ((made >> (i - 1)) & 1) as u8 * 2 * i as u8;
            i += 1;
        }
        made += 1;
    }
    table
};

/// How far forward the side's most advanced point in the opponent's home board or on its bar
/// point (the side's points 18..=24) is: `25 - point`, so 7 for the opponent's bar point and 1
/// for its ace point; 0 if it holds none there.
#[inline(always)]
fn forward_anchor(made: u32) -> u32 {
    let held = made & (0x7F << 18);
    if held == 0 {
        0
    } else {
        25 - held.trailing_zeros()
    }
}

/// Over the six die values, how many of the side's occupied points (the bar included) have a
/// checker that can move that far to a point the opponent has not made: a measure of how freely
/// the side can play, bearing off aside.
#[inline(always)]
fn mobility(side: &Summary, other: &Summary) -> u32 {
    // The opponent's point j is this side's point 25 - j.
    let blocked = other.made.reverse_bits() >> 6;
    let from = side.occupied | ((side.bar > 0) as u32) << BAR;
    let open = !blocked & 0x1FF_FFFE;
    (1..=6).map(|d| ((from >> d) & open).count_ones()).sum()
}

/// The point of the side's rearmost checker in its own numbering (the bar is 25), 0 if it has
/// none left.
#[inline(always)]
fn rearmost(side: &Summary) -> u32 {
    if side.bar > 0 {
        25
    } else {
        highest(side.occupied)
    }
}

/// The highest point of `mask` (bit `i` for point `i`), 0 for none.
#[inline(always)]
fn highest(mask: u32) -> u32 {
    31 - mask.leading_zeros().min(31)
}

/// The pips the side must still move to bring every one of its checkers level with the
/// opponent's rearmost checker: 0 once there is no contact.
#[inline(always)]
fn break_contact(side: &Summary, other: &Summary) -> u32 {
    // The opponent's rearmost checker, on its point r, is on this side's point 25 - r.
    let r = rearmost(other);
    if r == 0 {
        return 0;
    }
    let front = 25 - r;
    // A loop over the few occupied points behind: a pass over every slot costs more.
    let mut behind = (side.occupied | ((side.bar > 0) as u32) << BAR) & !((2u32 << front) - 1);
    let mut pips = 0;
    while behind != 0 {
        let i = behind.trailing_zeros();
        behind &= behind - 1;
        pips += side.counts[i as usize] as u32 * (i - front);
    }
    pips
}

/// How many of the 36 rolls let a lone checker standing at `at` (in the numbering of the side
/// whose made points are `blocks`, moving up towards higher points) land beyond the last of
/// those points within twelve pips in front of it: every step on an open point, as for
/// [`shots`]. 36 when none of the twelve is made.
#[inline(always)]
pub fn escapes(blocks: u32, at: u32) -> u32 {
    ESCAPES[((blocks >> (at + 1)) & 0xFFF) as usize] as u32
}

/// [`escapes`] for every pattern of made points at one to twelve pips in front (bit `k - 1`
/// for `k` pips).
static ESCAPES: [u8; 4096] = {
    let mut table = [0u8; 4096];
    let mut pattern = 0;
    while pattern < 4096 {
        table[pattern] = escape_count(pattern as u32);
        pattern += 1;
    }
    table
};

/// Whether the point `k` pips in front is open in `pattern` (beyond twelve, always).
const fn open(pattern: u32, k: u32) -> bool {
    k > 12 || pattern & (1 << (k - 1)) == 0
}

/// [`escapes`] counted roll by roll for one pattern.
const fn escape_count(pattern: u32) -> u8 {
    if pattern == 0 {
        return 36;
    }
    let last = 32 - pattern.leading_zeros();
    let mut count = 0;
    let mut d1 = 1;
    while d1 <= 6 {
        let mut d2 = 1;
        while d2 <= 6 {
            let escaped = if d1 == d2 {
                let mut reached = false;
                let mut step = 1;
                while step <= 4 && open(pattern, step * d1) {
                    reached |= step * d1 > last;
                    step += 1;
                }
                reached
            } else {
                let first = (open(pattern, d1) && d1 > last) || (open(pattern, d2) && d2 > last);
                first
                    || ((open(pattern, d1) || open(pattern, d2)) && open(pattern, d1 + d2) && d1 + d2 > last)
            };
            count += escaped as u8;
            d2 += 1;
        }
        d1 += 1;
    }
    count
}

/// The inputs of one side: the point units, four for each of its points 1..=24, then the
/// features.
fn write_side(side: &Side, summary: &Summary, other: &Summary, out: &mut [f32]) {
    for i in 1..=24 {
        out[4 * (i - 1)..4 * i].copy_from_slice(&point_units(side[i] as u32));
    }
    out[96..SIDE_INPUTS].copy_from_slice(&features(summary, other, None));
}

/// Writes the [`INPUTS`] inputs of `position` (seen from the side on roll) into `out`.
pub fn encode(position: &Position, out: &mut [f32; INPUTS]) {
    *out = Reference::new(position).x;
}

/// A position's inputs, kept so that those of positions a few checkers away cost only their
/// differences: candidate plays of one roll differ from the position before it on a handful of
/// points, and [`Nearby::changes`] visits just those.
#[derive(Clone, Debug)]
pub struct Reference {
    /// The inputs, as [`encode`] writes them.
    pub x: [f32; INPUTS],
    summaries: [Summary; 2],
}

impl Reference {
    /// The inputs of `position` (seen from the side on roll).
    pub fn new(position: &Position) -> Reference {
        let (ours, theirs) = sides(position);
        let summaries = [Summary::of(&ours), Summary::of(&theirs)];
        let mut x = [0.0; INPUTS];
        let (a, b) = x.split_at_mut(SIDE_INPUTS);
        write_side(&ours, &summaries[0], &summaries[1], a);
        write_side(&theirs, &summaries[1], &summaries[0], b);
        Reference { x, summaries }
    }

    /// `position`, which differs from the reference only on the points of `touched` (bit `i`
    /// for point `i` in each side's own numbering: `[side on roll, other side]`), on the bars
    /// and in the trays: a candidate play's position, for the side to roll after it ([`touched`]
    /// gives the points for a play).
    #[inline(always)]
    pub fn nearby(&self, position: &Position, touched: [u32; 2]) -> Nearby<'_> {
        let b = position.board();
        let masks = [touched[0] & 0x1FF_FFFE, touched[1] & 0x1FF_FFFE];
        let summaries = [
            self.summaries[0].moved(masks[0], |i| ours_at(b, i)),
            self.summaries[1].moved(masks[1], |i| theirs_at(b, i)),
        ];
        Nearby { reference: self, masks, summaries }
    }
}

/// The points of each side that `play` can have changed, for [`Reference::nearby`] from the
/// position before it: those it moved from and to, and the opponent's where it hit.
#[inline(always)]
pub fn touched(play: &Play) -> [u32; 2] {
    let mut touched = [0u32; 2];
    for (k, m) in play.moves().iter().enumerate() {
        touched[1] |= 1 << m.from | 1 << m.to;
        touched[0] |= (play.is_hit(k) as u32) << (25 - m.to);
    }
    touched
}

/// The points of each side that differ between `before` and `after`, a position a play of the
/// side on roll leads to (both seen from that side): [`touched`] without the play's moves, in the
/// same layout (`[the other side, the side that moved]`, each in its own numbering). A point a
/// checker only passed through is left out, which changes nothing where the mask is used: a
/// point whose count is unchanged has no input that changed.
#[inline(always)]
pub fn touched_between(before: &Position, after: &Position) -> [u32; 2] {
    let (a, b) = (before.board(), after.board());
    // One pass over the whole board that the compiler turns into vector compares. A play changes
    // the mover's count wherever a count changed, and the other side's only where it hit a blot
    // (a point the other side held before).
    let (mut changed, mut theirs) = (0u32, 0u32);
    for i in 0..26 {
        changed |= ((a[i] != b[i]) as u32) << i;
        theirs |= ((a[i] < 0) as u32) << i;
    }
    let changed = changed & 0x1FF_FFFE;
    // The other side's point 25 - i is our point i: bits 1..=24 reversed.
    [(changed & theirs).reverse_bits() >> 6, changed]
}

/// The checkers of the side on roll on its slot `i` (as in [`sides`]).
#[inline(always)]
fn ours_at(board: &[i8; 26], i: usize) -> u8 {
    board[i].max(0) as u8
}

/// The checkers of the other side on its slot `i` (in its own numbering, as in [`sides`]).
#[inline(always)]
fn theirs_at(board: &[i8; 26], i: usize) -> u8 {
    (-board[25 - i]).max(0) as u8
}

/// A position a few checkers away from a [`Reference`] (see [`Reference::nearby`]): what it
/// takes to tell its class and its inputs' differences from the reference's.
#[derive(Clone, Debug)]
pub struct Nearby<'a> {
    reference: &'a Reference,
    masks: [u32; 2],
    summaries: [Summary; 2],
}

impl Nearby<'_> {
    /// Both sides have every checker in their home boards (none on the bar).
    #[inline(always)]
    pub fn all_home(&self) -> bool {
        let [a, b] = &self.summaries;
        (a.occupied | b.occupied) & !0x7E == 0 && a.bar + b.bar == 0
    }

    /// No checker of one side can meet one of the other any more ([`Position::is_race`]).
    #[inline(always)]
    pub fn is_race(&self) -> bool {
        let [a, b] = &self.summaries;
        // The rearmost checkers, each in its own numbering; the other side's rearmost point r
        // is our 25 - r.
        a.bar + b.bar == 0 && rearmost(a) + rearmost(b) < 25
    }

    /// Calls `change(i, d)`, in increasing order of `i`, for every input `i` that can differ
    /// from the reference's, `d` being the difference (`x[i] - reference.x[i]` in f32, so that
    /// hidden sums updated by it round as they always have). The four units of every point whose
    /// count changed and every feature that could have changed are visited, with `0.0` where
    /// they did not, and the caller skips those without a branch to mispredict.
    ///
    /// ```
    /// use gammon_bot::net::inputs::{encode, Reference, INPUTS};
    /// use gammon_backgammon::{pos, Position};
    /// let reference = Reference::new(&pos!(8 => 2, 6 => 2, 1 => -2));
    /// // One checker from the 8-point to the 5-point.
    /// let moved = pos!(8 => 1, 6 => 2, 5 => 1, 1 => -2);
    /// let mut x = [0.0; INPUTS];
    /// encode(&moved, &mut x);
    /// let mut changed = vec![];
    /// reference.nearby(&moved, [1 << 8 | 1 << 5, 0]).changes(|i, d| {
    ///     assert_eq!(d, x[i] - reference.x[i]);
    ///     if d != 0.0 {
    ///         changed.push(i);
    ///     }
    /// });
    /// // The first unit of the 5-point, the second of the 8-point, the pips, the shots at the
    /// // new blots, the checkers outside the home board, the containment and the rearmost
    /// // point made (the 8-point is broken), the pips to break contact, the double shots and
    /// // the pips lost to a hit (two blots now), the free pips and the mobility; and for the
    /// // other side, the escapes of its rearmost checker, one point fewer being made in front
    /// // of it.
    /// assert_eq!(changed, [16, 29, 98, 99, 102, 104, 105, 107, 108, 109, 111, 112, 216]);
    /// ```
    #[inline(always)]
    pub fn changes(&self, mut change: impl FnMut(usize, f32)) {
        let x = &self.reference.x;
        self.values(|i, v| change(i, v - x[i]));
    }

    /// The reference of this position with the turn passed back: what
    /// [`Reference::new`]`(&position.swapped())` gives, bit for bit, at the cost of the inputs
    /// that changed. A chosen play's position is the next reference of a game but one side
    /// round; the inputs of a position and of its swap are the same two halves, exchanged.
    pub fn turned(&self) -> Reference {
        let x = &self.reference.x;
        let mut turned = [0.0; INPUTS];
        turned[..SIDE_INPUTS].copy_from_slice(&x[SIDE_INPUTS..]);
        turned[SIDE_INPUTS..].copy_from_slice(&x[..SIDE_INPUTS]);
        self.values(|i, v| turned[(i + SIDE_INPUTS) % INPUTS] = v);
        Reference { x: turned, summaries: [self.summaries[1], self.summaries[0]] }
    }

    /// Calls `set(i, v)`, in increasing order of `i`, with the value `v` of every input `i` that
    /// can differ from the reference's: the point units that do, and the features that may.
    #[inline(always)]
    fn values(&self, mut set: impl FnMut(usize, f32)) {
        let x = &self.reference.x;
        for half in 0..2 {
            let base = half * SIDE_INPUTS;
            let (before, now) = (&self.reference.summaries[half], &self.summaries[half]);
            let mut mask = self.masks[half];
            while mask != 0 {
                let i = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let new = now.counts[i] as u32;
                // All four units, unchanged ones too: a loop over those that changed would run
                // once or twice by the play, mispredicting, and the callers skip the others
                // without a branch (their difference is zero).
                let at = base + 4 * (i - 1);
                for k in 0..4 {
                    set(at + k, point_unit(new, k));
                }
            }
            let at = base + 96;
            let (side, other) = (now, &self.summaries[1 - half]);
            if now.counts == before.counts {
                // Usually true of the side on roll, whose blots alone can have been hit.
                for (k, f) in FACING.into_iter().zip(facing(side, other)) {
                    set(at + k, f);
                }
                continue;
            }
            let same_made = (now.made == before.made).then(|| &x[at..at + FEATURES]);
            for (k, f) in features(side, other, same_made).into_iter().enumerate() {
                set(at + k, f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gammon_backgammon::pos;
    use proptest::prelude::*;

    /// Counts hitting rolls the slow way: every roll, every attacker checker, every order of the
    /// dice, intermediate landing spots checked against the defender's made points.
    fn shots_by_enumeration(defender: &Side, attacker: &Side) -> u32 {
        threats_by_enumeration(defender, attacker).hits
    }

    /// [`Shots`] the slow way: for each roll, the set of blots some checker reaches, landing only
    /// on open points (a hit blot's point is open, so a checker may go on past it).
    fn threats_by_enumeration(defender: &Side, attacker: &Side) -> Shots {
        let blot = |i: i32| (1..=24).contains(&i) && defender[i as usize] == 1;
        let open = |i: i32| (1..=24).contains(&i) && defender[i as usize] < 2;
        let mut starts = vec![];
        for j in 1..=24 {
            if attacker[j] > 0 {
                starts.push(25 - j as i32);
            }
        }
        if attacker[BAR] > 0 {
            starts.push(0);
        }
        let mut threats = Shots { hits: 0, doubles: 0, pips: 0 };
        for d1 in 1..=6 {
            for d2 in 1..=6 {
                let steps: Vec<i32> = if d1 == d2 { vec![d1; 4] } else { vec![d1, d2] };
                let orders: Vec<Vec<i32>> =
                    if d1 == d2 { vec![steps.clone()] } else { vec![steps.clone(), vec![d2, d1]] };
                let mut reached = std::collections::BTreeSet::new();
                for &s in &starts {
                    for order in &orders {
                        let mut at = s;
                        for &d in order {
                            at += d;
                            if !open(at) {
                                break;
                            }
                            if blot(at) {
                                reached.insert(at);
                            }
                        }
                    }
                }
                threats.hits += !reached.is_empty() as u32;
                threats.doubles += (reached.len() >= 2) as u32;
                threats.pips += reached.first().map_or(0, |&i| 25 - i as u32);
            }
        }
        threats
    }

    #[test]
    fn shots_match_enumeration() {
        // A blot 6 away from a single attacker: 11 direct sixes, plus 5-1, 4-2 (4 rolls),
        // 3-3 and 2-2 combinations: 17 (the classic count).
        let p = pos!(7 => 1, 1 => -1);
        let (ours, theirs) = sides(&p);
        assert_eq!(shots(&ours, &theirs), 17);
        assert_eq!(shots_by_enumeration(&ours, &theirs), 17);
        // A blot 1 away: 11 direct ones; no combination reaches 1.
        let p = pos!(2 => 1, 1 => -1);
        let (ours, theirs) = sides(&p);
        assert_eq!(shots(&ours, &theirs), 11);
        for p in [
            Position::initial(),
            pos!(24 => 1, 20 => 1, 13 => 4, 8 => 2, 6 => 5, 5 => 2, 1 => -2, 12 => -5, 17 => -3, 19 => -5),
        ] {
            for q in [p, p.swapped()] {
                let (ours, theirs) = sides(&q);
                assert_eq!(shots(&ours, &theirs), shots_by_enumeration(&ours, &theirs));
            }
        }
        // Positions of games of random plays: bars, primes and stray blots of every kind.
        let mut stream = gammon_backgammon::DiceStream::new(5, 0);
        let mut p = Position::initial();
        for _ in 0..5000 {
            let plays = p.legal_plays(stream.roll());
            p = plays[stream.below(plays.len())].position.swapped();
            if p.off().0 == 15 || p.off().1 == 15 {
                p = Position::initial();
            }
            for q in [p, p.swapped()] {
                let (ours, theirs) = sides(&q);
                let threats = shots_between(&Summary::of(&ours), &Summary::of(&theirs));
                assert_eq!(threats, threats_by_enumeration(&ours, &theirs), "{q:?}");
            }
        }
    }

    #[test]
    fn escapes_match_enumeration() {
        // Every pattern of made points in front of a lone checker, every roll, both orders of
        // the dice, step by step.
        for pattern in 0u32..4096 {
            let count = escapes_by_enumeration(|i| (4..=15).contains(&i) && pattern & (1 << (i - 4)) != 0, 3);
            // A checker on the opponent's point 3 sees the points 4..=15 in front.
            assert_eq!(escapes(pattern << 4, 3), count, "pattern {pattern:012b}");
        }
        // Behind a six-point prime, nothing escapes; behind a five-point prime, only 6s that land
        // past it from right in front.
        assert_eq!(escapes(0b111111 << 1, 0), 0);
        assert_eq!(escapes(0b11111 << 1, 0), 11);
    }

    #[test]
    fn a_play_seen_from_the_reference_matches_its_encoding() {
        // Hits, a checker entering from the bar, one on their bar, and bear-offs.
        let positions = [
            pos!(24 => 1, 20 => 1, 13 => 4, 8 => 2, 6 => 5, 5 => 2, 1 => -2, 12 => -5, 17 => -3, 19 => -4, 21 => -1),
            pos!(25 => 1, 13 => 4, 6 => 5, 5 => 2, 4 => 1, 0 => -1, 23 => -1, 12 => -5, 19 => -5, 20 => -3),
            pos!(6 => 3, 4 => 2, 2 => 1, 1 => -2, 3 => -1, 20 => -5),
        ];
        for before in positions {
            for dice in gammon_backgammon::ALL_ROLLS {
                let reference = Reference::new(&before.swapped());
                let mut ref_x = [0.0; INPUTS];
                encode(&before.swapped(), &mut ref_x);
                assert_eq!(reference.x, ref_x);
                for play in before.legal_plays(dice) {
                    let after = play.position.swapped();
                    let mut fresh = [0.0; INPUTS];
                    encode(&after, &mut fresh);
                    let mut seen = [false; INPUTS];
                    let mut last = None;
                    let nearby = reference.nearby(&after, touched(&play));
                    nearby.changes(|i, d| {
                        assert!(last < Some(i), "{} input {i} out of order", play.notation());
                        assert_eq!(d, fresh[i] - reference.x[i], "{} input {i}", play.notation());
                        last = Some(i);
                        seen[i] = true;
                    });
                    for i in 0..INPUTS {
                        assert!(seen[i] || fresh[i] == reference.x[i], "{} input {i}", play.notation());
                    }
                    let turned = nearby.turned();
                    let fresh = Reference::new(&after.swapped());
                    assert_eq!(turned.x, fresh.x, "{}", play.notation());
                    assert_eq!(turned.summaries, fresh.summaries, "{}", play.notation());
                    let home = crate::bearoff::home_boards(&after).is_some();
                    assert_eq!(nearby.all_home(), home, "{}", play.notation());
                    assert_eq!(nearby.is_race(), after.is_race(), "{}", play.notation());
                }
            }
        }
    }

    #[test]
    fn point_units_by_hand() {
        assert_eq!(point_units(0), [0.0, 0.0, 0.0, 0.0]);
        assert_eq!(point_units(1), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(point_units(3), [1.0, 1.0, 1.0, 0.0]);
        assert_eq!(point_units(8), [1.0, 1.0, 1.0, 2.5]);
        for n in 0..16 {
            let units = point_units(n);
            for k in 0..4 {
                assert_eq!(point_unit(n, k), units[k]);
            }
        }
    }

    #[test]
    fn free_pips_anchor_and_mobility_by_hand() {
        let (ours, theirs) = sides(&Position::initial());
        let (us, them) = (Summary::of(&ours), Summary::of(&theirs));
        // 167 pips less the two checkers that hold the 6-point.
        assert_eq!(free_pips(&us), 167 - 2 * 6);
        // The 24-point is the opponent's ace point.
        assert_eq!(forward_anchor(us.made), 1);
        // The opponent holds our 1, 12, 17 and 19. From 24: every die but the 5; from 13: every
        // die but the 1; from 8: all six; from 6: all but the 5 (onto the 1) and the 6 (off).
        assert_eq!(mobility(&us, &them), 5 + 5 + 6 + 4);
        // An anchor on the opponent's 5-point, a checker on the bar and a closed board, whose
        // two checkers a point hold 6 + 5 + 4 + 3 + 2 + 1 pips twice over: only the bar's and
        // the anchor's pips are free.
        let p = pos!(25 => 1, 20 => 2, 6 => 2, 5 => 2, 4 => 2, 3 => 2, 2 => 2, 1 => 2,
            24 => -2, 22 => -2, 15 => -1, 21 => -1, 19 => -9);
        let (ours, theirs) = sides(&p);
        let (us, them) = (Summary::of(&ours), Summary::of(&theirs));
        assert_eq!(us.pips, 25 + 2 * 20 + 2 * (6 + 5 + 4 + 3 + 2 + 1));
        assert_eq!(free_pips(&us), 25 + 2 * 20);
        assert_eq!(forward_anchor(us.made), 5);
        // The opponent holds our 24, 22 and 19. From the bar (25): dice 2, 4 and 5 (onto 23, 21
        // and 20); from 20: all but the 1 (onto 18 down to 14); from 6..=1, every landing on
        // the board (d < i from point i).
        let home: u32 = (1..=6).map(|i: u32| (1..=6).filter(|d| *d < i).count() as u32).sum();
        assert_eq!(mobility(&us, &them), 3 + 5 + home);
    }

    /// How many of the 36 rolls take a lone checker at `at` (moving up) past the last of the
    /// points `blocked` says are made within twelve pips in front of it, every step landing open:
    /// [`escapes`] counted die by die, as the definition reads.
    fn escapes_by_enumeration(blocked: impl Fn(u32) -> bool, at: u32) -> u32 {
        let made = |k: u32| (1..=12).contains(&k) && blocked(at + k);
        let Some(last) = (1..=12).filter(|&k| made(k)).max() else { return 36 };
        let mut count = 0;
        for d1 in 1..=6u32 {
            for d2 in 1..=6u32 {
                let orders = if d1 == d2 { vec![vec![d1; 4]] } else { vec![vec![d1, d2], vec![d2, d1]] };
                let escaped = orders.iter().any(|order| {
                    let mut k = 0;
                    for &d in order {
                        k += d;
                        if made(k) {
                            return false;
                        }
                        if k > last {
                            return true;
                        }
                    }
                    false
                });
                count += escaped as u32;
            }
        }
        count
    }

    /// One side's inputs as the module documentation defines them, from the checkers alone
    /// (`side` and `other` each in its own numbering), every count by a plain loop over the
    /// points and every threat by enumerating rolls: the reference the encoder, whose counts
    /// come from bit masks and tables, must match to the bit. The conversions to f32 are the
    /// encoder's own formulas, as the nets were trained on exactly those values.
    fn side_by_definition(side: &Side, other: &Side) -> [f32; SIDE_INPUTS] {
        let mut x = [0.0f32; SIDE_INPUTS];
        for i in 1..=24 {
            let n = side[i] as u32;
            x[4 * (i - 1)] = (n >= 1) as u8 as f32;
            x[4 * (i - 1) + 1] = (n >= 2) as u8 as f32;
            x[4 * (i - 1) + 2] = (n >= 3) as u8 as f32;
            x[4 * (i - 1) + 3] = if n > 3 { (n - 3) as f32 * 0.5 } else { 0.0 };
        }
        let made = |s: &Side, i: u32| (1..=24).contains(&i) && s[i as usize] >= 2;
        let bar = side[BAR] as u32;
        let on_board: u32 = (1..=24).map(|i| side[i] as u32).sum();
        let pips: u32 = (1..=25).map(|i| side[i] as u32 * i as u32).sum();
        let outside: u32 = (7..=25).map(|i| side[i] as u32).sum();
        let rearmost = |s: &Side| (1..=25).rev().find(|&i| s[i] > 0).unwrap_or(0) as u32;
        let back = rearmost(side);
        let threats = threats_by_enumeration(side, other);
        let f = &mut x[96..];
        f[0] = bar as f32 * 0.5;
        f[1] = (15 - on_board - bar) as f32 / 15.0;
        f[2] = pips as f32 / 100.0;
        f[3] = threats.hits as f32 / 36.0;
        let (mut run, mut longest) = (0, 0);
        for i in 1..=24 {
            run = if made(side, i) { run + 1 } else { 0 };
            longest = longest.max(run);
        }
        f[4] = longest as f32 / 6.0;
        let closed = (1..=6).filter(|&i| made(other, i)).count() as f32 / 6.0;
        f[5] = 1.0 - closed * closed;
        f[6] = outside as f32 / 15.0;
        // The rearmost checker on our point `back` is on the opponent's point 25 - back.
        f[7] =
            if back > 0 { escapes_by_enumeration(|i| made(other, i), 25 - back) as f32 / 36.0 } else { 1.0 };
        let fewest = (1..=10).map(|q| escapes_by_enumeration(|i| made(side, i), q)).min().unwrap();
        f[8] = 1.0 - fewest as f32 / 36.0;
        // Contact: the opponent's rearmost checker stands on our point 25 - its point.
        let contact = match rearmost(other) {
            0 => 0,
            r => ((26 - r)..=25).map(|i| side[i as usize] as u32 * (i - (25 - r))).sum(),
        };
        f[9] = contact as f32 / 100.0;
        f[10] = back as f32 / 24.0;
        f[11] = (1..=24).rev().find(|&i| made(side, i)).unwrap_or(0) as f32 / 24.0;
        f[12] = threats.doubles as f32 / 36.0;
        f[13] = threats.pips as f32 / (36.0 * 12.0);
        f[14] = (18..=24).find(|&i| made(side, i)).map_or(0, |i| 25 - i) as f32 / 7.0;
        let held: u32 = (1..=6).filter(|&i| made(side, i)).map(|i| 2 * i).sum();
        f[15] = (pips - held) as f32 / 100.0;
        let mut mobility = 0;
        for d in 1..=6 {
            for i in 1..=25 {
                let to = i as i32 - d;
                mobility += (side[i] > 0 && to >= 1 && !made(other, 25 - to as u32)) as u32;
            }
        }
        f[16] = mobility as f32 / 36.0;
        x
    }

    /// The inputs of `position` by [`side_by_definition`].
    fn encode_by_definition(position: &Position) -> [f32; INPUTS] {
        let (ours, theirs) = sides(position);
        let mut x = [0.0; INPUTS];
        x[..SIDE_INPUTS].copy_from_slice(&side_by_definition(&ours, &theirs));
        x[SIDE_INPUTS..].copy_from_slice(&side_by_definition(&theirs, &ours));
        x
    }

    /// Where a checker of a random position goes: points of every kind, home boards and the
    /// back more often, the bar (25) and the tray (26).
    fn slot() -> impl Strategy<Value = u8> {
        prop_oneof![1u8..=6, 1u8..=26, 1u8..=25, Just(26u8), 19u8..=25]
    }

    /// A side's fifteen checkers as slots: at random, or first two on each point of a run of up to
    /// seven from a random point (primes, rare at random), the rest at random.
    fn checkers() -> impl Strategy<Value = Vec<u8>> {
        (1u8..=24, 0u8..=7, prop::collection::vec(slot(), 15)).prop_map(|(start, run, rest)| {
            let mut slots: Vec<u8> = (0..run).flat_map(|k| [start + k; 2]).filter(|&s| s <= 24).collect();
            slots.extend(rest);
            slots.truncate(15);
            slots
        })
    }

    /// Random positions: fifteen checkers a side dropped on slots, one of the other side's
    /// going to the tray where ours hold its point; the rare deadlock (both sides on the bar
    /// against closed boards), which no game reaches, left out.
    fn random_position() -> impl Strategy<Value = Position> {
        (checkers(), checkers()).prop_filter_map("a position a game can reach", |(ours, theirs)| {
            let mut board = [0i8; 26];
            for &s in &ours {
                if (1..=25).contains(&s) {
                    board[s as usize] += 1;
                }
            }
            for &s in &theirs {
                let s = 25 - s as i32;
                if (0..=24).contains(&s) && board[s as usize] <= 0 {
                    board[s as usize] -= 1;
                }
            }
            Position::from_board(board).ok()
        })
    }

    /// Bit-level equality of two encodings, naming the first input that differs.
    fn same_bits(got: &[f32; INPUTS], want: &[f32; INPUTS]) -> std::result::Result<(), TestCaseError> {
        for i in 0..INPUTS {
            prop_assert_eq!(
                got[i].to_bits(),
                want[i].to_bits(),
                "input {} ({} against {})",
                i,
                got[i],
                want[i]
            );
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The encoder against the definition, on random positions and their swaps.
        #[test]
        fn encoding_matches_the_definition(p in random_position()) {
            for q in [p, p.swapped()] {
                let mut x = [0.0; INPUTS];
                encode(&q, &mut x);
                same_bits(&x, &encode_by_definition(&q))?;
            }
        }

        /// Every candidate of a random roll seen from the reference (the path the evaluation
        /// takes) against the definition: the differences it visits, the inputs it leaves alone,
        /// its class and the reference it turns into.
        #[test]
        fn candidates_seen_from_the_reference_match_the_definition(p in random_position(), roll in 0u8..36) {
            let dice = gammon_backgammon::Dice::from_outcome(roll);
            let reference = Reference::new(&p.swapped());
            same_bits(&reference.x, &encode_by_definition(&p.swapped()))?;
            for play in p.legal_plays(dice) {
                let after = play.position.swapped();
                let want = encode_by_definition(&after);
                for touched in [touched(&play), touched_between(&p, &play.position)] {
                    let nearby = reference.nearby(&after, touched);
                    // Each difference visited must be the definition's value less the
                    // reference's, in f32 (a wrong one leaves NaN); an input not visited must
                    // not have changed.
                    let mut got = reference.x;
                    nearby.changes(|i, d| {
                        let right = d.to_bits() == (want[i] - reference.x[i]).to_bits();
                        got[i] = if right { want[i] } else { f32::NAN };
                    });
                    same_bits(&got, &want)?;
                    same_bits(&nearby.turned().x, &encode_by_definition(&after.swapped()))?;
                    prop_assert_eq!(nearby.all_home(), crate::bearoff::home_boards(&after).is_some());
                    prop_assert_eq!(nearby.is_race(), after.is_race());
                }
            }
        }
    }

    #[test]
    fn initial_position_encodes_symmetrically() {
        let mut x = [0.0; INPUTS];
        encode(&Position::initial(), &mut x);
        assert_eq!(x[..SIDE_INPUTS], x[SIDE_INPUTS..]);
        // Two checkers on the 24-point, five on the 6-point.
        assert_eq!(x[4 * 23..4 * 24], [1.0, 1.0, 0.0, 0.0]);
        assert_eq!(x[4 * 5..4 * 6], [1.0, 1.0, 1.0, 1.0]);
        assert!((x[96 + 2] - 1.67).abs() < 1e-6);
    }
}
