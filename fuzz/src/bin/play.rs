//! Fuzz target: see `gammon_fuzz::play`.
fn main() {
    afl::fuzz!(|data: &[u8]| gammon_fuzz::play(data));
}
