//! The published contract: what the server serves is what is committed.

mod helpers;

use helpers::{repo_root, spawn_shop};

#[tokio::test]
async fn the_committed_openapi_document_is_what_the_server_publishes() {
    let shop = spawn_shop().await;
    let (status, served) = shop.get_json("/api/openapi.json").await;
    assert_eq!(status, 200);
    let path = repo_root().join("contract/openapi.json");
    let committed = std::fs::read_to_string(&path).expect("contract/openapi.json is committed");
    let committed: serde_json::Value = serde_json::from_str(&committed).expect("valid JSON");
    assert!(
        served == committed,
        "contract/openapi.json differs from what the server publishes; regenerate it with `make contract`"
    );
}

#[tokio::test]
async fn every_operation_has_an_id_and_the_viewer_is_served() {
    let shop = spawn_shop().await;
    let (_, doc) = shop.get_json("/api/openapi.json").await;
    let paths = doc["paths"].as_object().expect("paths");
    for path in [
        "/api/get/category", "/api/get/brand/oem", "/api/get/new-products", "/api/get/suggestion",
        "/api/get/productById/{id}", "/api/get/productBySearch", "/api/get/productByOem/{brandSlug}",
    ] {
        let op = &paths.get(path).unwrap_or_else(|| panic!("{path} is published"))["get"];
        assert!(op["operationId"].is_string(), "{path} has an operation id");
    }
    let viewer = shop.get("/api/docs").await;
    assert_eq!(viewer.status(), 200);
    assert!(viewer.text().await.expect("html").to_lowercase().contains("swagger"));
}
