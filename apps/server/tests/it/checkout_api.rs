//! Black-box tests of checkout and payment: the real server over HTTP, paying through the `dev`
//! sandbox's own endpoints (what its checkout script calls when a shopper presses Success or
//! Failure), webhooks signed with the sandbox's development secret.

use crate::helpers;

use helpers::customers::{authed, customer, read};
use helpers::{spawn_shop, TestShop};
use hmac::{Hmac, Mac};
use reqwest::Method;
use serde_json::{json, Value};
use sha2::Sha256;

/// The sandbox's fixed development keys (`SandboxConfig::dev`).
const KEY_ID: &str = "rzp_test_MarqueSandbox";
const WEBHOOK_SECRET: &str = "marque-sandbox-webhook-secret";

async fn call(shop: &TestShop, method: Method, path: &str, token: &str, body: Value) -> (u16, Value) {
    read(authed(shop, method, path, token).await.json(&body).send().await.expect("answer")).await
}

/// A customer with one saved address at `pincode`: (token, user id, address id).
async fn buyer(shop: &TestShop, email: &str, mobile: &str, pincode: &str) -> (String, String, String) {
    let (token, user) = customer(shop, email, mobile).await;
    let address = json!({
        "houseNo": "12B", "street": "", "landmark": "", "city": "Town", "state": "Delhi",
        "mobileNo": "9876543210", "pincode": pincode, "gstin": ""
    });
    let (status, body) = call(shop, Method::PATCH, &format!("/api/add/address/{user}"), &token, address).await;
    assert_eq!(status, 200, "{body}");
    (token, user, body["_id"].as_str().expect("address id").to_owned())
}

/// Products of the demo catalog with at least `stock` units: (id, product JSON).
async fn in_stock(shop: &TestShop, stock: u64, n: usize) -> Vec<Value> {
    let (_, body) = shop.get_json("/api/get/new-products").await;
    let found: Vec<Value> = body["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter(|p| p["quantity"].as_u64().unwrap_or(0) >= stock)
        .take(n)
        .cloned()
        .collect();
    assert_eq!(found.len(), n, "the demo catalog has {n} products with {stock}+ units");
    found
}

async fn stock_of(shop: &TestShop, id: &str) -> u64 {
    let (status, body) = shop.get_json(&format!("/api/get/checkoutById/{id}")).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["totalQuantity"].as_u64().expect("totalQuantity")
}

fn paise(rupees: &Value) -> i64 {
    (rupees.as_f64().expect("rupees") * 100.0).round() as i64
}

async fn pay(shop: &TestShop, token: &str, lines: &[(&str, u32)], address: &str) -> (u16, Value) {
    let products: Vec<Value> =
        lines.iter().map(|(id, q)| json!({ "_id": id, "quantity": q, "price": 1, "name": "tampered" })).collect();
    let body = json!({ "products": products, "address": { "_id": address }, "discount": 99, "totalPrice": 1 });
    call(shop, Method::POST, "/api/razorpay/pay", token, body).await
}

/// What the sandbox's checkout answers when the shopper presses `outcome`.
pub(crate) async fn press(shop: &TestShop, order_id: &str, outcome: &str) -> Value {
    let resp = shop
        .client
        .post(format!("{}/sandbox/razorpay/pay", shop.base))
        .json(&json!({ "order_id": order_id, "key_id": KEY_ID, "outcome": outcome }))
        .send()
        .await
        .expect("the sandbox answers");
    let (status, body) = read(resp).await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn success(shop: &TestShop, token: &str, handler: &Value) -> (u16, Value) {
    let body = json!({ "razorpayOption": {
        "order_id": handler["razorpay_order_id"], "razorpay_order_id": handler["razorpay_order_id"],
        "razorpay_payment_id": handler["razorpay_payment_id"], "razorpay_signature": handler["razorpay_signature"]
    }, "orderHistory": { "totalPrice": 1 } });
    call(shop, Method::POST, "/api/razorpay/success", token, body).await
}

async fn webhook(shop: &TestShop, body: &Value, secret: &str, event_id: &str) -> (u16, Value) {
    let raw = body.to_string();
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("any key length");
    mac.update(raw.as_bytes());
    let signature = hex::encode(mac.finalize().into_bytes());
    let resp = shop
        .client
        .post(format!("{}/api/razorpay/webhook", shop.base))
        .header("content-type", "application/json")
        .header("x-razorpay-signature", signature)
        .header("x-razorpay-event-id", event_id)
        .body(raw)
        .send()
        .await
        .expect("answer");
    read(resp).await
}

fn captured(order_id: &str, payment_id: &str, amount: i64) -> Value {
    json!({ "entity": "event", "event": "payment.captured", "contains": ["payment"], "created_at": 0,
        "payload": { "payment": { "entity": { "id": payment_id, "entity": "payment", "amount": amount,
            "currency": "INR", "status": "captured", "order_id": order_id, "captured": true } } } })
}

#[tokio::test]
async fn the_server_prices_the_order_and_holds_the_stock() {
    let shop = spawn_shop().await;
    let (token, _, address) = buyer(&shop, "a@example.com", "9876500001", "110001").await;
    let products = in_stock(&shop, 3, 2).await;
    let (a, b) = (products[0]["_id"].as_str().expect("id"), products[1]["_id"].as_str().expect("id"));
    let before = (stock_of(&shop, a).await, stock_of(&shop, b).await);
    let (status, body) = pay(&shop, &token, &[(a, 2), (b, 1), (a, 1)], &address).await;
    assert_eq!(status, 200, "{body}");
    let items = 3 * paise(&products[0]["price"]) + paise(&products[1]["price"]);
    let delivery = paise(&products[0]["inside_ncr"]) + paise(&products[1]["inside_ncr"]);
    assert_eq!((paise(&body["items"]), paise(&body["discount"]), paise(&body["delivery"])), (items, 0, delivery));
    assert_eq!(paise(&body["total"]), items + delivery, "the posted prices and discount are ignored");
    assert_eq!(body["paymentResponse"]["amount"].as_i64(), Some(items + delivery), "the provider collects paise");
    assert_eq!(body["paymentResponse"]["currency"], "INR");
    assert_eq!((stock_of(&shop, a).await, stock_of(&shop, b).await), (before.0 - 3, before.1 - 1), "held");

    let (_, shop_identity) = shop.get_json("/api/get/shop").await;
    assert_eq!(shop_identity["payment"]["key"], KEY_ID);
    assert_eq!(shop_identity["payment"]["script"], "/sandbox/razorpay/checkout.js");
}

#[tokio::test]
async fn outside_ncr_delivery_and_the_rules_before_paying() {
    let shop = spawn_shop().await;
    let (token, user, address) = buyer(&shop, "b@example.com", "9876500002", "560001").await;
    let product = &in_stock(&shop, 1, 1).await[0];
    let id = product["_id"].as_str().expect("id");
    let (status, body) = pay(&shop, &token, &[(id, 1)], &address).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(paise(&body["delivery"]), paise(&product["outside_ncr"]));

    let (status, body) =
        call(&shop, Method::POST, "/api/razorpay/pay", &token, json!({ "products": [{ "_id": id }] })).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("checkout.address_missing")), "{body}");
    let (status, body) = pay(&shop, &token, &[], &address).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("checkout.cart_empty")), "{body}");
    let before = stock_of(&shop, id).await;
    let (status, body) = pay(&shop, &token, &[(id, u32::try_from(before).expect("small") + 1)], &address).await;
    assert_eq!((status, body["message"].as_str()), (409, Some("please order products which are in stock")), "{body}");
    assert_eq!(stock_of(&shop, id).await, before, "nothing held");
    let (status, _) = pay(&shop, &token, &[(id, 0)], &address).await;
    assert_eq!(status, 400);

    let (other, _, _) = buyer(&shop, "c@example.com", "9876500003", "110001").await;
    let (status, body) = pay(&shop, &other, &[(id, 1)], &address).await;
    assert_eq!(status, 403, "another customer's address: {body}");
    let (status, _) =
        call(&shop, Method::POST, "/api/razorpay/pay", &other, json!({ "products": [], "user_id": user })).await;
    assert_eq!(status, 403);
    let (status, _) = read(
        shop.client.post(format!("{}/api/razorpay/pay", shop.base)).json(&json!({})).send().await.expect("answer"),
    )
    .await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn a_payment_places_one_order_however_often_it_is_reported() {
    let shop = spawn_shop().await;
    let (token, _, address) = buyer(&shop, "d@example.com", "9876500004", "110001").await;
    let id = in_stock(&shop, 2, 1).await[0]["_id"].as_str().expect("id").to_owned();
    let before = stock_of(&shop, &id).await;
    let (_, started) = pay(&shop, &token, &[(&id, 1)], &address).await;
    let order_id = started["paymentResponse"]["id"].as_str().expect("order id").to_owned();
    let handler = press(&shop, &order_id, "success").await;

    let mut forged = handler.clone();
    forged["razorpay_signature"] = json!("0".repeat(64));
    let (status, body) = success(&shop, &token, &forged).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("payment.signature_invalid")), "{body}");
    let mut swapped = handler.clone();
    swapped["razorpay_payment_id"] = json!("pay_SomebodyElse1");
    assert_eq!(success(&shop, &token, &swapped).await.0, 400, "a signature covers its own payment only");

    let (status, first) = success(&shop, &token, &handler).await;
    assert_eq!(status, 200, "{first}");
    assert!(first["result"]["invoiceNumber"].as_str().is_some_and(|n| n.starts_with("MQ/")), "{first}");
    let (status, again) = success(&shop, &token, &handler).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(first["result"]["_id"], again["result"]["_id"], "the same order, not two");
    let webhook_after = captured(
        &order_id,
        handler["razorpay_payment_id"].as_str().expect("id"),
        started["paymentResponse"]["amount"].as_i64().expect("paise"),
    );
    let (status, body) = webhook(&shop, &webhook_after, WEBHOOK_SECRET, "evt_after").await;
    assert_eq!((status, body["handled"].as_str()), (200, Some("placed")), "{body}");
    assert_eq!(stock_of(&shop, &id).await, before - 1, "sold once");

    let (other, _, _) = buyer(&shop, "e@example.com", "9876500005", "110001").await;
    assert_eq!(success(&shop, &other, &handler).await.0, 403, "another customer cannot claim the payment");
}

#[tokio::test]
async fn a_webhook_before_the_browser_places_the_order_and_bad_signatures_are_refused() {
    let shop = spawn_shop().await;
    let (token, _, address) = buyer(&shop, "f@example.com", "9876500006", "110001").await;
    let id = in_stock(&shop, 2, 1).await[0]["_id"].as_str().expect("id").to_owned();
    let (_, started) = pay(&shop, &token, &[(&id, 1)], &address).await;
    let order_id = started["paymentResponse"]["id"].as_str().expect("order id").to_owned();
    let amount = started["paymentResponse"]["amount"].as_i64().expect("paise");
    let handler = press(&shop, &order_id, "success").await;
    let event = captured(&order_id, handler["razorpay_payment_id"].as_str().expect("id"), amount);

    let (status, body) = webhook(&shop, &event, "not-the-secret", "evt_forged").await;
    assert_eq!((status, body["code"].as_str()), (400, Some("payment.signature_invalid")), "{body}");
    let (status, body) = webhook(&shop, &event, WEBHOOK_SECRET, "evt_1").await;
    assert_eq!((status, body["handled"].as_str()), (200, Some("placed")), "the tab was closed after paying: {body}");
    let (status, body) = webhook(&shop, &event, WEBHOOK_SECRET, "evt_1").await;
    assert_eq!((status, body["handled"].as_str()), (200, Some("duplicate")), "{body}");
    let (status, from_webhook) = webhook(&shop, &event, WEBHOOK_SECRET, "evt_2").await;
    assert_eq!(status, 200, "{from_webhook}");
    let (status, browser) = success(&shop, &token, &handler).await;
    assert_eq!(status, 200, "the browser's report answers the webhook's order: {browser}");
    assert!(browser["result"]["invoiceNumber"].as_str().is_some());
}

#[tokio::test]
async fn a_failed_payment_gives_the_stock_back() {
    let shop = spawn_shop().await;
    let (token, _, address) = buyer(&shop, "g@example.com", "9876500007", "110001").await;
    let id = in_stock(&shop, 2, 1).await[0]["_id"].as_str().expect("id").to_owned();
    let before = stock_of(&shop, &id).await;
    let (_, started) = pay(&shop, &token, &[(&id, 2)], &address).await;
    let order_id = started["paymentResponse"]["id"].as_str().expect("order id").to_owned();
    assert_eq!(stock_of(&shop, &id).await, before - 2);
    let failure = press(&shop, &order_id, "failure").await;
    assert_eq!(failure["error"]["reason"], "payment_failed", "{failure}");
    let (status, body) =
        call(&shop, Method::POST, "/api/razorpay/failed", &token, json!({ "order_id": order_id })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(stock_of(&shop, &id).await, before, "released");
    let (status, _) = call(&shop, Method::POST, "/api/razorpay/failed", &token, json!({ "order_id": order_id })).await;
    assert_eq!(status, 200, "reporting twice changes nothing");
    assert_eq!(stock_of(&shop, &id).await, before);
    let (status, body) =
        call(&shop, Method::POST, "/api/razorpay/failed", &token, json!({ "order_id": "order_Unknown" })).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("payment.unknown")), "{body}");
}

#[tokio::test]
async fn an_order_above_the_shops_limits_is_refused_with_its_code_and_holds_nothing() {
    let shop = helpers::spawn_with(|c| {
        c.orders.max_units_per_line = 2;
        c.orders.max_lines_per_order = 2;
    })
    .await;
    let (token, _, address) = buyer(&shop, "h@example.com", "9876500008", "110001").await;
    let products = in_stock(&shop, 3, 3).await;
    let ids: Vec<&str> = products.iter().map(|p| p["_id"].as_str().expect("id")).collect();
    let before = stock_of(&shop, ids[0]).await;
    // Two lines of one product count together: 3 units.
    let (status, body) = pay(&shop, &token, &[(ids[0], 2), (ids[0], 1)], &address).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("checkout.too_many_units")), "{body}");
    assert!(body["message"].as_str().is_some_and(|m| m.contains("units of each part")), "{body}");
    let (status, body) = pay(&shop, &token, &[(ids[0], 1), (ids[1], 1), (ids[2], 1)], &address).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("checkout.too_many_lines")), "{body}");
    assert_eq!(stock_of(&shop, ids[0]).await, before, "nothing held");
    let (status, body) = pay(&shop, &token, &[(ids[0], 2), (ids[1], 2)], &address).await;
    assert_eq!(status, 200, "at the limits: {body}");
}

#[tokio::test]
async fn a_customer_keeps_at_most_two_unpaid_holds() {
    let shop = spawn_shop().await;
    let (token, _, address) = buyer(&shop, "i@example.com", "9876500009", "110001").await;
    let id = in_stock(&shop, 4, 1).await[0]["_id"].as_str().expect("id").to_owned();
    let before = stock_of(&shop, &id).await;
    let mut orders = Vec::new();
    for n in 1..=3u64 {
        let (status, started) = pay(&shop, &token, &[(&id, 1)], &address).await;
        assert_eq!(status, 200, "{started}");
        orders.push(started["paymentResponse"]["id"].as_str().expect("order id").to_owned());
        assert_eq!(stock_of(&shop, &id).await, before - n.min(2), "holds after pay {n}");
    }
    // The first hold was the one released: its late payment takes the stock again (it is there).
    let handler = press(&shop, &orders[0], "success").await;
    let (status, placed) = success(&shop, &token, &handler).await;
    assert_eq!(status, 200, "{placed}");
    assert_eq!(stock_of(&shop, &id).await, before - 3);
    // Another customer's holds are their own.
    let (other, _, other_address) = buyer(&shop, "j@example.com", "9876500010", "110001").await;
    let (status, _) = pay(&shop, &other, &[(&id, 1)], &other_address).await;
    assert_eq!(status, 200);
    assert_eq!(stock_of(&shop, &id).await, before - 4, "the first customer's holds are untouched");
}

/// The sandbox behaves as Razorpay with automatic capture off: a success leaves the payment
/// authorized. Before, the order was placed on it and nothing ever captured the money.
#[tokio::test]
async fn an_authorized_payment_is_captured_by_the_shop_before_its_order_is_placed() {
    let (shop, app) = helpers::spawn_app_with(|_| {}).await;
    let sandbox = app.sandbox.clone().expect("the dev sandbox");
    sandbox.set_auto_capture(false);
    let (token, _, address) = buyer(&shop, "k@example.com", "9876500011", "110001").await;
    let id = in_stock(&shop, 1, 1).await[0]["_id"].as_str().expect("id").to_owned();
    let (_, started) = pay(&shop, &token, &[(&id, 1)], &address).await;
    let order_id = started["paymentResponse"]["id"].as_str().expect("order id").to_owned();
    let handler = press(&shop, &order_id, "success").await;
    let payment = handler["razorpay_payment_id"].as_str().expect("payment id").to_owned();
    assert_eq!(sandbox.payment(&payment).expect("payment").status, "authorized", "auto-capture is off");
    let (status, placed) = success(&shop, &token, &handler).await;
    assert_eq!(status, 200, "{placed}");
    assert_eq!(sandbox.payment(&payment).expect("payment").status, "captured", "the shop captured what it placed");
    assert_eq!(
        sandbox.payment(&payment).expect("payment").amount,
        started["paymentResponse"]["amount"].as_i64().expect("paise")
    );
}

/// A product of the demo catalog with 1 to `most` units: (id, stock).
async fn scarce(shop: &TestShop, most: u64) -> (String, u64) {
    let (_, body) = shop.get_json("/api/get/new-products").await;
    let found = body["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|p| (1..=most).contains(&p["quantity"].as_u64().unwrap_or(0)))
        .expect("a product with a few units")
        .clone();
    (found["_id"].as_str().expect("id").to_owned(), found["quantity"].as_u64().expect("units"))
}

/// Before, a payment that came after its hold lapsed, with the stock sold meanwhile, was only
/// logged: the customer was charged and got the generic stock error.
#[tokio::test]
async fn a_payment_that_finds_its_stock_sold_is_refunded_recorded_and_told() {
    use marque_ports::OrderStore as _;
    let (shop, app) = helpers::spawn_app_with(|_| {}).await;
    let sandbox = app.sandbox.clone().expect("the dev sandbox");
    let (late, late_user, late_address) = buyer(&shop, "late@example.com", "9876500012", "110001").await;
    let (quick, _, quick_address) = buyer(&shop, "quick@example.com", "9876500013", "110001").await;
    let (id, units) = scarce(&shop, 10).await;
    let n = u32::try_from(units).expect("small");

    // The late shopper's hold goes back (a failed attempt), and the quick one buys every unit.
    let (_, started) = pay(&shop, &late, &[(&id, n)], &late_address).await;
    let late_order = started["paymentResponse"]["id"].as_str().expect("order id").to_owned();
    press(&shop, &late_order, "failure").await;
    let (status, _) = call(&shop, Method::POST, "/api/razorpay/failed", &late, json!({ "order_id": late_order })).await;
    assert_eq!(status, 200);
    let (status, bought) = pay(&shop, &quick, &[(&id, n)], &quick_address).await;
    assert_eq!(status, 200, "{bought}");
    let quick_handler = press(&shop, bought["paymentResponse"]["id"].as_str().expect("order id"), "success").await;
    assert_eq!(success(&shop, &quick, &quick_handler).await.0, 200);
    assert_eq!(stock_of(&shop, &id).await, 0);

    // The late shopper's retry in the same checkout now succeeds at the bank.
    let handler = press(&shop, &late_order, "success").await;
    let payment = handler["razorpay_payment_id"].as_str().expect("payment id").to_owned();
    let (status, body) = success(&shop, &late, &handler).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("payment.refunded_sold_out")), "{body}");
    assert!(body["message"].as_str().is_some_and(|m| m.contains("refunded in full")), "{body}");
    assert_eq!(sandbox.payment(&payment).expect("payment").status, "refunded", "the money went back");
    let (status, again) = success(&shop, &late, &handler).await;
    assert_eq!((status, again["code"].as_str()), (409, Some("payment.refunded_sold_out")), "reported again: {again}");

    let record = app
        .database()
        .orders()
        .refund_of(&marque_ports::PaymentId(payment.clone()))
        .await
        .expect("read")
        .expect("a refund record");
    assert_eq!(
        (record.payment_order.0.as_str(), record.amount.paise()),
        (late_order.as_str(), started["paymentResponse"]["amount"].as_i64().expect("paise"))
    );
    assert!(record.refund_id.is_some(), "{record:?}");
    let (_, history) = helpers::customers::get_auth(&shop, &format!("/api/get/orderhistory/{late_user}"), &late).await;
    assert!(history["result"].as_array().is_none_or(Vec::is_empty), "no order for the late shopper: {history}");

    // Told by email and SMS (the outbox keeps both), once.
    let mut told = Vec::new();
    for _ in 0..100 {
        let (_, messages) = shop.get_json("/api/dev/outbox").await;
        told = messages
            .as_array()
            .expect("a list")
            .iter()
            .filter(|m| m["text"].as_str().is_some_and(|t| t.contains("refunded")))
            .filter_map(|m| m["recipient"].as_str().map(str::to_owned))
            .collect();
        if told.len() >= 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    told.sort();
    assert_eq!(told, vec!["9876500012".to_owned(), "late@example.com".to_owned()]);
}
