//! The stock ledger: every change of a product's stock is an entry, and the stock is their sum.
//!
//! Staff adjust stock through [`StockLedger::adjust`]; the catalog store writes a product's
//! opening entry when it adds the product, and the order store writes the entries of its
//! reservations, releases and sales, each in the transaction that moves the quantity. So for every
//! product, at every moment a reader can see, the sum of its entries' deltas is its quantity.

use async_trait::async_trait;
use marque_domain::catalog::ProductId;
use marque_domain::paging::ListWindow;
use marque_domain::stock::{Adjustment, LowStockThreshold, StockReason};

use crate::audit::AuditEntry;

/// One entry of a product's ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StockEntry {
    /// The store's identifier for the entry (stable, opaque).
    pub id: String,
    pub product: ProductId,
    /// Units added (positive) or taken away (negative); zero only for a sale of units already
    /// reserved, or an opening entry of a product without stock.
    pub delta: i64,
    pub reason: StockReason,
    pub note: Option<String>,
    /// The product's quantity just before and just after the entry (`after = before + delta`).
    pub before: i64,
    pub after: i64,
    /// [`crate::Actor::key`] of who made it: a staff id, or `system:<what>` (`system:checkout`,
    /// `system:seed`, `system:migration`).
    pub actor: String,
    /// What a person reads for the actor (an email, or `system (<what>)`).
    pub actor_label: String,
    /// When, seconds since the Unix epoch.
    pub at: i64,
    /// The payment order of a reservation, release or sale.
    pub order: Option<String>,
}

/// One window of a product's ledger, newest first, and how many entries it has in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StockHistory {
    pub entries: Vec<StockEntry>,
    pub total: u64,
}

/// A product at or below its low-stock threshold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LowStockItem {
    pub product: ProductId,
    pub name: String,
    pub quantity: u32,
    pub threshold: u32,
}

/// One window of the low-stock list and how many products are low in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LowStockPage {
    pub items: Vec<LowStockItem>,
    pub total: u64,
}

/// Why the ledger refused or failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StockLedgerError {
    /// No product has this id.
    #[error("no product has this id")]
    UnknownProduct,
    /// The adjustment would leave the product with fewer than zero units; `quantity` is what it has.
    #[error("stock cannot go below zero ({quantity} in stock)")]
    BelowZero { quantity: u32 },
    /// The store could not be reached or failed; the caller may retry later.
    #[error("the stock ledger is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// Staff's view of the stock ledger.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait StockLedger: Send + Sync {
    /// Records `adjustment` against `product`: changes its quantity by the delta and writes the
    /// entry (actor and time from `audit`) and `audit` itself, all in one transaction. The store
    /// fills `audit`'s before and after with the quantity around the entry (`{"quantity":…}`, the
    /// after also with the delta, reason and note), replacing any values the caller gave.
    ///
    /// # Contract
    /// - The returned entry's `after` is `before + delta` and is the product's quantity right after.
    /// - Concurrent adjustments and order store reservations of one product never lose an update:
    ///   the sum of the product's entries equals its quantity whenever it is read.
    /// - A refused adjustment writes nothing: no quantity change, no entry, no audit record.
    ///
    /// # Errors
    /// [`StockLedgerError::UnknownProduct`]; [`StockLedgerError::BelowZero`] when the product has
    /// fewer units than a negative delta takes; [`StockLedgerError::Unavailable`].
    async fn adjust(
        &self,
        product: &ProductId,
        adjustment: &Adjustment,
        audit: &AuditEntry,
    ) -> Result<StockEntry, StockLedgerError>;

    /// The page `window` of `product`'s entries, newest first (the order they
    /// were written in, latest first), and how many it has.
    ///
    /// # Contract
    /// Windows over an unchanged ledger neither repeat nor skip an entry.
    ///
    /// # Errors
    /// [`StockLedgerError::UnknownProduct`]; [`StockLedgerError::Unavailable`].
    async fn history(&self, product: &ProductId, window: ListWindow) -> Result<StockHistory, StockLedgerError>;

    /// The products whose quantity is at or below their threshold, fewest units first (then by id),
    /// the page `window` of them, and how many there are.
    ///
    /// # Errors
    /// [`StockLedgerError::Unavailable`].
    async fn low_stock(&self, window: ListWindow) -> Result<LowStockPage, StockLedgerError>;

    /// `product`'s low-stock threshold (a product has the default until one is set).
    ///
    /// # Errors
    /// [`StockLedgerError::UnknownProduct`]; [`StockLedgerError::Unavailable`].
    async fn threshold(&self, product: &ProductId) -> Result<LowStockThreshold, StockLedgerError>;

    /// Sets `product`'s low-stock threshold and stores `audit` in the same transaction (its before
    /// and after filled by the store with `{"threshold":…}`). Answers the threshold it had.
    ///
    /// # Errors
    /// [`StockLedgerError::UnknownProduct`] (nothing written); [`StockLedgerError::Unavailable`].
    async fn set_threshold(
        &self,
        product: &ProductId,
        threshold: LowStockThreshold,
        audit: &AuditEntry,
    ) -> Result<LowStockThreshold, StockLedgerError>;
}
