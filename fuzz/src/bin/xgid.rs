//! Fuzz target: see `gammon_fuzz::xgid`.
fn main() {
    afl::fuzz!(|data: &[u8]| gammon_fuzz::xgid(data));
}
