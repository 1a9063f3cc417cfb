//! `admin-audit`: the audit trail, for owners (`GET /api/admin/audit`).

use marque_app::admin::audit::{AuditError, AuditService};
use marque_domain::Message;
use marque_ports::{AuditQuery, AuditRecord};
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi, Tags};

use super::auth::AuditStaff;
use super::list_window;
use crate::error::ErrorBody;

#[derive(Tags)]
enum Tag {
    /// Staff: who changed what in the back office, when, and the values before and after.
    #[oai(rename = "admin-audit")]
    AdminAudit,
}

/// One change as the trail recorded it.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminAuditEntry")]
pub struct AuditEntryView {
    #[oai(rename = "_id")]
    pub id: String,
    /// When (seconds since the Unix epoch).
    pub at: i64,
    /// Who: a staff member's `_id`, or `system:<what>` (the command line, start-up, a migration).
    pub actor: String,
    /// Who, as a person reads it: the staff member's email, or `system (<what>)`.
    #[oai(rename = "actorLabel")]
    pub actor_label: String,
    /// What was done, `<area>.<verb>` (`offer.set`, `product.update`, …).
    pub action: String,
    /// What it was done to, `<kind>:<id>` (`customer:…`, `product:…`).
    pub subject: String,
    /// The changed fields before the change (`null` when nothing existed).
    pub before: Option<serde_json::Value>,
    /// The changed fields after it (`null` when nothing remains).
    pub after: Option<serde_json::Value>,
}

/// Stored JSON text as a value (text that is not JSON stays a string).
fn value(text: Option<String>) -> Option<serde_json::Value> {
    text.map(|t| serde_json::from_str(&t).unwrap_or(serde_json::Value::String(t)))
}

impl From<AuditRecord> for AuditEntryView {
    fn from(r: AuditRecord) -> Self {
        let e = r.entry;
        AuditEntryView {
            id: r.id,
            at: e.at,
            actor: e.actor.key(),
            actor_label: e.actor.label(),
            action: e.action,
            subject: e.subject,
            before: value(e.before),
            after: value(e.after),
        }
    }
}

/// One page of the trail, newest first.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminAuditList")]
pub struct AuditList {
    pub results: Vec<AuditEntryView>,
    pub pages: u64,
    pub total: u64,
}

admin_response!(AuditAnswer, audit_bad_request, "audit_bad_request", {
    /// The entries, newest first.
    Ok(poem_openapi::payload::Json<AuditList>) = 200,
});

#[derive(Debug)]
pub struct AuditApi {
    audit: AuditService,
}

impl AuditApi {
    pub fn new(audit: AuditService) -> Self {
        Self { audit }
    }
}

/// An empty filter is no filter.
fn given(text: Option<String>) -> Option<String> {
    text.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty())
}

#[OpenApi(tag = "Tag::AdminAudit")]
impl AuditApi {
    /// The audit trail, newest first; every filter given must hold.
    #[oai(path = "/admin/audit", method = "get", operation_id = "adminAudit")]
    #[allow(clippy::too_many_arguments)]
    async fn entries(
        &self,
        staff: AuditStaff,
        /// A staff member's `_id` (or `system:<what>`).
        actor: Query<Option<String>>,
        /// An action (`offer.set`), or an area (`offer`: every `offer.…`).
        action: Query<Option<String>>,
        /// A subject, `<kind>:<id>` (`customer:…`).
        subject: Query<Option<String>>,
        /// From this moment on (seconds since the Unix epoch, inclusive).
        from: Query<Option<i64>>,
        /// Before this moment (seconds since the Unix epoch, exclusive).
        until: Query<Option<i64>>,
        /// Page number from 1; absent means 1.
        page: Query<Option<u64>>,
        /// Rows a page, 1–100; absent means 20.
        size: Query<Option<u64>>,
    ) -> AuditAnswer {
        let window = match list_window(page.0, size.0) {
            Ok(w) => w,
            Err(body) => return AuditAnswer::BadRequest(body),
        };
        if let (Some(from), Some(until)) = (from.0, until.0) {
            if from > until {
                return AuditAnswer::BadRequest(ErrorBody::from_message(Message::AuditFilterInvalid));
            }
        }
        let query = AuditQuery {
            actor: given(actor.0),
            action: given(action.0),
            subject: given(subject.0),
            from: from.0,
            until: until.0,
            window,
        };
        match self.audit.entries(&staff, &query).await {
            Ok(p) => AuditAnswer::Ok(Json(AuditList {
                pages: window.pages(p.total),
                total: p.total,
                results: p.records.into_iter().map(AuditEntryView::from).collect(),
            })),
            Err(e @ AuditError::Forbidden(_)) => AuditAnswer::Forbidden(ErrorBody::from_message(e.message())),
            Err(e @ AuditError::Unavailable(_)) => {
                tracing::error!(error = %e, "reading the audit trail failed");
                AuditAnswer::Unavailable(ErrorBody::from_message(e.message()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_values_answer_as_json() {
        assert_eq!(value(Some(r#"{"percentage":10}"#.into())), Some(serde_json::json!({"percentage": 10})));
        assert_eq!(value(Some("not json".into())), Some(serde_json::json!("not json")));
        assert_eq!(value(None), None);
        assert_eq!(given(Some("  ".into())), None);
    }
}
