//! Orders in the back office over HTTP: a fulfilment member confirms, packs and ships an order and
//! the customer sees the courier, the AWB and the tracking link; the version check (428 without
//! `If-Match`, 409 `order.changed` when stale, one winner of two at once); the rules' refusals;
//! bad input answered 4xx JSON; a catalog member refused.

use futures::future::join_all;
use marque_contract_tests::fixtures::product;
use marque_contract_tests::order_desk::place;
use marque_domain::staff::StaffRole;
use marque_ports::CatalogStore;
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::customers::{customer, get_auth, read};
use crate::helpers::staff::{call, staff_token};
use crate::helpers::{spawn_app_with, TestShop};

/// 2026-06-01 12:00 IST.
const JUNE_2026: i64 = 1_780_295_400;

/// A placed order of `user` (one unit of `p001`, in stock): its `_id`.
async fn an_order(app: &marque_server::App, key: &str, user: &str, at: i64) -> String {
    place(&app.database().orders(), key, user, at).await.id.0
}

async fn stocked(app: &marque_server::App) {
    let part = product("p001").name("Brake pad set").quantity(50).build();
    app.database().catalog().add_products(&[part]).await.expect("the product is written");
}

/// `PATCH /api/admin/orders/{id}` with `If-Match` (when given): the status and the body.
async fn patch(shop: &TestShop, token: &str, id: &str, if_match: Option<&str>, body: Value) -> (u16, Value) {
    let mut request = shop
        .client
        .request(Method::PATCH, format!("{}/api/admin/orders/{id}", shop.base))
        .bearer_auth(token)
        .json(&body);
    if let Some(version) = if_match {
        request = request.header("If-Match", version);
    }
    read(request.send().await.expect("the server answers")).await
}

fn code(body: &Value) -> &str {
    body["code"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn a_fulfilment_member_ships_an_order_and_the_customer_sees_the_courier_awb_and_link() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    stocked(&app).await;
    let (customer_token, user) = customer(&shop, "asha.orders@example.in", "9812345670").await;
    let id = an_order(&app, "ship", &user, JUNE_2026).await;
    an_order(&app, "other", "someone-else", JUNE_2026 + 60).await;
    let token = staff_token(&app, &shop, StaffRole::Fulfilment).await;

    let (status, list) =
        call(&shop, Method::GET, "/api/admin/orders?search=asha.orders@example.in", Some(&token), None).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!((list["total"].as_u64(), list["results"][0]["_id"].as_str()), (Some(1), Some(id.as_str())), "{list}");
    assert_eq!(list["counts"]["placed"], 1, "{list}");
    let (_, all) = call(&shop, Method::GET, "/api/admin/orders", Some(&token), None).await;
    assert_eq!((all["total"].as_u64(), all["counts"]["placed"].as_u64()), (Some(2), Some(2)), "{all}");

    let path = format!("/api/admin/orders/{id}");
    let (status, detail) = call(&shop, Method::GET, &path, Some(&token), None).await;
    assert_eq!(status, 200, "{detail}");
    assert_eq!((detail["version"].as_u64(), detail["order"]["order_status"].as_u64()), (Some(0), Some(1)), "{detail}");
    assert_eq!(detail["customerEmail"], "asha.orders@example.in");

    let (status, body) = patch(&shop, &token, &id, None, json!({ "status": 2 })).await;
    assert_eq!((status, code(&body)), (428, "order.version_required"), "{body}");
    let (status, body) = patch(&shop, &token, &id, Some("0"), json!({ "status": 2 })).await;
    assert_eq!((status, body["version"].as_u64()), (200, Some(1)), "{body}");
    let (status, body) = patch(&shop, &token, &id, Some("0"), json!({ "status": 3 })).await;
    assert_eq!((status, code(&body)), (409, "order.changed"), "a stale version: {body}");
    let (status, body) = patch(&shop, &token, &id, Some("\"1\""), json!({ "status": 4 })).await;
    assert_eq!((status, code(&body)), (409, "order.illegal_move"), "2 → 4 skips packing: {body}");
    let (status, body) = patch(&shop, &token, &id, Some("1"), json!({ "status": 6 })).await;
    assert_eq!((status, code(&body)), (409, "order.cancel_by_cancel"), "{body}");
    let (status, body) = patch(&shop, &token, &id, Some("1"), json!({ "status": 3 })).await;
    assert_eq!((status, body["version"].as_u64()), (200, Some(2)), "{body}");
    let (status, body) = patch(&shop, &token, &id, Some("2"), json!({ "status": 4 })).await;
    assert_eq!((status, code(&body)), (409, "order.shipment_required"), "{body}");
    let shipping = json!({ "status": 4, "courier": "bluedart", "awb": "77937279125" });
    let (status, shipped) = patch(&shop, &token, &id, Some("2"), shipping).await;
    assert_eq!(status, 200, "{shipped}");
    assert_eq!(shipped["shipment"]["courierName"], "Blue Dart");
    let link = "https://www.bluedart.com/web/guest/trackdartresultthirdparty?trackFor=0&trackNo=77937279125";
    assert_eq!(shipped["shipment"]["trackingLink"], link);
    let timeline = shipped["timeline"].as_array().expect("a timeline");
    assert_eq!(timeline.iter().map(|e| e["status"].as_u64().unwrap_or(0)).collect::<Vec<_>>(), [2, 3, 4]);
    assert!(timeline.iter().all(|e| e["actorLabel"].as_str().is_some_and(|l| l.contains('@'))), "who: {shipped}");

    let (status, history) = get_auth(&shop, &format!("/api/get/orderhistory/{user}"), &customer_token).await;
    assert_eq!(status, 200, "{history}");
    let seen = &history["result"][0];
    assert_eq!(
        (seen["courier"].as_str(), seen["awb"].as_str(), seen["trackingUrl"].as_str()),
        (Some("Blue Dart"), Some("77937279125"), Some(link)),
        "{seen}"
    );
    assert_eq!((seen["order_status"].as_u64(), seen["order_status_string"].as_str()), (Some(4), Some("shipped")));

    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    let trail = format!("/api/admin/audit?subject=order:{id}");
    let (status, audit) = call(&shop, Method::GET, &trail, Some(&owner), None).await;
    assert_eq!((status, audit["total"].as_u64()), (200, Some(3)), "one audit record a change: {audit}");
}

#[tokio::test]
async fn two_staff_members_changing_one_order_at_once_one_wins_and_the_other_is_told() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    stocked(&app).await;
    let id = an_order(&app, "race", "u1", JUNE_2026).await;
    let clerk = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    let tokens = [&clerk, &owner, &clerk, &owner, &clerk, &owner];
    let answers = join_all(tokens.iter().map(|t| patch(&shop, t, &id, Some("0"), json!({ "status": 2 })))).await;
    let won = answers.iter().filter(|(status, _)| *status == 200).count();
    assert_eq!(won, 1, "exactly one change: {answers:?}");
    for (status, body) in answers.iter().filter(|(status, _)| *status != 200) {
        assert_eq!((*status, code(body)), (409, "order.changed"), "{body}");
    }
    let (_, detail) = call(&shop, Method::GET, &format!("/api/admin/orders/{id}"), Some(&owner), None).await;
    assert_eq!((detail["version"].as_u64(), detail["timeline"].as_array().map(Vec::len)), (Some(1), Some(1)));
}

#[tokio::test]
async fn bad_input_is_answered_4xx_json_and_a_catalog_member_is_refused() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    stocked(&app).await;
    let id = an_order(&app, "bad", "u1", JUNE_2026).await;
    let token = staff_token(&app, &shop, StaffRole::Owner).await;
    for (query, expected) in [
        ("status=abc", "request.invalid"),
        ("status=9", "order.filter_invalid"),
        ("from=200&until=100", "order.filter_invalid"),
        ("from=-5", "order.filter_invalid"),
        ("refunds=some", "order.filter_invalid"),
        ("refunds=FULL", "order.filter_invalid"),
        ("size=0", "page.size_invalid"),
        ("page=0", "page.invalid"),
    ] {
        let (status, body) = call(&shop, Method::GET, &format!("/api/admin/orders?{query}"), Some(&token), None).await;
        assert_eq!(status, 400, "{query}: {body}");
        assert_eq!(body["status"], "failed", "{query}: {body}");
        if expected != "request.invalid" {
            assert_eq!(code(&body), expected, "{query}: {body}");
        }
    }
    // A filter by refunds finds the order with none.
    let (status, body) = call(&shop, Method::GET, "/api/admin/orders?refunds=none", Some(&token), None).await;
    assert_eq!((status, body["total"].as_u64()), (200, Some(1)), "{body}");
    let (status, body) = call(&shop, Method::GET, "/api/admin/orders?refunds=failed", Some(&token), None).await;
    assert_eq!((status, body["total"].as_u64()), (200, Some(0)), "{body}");
    let long = "x".repeat(101);
    let (status, body) =
        call(&shop, Method::GET, &format!("/api/admin/orders?search={long}"), Some(&token), None).await;
    assert_eq!((status, code(&body)), (400, "order.filter_invalid"), "{body}");

    let cases = [
        (json!({ "status": "two" }), "0", 400, None),
        (json!({ "status": 2, "colour": "red" }), "0", 400, None),
        (json!({ "status": 0 }), "0", 400, Some("order.status_invalid")),
        (json!({ "status": 4, "courier": "fedex", "awb": "1234567" }), "0", 400, Some("order.courier_unknown")),
        (json!({ "status": 4, "courier": "dtdc", "awb": "12 34" }), "0", 400, Some("order.awb_invalid")),
        (json!({ "status": 4, "courier": "other", "awb": "1234567" }), "0", 400, Some("order.tracking_url_required")),
        (
            json!({ "status": 4, "courier": "other", "awb": "1234567", "trackingUrl": "javascript:alert(1)" }),
            "0",
            400,
            Some("order.tracking_url_invalid"),
        ),
        (json!({ "status": 2 }), "abc", 400, Some("order.version_required")),
    ];
    for (body, version, expected, expected_code) in cases {
        let (status, answer) = patch(&shop, &token, &id, Some(version), body.clone()).await;
        assert_eq!(status, expected, "{body}: {answer}");
        assert_eq!(answer["status"], "failed", "{body}: {answer}");
        if let Some(c) = expected_code {
            assert_eq!(code(&answer), c, "{body}: {answer}");
        }
    }
    let (status, body) = patch(&shop, &token, "no-such-order", Some("0"), json!({ "status": 2 })).await;
    assert_eq!((status, code(&body)), (404, "order.not_found"), "{body}");
    let (status, body) = call(&shop, Method::GET, "/api/admin/orders/no-such-order", Some(&token), None).await;
    assert_eq!((status, code(&body)), (404, "order.not_found"), "{body}");
    let (_, detail) = call(&shop, Method::GET, &format!("/api/admin/orders/{id}"), Some(&token), None).await;
    assert_eq!((detail["version"].as_u64(), detail["order"]["order_status"].as_u64()), (Some(0), Some(1)), "unchanged");

    let catalog = staff_token(&app, &shop, StaffRole::Catalog).await;
    for (method, path) in
        [(Method::GET, "/api/admin/orders".to_owned()), (Method::GET, format!("/api/admin/orders/{id}"))]
    {
        let (status, body) = call(&shop, method, &path, Some(&catalog), None).await;
        assert_eq!((status, code(&body)), (403, "staff.forbidden"), "{path}: {body}");
    }
    let (status, body) = patch(&shop, &catalog, &id, Some("0"), json!({ "status": 2 })).await;
    assert_eq!((status, code(&body)), (403, "staff.forbidden"), "{body}");
}
