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
//!   checkers still outside this side's home board / 15.
//!
//! All inputs lie in 0..=1 except the stacked-point unit and the bar (up to 6).

// Loops run over point numbers, which index several arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::board::{Position, BAR};

/// Inputs for one side.
pub const SIDE_INPUTS: usize = 24 * 4 + 7;
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
#[derive(Clone, Copy, Debug, Default)]
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
}

impl Summary {
    fn of(side: &Side) -> Summary {
        let mut s = Summary::default();
        let mut on_board = 0u32;
        for i in 1..=24 {
            let n = side[i] as u32;
            s.pips += n * i as u32;
            on_board += n;
            s.outside += if i > 6 { n } else { 0 };
            s.occupied |= ((n >= 1) as u32) << i;
            s.blots |= ((n == 1) as u32) << i;
            s.made |= ((n >= 2) as u32) << i;
        }
        s.bar = side[BAR] as u32;
        s.pips += 25 * s.bar;
        s.outside += s.bar;
        s.off = 15 - (on_board + s.bar);
        s
    }
}

/// How many of the 36 rolls let the `attacker` hit at least one blot of `defender` (both in
/// their own numbering). Direct and combination shots count; a combination needs a landing spot
/// the defender has not made. The rule that checkers on the bar must enter first is ignored, as
/// are hits by checkers still to enter beyond the first: it is an input, not an exact count.
pub fn shots(defender: &Side, attacker: &Side) -> u32 {
    shots_between(&Summary::of(defender), &Summary::of(attacker))
}

fn shots_between(defender: &Summary, attacker: &Summary) -> u32 {
    let blots = defender.blots;
    if blots == 0 {
        return 0;
    }
    // The defender's point i is the attacker's point 25 - i (bit reversal of bits 1..=24);
    // attacker positions in the defender's numbering grow as the attacker moves, from 0 (its
    // bar) upwards.
    let from = (attacker.occupied.reverse_bits() >> 6) | (attacker.bar > 0) as u32;
    let open = !defender.made & 0x1FF_FFFF;
    // Where one die of each size lands (open points only), shared by the rolls that use it.
    let mut land = [0u32; 7];
    for d in 1..=6 {
        land[d] = (from << d) & open;
    }
    let mut count = 0;
    for d1 in 1..=6usize {
        // Doubles: up to four steps of d1, each landing open.
        let mut s = land[d1];
        for _ in 0..4 {
            if s & blots != 0 {
                count += 1;
                break;
            }
            s = (s << d1) & open;
        }
        for d2 in d1 + 1..=6 {
            let (a, b) = (land[d1], land[d2]);
            if (a | b | (a << d2) | (b << d1)) & blots != 0 {
                count += 2;
            }
        }
    }
    count
}

/// The longest run of consecutive points in `mask` (bits 1..=24).
fn longest_run(mut mask: u32) -> u32 {
    let mut run = 0;
    while mask != 0 {
        mask &= mask >> 1;
        run += 1;
    }
    run
}

/// The four units of a point holding `n` of a side's checkers.
#[inline]
fn write_point(n: u8, u: &mut [f32]) {
    u[0] = (n >= 1) as u8 as f32;
    u[1] = (n >= 2) as u8 as f32;
    u[2] = (n >= 3) as u8 as f32;
    u[3] = if n > 3 { (n - 3) as f32 * 0.5 } else { 0.0 };
}

/// The seven inputs after the point units: bar, tray and the expert features.
fn write_features(side: &Summary, other: &Summary, out: &mut [f32]) {
    let f = &mut out[96..SIDE_INPUTS];
    f[0] = side.bar as f32 * 0.5;
    f[1] = side.off as f32 / 15.0;
    f[2] = side.pips as f32 / 100.0;
    f[3] = shots_between(side, other) as f32 / 36.0;
    f[4] = longest_run(side.made) as f32 / 6.0;
    // The opponent's home board is its points 1..6.
    let closed = (other.made & 0x7E).count_ones() as f32 / 6.0;
    f[5] = 1.0 - closed * closed;
    f[6] = side.outside as f32 / 15.0;
}

/// The point units of one side: four for each of its points 1..=24.
fn write_points(side: &Side, out: &mut [f32]) {
    for i in 1..=24 {
        write_point(side[i], &mut out[4 * (i - 1)..4 * i]);
    }
}

/// Writes the [`INPUTS`] inputs of `position` (seen from the side on roll) into `out`.
pub fn encode(position: &Position, out: &mut [f32; INPUTS]) {
    let (ours, theirs) = sides(position);
    let (a, b) = out.split_at_mut(SIDE_INPUTS);
    write_points(&ours, a);
    write_points(&theirs, b);
    let summaries = [Summary::of(&ours), Summary::of(&theirs)];
    write_features(&summaries[0], &summaries[1], a);
    write_features(&summaries[1], &summaries[0], b);
}

/// Turns `out`, the inputs of a position that differs from `position` only on the points of
/// `touched` (bit `i` for point `i` in each side's own numbering: `[side on roll, other side]`)
/// and in where checkers wait on the bar or sit off, into the inputs of `position`, and pushes
/// onto `changed` the indices that may differ. Candidate plays of one roll differ from the
/// position before it in a handful of points, so this is most of the cost of [`encode`] saved.
pub fn reencode(position: &Position, touched: [u32; 2], out: &mut [f32; INPUTS], changed: &mut Vec<usize>) {
    let (ours, theirs) = sides(position);
    let summaries = [Summary::of(&ours), Summary::of(&theirs)];
    let (a, b) = out.split_at_mut(SIDE_INPUTS);
    for (half, (side, mut mask, out)) in
        [(&ours, touched[0], a), (&theirs, touched[1], b)].into_iter().enumerate()
    {
        let base = half * SIDE_INPUTS;
        mask &= 0x1FF_FFFE;
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            write_point(side[i], &mut out[4 * (i - 1)..4 * i]);
            changed.extend(base + 4 * (i - 1)..base + 4 * i);
        }
        write_features(&summaries[half], &summaries[1 - half], out);
        changed.extend(base + 96..base + SIDE_INPUTS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pos;

    /// Counts hitting rolls the slow way: every roll, every attacker checker, every order of the
    /// dice, intermediate landing spots checked against the defender's made points.
    fn shots_by_enumeration(defender: &Side, attacker: &Side) -> u32 {
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
        let mut count = 0;
        for d1 in 1..=6 {
            for d2 in 1..=6 {
                let steps: Vec<i32> = if d1 == d2 { vec![d1; 4] } else { vec![d1, d2] };
                let orders: Vec<Vec<i32>> =
                    if d1 == d2 { vec![steps.clone()] } else { vec![steps.clone(), vec![d2, d1]] };
                let hit = starts.iter().any(|&s| {
                    orders.iter().any(|order| {
                        let mut at = s;
                        for &d in order {
                            at += d;
                            if blot(at) {
                                return true;
                            }
                            if !open(at) {
                                return false;
                            }
                        }
                        false
                    })
                });
                count += hit as u32;
            }
        }
        count
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
    }

    #[test]
    fn reencoding_a_play_equals_encoding_afresh() {
        // Hits, a checker entering from the bar, one on their bar, and bear-offs.
        let positions = [
            pos!(24 => 1, 20 => 1, 13 => 4, 8 => 2, 6 => 5, 5 => 2, 1 => -2, 12 => -5, 17 => -3, 19 => -4, 21 => -1),
            pos!(25 => 1, 13 => 4, 6 => 5, 5 => 2, 4 => 1, 0 => -1, 23 => -1, 12 => -5, 19 => -5, 20 => -3),
            pos!(6 => 3, 4 => 2, 2 => 1, 1 => -2, 3 => -1, 20 => -5),
        ];
        for before in positions {
            for dice in crate::ALL_ROLLS {
                let reference = before.swapped();
                let mut ref_x = [0.0; INPUTS];
                encode(&reference, &mut ref_x);
                for play in before.legal_plays(dice) {
                    let after = play.position.swapped();
                    let mut touched = [0u32; 2];
                    for m in play.moves() {
                        touched[1] |= 1 << m.from | 1 << m.to;
                        touched[0] |= 1 << (25 - m.to);
                    }
                    let mut x = ref_x;
                    let mut changed = vec![];
                    reencode(&after, touched, &mut x, &mut changed);
                    let mut fresh = [0.0; INPUTS];
                    encode(&after, &mut fresh);
                    assert_eq!(x, fresh, "{}", play.notation());
                    for i in 0..INPUTS {
                        assert!(x[i] == ref_x[i] || changed.contains(&i), "{} input {i}", play.notation());
                    }
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
