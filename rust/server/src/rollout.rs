//! `POST /v1/rollout`: a bounded Monte Carlo rollout of a position, cubeless or with the cube,
//! or of a cube decision.

use crate::context::{ContextFields, ContextView, CubeInput, MatchInput, MoneyInput};
use crate::error::{ApiError, ApiResult, ErrorMessage};
use crate::input::{self, PositionInput};
use crate::probabilities::Outcome;
use crate::state::{AppState, JsonBody};
use crate::work::Cancel;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use gammon_backgammon::{Backgammon, Position};
use gammon_bot::cube::CubeContext;
use gammon_bot::policy::RolloutPlayer;
use gammon_bot::rollout::{
    rollout_cube, rollout_cubeful_with_progress, rollout_game, CubeRollout, Progress, RolloutOptions, Start,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A rollout to run: the position and how.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RolloutRequest {
    /// The position, seen from the player on roll, who is about to roll; `opening` rolls out
    /// from before the opening roll (equity 0 by symmetry), `initial` from the starting
    /// position with a player on roll.
    pub position: PositionInput,
    /// Games to play, at least 1 and at most the server's cap (10,000 by default). Default 1296.
    #[serde(default = "default_trials")]
    #[schema(default = 1296, minimum = 1)]
    pub trials: u64,
    /// Seed of the dice: the same seed gives the same result. Default 0.
    #[serde(default)]
    pub seed: u64,
    /// Who plays both sides: `net` (the default, the bot's net judging the plays its screen ranks
    /// highest), `net-fast` (the narrower rollout net, faster and weaker), `net-all` (the bot's
    /// net judging every play), `pubeval` or `random`.
    #[serde(default = "default_policy")]
    #[schema(default = "net", example = "net")]
    pub policy: String,
    /// Stop each game after this many plies and take the evaluator's view of the rest (needs
    /// a net policy).
    #[serde(default)]
    pub truncate: Option<u32>,
    /// Subtract the luck of each roll (when the policy has an evaluator) from the cubeless
    /// figures. Default true.
    #[serde(default = "default_true")]
    pub variance_reduction: bool,
    /// `position` (the default): the position rolled out, cubeless unless a cube, match or money
    /// field is given or `cubeful` is true. `cube`: the cube decision of the player on roll
    /// rolled out, "no double" against "double, take" over the same dice.
    #[serde(default)]
    pub kind: RolloutKind,
    /// Play the cube in every game, in the context of the `cube`, `match` and `money` fields or
    /// else of the position's ID (money with a centred cube without one). Implied by any of
    /// those fields. Default false.
    #[serde(default)]
    pub cubeful: bool,
    /// Depth of the players, 0 (default) or 1 (the bot's 1-ply search for the checkers and the
    /// cube; far slower; a net policy only).
    #[serde(default)]
    pub ply: Option<i64>,
    /// The cube (default: the ID's, or a centred 1-cube), as in `/v1/cube`.
    #[serde(default)]
    pub cube: Option<CubeInput>,
    /// The match score (default: the ID's, or money), as in `/v1/cube`.
    #[serde(default, rename = "match")]
    pub match_score: Option<MatchInput>,
    /// Money play and its rules (instead of `match`), as in `/v1/cube`.
    #[serde(default)]
    pub money: Option<MoneyInput>,
}

/// What a rollout request rolls out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RolloutKind {
    /// The position.
    #[default]
    Position,
    /// The cube decision of the player on roll.
    Cube,
}

/// A cube decision rolled out: equities normalised as `/v1/cube`'s (per unit of the cube in
/// money play, equivalent to money in match play; `double_pass` is 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CubeRolloutView {
    /// Equity without doubling.
    pub no_double: f64,
    /// Equity after a double and a take.
    pub double_take: f64,
    /// Equity after a double and a pass: 1.
    pub double_pass: f64,
    /// Standard error of `no_double`.
    pub no_double_std_error: f64,
    /// Standard error of `double_take`.
    pub double_take_std_error: f64,
    /// Standard error of `double_take - no_double`, from the paired games.
    pub difference_std_error: f64,
    /// The player on roll should double.
    pub double: bool,
    /// The opponent should take.
    pub take: bool,
    /// The opponent should beaver.
    pub beaver: bool,
    /// The decision in words, as `/v1/cube` names it.
    #[schema(example = "Double, take")]
    pub label: String,
}

impl From<&CubeRollout> for CubeRolloutView {
    fn from(c: &CubeRollout) -> CubeRolloutView {
        CubeRolloutView {
            no_double: c.action.no_double,
            double_take: c.action.double_take,
            double_pass: c.action.double_pass,
            no_double_std_error: c.no_double_std_error,
            double_take_std_error: c.double_take_std_error,
            difference_std_error: c.difference_std_error,
            double: c.action.double,
            take: c.action.take,
            beaver: c.action.beaver,
            label: c.action.label(),
        }
    }
}

fn default_trials() -> u64 {
    1296
}

fn default_policy() -> String {
    "net".into()
}

fn default_true() -> bool {
    true
}

/// What a rollout found, from the view of the player on roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RolloutResponse {
    /// The Position ID rolled out.
    pub position: String,
    /// The start the request named, as it is named: `opening` (rolled out from before the
    /// opening roll) or `initial`; null for a position given any other way.
    #[schema(example = "opening")]
    pub named: Option<String>,
    /// The policy that played.
    pub policy: String,
    /// Mean outcome probabilities.
    pub probabilities: Outcome,
    /// Mean cubeless equity per unit stake.
    pub equity: f64,
    /// Standard error of the equity.
    pub std_error: f64,
    /// Standard error of each probability.
    pub std_errors: Outcome,
    /// Games played: fewer than asked when the rollout ran out of time.
    pub trials: u64,
    /// The seed of the dice.
    pub seed: u64,
    /// Wall-clock time spent.
    pub seconds: f64,
    /// True when the rollout stopped at the server's time limit before every trial was played.
    pub cancelled: bool,
}

/// What `/v1/rollout` answers: the rollout's figures and, when the cube was played, the
/// cubeful ones (null for a cubeless rollout).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CubefulRolloutResponse {
    /// The cubeless figures, as every rollout has them; in a cubeful rollout those of games cut
    /// where every cube line had ended by a pass.
    #[serde(flatten)]
    pub rollout: RolloutResponse,
    /// The cube and score the games were played in; null for a cubeless rollout.
    pub context: Option<ContextView>,
    /// Mean cubeful equity: per unit of the starting cube in money play, equivalent to money in
    /// match play (for `kind: cube`, that of not doubling); null for a cubeless rollout.
    pub cubeful_equity: Option<f64>,
    /// Standard error of `cubeful_equity`.
    pub cubeful_std_error: Option<f64>,
    /// Match winning chance of the player on roll; null but in match play.
    pub mwc: Option<f64>,
    /// Standard error of `mwc`.
    pub mwc_std_error: Option<f64>,
    /// The cube decision rolled out, for `kind: cube`; null otherwise.
    pub cube: Option<CubeRolloutView>,
}

/// A rollout, cubeless or with the cube, or of a cube decision, bounded in trials and in time.
#[utoipa::path(
    post,
    path = "/v1/rollout",
    tag = "evaluation",
    request_body = RolloutRequest,
    responses(
        (status = 200, description = "the rollout's estimates", body = CubefulRolloutResponse),
        (status = 400, description = "a field is missing, malformed or out of range", body = ErrorMessage),
        (status = 413, description = "the body is too large", body = ErrorMessage),
        (status = 415, description = "the body is not sent as application/json", body = ErrorMessage),
        (status = 503, description = "as many rollouts are running as the server runs at once (see Retry-After)", body = ErrorMessage),
    )
)]
pub async fn post_rollout(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<RolloutRequest>,
) -> Response {
    let checked = match CheckedRollout::new(&state, request) {
        Ok(checked) => checked,
        Err(refusal) => return refusal.into_response(),
    };
    // Rollouts run on their own threads, as many at once as there are, so that the short queries
    // keep their threads; one more is refused at once rather than queued.
    let slot = match state.long_job_slot("rollouts") {
        Ok(slot) => slot,
        Err(busy) => return *busy,
    };
    let limit = state.config.limits.rollout_time;
    let answer = state.rollouts.run_for(Some(limit), move |cancel| checked.run(cancel, None)).await;
    drop(slot);
    answer.map(Json).into_response()
}

/// Refuses a number of trials outside 1 and the server's cap.
pub(crate) fn check_trials(state: &AppState, trials: u64) -> ApiResult<()> {
    let cap = state.config.limits.max_rollout_trials;
    if !(1..=cap).contains(&trials) {
        return Err(ApiError::bad_request(format!("trials must be in 1..={cap}, got {trials}")));
    }
    Ok(())
}

/// A rollout request with everything it names read and in range, ready to run: what
/// `/v1/rollout` and `/v1/rollout/stream` share, so that a request means the same on both.
pub(crate) struct CheckedRollout {
    request: RolloutRequest,
    position: Position,
    named: Option<String>,
    start: Start<Position>,
    ply: u8,
    policy: RolloutPlayer,
    context: Option<CubeContext>,
}

impl CheckedRollout {
    /// Reads and checks `request`: a 400 naming the field at fault, before any rollout starts.
    pub(crate) fn new(state: &AppState, request: RolloutRequest) -> ApiResult<CheckedRollout> {
        let read = request.position.read()?;
        let start = read.rollout_start().map_err(input::at_position)?;
        check_trials(state, request.trials)?;
        let ply = match request.ply {
            None => 0,
            Some(p @ 0..=1) => p as u8,
            Some(p) => {
                return Err(ApiError::bad_request(format!("ply must be 0 or 1 for a rollout, got {p}")))
            }
        };
        let policy = RolloutPlayer::new(&request.policy, ply)?;
        let fields = ContextFields {
            cube: request.cube.as_ref(),
            match_score: request.match_score.as_ref(),
            money: request.money.as_ref(),
        };
        let given = request.cube.is_some() || request.match_score.is_some() || request.money.is_some();
        let context: Option<CubeContext> = if given || request.cubeful || request.kind == RolloutKind::Cube {
            Some(fields.resolve(&read)?.unwrap_or_default())
        } else {
            None
        };
        if request.kind == RolloutKind::Cube {
            let Start::Position(_) = start else {
                return Err(ApiError::bad_request("kind cube: nobody may double before the opening roll"));
            };
            if context.is_some_and(|c| !c.may_double()) {
                return Err(ApiError::bad_request(
                    "kind cube: the player on roll may not double in this context",
                ));
            }
        }
        let (position, named) = (read.position, read.named.map(|n| n.name().to_string()));
        Ok(CheckedRollout { request, position, named, start, ply, policy, context })
    }

    /// The context of a cube-decision rollout (`kind: cube`), in which its running figures are
    /// judged; `None` for a rollout of the position.
    pub(crate) fn decision_context(&self) -> Option<CubeContext> {
        self.context.filter(|_| self.request.kind == RolloutKind::Cube)
    }

    /// Runs the rollout (on the calling thread, which is one of the rollout pool's), reporting
    /// the running result about every 100 ms to `progress` if given, until done or `cancel` is set.
    pub(crate) fn run(
        self,
        cancel: &Cancel,
        progress: Option<Progress<'_>>,
    ) -> ApiResult<CubefulRolloutResponse> {
        let CheckedRollout { request, position, named, start, ply, policy, context } = self;
        let options = RolloutOptions {
            trials: request.trials,
            seed: request.seed,
            truncate: request.truncate,
            variance_reduction: request.variance_reduction,
            cancel: Some(cancel.clone()),
            ..RolloutOptions::default()
        };
        let (r, cube) = match (request.kind, context) {
            (RolloutKind::Cube, Some(ctx)) => {
                let Start::Position(on_roll) = start else { unreachable!("refused when checked") };
                let c = rollout_cube(&on_roll, &policy, &ctx, ply, &options, progress)?;
                let view = CubeRolloutView::from(&c);
                (c.result, Some(view))
            }
            (_, Some(ctx)) => {
                (rollout_cubeful_with_progress(start, &policy, &ctx, ply, &options, progress)?, None)
            }
            (_, None) => (rollout_game(&Backgammon, start, &policy, &options, progress)?, None),
        };
        if r.trials == 0 {
            // The time ran out while the job waited behind others: nothing to report.
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server was too busy to start the rollout in time; try again",
            ));
        }
        let rollout = RolloutResponse {
            position: position.id(),
            named,
            policy: request.policy,
            probabilities: r.probabilities.into(),
            equity: r.equity,
            std_error: r.std_error,
            std_errors: r.std_errors.into(),
            trials: r.trials,
            seed: r.seed,
            seconds: r.seconds,
            cancelled: r.cancelled,
        };
        Ok(CubefulRolloutResponse {
            rollout,
            context: context.as_ref().map(ContextView::from),
            cubeful_equity: r.cubeful_equity(),
            cubeful_std_error: r.cubeful_std_error(),
            mwc: r.mwc(),
            mwc_std_error: r.mwc_std_error(),
            cube,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::app::router;
    use crate::config::Config;
    use crate::state::AppState;
    use axum::body::Body;
    use axum::http::{header, Request, StatusCode};
    use gammon_backgammon::Position;
    use gammon_bot::cube::CubeContext;
    use gammon_bot::rollout::{rollout_cube, rollout_cubeful, RolloutOptions, Start};
    use gammon_bot::BuiltinPolicy;
    use serde_json::{json, Value};
    use tower::ServiceExt;

    async fn post(body: Value) -> (StatusCode, Value) {
        let app = router(AppState::new(Config { threads: Some(1), ..Config::default() }).unwrap());
        let request = Request::post("/v1/rollout")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        let response = app.oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 24).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    const ID: &str = "4HPwATDgc/ABMA";

    fn options() -> RolloutOptions {
        RolloutOptions { trials: 36, seed: 2, truncate: Some(4), ..RolloutOptions::default() }
    }

    #[tokio::test]
    async fn cubeful_rollouts_take_the_context_fields_of_v1_cube() {
        let body = json!({"position": ID, "trials": 36, "seed": 2, "truncate": 4, "match": {"away": [4, 2]}});
        let (status, answer) = post(body).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let ctx = CubeContext::match_play([4, 2], 1, Default::default(), false).unwrap();
        let p = Position::from_id(ID).unwrap();
        let direct = rollout_cubeful(Start::Position(p), &BuiltinPolicy::Net, &ctx, 0, &options()).unwrap();
        assert_eq!(answer["cubeful_equity"].as_f64(), direct.cubeful_equity());
        assert_eq!(answer["mwc"].as_f64(), direct.mwc());
        assert_eq!(answer["context"]["away"], json!([4, 2]));
        // Without a context field the rollout stays cubeless.
        let (_, plain) = post(json!({"position": ID, "trials": 36, "truncate": 4})).await;
        assert_eq!(plain["cubeful_equity"], Value::Null);
        assert_eq!(plain["context"], Value::Null);
    }

    #[tokio::test]
    async fn a_cube_decision_rollout_is_kind_cube() {
        let body = json!({"position": ID, "trials": 36, "seed": 2, "truncate": 4, "kind": "cube"});
        let (status, answer) = post(body).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let p = Position::from_id(ID).unwrap();
        let direct =
            rollout_cube(&p, &BuiltinPolicy::Net, &CubeContext::default(), 0, &options(), None).unwrap();
        assert_eq!(answer["cube"]["label"], json!(direct.action.label()));
        assert_eq!(answer["cube"]["double_take"].as_f64(), Some(direct.action.double_take));
        assert_eq!(answer["cube"]["difference_std_error"].as_f64(), Some(direct.difference_std_error));
        let refused = [
            json!({"position": ID, "kind": "cube", "cube": {"value": 2, "owner": "them"}}),
            json!({"position": "opening", "kind": "cube"}),
            json!({"position": ID, "kind": "both"}),
            json!({"position": ID, "ply": 2}),
            json!({"position": ID, "ply": 1, "policy": "pubeval"}),
        ];
        for body in refused {
            let (status, answer) = post(body.clone()).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body} {answer}");
            assert!(answer["message"].is_string(), "{answer}");
        }
        // A finished game is refused by the position reader, before the kind is looked at.
        let over = format!("0 -15{}", " 0".repeat(24));
        let (status, answer) = post(json!({"position": over, "kind": "cube"})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        assert!(answer["message"].as_str().unwrap().contains("borne off all 15"), "{answer}");
    }
}
