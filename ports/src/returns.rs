//! Returns within the warranty: asked for by the customer from Purchase History, moved by the shop
//! (approved or refused, received, resolved) only on the version the move was decided on, and a
//! resolution as store credit granted in the same transaction as the move.
//!
//! The rules (the window, the units left, the moves) live in `marque_domain::order` (`returns.rs`);
//! the store keeps what the use case decided and refuses what someone else changed first.

use async_trait::async_trait;
use marque_domain::catalog::ProductId;
use marque_domain::order::{ReturnOutcome, ReturnState};
use marque_domain::paging::ListWindow;
use marque_domain::store_credit::Grant;
use marque_domain::Money;

use crate::{AuditEntry, NewNotice, OrderId, UserId};

/// A return as the customer asked for it, checked by the domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewReturn {
    /// The store's id for it, chosen by the use case (its photographs are kept under it).
    pub id: String,
    pub order: OrderId,
    pub order_number: String,
    /// The customer, as the order stores them (`customer_order.user`).
    pub customer: UserId,
    pub product: ProductId,
    pub product_name: String,
    pub quantity: u32,
    /// How many units of the line may be held by returns (not refused) at most, this one included:
    /// what was bought less what was refunded. The store checks it inside its transaction.
    pub units_allowed: u32,
    pub reason: String,
    /// The blob store's keys of its photographs (at most three).
    pub photos: Vec<String>,
    /// When the order was delivered and the warranty days the window was computed with.
    pub delivered_at: i64,
    pub warranty_days: u8,
    /// Seconds since the Unix epoch.
    pub created_at: i64,
}

/// A stored return.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductReturn {
    pub id: String,
    pub order: OrderId,
    pub order_number: String,
    pub customer: UserId,
    pub product: ProductId,
    pub product_name: String,
    pub quantity: u32,
    pub reason: String,
    pub photos: Vec<String>,
    pub delivered_at: i64,
    pub warranty_days: u8,
    pub state: ReturnState,
    /// The shop's note on approving or refusing.
    pub note: Option<String>,
    /// The shop's note on resolving (what the inspection found).
    pub resolution_note: Option<String>,
    /// How it was resolved, once resolved.
    pub outcome: Option<ReturnOutcome>,
    /// Whether the received units went back into stock.
    pub restock: bool,
    /// What the resolution gave: the refund or store credit (zero for a replacement).
    pub amount: Option<Money>,
    /// The order's refund made for it (`{order}-{n}`), for a refund.
    pub refund: Option<String>,
    /// The replacement's order id, for a replacement.
    pub replacement_order: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    /// What a person reads for who last moved it (a staff member's email).
    pub handled_by: Option<String>,
    /// 0 when asked for; grows by one with every move.
    pub version: u64,
}

/// A move as the use case decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnMove {
    /// The state after the move.
    pub to: ReturnState,
    /// The note kept with it: `note` when approving or refusing, `resolution_note` when resolving.
    pub note: Option<String>,
    pub outcome: Option<ReturnOutcome>,
    pub restock: bool,
    /// Put the return's units back into stock now, with a `returned` entry in the stock ledger, in
    /// the move's transaction (a refund's restock is the refund's own, so it never sets this).
    pub put_back: bool,
    pub amount: Option<Money>,
    pub refund: Option<String>,
    pub replacement_order: Option<String>,
    /// Seconds since the Unix epoch.
    pub at: i64,
}

/// Store credit to grant with a move: a row of the `store_credit` ledger for `customer`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreditGrant {
    pub customer: UserId,
    pub grant: Grant,
}

/// Which returns to list, newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReturnQuery {
    pub state: Option<ReturnState>,
    pub window: ListWindow,
}

/// One window of returns and how many the query matches in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnPage {
    pub returns: Vec<ProductReturn>,
    pub total: u64,
}

/// Why the return store refused or failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReturnStoreError {
    /// No return has this id.
    #[error("no such return")]
    NotFound,
    /// The return is no longer at the version the move was decided on; `version` is where it is.
    #[error("the return changed meanwhile (now at version {version})")]
    Changed { version: u64 },
    /// The line's returns (not refused) would hold more units than [`NewReturn::units_allowed`];
    /// `left` is how many may still be asked for.
    #[error("more units than are left to return ({left} left)")]
    UnitsAboveLeft { left: u32 },
    /// The store could not be reached or failed; the caller may retry later.
    #[error("the return store is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// The returns.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait ReturnStore: Send + Sync {
    /// Records a return, state `requested`, version 0, with `notices` queued in the outbox, in one
    /// transaction.
    ///
    /// # Contract
    /// - The returns of one order line that are not refused (nor resolved as a refund, whose units
    ///   the refund holds and `units_allowed` leaves out) never hold more than `new.units_allowed`
    ///   units, however many are asked for at once: checked inside the transaction.
    ///
    /// # Errors
    /// [`ReturnStoreError::UnitsAboveLeft`]; [`ReturnStoreError::Unavailable`]. Nothing is written
    /// with either.
    async fn request(&self, new: &NewReturn, notices: &[NewNotice]) -> Result<ProductReturn, ReturnStoreError>;

    /// The customer's returns, newest first (at most 200).
    ///
    /// # Errors
    /// [`ReturnStoreError::Unavailable`].
    async fn returns_of(&self, customer: &UserId) -> Result<Vec<ProductReturn>, ReturnStoreError>;

    /// The returns of one order, oldest first.
    ///
    /// # Errors
    /// [`ReturnStoreError::Unavailable`].
    async fn returns_of_order(&self, order: &OrderId) -> Result<Vec<ProductReturn>, ReturnStoreError>;

    /// The window of returns `query` matches, newest first (`created_at` descending, then id), and
    /// how many match.
    ///
    /// # Contract
    /// Windows over unchanged returns neither repeat nor skip one.
    ///
    /// # Errors
    /// [`ReturnStoreError::Unavailable`].
    async fn returns(&self, query: &ReturnQuery) -> Result<ReturnPage, ReturnStoreError>;

    /// The return with this id, or `None`.
    ///
    /// # Errors
    /// [`ReturnStoreError::Unavailable`].
    async fn product_return(&self, id: &str) -> Result<Option<ProductReturn>, ReturnStoreError>;

    /// Moves the return as `change` says, if and only if it is still at `version`: in one
    /// transaction, the state and what the move keeps, `handled_by` (the audit actor's label), the
    /// version's step by one, `audit`, `notices` queued in the outbox, with `change.put_back` the
    /// units put back into stock with their ledger entry and, with `credit`, its row in
    /// the `store_credit` ledger. Answers the return as it is after.
    ///
    /// # Contract
    /// - Of any number of concurrent moves naming one version, exactly one is written; every other
    ///   gets [`ReturnStoreError::Changed`] and writes nothing (no move, no audit record, no notice,
    ///   no credit).
    /// - A grant is written once per source: the ledger holds one row per `return:{id}`.
    /// - The store does not judge the move (the domain's rules did).
    ///
    /// # Errors
    /// [`ReturnStoreError::NotFound`]; [`ReturnStoreError::Changed`] with the version the return is
    /// at; [`ReturnStoreError::Unavailable`]. Nothing is written with any of them.
    async fn change(
        &self,
        id: &str,
        version: u64,
        change: &ReturnMove,
        credit: Option<CreditGrant>,
        audit: &AuditEntry,
        notices: &[NewNotice],
    ) -> Result<ProductReturn, ReturnStoreError>;

    /// How many returns wait on the shop: requested, approved or received.
    ///
    /// # Errors
    /// [`ReturnStoreError::Unavailable`].
    async fn waiting(&self) -> Result<u64, ReturnStoreError>;

    /// Removes what a customer wrote and sent with their returns, for the erasure of their account:
    /// every return of `customer` keeps its order, part, units, states, outcome and the shop's notes
    /// (the records of refunds, credit notes and stock it led to), and loses its reason (empty) and
    /// its photographs' keys (the caller deletes the photographs from the blob store first); the
    /// version steps by one, so a staff move read before the erasure is refused. Answers how many
    /// returns it changed. Erasing again changes nothing more.
    ///
    /// # Errors
    /// [`ReturnStoreError::Unavailable`]; nothing is written with it.
    async fn forget_customer(&self, customer: &UserId) -> Result<u64, ReturnStoreError>;

    /// The store credit granted for `source` (`return:{id}`), if any: its amount and customer.
    ///
    /// # Errors
    /// [`ReturnStoreError::Unavailable`].
    async fn credit_granted(&self, source: &str) -> Result<Vec<(UserId, Money)>, ReturnStoreError>;
}
