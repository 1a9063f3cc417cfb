//! The invoice renderer: a GST tax invoice, or a credit note that reverses part of one, as a
//! PDF a customer keeps and an auditor reads.

use marque_domain::invoice::{CreditNote, TaxInvoice};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// The renderer could not lay out or write the document (a broken font, say).
    #[error("the invoice could not be rendered: {reason}")]
    Failed { reason: String },
}

/// Turns a [`TaxInvoice`] or a [`CreditNote`] into PDF bytes. Synchronous: rendering is
/// CPU work on data in hand (a server calls it from a blocking task).
///
/// # Contract
/// - The same document renders to byte-identical PDFs, on any machine and at any
///   time: the output holds no time of rendering, no random document id and
///   nothing read from the machine (system fonts, locale).
/// - The fonts are embedded, and every text is extractable as Unicode (the ₹
///   sign included), so the invoice reads the same everywhere and can be searched.
/// - Every figure on the page is one of the document's, to the paisa.
/// - Names and addresses print in the script they were written in (Devanagari included).
/// - A credit note is titled "Credit Note" and names the invoice it corrects.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait InvoiceRenderer: Send + Sync {
    /// # Errors
    /// MUST return [`RenderError::Failed`] only when the renderer itself is broken;
    /// every document that [`TaxInvoice::build`] makes renders.
    fn render(&self, doc: &TaxInvoice) -> Result<Vec<u8>, RenderError>;

    /// # Errors
    /// MUST return [`RenderError::Failed`] only when the renderer itself is broken;
    /// every note that [`CreditNote::build`] makes renders.
    fn render_credit_note(&self, note: &CreditNote) -> Result<Vec<u8>, RenderError>;
}
