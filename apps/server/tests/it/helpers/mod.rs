//! Starts the real server on port 0 with a fresh `mem://` database, for black-box tests.
// Each test binary uses a different part of these helpers.
#![allow(dead_code)]

pub mod customers;
pub mod google;
pub mod payments;
pub mod process;
pub mod staff;

use std::path::PathBuf;

use marque_server::listener::NoDelayAcceptor;
use marque_server::{App, Flags, Settings};
use poem::listener::Acceptor;
use poem::Server;

/// The process's count of picture decodes (`marque_api::avatar::decodes_started`) is read by
/// `picture_bomb`, which holds this for writing; every test that uploads a picture that decodes
/// holds it for reading meanwhile, so the count moves only by the bomb test's own uploads.
pub static DECODING: tokio::sync::RwLock<()> = tokio::sync::RwLock::const_new(());

/// Products in every test shop (the deterministic demo catalog's first ones).
pub const PRODUCTS: u32 = 120;

#[derive(Debug)]
pub struct TestShop {
    pub base: String,
    pub client: reqwest::Client,
}

impl TestShop {
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(format!("{}{path}", self.base)).send().await.expect("the server answers")
    }

    /// The status of a GET of `path` revalidating `tag` (`If-None-Match`).
    pub async fn revalidate(&self, path: &str, tag: &str) -> u16 {
        let resp = self.client.get(format!("{}{path}", self.base)).header("if-none-match", tag).send().await;
        resp.expect("the server answers").status().as_u16()
    }

    pub async fn get_json(&self, path: &str) -> (u16, serde_json::Value) {
        let resp = self.get(path).await;
        let status = resp.status().as_u16();
        let ct = resp.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
        assert!(ct.starts_with("application/json"), "{path}: content-type {ct}");
        (status, resp.json().await.expect("a JSON body"))
    }
}

/// A shop seeded with the demo catalog; the frontends are not built (placeholder page).
pub async fn spawn_shop() -> TestShop {
    spawn_with(|_| {}).await
}

pub async fn spawn_with(configure: impl FnOnce(&mut Flags)) -> TestShop {
    spawn_app_with(configure).await.0
}

/// [`spawn_with`], and the app it serves (its use cases and, through the `test-hooks` feature,
/// its database) for tests that put records in place.
pub async fn spawn_app_with(configure: impl FnOnce(&mut Flags)) -> (TestShop, App) {
    let mut flags = Flags::for_tests(PathBuf::from("/nonexistent-web-dir"));
    flags.seed_products = PRODUCTS;
    configure(&mut flags);
    let settings = Settings::from_flags(flags).unwrap_or_else(|e| panic!("{e}"));
    let app = App::connect(settings).await.expect("the shop starts on mem://");
    app.seed_if_empty().await.expect("the demo catalog is written");
    (serve(&app).await, app)
}

/// Serves `app` on a free port until the test ends.
pub async fn serve(app: &App) -> TestShop {
    let routes = app.routes().expect("routes build");
    let acceptor =
        NoDelayAcceptor::bind("127.0.0.1:0").await.expect("port 0 binds").with_timeouts(app.settings.limits.timeouts());
    let addr = acceptor.local_addr()[0].as_socket_addr().copied().expect("a socket address");
    tokio::spawn(Server::new_with_acceptor(acceptor).run(routes));
    TestShop { base: format!("http://{addr}"), client: reqwest::Client::new() }
}

/// A client that shows redirects instead of following them (the Google sign-in flow).
pub fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client")
}

/// Where a 302 answer sends the browser.
pub fn location(resp: &reqwest::Response) -> String {
    assert_eq!(resp.status().as_u16(), 302, "a redirect");
    resp.headers().get("location").and_then(|v| v.to_str().ok()).expect("location").to_owned()
}

/// The value of query parameter `name` in `url`.
pub fn query_value(url: &str, name: &str) -> String {
    let query = url.split_once('?').map_or("", |(_, q)| q);
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).expect("a query");
    pairs.into_iter().find(|(k, _)| k == name).map(|(_, v)| v).unwrap_or_else(|| panic!("{name} in {url}"))
}

/// Polls `check` every 20 ms until it holds, for at most `limit`; returns how long it took.
pub async fn within(
    limit: std::time::Duration,
    what: &str,
    mut check: impl AsyncFnMut() -> bool,
) -> std::time::Duration {
    let start = std::time::Instant::now();
    loop {
        if check().await {
            return start.elapsed();
        }
        assert!(start.elapsed() < limit, "{what}: not visible after {limit:?}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// The repository's root, for committed files such as the contract.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The catalog calls two shops' answers are compared on: the home lists, the categories and
/// brands, a search for each of `texts` (and its second page), every brand's, category's and
/// subcategory's page of the demo catalog, and the first `products` products.
pub fn catalog_paths(products: u32, texts: &[&str]) -> Vec<String> {
    let mut paths: Vec<String> =
        ["/api/get/category", "/api/get/brand/oem", "/api/get/new-products", "/api/get/suggestion"]
            .into_iter()
            .map(str::to_owned)
            .collect();
    for text in texts {
        paths.push(format!("/api/get/productBySearch?search={text}"));
        paths.push(format!("/api/get/productBySearch?search={text}&page=2"));
    }
    for brand in marque_server::seed::brands() {
        paths.push(format!("/api/get/productByOem/{}", brand.slug));
    }
    for category in marque_server::seed::categories() {
        paths.push(format!("/api/get/product/{}", category.slug));
        paths.push(format!("/api/get/product/{}?oem=bmw--audi&product_type=old", category.slug));
        for sub in &category.subcategories {
            paths.push(format!("/api/get/product/{}/{}", category.slug, sub.slug));
        }
    }
    for n in 0..products {
        paths.push(format!("/api/get/productById/{}", marque_server::seed::product(n).id.as_str()));
    }
    paths
}

/// The `paths` two shops answer differently (status, tag or body).
pub async fn differing(a: &TestShop, b: &TestShop, paths: &[String]) -> Vec<String> {
    let mut differ = Vec::new();
    for path in paths {
        let (one, other) = (a.get(path).await, b.get(path).await);
        let same_head = one.status() == other.status() && one.headers().get("etag") == other.headers().get("etag");
        if !same_head || one.bytes().await.expect("a body") != other.bytes().await.expect("a body") {
            differ.push(path.clone());
        }
    }
    differ
}
