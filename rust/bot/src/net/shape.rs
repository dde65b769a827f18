//! What every net shares, whatever its layers: its five outputs, the widest first layer, the
//! reproducible draws that new weights start from, and the dot product its output logits are
//! summed with. Kept apart so that the first layer ([`network`](super::network)) and the heads
//! ([`head`](super::head), [`integer_head`](super::integer_head)) all build on it without
//! depending on each other's modules.

/// Outputs of every net: win, win gammon, win backgammon, lose gammon, lose backgammon.
pub const OUTPUTS: usize = 5;

/// The largest first hidden layer supported (scratch arrays live on the stack).
pub const MAX_HIDDEN: usize = 256;

/// Reproducible values uniform in -1..1 from `state` (splitmix64), for the starting weights of
/// new nets and units.
pub(super) fn uniform(mut state: u64) -> impl FnMut() -> f32 {
    move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    }
}

/// `start + sum a_i b_i`, the products summed in eight running sums (fixed-size arrays the
/// compiler keeps in one vector register) over whole chunks of eight, then the rest: a fixed order,
/// so that every build rounds the same.
#[inline(always)]
pub(super) fn dot_onto(start: f32, a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (ac, bc) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ac.remainder().iter().zip(bc.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ac.zip(bc) {
        let (x, y): (&[f32; 8], &[f32; 8]) = (x.try_into().unwrap(), y.try_into().unwrap());
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    start + acc.iter().sum::<f32>() + tail
}
