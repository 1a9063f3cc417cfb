//! The project's JSON error shape, for every 4xx/5xx the API answers.

use marque_domain::catalog::PageError;
use marque_domain::paging::ListWindowError;
use marque_domain::UserFacing;
use poem::http::{header, StatusCode};
use poem::{Endpoint, IntoResponse, Request, Response};
use poem_openapi::error::ParseParamError;
use poem_openapi::payload::Json;
use poem_openapi::Object;

/// `{ "status": "failed", "message": "…" }`, with a stable `code` where one exists.
#[derive(Debug, Clone, Object)]
#[oai(rename = "Error")]
pub struct ErrorBody {
    /// Always `failed`.
    pub status: String,
    /// What went wrong, in words a shopper can read.
    pub message: String,
    /// A stable code the frontends translate (e.g. `page.invalid`).
    #[oai(skip_serializing_if_is_none)]
    pub code: Option<String>,
}

impl ErrorBody {
    #[must_use]
    pub fn new(message: impl Into<String>, code: Option<&str>) -> Json<Self> {
        Json(Self { status: "failed".into(), message: message.into(), code: code.map(str::to_owned) })
    }

    /// A broken shop rule: its message and code come from the domain.
    #[must_use]
    pub fn from_rule(rule: &impl UserFacing) -> Json<Self> {
        Self::new(rule.text(), Some(rule.code()))
    }

    /// A message of the domain's table, with its code.
    #[must_use]
    pub fn from_message(message: marque_domain::Message) -> Json<Self> {
        Self::new(message.text(), Some(message.code()))
    }

    /// A request poem-openapi could not parse. A malformed `page` is the domain's
    /// page error and a malformed `size` (a list's, the only `size` parameter) its list-size error,
    /// as when they parse but break the rule; anything else says which parameter was wrong.
    #[must_use]
    pub fn from_poem(err: &poem::Error) -> Json<Self> {
        match err.downcast_ref::<ParseParamError>() {
            Some(param) if param.name == "page" => Self::from_rule(&PageError::Invalid),
            Some(param) if param.name == "size" => Self::from_rule(&ListWindowError::Size),
            _ => Self::new(err.to_string(), Some("request.invalid")),
        }
    }
}

/// Replaces poem's plain-text errors (unknown path, bad method, malformed
/// parameters) with the JSON shape, so a client never has to parse text.
///
/// # Errors
/// None of its own: an endpoint error is turned into its JSON response.
pub async fn json_errors<E: Endpoint>(next: E, req: Request) -> poem::Result<Response> {
    let resp = match next.call(req).await {
        Ok(resp) => resp.into_response(),
        Err(err) => {
            let status = err.status();
            let message = if status == StatusCode::UNAUTHORIZED {
                // A missing or malformed `Authorization` header, or a session that is not valid.
                return Ok(error_response_with_code(status, marque_domain::Message::LoginRequired));
            } else if status.is_server_error() && err.to_string() != marque_domain::Message::AccountUnavailable.text() {
                tracing::error!(error = %err, "request failed");
                "Something went wrong. Please try again.".to_owned()
            } else {
                err.to_string()
            };
            return Ok(error_response(status, &message));
        }
    };
    let status = resp.status();
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if (status.is_client_error() || status.is_server_error()) && !is_json {
        let message = match status {
            StatusCode::NOT_FOUND => "Not found".to_owned(),
            StatusCode::METHOD_NOT_ALLOWED => "Method not allowed".to_owned(),
            other => other.canonical_reason().unwrap_or("Request failed").to_owned(),
        };
        return Ok(error_response(status, &message));
    }
    Ok(resp)
}

fn error_response_with_code(status: StatusCode, message: marque_domain::Message) -> Response {
    let body = serde_json::json!({ "status": "failed", "message": message.text(), "code": message.code() });
    Response::builder().status(status).content_type("application/json; charset=utf-8").body(body.to_string())
}

fn error_response(status: StatusCode, message: &str) -> Response {
    let body = serde_json::json!({ "status": "failed", "message": message });
    Response::builder().status(status).content_type("application/json; charset=utf-8").body(body.to_string())
}
