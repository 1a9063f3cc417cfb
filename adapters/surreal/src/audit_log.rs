//! The audit trail read back ([`AuditLog`]): the `audit` rows (migration 12) every staff-facing
//! store writes inside its own transactions ([`crate::audit::WRITE`]).
//!
//! Newest first: `at` descending, then `seq` (the database's time of writing) descending, then
//! the record id, so the order is total and windows taken with `START` neither repeat nor skip.
//! An actor or a subject filter reads its `(actor, at)` / `(subject, at)` index; otherwise the
//! `at` index orders the rows.

use async_trait::async_trait;
use marque_ports::{Actor, AuditEntry, AuditLog, AuditLogError, AuditPage, AuditQuery, AuditRecord};
use surrealdb::types::SurrealValue;

use crate::conn::Conn;

/// [`AuditLog`] on a SurrealDB connection. Get one from [`crate::Database::audit_log`].
#[derive(Debug, Clone)]
pub struct SurrealAuditLog {
    db: Conn,
}

/// A stored row as read back, with its id.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct ReadRow {
    id: String,
    at: i64,
    actor: String,
    actor_label: String,
    action: String,
    subject: String,
    before: Option<String>,
    after: Option<String>,
}

impl From<ReadRow> for AuditRecord {
    fn from(r: ReadRow) -> Self {
        // The label is what a person reads; the key is what the trail is filtered by.
        let actor = match r.actor.strip_prefix("system:") {
            Some(what) => Actor::System(what.to_owned()),
            None => Actor::Staff { id: marque_domain::staff::StaffId(r.actor), email: r.actor_label },
        };
        AuditRecord {
            id: r.id,
            entry: AuditEntry {
                at: r.at,
                actor,
                action: r.action,
                subject: r.subject,
                before: r.before,
                after: r.after,
            },
        }
    }
}

const SELECT: &str = "
RETURN (SELECT count() AS n FROM audit {WHERE} GROUP ALL)[0].n ?? 0;
SELECT record::id(id) AS id, at, seq, actor, actor_label, action, subject, before, after FROM audit {WHERE}
    ORDER BY at DESC, seq DESC, id DESC LIMIT $limit START $offset;
";

impl SurrealAuditLog {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }
}

#[async_trait]
impl AuditLog for SurrealAuditLog {
    async fn entries(&self, query: &AuditQuery) -> Result<AuditPage, AuditLogError> {
        let unavailable = |e: surrealdb::Error| AuditLogError::Unavailable { reason: e.message().to_owned() };
        let mut conditions = Vec::new();
        if query.actor.is_some() {
            conditions.push("actor = $actor");
        }
        if query.subject.is_some() {
            conditions.push("subject = $subject");
        }
        if query.action.is_some() {
            conditions.push("(action = $action OR string::starts_with(action, $action_prefix))");
        }
        if query.from.is_some() {
            conditions.push("at >= $from");
        }
        if query.until.is_some() {
            conditions.push("at < $until");
        }
        let filter = if conditions.is_empty() { String::new() } else { format!("WHERE {}", conditions.join(" AND ")) };
        let mut answer = self
            .db
            .query(SELECT.replace("{WHERE}", &filter))
            .bind(("actor", query.actor.clone()))
            .bind(("subject", query.subject.clone()))
            .bind(("action", query.action.clone()))
            .bind(("action_prefix", query.action.as_ref().map(|a| format!("{a}."))))
            .bind(("from", query.from))
            .bind(("until", query.until))
            .bind(("limit", i64::from(query.window.limit())))
            .bind(("offset", i64::try_from(query.window.offset()).unwrap_or(i64::MAX)))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map_err(unavailable)?;
        let total: Option<i64> = answer.take(0).map_err(unavailable)?;
        let rows: Vec<ReadRow> = answer.take(1).map_err(unavailable)?;
        Ok(AuditPage {
            records: rows.into_iter().map(AuditRecord::from).collect(),
            total: u64::try_from(total.unwrap_or(0)).unwrap_or(0),
        })
    }
}
