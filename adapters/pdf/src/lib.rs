//! `InvoiceRenderer` on krilla: a GST tax invoice laid out on A4 and written as a PDF
//! with its fonts (Lato, and Noto Sans Devanagari for Hindi; subset) embedded, byte for
//! byte the same for the same invoice.

mod fonts;
mod layout;
mod sheet;

use krilla::metadata::Metadata;
use krilla::Document;
use marque_domain::invoice::TaxInvoice;
use marque_ports::{InvoiceRenderer, RenderError};

use crate::fonts::Fonts;
use crate::sheet::Sheet;

/// Renders tax invoices. Holds the fonts, loaded once; cheap to share behind an `Arc`.
#[derive(Debug)]
pub struct PdfInvoiceRenderer {
    fonts: Fonts,
}

impl PdfInvoiceRenderer {
    /// # Errors
    /// [`RenderError::Failed`] if a font compiled into the crate does not load (a broken build).
    pub fn new() -> Result<Self, RenderError> {
        Ok(Self { fonts: Fonts::load()? })
    }
}

impl InvoiceRenderer for PdfInvoiceRenderer {
    fn render(&self, doc: &TaxInvoice) -> Result<Vec<u8>, RenderError> {
        let mut sheet = Sheet::new(&self.fonts);
        layout::lay_out(&mut sheet, doc);
        let mut document = Document::new();
        // No creation date: the PDF depends on the invoice alone. The document id is
        // derived from the invoice number, which names the document for good.
        let number = doc.number().to_string();
        document.set_metadata(
            Metadata::new()
                .title(format!("Tax Invoice {number}"))
                .authors(vec![doc.seller().legal_name.clone()])
                .creator("Marque".to_owned())
                .language("en-IN".to_owned())
                .document_id(number),
        );
        sheet.finish(layout::FOOTER, &mut document)?;
        document.finish().map_err(|e| RenderError::Failed { reason: e.to_string() })
    }
}
