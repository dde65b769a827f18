//! `CubeContext` and `CubeAction` for Python: the cube and the score, and a cube decision.

use crate::errors::{GammonError, IntoPy};
use crate::game::Game;
use crate::position::Position;
use gammon_bot::cube::{CubeAction as EngineAction, CubeContext as EngineContext, CubeOwner, Stake};
use gammon_bot::Probabilities;
use pyo3::prelude::*;

fn owner_arg(owner: Option<&str>) -> PyResult<CubeOwner> {
    match owner {
        None => Ok(CubeOwner::Centred),
        Some("us") => Ok(CubeOwner::Us),
        Some("them") => Ok(CubeOwner::Them),
        Some(other) => {
            Err(GammonError::new_err(format!("cube owner must be None, \"us\" or \"them\", got {other:?}")))
        }
    }
}

/// A non-negative int argument, reported by `name` when it is anything else.
fn count(ob: &Bound<'_, PyAny>, name: &str) -> PyResult<u32> {
    ob.extract::<u32>()
        .map_err(|_| GammonError::new_err(format!("{name} must be a non-negative int, got {ob}")))
}

/// The cube and the score, seen from the player on roll: what a cube decision or a cubeful
/// ranking of plays needs besides the position.
///
/// Build one with `CubeContext.money(...)`, `CubeContext.match(...)` or
/// `CubeContext.from_game(game)`.
#[pyclass(module = "gammon", frozen, eq)]
#[derive(Clone, Copy, PartialEq)]
pub struct CubeContext {
    pub inner: EngineContext,
}

#[pymethods]
impl CubeContext {
    /// Money play: cube `value` owned by `owner` (None = centred, "us" = the player on roll,
    /// "them"), with or without the Jacoby rule and beavers.
    #[staticmethod]
    #[pyo3(signature = (value=None, owner=None, jacoby=false, beavers=false))]
    fn money(
        value: Option<&Bound<'_, PyAny>>,
        owner: Option<&str>,
        jacoby: bool,
        beavers: bool,
    ) -> PyResult<CubeContext> {
        let value = value.map_or(Ok(1), |v| count(v, "cube value"))?;
        Ok(CubeContext { inner: EngineContext::money(value, owner_arg(owner)?, jacoby, beavers).py_err()? })
    }

    /// Match play: `away = (we, they)` points still needed, cube `value` owned by `owner`, and
    /// whether this is the Crawford game (post-Crawford is implied when a side is 1-away).
    #[staticmethod]
    #[pyo3(name = "match", signature = (away, value=None, owner=None, crawford=false))]
    fn match_play(
        away: &Bound<'_, PyAny>,
        value: Option<&Bound<'_, PyAny>>,
        owner: Option<&str>,
        crawford: bool,
    ) -> PyResult<CubeContext> {
        let pair: (Bound<'_, PyAny>, Bound<'_, PyAny>) = away.extract().map_err(|_| {
            GammonError::new_err(format!("away must be a pair (we, they) of points needed, got {away}"))
        })?;
        let away = [count(&pair.0, "away")?, count(&pair.1, "away")?];
        let value = value.map_or(Ok(1), |v| count(v, "cube value"))?;
        let inner = EngineContext::match_play(away, value, owner_arg(owner)?, crawford).py_err()?;
        Ok(CubeContext { inner })
    }

    /// The context of `game`, seen by the player whose turn it is.
    #[staticmethod]
    fn from_game(py: Python<'_>, game: &Game) -> CubeContext {
        CubeContext { inner: game.read(py, EngineContext::from_game) }
    }

    /// The cube decision of the player on roll in `position` given its cubeless
    /// `probabilities` from any source: a `Probabilities`, a `RolloutResult`, or five numbers
    /// `(win, win_gammon, win_backgammon, lose_gammon, lose_backgammon)`, cumulative.
    fn decide(&self, position: &Position, probabilities: &Bound<'_, PyAny>) -> PyResult<CubeAction> {
        let probs = probabilities_arg(probabilities)?;
        Ok(CubeAction { inner: self.inner.decide(&position.inner, &probs) })
    }

    /// The context after the player on roll doubles and the opponent takes: twice the cube,
    /// owned by the opponent. `IllegalActionError` where the player may not double.
    fn taken(&self) -> PyResult<CubeContext> {
        Ok(CubeContext { inner: self.inner.taken().py_err()? })
    }

    /// The same context seen by the other player.
    fn swapped(&self) -> CubeContext {
        CubeContext { inner: self.inner.swapped() }
    }

    /// The cube's value.
    #[getter]
    fn value(&self) -> u32 {
        self.inner.value()
    }

    /// None while the cube is centred, else "us" or "them" (seen from the player on roll).
    #[getter]
    fn owner(&self) -> Option<&'static str> {
        match self.inner.owner() {
            CubeOwner::Centred => None,
            CubeOwner::Us => Some("us"),
            CubeOwner::Them => Some("them"),
        }
    }

    /// `(we, they)` points still needed in match play; None for money.
    #[getter]
    fn away(&self) -> Option<(u32, u32)> {
        match self.inner.stake() {
            Stake::Match { away, .. } => Some((away[0], away[1])),
            Stake::Money { .. } => None,
        }
    }

    /// This is the Crawford game.
    #[getter]
    fn crawford(&self) -> bool {
        matches!(self.inner.stake(), Stake::Match { crawford: true, .. })
    }

    /// A post-Crawford game.
    #[getter]
    fn post_crawford(&self) -> bool {
        self.inner.is_post_crawford()
    }

    /// Money play under the Jacoby rule.
    #[getter]
    fn jacoby(&self) -> bool {
        matches!(self.inner.stake(), Stake::Money { jacoby: true, .. })
    }

    /// Money play with beavers.
    #[getter]
    fn beavers(&self) -> bool {
        matches!(self.inner.stake(), Stake::Money { beavers: true, .. })
    }

    fn __repr__(&self) -> String {
        let owner = match self.owner() {
            None => "None".to_string(),
            Some(o) => format!("'{o}'"),
        };
        match self.inner.stake() {
            Stake::Money { jacoby, beavers } => format!(
                "CubeContext.money(value={}, owner={owner}, jacoby={}, beavers={})",
                self.inner.value(),
                py_bool(jacoby),
                py_bool(beavers)
            ),
            Stake::Match { away, crawford } => format!(
                "CubeContext.match(away=({}, {}), value={}, owner={owner}, crawford={})",
                away[0],
                away[1],
                self.inner.value(),
                py_bool(crawford)
            ),
        }
    }
}

/// Five cumulative probabilities from an object with the five named attributes or from a
/// sequence of five numbers, each checked to lie in 0..1 and to be consistent.
fn probabilities_arg(ob: &Bound<'_, PyAny>) -> PyResult<Probabilities> {
    let mut a = [0.0f64; 5];
    let by_name = ob.hasattr("win_gammon")?;
    for (k, name) in gammon_backgammon::Probabilities::NAMES.iter().enumerate() {
        let item = if by_name { ob.getattr(*name) } else { ob.get_item(k) };
        a[k] = item.and_then(|v| v.extract::<f64>()).map_err(|_| {
            GammonError::new_err(format!(
                "probabilities must be a Probabilities, a RolloutResult or five numbers; could not read {name} from {ob}"
            ))
        })?;
    }
    if by_name || ob.len().is_ok_and(|n| n == 5) {
        let p = Probabilities::from_array(a);
        let ok = a.iter().all(|v| (0.0..=1.0).contains(v))
            && p.win_gammon <= p.win + 1e-9
            && p.win_backgammon <= p.win_gammon + 1e-9
            && p.lose_gammon <= 1.0 - p.win + 1e-9
            && p.lose_backgammon <= p.lose_gammon + 1e-9;
        if ok {
            return Ok(p);
        }
    }
    Err(GammonError::new_err(format!(
        "probabilities must be five cumulative chances in 0..1 (win >= win_gammon >= win_backgammon, \
         1 - win >= lose_gammon >= lose_backgammon), got {ob}"
    )))
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// A cube decision for the player on roll, before rolling, and the three equities behind it,
/// normalised to the current cube (money: per cube value, so `double_pass` is 1.0; match play:
/// the equivalent money equity at the score).
#[pyclass(module = "gammon", frozen, eq)]
#[derive(Clone, Copy, PartialEq)]
pub struct CubeAction {
    pub inner: EngineAction,
}

#[pymethods]
impl CubeAction {
    /// The player on roll should double (or redouble).
    #[getter]
    fn double(&self) -> bool {
        self.inner.double
    }
    /// The opponent should take a double.
    #[getter]
    fn take(&self) -> bool {
        self.inner.take
    }
    /// The opponent should beaver (only where beavers are allowed).
    #[getter]
    fn beaver(&self) -> bool {
        self.inner.beaver
    }
    /// The player on roll may double at all.
    #[getter]
    fn may_double(&self) -> bool {
        self.inner.may_double
    }
    /// Equity without doubling.
    #[getter]
    fn no_double(&self) -> f64 {
        self.inner.no_double
    }
    /// Equity after a double and a take.
    #[getter]
    fn double_take(&self) -> f64 {
        self.inner.double_take
    }
    /// Equity after a double and a pass.
    #[getter]
    fn double_pass(&self) -> f64 {
        self.inner.double_pass
    }
    /// The equity of the right action.
    #[getter]
    fn equity(&self) -> f64 {
        self.inner.equity()
    }
    /// The decision in words, e.g. "No double, take" or "Too good to redouble, pass".
    #[getter]
    fn label(&self) -> String {
        self.inner.label()
    }

    fn __repr__(&self) -> String {
        let d = &self.inner;
        format!(
            "CubeAction('{}', no_double={:+.4}, double_take={:+.4}, double_pass={:+.4})",
            d.label(),
            d.no_double,
            d.double_take,
            d.double_pass
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<CubeContext>()?;
    m.add_class::<CubeAction>()?;
    Ok(())
}
