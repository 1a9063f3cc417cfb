//! Black-box tests of the orders API: customers log in through the development outbox, orders are
//! placed in the shop's own database through its order store (as the checkout places them), and
//! the history and invoices are read over HTTP.

use crate::helpers;

use helpers::customers::{customer, get_auth, read};
use helpers::{spawn_app_with, TestShop};
use marque_contract_tests::fixtures::product;
use marque_domain::address::{Address, AddressInput};
use marque_domain::cart::Quantity;
use marque_domain::catalog::ProductId;
use marque_domain::order::{stored_order_totals, OrderLine};
use marque_domain::pricing::DiscountPercent;
use marque_domain::Money;
use marque_ports::{
    AccountStore, AddressStore, CatalogStore, OrderDraft, OrderStore, PaymentId, PaymentOrderId, PlacedOrder,
    Reservation, UserId, WishlistStore,
};
use marque_server::App;
use serde_json::Value;

/// 2026-06-01 12:00 IST, in financial year 2026-27.
const JUNE_2026: i64 = 1_780_295_400;
const DAY: i64 = 86_400;

/// A product line: id, name, unit price in paise, quantity, GST percent.
type Line = (&'static str, &'static str, i64, u32, u8);

const BRAKE_PADS: Line = ("ord-p1", "Brake Pad Set – Front (BMW 3 Series)", 1_249_950, 2, 18);
const TAIL_LAMP: Line = ("ord-p2", "LED Tail Lamp Assembly, Left, Mercedes-Benz W213 E-Class", 1_899_000, 1, 28);
const OIL_FILTER: Line = ("ord-p3", "Oil Filter", 125_025, 3, 18);

fn address(state: &str) -> Address {
    let (city, pincode) = if state == "Delhi" { ("New Delhi", "110001") } else { ("Mumbai", "400001") };
    Address::parse(&AddressInput {
        house_no: "B-12".into(),
        street: "Ring Road".into(),
        landmark: "Near Metro Gate 2".into(),
        city: city.into(),
        state: state.into(),
        mobile_no: "9810012345".into(),
        pincode: pincode.into(),
        gstin: String::new(),
    })
    .expect("a valid address")
}

/// An order to place: `lines` for `user`, delivered to `state`, paid at `at`.
struct Sale<'a> {
    key: &'a str,
    user: &'a str,
    state: &'a str,
    lines: &'a [Line],
    discount: u8,
    delivery_rupees: i64,
    at: i64,
}

/// Reserves and places the sale's order, as the checkout does once the payment is confirmed.
async fn place(app: &App, sale: Sale<'_>) -> PlacedOrder {
    let Sale { key, user, state, lines, discount, delivery_rupees, at } = sale;
    let catalog = app.database().catalog();
    let stocked: Vec<_> = lines
        .iter()
        .map(|&(id, name, paise, _, _)| product(id).name(name).price(Money::from_paise(paise)).quantity(50).build())
        .collect();
    for p in &stocked {
        if catalog.product(&p.id).await.expect("the catalog reads").is_none() {
            catalog.add_products(std::slice::from_ref(p)).await.expect("products added");
        }
    }
    let lines: Vec<OrderLine> = lines
        .iter()
        .map(|&(id, name, paise, quantity, gst)| OrderLine {
            product_id: ProductId(id.into()),
            name: name.into(),
            quantity: Quantity::new(quantity).expect("≥ 1"),
            price: Money::from_paise(paise),
            gst,
            hsn: None,
            margin_scheme: None,
            warranty_days: None,
        })
        .collect();
    let discount = DiscountPercent::new(u32::from(discount)).expect("a percent");
    let delivery = Money::from_rupees(delivery_rupees);
    let totals = stored_order_totals(&lines, discount, delivery);
    let orders = app.database().orders();
    let payment_order = PaymentOrderId(format!("order_{key}"));
    let reservation = Reservation {
        payment_order: payment_order.clone(),
        draft: OrderDraft {
            user: UserId(user.into()),
            user_name: "Asha Rao".into(),
            lines,
            address: address(state),
            discount,
            discount_amount: totals.discount,
            delivery_charge: delivery,
            total: totals.total,
            store_credit: marque_domain::Money::ZERO,
        },
        created_at: at - 60,
        expires_at: at + 900,
    };
    orders.reserve(&reservation).await.expect("stock reserved");
    orders.place(&payment_order, &PaymentId(format!("pay_{key}")), at).await.expect("placed").into_order()
}

/// Two customers: Asha with an order to Delhi and a newer one to Maharashtra, Ravi with one.
struct Seeded {
    shop: TestShop,
    app: App,
    asha: (String, String),
    ravi: (String, String),
    delhi: PlacedOrder,
    maharashtra: PlacedOrder,
    ravis: PlacedOrder,
}

async fn shop_with_orders() -> Seeded {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let asha = customer(&shop, "asha@example.in", "9876500001").await;
    let ravi = customer(&shop, "ravi@example.in", "9876500002").await;
    let sale = |key, user, state, lines, discount, delivery_rupees, at| Sale {
        key,
        user,
        state,
        lines,
        discount,
        delivery_rupees,
        at,
    };
    let delhi = place(&app, sale("a1", &asha.1, "Delhi", &[BRAKE_PADS], 0, 236, JUNE_2026)).await;
    let maharashtra =
        place(&app, sale("a2", &asha.1, "Maharashtra", &[TAIL_LAMP, OIL_FILTER], 10, 354, JUNE_2026 + DAY)).await;
    let ravis = place(&app, sale("r1", &ravi.1, "Delhi", &[OIL_FILTER], 0, 118, JUNE_2026 + 2 * DAY)).await;
    Seeded { shop, app, asha, ravi, delhi, maharashtra, ravis }
}

async fn get_pdf(shop: &TestShop, path: &str, token: &str) -> reqwest::Response {
    shop.client.get(format!("{}{path}", shop.base)).bearer_auth(token).send().await.expect("the server answers")
}

fn text_of(pdf: &[u8]) -> String {
    pdf_extract::extract_text_from_mem(pdf).expect("the PDF's text reads back").split_whitespace().collect()
}

#[tokio::test]
async fn the_history_lists_the_customers_orders_newest_first_as_sold() {
    let s = shop_with_orders().await;
    let (token, id) = &s.asha;
    let (status, body) = get_auth(&s.shop, &format!("/api/get/orderhistory/{id}"), token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["status"].as_str(), body["page"].as_u64(), body["pages"].as_u64()),
        (Some("success"), Some(1), Some(1))
    );
    let orders = body["result"].as_array().expect("a list");
    let ids: Vec<&str> = orders.iter().filter_map(|o| o["_id"].as_str()).collect();
    assert_eq!(ids, [s.maharashtra.id.0.as_str(), s.delhi.id.0.as_str()], "newest first, only Asha's");

    let newest = &orders[0];
    assert_eq!(newest["orderNumber"], s.maharashtra.order_number.as_str());
    assert_eq!(newest["invoiceNumber"], s.maharashtra.invoice_number.to_string().as_str());
    assert!(newest["invoiceNumber"].as_str().is_some_and(|n| n.starts_with("MQ/26-27/")), "{newest}");
    assert_eq!(newest["createdAt"], "2026-06-02T06:30:00.000Z");
    let products: Vec<(&str, &str, u64, f64, u64)> = newest["products"]
        .as_array()
        .expect("products")
        .iter()
        .map(|p| {
            (
                p["product_id"].as_str().expect("id"),
                p["name"].as_str().expect("name"),
                p["quantity"].as_u64().expect("quantity"),
                p["price"].as_f64().expect("price"),
                p["gst"].as_u64().expect("gst"),
            )
        })
        .collect();
    assert_eq!(products, [("ord-p2", TAIL_LAMP.1, 1, 18_990.0, 28), ("ord-p3", "Oil Filter", 3, 1_250.25, 18)]);
    // ₹22,740.75 of items, 10% off in whole rupees (₹2,274), ₹354 delivery.
    let money = |k: &str| newest[k].as_f64();
    assert_eq!(
        (newest["discount"].as_u64(), money("discountAmount"), money("deliveryCharge"), money("total")),
        (Some(10), Some(2_274.0), Some(354.0), Some(20_820.75))
    );
    assert_eq!((newest["courier"].as_str(), newest["awb"].as_str()), (Some(""), Some("")));
    assert!(newest["trackingUrl"].is_null(), "no tracking link before shipping: {newest}");
    assert_eq!((newest["order_status"].as_u64(), newest["order_status_string"].as_str()), (Some(1), Some("placed")));
    assert_eq!(newest["user_name"], "Asha Rao");
    let address = &newest["address"];
    for (field, value) in [
        ("houseNo", "B-12"),
        ("street", "Ring Road"),
        ("landmark", "Near Metro Gate 2"),
        ("city", "Mumbai"),
        ("state", "Maharashtra"),
        ("pincode", "400001"),
        ("mobileNo", "9810012345"),
    ] {
        assert_eq!(address[field], value, "{field}: {address}");
    }
    assert_eq!(orders[1]["total"].as_f64(), Some(25_235.0), "₹12,499.50 × 2 + ₹236");

    let (status, body) = get_auth(&s.shop, &format!("/api/get/orderhistory/{id}?page=2"), token).await;
    assert_eq!((status, body["result"].as_array().map(Vec::len), body["pages"].as_u64()), (200, Some(0), Some(1)));
    let (status, body) = get_auth(&s.shop, &format!("/api/get/orderhistory/{id}?page=0"), token).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("page.invalid")));
}

#[tokio::test]
async fn a_customer_without_orders_has_an_empty_history_and_no_pages() {
    let (shop, _app) = spawn_app_with(|_| {}).await;
    let (token, id) = customer(&shop, "new@example.in", "9876500003").await;
    let (status, body) = get_auth(&shop, &format!("/api/get/orderhistory/{id}"), &token).await;
    assert_eq!((status, body["result"].as_array().map(Vec::len), body["pages"].as_u64()), (200, Some(0), Some(0)));
}

#[tokio::test]
async fn another_customers_history_and_invoice_are_forbidden_and_a_session_is_required() {
    let s = shop_with_orders().await;
    let (token, _) = &s.asha;
    let (status, body) = get_auth(&s.shop, &format!("/api/get/orderhistory/{}", s.ravi.1), token).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("account.forbidden")));
    let (status, body) = read(get_pdf(&s.shop, &format!("/api/get/invoice/{}", s.ravis.id.0), token).await).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("account.forbidden")));
    let (status, body) = read(get_pdf(&s.shop, "/api/get/invoice/no-such-order", token).await).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("order.not_found")));

    for path in [format!("/api/get/orderhistory/{}", s.asha.1), format!("/api/get/invoice/{}", s.delhi.id.0)] {
        let (status, body) = read(s.shop.get(&path).await).await;
        assert_eq!((status, body["code"].as_str()), (401, Some("account.login_required")), "{path}");
    }
}

#[tokio::test]
async fn the_invoice_is_a_pdf_of_the_order_with_the_tax_split_by_the_place_of_supply() {
    let s = shop_with_orders().await;
    let (token, _) = &s.asha;
    let resp = get_pdf(&s.shop, &format!("/api/get/invoice/{}", s.delhi.id.0), token).await;
    assert_eq!(resp.status().as_u16(), 200);
    let header = |name: &str| resp.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    assert_eq!(header("content-type"), "application/pdf");
    assert_eq!(header("content-disposition"), "inline; filename=\"invoice.pdf\"");
    let delhi_pdf = resp.bytes().await.expect("the PDF").to_vec();
    assert!(delhi_pdf.starts_with(b"%PDF-"));
    let text = text_of(&delhi_pdf);
    for wanted in [
        "TaxInvoice",
        &s.delhi.invoice_number.to_string(),
        "CGST",
        "SGST",
        "25,235.00",
        "MarquePartsPrivateLimited",
        "AshaRao",
    ] {
        assert!(text.contains(wanted), "{wanted} in {text}");
    }
    assert!(!text.contains("IGST"), "{text}");

    let again =
        get_pdf(&s.shop, &format!("/api/get/invoice/{}", s.delhi.id.0), token).await.bytes().await.expect("the PDF");
    assert_eq!(delhi_pdf, again.to_vec(), "the same order, the same bytes");

    let other = get_pdf(&s.shop, &format!("/api/get/invoice/{}", s.maharashtra.id.0), token).await;
    assert_eq!(other.status().as_u16(), 200);
    let text = text_of(&other.bytes().await.expect("the PDF"));
    for wanted in ["TaxInvoice", &s.maharashtra.invoice_number.to_string(), "IGST", "Maharashtra(27)", "20,820.75"] {
        assert!(text.contains(wanted), "{wanted} in {text}");
    }
    assert!(!text.contains("CGST") && !text.contains("SGST"), "{text}");
}

#[tokio::test]
async fn the_order_confirmation_emails_the_invoice_and_texts_the_mobile() {
    let s = shop_with_orders().await;
    s.app.services.orders.order_placed(&s.delhi).await;
    let (status, outbox) = s.shop.get_json("/api/dev/outbox").await;
    assert_eq!(status, 200);
    let messages = outbox.as_array().expect("a list");
    let to = |recipient: &str| -> &Value {
        messages
            .iter()
            .find(|m| m["recipient"] == recipient)
            .unwrap_or_else(|| panic!("nothing to {recipient}: {outbox}"))
    };
    let email = to("asha@example.in");
    assert!(email["subject"].as_str().is_some_and(|t| t.contains("Order Confirmed")), "{email}");
    let text = email["text"].as_str().expect("text");
    for wanted in [s.delhi.order_number.as_str(), BRAKE_PADS.1, "₹25,235.00"] {
        assert!(text.contains(wanted), "{wanted} in {text}");
    }
    assert_eq!(email["attachments"], serde_json::json!(["invoice.pdf"]));
    let sms = to("9876500001");
    assert!(sms["text"].as_str().is_some_and(|t| t.contains(&s.delhi.order_number)), "{sms}");
}

/// `method path` asked with `token`, or with no `Authorization` at all.
async fn privacy_call(shop: &TestShop, method: reqwest::Method, path: &str, token: Option<&str>) -> (u16, Value) {
    let mut request = shop.client.request(method, format!("{}{path}", shop.base));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    read(request.send().await.expect("the server answers")).await
}

#[tokio::test]
async fn a_customer_downloads_their_data_and_no_one_else_can() {
    use helpers::customers::authed;
    let s = shop_with_orders().await;
    let (token, id) = (&s.asha.0, &s.asha.1);
    let address = serde_json::json!({
        "houseNo": "B-12", "street": "Ring Road", "landmark": "", "city": "New Delhi", "state": "Delhi",
        "mobileNo": "9810012345", "pincode": "110001", "gstin": ""
    });
    let resp = authed(&s.shop, reqwest::Method::PATCH, &format!("/api/add/address/{id}"), token)
        .await
        .json(&address)
        .send()
        .await;
    assert_eq!(resp.expect("answers").status().as_u16(), 200);
    let resp = authed(&s.shop, reqwest::Method::POST, "/api/add/wishlist", token)
        .await
        .json(&serde_json::json!({ "_id": "ord-p2" }))
        .send()
        .await;
    assert_eq!(resp.expect("answers").status().as_u16(), 200);

    let path = format!("/api/user/{id}/export");
    let (status, data) = privacy_call(&s.shop, reqwest::Method::GET, &path, Some(token)).await;
    assert_eq!(status, 200, "{data}");
    assert_eq!(
        (data["profile"]["_id"].as_str(), data["profile"]["email"].as_str()),
        (Some(id.as_str()), Some("asha@example.in"))
    );
    assert_eq!(data["profile"]["mobile"], "9876500001");
    assert_eq!(data["addresses"].as_array().map(Vec::len), Some(1), "{data}");
    assert_eq!(data["addresses"][0]["houseNo"], "B-12");
    assert_eq!(data["wishlist"], serde_json::json!(["ord-p2"]));
    let orders: Vec<&str> =
        data["orders"].as_array().expect("orders").iter().filter_map(|o| o["_id"].as_str()).collect();
    assert_eq!(orders, [s.maharashtra.id.0.as_str(), s.delhi.id.0.as_str()], "every order, newest first");
    assert!(
        !data.to_string().contains("ravi@example.in") && !data.to_string().contains(&s.ravis.id.0),
        "only Asha's: {data}"
    );

    let (status, body) = privacy_call(&s.shop, reqwest::Method::GET, &path, Some(&s.ravi.0)).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("account.forbidden")), "{body}");
    let (status, body) = privacy_call(&s.shop, reqwest::Method::GET, &path, None).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("account.login_required")), "{body}");
}

#[tokio::test]
async fn deleting_an_account_ends_its_sessions_and_erases_it_but_keeps_its_orders() {
    use helpers::customers::{authed, code_for, form, post, register};
    let s = shop_with_orders().await;
    let (token, id) = (&s.asha.0, &s.asha.1);
    let address = serde_json::json!({
        "houseNo": "B-12", "street": "Ring Road", "landmark": "", "city": "New Delhi", "state": "Delhi",
        "mobileNo": "9810012345", "pincode": "110001", "gstin": ""
    });
    let resp = authed(&s.shop, reqwest::Method::PATCH, &format!("/api/add/address/{id}"), token)
        .await
        .json(&address)
        .send()
        .await;
    assert_eq!(resp.expect("answers").status().as_u16(), 200);
    let resp = authed(&s.shop, reqwest::Method::POST, "/api/add/wishlist", token)
        .await
        .json(&serde_json::json!({ "_id": "ord-p1" }))
        .send()
        .await;
    assert_eq!(resp.expect("answers").status().as_u16(), 200);
    // A second session of Asha's (another device).
    let (status, other_device) = post(
        &s.shop,
        "/api/login",
        serde_json::json!({ "email": "asha@example.in", "password": helpers::customers::PASSWORD }),
    )
    .await;
    assert_eq!(status, 200, "{other_device}");
    let other_device = other_device["token"].as_str().expect("a session").to_owned();

    let path = format!("/api/user/{id}");
    let (status, body) = privacy_call(&s.shop, reqwest::Method::DELETE, &path, Some(&s.ravi.0)).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("account.forbidden")), "another customer cannot: {body}");
    let (status, body) = privacy_call(&s.shop, reqwest::Method::DELETE, &path, None).await;
    assert_eq!(status, 401, "{body}");
    let (status, body) = privacy_call(&s.shop, reqwest::Method::DELETE, &path, Some(token)).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("success")), "{body}");

    for session in [token.as_str(), other_device.as_str()] {
        let (status, _) = get_auth(&s.shop, "/api/user", session).await;
        assert_eq!(status, 401, "every session ended");
    }
    let (status, body) = post(
        &s.shop,
        "/api/login",
        serde_json::json!({ "email": "asha@example.in", "password": helpers::customers::PASSWORD }),
    )
    .await;
    assert_eq!(status, 401, "the password opens nothing: {body}");
    let user = UserId(id.clone());
    assert_eq!(s.app.database().accounts().user(&user).await, Ok(None), "the account and its contact details are gone");
    assert_eq!(s.app.database().addresses().addresses(&user).await, Ok(vec![]), "addresses erased");
    assert_eq!(s.app.database().wishlist().wishlist(&user).await, Ok(vec![]), "wishlist erased");

    // Orders and invoices stay for GST records, with the name and address as printed on them.
    let kept = s.app.database().orders().orders_of(&user).await.expect("the orders read");
    assert_eq!(kept.len(), 2);
    assert!(
        kept.iter().all(|o| o.draft.user_name == "Asha Rao" && o.draft.address == address_of(&s, &o.id)),
        "{kept:?}"
    );
    // Ravi is untouched; Asha's email and mobile may sign up again.
    let (status, _) = get_auth(&s.shop, &format!("/api/get/orderhistory/{}", s.ravi.1), &s.ravi.0).await;
    assert_eq!(status, 200);
    let (status, body) = register(&s.shop, form("Asha", "asha@example.in", "9876500001")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(code_for(&s.shop, "9876500001").await.len(), 6);
}

/// The address an order was placed with, as placed.
fn address_of(s: &Seeded, order: &marque_ports::OrderId) -> Address {
    [&s.delhi, &s.maharashtra]
        .into_iter()
        .find(|o| o.id == *order)
        .map(|o| o.draft.address.clone())
        .expect("one of Asha's orders")
}
