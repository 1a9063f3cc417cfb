//! Liveness and readiness.

use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use crate::app::Shop;

#[derive(Tags)]
enum Tag {
    /// Whether the server and its database answer.
    Health,
}

#[derive(Debug, Object)]
struct HealthBody {
    /// `ok` when the database answers, `degraded` otherwise.
    status: String,
    /// The server's version.
    version: String,
}

#[derive(ApiResponse)]
enum HealthResponse {
    /// The server and its database answer.
    #[oai(status = 200)]
    Ok(Json<HealthBody>),
    /// The database does not answer.
    #[oai(status = 503)]
    Unavailable(Json<HealthBody>),
}

pub struct HealthApi {
    shop: Shop,
}

impl HealthApi {
    pub fn new(shop: Shop) -> Self {
        Self { shop }
    }
}

#[OpenApi(tag = "Tag::Health")]
impl HealthApi {
    /// Health of the server and its database.
    #[oai(path = "/health", method = "get", operation_id = "health")]
    async fn health(&self) -> HealthResponse {
        let body = |status: &str| HealthBody { status: status.into(), version: env!("CARGO_PKG_VERSION").into() };
        if self.shop.catalog.is_empty().await.is_ok() {
            HealthResponse::Ok(Json(body("ok")))
        } else {
            HealthResponse::Unavailable(Json(body("degraded")))
        }
    }
}
