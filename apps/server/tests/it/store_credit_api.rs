//! Black-box tests of store credit at checkout (issue 24): the real server over HTTP, paying through
//! the `dev` sandbox's own endpoints; credit granted in the ledger as an accepted return does it.

use crate::checkout_api::press;
use crate::helpers;

use helpers::customers::{authed, customer, get_auth, read};
use helpers::TestShop;
use marque_domain::store_credit::GrantSource;
use marque_domain::Money;
use marque_ports::{OrderStore as _, StoreCreditStore as _, UserId};
use reqwest::Method;
use serde_json::{json, Value};

async fn call(shop: &TestShop, method: Method, path: &str, token: &str, body: Value) -> (u16, Value) {
    read(authed(shop, method, path, token).await.json(&body).send().await.expect("answer")).await
}

/// A customer with one saved Delhi address: (token, user id, address id).
async fn buyer(shop: &TestShop, email: &str, mobile: &str) -> (String, String, String) {
    let (token, user) = customer(shop, email, mobile).await;
    let address = json!({
        "houseNo": "12B", "street": "", "landmark": "", "city": "Town", "state": "Delhi",
        "mobileNo": "9876543210", "pincode": "110001", "gstin": ""
    });
    let (status, body) = call(shop, Method::PATCH, &format!("/api/add/address/{user}"), &token, address).await;
    assert_eq!(status, 200, "{body}");
    (token, user, body["_id"].as_str().expect("address id").to_owned())
}

/// A product of the demo catalog with at least `stock` units: its id.
async fn in_stock(shop: &TestShop, stock: u64) -> String {
    let (_, body) = shop.get_json("/api/get/new-products").await;
    body["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|p| p["quantity"].as_u64().unwrap_or(0) >= stock)
        .and_then(|p| p["_id"].as_str())
        .expect("a product in stock")
        .to_owned()
}

async fn stock_of(shop: &TestShop, id: &str) -> u64 {
    let (_, body) = shop.get_json(&format!("/api/get/checkoutById/{id}")).await;
    body["data"]["totalQuantity"].as_u64().expect("totalQuantity")
}

fn paise(rupees: &Value) -> i64 {
    (rupees.as_f64().expect("rupees") * 100.0).round() as i64
}

async fn pay(shop: &TestShop, token: &str, product: &str, address: &str) -> (u16, Value) {
    let body = json!({ "products": [{ "_id": product, "quantity": 1 }], "address": { "_id": address } });
    call(shop, Method::POST, "/api/razorpay/pay", token, body).await
}

/// The user object's store credit: (balance in paise, expiresAt).
async fn credit_of(shop: &TestShop, token: &str) -> (i64, Value) {
    let (status, body) = get_auth(shop, "/api/user", token).await;
    assert_eq!(status, 200, "{body}");
    (paise(&body["user"]["storeCredit"]["balance"]), body["user"]["storeCredit"]["expiresAt"].clone())
}

async fn grant(app: &marque_server::App, user: &str, paise: i64, source: &str) {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_secs();
    let now = i64::try_from(now).expect("in range");
    let written = app
        .database()
        .store_credit()
        .grant(&UserId(user.to_owned()), Money::from_paise(paise), &GrantSource::Return(source.to_owned()), now)
        .await;
    assert_eq!(written, Ok(true));
}

async fn success(shop: &TestShop, token: &str, handler: &Value) -> (u16, Value) {
    let body = json!({ "razorpayOption": {
        "order_id": handler["razorpay_order_id"], "razorpay_order_id": handler["razorpay_order_id"],
        "razorpay_payment_id": handler["razorpay_payment_id"], "razorpay_signature": handler["razorpay_signature"]
    } });
    call(shop, Method::POST, "/api/razorpay/success", token, body).await
}

#[tokio::test]
async fn credit_pays_part_of_an_order_and_the_card_pays_the_rest() {
    let (shop, app) = helpers::spawn_app_with(|_| {}).await;
    let (token, user, address) = buyer(&shop, "credit-a@example.com", "9876500101").await;
    assert_eq!(credit_of(&shop, &token).await, (0, Value::Null), "no credit: 0 and no expiry");
    grant(&app, &user, 50_050, "ret-a").await;
    let (balance, expires) = credit_of(&shop, &token).await;
    assert_eq!(balance, 50_050, "the profile shows the credit granted for the return");
    assert!(expires.as_str().is_some_and(|e| e.ends_with('Z')), "{expires}");

    let product = in_stock(&shop, 2).await;
    let (status, started) = pay(&shop, &token, &product, &address).await;
    assert_eq!(status, 200, "{started}");
    let total = paise(&started["total"]);
    assert!(total > 50_050, "the demo parts cost more than ₹500.50: {started}");
    assert_eq!(paise(&started["storeCredit"]), 50_050);
    assert_eq!(paise(&started["toPay"]), total - 50_050, "the card pays the rest");
    assert_eq!(started["paymentResponse"]["amount"].as_i64(), Some(total - 50_050), "the provider collects only that");
    assert_eq!(started["order"], Value::Null);
    assert_eq!(credit_of(&shop, &token).await.0, 0, "the credit is held with the stock");

    let handler = press(&shop, started["paymentResponse"]["id"].as_str().expect("order id"), "success").await;
    let (status, placed) = success(&shop, &token, &handler).await;
    assert_eq!(status, 200, "{placed}");
    assert_eq!(paise(&placed["result"]["total"]), total, "GST is on the full price: the order's total is all of it");
    assert_eq!(paise(&placed["result"]["storeCredit"]), 50_050);
    assert_eq!(credit_of(&shop, &token).await.0, 0, "spent for good");
}

#[tokio::test]
async fn credit_that_covers_everything_places_the_order_without_a_card_payment_once() {
    let (shop, app) = helpers::spawn_app_with(|_| {}).await;
    let (token, user, address) = buyer(&shop, "credit-b@example.com", "9876500102").await;
    let product = in_stock(&shop, 3).await;
    let before = stock_of(&shop, &product).await;
    // The price of one unit, from a first checkout that is then reported failed.
    let (_, probe) = pay(&shop, &token, &product, &address).await;
    let total = paise(&probe["total"]);
    let probe_order = probe["paymentResponse"]["id"].as_str().expect("order id").to_owned();
    let (status, _) =
        call(&shop, Method::POST, "/api/razorpay/failed", &token, json!({ "order_id": probe_order })).await;
    assert_eq!(status, 200);
    grant(&app, &user, total, "ret-b").await;

    // Two checkouts at once, and credit for one: one is placed by credit, the other never spends it.
    let (first, second) = tokio::join!(pay(&shop, &token, &product, &address), pay(&shop, &token, &product, &address));
    let answers = [first, second];
    let by_credit: Vec<&Value> =
        answers.iter().filter(|(s, b)| *s == 200 && !b["order"].is_null()).map(|(_, b)| b).collect();
    assert_eq!(by_credit.len(), 1, "{answers:?}");
    let placed = by_credit[0];
    assert_eq!((paise(&placed["storeCredit"]), paise(&placed["toPay"])), (total, 0));
    assert_eq!(placed["paymentResponse"]["amount"].as_i64(), Some(0), "no card payment");
    assert!(placed["order"]["invoiceNumber"].as_str().is_some_and(|n| n.starts_with("MQ/")), "invoiced: {placed}");
    for (status, other) in answers.iter().filter(|(_, b)| b["order"].is_null()) {
        // Either refused (the credit went to the other) or priced with no credit left: the card pays all.
        let refused = *status == 409 && other["code"] == "checkout.credit_changed";
        let by_card = *status == 200 && paise(&other["storeCredit"]) == 0 && paise(&other["toPay"]) == total;
        assert!(refused || by_card, "{status} {other}");
    }
    assert_eq!(credit_of(&shop, &token).await.0, 0, "never more spent than there was");
    let (_, history) = get_auth(&shop, &format!("/api/get/orderhistory/{user}"), &token).await;
    assert_eq!(history["result"].as_array().map(Vec::len), Some(1), "{history}");
    assert!(stock_of(&shop, &product).await < before, "the order's unit is sold");
}

#[tokio::test]
async fn a_failed_or_lapsed_hold_gives_the_credit_back() {
    let (shop, app) = helpers::spawn_app_with(|_| {}).await;
    let (token, user, address) = buyer(&shop, "credit-c@example.com", "9876500103").await;
    grant(&app, &user, 30_000, "ret-c").await;
    let product = in_stock(&shop, 3).await;

    let (_, started) = pay(&shop, &token, &product, &address).await;
    assert_eq!(paise(&started["storeCredit"]), 30_000);
    assert_eq!(credit_of(&shop, &token).await.0, 0);
    let order = started["paymentResponse"]["id"].as_str().expect("order id").to_owned();
    press(&shop, &order, "failure").await;
    let (status, _) = call(&shop, Method::POST, "/api/razorpay/failed", &token, json!({ "order_id": order })).await;
    assert_eq!(status, 200);
    assert_eq!(credit_of(&shop, &token).await.0, 30_000, "a failed payment gives the credit back");

    let (_, again) = pay(&shop, &token, &product, &address).await;
    assert_eq!(paise(&again["storeCredit"]), 30_000);
    assert_eq!(credit_of(&shop, &token).await.0, 0);
    // The hold lapses (the sweeper's release, an hour on).
    let later =
        i64::try_from(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("now").as_secs())
            .expect("in range")
            + 3_600;
    assert_eq!(app.database().orders().release_expired(later).await, Ok(1));
    assert_eq!(credit_of(&shop, &token).await.0, 30_000, "a lapsed hold gives the credit back");

    // Bad input is a 4xx, never a 500.
    let (status, body) = call(
        &shop,
        Method::POST,
        "/api/razorpay/pay",
        &token,
        json!({ "products": [{ "_id": product, "quantity": 0 }], "address": { "_id": address } }),
    )
    .await;
    assert_eq!(status, 400, "{body}");
}
