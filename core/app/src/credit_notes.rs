//! The GST credit notes of refunds, as PDFs: the customer downloads those of their own orders beside
//! the invoice; staff whose role covers refunds (owner, fulfilment) from the order's page.
//!
//! A credit note is not stored as a file. The order store keeps its number on the refund, taken in
//! the transaction that recorded the refund ([`marque_ports::RefundWrite::credit_note_year`]); the
//! note is built again from what never changes: the order's tax invoice, the refunds before this one,
//! this refund's units and delivery charge, and the day it was made. So the same refund always prints
//! the same note, and its amounts are the ones refunded (both are [`marque_domain::invoice::credit_lines`]).

use std::sync::Arc;

use marque_domain::invoice::{CreditNote, CreditNoteInput, CreditNoteNumber, InvoiceDate, RefundSelection, Seller};
use marque_domain::staff::{Area, Forbidden, Staff};
use marque_domain::Money;
use marque_ports::{
    AdminOrder, InvoiceRenderer, IssuedCreditNote, OrderDesk, OrderDeskError, OrderId, OrderRefund, UserId,
};

/// The name a credit note is saved under.
pub const CREDIT_NOTE_FILENAME: &str = "credit-note.pdf";

/// Why a credit note cannot be had. Each maps to one HTTP status in the API.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreditNoteFileError {
    /// The staff member's role does not cover refunds (403).
    #[error(transparent)]
    Forbidden(#[from] Forbidden),
    /// The order is another customer's (403, as for the invoice).
    #[error("the order is another customer's")]
    NotOwner,
    /// No order has this id (404).
    #[error("no such order")]
    NotFound,
    /// The order has no refund with this id, or the refund issued no credit note (404).
    #[error("no such credit note")]
    NoCreditNote,
    /// The note could not be made: a stored refund that no longer fits its invoice, or a renderer fault (500).
    #[error("the credit note could not be made: {0}")]
    Failed(String),
    /// The order store cannot be reached (503).
    #[error("the orders are unavailable: {0}")]
    Unavailable(String),
}

impl From<OrderDeskError> for CreditNoteFileError {
    fn from(e: OrderDeskError) -> Self {
        match e {
            OrderDeskError::NotFound => CreditNoteFileError::NotFound,
            OrderDeskError::RefundNotFound => CreditNoteFileError::NoCreditNote,
            other => CreditNoteFileError::Unavailable(other.to_string()),
        }
    }
}

/// The units and delivery charge `refund` gave back, each line named by its position on the order
/// (one line per product, as invoiced).
fn selection_of(order: &AdminOrder, refund: &OrderRefund) -> Result<RefundSelection, CreditNoteFileError> {
    let lines = &order.order.draft.lines;
    let units = refund
        .lines
        .iter()
        .map(|l| {
            lines.iter().position(|o| o.product_id == l.product).map(|at| (at, l.quantity)).ok_or_else(|| {
                CreditNoteFileError::Failed(format!("refund {} names a line the order lacks", refund.id))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(RefundSelection::of(units, refund.delivery > Money::ZERO))
}

/// The credit note of `order`'s refund `refund_id`, as `seller` issued it.
///
/// # Errors
/// [`CreditNoteFileError::NoCreditNote`] when the order has no such refund or it has no note;
/// [`CreditNoteFileError::Failed`] when the stored refund does not fit the order's invoice.
pub fn credit_note_of(seller: &Seller, order: &AdminOrder, refund_id: &str) -> Result<CreditNote, CreditNoteFileError> {
    let at = order.refunds.iter().position(|r| r.id == refund_id).ok_or(CreditNoteFileError::NoCreditNote)?;
    let refund = &order.refunds[at];
    let number = refund.credit_note.as_deref().ok_or(CreditNoteFileError::NoCreditNote)?;
    let number = CreditNoteNumber::parse(number)
        .map_err(|_| CreditNoteFileError::Failed(format!("refund {} has a malformed credit note number", refund.id)))?;
    let mut before = RefundSelection::default();
    for earlier in &order.refunds[..at] {
        before = before.and(&selection_of(order, earlier)?);
    }
    let now = selection_of(order, refund)?;
    let invoice = crate::orders::tax_invoice(seller, &order.order);
    CreditNote::build(CreditNoteInput {
        invoice: &invoice,
        before: &before,
        now: &now,
        number,
        date: InvoiceDate::at_unix_seconds(refund.created_at),
        reason: refund.reason.clone(),
    })
    .map_err(|e| CreditNoteFileError::Failed(format!("refund {}: {e:?}", refund.id)))
}

/// The credit notes' PDFs.
#[derive(Clone)]
pub struct CreditNoteService {
    desk: Arc<dyn OrderDesk>,
    renderer: Arc<dyn InvoiceRenderer>,
    seller: Seller,
}

impl std::fmt::Debug for CreditNoteService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CreditNoteService").finish_non_exhaustive()
    }
}

impl CreditNoteService {
    #[must_use]
    pub fn new(desk: Arc<dyn OrderDesk>, renderer: Arc<dyn InvoiceRenderer>, seller: Seller) -> Self {
        Self { desk, renderer, seller }
    }

    async fn read(&self, id: &OrderId) -> Result<AdminOrder, CreditNoteFileError> {
        self.desk.order(id).await?.ok_or(CreditNoteFileError::NotFound)
    }

    /// The credit note of refund `refund_id` of the customer's order, as PDF bytes (the same bytes
    /// every time).
    ///
    /// # Errors
    /// [`CreditNoteFileError::NotFound`]; [`CreditNoteFileError::NotOwner`] when the order is another
    /// customer's (before anything of its refunds is looked at); [`CreditNoteFileError::NoCreditNote`];
    /// [`CreditNoteFileError::Failed`]; [`CreditNoteFileError::Unavailable`].
    pub async fn for_customer(
        &self,
        user: &UserId,
        order: &OrderId,
        refund_id: &str,
    ) -> Result<Vec<u8>, CreditNoteFileError> {
        let order = self.read(order).await?;
        if order.order.draft.user != *user {
            return Err(CreditNoteFileError::NotOwner);
        }
        self.render(&order, refund_id).await
    }

    /// The credit note of refund `refund_id` of any order, for staff whose role covers refunds.
    ///
    /// # Errors
    /// [`CreditNoteFileError::Forbidden`] first; then as [`CreditNoteService::for_customer`], never
    /// [`CreditNoteFileError::NotOwner`].
    pub async fn for_staff(
        &self,
        staff: &Staff,
        order: &OrderId,
        refund_id: &str,
    ) -> Result<Vec<u8>, CreditNoteFileError> {
        staff.require(Area::Refunds)?;
        let order = self.read(order).await?;
        self.render(&order, refund_id).await
    }

    /// The credit notes of `orders` (a page of one customer's history), each order's oldest first.
    ///
    /// # Errors
    /// [`CreditNoteFileError::Unavailable`].
    pub async fn issued(&self, orders: &[OrderId]) -> Result<Vec<IssuedCreditNote>, CreditNoteFileError> {
        Ok(self.desk.credit_notes_of(orders).await?)
    }

    /// Builds the note and renders it on a blocking thread (rendering is CPU work).
    async fn render(&self, order: &AdminOrder, refund_id: &str) -> Result<Vec<u8>, CreditNoteFileError> {
        let note = credit_note_of(&self.seller, order, refund_id)?;
        let renderer = Arc::clone(&self.renderer);
        tokio::task::spawn_blocking(move || renderer.render_credit_note(&note))
            .await
            .map_err(|e| CreditNoteFileError::Failed(format!("the rendering task ended: {e}")))?
            .map_err(|e| CreditNoteFileError::Failed(e.to_string()))
    }
}

#[cfg(test)]
mod tests;
