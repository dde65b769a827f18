//! Fuzz target: see `gammon_fuzz::match_id`.
fn main() {
    afl::fuzz!(|data: &[u8]| gammon_fuzz::match_id(data));
}
