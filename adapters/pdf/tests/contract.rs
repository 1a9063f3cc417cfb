//! The invoice renderer contract on `PdfInvoiceRenderer`, its text read back with `pdf-extract`.

use marque_contract_tests::for_each_invoice_pdf_suite;
use marque_pdf::PdfInvoiceRenderer;

fn extract(pdf: &[u8]) -> String {
    pdf_extract::extract_text_from_mem(pdf).expect("the PDF's text reads back")
}

macro_rules! suite {
    ($name:ident) => {
        #[test]
        fn $name() {
            let renderer = PdfInvoiceRenderer::new().expect("the embedded fonts load");
            marque_contract_tests::invoice_pdf::$name(&renderer, extract);
        }
    };
}

for_each_invoice_pdf_suite!(suite);

/// `MARQUE_PDF_SAMPLES=<dir>` writes both sample invoices there, to look at.
#[test]
fn writes_samples_when_asked() {
    use marque_contract_tests::invoice_pdf::{inter_state_invoice, same_state_invoice};
    use marque_ports::InvoiceRenderer;
    let Some(dir) = std::env::var_os("MARQUE_PDF_SAMPLES") else { return };
    let renderer = PdfInvoiceRenderer::new().expect("the embedded fonts load");
    for (name, doc) in [("same-state.pdf", same_state_invoice()), ("inter-state.pdf", inter_state_invoice())] {
        let pdf = renderer.render(&doc).expect("renders");
        std::fs::write(std::path::Path::new(&dir).join(name), pdf).expect("written");
    }
}
