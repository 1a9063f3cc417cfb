//! Webhooks handled at most once, across a crash: the real binary on the embedded `surrealkv://`
//! engine is told (the `dev`-only test setting `MARQUE_TEST_EXIT_AFTER_WEBHOOK_RECORD`) to exit
//! between noting a payment webhook and placing its order. Started again on the same data
//! directory, the provider's retry of that event places exactly one order; a further retry is a
//! duplicate. (Before, the event id was committed before its effect: every retry after the crash
//! was a "duplicate" and the paid order was never placed.)
//!
//! The provider is the Razorpay sandbox served by this test process (it outlives the server),
//! reached through the real Razorpay adapter; the test delivers the sandbox-signed webhook itself.

use crate::helpers;

use std::time::Duration;

use helpers::customers::{customer, get_auth, read};
use helpers::payments::{call, delhi_address, product_with, sandbox, server_env};
use helpers::process::start;
use helpers::TestShop;
use hmac::{Hmac, Mac};
use marque_razorpay_sandbox::{Outcome, PayAnswer};
use reqwest::Method;
use secrecy::ExposeSecret;
use serde_json::{json, Value};
use sha2::Sha256;

/// Delivers `event` signed with `secret`, as the provider does; `None` when no answer came.
async fn deliver(shop: &TestShop, event: &Value, secret: &str, event_id: &str) -> Option<(u16, Value)> {
    let raw = event.to_string();
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("any key length");
    mac.update(raw.as_bytes());
    let sent = shop
        .client
        .post(format!("{}/api/razorpay/webhook", shop.base))
        .header("content-type", "application/json")
        .header("x-razorpay-signature", hex::encode(mac.finalize().into_bytes()))
        .header("x-razorpay-event-id", event_id)
        .body(raw)
        .send()
        .await;
    match sent {
        Ok(resp) => Some(read(resp).await),
        Err(_) => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_between_noting_a_webhook_and_placing_its_order_still_places_one_order() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let log = dir.path().join("server.log");
    let (sandbox, sandbox_url) = sandbox().await;
    let mut env = server_env(&dir.path().join("data"), &sandbox, &sandbox_url);
    env.push(("MARQUE_ENV", "dev".to_owned()));
    let mut faulty = env.clone();
    faulty.push(("MARQUE_TEST_EXIT_AFTER_WEBHOOK_RECORD", "true".to_owned()));

    let mut server = start(&faulty, &log);
    let shop = server.shop();
    let (token, user) = customer(&shop, "fault@example.in", "9876504321").await;
    let saved = delhi_address(&shop, &token, &user).await;
    let id = product_with(&shop, 2).await;
    let pay = json!({ "products": [{ "_id": id, "quantity": 1 }], "address": { "_id": saved["_id"] } });
    let (status, started) = call(&shop, Method::POST, "/api/razorpay/pay", &token, pay).await;
    assert_eq!(status, 200, "{started}");
    let order_id = started["paymentResponse"]["id"].as_str().expect("the provider's order id").to_owned();
    let amount = started["paymentResponse"]["amount"].as_i64().expect("paise");
    let PayAnswer::Paid(handler) = sandbox.pay(&order_id, Outcome::Success).expect("the sandbox takes the payment")
    else {
        panic!("the sandbox refused the Success button");
    };
    let handler = serde_json::to_value(&handler).expect("JSON");
    let payment_id = handler["razorpay_payment_id"].as_str().expect("payment id").to_owned();
    let event = json!({ "entity": "event", "event": "payment.captured", "contains": ["payment"], "created_at": 0,
        "payload": { "payment": { "entity": { "id": payment_id, "entity": "payment", "amount": amount,
            "currency": "INR", "status": "captured", "order_id": order_id, "captured": true } } } });
    let secret = sandbox.config().webhook_secret.expose_secret().to_owned();

    // The shopper closed the tab after paying: only the webhook will tell the shop. The server dies
    // after noting it and before placing the order.
    let answered = deliver(&shop, &event, &secret, "evt_fault_1").await;
    let status = server.wait_exit(Duration::from_secs(30)).expect("the server exits at the fault point");
    assert_eq!(
        status.code(),
        Some(marque_server::payments::FAULT_EXIT_STATUS),
        "exited at the fault point: {answered:?}"
    );
    assert!(answered.is_none(), "the webhook got no answer: {answered:?}");

    let server = start(&env, &log);
    let shop = server.shop();
    // The provider retries the event it got no answer for.
    let (status, body) = deliver(&shop, &event, &secret, "evt_fault_1").await.expect("an answer");
    assert_eq!(
        (status, body["handled"].as_str()),
        (200, Some("placed")),
        "the retry is handled, not a duplicate: {body}"
    );
    let (status, body) = deliver(&shop, &event, &secret, "evt_fault_1").await.expect("an answer");
    assert_eq!((status, body["handled"].as_str()), (200, Some("duplicate")), "{body}");

    let (status, history) = get_auth(&shop, &format!("/api/get/orderhistory/{user}"), &token).await;
    assert_eq!(status, 200, "{history}");
    let orders = history["result"].as_array().expect("a list");
    assert_eq!(orders.len(), 1, "exactly one order: {history}");
    // The browser's late report answers that same order.
    let confirm = json!({ "razorpayOption": {
        "razorpay_order_id": order_id, "razorpay_payment_id": payment_id,
        "razorpay_signature": handler["razorpay_signature"]
    } });
    let (status, again) = call(&shop, Method::POST, "/api/razorpay/success", &token, confirm).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["result"]["_id"], orders[0]["_id"]);
}
