//! Fuzz target: see `gammon_fuzz::battlegammon`.
fn main() {
    afl::fuzz!(|data: &[u8]| gammon_fuzz::battlegammon(data));
}
