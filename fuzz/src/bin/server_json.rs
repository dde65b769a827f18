//! Fuzz target: see `gammon_fuzz::server_json` (feature `server`).
fn main() {
    afl::fuzz!(|data: &[u8]| gammon_fuzz::server_json(data));
}
