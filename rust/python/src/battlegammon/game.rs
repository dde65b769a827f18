//! The Battlegammon `Game`.

use super::position::{BgPlay, BgPosition};
use crate::args::{self, dice_pair, dice_tuple};
use crate::errors::{IllegalPlayError, IntoPy};
use gammon_battlegammon::{Game, Position};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// One game from the setup (or a given position) to a win or a draw.
#[pyclass(name = "Game", module = "gammon.battlegammon")]
pub struct BgGame {
    inner: Game,
}

/// `(from_field, to_field)` pairs from any sequence of 2-sequences of ints.
fn move_pairs(moves: &Bound<'_, PyAny>) -> PyResult<Vec<(u8, u8)>> {
    let bad = |item: &Bound<'_, PyAny>| {
        IllegalPlayError::new_err(format!(
            "a play is a Play or a list of (from_field, to_field) pairs of fields 1..24; got {item}"
        ))
    };
    let Ok(items) = moves.try_iter() else { return Err(bad(moves)) };
    items.map(|item| item.and_then(|item| item.extract::<(u8, u8)>().map_err(|_| bad(&item)))).collect()
}

#[pymethods]
impl BgGame {
    /// A new game: `seed` fixes the dice, `position` (default: the setup) where it starts, and
    /// the rule options (`maximize_dice`, `count_distinct_fields`, `turn_cap`) the rules.
    #[new]
    #[pyo3(signature = (seed=None, *, position=None, **rule_options))]
    fn new(
        seed: Option<&Bound<'_, PyAny>>,
        position: Option<BgPosition>,
        rule_options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<BgGame> {
        let rules = super::rules(rule_options)?;
        let start = position.map_or_else(Position::initial, |p| p.inner);
        Ok(BgGame { inner: Game::from_position(start, args::seed(seed)?, rules).py_err()? })
    }

    /// Rolls the dice, or uses `dice` (two ints 1..6); returns the roll, larger die first.
    #[pyo3(signature = (dice=None))]
    fn roll(&mut self, dice: Option<&Bound<'_, PyAny>>) -> PyResult<(u8, u8)> {
        let Some(given) = dice else { return Ok(dice_tuple(self.inner.roll().py_err()?)) };
        let (roll, _, _) = dice_pair(given)?;
        self.inner.set_dice(roll).py_err()?;
        Ok(dice_tuple(roll))
    }

    /// The legal plays of the rolled dice.
    fn legal_plays(&self) -> PyResult<Vec<BgPlay>> {
        Ok(self.inner.legal_plays().py_err()?.into_iter().map(|inner| BgPlay { inner }).collect())
    }

    /// Plays a `Play` or a list of `(from_field, to_field)` pairs (empty to pass an unplayable
    /// roll); returns the play made.
    fn play(&mut self, play_or_moves: &Bound<'_, PyAny>) -> PyResult<BgPlay> {
        if let Ok(play) = play_or_moves.downcast::<BgPlay>() {
            self.inner.play(&play.get().inner).py_err()?;
        } else {
            self.inner.play_moves(&move_pairs(play_or_moves)?).py_err()?;
        }
        let made = self.inner.history().last().expect("a play was just recorded");
        Ok(BgPlay { inner: made.play })
    }

    /// Whether the game has ended (a win or a draw).
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// `"white"` or `"black"` once a side has won; None while the game runs or after a draw.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.inner.winner().map(|s| s.name())
    }

    /// Whether the game ended in a draw.
    #[getter]
    fn is_draw(&self) -> bool {
        self.inner.is_draw()
    }

    /// Why the game ended: `"goal"` (three tokens on the opponent's start field), `"colour"`
    /// (eight on the opponent's colour), `"deadlock"` or `"turn_cap"`; None while it runs.
    #[getter]
    fn end_reason(&self) -> Option<&'static str> {
        self.inner.end_reason().map(|r| r.name())
    }

    /// The current position.
    #[getter]
    fn position(&self) -> BgPosition {
        BgPosition { inner: *self.inner.position() }
    }

    /// The side to move: `"white"` or `"black"`.
    #[getter]
    fn turn(&self) -> &'static str {
        self.inner.turn().name()
    }

    /// The roll waiting to be played, larger die first, or None.
    #[getter]
    fn dice(&self) -> Option<(u8, u8)> {
        self.inner.dice().map(dice_tuple)
    }

    /// Turns played so far, passes included.
    #[getter]
    fn turns(&self) -> u32 {
        self.inner.turns()
    }

    /// Every turn played, in order, as `(side, dice, play)`.
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.inner
            .history()
            .iter()
            .map(|t| {
                let play = Bound::new(py, BgPlay { inner: t.play })?.into_any();
                let items = [
                    t.side.name().into_pyobject(py)?.into_any(),
                    dice_tuple(t.dice).into_pyobject(py)?.into_any(),
                    play,
                ];
                PyTuple::new(py, items)
            })
            .collect()
    }

    /// The rule options in force, as `Game(**rule_options)` takes them.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        super::rules_dict(py, self.inner.rules())
    }

    fn __repr__(&self) -> String {
        let state = match (self.inner.winner(), self.inner.is_draw(), self.inner.dice()) {
            (Some(side), _, _) => format!("won by {}", side.name()),
            (None, true, _) => "drawn".to_string(),
            (None, false, Some(d)) => format!("{} to play {}", self.inner.turn().name(), d.to_text()),
            (None, false, None) => format!("{} to roll", self.inner.turn().name()),
        };
        format!("<Game {state} after {} turns: {}>", self.inner.turns(), self.inner.position().id())
    }
}
