//! Cancellations and refunds in the back office over HTTP, paid through the sandbox: a fulfilment
//! member refunds one line with restock (the sandbox shows the refund once, the stock is back, a
//! repeated request is answered again), the `Idempotency-Key` rules, a cancellation from 1–3 that
//! refunds everything, a failed refund retried, bad input answered 4xx JSON, a catalog member refused;
//! the GST credit note a refund issues, downloaded by its customer and by staff, refused to others.

use marque_domain::staff::StaffRole;
use marque_razorpay_sandbox::RefundOutcome;
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

/// Products of the demo catalog with at least `units` in stock: their ids.
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

async fn stock_of(shop: &TestShop, id: &str) -> u64 {
    let (status, body) = shop.get_json(&format!("/api/get/checkoutById/{id}")).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["totalQuantity"].as_u64().expect("totalQuantity")
}

/// A customer who buys `lines` and pays in the sandbox: (customer token, the order's `_id` as the
/// back office lists it).
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

/// `POST` `path` as staff with extra headers: the status and the body.
async fn post(shop: &TestShop, token: &str, path: &str, headers: &[(&str, &str)], body: Value) -> (u16, Value) {
    let mut request = shop.client.post(format!("{}{path}", shop.base)).bearer_auth(token).json(&body);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    read(request.send().await.expect("the server answers")).await
}

#[tokio::test]
async fn a_fulfilment_member_refunds_one_line_with_restock_once_whatever_is_repeated() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let sandbox = app.sandbox.clone().expect("the dev sandbox");
    let clerk = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let parts = in_stock(&shop, 3, 2).await;
    let (a, b) = (parts[0].as_str(), parts[1].as_str());
    let (_, id) = bought(&shop, &clerk, "refund.me@example.in", "9812345671", &[(a, 2), (b, 1)]).await;
    let path = format!("/api/admin/orders/{id}");
    let (status, detail) = call(&shop, Method::GET, &path, Some(&clerk), None).await;
    assert_eq!(status, 200, "{detail}");
    assert_eq!(paise(&detail["refundable"]["amount"]), paise(&detail["order"]["total"]), "nothing refunded yet");
    assert_eq!(detail["refunds"], json!([]));
    let payment = detail["paymentId"].as_str().expect("payment").to_owned();
    let price_a = detail["order"]["products"]
        .as_array()
        .expect("products")
        .iter()
        .find(|p| p["product_id"] == a)
        .map(|p| paise(&p["price"]))
        .expect("line a");
    let stock_a = stock_of(&shop, a).await;

    let refunds = format!("{path}/refunds");
    let one = json!({ "lines": [{ "productId": a, "quantity": 1, "restock": true, "reason": "arrived cracked" }],
                      "deliveryCharge": false, "reason": "damaged" });
    let (status, body) = post(&shop, &clerk, &refunds, &[], one.clone()).await;
    assert_eq!((status, code(&body)), (428, "refund.key_required"), "{body}");
    let key = [("Idempotency-Key", "refund-test-0001")];
    let (status, made) = post(&shop, &clerk, &refunds, &key, one.clone()).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(paise(&made["refund"]["amount"]), price_a, "one unit at the price paid (no discount)");
    assert_eq!(made["refund"]["lines"][0]["reason"], "arrived cracked");
    assert!(made["refund"]["by"].as_str().is_some_and(|by| by.contains('@')), "{made}");
    assert!(["pending", "processed"].contains(&made["refund"]["state"].as_str().unwrap_or("")), "{made}");
    assert_eq!(stock_of(&shop, a).await, stock_a + 1, "restocked");
    let at_provider = sandbox.payment_refunds(&payment).expect("the payment's refunds");
    assert_eq!((at_provider.count, at_provider.items[0].amount), (1, price_a));

    // The same key and body: the same refund, answered again, not paid again.
    let (status, again) = post(&shop, &clerk, &refunds, &key, one.clone()).await;
    assert_eq!((status, &again["refund"]["_id"]), (200, &made["refund"]["_id"]), "{again}");
    assert_eq!(sandbox.payment_refunds(&payment).expect("refunds").count, 1, "paid once");
    assert_eq!(stock_of(&shop, a).await, stock_a + 1, "restocked once");
    let mut other = one.clone();
    other["lines"][0]["quantity"] = json!(2);
    let (status, body) = post(&shop, &clerk, &refunds, &key, other).await;
    assert_eq!((status, code(&body)), (422, "refund.key_reused"), "{body}");

    let (_, detail) = call(&shop, Method::GET, &path, Some(&clerk), None).await;
    assert_eq!(detail["refunds"].as_array().map(Vec::len), Some(1), "{detail}");
    assert_eq!(paise(&detail["refundable"]["amount"]), paise(&detail["order"]["total"]) - price_a);
    let left_a = detail["refundable"]["lines"].as_array().expect("lines").iter().find(|l| l["productId"] == a).cloned();
    assert_eq!(left_a.map(|l| l["left"].clone()), Some(json!(1)));
    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    let (_, audit) =
        call(&shop, Method::GET, &format!("/api/admin/audit?subject=order:{id}"), Some(&owner), None).await;
    assert_eq!(audit["total"].as_u64(), Some(1), "one audit record for the refund: {audit}");

    // Bad input: 4xx JSON with the rules' codes, nothing refunded.
    let line = |product: &str, quantity: Value| json!({ "lines": [{ "productId": product, "quantity": quantity, "restock": true }], "deliveryCharge": false, "reason": "r" });
    let cases = [
        (line(a, json!(-1)), 400, "refund.quantity_invalid"),
        (line(a, json!(0)), 400, "refund.quantity_invalid"),
        (line("no-such-part", json!(1)), 400, "refund.unknown_product"),
        (line(a, json!(2)), 409, "refund.quantity_above_left"),
        (json!({ "lines": [], "deliveryCharge": false, "reason": "r" }), 400, "refund.empty"),
        (json!({ "lines": [], "deliveryCharge": true, "reason": "  " }), 400, "refund.reason_invalid"),
    ];
    for (n, (body, want_status, want_code)) in cases.into_iter().enumerate() {
        let key = format!("refund-bad-{n:04}");
        let (status, answer) = post(&shop, &clerk, &refunds, &[("Idempotency-Key", &key)], body).await;
        assert_eq!((status, code(&answer)), (want_status, want_code), "{answer}");
    }
    let (status, answer) = post(&shop, &clerk, &refunds, &[("Idempotency-Key", "bad key!")], line(a, json!(1))).await;
    assert_eq!((status, code(&answer)), (400, "refund.key_required"), "{answer}");
    for nonsense in [json!({ "lines": "all" }), json!({ "lines": [{ "productId": a, "quantity": "two" }] }), json!([1])]
    {
        let (status, answer) = post(&shop, &clerk, &refunds, &[("Idempotency-Key", "refund-bad-9999")], nonsense).await;
        assert_eq!(status, 400, "{answer}");
        assert!(answer["message"].is_string(), "JSON: {answer}");
    }
    let many: Vec<Value> =
        (0..5_000).map(|n| json!({ "productId": format!("p{n}"), "quantity": 1, "restock": true })).collect();
    let (status, answer) = post(
        &shop,
        &clerk,
        &refunds,
        &[("Idempotency-Key", "refund-huge-0001")],
        json!({ "lines": many, "deliveryCharge": false, "reason": "r" }),
    )
    .await;
    assert!((400..500).contains(&status), "{status} {answer}");
    assert!(answer["message"].is_string(), "JSON: {answer}");
    assert_eq!(sandbox.payment_refunds(&payment).expect("refunds").count, 1, "nothing more was paid");

    let catalog = staff_token(&app, &shop, StaffRole::Catalog).await;
    let (status, body) = post(&shop, &catalog, &refunds, &[("Idempotency-Key", "refund-cat-0001")], one).await;
    assert_eq!((status, code(&body)), (403, "staff.forbidden"), "{body}");
    let (status, body) = post(&shop, &clerk, "/api/admin/orders/nope/refunds", &key, line(a, json!(1))).await;
    assert_eq!((status, code(&body)), (404, "order.not_found"), "{body}");
}

#[tokio::test]
async fn cancelling_refunds_everything_and_a_failed_refund_is_shown_and_retried() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let sandbox = app.sandbox.clone().expect("the dev sandbox");
    let clerk = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let parts = in_stock(&shop, 3, 1).await;
    let part = parts[0].as_str();
    let (_, id) = bought(&shop, &clerk, "cancel.me@example.in", "9812345672", &[(part, 2)]).await;
    let stock = stock_of(&shop, part).await;
    let path = format!("/api/admin/orders/{id}");
    let cancel = format!("{path}/cancel");
    let why = json!({ "reason": "customer called to cancel", "restock": true });

    let (status, body) = post(&shop, &clerk, &cancel, &[], why.clone()).await;
    assert_eq!((status, code(&body)), (428, "order.version_required"), "{body}");
    let (status, body) = post(&shop, &clerk, &cancel, &[("If-Match", "7")], why.clone()).await;
    assert_eq!((status, code(&body)), (409, "order.changed"), "{body}");
    let (status, body) =
        post(&shop, &clerk, &cancel, &[("If-Match", "0")], json!({ "reason": "", "restock": true })).await;
    assert_eq!((status, code(&body)), (400, "refund.reason_invalid"), "{body}");

    sandbox.set_refund_outcome(RefundOutcome::Failed);
    let (status, done) = post(&shop, &clerk, &cancel, &[("If-Match", "0")], why.clone()).await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(
        (done["order"]["order"]["order_status"].as_u64(), done["order"]["version"].as_u64()),
        (Some(6), Some(1))
    );
    assert_eq!(done["order"]["order"]["order_status_string"], "admin-cancelled");
    assert_eq!(paise(&done["refund"]["amount"]), paise(&done["order"]["order"]["total"]), "all that was paid");
    assert_eq!(stock_of(&shop, part).await, stock + 2, "back in stock");

    // The provider failed the refund (at once, or by its webhook a moment later): shown as failed.
    let refund_id = done["refund"]["_id"].as_str().expect("refund id").to_owned();
    let mut state = done["refund"]["state"].as_str().unwrap_or_default().to_owned();
    for _ in 0..50 {
        if state == "failed" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let (_, detail) = call(&shop, Method::GET, &path, Some(&clerk), None).await;
        state = detail["refunds"][0]["state"].as_str().unwrap_or_default().to_owned();
    }
    assert_eq!(state, "failed");
    let (status, again) = post(&shop, &clerk, &cancel, &[("If-Match", "1")], why).await;
    assert_eq!((status, code(&again)), (409, "order.illegal_move"), "cancelled once: {again}");

    sandbox.set_refund_outcome(RefundOutcome::Processed);
    let retry = format!("{path}/refunds/{refund_id}/retry");
    let (status, retried) = post(&shop, &clerk, &retry, &[], json!({})).await;
    assert_eq!(status, 200, "{retried}");
    assert_eq!(
        (retried["refund"]["attempt"].as_u64(), retried["refund"]["state"].as_str()),
        (Some(2), Some("processed"))
    );
    let (status, twice) = post(&shop, &clerk, &retry, &[], json!({})).await;
    assert_eq!((status, twice["refund"]["attempt"].as_u64()), (200, Some(2)), "{twice}");
    let (status, body) = post(&shop, &clerk, &format!("{path}/refunds/nope/retry"), &[], json!({})).await;
    assert_eq!((status, code(&body)), (404, "refund.not_found"), "{body}");
    let (_, detail) = call(&shop, Method::GET, &path, Some(&clerk), None).await;
    assert_eq!(paise(&detail["refundable"]["amount"]), 0, "{detail}");
    assert_eq!(stock_of(&shop, part).await, stock + 2, "restocked once");
}

/// The text `pdftotext` reads from `pdf`, in reading order.
fn pdftotext(pdf: &[u8]) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new("pdftotext")
        .args(["-layout", "-", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("pdftotext (poppler-utils) is installed");
    child.stdin.take().expect("stdin").write_all(pdf).expect("the PDF is written to pdftotext");
    let out = child.wait_with_output().expect("pdftotext ends");
    assert!(out.status.success(), "pdftotext reads the PDF");
    String::from_utf8(out.stdout).expect("UTF-8 text")
}

/// `GET` `path` with a bearer token, as the browser fetches a PDF.
async fn get_with(shop: &TestShop, path: &str, token: &str) -> reqwest::Response {
    shop.client.get(format!("{}{path}", shop.base)).bearer_auth(token).send().await.expect("the server answers")
}

#[tokio::test]
async fn a_refund_issues_a_credit_note_its_customer_downloads_beside_the_invoice() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let clerk = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let parts = in_stock(&shop, 3, 2).await;
    let (a, b) = (parts[0].as_str(), parts[1].as_str());
    let (token, id) = bought(&shop, &clerk, "credit.note@example.in", "9812345673", &[(a, 2), (b, 1)]).await;
    let path = format!("/api/admin/orders/{id}");
    let one = json!({ "lines": [{ "productId": a, "quantity": 1, "restock": true }],
                      "deliveryCharge": false, "reason": "arrived cracked" });
    let (status, made) =
        post(&shop, &clerk, &format!("{path}/refunds"), &[("Idempotency-Key", "refund-cn-0001")], one).await;
    assert_eq!(status, 201, "{made}");
    let refund_id = made["refund"]["_id"].as_str().expect("the refund's id").to_owned();
    let number = made["refund"]["creditNote"].as_str().expect("a credit note number").to_owned();
    assert!(marque_domain::invoice::CreditNoteNumber::parse(&number).is_ok(), "{number}");
    let refunded = marque_domain::Money::from_paise(paise(&made["refund"]["amount"]));
    let (_, detail) = call(&shop, Method::GET, &path, Some(&clerk), None).await;
    let invoice = detail["order"]["invoiceNumber"].as_str().expect("the invoice number").to_owned();
    assert_eq!(detail["refunds"][0]["creditNote"].as_str(), Some(number.as_str()), "the admin order lists it");

    // Purchase History links it beside the invoice.
    let (_, me) = get_auth(&shop, "/api/user", &token).await;
    let user = me["user"]["_id"].as_str().expect("the customer's id");
    let (status, history) = get_auth(&shop, &format!("/api/get/orderhistory/{user}"), &token).await;
    assert_eq!(status, 200, "{history}");
    assert_eq!(history["result"][0]["creditNotes"], json!([{ "refundId": refund_id, "number": number }]));

    // The customer downloads it: a PDF naming the note, the invoice it corrects and the amount.
    let note_path = format!("/api/get/creditnote/{id}/{refund_id}");
    let resp = get_with(&shop, &note_path, &token).await;
    assert_eq!(resp.status().as_u16(), 200);
    let header = |name: &str| resp.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    assert_eq!(header("content-type"), "application/pdf");
    assert_eq!(header("content-disposition"), "inline; filename=\"credit-note.pdf\"");
    let pdf = resp.bytes().await.expect("the PDF").to_vec();
    let text = pdftotext(&pdf);
    for wanted in ["Credit Note", number.as_str(), invoice.as_str(), refunded.to_the_paisa().as_str()] {
        assert!(text.contains(wanted), "{wanted} in {text}");
    }
    let again = get_with(&shop, &note_path, &token).await.bytes().await.expect("the PDF");
    assert_eq!(pdf, again.to_vec(), "the same refund, the same bytes");

    // Staff of refunds download the same note from the order's page.
    let resp = get_with(&shop, &format!("{path}/refunds/{refund_id}/credit-note"), &clerk).await;
    assert_eq!(resp.status().as_u16(), 200);
    assert_eq!(resp.bytes().await.expect("the PDF").to_vec(), pdf);
    let catalog = staff_token(&app, &shop, StaffRole::Catalog).await;
    let (status, body) =
        read(get_with(&shop, &format!("{path}/refunds/{refund_id}/credit-note"), &catalog).await).await;
    assert_eq!((status, code(&body)), (403, "staff.forbidden"), "{body}");

    // Another customer is refused as for the invoice; unknown ids are 404 JSON; no session is 401.
    let (stranger, _) = customer(&shop, "someone.else@example.in", "9812345674").await;
    let (status, body) = read(get_with(&shop, &note_path, &stranger).await).await;
    assert_eq!((status, code(&body)), (403, "account.forbidden"), "{body}");
    let (status, invoice_body) = read(get_with(&shop, &format!("/api/get/invoice/{id}"), &stranger).await).await;
    assert_eq!((status, code(&invoice_body)), (403, "account.forbidden"), "the invoice answers alike");
    let cases = [
        (format!("/api/get/creditnote/no-such-order/{refund_id}"), 404, "order.not_found"),
        (format!("/api/get/creditnote/{id}/no-such-refund"), 404, "credit_note.not_found"),
        (format!("/api/get/creditnote/{id}/{id}-99"), 404, "credit_note.not_found"),
        (format!("/api/get/creditnote/{id}/%20%27%3B"), 404, "credit_note.not_found"),
        (format!("{path}/refunds/no-such-refund/credit-note"), 404, "credit_note.not_found"),
    ];
    for (bad, want_status, want_code) in cases {
        let who = if bad.starts_with("/api/admin") { &clerk } else { &token };
        let (status, body) = read(get_with(&shop, &bad, who).await).await;
        assert_eq!((status, code(&body)), (want_status, want_code), "{bad}: {body}");
    }
    let (status, body) = read(shop.get(&note_path).await).await;
    assert_eq!((status, code(&body)), (401, "account.login_required"), "{body}");
}
