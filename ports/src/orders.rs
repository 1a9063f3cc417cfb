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
use marque_domain::order::OrderLine;
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
    /// One line per product, in cart order.
    pub lines: Vec<OrderLine>,
    pub address: Address,
    /// The discount percent that applied (0 when none).
    pub discount: DiscountPercent,
    /// The discount's amount (whole rupees, as the rule truncates it).
    pub discount_amount: Money,
    pub delivery_charge: Money,
    /// What the customer pays: items − discount + delivery.
    pub total: Money,
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
    pub courier: String,
    pub awb: String,
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
    /// A reservation already exists under this payment order id.
    #[error("a reservation for this payment order already exists")]
    DuplicateReservation,
    /// The financial year's invoice series is used up.
    #[error("the invoice series is exhausted")]
    SeriesExhausted,
    #[error("the order store is unavailable: {reason}")]
    Unavailable { reason: String },
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
    /// Holds stock for every line of the draft and keeps the reservation, all or nothing.
    ///
    /// # Errors
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
    async fn reservation(&self, payment_order: &PaymentOrderId)
        -> Result<Option<(Reservation, ReservationState)>, OrderStoreError>;

    /// Gives a held reservation's units back. Returns whether this call released it: a reservation
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
    /// before the payment arrived) takes its stock again first. Calling it again for the same
    /// payment order — concurrently or later — returns [`Placement::AlreadyPlaced`] with that
    /// order, whatever `payment` and `placed_at` it is given.
    ///
    /// # Errors
    /// [`OrderStoreError::UnknownReservation`]; [`OrderStoreError::OutOfStock`] when a released
    /// reservation's stock is no longer there (nothing is placed); [`OrderStoreError::SeriesExhausted`];
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

    /// Records a provider event id; `true` the first time it is seen, `false` ever after, even when
    /// two instances record it at the same moment.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn first_sight(&self, event_id: &str, now: i64) -> Result<bool, OrderStoreError>;

    /// Forgets a provider event id recorded by [`OrderStore::first_sight`], so a delivery whose
    /// handling failed is handled again when the provider retries it. Forgetting an unknown id is
    /// not an error.
    ///
    /// # Errors
    /// [`OrderStoreError::Unavailable`].
    async fn forget_event(&self, event_id: &str) -> Result<(), OrderStoreError>;
}
