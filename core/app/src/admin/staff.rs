//! Staff: the set-up link, two-factor sign-in (email, password and an RFC 6238 authenticator
//! code), sessions, and the owners' invitations and removals.
//!
//! Secrets never reach a log or `Debug`: set-up codes and session tokens are stored as their
//! SHA-256, passwords as argon2id PHC strings (the customers' hashing, 12 to 128 characters), and
//! the authenticator secret sealed with ChaCha20-Poly1305 under the server's [`SealKey`], bound to
//! the staff member's id. A code of the authenticator is taken once: the store keeps the last time
//! step used and refuses it, or an earlier one, again.
//!
//! Wrong sign-ins are limited in the shared rate counters, per client and per account, with
//! growing delays (see [`StaffLimits`]): a stranger can slow an owner's sign-in for a while, never
//! lock it for long, and a right sign-in is not counted against the account.

use std::sync::Arc;

use async_trait::async_trait;
use base64::Engine as _;
use marque_domain::account::Email;
use marque_domain::paging::{ListWindow, MAX_LIST_SIZE};
use marque_domain::rate::Window;
use marque_domain::staff::{Area, Forbidden, Staff, StaffId, StaffPassword, StaffRole};
use marque_domain::Message;
use marque_ports::{
    Actor, AuditEntry, Clock, RateCounter, SetupCode, SetupSecrets, StaffRecord, StaffSession, StaffStatus, StaffStore,
    StaffStoreError, StaffSwept,
};
use sha2::{Digest, Sha256};
use totp_rs::{Algorithm, TOTP};

use super::{StaffAuthError, StaffSessions};
use crate::accounts::{dummy_hash, hash_password, random_bytes, same, verify_password, Hashing, SessionToken};

/// The issuer an authenticator app shows beside the account.
pub const TOTP_ISSUER: &str = "Marque";
/// Seconds one authenticator code stands for (RFC 6238's default).
pub const TOTP_STEP_SECS: i64 = 30;
/// Digits of an authenticator code.
pub const TOTP_DIGITS: usize = 6;
/// Where the admin's set-up page is; the link is this with `?code=…`.
pub const SETUP_PATH: &str = "/admin/setup";

/// The key that seals authenticator secrets (32 bytes). Never printed.
#[derive(Clone)]
pub struct SealKey([u8; 32]);

impl std::fmt::Debug for SealKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SealKey(…)")
    }
}

impl SealKey {
    #[must_use]
    pub const fn new(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// A key written as 64 hexadecimal digits (`openssl rand -hex 32`).
    ///
    /// # Errors
    /// What is wrong with the text (never the text itself).
    pub fn from_hex(text: &str) -> Result<Self, String> {
        let bytes = hex::decode(text.trim()).map_err(|_| "not hexadecimal".to_owned())?;
        let key: [u8; 32] = bytes.try_into().map_err(|_| "not 32 bytes (64 hexadecimal digits)".to_owned())?;
        Ok(Self(key))
    }

    /// The fixed key of `dev` and tests: secrets sealed with it are not secret.
    #[must_use]
    pub const fn dev() -> Self {
        Self(*b"marque dev seal key, not secret!")
    }

    fn key(&self) -> Result<ring::aead::LessSafeKey, StaffError> {
        ring::aead::UnboundKey::new(&ring::aead::CHACHA20_POLY1305, &self.0)
            .map(ring::aead::LessSafeKey::new)
            .map_err(|_| StaffError::Unavailable("the seal key is unusable".to_owned()))
    }

    /// `v1.` and the URL-safe base64 of a random nonce and the sealed `secret`, bound to `staff`.
    fn seal(&self, staff: &StaffId, secret: &[u8]) -> Result<String, StaffError> {
        let nonce_bytes = random_bytes::<12>().map_err(|e| StaffError::Unavailable(e.to_string()))?;
        let mut sealed = secret.to_vec();
        self.key()?
            .seal_in_place_append_tag(
                ring::aead::Nonce::assume_unique_for_key(nonce_bytes),
                ring::aead::Aad::from(staff.0.as_bytes()),
                &mut sealed,
            )
            .map_err(|_| StaffError::Unavailable("sealing failed".to_owned()))?;
        let mut out = nonce_bytes.to_vec();
        out.extend_from_slice(&sealed);
        Ok(format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(out)))
    }

    /// The secret [`SealKey::seal`] sealed for `staff`, or `None` when it was sealed under another
    /// key, for someone else, or is damaged.
    fn open(&self, staff: &StaffId, sealed: &str) -> Option<Vec<u8>> {
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(sealed.strip_prefix("v1.")?).ok()?;
        if bytes.len() < 12 {
            return None;
        }
        let (nonce, body) = bytes.split_at(12);
        let nonce = ring::aead::Nonce::try_assume_unique_for_key(nonce).ok()?;
        let mut body = body.to_vec();
        let opened =
            self.key().ok()?.open_in_place(nonce, ring::aead::Aad::from(staff.0.as_bytes()), &mut body).ok()?;
        Some(opened.to_vec())
    }
}

/// The limits of wrong sign-ins. Each is a sliding window of the shared rate counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaffLimits {
    /// Sign-in attempts from one client, right or wrong, in a minute and in an hour.
    pub client_per_minute: u32,
    pub client_per_hour: u32,
    /// Wrong sign-ins of one account, from anywhere: a short window, then a longer one, so the
    /// delay grows with the guessing and is never longer than the longer window.
    pub account_short: Window,
    pub account_long: Window,
}

impl Default for StaffLimits {
    fn default() -> Self {
        Self {
            client_per_minute: 10,
            client_per_hour: 60,
            account_short: Window::new(5, 60),
            account_long: Window::new(20, 15 * 60),
        }
    }
}

/// How long sessions and set-up links last, the seal key and the limits.
#[derive(Debug, Clone)]
pub struct StaffSettings {
    pub seal_key: SealKey,
    /// How long a session lasts (default 12 hours).
    pub session_secs: i64,
    /// How long a set-up link lasts (default 24 hours).
    pub setup_secs: i64,
    pub limits: StaffLimits,
}

impl StaffSettings {
    #[must_use]
    pub fn new(seal_key: SealKey) -> Self {
        Self { seal_key, session_secs: 12 * 3600, setup_secs: 24 * 3600, limits: StaffLimits::default() }
    }
}

/// Why a staff use case failed. Each maps to one HTTP status in the API.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StaffError {
    /// The caller's role does not cover the call (403).
    #[error("{0}")]
    Forbidden(Forbidden),
    /// A field does not parse (400): the email, the name, the role, the password.
    #[error("{}", .0.text())]
    Invalid(Message),
    /// The set-up code is unknown, used or expired (400).
    #[error("{}", Message::StaffSetupInvalid.text())]
    SetupInvalid,
    /// A wrong email, password or authenticator code, or one used before (401; one answer for all).
    #[error("{}", Message::StaffLoginFailed.text())]
    BadCredentials,
    /// Too many sign-in attempts (429): the seconds until one more is allowed.
    #[error("{}", Message::StaffTooManyAttempts.text())]
    RateLimited(u64),
    /// No valid session (401).
    #[error("{}", Message::StaffLoginRequired.text())]
    Unauthorized,
    /// A staff member who is not removed has this email (409).
    #[error("{}", Message::StaffEmailTaken.text())]
    EmailTaken,
    /// No staff member has this id (404).
    #[error("{}", Message::StaffNotFound.text())]
    NotFound,
    /// An owner asked to remove themselves (409).
    #[error("{}", Message::StaffRemoveSelf.text())]
    RemoveSelf,
    /// A store is down (503).
    #[error("{}", Message::StaffUnavailable.text())]
    Unavailable(String),
}

impl StaffError {
    /// The message a person reads, with its stable code.
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            StaffError::Forbidden(f) => f.message(),
            StaffError::Invalid(m) => *m,
            StaffError::SetupInvalid => Message::StaffSetupInvalid,
            StaffError::BadCredentials => Message::StaffLoginFailed,
            StaffError::RateLimited(_) => Message::StaffTooManyAttempts,
            StaffError::Unauthorized => Message::StaffLoginRequired,
            StaffError::EmailTaken => Message::StaffEmailTaken,
            StaffError::NotFound => Message::StaffNotFound,
            StaffError::RemoveSelf => Message::StaffRemoveSelf,
            StaffError::Unavailable(_) => Message::StaffUnavailable,
        }
    }
}

impl From<Forbidden> for StaffError {
    fn from(f: Forbidden) -> Self {
        StaffError::Forbidden(f)
    }
}

impl From<StaffStoreError> for StaffError {
    fn from(e: StaffStoreError) -> Self {
        match e {
            StaffStoreError::DuplicateEmail => StaffError::EmailTaken,
            StaffStoreError::NotFound => StaffError::NotFound,
            other => StaffError::Unavailable(other.to_string()),
        }
    }
}

impl From<crate::AccountError> for StaffError {
    fn from(e: crate::AccountError) -> Self {
        StaffError::Unavailable(e.to_string())
    }
}

/// A set-up code as handed over (in the link). Never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct SetupLinkCode(String);

impl std::fmt::Debug for SetupLinkCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SetupLinkCode(…)")
    }
}

impl SetupLinkCode {
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The set-up link: [`SETUP_PATH`]`?code=…` (the code is URL-safe base64).
    #[must_use]
    pub fn link(&self) -> String {
        format!("{SETUP_PATH}?code={}", self.0)
    }
}

/// The SHA-256 hex the store keeps of a set-up code.
fn code_hash(code: &str) -> String {
    hex::encode(Sha256::digest(code.as_bytes()))
}

/// A new staff member and the set-up code to hand over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    pub staff: Staff,
    pub code: SetupLinkCode,
}

/// What the set-up page shows: the authenticator's `otpauth://` URI (for the QR code) and its
/// secret in base32 (to type in). Never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct Enrolment {
    pub totp_uri: String,
    pub secret: String,
}

impl std::fmt::Debug for Enrolment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Enrolment(…)")
    }
}

/// One window of the staff list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffListing {
    pub records: Vec<StaffRecord>,
    pub total: u64,
}

/// The staff, their set-up, sign-in and sessions.
#[derive(Clone)]
pub struct StaffService {
    store: Arc<dyn StaffStore>,
    counter: Arc<dyn RateCounter>,
    clock: Arc<dyn Clock>,
    settings: StaffSettings,
    hashing: Hashing,
}

impl std::fmt::Debug for StaffService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StaffService").field("settings", &self.settings).finish_non_exhaustive()
    }
}

/// The authenticator of a secret, for `email`.
fn authenticator(secret: Vec<u8>, email: &str) -> Result<TOTP, StaffError> {
    TOTP::new(Algorithm::SHA1, TOTP_DIGITS, 1, 30, secret, Some(TOTP_ISSUER.to_owned()), email.to_owned())
        .map_err(|e| StaffError::Unavailable(format!("authenticator: {e}")))
}

/// The JSON text of a staff member's public fields, for the audit trail.
fn described(staff: &Staff, status: StaffStatus) -> Option<String> {
    serde_json::to_string(&serde_json::json!({
        "email": staff.email,
        "name": staff.name,
        "role": staff.role.as_str(),
        "status": status.as_str(),
    }))
    .ok()
}

impl StaffService {
    #[must_use]
    pub fn new(
        store: Arc<dyn StaffStore>,
        counter: Arc<dyn RateCounter>,
        clock: Arc<dyn Clock>,
        settings: StaffSettings,
    ) -> Self {
        Self { store, counter, clock, settings, hashing: Hashing::default() }
    }

    /// Counts one event for `key` under `window`; past it the call is refused (and not counted).
    async fn limit(&self, key: &str, window: Window) -> Result<(), StaffError> {
        let now = self.clock.now();
        crate::throttle::count(self.counter.as_ref(), key, now, window)
            .await
            .map_err(|e| StaffError::Unavailable(e.to_string()))?
            .map_err(|wait| {
                tracing::info!(key = key.split(':').next().unwrap_or(""), "staff sign-in limit reached");
                StaffError::RateLimited(wait)
            })
    }

    fn guess_keys(&self, id: &StaffId) -> [(String, Window); 2] {
        let limits = self.settings.limits;
        [
            (format!("staff-guess-short:{}", id.0), limits.account_short),
            (format!("staff-guess-long:{}", id.0), limits.account_long),
        ]
    }

    /// A right sign-in is not a guess against the account: its counts are taken back.
    async fn right_guess(&self, id: &StaffId) {
        let now = self.clock.now();
        for (key, window) in self.guess_keys(id) {
            if let Err(e) = self.counter.unhit(&key, now, window.window_secs).await {
                tracing::warn!(error = %e, "taking back a right staff sign-in failed");
            }
        }
    }

    /// A new random code or token: 32 bytes, URL-safe base64.
    fn random_text() -> Result<String, StaffError> {
        Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random_bytes::<32>()?))
    }

    fn new_code(&self, staff: &StaffId) -> Result<(SetupLinkCode, SetupCode), StaffError> {
        let code = Self::random_text()?;
        let stored = SetupCode {
            code_hash: code_hash(&code),
            staff: staff.clone(),
            expires_at: self.clock.now() + self.settings.setup_secs,
        };
        Ok((SetupLinkCode(code), stored))
    }

    /// Stores a new staff member and their set-up code, as `actor` did.
    async fn create(&self, actor: Actor, email: &str, name: &str, role: StaffRole) -> Result<Invitation, StaffError> {
        let email = Email::parse(email).map_err(|_| StaffError::Invalid(Message::EmailInvalid))?;
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 100 {
            return Err(StaffError::Invalid(Message::StaffNameRequired));
        }
        let id = StaffId(hex::encode(random_bytes::<12>()?));
        let now = self.clock.now();
        let record = StaffRecord::invited(id.clone(), email.as_str(), name, role, now);
        let (code, stored) = self.new_code(&id)?;
        let audit = AuditEntry::new(now, actor, "staff.invite", format!("staff:{}", id.0))
            .with_values(None, described(&record.staff, StaffStatus::Invited));
        self.store.invite(&record, &stored, &audit).await?;
        Ok(Invitation { staff: record.staff, code })
    }

    /// An owner invites a staff member: the answer's code makes the set-up link to hand over.
    ///
    /// # Errors
    /// [`StaffError::Forbidden`] unless the caller may manage staff; [`StaffError::Invalid`] for
    /// an email or name that does not parse; [`StaffError::EmailTaken`]; [`StaffError::Unavailable`].
    pub async fn invite(
        &self,
        caller: &Staff,
        email: &str,
        name: &str,
        role: StaffRole,
    ) -> Result<Invitation, StaffError> {
        caller.require(Area::Staff)?;
        self.create(Actor::staff(caller), email, name, role).await
    }

    /// The server itself (the command line, the start-up) adds a staff member.
    ///
    /// # Errors
    /// As [`StaffService::invite`], without the role check.
    pub async fn add(&self, what: &str, email: &str, name: &str, role: StaffRole) -> Result<Invitation, StaffError> {
        self.create(Actor::System(what.to_owned()), email, name, role).await
    }

    /// A new set-up link for a staff member who is not removed (the earlier one ends), as `what`
    /// (the command line, the start-up) did.
    ///
    /// # Errors
    /// [`StaffError::NotFound`]; [`StaffError::Unavailable`].
    pub async fn reissue(&self, what: &str, id: &StaffId) -> Result<SetupLinkCode, StaffError> {
        let (code, stored) = self.new_code(id)?;
        let audit = AuditEntry::new(
            self.clock.now(),
            Actor::System(what.to_owned()),
            "staff.invite",
            format!("staff:{}", id.0),
        );
        self.store.reissue(&stored, &audit).await?;
        Ok(code)
    }

    /// The first owner: with no owner stored, `email` becomes one and the answer is their set-up
    /// link's code; while that owner has not set up, each start gives a new code (the earlier one
    /// ends); once any owner has set up, `None`.
    ///
    /// # Errors
    /// [`StaffError::Invalid`] for an email that does not parse; [`StaffError::EmailTaken`] when
    /// the email is a staff member's of another role; [`StaffError::Unavailable`].
    pub async fn ensure_owner(&self, email: &str) -> Result<Option<Invitation>, StaffError> {
        if let Some(existing) = self.store.staff_by_email(email).await? {
            if existing.staff.role == StaffRole::Owner && existing.status == StaffStatus::Invited {
                let code = self.reissue("startup", &existing.staff.id).await?;
                return Ok(Some(Invitation { staff: existing.staff, code }));
            }
        }
        if self.store.owners().await? > 0 {
            return Ok(None);
        }
        let name = email.split('@').next().unwrap_or("Owner");
        self.add("startup", email, name, StaffRole::Owner).await.map(Some)
    }

    /// Sets a password and enrols an authenticator with a set-up code: the staff member becomes
    /// active (any earlier session of theirs ends) and the code is used up.
    ///
    /// # Errors
    /// [`StaffError::SetupInvalid`] for an unknown, used or expired code; [`StaffError::Invalid`]
    /// for a password outside 12 to 128 characters; [`StaffError::Unavailable`].
    pub async fn setup(&self, code: &str, password: &str) -> Result<Enrolment, StaffError> {
        let code = code.trim();
        if code.is_empty() || code.len() > 200 {
            return Err(StaffError::SetupInvalid);
        }
        let hash = code_hash(code);
        let record = self.store.setup_code(&hash, self.clock.now()).await?.ok_or(StaffError::SetupInvalid)?;
        let password = StaffPassword::parse(password).map_err(StaffError::Invalid)?;
        let secret = random_bytes::<20>()?.to_vec();
        let totp = authenticator(secret.clone(), &record.staff.email)?;
        let sealed = self.settings.seal_key.seal(&record.staff.id, &secret)?;
        let password_hash = self.hashing.run(move || hash_password(password.expose())).await??;
        let staff = &record.staff;
        let audit =
            AuditEntry::new(self.clock.now(), Actor::staff(staff), "staff.setup", format!("staff:{}", staff.id.0))
                .with_values(described(staff, record.status), described(staff, StaffStatus::Active));
        let secrets = SetupSecrets { password_hash, totp_sealed: sealed };
        if !self.store.complete_setup(&hash, &staff.id, self.clock.now(), &secrets, &audit).await? {
            return Err(StaffError::SetupInvalid);
        }
        Ok(Enrolment { totp_uri: totp.get_url(), secret: totp.get_secret_base32() })
    }

    /// The time step `code` is the authenticator's code for, within one step of now.
    fn matching_step(&self, totp: &TOTP, code: &str) -> Option<i64> {
        let step = self.clock.now().div_euclid(TOTP_STEP_SECS);
        let mut matched = None;
        // Every candidate is compared, so the time taken does not tell which one matched.
        for candidate in [step - 1, step, step + 1] {
            let at = u64::try_from(candidate * TOTP_STEP_SECS).unwrap_or(0);
            if same(&totp.generate(at), code) {
                matched = Some(candidate);
            }
        }
        matched
    }

    /// Signs in with email, password and a current authenticator code, from the client `client`.
    ///
    /// # Errors
    /// [`StaffError::RateLimited`] past the client's attempts or the account's wrong sign-ins;
    /// [`StaffError::BadCredentials`] for an unknown email, a wrong password, a wrong code or a
    /// code used before (one answer for all); [`StaffError::Unavailable`].
    pub async fn login(
        &self,
        email: &str,
        password: &str,
        totp: &str,
        client: &str,
    ) -> Result<(SessionToken, Staff), StaffError> {
        let limits = self.settings.limits;
        self.limit(&format!("staff-login-minute:{client}"), Window::new(limits.client_per_minute, 60)).await?;
        self.limit(&format!("staff-login-hour:{client}"), Window::new(limits.client_per_hour, 3600)).await?;
        let record = self.store.staff_by_email(email).await?.filter(|r| r.status == StaffStatus::Active);
        let Some(record) = record else {
            // The same work as for a real account, so the time taken does not tell who is staff.
            let password = password.to_owned();
            let _ = self.hashing.run(move || verify_password(&password, dummy_hash())).await?;
            return Err(StaffError::BadCredentials);
        };
        let id = record.staff.id.clone();
        for (key, window) in self.guess_keys(&id) {
            self.limit(&key, window).await?;
        }
        let phc = record.password_hash.clone().unwrap_or_default();
        let offered = password.to_owned();
        let password_right = self.hashing.run(move || verify_password(&offered, &phc)).await?;
        let code: String = totp.chars().filter(|c| !c.is_whitespace()).collect();
        let step = record
            .totp_sealed
            .as_deref()
            .and_then(|sealed| self.settings.seal_key.open(&id, sealed))
            .filter(|_| code.len() == TOTP_DIGITS && code.bytes().all(|b| b.is_ascii_digit()))
            .map(|secret| authenticator(secret, &record.staff.email))
            .transpose()?
            .and_then(|totp| self.matching_step(&totp, &code));
        let Some(step) = step.filter(|_| password_right) else {
            return Err(StaffError::BadCredentials);
        };
        if !self.store.use_totp_step(&id, step).await? {
            return Err(StaffError::BadCredentials);
        }
        self.right_guess(&id).await;
        let token = SessionToken::new(Self::random_text()?);
        let session = StaffSession {
            token_hash: token.hash(),
            staff: id,
            expires_at: self.clock.now() + self.settings.session_secs,
        };
        self.store.create_session(&session).await?;
        Ok((token, record.staff))
    }

    /// Ends the session of `token` (ending an unknown one is not an error).
    ///
    /// # Errors
    /// [`StaffError::Unavailable`].
    pub async fn logout(&self, token: &str) -> Result<(), StaffError> {
        Ok(self.store.end_session(&SessionToken::new(token).hash()).await?)
    }

    /// The caller, with the areas their role may use.
    ///
    /// # Errors
    /// Never today; the role check is the dashboard's, which every role has.
    pub fn me(&self, caller: &Staff) -> Result<(Staff, Vec<Area>), StaffError> {
        caller.require(Area::Dashboard)?;
        Ok((caller.clone(), Area::ALL.into_iter().filter(|a| caller.role.may(*a)).collect()))
    }

    /// Staff who are not removed, oldest first: the page `window`.
    ///
    /// # Errors
    /// [`StaffError::Forbidden`] unless the caller may manage staff; [`StaffError::Unavailable`].
    pub async fn list(&self, caller: &Staff, window: ListWindow) -> Result<StaffListing, StaffError> {
        caller.require(Area::Staff)?;
        let found = self.store.list(window).await?;
        Ok(StaffListing { records: found.records, total: found.total })
    }

    /// Housekeeping: deletes the sessions that ended or expired and the set-up codes that expired.
    ///
    /// # Errors
    /// [`StaffError::Unavailable`].
    pub async fn sweep(&self) -> Result<StaffSwept, StaffError> {
        Ok(self.store.sweep(self.clock.now()).await?)
    }

    /// Every staff member who is not removed, for the command line.
    ///
    /// # Errors
    /// [`StaffError::Unavailable`].
    pub async fn all(&self) -> Result<Vec<StaffRecord>, StaffError> {
        let mut all = Vec::new();
        for page in 1.. {
            // Past the last page a list may have (ten million staff) is a store that never ends.
            let window = ListWindow::new(Some(page), Some(u64::from(MAX_LIST_SIZE)))
                .map_err(|_| StaffError::Unavailable("the staff list does not end".to_owned()))?;
            let found = self.store.list(window).await?;
            let done = found.records.len() < MAX_LIST_SIZE as usize;
            all.extend(found.records);
            if done {
                break;
            }
        }
        Ok(all)
    }

    /// An owner removes a staff member: every session of theirs ends at once.
    ///
    /// # Errors
    /// [`StaffError::Forbidden`] unless the caller may manage staff; [`StaffError::RemoveSelf`];
    /// [`StaffError::NotFound`]; [`StaffError::Unavailable`].
    pub async fn remove(&self, caller: &Staff, id: &StaffId) -> Result<Staff, StaffError> {
        caller.require(Area::Staff)?;
        if caller.id == *id {
            return Err(StaffError::RemoveSelf);
        }
        self.remove_as(Actor::staff(caller), id).await
    }

    /// The server itself (the command line) removes a staff member by email.
    ///
    /// # Errors
    /// [`StaffError::NotFound`]; [`StaffError::Unavailable`].
    pub async fn remove_by_email(&self, what: &str, email: &str) -> Result<Staff, StaffError> {
        let record = self.store.staff_by_email(email).await?.ok_or(StaffError::NotFound)?;
        self.remove_as(Actor::System(what.to_owned()), &record.staff.id).await
    }

    async fn remove_as(&self, actor: Actor, id: &StaffId) -> Result<Staff, StaffError> {
        let before =
            self.store.staff(id).await?.filter(|r| r.status != StaffStatus::Removed).ok_or(StaffError::NotFound)?;
        let audit = AuditEntry::new(self.clock.now(), actor, "staff.remove", format!("staff:{}", id.0))
            .with_values(described(&before.staff, before.status), described(&before.staff, StaffStatus::Removed));
        let removed = self.store.remove(id, &audit).await?;
        Ok(removed.staff)
    }
}

#[async_trait]
impl StaffSessions for StaffService {
    async fn authenticate(&self, token: &str) -> Result<Staff, StaffAuthError> {
        if token.is_empty() || token.len() > 200 {
            return Err(StaffAuthError::Unauthorized);
        }
        let hash = SessionToken::new(token).hash();
        match self.store.session_staff(&hash, self.clock.now()).await {
            Ok(Some(staff)) => Ok(staff),
            Ok(None) => Err(StaffAuthError::Unauthorized),
            Err(e) => Err(StaffAuthError::Unavailable(e.to_string())),
        }
    }
}

#[cfg(test)]
mod tests;
