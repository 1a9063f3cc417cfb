//! The id of one request: every log line of the request carries it (a field of the request's
//! span, see [`crate::request_log`]) and the answer names it in `x-request-id`, so a shopper's
//! report, a proxy's log and the shop's log can be joined.
//!
//! A sane id the request brings (from a proxy or a load balancer) is kept; else one is made.
//! Made ids are random, never derived from anything the request carries (a token, a cookie).

use poem::http::HeaderValue;
use poem::Request;

/// The header a request id comes in and goes out in.
pub const HEADER: &str = "x-request-id";

/// The longest incoming id kept.
const MAX_LEN: usize = 64;

/// The request's id: its own `x-request-id` when that is 1 to 64 letters, digits, `-`, `_`, `.`
/// or `:`; else a new random one (16 hex digits).
#[must_use]
pub fn of(req: &Request) -> String {
    req.headers().get(HEADER).and_then(|v| v.to_str().ok()).filter(|id| is_sane(id)).map_or_else(made, str::to_owned)
}

fn is_sane(id: &str) -> bool {
    (1..=MAX_LEN).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

fn made() -> String {
    let mut bytes = [0_u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        // No entropy to be had: a clock-based id still tells requests apart.
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        bytes = (nanos as u64).to_be_bytes();
    }
    hex::encode(bytes)
}

/// `id` as a header value (it is always one: sane ids and hex only).
#[must_use]
pub fn header_value(id: &str) -> Option<HeaderValue> {
    HeaderValue::from_str(id).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(value: &str) -> Request {
        Request::builder().header(HEADER, value).finish()
    }

    #[test]
    fn a_sane_incoming_id_is_kept_and_anything_else_replaced() {
        assert_eq!(of(&with("7f3c-a1_b.2:x")), "7f3c-a1_b.2:x");
        for odd in ["", "has space", "semi;colon", "ünïcode", &"a".repeat(65), "<script>"] {
            let id = of(&with(odd));
            assert_ne!(id, odd);
            assert!(id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
        }
        let (a, b) = (of(&Request::default()), of(&Request::default()));
        assert_ne!(a, b, "made ids differ");
    }
}
