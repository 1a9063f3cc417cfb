//! THE ROLE WALK: every operation under `/api/admin/` in the served API document (set-up and
//! login aside) answers 401 JSON without a token and with a customer's token, and 403 JSON for a
//! staff session of every role its security scheme's description does not name (`Roles: …`),
//! even with a malformed body: the role check comes before the body is looked at. A new admin
//! operation cannot forget its scheme, because this walk reads the document, not a list.

use marque_api::admin::auth::roles_in_description;
use marque_domain::staff::StaffRole;
use reqwest::Method;
use serde_json::Value;

use crate::helpers::customers::{customer, read};
use crate::helpers::spawn_app_with;
use crate::helpers::staff::staff_token;
use crate::helpers::TestShop;

/// The operations a stranger may call: the set-up link and the sign-in.
const PUBLIC: [&str; 2] = ["adminSetup", "adminLogin"];

/// One admin operation of the document.
#[derive(Debug)]
struct Operation {
    method: Method,
    /// The path with every `{parameter}` filled in.
    path: String,
    id: String,
    has_body: bool,
    /// The roles its staff scheme's description names.
    roles: Vec<String>,
}

fn operations(doc: &Value) -> Vec<Operation> {
    let schemes = &doc["components"]["securitySchemes"];
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        if !path.starts_with("/api/admin/") {
            continue;
        }
        for (method, op) in item.as_object().expect("a path item") {
            let Ok(method) = method.to_uppercase().parse::<Method>() else { continue };
            let id = op["operationId"].as_str().unwrap_or_default().to_owned();
            if PUBLIC.contains(&id.as_str()) {
                continue;
            }
            let staff_schemes: Vec<&str> = op["security"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|r| r.as_object())
                .flat_map(|r| r.keys())
                .map(String::as_str)
                .filter(|k| k.starts_with("staff"))
                .collect();
            assert_eq!(
                staff_schemes.len(),
                1,
                "{method} {path} ({id}) needs exactly one staff scheme: {staff_schemes:?}"
            );
            let description = schemes[staff_schemes[0]]["description"].as_str().expect("the scheme's description");
            let roles = roles_in_description(description);
            assert!(!roles.is_empty(), "{}'s description names its roles: {description}", staff_schemes[0]);
            let filled: Vec<String> = path
                .split('/')
                .map(|segment| if segment.starts_with('{') { "walk1".to_owned() } else { segment.to_owned() })
                .collect();
            found.push(Operation {
                method,
                path: filled.join("/"),
                id,
                has_body: op.get("requestBody").is_some(),
                roles,
            });
        }
    }
    found
}

/// Calls `op` with `token` (and, when it takes a body, a malformed one): the status and the JSON.
async fn call(shop: &TestShop, op: &Operation, token: Option<&str>) -> (u16, Value) {
    let mut request = shop.client.request(op.method.clone(), format!("{}{}", shop.base, op.path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if op.has_body {
        request = request.header("content-type", "application/json").body("{ not json");
    }
    read(request.send().await.expect("the server answers")).await
}

#[tokio::test]
async fn every_admin_operation_refuses_strangers_customers_and_the_wrong_roles_before_its_body() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let (status, doc) = shop.get_json("/api/openapi.json").await;
    assert_eq!(status, 200);
    let operations = operations(&doc);
    for id in ["adminMe", "adminLogout", "adminListStaff", "adminInviteStaff", "adminRemoveStaff"] {
        assert!(operations.iter().any(|op| op.id == id), "{id} is walked");
    }
    let (customer_token, _) = customer(&shop, "walker@marque.test", "9876500001").await;
    let mut staff = Vec::new();
    for role in StaffRole::ALL {
        staff.push((role, staff_token(&app, &shop, role).await));
    }
    let mut refusals = 0;
    for op in &operations {
        for (who, token) in [("no token", None), ("a customer's token", Some(customer_token.as_str()))] {
            let (status, body) = call(&shop, op, token).await;
            assert_eq!(status, 401, "{} {} with {who}: {body}", op.method, op.path);
            assert_eq!(body["code"], "staff.login_required", "{} {} with {who}: {body}", op.method, op.path);
        }
        for (role, token) in &staff {
            if op.roles.iter().any(|r| r == role.as_str()) {
                continue;
            }
            let (status, body) = call(&shop, op, Some(token)).await;
            assert_eq!(status, 403, "{} {} as {role}: {body}", op.method, op.path);
            assert_eq!(body["code"], "staff.forbidden", "{} {} as {role}: {body}", op.method, op.path);
            refusals += 1;
        }
    }
    assert!(refusals > 0, "some role was refused somewhere (the owner-only staff calls at least)");
}
