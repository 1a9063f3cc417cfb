//! "The server says what it does": the real binary counts every request by its operation and
//! status on `GET /metrics` (Prometheus' text format), served on a loopback listener of its own
//! unless `MARQUE_METRICS=public`, and every request's log lines and answer carry its id.

use crate::helpers;

use std::time::Duration;

use helpers::process::{free_port, start, ServerProcess};

fn env_with<'a>(dir: &std::path::Path, extra: &[(&'a str, String)]) -> Vec<(&'a str, String)> {
    let mut env = vec![
        ("MARQUE_DATA_DIR", dir.join("data").display().to_string()),
        ("MARQUE_DB", "mem://".to_owned()),
        ("MARQUE_WEB_DIR", "/nonexistent-web-dir".to_owned()),
        ("MARQUE_SEED_PRODUCTS", "20".to_owned()),
        // Plain log lines to read back.
        ("NO_COLOR", "1".to_owned()),
    ];
    env.extend_from_slice(extra);
    env
}

/// The body of `GET url`, with its status and content type.
async fn get(url: &str) -> (u16, String, String) {
    let resp = reqwest::get(url).await.expect("an answer");
    let status = resp.status().as_u16();
    let kind = resp.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    (status, kind, resp.text().await.expect("a body"))
}

/// The scrape at `url`, waiting for the listener the server opens just after the shop's.
async fn scrape(url: &str) -> String {
    for _ in 0..100 {
        if let Ok(resp) = reqwest::get(url).await {
            assert_eq!(resp.status().as_u16(), 200);
            let kind = resp.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
            assert!(kind.starts_with("text/plain"), "{kind}");
            return resp.text().await.expect("a body");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("nothing answers at {url}");
}

/// The value of the sample `name{…}` whose labels include every one of `labels`.
fn sample(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    text.lines().filter(|l| !l.starts_with('#')).find_map(|line| {
        let (series, value) = line.rsplit_once(' ')?;
        let rest = series.strip_prefix(name)?;
        let found = if labels.is_empty() {
            rest.is_empty() || rest.starts_with('{')
        } else {
            rest.starts_with('{') && labels.iter().all(|(k, v)| rest.contains(&format!("{k}=\"{v}\"")))
        };
        found.then(|| value.parse().ok()).flatten()
    })
}

fn is_scrape(body: &str) -> bool {
    body.contains("marque_http_requests_total")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_on_their_loopback_port_count_each_operation_with_its_status() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let port = free_port();
    let server: ServerProcess = start(
        &env_with(dir.path(), &[("MARQUE_METRICS", format!("127.0.0.1:{port}"))]),
        &dir.path().join("server.log"),
    );
    let metrics = format!("http://127.0.0.1:{port}/metrics");
    let before = scrape(&metrics).await;
    // Registered before anything happened: the import jobs (none yet), holds, orders.
    assert_eq!(sample(&before, "marque_import_jobs_total", &[]), Some(0.0), "{before}");
    assert_eq!(sample(&before, "marque_orders_placed_total", &[]), Some(0.0), "{before}");
    assert_eq!(sample(&before, "marque_holds_total", &[("event", "held")]), Some(0.0), "{before}");

    for _ in 0..3 {
        assert_eq!(get(&format!("{}/api/get/category", server.base)).await.0, 200);
    }
    let (missing, _, _) = get(&format!("{}/api/get/productById/no-such-product", server.base)).await;
    assert!((400..500).contains(&missing), "{missing}");
    // Not on the main port: there it is just an unknown page.
    let (_, _, main) = get(&format!("{}/metrics", server.base)).await;
    assert!(!is_scrape(&main), "the main port serves no metrics by default: {main}");

    let text = scrape(&metrics).await;
    let ok = sample(&text, "marque_http_requests_total", &[("operation", "listCategories"), ("status", "200")]);
    assert!(ok.is_some_and(|n| n >= 3.0), "three listCategories answered 200: {text}");
    let refused = sample(
        &text,
        "marque_http_requests_total",
        &[("operation", "getProductById"), ("status", &missing.to_string())],
    );
    assert_eq!(refused, Some(1.0), "{text}");
    let timed = sample(&text, "marque_http_request_duration_seconds_count", &[("operation", "listCategories")]);
    assert!(timed.is_some_and(|n| n >= 3.0), "a latency histogram per operation: {text}");
    assert!(text.contains("marque_http_request_duration_seconds_bucket{"), "{text}");
    assert!(
        sample(&text, "marque_db_call_duration_seconds_count", &[("store", "CatalogStore")]).is_some_and(|n| n > 0.0),
        "{text}"
    );
    let cache: f64 = ["hit", "miss", "bypass"]
        .iter()
        .filter_map(|o| sample(&text, "marque_catalog_cache_total", &[("outcome", o)]))
        .sum();
    assert!(cache >= 1.0, "catalog reads go through the cache: {text}");
    assert!(sample(&text, "process_resident_memory_bytes", &[]).is_some_and(|b| b > 1e6), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_main_port_serves_metrics_only_when_public() {
    let dir = tempfile::tempdir().expect("temporary directory");
    // The default: no MARQUE_METRICS at all.
    let default = start(&env_with(dir.path(), &[]), &dir.path().join("default.log"));
    let (status, _, body) = get(&format!("{}/metrics", default.base)).await;
    assert!(!is_scrape(&body), "{status}: {body}");
    drop(default);

    let public =
        start(&env_with(dir.path(), &[("MARQUE_METRICS", "public".to_owned())]), &dir.path().join("public.log"));
    assert_eq!(get(&format!("{}/api/get/category", public.base)).await.0, 200);
    let (status, kind, text) = get(&format!("{}/metrics", public.base)).await;
    assert_eq!(status, 200, "{text}");
    assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    let ok = sample(&text, "marque_http_requests_total", &[("operation", "listCategories"), ("status", "200")]);
    assert!(ok.is_some_and(|n| n >= 1.0), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_answers_its_id_and_its_log_lines_carry_it() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let server = start(&env_with(dir.path(), &[("MARQUE_METRICS", "off".to_owned())]), &dir.path().join("server.log"));
    let client = reqwest::Client::new();
    let id_of = |resp: &reqwest::Response| {
        resp.headers().get("x-request-id").and_then(|v| v.to_str().ok()).expect("x-request-id answered").to_owned()
    };

    // A sane id the request brings is kept.
    let brought = client
        .get(format!("{}/api/get/category", server.base))
        .header("x-request-id", "probe-7f3c.42")
        .send()
        .await
        .expect("an answer");
    assert_eq!(id_of(&brought), "probe-7f3c.42");
    // None, or one that is not sane: a new one, different each time.
    let made = client.get(format!("{}/api/get/brand/oem", server.base)).send().await.expect("an answer");
    let odd = client
        .get(format!("{}/api/get/nothing-here", server.base))
        .header("x-request-id", "two words; and more")
        .send()
        .await
        .expect("an answer");
    let (made, odd) = (id_of(&made), id_of(&odd));
    for id in [&made, &odd] {
        assert!(id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    }
    assert_ne!(made, odd);

    let logs = server.logs();
    for (id, path) in [
        ("probe-7f3c.42", "/api/get/category"),
        (made.as_str(), "/api/get/brand/oem"),
        (odd.as_str(), "/api/get/nothing-here"),
    ] {
        let line = logs
            .lines()
            .find(|l| l.contains(&format!("request_id={id}")) && l.contains(path) && l.contains("response"))
            .unwrap_or_else(|| panic!("the answer's log line names {id}:\n{logs}"));
        assert!(line.contains("status="), "{line}");
    }
    assert!(!logs.contains("two words"), "an odd id is not logged: {logs}");
}
