//! `GET /v1/board.svg` and `GET /v1/battlegammon/board.svg`: pictures of positions, drawn by
//! `gammon-picture` (its crate documentation has the markup contract pages rely on).

use crate::error::{ApiError, ApiResult, ErrorMessage};
use crate::input::{at_position, DiceInput, PositionInput};
use axum::extract::RawQuery;
use axum::http::header;
use axum::response::IntoResponse;
use gammon_picture::{board_svg, track_svg, BoardOptions, Side, TrackOptions};
use serde::Deserialize;
use utoipa::IntoParams;

/// The query of `GET /v1/board.svg`.
#[derive(Clone, Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct BoardQuery {
    /// The position: a Position ID, `PositionID:MatchID`, an XGID, 26 ints written as text,
    /// `initial` or `opening`. A `PositionID:MatchID` or a whole XGID also gives the cube, the
    /// score and the dice rolled.
    #[param(example = "4HPwATDgc/ABMA")]
    pub position: String,
    /// The dice, as `31` or `3-1`; default: those of the position's ID, if rolled.
    #[param(example = "31")]
    pub dice: Option<String>,
    /// A play of those dice in notation (`8/5 6/5`), drawn as arrows on the board before it.
    #[param(example = "8/5 6/5")]
    pub play: Option<String>,
    /// The side drawn at the bottom: `us` (the player on roll, the default) or `them`.
    #[param(example = "us")]
    pub bottom: Option<String>,
}

/// The query of `GET /v1/battlegammon/board.svg`.
#[derive(Clone, Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TrackQuery {
    /// The position's ID (`b:wwwww////w///ww/ww///////b///bb/bb////bbbbb` is the setup), or
    /// `initial`.
    #[param(example = "initial")]
    pub position: String,
    /// The dice of the side to move, as `42` or `4-2`.
    #[param(example = "42")]
    pub dice: Option<String>,
}

/// The query string read into `T`; a malformed one, an unknown or a missing parameter is a 400.
fn query<T: for<'de> Deserialize<'de>>(raw: Option<&str>) -> ApiResult<T> {
    serde_urlencoded::from_str(raw.unwrap_or(""))
        .map_err(|e| ApiError::bad_request(format!("the query string is refused: {e}")))
}

fn svg(text: String) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "image/svg+xml")], text)
}

/// A picture of a backgammon position as SVG, with its cube, score and dice when the position's
/// ID carries them, and optionally the arrows of a play.
#[utoipa::path(
    get,
    path = "/v1/board.svg",
    tag = "pictures",
    params(BoardQuery),
    responses(
        (status = 200, description = "the board as an SVG document", content_type = "image/svg+xml", body = String),
        (status = 400, description = "a parameter is missing, unknown or malformed", body = ErrorMessage),
    )
)]
pub async fn get_board(RawQuery(raw): RawQuery) -> ApiResult<impl IntoResponse> {
    let q: BoardQuery = query(raw.as_deref())?;
    let read = PositionInput::Text(q.position).read()?;
    let mut options = BoardOptions::from_read(&read);
    if let Some(text) = &q.dice {
        options.dice = Some(DiceInput::Text(text.clone()).read()?);
    }
    if let Some(text) = &q.bottom {
        options.bottom =
            Side::from_name(text).map_err(|e| ApiError::bad_request(format!("bottom: {}", e.message())))?;
    }
    if let Some(text) = &q.play {
        let dice = options.dice.ok_or_else(|| ApiError::bad_request("play: needs the dice it plays"))?;
        let play = read
            .position
            .parse_play(dice, text)
            .map_err(|e| ApiError::bad_request(format!("play: {}", e.message())))?;
        options.arrows = play.moves().to_vec();
    }
    let text = board_svg(&read.position, &options).map_err(at_position)?;
    Ok(svg(text))
}

/// A picture of a Battlegammon position as SVG: the track of 24 fields with its stacks.
#[utoipa::path(
    get,
    path = "/v1/battlegammon/board.svg",
    tag = "pictures",
    params(TrackQuery),
    responses(
        (status = 200, description = "the track as an SVG document", content_type = "image/svg+xml", body = String),
        (status = 400, description = "a parameter is missing, unknown or malformed", body = ErrorMessage),
    )
)]
pub async fn get_track(RawQuery(raw): RawQuery) -> ApiResult<impl IntoResponse> {
    let q: TrackQuery = query(raw.as_deref())?;
    let position = gammon_battlegammon::read_position(&q.position).map_err(at_position)?;
    let dice = q.dice.map(|text| DiceInput::Text(text).read()).transpose()?;
    let text =
        track_svg(&position, &TrackOptions { dice, ..TrackOptions::default() }).map_err(at_position)?;
    Ok(svg(text))
}

#[cfg(test)]
mod tests {
    use crate::app::router;
    use crate::config::Config;
    use crate::state::AppState;
    use axum::body::Body;
    use axum::http::{header, Request, StatusCode};
    use gammon_backgammon::{Dice, Position};
    use gammon_picture::{board_svg, track_svg, BoardOptions, TrackOptions};
    use tower::ServiceExt;

    /// The status, the content type and the body of a GET.
    async fn get(uri: &str) -> (StatusCode, String, String) {
        let app = router(AppState::new(Config { threads: Some(1), ..Config::default() }).unwrap());
        let response = app.oneshot(Request::get(uri).body(Body::empty()).unwrap()).await.unwrap();
        let status = response.status();
        let kind =
            response.headers().get(header::CONTENT_TYPE).map_or("", |v| v.to_str().unwrap()).to_string();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 24).await.unwrap();
        (status, kind, String::from_utf8(bytes.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn the_board_is_the_pictures_crates_drawing() {
        let (status, kind, body) = get("/v1/board.svg?position=4HPwATDgc/ABMA&dice=31").await;
        assert_eq!((status, kind.as_str()), (StatusCode::OK, "image/svg+xml"));
        let options = BoardOptions { dice: Some(Dice::new(3, 1).unwrap()), ..BoardOptions::new() };
        assert_eq!(body, board_svg(&Position::initial(), &options).unwrap());
        // The play's arrows, and the dice of a whole XGID.
        let (status, _, body) =
            get("/v1/board.svg?position=initial&dice=3-1&play=8/5%206/5&bottom=them").await;
        assert_eq!(status, StatusCode::OK);
        assert!(body.contains(r#"data-from="8" data-to="5""#));
        let xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:31:2:4:0:7:10";
        let (status, _, body) = get(&format!("/v1/board.svg?position={xgid}")).await;
        assert_eq!(status, StatusCode::OK);
        assert!(body.contains(r#"<g class="die" data-value="3">"#) && body.contains("of 7 points"));
    }

    #[tokio::test]
    async fn the_track_is_the_pictures_crates_drawing() {
        let (status, kind, body) = get("/v1/battlegammon/board.svg?position=initial&dice=42").await;
        assert_eq!((status, kind.as_str()), (StatusCode::OK, "image/svg+xml"));
        let options = TrackOptions { dice: Some(Dice::new(4, 2).unwrap()), ..TrackOptions::default() };
        assert_eq!(body, track_svg(&gammon_battlegammon::Position::initial(), &options).unwrap());
    }

    #[tokio::test]
    async fn bad_queries_are_400_naming_the_parameter() {
        for (uri, word) in [
            ("/v1/board.svg", "position"),
            ("/v1/board.svg?position=nonsense", "position"),
            ("/v1/board.svg?position=initial&dice=77", "dice"),
            ("/v1/board.svg?position=initial&play=8/5", "play"),
            ("/v1/board.svg?position=initial&dice=31&play=8/2", "play"),
            ("/v1/board.svg?position=initial&bottom=left", "bottom"),
            ("/v1/board.svg?position=initial&colour=red", "colour"),
            ("/v1/battlegammon/board.svg?position=x:1", "position"),
            ("/v1/battlegammon/board.svg?position=initial&dice=0", "dice"),
        ] {
            let (status, kind, body) = get(uri).await;
            assert_eq!((status, kind.as_str()), (StatusCode::BAD_REQUEST, "application/json"), "{uri}");
            let message: serde_json::Value = serde_json::from_str(&body).unwrap();
            assert!(message["message"].as_str().unwrap().contains(word), "{uri}: {body}");
        }
    }
}
