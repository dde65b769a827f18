//! `analyse(match, ...)` and the `Analysis` it returns: the engine's match analysis with the GIL
//! released, records converted to Python objects.

use crate::bot::Ply;
use crate::errors::{GammonError, IntoPy};
use crate::game::Match;
use gammon_analysis::{analyse as engine_analyse, Analysis as EngineAnalysis, Options, Thresholds};
use pyo3::prelude::*;
use pyo3::types::PyBool;
use std::sync::Mutex;

/// One decision of an analysed match: a checker play, a cube or take decision, or a resignation.
#[pyclass(module = "gammon", frozen, get_all)]
#[derive(Clone)]
pub struct AnalysisDecision {
    /// The game's index in the match, from 0.
    game: usize,
    /// The index in the game's history of the action that made the decision.
    action: usize,
    /// Who decided, 0 or 1.
    player: u8,
    /// `"checker"`, `"double"`, `"take"`, `"resign"` or `"accept"`.
    kind: &'static str,
    /// GNU Backgammon's Position ID before the decision, seen by the player on roll.
    position_id: String,
    /// GNU Backgammon's Match ID before the decision (with the dice for a checker play).
    match_id: String,
    /// The dice of a checker play, or None.
    dice: Option<(u8, u8)>,
    /// What was done: a play, `"double"`, `"no double"`, `"take"`, `"pass"`, ...
    played: String,
    /// The best action in the same words.
    best: String,
    /// Equity lost (equivalent money equity normalised to the cube in play).
    equity_lost: f64,
    /// The same loss in match winning chance (0 in money play).
    mwc_lost: f64,
    /// Whether the decision counts in the error rate.
    counted: bool,
    /// `""`, `"doubtful"`, `"bad"` or `"very bad"`.
    mark: &'static str,
    /// A checker play's rank (1 = the best), or None.
    rank: Option<usize>,
    /// How many distinct plays the roll had.
    alternatives: usize,
    /// The decider's equity before the decision.
    equity: f64,
    /// The decider's match winning chance before the decision (None in money play).
    mwc: Option<f64>,
    /// The luck of a checker play's roll (equity), or None.
    luck: Option<f64>,
    /// `""`, `"lucky"`, `"very lucky"`, `"unlucky"` or `"very unlucky"` (GNU Backgammon's marks).
    luck_mark: &'static str,
    /// The cube equities for the doubler (no double, double/take, double/pass), or None.
    cube_equities: Option<(f64, f64, f64)>,
    /// The bot's cube decision in words, or None.
    cube_label: Option<String>,
    /// The cube value when the decision was made.
    cube_value: u32,
}

#[pymethods]
impl AnalysisDecision {
    fn __repr__(&self) -> String {
        format!(
            "AnalysisDecision(game={}, player={}, kind={:?}, played={:?}, best={:?}, equity_lost={:.4})",
            self.game, self.player, self.kind, self.played, self.best, self.equity_lost
        )
    }
}

/// One player's totals in an analysed match.
#[pyclass(module = "gammon", frozen, get_all)]
#[derive(Clone)]
pub struct AnalysisPlayer {
    /// The name in the match file.
    name: String,
    /// Decisions in the error rate: unforced checker plays and cube decisions.
    decisions: usize,
    /// Checker plays with more than one distinct result.
    unforced_plays: usize,
    /// Close or actual cube decisions and take decisions.
    cube_decisions: usize,
    /// Equity lost in those decisions.
    equity_lost: f64,
    /// Equity lost in checker plays.
    checker_error: f64,
    /// Equity lost in cube and take decisions.
    cube_error: f64,
    /// The loss in match winning chance.
    mwc_lost: f64,
    /// mEMG per decision, as GNU Backgammon reports it.
    error_rate: f64,
    /// An eXtreme Gammon style performance rating (half the error rate).
    pr: f64,
    /// GNU Backgammon's words for the error rate.
    rating: &'static str,
    /// Total luck of the player's rolls (equity).
    luck: f64,
    /// Luck per roll (equity), GNU Backgammon's luck rate.
    luck_rate: f64,
    /// GNU Backgammon's words for the luck rate.
    luck_rating: &'static str,
    /// Rolls marked very lucky.
    very_lucky: usize,
    /// Rolls marked lucky.
    lucky: usize,
    /// Rolls marked unlucky.
    unlucky: usize,
    /// Rolls marked very unlucky.
    very_unlucky: usize,
    /// What the finished games gave: match winning chance gained since 0-0, or money points won.
    result: f64,
    /// The result minus the player's luck plus the opponent's, GNU Backgammon's luck-adjusted result.
    luck_adjusted_result: f64,
    /// Doubles missed.
    missed_doubles: usize,
    /// Doubles given wrongly.
    wrong_doubles: usize,
    /// Takes that should have been passes.
    wrong_takes: usize,
    /// Passes that should have been takes.
    wrong_passes: usize,
    /// Decisions marked doubtful.
    doubtful: usize,
    /// Decisions marked bad.
    bad: usize,
    /// Decisions marked very bad.
    very_bad: usize,
}

#[pymethods]
impl AnalysisPlayer {
    fn __repr__(&self) -> String {
        format!(
            "AnalysisPlayer(name={:?}, decisions={}, equity_lost={:.3}, error_rate={:.1}, luck={:+.3})",
            self.name, self.decisions, self.equity_lost, self.error_rate, self.luck
        )
    }
}

/// A match analysed decision by decision: `players` (two entries) and `decisions`.
#[pyclass(module = "gammon", frozen)]
pub struct Analysis {
    inner: EngineAnalysis,
    /// The match analysed, for `to_sgf`.
    analysed: gammon_backgammon::Match,
}

#[pymethods]
impl Analysis {
    /// The two players' totals.
    #[getter]
    fn players(&self) -> Vec<AnalysisPlayer> {
        self.inner
            .players
            .iter()
            .map(|p| AnalysisPlayer {
                name: p.name.clone(),
                decisions: p.decisions(),
                unforced_plays: p.unforced_plays,
                cube_decisions: p.cube_decisions,
                equity_lost: p.equity_lost(),
                checker_error: p.checker_error,
                cube_error: p.cube_error,
                mwc_lost: p.mwc_lost(),
                error_rate: p.error_rate(),
                pr: p.pr(),
                rating: p.rating(),
                luck: p.luck,
                luck_rate: p.luck_rate(),
                luck_rating: p.luck_rating(),
                very_lucky: p.very_lucky,
                lucky: p.lucky,
                unlucky: p.unlucky,
                very_unlucky: p.very_unlucky,
                result: p.result,
                luck_adjusted_result: p.luck_adjusted_result,
                missed_doubles: p.missed_doubles,
                wrong_doubles: p.wrong_doubles,
                wrong_takes: p.wrong_takes,
                wrong_passes: p.wrong_passes,
                doubtful: p.doubtful,
                bad: p.bad,
                very_bad: p.very_bad,
            })
            .collect()
    }

    /// Every decision, in game order then in the order played.
    #[getter]
    fn decisions(&self) -> Vec<AnalysisDecision> {
        self.inner
            .decisions
            .iter()
            .map(|d| AnalysisDecision {
                game: d.game,
                action: d.action,
                player: d.player,
                kind: d.kind.name(),
                position_id: d.position_id.clone(),
                match_id: d.match_id.clone(),
                dice: d.dice.map(|x| (x.high(), x.low())),
                played: d.played.clone(),
                best: d.best.clone(),
                equity_lost: d.equity_lost,
                mwc_lost: d.mwc_lost,
                counted: d.counted,
                mark: d.mark.name(),
                rank: d.rank,
                alternatives: d.alternatives,
                equity: d.equity,
                mwc: d.mwc,
                luck: d.luck,
                luck_mark: d.luck_mark().name(),
                cube_equities: d.cube_equities.map(|e| (e[0], e[1], e[2])),
                cube_label: d.cube_label.clone(),
                cube_value: d.cube_value,
            })
            .collect()
    }

    /// The match length (0 for money).
    #[getter]
    fn length(&self) -> u32 {
        self.inner.length
    }

    /// The number of games.
    #[getter]
    fn games(&self) -> usize {
        self.inner.games
    }

    /// The search depth used.
    #[getter]
    fn ply(&self) -> u8 {
        self.inner.ply
    }

    /// The analysis as JSON text: `length`, `games`, `ply`, `thresholds`, `players`, `decisions`.
    fn to_json(&self) -> String {
        self.inner.to_json()
    }

    /// The match analysed as GNU Backgammon `.sgf` text with the analysis's luck and marks on its
    /// moves, which GNU Backgammon shows when it opens the file.
    fn to_sgf(&self) -> PyResult<String> {
        self.inner.to_sgf(&self.analysed).py_err()
    }

    fn __repr__(&self) -> String {
        let p = &self.inner.players;
        format!(
            "Analysis(games={}, decisions={}, {}: {:.1}, {}: {:.1})",
            self.inner.games,
            self.inner.decisions.len(),
            p[0].name,
            p[0].error_rate(),
            p[1].name,
            p[1].error_rate()
        )
    }
}

/// Analyses every decision of `match` with the bot at `ply`; see `gammon.analyse`.
#[pyfunction]
#[pyo3(
    signature = (r#match, ply=Ply::default(), threads=None, progress=None, doubtful=0.03, bad=0.06, very_bad=0.12),
    text_signature = "(match, ply=0, threads=None, progress=None, doubtful=0.03, bad=0.06, very_bad=0.12)"
)]
#[allow(clippy::too_many_arguments)]
fn analyse(
    py: Python<'_>,
    r#match: PyRef<'_, Match>,
    ply: Ply,
    threads: Option<&Bound<'_, PyAny>>,
    progress: Option<PyObject>,
    doubtful: f64,
    bad: f64,
    very_bad: f64,
) -> PyResult<Analysis> {
    let ply = ply.depth()?;
    for (name, v) in [("doubtful", doubtful), ("bad", bad), ("very_bad", very_bad)] {
        if !v.is_finite() || v < 0.0 {
            return Err(GammonError::new_err(format!("{name} must be a finite number >= 0, got {v}")));
        }
    }
    let options = Options { ply, thresholds: Thresholds { doubtful, bad, very_bad }, ..Options::default() };
    let pool = crate::threads::pool(crate::threads::count(threads)?)?;
    let m = r#match.inner.clone();
    drop(r#match);
    let failure: Mutex<Option<PyErr>> = Mutex::new(None);
    let report = |done: usize, total: usize| -> bool {
        Python::with_gil(|py| {
            let outcome = py.check_signals().and_then(|_| match &progress {
                Some(callback) => {
                    let answer = callback.call1(py, (done, total))?;
                    Ok(!answer.bind(py).is(PyBool::new(py, false)))
                }
                None => Ok(true),
            });
            match outcome {
                Ok(go_on) => go_on,
                Err(e) => {
                    *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                    false
                }
            }
        })
    };
    let result = py.allow_threads(|| pool.install(|| engine_analyse(&m, &options, Some(&report))));
    // An error the callback raised, or Ctrl-C (KeyboardInterrupt), wins over "stopped".
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok(Analysis { inner: result.py_err()?, analysed: m })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Analysis>()?;
    m.add_class::<AnalysisDecision>()?;
    m.add_class::<AnalysisPlayer>()?;
    m.add_function(wrap_pyfunction!(analyse, m)?)?;
    Ok(())
}
