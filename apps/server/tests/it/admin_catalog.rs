//! The catalog editor over HTTP, as a shop owner and an attacker use it: products created with every
//! field and their opening stock, edited field by field (never the stock), listed a page at a time,
//! refused with the shop's messages; the storefront following creation, search by every number and
//! unpublishing while a placed order keeps its lines; categories, subcategories and brands; each
//! write in the audit trail; a role without the catalog refused.

use std::time::Duration;

use marque_domain::catalog::ProductId;
use marque_domain::staff::StaffRole;
use marque_domain::{Message, Money};
use marque_ports::CatalogStore;
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers;
use helpers::customers::customer;
use helpers::staff::{call, login, set_up_staff, staff_token, TestStaff};
use helpers::{spawn_app_with, within, TestShop};

/// How long an in-process storefront may take to follow a write (its cache polls every 100 ms).
const FOLLOWS: Duration = Duration::from_secs(3);

/// A shop with a `catalog` staff member signed in (who edits) and an owner (who reads the audit trail).
struct Office {
    shop: TestShop,
    app: marque_server::App,
    editor: TestStaff,
    token: String,
    owner: String,
}

async fn office() -> Office {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let editor = set_up_staff(&app, &shop, StaffRole::Catalog).await;
    let (status, body) = login(&shop, &editor, 0).await;
    assert_eq!(status, 200, "login: {body}");
    let token = body["token"].as_str().expect("a token").to_owned();
    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    Office { shop, app, editor, token, owner }
}

impl Office {
    async fn admin(&self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        call(&self.shop, method, path, Some(&self.token), body).await
    }

    /// Creates a product from `body`; its answer, which must be 201.
    async fn create(&self, body: Value) -> Value {
        let (status, created) = self.admin(Method::POST, "/api/admin/products", Some(body)).await;
        assert_eq!(status, 201, "{created}");
        created
    }

    async fn patch(&self, id: &str, body: Value) -> (u16, Value) {
        self.admin(Method::PATCH, &format!("/api/admin/products/{id}"), Some(body)).await
    }

    async fn product(&self, id: &str) -> (u16, Value) {
        self.admin(Method::GET, &format!("/api/admin/products/{id}"), None).await
    }

    /// The audit trail's entries for `subject`, newest first.
    async fn audit(&self, subject: &str) -> Vec<Value> {
        let path = format!("/api/admin/audit?subject={subject}&size=100");
        let (status, body) = call(&self.shop, Method::GET, &path, Some(&self.owner), None).await;
        assert_eq!(status, 200, "{body}");
        body["results"].as_array().expect("results").clone()
    }

    /// The newest audit entry for `subject` with `action`, written by the editor.
    async fn audited(&self, subject: &str, action: &str) -> Value {
        let entries = self.audit(subject).await;
        let entry = entries
            .iter()
            .find(|e| e["action"] == action)
            .unwrap_or_else(|| panic!("no {action} of {subject} in {entries:?}"))
            .clone();
        assert_eq!(entry["actor"], self.editor.id.as_str(), "who: {entry}");
        assert_eq!(entry["actorLabel"], self.editor.email.as_str(), "who: {entry}");
        entry
    }
}

/// A product with every field the editor knows, in the demo catalog's Engine › Oil Pump, by BMW.
fn every_field(sku: &str, part_no: &str) -> Value {
    json!({
        "name": "Turbo Oil Feed Line (BMW 3 Series G20 320d)",
        "price": 1234.56,
        "producttype": "new",
        "description": "Braided feed line with both banjo bolts and washers.",
        "category_slug": "engine",
        "subcategory_slug": "oil-pump",
        "oem_slug": "bmw",
        "fuelType": "diesel",
        "variant": "320d",
        "partNo": part_no,
        "inside_ncr": 150.5,
        "outside_ncr": 300,
        "gst": 28,
        "sku": sku,
        "alternateNumbers": ["ZQ 012 345", "zq-012345", "ZR 11 42 7 808"],
        "supersededNumbers": ["ZS.998.877"],
        "hsn": "87083000",
        "warrantyDays": 15,
        "weightGrams": 2350,
        "dimensionsMm": { "length": 320, "width": 280, "height": 60 },
        "published": true,
        "quantity": 7
    })
}

/// The storefront's name of a category, subcategory and brand slug.
async fn names(shop: &TestShop, category: &str, subcategory: &str, brand: &str) -> (String, String, String) {
    let (_, categories) = shop.get_json("/api/get/category").await;
    let category =
        categories["data"].as_array().expect("data").iter().find(|c| c["slug"] == category).expect("category");
    let sub = category["subcategory"].as_array().expect("subs").iter().find(|s| s["slug"] == subcategory).expect("sub");
    let (_, brands) = shop.get_json("/api/get/brand/oem").await;
    let brand = brands["data"].as_array().expect("data").iter().find(|b| b["slug"] == brand).expect("brand");
    let text = |v: &Value| v.as_str().expect("a name").to_owned();
    (text(&category["name"]), text(&sub["name"]), text(&brand["name"]))
}

async fn shopper_product(shop: &TestShop, id: &str) -> (u16, Value) {
    shop.get_json(&format!("/api/get/productById/{id}")).await
}

/// The ids the storefront's search finds for `term`, in its order.
async fn found(shop: &TestShop, term: &str) -> Vec<String> {
    let path = format!("/api/get/productBySearch?search={}&page=1", urlencoding(term));
    let (status, body) = shop.get_json(&path).await;
    assert_eq!(status, 200, "{body}");
    body["results"].as_array().expect("results").iter().map(|p| p["_id"].as_str().expect("id").to_owned()).collect()
}

fn urlencoding(text: &str) -> String {
    serde_urlencoded::to_string([("", text)]).expect("encodes").trim_start_matches('=').to_owned()
}

fn code(body: &Value) -> Option<&str> {
    body["code"].as_str()
}

/// A refusal with `message`'s code and text in the JSON error shape.
fn assert_refused(status: u16, body: &Value, expected: u16, message: Message, what: &str) {
    assert_eq!((status, code(body)), (expected, Some(message.code())), "{what}: {body}");
    assert_eq!(body["message"], message.text(), "{what}: {body}");
    assert_eq!(body["status"], "failed", "{what}: {body}");
}

#[tokio::test]
async fn a_product_is_created_with_every_field_read_back_whole_and_its_quantity_is_the_opening_stock() {
    let o = office().await;
    let started = chrono::Utc::now().timestamp();
    let created = o.create(every_field("mq-oil-001", " ZZ 771 204 55 ")).await;
    let id = created["_id"].as_str().expect("the new _id").to_owned();
    assert!(!id.is_empty());

    let (category, subcategory, brand) = names(&o.shop, "engine", "oil-pump", "bmw").await;
    let text = |k: &str| created[k].as_str().unwrap_or_else(|| panic!("{k}: {created}")).to_owned();
    let number = |k: &str| created[k].as_f64().unwrap_or_else(|| panic!("{k}: {created}"));
    assert_eq!(text("name"), "Turbo Oil Feed Line (BMW 3 Series G20 320d)");
    assert_eq!(number("price"), 1234.56);
    assert_eq!((number("inside_ncr"), number("outside_ncr"), number("gst")), (150.5, 300.0, 28.0));
    assert_eq!(created["quantity"], 7);
    assert_eq!(
        [text("producttype"), text("description"), text("fuelType"), text("variant"), text("partNo")],
        ["new", "Braided feed line with both banjo bolts and washers.", "diesel", "320d", "ZZ 771 204 55"]
    );
    assert_eq!(
        [text("category"), text("category_slug"), text("subcategory"), text("subcategory_slug"), text("oem")],
        [category, "engine".to_owned(), subcategory, "oil-pump".to_owned(), brand]
    );
    assert_eq!(text("oem_slug"), "bmw");
    assert_eq!(text("sku"), "MQ-OIL-001", "a SKU is kept upper-case");
    assert_eq!(
        created["alternateNumbers"],
        json!(["ZQ 012 345", "ZR 11 42 7 808"]),
        "one number spelt twice is kept once"
    );
    assert_eq!(created["supersededNumbers"], json!(["ZS.998.877"]));
    assert_eq!(text("hsn"), "87083000");
    assert_eq!((created["warrantyDays"].as_u64(), created["weightGrams"].as_u64()), (Some(15), Some(2350)));
    assert_eq!(created["dimensionsMm"], json!({ "length": 320, "width": 280, "height": 60 }));
    assert_eq!((created["published"].as_bool(), created["unitsSold"].as_u64()), (Some(true), Some(0)));
    assert_eq!(created["images"], json!([]));
    let listed = created["createdAt"].as_i64().expect("createdAt");
    assert!((started..=started + 60).contains(&listed), "listed now: {listed}");

    let (status, read_back) = o.product(&id).await;
    assert_eq!(status, 200, "{read_back}");
    assert_eq!(read_back, created, "GET answers every field as created");

    // Rupees with paise are stored as whole paise.
    let stored = o.app.database().catalog().product(&ProductId(id.clone())).await.expect("reads").expect("stored");
    assert_eq!(
        (stored.price, stored.inside_ncr, stored.outside_ncr),
        (Money::from_paise(123_456), Money::from_paise(15_050), Money::from_paise(30_000))
    );

    // The quantity is the stock ledger's opening entry.
    let (status, history) = o.admin(Method::GET, &format!("/api/admin/products/{id}/stock"), None).await;
    assert_eq!((status, history["total"].as_u64()), (200, Some(1)), "{history}");
    let opening = &history["results"][0];
    assert_eq!(opening["reason"], "opening", "{opening}");
    assert_eq!(
        (opening["delta"].as_i64(), opening["before"].as_i64(), opening["after"].as_i64()),
        (Some(7), Some(0), Some(7))
    );
    assert_eq!(opening["actor"], o.editor.id.as_str());

    // Without a quantity the opening stock is 0, and the defaults apply (HSN 8708, a week's warranty).
    let plain = o
        .create(json!({
            "name": "Oil Pump Gasket", "price": 99, "category_slug": "engine", "subcategory_slug": "oil-pump",
            "oem_slug": "bmw", "partNo": "ZZ-771-204-56", "sku": "MQ-OIL-002"
        }))
        .await;
    assert_eq!(
        (plain["quantity"].as_u64(), plain["hsn"].as_str(), plain["warrantyDays"].as_u64(), plain["gst"].as_u64()),
        (Some(0), Some("8708"), Some(7), Some(18)),
        "{plain}"
    );
    assert_eq!((plain["producttype"].as_str(), plain["published"].as_bool()), (Some("new"), Some(true)));

    let entry = o.audited(&format!("product:{id}"), "product.create").await;
    assert_eq!(entry["before"], Value::Null, "{entry}");
    assert_eq!((entry["after"]["sku"].as_str(), entry["after"]["price"].as_i64()), (Some("MQ-OIL-001"), Some(123_456)));
}

#[tokio::test]
async fn a_patch_changes_only_the_fields_it_carries_and_never_the_stock() {
    let o = office().await;
    let before = o.create(every_field("MQ-PATCH-1", "ZZ 500 100 01")).await;
    let id = before["_id"].as_str().expect("id").to_owned();

    let (status, after) = o.patch(&id, json!({ "price": 999.99, "warrantyDays": 3, "fuelType": null })).await;
    assert_eq!(status, 200, "{after}");
    let mut expected = before.clone();
    expected["price"] = json!(999.99);
    expected["warrantyDays"] = json!(3);
    expected["fuelType"] = Value::Null;
    assert_eq!(after, expected, "only price, warranty and fuel type changed");
    assert_eq!(o.product(&id).await.1, expected, "as stored");

    // The stock is the ledger's: a PATCH carrying a quantity is refused whole, and writes nothing.
    let (status, refused) = o.patch(&id, json!({ "quantity": 50, "name": "Renamed" })).await;
    assert_refused(status, &refused, 400, Message::ProductQuantityInvalid, "quantity in a PATCH");
    // So is a field the editor does not know (a misspelt one is not silently dropped).
    let (status, refused) = o.patch(&id, json!({ "stock": 50 })).await;
    assert_eq!((status, code(&refused)), (400, Some("request.invalid")), "{refused}");
    let (status, unchanged) = o.product(&id).await;
    assert_eq!((status, &unchanged), (200, &expected), "nothing was written");
    let (_, history) = o.admin(Method::GET, &format!("/api/admin/products/{id}/stock"), None).await;
    assert_eq!(history["total"], 1, "only the opening entry: {history}");

    // Moving it to another placement takes the shop's names along.
    let (status, moved) = o.patch(&id, json!({ "category_slug": "brakes", "subcategory_slug": "brake-pads" })).await;
    assert_eq!(status, 200, "{moved}");
    let (category, subcategory, _) = names(&o.shop, "brakes", "brake-pads", "bmw").await;
    assert_eq!((moved["category"].as_str(), moved["subcategory"].as_str()), (Some(&*category), Some(&*subcategory)));
    assert_eq!(moved["quantity"], 7);

    let entry = o.audited(&format!("product:{id}"), "product.update").await;
    assert_eq!(entry["before"]["category_slug"], "engine", "{entry}");
    assert_eq!(entry["after"]["category_slug"], "brakes", "{entry}");
    let updates = o.audit(&format!("product:{id}")).await;
    let price_change = updates.into_iter().find(|e| e["action"] == "product.update" && e["after"]["price"].is_number());
    let price_change = price_change.expect("the price change is audited");
    assert_eq!(
        (price_change["before"]["price"].as_i64(), price_change["after"]["price"].as_i64()),
        (Some(123_456), Some(99_999))
    );
    assert_eq!(price_change["after"].get("name"), None, "only the changed fields: {price_change}");
}

#[tokio::test]
async fn the_list_pages_searches_filters_and_sorts_and_refuses_bad_paging() {
    let o = office().await;
    let mut made = Vec::new();
    for (sku, price, category, sub, brand, published) in [
        ("MQ-LIST-A", 500.0, "engine", "oil-pump", "bmw", true),
        ("MQ-LIST-B", 250.0, "brakes", "brake-pads", "audi", true),
        ("MQ-LIST-C", 750.0, "brakes", "brake-pads", "bmw", false),
    ] {
        let mut body = every_field(sku, &format!("ZL {sku}"));
        body["name"] = json!(format!("Listwidget {sku}"));
        body["price"] = json!(price);
        body["category_slug"] = json!(category);
        body["subcategory_slug"] = json!(sub);
        body["oem_slug"] = json!(brand);
        body["published"] = json!(published);
        body["alternateNumbers"] = json!([format!("ALT {sku}")]);
        body["supersededNumbers"] = json!([]);
        made.push(o.create(body).await["_id"].as_str().expect("id").to_owned());
    }
    let ids = |page: &Value| -> Vec<String> {
        page["results"].as_array().expect("results").iter().map(|p| p["_id"].as_str().expect("id").to_owned()).collect()
    };
    let list = async |query: &str| {
        let (status, page) = o.admin(Method::GET, &format!("/api/admin/products?{query}"), None).await;
        assert_eq!(status, 200, "{query}: {page}");
        page
    };

    // Everything, published or not: the demo catalog and these three, 20 a page by default.
    let all = list("").await;
    let total = u64::from(helpers::PRODUCTS) + 3;
    assert_eq!((all["total"].as_u64(), all["pages"].as_u64()), (Some(total), Some(total.div_ceil(20))), "{all}");
    assert_eq!(ids(&all).len(), 20);
    // Newest first (the three were listed within a second or two, so their own order is the id's).
    let mut newest: Vec<String> = ids(&all)[..3].to_vec();
    newest.sort();
    let mut three = made.clone();
    three.sort();
    assert_eq!(newest, three, "the three new ones lead the list");

    let first = list("q=listwidget&size=2&page=1").await;
    let second = list("q=listwidget&size=2&page=2").await;
    assert_eq!((first["total"].as_u64(), first["pages"].as_u64(), ids(&first).len()), (Some(3), Some(2), 2));
    assert_eq!((second["total"].as_u64(), ids(&second).len()), (Some(3), 1));
    let mut both: Vec<String> = ids(&first).into_iter().chain(ids(&second)).collect();
    both.sort();
    assert_eq!(both, three, "two pages hold the three, once each");
    assert_eq!(ids(&list("q=listwidget&page=9").await), Vec::<String>::new(), "past the end: empty");

    assert_eq!(ids(&list("q=mq-list-b").await), [made[1].clone()], "by SKU in any case");
    assert_eq!(ids(&list("q=altmqlistc").await), [made[2].clone()], "by an alternate number in another spelling");
    assert_eq!(ids(&list("q=listwidget&published=false").await), [made[2].clone()]);
    assert_eq!(ids(&list("q=listwidget&category=brakes&brand=bmw").await), [made[2].clone()]);
    assert_eq!(ids(&list("q=listwidget&sort=price").await), [made[1].clone(), made[0].clone(), made[2].clone()]);
    assert_eq!(ids(&list("q=listwidget&sort=-price").await), [made[2].clone(), made[0].clone(), made[1].clone()]);
    assert_eq!(ids(&list("q=listwidget&sort=sku").await), made);

    for (query, expected) in [
        ("size=0", Message::PageSizeInvalid),
        ("size=101", Message::PageSizeInvalid),
        ("page=0", Message::PageInvalid),
        ("page=abc", Message::PageInvalid),
        ("sort=cheapest", Message::FilterInvalid),
    ] {
        let (status, body) = o.admin(Method::GET, &format!("/api/admin/products?{query}"), None).await;
        assert_refused(status, &body, 400, expected, query);
    }
    let (status, body) = o.admin(Method::GET, "/api/admin/products?size=-1", None).await;
    assert_eq!((status, body["status"].as_str()), (400, Some("failed")), "{body}");
}

#[tokio::test]
async fn bad_fields_are_refused_with_the_shops_messages_write_nothing_and_never_answer_500() {
    let o = office().await;
    let kept = o.create(every_field("MQ-KEEP-1", "ZZ 600 100 01")).await;
    let id = kept["_id"].as_str().expect("id").to_owned();
    let long = |n: usize| "x".repeat(n);
    let numbers: Vec<String> = (0..21).map(|n| format!("ZN {n:03}")).collect();
    let cases: Vec<(&str, Value, Message)> = vec![
        ("warrantyDays", json!(1), Message::ProductWarrantyDays),
        ("warrantyDays", json!(16), Message::ProductWarrantyDays),
        ("price", json!(-1), Message::ProductPriceInvalid),
        ("price", json!(10.005), Message::ProductPriceInvalid),
        ("inside_ncr", json!(-0.5), Message::ProductPriceInvalid),
        ("gst", json!(17), Message::ProductGstInvalid),
        ("gst", json!(-18), Message::ProductGstInvalid),
        ("category_slug", json!("turbo-kits"), Message::ProductPlacementUnknown),
        ("subcategory_slug", json!("no-such-kind"), Message::ProductPlacementUnknown),
        ("oem_slug", json!("lada"), Message::ProductPlacementUnknown),
        ("category_slug", json!("Brakes"), Message::CatalogSlugInvalid),
        ("name", json!(long(201)), Message::ProductNameInvalid),
        ("name", json!("   "), Message::ProductNameInvalid),
        ("sku", json!(long(41)), Message::ProductSkuInvalid),
        ("sku", json!("MQ 1"), Message::ProductSkuInvalid),
        ("hsn", json!("87"), Message::ProductHsnInvalid),
        ("hsn", json!("8708A"), Message::ProductHsnInvalid),
        ("weightGrams", json!(-1), Message::ProductWeightInvalid),
        ("weightGrams", json!(1_000_001), Message::ProductWeightInvalid),
        ("dimensionsMm", json!({ "length": -1, "width": 1, "height": 1 }), Message::ProductDimensionsInvalid),
        ("dimensionsMm", json!({ "length": 1, "width": 10_001, "height": 1 }), Message::ProductDimensionsInvalid),
        ("alternateNumbers", json!(numbers), Message::ProductNumbersTooMany),
        ("supersededNumbers", json!(["--"]), Message::PartNumberEmpty),
        ("partNo", json!(" - . "), Message::PartNumberEmpty),
        ("fuelType", json!("steam"), Message::FilterInvalid),
        ("producttype", json!(" "), Message::FilterInvalid),
    ];
    for (field, value, message) in &cases {
        let mut body = every_field("MQ-BAD-1", "ZZ 600 100 02");
        body[*field] = value.clone();
        let (status, refused) = o.admin(Method::POST, "/api/admin/products", Some(body)).await;
        assert_refused(status, &refused, 400, *message, &format!("create with {field} {value}"));
        let (status, refused) = o.patch(&id, json!({ *field: value })).await;
        assert_refused(status, &refused, 400, *message, &format!("patch of {field} {value}"));
    }
    for quantity in [json!(-1), json!(100_001)] {
        let mut body = every_field("MQ-BAD-1", "ZZ 600 100 02");
        body["quantity"] = quantity.clone();
        let (status, refused) = o.admin(Method::POST, "/api/admin/products", Some(body)).await;
        assert_refused(status, &refused, 400, Message::ProductQuantityInvalid, &format!("opening stock {quantity}"));
    }
    // A creation without a field a product cannot be without names that field.
    for (missing, message) in [
        ("name", Message::ProductNameInvalid),
        ("price", Message::ProductPriceInvalid),
        ("subcategory_slug", Message::ProductPlacementUnknown),
        ("partNo", Message::PartNumberEmpty),
        ("sku", Message::ProductSkuInvalid),
    ] {
        let mut body = every_field("MQ-BAD-1", "ZZ 600 100 02");
        body.as_object_mut().expect("an object").remove(missing);
        let (status, refused) = o.admin(Method::POST, "/api/admin/products", Some(body)).await;
        assert_refused(status, &refused, 400, message, &format!("without {missing}"));
    }
    // Values of the wrong type, and bodies that are not JSON objects: the JSON error shape.
    for body in [json!({ "price": "a lot" }), json!({ "warrantyDays": 7.5 }), json!([1, 2]), json!({ "gst": 1e30 })] {
        let (status, refused) = o.admin(Method::POST, "/api/admin/products", Some(body.clone())).await;
        assert_eq!((status, code(&refused)), (400, Some("request.invalid")), "{body}: {refused}");
        let (status, refused) = o.patch(&id, body.clone()).await;
        assert_eq!((status, code(&refused)), (400, Some("request.invalid")), "{body}: {refused}");
    }
    // A body above the JSON limit (64 KiB) is refused before it is read.
    let mut huge = every_field("MQ-BAD-2", "ZZ 600 100 03");
    huge["description"] = json!(long(70 * 1024));
    let (status, refused) = o.admin(Method::POST, "/api/admin/products", Some(huge)).await;
    assert_eq!((status, refused["status"].as_str()), (413, Some("failed")), "{refused}");

    // A SKU is unique, in any case, across published and unpublished products.
    let (status, taken) = o.admin(Method::POST, "/api/admin/products", Some(every_field("mq-keep-1", "ZZ 1"))).await;
    assert_refused(status, &taken, 409, Message::ProductSkuTaken, "a SKU taken");
    let mut hidden = every_field("MQ-HIDDEN-1", "ZZ 600 100 04");
    hidden["published"] = json!(false);
    o.create(hidden).await;
    let (status, taken) = o.admin(Method::POST, "/api/admin/products", Some(every_field("MQ-HIDDEN-1", "ZZ 2"))).await;
    assert_refused(status, &taken, 409, Message::ProductSkuTaken, "an unpublished product's SKU");
    let (status, taken) = o.patch(&id, json!({ "sku": "mq-hidden-1" })).await;
    assert_refused(status, &taken, 409, Message::ProductSkuTaken, "a PATCH to a SKU taken");

    let (status, unchanged) = o.product(&id).await;
    assert_eq!((status, &unchanged), (200, &kept), "no refused PATCH wrote anything");
    let (_, bad) = o.admin(Method::GET, "/api/admin/products?q=MQ-BAD", None).await;
    assert_eq!(bad["total"], 0, "no refused creation wrote anything: {bad}");

    for (method, body) in [(Method::GET, None), (Method::PATCH, Some(json!({ "price": 10 })))] {
        let (status, missing) = o.admin(method.clone(), "/api/admin/products/p-no-such-product", body).await;
        assert_refused(status, &missing, 404, Message::AdminProductNotFound, &format!("{method} of an unknown id"));
    }
}

/// Pays for one unit of `product` through the sandbox as a new customer: (their token, their id).
async fn buy_one(shop: &TestShop, product: &str) -> (String, String) {
    let (token, user) = customer(shop, "unpublished.buyer@example.in", "9876500011").await;
    let address = helpers::payments::delhi_address(shop, &token, &user).await;
    let body = json!({ "products": [{ "_id": product, "quantity": 1 }], "address": { "_id": address["_id"] } });
    let (status, held) = helpers::payments::call(shop, Method::POST, "/api/razorpay/pay", &token, body).await;
    assert_eq!(status, 200, "{held}");
    let (status, placed) = helpers::payments::pay_in_sandbox(shop, &token, &held).await;
    assert_eq!(status, 200, "{placed}");
    (token, user)
}

/// The lines of the customer's newest order: (product id, name, quantity, price in rupees).
async fn newest_order_lines(shop: &TestShop, token: &str, user: &str) -> Vec<(String, String, u64, f64)> {
    let (status, history) = helpers::customers::get_auth(shop, &format!("/api/get/orderhistory/{user}"), token).await;
    assert_eq!(status, 200, "{history}");
    history["result"][0]["products"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|l| {
            (
                l["product_id"].as_str().expect("id").to_owned(),
                l["name"].as_str().expect("name").to_owned(),
                l["quantity"].as_u64().expect("quantity"),
                l["price"].as_f64().expect("price"),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_storefront_finds_a_new_product_by_every_number_and_loses_it_when_unpublished_while_its_order_stays() {
    let o = office().await;
    let mut body = every_field("MQ-SHOP-1", "ZX 123 456 78");
    body["alternateNumbers"] = json!(["ZA-987-65"]);
    body["supersededNumbers"] = json!(["ZS 11.22.33"]);
    body["quantity"] = json!(5);
    let created = o.create(body).await;
    let id = created["_id"].as_str().expect("id").to_owned();

    within(FOLLOWS, "the new product on the storefront", async || shopper_product(&o.shop, &id).await.0 == 200).await;
    let (_, shown) = shopper_product(&o.shop, &id).await;
    assert_eq!(
        (shown["data"]["name"].as_str(), shown["data"]["price"].as_f64()),
        (created["name"].as_str(), Some(1234.56))
    );
    assert_eq!(
        (shown["data"]["partNo"].as_str(), shown["data"]["quantity"].as_u64()),
        (Some("ZX 123 456 78"), Some(5))
    );
    for term in ["ZX 123 456 78", "zx12345678", "za98765", "ZA 987 65", "zs112233", "ZS-11-22-33"] {
        let hits = found(&o.shop, term).await;
        assert_eq!(hits.first(), Some(&id), "{term} finds the product first: {hits:?}");
    }

    // A customer buys one; then the part is renamed, repriced and unpublished.
    let (token, user) = buy_one(&o.shop, &id).await;
    let placed = vec![(id.clone(), created["name"].as_str().expect("name").to_owned(), 1, 1234.56)];
    assert_eq!(newest_order_lines(&o.shop, &token, &user).await, placed);
    let (status, _) = o.patch(&id, json!({ "name": "Feed Line (withdrawn)", "price": 2000 })).await;
    assert_eq!(status, 200);
    let (status, hidden) = o.patch(&id, json!({ "published": false })).await;
    assert_eq!((status, hidden["published"].as_bool()), (200, Some(false)), "{hidden}");

    within(FOLLOWS, "404 to shoppers", async || shopper_product(&o.shop, &id).await.0 == 404).await;
    let (_, gone) = shopper_product(&o.shop, &id).await;
    assert_eq!(gone["status"], "failed", "{gone}");
    assert!(!found(&o.shop, "ZX 123 456 78").await.contains(&id), "out of search");
    assert!(!found(&o.shop, "za98765").await.contains(&id), "out of search by its other numbers");
    let page = o.shop.get(&format!("/product?productId={id}")).await;
    assert_eq!(page.status().as_u16(), 404, "the product page is gone too");
    let (status, admin_view) = o.product(&id).await;
    assert_eq!(
        (status, admin_view["published"].as_bool(), admin_view["quantity"].as_u64()),
        (200, Some(false), Some(4))
    );
    let (_, listed) = o.admin(Method::GET, "/api/admin/products?q=MQ-SHOP-1", None).await;
    assert_eq!(listed["results"][0]["_id"], id.as_str(), "the back office still lists it: {listed}");

    // The order placed before keeps its line as sold; nobody can buy the unpublished part.
    assert_eq!(newest_order_lines(&o.shop, &token, &user).await, placed, "the line keeps its snapshot");
    let address = helpers::payments::delhi_address(&o.shop, &token, &user).await;
    let again = json!({ "products": [{ "_id": id, "quantity": 1 }], "address": { "_id": address["_id"] } });
    let (status, refused) = helpers::payments::call(&o.shop, Method::POST, "/api/razorpay/pay", &token, again).await;
    assert_eq!(
        (status, refused["message"].as_str()),
        (409, Some("please order products which are in stock")),
        "an unpublished part cannot be bought: {refused}"
    );

    // Published again, with its stock as it was.
    let (status, _) = o.patch(&id, json!({ "published": true })).await;
    assert_eq!(status, 200);
    within(FOLLOWS, "published again", async || shopper_product(&o.shop, &id).await.0 == 200).await;
    let (_, back) = shopper_product(&o.shop, &id).await;
    assert_eq!(
        (back["data"]["quantity"].as_u64(), back["data"]["name"].as_str()),
        (Some(4), Some("Feed Line (withdrawn)"))
    );

    let unpublished = o.audited(&format!("product:{id}"), "product.unpublish").await;
    assert_eq!(
        (&unpublished["before"], &unpublished["after"]),
        (&json!({ "published": true }), &json!({ "published": false }))
    );
    let published = o.audited(&format!("product:{id}"), "product.publish").await;
    assert_eq!(published["after"], json!({ "published": true }));
}

/// The storefront's category with `slug` (`/api/get/category`), if it lists one.
async fn shopper_category(shop: &TestShop, slug: &str) -> Option<Value> {
    let (status, body) = shop.get_json("/api/get/category").await;
    assert_eq!(status, 200, "{body}");
    body["data"].as_array().expect("data").iter().find(|c| c["slug"] == slug).cloned()
}

async fn shopper_brand(shop: &TestShop, slug: &str) -> Option<Value> {
    let (status, body) = shop.get_json("/api/get/brand/oem").await;
    assert_eq!(status, 200, "{body}");
    body["data"].as_array().expect("data").iter().find(|b| b["slug"] == slug).cloned()
}

fn slugs(list: &Value) -> Vec<String> {
    list.as_array().expect("a list").iter().map(|s| s["slug"].as_str().expect("slug").to_owned()).collect()
}

/// [`slugs`] in alphabetical order (the storefront and the store each keep an order of their own).
fn sorted_slugs(list: &Value) -> Vec<String> {
    let mut all = slugs(list);
    all.sort();
    all
}

#[tokio::test]
async fn categories_subcategories_and_brands_are_created_edited_kept_unique_and_followed_by_the_storefront() {
    let o = office().await;
    let (status, category) = o
        .admin(Method::POST, "/api/admin/categories", Some(json!({ "name": "Turbochargers", "slug": "turbochargers" })))
        .await;
    assert_eq!(status, 201, "{category}");
    let category_id = category["_id"].as_str().expect("the new _id").to_owned();
    assert_eq!((category["name"].as_str(), category["subcategories"].clone()), (Some("Turbochargers"), json!([])));

    let subs = format!("/api/admin/categories/{category_id}/subcategories");
    let (status, with_sub) =
        o.admin(Method::POST, &subs, Some(json!({ "name": "Turbo Units", "slug": "turbo-units" }))).await;
    assert_eq!((status, slugs(&with_sub["subcategories"])), (201, vec!["turbo-units".to_owned()]), "{with_sub}");
    assert!(with_sub["subcategories"][0]["_id"].as_str().is_some_and(|s| !s.is_empty()), "{with_sub}");
    // `others` is a subcategory like any other to the back office (the storefront hides it by its slug).
    let (status, with_others) = o.admin(Method::POST, &subs, Some(json!({ "name": "Others", "slug": "others" }))).await;
    assert_eq!(
        (status, slugs(&with_others["subcategories"])),
        (201, vec!["turbo-units".to_owned(), "others".to_owned()])
    );

    let (status, brand) = o
        .admin(
            Method::POST,
            "/api/admin/brands",
            Some(json!({ "name": "Maserati", "slug": "maserati", "logo": "/new-car-logo/maserati.png" })),
        )
        .await;
    assert_eq!((status, brand["logo"].as_str()), (201, Some("/new-car-logo/maserati.png")), "{brand}");
    let brand_id = brand["_id"].as_str().expect("the new _id").to_owned();

    // Slugs are unique: categories among categories, subcategories within their category, brands among brands.
    let taken = [
        ("/api/admin/categories".to_owned(), json!({ "name": "Brakes again", "slug": "brakes" })),
        ("/api/admin/categories".to_owned(), json!({ "name": "Turbo 2", "slug": "turbochargers" })),
        (subs.clone(), json!({ "name": "Turbo Units 2", "slug": "turbo-units" })),
        ("/api/admin/brands".to_owned(), json!({ "name": "BMW 2", "slug": "bmw", "logo": "/x.png" })),
    ];
    for (path, body) in taken {
        let (status, refused) = o.admin(Method::POST, &path, Some(body.clone())).await;
        assert_refused(status, &refused, 409, Message::CatalogSlugTaken, &format!("{path} {body}"));
    }
    let bad = [
        (
            "/api/admin/categories".to_owned(),
            json!({ "name": "Turbo", "slug": "Turbo Kits" }),
            Message::CatalogSlugInvalid,
        ),
        (
            "/api/admin/categories".to_owned(),
            json!({ "name": "Turbo", "slug": "a".repeat(61) }),
            Message::CatalogSlugInvalid,
        ),
        ("/api/admin/categories".to_owned(), json!({ "name": " ", "slug": "turbo" }), Message::CatalogNameInvalid),
        (
            "/api/admin/categories".to_owned(),
            json!({ "name": "n".repeat(101), "slug": "turbo" }),
            Message::CatalogNameInvalid,
        ),
        (subs.clone(), json!({ "name": "Wastegates", "slug": "waste--gates" }), Message::CatalogSlugInvalid),
        (
            "/api/admin/brands".to_owned(),
            json!({ "name": "Lada", "slug": "lada", "logo": "javascript:alert(1)" }),
            Message::BrandLogoInvalid,
        ),
        (
            "/api/admin/brands".to_owned(),
            json!({ "name": "Lada", "slug": "lada", "logo": "/../etc/passwd" }),
            Message::BrandLogoInvalid,
        ),
        (
            "/api/admin/brands".to_owned(),
            json!({ "name": "Lada", "slug": "lada", "logo": format!("https://{}", "a".repeat(300)) }),
            Message::BrandLogoInvalid,
        ),
    ];
    for (path, body, message) in bad {
        let (status, refused) = o.admin(Method::POST, &path, Some(body.clone())).await;
        assert_refused(status, &refused, 400, message, &format!("{path} {body}"));
    }
    for (method, path, body) in [
        (Method::POST, "/api/admin/categories/c-nope/subcategories", json!({ "name": "X", "slug": "x" })),
        (Method::PATCH, "/api/admin/categories/c-nope", json!({ "name": "X" })),
        (Method::PATCH, "/api/admin/brands/b-nope", json!({ "name": "X" })),
    ] {
        let (status, missing) = o.admin(method, path, Some(body)).await;
        assert_refused(status, &missing, 404, Message::CatalogRecordNotFound, path);
    }

    // A product placed in them; the storefront lists the category (with its `others` as stored), the brand, and both listings.
    let mut body = every_field("MQ-TURBO-1", "ZT 400 500 60");
    body["category_slug"] = json!("turbochargers");
    body["subcategory_slug"] = json!("turbo-units");
    body["oem_slug"] = json!("maserati");
    let product = o.create(body).await;
    let product_id = product["_id"].as_str().expect("id").to_owned();
    assert_eq!(
        (product["category"].as_str(), product["subcategory"].as_str(), product["oem"].as_str()),
        (Some("Turbochargers"), Some("Turbo Units"), Some("Maserati"))
    );
    within(FOLLOWS, "the new category and brand", async || {
        shopper_category(&o.shop, "turbochargers").await.is_some() && shopper_brand(&o.shop, "maserati").await.is_some()
    })
    .await;
    let shown = shopper_category(&o.shop, "turbochargers").await.expect("listed");
    assert_eq!((shown["_id"].as_str(), shown["name"].as_str()), (Some(category_id.as_str()), Some("Turbochargers")));
    assert_eq!(
        sorted_slugs(&shown["subcategory"]),
        ["others", "turbo-units"],
        "`others` keeps its slug, which the storefront hides"
    );
    let logo = shopper_brand(&o.shop, "maserati").await.expect("listed");
    assert_eq!((logo["name"].as_str(), logo["image"].as_str()), (Some("Maserati"), Some("/new-car-logo/maserati.png")));
    within(FOLLOWS, "the category listing", async || {
        let (status, listing) = o.shop.get_json("/api/get/product/turbochargers").await;
        status == 200 && listing["subcategory"][0]["products"][0]["_id"] == product_id.as_str()
    })
    .await;
    let (_, by_brand) = o.shop.get_json("/api/get/productByOem/maserati?page=1").await;
    assert_eq!(by_brand["results"][0]["_id"], product_id.as_str(), "{by_brand}");

    // Renamed, with new slugs: the admin's lists and the product follow, and so does the storefront.
    let (status, renamed) = o
        .admin(
            Method::PATCH,
            &format!("/api/admin/categories/{category_id}"),
            Some(json!({ "name": "Forced Induction", "slug": "forced-induction" })),
        )
        .await;
    assert_eq!(
        (status, renamed["slug"].as_str(), renamed["name"].as_str()),
        (200, Some("forced-induction"), Some("Forced Induction"))
    );
    assert_eq!(sorted_slugs(&renamed["subcategories"]), ["others", "turbo-units"], "its subcategories are kept");
    let (status, rebranded) = o
        .admin(
            Method::PATCH,
            &format!("/api/admin/brands/{brand_id}"),
            Some(json!({ "name": "Maserati S.p.A.", "slug": "maserati-spa" })),
        )
        .await;
    assert_eq!(
        (status, rebranded["logo"].as_str()),
        (200, Some("/new-car-logo/maserati.png")),
        "the logo is kept: {rebranded}"
    );
    let (_, moved) = o.product(&product_id).await;
    assert_eq!(
        (
            moved["category"].as_str(),
            moved["category_slug"].as_str(),
            moved["oem"].as_str(),
            moved["oem_slug"].as_str()
        ),
        (Some("Forced Induction"), Some("forced-induction"), Some("Maserati S.p.A."), Some("maserati-spa")),
        "{moved}"
    );
    within(FOLLOWS, "the renamed category and brand on the storefront", async || {
        let (status, product) = shopper_product(&o.shop, &product_id).await;
        status == 200
            && product["data"]["category_slug"] == "forced-induction"
            && product["data"]["oem"] == "Maserati S.p.A."
            && shopper_category(&o.shop, "turbochargers").await.is_none()
    })
    .await;
    let (status, listing) = o.shop.get_json("/api/get/product/forced-induction").await;
    assert_eq!((status, listing["category"]["name"].as_str()), (200, Some("Forced Induction")), "{listing}");
    for (path, body) in [
        (format!("/api/admin/categories/{category_id}"), json!({ "slug": "brakes" })),
        (format!("/api/admin/brands/{brand_id}"), json!({ "slug": "bmw" })),
    ] {
        let (status, refused) = o.admin(Method::PATCH, &path, Some(body)).await;
        assert_refused(status, &refused, 409, Message::CatalogSlugTaken, &path);
    }

    // The admin's lists page like every other.
    let (status, page) = o.admin(Method::GET, "/api/admin/categories?page=1&size=100", None).await;
    assert_eq!(status, 200, "{page}");
    assert!(slugs(&page["results"]).contains(&"forced-induction".to_owned()), "{page}");
    let categories = page["total"].as_u64().expect("total");
    let (_, small) = o.admin(Method::GET, "/api/admin/categories?page=2&size=5", None).await;
    let second_page = usize::try_from(categories.saturating_sub(5).min(5)).expect("small");
    assert_eq!(
        (small["pages"].as_u64(), small["total"].as_u64(), small["results"].as_array().map(Vec::len)),
        (Some(categories.div_ceil(5)), Some(categories), Some(second_page))
    );
    let (_, brands) = o.admin(Method::GET, "/api/admin/brands", None).await;
    assert!(slugs(&brands["results"]).contains(&"maserati-spa".to_owned()), "{brands}");
    for (path, expected) in [
        ("/api/admin/categories?size=101", Message::PageSizeInvalid),
        ("/api/admin/brands?page=0", Message::PageInvalid),
    ] {
        let (status, refused) = o.admin(Method::GET, path, None).await;
        assert_refused(status, &refused, 400, expected, path);
    }

    let created = o.audited(&format!("category:{category_id}"), "category.create").await;
    assert_eq!((created["before"].clone(), created["after"]["slug"].as_str()), (Value::Null, Some("turbochargers")));
    let updated = o.audited(&format!("category:{category_id}"), "category.update").await;
    assert_eq!(
        (updated["before"]["slug"].as_str(), updated["after"]["slug"].as_str()),
        (Some("turbochargers"), Some("forced-induction"))
    );
    let made = o.audited(&format!("brand:{brand_id}"), "brand.create").await;
    assert_eq!(made["after"]["name"], "Maserati", "{made}");
    let changed = o.audited(&format!("brand:{brand_id}"), "brand.update").await;
    assert_eq!(
        (changed["before"]["name"].as_str(), changed["after"]["name"].as_str()),
        (Some("Maserati"), Some("Maserati S.p.A."))
    );
    assert_eq!(changed["after"].get("image"), None, "only what changed: {changed}");
}

#[tokio::test]
async fn a_fulfilment_staff_member_a_customer_and_a_stranger_cannot_edit_the_catalog() {
    let o = office().await;
    let product = o.create(every_field("MQ-ROLE-1", "ZR 100 200 30")).await;
    let id = product["_id"].as_str().expect("id").to_owned();
    let fulfilment = staff_token(&o.app, &o.shop, StaffRole::Fulfilment).await;
    let (shopper, _) = customer(&o.shop, "curious.shopper@example.in", "9876500021").await;
    let writes = [
        (Method::POST, "/api/admin/products".to_owned(), every_field("MQ-ROLE-2", "ZR 100 200 31")),
        (Method::PATCH, format!("/api/admin/products/{id}"), json!({ "price": 1 })),
        (Method::POST, "/api/admin/categories".to_owned(), json!({ "name": "Role", "slug": "role" })),
        (Method::POST, "/api/admin/brands".to_owned(), json!({ "name": "Role", "slug": "role", "logo": "/r.png" })),
    ];
    for (method, path, body) in &writes {
        let (status, refused) = call(&o.shop, method.clone(), path, Some(&fulfilment), Some(body.clone())).await;
        assert_refused(status, &refused, 403, Message::StaffForbidden, &format!("fulfilment: {method} {path}"));
        for token in [Some(shopper.as_str()), None] {
            let (status, refused) = call(&o.shop, method.clone(), path, token, Some(body.clone())).await;
            assert_refused(status, &refused, 401, Message::StaffLoginRequired, &format!("{token:?}: {method} {path}"));
        }
    }
    let (status, unchanged) = o.product(&id).await;
    assert_eq!((status, unchanged), (200, product), "the price is as it was");
    let (_, none) = o.admin(Method::GET, "/api/admin/products?q=MQ-ROLE-2", None).await;
    assert_eq!(none["total"], 0, "nothing created: {none}");
    assert!(shopper_category(&o.shop, "role").await.is_none() && shopper_brand(&o.shop, "role").await.is_none());
}
