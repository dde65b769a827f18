//! Fuzz target: see `gammon_fuzz::position_id`.
fn main() {
    afl::fuzz!(|data: &[u8]| gammon_fuzz::position_id(data));
}
