//! The back office's orders: a paged list with filters and counts per status, one order with its
//! version and timeline, and the one write staff make here, a change of status or shipment that
//! happens only on the version it was decided on.
//!
//! The rules of what may change live in the domain (`marque_domain::order::Fulfilment`); this port
//! only keeps what the use case decided, or refuses because someone else changed the order first.

use async_trait::async_trait;
use marque_domain::order::{Fulfilment, OrderSearch, OrderStatus, Shipment};
use marque_domain::paging::ListWindow;

use crate::{AuditEntry, OrderId, PlacedOrder};

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
    /// a timeline entry (time, actor and action from `audit`) and `audit` itself. Answers the order
    /// as it is after the change.
    ///
    /// # Contract
    /// - Of any number of concurrent changes naming one version, exactly one is written; every other
    ///   gets [`OrderDeskError::Changed`] and writes nothing (no change, no entry, no audit record).
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
    ) -> Result<AdminOrder, OrderDeskError>;
}
