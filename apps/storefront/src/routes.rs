//! The storefront's route table, `contract/routes.json`: every page path and the
//! page that renders it. The shell builds its router from the same file, so a
//! path answers 200 here exactly when the browser has a page for it.
//!
//! A page whose state lives only in the open tab (the order review, reached from
//! the address step) names with `pageLoadOpens` the page a page load of it shows
//! instead: the shell replaces the address before its first render, and the server
//! prepares that page (its head, preloads and first answers) from the start rather
//! than one the browser would leave at once.
//!
//! A route marked `noindex` (the back office under `/admin`) is kept out of search
//! indexes whatever page it shows.

use serde::Deserialize;

/// The committed table, compiled in so the binary and the shell cannot disagree.
const ROUTES_JSON: &str = include_str!("../../../contract/routes.json");

/// One storefront page: a wouter-style path (`/brand/:brandSlug`) and its page id (`catalog/Brand`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Route {
    pub path: String,
    pub page: String,
    /// The path a page load (an open, a reload) of this one shows instead.
    #[serde(default, rename = "pageLoadOpens")]
    pub page_load_opens: Option<String>,
    /// Kept out of search indexes (`<meta name="robots" content="noindex">`).
    #[serde(default)]
    pub noindex: bool,
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
    /// The route is kept out of search indexes.
    pub noindex: bool,
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
        if let Some(bad) = table
            .routes
            .iter()
            .find(|r| r.page_load_opens.as_deref().is_some_and(|to| to.contains(':') || table.route_at(to).is_none()))
        {
            return Err(format!("contract/routes.json: `{}` opens a page load at a path that is no page", bad.path));
        }
        Ok(table)
    }

    /// The page a page load of `path` shows: the page `path` names (a trailing slash is ignored), or the one
    /// its route opens on a page load.
    #[must_use]
    pub fn find<'t, 'p>(&'t self, path: &'p str) -> Option<Matched<'t, 'p>> {
        let (route, params) = self.route_at(path)?;
        match route.page_load_opens.as_deref() {
            // Followed once: what a page load opens is a page of its own, not another page load.
            Some(opens) => self.route_at(opens).map(|(opened, _)| Matched {
                page: &opened.page,
                params: Vec::new(),
                noindex: route.noindex || opened.noindex,
            }),
            None => Some(Matched { page: &route.page, params, noindex: route.noindex }),
        }
    }

    /// The route a request path names, with the values of its `:param` segments.
    fn route_at<'t, 'p>(&'t self, path: &'p str) -> Option<(&'t Route, Vec<(&'t str, &'p str)>)> {
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
            Some((route, params))
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
    fn a_page_load_of_a_tab_only_page_is_the_page_it_opens() {
        let table = RouteTable::embedded().expect("valid table");
        assert_eq!(table.find("/review").map(|m| m.page), Some("checkout/Address"));
        assert_eq!(table.find("/address").map(|m| m.page), Some("checkout/Address"));
        let chained = RouteTable::parse(
            r#"{ "routes": [
                { "path": "/a", "page": "A", "pageLoadOpens": "/b" },
                { "path": "/b", "page": "B", "pageLoadOpens": "/c" },
                { "path": "/c", "page": "C" }
            ] }"#,
        )
        .expect("valid");
        assert_eq!(chained.find("/a").map(|m| m.page), Some("B"), "followed once");
        for opens in ["/nowhere", "/x/:id"] {
            let json = format!(r#"{{ "routes": [{{ "path": "/a", "page": "A", "pageLoadOpens": "{opens}" }}] }}"#);
            assert!(RouteTable::parse(&json).is_err(), "{opens}");
        }
    }

    #[test]
    fn noindex_routes_say_so_and_others_do_not() {
        let table = RouteTable::embedded().expect("valid table");
        for path in ["/admin", "/admin/login", "/admin/setup", "/admin/products/p1", "/admin/staff/"] {
            let matched = table.find(path).expect("an admin page");
            assert_eq!((matched.page, matched.noindex), ("admin/Admin", true), "{path}");
        }
        for path in ["/", "/login", "/review", "/about"] {
            assert!(!table.find(path).expect("a page").noindex, "{path}");
        }
        let parsed = RouteTable::parse(
            r#"{ "routes": [{ "path": "/x", "page": "X", "noindex": true }, { "path": "/y", "page": "Y" }] }"#,
        )
        .expect("valid");
        assert_eq!(parsed.find("/x").map(|m| m.noindex), Some(true));
        assert_eq!(parsed.find("/y").map(|m| m.noindex), Some(false));
    }

    #[test]
    fn malformed_tables_are_refused() {
        assert!(RouteTable::parse("{}").is_err());
        assert!(RouteTable::parse(r#"{ "routes": [{ "path": "about", "page": "About" }] }"#).is_err());
    }
}
