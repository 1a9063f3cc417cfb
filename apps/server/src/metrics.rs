//! What the server does, counted for Prometheus: `GET /metrics` in its text format.
//!
//! Where it is served is `MARQUE_METRICS` ([`MetricsAt`]): by default on a listener of its own on
//! loopback (`127.0.0.1:9464`), for an agent on the same machine; `public` serves it on the main
//! port beside the shop; `off` records nothing.
//!
//! What is counted, and where (each through the `metrics` facade, which costs nothing while no
//! recorder is installed, as in tests that start the app in-process):
//! - `marque_http_requests_total{operation,status}` and `marque_http_request_duration_seconds{operation}`:
//!   every request, by its OpenAPI `operationId` (or `storefront`, `media`, `sandbox`, `metrics`,
//!   `api_unknown`), by the request log's layer ([`crate::request_log::log_requests`]) with [`Operations`].
//! - `marque_catalog_cache_total{outcome}`: the catalog answer cache's hits and misses (`adapters/catalog-cache`).
//! - `marque_db_call_duration_seconds{store,call}`: every database call (`adapters/surreal`).
//! - `marque_holds_total{event}`, `marque_payments_total{outcome}`, `marque_orders_placed_total`,
//!   `marque_refunds_total{state}`: checkout (`core/app`).
//! - `marque_import_jobs_total`: bulk imports (none yet: registered at 0).
//! - `process_resident_memory_bytes`: the process's resident memory, read at each scrape.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

use marque_api::allow::PathTemplate;
use metrics::{Counter, Histogram, SharedString};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use poem::http::{Method, StatusCode};
use poem::{handler, IntoResponse, Response};

/// Where `GET /metrics` is served (`MARQUE_METRICS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricsAt {
    /// On the main port, beside the shop (`public`): for a scraper that reaches only that port.
    Public,
    /// Nowhere, and nothing is recorded (`off`).
    Off,
    /// On a listener of its own at this loopback address (the default, `127.0.0.1:9464`).
    Loopback(SocketAddr),
}

impl MetricsAt {
    /// `public`, `off`, or a loopback `ip:port`.
    ///
    /// # Errors
    /// A message naming the setting when the value is none of those, or the address is not loopback.
    pub fn parse(value: &str) -> Result<Self, String> {
        match value.trim() {
            "public" => Ok(Self::Public),
            "off" => Ok(Self::Off),
            other => match other.parse::<SocketAddr>() {
                Ok(addr) if addr.ip().is_loopback() => Ok(Self::Loopback(addr)),
                Ok(addr) => Err(format!(
                    "MARQUE_METRICS `{other}`: the metrics listener takes a loopback address ({} is not one); \
                     use `public` to serve /metrics on the main port",
                    addr.ip()
                )),
                Err(_) => Err(format!(
                    "MARQUE_METRICS `{other}`: expected `public`, `off` or a loopback ip:port like 127.0.0.1:9464"
                )),
            },
        }
    }
}

/// Latency buckets (seconds) of every histogram: 1 ms to 10 s.
const BUCKETS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// How often the recorded histogram samples are folded into their buckets.
const UPKEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// Installs the process's recorder (once; later calls return the same handle) and registers
/// every metric, so each is scraped, at 0, before its first event.
///
/// # Errors
/// When another recorder was installed first.
pub fn install() -> Result<&'static PrometheusHandle, String> {
    if let Some(handle) = HANDLE.get() {
        return Ok(handle);
    }
    let recorder = PrometheusBuilder::new().set_buckets(BUCKETS).map_err(|e| e.to_string())?.build_recorder();
    let handle = recorder.handle();
    ::metrics::set_global_recorder(recorder).map_err(|e| format!("a metrics recorder was installed already: {e}"))?;
    describe();
    let handle = HANDLE.get_or_init(|| handle);
    // A histogram keeps each sample until upkeep folds it into its buckets; a scrape does that
    // too, but with nobody scraping the samples pile up (80 MB in one `make bench`), so fold them
    // every few seconds.
    let upkept = handle.clone();
    std::thread::Builder::new()
        .name("metrics-upkeep".to_owned())
        .spawn(move || loop {
            std::thread::sleep(UPKEEP_EVERY);
            upkept.run_upkeep();
        })
        .map_err(|e| format!("the metrics upkeep thread: {e}"))?;
    Ok(handle)
}

fn describe() {
    use ::metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!("marque_http_requests_total", "HTTP requests answered, by operation and status.");
    describe_histogram!(
        "marque_http_request_duration_seconds",
        Unit::Seconds,
        "Time to answer an HTTP request, by operation."
    );
    describe_counter!(
        "marque_catalog_cache_total",
        "Catalog reads by the answer cache: hit, miss, or bypass (version not confirmed)."
    );
    describe_histogram!(
        "marque_db_call_duration_seconds",
        Unit::Seconds,
        "Time of one database call, by store and call."
    );
    describe_counter!("marque_holds_total", "Stock holds of checkouts: held, or expired (given back unpaid).");
    describe_counter!(
        "marque_payments_total",
        "Payments reported or checked: captured, not_paid, failed (the browser's report), bad_signature."
    );
    describe_counter!("marque_orders_placed_total", "Orders placed.");
    describe_counter!("marque_refunds_total", "Refunds of payments that found no stock, by the provider's state.");
    describe_counter!("marque_import_jobs_total", "Bulk import jobs run.");
    describe_gauge!("process_resident_memory_bytes", Unit::Bytes, "Resident memory of the server process.");
    for (name, label, values) in [
        ("marque_catalog_cache_total", "outcome", &["hit", "miss", "bypass"][..]),
        ("marque_holds_total", "event", &["held", "expired"][..]),
        ("marque_payments_total", "outcome", &["captured", "not_paid", "failed", "bad_signature"][..]),
    ] {
        for value in values {
            ::metrics::counter!(name, label => *value).absolute(0);
        }
    }
    ::metrics::counter!("marque_orders_placed_total").absolute(0);
    ::metrics::counter!("marque_import_jobs_total").absolute(0);
}

/// The text of a scrape, with the memory read now; `None` while no recorder is installed.
#[must_use]
pub fn render() -> Option<String> {
    let handle = HANDLE.get()?;
    if let Some(bytes) = resident_bytes() {
        // A gauge is a float; byte counts below 2^53 are exact.
        ::metrics::gauge!("process_resident_memory_bytes").set(bytes as f64);
    }
    Some(handle.render())
}

/// `VmRSS` of `/proc/self/status`, in bytes (Linux; `None` elsewhere).
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.trim_start_matches("VmRSS:").trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb * 1024)
}

/// `GET /metrics`: Prometheus' text format; 404 while nothing is recorded.
#[handler]
pub fn scrape() -> Response {
    match render() {
        Some(text) => Response::builder()
            .content_type("text/plain; version=0.0.4; charset=utf-8")
            .header("cache-control", "no-store")
            .body(text),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// Serves only `GET /metrics` at `addr`, on a task of its own; returns the address bound.
///
/// # Errors
/// When `addr` cannot be bound.
pub async fn serve_apart(addr: SocketAddr) -> std::io::Result<SocketAddr> {
    use poem::listener::{Acceptor as _, Listener as _};
    let acceptor = poem::listener::TcpListener::bind(addr).into_acceptor().await?;
    let bound = acceptor.local_addr().first().and_then(|a| a.as_socket_addr().copied()).unwrap_or(addr);
    let route = poem::Route::new().at("/metrics", poem::get(scrape));
    tokio::spawn(async move {
        if let Err(e) = poem::Server::new_with_acceptor(acceptor).run(route).await {
            tracing::warn!(error = %e, "the metrics listener stopped");
        }
    });
    Ok(bound)
}

/// Each API path of the published document as its segments (`None` for a `{parameter}`), with
/// its method and the meters of its `operationId`: the `operation` label of a request.
#[derive(Debug, Default)]
pub struct Operations {
    /// Paths without a parameter, by path, with their methods: a lookup.
    exact: HashMap<Box<str>, Vec<(Method, usize)>>,
    /// Paths with parameters, by their part before the first parameter, in the router's order of
    /// precedence ([`PathTemplate::precedence`]).
    templates: HashMap<Box<str>, Vec<(Method, PathTemplate, usize)>>,
    /// How many `/`s those parts hold, each once, most first.
    prefix_slashes: Vec<usize>,
    /// One per `operationId`, then one per part of the shop outside the document ([`OUTSIDE`]).
    meters: Vec<Meters>,
}

/// The `operation` label of requests outside the document, in the order of their meters.
const OUTSIDE: [&str; 5] = ["metrics", "api_unknown", "media", "sandbox", "storefront"];

/// The statuses whose counters an operation keeps at hand once first answered; any other status
/// is counted through the recorder's registry on each answer (rare).
const KEPT_STATUSES: [u16; 20] =
    [200, 201, 204, 206, 301, 302, 303, 304, 400, 401, 403, 404, 405, 409, 413, 415, 422, 429, 500, 503];

/// The meters of one `operation` label: made on its first answer and kept, so a request costs
/// no label allocation and no registry lookup. Made before a recorder is installed, a meter
/// records nothing (in-process tests; `main` installs the recorder before it builds the routes).
#[derive(Debug)]
pub(crate) struct Meters {
    operation: SharedString,
    duration: OnceLock<Histogram>,
    counts: [OnceLock<Counter>; KEPT_STATUSES.len()],
}

impl Meters {
    fn new(operation: &str) -> Self {
        Self {
            operation: SharedString::from_shared(Arc::from(operation)),
            duration: OnceLock::new(),
            counts: std::array::from_fn(|_| OnceLock::new()),
        }
    }

    pub(crate) fn record(&self, status: StatusCode, took: std::time::Duration) {
        let operation = || self.operation.clone();
        self.duration
            .get_or_init(|| ::metrics::histogram!("marque_http_request_duration_seconds", "operation" => operation()))
            .record(took.as_secs_f64());
        let text = || status.as_str().to_owned();
        match KEPT_STATUSES.iter().position(|kept| *kept == status.as_u16()) {
            Some(at) => self.counts[at]
                .get_or_init(|| {
                    ::metrics::counter!("marque_http_requests_total", "operation" => operation(), "status" => text())
                })
                .increment(1),
            None => ::metrics::counter!("marque_http_requests_total", "operation" => operation(), "status" => text())
                .increment(1),
        }
    }
}

impl Operations {
    /// The table of the OpenAPI document `spec` (JSON).
    #[must_use]
    pub fn new(spec: &str) -> Self {
        let mut operations = Self::default();
        if let Ok(doc) = serde_json::from_str::<serde_json::Value>(spec) {
            for (path, item) in doc["paths"].as_object().into_iter().flatten() {
                let template = PathTemplate::parse(path);
                for (method, op) in item.as_object().into_iter().flatten() {
                    let (Ok(method), Some(id)) =
                        (method.to_ascii_uppercase().parse::<Method>(), op["operationId"].as_str())
                    else {
                        continue;
                    };
                    let at = operations.meters.len();
                    match template.literal() {
                        Some(literal) => {
                            operations.exact.entry(literal.into()).or_default().push((method, at));
                        }
                        None => {
                            if let Some((prefix, slashes)) = template.prefix() {
                                operations.templates.entry(prefix.into()).or_default().push((
                                    method,
                                    template.clone(),
                                    at,
                                ));
                                operations.prefix_slashes.push(slashes);
                            }
                        }
                    }
                    operations.meters.push(Meters::new(id));
                }
            }
        }
        operations.prefix_slashes.sort_unstable_by(|a, b| b.cmp(a));
        operations.prefix_slashes.dedup();
        for templates in operations.templates.values_mut() {
            templates.sort_by_key(|(_, template, _)| std::cmp::Reverse(template.precedence()));
        }
        operations.meters.extend(OUTSIDE.map(Meters::new));
        operations
    }

    /// The meters of a request's `operation` label: its `operationId` (HEAD counts as GET), else a
    /// name for the part of the shop it asked, so the label's values stay few whatever is asked.
    pub(crate) fn meters(&self, method: &Method, path: &str) -> &Meters {
        let first_outside = self.meters.len() - OUTSIDE.len();
        let outside = |name: &str| first_outside + OUTSIDE.iter().position(|o| *o == name).unwrap_or(0);
        let at = if path == "/api" || path.starts_with("/api/") {
            let method = if method == Method::HEAD { &Method::GET } else { method };
            // A path without parameters first, as the router prefers it.
            let exact = || self.exact.get(path)?.iter().find(|(m, _)| m == method).map(|(_, at)| *at);
            // Then the templates sharing the path's part before their first parameter, the longest first.
            let templated = || {
                self.prefix_slashes.iter().find_map(|slashes| {
                    let (end, _) = path.match_indices('/').nth(*slashes - 1)?;
                    self.templates
                        .get(&path[..=end])?
                        .iter()
                        .find(|(m, template, _)| m == method && template.matches(path))
                        .map(|(_, _, at)| *at)
                })
            };
            exact().or_else(templated).unwrap_or_else(|| outside("api_unknown"))
        } else if path == "/metrics" {
            outside("metrics")
        } else if path.starts_with("/media/") {
            outside("media")
        } else if path.starts_with(crate::app::SANDBOX_PATH) {
            outside("sandbox")
        } else {
            outside("storefront")
        };
        &self.meters[at]
    }

    /// The `operation` label a request is counted under.
    #[must_use]
    pub fn name(&self, method: &Method, path: &str) -> &str {
        &self.meters(method, path).operation
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_takes_public_off_or_a_loopback_address() {
        assert_eq!(MetricsAt::parse("public"), Ok(MetricsAt::Public));
        assert_eq!(MetricsAt::parse(" off "), Ok(MetricsAt::Off));
        assert_eq!(
            MetricsAt::parse("127.0.0.1:9464"),
            Ok(MetricsAt::Loopback("127.0.0.1:9464".parse().expect("an address")))
        );
        assert_eq!(MetricsAt::parse("[::1]:0"), Ok(MetricsAt::Loopback("[::1]:0".parse().expect("an address"))));
        let refusal = MetricsAt::parse("0.0.0.0:9464").expect_err("not loopback");
        assert!(refusal.contains("loopback") && refusal.contains("public"), "{refusal}");
        assert!(MetricsAt::parse("yes").is_err());
    }

    #[test]
    fn every_operation_of_the_published_document_is_named_by_its_own_id() {
        let spec = include_str!("../../../contract/openapi.json");
        let ops = Operations::new(spec);
        let doc: serde_json::Value = serde_json::from_str(spec).expect("the document");
        let mut named = 0;
        for (path, item) in doc["paths"].as_object().expect("paths") {
            let asked: String =
                path.split('/').map(|s| if s.starts_with('{') { "p000042" } else { s }).collect::<Vec<_>>().join("/");
            for (method, op) in item.as_object().expect("methods") {
                let method: Method = method.to_ascii_uppercase().parse().expect("a method");
                assert_eq!(ops.name(&method, &asked), op["operationId"].as_str().expect("an id"), "{method} {asked}");
                named += 1;
            }
        }
        assert!(named > 100, "{named} operations");
    }

    #[test]
    fn a_request_is_named_by_its_operation_or_its_part_of_the_shop() {
        let spec = r#"{"paths": {
            "/api/get/productById/{id}": {"get": {"operationId": "getProductById"}},
            "/api/add/address/{userId}": {"patch": {"operationId": "addAddress"}},
            "/api/get/{anything}": {"get": {"operationId": "getAnything"}},
            "/api/get/brakes/{part}": {"get": {"operationId": "getBrakePart"}},
            "/api/remove/{userId}/address/{addressId}": {"delete": {"operationId": "removeAddress"}},
            "/api/get/new-products": {"get": {"operationId": "getNewProducts"}, "post": {"operationId": "postNew"}}
        }}"#;
        let ops = Operations::new(spec);
        assert_eq!(ops.name(&Method::GET, "/api/get/productById/p-42"), "getProductById");
        assert_eq!(ops.name(&Method::HEAD, "/api/get/productById/p-42"), "getProductById");
        assert_eq!(ops.name(&Method::PATCH, "/api/add/address/u1"), "addAddress");
        assert_eq!(ops.name(&Method::POST, "/api/add/address/u1"), "api_unknown");
        assert_eq!(ops.name(&Method::GET, "/api/get/productById/"), "api_unknown");
        assert_eq!(
            ops.name(&Method::GET, "/api/get/new-products"),
            "getNewProducts",
            "a path without parameters first"
        );
        assert_eq!(ops.name(&Method::POST, "/api/get/new-products"), "postNew");
        assert_eq!(ops.name(&Method::GET, "/api/get/brakes"), "getAnything");
        assert_eq!(ops.name(&Method::GET, "/api/get/brakes/discs"), "getBrakePart", "the longer literal part first");
        assert_eq!(ops.name(&Method::GET, "/api/get/pads/discs"), "api_unknown");
        assert_eq!(ops.name(&Method::DELETE, "/api/remove/u1/address/a2"), "removeAddress");
        assert_eq!(ops.name(&Method::DELETE, "/api/remove/u1/address/"), "api_unknown");
        assert_eq!(ops.name(&Method::GET, "/api/get/"), "api_unknown");
        assert_eq!(ops.name(&Method::GET, "/product/p-42"), "storefront");
        assert_eq!(ops.name(&Method::GET, "/media/avatars/a.webp"), "media");
        assert_eq!(ops.name(&Method::GET, "/metrics"), "metrics");
    }
}
