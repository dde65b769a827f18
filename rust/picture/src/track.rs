//! Battlegammon's track: [`track_svg`] and its [`TrackOptions`].

use crate::svg::{arrow, die, escape, num, open};
use gammon_backgammon::{Dice, Error, Result};
use gammon_battlegammon::{Position, Side, FIELDS};
use std::fmt::Write;

/// What the picture of a Battlegammon position shows beyond the tokens.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TrackOptions {
    /// The dice rolled by the side to move.
    pub dice: Option<Dice>,
    /// Arrows of a play: `(from_field, to_field)` pairs, drawn on the position before it.
    pub arrows: Vec<(u8, u8)>,
}

const MARGIN: f64 = 6.0;
const CELL_W: f64 = 62.0;
const CELL_H: f64 = 112.0;
const SPACE: f64 = 8.0;
const TEXT_H: f64 = 30.0;
const TOKEN_R: f64 = 13.0;
/// Tokens of a stack overlap a little, the upper one drawn over the pinned one.
const STEP: f64 = 21.0;
/// The tokens of a start field, in two columns, are smaller and overlap more.
const START_R: f64 = 10.5;
const START_STEP: f64 = 15.0;
const COLUMNS: f64 = 8.0;
const GRID_X: f64 = MARGIN;
const GRID_Y: f64 = MARGIN + TEXT_H;
const WIDTH: f64 = 2.0 * MARGIN + COLUMNS * CELL_W + (COLUMNS - 1.0) * SPACE;
const HEIGHT: f64 = GRID_Y + 3.0 * CELL_H + 2.0 * SPACE + 2.0 * 22.0 + MARGIN;
/// At most this many tokens are drawn in one column of a field; more show their count.
const DRAWN: usize = 5;

/// The row and column of a field in the serpentine of the rules: 8..1 on top (field 1, White's
/// start, at the right), 9..16 in the middle, 24..17 at the bottom (24, Black's start, at the
/// left).
fn cell(field: u8) -> (f64, f64) {
    let (row, col) = match field {
        1..=8 => (0, 8 - field),
        9..=16 => (1, field - 9),
        _ => (2, 24 - field),
    };
    (GRID_X + col as f64 * (CELL_W + SPACE), GRID_Y + row as f64 * (CELL_H + SPACE))
}

fn centre(field: u8) -> (f64, f64) {
    let (x, y) = cell(field);
    (x + CELL_W / 2.0, y + CELL_H / 2.0 + 6.0)
}

const fn colour(side: Side) -> (&'static str, &'static str) {
    match side {
        Side::White => ("#fbf8ef", "#4d463c"),
        Side::Black => ("#262626", "#000"),
    }
}

/// A Battlegammon position as a self-contained SVG document.
///
/// Refuses arrows whose fields are not on the track (1..=24).
///
/// ```
/// use gammon_battlegammon::Position;
/// use gammon_picture::{track_svg, TrackOptions};
/// let svg = track_svg(&Position::initial(), &TrackOptions::default()).unwrap();
/// assert_eq!(svg.matches("class=\"token\"").count(), 20);
/// ```
pub fn track_svg(position: &Position, options: &TrackOptions) -> Result<String> {
    for &(from, to) in &options.arrows {
        if !(1..=FIELDS).contains(&from) || !(1..=FIELDS).contains(&to) || from == to {
            return Err(Error::InvalidArgument(format!(
                "an arrow joins two different fields in 1..={FIELDS}, got {from}/{to}"
            )));
        }
    }
    let mut out = String::with_capacity(16_000);
    let id = position.id();
    open(
        &mut out,
        "gammon-track",
        WIDTH,
        HEIGHT,
        &format!(r#" data-position="{}" data-turn="{}""#, escape(&id), position.turn().name()),
        &format!("Battlegammon position {id}"),
    );
    // The way the tokens travel, showing through the spaces between the fields.
    let path: Vec<String> = (1..=FIELDS).map(centre).map(|(x, y)| format!("{},{}", num(x), num(y))).collect();
    let _ = write!(
        out,
        r##"<polyline points="{}" fill="none" stroke="#b9b1a0" stroke-width="5" stroke-linejoin="round"/>"##,
        path.join(" ")
    );
    for field in 1..=FIELDS {
        draw_field(&mut out, position, field);
    }
    let turn = position.turn();
    let title = match position.winner() {
        Some(w) => format!("{w} has won"),
        None => format!("{turn} to move"),
    };
    let _ = write!(
        out,
        r##"<text class="turn" data-side="{}" x="{}" y="{}" font-size="17" font-weight="bold" fill="#222">{title}</text>"##,
        turn.name(),
        num(GRID_X),
        num(MARGIN + 19.0)
    );
    if let Some(dice) = options.dice {
        let size = 24.0;
        let right = WIDTH - MARGIN - size / 2.0;
        die(&mut out, dice.high(), right - size - 6.0, MARGIN + 13.0, size);
        die(&mut out, dice.low(), right, MARGIN + 13.0, size);
    }
    let bottom = GRID_Y + 3.0 * CELL_H + 2.0 * SPACE;
    for (k, side) in Side::BOTH.into_iter().enumerate() {
        let _ = write!(
            out,
            r##"<text class="summary" data-side="{}" x="{}" y="{}" font-size="14" fill="#222">{side}: {} on {}'s colour, {} in the goal · {} pips</text>"##,
            side.name(),
            num(GRID_X),
            num(bottom + 17.0 + k as f64 * 22.0),
            position.on_opponent_colour(side),
            side.opponent(),
            position.in_goal(side),
            position.pips(side),
        );
    }
    if !options.arrows.is_empty() {
        out.push_str(r#"<g class="arrows">"#);
        for &(from, to) in &options.arrows {
            let attributes = format!(r#" data-from="{from}" data-to="{to}""#);
            arrow(&mut out, &attributes, centre(from), centre(to), "#1f6fd1");
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>\n");
    Ok(out)
}

fn draw_field(out: &mut String, position: &Position, field: u8) {
    let tokens = position.tokens(field);
    let (x, y) = cell(field);
    let _ = write!(out, r#"<g class="field" data-field="{field}" data-count="{}">"#, tokens.len());
    // Fields 1..=12 have White's colour, 13..=24 Black's.
    let fill = if field <= 12 { "#eadfc6" } else { "#9da3ab" };
    let start = field == 1 || field == FIELDS;
    let (stroke, width) = if start { ("#8a1c1c", 3.0) } else { ("#6b6356", 1.0) };
    let _ = write!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="{}" rx="6" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/><text x="{}" y="{}" font-size="13" fill="#333">{field}</text>"##,
        num(x),
        num(y),
        num(CELL_W),
        num(CELL_H),
        num(x + 5.0),
        num(y + 15.0),
    );
    if start {
        let owner = if field == 1 { Side::White } else { Side::Black };
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-size="11" text-anchor="end" fill="#8a1c1c">start</text>"##,
            num(x + CELL_W - 5.0),
            num(y + 15.0),
        );
        // The owner's tokens still to leave on the left, the opponent's finished ones on the right.
        let own = position.at_start(owner) as usize;
        let finished = position.in_goal(owner.opponent()) as usize;
        column(out, (x + CELL_W * 0.29, y), &vec![owner; own], false, (START_R, START_STEP));
        column(out, (x + CELL_W * 0.71, y), &vec![owner.opponent(); finished], false, (START_R, START_STEP));
    } else {
        column(out, (x + CELL_W / 2.0, y), &tokens, true, (TOKEN_R, STEP));
    }
    out.push_str("</g>");
}

/// Tokens bottom to top in one column of a field whose cell has its top at `top`, each of
/// radius `r`, `step` apart; with `pins`, every token under another is pinned.
fn column(out: &mut String, (cx, top): (f64, f64), tokens: &[Side], pins: bool, (r, step): (f64, f64)) {
    let base = top + CELL_H - r - 6.0;
    for (k, &side) in tokens.iter().take(DRAWN).enumerate() {
        let (fill, stroke) = colour(side);
        let pinned = if pins && k + 1 < tokens.len() { r#" data-pinned="true""# } else { "" };
        let _ = write!(
            out,
            r#"<circle class="token" data-side="{}"{pinned} cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#,
            side.name(),
            num(cx),
            num(base - k as f64 * step),
            num(r),
        );
    }
    if tokens.len() > DRAWN {
        let (_, stroke) = colour(tokens[DRAWN - 1]);
        let text = if tokens[DRAWN - 1] == Side::White { "#222" } else { "#fff" };
        let _ = write!(
            out,
            r#"<text class="count" x="{}" y="{}" font-size="13" font-weight="bold" text-anchor="middle" fill="{text}" stroke="{stroke}" stroke-width="0">{}</text>"#,
            num(cx),
            num(base - (DRAWN - 1) as f64 * step + 4.5),
            tokens.len(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setup_shows_every_field_and_token() {
        let svg = track_svg(&Position::initial(), &TrackOptions::default()).unwrap();
        for field in 1..=FIELDS {
            assert_eq!(svg.matches(&format!(r#"<g class="field" data-field="{field}" "#)).count(), 1);
        }
        // The setup of the rules: ten tokens a side, five on each start field.
        assert_eq!(svg.matches(r#"class="token" data-side="white""#).count(), 10);
        assert_eq!(svg.matches(r#"class="token" data-side="black""#).count(), 10);
        assert!(svg.contains(r#"data-field="24" data-count="5""#));
        assert!(svg.contains("Black to move"));
    }

    #[test]
    fn a_stack_pins_its_lower_token_and_dice_and_arrows_are_drawn() {
        let p = Position::initial();
        let dice = Dice::new(4, 2).unwrap();
        let play = p.legal_plays(dice).into_iter().find(|q| q.move_pairs() == [(20, 16), (19, 17)]).unwrap();
        let svg = track_svg(&play.position, &TrackOptions::default()).unwrap();
        // Black's token from 20 lands on Black's own token on 16: a stack of two, the lower one
        // pinned, as are the lower tokens of White's setup stacks on 8 and 9 (the rules' setup).
        assert!(svg.contains(r#"data-field="16" data-count="2""#));
        assert_eq!(svg.matches(r#"data-pinned="true""#).count(), 3);
        let options = TrackOptions { dice: Some(dice), arrows: play.move_pairs() };
        let svg = track_svg(&p, &options).unwrap();
        assert_eq!(svg.matches(r#"class="die""#).count(), 2);
        assert!(svg.contains(r#"data-from="20" data-to="16""#));
        assert!(track_svg(&p, &TrackOptions { arrows: vec![(0, 3)], ..TrackOptions::default() }).is_err());
    }
}
