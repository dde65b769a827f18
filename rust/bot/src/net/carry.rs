//! Hidden sums carried from one turn of a game to a later one on the same thread.
//!
//! Every choice starts from the hidden sums of the position before the roll, seen with the turn
//! passed ([`Prepared`](super::Prepared)): summed afresh, that is one row of the first layer for
//! each of the 50 or so non-zero inputs, some eighth of a rollout game of `net`. Two turns
//! later the same side sees a position that only the two plays between have changed, about 21
//! inputs on average, so the sums kept from then and those differences give the new ones for
//! less. They are the fresh sums up to rounding, not to the bit, so what a thread computed before
//! shows in the last bits: a driver that must give the same games whatever thread plays them
//! (rollouts, duels) calls [`forget`] at the start of each game and wherever a step may have been
//! made on another thread. Only choices asked for it carry sums
//! ([`Prepared::carrying_sums`](super::Prepared::carrying_sums)); the bot's own evaluations never do.

use super::inputs::INPUTS;
use super::network::{Network, MAX_HIDDEN};
use std::cell::RefCell;

/// How many inputs may differ from those of kept sums for these to be carried: beyond that,
/// summing afresh costs about as much.
const MOST_CHANGES: usize = 40;

/// How many times in a row sums may be carried before they are summed afresh, which bounds the
/// rounding that carrying gathers.
const MOST_CARRIES: u32 = 32;

/// A net's hidden sums for some inputs.
struct Kept {
    /// The address of the net, which identifies it while it is borrowed; 0 for an empty slot.
    net: usize,
    x: [f32; INPUTS],
    sums: [f32; MAX_HIDDEN],
    /// How many carries made these sums since they were last summed afresh.
    carries: u32,
}

/// The sums of the last two positions a choice carrying sums started from on this thread: the
/// side on roll two turns ago saw the position whose sums the next choice of that side carries.
struct Slots {
    kept: [Kept; 2],
    /// The slot written last.
    last: usize,
}

const EMPTY: Kept = Kept { net: 0, x: [0.0; INPUTS], sums: [0.0; MAX_HIDDEN], carries: 0 };

thread_local! {
    static SLOTS: RefCell<Slots> = const { RefCell::new(Slots { kept: [EMPTY, EMPTY], last: 0 }) };
}

/// Forgets every sum kept on this thread, so that the next choices carrying sums on it start
/// afresh and come out the same as on any other thread.
pub fn forget() {
    SLOTS.with_borrow_mut(|slots| {
        for kept in &mut slots.kept {
            kept.net = 0;
        }
    });
}

/// `net`'s hidden sums for inputs `x` into `sums`: carried from sums kept on this thread whose
/// inputs differ from `x` in at most [`MOST_CHANGES`] places, else summed afresh; either way kept
/// for the choices that follow.
pub(super) fn hidden_sums(net: &Network, x: &[f32; INPUTS], sums: &mut [f32]) {
    SLOTS.with_borrow_mut(|slots| {
        // The rows are added by the same code compiled for the CPU's widest vectors, as in the
        // evaluation that calls this: a closure is compiled without its caller's features.
        #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
        {
            if std::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU supports AVX-512F, checked just above.
                return unsafe { carry_avx512(slots, net, x, sums) };
            }
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2, checked just above.
                return unsafe { carry_avx2(slots, net, x, sums) };
            }
        }
        carry(slots, net, x, sums)
    })
}

#[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
#[target_feature(enable = "avx512f")]
unsafe fn carry_avx512(slots: &mut Slots, net: &Network, x: &[f32; INPUTS], sums: &mut [f32]) {
    carry(slots, net, x, sums)
}

#[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
#[target_feature(enable = "avx2")]
unsafe fn carry_avx2(slots: &mut Slots, net: &Network, x: &[f32; INPUTS], sums: &mut [f32]) {
    carry(slots, net, x, sums)
}

#[inline(always)]
fn carry(slots: &mut Slots, net: &Network, x: &[f32; INPUTS], sums: &mut [f32]) {
    let h = net.hidden();
    let id = net as *const Network as usize;
    let older = 1 - slots.last;
    // The same inputs again (a choice asked twice, or another policy's between): the same sums,
    // and nothing new to keep.
    for k in [slots.last, older] {
        let kept = &slots.kept[k];
        if kept.net == id && kept.x == *x {
            sums[..h].copy_from_slice(&kept.sums[..h]);
            return;
        }
    }
    // In a game the side on roll two choices ago saw the nearest position: the slot not
    // written last. The other is tried only when that one cannot serve.
    let mut changes = [(0u32, 0.0f32); INPUTS];
    let mut from = None;
    for k in [older, slots.last] {
        let kept = &slots.kept[k];
        if kept.net == id && kept.carries < MOST_CARRIES {
            if let Some(n) = differences(&kept.x, x, &mut changes) {
                from = Some((k, n));
                break;
            }
        }
    }
    let carries = match from {
        Some((k, n)) => {
            let kept = &slots.kept[k];
            sums[..h].copy_from_slice(&kept.sums[..h]);
            net.add_changes(&changes[..n], sums);
            kept.carries + 1
        }
        None => {
            net.hidden_sums(x, sums);
            0
        }
    };
    let k = 1 - slots.last;
    let slot = &mut slots.kept[k];
    slot.net = id;
    slot.x = *x;
    slot.sums[..h].copy_from_slice(&sums[..h]);
    slot.carries = carries;
    slots.last = k;
}

/// The inputs that differ from `a` to `b`, as `(input, b - a)` in increasing order, into
/// `changes`, and how many: `None` when more than [`MOST_CHANGES`] do.
#[inline(always)]
fn differences(a: &[f32; INPUTS], b: &[f32; INPUTS], changes: &mut [(u32, f32); INPUTS]) -> Option<usize> {
    let mut n = 0;
    for (c, (a, b)) in a.chunks(32).zip(b.chunks(32)).enumerate() {
        let mut mask = 0u32;
        for (k, (x, y)) in a.iter().zip(b).enumerate() {
            mask |= ((x != y) as u32) << k;
        }
        if n + mask.count_ones() as usize > MOST_CHANGES {
            return None;
        }
        while mask != 0 {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            changes[n] = ((32 * c + k) as u32, b[k] - a[k]);
            n += 1;
        }
    }
    Some(n)
}

/// How many carries made the sums kept last on this thread (0: summed afresh).
#[cfg(test)]
pub(super) fn last_carries() -> u32 {
    SLOTS.with_borrow(|slots| slots.kept[slots.last].carries)
}
