//! The database server going away and coming back, black-box: `marque-server` on `ws://` to a
//! real SurrealDB server (`surreal start`, from `MARQUE_SURREAL_BIN`), which the test kills and
//! starts again on the same port and data directory. While it is gone every call answers 503 with
//! a JSON body (no hang, no 500) and readiness says so while liveness does not; once it is back
//! the same `marque-server` process serves again, without a restart.
//!
//! Run alone: `MARQUE_SURREAL_BIN=$(tools/surreal-server.sh) cargo test -p marque-server --test
//! it database_outage::`. Without `MARQUE_SURREAL_BIN` it prints `SKIPPED` and checks nothing.

use crate::helpers;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use helpers::customers::{authed, customer, read, PASSWORD};
use helpers::process::{free_port, start};
use helpers::TestShop;
use reqwest::Method;
use serde_json::{json, Value};

const USER: &str = "root";
const PASS: &str = "outage-test-pass";

/// A `surreal start` process; killed (SIGKILL) when dropped.
struct SurrealServer {
    child: Child,
}

impl SurrealServer {
    /// Starts the server on `port` over `data` and waits until it accepts connections.
    async fn start(bin: &Path, port: u16, data: &Path, log: &Path) -> Self {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(log).expect("the log file");
        let child = Command::new(bin)
            .args([
                "start",
                "--bind",
                &format!("127.0.0.1:{port}"),
                "--username",
                USER,
                "--password",
                PASS,
                "--log",
                "warn",
            ])
            .arg(format!("surrealkv://{}", data.display()))
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log handle"))
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("{} starts: {e}", bin.display()));
        let server = Self { child };
        for _ in 0..600 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return server;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("surreal did not listen on port {port}");
    }

    fn kill(&mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }
}

impl Drop for SurrealServer {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.kill();
        }
    }
}

/// Status and JSON body of a call made with `request`; the client gives up after 10 s, so an
/// answer at all means the server did not hang.
async fn answer(request: reqwest::RequestBuilder, what: &str) -> (u16, Value) {
    let resp =
        request.timeout(Duration::from_secs(10)).send().await.unwrap_or_else(|e| panic!("{what}: no answer: {e}"));
    read(resp).await
}

struct Calls<'a> {
    shop: &'a TestShop,
    token: &'a str,
    address: &'a str,
    product: &'a str,
}

impl Calls<'_> {
    /// A search never asked before (so never cached), a login and a pay.
    async fn each(&self, round: u32) -> Vec<(&'static str, u16, Value)> {
        let shop = self.shop;
        let search = shop.client.get(format!("{}/api/get/productBySearch?search=disc{round}x&page=1", shop.base));
        let login = shop
            .client
            .post(format!("{}/api/login", shop.base))
            .json(&json!({ "email": "outage@example.in", "password": PASSWORD }));
        let pay = authed(shop, Method::POST, "/api/razorpay/pay", self.token)
            .await
            .json(&json!({ "products": [{ "_id": self.product, "quantity": 1 }], "address": { "_id": self.address } }));
        vec![
            ("search", answer(search, "search").await),
            ("login", answer(login, "login").await),
            ("pay", answer(pay, "pay").await),
        ]
        .into_iter()
        .map(|(what, (status, body))| (what, status, body))
        .collect()
    }
}

/// Whether the server answers its readiness with 200 within `tries` reads half a second apart.
async fn ready_within(shop: &TestShop, tries: u32) -> bool {
    for _ in 0..tries {
        if status_of(shop, "/api/health/ready").await.0 == 200 {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    false
}

async fn status_of(shop: &TestShop, path: &str) -> (u16, Value) {
    answer(shop.client.get(format!("{}{path}", shop.base)), path).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_answer_503_while_the_database_is_gone_and_recover_when_it_returns() {
    let Some(bin) = std::env::var_os("MARQUE_SURREAL_BIN").filter(|b| !b.is_empty()).map(PathBuf::from) else {
        // Straight to the stream, past the test harness's capture, so the line shows in every run.
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            b"SKIPPED database_outage: MARQUE_SURREAL_BIN is not set (tools/surreal-server.sh prints the path)\n",
        );
        return;
    };
    let dir = tempfile::tempdir().expect("temporary directory");
    let data = dir.path().join("surreal");
    let surreal_log = dir.path().join("surreal.log");
    let port = free_port();
    let mut surreal = SurrealServer::start(&bin, port, &data, &surreal_log).await;
    let env = [
        ("MARQUE_DB", format!("ws://127.0.0.1:{port}")),
        ("MARQUE_DB_USER", USER.to_owned()),
        ("MARQUE_DB_PASS", PASS.to_owned()),
        // The server's own root user (a dev run; two_instances.rs signs in as a database user).
        ("MARQUE_DB_AUTH", "root".to_owned()),
        ("MARQUE_DATA_DIR", dir.path().join("data").display().to_string()),
        ("MARQUE_WEB_DIR", "/nonexistent-web-dir".to_owned()),
        ("MARQUE_SEED_PRODUCTS", "30".to_owned()),
        ("MARQUE_SECRET", "outage-test-secret-0123456789".to_owned()),
    ];
    let server = start(&env, &dir.path().join("server.log"));
    let shop = server.shop();
    let (token, user) = customer(&shop, "outage@example.in", "9876509876").await;
    let address = json!({
        "houseNo": "1", "street": "", "landmark": "", "city": "Town", "state": "Delhi",
        "mobileNo": "9876543210", "pincode": "110001", "gstin": ""
    });
    let (status, saved) = answer(
        authed(&shop, Method::PATCH, &format!("/api/add/address/{user}"), &token).await.json(&address),
        "address",
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    let (_, newest) = status_of(&shop, "/api/get/new-products").await;
    let product = newest["data"]
        .as_array()
        .and_then(|all| all.iter().find(|p| p["quantity"].as_u64().unwrap_or(0) >= 3))
        .and_then(|p| p["_id"].as_str())
        .expect("a product with 3+ units")
        .to_owned();
    let calls =
        Calls { shop: &shop, token: &token, address: saved["_id"].as_str().expect("address id"), product: &product };
    // Readiness waits for the start-up work (the warm-up, the catalog index, the vehicle seed), which a
    // loaded machine can take a while over.
    let started = std::time::Instant::now();
    assert!(
        ready_within(&shop, 120).await,
        "the server was not ready within 60 s of starting; marque-server's log:\n{}",
        server.logs()
    );
    eprintln!("ready {:?} after the first calls", started.elapsed());
    for (what, status, body) in calls.each(0).await {
        assert_eq!(status, 200, "{what} before the outage: {body}");
    }

    surreal.kill();
    let killed = std::time::Instant::now();
    // The first calls may find the connection reset, later ones the link closed: 503 either way.
    for round in 1..=3 {
        let asked = std::time::Instant::now();
        let answers = calls.each(round).await;
        // Figures for the reader (`--nocapture`), never asserted.
        eprintln!("outage round {round}: search, login and pay answered in {:?}", asked.elapsed());
        for (what, status, body) in answers {
            assert_eq!(
                (status, body["status"].as_str()),
                (503, Some("failed")),
                "{what} while the database is gone: {body}"
            );
            assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "{what}: {body}");
        }
    }
    let (status, body) = status_of(&shop, "/api/health/live").await;
    assert_eq!((status, body["status"].as_str()), (200, Some("ok")), "liveness touches no database: {body}");
    let (status, body) = status_of(&shop, "/api/health/ready").await;
    assert_eq!((status, body["status"].as_str()), (503, Some("degraded")), "{body}");
    assert_eq!(status_of(&shop, "/api/health").await.0, 503);

    let _surreal = SurrealServer::start(&bin, port, &data, &surreal_log).await;
    eprintln!("SurrealDB was gone for {:?}", killed.elapsed());
    let back = std::time::Instant::now();
    let ready = ready_within(&shop, 60).await;
    assert!(ready, "readiness did not come back within 30 s; marque-server's log:\n{}", server.logs());
    eprintln!("ready again {:?} after SurrealDB listened again", back.elapsed());
    for (what, status, body) in calls.each(100).await {
        assert_eq!(status, 200, "{what} after the database came back, same marque-server process: {body}");
    }
    assert_eq!(status_of(&shop, "/api/health/live").await.0, 200);
}
