//! THE LIST WALK: every admin list in the served API document (an operation under `/api/admin/`
//! with a `page` query parameter) also takes `size`, answers `{results, pages, total}`, and
//! answers each fault of `?page=&size=` with the one code and text of the domain's list rule
//! (`marque_domain::paging`), whether the value parses and breaks the rule or does not parse at
//! all. It reads the document, so a new list cannot keep a rule of its own.

use marque_domain::staff::StaffRole;
use marque_domain::Message;
use reqwest::Method;
use serde_json::Value;

use crate::helpers::customers::read;
use crate::helpers::spawn_app_with;
use crate::helpers::staff::staff_token;

/// The admin lists there are today: the walk must find at least these.
const KNOWN: [&str; 9] = [
    "adminProducts",
    "adminCategories",
    "adminBrands",
    "adminSearchCustomers",
    "adminCustomerOrders",
    "adminAudit",
    "adminListStaff",
    "adminStockHistory",
    "adminLowStock",
];

/// `(operationId, path with its parameters filled in)` of every admin GET that takes `page`.
fn lists(doc: &Value, product: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        let Some(op) = item.get("get").filter(|_| path.starts_with("/api/admin/")) else { continue };
        let params: Vec<&str> = op["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|p| p["in"] == "query")
            .filter_map(|p| p["name"].as_str())
            .collect();
        if !params.contains(&"page") {
            continue;
        }
        let id = op["operationId"].as_str().expect("an operationId").to_owned();
        assert!(params.contains(&"size"), "{id} takes `page` and so `size` too: {params:?}");
        let filled: Vec<&str> =
            path.split('/').map(|segment| if segment.starts_with('{') { product } else { segment }).collect();
        found.push((id, filled.join("/")));
    }
    found
}

#[tokio::test]
async fn every_admin_list_keeps_the_one_page_and_size_rule() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    let (status, doc) = shop.get_json("/api/openapi.json").await;
    assert_eq!(status, 200);
    let (status, products) = shop.get_json("/api/get/productBySearch?search=&page=1").await;
    assert_eq!(status, 200, "{products}");
    let product = products["results"][0]["_id"].as_str().expect("a demo product").to_owned();
    let lists = lists(&doc, &product);
    for id in KNOWN {
        assert!(lists.iter().any(|(found, _)| found == id), "{id} is walked: {lists:?}");
    }

    let get = |path: String| {
        let request = shop.client.request(Method::GET, format!("{}{path}", shop.base)).bearer_auth(&owner);
        async move { read(request.send().await.expect("the server answers")).await }
    };
    let page_fault = (Message::PageInvalid.code(), Message::PageInvalid.text());
    let size_fault = (Message::PageSizeInvalid.code(), Message::PageSizeInvalid.text());
    let faults = [
        ("page=0", page_fault),
        ("page=100001", page_fault),
        ("page=4294967296", page_fault),
        ("page=99999999999999999999999", page_fault),
        ("page=two", page_fault),
        ("page=0&size=0", page_fault),
        ("size=0", size_fault),
        ("size=101", size_fault),
        ("page=1&size=4294967296", size_fault),
        ("size=99999999999999999999999", size_fault),
        ("size=ten", size_fault),
    ];
    let mut answered = 0;
    for (id, path) in &lists {
        for (query, (code, text)) in faults {
            let (status, body) = get(format!("{path}?{query}")).await;
            assert_eq!(status, 400, "{id} ?{query}: {body}");
            assert_eq!((body["code"].as_str(), body["message"].as_str()), (Some(code), Some(text)), "{id} ?{query}");
        }
        let (status, body) = get(format!("{path}?page=1&size=100")).await;
        if status == 404 {
            continue; // A customer's orders: the walk's id is nobody's (the window was checked first).
        }
        assert_eq!(status, 200, "{id} at the rule's edge: {body}");
        let total = body["total"].as_u64().expect("total");
        let results = body["results"].as_array().expect("results").len() as u64;
        assert_eq!(body["pages"].as_u64(), Some(total.div_ceil(100)), "{id}: {body}");
        assert_eq!(results, total.min(100), "{id}: the first page holds what it can");
        answered += 1;
    }
    assert!(answered >= KNOWN.len() - 1, "every list but a stranger's orders answered a page");
}
