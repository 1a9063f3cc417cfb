//! The staff store: the back office's people, their set-up codes, their sessions and the last
//! authenticator step each one used.
//!
//! Staff are not customers: they live apart from [`crate::AccountStore`] and a customer's token
//! never names a staff member. Secrets are kept only as hashes (set-up codes and session tokens as
//! SHA-256, passwords as argon2id PHC strings) or sealed (the TOTP secret, encrypted by the app
//! with a key the store never sees). Every write a person causes takes an [`AuditEntry`] and
//! stores it in the same transaction (`staff.invite`, `staff.setup`, `staff.remove`).

use async_trait::async_trait;
use marque_domain::paging::ListWindow;
use marque_domain::staff::{Staff, StaffId, StaffRole};

use crate::audit::AuditEntry;

/// Where a staff member stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StaffStatus {
    /// Invited: a set-up code was issued; no password or authenticator yet.
    Invited,
    /// Set up: may sign in.
    Active,
    /// Removed: may never sign in again; the email is free for a new invitation.
    Removed,
}

impl StaffStatus {
    /// The name stored and shown.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            StaffStatus::Invited => "invited",
            StaffStatus::Active => "active",
            StaffStatus::Removed => "removed",
        }
    }

    /// The status with this name.
    #[must_use]
    pub fn parse(name: &str) -> Option<Self> {
        [StaffStatus::Invited, StaffStatus::Active, StaffStatus::Removed].into_iter().find(|s| s.as_str() == name)
    }
}

/// A staff member as stored.
#[derive(Clone, PartialEq, Eq)]
pub struct StaffRecord {
    /// Who, with the role (the email is kept lower-case).
    pub staff: Staff,
    pub status: StaffStatus,
    /// The argon2id PHC string of the password; `None` until set up.
    pub password_hash: Option<String>,
    /// The TOTP secret, sealed by the app; `None` until set up.
    pub totp_sealed: Option<String>,
    /// Seconds since the Unix epoch.
    pub created_at: i64,
}

impl std::fmt::Debug for StaffRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StaffRecord")
            .field("staff", &self.staff)
            .field("status", &self.status)
            .field("password_hash", &self.password_hash.as_ref().map(|_| "[redacted]"))
            .field("totp_sealed", &self.totp_sealed.as_ref().map(|_| "[redacted]"))
            .field("created_at", &self.created_at)
            .finish()
    }
}

impl StaffRecord {
    /// A newly invited staff member, with nothing set up.
    #[must_use]
    pub fn invited(id: StaffId, email: &str, name: &str, role: StaffRole, now: i64) -> Self {
        StaffRecord {
            staff: Staff { id, email: email.trim().to_lowercase(), name: name.trim().to_owned(), role },
            status: StaffStatus::Invited,
            password_hash: None,
            totp_sealed: None,
            created_at: now,
        }
    }
}

/// A set-up code as stored: the SHA-256 hex of the code handed over in the link, never the code.
#[derive(Clone, PartialEq, Eq)]
pub struct SetupCode {
    pub code_hash: String,
    pub staff: StaffId,
    /// Seconds since the Unix epoch at which the code ends.
    pub expires_at: i64,
}

impl std::fmt::Debug for SetupCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SetupCode")
            .field("staff", &self.staff)
            .field("expires_at", &self.expires_at)
            .finish_non_exhaustive()
    }
}

/// The secrets a set-up stores.
#[derive(Clone, PartialEq, Eq)]
pub struct SetupSecrets {
    pub password_hash: String,
    pub totp_sealed: String,
}

impl std::fmt::Debug for SetupSecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SetupSecrets([redacted])")
    }
}

/// A new staff session: the SHA-256 hex of the token the staff member holds.
#[derive(Clone, PartialEq, Eq)]
pub struct StaffSession {
    pub token_hash: String,
    pub staff: StaffId,
    /// Seconds since the Unix epoch after which the session is no longer valid.
    pub expires_at: i64,
}

impl std::fmt::Debug for StaffSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StaffSession")
            .field("staff", &self.staff)
            .field("expires_at", &self.expires_at)
            .finish_non_exhaustive()
    }
}

/// What one sweep of the staff store removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StaffSwept {
    /// Sessions past their end, or ended by a sign-out, a removal or a new set-up.
    pub sessions: u64,
    /// Set-up codes past their end.
    pub setup_codes: u64,
}

/// One window of the staff list and how many there are in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffPage {
    pub records: Vec<StaffRecord>,
    pub total: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StaffStoreError {
    /// A staff member who is not removed already has this email.
    #[error("a staff member with this email already exists")]
    DuplicateEmail,
    /// No staff member (not removed) has this id.
    #[error("no such staff member")]
    NotFound,
    /// The record does not satisfy the store's schema.
    #[error("the store refused the record: {reason}")]
    Invalid { reason: String },
    /// The store could not be reached or failed; the caller may retry later.
    #[error("the staff store is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// Where staff, their set-up codes and their sessions live, shared by every instance of the shop.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait StaffStore: Send + Sync {
    /// Stores a newly invited staff member and their set-up code, with `audit`, in one transaction.
    ///
    /// # Errors
    /// MUST return [`StaffStoreError::DuplicateEmail`] when a staff member who is not removed has
    /// the same email (compared case-insensitively); nothing is written then, even when invitations
    /// race. [`StaffStoreError::Unavailable`].
    async fn invite(&self, record: &StaffRecord, code: &SetupCode, audit: &AuditEntry) -> Result<(), StaffStoreError>;

    /// Replaces the set-up codes of a staff member who is not removed with `code` (a new link for
    /// someone who has not set up, or who lost their authenticator), with `audit`.
    ///
    /// # Errors
    /// [`StaffStoreError::NotFound`] for no such staff member (or a removed one); [`StaffStoreError::Unavailable`].
    async fn reissue(&self, code: &SetupCode, audit: &AuditEntry) -> Result<(), StaffStoreError>;

    /// The staff member with this id, in any status.
    ///
    /// # Errors
    /// [`StaffStoreError::Unavailable`].
    async fn staff(&self, id: &StaffId) -> Result<Option<StaffRecord>, StaffStoreError>;

    /// The staff member, not removed, with this email (case-insensitive).
    ///
    /// # Errors
    /// [`StaffStoreError::Unavailable`].
    async fn staff_by_email(&self, email: &str) -> Result<Option<StaffRecord>, StaffStoreError>;

    /// Staff not removed, oldest first: the page `window` of them, and how many in all.
    ///
    /// # Errors
    /// [`StaffStoreError::Unavailable`].
    async fn list(&self, window: ListWindow) -> Result<StaffPage, StaffStoreError>;

    /// How many owners (invited or active, not removed) there are.
    ///
    /// # Errors
    /// [`StaffStoreError::Unavailable`].
    async fn owners(&self) -> Result<u64, StaffStoreError>;

    /// The staff member a live set-up code (not expired at `now`, not used) belongs to, if they are
    /// not removed. Reading does not use the code.
    ///
    /// # Errors
    /// [`StaffStoreError::Unavailable`].
    async fn setup_code(&self, code_hash: &str, now: i64) -> Result<Option<StaffRecord>, StaffStoreError>;

    /// Uses the set-up code: in one transaction, when the code is still live at `now` and belongs to
    /// `staff` (not removed), removes every set-up code of the staff member, stores `secrets`, makes
    /// them active with their authenticator's last step reset, ends their sessions and stores
    /// `audit`. Returns `false`, changing nothing, when the code is not live (used by a racing
    /// call, expired, never issued).
    ///
    /// # Errors
    /// [`StaffStoreError::Unavailable`].
    async fn complete_setup(
        &self,
        code_hash: &str,
        staff: &StaffId,
        now: i64,
        secrets: &SetupSecrets,
        audit: &AuditEntry,
    ) -> Result<bool, StaffStoreError>;

    /// Records that the staff member used authenticator time step `step`: `true` when `step` is
    /// later than any they used before (it becomes the last one), `false` otherwise (a replay), of
    /// racing calls with one step exactly one is `true`.
    ///
    /// # Errors
    /// [`StaffStoreError::NotFound`] for no such active staff member; [`StaffStoreError::Unavailable`].
    async fn use_totp_step(&self, staff: &StaffId, step: i64) -> Result<bool, StaffStoreError>;

    /// Starts a session.
    ///
    /// # Errors
    /// [`StaffStoreError::Unavailable`].
    async fn create_session(&self, session: &StaffSession) -> Result<(), StaffStoreError>;

    /// The active staff member whose session has this token hash, when it has not expired at `now`
    /// and was not ended.
    ///
    /// # Errors
    /// [`StaffStoreError::Unavailable`].
    async fn session_staff(&self, token_hash: &str, now: i64) -> Result<Option<Staff>, StaffStoreError>;

    /// Ends the session with this token hash; ending an unknown or ended session is not an error.
    ///
    /// # Errors
    /// [`StaffStoreError::Unavailable`].
    async fn end_session(&self, token_hash: &str) -> Result<(), StaffStoreError>;

    /// Removes a staff member: in one transaction marks them removed (their email is free again,
    /// their secrets gone), ends every session of theirs, removes their set-up codes and stores
    /// `audit`. Returns the record as it was.
    ///
    /// # Errors
    /// [`StaffStoreError::NotFound`] when no staff member (not removed) has this id (nothing is
    /// written then); [`StaffStoreError::Unavailable`].
    async fn remove(&self, staff: &StaffId, audit: &AuditEntry) -> Result<StaffRecord, StaffStoreError>;

    /// Housekeeping: deletes the sessions that expired at `now` (`expires_at <= now`) or were
    /// ended, and the set-up codes that expired at `now`. A live session or code is left as it is.
    /// Returns what it removed.
    ///
    /// # Errors
    /// [`StaffStoreError::Unavailable`] when the store cannot be written.
    async fn sweep(&self, now: i64) -> Result<StaffSwept, StaffStoreError>;
}
