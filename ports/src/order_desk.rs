//! The back office's orders: a paged list with filters and counts per status, one order with its
//! version and timeline, and the one write staff make here, a change of status or shipment that
//! happens only on the version it was decided on.
//!
//! The rules of what may change live in the domain (`marque_domain::order::Fulfilment`); this port
//! only keeps what the use case decided, or refuses because someone else changed the order first.

use async_trait::async_trait;
use marque_domain::catalog::ProductId;
use marque_domain::invoice::FinancialYear;
use marque_domain::order::{Fulfilment, Language, OrderSearch, OrderStatus, RefundFilter, Shipment};
use marque_domain::paging::ListWindow;
use marque_domain::Money;

use crate::{AuditEntry, NewNotice, OrderId, PaymentId, PlacedOrder, RefundState};

/// Which orders the back office lists; every given filter must hold. Newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AdminOrderQuery {
    /// Orders at this status.
    pub status: Option<OrderStatus>,
    /// Placed at or after this (seconds since the Unix epoch).
    pub from: Option<i64>,
    /// Placed before this.
    pub until: Option<i64>,
    /// An order or invoice number (exact), or a customer's email or mobile: the account's (email,
    /// Google email, mobile) or, for a mobile, the order's delivery address's.
    pub search: Option<OrderSearch>,
    /// Orders by where their refunds stand.
    pub refunds: Option<RefundFilter>,
    /// The page of the ordered result to return.
    pub window: ListWindow,
}

/// How many orders a query finds at each status.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatusCounts(pub [u64; 6]);

impl StatusCounts {
    /// The orders at `status`.
    #[must_use]
    pub fn of(&self, status: OrderStatus) -> u64 {
        usize::try_from(status.number() - 1).ok().and_then(|i| self.0.get(i)).copied().unwrap_or(0)
    }
}

/// One window of the back office's order list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdminOrderPage {
    /// The window's orders, newest first (`created_at` descending, then order number descending).
    pub orders: Vec<PlacedOrder>,
    /// How many orders match the query in all.
    pub total: u64,
    /// How many orders match every filter but the status, at each status.
    pub counts: StatusCounts,
}

/// One change in an order's timeline: who moved it where, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderEvent {
    /// Seconds since the Unix epoch.
    pub at: i64,
    /// [`crate::Actor::key`] of who made it.
    pub actor: String,
    /// What a person reads for the actor.
    pub actor_label: String,
    /// What was done, as the audit trail names it (`order.status`, `order.shipment`).
    pub action: String,
    /// The status after the change.
    pub status: OrderStatus,
    /// The shipment after the change.
    pub shipment: Option<Shipment>,
}

/// One order as the back office reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdminOrder {
    pub order: PlacedOrder,
    /// Grows by one with every change; a change names the version it was decided on.
    pub version: u64,
    /// Every change since the order was placed, oldest first.
    pub timeline: Vec<OrderEvent>,
    /// The customer's account email (or Google email), if the account still has one.
    pub customer_email: Option<String>,
    /// The customer's account mobile, if the account still has one.
    pub customer_mobile: Option<String>,
    /// The language the customer last chose, as the account keeps it (`None`: never chosen, or no
    /// account): the language of the notices they are sent.
    pub customer_language: Option<Language>,
    /// The order's refunds, oldest first.
    pub refunds: Vec<OrderRefund>,
}

/// Whether a refund came with the order's cancellation or on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefundKind {
    /// The refund of everything left when the shop cancelled the order.
    Cancel,
    /// Lines (and the delivery charge) chosen by staff.
    Partial,
}

impl RefundKind {
    /// `cancel`, `partial`: as stored and answered.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            RefundKind::Cancel => "cancel",
            RefundKind::Partial => "partial",
        }
    }

    #[must_use]
    pub fn from_code(code: &str) -> Option<Self> {
        [RefundKind::Cancel, RefundKind::Partial].into_iter().find(|k| k.code() == code)
    }
}

/// One line of an order's refund.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderRefundLine {
    pub product: ProductId,
    pub name: String,
    pub quantity: u32,
    /// In paise, as the domain computed it.
    pub amount: Money,
    /// Whether the units went back into stock (an entry in the stock ledger).
    pub restock: bool,
    pub reason: String,
}

/// A refund of a placed order, as the shop keeps it: what it gives back, why, who asked, and where it
/// stands at the payment provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderRefund {
    /// Unique among all refunds; `{order id}-{n}` for the order's n-th refund.
    pub id: String,
    pub order: OrderId,
    /// The provider's payment refunded.
    pub payment: PaymentId,
    pub kind: RefundKind,
    pub lines: Vec<OrderRefundLine>,
    /// The delivery charge refunded (zero when not).
    pub delivery: Money,
    /// What the refund gives back in all: its lines' amounts and `delivery`.
    pub amount: Money,
    pub reason: String,
    pub state: RefundState,
    /// The provider's refund id (`rfnd_…`) of the latest attempt, once the provider accepted it.
    pub provider_refund: Option<String>,
    /// Grows by one with each retry of a failed refund; the provider's idempotency key names it.
    pub attempt: u32,
    /// The `Idempotency-Key` staff sent (a cancellation's is `cancel`).
    pub key: String,
    /// The request as the shop read it, for telling a repeat of the same key from another body.
    pub request: String,
    /// [`crate::Actor::key`] of who asked, and what a person reads for them.
    pub actor: String,
    pub actor_label: String,
    /// Seconds since the Unix epoch.
    pub created_at: i64,
    pub updated_at: i64,
    /// The number of the GST credit note issued for the refund (`CN/26-27/000001`); none for a
    /// refund of nothing. The note is rebuilt from the order's tax invoice, the refunds before this
    /// one, this refund's lines and delivery, and the day of `created_at`.
    pub credit_note: Option<String>,
}

/// A credit note issued for a refund: the order, the refund and the note's number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuedCreditNote {
    pub order: OrderId,
    /// [`OrderRefund::id`].
    pub refund: String,
    /// `CN/26-27/000001`.
    pub number: String,
}

/// A refund to record, and the cancellation it comes with, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundWrite {
    pub refund: OrderRefund,
    /// How many refunds the order had when the refund was computed: the domain's amounts depend on
    /// what was refunded before.
    pub refunds_seen: usize,
    /// The order's cancellation: the version it was decided on and where it moves (status 6).
    pub cancel: Option<(u64, Fulfilment)>,
    /// Issue the refund a GST credit note numbered in this financial year's series (the year of
    /// the refund's `created_at`); `None` for a refund of nothing.
    pub credit_note_year: Option<FinancialYear>,
    /// The customer's notices of the refund (or cancellation), queued in the outbox in the same
    /// transaction.
    pub notices: Vec<NewNotice>,
}

/// How [`OrderDesk::record_refund`] ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefundRecorded {
    /// Written now; the order as it is after.
    Recorded(Box<AdminOrder>),
    /// The order already has a refund under this key for this same request: that one, unchanged.
    Existing(Box<OrderRefund>),
}

/// How many refunds wait on the provider or failed there: what the dashboard shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RefundCounts {
    /// `requested` or `pending`.
    pub waiting: u64,
    /// `failed`: staff must retry them.
    pub failed: u64,
}

/// Why the back office's order store refused or failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OrderDeskError {
    /// No order has this id.
    #[error("no such order")]
    NotFound,
    /// The order is no longer at the version the change was decided on; `version` is its version now.
    #[error("the order changed meanwhile (now at version {version})")]
    Changed { version: u64 },
    /// Another refund of the order was recorded since the one offered was computed.
    #[error("the order's refunds changed meanwhile")]
    RefundsChanged,
    /// The refund would take the order's refunds above what was paid; `left` is what is left.
    #[error("the refunds would total more than was paid ({left} left)")]
    AbovePaid { left: Money },
    /// A refund line asks for more units than are left of the order's line (or names a product the
    /// order does not hold).
    #[error("more units than are left to refund")]
    UnitsAboveLeft,
    /// The order already has a refund under this key, for another request.
    #[error("the idempotency key was used for another refund")]
    KeyReused,
    /// The order has no refund with this id.
    #[error("no such refund")]
    RefundNotFound,
    /// The store could not be reached or failed; the caller may retry later.
    #[error("the order store is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// The back office's order store.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait OrderDesk: Send + Sync {
    /// The window of orders `query` matches, newest first, how many match, and how many match every
    /// filter but the status at each status.
    ///
    /// # Contract
    /// Windows over unchanged orders neither repeat nor skip one.
    ///
    /// # Errors
    /// [`OrderDeskError::Unavailable`].
    async fn orders(&self, query: &AdminOrderQuery) -> Result<AdminOrderPage, OrderDeskError>;

    /// The order with this id, its version and its timeline, or `None`.
    ///
    /// # Errors
    /// [`OrderDeskError::Unavailable`].
    async fn order(&self, id: &OrderId) -> Result<Option<AdminOrder>, OrderDeskError>;

    /// Sets the order's status (its `status_text` the status's own) and shipment to `to`, if and only
    /// if the order is still at `version`: in one transaction, the change, the version's step by one,
    /// a timeline entry (time, actor and action from `audit`), `audit` itself and `notices` queued
    /// in the outbox (waiting, due at once). Answers the order as it is after the change.
    ///
    /// # Contract
    /// - Of any number of concurrent changes naming one version, exactly one is written; every other
    ///   gets [`OrderDeskError::Changed`] and writes nothing (no change, no entry, no audit record,
    ///   no notice).
    /// - The store does not judge the move (the domain's rules did); it keeps what it is given.
    ///
    /// # Errors
    /// [`OrderDeskError::NotFound`]; [`OrderDeskError::Changed`] with the version the order is at;
    /// [`OrderDeskError::Unavailable`]. Nothing is written with any of them.
    async fn update_fulfilment(
        &self,
        id: &OrderId,
        version: u64,
        to: &Fulfilment,
        audit: &AuditEntry,
        notices: &[NewNotice],
    ) -> Result<AdminOrder, OrderDeskError>;

    /// Records `write.refund` of an order, in one transaction: the refund, a stock entry (reason
    /// `returned`, actor and time from `audit`) adding back the units of each line to restock, a
    /// timeline entry, `audit` and `write.notices` queued in the outbox; with `write.cancel`, also
    /// the order's move to its status 6 (status text `admin-cancelled`) and the version's step by
    /// one. Answers the order as it is after.
    ///
    /// # Contract
    /// - The refunds of an order never total more than its `total`, and no line's refunded units more
    ///   than it holds, whatever refunds are recorded concurrently: checked inside the transaction.
    /// - `write.refunds_seen` must be the number of the order's refunds (the domain's amounts were
    ///   computed on them); otherwise nothing is written.
    /// - A second refund under the same `key` for the same order writes nothing: with the same
    ///   `request` it answers [`RefundRecorded::Existing`] with the first, even when both race.
    /// - With `write.credit_note_year`, the refund's `credit_note` is the next number of that
    ///   financial year's credit-note series, taken in the same transaction: the numbers of the
    ///   refunds recorded are consecutive from `CN/yy-yy/000001`, with no gap and no number twice,
    ///   however many refunds (of any orders) are recorded at once. Without it, `credit_note` is
    ///   kept as given.
    ///
    /// # Errors
    /// [`OrderDeskError::NotFound`]; [`OrderDeskError::Changed`] when a cancellation's version is not
    /// the order's; [`OrderDeskError::RefundsChanged`]; [`OrderDeskError::AbovePaid`];
    /// [`OrderDeskError::UnitsAboveLeft`]; [`OrderDeskError::KeyReused`] for the same key with another
    /// request; [`OrderDeskError::Unavailable`]. Nothing is written with any of them.
    async fn record_refund(&self, write: &RefundWrite, audit: &AuditEntry) -> Result<RefundRecorded, OrderDeskError>;

    /// Records the provider's answer to attempt `attempt` of refund `refund_id`: its state and the
    /// provider's refund id. Only a refund still at that attempt and not yet `processed` or `failed`
    /// changes (a late answer to an earlier attempt changes nothing). Answers the refund as it is after.
    ///
    /// # Errors
    /// [`OrderDeskError::RefundNotFound`]; [`OrderDeskError::Unavailable`].
    async fn settle_refund(
        &self,
        refund_id: &str,
        attempt: u32,
        state: RefundState,
        provider_refund: Option<String>,
        now: i64,
    ) -> Result<OrderRefund, OrderDeskError>;

    /// Starts another attempt of a failed refund, in one transaction with a timeline entry and
    /// `audit`: the refund goes back to `requested` and its `attempt` grows by one. A refund that is
    /// not `failed` (a retry raced by another) is answered as it is, and nothing is written.
    ///
    /// # Errors
    /// [`OrderDeskError::RefundNotFound`] when the order has no such refund; [`OrderDeskError::Unavailable`].
    async fn retry_refund(
        &self,
        order: &OrderId,
        refund_id: &str,
        audit: &AuditEntry,
    ) -> Result<OrderRefund, OrderDeskError>;

    /// The refunds still `requested` or `pending` at the provider, oldest first, at most `limit`:
    /// what the reconciliation pass asks the provider about.
    ///
    /// # Errors
    /// [`OrderDeskError::Unavailable`].
    async fn unsettled_refunds(&self, limit: u32) -> Result<Vec<OrderRefund>, OrderDeskError>;

    /// The credit notes issued for the refunds of `orders` (at most a page of them), each order's
    /// oldest first: what Purchase History links beside each invoice.
    ///
    /// # Errors
    /// [`OrderDeskError::Unavailable`].
    async fn credit_notes_of(&self, orders: &[OrderId]) -> Result<Vec<IssuedCreditNote>, OrderDeskError>;

    /// How many refunds are `requested` or `pending`, and how many `failed`, over every order.
    ///
    /// # Errors
    /// [`OrderDeskError::Unavailable`].
    async fn refund_counts(&self) -> Result<RefundCounts, OrderDeskError>;

    /// What the orders placed at or after `from` and before `until` total (their `total`, what the
    /// customers paid), leaving out cancelled orders (status 6); refunds of the others are not
    /// taken off.
    ///
    /// # Errors
    /// [`OrderDeskError::Unavailable`].
    async fn sales(&self, from: i64, until: i64) -> Result<Money, OrderDeskError>;
}
