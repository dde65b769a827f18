//! gammon-server: the gammon bot over HTTP, as JSON.
//!
//! * `GET /move` and `GET /eval` answer exactly as wildbg's HTTP API does, so hosts written for
//!   wildbg work unchanged ([`wildbg`]).
//! * `POST /v1/...` take positions as Position IDs, `PositionID:MatchID`, XGIDs or 26-int lists:
//!   ranked plays and the best play ([`plays`]), evaluations ([`evaluate`]), cube actions
//!   ([`cube`]) in the cube and score of the request or of the position's ID ([`context`]), bounded
//!   rollouts ([`rollout`], and [`stream`] for their progress as server-sent events), a game or
//!   match against the bot kept by the client ([`game`]) and the Battlegammon bot
//!   ([`battlegammon`], and [`battlegammon_game`] for a game against it).
//! * `GET /` is a web page playing and analysing with these endpoints ([`web`]).
//! * `GET /v1/board.svg` and `GET /v1/battlegammon/board.svg` draw positions as SVG ([`board`]).
//! * `GET /openapi.json` describes every endpoint ([`openapi`]); `GET /health` says the server
//!   is up.
//!
//! Every refusal is a JSON `{"message": ...}` naming what was wrong ([`error`]). The work of
//! each request runs on a pool of evaluation threads ([`work`]), apart from the threads that serve
//! connections, and every request is bounded in size, time and number ([`config::Limits`]).
//!
//! ```
//! use gammon_server::{Config, Server};
//! use std::io::{Read, Write};
//! let server = Server::start("127.0.0.1", 0, Config::default()).unwrap();
//! let mut stream = std::net::TcpStream::connect(server.address()).unwrap();
//! let head = format!("GET /health HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", server.address());
//! stream.write_all(head.as_bytes()).unwrap();
//! let mut answer = String::new();
//! stream.read_to_string(&mut answer).unwrap();
//! assert!(answer.starts_with("HTTP/1.1 200 OK"));
//! ```

#![warn(missing_docs)]

pub mod analyse;
pub mod app;
pub mod battlegammon;
pub mod battlegammon_game;
pub mod board;
pub mod config;
pub mod context;
pub mod cube;
pub mod error;
pub mod evaluate;
pub mod game;
pub mod input;
pub mod openapi;
pub mod parse_errors;
pub mod plays;
pub mod probabilities;
pub mod rollout;
pub mod serve;
pub mod state;
pub mod stream;
pub mod web;
pub mod wildbg;
pub mod work;

pub use app::router;
pub use config::{Config, Limits};
pub use error::{ApiError, ErrorMessage};
pub use openapi::ApiDoc;
pub use serve::{serve, Server, StartError};
pub use state::AppState;

#[cfg(test)]
mod tests;
