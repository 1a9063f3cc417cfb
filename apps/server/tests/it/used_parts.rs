//! Honest used parts and numbers that find the part, over HTTP (issue 25): a used unit's grade,
//! donor car, margin scheme and cross-references written by the catalog editor and read back; the
//! storefront's product answer and listing cards showing grade and donor but never the purchase
//! price; `grade=` narrowing every listing and search, with `fits=` too, and following a regrade;
//! a search by a superseded number naming it on the card; every bad value refused with its code.

use std::time::Duration;

use marque_domain::staff::StaffRole;
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers;
use helpers::staff::{call, staff_token};
use helpers::{spawn_app_with, within, TestShop};

/// How long an in-process storefront may take to follow a write (its cache polls every 100 ms).
const FOLLOWS: Duration = Duration::from_secs(3);

/// The car of the fitment tests: a BMW X5 (G05) 3.0d.
const X5: &str = "bmw-x5-g05.b57";

/// A purchase price no other figure of these answers has, in paise (₹1,234.57).
const PURCHASE_PAISE: i64 = 123_457;

fn ids(body: &Value) -> Vec<String> {
    body["results"].as_array().expect("results").iter().map(|p| p["_id"].as_str().expect("id").to_owned()).collect()
}

/// A product body placed in the demo catalog's first category and subcategory, BMW.
fn body(sku: &str, part_no: &str, condition: &str) -> Value {
    let category = marque_server::seed::categories().into_iter().next().expect("a category");
    let sub = category.subcategories.first().expect("a subcategory").slug.clone();
    json!({
        "name": format!("Graded Test Part {sku}"),
        "price": 4999,
        "producttype": condition,
        "category_slug": category.slug,
        "subcategory_slug": sub,
        "oem_slug": "bmw",
        "partNo": part_no,
        "sku": sku,
        "quantity": 1
    })
}

fn used(sku: &str, part_no: &str, grade: &str) -> Value {
    let mut b = body(sku, part_no, "old");
    b["grade"] = json!(grade);
    b["donor"] = json!({ "make": "BMW", "model": "X5", "generation": "G05", "year": 2019, "odometerKm": 84000 });
    b["marginScheme"] = json!({ "purchasePrice": PURCHASE_PAISE });
    b["crossReferences"] = json!([{ "brand": "Bosch", "number": "0 986 494 777" }]);
    b
}

async fn create(shop: &TestShop, token: &str, body: Value) -> Value {
    let (status, created) = call(shop, Method::POST, "/api/admin/products", Some(token), Some(body)).await;
    assert_eq!(status, 201, "{created}");
    created
}

/// Polls `found` every 20 ms until it gives a value, for at most [`FOLLOWS`].
async fn eventually<T>(what: &str, mut found: impl AsyncFnMut() -> Option<T>) -> T {
    let start = std::time::Instant::now();
    loop {
        if let Some(value) = found().await {
            return value;
        }
        assert!(start.elapsed() < FOLLOWS, "{what}: not visible after {FOLLOWS:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn get(shop: &TestShop, path: &str) -> Value {
    let (status, body) = shop.get_json(path).await;
    assert_eq!(status, 200, "{path}: {body}");
    body
}

#[tokio::test]
async fn used_units_carry_grade_and_donor_to_shoppers_but_never_the_purchase_price() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let editor = staff_token(&app, &shop, StaffRole::Catalog).await;
    let created = create(&shop, &editor, used("USED-A1", "ZU 900 100", "a")).await;
    let id = created["_id"].as_str().expect("an id").to_owned();
    assert_eq!(
        (&created["grade"], &created["marginScheme"], &created["crossReferences"]),
        (
            &json!("A"),
            &json!({ "purchasePrice": PURCHASE_PAISE }),
            &json!([{ "brand": "Bosch", "number": "0 986 494 777" }])
        )
    );
    assert_eq!(
        created["donor"],
        json!({ "make": "BMW", "model": "X5", "generation": "G05", "year": 2019, "odometerKm": 84000 })
    );
    let (status, read_back) = call(&shop, Method::GET, &format!("/api/admin/products/{id}"), Some(&editor), None).await;
    assert_eq!((status, &read_back), (200, &created), "the admin reads it back");

    let answer = eventually("the storefront shows the used unit", async || {
        let (status, body) = shop.get_json(&format!("/api/get/productById/{id}")).await;
        (status == 200).then_some(body)
    })
    .await;
    let data = &answer["data"];
    assert_eq!((&data["grade"], &data["gradeDefinition"]), (&json!("A"), &json!("grade.a")), "{answer}");
    assert_eq!(
        data["donor"],
        json!({ "make": "BMW", "model": "X5", "generation": "G05", "year": 2019, "odometerKm": 84000 })
    );
    assert_eq!(data["crossReferences"], json!([{ "brand": "Bosch", "number": "0 986 494 777" }]));

    // Found by its cross-reference in any spelling; the card carries the grade, nothing of the margin scheme.
    let found = get(&shop, "/api/get/productBySearch?search=0986-494-777").await;
    assert_eq!(ids(&found), [id.as_str()], "{found}");
    assert_eq!(found["results"][0]["grade"], "A");
    assert!(found["results"][0].get("donor").is_none(), "the card is compact: {found}");
    let listed = get(&shop, "/api/get/productByOem/bmw?grade=A").await;

    let raw = [
        shop.get(&format!("/api/get/productById/{id}")).await.text().await.expect("text"),
        shop.get("/api/get/productBySearch?search=0986494777").await.text().await.expect("text"),
        listed.to_string(),
        shop.get("/api/get/new-products").await.text().await.expect("text"),
    ];
    for text in &raw {
        let lower = text.to_lowercase();
        assert!(!lower.contains("purchase") && !lower.contains("margin"), "no margin scheme: {text}");
        assert!(!text.contains("123457") && !text.contains("1234.57"), "no purchase price: {text}");
    }
    // A part without a grade has no grade field at all.
    let plain = create(&shop, &editor, body("NEW-1", "ZU 900 101", "new")).await;
    let plain_id = plain["_id"].as_str().expect("an id").to_owned();
    let plain_answer = eventually("the storefront shows the new part", async || {
        let (status, body) = shop.get_json(&format!("/api/get/productById/{plain_id}")).await;
        (status == 200).then_some(body)
    })
    .await;
    for field in ["grade", "gradeDefinition", "donor", "crossReferences", "supersedes"] {
        assert!(plain_answer["data"].get(field).is_none(), "{field}: {plain_answer}");
    }
}

#[tokio::test]
async fn grade_narrows_every_listing_and_search_with_fits_and_follows_a_regrade() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let editor = staff_token(&app, &shop, StaffRole::Catalog).await;
    let a = create(&shop, &editor, used("USED-A2", "ZU 900 200", "A")).await["_id"].as_str().expect("id").to_owned();
    let b = create(&shop, &editor, used("USED-B2", "ZU 900 201", "b")).await["_id"].as_str().expect("id").to_owned();
    let category = marque_server::seed::categories().into_iter().next().expect("a category");
    let sub = &category.subcategories[0].slug;
    // The A unit fits the X5.
    let fitment = format!("/api/admin/products/{a}/fitment");
    let (status, stored) = call(&shop, Method::GET, &fitment, Some(&editor), None).await;
    assert_eq!(status, 200, "{stored}");
    let put = shop
        .client
        .request(Method::PUT, format!("{}{fitment}", shop.base))
        .bearer_auth(&editor)
        .header("If-Match", stored["version"].as_u64().expect("a version").to_string())
        .json(&json!({ "fits": [{ "generationId": "bmw-x5-g05" }] }));
    let (status, written) = helpers::customers::read(put.send().await.expect("answers")).await;
    assert_eq!(status, 200, "{written}");

    let paths_of = |grade: &str| {
        vec![
            format!("/api/get/productByOem/bmw?grade={grade}"),
            format!("/api/get/product/{}?grade={grade}", category.slug),
            format!("/api/get/product/{}/{sub}?grade={grade}", category.slug),
            format!("/api/get/productBySearch?search=graded%20test%20part&grade={grade}"),
            format!("/api/get/productBySearch?search=&grade={grade}"),
        ]
    };
    within(FOLLOWS, "every listing narrowed to A holds the A unit only", async || {
        for path in paths_of("A") {
            if ids(&get(&shop, &path).await) != [a.clone()] {
                return false;
            }
        }
        true
    })
    .await;
    for path in paths_of("a--B") {
        let mut found = ids(&get(&shop, &path).await);
        found.sort();
        let mut both = vec![a.clone(), b.clone()];
        both.sort();
        assert_eq!(found, both, "{path}");
    }
    for path in paths_of("C") {
        let listed = get(&shop, &path).await;
        assert_eq!((ids(&listed).len(), listed["total"].as_u64()), (0, Some(0)), "{path}: {listed}");
    }
    let grouped = get(&shop, &format!("/api/get/product/{}?grade=A", category.slug)).await;
    assert_eq!(grouped["view"], "flat", "a grade filter makes a flat list");

    // With the car too: the A unit fits the X5, the B unit does not.
    for (grade, want) in [("A", vec![a.clone()]), ("B", Vec::new()), ("A--B", vec![a.clone()])] {
        for path in [
            format!("/api/get/productByOem/bmw?fits={X5}&grade={grade}"),
            format!("/api/get/product/{}?fits={X5}&grade={grade}", category.slug),
            format!("/api/get/productBySearch?search=&fits={X5}&grade={grade}"),
            format!("/api/get/productBySearch?search=graded&fits={X5}&grade={grade}"),
        ] {
            assert_eq!(ids(&get(&shop, &path).await), want, "{path}");
        }
    }

    // A regrade moves the unit between the filtered answers (which the caches had kept).
    let (status, patched) =
        call(&shop, Method::PATCH, &format!("/api/admin/products/{b}"), Some(&editor), Some(json!({ "grade": "C" })))
            .await;
    assert_eq!((status, &patched["grade"]), (200, &json!("C")), "{patched}");
    within(FOLLOWS, "the regrade shows in every narrowed answer", async || {
        for path in paths_of("C") {
            if ids(&get(&shop, &path).await) != [b.clone()] {
                return false;
            }
        }
        for path in paths_of("B") {
            if !ids(&get(&shop, &path).await).is_empty() {
                return false;
            }
        }
        true
    })
    .await;
    // Removing the grade takes it out of every grade filter.
    let (status, patched) =
        call(&shop, Method::PATCH, &format!("/api/admin/products/{b}"), Some(&editor), Some(json!({ "grade": null })))
            .await;
    assert_eq!((status, patched.get("grade")), (200, Some(&Value::Null)), "{patched}");
    within(FOLLOWS, "the ungraded unit is in no grade's answers", async || {
        ids(&get(&shop, "/api/get/productByOem/bmw?grade=A--B--C").await) == [a.clone()]
    })
    .await;
}

#[tokio::test]
async fn a_search_by_a_superseded_number_names_it_on_the_card() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let editor = staff_token(&app, &shop, StaffRole::Catalog).await;
    let mut current = body("CURRENT-1", "ZX 500 200", "new");
    current["supersededNumbers"] = json!(["ZX 500 100", "ZX-499-900"]);
    let id = create(&shop, &editor, current).await["_id"].as_str().expect("an id").to_owned();
    let card = eventually("the superseded number finds the current part", async || {
        let found = get(&shop, "/api/get/productBySearch?search=zx500100").await;
        (ids(&found) == [id.clone()]).then(|| found["results"][0].clone())
    })
    .await;
    assert_eq!(card["supersedes"], "ZX 500 100", "{card}");
    let other = get(&shop, "/api/get/productBySearch?search=ZX%20499%20900").await;
    assert_eq!(other["results"][0]["supersedes"], "ZX-499-900", "as printed: {other}");
    let own = get(&shop, "/api/get/productBySearch?search=ZX500200").await;
    assert_eq!(ids(&own), [id.as_str()]);
    assert!(own["results"][0].get("supersedes").is_none(), "found by its own number: {own}");
}

#[tokio::test]
async fn bad_grades_donors_prices_and_references_are_refused_with_their_codes() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let editor = staff_token(&app, &shop, StaffRole::Catalog).await;
    let fulfilment = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let category = marque_server::seed::categories().into_iter().next().expect("a category");
    for grade in ["D", "A-B", "A--", "AB", "%20--A"] {
        for path in [
            format!("/api/get/productByOem/bmw?grade={grade}"),
            format!("/api/get/product/{}?grade={grade}", category.slug),
            format!("/api/get/product/{}/{}?grade={grade}", category.slug, category.subcategories[0].slug),
            format!("/api/get/productBySearch?search=disc&grade={grade}"),
        ] {
            let (status, body) = shop.get_json(&path).await;
            assert_eq!((status, body["code"].as_str()), (400, Some("filter.invalid")), "{path}: {body}");
        }
    }
    let refused = |body: Value| {
        let (shop, editor) = (&shop, &editor);
        async move { call(shop, Method::POST, "/api/admin/products", Some(editor), Some(body)).await }
    };
    let with = |sku: &str, field: &str, value: Value| {
        let mut b = used(sku, "ZU 1", "A");
        b[field] = value;
        b
    };
    let cases = [
        (with("BAD-1", "grade", json!("E")), "product.grade_invalid"),
        (
            with(
                "BAD-2",
                "donor",
                json!({ "make": "BMW", "model": "X5", "generation": "G05", "year": 1949, "odometerKm": 0 }),
            ),
            "product.donor_invalid",
        ),
        (
            with(
                "BAD-3",
                "donor",
                json!({ "make": " ", "model": "X5", "generation": "G05", "year": 2019, "odometerKm": 0 }),
            ),
            "product.donor_invalid",
        ),
        (
            with(
                "BAD-4",
                "donor",
                json!({ "make": "BMW", "model": "X5", "generation": "G05", "year": 2019, "odometerKm": 2_000_001 }),
            ),
            "product.donor_invalid",
        ),
        (with("BAD-5", "marginScheme", json!({ "purchasePrice": 0 })), "product.purchase_price_invalid"),
        (with("BAD-6", "crossReferences", json!([{ "brand": "", "number": "1" }])), "product.cross_reference_invalid"),
        (
            with("BAD-7", "crossReferences", json!([{ "brand": "Bosch", "number": " - " }])),
            "product.cross_reference_invalid",
        ),
        (
            with(
                "BAD-8",
                "crossReferences",
                json!((0..21).map(|i| json!({ "brand": "Bosch", "number": format!("N{i}") })).collect::<Vec<_>>()),
            ),
            "product.cross_references_too_many",
        ),
        (with("BAD-9", "producttype", json!("new")), "product.used_only"),
        (with("BAD-10", "producttype", json!("new_without_box")), "product.used_only"),
    ];
    for (body, code) in cases {
        let (status, answer) = refused(body).await;
        assert_eq!((status, answer["code"].as_str()), (400, Some(code)), "{answer}");
    }
    let (status, answer) =
        call(&shop, Method::POST, "/api/admin/products", Some(&fulfilment), Some(used("R-1", "ZU 2", "A"))).await;
    assert_eq!(status, 403, "a role without the catalog: {answer}");
    // A graded unit cannot become new while it keeps its grade; refurbished is used too.
    let id = create(&shop, &editor, used("USED-R", "ZU 3", "C")).await["_id"].as_str().expect("id").to_owned();
    let path = format!("/api/admin/products/{id}");
    let (status, answer) =
        call(&shop, Method::PATCH, &path, Some(&editor), Some(json!({ "producttype": "new" }))).await;
    assert_eq!((status, answer["code"].as_str()), (400, Some("product.used_only")), "{answer}");
    let (status, answer) =
        call(&shop, Method::PATCH, &path, Some(&editor), Some(json!({ "producttype": "refurbished" }))).await;
    assert_eq!((status, &answer["producttype"]), (200, &json!("refurbished")), "{answer}");
    let clear = json!({ "producttype": "new", "grade": null, "donor": null, "marginScheme": null });
    let (status, answer) = call(&shop, Method::PATCH, &path, Some(&editor), Some(clear)).await;
    assert_eq!(
        (status, answer.get("grade"), answer.get("marginScheme")),
        (200, Some(&Value::Null), Some(&Value::Null)),
        "{answer}"
    );
    assert_eq!(answer["crossReferences"].as_array().map(Vec::len), Some(1), "cross-references suit a new part");
}

/// `pdftotext` of `pdf` (Debian's poppler-utils, the reader of the browser journey).
fn pdftotext(pdf: &[u8]) -> String {
    let path = std::env::temp_dir().join(format!("marque-margin-{}.pdf", std::process::id()));
    std::fs::write(&path, pdf).expect("the PDF is written");
    let out =
        std::process::Command::new("pdftotext").args(["-enc", "UTF-8"]).arg(&path).arg("-").output().unwrap_or_else(
            |e| panic!("pdftotext does not run ({e}): install Debian's poppler-utils (`make poppler`)"),
        );
    std::fs::remove_file(&path).ok();
    assert!(out.status.success(), "pdftotext failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// No JSON answer a customer gets has a purchase price field, and no answer or document carries its amount.
fn assert_no_purchase_price(what: &str, text: &str) {
    if !what.contains("invoice") {
        assert!(!text.to_lowercase().contains("purchase"), "{what} names a purchase price: {text}");
    }
    for printed in ["123457", "1234.57", "1,234.57"] {
        assert!(!text.contains(printed), "{what} carries the purchase price: {text}");
    }
}

#[tokio::test]
async fn a_used_unit_bought_under_the_margin_scheme_is_invoiced_on_its_margin_and_no_answer_names_its_price() {
    use crate::helpers::customers::{customer, get_auth};
    use crate::helpers::payments::{delhi_address, pay_in_sandbox};
    let (shop, app) = spawn_app_with(|_| {}).await;
    let editor = staff_token(&app, &shop, StaffRole::Catalog).await;
    let created = create(&shop, &editor, used("USED-M1", "ZU 900 190", "b")).await;
    let id = created["_id"].as_str().expect("an id").to_owned();
    eventually("the storefront sells the used unit", async || {
        let (status, _) = shop.get_json(&format!("/api/get/productById/{id}")).await;
        (status == 200).then_some(())
    })
    .await;

    let (token, user) = customer(&shop, "margin@example.com", "9876500031").await;
    let address = delhi_address(&shop, &token, &user).await;
    let body = json!({ "products": [{ "_id": id, "quantity": 1 }], "address": { "_id": address["_id"] } });
    let (status, held) = crate::helpers::payments::call(&shop, Method::POST, "/api/razorpay/pay", &token, body).await;
    assert_eq!(status, 200, "{held}");
    assert_no_purchase_price("the pay answer", &held.to_string());
    let (status, placed) = pay_in_sandbox(&shop, &token, &held).await;
    assert_eq!(status, 200, "{placed}");
    assert_no_purchase_price("the placed order", &placed.to_string());
    let order = placed["result"]["_id"].as_str().expect("an order id").to_owned();

    let (status, history) = get_auth(&shop, &format!("/api/get/orderhistory/{user}"), &token).await;
    assert_eq!(status, 200, "{history}");
    assert!(history.to_string().contains(&order), "{history}");
    assert_no_purchase_price("the purchase history", &history.to_string());

    // The invoice taxes the margin only (₹4,999 − ₹1,234.57 = ₹3,764.43 inc. 18% GST), says so, and
    // prints the amount paid but never the purchase price.
    let resp = shop
        .client
        .get(format!("{}/api/get/invoice/{order}", shop.base))
        .bearer_auth(&token)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(resp.status().as_u16(), 200);
    let text = pdftotext(&resp.bytes().await.expect("the PDF"));
    for wanted in [
        // (pdftotext reads the wrapped description around the HSN code beside it.)
        "Graded Test Part USED-M1 (18%",
        "GST on the margin)",
        "Margin scheme – CGST Rules 32(5)",
        "taxed on the margin only (rule 32(5) of the CGST Rules, 2017)",
        "4,999.00",
        "3,190.19",
        "287.12",
        "on margins",
    ] {
        let squash = |s: &str| s.split_whitespace().collect::<String>();
        assert!(squash(&text).contains(&squash(wanted)), "the invoice should say {wanted:?}; it says:\n{text}");
    }
    assert_no_purchase_price("the invoice", &text);
}
