//! The audit trail read back, for owners ([`Area::Audit`]).

use std::sync::Arc;

use marque_domain::staff::{Area, Forbidden, Staff};
use marque_domain::Message;
use marque_ports::{AuditLog, AuditPage, AuditQuery};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuditError {
    /// The staff member's role does not cover the trail (403).
    #[error("{0:?}")]
    Forbidden(Forbidden),
    /// The trail cannot be read (503).
    #[error("the audit trail is unavailable: {0}")]
    Unavailable(String),
}

impl AuditError {
    /// What the staff member reads.
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            AuditError::Forbidden(_) => Message::StaffForbidden,
            AuditError::Unavailable(_) => Message::StaffUnavailable,
        }
    }
}

impl From<Forbidden> for AuditError {
    fn from(f: Forbidden) -> Self {
        AuditError::Forbidden(f)
    }
}

/// Reading the audit trail.
#[derive(Clone)]
pub struct AuditService {
    log: Arc<dyn AuditLog>,
}

impl std::fmt::Debug for AuditService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuditService").finish_non_exhaustive()
    }
}

impl AuditService {
    #[must_use]
    pub fn new(log: Arc<dyn AuditLog>) -> Self {
        Self { log }
    }

    /// One window of the entries `query` matches, newest first, and how many match in all.
    ///
    /// # Errors
    /// [`AuditError::Forbidden`] without [`Area::Audit`]; [`AuditError::Unavailable`].
    pub async fn entries(&self, staff: &Staff, query: &AuditQuery) -> Result<AuditPage, AuditError> {
        staff.require(Area::Audit)?;
        self.log.entries(query).await.map_err(|e| AuditError::Unavailable(e.to_string()))
    }
}

#[cfg(test)]
mod tests;
