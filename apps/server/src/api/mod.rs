//! The public HTTP contract: every call the storefront makes, described with poem-openapi.

mod catalog;
mod error;
mod health;
mod http_cache;
mod model;
mod shop;

use poem::{Endpoint, EndpointExt, Route};
use poem_openapi::OpenApiService;

pub use error::{json_errors, ErrorBody};

use crate::app::Shop;

/// The API title and version published in the OpenAPI document.
const TITLE: &str = "Marque API";
const VERSION: &str = "0.1.0";

type Apis = (catalog::CatalogApi, shop::ShopApi, health::HealthApi);

fn service(shop: &Shop) -> OpenApiService<Apis, ()> {
    OpenApiService::new(
        (catalog::CatalogApi::new(shop.clone()), shop::ShopApi::new(shop.clone()), health::HealthApi::new(shop.clone())),
        TITLE,
        VERSION,
    )
        .description("Marketplace for new and used spare parts for luxury cars. Prices are in rupees and include GST.")
        .url_prefix("/api")
}

/// The OpenAPI document as JSON, the same text `/api/openapi.json` serves.
#[must_use]
pub fn spec_json(shop: &Shop) -> String {
    plain_json_media_type(&service(shop).spec())
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
    let viewer = service.swagger_ui();
    Route::new()
        .nest("/", service)
        .at(
            "/openapi.json",
            poem::endpoint::make_sync(move |_| {
                poem::Response::builder().content_type("application/json").body(document.clone())
            }),
        )
        .nest("/docs", viewer)
        .around(http_cache::revalidate)
        .around(json_errors)
}
