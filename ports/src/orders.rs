//! The order store: stock held for a payment, orders placed exactly once, and the invoice series.
//!
//! A checkout goes through three records. When the shopper presses Pay, the server prices the
//! order and [`OrderStore::reserve`]s it under the payment provider's order id: the stock of every
//! line is taken at once, or none is. When the payment is confirmed (by the browser or by the
//! provider's webhook, in any order, any number of times) [`OrderStore::place`] turns the
//! reservation into an order with the financial year's next invoice number. A reservation that is
//! never paid gives its stock back ([`OrderStore::release`], [`OrderStore::release_expired`]).

use async_trait::async_trait;
use marque_domain::address::Address;
use marque_domain::catalog::ProductId;
use marque_domain::invoice::InvoiceNumber;
use marque_domain::order::{OrderLine, Shipment};
use marque_domain::pricing::DiscountPercent;
use marque_domain::Money;

use crate::accounts::UserId;
use crate::payment::{PaymentId, PaymentOrderId};

/// A placed order's id (`_id` in the API), opaque to clients.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OrderId(pub String);

/// An order as priced by the server when the shopper pressed Pay: what is sold, at what price, to
/// whom and where. Everything an invoice needs is a snapshot here, never read from the catalog later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderDraft {
    pub user: UserId,
    pub user_name: String,
    /// One line per product, in cart order; a used unit's line with the margin scheme's purchase
    /// price the product had (kept as written, read back the same).
    pub lines: Vec<OrderLine>,
    pub address: Address,
    /// The discount percent that applied (0 when none).
    pub discount: DiscountPercent,
    /// The discount's amount (whole rupees, as the rule truncates it).
    pub discount_amount: Money,
    pub delivery_charge: Money,
    /// What the customer pays: items − discount + delivery (GST is on this full price, whatever
    /// pays it).
    pub total: Money,
    /// The part of `total` paid with store credit (zero when none; at most `total`): taken from the
    /// customer's grants with the stock, by [`OrderStore::reserve`]. The card pays the rest,
    /// [`OrderDraft::card_amount`].
    pub store_credit: Money,
}

impl OrderDraft {
    /// What the card pays: `total − store_credit`, never below zero.
    #[must_use]
    pub fn card_amount(&self) -> Money {
        Money::from_paise((self.total.paise() - self.store_credit.paise()).max(0))
    }
}

/// Stock held for one payment order until it is paid, released, or expires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reservation {
    pub payment_order: PaymentOrderId,
    pub draft: OrderDraft,
    /// Seconds since the Unix epoch.
    pub created_at: i64,
    /// Seconds since the Unix epoch; after it the stock goes back unless paid.
    pub expires_at: i64,
}

/// Where a reservation stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReservationState {
    /// The stock is taken and waits for the payment.
    Held,
    /// The stock went back (payment failed, or expired unpaid).
    Released,
    /// Paid: an order was placed from it.
    Sold,
}

/// An order as placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacedOrder {
    pub id: OrderId,
    /// The shop's order number shown to the customer, e.g. `MQ-000042`.
    pub order_number: String,
    pub invoice_number: InvoiceNumber,
    pub draft: OrderDraft,
    pub payment_order: PaymentOrderId,
    pub payment: PaymentId,
    /// Seconds since the Unix epoch.
    pub created_at: i64,
    /// 1–6 (see the domain's `OrderStatus`).
    pub status: u8,
    /// The status label (`order_status_string`).
    pub status_text: String,
    /// Who carries it and under which AWB, once shipped.
    pub shipment: Option<Shipment>,
}

/// How [`OrderStore::place`] ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement {
    /// This call placed the order.
    Placed(PlacedOrder),
    /// An earlier call had placed it; this is that order, unchanged.
    AlreadyPlaced(PlacedOrder),
}

impl Placement {
    #[must_use]
    pub fn order(&self) -> &PlacedOrder {
        match self {
            Placement::Placed(o) | Placement::AlreadyPlaced(o) => o,
        }
    }

    #[must_use]
    pub fn into_order(self) -> PlacedOrder {
        match self {
            Placement::Placed(o) | Placement::AlreadyPlaced(o) => o,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OrderStoreError {
    /// This product has fewer units than a line asks for (or no longer exists).
    #[error("product {product} does not have the units asked for")]
    OutOfStock { product: ProductId },
    /// No reservation is kept under this payment order id.
    #[error("no reservation for this payment order")]
    UnknownReservation,
    /// The customer's live store credit is less than the draft's `store_credit` (spent or expired
    /// since it was priced): nothing is held or placed.
    #[error("the store credit is no longer there")]
    CreditShort,
    /// A reservation already exists under this payment order id.
    #[error("a reservation for this payment order already exists")]
    DuplicateReservation,
    /// The financial year's invoice series is used up.
    #[error("the invoice series is exhausted")]
    SeriesExhausted,
    #[error("the order store is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// Where the refund of a payment stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefundState {
    /// Decided by the shop, not yet accepted by the provider (the provider could not be reached).
    Requested,
    /// Accepted by the provider, on its way to the customer.
    Pending,
    /// The provider reports the money returned (`refund.processed`).
    Processed,
    /// The provider reports the refund failed (`refund.failed`): the shop must act.
    Failed,
}

impl RefundState {
    /// The status as stored and logged: `requested`, `pending`, `processed`, `failed`.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            RefundState::Requested => "requested",
            RefundState::Pending => "pending",
            RefundState::Processed => "processed",
            RefundState::Failed => "failed",
        }
    }

    /// The status of a code from [`RefundState::code`].
    #[must_use]
    pub fn from_code(code: &str) -> Option<Self> {
        [RefundState::Requested, RefundState::Pending, RefundState::Processed, RefundState::Failed]
            .into_iter()
            .find(|s| s.code() == code)
    }
}

/// A payment the shop gave back because no order could be placed for it (it arrived after its
/// hold lapsed and the stock was sold meanwhile). The shop's record of it, beside the orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundRecord {
    pub payment: PaymentId,
    pub payment_order: PaymentOrderId,
    /// The customer who paid.
    pub user: UserId,
    /// In paise.
    pub amount: Money,
    /// Why, for the shop (e.g. `sold_out`).
    pub reason: String,
    /// The provider's refund id (`rfnd_…`), once the provider accepted the refund.
    pub refund_id: Option<String>,
    pub state: RefundState,
    /// Seconds since the Unix epoch.
    pub created_at: i64,
    /// Seconds since the Unix epoch: the last change of status.
    pub updated_at: i64,
}

/// A page of a customer's orders ([`OrderStore::orders_page`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OrdersPage {
    /// The page's orders, newest first.
    pub orders: Vec<PlacedOrder>,
    /// How many orders the customer has in all.
    pub total: u64,
}

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait OrderStore: Send + Sync {
    /// Holds stock for every line of the draft and keeps the reservation, all or nothing. When the
    /// draft names `store_credit`, that much of the customer's live credit (at `created_at`) is
    /// taken in the same transaction, from the grants that expire first
    /// (`marque_domain::store_credit::spend`); concurrent reservations never take more credit
    /// than there is.
    ///
    /// # Errors
    /// [`OrderStoreError::CreditShort`] when the live credit is less than the draft's
    /// `store_credit`, and then nothing changes.
    /// MUST return [`OrderStoreError::OutOfStock`] naming the first line whose product has fewer
    /// units than the line's quantity (or does not exist), and then change nothing. Concurrent
    /// reservations never take more units than there are: a product's stock never goes below 0.
    /// [`OrderStoreError::DuplicateReservation`] when the payment order id is already used;
    /// [`OrderStoreError::Unavailable`].
    async fn reserve(&self, reservation: &Reservation) -> Result<(), OrderStoreError>;

    /// The reservation and its state, or `None`.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn reservation(
        &self,
        payment_order: &PaymentOrderId,
    ) -> Result<Option<(Reservation, ReservationState)>, OrderStoreError>;

    /// Gives a held reservation's units back, and the store credit it took to the grants it took
    /// it from. Returns whether this call released it: a reservation
    /// already released or sold is left as it is (`false`), so the stock is returned at most once.
    ///
    /// # Errors
    /// [`OrderStoreError::UnknownReservation`]; [`OrderStoreError::Unavailable`].
    async fn release(&self, payment_order: &PaymentOrderId) -> Result<bool, OrderStoreError>;

    /// Releases every held reservation whose `expires_at` is at or before `now`; returns how many.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn release_expired(&self, now: i64) -> Result<usize, OrderStoreError>;

    /// Places the order of a paid reservation, exactly once, in one transaction: the reservation
    /// becomes sold, each product's units sold grow by the line's quantity, the next number of the
    /// invoice series of the financial year containing `placed_at` is taken (consecutive, never
    /// reused), and the order is written with status 1. A reservation that was released (it expired
    /// before the payment arrived) takes its stock and its store credit again first. Calling it again for the same
    /// payment order — concurrently or later — returns [`Placement::AlreadyPlaced`] with that
    /// order, whatever `payment` and `placed_at` it is given.
    ///
    /// # Errors
    /// [`OrderStoreError::UnknownReservation`]; [`OrderStoreError::OutOfStock`] when a released
    /// reservation's stock is no longer there (nothing is placed); [`OrderStoreError::CreditShort`]
    /// when a released reservation's store credit is no longer there (nothing is placed);
    /// [`OrderStoreError::SeriesExhausted`];
    /// [`OrderStoreError::Unavailable`].
    async fn place(
        &self,
        payment_order: &PaymentOrderId,
        payment: &PaymentId,
        placed_at: i64,
    ) -> Result<Placement, OrderStoreError>;

    /// One order, or `None`.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn order(&self, id: &OrderId) -> Result<Option<PlacedOrder>, OrderStoreError>;

    /// The customer's orders, newest first.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn orders_of(&self, user: &UserId) -> Result<Vec<PlacedOrder>, OrderStoreError>;

    /// One page of the customer's orders, newest first: at most `limit` from `offset`, and how many
    /// orders the customer has in all (for the number of pages). Only that page is read.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn orders_page(&self, user: &UserId, offset: u64, limit: u64) -> Result<OrdersPage, OrderStoreError>;

    /// Notes that a provider event arrived (the first arrival's time is kept) and tells whether it
    /// was already handled ([`OrderStore::event_handled`]): `true` means a duplicate, whose effect
    /// is done. An event that arrived before but whose handling never finished (a failure, a crash
    /// in between) answers `false`, so the provider's retry is handled.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn receive_event(&self, event_id: &str, now: i64) -> Result<bool, OrderStoreError>;

    /// Marks a provider event handled, once its effect is done; every later
    /// [`OrderStore::receive_event`] of it answers `true`. Marking an event never received records it.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn event_handled(&self, event_id: &str, now: i64) -> Result<(), OrderStoreError>;

    /// Deletes the provider events that first arrived before `before`; returns how many.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn forget_events_before(&self, before: i64) -> Result<usize, OrderStoreError>;

    /// The customer's held reservations (stock taken, not paid, not released), oldest first.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn held_by(&self, user: &UserId) -> Result<Vec<Reservation>, OrderStoreError>;

    /// The reservations created at or after `since` from which no order was placed (held or
    /// released), oldest first: the payment orders the reconciliation asks the provider about.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn unplaced_since(&self, since: i64) -> Result<Vec<(Reservation, ReservationState)>, OrderStoreError>;

    /// Keeps the refund of a payment for which no order could be placed: one record per payment.
    /// A second call for the same payment replaces the record's provider refund id, status and
    /// `updated_at`, and keeps the rest.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn save_refund(&self, refund: &RefundRecord) -> Result<(), OrderStoreError>;

    /// The refund of a payment, or `None`.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn refund_of(&self, payment: &PaymentId) -> Result<Option<RefundRecord>, OrderStoreError>;

    /// Records the provider's news of a refund (`refund.processed`, `refund.failed`) on the record
    /// holding that provider refund id: a refund of a payment without an order, or a refund of a
    /// placed order (the back office's, [`crate::OrderDesk`]; one already `processed` or `failed`
    /// keeps its state). `false` when no record holds it.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn refund_status(&self, refund_id: &str, status: RefundState, now: i64) -> Result<bool, OrderStoreError>;
}
