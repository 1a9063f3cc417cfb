//! Grievance tickets: opened from the contact page, numbered in their own series, and moved by the
//! grievance officer (open → acknowledged → resolved) only on the version the move was decided on.
//!
//! The rules (the form, the moves, the clocks) live in `marque_domain::grievance`; the store keeps
//! what the use case decided, numbers tickets, and refuses a change someone else made first.

use async_trait::async_trait;
use marque_domain::grievance::{GrievanceForm, GrievanceState};
use marque_domain::invoice::FinancialYear;
use marque_domain::paging::ListWindow;

use crate::AuditEntry;

/// A ticket to open: the checked form, when it arrived, and its two deadlines as the domain computed
/// them (`marque_domain::grievance::{acknowledge_by, resolve_by}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewGrievance {
    pub form: GrievanceForm,
    /// Seconds since the Unix epoch.
    pub created_at: i64,
    pub acknowledge_by: i64,
    pub resolve_by: i64,
    /// The financial year whose series numbers the ticket (the year of `created_at` in India).
    pub year: FinancialYear,
}

/// A stored ticket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grievance {
    /// The store's identifier (opaque, stable).
    pub id: String,
    /// `GR/26-27/000001`.
    pub number: String,
    pub name: String,
    pub email: String,
    pub mobile: String,
    pub order_number: Option<String>,
    pub message: String,
    pub state: GrievanceState,
    pub created_at: i64,
    pub acknowledge_by: i64,
    pub resolve_by: i64,
    /// When it was acknowledged (resolving an open ticket acknowledges it at the same time).
    pub acknowledged_at: Option<i64>,
    pub resolved_at: Option<i64>,
    /// The officer's note on acknowledging, if any.
    pub acknowledgement: Option<String>,
    /// The reply the complainant got with the resolution.
    pub resolution: Option<String>,
    /// What a person reads for who last moved the ticket (a staff member's email).
    pub handled_by: Option<String>,
    /// 0 when opened; grows by one with every move.
    pub version: u64,
}

/// A move as the use case decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrievanceMove {
    /// The state after the move.
    pub to: GrievanceState,
    /// The note kept with it (the acknowledgement's note, or the resolution's reply).
    pub note: Option<String>,
    /// Seconds since the Unix epoch.
    pub at: i64,
}

/// Which tickets to list, newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GrievanceQuery {
    pub state: Option<GrievanceState>,
    pub window: ListWindow,
}

/// One window of tickets and how many the query matches in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrievancePage {
    pub grievances: Vec<Grievance>,
    pub total: u64,
}

/// Why the grievance store refused or failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GrievanceStoreError {
    /// No ticket has this id.
    #[error("no such grievance")]
    NotFound,
    /// The ticket is no longer at the version the move was decided on; `version` is where it is.
    #[error("the grievance changed meanwhile (now at version {version})")]
    Changed { version: u64 },
    /// The financial year's series has no numbers left.
    #[error("the grievance series is exhausted")]
    SerialExhausted,
    /// The store could not be reached or failed; the caller may retry later.
    #[error("the grievance store is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// The grievance tickets.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait GrievanceStore: Send + Sync {
    /// Opens a ticket, state `open`, version 0, numbered with the next number of `new.year`'s series.
    ///
    /// # Contract
    /// Numbers are consecutive per financial year from `GR/yy-yy/000001`, with no gap and no number
    /// twice, however many tickets are opened at once.
    ///
    /// # Errors
    /// [`GrievanceStoreError::SerialExhausted`]; [`GrievanceStoreError::Unavailable`]. Nothing is
    /// written with either.
    async fn open(&self, new: &NewGrievance) -> Result<Grievance, GrievanceStoreError>;

    /// The window of tickets `query` matches, newest first (`created_at` descending, then number
    /// descending), and how many match.
    ///
    /// # Contract
    /// Windows over unchanged tickets neither repeat nor skip one.
    ///
    /// # Errors
    /// [`GrievanceStoreError::Unavailable`].
    async fn grievances(&self, query: &GrievanceQuery) -> Result<GrievancePage, GrievanceStoreError>;

    /// The ticket with this id, or `None`.
    ///
    /// # Errors
    /// [`GrievanceStoreError::Unavailable`].
    async fn grievance(&self, id: &str) -> Result<Option<Grievance>, GrievanceStoreError>;

    /// Moves the ticket as `change` says, if and only if it is still at `version`: in one
    /// transaction, the state, the note (`acknowledgement` when the move is to `acknowledged`,
    /// `resolution` when to `resolved`), `acknowledged_at` (when not set yet) and `resolved_at`,
    /// `handled_by` (the audit actor's label), the version's step by one, and `audit`. Answers the
    /// ticket as it is after.
    ///
    /// # Contract
    /// - Of any number of concurrent moves naming one version, exactly one is written; every other
    ///   gets [`GrievanceStoreError::Changed`] and writes nothing (no move, no audit record).
    /// - The store does not judge the move (the domain's rules did).
    ///
    /// # Errors
    /// [`GrievanceStoreError::NotFound`]; [`GrievanceStoreError::Changed`] with the version the ticket
    /// is at; [`GrievanceStoreError::Unavailable`]. Nothing is written with any of them.
    async fn change(
        &self,
        id: &str,
        version: u64,
        change: &GrievanceMove,
        audit: &AuditEntry,
    ) -> Result<Grievance, GrievanceStoreError>;

    /// How many tickets have a clock run out at `now`: open ones at or past `acknowledge_by`, and
    /// those not resolved at or past `resolve_by` (each ticket counted once).
    ///
    /// # Errors
    /// [`GrievanceStoreError::Unavailable`].
    async fn overdue(&self, now: i64) -> Result<u64, GrievanceStoreError>;
}
