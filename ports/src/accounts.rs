//! The account store: customers, their sessions and their one-time codes.

use async_trait::async_trait;
use marque_domain::account::Email;
use marque_domain::rate::WindowHits;

use crate::identity::PendingSignIn;

/// A customer's id as stored (`_id` in the API).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UserId(pub String);

/// A customer as stored. Secrets are kept as hashes only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRecord {
    pub id: UserId,
    pub name: String,
    /// Empty for an account made by Google sign-in without a password account.
    pub email: String,
    /// The Google account's email, when the customer signed in with Google.
    pub google_email: Option<String>,
    /// Ten digits, as the domain's mobile rule leaves them; empty for a Google-only account.
    pub mobile: String,
    /// The PHC string of the password's argon2id hash; `None` for Google-only accounts.
    pub password_hash: Option<String>,
    /// Address of the avatar image, or empty for the default picture.
    pub profile: String,
    /// Whether a one-time code has confirmed the account.
    pub verified: bool,
    /// Above 0 means a discount is active (`offerExp`).
    pub offer_exp: i64,
    /// Discount percent when active.
    pub percentage: u8,
    /// Seconds since the Unix epoch.
    pub created_at: i64,
}

/// A new session: the hash of the opaque token the customer holds, never the token itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSession {
    pub token_hash: String,
    pub user: UserId,
    /// Seconds since the Unix epoch after which the session is no longer valid.
    pub expires_at: i64,
}

/// What a one-time code was sent for, and to whom: exactly one live code per key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ChallengeKey {
    pub user: UserId,
}

/// A one-time code as stored: its keyed hash, when it ends, how many wrong tries are left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub key: ChallengeKey,
    pub code_hash: String,
    pub sent_at: i64,
    pub expires_at: i64,
    pub tries_left: u8,
}

/// How a check of a code ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChallengeOutcome {
    /// The code matched and is now used up (it cannot be used again).
    Accepted,
    /// A wrong code; `tries_left` more are allowed (0 means the code is now ended).
    Wrong { tries_left: u8 },
    /// No live code: never sent, expired, used, or ended by wrong tries.
    NoCode,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AccountStoreError {
    /// Another account already has this email.
    #[error("an account with this email already exists")]
    DuplicateEmail,
    /// Another account already has this mobile number.
    #[error("an account with this mobile number already exists")]
    DuplicateMobile,
    /// The record does not satisfy the store's schema.
    #[error("the store refused the record: {reason}")]
    Invalid { reason: String },
    /// The store could not be reached or failed; the caller may retry later.
    #[error("the account store is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// Where customers, sessions, one-time codes and rate counters live. Everything here is shared by
/// every app instance (nothing in process memory), so a session made on one instance works on another.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait AccountStore: Send + Sync {
    /// Stores a new customer.
    ///
    /// # Errors
    /// MUST return [`AccountStoreError::DuplicateEmail`] when another account has the same email
    /// (compared case-insensitively), [`AccountStoreError::DuplicateMobile`] when another has the same
    /// non-empty mobile; nothing is written then, even when many sign-ups race.
    /// [`AccountStoreError::Unavailable`] when the store cannot be written.
    async fn create_user(&self, user: &UserRecord) -> Result<(), AccountStoreError>;

    /// The customer with this id, email (case-insensitive) or mobile, or `None`.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be read.
    async fn user(&self, id: &UserId) -> Result<Option<UserRecord>, AccountStoreError>;
    /// See [`AccountStore::user`].
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be read.
    async fn user_by_email(&self, email: &Email) -> Result<Option<UserRecord>, AccountStoreError>;
    /// See [`AccountStore::user`].
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be read.
    async fn user_by_mobile(&self, mobile: &str) -> Result<Option<UserRecord>, AccountStoreError>;
    /// The customer who signed in with this Google account email, or `None`.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be read.
    async fn user_by_google_email(&self, email: &str) -> Result<Option<UserRecord>, AccountStoreError>;

    /// Replaces the stored customer with the same id (name, picture, verified, …).
    ///
    /// # Errors
    /// MUST return [`AccountStoreError::Invalid`] when no customer has this id;
    /// the duplicate errors as for [`AccountStore::create_user`]; [`AccountStoreError::Unavailable`].
    async fn update_user(&self, user: &UserRecord) -> Result<(), AccountStoreError>;

    /// Starts a session.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be written.
    async fn create_session(&self, session: &NewSession) -> Result<(), AccountStoreError>;
    /// The customer whose session has this token hash, when it has not expired at `now` and was not ended.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be read.
    async fn session_user(&self, token_hash: &str, now: i64) -> Result<Option<UserId>, AccountStoreError>;
    /// Ends the session with this token hash; ending an unknown or ended session is not an error.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be written.
    async fn end_session(&self, token_hash: &str) -> Result<(), AccountStoreError>;

    /// Stores a new code for its key, replacing (ending) any earlier one.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be written.
    async fn put_challenge(&self, challenge: &Challenge) -> Result<(), AccountStoreError>;
    /// The live code of a key at `now` (not expired, not used, tries left), if any.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be read.
    async fn challenge(&self, key: &ChallengeKey, now: i64) -> Result<Option<Challenge>, AccountStoreError>;
    /// Checks a code atomically. Codes are stored as a keyed hash that is the same for the same code
    /// (`offered_hash` is that hash of the code offered), so the store compares hashes and never sees a
    /// code. A match uses the code up; a miss spends one try, and the last try ends the code. Concurrent
    /// checks never grant more tries than stored.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be read or written.
    async fn check_challenge(
        &self,
        key: &ChallengeKey,
        now: i64,
        offered_hash: &str,
    ) -> Result<ChallengeOutcome, AccountStoreError>;

    /// Counts one event for `key` (e.g. `otp-send:9876543210`, `login:203.0.113.9`) in the fixed
    /// window of `window_secs` seconds that contains `now` (windows start at multiples of
    /// `window_secs`), and returns that window's count including this one together with the
    /// count of the window before it, from which [`marque_domain::rate::Window`] estimates the
    /// hits in the last `window_secs`. Shared by every instance, so limits hold across them.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be written.
    async fn hit(&self, key: &str, now: i64, window_secs: i64) -> Result<WindowHits, AccountStoreError>;
    /// Takes back one event [`AccountStore::hit`] counted for `key` in the fixed window of
    /// `window_secs` seconds that contains `now`: a refused call, which must not extend its own
    /// refusal. Never takes a count below zero; a window with no count is left as it is.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be written.
    async fn unhit(&self, key: &str, now: i64, window_secs: i64) -> Result<(), AccountStoreError>;

    /// Keeps a started external sign-in (Google) under its `state` until `expires_at`, shared by
    /// every instance so the return may reach another one.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be written.
    async fn put_pending_sign_in(&self, pending: &PendingSignIn, expires_at: i64) -> Result<(), AccountStoreError>;

    /// Takes the sign-in started with `state` out of the store: at most one caller ever gets it,
    /// and none once `now` is at or past its end.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be written.
    async fn take_pending_sign_in(&self, state: &str, now: i64) -> Result<Option<PendingSignIn>, AccountStoreError>;
}
