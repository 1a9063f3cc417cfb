//! Black-box tests of the rate limits on customers' writes: 429 with the JSON error shape and
//! `Retry-After`, per customer, counted in the database the instances share; catalog reads
//! are never limited.

use std::sync::Arc;

use crate::helpers::customers::{authed, customer, read};
use crate::helpers::{spawn_app_with, TestShop};
use marque_app::{Action, Rule, Throttle, ThrottleRules};
use marque_ports::SystemClock;
use reqwest::Method;
use serde_json::{json, Value};

/// Low limits, so a test reaches them in a few calls.
fn low() -> ThrottleRules {
    ThrottleRules {
        pay: Rule::per_minute(2),
        address_write: Rule::per_minute(2),
        wishlist_write: Rule::per_minute(2),
        profile_update: Rule::per_minute(1),
        invoice: Rule::per_minute(2),
        ..ThrottleRules::default()
    }
}

async fn call(
    shop: &TestShop,
    method: Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value, Option<String>) {
    let mut request = authed(shop, method, path, token).await;
    if let Some(body) = body {
        request = request.json(&body);
    }
    let resp = request.send().await.expect("answer");
    let retry = resp.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let (status, body) = read(resp).await;
    (status, body, retry)
}

fn assert_limited((status, body, retry): &(u16, Value, Option<String>), what: &str) {
    assert_eq!(*status, 429, "{what}: {body}");
    assert_eq!(body["code"], "request.too_many", "{what}: {body}");
    assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "{what}: {body}");
    let seconds: u64 =
        retry.as_deref().and_then(|r| r.parse().ok()).unwrap_or_else(|| panic!("{what}: Retry-After {retry:?}"));
    // The last minute is estimated from this and the previous minute's counts (`marque_domain::rate`): after a
    // burst, one more call may wait into the next minute, up to two whole minutes when the burst came at the
    // very start of one (`Window::retry_after`), never longer.
    assert!((1..=120).contains(&seconds), "{what}: Retry-After {seconds}");
}

fn address() -> Value {
    json!({ "houseNo": "12B", "street": "", "landmark": "", "city": "Town", "state": "Delhi",
            "mobileNo": "9876543210", "pincode": "110001", "gstin": "" })
}

async fn first_product(shop: &TestShop) -> String {
    let (_, body) = shop.get_json("/api/get/new-products").await;
    body["data"][0]["_id"].as_str().expect("a product").to_owned()
}

#[tokio::test]
async fn wishlist_writes_are_limited_per_customer() {
    let (shop, _) = spawn_app_with(|c| c.rate_limits = low()).await;
    let (token, _) = customer(&shop, "w1@example.in", "9876500001").await;
    let product = first_product(&shop).await;
    let add = || call(&shop, Method::POST, "/api/add/wishlist", &token, Some(json!({ "_id": product })));
    assert_eq!(add().await.0, 200);
    let removed = call(&shop, Method::DELETE, &format!("/api/remove/wishlist/{product}"), &token, None).await;
    assert_eq!(removed.0, 200, "{}", removed.1);
    assert_limited(&add().await, "a third wishlist write");
    // Reading the wishlist is not a write.
    let (other, other_id) = customer(&shop, "w2@example.in", "9876500002").await;
    let (status, _, _) = call(&shop, Method::POST, "/api/add/wishlist", &other, Some(json!({ "_id": product }))).await;
    assert_eq!(status, 200, "another customer has a count of their own");
    let (status, _, _) = call(&shop, Method::GET, &format!("/api/get/wishlist?user={other_id}"), &other, None).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn address_writes_are_limited() {
    let (shop, _) = spawn_app_with(|c| c.rate_limits = low()).await;
    let (token, user) = customer(&shop, "a1@example.in", "9876500003").await;
    let (status, body, _) =
        call(&shop, Method::PATCH, &format!("/api/add/address/{user}"), &token, Some(address())).await;
    assert_eq!(status, 200, "{body}");
    let id = body["_id"].as_str().expect("id").to_owned();
    let (status, body, _) =
        call(&shop, Method::PATCH, &format!("/api/edit/address/{id}"), &token, Some(address())).await;
    assert_eq!(status, 200, "{body}");
    assert_limited(
        &call(&shop, Method::DELETE, &format!("/api/remove/{user}/address/{id}"), &token, None).await,
        "remove",
    );
    assert_limited(
        &call(&shop, Method::PATCH, &format!("/api/add/address/{user}"), &token, Some(address())).await,
        "add",
    );
}

#[tokio::test]
async fn payments_are_limited_even_when_refused() {
    let (shop, _) = spawn_app_with(|c| c.rate_limits = low()).await;
    let (token, _) = customer(&shop, "p1@example.in", "9876500004").await;
    let empty = json!({ "products": [], "address": { "_id": "none" } });
    for _ in 0..2 {
        let (status, body, _) = call(&shop, Method::POST, "/api/razorpay/pay", &token, Some(empty.clone())).await;
        assert_eq!(status, 400, "an empty cart: {body}");
    }
    assert_limited(&call(&shop, Method::POST, "/api/razorpay/pay", &token, Some(empty)).await, "a third pay");
}

#[tokio::test]
async fn profile_updates_and_invoices_are_limited() {
    let (shop, _) = spawn_app_with(|c| c.rate_limits = low()).await;
    let (token, user) = customer(&shop, "u1@example.in", "9876500005").await;
    let update = || async {
        let form = reqwest::multipart::Form::new().text("name", "Asha R");
        let resp = authed(&shop, Method::PATCH, &format!("/api/update/user/{user}"), &token)
            .await
            .multipart(form)
            .send()
            .await
            .expect("answer");
        let retry = resp.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_owned);
        let (status, body) = read(resp).await;
        (status, body, retry)
    };
    assert_eq!(update().await.0, 200);
    assert_limited(&update().await, "a second profile update");
    for _ in 0..2 {
        let (status, body, _) = call(&shop, Method::GET, "/api/get/invoice/no-such-order", &token, None).await;
        assert_eq!(status, 404, "{body}");
    }
    assert_limited(&call(&shop, Method::GET, "/api/get/invoice/no-such-order", &token, None).await, "a third invoice");
}

#[tokio::test]
async fn the_counts_live_in_the_shared_database() {
    let (shop, app) = spawn_app_with(|c| c.rate_limits = low()).await;
    let (token, user) = customer(&shop, "s1@example.in", "9876500006").await;
    // Another instance on the same database counts into the same counters.
    let other_instance = Throttle::new(Arc::new(app.database().rate_counter()), Arc::new(SystemClock), low());
    other_instance.check(Action::WishlistWrite, &user).await.expect("one call elsewhere");
    other_instance.check(Action::WishlistWrite, &user).await.expect("two calls elsewhere");
    let product = first_product(&shop).await;
    let here = call(&shop, Method::POST, "/api/add/wishlist", &token, Some(json!({ "_id": product }))).await;
    assert_limited(&here, "the third call, made here");
}

#[tokio::test]
async fn catalog_reads_are_never_limited() {
    let (shop, _) = spawn_app_with(|c| c.rate_limits = low()).await;
    for _ in 0..300 {
        let resp = shop.get("/api/get/new-products").await;
        assert_eq!(resp.status().as_u16(), 200);
    }
}
