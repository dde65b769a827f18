//! The backgammon board: [`board_svg`] and its [`BoardOptions`].

use crate::svg::{arrow, die, escape, num, open};
use gammon_backgammon::board::{BAR, OFF};
use gammon_backgammon::{Dice, Error, Game, Match, Move, Position, ReadPosition, Result};
use std::fmt::Write;

/// One of the two players, seen from the player on roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Side {
    /// The player on roll ("we"), who moves from 24 towards 1.
    #[default]
    Us,
    /// The opponent.
    Them,
}

impl Side {
    /// `"us"` or `"them"`, as the markup's `data-side` and the Python keywords write it.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Us => "us",
            Side::Them => "them",
        }
    }

    /// Reads `"us"` or `"them"`.
    pub fn from_name(name: &str) -> Result<Side> {
        match name {
            "us" => Ok(Side::Us),
            "them" => Ok(Side::Them),
            _ => Err(Error::InvalidArgument(format!("a side is \"us\" or \"them\", got {name:?}"))),
        }
    }

    /// The other player.
    pub const fn other(self) -> Side {
        match self {
            Side::Us => Side::Them,
            Side::Them => Side::Us,
        }
    }

    const fn index(self) -> usize {
        match self {
            Side::Us => 0,
            Side::Them => 1,
        }
    }
}

/// The cube as drawn: its value and who owns it (`None`: centred).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CubeView {
    /// The cube's value (1 for the centred cube at the start, drawn showing 64).
    pub value: u32,
    /// Who owns it, `None` while centred.
    pub owner: Option<Side>,
}

impl Default for CubeView {
    fn default() -> CubeView {
        CubeView { value: 1, owner: None }
    }
}

/// The score of a match or money session, seen from the player on roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Score {
    /// Points won so far by `[us, them]`.
    pub points: [u32; 2],
    /// The match length, 0 for money play.
    pub length: u32,
}

/// What the picture shows beyond the checkers. `BoardOptions::default()` draws the board alone
/// with the centred cube, the player on roll at the bottom.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BoardOptions {
    /// The dice rolled by the player on roll, drawn on their half of the board.
    pub dice: Option<Dice>,
    /// The cube; `None` draws no cube (the Crawford game, a game without cube).
    pub cube: Option<CubeView>,
    /// The score and the match length, when known.
    pub score: Option<Score>,
    /// Arrows of a play, each checker move `from -> to` in the numbering of the player on roll
    /// (25 = bar, 0 = off).
    pub arrows: Vec<Move>,
    /// The position drawn is the result of the arrows' play, not the board before it: the
    /// arrows then start where the checkers were and end on them.
    pub played: bool,
    /// The player drawn at the bottom, whose point numbers are written (the player on roll by
    /// default). `data-point` always counts from the player on roll.
    pub bottom: Side,
    /// Names for `[us, them]`; a missing one is written "Player on roll" or "Opponent".
    pub names: [Option<String>; 2],
}

impl BoardOptions {
    /// The options of a plain board: the centred cube, nothing else.
    pub fn new() -> BoardOptions {
        BoardOptions { cube: Some(CubeView::default()), ..BoardOptions::default() }
    }

    /// The state of a game as its player on roll sees it: the cube (none in the Crawford game),
    /// the dice if rolled, the score when the game belongs to a match. Before the opening roll,
    /// player 0 is taken as "us".
    pub fn from_game(game: &Game) -> BoardOptions {
        let me = game.turn().unwrap_or(0);
        let context = game.context();
        let side = |player: u8| if player == me { Side::Us } else { Side::Them };
        let cube = game.rules().enabled && !context.crawford;
        let score = (context.length > 0).then(|| Score {
            points: [context.score[me as usize], context.score[1 - me as usize]],
            length: context.length,
        });
        BoardOptions {
            dice: game.dice(),
            cube: cube.then(|| CubeView { value: game.cube_value(), owner: game.cube_owner().map(side) }),
            score,
            ..BoardOptions::default()
        }
    }

    /// The current game of a match, with its score and the players' names.
    pub fn from_match(m: &Match) -> BoardOptions {
        let game = m.game();
        let me = game.turn().unwrap_or(0) as usize;
        let mut options = BoardOptions::from_game(game);
        if m.length() > 0 {
            let score = m.score();
            options.score = Some(Score { points: [score[me], score[1 - me]], length: m.length() });
        }
        let names = m.names();
        let name = |k: usize| Some(names[k].clone()).filter(|n| !n.trim().is_empty());
        options.names = [name(me), name(1 - me)];
        options
    }

    /// What a text read by [`gammon_backgammon::read_position`] carried: the match around the
    /// position (cube, score, dice) when it had one, else a plain board.
    pub fn from_read(read: &ReadPosition) -> BoardOptions {
        match &read.match_state {
            Some(m) => BoardOptions::from_match(m),
            None => BoardOptions::new(),
        }
    }
}

// The geometry, in user units. The board is frame, two halves of six points and the bar; the
// cube has a column on the left, the trays one on the right.
const MARGIN: f64 = 6.0;
const SIDE_COLUMN: f64 = 44.0;
const FRAME: f64 = 8.0;
const POINT_W: f64 = 34.0;
const R: f64 = 16.0;
const HALF_W: f64 = 6.0 * POINT_W;
const BAR_W: f64 = 36.0;
const POINT_H: f64 = 5.0 * 2.0 * R;
const GAP: f64 = 40.0;
const TEXT_H: f64 = 24.0;
const NUMBER_H: f64 = 19.0;

const FRAME_X: f64 = MARGIN + SIDE_COLUMN;
const LEFT_X: f64 = FRAME_X + FRAME;
const BAR_X: f64 = LEFT_X + HALF_W;
const RIGHT_X: f64 = BAR_X + BAR_W;
const FRAME_RIGHT: f64 = RIGHT_X + HALF_W + FRAME;
const TRAY_X: f64 = FRAME_RIGHT + 4.0;
const WIDTH: f64 = TRAY_X + SIDE_COLUMN + MARGIN;
const FRAME_Y: f64 = MARGIN + TEXT_H + NUMBER_H;
const TOP_Y: f64 = FRAME_Y + FRAME;
const BOTTOM_Y: f64 = TOP_Y + 2.0 * POINT_H + GAP;
const MID_Y: f64 = (TOP_Y + BOTTOM_Y) / 2.0;
const HEIGHT: f64 = BOTTOM_Y + FRAME + NUMBER_H + TEXT_H + MARGIN;

/// At most this many checkers are drawn on one place; a taller stack shows its count.
const DRAWN: usize = 5;

const COLOURS: [&str; 2] = ["#f6f1e4", "#2a2a2a"];
const OUTLINES: [&str; 2] = ["#5a5247", "#000"];
const COUNT_COLOURS: [&str; 2] = ["#222", "#fff"];
const ARROW_COLOUR: &str = "#1f6fd1";

/// A place where checkers stand, in the numbering of the player on roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Point(usize),
    Bar(Side),
    Tray(Side),
}

/// Where things go once it is known who sits at the bottom.
struct Layout {
    bottom: Side,
}

impl Layout {
    /// The number the bottom player gives point `n` of the player on roll.
    fn viewed(&self, n: usize) -> usize {
        match self.bottom {
            Side::Us => n,
            Side::Them => 25 - n,
        }
    }

    /// The left edge of a point's column and whether it is in the top row.
    fn column(&self, n: usize) -> (f64, bool) {
        let v = self.viewed(n);
        match v {
            1..=6 => (RIGHT_X + (6 - v) as f64 * POINT_W, false),
            7..=12 => (LEFT_X + (12 - v) as f64 * POINT_W, false),
            13..=18 => (LEFT_X + (v - 13) as f64 * POINT_W, true),
            _ => (RIGHT_X + (v - 19) as f64 * POINT_W, true),
        }
    }

    /// Whether `side` is drawn at the top.
    fn on_top(&self, side: Side) -> bool {
        side != self.bottom
    }

    /// The centre of the `k`-th checker (from 0, at most `DRAWN - 1`) on `place`.
    fn slot(&self, place: Place, k: usize) -> (f64, f64) {
        let step = k.min(DRAWN - 1) as f64 * 2.0 * R;
        match place {
            Place::Point(n) => {
                let (x, top) = self.column(n);
                let y = if top { TOP_Y + R + step } else { BOTTOM_Y - R - step };
                (x + POINT_W / 2.0, y)
            }
            // A side's checkers on the bar wait on the half where they enter: the far one.
            Place::Bar(side) => {
                let x = BAR_X + BAR_W / 2.0;
                if self.on_top(side) {
                    (x, MID_Y + GAP / 2.0 + R + step)
                } else {
                    (x, MID_Y - GAP / 2.0 - R - step)
                }
            }
            Place::Tray(side) => {
                let x = TRAY_X + SIDE_COLUMN / 2.0;
                if self.on_top(side) {
                    (x, TOP_Y + R + step)
                } else {
                    (x, BOTTOM_Y - R - step)
                }
            }
        }
    }
}

/// The board as a self-contained SVG document, seen as [`BoardOptions::bottom`] says.
///
/// Refuses arrows that no checker move could draw (from outside 1..=25, to outside 0..=24, or
/// not forwards).
///
/// ```
/// use gammon_backgammon::Position;
/// use gammon_picture::{board_svg, BoardOptions};
/// let svg = board_svg(&Position::initial(), &BoardOptions::new()).unwrap();
/// assert_eq!(svg.matches("class=\"checker\"").count(), 30);
/// assert!(svg.contains(r#"<g class="point" data-point="24""#));
/// ```
pub fn board_svg(position: &Position, options: &BoardOptions) -> Result<String> {
    for m in &options.arrows {
        if !(1..=25).contains(&m.from) || m.to > 24 || m.to >= m.from {
            return Err(Error::InvalidArgument(format!(
                "an arrow goes from a point in 1..=25 (25: the bar) to a lower one in 0..=24 (0: off), got {}/{}",
                m.from, m.to
            )));
        }
    }
    let layout = Layout { bottom: options.bottom };
    let mut out = String::with_capacity(24_000);
    let id = position.id();
    open(
        &mut out,
        "gammon-board",
        WIDTH,
        HEIGHT,
        &format!(r#" data-position="{id}""#),
        &format!("Backgammon position {id}"),
    );
    frame(&mut out);
    for n in 1..=24 {
        point(&mut out, &layout, position, n);
    }
    for side in [Side::Us, Side::Them] {
        bar(&mut out, &layout, position, side);
        tray(&mut out, &layout, position, side);
    }
    if let Some(cube) = options.cube {
        draw_cube(&mut out, &layout, cube);
    }
    if let Some(dice) = options.dice {
        // The player on roll's dice lie on the right half of their side of the board.
        let cx = if layout.on_top(Side::Us) { LEFT_X + HALF_W / 2.0 } else { RIGHT_X + HALF_W / 2.0 };
        let size = 30.0;
        die(&mut out, dice.high(), cx - size * 0.65, MID_Y, size);
        die(&mut out, dice.low(), cx + size * 0.65, MID_Y, size);
    }
    captions(&mut out, &layout, position, options);
    arrows(&mut out, &layout, position, &options.arrows, options.played);
    out.push_str("</svg>\n");
    Ok(out)
}

fn frame(out: &mut String) {
    let _ = write!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="{}" rx="4" fill="#5b3a1e"/><rect x="{}" y="{}" width="{}" height="{}" fill="#2f6a4a"/><rect x="{}" y="{}" width="{}" height="{}" fill="#2f6a4a"/><rect x="{}" y="{}" width="{}" height="{}" fill="#4a2f18"/>"##,
        num(FRAME_X),
        num(FRAME_Y),
        num(FRAME_RIGHT - FRAME_X),
        num(BOTTOM_Y + FRAME - FRAME_Y),
        num(LEFT_X),
        num(TOP_Y),
        num(HALF_W),
        num(BOTTOM_Y - TOP_Y),
        num(RIGHT_X),
        num(TOP_Y),
        num(HALF_W),
        num(BOTTOM_Y - TOP_Y),
        num(BAR_X),
        num(TOP_Y),
        num(BAR_W),
        num(BOTTOM_Y - TOP_Y),
    );
    // The trays' column.
    let _ = write!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="{}" rx="4" fill="#5b3a1e"/><rect x="{}" y="{}" width="{}" height="{}" fill="#3d2613"/><rect x="{}" y="{}" width="{}" height="{}" fill="#3d2613"/>"##,
        num(TRAY_X),
        num(FRAME_Y),
        num(SIDE_COLUMN),
        num(BOTTOM_Y + FRAME - FRAME_Y),
        num(TRAY_X + 3.0),
        num(TOP_Y),
        num(SIDE_COLUMN - 6.0),
        num(POINT_H),
        num(TRAY_X + 3.0),
        num(BOTTOM_Y - POINT_H),
        num(SIDE_COLUMN - 6.0),
        num(POINT_H),
    );
}

/// Who has checkers on point `n` and how many.
fn owner(count: i8) -> Option<Side> {
    match count {
        c if c > 0 => Some(Side::Us),
        c if c < 0 => Some(Side::Them),
        _ => None,
    }
}

fn point(out: &mut String, layout: &Layout, position: &Position, n: usize) {
    let count = position.at(n);
    let who = owner(count);
    let side_attr = who.map_or(String::new(), |s| format!(r#" data-side="{}""#, s.name()));
    let _ =
        write!(out, r#"<g class="point" data-point="{n}" data-count="{}"{side_attr}>"#, count.unsigned_abs());
    let (x, top) = layout.column(n);
    let v = layout.viewed(n);
    let fill = if v.is_multiple_of(2) { "#c9a46a" } else { "#9c3d2e" };
    let (base, tip) = if top { (TOP_Y, TOP_Y + POINT_H - 4.0) } else { (BOTTOM_Y, BOTTOM_Y - POINT_H + 4.0) };
    // A transparent rectangle over the whole column makes all of it clickable.
    let (ry, rh) = if top {
        (FRAME_Y - NUMBER_H, POINT_H + FRAME + NUMBER_H)
    } else {
        (BOTTOM_Y - POINT_H, POINT_H + FRAME + NUMBER_H)
    };
    let _ = write!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#fff" fill-opacity="0"/><polygon points="{},{} {},{} {},{}" fill="{fill}"/>"##,
        num(x),
        num(ry),
        num(POINT_W),
        num(rh),
        num(x + 1.0),
        num(base),
        num(x + POINT_W - 1.0),
        num(base),
        num(x + POINT_W / 2.0),
        num(tip),
    );
    let label_y = if top { FRAME_Y - 4.0 } else { BOTTOM_Y + FRAME + NUMBER_H - 3.0 };
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-size="15" text-anchor="middle" fill="#333">{v}</text>"##,
        num(x + POINT_W / 2.0),
        num(label_y)
    );
    if let Some(side) = who {
        checkers(out, layout, Place::Point(n), side, count.unsigned_abs() as usize);
    }
    out.push_str("</g>");
}

/// The checkers of `side` on `place`, at most [`DRAWN`] of them, the last showing the count of a
/// taller stack.
fn checkers(out: &mut String, layout: &Layout, place: Place, side: Side, count: usize) {
    let i = side.index();
    for k in 0..count.min(DRAWN) {
        let (cx, cy) = layout.slot(place, k);
        let _ = write!(
            out,
            r#"<circle class="checker" data-side="{}" cx="{}" cy="{}" r="{}" fill="{}" stroke="{}" stroke-width="1.5"/>"#,
            side.name(),
            num(cx),
            num(cy),
            num(R - 0.75),
            COLOURS[i],
            OUTLINES[i],
        );
    }
    if count > DRAWN {
        let (cx, cy) = layout.slot(place, DRAWN - 1);
        let _ = write!(
            out,
            r#"<text class="count" x="{}" y="{}" font-size="16" font-weight="bold" text-anchor="middle" fill="{}">{count}</text>"#,
            num(cx),
            num(cy + 5.5),
            COUNT_COLOURS[i],
        );
    }
}

fn bar(out: &mut String, layout: &Layout, position: &Position, side: Side) {
    let count = match side {
        Side::Us => position.at(BAR).unsigned_abs(),
        Side::Them => position.at(0).unsigned_abs(),
    };
    let point = if side == Side::Us { r#" data-point="25""# } else { "" };
    let _ = write!(out, r#"<g class="bar" data-side="{}"{point} data-count="{count}">"#, side.name());
    let y = if layout.on_top(side) { MID_Y } else { TOP_Y };
    let _ = write!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#fff" fill-opacity="0"/>"##,
        num(BAR_X),
        num(y),
        num(BAR_W),
        num(MID_Y - TOP_Y)
    );
    checkers(out, layout, Place::Bar(side), side, count as usize);
    out.push_str("</g>");
}

fn tray(out: &mut String, layout: &Layout, position: &Position, side: Side) {
    let off = position.off();
    let count = if side == Side::Us { off.0 } else { off.1 };
    let point = if side == Side::Us { format!(r#" data-point="{OFF}""#) } else { String::new() };
    let _ = write!(out, r#"<g class="tray" data-side="{}"{point} data-count="{count}">"#, side.name());
    let y = if layout.on_top(side) { TOP_Y } else { BOTTOM_Y - POINT_H };
    let _ = write!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#fff" fill-opacity="0"/>"##,
        num(TRAY_X),
        num(y),
        num(SIDE_COLUMN),
        num(POINT_H)
    );
    checkers(out, layout, Place::Tray(side), side, count as usize);
    out.push_str("</g>");
}

fn draw_cube(out: &mut String, layout: &Layout, cube: CubeView) {
    let size = 34.0;
    let cx = MARGIN + SIDE_COLUMN / 2.0;
    let cy = match cube.owner {
        None => MID_Y,
        Some(side) if layout.on_top(side) => TOP_Y + size / 2.0,
        Some(_) => BOTTOM_Y - size / 2.0,
    };
    let owner = cube.owner.map_or("centred", Side::name);
    // The centred cube at 1 shows 64, as real cubes do.
    let face = if cube.value == 1 { 64 } else { cube.value };
    let font = if face >= 1000 {
        11
    } else if face >= 100 {
        14
    } else {
        18
    };
    let _ = write!(
        out,
        r##"<g class="cube" data-value="{}" data-owner="{owner}"><rect x="{}" y="{}" width="{size}" height="{size}" rx="5" fill="#fffdf7" stroke="#333" stroke-width="1.5"/><text x="{}" y="{}" font-size="{font}" font-weight="bold" text-anchor="middle" fill="#222">{face}</text></g>"##,
        cube.value,
        num(cx - size / 2.0),
        num(cy - size / 2.0),
        num(cx),
        num(cy + font as f64 * 0.36),
    );
}

fn captions(out: &mut String, layout: &Layout, position: &Position, options: &BoardOptions) {
    let pips = position.pips();
    for side in [Side::Us, Side::Them] {
        let y = if layout.on_top(side) { MARGIN + TEXT_H - 6.0 } else { HEIGHT - MARGIN - 6.0 };
        let name = match (&options.names[side.index()], side) {
            (Some(n), Side::Us) => format!("{} (on roll)", escape(n)),
            (Some(n), Side::Them) => escape(n),
            (None, Side::Us) => "Player on roll".into(),
            (None, Side::Them) => "Opponent".into(),
        };
        let count = if side == Side::Us { pips.0 } else { pips.1 };
        let _ = write!(
            out,
            r##"<text class="pips" data-side="{}" data-value="{count}" x="{}" y="{}" font-size="17" fill="#222">{name} · {count} pips</text>"##,
            side.name(),
            num(FRAME_X),
            num(y),
        );
        if let Some(score) = options.score {
            let points = score.points[side.index()];
            let text = if score.length > 0 {
                format!("{points} of {} points", score.length)
            } else {
                format!("{points} points, money")
            };
            let _ = write!(
                out,
                r##"<text class="score" data-side="{}" data-value="{points}" data-length="{}" x="{}" y="{}" font-size="17" text-anchor="end" fill="#222">{text}</text>"##,
                side.name(),
                score.length,
                num(FRAME_RIGHT),
                num(y),
            );
        }
    }
}

/// The arrows of a play, checker by checker: each starts at the checker that leaves (the top of
/// its stack as the moves before it left it) and ends where it lands. On the board after the
/// play (`played`), our checkers are first counted back to where they stood before it.
fn arrows(out: &mut String, layout: &Layout, position: &Position, moves: &[Move], played: bool) {
    if moves.is_empty() {
        return;
    }
    out.push_str(r#"<g class="arrows">"#);
    // Our checkers on each place as the play goes on: 1..=24 points, 25 the bar, 0 the tray.
    let mut ours = [0usize; 26];
    for (n, slot) in ours.iter_mut().enumerate().take(25).skip(1) {
        *slot = position.at(n).max(0) as usize;
    }
    ours[BAR] = position.at(BAR).max(0) as usize;
    ours[OFF] = position.off().0 as usize;
    if played {
        // A checker that only passed through a point leaves its count unchanged: add all the
        // starts before taking away the landings.
        for m in moves {
            ours[m.from as usize] += 1;
        }
        for m in moves {
            ours[m.to as usize] = ours[m.to as usize].saturating_sub(1);
        }
    }
    let place = |n: usize| match n {
        BAR => Place::Bar(Side::Us),
        OFF => Place::Tray(Side::Us),
        n => Place::Point(n),
    };
    for m in moves {
        let (from, to) = (m.from as usize, m.to as usize);
        let start = layout.slot(place(from), ours[from].saturating_sub(1));
        ours[from] = ours[from].saturating_sub(1);
        let end = layout.slot(place(to), ours[to]);
        ours[to] += 1;
        arrow(out, &format!(r#" data-from="{from}" data-to="{to}""#), start, end, ARROW_COLOUR);
    }
    out.push_str("</g>");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(svg: &str, needle: &str) -> usize {
        svg.matches(needle).count()
    }

    #[test]
    fn the_initial_position_has_thirty_checkers_and_every_place() {
        let svg = board_svg(&Position::initial(), &BoardOptions::new()).unwrap();
        assert_eq!(count(&svg, r#"class="checker" data-side="us""#), 15);
        assert_eq!(count(&svg, r#"class="checker" data-side="them""#), 15);
        for n in 1..=24 {
            assert_eq!(count(&svg, &format!(r#"<g class="point" data-point="{n}" "#)), 1, "point {n}");
        }
        assert!(svg.contains(r#"<g class="bar" data-side="us" data-point="25""#));
        assert!(svg.contains(r#"<g class="bar" data-side="them" data-count"#));
        assert!(svg.contains(r#"<g class="tray" data-side="us" data-point="0""#));
        assert!(svg.contains(r#"<g class="tray" data-side="them" data-count"#));
        assert!(svg.contains(r#"<g class="cube" data-value="1" data-owner="centred">"#));
        assert_eq!(count(&svg, r#"class="die""#), 0);
        // 167 pips each: the starting count every backgammon book gives.
        assert_eq!(count(&svg, "167 pips"), 2);
    }

    #[test]
    fn a_tall_stack_shows_its_count_and_the_bar_and_trays_hold_the_rest() {
        let mut board = [0i8; 26];
        board[6] = 12;
        board[BAR] = 2;
        board[3] = -7;
        board[0] = -3;
        let p = Position::from_board(board).unwrap();
        let svg = board_svg(&p, &BoardOptions::new()).unwrap();
        // Five drawn on each tall stack, two on our bar, three on theirs; 1 and 5 off in the trays.
        assert_eq!(count(&svg, r#"class="checker""#), 5 + 5 + 2 + 3 + 1 + 5);
        assert!(svg.contains(">12</text>") && svg.contains(">7</text>"));
        assert!(svg.contains(r#"data-side="us" data-point="0" data-count="1""#));
        assert!(svg.contains(r#"<g class="tray" data-side="them" data-count="5">"#));
    }

    #[test]
    fn the_other_side_at_the_bottom_renumbers_the_labels_only() {
        let options = BoardOptions { bottom: Side::Them, ..BoardOptions::new() };
        let svg = board_svg(&Position::initial(), &options).unwrap();
        // Our 24-point is the opponent's 1-point: the label there reads 1.
        let start = svg.find(r#"data-point="24""#).unwrap();
        let group = &svg[start..start + svg[start..].find("</g>").unwrap()];
        assert!(group.contains(">1</text>"), "{group}");
    }

    #[test]
    fn dice_cube_score_and_arrows_are_drawn() {
        let p = Position::initial();
        let play = p.parse_play(Dice::new(3, 1).unwrap(), "8/5 6/5").unwrap();
        let options = BoardOptions {
            dice: Some(Dice::new(3, 1).unwrap()),
            cube: Some(CubeView { value: 4, owner: Some(Side::Them) }),
            score: Some(Score { points: [2, 4], length: 7 }),
            arrows: play.moves().to_vec(),
            names: [Some("A & B".into()), None],
            ..BoardOptions::default()
        };
        let svg = board_svg(&p, &options).unwrap();
        assert_eq!(count(&svg, r#"<g class="die" data-value="3">"#), 1);
        assert_eq!(count(&svg, r#"<g class="die" data-value="1">"#), 1);
        assert!(svg.contains(r#"<g class="cube" data-value="4" data-owner="them">"#));
        assert!(svg.contains("2 of 7 points") && svg.contains("4 of 7 points"));
        assert!(svg.contains(r#"data-from="8" data-to="5""#) && svg.contains(r#"data-from="6" data-to="5""#));
        assert!(svg.contains("A &amp; B (on roll)"));
    }

    #[test]
    fn arrows_on_the_result_end_on_the_checkers_that_moved() {
        let p = Position::initial();
        let play = p.parse_play(Dice::new(6, 4).unwrap(), "24/14").unwrap();
        let before = BoardOptions { arrows: play.moves().to_vec(), ..BoardOptions::new() };
        let after = BoardOptions { played: true, ..before.clone() };
        let a = board_svg(&p, &before).unwrap();
        let b = board_svg(&play.position, &after).unwrap();
        // The same two arrows (24/18, 18/14 or 24/20, 20/14), whichever board they are drawn on:
        // the first starts on the top checker of the 24-point and the last ends on 14's first slot.
        let lines = |svg: &str| -> Vec<String> {
            svg.split("<line ").skip(1).map(|l| l[..l.find("/>").unwrap()].to_string()).collect()
        };
        assert_eq!(lines(&a), lines(&b));
        assert_eq!(lines(&a).len(), 2);
    }

    #[test]
    fn impossible_arrows_are_refused() {
        for (from, to) in [(0, 0), (26, 3), (5, 8), (3, 25)] {
            let options = BoardOptions { arrows: vec![Move { from, to }], ..BoardOptions::new() };
            assert!(board_svg(&Position::initial(), &options).is_err(), "{from}/{to}");
        }
    }

    #[test]
    fn a_match_gives_its_score_cube_and_dice() {
        // A 7-point match at 2-4 with a 2-cube and 3-1 rolled, read by the one reader: the
        // options must carry what the reader found, seen from the player on roll.
        let read =
            gammon_backgammon::read_position("XGID=-b----E-C---eE---c-e----B-:1:1:1:31:2:4:0:7:10").unwrap();
        let options = BoardOptions::from_read(&read);
        assert_eq!(options.dice, Some(Dice::new(3, 1).unwrap()));
        let m = read.match_state.as_ref().unwrap();
        let me = m.game().turn().unwrap() as usize;
        assert_eq!(options.score.unwrap().points, [m.score()[me], m.score()[1 - me]]);
        assert_eq!(options.cube.unwrap().value, 2);
        assert!(board_svg(&read.position, &options).unwrap().contains(r#"data-value="2""#));
    }
}
