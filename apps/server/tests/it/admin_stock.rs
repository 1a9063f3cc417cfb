//! The stock ledger over HTTP: staff record stock and the storefront shows it; bad adjustments are
//! refused with the shop's messages and write nothing; a role without stock is refused.

use marque_contract_tests::fixtures::product;
use marque_domain::staff::StaffRole;
use marque_ports::CatalogStore;
use reqwest::Method;
use serde_json::json;

use crate::helpers::spawn_app_with;
use crate::helpers::staff::{call, staff_token};

const PRODUCT: &str = "stock-bb-1";

#[tokio::test]
async fn stock_received_shows_on_the_storefront_and_in_the_history() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let part = product(PRODUCT).name("Brake pad set").quantity(2).build();
    app.database().catalog().add_products(&[part]).await.expect("the product is written");
    let token = staff_token(&app, &shop, StaffRole::Catalog).await;
    let path = format!("/api/admin/products/{PRODUCT}/stock");

    let body = json!({ "delta": 5, "reason": "received", "note": "supplier invoice 42" });
    let (status, entry) = call(&shop, Method::POST, &path, Some(&token), Some(body)).await;
    assert_eq!(status, 201, "{entry}");
    assert_eq!(
        (entry["delta"].as_i64(), entry["before"].as_i64(), entry["after"].as_i64()),
        (Some(5), Some(2), Some(7))
    );
    assert_eq!(entry["reason"], "received");
    assert_eq!(entry["note"], "supplier invoice 42");
    assert!(entry["actorLabel"].as_str().is_some_and(|l| l.contains('@')), "who: {entry}");

    let mut shown = None;
    for _ in 0..40 {
        let (status, body) = shop.get_json(&format!("/api/get/productById/{PRODUCT}")).await;
        assert_eq!(status, 200, "{body}");
        shown = body["data"]["quantity"].as_i64();
        if shown == Some(7) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(shown, Some(7), "the storefront shows the stock received");

    let (status, history) = call(&shop, Method::GET, &format!("{path}?page=1&size=1"), Some(&token), None).await;
    assert_eq!(status, 200, "{history}");
    assert_eq!((history["total"].as_u64(), history["pages"].as_u64()), (Some(2), Some(2)), "{history}");
    assert_eq!(history["results"][0]["reason"], "received");
    let (_, older) = call(&shop, Method::GET, &format!("{path}?page=2&size=1"), Some(&token), None).await;
    assert_eq!(older["results"][0]["reason"], "opening", "{older}");

    let threshold = format!("/api/admin/products/{PRODUCT}/stock/threshold");
    let (status, body) = call(&shop, Method::PUT, &threshold, Some(&token), Some(json!({ "threshold": 10 }))).await;
    assert_eq!((status, body["threshold"].as_i64()), (200, Some(10)), "{body}");
    let mut listed = false;
    for page in 1..=10 {
        let (status, low) =
            call(&shop, Method::GET, &format!("/api/admin/stock/low?page={page}&size=100"), Some(&token), None).await;
        assert_eq!(status, 200, "{low}");
        let results = low["results"].as_array().expect("results");
        listed |= results.iter().any(|i| i["_id"] == PRODUCT && i["quantity"] == 7 && i["threshold"] == 10);
        if listed || results.is_empty() {
            break;
        }
    }
    assert!(listed, "7 units at a threshold of 10 is low");
}

#[tokio::test]
async fn bad_adjustments_are_refused_with_the_shops_messages_and_write_nothing() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let part = product(PRODUCT).quantity(2).build();
    app.database().catalog().add_products(&[part]).await.expect("the product is written");
    let token = staff_token(&app, &shop, StaffRole::Owner).await;
    let path = format!("/api/admin/products/{PRODUCT}/stock");
    let cases = [
        (json!({ "delta": 3, "reason": "opening" }), 400, "stock.reason_unknown"),
        (json!({ "delta": 3, "reason": "stolen" }), 400, "stock.reason_unknown"),
        (json!({ "delta": 0, "reason": "correction" }), 400, "stock.delta_zero"),
        (json!({ "delta": -1, "reason": "received" }), 400, "stock.delta_must_add"),
        (json!({ "delta": -3, "reason": "damaged" }), 409, "stock.below_zero"),
    ];
    for (body, expected, code) in cases {
        let (status, answer) = call(&shop, Method::POST, &path, Some(&token), Some(body.clone())).await;
        assert_eq!((status, answer["code"].as_str()), (expected, Some(code)), "{body}: {answer}");
        assert_eq!(answer["status"], "failed");
        assert!(answer["message"].as_str().is_some_and(|m| !m.is_empty()), "{answer}");
    }
    let (status, answer) = call(
        &shop,
        Method::POST,
        "/api/admin/products/nope/stock",
        Some(&token),
        Some(json!({ "delta": 1, "reason": "received" })),
    )
    .await;
    assert_eq!((status, answer["code"].as_str()), (404, Some("admin.product_not_found")), "{answer}");
    let (status, history) = call(&shop, Method::GET, &path, Some(&token), None).await;
    assert_eq!((status, history["total"].as_u64()), (200, Some(1)), "only the opening entry: {history}");
    let (_, product) = shop.get_json(&format!("/api/get/productById/{PRODUCT}")).await;
    assert_eq!(product["data"]["quantity"], 2, "the stock is unchanged");
}

#[tokio::test]
async fn the_fulfilment_role_is_refused_stock() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let token = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let path = format!("/api/admin/products/{PRODUCT}/stock");
    let body = json!({ "delta": 1, "reason": "received" });
    for (method, path, body) in [
        (Method::POST, path.clone(), Some(body)),
        (Method::GET, path.clone(), None),
        (Method::GET, "/api/admin/stock/low".to_owned(), None),
        (Method::PUT, format!("{path}/threshold"), Some(json!({ "threshold": 3 }))),
    ] {
        let (status, answer) = call(&shop, method.clone(), &path, Some(&token), body).await;
        assert_eq!((status, answer["code"].as_str()), (403, Some("staff.forbidden")), "{method} {path}: {answer}");
    }
    let (status, answer) = call(&shop, Method::GET, "/api/admin/stock/low", None, None).await;
    assert_eq!((status, answer["code"].as_str()), (401, Some("staff.login_required")), "{answer}");
}
