//! What every response carries: security headers (a strict Content-Security-Policy and friends),
//! a poem middleware the composition root puts around the whole route tree. (The request body
//! limits are the API's: `marque_api::body_limits`.)

use poem::http::header::{self, HeaderName, HeaderValue};
use poem::{Endpoint, IntoResponse, Middleware, Request, Response};

/// Where the shop's pages load from besides their own origin.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PolicySources {
    /// The payment provider's checkout script's origin (none for the same-origin sandbox).
    pub payment_script: Option<String>,
    /// The payment provider's API origin, whose frames and calls its checkout opens.
    pub payment_api: Option<String>,
    /// Origins of remotes served from elsewhere (`MARQUE_REMOTES`).
    pub remotes: Vec<String>,
    /// Extra origins the operator allows for scripts, frames, calls and images.
    pub extra: Vec<String>,
}

/// The `scheme://host[:port]` of an absolute `http(s)` URL; `None` for a relative one.
#[must_use]
pub fn origin_of(url: &str) -> Option<String> {
    let url = url.trim();
    let (scheme, rest) = url.split_once("://")?;
    if !matches!(scheme, "http" | "https") {
        return None;
    }
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let safe =
        !host.is_empty() && host.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    safe.then(|| format!("{scheme}://{}", host.to_ascii_lowercase()))
}

impl PolicySources {
    /// The Content-Security-Policy of every page and call: scripts from the shop itself (no
    /// inline script, no eval) and the checkout script's origin only.
    #[must_use]
    pub fn content_security_policy(&self) -> String {
        let join = |parts: &[&str], lists: &[&[String]]| {
            let mut all: Vec<String> = parts.iter().map(|p| (*p).to_owned()).collect();
            for list in lists {
                for origin in *list {
                    if !all.contains(origin) {
                        all.push(origin.clone());
                    }
                }
            }
            all.join(" ")
        };
        let script: Vec<String> = self.payment_script.iter().cloned().collect();
        let api: Vec<String> = self.payment_api.iter().cloned().collect();
        let remotes = self.remotes.as_slice();
        let extra = self.extra.as_slice();
        [
            "default-src 'self'".to_owned(),
            format!("script-src {}", join(&["'self'"], &[&script, remotes, extra])),
            format!("style-src {}", join(&["'self'", "'unsafe-inline'"], &[remotes])),
            format!("img-src {}", join(&["'self'", "data:", "blob:"], &[remotes, extra])),
            format!("font-src {}", join(&["'self'", "data:"], &[remotes])),
            format!("connect-src {}", join(&["'self'"], &[&script, &api, remotes, extra])),
            // The invoice viewer shows the PDF in a frame of a `blob:` address.
            format!("frame-src {}", join(&["'self'", "blob:"], &[&script, &api, extra])),
            "frame-ancestors 'self'".to_owned(),
            "object-src 'none'".to_owned(),
            "base-uri 'self'".to_owned(),
            "form-action 'self'".to_owned(),
        ]
        .join("; ")
    }
}

/// The API viewer (`/api/docs`, poem-openapi's Swagger UI) is one page of inline script: it
/// gets a policy of its own, still framed by nothing and loading from nowhere else.
const DOCS_POLICY: &str = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data:; frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'";

/// The headers every response gets (each only when the handler did not set its own).
#[derive(Debug, Clone)]
pub struct SecurityHeaders {
    headers: Vec<(HeaderName, HeaderValue)>,
    docs_policy: HeaderValue,
}

impl SecurityHeaders {
    /// `hsts` (prod only: the shop is served over HTTPS there) adds `Strict-Transport-Security`.
    ///
    /// # Errors
    /// When a configured origin makes the policy an invalid header value.
    pub fn new(sources: &PolicySources, hsts: bool) -> Result<Self, String> {
        let csp = HeaderValue::from_str(&sources.content_security_policy())
            .map_err(|_| "the Content-Security-Policy has characters a header cannot carry".to_owned())?;
        let mut headers = vec![
            (header::CONTENT_SECURITY_POLICY, csp),
            (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
            (header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin")),
            (header::X_FRAME_OPTIONS, HeaderValue::from_static("SAMEORIGIN")),
        ];
        if hsts {
            headers.push((header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static("max-age=31536000")));
        }
        Ok(Self { headers, docs_policy: HeaderValue::from_static(DOCS_POLICY) })
    }
}

impl<E: Endpoint> Middleware<E> for SecurityHeaders {
    type Output = SecurityHeadersEndpoint<E>;

    fn transform(&self, ep: E) -> Self::Output {
        SecurityHeadersEndpoint { inner: ep, headers: self.clone() }
    }
}

/// [`SecurityHeaders`] around an endpoint.
#[derive(Debug)]
pub struct SecurityHeadersEndpoint<E> {
    inner: E,
    headers: SecurityHeaders,
}

impl<E: Endpoint> Endpoint for SecurityHeadersEndpoint<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Self::Output> {
        let docs = req.uri().path().starts_with("/api/docs");
        let mut resp = match self.inner.call(req).await {
            Ok(resp) => resp.into_response(),
            Err(err) => err.into_response(),
        };
        let headers = resp.headers_mut();
        for (name, value) in &self.headers.headers {
            if !headers.contains_key(name) {
                let value =
                    if docs && name == header::CONTENT_SECURITY_POLICY { &self.headers.docs_policy } else { value };
                headers.insert(name.clone(), value.clone());
            }
        }
        Ok(resp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_of_absolute_urls_only() {
        assert_eq!(
            origin_of("https://checkout.razorpay.com/v1/checkout.js").as_deref(),
            Some("https://checkout.razorpay.com")
        );
        assert_eq!(origin_of("http://127.0.0.1:4010/checkout.js").as_deref(), Some("http://127.0.0.1:4010"));
        assert_eq!(origin_of("/sandbox/razorpay/checkout.js"), None);
        assert_eq!(origin_of("javascript://x"), None);
        assert_eq!(origin_of("https://evil.example;script-src *"), None);
    }

    #[test]
    fn the_policy_allows_no_inline_script_and_names_the_checkout() {
        let sources = PolicySources {
            payment_script: Some("https://checkout.razorpay.com".into()),
            payment_api: Some("https://api.razorpay.com".into()),
            remotes: vec!["https://cdn.example".into()],
            extra: Vec::new(),
        };
        let csp = sources.content_security_policy();
        let directive = |name: &str| {
            csp.split("; ")
                .find(|d| d.split(' ').next() == Some(name))
                .unwrap_or_else(|| panic!("{name} in {csp}"))
                .to_owned()
        };
        assert_eq!(directive("script-src"), "script-src 'self' https://checkout.razorpay.com https://cdn.example");
        assert!(!directive("script-src").contains("unsafe"), "{csp}");
        assert!(
            directive("frame-src").contains("https://api.razorpay.com") && directive("frame-src").contains("blob:")
        );
        assert_eq!(directive("object-src"), "object-src 'none'");
        assert_eq!(directive("frame-ancestors"), "frame-ancestors 'self'");
        assert!(directive("style-src").contains("'unsafe-inline'"));
        let sandbox = PolicySources::default().content_security_policy();
        assert!(sandbox.contains("script-src 'self';"), "{sandbox}");
    }
}
