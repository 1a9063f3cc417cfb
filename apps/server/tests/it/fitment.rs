//! Vehicles and fitment over HTTP (issue 25): the car chosen step by step from the vehicle table,
//! listings and searches narrowed to it (the same with the in-process index and caches on or off),
//! the product answer listing what a part fits, and staff editing fitment and vehicles (roles, the
//! version, the audit trail, the storefront following).

use std::time::Duration;

use marque_domain::staff::StaffRole;
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers;
use helpers::staff::{call, staff_token};
use helpers::{spawn_app_with, within, TestShop};

/// The car the issue names: a BMW X5 (G05) 3.0d, B57 diesel.
const X5: &str = "bmw-x5-g05.b57";

/// How long an in-process storefront may take to follow a write (its cache polls every 100 ms).
const FOLLOWS: Duration = Duration::from_secs(3);

fn ids(body: &Value) -> Vec<String> {
    body["results"].as_array().expect("results").iter().map(|p| p["_id"].as_str().expect("id").to_owned()).collect()
}

/// Whether the product answer `product` lists a row that fits the vehicle `vehicle` (no year).
fn lists(product: &Value, vehicle: &str) -> bool {
    let (generation, _) = vehicle.rsplit_once('.').expect("a vehicle id");
    product["data"]["fits"]
        .as_array()
        .expect("fits")
        .iter()
        .any(|f| f["generationId"] == generation && (f["vehicleId"].is_null() || f["vehicleId"] == vehicle))
}

async fn product(shop: &TestShop, id: &str) -> Value {
    let (status, body) = shop.get_json(&format!("/api/get/productById/{id}")).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn a_car_is_chosen_make_model_generation_engine() {
    let (shop, _app) = spawn_app_with(|_| {}).await;
    let (status, makes) = shop.get_json("/api/get/vehicles").await;
    assert_eq!((status, makes["makes"].as_array().map(Vec::len)), (200, Some(8)), "{makes}");
    let (status, models) = shop.get_json("/api/get/vehicles?make=bmw").await;
    assert_eq!(status, 200, "{models}");
    assert!(models["models"].as_array().expect("models").iter().any(|m| m["id"] == "x5" && m["name"] == "X5"));
    let (status, generations) = shop.get_json("/api/get/vehicles?make=bmw&model=x5").await;
    assert_eq!(status, 200, "{generations}");
    let g05 = generations["generations"].as_array().expect("generations").iter().find(|g| g["code"] == "G05").cloned();
    assert_eq!(g05.map(|g| g["id"].clone()), Some(json!("bmw-x5-g05")), "{generations}");
    let (status, engines) = shop.get_json("/api/get/vehicles?generation=bmw-x5-g05").await;
    assert_eq!(status, 200, "{engines}");
    let b57 =
        engines["vehicles"].as_array().expect("vehicles").iter().find(|v| v["id"] == X5).cloned().expect("the 3.0d");
    assert_eq!(
        (&b57["engineCode"], &b57["fuel"], &b57["years"]["from"], &b57["make"], &b57["generation"]),
        (&json!("B57"), &json!("diesel"), &json!(2019), &json!("BMW"), &json!("G05"))
    );
    assert!(b57.get("engine").is_some_and(Value::is_string), "{b57}");

    for (path, want, code) in [
        ("/api/get/vehicles?make=tata", 400, "vehicle.unknown"),
        ("/api/get/vehicles?model=x5", 400, "vehicle.unknown"),
        ("/api/get/vehicles?make=bmw&model=x%20%205", 400, "vehicle.unknown"),
        ("/api/get/vehicles?make=bmw&model=x99", 404, "vehicle.unknown"),
        ("/api/get/vehicles?generation=bmw-x5-e99", 404, "vehicle.unknown"),
        ("/api/get/vehicles?generation=not%20one!", 400, "vehicle.unknown"),
    ] {
        let (status, body) = shop.get_json(path).await;
        assert_eq!(
            (status, body["status"].as_str(), body["code"].as_str()),
            (want, Some("failed"), Some(code)),
            "{path}: {body}"
        );
    }
}

#[tokio::test]
async fn listings_narrow_to_the_parts_that_fit_with_the_index_on_or_off() {
    let (shop, _app) = spawn_app_with(|_| {}).await;
    let (plain, _plain_app) = spawn_app_with(|c| {
        c.catalog_cache_mb = 0;
        c.catalog_index = false;
    })
    .await;

    let (status, all) = shop.get_json("/api/get/productByOem/bmw").await;
    assert_eq!(status, 200);
    let (status, fitting) = shop.get_json(&format!("/api/get/productByOem/bmw?fits={X5}")).await;
    assert_eq!(status, 200, "{fitting}");
    let fitting_ids = ids(&fitting);
    assert!(!fitting_ids.is_empty(), "the demo catalog has parts for the X5 3.0d");
    assert!(fitting["total"].as_u64() < all["total"].as_u64(), "narrowed: {} of {}", fitting["total"], all["total"]);
    for id in &fitting_ids {
        assert!(lists(&product(&shop, id).await, X5), "{id} is listed as fitting the X5 3.0d");
    }
    assert!(fitting["results"][0].get("fits").is_none(), "listing cards carry no fitment");

    // A grouped category becomes one flat list, as any filter does.
    let category = product(&shop, &fitting_ids[0]).await["data"]["category_slug"].as_str().expect("a slug").to_owned();
    let (status, grouped) = shop.get_json(&format!("/api/get/product/{category}")).await;
    assert_eq!((status, grouped["view"].as_str()), (200, Some("grouped")));
    let (status, flat) = shop.get_json(&format!("/api/get/product/{category}?fits={X5}")).await;
    assert_eq!((status, flat["view"].as_str()), (200, Some("flat")), "{flat}");
    assert!(ids(&flat).contains(&fitting_ids[0]), "{flat}");
    let (status, searched) = shop.get_json(&format!("/api/get/productBySearch?search=&fits={X5}")).await;
    assert_eq!(status, 200);
    assert!(searched["total"].as_u64() >= fitting["total"].as_u64(), "every make's parts for the car");

    // The same answers with the in-process index and the caches on and off.
    let mut paths = vec![
        format!("/api/get/productByOem/bmw?fits={X5}"),
        format!("/api/get/productByOem/bmw?fits={X5}&year=2021"),
        format!("/api/get/productBySearch?search=&fits={X5}"),
        format!("/api/get/productBySearch?search=bmw&fits={X5}&page=1"),
        "/api/get/productBySearch?search=&fits=mercedes-benz-e-class-w213.om654&year=2019".to_owned(),
        "/api/get/productByOem/audi?fits=audi-q7-4m.crtc".to_owned(),
    ];
    for c in marque_server::seed::categories() {
        paths.push(format!("/api/get/product/{}?fits={X5}", c.slug));
        paths.push(format!("/api/get/product/{}?fits={X5}&product_type=old", c.slug));
        if let Some(sub) = c.subcategories.first() {
            paths.push(format!("/api/get/product/{}/{}?fits={X5}", c.slug, sub.slug));
        }
    }
    assert_eq!(helpers::differing(&shop, &plain, &paths).await, Vec::<String>::new());
}

#[tokio::test]
async fn an_unknown_car_is_refused_and_a_car_nothing_fits_lists_nothing() {
    let shop = helpers::spawn_shop().await;
    for path in [
        "/api/get/productByOem/bmw?fits=bmw-x5-g05.zz99",
        "/api/get/productBySearch?search=brake&fits=not-a-car",
        "/api/get/product/brakes?fits=bmw-x5-g99.b57",
        "/api/get/product/brakes/discs?fits=tata-nexon-x1.r1",
    ] {
        let (status, body) = shop.get_json(path).await;
        assert_eq!((status, body["code"].as_str()), (400, Some("vehicle.unknown")), "{path}: {body}");
    }
    let (status, body) = shop.get_json(&format!("/api/get/product/brakes?fits={X5}&year=1800")).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("vehicle.year_invalid")), "{body}");
    // The demo catalog has nothing for the 911: an empty page, with its page count.
    for path in
        ["/api/get/productByOem/porsche?fits=porsche-911-992.dkk", "/api/get/product/brakes?fits=porsche-911-992.dkk"]
    {
        let (status, body) = shop.get_json(path).await;
        assert_eq!(status, 200, "{path}: {body}");
        assert_eq!(
            (body["results"].as_array().map(Vec::len), body["pages"].as_u64(), body["total"].as_u64()),
            (Some(0), Some(0), Some(0))
        );
    }
}

#[tokio::test]
async fn staff_edit_fitment_on_its_version_and_the_storefront_follows() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let editor = staff_token(&app, &shop, StaffRole::Catalog).await;
    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    let fulfilment = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    // A Porsche part: nothing for the 911 yet.
    let (_, porsche) = shop.get_json("/api/get/productByOem/porsche").await;
    let id = ids(&porsche)[0].clone();
    let path = format!("/api/admin/products/{id}/fitment");
    let rows = json!({ "fits": [
        { "generationId": "porsche-911-992", "engineCode": "DKK", "yearFrom": 2020, "yearTo": 2023, "note": "front axle" },
        { "generationId": "porsche-cayenne-9y0" }
    ]});

    let (status, body) = call(&shop, Method::PUT, &path, None, Some(rows.clone())).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("staff.login_required")), "{body}");
    let (status, body) = call(&shop, Method::GET, &path, Some(&fulfilment), None).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("staff.forbidden")), "{body}");

    let (status, stored) = call(&shop, Method::GET, &path, Some(&editor), None).await;
    assert_eq!(status, 200, "{stored}");
    let version = stored["version"].as_u64().expect("a version");
    let put = |token: &str, if_match: Option<String>, body: Value| {
        let mut request =
            shop.client.request(Method::PUT, format!("{}{path}", shop.base)).bearer_auth(token).json(&body);
        if let Some(v) = if_match {
            request = request.header("If-Match", v);
        }
        async move { helpers::customers::read(request.send().await.expect("answers")).await }
    };
    let (status, body) = put(&editor, None, rows.clone()).await;
    assert_eq!((status, body["code"].as_str()), (428, Some("fitment.version_required")), "{body}");
    let (status, body) = put(&fulfilment, Some(version.to_string()), rows.clone()).await;
    assert_eq!(status, 403, "{body}");
    let bad = json!({ "fits": [{ "generationId": "porsche-911-992", "engineCode": "NOPE" }] });
    let (status, body) = put(&editor, Some(version.to_string()), bad).await;
    assert_eq!((status, body["code"].as_str()), (422, Some("fitment.invalid")), "{body}");
    let backwards = json!({ "fits": [{ "generationId": "porsche-911-992", "yearFrom": 2023, "yearTo": 2020 }] });
    let (status, body) = put(&editor, Some(version.to_string()), backwards).await;
    assert_eq!((status, body["code"].as_str()), (422, Some("vehicle.year_invalid")), "{body}");
    let many: Vec<Value> = (0..201).map(|i| json!({ "generationId": format!("porsche-911-g{i}") })).collect();
    let (status, _) = put(&editor, Some(version.to_string()), json!({ "fits": many })).await;
    assert!((400..500).contains(&status), "201 rows are refused: {status}");

    let (status, written) = put(&editor, Some(version.to_string()), rows.clone()).await;
    assert_eq!((status, written["version"].as_u64()), (200, Some(version + 1)), "{written}");
    let (status, body) = put(&editor, Some(version.to_string()), rows.clone()).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("fitment.changed")), "{body}");
    let (status, body) = put(&editor, Some("0".into()), json!({ "fits": [] })).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("fitment.changed")), "version 0 is behind: {body}");

    // The storefront follows: the product answer lists the rows, and listings narrowed to the car hold it.
    within(FOLLOWS, "the product answer lists the 911", async || {
        let answer = product(&shop, &id).await;
        lists(&answer, "porsche-911-992.dkk")
    })
    .await;
    let answer = product(&shop, &id).await;
    let first = &answer["data"]["fits"][0];
    assert_eq!(
        (&first["make"], &first["model"], &first["generation"], &first["vehicleId"], &first["years"], &first["note"]),
        (
            &json!("Porsche"),
            &json!("911"),
            &json!("992"),
            &json!("porsche-911-992.dkk"),
            &json!({"from": 2020, "to": 2023}),
            &json!("front axle")
        )
    );
    within(FOLLOWS, "the 911 listing holds the part", async || {
        let (_, listed) = shop.get_json("/api/get/productByOem/porsche?fits=porsche-911-992.dkk&year=2021").await;
        ids(&listed) == [id.clone()]
    })
    .await;
    let (_, outside) = shop.get_json("/api/get/productByOem/porsche?fits=porsche-911-992.dkk&year=2024").await;
    assert!(ids(&outside).is_empty(), "the row's years hold 2020 to 2023 only: {outside}");

    let (status, trail) =
        call(&shop, Method::GET, &format!("/api/admin/audit?subject=product:{id}&size=100"), Some(&owner), None).await;
    assert_eq!(status, 200, "{trail}");
    let entries = trail["results"].as_array().expect("results");
    assert_eq!(entries.iter().filter(|e| e["action"] == "product.fitment").count(), 1, "one entry per write: {trail}");
}

#[tokio::test]
async fn staff_add_vehicles_once_each() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let editor = staff_token(&app, &shop, StaffRole::Catalog).await;
    let fulfilment = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    let gt3 = json!({
        "make": "porsche", "model": "911", "generation": "992", "engineCode": "MDG-GT3",
        "fuel": "petrol", "engine": "GT3 4.0", "yearFrom": 2022
    });
    let (status, _) = call(&shop, Method::POST, "/api/admin/vehicles", None, Some(gt3.clone())).await;
    assert_eq!(status, 401);
    let (status, _) = call(&shop, Method::POST, "/api/admin/vehicles", Some(&fulfilment), Some(gt3.clone())).await;
    assert_eq!(status, 403);
    let (status, created) = call(&shop, Method::POST, "/api/admin/vehicles", Some(&editor), Some(gt3.clone())).await;
    assert_eq!((status, created["_id"].as_str()), (201, Some("porsche-911-992.mdg-gt3")), "{created}");
    let (status, again) = call(&shop, Method::POST, "/api/admin/vehicles", Some(&owner), Some(gt3.clone())).await;
    assert_eq!((status, again["code"].as_str()), (409, Some("vehicle.duplicate")), "{again}");
    let mut unknown_make = gt3.clone();
    unknown_make["make"] = json!("tata");
    let (status, refused) = call(&shop, Method::POST, "/api/admin/vehicles", Some(&editor), Some(unknown_make)).await;
    assert_eq!((status, refused["code"].as_str()), (422, Some("vehicle.invalid")), "{refused}");
    let (status, missing) =
        call(&shop, Method::POST, "/api/admin/vehicles", Some(&editor), Some(json!({ "make": "bmw" }))).await;
    assert_eq!(status, 400, "{missing}");

    let (_, engines) = shop.get_json("/api/get/vehicles?generation=porsche-911-992").await;
    assert!(engines["vehicles"].as_array().expect("vehicles").iter().any(|v| v["id"] == "porsche-911-992.mdg-gt3"));
    let path = "/api/admin/audit?subject=vehicle:porsche-911-992.mdg-gt3&size=10";
    let (_, trail) = call(&shop, Method::GET, path, Some(&owner), None).await;
    let actions: Vec<&str> =
        trail["results"].as_array().expect("results").iter().filter_map(|e| e["action"].as_str()).collect();
    assert_eq!(actions, ["vehicle.add"], "{trail}");
}
