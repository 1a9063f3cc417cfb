//! The invoice renderer contract on `PdfInvoiceRenderer`, its text read back twice: with the
//! `pdf-extract` crate, and with poppler's `pdftotext` (Debian `poppler-utils`, which `make test`
//! installs; the reader of the browser journey), which also reads Devanagari back.

use std::path::PathBuf;
use std::process::Command;

use marque_contract_tests::for_each_invoice_pdf_suite;
use marque_pdf::PdfInvoiceRenderer;

fn renderer() -> PdfInvoiceRenderer {
    PdfInvoiceRenderer::new().expect("the embedded fonts load")
}

fn pdf_extract(pdf: &[u8]) -> String {
    pdf_extract::extract_text_from_mem(pdf).expect("the PDF's text reads back")
}

/// `pdftotext` of `pdf`, written to a file of its own in the tests' scratch directory.
fn pdftotext(pdf: &[u8]) -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let name = format!("marque-pdf-{}-{}.pdf", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, pdf).expect("the PDF is written");
    let out =
        Command::new("pdftotext").args(["-enc", "UTF-8"]).arg(&path).arg("-").output().unwrap_or_else(|e| {
            panic!("pdftotext does not run ({e}): install Debian's poppler-utils (`make poppler`)")
        });
    std::fs::remove_file(&path).ok();
    assert!(out.status.success(), "pdftotext failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("pdftotext writes UTF-8")
}

/// One contract suite as a test, reading the text back with `$extract`.
macro_rules! run {
    ($name:ident, $extract:ident) => {
        #[test]
        fn $name() {
            marque_contract_tests::invoice_pdf::$name(&renderer(), $extract);
        }
    };
}

mod with_pdf_extract {
    use super::*;
    macro_rules! suite {
        ($name:ident) => {
            run!($name, pdf_extract);
        };
    }
    for_each_invoice_pdf_suite!(suite);
}

mod with_pdftotext {
    use super::*;
    macro_rules! suite {
        ($name:ident) => {
            run!($name, pdftotext);
        };
    }
    for_each_invoice_pdf_suite!(suite);
    suite!(a_devanagari_name_and_address_read_back);
    suite!(a_devanagari_credit_note_reads_back);
}

/// `MARQUE_PDF_SAMPLES=<dir>` writes the sample invoices and credit notes there, to look at.
#[test]
fn writes_samples_when_asked() {
    use marque_contract_tests::invoice_pdf::{
        credit_note_on, hindi_invoice, inter_state_credit_note, inter_state_invoice, margin_scheme_invoice,
        same_state_credit_note, same_state_invoice,
    };
    use marque_domain::invoice::RefundSelection;
    use marque_ports::InvoiceRenderer;
    let Some(dir) = std::env::var_os("MARQUE_PDF_SAMPLES") else { return };
    let renderer = renderer();
    let margin_cn = credit_note_on(&margin_scheme_invoice(), &RefundSelection::of([(1, 1)], false), 10);
    for (name, note) in [
        ("same-state-cn.pdf", same_state_credit_note()),
        ("inter-state-cn.pdf", inter_state_credit_note()),
        ("margin-scheme-cn.pdf", margin_cn),
    ] {
        let pdf = renderer.render_credit_note(&note).expect("renders");
        std::fs::write(std::path::Path::new(&dir).join(name), pdf).expect("written");
    }
    for (name, doc) in [
        ("same-state.pdf", same_state_invoice()),
        ("inter-state.pdf", inter_state_invoice()),
        ("hindi.pdf", hindi_invoice()),
        ("margin-scheme.pdf", margin_scheme_invoice()),
    ] {
        let pdf = renderer.render(&doc).expect("renders");
        std::fs::write(std::path::Path::new(&dir).join(name), pdf).expect("written");
    }
}

/// `pdf-extract` does not read `/ActualText`, so a conjunct or a reordered vowel sign comes back
/// in drawing order; a name of plain syllables still reads back, spaces aside.
#[test]
fn pdf_extract_reads_a_devanagari_name_back() {
    use marque_contract_tests::invoice_pdf::{hindi_invoice, HINDI_NAME};
    use marque_ports::InvoiceRenderer;
    let pdf = renderer().render(&hindi_invoice()).expect("renders");
    let squash = |s: &str| s.split_whitespace().collect::<String>();
    let text = pdf_extract(&pdf);
    assert!(squash(&text).contains(&squash(HINDI_NAME)), "pdf-extract should read {HINDI_NAME:?}; it reads:\n{text}");
}
