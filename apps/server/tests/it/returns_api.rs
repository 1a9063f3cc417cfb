//! Returns within the warranty over HTTP, paid through the sandbox: a customer returns a delivered
//! line with a photograph, another customer cannot (their order answers as missing), a return
//! outside the warranty's days is refused; staff approve, receive and resolve as store credit (one
//! grant, also when the resolution is retried with the same key) or as a refund (a GST credit note);
//! the catalog role is refused; bad input is 4xx JSON, never 500; each step queues its notices and
//! the dashboard counts the returns waiting.

use std::io::Cursor;

use marque_app::{Rule, ThrottleRules};
use marque_domain::order::{Fulfilment, NoticeKind, OrderStatus};
use marque_domain::staff::StaffRole;
use marque_ports::{Actor, AuditEntry, NoticeOutbox, OrderDesk, OrderId, ReturnStore};
use reqwest::multipart::{Form, Part};
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::customers::{customer, get_auth, read};
use crate::helpers::payments::{delhi_address, pay_in_sandbox};
use crate::helpers::staff::{call, staff_token};
use crate::helpers::{spawn_app_with, TestShop};

fn code(body: &Value) -> &str {
    body["code"].as_str().unwrap_or_default()
}

fn paise(rupees: &Value) -> i64 {
    (rupees.as_f64().expect("rupees") * 100.0).round() as i64
}

fn jpeg(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| image::Rgb([(x % 251) as u8, (y % 241) as u8, 90]));
    let mut out = Vec::new();
    img.write_to(&mut Cursor::new(&mut out), image::ImageFormat::Jpeg).expect("encode a JPEG");
    out
}

async fn in_stock(shop: &TestShop, units: u64, n: usize) -> Vec<String> {
    let (_, body) = shop.get_json("/api/get/new-products").await;
    let found: Vec<String> = body["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter(|p| p["quantity"].as_u64().unwrap_or(0) >= units)
        .take(n)
        .map(|p| p["_id"].as_str().expect("id").to_owned())
        .collect();
    assert_eq!(found.len(), n, "the demo catalog has {n} products with {units}+ units");
    found
}

/// A customer who buys `lines` and pays in the sandbox: (customer token, the order's `_id`).
async fn bought(shop: &TestShop, staff: &str, email: &str, mobile: &str, lines: &[(&str, u32)]) -> (String, String) {
    let (token, user) = customer(shop, email, mobile).await;
    let address = delhi_address(shop, &token, &user).await;
    let products: Vec<Value> = lines.iter().map(|(id, q)| json!({ "_id": id, "quantity": q })).collect();
    let body = json!({ "products": products, "address": { "_id": address["_id"] } });
    let held = crate::helpers::payments::call(shop, Method::POST, "/api/razorpay/pay", &token, body).await;
    assert_eq!(held.0, 200, "{}", held.1);
    let (status, placed) = pay_in_sandbox(shop, &token, &held.1).await;
    assert_eq!(status, 200, "{placed}");
    let (status, list) = call(shop, Method::GET, &format!("/api/admin/orders?search={email}"), Some(staff), None).await;
    assert_eq!((status, list["total"].as_u64()), (200, Some(1)), "{list}");
    (token, list["results"][0]["_id"].as_str().expect("an order").to_owned())
}

/// Moves the order through 2, 3, 4 (with an AWB) to 5 as staff over HTTP.
async fn deliver(shop: &TestShop, staff: &str, id: &str) {
    let moves = [
        json!({ "status": 2 }),
        json!({ "status": 3 }),
        json!({ "status": 4, "courier": "bluedart", "awb": "77937279125" }),
        json!({ "status": 5 }),
    ];
    for (version, body) in moves.into_iter().enumerate() {
        let (status, after) = send(
            shop,
            staff,
            Method::PATCH,
            &format!("/api/admin/orders/{id}"),
            &[("If-Match", &version.to_string())],
            Some(body),
        )
        .await;
        assert_eq!(status, 200, "{after}");
    }
}

/// A staff call with headers: the status and the body.
async fn send(
    shop: &TestShop,
    token: &str,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = shop.client.request(method, format!("{}{path}", shop.base)).bearer_auth(token);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    read(request.send().await.expect("the server answers")).await
}

/// `POST /api/account/returns` as the customer: the status and the body.
async fn ask(
    shop: &TestShop,
    token: &str,
    order: &str,
    product: &str,
    quantity: &str,
    reason: &str,
    photos: Vec<Vec<u8>>,
) -> (u16, Value) {
    let mut form = Form::new()
        .text("orderId", order.to_owned())
        .text("productId", product.to_owned())
        .text("quantity", quantity.to_owned())
        .text("reason", reason.to_owned());
    for (i, bytes) in photos.into_iter().enumerate() {
        form = form
            .part("photos", Part::bytes(bytes).file_name(format!("p{i}.jpg")).mime_str("image/jpeg").expect("mime"));
    }
    let request = shop.client.post(format!("{}/api/account/returns", shop.base)).bearer_auth(token).multipart(form);
    read(request.send().await.expect("the server answers")).await
}

/// Approves and receives return `rid` as staff (versions 0 and 1); its admin path.
async fn approved_and_received(shop: &TestShop, staff: &str, rid: &str) -> String {
    let path = format!("/api/admin/returns/{rid}");
    let (status, body) =
        send(shop, staff, Method::POST, &format!("{path}/approve"), &[("If-Match", "0")], Some(json!({}))).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = send(shop, staff, Method::POST, &format!("{path}/receive"), &[("If-Match", "1")], None).await;
    assert_eq!(status, 200, "{body}");
    path
}

const REASON: &str = "The brake disc is warped out of the box";

async fn kinds(app: &marque_server::App, order: &str) -> Vec<NoticeKind> {
    let queued = app.database().notice_outbox().notices_of(&OrderId(order.to_owned())).await.expect("the outbox");
    let mut kinds: Vec<NoticeKind> = queued.into_iter().map(|q| q.notice.kind).collect();
    kinds.dedup();
    kinds
}

#[tokio::test]
async fn a_customer_returns_a_delivered_line_and_the_shop_grants_store_credit_once() {
    let rules = ThrottleRules { return_request: Rule::per_hour(100), ..ThrottleRules::default() };
    let (shop, app) = spawn_app_with(|c| c.rate_limits = rules).await;
    let clerk = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let parts = in_stock(&shop, 3, 2).await;
    let (a, b) = (parts[0].as_str(), parts[1].as_str());
    let (token, id) = bought(&shop, &clerk, "return.me@example.in", "9812345681", &[(a, 2), (b, 1)]).await;
    let (other, other_order) = bought(&shop, &clerk, "someone.else@example.in", "9812345682", &[(b, 1)]).await;

    // Not delivered yet.
    let (status, body) = ask(&shop, &token, &id, a, "1", REASON, vec![]).await;
    assert_eq!((status, code(&body)), (409, "return.not_delivered"), "{body}");
    deliver(&shop, &clerk, &id).await;
    deliver(&shop, &clerk, &other_order).await;

    // Another customer's order answers exactly as a missing one; the owner's own works.
    let (status, body) = ask(&shop, &other, &id, a, "1", REASON, vec![]).await;
    assert_eq!((status, code(&body)), (404, "order.not_found"), "{body}");
    let (status, body) = ask(&shop, &token, "no-such-order", a, "1", REASON, vec![]).await;
    assert_eq!((status, code(&body)), (404, "order.not_found"), "{body}");

    // Bad input: 4xx JSON with the rules' codes.
    let cases = [
        (a, "0", REASON, 400, "return.quantity_invalid"),
        (a, "-3", REASON, 400, "return.quantity_invalid"),
        (a, "3", REASON, 409, "return.quantity_above_left"),
        ("not-on-the-order", "1", REASON, 400, "return.unknown_line"),
        (a, "1", "short", 400, "return.reason_invalid"),
    ];
    for (product, quantity, reason, want, want_code) in cases {
        let (status, body) = ask(&shop, &token, &id, product, quantity, reason, vec![]).await;
        assert_eq!((status, code(&body)), (want, want_code), "{product} {quantity} {reason}: {body}");
    }
    let (status, body) = ask(&shop, &token, &id, a, "many", REASON, vec![]).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["code"].is_string(), "JSON with a code: {body}");
    let (status, body) = ask(&shop, &token, &id, a, "1", REASON, vec![b"not a picture".to_vec()]).await;
    assert_eq!((status, code(&body)), (400, "return.photo_invalid"), "{body}");
    let (status, body) = ask(&shop, &token, &id, a, "1", REASON, vec![jpeg(8, 8); 4]).await;
    assert_eq!((status, code(&body)), (400, "return.too_many_photos"), "{body}");
    let unsigned = shop
        .client
        .post(format!("{}/api/account/returns", shop.base))
        .multipart(Form::new().text("orderId", id.clone()));
    let (status, body) = read(unsigned.send().await.expect("answers")).await;
    assert_eq!(status, 401, "{body}");

    // The return itself, with a photograph.
    let (status, made) = ask(&shop, &token, &id, a, "2", REASON, vec![jpeg(640, 480)]).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(
        (made["state"].as_str(), made["quantity"].as_u64(), made["photos"].as_u64()),
        (Some("requested"), Some(2), Some(1))
    );
    let rid = made["_id"].as_str().expect("an id").to_owned();
    let (status, again) = ask(&shop, &token, &id, a, "1", REASON, vec![]).await;
    assert_eq!((status, code(&again)), (409, "return.quantity_above_left"), "both units are being returned: {again}");
    let (status, mine) = get_auth(&shop, "/api/account/returns", &token).await;
    assert_eq!((status, mine["results"][0]["_id"].as_str()), (200, Some(rid.as_str())), "{mine}");
    let (_, theirs) = get_auth(&shop, "/api/account/returns", &other).await;
    assert_eq!(theirs["results"], json!([]), "another customer sees none of it");

    // The shop's side: the catalog role is refused, the version is required, the moves in order.
    let cataloguer = staff_token(&app, &shop, StaffRole::Catalog).await;
    let (status, body) = call(&shop, Method::GET, "/api/admin/returns", Some(&cataloguer), None).await;
    assert_eq!((status, code(&body)), (403, "staff.forbidden"), "{body}");
    let (status, list) = call(&shop, Method::GET, "/api/admin/returns?state=requested", Some(&clerk), None).await;
    assert_eq!((status, list["total"].as_u64()), (200, Some(1)), "{list}");
    let (status, body) = call(&shop, Method::GET, "/api/admin/returns?state=lost", Some(&clerk), None).await;
    assert_eq!((status, code(&body)), (400, "return.state_invalid"), "{body}");
    let (_, dash) = call(&shop, Method::GET, "/api/admin/dashboard", Some(&clerk), None).await;
    assert_eq!(dash["returnsWaiting"].as_u64(), Some(1), "{dash}");
    assert_eq!(dash["noticesFailed"].as_u64(), Some(0), "no notice has failed: {dash}");
    let (status, photo) = shop
        .client
        .get(format!("{}/api/admin/returns/{rid}/photos/1", shop.base))
        .bearer_auth(&clerk)
        .send()
        .await
        .map(|r| (r.status().as_u16(), r.headers().get("content-type").cloned()))
        .expect("answers");
    assert_eq!((status, photo.as_ref().and_then(|v| v.to_str().ok())), (200, Some("image/jpeg")));

    let path = format!("/api/admin/returns/{rid}");
    let (status, body) = send(&shop, &clerk, Method::POST, &format!("{path}/approve"), &[], Some(json!({}))).await;
    assert_eq!((status, code(&body)), (428, "return.version_required"), "{body}");
    let (status, body) =
        send(&shop, &clerk, Method::POST, &format!("{path}/receive"), &[("If-Match", "0")], None).await;
    assert_eq!((status, code(&body)), (409, "return.illegal_move"), "not approved yet: {body}");
    let (status, body) = send(
        &shop,
        &clerk,
        Method::POST,
        &format!("{path}/refuse"),
        &[("If-Match", "0")],
        Some(json!({ "note": " " })),
    )
    .await;
    assert_eq!((status, code(&body)), (400, "return.note_invalid"), "a refusal needs a note: {body}");
    let (status, approved) = send(
        &shop,
        &clerk,
        Method::POST,
        &format!("{path}/approve"),
        &[("If-Match", "0")],
        Some(json!({ "note": "Send it with the invoice" })),
    )
    .await;
    assert_eq!(
        (status, approved["state"].as_str(), approved["version"].as_u64()),
        (200, Some("approved"), Some(1)),
        "{approved}"
    );
    let (status, body) = send(
        &shop,
        &clerk,
        Method::POST,
        &format!("{path}/refuse"),
        &[("If-Match", "0")],
        Some(json!({ "note": "late" })),
    )
    .await;
    assert_eq!((status, code(&body)), (409, "return.changed"), "{body}");
    let (status, received) =
        send(&shop, &clerk, Method::POST, &format!("{path}/receive"), &[("If-Match", "1")], None).await;
    assert_eq!((status, received["state"].as_str()), (200, Some("received")), "{received}");

    let resolve = format!("{path}/resolve");
    let credit = json!({ "outcome": "storeCredit", "restock": true, "note": "Fine, credit given" });
    let (status, body) = send(&shop, &clerk, Method::POST, &resolve, &[("If-Match", "2")], Some(credit.clone())).await;
    assert_eq!((status, code(&body)), (428, "refund.key_required"), "{body}");
    let (status, body) = send(
        &shop,
        &clerk,
        Method::POST,
        &resolve,
        &[("If-Match", "2"), ("Idempotency-Key", "ret-key-0001")],
        Some(json!({ "outcome": "cash", "restock": true })),
    )
    .await;
    assert_eq!((status, code(&body)), (400, "return.outcome_invalid"), "{body}");
    let key = [("If-Match", "2"), ("Idempotency-Key", "ret-key-0001")];
    let (status, resolved) = send(&shop, &clerk, Method::POST, &resolve, &key, Some(credit.clone())).await;
    assert_eq!(status, 201, "{resolved}");
    assert_eq!((resolved["state"].as_str(), resolved["outcome"].as_str()), (Some("resolved"), Some("storeCredit")));
    let value = paise(&resolved["amount"]);
    assert!(value > 0, "{resolved}");
    // Retried with the same key (a lost answer): the same return, no second grant.
    let (status, again) = send(&shop, &clerk, Method::POST, &resolve, &key, Some(credit.clone())).await;
    assert_eq!((status, again["version"].as_u64()), (200, resolved["version"].as_u64()), "{again}");
    let grants = app.database().returns().credit_granted(&format!("return:{rid}")).await.expect("the ledger");
    assert_eq!(grants.len(), 1, "one grant: {grants:?}");
    assert_eq!(grants[0].1.paise(), value);
    let stored = app.database().order_desk().order(&OrderId(id.clone())).await.expect("reads").expect("the order");
    assert_eq!(grants[0].0, stored.order.draft.user, "granted to the order's customer, as the order stores them");
    let (_, dash) = call(&shop, Method::GET, "/api/admin/dashboard", Some(&clerk), None).await;
    assert_eq!(dash["returnsWaiting"].as_u64(), Some(0), "{dash}");
    assert_eq!(
        kinds(&app, &id).await.into_iter().filter(|k| k.template().starts_with("return-")).collect::<Vec<_>>(),
        [
            NoticeKind::ReturnRequested,
            NoticeKind::ReturnApproved,
            NoticeKind::ReturnReceived,
            NoticeKind::ReturnResolved
        ],
        "an email (and SMS) at each step"
    );
    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    let (_, audit) =
        call(&shop, Method::GET, &format!("/api/admin/audit?subject=return:{rid}"), Some(&owner), None).await;
    assert_eq!(audit["total"].as_u64(), Some(3), "approve, receive, resolve: {audit}");
}

#[tokio::test]
async fn a_return_resolved_as_a_refund_issues_a_credit_note_and_one_outside_the_window_is_refused() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let clerk = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let parts = in_stock(&shop, 3, 2).await;
    let (a, b) = (parts[0].as_str(), parts[1].as_str());
    let (token, id) = bought(&shop, &clerk, "refund.return@example.in", "9812345683", &[(a, 1), (b, 1)]).await;
    deliver(&shop, &clerk, &id).await;
    let (status, made) = ask(&shop, &token, &id, a, "1", REASON, vec![]).await;
    assert_eq!(status, 201, "{made}");
    let rid = made["_id"].as_str().expect("id").to_owned();
    let path = approved_and_received(&shop, &clerk, &rid).await;
    let key = [("If-Match", "2"), ("Idempotency-Key", "ret-refund-0001")];
    let body = json!({ "outcome": "refund", "restock": true });
    let (status, resolved) =
        send(&shop, &clerk, Method::POST, &format!("{path}/resolve"), &key, Some(body.clone())).await;
    assert_eq!((status, resolved["outcome"].as_str()), (201, Some("refund")), "{resolved}");
    let (status, again) = send(&shop, &clerk, Method::POST, &format!("{path}/resolve"), &key, Some(body)).await;
    assert_eq!(status, 200, "{again}");
    let (_, detail) = call(&shop, Method::GET, &format!("/api/admin/orders/{id}"), Some(&clerk), None).await;
    let refunds = detail["refunds"].as_array().expect("refunds");
    assert_eq!(refunds.len(), 1, "refunded once: {detail}");
    assert!(refunds[0]["creditNote"].as_str().is_some_and(|n| n.starts_with("CN/")), "{detail}");
    assert_eq!(paise(&refunds[0]["amount"]), paise(&resolved["amount"]));

    // Delivered 20 days ago (the order desk's timeline written as then): past any warranty.
    let desk = app.database().order_desk();
    let (late_token, late) = bought(&shop, &clerk, "late.return@example.in", "9812345684", &[(b, 1)]).await;
    let then = chrono_like_now() - 20 * 86_400;
    let moves = [OrderStatus::Confirmed, OrderStatus::Packed, OrderStatus::Shipped, OrderStatus::Delivered];
    for (version, status) in (0u64..).zip(moves) {
        let shipment = (status >= OrderStatus::Shipped)
            .then(|| marque_domain::order::Shipment::parse("bluedart", "77937279125", None).expect("a shipment"));
        let audit = AuditEntry::new(then, Actor::System("test".into()), "order.status", format!("order:{late}"));
        desk.update_fulfilment(&OrderId(late.clone()), version, &Fulfilment { status, shipment }, &audit, &[])
            .await
            .expect("moved");
    }
    let (status, body) = ask(&shop, &late_token, &late, b, "1", REASON, vec![]).await;
    assert_eq!((status, code(&body)), (409, "return.window_closed"), "{body}");
}

#[tokio::test]
async fn the_export_holds_returns_and_store_credit_and_erasure_deletes_return_photos_keeping_the_records() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let clerk = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let parts = in_stock(&shop, 2, 1).await;
    let a = parts[0].as_str();
    let (token, id) = bought(&shop, &clerk, "erase.returns@example.in", "9812345691", &[(a, 1)]).await;
    deliver(&shop, &clerk, &id).await;
    let (status, made) = ask(&shop, &token, &id, a, "1", REASON, vec![jpeg(320, 240)]).await;
    assert_eq!(status, 201, "{made}");
    let rid = made["_id"].as_str().expect("an id").to_owned();
    let path = approved_and_received(&shop, &clerk, &rid).await;
    let key = [("If-Match", "2"), ("Idempotency-Key", "erase-key-0001")];
    let credit = json!({ "outcome": "storeCredit", "restock": false, "note": "Credit given" });
    let (status, resolved) = send(&shop, &clerk, Method::POST, &format!("{path}/resolve"), &key, Some(credit)).await;
    assert_eq!(status, 201, "{resolved}");

    // The customer's copy of their data: the return with its photograph's name, and the grant.
    let (_, me) = get_auth(&shop, "/api/user", &token).await;
    let user = me["user"]["_id"].as_str().expect("the user's id").to_owned();
    let (status, export) = get_auth(&shop, &format!("/api/user/{user}/export"), &token).await;
    assert_eq!(status, 200, "{export}");
    assert_eq!(export["returns"][0]["return"]["_id"].as_str(), Some(rid.as_str()), "{export}");
    assert_eq!(export["returns"][0]["return"]["reason"].as_str(), Some(REASON));
    let names: Vec<String> = serde_json::from_value(export["returns"][0]["photoNames"].clone()).expect("names");
    assert_eq!(names.len(), 1, "{export}");
    assert!(names[0].starts_with("returns/"), "{names:?}");
    let grants = export["storeCredit"].as_array().expect("grants");
    assert_eq!(grants.len(), 1, "{export}");
    assert_eq!(grants[0]["source"].as_str(), Some(format!("return:{rid}").as_str()));
    assert_eq!(paise(&grants[0]["amount"]), paise(&resolved["amount"]));
    assert_eq!(paise(&grants[0]["remaining"]), paise(&resolved["amount"]));
    // The photograph is in the blob store (files under `<data dir>/blobs` in tests).
    let file = std::env::temp_dir().join("blobs").join(&names[0]);
    assert!(file.exists(), "{} is kept", file.display());

    // Erasure: the photograph is deleted, the return keeps the shop's record without the customer's words.
    let (status, body) =
        crate::helpers::payments::call(&shop, Method::DELETE, &format!("/api/user/{user}"), &token, json!(null)).await;
    assert_eq!(status, 200, "{body}");
    assert!(!file.exists(), "the return's photograph is deleted with the account");
    let (status, kept) = call(&shop, Method::GET, &path, Some(&clerk), None).await;
    assert_eq!(status, 200, "{kept}");
    assert_eq!(
        (kept["state"].as_str(), kept["outcome"].as_str(), kept["reason"].as_str(), kept["photos"].as_u64()),
        (Some("resolved"), Some("storeCredit"), Some(""), Some(0)),
        "{kept}"
    );
    assert_eq!((paise(&kept["amount"]), kept["note"].as_str()), (paise(&resolved["amount"]), None));
    let (status, _) = call(&shop, Method::GET, &format!("{path}/photos/1"), Some(&clerk), None).await;
    assert_eq!(status, 404, "no photograph is left to show");
    let grants = app.database().returns().credit_granted(&format!("return:{rid}")).await.expect("the ledger");
    assert_eq!(grants.len(), 1, "the store credit ledger keeps the grant: {grants:?}");
    let order = app.database().order_desk().order(&OrderId(id.clone())).await.expect("reads");
    assert!(order.is_some(), "the order is kept for GST records");
}

async fn stock_of(shop: &TestShop, id: &str) -> u64 {
    let (status, body) = shop.get_json(&format!("/api/get/checkoutById/{id}")).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["totalQuantity"].as_u64().expect("totalQuantity")
}

#[tokio::test]
async fn a_return_resolved_as_a_replacement_places_a_new_order_at_no_charge_taking_its_stock() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let clerk = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let a = in_stock(&shop, 3, 1).await.remove(0);
    let email = "replace.me@example.in";
    let (token, id) = bought(&shop, &clerk, email, "9812345686", &[(&a, 1)]).await;
    deliver(&shop, &clerk, &id).await;
    let (status, made) = ask(&shop, &token, &id, &a, "1", REASON, vec![]).await;
    assert_eq!(status, 201, "{made}");
    let rid = made["_id"].as_str().expect("id").to_owned();
    let path = format!("/api/admin/returns/{rid}");
    assert_eq!(
        send(&shop, &clerk, Method::POST, &format!("{path}/approve"), &[("If-Match", "0")], Some(json!({}))).await.0,
        200
    );
    assert_eq!(send(&shop, &clerk, Method::POST, &format!("{path}/receive"), &[("If-Match", "1")], None).await.0, 200);
    let before = stock_of(&shop, &a).await;
    let key = [("If-Match", "2"), ("Idempotency-Key", "ret-replace-0001")];
    let body = json!({ "outcome": "replacement", "restock": false });
    let (status, resolved) =
        send(&shop, &clerk, Method::POST, &format!("{path}/resolve"), &key, Some(body.clone())).await;
    assert_eq!((status, resolved["outcome"].as_str()), (201, Some("replacement")), "{resolved}");
    let replacement = resolved["replacementOrderId"].as_str().expect("the replacement's order").to_owned();
    let (status, again) = send(&shop, &clerk, Method::POST, &format!("{path}/resolve"), &key, Some(body)).await;
    assert_eq!((status, again["replacementOrderId"].as_str()), (200, Some(replacement.as_str())), "{again}");
    assert_eq!(stock_of(&shop, &a).await, before - 1, "the replacement's unit taken once");
    let (_, list) = call(&shop, Method::GET, &format!("/api/admin/orders?search={email}"), Some(&clerk), None).await;
    assert_eq!(list["total"].as_u64(), Some(2), "the order and its replacement: {list}");
    let (status, placed) =
        call(&shop, Method::GET, &format!("/api/admin/orders/{replacement}"), Some(&clerk), None).await;
    assert_eq!(status, 200, "{placed}");
    assert_eq!((paise(&placed["order"]["total"]), placed["order"]["order_status"].as_u64()), (0, Some(1)), "{placed}");
}

#[tokio::test]
async fn return_requests_are_limited_per_customer_per_hour() {
    let (shop, _) = spawn_app_with(|_| {}).await;
    let (token, _) = customer(&shop, "many.returns@example.in", "9812345685").await;
    for _ in 0..ThrottleRules::default().return_request.limit {
        let (status, body) = ask(&shop, &token, "no-such-order", "p", "1", REASON, vec![]).await;
        assert_eq!((status, code(&body)), (404, "order.not_found"), "{body}");
    }
    let (status, body) = ask(&shop, &token, "no-such-order", "p", "1", REASON, vec![]).await;
    assert_eq!((status, code(&body)), (429, "request.too_many"), "{body}");
}

fn chrono_like_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_secs() as i64
}
