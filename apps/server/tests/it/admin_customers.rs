//! The back office's customers, offers and audit trail over HTTP (a real server on `mem://`):
//! an owner gives a customer an offer, the customer's `offerExp` counts its days, the server prices
//! Pay with it, ending it takes it away, and the audit trail shows both writes with their values;
//! fulfilment staff find customers but cannot touch offers; catalog staff see neither.

use marque_domain::calendar::{civil_from_days, ist_day};
use marque_domain::staff::StaffRole;
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::customers::{customer, get_auth};
use crate::helpers::payments::{self, delhi_address, product_with};
use crate::helpers::staff::{call, staff_token};
use crate::helpers::{spawn_app_with, TestShop};

/// The day `days` after today in India, `YYYY-MM-DD`.
fn day_in_india(days: i64) -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_secs();
    let (y, m, d) = civil_from_days(ist_day(i64::try_from(now).expect("seconds fit")) + days);
    format!("{y:04}-{m:02}-{d:02}")
}

fn paise(v: &Value) -> i64 {
    #[allow(clippy::cast_possible_truncation)]
    let p = (v.as_f64().unwrap_or_else(|| panic!("a number: {v}")) * 100.0).round() as i64;
    p
}

async fn as_staff(shop: &TestShop, token: &str, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
    call(shop, method, path, Some(token), body).await
}

#[tokio::test]
async fn an_offer_set_by_an_owner_reaches_the_customer_and_checkout_and_the_audit_trail() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    let (token, user) = customer(&shop, "offer.customer@example.com", "9876500041").await;

    let (status, found) =
        as_staff(&shop, &owner, Method::GET, "/api/admin/customers?q=Offer.Customer@example.com", None).await;
    assert_eq!(status, 200, "{found}");
    assert_eq!((found["total"].as_u64(), found["pages"].as_u64()), (Some(1), Some(1)), "{found}");
    assert_eq!(found["results"][0]["_id"].as_str(), Some(user.as_str()));
    let (status, by_mobile) =
        as_staff(&shop, &owner, Method::GET, "/api/admin/customers?q=%2B91%2098765%2000041", None).await;
    assert_eq!((status, by_mobile["results"][0]["_id"].as_str()), (200, Some(user.as_str())), "{by_mobile}");

    // Ten days, today included.
    let ends_on = day_in_india(9);
    let path = format!("/api/admin/customers/{user}/offer");
    let (status, set) =
        as_staff(&shop, &owner, Method::PATCH, &path, Some(json!({ "percentage": 10, "endsOn": ends_on }))).await;
    assert_eq!(status, 200, "{set}");
    assert_eq!((set["offerExp"].as_i64(), set["percentage"].as_u64()), (Some(10), Some(10)), "{set}");
    assert_eq!(set["endsOn"].as_str(), Some(ends_on.as_str()));
    let (status, me) = get_auth(&shop, "/api/user", &token).await;
    assert_eq!(status, 200, "{me}");
    assert_eq!((me["user"]["offerExp"].as_i64(), me["user"]["percentage"].as_u64()), (Some(10), Some(10)), "{me}");

    // The server prices Pay with the offer, exactly as the shop rules say.
    let address = delhi_address(&shop, &token, &user).await["_id"].as_str().expect("address id").to_owned();
    let product = product_with(&shop, 1).await;
    let pay = json!({ "products": [{ "_id": product, "quantity": 1 }], "address": { "_id": address } });
    let (status, priced) = payments::call(&shop, Method::POST, "/api/razorpay/pay", &token, pay.clone()).await;
    assert_eq!(status, 200, "{priced}");
    let items = paise(&priced["items"]);
    let discount = items * 10 / 10_000 * 100;
    assert!(discount > 0, "a discount on {items} paise");
    assert_eq!(paise(&priced["discount"]), discount, "the whole rupees of 10 %: {priced}");
    assert_eq!(paise(&priced["total"]), items - discount + paise(&priced["delivery"]));

    let (status, ended) = as_staff(&shop, &owner, Method::DELETE, &path, None).await;
    assert_eq!(status, 200, "{ended}");
    assert_eq!((ended["offerExp"].as_i64(), ended["percentage"].as_u64()), (Some(0), Some(0)), "{ended}");
    assert!(ended["endsOn"].is_null());
    let (_, me) = get_auth(&shop, "/api/user", &token).await;
    assert_eq!(me["user"]["offerExp"].as_i64(), Some(0), "{me}");
    let (status, full) = payments::call(&shop, Method::POST, "/api/razorpay/pay", &token, pay).await;
    assert_eq!((status, paise(&full["discount"])), (200, 0), "{full}");

    let subject = format!("customer:{user}");
    let (status, trail) =
        as_staff(&shop, &owner, Method::GET, &format!("/api/admin/audit?subject={subject}&action=offer"), None).await;
    assert_eq!(status, 200, "{trail}");
    assert_eq!(trail["total"].as_u64(), Some(2), "{trail}");
    let (end, set) = (&trail["results"][0], &trail["results"][1]);
    assert_eq!(
        (end["action"].as_str(), set["action"].as_str()),
        (Some("offer.end"), Some("offer.set")),
        "newest first"
    );
    assert_eq!(set["before"], json!({ "percentage": 0, "endsOn": null }));
    assert_eq!(set["after"], json!({ "percentage": 10, "endsOn": ends_on }));
    assert_eq!(end["before"], set["after"]);
    assert_eq!(end["after"], json!({ "percentage": 0, "endsOn": null }));
    assert_eq!(set["subject"].as_str(), Some(subject.as_str()));
    assert!(set["actorLabel"].as_str().is_some_and(|l| l.starts_with("owner-")), "{set}");
    assert!(set["at"].as_i64().is_some_and(|at| at > 1_700_000_000));
    let (_, other) = as_staff(&shop, &owner, Method::GET, "/api/admin/audit?action=product", None).await;
    assert_eq!(other["total"].as_u64(), Some(0), "{other}");
}

#[tokio::test]
async fn offers_the_rules_refuse_are_400_and_an_unknown_customer_404() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    let (_, user) = customer(&shop, "refused@example.com", "9876500042").await;
    let path = format!("/api/admin/customers/{user}/offer");
    for (body, code) in [
        (json!({ "percentage": 0, "endsOn": day_in_india(1) }), "offer.percentage_range"),
        (json!({ "percentage": 91, "endsOn": day_in_india(1) }), "offer.percentage_range"),
        (json!({ "percentage": 10, "endsOn": day_in_india(-1) }), "offer.ends_on_past"),
        (json!({ "percentage": 10, "endsOn": "31/12/2030" }), "offer.ends_on_invalid"),
        (json!({ "percentage": 10, "endsOn": day_in_india(731) }), "offer.ends_on_too_far"),
    ] {
        let (status, answer) = as_staff(&shop, &owner, Method::PATCH, &path, Some(body.clone())).await;
        assert_eq!((status, answer["code"].as_str()), (400, Some(code)), "{body}: {answer}");
        assert_eq!(answer["status"], "failed");
    }
    let (status, answer) = as_staff(&shop, &owner, Method::PATCH, &path, Some(json!({ "percentage": 10 }))).await;
    assert_eq!(status, 400, "{answer}");
    let today = json!({ "percentage": 90, "endsOn": day_in_india(0) });
    let (status, answer) = as_staff(&shop, &owner, Method::PATCH, &path, Some(today)).await;
    assert_eq!((status, answer["offerExp"].as_i64()), (200, Some(1)), "today, its last day: {answer}");

    let ghost = json!({ "percentage": 10, "endsOn": day_in_india(1) });
    let (status, answer) =
        as_staff(&shop, &owner, Method::PATCH, "/api/admin/customers/nobody/offer", Some(ghost)).await;
    assert_eq!((status, answer["code"].as_str()), (404, Some("admin.customer_not_found")), "{answer}");
    let (status, _) = as_staff(&shop, &owner, Method::GET, "/api/admin/customers/nobody", None).await;
    assert_eq!(status, 404);
    let (status, answer) = as_staff(&shop, &owner, Method::GET, "/api/admin/customers?q=x&size=101", None).await;
    assert_eq!((status, answer["code"].as_str()), (400, Some("page.size_invalid")), "{answer}");
    let (status, answer) = as_staff(&shop, &owner, Method::GET, "/api/admin/audit?from=20&until=10", None).await;
    assert_eq!((status, answer["code"].as_str()), (400, Some("audit.filter_invalid")), "{answer}");
}

#[tokio::test]
async fn fulfilment_finds_customers_but_only_owners_touch_offers_and_the_trail() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let fulfilment = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let catalog = staff_token(&app, &shop, StaffRole::Catalog).await;
    let (customer_token, user) = customer(&shop, "roles@example.com", "9876500043").await;
    let offer = json!({ "percentage": 10, "endsOn": day_in_india(3) });
    let offer_path = format!("/api/admin/customers/{user}/offer");

    let (status, found) = as_staff(&shop, &fulfilment, Method::GET, "/api/admin/customers?q=9876500043", None).await;
    assert_eq!((status, found["total"].as_u64()), (200, Some(1)), "{found}");
    let (status, one) = as_staff(&shop, &fulfilment, Method::GET, &format!("/api/admin/customers/{user}"), None).await;
    assert_eq!((status, one["email"].as_str()), (200, Some("roles@example.com")), "{one}");
    let (status, orders) =
        as_staff(&shop, &fulfilment, Method::GET, &format!("/api/admin/customers/{user}/orders"), None).await;
    assert_eq!((status, orders["total"].as_u64(), orders["pages"].as_u64()), (200, Some(0), Some(0)), "{orders}");

    for (who, token) in [("fulfilment", &fulfilment), ("catalog", &catalog)] {
        let (status, body) = as_staff(&shop, token, Method::PATCH, &offer_path, Some(offer.clone())).await;
        assert_eq!((status, body["code"].as_str()), (403, Some("staff.forbidden")), "{who}: {body}");
        let (status, _) = as_staff(&shop, token, Method::DELETE, &offer_path, None).await;
        assert_eq!(status, 403, "{who}");
        let (status, _) = as_staff(&shop, token, Method::GET, "/api/admin/audit", None).await;
        assert_eq!(status, 403, "{who}");
    }
    let (status, body) = as_staff(&shop, &catalog, Method::GET, "/api/admin/customers?q=roles", None).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("staff.forbidden")), "{body}");
    let (status, _) =
        as_staff(&shop, &catalog, Method::GET, &format!("/api/admin/customers/{user}/orders"), None).await;
    assert_eq!(status, 403);

    let (status, body) = call(&shop, Method::GET, "/api/admin/customers?q=roles", None, None).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("staff.login_required")), "{body}");
    let (status, _) = call(&shop, Method::PATCH, &offer_path, Some(&customer_token), Some(offer)).await;
    assert_eq!(status, 401, "a customer's token is no staff session");
    let (_, me) = get_auth(&shop, "/api/user", &customer_token).await;
    assert_eq!(me["user"]["offerExp"].as_i64(), Some(0), "no refused call gave an offer: {me}");
}
