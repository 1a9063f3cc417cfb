//! The account store on SurrealDB: customers, sessions, one-time codes and rate counters.

use async_trait::async_trait;
use marque_domain::account::Email;
use marque_domain::rate::WindowHits;
use marque_ports::{
    AccountStore, AccountStoreError, Challenge, ChallengeKey, ChallengeOutcome, NewSession, PendingSignIn, UserId, UserRecord,
};
use surrealdb::types::SurrealValue;

use crate::conn::{Conn, Statement};
use crate::error::{backoff, is_conflict, CONFLICT_RETRIES};

/// [`AccountStore`] on a SurrealDB connection. Get one from [`crate::Database::accounts`].
///
/// - `user` records are keyed by the [`UserId`]; `email_key` (the lower-cased email, NONE when
///   empty) and `mobile` (NONE when empty) carry unique indexes, so racing sign-ups cannot both
///   be written: the index refuses the second inside its own transaction.
/// - `session` records are keyed by the token's hash; `otp_challenge` by the user id (one live
///   code per key); `rate_hit` by `[key, window start]`.
/// - Rate counters of windows that ended a day ago are swept when a new window starts.
/// - A code check is two conditional single-record updates (use it up when the hash matches,
///   spend a try when it does not), each atomic; a write that loses a race is retried.
#[derive(Debug, Clone)]
pub struct SurrealAccountStore {
    db: Conn,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct PendingRow {
    state: String,
    nonce: String,
    pkce_verifier: String,
    expires_at: i64,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct UserRow {
    id: String,
    name: String,
    email: String,
    email_key: Option<String>,
    google_email: Option<String>,
    mobile: Option<String>,
    password_hash: Option<String>,
    profile: String,
    verified: bool,
    offer_exp: i64,
    percentage: i64,
    created_at: i64,
}

const USER_FIELDS: &str = "record::id(id) AS id, name, email, email_key, google_email, mobile, password_hash, \
     profile, verified, offer_exp, percentage, created_at";

impl From<&UserRecord> for UserRow {
    fn from(u: &UserRecord) -> Self {
        let email_key = Some(u.email.trim().to_lowercase()).filter(|e| !e.is_empty());
        Self {
            id: u.id.0.clone(),
            name: u.name.clone(),
            email: u.email.clone(),
            email_key,
            google_email: u.google_email.clone(),
            mobile: Some(u.mobile.clone()).filter(|m| !m.is_empty()),
            password_hash: u.password_hash.clone(),
            profile: u.profile.clone(),
            verified: u.verified,
            offer_exp: u.offer_exp,
            percentage: i64::from(u.percentage),
            created_at: u.created_at,
        }
    }
}

impl From<UserRow> for UserRecord {
    fn from(r: UserRow) -> Self {
        Self {
            id: UserId(r.id),
            name: r.name,
            email: r.email,
            google_email: r.google_email,
            mobile: r.mobile.unwrap_or_default(),
            password_hash: r.password_hash,
            profile: r.profile,
            verified: r.verified,
            offer_exp: r.offer_exp,
            percentage: u8::try_from(r.percentage.clamp(0, 100)).unwrap_or(0),
            created_at: r.created_at,
        }
    }
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct ChallengeRow {
    user: String,
    code_hash: String,
    sent_at: i64,
    expires_at: i64,
    tries_left: i64,
}

fn unavailable(e: &surrealdb::Error) -> AccountStoreError {
    AccountStoreError::Unavailable { reason: e.message().to_owned() }
}

/// A refused user write: which unique index said no, a schema violation, or the store.
fn user_write_error(e: &surrealdb::Error) -> AccountStoreError {
    let message = e.message();
    if message.contains("user_email_key") {
        AccountStoreError::DuplicateEmail
    } else if message.contains("user_mobile") {
        AccountStoreError::DuplicateMobile
    } else if message.contains("Couldn't coerce value for field") || message.contains("but field must conform to") {
        AccountStoreError::Invalid { reason: message.to_owned() }
    } else {
        unavailable(e)
    }
}

fn text(s: &str) -> String {
    s.to_owned()
}

impl SurrealAccountStore {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }

    async fn one_user(&self, condition: &str, value: String) -> Result<Option<UserRecord>, AccountStoreError> {
        let surql = format!("SELECT {USER_FIELDS} FROM user WHERE {condition} LIMIT 1");
        let rows: Vec<UserRow> =
            self.db.query(surql).bind(("value", value)).await.and_then(|mut r| r.take(0)).map_err(|e| unavailable(&e))?;
        Ok(rows.into_iter().next().map(UserRecord::from))
    }

    /// Runs a write (checked statement by statement), trying again while it loses races with
    /// other writers.
    async fn write_retrying<'a>(
        &'a self,
        make: impl Fn() -> Statement<'a>,
    ) -> Result<surrealdb::IndexedResults, surrealdb::Error> {
        retrying(make).await
    }
}

/// Runs a query built by `make`, checked statement by statement, again while it loses races.
pub(crate) async fn retrying<'a>(
    make: impl Fn() -> Statement<'a>,
) -> Result<surrealdb::IndexedResults, surrealdb::Error> {
    let mut attempt = 0;
    loop {
        match make().await.and_then(surrealdb::IndexedResults::check) {
            Err(e) if is_conflict(&e) && attempt < CONFLICT_RETRIES => {
                attempt += 1;
                backoff(attempt).await;
            }
            other => return other,
        }
    }
}

#[async_trait]
impl AccountStore for SurrealAccountStore {
    async fn create_user(&self, user: &UserRecord) -> Result<(), AccountStoreError> {
        let row = UserRow::from(user);
        let id = row.id.clone();
        self.write_retrying(|| {
            self.db
                .query("CREATE type::record('user', $id) CONTENT $row RETURN NONE")
                .bind(("id", id.clone()))
                .bind(("row", row.clone()))
        })
        .await
        .map(drop)
        .map_err(|e| {
            if e.is_already_exists() && !e.message().contains("user_") {
                AccountStoreError::Invalid { reason: format!("a customer with id `{id}` already exists") }
            } else {
                user_write_error(&e)
            }
        })
    }

    async fn user(&self, id: &UserId) -> Result<Option<UserRecord>, AccountStoreError> {
        if id.0.is_empty() {
            return Ok(None);
        }
        let rows: Vec<UserRow> = self
            .db
            .query(format!("SELECT {USER_FIELDS} FROM type::record('user', $id)"))
            .bind(("id", id.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(rows.into_iter().next().map(UserRecord::from))
    }

    async fn user_by_email(&self, email: &Email) -> Result<Option<UserRecord>, AccountStoreError> {
        self.one_user("email_key = $value", email.as_str().to_lowercase()).await
    }

    async fn user_by_mobile(&self, mobile: &str) -> Result<Option<UserRecord>, AccountStoreError> {
        if mobile.is_empty() {
            return Ok(None);
        }
        self.one_user("mobile = $value", text(mobile)).await
    }

    async fn user_by_google_email(&self, email: &str) -> Result<Option<UserRecord>, AccountStoreError> {
        if email.is_empty() {
            return Ok(None);
        }
        self.one_user("google_email = $value", text(email)).await
    }

    async fn update_user(&self, user: &UserRecord) -> Result<(), AccountStoreError> {
        let row = UserRow::from(user);
        let id = row.id.clone();
        let updated: Vec<String> = self
            .write_retrying(|| {
                self.db
                    .query("UPDATE type::record('user', $id) CONTENT $row RETURN VALUE record::id(id)")
                    .bind(("id", id.clone()))
                    .bind(("row", row.clone()))
            })
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| user_write_error(&e))?;
        if updated.is_empty() {
            return Err(AccountStoreError::Invalid { reason: format!("no customer has id `{id}`") });
        }
        Ok(())
    }

    async fn create_session(&self, session: &NewSession) -> Result<(), AccountStoreError> {
        self.db
            .query("CREATE type::record('session', $hash) SET user = $user, expires_at = $expires, ended = false RETURN NONE")
            .bind(("hash", session.token_hash.clone()))
            .bind(("user", session.user.0.clone()))
            .bind(("expires", session.expires_at))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map(drop)
            .map_err(|e| unavailable(&e))
    }

    async fn session_user(&self, token_hash: &str, now: i64) -> Result<Option<UserId>, AccountStoreError> {
        if token_hash.is_empty() {
            return Ok(None);
        }
        let users: Vec<String> = self
            .db
            .query("SELECT VALUE user FROM type::record('session', $hash) WHERE ended = false AND expires_at > $now")
            .bind(("hash", text(token_hash)))
            .bind(("now", now))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(users.into_iter().next().map(UserId))
    }

    async fn end_session(&self, token_hash: &str) -> Result<(), AccountStoreError> {
        if token_hash.is_empty() {
            return Ok(());
        }
        let hash = text(token_hash);
        self.write_retrying(|| {
            self.db
                .query("UPDATE type::record('session', $hash) SET ended = true WHERE ended = false RETURN NONE")
                .bind(("hash", hash.clone()))
        })
        .await
        .map(drop)
        .map_err(|e| unavailable(&e))
    }

    async fn put_challenge(&self, challenge: &Challenge) -> Result<(), AccountStoreError> {
        let c = challenge.clone();
        self.write_retrying(|| {
            self.db
                .query(
                    "UPSERT type::record('otp_challenge', $user) SET code_hash = $hash, sent_at = $sent, \
                     expires_at = $expires, tries_left = $tries, used = false RETURN NONE",
                )
                .bind(("user", c.key.user.0.clone()))
                .bind(("hash", c.code_hash.clone()))
                .bind(("sent", c.sent_at))
                .bind(("expires", c.expires_at))
                .bind(("tries", i64::from(c.tries_left)))
        })
        .await
        .map(drop)
        .map_err(|e| unavailable(&e))
    }

    async fn challenge(&self, key: &ChallengeKey, now: i64) -> Result<Option<Challenge>, AccountStoreError> {
        let rows: Vec<ChallengeRow> = self
            .db
            .query(
                "SELECT record::id(id) AS user, code_hash, sent_at, expires_at, tries_left \
                 FROM type::record('otp_challenge', $user) WHERE used = false AND tries_left > 0 AND expires_at > $now",
            )
            .bind(("user", key.user.0.clone()))
            .bind(("now", now))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(rows.into_iter().next().map(|r| Challenge {
            key: ChallengeKey { user: UserId(r.user) },
            code_hash: r.code_hash,
            sent_at: r.sent_at,
            expires_at: r.expires_at,
            tries_left: u8::try_from(r.tries_left.clamp(0, 255)).unwrap_or(0),
        }))
    }

    async fn check_challenge(
        &self,
        key: &ChallengeKey,
        now: i64,
        offered_hash: &str,
    ) -> Result<ChallengeOutcome, AccountStoreError> {
        const LIVE: &str = "used = false AND tries_left > 0 AND expires_at > $now";
        let user = key.user.0.clone();
        let hash = text(offered_hash);
        let accepted: Vec<i64> = self
            .write_retrying(|| {
                self.db
                    .query(format!(
                        "UPDATE type::record('otp_challenge', $user) SET used = true \
                         WHERE {LIVE} AND code_hash = $hash RETURN VALUE tries_left"
                    ))
                    .bind(("user", user.clone()))
                    .bind(("now", now))
                    .bind(("hash", hash.clone()))
            })
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        if !accepted.is_empty() {
            return Ok(ChallengeOutcome::Accepted);
        }
        let wrong: Vec<i64> = self
            .write_retrying(|| {
                self.db
                    .query(format!(
                        "UPDATE type::record('otp_challenge', $user) SET tries_left -= 1 \
                         WHERE {LIVE} AND code_hash != $hash RETURN VALUE tries_left"
                    ))
                    .bind(("user", user.clone()))
                    .bind(("now", now))
                    .bind(("hash", hash.clone()))
            })
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(match wrong.first() {
            Some(left) => ChallengeOutcome::Wrong { tries_left: u8::try_from((*left).clamp(0, 255)).unwrap_or(0) },
            None => ChallengeOutcome::NoCode,
        })
    }

    async fn hit(&self, key: &str, now: i64, window_secs: i64) -> Result<WindowHits, AccountStoreError> {
        let window = window_secs.max(1);
        let start = now.div_euclid(window) * window;
        let key = text(key);
        let (counts, previous): (Vec<i64>, Vec<i64>) = self
            .write_retrying(|| {
                self.db
                    .query(
                        "UPSERT type::record('rate_hit', [$key, $start]) SET count += 1, window_end = $end \
                         RETURN VALUE count",
                    )
                    .query("SELECT VALUE count FROM ONLY type::record('rate_hit', [$key, $before])")
                    .bind(("key", key.clone()))
                    .bind(("start", start))
                    .bind(("before", start - window))
                    .bind(("end", start + window))
            })
            .await
            .and_then(|mut r| Ok((r.take(0)?, r.take::<Option<i64>>(1)?.into_iter().collect())))
            .map_err(|e| unavailable(&e))?;
        let count = counts.first().copied().unwrap_or(1);
        if count == 1 {
            // A new window began: sweep counters whose windows ended a day ago or more.
            let swept = self
                .db
                .query("DELETE rate_hit WHERE window_end < $before RETURN NONE")
                .bind(("before", now - 86_400))
                .await
                .and_then(surrealdb::IndexedResults::check);
            if let Err(e) = swept {
                tracing::debug!(error = %e.message(), "sweeping old rate counters failed; the next window tries again");
            }
        }
        let count_of = |n: i64| u32::try_from(n.max(0)).unwrap_or(u32::MAX);
        Ok(WindowHits {
            current: count_of(count.max(1)),
            previous: previous.first().copied().map_or(0, count_of),
        })
    }

    async fn unhit(&self, key: &str, now: i64, window_secs: i64) -> Result<(), AccountStoreError> {
        let window = window_secs.max(1);
        let start = now.div_euclid(window) * window;
        let key = text(key);
        self.write_retrying(|| {
            self.db
                .query("UPDATE type::record('rate_hit', [$key, $start]) SET count -= 1 WHERE count > 0 RETURN NONE")
                .bind(("key", key.clone()))
                .bind(("start", start))
        })
        .await
        .map(|_| ())
        .map_err(|e| unavailable(&e))
    }

    async fn put_pending_sign_in(&self, pending: &PendingSignIn, expires_at: i64) -> Result<(), AccountStoreError> {
        let p = pending.clone();
        self.write_retrying(|| {
            self.db
                .query(
                    "UPSERT type::record('pending_sign_in', $state) SET nonce = $nonce, \
                     pkce_verifier = $verifier, expires_at = $expires RETURN NONE",
                )
                .bind(("state", text(&p.state)))
                .bind(("nonce", p.nonce.clone()))
                .bind(("verifier", p.pkce_verifier.clone()))
                .bind(("expires", expires_at))
        })
        .await
        .map(drop)
        .map_err(|e| unavailable(&e))?;
        // Sign-ins never finished are swept as new ones start.
        let swept = self
            .db
            .query("DELETE pending_sign_in WHERE expires_at < $now RETURN NONE")
            .bind(("now", expires_at - 86_400))
            .await
            .and_then(surrealdb::IndexedResults::check);
        if let Err(e) = swept {
            tracing::debug!(error = %e.message(), "sweeping old sign-ins failed; the next start tries again");
        }
        Ok(())
    }

    async fn take_pending_sign_in(&self, state: &str, now: i64) -> Result<Option<PendingSignIn>, AccountStoreError> {
        if state.is_empty() || state.len() > 512 {
            return Ok(None);
        }
        let state = text(state);
        // DELETE is atomic per record: of racing callers only one gets the record back.
        let rows: Vec<PendingRow> = self
            .write_retrying(|| {
                self.db
                    .query(
                        "LET $gone = (DELETE type::record('pending_sign_in', $state) RETURN BEFORE); \
                         SELECT record::id(id) AS state, nonce, pkce_verifier, expires_at FROM $gone",
                    )
                    .bind(("state", state.clone()))
            })
            .await
            .and_then(|mut r| r.take(1))
            .map_err(|e| unavailable(&e))?;
        Ok(rows
            .into_iter()
            .find(|r| r.expires_at > now)
            .map(|r| PendingSignIn { state: r.state, nonce: r.nonce, pkce_verifier: r.pkce_verifier }))
    }
}
