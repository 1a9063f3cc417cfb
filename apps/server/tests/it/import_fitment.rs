//! The import's columns for "find the part that fits" (issue 25) over HTTP: a file giving a seeded
//! part its fitment, a cross-reference and a used unit's grade, donor car and margin scheme; an
//! unknown vehicle reported on its row; the storefront following; the fitment audited in the job's
//! name as the fitment editor audits it; the same file again writing nothing.

use std::time::Duration;

use marque_domain::staff::StaffRole;
use reqwest::Method;
use serde_json::{json, Value};

use crate::admin_imports::{counts, csv, imported_file};
use crate::helpers;
use helpers::staff::{call, staff_token};
use helpers::{spawn_app_with, within};

const X5: &str = "bmw-x5-g05.b57";
const FOLLOWS: Duration = Duration::from_secs(3);

#[tokio::test]
async fn an_import_writes_fitment_and_used_unit_columns_and_the_same_file_again_writes_nothing() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let token = staff_token(&app, &shop, StaffRole::Catalog).await;
    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    let (status, listed) = call(&shop, Method::GET, "/api/get/new-products", None, None).await;
    assert_eq!(status, 200, "{listed}");
    let id_of = |i: usize| listed["data"][i]["_id"].as_str().expect("a seeded product").to_owned();
    let (id, other) = (id_of(0), id_of(1));
    let admin = async |id: &str| {
        let (status, body) = call(&shop, Method::GET, &format!("/api/admin/products/{id}"), Some(&token), None).await;
        assert_eq!(status, 200, "{body}");
        body
    };
    let before = admin(&id).await;
    let (_, seeded) = shop.get_json(&format!("/api/get/productById/{id}")).await;
    assert!(seeded["data"]["fits"][0]["generationId"].is_string(), "a demo part has its fitment: {seeded}");
    let sku = before["sku"].as_str().expect("a SKU").to_owned();
    let brand = before["oem_slug"].as_str().expect("a brand").to_owned();
    let other_sku = admin(&other).await["sku"].as_str().expect("a SKU").to_owned();

    let file = format!(
        "sku,fits,crossReferences,producttype,grade,donorMake,donorModel,donorGeneration,donorYear,donorOdometerKm,\
         marginScheme,purchasePrice\r\n\
         {sku},bmw-x5-g05.b57:2019-:front axle|audi-a4-b9::with sport brakes,Bosch:0 986 494 104,old,B,BMW,X5,G05,\
         2019,84000,true,\"9,000\"\r\n\
         {other_sku},bmw-x5-g05.zz99,,,,,,,,,,\r\n"
    );
    let job = imported_file(&shop, &token, file.clone().into_bytes(), "apply").await;
    assert_eq!(counts(&job), [2, 1, 1, 0, 1, 0], "{job}");
    let report = String::from_utf8(
        csv(&shop, &token, &format!("/api/admin/imports/{}/errors.csv", job["id"].as_str().expect("id"))).await,
    )
    .expect("UTF-8");
    assert!(report.contains("3,fits,bmw-x5-g05.zz99,vehicle.unknown"), "the unknown vehicle on its row: {report}");

    // The back office reads the used unit's fields as the import wrote them.
    let after = admin(&id).await;
    assert_eq!(
        (&after["producttype"], &after["grade"], &after["marginScheme"]),
        (&json!("old"), &json!("B"), &json!({ "purchasePrice": 900_000 })),
        "{after}"
    );
    assert_eq!(
        (
            &after["donor"]["make"],
            &after["donor"]["generation"],
            &after["donor"]["year"],
            &after["donor"]["odometerKm"]
        ),
        (&json!("BMW"), &json!("G05"), &json!(2019), &json!(84_000))
    );
    assert_eq!(after["crossReferences"], json!([{ "brand": "Bosch", "number": "0 986 494 104" }]));

    // The storefront follows: the product answer lists the rows, a listing narrowed to the X5 holds it.
    within(FOLLOWS, "the product answer lists the imported fitment", async || {
        let (_, answer) = shop.get_json(&format!("/api/get/productById/{id}")).await;
        answer["data"]["fits"].as_array().is_some_and(|f| f.len() == 2 && f[0]["vehicleId"] == X5)
    })
    .await;
    let (_, answer) = shop.get_json(&format!("/api/get/productById/{id}")).await;
    let fits = &answer["data"]["fits"];
    assert_eq!(
        (&fits[0]["years"], &fits[0]["note"]),
        (&json!({ "from": 2019, "to": null }), &json!("front axle")),
        "{fits}"
    );
    assert_eq!(
        (&fits[1]["make"], &fits[1]["vehicleId"], &fits[1]["note"]),
        (&json!("Audi"), &Value::Null, &json!("with sport brakes"))
    );
    within(FOLLOWS, "the X5 listing holds the part", async || {
        let (_, listed) = shop.get_json(&format!("/api/get/productByOem/{brand}?fits={X5}")).await;
        listed["results"].as_array().is_some_and(|r| r.iter().any(|p| p["_id"] == id.as_str()))
    })
    .await;
    let (_, found) = shop.get_json("/api/get/productBySearch?search=0986494104&page=1").await;
    assert!(found["results"].as_array().is_some_and(|r| r.iter().any(|p| p["_id"] == id.as_str())), "{found}");

    // The fitment write is audited as the fitment editor audits it, naming the job.
    let (status, trail) =
        call(&shop, Method::GET, &format!("/api/admin/audit?subject=product:{id}&size=100"), Some(&owner), None).await;
    assert_eq!(status, 200, "{trail}");
    let fitment: Vec<&Value> =
        trail["results"].as_array().expect("results").iter().filter(|e| e["action"] == "product.fitment").collect();
    assert_eq!(fitment.len(), 1, "{trail}");
    let values = &fitment[0]["after"];
    assert_eq!((&values["import"], &values["fits"][0]["generation"]), (&job["id"], &json!("bmw-x5-g05")), "{values}");
    assert_eq!(
        fitment[0]["before"]["fits"][0]["generation"], seeded["data"]["fits"][0]["generationId"],
        "the rows before"
    );

    // The same file again: nothing changes.
    let again = imported_file(&shop, &token, file.into_bytes(), "apply").await;
    assert_eq!(counts(&again), [2, 1, 1, 0, 0, 1], "{again}");
    let (status, trail) =
        call(&shop, Method::GET, &format!("/api/admin/audit?subject=product:{id}&size=100"), Some(&owner), None).await;
    assert_eq!(status, 200);
    assert_eq!(
        trail["results"].as_array().expect("results").iter().filter(|e| e["action"] == "product.fitment").count(),
        1
    );

    // An export holds the columns, and read back changes nothing.
    let export = csv(&shop, &token, "/api/admin/exports/products.csv").await;
    let text = String::from_utf8(export.clone()).expect("UTF-8");
    assert!(text.contains("bmw-x5-g05.b57:2019-:front axle|audi-a4-b9::with sport brakes,Bosch:0 986 494 104,B,BMW,X5,G05,2019,84000,true,9000.00"), "{}", text.lines().find(|l| l.starts_with(&sku)).unwrap_or(""));
    let all = u64::from(helpers::PRODUCTS);
    let back = imported_file(&shop, &token, export, "apply").await;
    assert_eq!(counts(&back), [all, all, 0, 0, 0, all], "{back}");
}
