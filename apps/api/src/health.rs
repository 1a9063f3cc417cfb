//! Liveness and readiness.
//!
//! `GET /api/health/live` answers as long as the process serves HTTP (it touches no database);
//! `GET /api/health/ready` asks the database one cheap question (`RETURN 1`, no table read,
//! a short deadline) and answers 503 when it gets no answer, and also until the instance has
//! warmed its catalog answers once after its start ([`WarmUp`], `warming`; at most its limit, 60 s
//! by default). `GET /api/health` is the readiness answer under its first name.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

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

/// Whether the instance has warmed its catalog answers once since it started: until then (or
/// until `limit` has passed) it reports itself unready, so a load balancer sends no shopper to a
/// cold instance. Once warm it stays warm: a database outage makes it unready, not cold again.
#[derive(Debug)]
pub struct WarmUp {
    /// When the warm-up began ([`WarmUp::begin`]); the limit counts from there.
    started: OnceLock<Instant>,
    limit: Duration,
    done: AtomicBool,
    /// Set once the limit passed before the warm-up was done (logged then).
    gave_up: AtomicBool,
}

impl WarmUp {
    /// A warm-up that starts now and waits at most `limit`.
    #[must_use]
    pub fn new(limit: Duration) -> Arc<Self> {
        Arc::new(Self {
            started: OnceLock::new(),
            limit,
            done: AtomicBool::new(false),
            gave_up: AtomicBool::new(false),
        })
    }

    /// The warm-up begins now (when the instance starts serving); its limit counts from here.
    pub fn begin(&self) {
        let _ = self.started.set(Instant::now());
    }

    /// Nothing to warm (no caches): warm from the start.
    #[must_use]
    pub fn done() -> Arc<Self> {
        let warm = Self::new(Duration::ZERO);
        warm.done.store(true, Ordering::Release);
        warm
    }

    /// The first warm-up is over.
    pub fn finish(&self) {
        self.done.store(true, Ordering::Release);
    }

    /// Whether the instance may take shoppers: warmed once, or past the limit (logged once).
    pub fn is_warm(&self) -> bool {
        if self.done.load(Ordering::Acquire) {
            return true;
        }
        if self.started.get().is_none_or(|started| started.elapsed() < self.limit) {
            return false;
        }
        if !self.gave_up.swap(true, Ordering::AcqRel) {
            tracing::warn!(
                limit_secs = self.limit.as_secs(),
                "the catalog warm-up has not finished within its limit (MARQUE_WARM_UP_LIMIT_SECS); reporting ready anyway"
            );
        }
        true
    }
}

#[derive(Tags)]
enum Tag {
    /// Whether the server and its database answer.
    Health,
}

#[derive(Debug, Object)]
struct HealthBody {
    /// `ok` when the check passed, `degraded` when the database does not answer, `warming` while
    /// the instance warms its catalog answers after its start.
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
    /// The database does not answer, or the instance is still warming its catalog answers.
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
    warm_up: Arc<WarmUp>,
}

impl HealthApi {
    pub fn new(readiness: DatabaseReadiness, warm_up: Arc<WarmUp>) -> Self {
        Self { readiness, warm_up }
    }

    async fn readiness(&self) -> HealthResponse {
        match self.readiness.0.ready().await {
            Ok(()) if self.warm_up.is_warm() => HealthResponse::Ok(body("ok")),
            Ok(()) => HealthResponse::Unavailable(body("warming")),
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
    /// deadline, and the instance has warmed its catalog answers once since it started (at most
    /// `MARQUE_WARM_UP_LIMIT_SECS`); 503 while not, so a load balancer sends traffic elsewhere.
    #[oai(path = "/health/ready", method = "get", operation_id = "healthReady")]
    async fn ready(&self) -> HealthResponse {
        self.readiness().await
    }
}
