//! The staff store on SurrealDB: staff, their set-up codes and their sessions (migration 13).

use async_trait::async_trait;
use marque_domain::paging::ListWindow;
use marque_domain::staff::{Staff, StaffId, StaffRole};
use marque_ports::{
    AuditEntry, SetupCode, SetupSecrets, StaffPage, StaffRecord, StaffSession, StaffStatus, StaffStore,
    StaffStoreError, StaffSwept,
};
use surrealdb::types::SurrealValue;

use crate::accounts::{count_of, retrying, transaction_retrying};
use crate::conn::Conn;

/// [`StaffStore`] on a SurrealDB connection. Get one from [`crate::Database::staff`].
///
/// - `staff` records are keyed by the [`StaffId`]; `email_key` (unique) holds the lower-cased email
///   while the staff member is not removed, so two invitations of one email cannot both succeed.
/// - `staff_setup` records are keyed by the code's hash, `staff_session` by the token's hash.
/// - Invitations, set-ups and removals are one transaction each, with their audit row.
#[derive(Debug, Clone)]
pub struct SurrealStaffStore {
    db: Conn,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct StaffRow {
    id: String,
    email: String,
    email_key: Option<String>,
    name: String,
    role: String,
    status: String,
    password_hash: Option<String>,
    totp_sealed: Option<String>,
    created_at: i64,
}

const FIELDS: &str =
    "record::id(id) AS id, email, email_key, name, role, status, password_hash, totp_sealed, created_at";

/// What a set-up or a removal throws when its subject is not there.
const NOT_LIVE: &str = "the set-up code is not live";
const NO_STAFF: &str = "no such staff member";

impl From<&StaffRecord> for StaffRow {
    fn from(r: &StaffRecord) -> Self {
        let email = r.staff.email.trim().to_lowercase();
        Self {
            id: r.staff.id.0.clone(),
            email_key: Some(email.clone()).filter(|_| r.status != StaffStatus::Removed),
            email,
            name: r.staff.name.clone(),
            role: r.staff.role.as_str().to_owned(),
            status: r.status.as_str().to_owned(),
            password_hash: r.password_hash.clone(),
            totp_sealed: r.totp_sealed.clone(),
            created_at: r.created_at,
        }
    }
}

impl StaffRow {
    /// The record, or `None` for a row whose role or status this version does not know.
    fn record(self) -> Option<StaffRecord> {
        let role = StaffRole::parse(&self.role).ok()?;
        let status = StaffStatus::parse(&self.status)?;
        Some(StaffRecord {
            staff: Staff { id: StaffId(self.id), email: self.email, name: self.name, role },
            status,
            password_hash: self.password_hash,
            totp_sealed: self.totp_sealed,
            created_at: self.created_at,
        })
    }
}

fn unavailable(e: &surrealdb::Error) -> StaffStoreError {
    StaffStoreError::Unavailable { reason: e.message().to_owned() }
}

/// A refused staff write: the unique email, a schema violation, or the store.
fn write_error(e: &surrealdb::Error) -> StaffStoreError {
    let message = e.message();
    if message.contains("staff_email_key") {
        StaffStoreError::DuplicateEmail
    } else if message.contains(NO_STAFF) {
        StaffStoreError::NotFound
    } else if message.contains("Couldn't coerce value for field") || message.contains("but field must conform to") {
        StaffStoreError::Invalid { reason: message.to_owned() }
    } else {
        unavailable(e)
    }
}

fn rows(rows: Vec<StaffRow>) -> Vec<StaffRecord> {
    rows.into_iter().filter_map(StaffRow::record).collect()
}

impl SurrealStaffStore {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }

    /// The staff member (not removed) that the live record `table:$key`'s `staff` field names.
    async fn named_by(
        &self,
        table: &str,
        key: &str,
        live: &str,
        now: i64,
    ) -> Result<Option<StaffRecord>, StaffStoreError> {
        if key.is_empty() {
            return Ok(None);
        }
        let found: Vec<StaffRow> = self
            .db
            .query(format!(
                "LET $sid = (SELECT VALUE staff FROM type::record('{table}', $key) WHERE {live})[0] ?? '-'; \
                 SELECT {FIELDS} FROM type::record('staff', $sid) WHERE status != 'removed';"
            ))
            .bind(("key", key.to_owned()))
            .bind(("now", now))
            .await
            .and_then(|mut r| r.take(1))
            .map_err(|e| unavailable(&e))?;
        Ok(rows(found).into_iter().next())
    }
}

#[async_trait]
impl StaffStore for SurrealStaffStore {
    async fn invite(&self, record: &StaffRecord, code: &SetupCode, audit: &AuditEntry) -> Result<(), StaffStoreError> {
        let row = StaffRow::from(record);
        let code = code.clone();
        let surql = format!(
            "BEGIN; \
             CREATE type::record('staff', $id) CONTENT $row RETURN NONE; \
             CREATE type::record('staff_setup', $code) SET staff = $id, expires_at = $expires RETURN NONE; \
             {} COMMIT;",
            crate::audit::WRITE
        );
        transaction_retrying(|| {
            self.db
                .query(surql.clone())
                .bind(("id", row.id.clone()))
                .bind(("row", row.clone()))
                .bind(("code", code.code_hash.clone()))
                .bind(("expires", code.expires_at))
                .bind(crate::audit::bind(audit))
        })
        .await
        .map_err(|e| {
            if e.is_already_exists() && !e.message().contains("staff_email_key") {
                StaffStoreError::Invalid { reason: format!("a staff member with id `{}` already exists", row.id) }
            } else {
                write_error(&e)
            }
        })
    }

    async fn reissue(&self, code: &SetupCode, audit: &AuditEntry) -> Result<(), StaffStoreError> {
        let code = code.clone();
        let surql = format!(
            "BEGIN; \
             LET $s = (SELECT VALUE status FROM type::record('staff', $id))[0]; \
             IF $s = NONE OR $s = 'removed' {{ THROW '{NO_STAFF}' }}; \
             DELETE staff_setup WHERE staff = $id RETURN NONE; \
             CREATE type::record('staff_setup', $code) SET staff = $id, expires_at = $expires RETURN NONE; \
             {} COMMIT;",
            crate::audit::WRITE
        );
        transaction_retrying(|| {
            self.db
                .query(surql.clone())
                .bind(("id", code.staff.0.clone()))
                .bind(("code", code.code_hash.clone()))
                .bind(("expires", code.expires_at))
                .bind(crate::audit::bind(audit))
        })
        .await
        .map_err(|e| write_error(&e))
    }

    async fn staff(&self, id: &StaffId) -> Result<Option<StaffRecord>, StaffStoreError> {
        if id.0.is_empty() {
            return Ok(None);
        }
        let found: Vec<StaffRow> = self
            .db
            .query(format!("SELECT {FIELDS} FROM type::record('staff', $id)"))
            .bind(("id", id.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(rows(found).into_iter().next())
    }

    async fn staff_by_email(&self, email: &str) -> Result<Option<StaffRecord>, StaffStoreError> {
        let key = email.trim().to_lowercase();
        if key.is_empty() {
            return Ok(None);
        }
        let found: Vec<StaffRow> = self
            .db
            .query(format!("SELECT {FIELDS} FROM staff WHERE email_key = $key LIMIT 1"))
            .bind(("key", key))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(rows(found).into_iter().next())
    }

    async fn list(&self, window: ListWindow) -> Result<StaffPage, StaffStoreError> {
        let mut answer = self
            .db
            .query(format!(
                "SELECT {FIELDS} FROM staff WHERE status != 'removed' ORDER BY created_at, id LIMIT $limit START $offset; \
                 RETURN (SELECT count() AS n FROM staff WHERE status != 'removed' GROUP ALL)[0].n ?? 0;"
            ))
            .bind(("limit", i64::from(window.limit())))
            .bind(("offset", i64::try_from(window.offset()).unwrap_or(i64::MAX)))
            .await
            .map_err(|e| unavailable(&e))?;
        let found: Vec<StaffRow> = answer.take(0).map_err(|e| unavailable(&e))?;
        let total: Option<i64> = answer.take(1).map_err(|e| unavailable(&e))?;
        Ok(StaffPage { records: rows(found), total: u64::try_from(total.unwrap_or(0)).unwrap_or(0) })
    }

    async fn owners(&self) -> Result<u64, StaffStoreError> {
        let n: Option<i64> = self
            .db
            .query(
                "RETURN (SELECT count() AS n FROM staff WHERE role = 'owner' AND status != 'removed' GROUP ALL)[0].n ?? 0;",
            )
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(u64::try_from(n.unwrap_or(0)).unwrap_or(0))
    }

    async fn setup_code(&self, code_hash: &str, now: i64) -> Result<Option<StaffRecord>, StaffStoreError> {
        self.named_by("staff_setup", code_hash, "expires_at > $now", now).await
    }

    async fn complete_setup(
        &self,
        code_hash: &str,
        staff: &StaffId,
        now: i64,
        secrets: &SetupSecrets,
        audit: &AuditEntry,
    ) -> Result<bool, StaffStoreError> {
        if code_hash.is_empty() || staff.0.is_empty() {
            return Ok(false);
        }
        let surql = format!(
            "BEGIN; \
             LET $c = (SELECT VALUE staff FROM type::record('staff_setup', $code) WHERE expires_at > $now)[0]; \
             IF $c != $id {{ THROW '{NOT_LIVE}' }}; \
             LET $s = (SELECT VALUE status FROM type::record('staff', $id))[0]; \
             IF $s = NONE OR $s = 'removed' {{ THROW '{NOT_LIVE}' }}; \
             DELETE staff_setup WHERE staff = $id RETURN NONE; \
             UPDATE staff_session SET ended = true WHERE staff = $id AND ended = false RETURN NONE; \
             UPDATE type::record('staff', $id) SET password_hash = $password, totp_sealed = $totp, totp_step = 0, \
                 status = 'active' RETURN NONE; \
             {} COMMIT;",
            crate::audit::WRITE
        );
        let outcome = transaction_retrying(|| {
            self.db
                .query(surql.clone())
                .bind(("code", code_hash.to_owned()))
                .bind(("id", staff.0.clone()))
                .bind(("now", now))
                .bind(("password", secrets.password_hash.clone()))
                .bind(("totp", secrets.totp_sealed.clone()))
                .bind(crate::audit::bind(audit))
        })
        .await;
        match outcome {
            Ok(()) => Ok(true),
            Err(e) if e.message().contains(NOT_LIVE) => Ok(false),
            Err(e) => Err(write_error(&e)),
        }
    }

    async fn use_totp_step(&self, staff: &StaffId, step: i64) -> Result<bool, StaffStoreError> {
        if staff.0.is_empty() {
            return Err(StaffStoreError::NotFound);
        }
        let id = staff.0.clone();
        let mut answer = retrying(|| {
            self.db
                .query(
                    "UPDATE type::record('staff', $id) SET totp_step = $step \
                     WHERE status = 'active' AND totp_step < $step RETURN VALUE true; \
                     SELECT VALUE status FROM type::record('staff', $id);",
                )
                .bind(("id", id.clone()))
                .bind(("step", step))
        })
        .await
        .map_err(|e| unavailable(&e))?;
        let used: Vec<bool> = answer.take(0).map_err(|e| unavailable(&e))?;
        let status: Vec<String> = answer.take(1).map_err(|e| unavailable(&e))?;
        if status.first().map(String::as_str) != Some(StaffStatus::Active.as_str()) {
            return Err(StaffStoreError::NotFound);
        }
        Ok(!used.is_empty())
    }

    async fn create_session(&self, session: &StaffSession) -> Result<(), StaffStoreError> {
        self.db
            .query(
                "CREATE type::record('staff_session', $hash) SET staff = $staff, expires_at = $expires, ended = false \
                 RETURN NONE",
            )
            .bind(("hash", session.token_hash.clone()))
            .bind(("staff", session.staff.0.clone()))
            .bind(("expires", session.expires_at))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map(drop)
            .map_err(|e| unavailable(&e))
    }

    async fn session_staff(&self, token_hash: &str, now: i64) -> Result<Option<Staff>, StaffStoreError> {
        let found = self.named_by("staff_session", token_hash, "ended = false AND expires_at > $now", now).await?;
        Ok(found.filter(|r| r.status == StaffStatus::Active).map(|r| r.staff))
    }

    async fn end_session(&self, token_hash: &str) -> Result<(), StaffStoreError> {
        if token_hash.is_empty() {
            return Ok(());
        }
        let hash = token_hash.to_owned();
        retrying(|| {
            self.db
                .query("UPDATE type::record('staff_session', $hash) SET ended = true WHERE ended = false RETURN NONE")
                .bind(("hash", hash.clone()))
        })
        .await
        .map(drop)
        .map_err(|e| unavailable(&e))
    }

    async fn remove(&self, staff: &StaffId, audit: &AuditEntry) -> Result<StaffRecord, StaffStoreError> {
        let before =
            self.staff(staff).await?.filter(|r| r.status != StaffStatus::Removed).ok_or(StaffStoreError::NotFound)?;
        let surql = format!(
            "BEGIN; \
             LET $s = (SELECT VALUE status FROM type::record('staff', $id))[0]; \
             IF $s = NONE OR $s = 'removed' {{ THROW '{NO_STAFF}' }}; \
             UPDATE type::record('staff', $id) SET status = 'removed', email_key = NONE, password_hash = NONE, \
                 totp_sealed = NONE RETURN NONE; \
             UPDATE staff_session SET ended = true WHERE staff = $id AND ended = false RETURN NONE; \
             DELETE staff_setup WHERE staff = $id RETURN NONE; \
             {} COMMIT;",
            crate::audit::WRITE
        );
        transaction_retrying(|| {
            self.db.query(surql.clone()).bind(("id", staff.0.clone())).bind(crate::audit::bind(audit))
        })
        .await
        .map_err(|e| write_error(&e))?;
        Ok(before)
    }

    async fn sweep(&self, now: i64) -> Result<StaffSwept, StaffStoreError> {
        let mut counts = retrying(|| {
            self.db
                .query(
                    "RETURN array::len((DELETE staff_session WHERE expires_at <= $now OR ended = true RETURN VALUE true)); \
                     RETURN array::len((DELETE staff_setup WHERE expires_at <= $now RETURN VALUE true));",
                )
                .bind(("now", now))
        })
        .await
        .map_err(|e| unavailable(&e))?;
        let sessions: Option<i64> = counts.take(0).map_err(|e| unavailable(&e))?;
        let setup_codes: Option<i64> = counts.take(1).map_err(|e| unavailable(&e))?;
        Ok(StaffSwept { sessions: count_of(sessions.unwrap_or(0)), setup_codes: count_of(setup_codes.unwrap_or(0)) })
    }
}
