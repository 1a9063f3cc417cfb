//! HTTP caching of the public catalog reads (`GET /api/get/...`): a validator and a policy.
//!
//! - `ETag`: a weak tag of the body (weak because the compression middleware outside
//!   may send the same representation in several encodings). A request whose
//!   `If-None-Match` names it gets `304 Not Modified` and no body.
//! - `Cache-Control: public, no-cache`: browsers and CDNs may keep the answer, and must
//!   ask again (cheaply, with the tag) before each use. The catalog promises that a
//!   change shows within one second; a `max-age` would break that promise at the edge,
//!   a revalidation costs a round trip and no body. A read asked with `Authorization`
//!   (a customer's wishlist, orders, invoice) is that customer's alone: `private, no-cache`,
//!   so no shared cache keeps it.

use std::hash::Hasher as _;

use poem::http::header::{AUTHORIZATION, CACHE_CONTROL, ETAG, IF_NONE_MATCH};
use poem::http::{HeaderValue, Method, StatusCode};
use poem::{Body, Endpoint, IntoResponse, Request, Response};

pub(super) const POLICY: &str = "public, no-cache";
/// The policy of a read asked with `Authorization`.
const PERSONAL_POLICY: &str = "private, no-cache";

/// The weak tag of a body: a 64-bit hash of its bytes.
pub(super) fn tag_of(body: &[u8]) -> String {
    // SipHash with fixed keys: the same body gives the same tag in every instance.
    let mut hasher = std::hash::DefaultHasher::new();
    hasher.write(body);
    format!("W/\"{:016x}{:x}\"", hasher.finish(), body.len())
}

/// Whether an `If-None-Match` value names `tag` (weak comparison, `*` matches any).
pub fn names(if_none_match: &str, tag: &str) -> bool {
    let opaque = |t: &str| t.trim().trim_start_matches("W/").to_owned();
    let wanted = opaque(tag);
    if_none_match.split(',').any(|candidate| candidate.trim() == "*" || opaque(candidate) == wanted)
}

/// Middleware: tags successful catalog reads and answers a matching revalidation with 304.
///
/// # Errors
/// Those of `next`; reading a body back cannot fail for the in-memory JSON bodies here.
pub async fn revalidate<E: Endpoint>(next: E, req: Request) -> poem::Result<Response> {
    let cacheable = req.method() == Method::GET && req.original_uri().path().starts_with("/api/get/");
    let if_none_match = req.headers().get(IF_NONE_MATCH).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let policy = if req.headers().contains_key(AUTHORIZATION) { PERSONAL_POLICY } else { POLICY };
    let resp = next.call(req).await?.into_response();
    if !cacheable || resp.status() != StatusCode::OK {
        return Ok(resp);
    }
    let (mut parts, body) = resp.into_parts();
    let bytes = body.into_bytes().await?;
    let tag = tag_of(&bytes);
    let Ok(tag_value) = HeaderValue::from_str(&tag) else {
        return Ok(Response::from_parts(parts, Body::from(bytes)));
    };
    parts.headers.insert(ETAG, tag_value);
    parts.headers.insert(CACHE_CONTROL, HeaderValue::from_static(policy));
    if if_none_match.as_deref().is_some_and(|v| names(v, &tag)) {
        parts.status = StatusCode::NOT_MODIFIED;
        parts.headers.remove(poem::http::header::CONTENT_TYPE);
        parts.headers.remove(poem::http::header::CONTENT_LENGTH);
        return Ok(Response::from_parts(parts, Body::empty()));
    }
    Ok(Response::from_parts(parts, Body::from(bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_follow_the_body_and_match_weakly() {
        let a = tag_of(b"{\"status\":\"success\"}");
        assert_eq!(a, tag_of(b"{\"status\":\"success\"}"));
        assert_ne!(a, tag_of(b"{\"status\":\"failure\"}"));
        assert!(a.starts_with("W/\""));
        assert!(names(&a, &a));
        assert!(names(a.trim_start_matches("W/"), &a), "a strong spelling of the same tag");
        assert!(names(&format!("\"x\", {a}"), &a));
        assert!(names("*", &a));
        assert!(!names("\"x\"", &a));
    }
}
