//! The published contract: what the server serves is what is committed.

use crate::helpers;

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

const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// Every operation of the document: (method, path, operation).
fn operations(doc: &serde_json::Value) -> Vec<(&str, &str, &serde_json::Value)> {
    let paths = doc["paths"].as_object().expect("paths");
    paths
        .iter()
        .flat_map(|(path, item)| METHODS.iter().filter_map(move |m| item.get(*m).map(|op| (*m, path.as_str(), op))))
        .collect()
}

/// A parameter of the operation or of its path item, resolving `$ref`s to `components.parameters`.
fn parameters<'d>(doc: &'d serde_json::Value, path: &str, op: &'d serde_json::Value) -> Vec<&'d serde_json::Value> {
    let item_params = doc["paths"][path]["parameters"].as_array().into_iter().flatten();
    let op_params = op["parameters"].as_array().into_iter().flatten();
    item_params
        .chain(op_params)
        .map(|p| match p["$ref"].as_str().and_then(|r| r.strip_prefix("#/components/parameters/")) {
            Some(name) => &doc["components"]["parameters"][name],
            None => p,
        })
        .collect()
}

/// What the document leaves out: one line per gap.
fn problems(doc: &serde_json::Value) -> Vec<String> {
    let ops = operations(doc);
    let mut ids = std::collections::BTreeSet::new();
    let mut problems = Vec::new();
    for (method, path, op) in &ops {
        let name = format!("{} {path}", method.to_uppercase());
        match op["operationId"].as_str() {
            Some(id) if !id.is_empty() => {
                if !ids.insert(id.to_owned()) {
                    problems.push(format!("{name}: operationId `{id}` is used twice"));
                }
            }
            _ => problems.push(format!("{name}: no operationId")),
        }
        if !op["tags"].as_array().is_some_and(|t| t.iter().any(|t| t.as_str().is_some_and(|t| !t.is_empty()))) {
            problems.push(format!("{name}: no tag"));
        }
        let responses = op["responses"].as_object().cloned().unwrap_or_default();
        // A redirect a browser follows (the Google sign-in) is the call's success, with no body.
        if !responses.keys().any(|code| code.starts_with('2') || code.starts_with('3')) {
            problems.push(format!("{name}: no 2xx response"));
        }
        for (code, response) in &responses {
            if code.starts_with('3') {
                let headers = response["headers"].as_object().cloned().unwrap_or_default();
                if !headers.keys().any(|h| h.eq_ignore_ascii_case("location")) {
                    problems.push(format!("{name}: the {code} response names no Location"));
                }
                continue;
            }
            let json_schema = response["content"]["application/json"]["schema"].is_object();
            if !code.starts_with('2') && !json_schema {
                problems.push(format!("{name}: the {code} response has no JSON body schema"));
            }
        }
        let params: Vec<String> = parameters(doc, path, op)
            .into_iter()
            .filter(|p| matches!(p["in"].as_str(), Some("query" | "path")))
            .filter_map(|p| p["name"].as_str().map(str::to_owned))
            .collect();
        if !params.is_empty() && !responses.contains_key("400") {
            problems.push(format!("{name}: takes {} but documents no 400 response", params.join(", ")));
        }
    }
    problems
}

#[tokio::test]
async fn every_operation_is_documented_completely() {
    let shop = spawn_shop().await;
    let (_, doc) = shop.get_json("/api/openapi.json").await;
    let count = operations(&doc).len();
    assert!(count >= 9, "the document lists the API's operations ({count} found)");
    let problems = problems(&doc);
    assert!(problems.is_empty(), "the published API document is incomplete:\n  {}", problems.join("\n  "));
}

#[test]
fn the_completeness_check_finds_each_gap() {
    let json = serde_json::json!({ "application/json": { "schema": { "type": "object" } } });
    let doc = serde_json::json!({
        "paths": {
            "/a/{id}": { "get": {
                "operationId": "same", "tags": ["A"],
                "parameters": [{ "name": "id", "in": "path" }],
                "responses": { "200": { "content": json }, "404": { "description": "plain" } }
            } },
            "/b": { "post": { "operationId": "same", "responses": { "400": { "content": json } } } },
            "/c": { "get": { "operationId": "c", "tags": ["A"], "responses": { "302": { "description": "somewhere" } } } },
            "/d": { "get": {
                "operationId": "d", "tags": ["A"],
                "responses": { "302": { "description": "away", "headers": { "LOCATION": { "schema": { "type": "string" } } } } }
            } }
        }
    });
    let found = problems(&doc);
    for expected in [
        "GET /a/{id}: the 404 response has no JSON body schema",
        "GET /a/{id}: takes id but documents no 400 response",
        "POST /b: operationId `same` is used twice",
        "POST /b: no tag",
        "POST /b: no 2xx response",
        "GET /c: the 302 response names no Location",
    ] {
        assert!(found.iter().any(|p| p == expected), "{expected} in {found:?}");
    }
    assert_eq!(found.len(), 6, "{found:?}");
}

#[tokio::test]
async fn the_viewer_is_served() {
    let shop = spawn_shop().await;
    let viewer = shop.get("/api/docs").await;
    assert_eq!(viewer.status(), 200);
    assert!(viewer.text().await.expect("html").to_lowercase().contains("swagger"));
}
