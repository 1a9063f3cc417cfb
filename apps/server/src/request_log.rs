//! The request log: one span per request (client, method, path) and one line per answer (status,
//! duration), like poem's `Tracing`, except that the query string is logged with the values of
//! secret-bearing parameters replaced (`token`, `code`, `state`, `otp`, …): a log must never hold a
//! sign-in code, a session token or a one-time code, whoever may read it. The span carries the
//! request's id ([`crate::request_id`]), answered in `x-request-id`.

use std::sync::Arc;
use std::time::Instant;

use poem::{Endpoint, IntoResponse, Request, Response};
use tracing::Instrument;

/// Query parameters whose values are never logged (compared case-insensitively).
const SECRET_PARAMETERS: &[&str] = &[
    "token",
    "code",
    "state",
    "otp",
    "password",
    "secret",
    "key",
    "signature",
    "razorpay_signature",
    "nonce",
    "id_token",
    "access_token",
    "refresh_token",
];

/// What the log shows for a secret parameter's value.
pub const REDACTED: &str = "[redacted]";

/// `path?query` with every secret parameter's value replaced by [`REDACTED`]; other parameters
/// are kept as sent (still percent-encoded).
#[must_use]
pub fn loggable_path(path: &str, query: Option<&str>) -> String {
    let Some(query) = query.filter(|q| !q.is_empty()) else { return path.to_owned() };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let decoded = percent_decoded_lowercase(name);
            if SECRET_PARAMETERS.contains(&decoded.as_str()) && !value.is_empty() {
                format!("{name}={REDACTED}")
            } else {
                pair.to_owned()
            }
        })
        .collect();
    format!("{path}?{}", pairs.join("&"))
}

/// A parameter name as the server reads it (`%74oken` is `token`), lower-cased.
fn percent_decoded_lowercase(name: &str) -> String {
    let plus_as_space = name.replace('+', " ");
    let bytes = plus_as_space.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        match (bytes[i], bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(hi), Some(lo)) => {
                out.push(u8::try_from(hi * 16 + lo).unwrap_or(b'?'));
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).to_lowercase()
}

/// The middleware: put around the whole route tree. With `operations` (metrics on), it also counts
/// and times every answer by operation and status ([`crate::metrics`]): one layer, so a request
/// pays for one more future, not two.
///
/// # Errors
/// None: an error of the inner endpoint becomes its answer here, named by the request's id.
pub async fn log_requests<E: Endpoint>(
    next: E,
    req: Request,
    operations: Option<Arc<crate::metrics::Operations>>,
) -> poem::Result<Response> {
    let started = Instant::now();
    let uri = req.original_uri();
    let request_id = crate::request_id::of(&req);
    let meters = operations.as_deref().map(|operations| operations.meters(req.method(), req.uri().path()));
    let span = tracing::info_span!(
        "request",
        request_id = %crate::request_id::text(&request_id),
        remote_addr = %req.remote_addr(),
        version = ?req.version(),
        method = %req.method(),
        uri = %loggable_path(uri.path(), uri.query()),
    );
    async move {
        let mut resp = match next.call(req).await {
            Ok(resp) => {
                let resp = resp.into_response();
                tracing::info!(status = %resp.status(), duration = ?started.elapsed(), "response");
                resp
            }
            Err(err) => {
                // The error's text may quote what was sent (a parse error): only its status is logged.
                tracing::info!(status = %err.status(), duration = ?started.elapsed(), "error");
                err.into_response()
            }
        };
        if let Some(meters) = meters {
            meters.record(resp.status(), started.elapsed());
        }
        resp.headers_mut().insert(crate::request_id::HEADER, request_id);
        Ok(resp)
    }
    .instrument(span)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_parameters_are_redacted_and_others_kept() {
        assert_eq!(loggable_path("/api/get/search", None), "/api/get/search");
        assert_eq!(loggable_path("/api/get/search", Some("q=brake+pad&page=2")), "/api/get/search?q=brake+pad&page=2");
        assert_eq!(loggable_path("/login/success", Some("token=s3cr3t&x=1")), "/login/success?token=[redacted]&x=1");
        assert_eq!(
            loggable_path("/api/google/callback", Some("state=abc&code=4%2F0Ab&scope=email")),
            "/api/google/callback?state=[redacted]&code=[redacted]&scope=email"
        );
        assert_eq!(
            loggable_path("/x", Some("OTP=123456&%74oken=t&Token")),
            "/x?OTP=[redacted]&%74oken=[redacted]&Token"
        );
    }
}
