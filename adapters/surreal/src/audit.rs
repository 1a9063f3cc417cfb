//! The audit trail's rows, written by every staff-facing store inside its own transaction.
//!
//! A store that records a change appends [`WRITE`] to the `BEGIN … COMMIT` of the change and binds
//! `$audit` to an [`AuditRow`] made from the port's [`AuditEntry`]:
//!
//! ```text
//! BEGIN; UPDATE product:… SET …; CREATE audit CONTENT $audit RETURN NONE; COMMIT;
//! ```
//!
//! so the entry and the change commit or fail together.

use marque_ports::AuditEntry;
use surrealdb::types::SurrealValue;

/// The statement that stores the bound `$audit` row; append it inside the change's transaction.
pub(crate) const WRITE: &str = "CREATE audit CONTENT $audit RETURN NONE;";

/// One `audit` record as stored (see `schema/0012_audit.surql`).
#[derive(Debug, Clone, SurrealValue)]
pub(crate) struct AuditRow {
    pub(crate) at: i64,
    pub(crate) actor: String,
    pub(crate) actor_label: String,
    pub(crate) action: String,
    pub(crate) subject: String,
    pub(crate) before: Option<String>,
    pub(crate) after: Option<String>,
}

impl From<&AuditEntry> for AuditRow {
    fn from(e: &AuditEntry) -> Self {
        AuditRow {
            at: e.at,
            actor: e.actor.key(),
            actor_label: e.actor.label(),
            action: e.action.clone(),
            subject: e.subject.clone(),
            before: e.before.clone(),
            after: e.after.clone(),
        }
    }
}

/// The `("audit", row)` binding [`WRITE`] reads.
pub(crate) fn bind(entry: &AuditEntry) -> (&'static str, AuditRow) {
    ("audit", AuditRow::from(entry))
}
