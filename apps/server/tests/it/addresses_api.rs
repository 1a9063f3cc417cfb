//! Black-box tests of the address calls: the real server over HTTP, customers signed up
//! through the development outbox.

use crate::helpers;

use helpers::customers::{authed, customer, get_auth, read};
use helpers::{spawn_shop, TestShop};
use reqwest::Method;
use serde_json::{json, Value};

fn home() -> Value {
    json!({
        "houseNo": " 12B ", "street": "MG Road", "landmark": "", "city": "Bengaluru",
        "state": " karnataka ", "mobileNo": "9876543210", "pincode": "560001", "gstin": ""
    })
}

fn with(field: &str, value: &str) -> Value {
    let mut body = home();
    body[field] = json!(value);
    body
}

async fn call(shop: &TestShop, method: Method, path: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let request = authed(shop, method, path, token).await;
    let request = match body {
        Some(b) => request.json(&b),
        None => request,
    };
    read(request.send().await.expect("answer")).await
}

async fn add(shop: &TestShop, token: &str, user: &str, body: Value) -> (u16, Value) {
    call(shop, Method::PATCH, &format!("/api/add/address/{user}"), token, Some(body)).await
}

async fn edit(shop: &TestShop, token: &str, id: &str, body: Value) -> (u16, Value) {
    call(shop, Method::PATCH, &format!("/api/edit/address/{id}"), token, Some(body)).await
}

async fn remove(shop: &TestShop, token: &str, user: &str, id: &str) -> (u16, Value) {
    call(shop, Method::DELETE, &format!("/api/remove/{user}/address/{id}"), token, None).await
}

async fn book(shop: &TestShop, token: &str) -> Value {
    let (status, body) = get_auth(shop, "/api/user", token).await;
    assert_eq!(status, 200, "{body}");
    body["user"]["address"].clone()
}

/// The `_id` of the address added with this body.
async fn added(shop: &TestShop, token: &str, user: &str, body: Value) -> String {
    let (status, answer) = add(shop, token, user, body).await;
    assert_eq!(status, 200, "{answer}");
    answer["_id"].as_str().expect("_id").to_owned()
}

#[tokio::test]
async fn a_customer_adds_edits_and_removes_addresses_and_sees_them_on_the_user() {
    let shop = spawn_shop().await;
    let (token, user) = customer(&shop, "asha@example.in", "9876500001").await;
    assert_eq!(book(&shop, &token).await, json!([]));

    let (status, body) = add(&shop, &token, &user, home()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["status"].as_str(), body["message"].as_str()),
        (Some("success"), Some("address added successfully"))
    );
    let first = body["_id"].as_str().expect("_id").to_owned();
    let stored = json!({
        "_id": first, "houseNo": "12B", "street": "MG Road", "landmark": "", "city": "Bengaluru",
        "state": "Karnataka", "mobileNo": "9876543210", "pincode": "560001", "gstin": ""
    });
    assert_eq!(body["address"], json!([stored.clone()]), "trimmed, the state by its name");

    let business = json!({
        "houseNo": "Plot 4", "city": "New Delhi", "state": "DELHI", "mobileNo": "9123456789",
        "pincode": "110001", "gstin": "07aakcm4821r1zu"
    });
    let (status, body) = add(&shop, &token, &user, business).await;
    assert_eq!(status, 200, "{body}");
    let second = body["_id"].as_str().expect("_id").to_owned();
    assert_ne!(first, second);
    let saved = &body["address"][1];
    assert_eq!((saved["state"].as_str(), saved["gstin"].as_str()), (Some("Delhi"), Some("07AAKCM4821R1ZU")));
    assert_eq!(
        (saved["street"].as_str(), saved["landmark"].as_str()),
        (Some(""), Some("")),
        "missing fields are empty"
    );
    assert_eq!(body["address"][0], stored, "oldest first");

    let (status, body) = edit(&shop, &token, &first, with("city", "Mysuru")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["message"], "address updated successfully");
    assert_eq!((body["_id"].as_str(), body["address"]["city"].as_str()), (Some(first.as_str()), Some("Mysuru")));

    for path in ["/api/user", "/api/auth/user"] {
        let (_, me) = get_auth(&shop, path, &token).await;
        let cities: Vec<&str> =
            me["user"]["address"].as_array().expect("list").iter().filter_map(|a| a["city"].as_str()).collect();
        assert_eq!(cities, vec!["Mysuru", "New Delhi"], "{path}");
    }

    let (status, body) = remove(&shop, &token, &user, &first).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "success");
    let left: Vec<&str> = body["address"].as_array().expect("list").iter().filter_map(|a| a["_id"].as_str()).collect();
    assert_eq!(left, vec![second.as_str()]);
    assert_eq!(book(&shop, &token).await.as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn bad_fields_answer_400_with_every_field_error() {
    let shop = spawn_shop().await;
    let (token, user) = customer(&shop, "ravi@example.in", "9876500002").await;
    let bad = json!({
        "houseNo": " ", "city": "", "state": "Atlantis", "mobileNo": "5876543210",
        "pincode": "011001", "gstin": "07AAKCM4821R1Z"
    });
    let (status, body) = add(&shop, &token, &user, bad).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["status"], "failed");
    assert_eq!(
        (body["message"].as_str(), body["code"].as_str()),
        (Some("House No. is required"), Some("address.house_no_required"))
    );
    assert_eq!(
        body["errors"],
        json!([
            { "field": "houseNo", "message": "House No. is required", "code": "address.house_no_required" },
            { "field": "city", "message": "City is required", "code": "address.city_required" },
            { "field": "state", "message": "Choose a state or union territory from the list", "code": "address.state_invalid" },
            { "field": "mobileNo", "message": "Enter a valid 10-digit Indian mobile number starting with 6-9", "code": "address.mobile_invalid" },
            { "field": "pincode", "message": "Enter a valid 6-digit pincode", "code": "pincode.invalid" },
            { "field": "gstin", "message": "Enter a valid 15-character GSTIN", "code": "address.gstin_invalid" },
        ])
    );
    let (status, body) = add(&shop, &token, &user, with("state", "")).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("address.state_required")));
    assert_eq!(book(&shop, &token).await, json!([]), "nothing stored");

    let id = added(&shop, &token, &user, home()).await;
    let (status, body) = edit(&shop, &token, &id, with("pincode", "5600")).await;
    assert_eq!((status, body["errors"][0]["field"].as_str()), (400, Some("pincode")), "{body}");
    assert_eq!(book(&shop, &token).await[0]["pincode"], "560001", "unchanged");
}

#[tokio::test]
async fn the_gstin_check_character_is_checked() {
    let shop = spawn_shop().await;
    let (token, user) = customer(&shop, "meera@example.in", "9876500003").await;
    for (gstin, status) in [("29AAGCB7383J1Z4", 200), ("29AAGCB7383J1Z5", 400), ("29AAGCB7383J1ZV", 400), ("  ", 200)] {
        let (got, body) = add(&shop, &token, &user, with("gstin", gstin)).await;
        assert_eq!(got, status, "{gstin}: {body}");
        if status == 400 {
            assert_eq!(
                body["errors"],
                json!([{ "field": "gstin", "message": "Enter a valid 15-character GSTIN", "code": "address.gstin_invalid" }])
            );
        }
    }
    let gstins: Vec<Value> =
        book(&shop, &token).await.as_array().expect("list").iter().map(|a| a["gstin"].clone()).collect();
    assert_eq!(gstins, vec![json!("29AAGCB7383J1Z4"), json!("")]);
}

#[tokio::test]
async fn another_customers_book_and_addresses_are_refused_and_left_alone() {
    let shop = spawn_shop().await;
    let (owner_token, owner) = customer(&shop, "owner@example.in", "9876500004").await;
    let (token, intruder) = customer(&shop, "intruder@example.in", "9876500005").await;
    let theirs = added(&shop, &owner_token, &owner, home()).await;
    let before = book(&shop, &owner_token).await;

    let (status, body) = add(&shop, &token, &owner, home()).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("account.forbidden")), "{body}");
    let (status, body) = edit(&shop, &token, &theirs, with("city", "Elsewhere")).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("account.forbidden")), "{body}");
    let (status, _) = edit(&shop, &token, &theirs, with("pincode", "1")).await;
    assert_eq!(status, 403, "ownership is checked before the fields");
    let (status, _) = remove(&shop, &token, &owner, &theirs).await;
    assert_eq!(status, 403, "another customer's userId");
    let (status, body) = remove(&shop, &token, &intruder, &theirs).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("account.forbidden")), "{body}");

    assert_eq!(book(&shop, &owner_token).await, before, "still there, unchanged");
    assert_eq!(book(&shop, &token).await, json!([]));
}

#[tokio::test]
async fn unknown_addresses_are_404_and_calls_without_a_session_are_401() {
    let shop = spawn_shop().await;
    let (token, user) = customer(&shop, "kiran@example.in", "9876500006").await;
    let (status, body) = edit(&shop, &token, "no-such-address", home()).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("address.not_found")), "{body}");
    let (status, body) = remove(&shop, &token, &user, "no-such-address").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("address.not_found")), "{body}");

    let id = added(&shop, &token, &user, home()).await;
    let anonymous = [
        shop.client.patch(format!("{}/api/add/address/{user}", shop.base)).json(&home()),
        shop.client.patch(format!("{}/api/edit/address/{id}", shop.base)).json(&home()),
        shop.client.delete(format!("{}/api/remove/{user}/address/{id}", shop.base)),
        shop.client.delete(format!("{}/api/remove/{user}/address/{id}", shop.base)).bearer_auth("not-a-session"),
    ];
    for request in anonymous {
        let (status, body) = read(request.send().await.expect("answer")).await;
        assert_eq!((status, body["code"].as_str()), (401, Some("account.login_required")), "{body}");
    }
    assert_eq!(book(&shop, &token).await.as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn the_book_holds_twenty_addresses() {
    let shop = spawn_shop().await;
    let (token, user) = customer(&shop, "full@example.in", "9876500007").await;
    for n in 0..20 {
        added(&shop, &token, &user, with("houseNo", &n.to_string())).await;
    }
    let (status, body) = add(&shop, &token, &user, home()).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("address.book_full")), "{body}");
    assert_eq!(body["message"], "Your address book is full. Remove an address to add another.");
    assert_eq!(book(&shop, &token).await.as_array().map(Vec::len), Some(20));
}
