//! The GST tax invoice: its lines, its tax split, its number and the document as printed;
//! and the credit note that reverses part or all of it.

mod credit_note;
mod date;
mod document;
mod gst;
mod number;
mod tax_invoice;
mod words;

pub use credit_note::{
    credit_lines, refund_amount, CreditNote, CreditNoteError, CreditNoteInput, CreditNoteIssueError, CreditNoteLine,
    RefundSelection,
};
pub use date::InvoiceDate;
pub use document::{
    Invoice, InvoiceInput, InvoiceLine, InvoiceLineKind, MarginPart, TaxRow, DELIVERY_LINE_LABEL,
    MARGIN_SCHEME_FOOTNOTE, MARGIN_SCHEME_NOTE,
};
pub use gst::{
    HsnCode, HsnCodeError, Supply, TaxSplit, DEFAULT_GST_PERCENT, DELIVERY_GST_PERCENT, DELIVERY_SAC, PARTS_HSN,
};
pub use number::{
    CreditNoteNumber, CreditNoteNumberError, FinancialYear, GrievanceNumber, GrievanceNumberError, InvoiceNumber,
    InvoiceNumberError,
};
pub use tax_invoice::{Buyer, Seller, TaxInvoice, TaxInvoiceInput};
pub use words::amount_in_words;
