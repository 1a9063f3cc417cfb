//! The account store on SurrealDB: customers, sessions and one-time codes.

use async_trait::async_trait;
use marque_domain::account::Email;
use marque_domain::paging::ListWindow;
use marque_domain::pricing::OfferEndsOn;
use marque_ports::{
    AccountStore, AccountStoreError, AuditEntry, Challenge, ChallengeKey, ChallengeOutcome, Channel, CustomerOffer,
    NewSession, PendingSignIn, SignInCode, Swept, UserId, UserRecord, UsersPage,
};
use surrealdb::types::SurrealValue;

mod erase;
mod search;
mod sign_in_codes;

use crate::conn::{Conn, Statement};
use crate::error::{backoff, is_conflict, CONFLICT_RETRIES};

/// [`AccountStore`] on a SurrealDB connection. Get one from [`crate::Database::accounts`].
///
/// - `user` records are keyed by the [`UserId`]; `email_key` (the lower-cased email) and `mobile`
///   carry unique indexes and are set only while the channel is proven (NONE otherwise), so two
///   accounts can never prove one email or mobile: the index refuses the second inside its own
///   transaction. `email_claim` and `mobile_number` always hold them, for the accounts that only
///   claim one (migration 9).
/// - `session` records are keyed by the token's hash; `otp_challenge` by `[user id, channel]` (one
///   live code per key); `external_identity` by `[issuer, subject]`. (Rate counters are
///   [`crate::SurrealRateCounter`]'s.)
/// - A code check is one conditional single-record update that spends a try and compares the hash
///   together, so racing checks compare at most the stored tries; a write that loses a race is retried.
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
    email_claim: Option<String>,
    email_verified: bool,
    google_email: Option<String>,
    mobile: Option<String>,
    mobile_number: Option<String>,
    mobile_verified: bool,
    password_hash: Option<String>,
    profile: String,
    /// The offer's last day in India, days from 1970-01-01 (migration 17).
    offer_ends_on: Option<i64>,
    percentage: i64,
    created_at: i64,
}

const USER_FIELDS: &str = "record::id(id) AS id, name, email, email_key, email_claim, email_verified, google_email, \
     mobile, mobile_number, mobile_verified, password_hash, profile, offer_ends_on, percentage, created_at";

impl From<&UserRecord> for UserRow {
    fn from(u: &UserRecord) -> Self {
        let email_claim = Some(u.email.trim().to_lowercase()).filter(|e| !e.is_empty());
        let mobile_number = Some(u.mobile.clone()).filter(|m| !m.is_empty());
        Self {
            id: u.id.0.clone(),
            name: u.name.clone(),
            email: u.email.clone(),
            email_key: email_claim.clone().filter(|_| u.email_verified),
            email_verified: u.email_verified && email_claim.is_some(),
            email_claim,
            google_email: u.google_email.clone(),
            mobile: mobile_number.clone().filter(|_| u.mobile_verified),
            mobile_verified: u.mobile_verified && mobile_number.is_some(),
            mobile_number,
            password_hash: u.password_hash.clone(),
            profile: u.profile.clone(),
            offer_ends_on: u.offer_ends_on.map(OfferEndsOn::day),
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
            mobile: r.mobile_number.unwrap_or_default(),
            password_hash: r.password_hash,
            profile: r.profile,
            email_verified: r.email_verified,
            mobile_verified: r.mobile_verified,
            offer_ends_on: r.offer_ends_on.map(OfferEndsOn::from_day),
            percentage: u8::try_from(r.percentage.clamp(0, 100)).unwrap_or(0),
            created_at: r.created_at,
        }
    }
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct ChallengeRow {
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

/// A challenge's channel as stored in its key.
fn channel_name(channel: Channel) -> &'static str {
    match channel {
        Channel::Email => "email",
        Channel::Sms => "sms",
    }
}

/// How a code check left the code: used (it matched) and the tries left.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct CheckedRow {
    used: bool,
    tries_left: i64,
}

/// A count of what a sweep deleted.
pub(crate) fn count_of(n: i64) -> u64 {
    u64::try_from(n.max(0)).unwrap_or(0)
}

impl SurrealAccountStore {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }

    async fn claiming(
        &self,
        field: &str,
        proven: &str,
        value: String,
        limit: u32,
    ) -> Result<Vec<UserRecord>, AccountStoreError> {
        if value.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let surql = format!(
            "SELECT {USER_FIELDS} FROM user WHERE {field} = $value AND {proven} = false ORDER BY created_at LIMIT $limit"
        );
        let rows: Vec<UserRow> = self
            .db
            .query(surql)
            .bind(("value", value))
            .bind(("limit", i64::from(limit)))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(rows.into_iter().map(UserRecord::from).collect())
    }

    async fn one_user(&self, condition: &str, value: String) -> Result<Option<UserRecord>, AccountStoreError> {
        let surql = format!("SELECT {USER_FIELDS} FROM user WHERE {condition} LIMIT 1");
        let rows: Vec<UserRow> = self
            .db
            .query(surql)
            .bind(("value", value))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
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

/// Runs a `BEGIN … COMMIT` query built by `make` again while it loses races. When it fails, the
/// error is the failing statement's own (the others only say the transaction failed).
pub(crate) async fn transaction_retrying<'a>(make: impl Fn() -> Statement<'a>) -> Result<(), surrealdb::Error> {
    let mut attempt = 0;
    loop {
        let failed = match make().await {
            Ok(mut results) => {
                let mut errors: Vec<(usize, surrealdb::Error)> = results.take_errors().into_iter().collect();
                errors.sort_by_key(|(i, _)| *i);
                let own =
                    errors.iter().position(|(_, e)| !e.message().contains("not executed due to a failed transaction"));
                match own {
                    Some(i) => Some(errors.swap_remove(i).1),
                    None => errors.into_iter().next().map(|(_, e)| e),
                }
            }
            Err(e) => Some(e),
        };
        match failed {
            None => return Ok(()),
            Some(e) if is_conflict(&e) && attempt < CONFLICT_RETRIES => {
                attempt += 1;
                backoff(attempt).await;
            }
            Some(e) => return Err(e),
        }
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

    async fn set_language(
        &self,
        user: &UserId,
        language: marque_domain::order::Language,
    ) -> Result<bool, AccountStoreError> {
        if user.0.is_empty() {
            return Ok(false);
        }
        let set: Vec<String> = self
            .db
            .query("UPDATE type::record('user', $id) SET language = $language RETURN VALUE record::id(id)")
            .bind(("id", user.0.clone()))
            .bind(("language", language.code().to_owned()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(!set.is_empty())
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

    async fn users_claiming_email(&self, email: &Email, limit: u32) -> Result<Vec<UserRecord>, AccountStoreError> {
        self.claiming("email_claim", "email_verified", email.as_str().to_lowercase(), limit).await
    }

    async fn users_claiming_mobile(&self, mobile: &str, limit: u32) -> Result<Vec<UserRecord>, AccountStoreError> {
        self.claiming("mobile_number", "mobile_verified", text(mobile), limit).await
    }

    async fn update_user(&self, user: &UserRecord) -> Result<(), AccountStoreError> {
        let row = UserRow::from(user);
        let id = row.id.clone();
        let updated: Vec<String> = self
            .write_retrying(|| {
                self.db
                    .query(
                        "UPDATE type::record('user', $id) SET name = $row.name, profile = $row.profile, \
                         google_email = $row.google_email, password_hash = $row.password_hash \
                         RETURN VALUE record::id(id)",
                    )
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

    async fn search_users(&self, text: &str, window: ListWindow) -> Result<UsersPage, AccountStoreError> {
        search::users(&self.db, text, window.offset(), window.limit()).await
    }

    async fn set_offer(
        &self,
        user: &UserId,
        offer: Option<CustomerOffer>,
        audit: &AuditEntry,
    ) -> Result<(), AccountStoreError> {
        let id = user.0.clone();
        let percentage = offer.map_or(0, |o| i64::from(o.percentage.get()));
        let ends_on = offer.map(|o| o.ends_on.day());
        let outcome = transaction_retrying(|| {
            self.db
                .query(format!(
                    "BEGIN; \
                     LET $set = (UPDATE type::record('user', $id) SET percentage = $percentage, offer_ends_on = $ends_on \
                         RETURN VALUE record::id(id)); \
                     IF array::len($set) = 0 {{ THROW 'no customer has this id' }}; \
                     {} COMMIT;",
                    crate::audit::WRITE
                ))
                .bind(("id", id.clone()))
                .bind(("percentage", percentage))
                .bind(("ends_on", ends_on))
                .bind(crate::audit::bind(audit))
        })
        .await;
        match outcome {
            Ok(()) => Ok(()),
            Err(e) if e.message().contains("no customer has this id") => {
                Err(AccountStoreError::Invalid { reason: format!("no customer has id `{id}`") })
            }
            Err(e) => Err(user_write_error(&e)),
        }
    }

    async fn prove(&self, user: &UserId, channel: Channel) -> Result<UserRecord, AccountStoreError> {
        // The claim field, the proven flag, the unique key, and what a claimant that loses it keeps.
        let (claim, proven, key, cleared) = match channel {
            Channel::Email => ("email_claim", "email_verified", "email_key", "email = '', email_claim = NONE"),
            Channel::Sms => ("mobile_number", "mobile_verified", "mobile", "mobile_number = NONE"),
        };
        let surql = format!(
            "BEGIN; \
             LET $me = type::record('user', $id); \
             LET $u = (SELECT {claim} AS claim, {proven} AS proven FROM ONLY $me); \
             IF $u = NONE {{ THROW 'no customer has this id' }}; \
             IF $u.claim = NONE {{ THROW 'the customer has no such email or mobile' }}; \
             IF $u.proven = false {{ \
                 UPDATE user SET {cleared} WHERE {claim} = $u.claim AND {proven} = false AND id != $me RETURN NONE; \
                 UPDATE $me SET {proven} = true, {key} = {claim} RETURN NONE; \
             }}; \
             COMMIT;"
        );
        let id = user.0.clone();
        if id.is_empty() {
            return Err(AccountStoreError::Invalid { reason: "an empty id names nobody".to_owned() });
        }
        transaction_retrying(|| self.db.query(surql.clone()).bind(("id", id.clone()))).await.map_err(|e| {
            let message = e.message();
            if message.contains("no customer has this id") || message.contains("no such email or mobile") {
                AccountStoreError::Invalid { reason: message.to_owned() }
            } else {
                user_write_error(&e)
            }
        })?;
        self.user(user)
            .await?
            .ok_or_else(|| AccountStoreError::Invalid { reason: format!("no customer has id `{id}`") })
    }

    async fn user_by_external(&self, issuer: &str, subject: &str) -> Result<Option<UserRecord>, AccountStoreError> {
        if issuer.is_empty() || subject.is_empty() {
            return Ok(None);
        }
        let users: Vec<String> = self
            .db
            .query("SELECT VALUE user FROM type::record('external_identity', [$issuer, $subject])")
            .bind(("issuer", text(issuer)))
            .bind(("subject", text(subject)))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        match users.into_iter().next() {
            Some(id) => self.user(&UserId(id)).await,
            None => Ok(None),
        }
    }

    async fn link_external(&self, issuer: &str, subject: &str, user: &UserId) -> Result<(), AccountStoreError> {
        let outcome = self
            .db
            .query("CREATE type::record('external_identity', [$issuer, $subject]) SET user = $user RETURN NONE")
            .bind(("issuer", text(issuer)))
            .bind(("subject", text(subject)))
            .bind(("user", user.0.clone()))
            .await
            .and_then(surrealdb::IndexedResults::check);
        match outcome {
            Ok(_) => Ok(()),
            // Linked already (the first link stays).
            Err(e) if e.is_already_exists() => Ok(()),
            Err(e) => Err(unavailable(&e)),
        }
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
                    "UPSERT type::record('otp_challenge', [$user, $channel]) SET code_hash = $hash, sent_at = $sent, \
                     expires_at = $expires, tries_left = $tries, used = false RETURN NONE",
                )
                .bind(("user", c.key.user.0.clone()))
                .bind(("channel", channel_name(c.key.channel)))
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
                "SELECT code_hash, sent_at, expires_at, tries_left \
                 FROM type::record('otp_challenge', [$user, $channel]) WHERE used = false AND tries_left > 0 AND expires_at > $now",
            )
            .bind(("user", key.user.0.clone()))
            .bind(("channel", channel_name(key.channel)))
            .bind(("now", now))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(rows.into_iter().next().map(|r| Challenge {
            key: key.clone(),
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
        let user = key.user.0.clone();
        let hash = text(offered_hash);
        // One statement spends a try and compares: of racing checks each is a write of this one
        // record, so they are ordered and no more are compared than there were tries.
        let checked: Vec<CheckedRow> = self
            .write_retrying(|| {
                self.db
                    .query(
                        "UPDATE type::record('otp_challenge', [$user, $channel]) \
                         SET tries_left -= 1, used = (code_hash = $hash) \
                         WHERE used = false AND tries_left > 0 AND expires_at > $now RETURN used, tries_left",
                    )
                    .bind(("user", user.clone()))
                    .bind(("channel", channel_name(key.channel)))
                    .bind(("now", now))
                    .bind(("hash", hash.clone()))
            })
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(match checked.first() {
            Some(CheckedRow { used: true, .. }) => ChallengeOutcome::Accepted,
            Some(CheckedRow { tries_left, .. }) => {
                ChallengeOutcome::Wrong { tries_left: u8::try_from((*tries_left).clamp(0, 255)).unwrap_or(0) }
            }
            None => ChallengeOutcome::NoCode,
        })
    }

    async fn sweep(&self, now: i64, unverified_before: i64) -> Result<Swept, AccountStoreError> {
        let mut counts = self
            .write_retrying(|| {
                self.db
                    .query(
                        "RETURN array::len((DELETE session WHERE expires_at <= $now OR ended = true RETURN VALUE true)); \
                         RETURN array::len((DELETE pending_sign_in WHERE expires_at <= $now RETURN VALUE true)); \
                         DELETE otp_challenge WHERE expires_at <= $now OR used = true OR tries_left <= 0 RETURN NONE;",
                    )
                    .bind(("now", now))
            })
            .await
            .map_err(|e| unavailable(&e))?;
        let sessions: Option<i64> = counts.take(0).map_err(|e| unavailable(&e))?;
        let pending: Option<i64> = counts.take(1).map_err(|e| unavailable(&e))?;
        let rows: Vec<UserRow> = self
            .write_retrying(|| {
                self.db
                    .query(format!(
                        "LET $gone = (DELETE user WHERE created_at < $before AND email_verified = false \
                         AND mobile_verified = false RETURN BEFORE); \
                         SELECT {USER_FIELDS} FROM $gone"
                    ))
                    .bind(("before", unverified_before))
            })
            .await
            .and_then(|mut r| r.take(1))
            .map_err(|e| unavailable(&e))?;
        Ok(Swept {
            sessions: count_of(sessions.unwrap_or(0)),
            pending_sign_ins: count_of(pending.unwrap_or(0)),
            accounts: rows.into_iter().map(UserRecord::from).collect(),
        })
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
        Ok(rows.into_iter().find(|r| r.expires_at > now).map(|r| PendingSignIn {
            state: r.state,
            nonce: r.nonce,
            pkce_verifier: r.pkce_verifier,
        }))
    }

    async fn put_sign_in_code(&self, code: &SignInCode) -> Result<(), AccountStoreError> {
        self.put_code(code).await
    }

    async fn take_sign_in_code(&self, code_hash: &str, now: i64) -> Result<Option<SignInCode>, AccountStoreError> {
        self.take_code(code_hash, now).await
    }

    async fn erase_user(&self, id: &UserId) -> Result<(), AccountStoreError> {
        self.erase(id).await
    }
}
