//! The account store: customers, their sessions and their one-time codes.

use async_trait::async_trait;
use marque_domain::account::Email;
use marque_domain::order::Language;
use marque_domain::paging::ListWindow;
use marque_domain::pricing::{DiscountPercent, Offer, OfferEndsOn};

use crate::audit::AuditEntry;

use crate::identity::PendingSignIn;
use crate::notify::Channel;

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
    /// Whether a code sent by email proved the email (or an identity provider vouched for it).
    /// An unproven email is only claimed: it opens nothing and another account may claim or
    /// prove it (see [`AccountStore::prove`]).
    pub email_verified: bool,
    /// Whether a code sent by SMS proved the mobile number.
    pub mobile_verified: bool,
    /// The last day (in India, inclusive) of the customer's offer, `None` without one. `offerExp`
    /// is computed from it and the clock ([`UserRecord::offer`]); set only by
    /// [`AccountStore::set_offer`].
    pub offer_ends_on: Option<OfferEndsOn>,
    /// Discount percent while the offer runs.
    pub percentage: u8,
    /// Seconds since the Unix epoch.
    pub created_at: i64,
}

impl UserRecord {
    /// Whether any channel is proven (an account with none is swept after a day).
    #[must_use]
    pub fn verified(&self) -> bool {
        self.email_verified || self.mobile_verified
    }

    /// The customer's offer as the specification shows it at `now` (seconds since the Unix epoch):
    /// `offerExp` the days it still runs, 0 once ended or without one.
    #[must_use]
    pub fn offer(&self, now: i64) -> Offer {
        Offer::at(DiscountPercent::new(u32::from(self.percentage)).unwrap_or_default(), self.offer_ends_on, now)
    }

    /// Whether `channel` is proven.
    #[must_use]
    pub fn proven(&self, channel: Channel) -> bool {
        match channel {
            Channel::Email => self.email_verified,
            Channel::Sms => self.mobile_verified,
        }
    }
}

/// An offer an owner gives a customer: a percentage until (and including) a day in India.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CustomerOffer {
    pub percentage: DiscountPercent,
    pub ends_on: OfferEndsOn,
}

/// One window of a customer search and how many customers match in all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UsersPage {
    pub users: Vec<UserRecord>,
    pub total: u64,
}

/// A new session: the hash of the opaque token the customer holds, never the token itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSession {
    pub token_hash: String,
    pub user: UserId,
    /// Seconds since the Unix epoch after which the session is no longer valid.
    pub expires_at: i64,
}

/// What a one-time code was sent for, and to whom: exactly one live code per key, so a
/// customer has one code for the email and another for the mobile, each proving its own.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ChallengeKey {
    pub user: UserId,
    pub channel: Channel,
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

/// What one sweep removed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Swept {
    /// Sessions past their end or ended.
    pub sessions: u64,
    /// External sign-ins started and never finished, past their end.
    pub pending_sign_ins: u64,
    /// Accounts with no channel proven, made before the cut-off (their pictures are the caller's).
    pub accounts: Vec<UserRecord>,
}

/// The one-time code an external sign-in (Google) ends with: the landing page exchanges it, once and
/// within a minute, for a session, and only from the browser that started the sign-in.
#[derive(Clone, PartialEq, Eq)]
pub struct SignInCode {
    /// The SHA-256 hex of the code (the code itself is never stored).
    pub code_hash: String,
    /// Who signed in.
    pub user: UserId,
    /// The SHA-256 hex of the sign-in cookie of the browser that started the sign-in.
    pub browser_hash: String,
    /// Seconds since the Unix epoch at which the code ends.
    pub expires_at: i64,
}

impl std::fmt::Debug for SignInCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignInCode")
            .field("user", &self.user)
            .field("expires_at", &self.expires_at)
            .finish_non_exhaustive()
    }
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

/// Where customers, sessions, one-time codes and pending sign-ins live (rate counters are a
/// [`RateCounter`](crate::RateCounter) of their own). Everything here is shared by every app
/// instance (nothing in process memory), so a session made on one instance works on another.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait AccountStore: Send + Sync {
    /// Stores a new customer.
    ///
    /// # Errors
    /// MUST return [`AccountStoreError::DuplicateEmail`] when the record's email is proven and
    /// another account has proven the same email (compared case-insensitively),
    /// [`AccountStoreError::DuplicateMobile`] likewise for a proven non-empty mobile; nothing is
    /// written then, even when many sign-ups race. Unproven emails and mobiles never clash: any
    /// number of accounts may claim one. [`AccountStoreError::Unavailable`] when the store cannot be written.
    async fn create_user(&self, user: &UserRecord) -> Result<(), AccountStoreError>;

    /// The customer with this id, or whose proven email (case-insensitive) or proven mobile this is, or `None`.
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
    /// The customer who signed in with this Google account email, or `None` (accounts linked
    /// before external identities were kept by issuer and subject).
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be read.
    async fn user_by_google_email(&self, email: &str) -> Result<Option<UserRecord>, AccountStoreError>;

    /// Accounts that hold this email without having proven it (case-insensitive), oldest first,
    /// at most `limit`.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be read.
    async fn users_claiming_email(&self, email: &Email, limit: u32) -> Result<Vec<UserRecord>, AccountStoreError>;
    /// Accounts that hold this mobile without having proven it, oldest first, at most `limit`.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be read.
    async fn users_claiming_mobile(&self, mobile: &str, limit: u32) -> Result<Vec<UserRecord>, AccountStoreError>;

    /// Replaces the stored customer's name, picture, Google email and password hash.
    /// The email, the mobile and what is proven are not changed here (see [`AccountStore::prove`]),
    /// nor the offer (see [`AccountStore::set_offer`]).
    ///
    /// # Errors
    /// MUST return [`AccountStoreError::Invalid`] when no customer has this id; [`AccountStoreError::Unavailable`].
    async fn update_user(&self, user: &UserRecord) -> Result<(), AccountStoreError>;

    /// Customers that `text` finds, newest account first (then by id), the page `window` of them,
    /// with how many match in all. A customer matches when `text` (trimmed) is their
    /// email in any case (proven or claimed), their mobile (ten digits; spaces, dashes and a leading
    /// `+91` or `0` ignored), or when every word of `text` (letters and digits, two or more; any case
    /// and accents) begins a word of their name. Text that can match nothing finds nobody. Answered
    /// from indexes, not by reading every customer.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be read.
    async fn search_users(&self, text: &str, window: ListWindow) -> Result<UsersPage, AccountStoreError>;

    /// Gives the customer `offer`, replacing any they had, or ends their offer (`None`: no end date
    /// and 0 %), and stores `audit` in the same transaction: both are written or neither.
    ///
    /// # Errors
    /// MUST return [`AccountStoreError::Invalid`] when no customer has this id (nothing is written,
    /// not even the audit entry); [`AccountStoreError::Unavailable`].
    async fn set_offer(
        &self,
        user: &UserId,
        offer: Option<CustomerOffer>,
        audit: &AuditEntry,
    ) -> Result<(), AccountStoreError>;

    /// Keeps the language the customer last chose on the storefront (the language of the notices
    /// they are sent). Returns whether a customer has this id (nothing is written when none has).
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`].
    async fn set_language(&self, user: &UserId, language: Language) -> Result<bool, AccountStoreError>;

    /// Marks the customer's email or mobile (`channel`) proven and, in the same transaction,
    /// takes it away from every other account that only claimed it (their email or mobile
    /// becomes empty). Proving a proven channel changes nothing. Returns the customer as stored.
    ///
    /// # Errors
    /// MUST return [`AccountStoreError::DuplicateEmail`] / [`AccountStoreError::DuplicateMobile`]
    /// when another account has proven it meanwhile (nothing changes then: of racing proofs
    /// exactly one wins); [`AccountStoreError::Invalid`] when no customer has this id or the
    /// customer has no such email or mobile; [`AccountStoreError::Unavailable`].
    async fn prove(&self, user: &UserId, channel: Channel) -> Result<UserRecord, AccountStoreError>;

    /// The customer an external identity (issuer and subject) is linked to, or `None`.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be read.
    async fn user_by_external(&self, issuer: &str, subject: &str) -> Result<Option<UserRecord>, AccountStoreError>;
    /// Links an external identity to a customer; linking it again (to anyone) keeps the first link.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be written.
    async fn link_external(&self, issuer: &str, subject: &str, user: &UserId) -> Result<(), AccountStoreError>;

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
    /// code. A match uses the code up; a miss spends one try, and the last try ends the code. A try is
    /// spent and the hash compared in one conditional write, so however many checks race, at most
    /// the stored tries are ever compared: once they are spent even the right code is refused.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be read or written.
    async fn check_challenge(
        &self,
        key: &ChallengeKey,
        now: i64,
        offered_hash: &str,
    ) -> Result<ChallengeOutcome, AccountStoreError>;

    /// Housekeeping: deletes sessions that ended or expired at `now`, pending sign-ins past their
    /// end, spent or expired codes, and accounts with no channel proven made before
    /// `unverified_before` (with their codes and sessions). Returns what it removed.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be written.
    async fn sweep(&self, now: i64, unverified_before: i64) -> Result<Swept, AccountStoreError>;

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

    /// Keeps the code an external sign-in ended with (by its hash) until its `expires_at`, shared by
    /// every instance.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be written.
    async fn put_sign_in_code(&self, code: &SignInCode) -> Result<(), AccountStoreError>;

    /// Takes the code with this hash out of the store: at most one caller ever gets it, and none once
    /// `now` is at or past its end (an expired code is removed all the same).
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be written.
    async fn take_sign_in_code(&self, code_hash: &str, now: i64) -> Result<Option<SignInCode>, AccountStoreError>;

    /// Erases the customer with this id (the account and its contact details), ends every session of
    /// theirs at once and drops their one-time code; erasing an unknown id is not an error. What their
    /// orders recorded (name and address as printed on the invoice) is not the account store's and stays.
    ///
    /// # Errors
    /// [`AccountStoreError::Unavailable`] when the store cannot be written.
    async fn erase_user(&self, id: &UserId) -> Result<(), AccountStoreError>;
}
