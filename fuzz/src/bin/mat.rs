//! Fuzz target: see `gammon_fuzz::mat`.
fn main() {
    afl::fuzz!(|data: &[u8]| gammon_fuzz::mat(data));
}
