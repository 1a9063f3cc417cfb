//! The OpenAPI document: the Apis poem-openapi describes, and the one place its output is
//! post-processed before it is served (`/api/openapi.json`), printed (`marque-server openapi`)
//! and committed (`contract/openapi.json`, `make contract`):
//!
//! 1. [`plain_json_media_type`]: `application/json; charset=utf-8` becomes `application/json`.
//! 2. [`with_client_validation`]: the `x-client-validation` API-key scheme beside the bearer.
//! 3. [`with_body_limits`]: the 408 and 413 of every operation with a request body.
//!
//! Each step parses the JSON, changes it and writes it back pretty-printed; a step that cannot
//! parse its input returns it unchanged.

use poem_openapi::OpenApiService;

use crate::{
    account, address, admin, auth, catalog, checkout, google, grievances, health, orders, privacy, shop, wishlist,
    Services,
};

/// The API title and version published in the OpenAPI document.
const TITLE: &str = "Marque API";
const VERSION: &str = "0.1.0";

type Apis = (
    catalog::CatalogApi,
    account::AccountApi,
    wishlist::WishlistApi,
    address::AddressApi,
    checkout::CheckoutApi,
    orders::OrderApi,
    shop::ShopApi,
    health::HealthApi,
    google::SignInApi,
    privacy::PrivacyApi,
    grievances::GrievanceApi,
    crate::vehicles::VehiclesApi,
    crate::garage::GarageApi,
    crate::returns::ReturnsApi,
    // The back office's tags, one element: a tuple of Apis is an Api, and tuples stop at 16.
    (
        admin::staff::StaffApi,
        admin::customers::CustomersApi,
        admin::audit::AuditApi,
        crate::admin::stock::StockApi,
        crate::admin::catalog::AdminCatalogApi,
        crate::admin::photos::PhotosApi,
        crate::admin::orders::AdminOrdersApi,
        crate::admin::notices::OrderNoticesApi,
        crate::admin::grievances::AdminGrievancesApi,
        crate::admin::dashboard::DashboardApi,
        crate::admin::imports::ImportsApi,
        crate::admin::fitment::FitmentApi,
        crate::admin::returns::AdminReturnsApi,
    ),
);

/// The Apis, one per tag, each given its own service.
pub(crate) fn service(s: &Services) -> OpenApiService<Apis, ()> {
    OpenApiService::new(
        (
            catalog::CatalogApi::new(s.catalog.clone(), s.vehicles.clone(), s.catalog_guard.clone()),
            account::AccountApi::new(s.accounts.clone(), s.addresses.clone(), s.checkout.clone(), s.throttle.clone()),
            wishlist::WishlistApi::new(s.wishlist.clone(), s.throttle.clone()),
            address::AddressApi::new(s.addresses.clone(), s.throttle.clone()),
            checkout::CheckoutApi::new(s.checkout.clone(), s.throttle.clone()),
            orders::OrderApi::new(s.orders.clone(), s.credit_notes.clone(), s.throttle.clone()),
            shop::ShopApi::new(s.identity.clone()),
            health::HealthApi::new(s.readiness.clone(), s.warm_up.clone()),
            google::SignInApi::new(google::SignInContext::of(s)),
            privacy::PrivacyApi::new(s.privacy.clone()),
            grievances::GrievanceApi::new(s.grievances.clone(), s.throttle.clone()),
            crate::vehicles::VehiclesApi::new(s.vehicles.clone()),
            crate::garage::GarageApi::new(s.garage.clone(), s.throttle.clone()),
            crate::returns::ReturnsApi::new(s.returns.clone(), s.throttle.clone()),
            (
                admin::staff::StaffApi::new(s.staff.clone()),
                admin::customers::CustomersApi::new(s.customers.clone()),
                admin::audit::AuditApi::new(s.audit.clone()),
                crate::admin::stock::StockApi::new(s.stock.clone()),
                crate::admin::catalog::AdminCatalogApi::new(s.admin_catalog.clone()),
                crate::admin::photos::PhotosApi::new(s.photos.clone()),
                crate::admin::orders::AdminOrdersApi::new(
                    s.admin_orders.clone(),
                    s.refunds.clone(),
                    s.credit_notes.clone(),
                ),
                crate::admin::notices::OrderNoticesApi::new(s.order_notices.clone()),
                crate::admin::grievances::AdminGrievancesApi::new(s.admin_grievances.clone()),
                crate::admin::dashboard::DashboardApi::new(s.dashboard.clone()),
                crate::admin::imports::ImportsApi::new(s.imports.clone(), s.exports.clone()),
                crate::admin::fitment::FitmentApi::new(s.admin_fitment.clone()),
                crate::admin::returns::AdminReturnsApi::new(s.returns.clone()),
            ),
        ),
        TITLE,
        VERSION,
    )
    .description("Marketplace for new and used spare parts for luxury cars. Prices are in rupees and include GST.")
    .server(poem_openapi::ServerObject::new("/").description("This shop's own origin: every path starts with /api."))
    .url_prefix("/api")
}

/// The OpenAPI document as JSON, the same text `/api/openapi.json` serves.
#[must_use]
pub fn spec_json(services: &Services) -> String {
    for_integrators(&with_body_limits(&with_client_validation(&plain_json_media_type(&service(services).spec()))))
}

/// What integrators' tools (Redocly's recommended rules, code generators) ask of the document
/// and poem-openapi leaves out: an explicit `security: []` on every public operation, and the
/// `type` beside a `nullable` (poem-openapi writes an optional object field as
/// `allOf: [$ref] + nullable` without one, which some generators reject).
fn for_integrators(spec: &str) -> String {
    fn typed_nullables(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(map) => {
                if map.get("nullable") == Some(&serde_json::Value::Bool(true)) && !map.contains_key("type") {
                    // Only optional objects are written this way (`allOf: [$ref to an object schema,
                    // {description, nullable}]`); the second member says nothing the outer one does not.
                    map.insert("type".to_owned(), serde_json::json!("object"));
                    if let Some(members) = map.get_mut("allOf").and_then(|m| m.as_array_mut()) {
                        members.retain(|m| {
                            !m.as_object().is_some_and(|m| m.keys().all(|k| k == "description" || k == "nullable"))
                        });
                    }
                }
                map.values_mut().for_each(typed_nullables);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(typed_nullables),
            _ => {}
        }
    }
    let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(spec) else { return spec.to_owned() };
    if let Some(schemas) = doc.pointer_mut("/components/schemas") {
        typed_nullables(schemas);
    }
    if let Some(paths) = doc.get_mut("paths").and_then(|p| p.as_object_mut()) {
        for op in paths.values_mut().filter_map(|i| i.as_object_mut()).flat_map(|i| i.values_mut()) {
            if let Some(op) = op.as_object_mut().filter(|op| !op.contains_key("security")) {
                op.insert("security".to_owned(), serde_json::json!([]));
            }
        }
    }
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| spec.to_owned()) + "\n"
}

/// Lists the 408 and 413 every operation with a request body may answer: the body deadline and
/// limits are applied around the whole route tree (the server's listener and [`crate::body_limits`]), not by
/// each handler.
fn with_body_limits(spec: &str) -> String {
    let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(spec) else { return spec.to_owned() };
    if let Some(paths) = doc.get_mut("paths").and_then(|p| p.as_object_mut()) {
        for (path, item) in paths.iter_mut() {
            let limit = crate::body_limits::body_limit(path);
            for op in item.as_object_mut().into_iter().flat_map(|i| i.values_mut()) {
                if op.get("requestBody").is_none() {
                    continue;
                }
                if let Some(responses) = op.get_mut("responses").and_then(|r| r.as_object_mut()) {
                    responses.insert(
                        "408".to_owned(),
                        serde_json::json!({
                            "description": "The body did not arrive within the server's body deadline (`request.too_slow`, `MARQUE_BODY_TIMEOUT_MS`).",
                            "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
                        }),
                    );
                    responses.insert(
                        "413".to_owned(),
                        serde_json::json!({
                            "description": format!(
                                "The body is larger than this call takes ({limit} bytes; `{}`).",
                                crate::body_limits::limit_message(path).code()
                            ),
                            "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
                        }),
                    );
                }
            }
        }
    }
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| spec.to_owned()) + "\n"
}

/// Declares the `x-client-validation` API-key header beside the bearer scheme, and requires
/// both on every operation that requires the bearer. (poem-openapi's API-key scheme always
/// demands its header; this one is required only when the server is configured with a value,
/// which the session check enforces.)
fn with_client_validation(spec: &str) -> String {
    let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(spec) else { return spec.to_owned() };
    if let Some(schemes) = doc.pointer_mut("/components/securitySchemes").and_then(|s| s.as_object_mut()) {
        schemes.insert(
            "clientValidation".to_owned(),
            serde_json::json!({
                "type": "apiKey",
                "in": "header",
                "name": auth::CLIENT_VALIDATION_HEADER,
                "description": "The value configured as MARQUE_CLIENT_VALIDATION; required on authorized calls when the server has one."
            }),
        );
    }
    if let Some(paths) = doc.get_mut("paths").and_then(|p| p.as_object_mut()) {
        for item in paths.values_mut().filter_map(|i| i.as_object_mut()) {
            for op in item.values_mut() {
                if let Some(requirements) = op.get_mut("security").and_then(|s| s.as_array_mut()) {
                    for requirement in requirements.iter_mut().filter_map(|r| r.as_object_mut()) {
                        // A customer's session, or a staff session of the back office (`staff…` schemes).
                        if requirement.keys().any(|k| k == "bearerAuth" || k.starts_with("staff")) {
                            requirement.insert("clientValidation".to_owned(), serde_json::json!([]));
                        }
                    }
                }
            }
        }
    }
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| spec.to_owned()) + "\n"
}

/// poem-openapi names its JSON media type `application/json; charset=utf-8`;
/// clients and code generators key on `application/json`, the same type.
fn plain_json_media_type(spec: &str) -> String {
    fn walk(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(map) => {
                if let Some(body) = map.remove("application/json; charset=utf-8") {
                    map.insert("application/json".to_owned(), body);
                }
                map.values_mut().for_each(walk);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(spec) else { return spec.to_owned() };
    walk(&mut doc);
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| spec.to_owned()) + "\n"
}
