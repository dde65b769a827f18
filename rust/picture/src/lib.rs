//! gammon-picture: SVG pictures of backgammon and Battlegammon boards, drawn in one place for the
//! Python package, the command line and the HTTP server.
//!
//! [`board_svg`] draws a backgammon [`Position`](gammon_backgammon::Position) with what
//! [`BoardOptions`] adds (dice, cube, score, names, the arrows of a play, which side sits at the
//! bottom); [`track_svg`] draws Battlegammon's track. Each returns one self-contained SVG
//! document: no external fonts or files (generic `sans-serif` only), no `<style>`, no `id`
//! attributes, so that several pictures can be inlined in one page without clashing.
//!
//! ```
//! use gammon_backgammon::{Dice, Position};
//! use gammon_picture::{board_svg, BoardOptions};
//! let options = BoardOptions { dice: Some(Dice::new(3, 1).unwrap()), ..BoardOptions::new() };
//! let svg = board_svg(&Position::initial(), &options).unwrap();
//! assert!(svg.starts_with("<svg "));
//! ```
//!
//! # The markup contract
//!
//! Pages make the pictures clickable through these elements and attributes, which stay stable.
//! Points are numbered 1..=24 from the player on roll's side, as everywhere in the engine,
//! whichever side is drawn at the bottom.
//!
//! | element | what |
//! |---|---|
//! | `<svg class="gammon-board" data-position="ID">` | the root; `ID` is the Position ID |
//! | `<g class="point" data-point="N" data-count="C" data-side="us\|them">` | point N, C checkers; `data-side` only when occupied |
//! | `<g class="bar" data-side="us" data-point="25" data-count="C">` | the player on roll's bar |
//! | `<g class="bar" data-side="them" data-count="C">` | the opponent's bar |
//! | `<g class="tray" data-side="us" data-point="0" data-count="C">` | the player on roll's borne-off checkers |
//! | `<g class="tray" data-side="them" data-count="C">` | the opponent's |
//! | `<circle class="checker" data-side="us\|them">` | one per drawn checker, inside its point, bar or tray |
//! | `<text class="count">` | the height of a stack of more than five (five checkers are drawn) |
//! | `<g class="cube" data-value="V" data-owner="us\|them\|centred">` | the cube (value 1 shows 64) |
//! | `<g class="die" data-value="D">` | each die |
//! | `<text class="pips" data-side="us\|them" data-value="P">` | each pip count |
//! | `<text class="score" data-side="us\|them" data-value="S" data-length="L">` | each score (L = 0: money) |
//! | `<g class="arrow" data-from="F" data-to="T">` | each checker move of a play, inside `<g class="arrows">` |
//!
//! Every point, bar and tray group holds a transparent rectangle over its whole area, so a click
//! anywhere on it reaches the group.
//!
//! Battlegammon ([`track_svg`]): the root is `<svg class="gammon-track" data-position="ID"
//! data-turn="white|black">`; each field is `<g class="field" data-field="K" data-count="C">`
//! (K = 1..=24), each drawn token `<circle class="token" data-side="white|black">` (a pinned one
//! also has `data-pinned="true"`), dice and arrows as above.

mod board;
mod svg;
mod track;

pub use board::{board_svg, BoardOptions, CubeView, Score, Side};
pub use track::{track_svg, TrackOptions};
