//! Content encodings: which one a request accepts, and the compression middleware around the
//! whole route tree.
//!
//! Text is compressed for the browser: brotli (HTTPS and localhost) or gzip, both at quality 5.
//! poem's defaults are brotli at its fastest, which left the storefront's scripts 44% larger than
//! gzip (a phone on a slow network feels every kilobyte), while quality 5 costs a few milliseconds on
//! the largest chunk. zstd is not offered. Unlike poem's `Compression`, a response that is already
//! encoded (hashed static files carry their brotli and gzip bytes, see `crate::assets`), has no body
//! (`304`, `204`) or is not text (images, fonts) goes out as it is. Request bodies are not
//! decoded: no client of the shop compresses what it sends.

use poem::http::header::{self, HeaderValue};
use poem::http::StatusCode;
use poem::web::{Compress, CompressionAlgo, CompressionLevel};
use poem::{Endpoint, IntoResponse, Middleware, Request, Response};

/// A content coding this server sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Brotli,
    Gzip,
    Deflate,
}

impl Encoding {
    /// The token of `Content-Encoding` / `Accept-Encoding`.
    #[must_use]
    pub fn token(self) -> &'static str {
        match self {
            Encoding::Brotli => "br",
            Encoding::Gzip => "gzip",
            Encoding::Deflate => "deflate",
        }
    }

    fn algo(self) -> CompressionAlgo {
        match self {
            Encoding::Brotli => CompressionAlgo::BR,
            Encoding::Gzip => CompressionAlgo::GZIP,
            Encoding::Deflate => CompressionAlgo::DEFLATE,
        }
    }
}

/// The encoding among `available` (in order of preference) that an `Accept-Encoding` value
/// accepts with the highest weight; `None` when it accepts none of them (identity then).
#[must_use]
pub fn preferred(accept_encoding: &str, available: &[Encoding]) -> Option<Encoding> {
    let weight = |token: &str| -> Option<f32> {
        accept_encoding.split(',').find_map(|item| {
            let mut parts = item.split(';');
            let name = parts.next()?.trim();
            if !name.eq_ignore_ascii_case(token) {
                return None;
            }
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q=").or_else(|| p.trim().strip_prefix("Q=")))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            Some(q)
        })
    };
    let wildcard = weight("*");
    let mut best: Option<(Encoding, f32)> = None;
    for &encoding in available {
        let q = weight(encoding.token()).or(wildcard).unwrap_or(0.0);
        if q > 0.0 && best.is_none_or(|(_, b)| q > b) {
            best = Some((encoding, q));
        }
    }
    best.map(|(e, _)| e)
}

/// Whether a `Content-Type` is worth compressing: text, scripts, JSON, XML, SVG. A response
/// without one is compressed (as before this middleware).
fn compressible(content_type: Option<&HeaderValue>) -> bool {
    let Some(value) = content_type.and_then(|v| v.to_str().ok()) else { return true };
    compressible_type(&value.split(';').next().unwrap_or("").trim().to_ascii_lowercase())
}

/// Whether a media type (`text/javascript`, no parameters, lower case) is worth compressing.
#[must_use]
pub fn compressible_type(essence: &str) -> bool {
    essence.starts_with("text/")
        || essence.ends_with("+json")
        || essence.ends_with("+xml")
        || matches!(
            essence,
            "application/javascript" | "application/json" | "application/xml" | "image/svg+xml" | "application/wasm"
        )
}

/// Marks a response the compression middleware sends as it is. A page that carries a signed-in
/// customer's data (their embedded answers) also carries text taken from the request (its address,
/// query, canonical link); compressed together, the size of the answer would tell a page that can
/// make the customer's browser ask for chosen addresses, one guessed character at a time, what the
/// data holds (BREACH). Such pages go uncompressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeverCompress;

/// The compression middleware; see the module documentation.
#[derive(Debug, Clone, Copy, Default)]
pub struct TextCompression;

const OFFERED: [Encoding; 3] = [Encoding::Brotli, Encoding::Gzip, Encoding::Deflate];
const QUALITY: CompressionLevel = CompressionLevel::Precise(5);

impl<E: Endpoint> Middleware<E> for TextCompression {
    type Output = TextCompressionEndpoint<E>;

    fn transform(&self, ep: E) -> Self::Output {
        TextCompressionEndpoint { inner: ep }
    }
}

/// [`TextCompression`] around an endpoint.
#[derive(Debug)]
pub struct TextCompressionEndpoint<E> {
    inner: E,
}

impl<E: Endpoint> Endpoint for TextCompressionEndpoint<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        let encoding = req
            .headers()
            .get(header::ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| preferred(v, &OFFERED));
        let mut resp = self.inner.call(req).await?.into_response();
        let status = resp.status();
        let headers = resp.headers();
        if headers.contains_key(header::CONTENT_ENCODING)
            || status == StatusCode::NOT_MODIFIED
            || status == StatusCode::NO_CONTENT
            || status.is_informational()
            || !compressible(headers.get(header::CONTENT_TYPE))
            || resp.extensions().get::<NeverCompress>().is_some()
        {
            return Ok(resp);
        }
        let varies = resp.headers().get_all(header::VARY).iter().any(|v| {
            v.to_str().is_ok_and(|v| v.split(',').any(|name| name.trim().eq_ignore_ascii_case("accept-encoding")))
        });
        if !varies {
            resp.headers_mut().append(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
        Ok(match encoding {
            Some(encoding) => Compress::new(resp, encoding.algo()).with_quality(QUALITY).into_response(),
            None => resp,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Encoding; 2] = [Encoding::Brotli, Encoding::Gzip];

    #[test]
    fn the_accepted_encoding_with_the_highest_weight_wins() {
        assert_eq!(preferred("gzip, deflate, br", &ALL), Some(Encoding::Brotli));
        assert_eq!(preferred("gzip, deflate", &ALL), Some(Encoding::Gzip));
        assert_eq!(preferred("br;q=0.5, gzip;q=0.9", &ALL), Some(Encoding::Gzip));
        assert_eq!(preferred("br;q=0, gzip", &ALL), Some(Encoding::Gzip));
        assert_eq!(preferred("GZIP", &ALL), Some(Encoding::Gzip));
        assert_eq!(preferred("*", &ALL), Some(Encoding::Brotli));
        assert_eq!(preferred("*;q=0, gzip", &ALL), Some(Encoding::Gzip));
        assert_eq!(preferred("identity", &ALL), None);
        assert_eq!(preferred("", &ALL), None);
        assert_eq!(preferred("br", &[Encoding::Gzip]), None);
    }

    #[test]
    fn only_text_is_compressed() {
        let ct = |v: &'static str| HeaderValue::from_static(v);
        assert!(compressible(Some(&ct("application/json; charset=utf-8"))));
        assert!(compressible(Some(&ct("text/html; charset=utf-8"))));
        assert!(compressible(Some(&ct("text/javascript"))));
        assert!(compressible(Some(&ct("image/svg+xml"))));
        assert!(!compressible(Some(&ct("image/png"))));
        assert!(!compressible(Some(&ct("font/woff2"))));
        assert!(compressible(None));
    }
}
