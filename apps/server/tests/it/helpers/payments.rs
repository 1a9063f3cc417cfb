//! The Razorpay sandbox served by the test process (so it outlives a server it stands in for),
//! and the settings that point `marque-server` at it through the real Razorpay adapter.

use marque_razorpay_sandbox::{Sandbox, SandboxConfig};

/// A sandbox on a free port of this process, for as long as the test runs, and its address.
pub async fn sandbox() -> (Sandbox, String) {
    let acceptor = poem::listener::TcpListener::bind("127.0.0.1:0");
    let acceptor = poem::listener::Listener::into_acceptor(acceptor).await.expect("bind");
    let addr = poem::listener::Acceptor::local_addr(&acceptor)[0].as_socket_addr().copied().expect("a socket address");
    let base = format!("http://{addr}");
    let sandbox = Sandbox::new(SandboxConfig::dev(base.clone(), None));
    tokio::spawn(poem::Server::new_with_acceptor(acceptor).run(sandbox.routes()));
    (sandbox, base)
}

/// The environment of a `marque-server` on `data_dir` whose payments go to `sandbox` at `sandbox_url`.
pub fn server_env(data_dir: &std::path::Path, sandbox: &Sandbox, sandbox_url: &str) -> Vec<(&'static str, String)> {
    use secrecy::ExposeSecret;
    let config = sandbox.config();
    vec![
        ("MARQUE_DATA_DIR", data_dir.display().to_string()),
        ("MARQUE_WEB_DIR", "/nonexistent-web-dir".to_owned()),
        ("MARQUE_SEED_PRODUCTS", "40".to_owned()),
        ("MARQUE_SECRET", "durability-test-secret-0123456789".to_owned()),
        ("MARQUE_RAZORPAY_KEY_ID", config.key_id.clone()),
        ("MARQUE_RAZORPAY_KEY_SECRET", config.key_secret.expose_secret().to_owned()),
        ("MARQUE_RAZORPAY_WEBHOOK_SECRET", config.webhook_secret.expose_secret().to_owned()),
        ("MARQUE_RAZORPAY_API_URL", sandbox_url.to_owned()),
    ]
}

/// An authorised JSON call as the customer with `token`: the status and the body.
pub async fn call(
    shop: &super::TestShop,
    method: reqwest::Method,
    path: &str,
    token: &str,
    body: serde_json::Value,
) -> (u16, serde_json::Value) {
    use super::customers::{authed, read};
    read(authed(shop, method, path, token).await.json(&body).send().await.expect("answer")).await
}

/// The sandbox's fixed development key id (`SandboxConfig::dev`).
pub const SANDBOX_KEY_ID: &str = "rzp_test_MarqueSandbox";

/// Pays the provider order that `held` (the pay call's answer) names as a shopper pressing Success in
/// the sandbox's checkout, then reports it as the browser does: the status and body of
/// `POST /api/razorpay/success`.
pub async fn pay_in_sandbox(shop: &super::TestShop, token: &str, held: &serde_json::Value) -> (u16, serde_json::Value) {
    let pressed = serde_json::json!({ "order_id": held["paymentResponse"]["id"], "key_id": SANDBOX_KEY_ID, "outcome": "success" });
    let resp = shop
        .client
        .post(format!("{}/sandbox/razorpay/pay", shop.base))
        .json(&pressed)
        .send()
        .await
        .expect("the sandbox answers");
    let (status, handler) = super::customers::read(resp).await;
    assert_eq!(status, 200, "{handler}");
    let success = serde_json::json!({ "razorpayOption": {
        "order_id": handler["razorpay_order_id"], "razorpay_order_id": handler["razorpay_order_id"],
        "razorpay_payment_id": handler["razorpay_payment_id"], "razorpay_signature": handler["razorpay_signature"]
    }, "orderHistory": {} });
    call(shop, reqwest::Method::POST, "/api/razorpay/success", token, success).await
}

/// Saves a delivery address in New Delhi for `user` and returns it as the shop answered it.
pub async fn delhi_address(shop: &super::TestShop, token: &str, user: &str) -> serde_json::Value {
    let address = serde_json::json!({
        "houseNo": "12B", "street": "", "landmark": "", "city": "Town", "state": "Delhi",
        "mobileNo": "9876543210", "pincode": "110001", "gstin": ""
    });
    let (status, saved) = call(shop, reqwest::Method::PATCH, &format!("/api/add/address/{user}"), token, address).await;
    assert_eq!(status, 200, "{saved}");
    saved
}

/// The id of one of the newest products with at least `units` in stock.
pub async fn product_with(shop: &super::TestShop, units: u64) -> String {
    let (_, newest) = shop.get_json("/api/get/new-products").await;
    newest["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|p| p["quantity"].as_u64().unwrap_or(0) >= units)
        .and_then(|p| p["_id"].as_str())
        .expect("a product with enough units")
        .to_owned()
}
