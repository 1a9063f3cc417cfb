//! A payment answered as successful is on disk: the real binary on the embedded `surrealkv://`
//! engine is killed with SIGKILL right after the success answer, started again on the same data
//! directory, and still has the order (once), its invoice number and the stock it took (once).
//!
//! The payment provider is the Razorpay sandbox served by this test process (so it outlives the
//! server), reached through the real Razorpay adapter (`MARQUE_RAZORPAY_API_URL`).

use crate::helpers;

use helpers::customers::{customer, get_auth};
use helpers::payments::{call, delhi_address, product_with, sandbox, server_env};
use helpers::process::start;
use helpers::TestShop;
use marque_razorpay_sandbox::{Outcome, PayAnswer};
use reqwest::Method;
use serde_json::{json, Value};

async fn stock_of(shop: &TestShop, id: &str) -> u64 {
    let (status, body) = shop.get_json(&format!("/api/get/checkoutById/{id}")).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["totalQuantity"].as_u64().expect("totalQuantity")
}

async fn confirm(shop: &TestShop, token: &str, handler: &Value) -> (u16, Value) {
    let body = json!({ "razorpayOption": {
        "razorpay_order_id": handler["razorpay_order_id"], "razorpay_payment_id": handler["razorpay_payment_id"],
        "razorpay_signature": handler["razorpay_signature"]
    } });
    call(shop, Method::POST, "/api/razorpay/success", token, body).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirmed_payment_survives_sigkill() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let log = dir.path().join("server.log");
    let (sandbox, sandbox_url) = sandbox().await;
    let env = server_env(&dir.path().join("data"), &sandbox, &sandbox_url);

    let mut server = start(&env, &log);
    let shop = server.shop();
    let (token, user) = customer(&shop, "durable@example.in", "9876501234").await;
    let saved = delhi_address(&shop, &token, &user).await;
    let id = product_with(&shop, 2).await;
    let before = stock_of(&shop, &id).await;

    let pay = json!({ "products": [{ "_id": id, "quantity": 1 }], "address": { "_id": saved["_id"] } });
    let (status, started) = call(&shop, Method::POST, "/api/razorpay/pay", &token, pay).await;
    assert_eq!(status, 200, "{started}");
    let order_id = started["paymentResponse"]["id"].as_str().expect("the provider's order id");
    let PayAnswer::Paid(handler) = sandbox.pay(order_id, Outcome::Success).expect("the sandbox takes the payment")
    else {
        panic!("the sandbox refused the Success button");
    };
    let handler = serde_json::to_value(&handler).expect("JSON");

    let (status, placed) = confirm(&shop, &token, &handler).await;
    // The success answer is in hand: the process dies now, with no chance to flush anything.
    server.kill();
    assert_eq!(status, 200, "{placed}");
    let placed = &placed["result"];
    let invoice = placed["invoiceNumber"].as_str().expect("an invoice number").to_owned();
    let order = placed["_id"].as_str().expect("an order id").to_owned();

    let server = start(&env, &log);
    let shop = server.shop();
    let (status, history) = get_auth(&shop, &format!("/api/get/orderhistory/{user}"), &token).await;
    assert_eq!(status, 200, "the session is durable too: {history}");
    let orders = history["result"].as_array().expect("a list");
    assert_eq!(orders.len(), 1, "exactly one order after the restart: {history}");
    assert_eq!(
        (orders[0]["_id"].as_str(), orders[0]["invoiceNumber"].as_str()),
        (Some(order.as_str()), Some(invoice.as_str()))
    );
    assert_eq!(stock_of(&shop, &id).await, before - 1, "the unit sold is taken once");

    let (status, again) = confirm(&shop, &token, &handler).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(
        (again["result"]["_id"].as_str(), again["result"]["invoiceNumber"].as_str()),
        (Some(order.as_str()), Some(invoice.as_str()))
    );
    let (_, history) = get_auth(&shop, &format!("/api/get/orderhistory/{user}"), &token).await;
    assert_eq!(history["result"].as_array().map(Vec::len), Some(1), "reporting again places nothing new");
    assert_eq!(stock_of(&shop, &id).await, before - 1);
}
