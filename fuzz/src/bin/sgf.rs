//! Fuzz target: see `gammon_fuzz::sgf`.
fn main() {
    afl::fuzz!(|data: &[u8]| gammon_fuzz::sgf(data));
}
