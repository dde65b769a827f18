//! `gammon._core`: the native module behind the `gammon` Python package.
//!
//! This crate only converts types and maps errors; every rule lives in the engine's crates (`gammon-backgammon`, `gammon-bot`, `gammon-battlegammon`).

use pyo3::prelude::*;

mod analysis;
mod args;
mod batch;
mod battlegammon;
mod bot;
mod cube;
mod cube_rollout;
mod errors;
mod game;
mod met;
mod picture;
mod position;
mod reader;
mod rollout;
mod server;
mod threads;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    position::register(m)?;
    reader::register(m)?;
    batch::register(m)?;
    rollout::register(m)?;
    battlegammon::register(m)?;
    game::register(m)?;
    met::register(m)?;
    bot::register(m)?;
    server::register(m)?;
    cube::register(m)?;
    analysis::register(m)?;
    cube_rollout::register(m)?;
    Ok(())
}
