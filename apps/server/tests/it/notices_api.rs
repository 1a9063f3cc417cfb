//! Customers' order notices over HTTP (issue 24): staff confirm and ship an order, and the customer
//! is told by email and SMS (the `dev` outbox keeps both) — the shipment with its courier, AWB and
//! tracking link — sent by the notice worker from the outbox written with each change.

use marque_contract_tests::fixtures::product;
use marque_contract_tests::order_desk::place;
use marque_domain::staff::StaffRole;
use marque_ports::CatalogStore;
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::customers::customer;
use crate::helpers::staff::{call, staff_token};
use crate::helpers::{spawn_app_with, TestShop};

/// 2026-06-01 12:00 IST.
const JUNE_2026: i64 = 1_780_295_400;

async fn patch(shop: &TestShop, token: &str, id: &str, version: u64, body: Value) -> Value {
    let path = format!("/api/admin/orders/{id}");
    let request = shop
        .client
        .request(Method::PATCH, format!("{}{path}", shop.base))
        .bearer_auth(token)
        .header("If-Match", version.to_string())
        .json(&body);
    let (status, body) = crate::helpers::customers::read(request.send().await.expect("the server answers")).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// The outbox's messages to `recipient` whose text holds `needle`, waiting (a bounded number of
/// polls, no timing asserted) until there are `want` of them.
async fn told(shop: &TestShop, recipient: &str, needle: &str, want: usize) -> Vec<Value> {
    let mut found = Vec::new();
    for _ in 0..300 {
        let (_, messages) = shop.get_json("/api/dev/outbox").await;
        found = messages
            .as_array()
            .expect("a list")
            .iter()
            .filter(|m| m["recipient"] == recipient && m["text"].as_str().is_some_and(|t| t.contains(needle)))
            .cloned()
            .collect();
        if found.len() >= want {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    found
}

#[tokio::test]
async fn staff_ship_an_order_and_the_customer_gets_the_email_and_sms_with_the_awb() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let part = product("p001").name("Brake pad set").quantity(50).build();
    app.database().catalog().add_products(&[part]).await.expect("the product is written");
    let (_, user) = customer(&shop, "asha.notices@example.in", "9812345671").await;
    let order = place(&app.database().orders(), "notice", &user, JUNE_2026).await;
    let id = order.id.0.clone();
    let token = staff_token(&app, &shop, StaffRole::Fulfilment).await;

    patch(&shop, &token, &id, 0, json!({ "status": 2 })).await;
    let confirmed = told(&shop, "asha.notices@example.in", "confirmed your order", 1).await;
    assert_eq!(confirmed.len(), 1, "the confirmation email, once");
    assert_eq!(confirmed[0]["subject"], format!("Order {} confirmed - Marque Parts", order.order_number));

    patch(&shop, &token, &id, 1, json!({ "status": 3 })).await;
    let shipped =
        patch(&shop, &token, &id, 2, json!({ "status": 4, "courier": "bluedart", "awb": "77937279125" })).await;
    assert_eq!(shipped["order"]["order_status"], 4, "{shipped}");

    let link = "https://www.bluedart.com/web/guest/trackdartresultthirdparty?trackFor=0&trackNo=77937279125";
    let email = told(&shop, "asha.notices@example.in", "77937279125", 1).await;
    assert_eq!(email.len(), 1, "one shipped email: {email:?}");
    assert_eq!(email[0]["channel"], "email");
    assert_eq!(email[0]["subject"], format!("Order {} shipped - Marque Parts", order.order_number));
    let text = email[0]["text"].as_str().unwrap_or_default();
    assert!(text.starts_with("Dear Asha Rao,"), "{text}");
    for part in ["Courier: Blue Dart", "AWB: 77937279125", link] {
        assert!(text.contains(part), "{part} in {text}");
    }
    let sms = told(&shop, "9812345671", "77937279125", 1).await;
    assert_eq!(sms.len(), 1, "one shipped SMS: {sms:?}");
    assert_eq!(sms[0]["channel"], "sms");
    assert_eq!(
        sms[0]["text"],
        format!("Marque Parts: order {} shipped by Blue Dart, AWB 77937279125. Track: {link}", order.order_number)
    );

    // Packing told nothing, and the move still stands whatever became of the messages.
    assert!(told(&shop, "asha.notices@example.in", "packed", 0).await.is_empty());
    let (_, detail) = call(&shop, Method::GET, &format!("/api/admin/orders/{id}"), Some(&token), None).await;
    assert_eq!((detail["version"].as_u64(), detail["order"]["order_status"].as_u64()), (Some(3), Some(4)));

    // Staff see each notice of the order and where it stands; the texts stay the customer's.
    // (A notice is marked sent just after it reaches the outbox: a bounded number of reads.)
    let path = format!("/api/admin/orders/{id}/notices");
    let (mut notices, mut seen) = (Value::Null, Vec::new());
    for _ in 0..300 {
        let (status, body) = call(&shop, Method::GET, &path, Some(&token), None).await;
        assert_eq!(status, 200, "{body}");
        notices = body;
        seen = notices["results"]
            .as_array()
            .expect("a list")
            .iter()
            .map(|n| {
                let text = |k: &str| n[k].as_str().unwrap_or_default().to_owned();
                (text("kind"), text("channel"), text("recipient"), text("state"))
            })
            .collect::<Vec<_>>();
        if seen.iter().all(|(_, _, _, state)| state == "sent") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let sent =
        |kind: &str, channel: &str, to: &str| (kind.to_owned(), channel.to_owned(), to.to_owned(), "sent".to_owned());
    assert_eq!(
        seen,
        vec![
            sent("order-confirmed", "email", "asha.notices@example.in"),
            sent("order-confirmed", "sms", "9812345671"),
            sent("order-shipped", "email", "asha.notices@example.in"),
            sent("order-shipped", "sms", "9812345671"),
        ],
        "{notices}"
    );
    assert!(!notices.to_string().contains("77937279125"), "no text of a notice: {notices}");
    let catalog = staff_token(&app, &shop, StaffRole::Catalog).await;
    let (status, body) = call(&shop, Method::GET, &path, Some(&catalog), None).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("staff.forbidden")), "{body}");
    let (status, _) = call(&shop, Method::GET, &path, None, None).await;
    assert_eq!(status, 401);
    let (status, body) = call(&shop, Method::GET, "/api/admin/orders/nobody/notices", Some(&token), None).await;
    assert_eq!((status, body["results"].as_array().map(Vec::len)), (200, Some(0)), "{body}");
}

#[tokio::test]
async fn a_customer_who_chose_hindi_is_told_in_hindi_and_a_bad_language_is_refused() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let part = product("p001").name("Brake pad set").quantity(50).build();
    app.database().catalog().add_products(&[part]).await.expect("the product is written");
    let (customer_token, user) = customer(&shop, "ravi.hindi@example.in", "9812345672").await;
    let put = |token: Option<&str>, body: Value| {
        let mut request = shop.client.put(format!("{}/api/account/language", shop.base)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request
    };
    let read = |r: reqwest::RequestBuilder| async move {
        crate::helpers::customers::read(r.send().await.expect("the server answers")).await
    };

    let (status, body) = read(put(None, json!({ "language": "hi" }))).await;
    assert_eq!(status, 401, "no session: {body}");
    for bad in [json!({ "language": "fr" }), json!({ "language": 7 }), json!({})] {
        let (status, body) = read(put(Some(&customer_token), bad.clone())).await;
        assert_eq!(status, 400, "{bad} is refused: {body}");
        assert!(body["message"].is_string(), "a JSON error: {body}");
    }
    let (status, body) = read(put(Some(&customer_token), json!({ "language": "hi" }))).await;
    assert_eq!((status, body["language"].as_str()), (200, Some("hi")), "{body}");

    let order = place(&app.database().orders(), "hindi", &user, JUNE_2026).await;
    let token = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    patch(&shop, &token, &order.id.0, 0, json!({ "status": 2 })).await;
    let email = told(&shop, "ravi.hindi@example.in", "की पुष्टि कर दी है", 1).await;
    assert_eq!(email.len(), 1, "the confirmation in Hindi: {email:?}");
    assert_eq!(email[0]["subject"], format!("ऑर्डर {} की पुष्टि हो गई - Marque Parts", order.order_number));
    assert!(told(&shop, "ravi.hindi@example.in", "confirmed your order", 0).await.is_empty(), "not in English");
}
