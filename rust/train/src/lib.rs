//! gammon-train: how gammon's nets are made, and the programs that make and measure them. Never
//! published: the engine, the binding and the server do not depend on it.
//!
//! Training: [`td`] (TD(lambda) self-play, in rounds that give the same weights on any thread
//! count), [`traces`] (eligibility traces), [`gradient`] (error-weighted gradients summed over
//! positions) and [`adam`] (Adam steps on batches). What the programs share: [`selfplay`]
//! (watched self-play games), [`files`] (weights and labelled positions on disk), [`log`]
//! (progress lines kept in a run's directory) and [`report`] (duel results and the benchmark
//! duel against pubeval).
//!
//! The programs are in `src/bin/`: `train`, `refine`, `train-screen`, `bot-duel` and
//! `battlegammon-duel`, each run as `cargo run --release -p gammon-train --bin NAME -- ARGS` and
//! each with `--help`.

pub mod adam;
pub mod files;
pub mod gradient;
pub mod log;
pub mod report;
pub mod selfplay;
pub mod td;
pub mod traces;

/// Defines the test every program has: its `clap` definition is consistent (no flag defined
/// twice, defaults that parse, and so on), which clap checks only when asked.
#[macro_export]
macro_rules! command_line_test {
    ($options:ty) => {
        #[test]
        fn the_command_line_is_consistent() {
            <$options as clap::CommandFactory>::command().debug_assert();
        }
    };
}
