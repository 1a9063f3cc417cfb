//! The audit trail: who changed what in the back office, when, and the values before and after.
//!
//! An [`AuditEntry`] is never written on its own: every method of a staff-facing port that
//! changes something takes the entry as an argument and stores it in the same transaction as the
//! change, so a change without its record (or a record without its change) cannot happen. The
//! [`AuditLog`] port only reads the trail back.

use async_trait::async_trait;
use marque_domain::paging::ListWindow;
use marque_domain::staff::{Staff, StaffId};

/// Who made a change: a staff member, or the server itself on the command line (`marque-server
/// staff add`, the first owner at start-up, a migration).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Actor {
    Staff {
        id: StaffId,
        email: String,
    },
    /// What acted, e.g. `cli`, `startup`, `migration`.
    System(String),
}

impl Actor {
    #[must_use]
    pub fn staff(staff: &Staff) -> Self {
        Actor::Staff { id: staff.id.clone(), email: staff.email.clone() }
    }

    /// The staff id, or `system:<what>`: what the trail is filtered by.
    #[must_use]
    pub fn key(&self) -> String {
        match self {
            Actor::Staff { id, .. } => id.0.clone(),
            Actor::System(what) => format!("system:{what}"),
        }
    }

    /// What a person reads: the staff member's email, or `system (<what>)`.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            Actor::Staff { email, .. } => email.clone(),
            Actor::System(what) => format!("system ({what})"),
        }
    }
}

/// One record of the trail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    /// When, seconds since the Unix epoch.
    pub at: i64,
    pub actor: Actor,
    /// What was done, `<area>.<verb>`: `product.create`, `product.update`, `stock.adjust`,
    /// `offer.set`, `staff.invite`, …
    pub action: String,
    /// What it was done to, `<kind>:<id>`: `product:p000123`, `customer:u42`, `staff:s7`.
    pub subject: String,
    /// The values before the change as a JSON object (only the fields that changed, or the whole
    /// record for a creation's `after` and a removal's `before`); `None` when nothing existed.
    pub before: Option<String>,
    /// The values after the change, as [`AuditEntry::before`].
    pub after: Option<String>,
}

impl AuditEntry {
    /// An entry for `action` on `subject` by `actor` at `at`, with no values yet.
    #[must_use]
    pub fn new(at: i64, actor: Actor, action: impl Into<String>, subject: impl Into<String>) -> Self {
        AuditEntry { at, actor, action: action.into(), subject: subject.into(), before: None, after: None }
    }

    /// The same entry with the values before and after (JSON text).
    #[must_use]
    pub fn with_values(mut self, before: Option<String>, after: Option<String>) -> Self {
        self.before = before;
        self.after = after;
        self
    }
}

/// A stored entry, as the trail reads it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditRecord {
    /// The store's identifier for the entry (stable, opaque).
    pub id: String,
    pub entry: AuditEntry,
}

/// Which entries to read, newest first; every given filter must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditQuery {
    /// [`Actor::key`] equal to this.
    pub actor: Option<String>,
    /// `action` equal to this, or starting with it followed by `.` (`product` takes in `product.update`).
    pub action: Option<String>,
    /// `subject` equal to this.
    pub subject: Option<String>,
    /// `at` at or after this.
    pub from: Option<i64>,
    /// `at` before this.
    pub until: Option<i64>,
    /// The page of the ordered result to return.
    pub window: ListWindow,
}

/// One window of the trail and how many entries the query matches in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditPage {
    pub records: Vec<AuditRecord>,
    pub total: u64,
}

/// Why the trail could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuditLogError {
    /// The store could not be reached or failed; the caller may retry later.
    #[error("the audit trail is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// Reads the audit trail that the staff-facing stores write.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait AuditLog: Send + Sync {
    /// One window of the entries `query` matches, newest first (`at` descending, then the order
    /// they were stored in, latest first), and the number matched over all windows.
    ///
    /// # Contract
    /// - Every entry a staff-facing port stored with a change is found here once the change is
    ///   committed, with the values it was given; an entry of a change that failed is never found.
    /// - Windows over the same query neither repeat nor skip an entry.
    ///
    /// # Errors
    /// [`AuditLogError::Unavailable`] when the store cannot be read.
    async fn entries(&self, query: &AuditQuery) -> Result<AuditPage, AuditLogError>;
}
