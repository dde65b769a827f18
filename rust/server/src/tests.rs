//! The application called in-process through its router, without a socket: each endpoint against
//! the engine called directly, and every refusal.

use crate::app::{router, routes};
use crate::config::{Config, Limits};
use crate::state::AppState;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use gammon_backgammon::{pos, Dice, Position};
use gammon_battlegammon as battlegammon;
use gammon_bot::cube::{CubeContext, CubeOwner};
use gammon_bot::rollout::{rollout, RolloutOptions};
use gammon_bot::search::Bot;
use gammon_bot::BuiltinPolicy;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::time::{Duration, Instant};
use tower::ServiceExt;

fn app() -> axum::Router {
    router(AppState::new(Config { threads: Some(1), ..Config::default() }).unwrap())
}

async fn send(request: Request<Body>) -> (StatusCode, Value) {
    let response = app().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 24).await.unwrap();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

async fn get(uri: &str) -> (StatusCode, Value) {
    send(Request::get(uri).body(Body::empty()).unwrap()).await
}

async fn post(uri: &str, body: Value) -> (StatusCode, Value) {
    let request = Request::post(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    send(request).await
}

/// The wildbg query of a position: only the occupied points, as wildbg's clients send it.
fn board_query(p: &Position) -> String {
    let parts: Vec<String> =
        p.board().iter().enumerate().filter(|(_, &n)| n != 0).map(|(i, n)| format!("p{i}={n}")).collect();
    parts.join("&")
}

fn probabilities(v: &Value) -> [f64; 5] {
    ["win", "winG", "winBg", "loseG", "loseBg"].map(|k| v[k].as_f64().unwrap())
}

#[tokio::test]
async fn move_lists_every_legal_play_best_first_with_the_bots_values() {
    let p = Position::from_id("jGfkASjg8wcBMA").unwrap();
    let dice = Dice::new(5, 2).unwrap();
    let (status, body) = get(&format!("/move?die1=5&die2=2&{}", board_query(&p))).await;
    assert_eq!(status, StatusCode::OK);
    let moves = body["moves"].as_array().unwrap();
    let expected = Bot::new(0).unwrap().rank_plays(&p, dice, None).unwrap();
    assert_eq!(moves.len(), p.legal_plays(dice).len());
    for (entry, ranked) in moves.iter().zip(&expected) {
        let steps: Vec<(u8, u8)> = entry["play"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["from"].as_u64().unwrap() as u8, m["to"].as_u64().unwrap() as u8))
            .collect();
        let from_engine: Vec<(u8, u8)> = ranked.play.moves().iter().map(|m| (m.from, m.to)).collect();
        assert_eq!(steps, from_engine);
        let v = ranked.probabilities;
        assert_eq!(
            probabilities(&entry["probabilities"]),
            [v.win, v.win_gammon, v.win_backgammon, v.lose_gammon, v.lose_backgammon]
        );
    }
    let best = Bot::new(0).unwrap().best_play(&p, dice, None).unwrap();
    assert_eq!(expected[0].play, best.play);
}

#[tokio::test]
async fn a_blocked_roll_gives_one_empty_play() {
    // On the bar against a closed board: no roll enters.
    let p = pos!(25 => 1, 6 => 14, 19 => -2, 20 => -2, 21 => -2, 22 => -2, 23 => -2, 24 => -2);
    let (status, body) = get(&format!("/move?die1=6&die2=6&{}", board_query(&p))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["moves"].as_array().unwrap().len(), 1);
    assert_eq!(body["moves"][0]["play"], json!([]));
}

#[tokio::test]
async fn eval_gives_the_bots_probabilities() {
    let p = Position::from_id("zGbiIQgxH/AAWA").unwrap();
    let (status, body) = get(&format!("/eval?{}", board_query(&p))).await;
    assert_eq!(status, StatusCode::OK);
    let v = Bot::new(0).unwrap().evaluate(&p);
    assert_eq!(
        probabilities(&body["probabilities"]),
        [v.win, v.win_gammon, v.win_backgammon, v.lose_gammon, v.lose_backgammon]
    );
    let decision = Bot::new(0).unwrap().cube_action(&p, &CubeContext::default()).unwrap();
    assert_eq!(body["cube"], json!({"double": decision.double, "accept": decision.take}));
    // At a match score the advice comes from the match context.
    let (_, body) = get(&format!("/eval?x_away=2&o_away=4&{}", board_query(&p))).await;
    let ctx = CubeContext::match_play([2, 4], 1, CubeOwner::Centred, false).unwrap();
    let decision = Bot::new(0).unwrap().cube_action(&p, &ctx).unwrap();
    assert_eq!(body["cube"], json!({"double": decision.double, "accept": decision.take}));
}

#[tokio::test]
async fn move_at_a_match_score_ranks_by_match_equity() {
    let p = Position::initial();
    let dice = Dice::new(6, 4).unwrap();
    let ctx = CubeContext::match_play([1, 1], 1, CubeOwner::Centred, false).unwrap();
    let expected = Bot::new(0).unwrap().rank_plays(&p, dice, Some(&ctx)).unwrap();
    let (status, body) = get(&format!("/move?die1=6&die2=4&x_away=1&o_away=1&{}", board_query(&p))).await;
    assert_eq!(status, StatusCode::OK);
    let wins: Vec<f64> = body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["probabilities"]["win"].as_f64().unwrap())
        .collect();
    assert_eq!(wins, expected.iter().map(|r| r.probabilities.win).collect::<Vec<_>>());
    // At double match point only winning counts.
    assert!(wins.windows(2).all(|w| w[0] >= w[1]));
}

#[tokio::test]
async fn cube_actions_follow_the_context_of_the_request_or_the_id() {
    let p = Position::from_id("jGfkASjg8wcBMA").unwrap();
    let bot = Bot::new(0).unwrap();
    let request =
        json!({"position": "jGfkASjg8wcBMA", "cube": {"value": 2, "owner": "us"}, "money": {"jacoby": true}});
    let (status, body) = post("/v1/cube", request).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let d = bot.cube_action(&p, &CubeContext::money(2, CubeOwner::Us, true, false).unwrap()).unwrap();
    assert_eq!(body["double"], json!(d.double));
    assert_eq!(body["take"], json!(d.take));
    assert_eq!(body["no_double"].as_f64().unwrap(), d.no_double);
    assert_eq!(body["double_take"].as_f64().unwrap(), d.double_take);
    assert_eq!(body["double_pass"].as_f64().unwrap(), d.double_pass);
    assert_eq!(body["label"], json!(d.label()));
    assert_eq!(body["context"]["owner"], json!("us"));

    // A 9-point match at 2-4 with the player on roll owning a 2-cube, all from the XGID.
    let xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:4:0:9:10";
    let (status, body) = post("/v1/cube", json!({"position": xgid})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["context"]["away"], json!([7, 5]));
    let ctx = CubeContext::match_play([7, 5], 2, CubeOwner::Us, false).unwrap();
    let d = bot.cube_action(&Position::initial(), &ctx).unwrap();
    assert_eq!(body["no_double"].as_f64().unwrap(), d.no_double);

    let (status, body) = post("/v1/plays", json!({"position": xgid, "dice": [5, 2]})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let ranked = bot.rank_plays(&Position::initial(), Dice::new(5, 2).unwrap(), Some(&ctx)).unwrap();
    let equities: Vec<f64> =
        body["plays"].as_array().unwrap().iter().map(|v| v["equity"].as_f64().unwrap()).collect();
    assert_eq!(equities, ranked.iter().map(|r| r.equity).collect::<Vec<_>>());
    let (_, body) = post("/v1/best-play", json!({"position": xgid, "dice": [5, 2]})).await;
    assert_eq!(body["best"]["play"], json!(ranked[0].play.notation()));

    let over = post(
        "/v1/cube",
        json!({"position": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0]}),
    )
    .await;
    assert_eq!(over.0, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn wildbg_refusals_are_json_and_name_the_parameter() {
    for (uri, name) in [
        ("/move?die2=3", "die1"),
        ("/move?die1=0&die2=3", "die1"),
        ("/move?die1=3&die2=3&p25=-1", "p25"),
        ("/eval?p7=abc", "p7"),
        ("/eval?p0=2", "p0"),
        ("/eval?p1=9&p2=9", "p0..p25"),
        ("/eval?x_away=2", "x_away"),
    ] {
        let (status, body) = get(uri).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}");
        assert!(body["message"].as_str().unwrap().contains(name), "{uri}: {body}");
    }
}

#[tokio::test]
async fn plays_read_every_notation_and_rank_as_the_bot_does() {
    let initial_board: Vec<i8> = Position::initial().board().to_vec();
    let (bot, p, dice) = (Bot::new(1).unwrap(), Position::initial(), Dice::new(6, 4).unwrap());
    let cubeless = bot.rank_plays(&p, dice, None).unwrap();
    // A full XGID describes a money game with its cube, so its plays are ranked cubeful.
    let cubeful = bot.rank_plays(&p, dice, Some(&CubeContext::default())).unwrap();
    for (position, ranked, context) in [
        (json!("4HPwATDgc/ABMA"), &cubeless, Value::Null),
        (json!("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"), &cubeful, json!("centred")),
        (json!(initial_board), &cubeless, Value::Null),
    ] {
        let (status, body) = post("/v1/plays", json!({"position": position, "dice": [4, 6], "ply": 1})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["dice"], json!([6, 4]));
        assert_eq!(body["context"]["owner"], context);
        let plays = body["plays"].as_array().unwrap();
        assert_eq!(plays.len(), ranked.len());
        for (view, r) in plays.iter().zip(ranked) {
            assert_eq!(view["play"], json!(r.play.notation()));
            assert_eq!(view["equity"].as_f64().unwrap(), r.equity);
            assert_eq!(view["next_position"], json!(r.play.position.swapped().id()));
        }
    }
    let (status, body) =
        post("/v1/best-play", json!({"position": "4HPwATDgc/ABMA", "dice": "64", "ply": 1})).await;
    assert_eq!(status, StatusCode::OK);
    let best = Bot::new(1).unwrap().best_play(&Position::initial(), Dice::new(6, 4).unwrap(), None).unwrap();
    assert_eq!(body["best"]["play"], json!(best.play.notation()));
}

#[tokio::test]
async fn evaluate_and_rollout_match_the_engine() {
    let p = Position::from_id("jGfkASjg8wcBMA").unwrap();
    let (status, body) = post("/v1/evaluate", json!({"position": "jGfkASjg8wcBMA", "ply": 0})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["equity"].as_f64().unwrap(), Bot::new(0).unwrap().evaluate(&p).equity());

    let request = json!({"position": "jGfkASjg8wcBMA", "trials": 72, "seed": 5, "policy": "pubeval"});
    let (status, body) = post("/v1/rollout", request).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let options = RolloutOptions { trials: 72, seed: 5, ..RolloutOptions::default() };
    let direct = rollout(&p, &BuiltinPolicy::Pubeval, &options).unwrap();
    assert_eq!(body["equity"].as_f64().unwrap(), direct.equity);
    assert_eq!(body["trials"], json!(72));
    assert_eq!(body["cancelled"], json!(false));
}

#[tokio::test]
async fn battlegammon_plays_come_from_its_bot() {
    let p = battlegammon::Position::initial();
    let dice = Dice::new(4, 2).unwrap();
    let (status, body) = post("/v1/battlegammon/plays", json!({"position": p.id(), "dice": [4, 2]})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["plays"].as_array().unwrap().len(), p.legal_plays(dice).len());
    assert_eq!(body["turn"], json!("black"));
    let (status, body) =
        post("/v1/battlegammon/best-play", json!({"position": "initial", "dice": [4, 2]})).await;
    assert_eq!(status, StatusCode::OK);
    let best = battlegammon::Bot::new().best_play(&p, dice).unwrap();
    assert_eq!(body["best"]["play"], json!(best.notation()));
}

#[tokio::test]
async fn v1_refusals_are_json_400s() {
    let cases = [
        ("/v1/plays", json!({"position": "4HPwATDgc/ABMA"}), "dice"),
        ("/v1/plays", json!({"position": "4HPwATDgc/ABMA", "dice": [7, 1]}), "dice"),
        ("/v1/plays", json!({"position": "4HPwATDgc/ABMA", "dice": [3, 1], "ply": 3}), "ply"),
        ("/v1/plays", json!({"position": "garbage", "dice": [3, 1]}), "position"),
        ("/v1/plays", json!({"position": [1, 2, 3], "dice": [3, 1]}), "position"),
        ("/v1/plays", json!({"position": "4HPwATDgc/ABMA", "dice": [3, 1], "colour": 1}), "colour"),
        ("/v1/evaluate", json!({"ply": 0}), "position"),
        ("/v1/cube", json!({"position": "initial", "cube": {"value": 3}}), "cube value 3"),
        (
            "/v1/cube",
            json!({"position": "initial", "match": {"away": [3, 5]}, "money": {}}),
            "match and money",
        ),
        ("/v1/cube", json!({"position": "initial", "cube": {"owner": "nobody"}}), "cube.owner"),
        ("/v1/rollout", json!({"position": "initial", "trials": 10_001}), "trials"),
        ("/v1/rollout", json!({"position": "initial", "policy": "gnubg"}), "policy"),
        ("/v1/battlegammon/plays", json!({"position": "x", "dice": [3, 1]}), "position"),
        (
            "/v1/battlegammon/plays",
            json!({"position": "initial", "dice": [3, 1], "rules": {"turn_cap": 0}}),
            "turn_cap",
        ),
    ];
    for (uri, body, word) in cases {
        let (status, answer) = post(uri, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri} {body}");
        assert!(answer["message"].as_str().unwrap().contains(word), "{uri} {body}: {answer}");
    }
    let not_json = json_post("/v1/plays", Value::Null);
    let not_json = Request::from_parts(not_json.into_parts().0, Body::from("{nope"));
    assert_eq!(send(not_json).await.0, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn json_bodies_must_say_so_in_their_content_type() {
    let body = json!({"position": "initial"}).to_string();
    for content_type in [None, Some("text/plain"), Some("application/x-www-form-urlencoded")] {
        let mut request = Request::post("/v1/evaluate");
        if let Some(t) = content_type {
            request = request.header(header::CONTENT_TYPE, t);
        }
        let (status, answer) = send(request.body(Body::from(body.clone())).unwrap()).await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{content_type:?}");
        assert!(answer["message"].as_str().unwrap().contains("application/json"), "{answer}");
    }
    let with_charset = Request::post("/v1/evaluate")
        .header(header::CONTENT_TYPE, "Application/JSON; charset=utf-8")
        .body(Body::from(body))
        .unwrap();
    assert_eq!(send(with_charset).await.0, StatusCode::OK);
}

#[tokio::test]
async fn opening_is_before_the_opening_roll_and_initial_has_a_player_on_roll() {
    // With dice, "opening" is the opening roll played: the plays of the initial position.
    let (status, opening) = post("/v1/plays", json!({"position": "opening", "dice": [3, 1], "ply": 0})).await;
    let (_, initial) = post("/v1/plays", json!({"position": "initial", "dice": [3, 1], "ply": 0})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(opening["plays"], initial["plays"]);
    let refusals = [
        ("/v1/plays", json!({"position": "opening", "dice": [4, 4]}), "never a double"),
        ("/v1/evaluate", json!({"position": "opening"}), "\"initial\""),
        ("/v1/cube", json!({"position": "opening"}), "\"initial\""),
    ];
    for (uri, body, words) in refusals {
        let (status, answer) = post(uri, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri} {body}");
        let message = answer["message"].as_str().unwrap();
        assert!(message.starts_with("position: ") && message.contains(words), "{uri} {body}: {answer}");
    }
    // A rollout of "opening" starts before the opening roll and says so.
    let request = json!({"position": "opening", "trials": 36, "policy": "random", "seed": 4});
    let (status, rolled) = post("/v1/rollout", request).await;
    assert_eq!(status, StatusCode::OK, "{rolled}");
    assert_eq!(rolled["named"], json!("opening"));
    let (_, from_initial) =
        post("/v1/rollout", json!({"position": "initial", "trials": 36, "policy": "random", "seed": 4}))
            .await;
    assert_eq!(from_initial["named"], json!("initial"));
    assert_ne!(rolled["equity"], from_initial["equity"]);
    let (_, by_id) = post(
        "/v1/rollout",
        json!({"position": "4HPwATDgc/ABMA", "trials": 36, "policy": "random", "seed": 4}),
    )
    .await;
    assert_eq!((&by_id["named"], &by_id["equity"]), (&Value::Null, &from_initial["equity"]));
}

#[tokio::test]
async fn oversized_requests_are_refused_before_any_work() {
    let body = vec![b' '; 64 * 1024 + 1];
    let (status, answer) = send(
        Request::post("/v1/plays").header(header::CONTENT_LENGTH, body.len()).body(Body::from(body)).unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(answer["message"].is_string());
    // Without a declared length the body is cut off while it is read.
    let chunks = [vec![b' '; 40 * 1024], vec![b' '; 40 * 1024]].map(Ok::<_, std::io::Error>);
    let stream = Body::from_stream(futures_util::stream::iter(chunks));
    let (status, _) = send(Request::post("/v1/plays").body(stream).unwrap()).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let (status, _) = get(&format!("/eval?{}", "p1=0&".repeat(1000))).await;
    assert_eq!(status, StatusCode::URI_TOO_LONG);
    let (status, answer) = send(Request::post("/move").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(answer["message"].as_str().unwrap().contains("POST"));
    let (status, answer) = get("/nowhere").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(answer["message"].as_str().unwrap().contains("/nowhere"));
}

#[tokio::test]
async fn the_description_covers_every_route() {
    let (status, doc) = get("/openapi.json").await;
    assert_eq!(status, StatusCode::OK);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let mut described = HashSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            described.insert((path.clone(), method.to_uppercase()));
        }
    }
    let served: HashSet<(String, String)> =
        routes().into_iter().map(|(p, m, _)| (p.to_string(), m.to_string())).collect();
    assert_eq!(described, served);
    let (status, health) = get("/health").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(health["status"], json!("ok"));
}

fn app_with(limits: Limits) -> axum::Router {
    router(AppState::new(Config { threads: Some(1), limits, ..Config::default() }).unwrap())
}

async fn send_to(app: axum::Router, request: Request<Body>) -> (StatusCode, Value) {
    let response = app.oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 24).await.unwrap();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

fn json_post(uri: &str, body: Value) -> Request<Body> {
    Request::post(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

#[tokio::test]
async fn a_long_rollout_stops_at_its_time_and_reports_what_it_did() {
    // The net and the bear-off database first, so that the time goes to trials.
    gammon_bot::net::NeuralNet::builtin();
    gammon_bot::bearoff::database();
    let limits = Limits { rollout_time: Duration::from_millis(300), ..Limits::default() };
    let request = json_post("/v1/rollout", json!({"position": "initial", "trials": 10_000, "policy": "net"}));
    let started = Instant::now();
    let (status, body) = send_to(app_with(limits), request).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["cancelled"], json!(true));
    assert!(body["trials"].as_u64().unwrap() < 10_000);
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn requests_past_the_time_limit_get_408() {
    let limits = Limits {
        request_timeout: Duration::from_millis(1),
        rollout_time: Duration::ZERO,
        ..Limits::default()
    };
    // A middle game and a double with many plays: judging them at 2-ply takes far longer than
    // the millisecond allowed (the opening's 6-6, with few plays, could finish within it).
    let request = json_post("/v1/plays", json!({"position": "0HPhATDg2+ABMA", "dice": [1, 1], "ply": 2}));
    let (status, body) = send_to(app_with(limits), request).await;
    assert_eq!(status, StatusCode::REQUEST_TIMEOUT, "{body}");
    assert!(body["message"].is_string());
}

#[tokio::test]
async fn requests_past_the_concurrency_limit_get_503_at_once() {
    let app = app_with(Limits { max_in_flight: 1, ..Limits::default() });
    let long = json_post("/v1/rollout", json!({"position": "initial", "trials": 10_000, "policy": "net"}));
    let first = tokio::spawn(send_to(app.clone(), long));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, body) = send_to(app, Request::get("/health").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(body["message"].is_string());
    // Dropping the first request cancels its rollout.
    first.abort();
}
