//! The GST tax invoice: its lines, its tax split and its number.

mod document;
mod gst;
mod number;

pub use document::{
    Invoice, InvoiceInput, InvoiceLine, InvoiceLineKind, TaxRow, DELIVERY_LINE_LABEL,
};
pub use gst::{Supply, TaxSplit, DEFAULT_GST_PERCENT, DELIVERY_GST_PERCENT, PARTS_HSN};
pub use number::{FinancialYear, InvoiceNumber, InvoiceNumberError};
