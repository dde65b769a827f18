//! gammon-train: how gammon's nets are made, and the programs that make and measure them. Never
//! published: the engine, the binding and the server do not depend on it.
//!
//! Modules: [`td`] (TD(lambda) self-play, in rounds that give the same weights on any thread
//! count), [`traces`] (eligibility traces), [`gradient`] (error-weighted gradients summed over
//! positions) and [`adam`] (Adam steps on batches). The programs are in `src/bin/`: `train`,
//! `refine`, `train-screen`, `bot-duel` and `battlegammon-duel`, each with `--help`.

pub mod adam;
pub mod gradient;
pub mod td;
pub mod traces;
