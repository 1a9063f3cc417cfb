//! Grievances over HTTP: the contact page's form opens a numbered ticket and the acknowledgement is
//! in the outbox at once; bad input is 400 JSON with every field's code; a client is limited (429);
//! the grievance officer lists tickets with their clocks, acknowledges and resolves them on the
//! version named (428, 409 `grievance.changed`, one winner of many at once), audited; a catalog
//! member is refused (403) and a customer's token is no staff session (401). And the dashboard.

use futures::future::join_all;
use marque_contract_tests::fixtures::product;
use marque_contract_tests::order_desk::place;
use marque_domain::staff::StaffRole;
use marque_ports::CatalogStore;
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::customers::{customer, post, read};
use crate::helpers::staff::{call, staff_token};
use crate::helpers::{spawn_app_with, TestShop};

fn form(n: u32) -> Value {
    json!({
        "name": format!("Asha {n}"),
        "email": format!("asha{n}@example.in"),
        "mobile": "9810012345",
        "orderNumber": "MQ-000042",
        "message": "The brake pads I received are for the wrong model of my car.",
    })
}

fn code(body: &Value) -> &str {
    body["code"].as_str().unwrap_or_default()
}

/// `PATCH /api/admin/grievances/{id}` with `If-Match` (when given).
async fn patch(shop: &TestShop, token: &str, id: &str, if_match: Option<&str>, body: Value) -> (u16, Value) {
    let mut request = shop
        .client
        .request(Method::PATCH, format!("{}/api/admin/grievances/{id}", shop.base))
        .bearer_auth(token)
        .json(&body);
    if let Some(version) = if_match {
        request = request.header("If-Match", version);
    }
    read(request.send().await.expect("the server answers")).await
}

#[tokio::test]
async fn a_grievance_is_numbered_acknowledged_by_email_and_answered_by_the_officer() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let (status, received) = post(&shop, "/api/grievances", form(1)).await;
    assert_eq!((status, received["status"].as_str()), (201, Some("success")), "{received}");
    let number = received["number"].as_str().expect("a number").to_owned();
    assert!(number.starts_with("GR/") && number.ends_with("/000001"), "{number}");
    assert_eq!(code(&received), "grievance.received");
    let (status, second) = post(&shop, "/api/grievances", form(2)).await;
    assert_eq!((status, second["number"].as_str().map(|n| n.ends_with("/000002"))), (201, Some(true)), "{second}");

    let (_, outbox) = shop.get_json("/api/dev/outbox").await;
    let mail = outbox
        .as_array()
        .expect("a list")
        .iter()
        .find(|m| m["recipient"] == "asha1@example.in")
        .unwrap_or_else(|| panic!("no acknowledgement: {outbox}"));
    assert_eq!(mail["channel"], "email");
    let text = mail["text"].as_str().unwrap_or_default();
    assert!(text.contains(&number) && text.contains("48 hours") && text.contains("Anita Sharma"), "{text}");

    let officer = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let (status, list) = call(&shop, Method::GET, "/api/admin/grievances?state=open", Some(&officer), None).await;
    assert_eq!((status, list["total"].as_u64()), (200, Some(2)), "{list}");
    let first = list["results"]
        .as_array()
        .and_then(|r| r.iter().find(|t| t["number"] == number.as_str()))
        .unwrap_or_else(|| panic!("the ticket: {list}"))
        .clone();
    assert_eq!((first["state"].as_str(), first["version"].as_u64()), (Some("open"), Some(0)));
    assert_eq!((first["overdue"].as_bool(), first["orderNumber"].as_str()), (Some(false), Some("MQ-000042")));
    assert!(first["acknowledgeBy"].as_str().is_some_and(|t| t.ends_with('Z')), "{first}");
    let id = first["_id"].as_str().expect("an id").to_owned();

    let (status, body) = patch(&shop, &officer, &id, None, json!({ "action": "acknowledge" })).await;
    assert_eq!((status, code(&body)), (428, "grievance.version_required"), "{body}");
    let (status, body) = patch(&shop, &officer, &id, Some("0"), json!({ "action": "close" })).await;
    assert_eq!((status, code(&body)), (400, "grievance.action_invalid"), "{body}");
    let (status, body) = patch(&shop, &officer, &id, Some("0"), json!({ "action": "resolve" })).await;
    assert_eq!((status, code(&body)), (422, "grievance.note_invalid"), "a resolution needs a reply: {body}");
    let ack = json!({ "action": "acknowledge", "note": "We are looking into it." });
    let (status, body) = patch(&shop, &officer, &id, Some("0"), ack.clone()).await;
    assert_eq!((status, body["state"].as_str(), body["version"].as_u64()), (200, Some("acknowledged"), Some(1)));
    let (status, body) = patch(&shop, &officer, &id, Some("0"), ack.clone()).await;
    assert_eq!((status, code(&body)), (409, "grievance.changed"), "{body}");
    let (status, body) = patch(&shop, &officer, &id, Some("1"), ack).await;
    assert_eq!((status, code(&body)), (409, "grievance.already_acknowledged"), "{body}");
    let resolve = json!({ "action": "resolve", "note": "A replacement set has been shipped." });
    let (status, body) = patch(&shop, &officer, &id, Some("\"1\""), resolve).await;
    assert_eq!((status, body["state"].as_str()), (200, Some("resolved")), "{body}");
    assert_eq!(body["resolution"], "A replacement set has been shipped.");
    assert!(body["handledBy"].as_str().is_some_and(|l| l.contains('@')), "{body}");

    let (status, one) = call(&shop, Method::GET, &format!("/api/admin/grievances/{id}"), Some(&officer), None).await;
    assert_eq!((status, one["version"].as_u64()), (200, Some(2)), "{one}");
    let (status, missing) = call(&shop, Method::GET, "/api/admin/grievances/nobody", Some(&officer), None).await;
    assert_eq!((status, code(&missing)), (404, "grievance.not_found"), "{missing}");
    let (status, bad) = call(&shop, Method::GET, "/api/admin/grievances?state=closed", Some(&officer), None).await;
    assert_eq!((status, code(&bad)), (400, "grievance.state_invalid"), "{bad}");

    let (_, outbox) = shop.get_json("/api/dev/outbox").await;
    let replies = outbox.as_array().expect("a list").iter().filter(|m| m["recipient"] == "asha1@example.in").count();
    assert_eq!(replies, 3, "the acknowledgement on receipt, the officer's note, the resolution: {outbox}");

    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    let trail = format!("/api/admin/audit?subject=grievance:{id}");
    let (status, audit) = call(&shop, Method::GET, &trail, Some(&owner), None).await;
    assert_eq!((status, audit["total"].as_u64()), (200, Some(2)), "one audit record a move: {audit}");
}

#[tokio::test]
async fn bad_input_is_refused_with_every_fields_code() {
    let (shop, _app) = spawn_app_with(|_| {}).await;
    let bad = json!({ "name": "", "email": "nope", "mobile": "12345", "orderNumber": "MQ 42;", "message": "short" });
    let (status, body) = post(&shop, "/api/grievances", bad).await;
    assert_eq!((status, body["status"].as_str()), (400, Some("failed")), "{body}");
    let fields: Vec<(&str, &str)> = body["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| (e["field"].as_str().unwrap_or_default(), e["code"].as_str().unwrap_or_default()))
        .collect();
    assert_eq!(
        fields,
        [
            ("name", "grievance.name_invalid"),
            ("email", "email.invalid"),
            ("mobile", "address.mobile_invalid"),
            ("orderNumber", "grievance.order_number_invalid"),
            ("message", "grievance.message_invalid"),
        ]
    );
    let (status, body) = post(&shop, "/api/grievances", json!({})).await;
    assert_eq!((status, code(&body)), (400, "grievance.name_invalid"), "missing fields are empty ones: {body}");
    let raw = shop
        .client
        .post(format!("{}/api/grievances", shop.base))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .expect("an answer");
    let (status, body) = read(raw).await;
    assert_eq!((status, body["status"].as_str()), (400, Some("failed")), "{body}");
    let (status, body) = post(&shop, "/api/grievances", json!({ "name": 7 })).await;
    assert_eq!(status, 400, "{body}");
    let (_, outbox) = shop.get_json("/api/dev/outbox").await;
    let sent = outbox
        .as_array()
        .expect("a list")
        .iter()
        .filter(|m| m["subject"].as_str().is_some_and(|s| s.contains("Grievance")))
        .count();
    assert_eq!(sent, 0, "nothing sent: {outbox}");
}

#[tokio::test]
async fn one_client_is_limited_to_its_grievances_an_hour() {
    let (shop, _app) = spawn_app_with(|_| {}).await;
    let mut answers = Vec::new();
    for n in 0..21 {
        answers.push(post(&shop, "/api/grievances", form(n)).await.0);
    }
    assert_eq!(answers.iter().filter(|s| **s == 201).count(), 20, "{answers:?}");
    let refused = shop.client.post(format!("{}/api/grievances", shop.base)).json(&form(99)).send().await;
    let refused = refused.expect("an answer");
    let retry = refused.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let (status, body) = read(refused).await;
    assert_eq!((status, code(&body)), (429, "request.too_many"), "{body}");
    assert!(retry.is_some_and(|s| s.parse::<u64>().is_ok_and(|s| s >= 1)), "Retry-After");
}

#[tokio::test]
async fn a_catalog_member_and_a_customer_are_refused() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let (_, received) = post(&shop, "/api/grievances", form(1)).await;
    assert!(received["number"].is_string(), "{received}");
    let catalog = staff_token(&app, &shop, StaffRole::Catalog).await;
    let (status, body) = call(&shop, Method::GET, "/api/admin/grievances", Some(&catalog), None).await;
    assert_eq!((status, code(&body)), (403, "staff.forbidden"), "{body}");
    let (status, body) = patch(&shop, &catalog, "any", Some("0"), json!({ "action": "acknowledge" })).await;
    assert_eq!((status, code(&body)), (403, "staff.forbidden"), "{body}");
    let (status, body) = call(&shop, Method::GET, "/api/admin/dashboard", Some(&catalog), None).await;
    assert_eq!((status, code(&body)), (403, "staff.forbidden"), "{body}");
    let (customer_token, _) = customer(&shop, "asha.griev@example.in", "9812345671").await;
    let (status, body) = call(&shop, Method::GET, "/api/admin/grievances", Some(&customer_token), None).await;
    assert_eq!((status, code(&body)), (401, "staff.login_required"), "a customer is no staff: {body}");
}

#[tokio::test]
async fn two_officers_moving_one_ticket_at_once_one_wins() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    post(&shop, "/api/grievances", form(1)).await;
    let clerk = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    let (_, list) = call(&shop, Method::GET, "/api/admin/grievances", Some(&clerk), None).await;
    let id = list["results"][0]["_id"].as_str().expect("an id").to_owned();
    let tokens = [&clerk, &owner, &clerk, &owner, &clerk, &owner];
    let body = json!({ "action": "resolve", "note": "Refunded in full." });
    let answers = join_all(tokens.iter().map(|t| patch(&shop, t, &id, Some("0"), body.clone()))).await;
    assert_eq!(answers.iter().filter(|(status, _)| *status == 200).count(), 1, "{answers:?}");
    for (status, body) in answers.iter().filter(|(status, _)| *status != 200) {
        assert_eq!((*status, code(body)), (409, "grievance.changed"), "{body}");
    }
    let (_, after) = call(&shop, Method::GET, &format!("/api/admin/grievances/{id}"), Some(&owner), None).await;
    assert_eq!((after["version"].as_u64(), after["state"].as_str()), (Some(1), Some("resolved")), "{after}");
}

#[tokio::test]
async fn the_dashboard_counts_what_waits_and_shows_sales_to_the_owner_only() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let part = product("p001").name("Brake pad set").quantity(50).build();
    app.database().catalog().add_products(&[part]).await.expect("the product is written");
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let now = i64::try_from(now).unwrap_or(0);
    // Both today in India, whenever the test runs.
    let today = marque_domain::calendar::ist_day_start(now).max(now - 60);
    let placed = place(&app.database().orders(), "a", "u1", today).await;
    place(&app.database().orders(), "b", "u1", today).await;
    post(&shop, "/api/grievances", form(1)).await;

    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    let (status, board) = call(&shop, Method::GET, "/api/admin/dashboard", Some(&owner), None).await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(
        (board["toConfirm"].as_u64(), board["toPack"].as_u64(), board["toShip"].as_u64()),
        (Some(2), Some(0), Some(0))
    );
    assert_eq!((board["refundsPending"].as_u64(), board["refundsFailed"].as_u64()), (Some(0), Some(0)), "{board}");
    assert_eq!(board["grievancesOverdue"].as_u64(), Some(0), "a new ticket's clocks run: {board}");
    let paid = placed.draft.total.paise() * 2;
    assert_eq!(board["sales"]["today"].as_i64(), Some(paid), "{board}");
    assert!(board["sales"]["thisMonth"].as_i64().is_some_and(|m| m >= paid), "{board}");
    assert!(board["lowStock"].as_u64().is_some(), "{board}");

    let clerk = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let (status, board) = call(&shop, Method::GET, "/api/admin/dashboard", Some(&clerk), None).await;
    assert_eq!((status, board["toConfirm"].as_u64()), (200, Some(2)), "{board}");
    assert!(board["sales"].is_null(), "no sales figures for fulfilment: {board}");
}
