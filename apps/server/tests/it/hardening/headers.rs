//! Black-box tests of what every response carries (security headers) and what every request
//! may send (body limits): the real server on port 0.

use crate::helpers::customers::{customer, read};
use crate::helpers::{spawn_shop, spawn_with, TestShop};
use marque_server::settings::Environment;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

fn header(resp: &reqwest::Response, name: &str) -> Option<String> {
    resp.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned)
}

/// The directive `name` of a Content-Security-Policy, e.g. `script-src 'self'`.
fn directive(csp: &str, name: &str) -> String {
    csp.split(';')
        .map(str::trim)
        .find(|d| d.split(' ').next() == Some(name))
        .unwrap_or_else(|| panic!("{name} in {csp}"))
        .to_owned()
}

fn assert_hardened(resp: &reqwest::Response, what: &str) {
    let csp = header(resp, "content-security-policy").unwrap_or_else(|| panic!("{what}: a Content-Security-Policy"));
    let script = directive(&csp, "script-src");
    assert!(script.starts_with("script-src 'self'"), "{what}: {csp}");
    assert!(!script.contains("unsafe-inline") && !script.contains("unsafe-eval"), "{what}: {csp}");
    assert_eq!(directive(&csp, "object-src"), "object-src 'none'", "{what}");
    assert_eq!(directive(&csp, "frame-ancestors"), "frame-ancestors 'self'", "{what}");
    assert_eq!(directive(&csp, "base-uri"), "base-uri 'self'", "{what}");
    assert_eq!(directive(&csp, "form-action"), "form-action 'self'", "{what}");
    assert_eq!(header(resp, "x-content-type-options").as_deref(), Some("nosniff"), "{what}");
    assert!(header(resp, "referrer-policy").is_some(), "{what}");
    assert_eq!(header(resp, "x-frame-options").as_deref(), Some("SAMEORIGIN"), "{what}");
}

#[tokio::test]
async fn pages_and_api_answers_carry_the_security_headers() {
    let shop = spawn_shop().await;
    for path in
        ["/", "/search?q=brake", "/no-such-page", "/api/get/new-products", "/api/get/no-such-call", "/robots.txt"]
    {
        let resp = shop.get(path).await;
        assert_hardened(&resp, path);
        assert_eq!(header(&resp, "strict-transport-security"), None, "{path}: no HSTS outside prod");
    }
    let page = shop.get("/").await;
    assert_eq!(header(&page, "referrer-policy").as_deref(), Some("strict-origin-when-cross-origin"));
    // The sandbox checkout is same-origin in dev: nothing but the shop's own scripts.
    let csp = header(&page, "content-security-policy").expect("csp");
    assert_eq!(directive(&csp, "script-src"), "script-src 'self'");
    assert!(directive(&csp, "frame-src").contains("blob:"), "the invoice viewer's frame: {csp}");
    // A page that sets its own policy keeps it.
    let landing = shop.get("/login/success").await;
    assert_eq!(header(&landing, "referrer-policy").as_deref(), Some("no-referrer"));
    assert_hardened(&shop.get("/api/openapi.json").await, "the API document");
}

#[tokio::test]
async fn a_page_holds_no_inline_executable_script() {
    let shop = spawn_shop().await;
    let html = shop.get("/").await.text().await.expect("html");
    let source = std::fs::read_to_string(crate::helpers::repo_root().join("frontends/shell/public/index.html"))
        .expect("the shell's template");
    for (what, text) in [("the served page", html.as_str()), ("the shell's template", source.as_str())] {
        for tag in text.split("<script").skip(1).map(|rest| rest.split('>').next().unwrap_or_default()) {
            let data = tag.contains("type=\"application/json\"") || tag.contains("type=\"application/ld+json\"");
            assert!(data || tag.contains("src="), "{what}: an inline executable <script{tag}>");
        }
    }
    assert!(html.contains("<script id=\"marque-shop\" type=\"application/json\">"), "the identity is data");
}

#[tokio::test]
async fn the_configured_checkout_script_and_its_api_are_allowed() {
    let shop = spawn_with(|c| {
        c.payment.razorpay_key_id = Some("rzp_test_1".into());
        c.payment.razorpay_key_secret = Some("k".into());
        c.payment.razorpay_webhook_secret = Some("w".into());
        c.payment.razorpay_script_url = Some("https://checkout.razorpay.com/v1/checkout.js".into());
        c.remotes = "catalog=https://cdn.example.in/catalog/remoteEntry.js".into();
    })
    .await;
    let csp = header(&shop.get("/").await, "content-security-policy").expect("csp");
    assert_eq!(directive(&csp, "script-src"), "script-src 'self' https://checkout.razorpay.com https://cdn.example.in");
    let frames = directive(&csp, "frame-src");
    assert!(frames.contains("https://api.razorpay.com") && frames.contains("https://checkout.razorpay.com"), "{csp}");
    assert!(directive(&csp, "connect-src").contains("https://cdn.example.in"), "{csp}");
}

#[tokio::test]
async fn prod_adds_strict_transport_security() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let shop = spawn_with(|c| *c = marque_server::Flags::prod_for_tests(dir.path())).await;
    for path in ["/", "/api/get/new-products"] {
        let resp = shop.get(path).await;
        assert_hardened(&resp, path);
        assert_eq!(header(&resp, "strict-transport-security").as_deref(), Some("max-age=31536000"), "{path}");
    }
}

#[tokio::test]
async fn prod_refuses_a_dev_configuration_with_every_reason_at_once() {
    let mut flags = marque_server::Flags::for_tests(std::path::PathBuf::from("/nonexistent-web-dir"));
    flags.env = Environment::Prod;
    let err = marque_server::Settings::from_flags(flags).expect_err("refused").to_string();
    for name in
        ["MARQUE_SHOP_GSTIN", "MARQUE_RAZORPAY_KEY_ID", "MARQUE_SMTP_HOST", "MARQUE_SECRET", "MARQUE_CLIENT_VALIDATION"]
    {
        assert!(err.contains(name), "{name} in {err}");
    }
}

async fn assert_too_large(resp: reqwest::Response, what: &str) {
    let (status, body) = read(resp).await;
    assert_eq!(status, 413, "{what}: {body}");
    assert_eq!(body["code"], "request.too_large", "{what}: {body}");
    assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "{what}: {body}");
}

fn url(shop: &TestShop, path: &str) -> String {
    format!("{}{path}", shop.base)
}

#[tokio::test]
async fn an_oversized_json_body_is_refused_with_413() {
    let shop = spawn_shop().await;
    let big = serde_json::json!({ "email": "a@b.in", "password": "x".repeat(100 * 1024) });
    assert_too_large(shop.client.post(url(&shop, "/api/login")).json(&big).send().await.expect("answer"), "login")
        .await;
    // The same call within the limit is answered as usual.
    let small = serde_json::json!({ "email": "a@b.in", "password": "abcdef1!" });
    let (status, _) = read(shop.client.post(url(&shop, "/api/login")).json(&small).send().await.expect("answer")).await;
    assert_eq!(status, 401);
    // The sandbox's routes are limited too.
    let resp = shop.client.post(url(&shop, "/sandbox/razorpay/pay")).json(&big).send().await.expect("answer");
    assert_too_large(resp, "sandbox").await;
}

/// Sends `total` bytes as a chunked body with no `Content-Length`, and reads the answer.
async fn chunked(shop: &TestShop, path: &str, total: usize) -> (u16, serde_json::Value) {
    let addr = shop.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connects");
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.expect("head written");
    let chunk = vec![b' '; 16 * 1024];
    let mut sent = 0;
    while sent < total {
        let frame = [format!("{:x}\r\n", chunk.len()).into_bytes(), chunk.clone(), b"\r\n".to_vec()].concat();
        // The server stops reading at the limit; later writes may fail once it has answered.
        if stream.write_all(&frame).await.is_err() {
            break;
        }
        sent += chunk.len();
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    let text = String::from_utf8_lossy(&answer);
    let status: u16 =
        text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("a status line: {text}"));
    let body = text.split("\r\n\r\n").nth(1).unwrap_or_default();
    (status, serde_json::from_str(body).unwrap_or_else(|e| panic!("JSON ({e}): {text}")))
}

#[tokio::test]
async fn a_chunked_body_past_the_limit_is_refused_without_being_read_whole() {
    let shop = spawn_shop().await;
    let (status, body) = chunked(&shop, "/api/login", 1024 * 1024).await;
    assert_eq!(status, 413, "{body}");
    assert_eq!(body["code"], "request.too_large");
}

#[tokio::test]
async fn pictures_have_a_larger_limit_and_refuse_past_it() {
    let shop = spawn_shop().await;
    let (token, user) = customer(&shop, "big@example.in", "9876500011").await;
    let path = format!("/api/update/user/{user}");
    // 1 MB is far above a JSON call's limit but within a picture's: the picture itself is judged.
    let form = reqwest::multipart::Form::new()
        .part("profile", reqwest::multipart::Part::bytes(vec![7u8; 1024 * 1024]).file_name("me.png"));
    let (status, body) =
        read(shop.client.patch(url(&shop, &path)).bearer_auth(&token).multipart(form).send().await.expect("answer"))
            .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("avatar.invalid")), "{body}");
    let form = reqwest::multipart::Form::new()
        .part("profile", reqwest::multipart::Part::bytes(vec![7u8; 7 * 1024 * 1024]).file_name("me.png"));
    let resp = shop.client.patch(url(&shop, &path)).bearer_auth(&token).multipart(form).send().await.expect("answer");
    assert_too_large(resp, "a 7 MB picture").await;
}

#[tokio::test]
async fn the_webhook_has_its_own_limit() {
    let shop = spawn_shop().await;
    let webhook = url(&shop, "/api/razorpay/webhook");
    // 100 KiB is within the webhook's limit: judged by its signature.
    let event = format!("{{\"event\":\"payment.captured\",\"pad\":\"{}\"}}", "x".repeat(100 * 1024));
    let resp =
        shop.client.post(&webhook).header("x-razorpay-signature", "00").body(event).send().await.expect("answer");
    let (status, body) = read(resp).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("payment.signature_invalid")), "{body}");
    let event = format!("{{\"event\":\"payment.captured\",\"pad\":\"{}\"}}", "x".repeat(300 * 1024));
    let resp =
        shop.client.post(&webhook).header("x-razorpay-signature", "00").body(event).send().await.expect("answer");
    assert_too_large(resp, "a 300 KiB event").await;
}
