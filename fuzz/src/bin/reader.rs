//! Fuzz target: see `gammon_fuzz::reader`.
fn main() {
    afl::fuzz!(|data: &[u8]| gammon_fuzz::reader(data));
}
