//! A signed-in shopper's garage over HTTP (issue 25): kept with the account and read back with the
//! vehicle table's names, refused whole when a car is not one, per customer, limited, and in the
//! data export.

use marque_app::{Rule, ThrottleRules};
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers;
use helpers::customers::{authed, customer, read};
use helpers::{spawn_app_with, spawn_shop, TestShop};

const X5: &str = "bmw-x5-g05.b57";

async fn call(shop: &TestShop, method: Method, path: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let mut request = authed(shop, method, path, token).await;
    if let Some(body) = body {
        request = request.json(&body);
    }
    read(request.send().await.expect("sent")).await
}

async fn keep(shop: &TestShop, token: &str, cars: Value) -> (u16, Value) {
    call(shop, Method::PUT, "/api/account/garage", token, Some(json!({ "cars": cars }))).await
}

/// Vehicle ids of the table: the X5's generation's engines and more, from the shopper's own lists.
async fn vehicles(shop: &TestShop, count: usize) -> Vec<String> {
    let mut found = Vec::new();
    let (_, models) = shop.get_json("/api/get/vehicles?make=bmw").await;
    for model in models["models"].as_array().expect("models") {
        let slug = model["id"].as_str().expect("id");
        let (_, generations) = shop.get_json(&format!("/api/get/vehicles?make=bmw&model={slug}")).await;
        for generation in generations["generations"].as_array().expect("generations") {
            let id = generation["id"].as_str().expect("id");
            let (_, engines) = shop.get_json(&format!("/api/get/vehicles?generation={id}")).await;
            for vehicle in engines["vehicles"].as_array().expect("vehicles") {
                found.push(vehicle["id"].as_str().expect("id").to_owned());
                if found.len() == count {
                    return found;
                }
            }
        }
    }
    found
}

#[tokio::test]
async fn a_garage_is_kept_with_the_account_and_read_back_with_the_tables_names() {
    let shop = spawn_shop().await;
    let (token, user) = customer(&shop, "g1@example.in", "9876511001").await;
    assert_eq!(call(&shop, Method::GET, "/api/account/garage", &token, None).await, (200, json!({ "cars": [] })));
    let (status, body) = keep(
        &shop,
        &token,
        json!([{ "vehicleId": "BMW-X5-G05.B57", "year": 2021 }, { "vehicleId": X5, "year": null }]),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let expected = json!({ "cars": [{
        "vehicleId": X5, "make": "BMW", "model": "X5", "generation": "G05", "engine": "3.0d (xDrive30d)", "year": 2021
    }] });
    assert_eq!(body, expected, "a repeat keeps its first place");
    assert_eq!(call(&shop, Method::GET, "/api/account/garage", &token, None).await, (200, expected.clone()));

    // Another customer has a garage of their own.
    let (other, _) = customer(&shop, "g2@example.in", "9876511002").await;
    assert_eq!(call(&shop, Method::GET, "/api/account/garage", &other, None).await, (200, json!({ "cars": [] })));

    // In the customer's copy of their data, and gone with the account.
    let (status, export) = call(&shop, Method::GET, &format!("/api/user/{user}/export"), &token, None).await;
    assert_eq!(status, 200, "{export}");
    assert_eq!(export["garage"], json!([{ "vehicleId": X5, "year": 2021 }]));
    // Erasure clears the garage before the account (core/app's privacy tests follow the order).
    let (status, body) = call(&shop, Method::DELETE, &format!("/api/user/{user}"), &token, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(call(&shop, Method::GET, "/api/account/garage", &token, None).await.0, 401, "the session ended");
}

#[tokio::test]
async fn a_car_that_is_not_one_refuses_the_whole_garage() {
    let shop = spawn_shop().await;
    let (token, _) = customer(&shop, "g3@example.in", "9876511003").await;
    assert_eq!(keep(&shop, &token, json!([{ "vehicleId": X5, "year": 2020 }])).await.0, 200);
    let six = vehicles(&shop, 6).await;
    assert_eq!(six.len(), 6, "the seed list has six BMWs at least");
    let cases = [
        (json!([{ "vehicleId": "bmw-x5-g05.zz9", "year": null }]), "vehicle.unknown"),
        (json!([{ "vehicleId": "not a car", "year": null }]), "vehicle.unknown"),
        (json!([{ "vehicleId": X5, "year": 1900 }]), "vehicle.year_invalid"),
        (json!(six.iter().map(|id| json!({ "vehicleId": id, "year": null })).collect::<Vec<_>>()), "garage.too_many"),
        (json!((0..21).map(|_| json!({ "vehicleId": X5, "year": null })).collect::<Vec<_>>()), "garage.too_many"),
    ];
    for (cars, code) in cases {
        let (status, body) = keep(&shop, &token, cars).await;
        assert_eq!((status, body["code"].as_str()), (400, Some(code)), "{body}");
    }
    for malformed in [json!({ "cars": "x5" }), json!({}), json!({ "cars": [{ "year": 2020 }] })] {
        let (status, body) = call(&shop, Method::PUT, "/api/account/garage", &token, Some(malformed)).await;
        assert_eq!(status, 400, "{body}");
        assert!(body["message"].is_string(), "{body}");
    }
    let (_, kept) = call(&shop, Method::GET, "/api/account/garage", &token, None).await;
    assert_eq!(kept["cars"][0]["vehicleId"], X5, "nothing kept of a refused garage: {kept}");
    assert_eq!(kept["cars"][0]["year"], 2020);

    // Without a session: 401, as every account call.
    assert_eq!(shop.get("/api/account/garage").await.status().as_u16(), 401);
}

#[tokio::test]
async fn garage_writes_are_limited_per_customer() {
    let rules = ThrottleRules { garage_write: Rule::per_minute(2), ..ThrottleRules::default() };
    let (shop, _) = spawn_app_with(|c| c.rate_limits = rules).await;
    let (token, _) = customer(&shop, "g4@example.in", "9876511004").await;
    for _ in 0..2 {
        assert_eq!(keep(&shop, &token, json!([{ "vehicleId": X5, "year": null }])).await.0, 200);
    }
    let (status, body) = keep(&shop, &token, json!([])).await;
    assert_eq!((status, body["code"].as_str()), (429, Some("request.too_many")), "{body}");
    assert_eq!(call(&shop, Method::GET, "/api/account/garage", &token, None).await.0, 200, "reading is no write");
}
