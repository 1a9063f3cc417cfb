//! The id of one request: every log line of the request carries it (a field of the request's
//! span, see [`crate::request_log`]) and the answer names it in `x-request-id`, so a shopper's
//! report, a proxy's log and the shop's log can be joined.
//!
//! A sane id the request brings (from a proxy or a load balancer) is kept; else one is made.
//! Made ids are random per process and counted through a random bijection, never derived from
//! anything the request carries (a token, a cookie).

use std::sync::OnceLock;

use poem::http::HeaderValue;
use poem::Request;

/// The header a request id comes in and goes out in.
pub const HEADER: &str = "x-request-id";

/// The longest incoming id kept.
const MAX_LEN: usize = 64;

/// The request's id: its own `x-request-id` when that is 1 to 64 letters, digits, `-`, `_`, `.`
/// or `:` (kept as it came, no copy); else a new one (16 hex digits). Always a valid header value.
#[must_use]
pub fn of(req: &Request) -> HeaderValue {
    match req.headers().get(HEADER) {
        Some(id) if is_sane(id.as_bytes()) => id.clone(),
        _ => made(),
    }
}

fn is_sane(id: &[u8]) -> bool {
    (1..=MAX_LEN).contains(&id.len())
        && id.iter().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

/// The id as text (sane ids and made ones are ASCII).
#[must_use]
pub fn text(id: &HeaderValue) -> &str {
    id.to_str().unwrap_or_default()
}

fn made() -> HeaderValue {
    use std::sync::atomic::{AtomicU32, Ordering};
    // Random per process (one `getrandom` at the first request), then a count passed through a
    // random bijection (an odd multiplier and an offset): no system call and no entropy spent per
    // request, ids never repeat within a process, differ between instances, and do not tell how
    // many requests the shop has served.
    static KEYS: OnceLock<[u32; 3]> = OnceLock::new();
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let [process, multiplier, offset] = *KEYS.get_or_init(|| {
        let mut bytes = [0_u8; 12];
        if getrandom::fill(&mut bytes).is_err() {
            // No entropy to be had: the clock still tells processes apart.
            let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
            bytes.copy_from_slice(&nanos.to_be_bytes()[4..]);
        }
        let word = |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        [word(0), word(4) | 1, word(8)]
    });
    let count = NEXT.fetch_add(1, Ordering::Relaxed);
    // Written in place (one allocation per request, the header's own): ids are made for every
    // request a browser sends, static files included.
    let id = (u64::from(process) << 32 | u64::from(count.wrapping_mul(multiplier).wrapping_add(offset))).to_be_bytes();
    let mut text = [0_u8; 16];
    hex::encode_to_slice(id, &mut text)
        .ok()
        .and_then(|()| HeaderValue::from_bytes(&text).ok())
        .unwrap_or_else(|| HeaderValue::from_static("0"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(value: &str) -> Request {
        Request::builder().header(HEADER, value).finish()
    }

    #[test]
    fn a_sane_incoming_id_is_kept_and_anything_else_replaced() {
        assert_eq!(text(&of(&with("7f3c-a1_b.2:x"))), "7f3c-a1_b.2:x");
        for odd in ["", "has space", "semi;colon", "ünïcode", &"a".repeat(65), "<script>"] {
            let id = of(&with(odd));
            let id = text(&id);
            assert_ne!(id, odd);
            assert!(id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
        }
        let (a, b) = (of(&Request::default()), of(&Request::default()));
        assert_ne!(a, b, "made ids differ");
    }

    #[test]
    fn made_ids_do_not_repeat_and_are_not_a_plain_count() {
        let ids: Vec<String> = (0..10_000).map(|_| text(&made()).to_owned()).collect();
        let distinct: std::collections::HashSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len());
        // Other tests of this process may make ids in between, so look at the whole run of steps:
        // a bare counter would step by one every time.
        let steps = ids.windows(2).filter(|w| {
            let tail = |id: &str| u32::from_str_radix(&id[8..], 16).expect("hex");
            tail(&w[1]).wrapping_sub(tail(&w[0])) == 1
        });
        assert!(steps.count() < 100, "the ids count in plain sight");
    }
}
