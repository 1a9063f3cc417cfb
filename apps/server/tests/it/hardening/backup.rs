//! Black-box test of backup and restore with the real binary: a shop with a catalog, a customer
//! and a paid order on an embedded database is exported, imported into a fresh data directory
//! and served again with the same products, orders, invoice and session. Also: what the binary
//! refuses in `prod`.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_marque-server");
/// The sandbox's fixed development key id (`SandboxConfig::dev`).
const KEY_ID: &str = "rzp_test_MarqueSandbox";

fn command(data: &Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("MARQUE_DATA_DIR", data)
        .env("MARQUE_ADDR", "127.0.0.1:0")
        .env("MARQUE_WEB_DIR", "/nonexistent-web-dir")
        .env("MARQUE_SEED_PRODUCTS", "40")
        // Reads straight from the store, so a snapshot right after the order sees its stock.
        .env("MARQUE_CATALOG_CACHE_MB", "0")
        .env("RUST_LOG", "warn");
    cmd
}

/// A server serving `data`, stopped (SIGTERM, graceful) when dropped.
struct Server {
    child: Child,
    base: String,
    client: reqwest::Client,
}

impl Server {
    fn start(cmd: &mut Command) -> Self {
        let (child, base) =
            crate::helpers::process::spawn_listening(cmd.arg("serve").stdout(Stdio::piped()).stderr(Stdio::inherit()));
        let base = base.expect("the server prints its address");
        Self { child, base, client: reqwest::Client::new() }
    }

    fn stop(mut self) {
        let _ = Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
        let _ = self.child.wait();
    }

    async fn json(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut request = self.client.request(method, format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let resp = request.send().await.expect("the server answers");
        let status = resp.status().as_u16();
        let text = resp.text().await.expect("a body");
        (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: JSON ({e}): {text}")))
    }

    async fn get(&self, path: &str, token: Option<&str>) -> Value {
        let (status, body) = self.json(reqwest::Method::GET, path, token, None).await;
        assert_eq!(status, 200, "{path}: {body}");
        body
    }

    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Value {
        let (status, answer) = self.json(reqwest::Method::POST, path, token, Some(body)).await;
        assert_eq!(status, 200, "{path}: {answer}");
        answer
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("the binary runs")
}

/// Signs up, verifies, adds an address and pays for one product through the sandbox:
/// the customer's token and id.
async fn shop_with_an_order(server: &Server) -> (String, String) {
    let mobile = "9876512345";
    let form = reqwest::multipart::Form::new()
        .text("name", "Asha")
        .text("email", "asha@example.in")
        .text("password", "abcdef1!")
        .text("mobile", mobile);
    let resp =
        server.client.post(format!("{}/api/register", server.base)).multipart(form).send().await.expect("answer");
    assert_eq!(resp.status().as_u16(), 200);
    let outbox = server.get("/api/dev/outbox", None).await;
    let code: String = outbox
        .as_array()
        .and_then(|m| m.iter().find(|m| m["recipient"] == mobile))
        .and_then(|m| m["text"].as_str())
        .expect("the code was sent")
        .chars()
        .take(6)
        .collect();
    let verified = server.post("/api/verify", None, json!({ "mobile": mobile, "otp": code })).await;
    let token = verified["token"].as_str().expect("token").to_owned();
    let user = server.get("/api/user", Some(&token)).await["user"]["_id"].as_str().expect("id").to_owned();
    let address = json!({ "houseNo": "12B", "street": "", "landmark": "", "city": "Town", "state": "Delhi",
                          "mobileNo": "9876543210", "pincode": "110001", "gstin": "" });
    let (status, added) =
        server.json(reqwest::Method::PATCH, &format!("/api/add/address/{user}"), Some(&token), Some(address)).await;
    assert_eq!(status, 200, "{added}");
    let products = server.get("/api/get/new-products", None).await;
    let product = products["data"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["quantity"].as_u64().unwrap_or(0) >= 1))
        .expect("a product in stock")["_id"]
        .clone();
    let paying = server
        .post(
            "/api/razorpay/pay",
            Some(&token),
            json!({ "products": [{ "_id": product, "quantity": 1 }], "address": { "_id": added["_id"] } }),
        )
        .await;
    let order_id = paying["paymentResponse"]["id"].clone();
    let handler = server
        .post("/sandbox/razorpay/pay", None, json!({ "order_id": order_id, "key_id": KEY_ID, "outcome": "success" }))
        .await;
    let option = json!({ "razorpayOption": {
        "order_id": handler["razorpay_order_id"], "razorpay_order_id": handler["razorpay_order_id"],
        "razorpay_payment_id": handler["razorpay_payment_id"], "razorpay_signature": handler["razorpay_signature"] } });
    server.post("/api/razorpay/success", Some(&token), option).await;
    (token, user)
}

/// What the comparison reads: the catalog, the customer's orders and profile, and an invoice.
async fn snapshot(server: &Server, token: &str, user: &str) -> (Value, Value, Value, Vec<u8>) {
    let products = server.get("/api/get/new-products", None).await;
    // A search (full-text index) for a word of the newest product's name.
    let word: String =
        products["data"][0]["name"].as_str().expect("a name").chars().take_while(char::is_ascii_alphanumeric).collect();
    let search = server.get(&format!("/api/get/productBySearch?search={word}&page=1"), None).await;
    let orders = server.get(&format!("/api/get/orderhistory/{user}"), Some(token)).await;
    let me = server.get("/api/user", Some(token)).await;
    let order = orders["result"][0]["_id"].as_str().expect("an order").to_owned();
    let resp = server
        .client
        .get(format!("{}/api/get/invoice/{order}", server.base))
        .bearer_auth(token)
        .send()
        .await
        .expect("answer");
    assert_eq!(resp.status().as_u16(), 200);
    let pdf = resp.bytes().await.expect("the invoice").to_vec();
    (json!([products, search]), orders, me, pdf)
}

#[tokio::test]
async fn a_backup_restores_the_whole_shop_into_a_fresh_data_dir() {
    let original = tempfile::tempdir().expect("a directory");
    let restored = tempfile::tempdir().expect("a directory");
    let backup = original.path().join("backups").join("shop.surql");

    let server = Server::start(&mut command(original.path()));
    let (token, user) = shop_with_an_order(&server).await;
    let before = snapshot(&server, &token, &user).await;
    assert_eq!(before.1["result"].as_array().map(Vec::len), Some(1), "one order: {}", before.1);
    server.stop();

    let out = run(command(original.path()).arg("export").arg(&backup));
    assert!(out.status.success(), "export: {}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::metadata(&backup).is_ok_and(|m| m.len() > 0), "the backup is written");

    let out = run(command(restored.path()).arg("import").arg(&backup));
    assert!(out.status.success(), "import: {}", String::from_utf8_lossy(&out.stderr));
    // A second import would mix two shops: refused, naming the flag that allows it.
    let out = run(command(restored.path()).arg("import").arg(&backup));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("not empty") && stderr.contains("--replace"), "{stderr}");
    let out = run(command(restored.path()).arg("import").arg("--replace").arg(&backup));
    assert!(out.status.success(), "import --replace: {}", String::from_utf8_lossy(&out.stderr));

    // The restored shop is the same shop: catalog, orders, the customer's session and invoice.
    let server = Server::start(command(restored.path()).env("MARQUE_SEED_PRODUCTS", "7"));
    let after = snapshot(&server, &token, &user).await;
    assert_eq!(after.0, before.0, "the catalog");
    assert_eq!(after.1, before.1, "the orders");
    assert_eq!(after.2, before.2, "the customer, through the same session");
    assert_eq!(after.3, before.3, "the invoice, byte for byte");
    server.stop();
}

#[test]
fn importing_a_missing_file_says_so() {
    let dir = tempfile::tempdir().expect("a directory");
    let out = run(command(dir.path()).arg("import").arg(dir.path().join("nope.surql")));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such file"), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Every setting `prod` needs, for an embedded database in `dir`.
fn production(dir: &Path) -> Command {
    let mut cmd = command(dir);
    for (k, v) in [
        ("MARQUE_ENV", "prod"),
        ("MARQUE_PUBLIC_URL", "https://www.marqueparts.in"),
        ("MARQUE_SECRET", "0123456789abcdef0123456789abcdef"),
        ("MARQUE_CLIENT_VALIDATION", "client-check"),
        ("MARQUE_STAFF_SEAL_KEY", "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"),
        ("MARQUE_RAZORPAY_KEY_ID", "rzp_live_1"),
        ("MARQUE_RAZORPAY_KEY_SECRET", "live-key"),
        ("MARQUE_RAZORPAY_WEBHOOK_SECRET", "live-hook"),
        ("MARQUE_SMTP_HOST", "127.0.0.1"),
        ("MARQUE_SMTP_FROM", "Marque Parts <no-reply@marqueparts.in>"),
        ("MARQUE_SMS_AUTH_KEY", "key"),
        ("MARQUE_SMS_SENDER", "MRQPRT"),
        ("MARQUE_SMS_DLT_ENTITY_ID", "1201159000000000001"),
        ("MARQUE_SMS_OTP_TEMPLATE_ID", "tmpl-otp"),
        ("MARQUE_SHOP_LEGAL_NAME", "Marque Parts Private Limited"),
        ("MARQUE_SHOP_ADDRESS", "Plot 14, Okhla, New Delhi 110020"),
        ("MARQUE_SHOP_GSTIN", "07AAKCM4821R1ZU"),
        ("MARQUE_SHOP_STATE", "Delhi"),
        ("MARQUE_SUPPORT_EMAIL", "support@marqueparts.in"),
        ("MARQUE_SUPPORT_PHONE", "+91 11 4055 8200"),
        ("MARQUE_ENQUIRY_PHONE", "+91 98100 42424"),
        ("MARQUE_GRIEVANCE_NAME", "Anita Sharma"),
        ("MARQUE_GRIEVANCE_EMAIL", "grievance@marqueparts.in"),
        ("MARQUE_GRIEVANCE_PHONE", "+91 11 4055 8201"),
    ] {
        cmd.env(k, v);
    }
    cmd
}

#[tokio::test]
async fn prod_serves_an_empty_database_without_the_demo_and_refuses_to_seed() {
    let dir = tempfile::tempdir().expect("a directory");
    let out = run(production(dir.path()).arg("seed"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("MARQUE_ENV=prod"), "{stderr}");
    let server = Server::start(&mut production(dir.path()));
    let products = server.get("/api/get/new-products", None).await;
    assert_eq!(products["data"].as_array().map(Vec::len), Some(0), "no demo products: {products}");
    server.stop();
}

#[test]
fn prod_lists_every_refusal_before_starting() {
    let dir = tempfile::tempdir().expect("a directory");
    // An address that cannot be bound: were the configuration not refused, `serve` would still
    // stop instead of serving on.
    let out = run(production(dir.path())
        .env("MARQUE_ADDR", "256.0.0.1:0")
        .env("MARQUE_SECRET", "marque-dev-secret-not-for-production")
        .env_remove("MARQUE_CLIENT_VALIDATION")
        .arg("serve"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("MARQUE_SECRET is the published development key"), "{stderr}");
    assert!(stderr.contains("MARQUE_CLIENT_VALIDATION is not set"), "{stderr}");
}

/// A data directory seeded with `products` demo products, exported to `backup`.
fn seeded_and_exported(dir: &Path, products: &str, backup: &Path) {
    let out = run(command(dir).arg("seed").arg("--products").arg(products));
    assert!(out.status.success(), "seed: {}", String::from_utf8_lossy(&out.stderr));
    let out = run(command(dir).arg("export").arg(backup));
    assert!(out.status.success(), "export: {}", String::from_utf8_lossy(&out.stderr));
}

/// What the database in `dir` holds, as a fresh export reads it (its end mark aside).
fn contents(dir: &Path, scratch: &Path) -> String {
    let out = run(command(dir).arg("export").arg(scratch));
    assert!(out.status.success(), "export: {}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(scratch).expect("the export");
    text.lines().filter(|l| !l.starts_with("-- marque backup end:")).collect::<Vec<_>>().join("\n")
}

/// Two seeded shops: `kept` (30 products, what it holds in `before`) and another (9), whose backup is `other_backup`.
struct Shops {
    kept: tempfile::TempDir,
    _other: tempfile::TempDir,
    files: tempfile::TempDir,
    other_backup: std::path::PathBuf,
    before: String,
}

fn two_shops() -> Shops {
    let (kept, other, files) =
        (tempfile::tempdir().expect("dir"), tempfile::tempdir().expect("dir"), tempfile::tempdir().expect("dir"));
    let other_backup = files.path().join("other.surql");
    seeded_and_exported(kept.path(), "30", &files.path().join("kept.surql"));
    seeded_and_exported(other.path(), "9", &other_backup);
    let before = contents(kept.path(), &files.path().join("before.surql"));
    Shops { kept, _other: other, files, other_backup, before }
}

#[test]
fn a_backup_that_does_not_read_through_to_its_end_is_refused_before_anything_is_erased() {
    let Shops { kept, files, other_backup, before, .. } = two_shops();

    let whole = std::fs::read(&other_backup).expect("the backup");
    // Cut in the middle of a statement, and cut cleanly after a whole line (every statement
    // before it complete: the engine alone would import it without a word), and its last byte.
    let half = whole.len() / 2;
    let line_end = whole[..half].iter().rposition(|b| *b == b'\n').expect("a line break") + 1;
    for (what, cut) in [
        ("mid-statement", &whole[..half]),
        ("after a whole line", &whole[..line_end]),
        ("its last byte", &whole[..whole.len() - 1]),
    ] {
        let truncated = files.path().join("truncated.surql");
        std::fs::write(&truncated, cut).expect("written");
        let out = run(command(kept.path()).arg("import").arg("--replace").arg(&truncated));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{what}: a truncated backup was imported");
        assert!(
            stderr.contains("does not read through to its end") && stderr.contains("nothing was changed"),
            "{what}: {stderr}"
        );
        assert_eq!(contents(kept.path(), &files.path().join("after.surql")), before, "{what}: the shop is as it was");
        assert!(!kept.path().join("backups").exists(), "{what}: refused before the safety export");
    }
    // The whole file is accepted.
    let out = run(command(kept.path()).arg("import").arg("--replace").arg(&other_backup));
    assert!(out.status.success(), "the whole backup: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn import_replace_saves_what_it_erases_to_a_safety_export_first() {
    let Shops { kept, files, other_backup, before, .. } = two_shops();

    let out = run(command(kept.path()).arg("import").arg("--replace").arg(&other_backup));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "import --replace: {}", String::from_utf8_lossy(&out.stderr));
    let saved: Vec<_> = std::fs::read_dir(kept.path().join("backups"))
        .expect("a backups directory")
        .map(|e| e.expect("entry").path())
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let safety = &saved[0];
    let name = safety.file_name().and_then(|n| n.to_str()).expect("a name");
    assert!(name.starts_with("before-import-") && name.ends_with(".surql"), "{name}");
    assert!(stdout.contains(&safety.display().to_string()), "the import names the safety export: {stdout}");
    assert_ne!(contents(kept.path(), &files.path().join("replaced.surql")), before, "replaced by the other shop");

    // The safety export is a whole backup: importing it brings the erased shop back.
    let out = run(command(kept.path()).arg("import").arg("--replace").arg(safety));
    assert!(out.status.success(), "restoring the safety export: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(contents(kept.path(), &files.path().join("back.surql")), before, "the erased shop is back");
    assert_eq!(
        std::fs::read_dir(kept.path().join("backups")).expect("dir").count(),
        2,
        "a second safety export, of the other shop"
    );

    // An empty database has nothing to save.
    let empty = tempfile::tempdir().expect("dir");
    let out = run(command(empty.path()).arg("import").arg("--replace").arg(&other_backup));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!empty.path().join("backups").exists(), "nothing to save");
}
