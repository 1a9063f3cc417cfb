//! Warm before shoppers ask (issue 22, docs/adr/0018): after a start, the instance asks itself,
//! in-process and one call at a time, the catalog calls shoppers ask most (the home lists, the
//! categories and brands, the first page of every category and brand, every product's answer)
//! and only then reports itself ready ([`WarmUp`]); after each forget it asks again, in the
//! background, the calls whose kept answers were forgotten ([`ResponseCache::take_refill`]).
//!
//! One call at a time, each through the same API route tree shoppers use (so both caches keep
//! exactly what a shopper's request would have kept), and spending no client's budget
//! (`clients::as_warm_up`): at most one database query of the warm-up runs at any moment, so live
//! requests are never queued behind a burst of warm-up queries.

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use marque_api::response_cache::{ResponseCache, Warmed};
use marque_api::WarmUp;
use marque_ports::CatalogStore;
use poem::endpoint::DynEndpoint;
use poem::http::{Method, StatusCode};
use poem::{Request, Response};

/// The API route tree (paths inside `/api`), asked in-process; held weakly, so the task ends once
/// the server's routes are gone.
pub type Api = Weak<dyn DynEndpoint<Output = Response>>;

/// What the warm-up task needs (weakly: it never keeps the shop alive); see the module documentation.
pub struct Warming {
    pub api: Api,
    pub catalog: Weak<dyn CatalogStore>,
    pub pages: Option<Weak<ResponseCache>>,
    pub warm_up: Arc<WarmUp>,
    /// The first build of the in-process catalog index (ADR 0019), waited for before the first call.
    pub index: Option<tokio::task::JoinHandle<bool>>,
    /// Tests only: waited before the first warm-up.
    pub delay: Duration,
    /// How often forgotten answers are looked for.
    pub poll: Duration,
}

impl std::fmt::Debug for Warming {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Warming").field("delay", &self.delay).field("poll", &self.poll).finish_non_exhaustive()
    }
}

/// Asks `path` (inside `/api`, with its query) as the instance's own warm-up; whether it answered 200.
async fn ask(api: &Api, path: &str) -> bool {
    let Some(api) = api.upgrade() else { return false };
    let request = Request::builder().method(Method::GET).uri_str(path).finish();
    let answered = marque_api::clients::as_warm_up(api.call(request)).await;
    let ok = match answered {
        Ok(response) => {
            let ok = response.status() == StatusCode::OK;
            // The body is what the response cache keeps on its way out; read it to its end.
            let _ = response.into_body().into_bytes().await;
            ok
        }
        Err(_) => false,
    };
    tokio::task::yield_now().await;
    ok
}

/// The calls shoppers ask most, as far as the catalog says: the home page's, the categories and
/// brands, and the first page of every category and brand.
async fn most_asked(catalog: &Weak<dyn CatalogStore>) -> Vec<String> {
    let mut paths: Vec<String> =
        ["/get/category", "/get/brand/oem", "/get/new-products", "/get/suggestion", "/get/productBySearch"]
            .into_iter()
            .map(str::to_owned)
            .collect();
    let Some(catalog) = catalog.upgrade() else { return paths };
    match catalog.categories().await {
        Ok(categories) => paths.extend(categories.iter().map(|c| format!("/get/product/{}", c.slug))),
        Err(e) => tracing::warn!(error = %e, "warm-up: the categories cannot be read"),
    }
    match catalog.brands().await {
        Ok(brands) => paths.extend(brands.iter().map(|b| format!("/get/productByOem/{}", b.slug))),
        Err(e) => tracing::warn!(error = %e, "warm-up: the brands cannot be read"),
    }
    // Slugs are kept as typed by staff: only the ones a path carries as they are.
    paths.retain(|p| p.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'_' | b'.')));
    paths
}

/// Starts the warm-up task; it ends once the routes it asks are gone.
pub fn spawn(warming: Warming) {
    warming.warm_up.begin();
    tokio::spawn(run(warming));
}

async fn run(warming: Warming) {
    let Warming { api, catalog, pages, warm_up, index, delay, poll } = warming;
    tokio::time::sleep(delay).await;
    let started = Instant::now();
    if let Some(index) = index {
        match index.await {
            Ok(true) => tracing::debug!(took_ms = started.elapsed().as_millis(), "warm-up: the catalog index is built"),
            Ok(false) => tracing::warn!("warm-up: the catalog index is not built yet; answers come from the database"),
            Err(e) => tracing::warn!(error = %e, "warm-up: building the catalog index stopped"),
        }
    }
    let paths = most_asked(&catalog).await;
    let mut answered = 0;
    for path in &paths {
        answered += usize::from(ask(&api, path).await);
    }
    let products = match pages.as_ref().and_then(Weak::upgrade) {
        Some(pages) => match ResponseCache::warm_now(&pages).await {
            Ok(Warmed::All(n) | Warmed::Full(n)) => n,
            Ok(Warmed::Interrupted) => 0,
            Err(e) => {
                tracing::warn!(error = %e, "warm-up: the product answers could not be read");
                0
            }
        },
        None => 0,
    };
    warm_up.finish();
    tracing::info!(
        calls = paths.len(),
        answered,
        products,
        took_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        "warm-up done: reporting ready"
    );
    let Some(weak) = pages else { return };
    let mut ticks = tokio::time::interval(poll);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut generation = weak.upgrade().and_then(|p| p.generation());
    loop {
        ticks.tick().await;
        if api.strong_count() == 0 {
            return;
        }
        let Some(pages) = weak.upgrade() else { return };
        let now = pages.generation();
        let mut refill = pages.take_refill();
        drop(pages);
        // Everything was forgotten (a write that said nothing of what it changed): the most asked again.
        if now.is_some() && now != generation {
            generation = now;
            refill.extend(most_asked(&catalog).await);
        }
        for path in refill {
            ask(&api, &path).await;
        }
    }
}
