//! What a page needs first, written into its HTML so the browser does not discover it one round trip at a time:
//! preload hints for the remote that draws the page (its manifest, entry and the exposed module's chunks, read
//! from the remote's `mf-manifest.json`) and for the header's cart button, and the answers of the catalog calls
//! the page makes first, embedded as JSON (`<script id="marque-data" type="application/json">`, never an
//! executable script) after asking the API itself in-process, so they are the API's own bytes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use poem::endpoint::{DynEndpoint, ToDynEndpoint};
use poem::http::{Method, StatusCode};
use poem::{Endpoint, EndpointExt, Request, Response};
use serde::Deserialize;
use serde_json::{json, Value};

use super::routes::Matched;

/// The public API as one endpoint, served at `/api` and called in-process by the storefront (paths without the
/// `/api` prefix).
#[derive(Clone)]
pub struct ApiEndpoint(Arc<dyn DynEndpoint<Output = Response>>);

impl ApiEndpoint {
    pub fn new(endpoint: impl Endpoint + 'static) -> Self {
        Self(Arc::new(ToDynEndpoint(endpoint.map_to_response())))
    }

    /// The same endpoint, to serve.
    #[must_use]
    pub fn endpoint(&self) -> Arc<dyn DynEndpoint<Output = Response>> {
        self.0.clone()
    }
}

impl std::fmt::Debug for ApiEndpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiEndpoint")
    }
}

/// Pieces every page shows from a remote (the header's cart icon).
const EVERY_PAGE: &[&str] = &["checkout/CartButton"];

/// How a preloaded file will be fetched, which the hint must match to be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreloadKind {
    /// A classic `<script>` (chunks, remote entries).
    Script,
    /// A `fetch()` of the same origin (the federation runtime reads manifests so).
    Fetch,
}

/// One `<link rel="preload">`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preload {
    pub href: String,
    pub kind: PreloadKind,
}

/// The files of one remote served by this server, from its `mf-manifest.json`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RemoteFiles {
    manifest: String,
    entry: String,
    /// Exposed module name (`Home`) → the chunks it needs at once, in load order.
    exposes: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
struct Manifest {
    #[serde(rename = "metaData")]
    meta: ManifestMeta,
    #[serde(default)]
    exposes: Vec<ManifestExpose>,
}

#[derive(Deserialize)]
struct ManifestMeta {
    #[serde(rename = "remoteEntry")]
    remote_entry: ManifestFile,
}

#[derive(Deserialize)]
struct ManifestFile {
    name: String,
    #[serde(default)]
    path: String,
}

#[derive(Deserialize)]
struct ManifestExpose {
    name: String,
    assets: ManifestAssets,
}

#[derive(Deserialize)]
struct ManifestAssets {
    js: ManifestJs,
}

#[derive(Deserialize)]
struct ManifestJs {
    #[serde(default)]
    sync: Vec<String>,
}

/// A remote's files as served under `base` (`/remotes/catalog/`), from the text of its `mf-manifest.json`.
///
/// # Errors
/// When the text is not a federation manifest.
pub fn remote_files(base: &str, manifest_json: &str) -> Result<RemoteFiles, serde_json::Error> {
    let manifest: Manifest = serde_json::from_str(manifest_json)?;
    let at = |file: &str| format!("{base}{}", file.trim_start_matches('/'));
    let entry = &manifest.meta.remote_entry;
    let entry_path = if entry.path.is_empty() { entry.name.clone() } else { format!("{}/{}", entry.path.trim_matches('/'), entry.name) };
    Ok(RemoteFiles {
        manifest: at("mf-manifest.json"),
        entry: at(&entry_path),
        exposes: manifest
            .exposes
            .into_iter()
            .map(|e| (e.name.trim_start_matches("./").to_owned(), e.assets.js.sync.iter().map(|f| at(f)).collect()))
            .collect(),
    })
}

/// The files of every remote this server serves itself (an overridden remote lives elsewhere: no hints for it).
pub fn local_remote_files(remote_dirs: &BTreeMap<String, PathBuf>, overridden: &dyn Fn(&str) -> bool) -> BTreeMap<String, RemoteFiles> {
    remote_dirs
        .iter()
        .filter(|(name, _)| !overridden(name))
        .filter_map(|(name, dir)| {
            let text = std::fs::read_to_string(Path::new(dir).join("mf-manifest.json")).ok()?;
            match remote_files(&format!("/remotes/{name}/"), &text) {
                Ok(files) => Some((name.clone(), files)),
                Err(e) => {
                    tracing::warn!(remote = %name, error = %e, "mf-manifest.json unreadable; no preload hints for it");
                    None
                }
            }
        })
        .collect()
}

/// The preload hints of a page drawn by `page` (`catalog/Home`): its remote's manifest, entry and chunks first,
/// then those of the pieces on every page. Nothing for the shell's own pages or an unknown remote.
#[must_use]
pub fn preloads(remotes: &BTreeMap<String, RemoteFiles>, page: &str) -> Vec<Preload> {
    let mut out: Vec<Preload> = Vec::new();
    for id in std::iter::once(page).chain(EVERY_PAGE.iter().copied()) {
        let Some((remote, module)) = id.split_once('/') else { continue };
        let Some(files) = remotes.get(remote) else { continue };
        let Some(chunks) = files.exposes.get(module) else { continue };
        let wanted = [Preload { href: files.manifest.clone(), kind: PreloadKind::Fetch }, Preload {
            href: files.entry.clone(),
            kind: PreloadKind::Script,
        }]
        .into_iter()
        .chain(chunks.iter().map(|c| Preload { href: c.clone(), kind: PreloadKind::Script }));
        for preload in wanted {
            if !out.contains(&preload) {
                out.push(preload);
            }
        }
    }
    out
}

/// One GET of the API: its path under `/api` and its query, in the order the page sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiCall {
    pub path: String,
    pub query: Vec<(String, String)>,
}

impl ApiCall {
    fn new(path: impl Into<String>) -> Self {
        Self { path: path.into(), query: Vec::new() }
    }

    fn with(mut self, key: &str, value: impl Into<String>) -> Self {
        self.query.push((key.to_owned(), value.into()));
        self
    }
}

/// The page number as the frontends read it: a whole number from 1, else 1.
fn page_number(query: &dyn Fn(&str) -> Option<String>) -> String {
    query("page").and_then(|p| p.parse::<u64>().ok()).filter(|n| *n >= 1).unwrap_or(1).to_string()
}

/// A listing's filters as the address carries them (`oem`, `product_type`, `fuel_type`), the empty ones left out.
fn with_filters(mut call: ApiCall, query: &dyn Fn(&str) -> Option<String>) -> ApiCall {
    for kind in ["oem", "product_type", "fuel_type"] {
        if let Some(value) = query(kind).filter(|v| !v.is_empty()) {
            call = call.with(kind, value);
        }
    }
    call
}

/// A path segment encoded as the frontends' client encodes it (JavaScript's `encodeURIComponent`).
fn segment(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The catalog calls a page of the catalog remote makes as it opens (the same paths and queries its hooks ask for);
/// none for other pages (account and checkout calls are the signed-in customer's, whom the server does not know here).
#[must_use]
pub fn initial_calls(matched: &Matched<'_, '_>, query: &dyn Fn(&str) -> Option<String>) -> Vec<ApiCall> {
    let listing_sidebar = || [ApiCall::new("/get/category"), ApiCall::new("/get/brand/oem")];
    match matched.page {
        "catalog/Home" => vec![
            ApiCall::new("/get/new-products"),
            ApiCall::new("/get/suggestion"),
            ApiCall::new("/get/brand/oem"),
            ApiCall::new("/get/category"),
        ],
        "catalog/Search" => vec![ApiCall::new("/get/productBySearch")
            .with("search", query("search").unwrap_or_default())
            .with("page", page_number(query))],
        "catalog/Product" => match query("productId").filter(|id| !id.is_empty()) {
            Some(id) => vec![ApiCall::new(format!("/get/productById/{}", segment(&id)))],
            None => Vec::new(),
        },
        "catalog/Brand" => vec![
            ApiCall::new("/get/brand/oem"),
            ApiCall::new(format!("/get/productByOem/{}", segment(matched.param("brandSlug")))).with("page", page_number(query)),
        ],
        "catalog/Category" => {
            let products = ApiCall::new(format!("/get/product/{}", segment(matched.param("categorySlug"))))
                .with("page", page_number(query));
            listing_sidebar().into_iter().chain([with_filters(products, query)]).collect()
        }
        "catalog/Subcategory" => {
            let products = ApiCall::new(format!(
                "/get/product/{}/{}",
                segment(matched.param("categorySlug")),
                segment(matched.param("subcategorySlug"))
            ))
            .with("page", page_number(query));
            listing_sidebar().into_iter().chain([with_filters(products, query)]).collect()
        }
        _ => Vec::new(),
    }
}

/// Asks the API each call in-process, all at once, and gives the answers that succeeded as the JSON the
/// frontends look for: `[{ "path": "/api/…", "query": { … }, "body": … }]`; `None` when nothing succeeded.
pub async fn answers(api: &ApiEndpoint, calls: Vec<ApiCall>) -> Option<String> {
    let asked = calls.into_iter().map(|call| async move {
        let uri = if call.query.is_empty() {
            call.path.clone()
        } else {
            format!("{}?{}", call.path, serde_urlencoded::to_string(&call.query).ok()?)
        };
        let request = Request::builder().method(Method::GET).uri_str(&uri).finish();
        let response = api.0.call(request).await.ok()?;
        if response.status() != StatusCode::OK {
            return None;
        }
        let body: Value = serde_json::from_slice(&response.into_body().into_bytes().await.ok()?).ok()?;
        let query: serde_json::Map<String, Value> = call.query.into_iter().map(|(k, v)| (k, Value::String(v))).collect();
        Some(json!({ "path": format!("/api{}", call.path), "query": query, "body": body }))
    });
    let found: Vec<Value> = futures::future::join_all(asked).await.into_iter().flatten().collect();
    (!found.is_empty()).then(|| Value::Array(found).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::routes::RouteTable;

    const MANIFEST: &str = r#"{
      "id": "catalog", "name": "catalog",
      "metaData": { "name": "catalog", "remoteEntry": { "name": "remoteEntry.js", "path": "", "type": "global" } },
      "shared": [],
      "exposes": [
        { "id": "catalog:Home", "name": "Home", "path": "./Home",
          "assets": { "js": { "sync": ["863.4fd9dc3c.js", "__federation_expose_Home.973fc276.js"], "async": ["i18n-hi.83cab6fe.js"] },
                      "css": { "sync": [], "async": [] } } }
      ]
    }"#;

    fn remotes() -> BTreeMap<String, RemoteFiles> {
        let checkout = r#"{ "metaData": { "remoteEntry": { "name": "remoteEntry.js" } },
            "exposes": [{ "name": "CartButton", "assets": { "js": { "sync": ["cb.1234abcd.js"] } } }] }"#;
        BTreeMap::from([
            ("catalog".to_owned(), remote_files("/remotes/catalog/", MANIFEST).expect("manifest")),
            ("checkout".to_owned(), remote_files("/remotes/checkout/", checkout).expect("manifest")),
        ])
    }

    #[test]
    fn a_page_preloads_its_remote_then_the_header_pieces_and_never_its_lazy_chunks() {
        let hrefs: Vec<(String, PreloadKind)> =
            preloads(&remotes(), "catalog/Home").into_iter().map(|p| (p.href, p.kind)).collect();
        assert_eq!(hrefs, vec![
            ("/remotes/catalog/mf-manifest.json".to_owned(), PreloadKind::Fetch),
            ("/remotes/catalog/remoteEntry.js".to_owned(), PreloadKind::Script),
            ("/remotes/catalog/863.4fd9dc3c.js".to_owned(), PreloadKind::Script),
            ("/remotes/catalog/__federation_expose_Home.973fc276.js".to_owned(), PreloadKind::Script),
            ("/remotes/checkout/mf-manifest.json".to_owned(), PreloadKind::Fetch),
            ("/remotes/checkout/remoteEntry.js".to_owned(), PreloadKind::Script),
            ("/remotes/checkout/cb.1234abcd.js".to_owned(), PreloadKind::Script),
        ]);
    }

    #[test]
    fn shell_pages_and_unknown_remotes_preload_only_the_header_pieces() {
        for page in ["shell/About", "account/Login", "catalog/Nope"] {
            let hrefs: Vec<String> = preloads(&remotes(), page).into_iter().map(|p| p.href).collect();
            assert!(hrefs.iter().all(|h| h.starts_with("/remotes/checkout/")), "{page}: {hrefs:?}");
        }
        assert!(preloads(&BTreeMap::new(), "catalog/Home").is_empty());
    }

    #[test]
    fn a_manifest_that_is_not_one_is_refused() {
        assert!(remote_files("/remotes/x/", "{}").is_err());
        assert!(remote_files("/remotes/x/", "not json").is_err());
    }

    fn calls(path: &str, raw_query: &str) -> Vec<(String, Vec<(String, String)>)> {
        let table = RouteTable::embedded().expect("routes");
        let matched = table.find(path).expect("a page");
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw_query).expect("query");
        let query = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        initial_calls(&matched, &query).into_iter().map(|c| (c.path, c.query)).collect()
    }

    fn q(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn listing_pages_ask_what_their_hooks_ask() {
        assert_eq!(calls("/category/brakes", "oem=bmw--audi&page=2&other=x"), vec![
            ("/get/category".to_owned(), vec![]),
            ("/get/brand/oem".to_owned(), vec![]),
            ("/get/product/brakes".to_owned(), q(&[("page", "2"), ("oem", "bmw--audi")])),
        ]);
        assert_eq!(calls("/subcategory/brakes/brake-disc", "page=zero&fuel_type=diesel").last().cloned(), Some((
            "/get/product/brakes/brake-disc".to_owned(),
            q(&[("page", "1"), ("fuel_type", "diesel")])
        )));
        assert_eq!(calls("/search", "search=A+000+180&page=3"), vec![(
            "/get/productBySearch".to_owned(),
            q(&[("search", "A 000 180"), ("page", "3")])
        )]);
        assert_eq!(calls("/product", "productId=p%2F1+%C3%A9-x"), vec![("/get/productById/p%2F1%20%C3%A9-x".to_owned(), vec![])]);
        assert!(calls("/product", "").is_empty());
        assert!(calls("/login", "").is_empty());
        assert_eq!(calls("/", "").len(), 4);
    }
}
