//! What a page needs first, written into its HTML so the browser does not discover it one round trip at a time:
//! preload hints for the remote that draws the page (its entry and the exposed module's chunks, read from the
//! remote's `mf-manifest.json`; the page composes the remote by its entry) and for the header's cart button, and the answers of the catalog calls
//! the page makes first, embedded as JSON (`<script id="marque-data" type="application/json">`, never an
//! executable script) after asking the API itself in-process, so they are the API's own bytes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};

use poem::endpoint::{DynEndpoint, ToDynEndpoint};
use poem::http::{HeaderMap, Method, StatusCode};
use poem::{Endpoint, EndpointExt, Request, Response};
use serde::Deserialize;
use serde_json::{json, Value};

use super::routes::Matched;

/// `contract/first-loads.json`, shared with the frontends: the ids of the JSON elements a page carries, and each
/// page's first calls with examples that the tests of both sides open (see `initial_calls`).
const FIRST_LOADS_JSON: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../contract/first-loads.json"));

/// The ids of the `<script type="application/json">` elements the server writes into a page.
#[derive(Debug, Deserialize)]
pub struct ScriptIds {
    /// The answers of the page's first catalog calls.
    pub answers: String,
    /// A signed-in customer's first answers.
    #[serde(rename = "sessionAnswers")]
    pub session_answers: String,
    /// The shop's identity.
    pub shop: String,
    /// Where each remote's entry is served.
    pub composition: String,
}

/// The element ids of `contract/first-loads.json` (checked by this module's tests, so a bad file fails them).
pub fn script_ids() -> &'static ScriptIds {
    #[derive(Deserialize)]
    struct Scripts {
        scripts: ScriptIds,
    }
    static IDS: LazyLock<ScriptIds> = LazyLock::new(|| {
        serde_json::from_str::<Scripts>(FIRST_LOADS_JSON)
            .map(|f| f.scripts)
            .expect("contract/first-loads.json names the script ids")
    });
    &IDS
}

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

/// How a preloaded file will be fetched, which the hint must match to be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreloadKind {
    /// A classic `<script>` (chunks, remote entries).
    Script,
    /// A picture the page paints first (its largest paint), fetched at once rather than when the page draws it.
    Image,
}

/// One `<link rel="preload">`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preload {
    pub href: String,
    pub kind: PreloadKind,
    /// A photograph's WebP variants (`imagesrcset`) and the slot's `imagesizes`, exactly as the page's `<img>`
    /// has them, so the browser preloads the file it will show; `None` for a picture with only an address.
    pub responsive: Option<(String, &'static str)>,
}

/// The product page's main picture's `sizes`; frontends/packages/ui/src/picture.ts `PRODUCT_SIZES` says the same.
pub const PRODUCT_SIZES: &str = "(max-width: 768px) 100vw, 640px";
/// A list card's picture's `sizes`; frontends/packages/ui/src/picture.ts `CARD_SIZES` says the same.
pub const CARD_SIZES: &str = "(max-width: 600px) 50vw, 320px";

/// The files of one remote served by this server, from its `mf-manifest.json`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RemoteFiles {
    entry: String,
    /// Exposed module name (`Home`) → the chunks it needs at once, in load order.
    exposes: BTreeMap<String, Vec<String>>,
}

impl RemoteFiles {
    /// Where the remote's entry script is served (`/remotes/catalog/remoteEntry.js`).
    #[must_use]
    pub fn entry(&self) -> &str {
        &self.entry
    }
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
    let entry_path = if entry.path.is_empty() {
        entry.name.clone()
    } else {
        format!("{}/{}", entry.path.trim_matches('/'), entry.name)
    };
    Ok(RemoteFiles {
        entry: at(&entry_path),
        exposes: manifest
            .exposes
            .into_iter()
            .map(|e| (e.name.trim_start_matches("./").to_owned(), e.assets.js.sync.iter().map(|f| at(f)).collect()))
            .collect(),
    })
}

/// The files of every remote this server serves itself (an overridden remote lives elsewhere: no hints for it).
pub fn local_remote_files(
    remote_dirs: &BTreeMap<String, PathBuf>,
    overridden: &dyn Fn(&str) -> bool,
) -> BTreeMap<String, RemoteFiles> {
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

/// The preload hints of a page drawn by `page` (`catalog/Home`): its remote's entry and chunks. Nothing for the
/// shell's own pages or an unknown remote. The pieces other remotes add to every page (the header's cart) load
/// after the first paint, so they get no hint: they would share the phone's bandwidth with what it paints first.
#[must_use]
pub fn preloads(remotes: &BTreeMap<String, RemoteFiles>, page: &str) -> Vec<Preload> {
    let Some((remote, module)) = page.split_once('/') else { return Vec::new() };
    let Some(files) = remotes.get(remote) else { return Vec::new() };
    let Some(chunks) = files.exposes.get(module) else { return Vec::new() };
    std::iter::once(&files.entry)
        .chain(chunks)
        .map(|href| Preload { href: href.clone(), kind: PreloadKind::Script, responsive: None })
        .collect()
}

/// One GET of the API: its path under `/api` and its query, in the order the page sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiCall {
    pub path: String,
    pub query: Vec<(String, String)>,
}

impl ApiCall {
    pub(super) fn new(path: impl Into<String>) -> Self {
        Self { path: path.into(), query: Vec::new() }
    }

    pub(super) fn with(mut self, key: &str, value: impl Into<String>) -> Self {
        self.query.push((key.to_owned(), value.into()));
        self
    }
}

/// The page number as the frontends read it: a whole number from 1, else 1.
pub(super) fn page_number(query: &dyn Fn(&str) -> Option<String>) -> String {
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

/// The car a listing is narrowed to, as the address carries it (`fits`, then `year` when it is a whole
/// number), appended as the frontends' listing calls append it; nothing without `fits`.
fn with_car(mut call: ApiCall, query: &dyn Fn(&str) -> Option<String>) -> ApiCall {
    if let Some(fits) = query("fits").map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()) {
        call = call.with("fits", fits);
        if let Some(year) = query("year").and_then(|y| y.trim().parse::<i64>().ok()) {
            call = call.with("year", year.to_string());
        }
    }
    call
}

/// The vehicle table's answer the listings' car chip asks to name a car of the address that the garage does not
/// hold (a shared link's `fits`): the vehicles of its generation (`fits` up to its last dot, lower-cased, as
/// frontends/catalog/src/lib/garage/vehicle-name.ts asks); nothing without `fits` or a generation in it.
fn car_name(query: &dyn Fn(&str) -> Option<String>) -> Option<ApiCall> {
    let fits = query("fits")?.trim().to_lowercase();
    let dot = fits.rfind('.').filter(|&at| at > 0)?;
    Some(ApiCall::new("/get/vehicles").with("generation", &fits[..dot]))
}

/// A path segment encoded as the frontends' client encodes it (JavaScript's `encodeURIComponent`).
pub(super) fn segment(value: &str) -> String {
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

/// The catalog calls a page of the catalog remote makes as it opens (the same paths and queries its hooks ask for,
/// as `contract/first-loads.json` lists them for both sides' tests); none for other pages (account and checkout calls are the signed-in customer's, whom the server does not know here).
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
        "catalog/Search" => [with_car(
            ApiCall::new("/get/productBySearch")
                .with("search", query("search").unwrap_or_default())
                .with("page", page_number(query)),
            query,
        )]
        .into_iter()
        .chain(car_name(query))
        .collect(),
        "catalog/Product" => match query("productId").filter(|id| !id.is_empty()) {
            Some(id) => vec![ApiCall::new(format!("/get/productById/{}", segment(&id)))],
            None => Vec::new(),
        },
        "catalog/Brand" => [
            ApiCall::new("/get/brand/oem"),
            with_car(
                ApiCall::new(format!("/get/productByOem/{}", segment(matched.param("brandSlug"))))
                    .with("page", page_number(query)),
                query,
            ),
        ]
        .into_iter()
        .chain(car_name(query))
        .collect(),
        "catalog/Category" => {
            let products = ApiCall::new(format!("/get/product/{}", segment(matched.param("categorySlug"))))
                .with("page", page_number(query));
            listing_sidebar()
                .into_iter()
                .chain([with_car(with_filters(products, query), query)])
                .chain(car_name(query))
                .collect()
        }
        "catalog/Subcategory" => {
            let products = ApiCall::new(format!(
                "/get/product/{}/{}",
                segment(matched.param("categorySlug")),
                segment(matched.param("subcategorySlug"))
            ))
            .with("page", page_number(query));
            listing_sidebar()
                .into_iter()
                .chain([with_car(with_filters(products, query), query)])
                .chain(car_name(query))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// How many pictures of a list of products the page fetches at once: the first row of cards on a phone, whose
/// first picture is the page's largest paint there.
const FIRST_LIST_PICTURES: usize = 2;

/// The pictures a catalog page paints first, from the answers embedded in it: the product's main picture, or the
/// first cards' pictures of a listing or search (its products call is the page's last). Nothing for other pages.
#[must_use]
pub fn first_pictures(page: &str, answers: &[Value]) -> Vec<Preload> {
    let (wanted, sizes) = match page {
        "catalog/Product" => (1, PRODUCT_SIZES),
        "catalog/Search" | "catalog/Brand" | "catalog/Category" | "catalog/Subcategory" => {
            (FIRST_LIST_PICTURES, CARD_SIZES)
        }
        _ => return Vec::new(),
    };
    let mut found = Vec::new();
    if let Some(body) = answers.last().and_then(|answer| answer.get("body")) {
        first_images(body, wanted, &mut found);
    }
    found
        .into_iter()
        .map(|(href, srcset)| Preload { href, kind: PreloadKind::Image, responsive: srcset.map(|s| (s, sizes)) })
        .collect()
}

/// A picture's WebP variants as a `srcset` (narrowest first), as the frontends write it; `None` without variants.
fn webp_srcset(image: &Value) -> Option<String> {
    let mut webp: Vec<(u64, &str)> = image
        .get("variants")
        .and_then(Value::as_array)?
        .iter()
        .filter(|v| v.get("format").and_then(Value::as_str) == Some("webp"))
        .filter_map(|v| Some((v.get("width")?.as_u64()?, v.get("name")?.as_str()?)))
        .collect();
    webp.sort_by_key(|(width, _)| *width);
    (!webp.is_empty())
        .then(|| webp.iter().map(|(width, name)| format!("{name} {width}w")).collect::<Vec<_>>().join(", "))
}

/// The first picture of each product (an object with `images: [{ name, variants? }]`) in document order, up to
/// `wanted`: its address and its WebP `srcset`, if it has variants.
fn first_images(value: &Value, wanted: usize, found: &mut Vec<(String, Option<String>)>) {
    if found.len() >= wanted {
        return;
    }
    match value {
        Value::Object(fields) => {
            if let Some(Value::Array(images)) = fields.get("images") {
                if let Some(image) = images.first() {
                    if let Some(name) = image.get("name").and_then(Value::as_str) {
                        if !name.is_empty() && !found.iter().any(|(f, _)| f == name) {
                            found.push((name.to_owned(), webp_srcset(image)));
                        }
                    }
                }
                return;
            }
            fields.values().for_each(|v| first_images(v, wanted, found));
        }
        Value::Array(items) => items.iter().for_each(|v| first_images(v, wanted, found)),
        _ => {}
    }
}

/// The answers as embedded in the page (`<script id="marque-data">`, [`ScriptIds::answers`]); `None` when there are none.
#[must_use]
pub fn embedded(answers: &[Value]) -> Option<String> {
    (!answers.is_empty()).then(|| Value::Array(answers.to_vec()).to_string())
}

/// Asks the API each call in-process, all at once, and gives the answers that succeeded as the JSON the
/// frontends look for: `{ "path": "/api/…", "query": { … }, "body": … }` each, in the order asked.
pub async fn answers(api: &ApiEndpoint, calls: Vec<ApiCall>) -> Vec<Value> {
    answers_with(api, calls, &HeaderMap::new()).await
}

/// [`answers`], each call carrying `headers` (a signed-in customer's, see `signed_in`).
pub async fn answers_with(api: &ApiEndpoint, calls: Vec<ApiCall>, headers: &HeaderMap) -> Vec<Value> {
    let asked = calls.into_iter().map(|call| async move {
        let uri = if call.query.is_empty() {
            call.path.clone()
        } else {
            format!("{}?{}", call.path, serde_urlencoded::to_string(&call.query).ok()?)
        };
        let mut request = Request::builder().method(Method::GET).uri_str(&uri).finish();
        request.headers_mut().extend(headers.clone());
        let response = api.0.call(request).await.ok()?;
        if response.status() != StatusCode::OK {
            return None;
        }
        let body: Value = serde_json::from_slice(&response.into_body().into_bytes().await.ok()?).ok()?;
        let query: serde_json::Map<String, Value> =
            call.query.into_iter().map(|(k, v)| (k, Value::String(v))).collect();
        Some(json!({ "path": format!("/api{}", call.path), "query": query, "body": body }))
    });
    futures::future::join_all(asked).await.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routes::RouteTable;

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
    fn a_page_preloads_its_remote_and_never_its_lazy_chunks_or_the_header_pieces() {
        let hrefs: Vec<(String, PreloadKind)> =
            preloads(&remotes(), "catalog/Home").into_iter().map(|p| (p.href, p.kind)).collect();
        assert_eq!(
            hrefs,
            vec![
                ("/remotes/catalog/remoteEntry.js".to_owned(), PreloadKind::Script),
                ("/remotes/catalog/863.4fd9dc3c.js".to_owned(), PreloadKind::Script),
                ("/remotes/catalog/__federation_expose_Home.973fc276.js".to_owned(), PreloadKind::Script),
            ]
        );
        let cart: Vec<String> = preloads(&remotes(), "checkout/CartButton").into_iter().map(|p| p.href).collect();
        assert_eq!(
            cart,
            vec!["/remotes/checkout/remoteEntry.js".to_owned(), "/remotes/checkout/cb.1234abcd.js".to_owned()]
        );
    }

    #[test]
    fn shell_pages_and_unknown_remotes_preload_nothing() {
        for page in ["shell/About", "account/Login", "catalog/Nope", "About"] {
            assert_eq!(preloads(&remotes(), page), Vec::new(), "{page}");
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
        assert_eq!(
            calls("/category/brakes", "oem=bmw--audi&page=2&other=x"),
            vec![
                ("/get/category".to_owned(), vec![]),
                ("/get/brand/oem".to_owned(), vec![]),
                ("/get/product/brakes".to_owned(), q(&[("page", "2"), ("oem", "bmw--audi")])),
            ]
        );
        assert_eq!(
            calls("/subcategory/brakes/brake-disc", "page=zero&fuel_type=diesel").last().cloned(),
            Some(("/get/product/brakes/brake-disc".to_owned(), q(&[("page", "1"), ("fuel_type", "diesel")])))
        );
        // The garage's car: `fits`, then `year` when it is a whole number, after the filters; and the vehicles of
        // its generation, which the car chip asks to name a car the garage does not hold.
        let vehicles = ("/get/vehicles".to_owned(), q(&[("generation", "bmw-x5-g05")]));
        let with_car = calls("/category/brakes", "year=2020&fits=BMW-X5-G05.B57&oem=bmw");
        assert_eq!(
            with_car[2..],
            [
                (
                    "/get/product/brakes".to_owned(),
                    q(&[("page", "1"), ("oem", "bmw"), ("fits", "BMW-X5-G05.B57"), ("year", "2020")])
                ),
                vehicles.clone(),
            ]
        );
        assert_eq!(
            calls("/brand/bmw", "fits=bmw-x5-g05.b57&year=soon")[1..],
            [("/get/productByOem/bmw".to_owned(), q(&[("page", "1"), ("fits", "bmw-x5-g05.b57")])), vehicles]
        );
        assert_eq!(calls("/search", "search=pad&fits=no-generation").len(), 1, "no vehicles without a generation");
        assert_eq!(
            calls("/search", "search=pad&year=2020&fits="),
            vec![("/get/productBySearch".to_owned(), q(&[("search", "pad"), ("page", "1")]))],
            "no car without fits"
        );
        assert_eq!(
            calls("/search", "search=A+000+180&page=3"),
            vec![("/get/productBySearch".to_owned(), q(&[("search", "A 000 180"), ("page", "3")]))]
        );
        assert_eq!(
            calls("/product", "productId=p%2F1+%C3%A9-x"),
            vec![("/get/productById/p%2F1%20%C3%A9-x".to_owned(), vec![])]
        );
        assert!(calls("/product", "").is_empty());
        assert!(calls("/login", "").is_empty());
        assert_eq!(calls("/", "").len(), 4);
    }

    /// Every example of `contract/first-loads.json` (which the frontends' test opens too): the server embeds exactly
    /// the calls it lists, and no page it does not list has any.
    #[test]
    fn every_page_embeds_the_calls_contract_first_loads_lists() {
        #[derive(Deserialize)]
        struct FirstLoads {
            pages: BTreeMap<String, PageLoads>,
        }
        #[derive(Deserialize)]
        struct PageLoads {
            examples: Vec<Example>,
        }
        #[derive(Deserialize)]
        struct Example {
            address: String,
            calls: Vec<String>,
        }
        let sorted = |(path, query): (String, Vec<(String, String)>)| {
            let mut query = query;
            query.sort();
            (path, query)
        };
        let first_loads: FirstLoads = serde_json::from_str(FIRST_LOADS_JSON).expect("contract/first-loads.json");
        let table = RouteTable::embedded().expect("routes");
        for (page, loads) in &first_loads.pages {
            assert!(!loads.examples.is_empty(), "{page}: no example");
            for example in &loads.examples {
                let (path, raw_query) = example.address.split_once('?').unwrap_or((&example.address, ""));
                assert_eq!(table.find(path).expect("a page").page, page.as_str(), "{}", example.address);
                let expected: Vec<_> = example
                    .calls
                    .iter()
                    .map(|call| {
                        let (path, query) = call.split_once('?').unwrap_or((call, ""));
                        let path = path.strip_prefix("/api").expect("an /api call").to_owned();
                        sorted((path, serde_urlencoded::from_str(query).expect("query")))
                    })
                    .collect();
                let made: Vec<_> = calls(path, raw_query).into_iter().map(sorted).collect();
                assert_eq!(made, expected, "{}", example.address);
            }
        }
        for route in ["/login", "/wishlist", "/review", "/about", "/orderhistory"] {
            let page = table.find(route).expect("a page").page.to_owned();
            assert!(!first_loads.pages.contains_key(&page) && calls(route, "").is_empty(), "{route}");
        }
        let ids = script_ids();
        assert_eq!(
            [ids.answers.as_str(), &ids.session_answers, &ids.shop, &ids.composition],
            ["marque-data", "marque-session-data", "marque-shop", "marque-composition"]
        );
    }

    fn answer(body: Value) -> Value {
        json!({ "path": "/api/get/x", "query": {}, "body": body })
    }

    fn hrefs(page: &str, answers: &[Value]) -> Vec<String> {
        first_pictures(page, answers)
            .into_iter()
            .map(|p| {
                assert_eq!(p.kind, PreloadKind::Image);
                p.href
            })
            .collect()
    }

    #[test]
    fn a_page_fetches_at_once_the_pictures_it_paints_first() {
        let card = |id: &str, pictures: &[&str]| json!({ "_id": id, "images": pictures.iter().map(|n| json!({ "name": n })).collect::<Vec<_>>() });
        let brands = answer(json!({ "data": [{ "name": "BMW", "image": "/media/oem/bmw.svg" }] }));
        let listing = answer(
            json!({ "page": 1, "results": [card("a", &["/m/a1.svg", "/m/a2.svg"]), card("b", &[]), card("c", &["/m/c1.svg"]), card("d", &["/m/d1.svg"])] }),
        );
        // The first row of cards (a card without a picture paints none), after the sidebar's answers.
        assert_eq!(hrefs("catalog/Brand", &[brands.clone(), listing.clone()]), ["/m/a1.svg", "/m/c1.svg"]);
        assert_eq!(hrefs("catalog/Search", &[listing]), ["/m/a1.svg", "/m/c1.svg"]);
        // A grouped category: the first group's first cards.
        let grouped = answer(json!({ "results": [], "subcategory": [
            { "slug": "discs", "products": [card("x", &["/m/x.svg"]), card("y", &["/m/y.svg"]), card("z", &["/m/z.svg"])] },
            { "slug": "pads", "products": [card("w", &["/m/w.svg"])] } ] }));
        assert_eq!(hrefs("catalog/Category", &[brands.clone(), grouped]), ["/m/x.svg", "/m/y.svg"]);
        // A product: its main picture only.
        assert_eq!(
            hrefs("catalog/Product", &[answer(json!({ "data": card("p", &["/m/p1.svg", "/m/p2.svg"]) }))]),
            ["/m/p1.svg"]
        );
        // The home page's largest paint is its heading; a failed products call (the sidebar answer last) has none.
        assert!(hrefs("catalog/Home", &[answer(json!({ "data": [card("n", &["/m/n.svg"])] }))]).is_empty());
        assert!(hrefs("catalog/Brand", &[brands]).is_empty());
        assert!(hrefs("catalog/Search", &[]).is_empty());
    }

    #[test]
    fn a_photograph_is_preloaded_as_the_page_shows_it() {
        let photo = |id: &str| {
            let variants: Vec<Value> = [640, 320]
                .iter()
                .flat_map(|w| {
                    ["webp", "jpeg"].map(|f| json!({ "name": format!("/media/products/p/{id}-{w}.{f}"), "width": w, "height": w * 3 / 4, "format": f }))
                })
                .collect();
            json!({ "name": format!("/media/products/p/{id}-640.jpeg"), "width": 4000, "height": 3000, "variants": variants })
        };
        let product = answer(json!({ "data": { "_id": "p", "images": [photo("a"), photo("b")] } }));
        let preloads = first_pictures("catalog/Product", &[product]);
        assert_eq!(preloads.len(), 1);
        assert_eq!(preloads[0].href, "/media/products/p/a-640.jpeg");
        assert_eq!(
            preloads[0].responsive,
            Some(("/media/products/p/a-320.webp 320w, /media/products/p/a-640.webp 640w".to_owned(), PRODUCT_SIZES))
        );
        let listing = answer(json!({ "results": [{ "_id": "p", "images": [photo("c")] }] }));
        let card = &first_pictures("catalog/Search", &[listing])[0];
        assert_eq!(card.responsive.as_ref().map(|(_, sizes)| *sizes), Some(CARD_SIZES));
        assert_eq!(PRODUCT_SIZES, "(max-width: 768px) 100vw, 640px", "frontends/packages/ui/src/picture.ts");
        assert_eq!(CARD_SIZES, "(max-width: 600px) 50vw, 320px", "frontends/packages/ui/src/picture.ts");
    }
}
