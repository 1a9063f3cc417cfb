//! Readiness: whether the shop's database answers right now, for health probes.

use async_trait::async_trait;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadinessError {
    /// The database did not answer (gone, unreachable, or too slow).
    #[error("the database is not ready: {reason}")]
    Unavailable { reason: String },
}

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait Readiness: Send + Sync {
    /// One cheap round trip to the database that reads no table.
    ///
    /// # Errors
    /// MUST return [`ReadinessError::Unavailable`] when the database does not answer, within a
    /// short deadline of the adapter's (a probe never hangs while the database is gone).
    async fn ready(&self) -> Result<(), ReadinessError>;
}
