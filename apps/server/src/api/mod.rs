//! The public HTTP contract: every call the storefront makes, described with poem-openapi.

/// The response enum of a call that needs a session (account, wishlist, addresses, checkout, orders):
/// the body, 400 for a field that does not parse (an [`ErrorBody`], or the `bad_request = Type` given,
/// which must be `From<ErrorBody>`), 401 without a valid session, the call's own codes, and 503.
macro_rules! session_response {
    (@build $name:ident, $body:ty, $handler:ident, $handler_name:tt, $bad:ty, [$($extra:tt)*], { $($(#[doc = $doc:literal])* $variant:ident = $status:literal),* $(,)? }) => {
        #[derive(ApiResponse)]
        #[oai(bad_request_handler = $handler_name)]
        enum $name {
            #[oai(status = 200)]
            Ok(Json<$body>),
            /// A field that does not parse; its message and code come from the shop's rules.
            #[oai(status = 400)]
            BadRequest(Json<$bad>),
            /// No valid session (`account.login_required`).
            #[oai(status = 401)]
            Unauthorized(Json<ErrorBody>),
            $(
                $(#[doc = $doc])*
                #[oai(status = $status)]
                $variant(Json<ErrorBody>),
            )*
            $($extra)*
            /// A store or service the call needs cannot be reached right now.
            #[oai(status = 503)]
            Unavailable(Json<ErrorBody>),
        }

        fn $handler(err: poem::Error) -> $name {
            match err.status() {
                poem::http::StatusCode::UNAUTHORIZED => $name::Unauthorized(ErrorBody::from_message(Message::LoginRequired)),
                poem::http::StatusCode::SERVICE_UNAVAILABLE => $name::Unavailable(ErrorBody::from_message(Message::AccountUnavailable)),
                _ => $name::BadRequest(Json(<$bad>::from(ErrorBody::from_poem(&err).0))),
            }
        }
    };
    ($name:ident, $body:ty, $handler:ident, $handler_name:tt, { $($rest:tt)* }) => {
        session_response!(@build $name, $body, $handler, $handler_name, ErrorBody, [], { $($rest)* });
    };
    ($name:ident, $body:ty, $handler:ident, $handler_name:tt, limited, { $($rest:tt)* }) => {
        session_response!($name, $body, $handler, $handler_name, bad_request = ErrorBody, limited, { $($rest)* });
    };
    ($name:ident, $body:ty, $handler:ident, $handler_name:tt, bad_request = $bad:ty, { $($rest:tt)* }) => {
        session_response!(@build $name, $body, $handler, $handler_name, $bad, [], { $($rest)* });
    };
    // A rate-limited call (see `limits`): 429 with `Retry-After` as well.
    ($name:ident, $body:ty, $handler:ident, $handler_name:tt, bad_request = $bad:ty, limited, { $($rest:tt)* }) => {
        session_response!(@build $name, $body, $handler, $handler_name, $bad, [
            /// Too many of these calls in a short time (`request.too_many`); `Retry-After` gives the seconds to wait.
            #[oai(status = 429)]
            TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
        ], { $($rest)* });
    };
}

/// Counts one rate-limited call of the customer and returns early from the handler with the
/// response's `TooMany` (429 + `Retry-After`) or `Unavailable` (503) when it may not go ahead.
macro_rules! throttle {
    ($shop:expr, $action:expr, $customer:expr, $response:ident) => {
        if let Err(refusal) = $crate::api::limits::check(&$shop, $action, $customer.id()).await {
            return match refusal {
                $crate::api::limits::Refusal::TooMany(body, secs) => $response::TooMany(body, secs),
                $crate::api::limits::Refusal::Unavailable(body) => $response::Unavailable(body),
            };
        }
    };
}

/// `Debug` for a request or answer type holding a secret (a password, a one-time code, a token):
/// the fields named after `hides` print as `[redacted]`, whatever they hold.
macro_rules! redacted_debug {
    ($ty:ident { $($shown:ident),* } hides $($hidden:ident),+) => {
        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($ty))
                    $(.field(stringify!($shown), &self.$shown))*
                    $(.field(stringify!($hidden), &format_args!("[redacted]")))+
                    .finish()
            }
        }
    };
}

/// [`throttle!`] for a per-client limit: counted under the key of the client that sent `req`
/// (see `crate::clients`).
macro_rules! by_client {
    ($shop:expr, $action:expr, $req:expr, $response:ident) => {
        let client = $crate::api::auth::client_address($req);
        if let Err(refusal) = $crate::api::limits::check(&$shop, $action, &client).await {
            return match refusal {
                $crate::api::limits::Refusal::TooMany(body, secs) => $response::TooMany(body, secs),
                $crate::api::limits::Refusal::Unavailable(body) => $response::Unavailable(body),
            };
        }
    };
}

mod account;
mod address;
mod allow;
mod auth;
mod catalog;
mod checkout;
mod error;
pub mod google;
mod health;
mod http_cache;
pub mod limits;
mod model;
mod orders;
mod privacy;
pub mod ready_answers;
mod shop;
mod wishlist;

use poem::{Endpoint, EndpointExt, Route};
use poem_openapi::OpenApiService;

pub use auth::{ensure_owner, Customer, CLIENT_VALIDATION_HEADER};
pub use error::{json_errors, ErrorBody};
pub(crate) use http_cache::names as names_tag;

use crate::app::Shop;

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
);

fn service(shop: &Shop) -> OpenApiService<Apis, ()> {
    OpenApiService::new(
        (
            catalog::CatalogApi::new(shop.clone()),
            account::AccountApi::new(shop.clone()),
            wishlist::WishlistApi::new(shop.clone()),
            address::AddressApi::new(shop.clone()),
            checkout::CheckoutApi::new(shop.clone()),
            orders::OrderApi::new(shop.clone()),
            shop::ShopApi::new(shop.clone()),
            health::HealthApi::new(shop.clone()),
            google::SignInApi::new(shop.clone()),
            privacy::PrivacyApi::new(shop.clone()),
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
pub fn spec_json(shop: &Shop) -> String {
    for_integrators(&with_body_limits(&with_client_validation(&plain_json_media_type(&service(shop).spec()))))
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
                        members.retain(|m| !m.as_object().is_some_and(|m| m.keys().all(|k| k == "description" || k == "nullable")));
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
/// limits are applied around the whole route tree (`crate::listener`, `crate::hardening`), not by
/// each handler.
fn with_body_limits(spec: &str) -> String {
    let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(spec) else { return spec.to_owned() };
    if let Some(paths) = doc.get_mut("paths").and_then(|p| p.as_object_mut()) {
        for (path, item) in paths.iter_mut() {
            let limit = crate::hardening::body_limit(path);
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
                            "description": format!("The body is larger than this call takes ({limit} bytes; `request.too_large`)."),
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
                        if requirement.contains_key("bearerAuth") {
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

/// Every API route, mounted at `/api` by the caller.
pub fn routes(shop: Shop) -> impl Endpoint {
    let service = service(&shop);
    let document = spec_json(&shop);
    let allow = std::sync::Arc::new(allow::AllowTable::new(&document, "/api"));
    let viewer = service.swagger_ui();
    let outbox = shop.outbox.clone();
    let mut route = Route::new()
        .nest("/", service)
        .at(
            "/openapi.json",
            poem::endpoint::make_sync(move |_| {
                poem::Response::builder().content_type("application/json").body(document.clone())
            }),
        )
        .nest("/docs", viewer);
    route = route
        .at("/razorpay/webhook", poem::post(checkout::webhook))
        .at("/dev/signin", poem::get(google::dev_page))
        .at("/dev/signin/continue", poem::get(google::dev_continue));
    if let Some(outbox) = outbox {
        route = route.at("/dev/outbox", poem::get(dev_outbox).data(outbox));
    }
    // Each layer's future is boxed: unboxed, a debug build nests every layer's future in the
    // next one's and a request's poll overflowed a 2 MiB thread stack.
    let pages = shop.ready_answers.clone();
    let route = route.data(shop).boxed().around(http_cache::revalidate).boxed();
    // Ready product answers are given before anything else reads the request (they carry their tag).
    let route = match pages {
        Some(pages) => route
            .around(move |next, req| {
                let pages = pages.clone();
                async move { ready_answers::serve(next, req, &pages).await }
            })
            .boxed(),
        None => route,
    };
    route
        .around(wishlist_trailing_slash)
        .boxed()
        .around(json_errors)
        .boxed()
        .around(move |next, req| {
            let allow = allow.clone();
            async move { allow::allow_on_405(next, req, &allow).await }
        })
}

/// `GET /api/dev/outbox` (`MARQUE_ENV=dev` only): every message the shop sent, newest first, with
/// the names of its attachments.
#[poem::handler]
fn dev_outbox(outbox: poem::web::Data<&std::sync::Arc<marque_outbox::Outbox>>) -> poem::web::Json<serde_json::Value> {
    let messages: Vec<serde_json::Value> = outbox
        .messages()
        .into_iter()
        .map(|m| {
            serde_json::json!({
                "channel": match m.channel { marque_ports::Channel::Sms => "sms", marque_ports::Channel::Email => "email" },
                "recipient": m.recipient,
                "subject": m.subject,
                "text": m.text,
                "attachments": m.attachments,
                "time": m.time,
            })
        })
        .collect();
    poem::web::Json(serde_json::Value::Array(messages))
}

/// `GET /api/get/wishlist/` (the specification's spelling) is `GET /api/get/wishlist`.
async fn wishlist_trailing_slash<E: Endpoint>(next: E, mut req: poem::Request) -> poem::Result<poem::Response> {
    if req.uri().path() == "/get/wishlist/" {
        let rewritten = match req.uri().query() {
            Some(q) => format!("/get/wishlist?{q}"),
            None => "/get/wishlist".to_owned(),
        };
        if let Ok(uri) = rewritten.parse() {
            *req.uri_mut() = uri;
        }
    }
    next.call(req).await.map(poem::IntoResponse::into_response)
}
