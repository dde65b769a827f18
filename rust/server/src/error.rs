//! The one error answer of the server: an HTTP status with `{"message": "..."}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The body of every answer that is not a success, as wildbg sends it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ErrorMessage {
    /// What was wrong, naming the parameter or field at fault.
    #[schema(example = "p25 must be an integer in 0..=15, got \"-2\"")]
    pub message: String,
}

/// A refused or failed request: the status and the message sent back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The message of the [`ErrorMessage`] body.
    pub message: String,
}

impl ApiError {
    /// A 400 Bad Request: the client sent something the engine or the API refuses.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into() }
    }

    /// Any status with a message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into() }
    }
}

/// Every engine error is about the input (a position, dice, an argument), so it is the client's.
impl From<gammon_backgammon::Error> for ApiError {
    fn from(e: gammon_backgammon::Error) -> ApiError {
        ApiError::bad_request(e.message())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(ErrorMessage { message: self.message })).into_response()
    }
}

/// The result of a handler.
pub type ApiResult<T> = Result<T, ApiError>;
