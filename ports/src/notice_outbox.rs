//! The outbox of customers' order notices (the transactional outbox): each email or SMS is written
//! in the same transaction as the order change that caused it (by [`crate::OrderDesk`]'s writes,
//! from [`NewNotice`]s), then claimed and sent by a worker that retries, so a gateway that fails
//! never undoes or blocks a staff member's action.
//!
//! A worker claims due notices under a lease (`lease_until`): no other worker claims them until the
//! lease lapses, so two instances never send one notice at once, and a worker that dies mid-send
//! leaves its notices to be claimed again when the lease runs out.

use async_trait::async_trait;
use marque_domain::order::NoticeKind;

use crate::{Channel, OrderId};

/// One message to queue with an order change: one channel, one recipient.
#[derive(Clone, PartialEq, Eq)]
pub struct NewNotice {
    pub order: OrderId,
    pub kind: NoticeKind,
    pub channel: Channel,
    /// A ten-digit mobile or an email address.
    pub recipient: String,
    /// The email's subject (empty for an SMS).
    pub subject: String,
    pub text: String,
    /// The SMS template's name ([`NoticeKind::template`]); `None` for an email.
    pub template: Option<String>,
    /// When it was queued (seconds since the Unix epoch); it is due at once.
    pub at: i64,
}

/// Texts are the customer's business: `Debug` prints who and what kind, never the text.
impl std::fmt::Debug for NewNotice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewNotice")
            .field("order", &self.order)
            .field("kind", &self.kind)
            .field("channel", &self.channel)
            .finish_non_exhaustive()
    }
}

/// Where a queued notice stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeState {
    /// Not sent yet: due at `due_at`, tried `attempts` times.
    Waiting,
    Sent,
    /// Given up after the last attempt (or refused for good).
    Failed,
}

impl NoticeState {
    /// `waiting`, `sent`, `failed`: as stored.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            NoticeState::Waiting => "waiting",
            NoticeState::Sent => "sent",
            NoticeState::Failed => "failed",
        }
    }

    #[must_use]
    pub fn from_code(code: &str) -> Option<Self> {
        [NoticeState::Waiting, NoticeState::Sent, NoticeState::Failed].into_iter().find(|s| s.code() == code)
    }
}

/// A notice as the outbox keeps it.
#[derive(Clone, PartialEq, Eq)]
pub struct QueuedNotice {
    /// Unique in the outbox.
    pub id: String,
    pub notice: NewNotice,
    pub state: NoticeState,
    /// Failed attempts so far.
    pub attempts: u32,
    /// When the next attempt is due (seconds since the Unix epoch).
    pub due_at: i64,
    /// Why the last attempt failed (the gateway's reason, never the text).
    pub last_error: Option<String>,
}

impl std::fmt::Debug for QueuedNotice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueuedNotice")
            .field("id", &self.id)
            .field("notice", &self.notice)
            .field("state", &self.state)
            .field("attempts", &self.attempts)
            .field("due_at", &self.due_at)
            .field("last_error", &self.last_error)
            .finish()
    }
}

/// How many notices wait and how many failed: what staff and the metrics see.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoticeCounts {
    pub waiting: u64,
    pub failed: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoticeOutboxError {
    /// The store could not be reached or failed; the caller may retry later.
    #[error("the notice outbox is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// The outbox's worker side. Notices get in only with an order change ([`crate::OrderDesk`]).
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait NoticeOutbox: Send + Sync {
    /// Claims for `worker` up to `limit` waiting notices due at `now` and not under another
    /// worker's lease (none, or lapsed: `lease_until` before `now`), oldest due first, leasing them
    /// until `lease_until`. Answers the notices claimed.
    ///
    /// # Contract
    /// Of workers claiming at once, each notice goes to at most one while its lease holds.
    ///
    /// # Errors
    /// [`NoticeOutboxError::Unavailable`].
    async fn claim(
        &self,
        worker: &str,
        now: i64,
        lease_until: i64,
        limit: u32,
    ) -> Result<Vec<QueuedNotice>, NoticeOutboxError>;

    /// Marks notice `id` sent, if it is still waiting under `worker`'s lease. Answers whether it was.
    ///
    /// # Errors
    /// [`NoticeOutboxError::Unavailable`].
    async fn sent(&self, id: &str, worker: &str, now: i64) -> Result<bool, NoticeOutboxError>;

    /// Records a failed attempt of notice `id` under `worker`'s lease: its attempts grow by one,
    /// `error` is kept, and the lease ends; with `retry_at` it waits again until then, without it
    /// is marked failed. Answers whether it was under `worker`'s lease.
    ///
    /// # Errors
    /// [`NoticeOutboxError::Unavailable`].
    async fn attempt_failed(
        &self,
        id: &str,
        worker: &str,
        error: &str,
        retry_at: Option<i64>,
    ) -> Result<bool, NoticeOutboxError>;

    /// The notices queued for `order`, oldest first.
    ///
    /// # Errors
    /// [`NoticeOutboxError::Unavailable`].
    async fn notices_of(&self, order: &OrderId) -> Result<Vec<QueuedNotice>, NoticeOutboxError>;

    /// How many notices wait and how many failed, over every order.
    ///
    /// # Errors
    /// [`NoticeOutboxError::Unavailable`].
    async fn counts(&self) -> Result<NoticeCounts, NoticeOutboxError>;
}
