//! The stock ledger's use cases: staff record what happened to a product's stock (received,
//! correction, damaged, returned, sold offline), read its history and the low-stock list, and set
//! each product's low-stock threshold. Stock is never edited: every change is a new entry.

use std::sync::Arc;

use marque_domain::catalog::ProductId;
use marque_domain::paging::ListWindow;
use marque_domain::staff::{Area, Forbidden, Staff};
use marque_domain::stock::{Adjustment, LowStockThreshold};
use marque_domain::Message;
use marque_ports::{Actor, AuditEntry, Clock, LowStockPage, StockEntry, StockHistory, StockLedger, StockLedgerError};

/// The audit trail's actions of this area.
pub const ACTION_ADJUST: &str = "stock.adjust";
pub const ACTION_THRESHOLD: &str = "stock.threshold";

/// Why a stock call did not happen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StockError {
    /// The staff member's role does not cover stock.
    #[error(transparent)]
    Forbidden(#[from] Forbidden),
    /// The request broke a rule of the ledger (reason, sign, size, note, threshold).
    #[error("invalid: {}", .0.code())]
    Invalid(Message),
    #[error("no product has this id")]
    ProductNotFound,
    /// The adjustment would leave fewer than zero units; `quantity` is what the product has.
    #[error("stock cannot go below zero ({quantity} in stock)")]
    BelowZero { quantity: u32 },
    #[error("the stock ledger is unavailable: {0}")]
    Unavailable(String),
}

impl From<StockLedgerError> for StockError {
    fn from(e: StockLedgerError) -> Self {
        match e {
            StockLedgerError::UnknownProduct => StockError::ProductNotFound,
            StockLedgerError::BelowZero { quantity } => StockError::BelowZero { quantity },
            StockLedgerError::Unavailable { reason } => StockError::Unavailable(reason),
        }
    }
}

impl StockError {
    /// The message the caller reads.
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            StockError::Forbidden(f) => f.message(),
            StockError::Invalid(m) => *m,
            StockError::ProductNotFound => Message::AdminProductNotFound,
            StockError::BelowZero { .. } => Message::StockBelowZero,
            StockError::Unavailable(_) => Message::StockUnavailable,
        }
    }
}

/// What staff type for an adjustment, unchecked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdjustmentInput {
    pub delta: i64,
    pub reason: String,
    pub note: Option<String>,
}

/// One window of the low-stock list, with the number of pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paged<T> {
    pub page: T,
    pub pages: u64,
}

/// The stock ledger for staff whose role covers [`Area::Stock`].
#[derive(Clone)]
pub struct StockService {
    ledger: Arc<dyn StockLedger>,
    clock: Arc<dyn Clock>,
}

impl std::fmt::Debug for StockService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StockService").finish_non_exhaustive()
    }
}

impl StockService {
    #[must_use]
    pub fn new(ledger: Arc<dyn StockLedger>, clock: Arc<dyn Clock>) -> Self {
        Self { ledger, clock }
    }

    fn audit(&self, staff: &Staff, action: &str, product: &ProductId) -> AuditEntry {
        AuditEntry::new(self.clock.now(), Actor::staff(staff), action, format!("product:{}", product.0))
    }

    /// Records an adjustment of `product`'s stock by `staff`, with its audit record.
    ///
    /// # Errors
    /// [`StockError::Forbidden`] first; [`StockError::Invalid`] for a reason staff may not give, a
    /// change of the wrong sign, zero or too large, or a note too long; [`StockError::ProductNotFound`];
    /// [`StockError::BelowZero`]; [`StockError::Unavailable`].
    pub async fn adjust(
        &self,
        staff: &Staff,
        product: &ProductId,
        input: &AdjustmentInput,
    ) -> Result<StockEntry, StockError> {
        staff.require(Area::Stock)?;
        let adjustment =
            Adjustment::parse(input.delta, &input.reason, input.note.as_deref()).map_err(StockError::Invalid)?;
        let audit = self.audit(staff, ACTION_ADJUST, product);
        Ok(self.ledger.adjust(product, &adjustment, &audit).await?)
    }

    /// The page `window` of `product`'s entries, newest first.
    ///
    /// # Errors
    /// [`StockError::Forbidden`] first; [`StockError::ProductNotFound`]; [`StockError::Unavailable`].
    pub async fn history(
        &self,
        staff: &Staff,
        product: &ProductId,
        window: ListWindow,
    ) -> Result<Paged<StockHistory>, StockError> {
        staff.require(Area::Stock)?;
        let history = self.ledger.history(product, window).await?;
        Ok(Paged { pages: window.pages(history.total), page: history })
    }

    /// The page `window` of the products at or below their low-stock threshold, fewest units first.
    ///
    /// # Errors
    /// [`StockError::Forbidden`] first; [`StockError::Unavailable`].
    pub async fn low_stock(&self, staff: &Staff, window: ListWindow) -> Result<Paged<LowStockPage>, StockError> {
        staff.require(Area::Stock)?;
        let low = self.ledger.low_stock(window).await?;
        Ok(Paged { pages: window.pages(low.total), page: low })
    }

    /// Sets `product`'s low-stock threshold, with its audit record; answers the new threshold.
    ///
    /// # Errors
    /// [`StockError::Forbidden`] first; [`StockError::Invalid`] outside 0–100000;
    /// [`StockError::ProductNotFound`]; [`StockError::Unavailable`].
    pub async fn set_threshold(
        &self,
        staff: &Staff,
        product: &ProductId,
        threshold: i64,
    ) -> Result<LowStockThreshold, StockError> {
        staff.require(Area::Stock)?;
        let threshold = LowStockThreshold::new(threshold).map_err(StockError::Invalid)?;
        let audit = self.audit(staff, ACTION_THRESHOLD, product);
        self.ledger.set_threshold(product, threshold, &audit).await?;
        Ok(threshold)
    }
}

#[cfg(test)]
mod tests;
