//! A minimal reader of the audit trail for the catalog editor's contract suite, until the offers
//! helper's `AuditLog` adapter (issue 21) lands: at that merge, `Database::audit_log` keeps theirs
//! and this file goes. It reads by subject (and the other filters) newest first, without paging
//! refinements.

use async_trait::async_trait;
use marque_domain::staff::StaffId;
use marque_ports::{Actor, AuditEntry, AuditLog, AuditLogError, AuditPage, AuditQuery, AuditRecord};
use surrealdb::types::SurrealValue;

use crate::conn::Conn;

/// [`AuditLog`] on a SurrealDB connection (see the module's note).
#[derive(Debug, Clone)]
pub struct SurrealAuditTrail {
    db: Conn,
}

impl SurrealAuditTrail {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }
}

#[derive(Debug, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct Row {
    id: String,
    /// The database's time of writing, as text (orders the entries of one second).
    #[allow(dead_code)]
    seq: String,
    at: i64,
    actor: String,
    actor_label: String,
    action: String,
    subject: String,
    before: Option<String>,
    after: Option<String>,
}

fn actor(key: String, label: String) -> Actor {
    match key.strip_prefix("system:") {
        Some(what) => Actor::System(what.to_owned()),
        None => Actor::Staff { id: StaffId(key), email: label },
    }
}

#[async_trait]
impl AuditLog for SurrealAuditTrail {
    async fn entries(&self, query: &AuditQuery) -> Result<AuditPage, AuditLogError> {
        let surql = "
            LET $rows = SELECT <string> record::id(id) AS id, at, <string> seq AS seq, actor, actor_label, action, subject, before, after FROM audit
                WHERE ($subject IS NONE OR subject = $subject) AND ($actor IS NONE OR actor = $actor)
                  AND ($action IS NONE OR action = $action OR string::starts_with(action, $action + '.'))
                  AND ($from IS NONE OR at >= $from) AND ($until IS NONE OR at < $until)
                ORDER BY at DESC, seq DESC;
            RETURN array::len($rows);
            RETURN array::slice($rows, $offset, $offset + $limit);";
        let unavailable = |e: surrealdb::Error| AuditLogError::Unavailable { reason: e.message().to_owned() };
        let mut response = self
            .db
            .query(surql)
            .bind(("subject", query.subject.clone()))
            .bind(("actor", query.actor.clone()))
            .bind(("action", query.action.clone()))
            .bind(("from", query.from))
            .bind(("until", query.until))
            .bind(("offset", i64::try_from(query.offset).unwrap_or(i64::MAX)))
            .bind(("limit", i64::from(query.limit)))
            .await
            .map_err(unavailable)?;
        let total: Option<i64> = response.take(1).map_err(unavailable)?;
        let rows: Vec<Row> = response.take(2).map_err(unavailable)?;
        let records = rows
            .into_iter()
            .map(|r| AuditRecord {
                id: r.id,
                entry: AuditEntry {
                    at: r.at,
                    actor: actor(r.actor, r.actor_label),
                    action: r.action,
                    subject: r.subject,
                    before: r.before,
                    after: r.after,
                },
            })
            .collect();
        Ok(AuditPage { records, total: total.map_or(0, |n| u64::try_from(n).unwrap_or(0)) })
    }
}
