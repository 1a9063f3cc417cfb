//! Liveness and readiness.
//!
//! `GET /api/health/live` answers as long as the process serves HTTP (it touches no database);
//! `GET /api/health/ready` asks the database one cheap question (`RETURN 1`, no table read,
//! a short deadline) and answers 503 when it gets no answer. `GET /api/health` is the readiness
//! answer under its first name.

use std::sync::Arc;

use marque_ports::Readiness;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

/// The database's readiness probe, shared by the health routes.
#[derive(Clone)]
pub struct DatabaseReadiness(pub Arc<dyn Readiness>);

impl std::fmt::Debug for DatabaseReadiness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DatabaseReadiness(…)")
    }
}

#[derive(Tags)]
enum Tag {
    /// Whether the server and its database answer.
    Health,
}

#[derive(Debug, Object)]
struct HealthBody {
    /// `ok` when the check passed, `degraded` when the database does not answer.
    status: String,
    /// The server's version.
    version: String,
}

fn body(status: &str) -> Json<HealthBody> {
    Json(HealthBody { status: status.into(), version: env!("CARGO_PKG_VERSION").into() })
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

#[derive(ApiResponse)]
enum LiveResponse {
    /// The process serves requests.
    #[oai(status = 200)]
    Ok(Json<HealthBody>),
}

pub struct HealthApi {
    readiness: DatabaseReadiness,
}

impl HealthApi {
    pub fn new(readiness: DatabaseReadiness) -> Self {
        Self { readiness }
    }

    async fn readiness(&self) -> HealthResponse {
        match self.readiness.0.ready().await {
            Ok(()) => HealthResponse::Ok(body("ok")),
            Err(e) => {
                tracing::warn!(error = %e, "readiness check failed");
                HealthResponse::Unavailable(body("degraded"))
            }
        }
    }
}

#[OpenApi(tag = "Tag::Health")]
impl HealthApi {
    /// Health of the server and its database (the same answer as `/health/ready`).
    #[oai(path = "/health", method = "get", operation_id = "health")]
    async fn health(&self) -> HealthResponse {
        self.readiness().await
    }

    /// Liveness: the process answers HTTP. Touches no database, so a database outage does not
    /// get a healthy process restarted.
    #[oai(path = "/health/live", method = "get", operation_id = "healthLive")]
    async fn live(&self) -> LiveResponse {
        LiveResponse::Ok(body("ok"))
    }

    /// Readiness: the database answers one cheap round trip (no table read) within a short
    /// deadline; 503 while it does not, so a load balancer sends traffic elsewhere.
    #[oai(path = "/health/ready", method = "get", operation_id = "healthReady")]
    async fn ready(&self) -> HealthResponse {
        self.readiness().await
    }
}
