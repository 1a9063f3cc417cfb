//! `InvoiceRenderer` on krilla: a GST tax invoice or credit note laid out on A4 and written as a PDF
//! with its fonts (Lato, and Noto Sans Devanagari for Hindi; subset) embedded, byte for
//! byte the same for the same document.

mod fonts;
mod layout;
mod printed;
mod sheet;

use krilla::metadata::Metadata;
use krilla::Document;
use marque_domain::invoice::{CreditNote, TaxInvoice};
use marque_ports::{InvoiceRenderer, RenderError};

use crate::fonts::Fonts;
use crate::printed::Printed;
use crate::sheet::Sheet;

/// Renders tax invoices and credit notes. Holds the fonts, loaded once; cheap to share behind an `Arc`.
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

    /// `doc` as a PDF. No creation date: the PDF depends on the document alone. The document
    /// id is its number, which names the document for good.
    fn pdf(&self, doc: &Printed<'_>, number: String) -> Result<Vec<u8>, RenderError> {
        let mut sheet = Sheet::new(&self.fonts);
        layout::lay_out(&mut sheet, doc);
        let mut document = Document::new();
        document.set_metadata(
            Metadata::new()
                .title(format!("{} {number}", doc.title))
                .authors(vec![doc.seller.legal_name.clone()])
                .creator("Marque".to_owned())
                .language("en-IN".to_owned())
                .document_id(number),
        );
        sheet.finish(doc.footer, &mut document)?;
        document.finish().map_err(|e| RenderError::Failed { reason: e.to_string() })
    }
}

impl InvoiceRenderer for PdfInvoiceRenderer {
    fn render(&self, doc: &TaxInvoice) -> Result<Vec<u8>, RenderError> {
        self.pdf(&Printed::invoice(doc), doc.number().to_string())
    }

    fn render_credit_note(&self, note: &CreditNote) -> Result<Vec<u8>, RenderError> {
        self.pdf(&Printed::credit_note(note), note.number().to_string())
    }
}
