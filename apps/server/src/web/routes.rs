//! The storefront's route table, `contract/routes.json`: every page path and the
//! page that renders it. The shell builds its router from the same file, so a
//! path answers 200 here exactly when the browser has a page for it.

use serde::Deserialize;

/// The committed table, compiled in so the binary and the shell cannot disagree.
const ROUTES_JSON: &str = include_str!("../../../../contract/routes.json");

/// One storefront page: a wouter-style path (`/brand/:brandSlug`) and its page id (`catalog/Brand`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Route {
    pub path: String,
    pub page: String,
}

/// Every storefront page path.
#[derive(Debug, Clone, Deserialize)]
pub struct RouteTable {
    routes: Vec<Route>,
}

/// A path matched to its page, with the values of its `:param` segments.
#[derive(Debug, PartialEq, Eq)]
pub struct Matched<'t, 'p> {
    pub page: &'t str,
    pub params: Vec<(&'t str, &'p str)>,
}

impl Matched<'_, '_> {
    /// The value of a `:param` segment.
    #[must_use]
    pub fn param(&self, name: &str) -> &str {
        self.params.iter().find(|(n, _)| *n == name).map_or("", |(_, v)| v)
    }
}

impl RouteTable {
    /// The table compiled into the binary.
    ///
    /// # Errors
    /// When `contract/routes.json` is not a valid route table.
    pub fn embedded() -> Result<Self, String> {
        Self::parse(ROUTES_JSON)
    }

    /// # Errors
    /// When the text is not `{ "routes": [{ "path": "/…", "page": "…" }] }`.
    pub fn parse(json: &str) -> Result<Self, String> {
        let table: Self = serde_json::from_str(json).map_err(|e| format!("contract/routes.json: {e}"))?;
        if let Some(bad) = table.routes.iter().find(|r| !r.path.starts_with('/') || r.page.is_empty()) {
            return Err(format!("contract/routes.json: `{}` is not a page path with a page", bad.path));
        }
        Ok(table)
    }

    /// The page a request path names (a trailing slash is ignored), if any.
    #[must_use]
    pub fn find<'t, 'p>(&'t self, path: &'p str) -> Option<Matched<'t, 'p>> {
        let path = if path.len() > 1 { path.trim_end_matches('/') } else { path };
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        self.routes.iter().find_map(|route| {
            let pattern: Vec<&str> = route.path.trim_start_matches('/').split('/').collect();
            if pattern.len() != segments.len() {
                return None;
            }
            let mut params = Vec::new();
            for (p, s) in pattern.iter().zip(&segments) {
                match p.strip_prefix(':') {
                    Some(name) if !s.is_empty() => params.push((name, *s)),
                    None if p == s => {}
                    _ => return None,
                }
            }
            Some(Matched { page: &route.page, params })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_table_parses() {
        let table = RouteTable::embedded().expect("valid table");
        assert!(table.routes.iter().any(|r| r.path == "/" && r.page == "catalog/Home"));
        assert_eq!(table.find("/").map(|m| m.page), Some("catalog/Home"));
    }

    #[test]
    fn paths_match_literally_and_params_take_one_segment() {
        let table = RouteTable::parse(
            r#"{ "routes": [
                { "path": "/", "page": "Home" },
                { "path": "/about", "page": "About" },
                { "path": "/subcategory/:c/:s", "page": "Sub" }
            ] }"#,
        )
        .expect("valid");
        assert_eq!(table.find("/").map(|m| m.page), Some("Home"));
        assert_eq!(table.find("/about/").map(|m| m.page), Some("About"));
        let sub = table.find("/subcategory/brakes/brake-disc").expect("matches");
        assert_eq!((sub.page, sub.param("c"), sub.param("s")), ("Sub", "brakes", "brake-disc"));
        for miss in ["/login", "/about/more", "/subcategory/brakes", "/subcategory//x", "/About"] {
            assert_eq!(table.find(miss), None, "{miss}");
        }
    }

    #[test]
    fn malformed_tables_are_refused() {
        assert!(RouteTable::parse("{}").is_err());
        assert!(RouteTable::parse(r#"{ "routes": [{ "path": "about", "page": "About" }] }"#).is_err());
    }
}
