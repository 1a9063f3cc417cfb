//! What every request may send: the body limit of each path, as a poem middleware the composition
//! root puts around the whole route tree (413 with the JSON error shape), and the limits the
//! OpenAPI document lists (see [`crate::openapi`]).

use poem::http::header;
use poem::http::{Method, StatusCode, Version};
use poem::web::headers::HeaderMapExt as _;
use poem::{Body, Endpoint, IntoResponse, Request, Response};

use crate::avatar::MAX_AVATAR_BYTES;

/// Largest body of an ordinary call (JSON, the sandbox, forms without files).
pub const JSON_MAX_BYTES: usize = 64 * 1024;
/// Largest body of a form that may carry a profile picture (sign-up, profile): the picture's
/// 5 MB and room for the other fields.
pub const UPLOAD_MAX_BYTES: usize = MAX_AVATAR_BYTES + 64 * 1024;
/// Largest body of a photograph upload (`POST /api/admin/products/{id}/photos`): four phone
/// photographs of the largest size a file may have (25 MB), or a dozen ordinary ones, and room
/// for the form's framing. Larger sets go in several uploads.
pub const PHOTOS_MAX_BYTES: usize = 4 * marque_app::admin::photos::MAX_PHOTO_FILE_BYTES + 64 * 1024;
/// Largest body of a return request (`POST /api/account/returns`): three photographs of 10 MB and
/// the form's fields.
pub const RETURN_MAX_BYTES: usize = 3 * marque_app::returns::MAX_RETURN_PHOTO_BYTES + 64 * 1024;
/// Largest body of a catalog import (`POST /api/admin/imports`): the CSV file's 100 MB, the zip
/// of photographs' 1 GB (streamed to a temporary file, never held in memory) and room for the
/// form's framing and its other fields. A larger file is refused with 413 before it is read.
pub const IMPORT_MAX_BYTES: usize = marque_app::admin::imports::FILE_MAX_BYTES
    + marque_app::admin::imports::archive::ZIP_MAX_BYTES as usize
    + 64 * 1024;
/// Largest Razorpay webhook body; its events are a few kilobytes.
pub const WEBHOOK_MAX_BYTES: usize = 256 * 1024;

/// The body limit of a path.
#[must_use]
pub fn body_limit(path: &str) -> usize {
    if path == "/api/register" || path.starts_with("/api/update/user/") {
        UPLOAD_MAX_BYTES
    } else if path.starts_with("/api/admin/products/") && path.ends_with("/photos") {
        PHOTOS_MAX_BYTES
    } else if path == "/api/admin/imports" {
        IMPORT_MAX_BYTES
    } else if path == "/api/account/returns" {
        RETURN_MAX_BYTES
    } else if path == "/api/razorpay/webhook" {
        WEBHOOK_MAX_BYTES
    } else {
        JSON_MAX_BYTES
    }
}

/// Refuses a body above its path's [`body_limit`] with 413 and the JSON error shape. A declared
/// `Content-Length` above it is refused before a byte is read; a body without one (chunked) is
/// read up to the limit and no further.
///
/// # Errors
/// None of its own; the inner endpoint's errors pass through.
pub async fn limit_bodies<E: Endpoint>(next: E, mut req: Request) -> poem::Result<Response> {
    let limit = body_limit(req.uri().path());
    let declared = req.headers().typed_get::<poem::web::headers::ContentLength>().map(|l| l.0);
    match declared {
        Some(length) if length > limit as u64 => return Ok(too_large_for(req.uri().path())),
        // The server reads exactly the declared length, never more.
        Some(_) => {}
        None if may_stream(&req) => match req.take_body().into_bytes_limit(limit).await {
            Ok(bytes) => req.set_body(Body::from_bytes(bytes)),
            Err(poem::error::ReadBodyError::PayloadTooLarge) => return Ok(too_large_for(req.uri().path())),
            Err(e) => return Err(poem::Error::from_string(e.to_string(), StatusCode::BAD_REQUEST)),
        },
        None => {}
    }
    next.call(req).await.map(IntoResponse::into_response)
}

/// Whether a request without `Content-Length` may still carry a body: chunked HTTP/1, or HTTP/2
/// (which frames bodies itself). A plain GET or HEAD of HTTP/1 has none, so the catalog's hot
/// reads are not touched.
fn may_stream(req: &Request) -> bool {
    req.headers().contains_key(header::TRANSFER_ENCODING)
        || (req.version() >= Version::HTTP_2 && !matches!(*req.method(), Method::GET | Method::HEAD))
}

/// The message of a path's 413: a catalog import's own (`import.file_too_large`, which names the
/// file's limit), else `request.too_large`.
#[must_use]
pub fn limit_message(path: &str) -> marque_domain::Message {
    if path == "/api/admin/imports" {
        marque_domain::Message::ImportFileTooLarge
    } else {
        marque_domain::Message::RequestTooLarge
    }
}

/// 413 for a body above `path`'s limit: [`limit_message`] and the limit.
#[must_use]
pub fn too_large_for(path: &str) -> Response {
    too_large_with(body_limit(path), limit_message(path))
}

/// 413 with the JSON error shape, `message` and the limit.
fn too_large_with(limit: usize, message: marque_domain::Message) -> Response {
    let body = serde_json::json!({
        "status": "failed",
        "message": message.text(),
        "code": message.code(),
        "limit": limit,
    });
    Response::builder()
        .status(StatusCode::PAYLOAD_TOO_LARGE)
        .content_type("application/json; charset=utf-8")
        // The rest of the body is never read: the connection cannot be used again.
        .header(header::CONNECTION, "close")
        .body(body.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_limits_by_path() {
        assert_eq!(body_limit("/api/login"), JSON_MAX_BYTES);
        assert_eq!(body_limit("/api/register"), UPLOAD_MAX_BYTES);
        assert_eq!(body_limit("/api/update/user/abc"), UPLOAD_MAX_BYTES);
        assert_eq!(body_limit("/api/razorpay/webhook"), WEBHOOK_MAX_BYTES);
        assert_eq!(body_limit("/sandbox/razorpay/pay"), JSON_MAX_BYTES);
        assert_eq!(body_limit("/api/admin/products/p1/photos"), PHOTOS_MAX_BYTES);
        assert_eq!(body_limit("/api/admin/products/p1/photos/order"), JSON_MAX_BYTES);
        assert_eq!(body_limit("/api/admin/imports"), IMPORT_MAX_BYTES);
        assert_eq!(body_limit("/api/admin/imports/i0/cancel"), JSON_MAX_BYTES);
        assert_eq!(body_limit("/api/account/returns"), RETURN_MAX_BYTES);
        const { assert!(IMPORT_MAX_BYTES > 100 * 1024 * 1024, "a CSV file of 100 MB") };
        const { assert!(PHOTOS_MAX_BYTES > 4 * 25 * 1024 * 1024, "four phone photographs of 25 MB") };
    }
}
