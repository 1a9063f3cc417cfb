//! `405 Method Not Allowed` names the methods the path does take (`Allow`, RFC 9110 §15.5.6).
//! poem's router answers 405 without it; the methods come from the published document, plus the
//! routes mounted beside it.

use poem::http::{header, HeaderValue, StatusCode};
use poem::{Endpoint, IntoResponse, Request, Response};

/// The API's routes outside the OpenAPI document, relative to `/api`, with their one method.
const OUTSIDE_DOCUMENT: &[(&str, &str)] =
    &[("/razorpay/webhook", "POST"), ("/dev/signin", "GET"), ("/dev/signin/continue", "GET"), ("/dev/outbox", "GET")];

/// A path of the document as its segments (`None` for a `{parameter}`, which matches any non-empty
/// segment): what a request's path is matched against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathTemplate(Vec<Option<String>>);

impl PathTemplate {
    /// The template of a document path such as `/api/get/product/{categorySlug}`.
    #[must_use]
    pub fn parse(path: &str) -> Self {
        Self(
            path.split('/')
                .map(|s| if s.starts_with('{') && s.ends_with('}') { None } else { Some(s.to_owned()) })
                .collect(),
        )
    }

    /// Whether a request path matches.
    #[must_use]
    pub fn matches(&self, path: &str) -> bool {
        let mut parts = path.split('/');
        self.0.iter().all(|t| parts.next().is_some_and(|p| t.as_deref().map_or(!p.is_empty(), |t| t == p)))
            && parts.next().is_none()
    }

    /// The path up to its first parameter (`/api/get/productById/` for
    /// `/api/get/productById/{id}`), and how many `/`s that holds; `None` without a parameter.
    #[must_use]
    pub fn prefix(&self) -> Option<(String, usize)> {
        let first = self.0.iter().position(Option::is_none)?;
        let literal: Vec<&str> = self.0[..first].iter().filter_map(Option::as_deref).collect();
        Some((format!("{}/", literal.join("/")), first))
    }

    /// Which of its parts are literal, from the left: of two templates a path matches, the router takes
    /// the one whose value is greater (a literal part before a parameter, part by part from the left:
    /// `…/photos/order` is that path's, not `…/photos/{photoId}`'s).
    #[must_use]
    pub fn precedence(&self) -> Vec<bool> {
        self.0.iter().map(Option::is_some).collect()
    }

    /// The path itself, when it has no parameter.
    #[must_use]
    pub fn literal(&self) -> Option<String> {
        self.0.iter().map(|t| t.as_deref()).collect::<Option<Vec<&str>>>().map(|parts| parts.join("/"))
    }
}

/// Each API path as its template, with the methods it takes.
#[derive(Debug, Clone, Default)]
pub struct AllowTable(Vec<(PathTemplate, Vec<String>)>);

impl AllowTable {
    /// The table for the document `spec` (JSON, paths under `prefix`) and the routes beside it.
    #[must_use]
    pub fn new(spec: &str, prefix: &str) -> Self {
        let mut table = Self::default();
        if let Ok(doc) = serde_json::from_str::<serde_json::Value>(spec) {
            for (path, item) in doc["paths"].as_object().into_iter().flatten() {
                let methods = item.as_object().into_iter().flatten().map(|(m, _)| m.to_ascii_uppercase());
                table.add(path.strip_prefix(prefix).unwrap_or(path), methods);
            }
        }
        for (path, method) in OUTSIDE_DOCUMENT {
            table.add(path, [(*method).to_owned()]);
        }
        table
    }

    fn add(&mut self, path: &str, methods: impl IntoIterator<Item = String>) {
        let mut methods: Vec<String> = methods.into_iter().collect();
        if methods.iter().any(|m| m == "GET") {
            // poem answers HEAD wherever it answers GET.
            methods.push("HEAD".to_owned());
        }
        self.0.push((PathTemplate::parse(path), methods));
    }

    /// The `Allow` value for a request path: every method of every template it matches.
    #[must_use]
    pub fn allowed(&self, path: &str) -> Option<String> {
        // Only the templates the router would route to count (`PathTemplate::precedence`).
        let matching: Vec<&(PathTemplate, Vec<String>)> = self.0.iter().filter(|(t, _)| t.matches(path)).collect();
        let best = matching.iter().map(|(t, _)| t.precedence()).max();
        let mut methods: Vec<&str> = Vec::new();
        for (template, allowed) in matching {
            if Some(template.precedence()) == best {
                methods.extend(allowed.iter().map(String::as_str));
            }
        }
        methods.sort_unstable();
        methods.dedup();
        (!methods.is_empty()).then(|| methods.join(", "))
    }
}

/// Adds `Allow` to a 405 answer of a known path.
///
/// # Errors
/// The inner endpoint's, unchanged.
pub async fn allow_on_405<E: Endpoint>(next: E, req: Request, table: &AllowTable) -> poem::Result<Response> {
    let path = req.uri().path().to_owned();
    let mut resp = next.call(req).await?.into_response();
    if resp.status() == StatusCode::METHOD_NOT_ALLOWED {
        if let Some(value) = table.allowed(&path).and_then(|a| HeaderValue::from_str(&a).ok()) {
            resp.headers_mut().insert(header::ALLOW, value);
        }
    }
    Ok(resp)
}

#[cfg(test)]
mod tests {
    use super::AllowTable;

    #[test]
    fn a_path_gets_the_methods_of_every_template_it_matches() {
        let spec = r#"{"paths": {
            "/api/get/product/{categorySlug}": {"get": {}},
            "/api/remove/{userId}/address/{addressId}": {"delete": {}},
            "/api/add/address/{userId}": {"patch": {}},
            "/api/login": {"post": {}},
            "/api/admin/products/{id}/photos/order": {"put": {}},
            "/api/admin/products/{id}/photos/{photoId}": {"delete": {}}
        }}"#;
        let table = AllowTable::new(spec, "/api");
        assert_eq!(table.allowed("/login").as_deref(), Some("POST"));
        assert_eq!(table.allowed("/get/product/brakes").as_deref(), Some("GET, HEAD"));
        assert_eq!(table.allowed("/remove/u1/address/a1").as_deref(), Some("DELETE"));
        assert_eq!(table.allowed("/razorpay/webhook").as_deref(), Some("POST"));
        assert_eq!(table.allowed("/admin/products/p1/photos/order").as_deref(), Some("PUT"), "the literal wins");
        assert_eq!(table.allowed("/admin/products/p1/photos/f00d").as_deref(), Some("DELETE"));
        assert_eq!(table.allowed("/get/product/"), None, "a parameter is never empty");
        assert_eq!(table.allowed("/nothing"), None);
    }
}
