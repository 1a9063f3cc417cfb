//! The back office's use cases. Each takes the [`Staff`] making the call and asks
//! [`Staff::require`] for the area it touches before it reads or changes anything; each staff
//! write hands its port an [`marque_ports::AuditEntry`], stored in the same transaction.
//!
//! The HTTP layer turns a staff token into a [`Staff`] through [`StaffSessions`] and nothing more.

pub mod audit;
pub mod catalog;
pub mod customers;
pub mod dashboard;
pub mod fitment;
pub mod grievances;
pub mod imports;
pub mod notices;
pub mod orders;
pub mod refunds;
pub mod staff;
pub mod stock;

use async_trait::async_trait;
use marque_domain::staff::Staff;

/// Why a staff token did not name a staff member.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StaffAuthError {
    /// No such session: unknown, expired, revoked, a customer's token, or its staff member removed.
    #[error("no valid staff session")]
    Unauthorized,
    /// The staff store could not be reached.
    #[error("the staff store is unavailable: {0}")]
    Unavailable(String),
}

/// Turns a staff session token into the staff member it belongs to.
#[cfg_attr(test, mockall::automock)]
#[async_trait]
pub trait StaffSessions: Send + Sync {
    /// The staff member whose live session `token` is.
    ///
    /// # Errors
    /// [`StaffAuthError::Unauthorized`] when `token` is no live staff session;
    /// [`StaffAuthError::Unavailable`] when the store cannot be read.
    async fn authenticate(&self, token: &str) -> Result<Staff, StaffAuthError>;
}

pub mod photos;
