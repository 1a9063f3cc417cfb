//! The `InvoiceRenderer` contract, one suite per promise in `marque_ports::invoice_pdf`,
//! and the invoices and credit notes every renderer is tried on.
//!
//! Suites that read the text back take the adapter's own extractor (`extract`), so the
//! contract names what an invoice must say without choosing a PDF reader.

use marque_domain::address::{Address, AddressInput};
use marque_domain::cart::Quantity;
use marque_domain::catalog::{MarginScheme, ProductId};
use marque_domain::invoice::{
    Buyer, CreditNote, CreditNoteInput, CreditNoteNumber, FinancialYear, HsnCode, InvoiceDate, InvoiceLineKind,
    InvoiceNumber, RefundSelection, Seller, Supply, TaxInvoice, TaxInvoiceInput, MARGIN_SCHEME_FOOTNOTE,
    MARGIN_SCHEME_NOTE,
};
use marque_domain::order::OrderLine;
use marque_domain::pricing::DiscountPercent;
use marque_domain::tax::{GstState, Gstin};
use marque_domain::Money;
use marque_ports::InvoiceRenderer;

/// Reads a PDF's text back (each adapter brings a reader that understands its fonts).
pub type ExtractText = fn(&[u8]) -> String;

/// Calls `$callback!(suite_name)` once for every invoice renderer suite.
#[macro_export]
macro_rules! for_each_invoice_pdf_suite {
    ($callback:ident) => {
        $callback!(the_same_invoice_renders_byte_identical_pdfs);
        $callback!(no_time_of_rendering_and_fonts_embedded);
        $callback!(a_same_state_invoice_prints_cgst_and_sgst);
        $callback!(an_inter_state_invoice_prints_igst);
        $callback!(a_long_invoice_lists_every_line);
        $callback!(the_same_credit_note_renders_byte_identical_pdfs);
        $callback!(a_same_state_credit_note_reverses_cgst_and_sgst);
        $callback!(an_inter_state_credit_note_reverses_igst);
        $callback!(a_margin_scheme_line_prints_its_rule_and_never_its_purchase_price);
        $callback!(a_margin_scheme_credit_note_reverses_the_tax_on_the_margin);
        $callback!(an_invoice_paid_partly_with_store_credit_says_what_credit_and_card_paid);
    };
}

fn seller() -> Seller {
    Seller {
        legal_name: "Marque Parts Private Limited".into(),
        address_lines: vec!["Plot 14, Okhla Industrial Estate Phase III".into(), "New Delhi 110020".into()],
        gstin: Gstin::parse("07AAKCM4821R1ZU").expect("a valid GSTIN"),
        state: GstState::by_name("Delhi").expect("a state"),
    }
}

fn line(id: &str, name: &str, paise: i64, quantity: u32, gst: u8, hsn: Option<&str>) -> OrderLine {
    OrderLine {
        product_id: ProductId(id.into()),
        name: name.into(),
        quantity: Quantity::new(quantity).expect("≥ 1"),
        price: Money::from_paise(paise),
        gst,
        hsn: hsn.map(|code| HsnCode::parse(code).expect("a valid code")),
        margin_scheme: None,
        warranty_days: None,
    }
}

/// Two products at 18% and 28%, ₹236 delivery, 10% off; delivered to `state`.
fn invoice_to(name: &str, state: &str, pincode: &str, gstin: Option<&str>, serial: u32) -> TaxInvoice {
    let lines = [
        line("p1", "Brake Pad Set – Front (BMW 3 Series)", 1_249_950, 2, 18, None),
        line("p2", "LED Tail Lamp Assembly", 1_899_000, 1, 28, Some("85122010")),
    ];
    invoice_of(&lines, name, state, pincode, gstin, serial)
}

fn invoice_of(
    lines: &[OrderLine],
    name: &str,
    state: &str,
    pincode: &str,
    gstin: Option<&str>,
    serial: u32,
) -> TaxInvoice {
    let address = AddressInput {
        house_no: "B-12, Second Floor".into(),
        street: "Ring Road".into(),
        landmark: "Near Metro Gate 2".into(),
        city: if state == "Delhi" { "New Delhi" } else { "Mumbai" }.into(),
        state: state.into(),
        mobile_no: "9810012345".into(),
        pincode: pincode.into(),
        gstin: gstin.unwrap_or_default().into(),
    };
    invoice_at(lines, name, &address, serial)
}

fn invoice_at(lines: &[OrderLine], name: &str, address: &AddressInput, serial: u32) -> TaxInvoice {
    let address = Address::parse(address).expect("a valid address");
    TaxInvoice::build(TaxInvoiceInput {
        seller: seller(),
        buyer: Buyer::at(name, &address),
        number: InvoiceNumber::new(FinancialYear::starting(2026), serial).expect("a serial"),
        date: InvoiceDate::new(2026, 11, 22).expect("a day"),
        lines,
        discount: DiscountPercent::new(10).expect("a percentage"),
        delivery_charge: Money::from_rupees(236),
    })
}

/// What the used headlamp of [`margin_scheme_invoice`] was bought for, a unit: it must never be
/// printed.
pub const MARGIN_PURCHASE_PAISE: i64 = 3_275_050;

/// A new brake pad set and a used headlamp sold under the margin scheme (bought for ₹32,750.50,
/// sold for ₹45,000), 10% off, within Delhi.
#[must_use]
pub fn margin_scheme_invoice() -> TaxInvoice {
    let mut used = line("p9", "Adaptive LED Headlamp (used, grade B)", 4_500_000, 1, 18, None);
    used.margin_scheme = Some(MarginScheme::new(Money::from_paise(MARGIN_PURCHASE_PAISE)).expect("a purchase price"));
    let lines = [line("p1", "Brake Pad Set – Front (BMW 3 Series)", 1_249_950, 2, 18, None), used];
    invoice_of(&lines, "Ravi Kumar", "Delhi", "110027", None, 46)
}

/// Delhi to Delhi: CGST + SGST.
#[must_use]
pub fn same_state_invoice() -> TaxInvoice {
    invoice_to("Ravi Kumar", "Delhi", "110027", None, 42)
}

/// Delhi to Maharashtra, a business buyer with a GSTIN: IGST.
#[must_use]
pub fn inter_state_invoice() -> TaxInvoice {
    invoice_to("Priya Deshmukh", "Maharashtra", "400001", Some("27AAPFU0939F1ZV"), 43)
}

/// Sixty products, more than one page holds.
#[must_use]
pub fn long_invoice() -> TaxInvoice {
    let lines: Vec<OrderLine> = (1..=60)
        .map(|i| line(&format!("p{i}"), &format!("Spare part number {i}"), 99_900 + i64::from(i), 1, 18, None))
        .collect();
    invoice_of(&lines, "Ravi Kumar", "Delhi", "110027", None, 44)
}

/// The Devanagari parts of [`hindi_invoice`]'s buyer, as they must read back.
pub const HINDI_NAME: &str = "राहुल शर्मा";
pub const HINDI_STREET: &str = "गली नंबर ४, करोल बाग";
pub const HINDI_CITY: &str = "नई दिल्ली";

/// A buyer who wrote their name, street and city in Devanagari (conjuncts and vowel signs
/// included), delivered within Delhi.
#[must_use]
pub fn hindi_invoice() -> TaxInvoice {
    hindi_invoice_on(HINDI_STREET)
}

/// [`hindi_invoice`] with another street, e.g. one too long for a line.
#[must_use]
pub fn hindi_invoice_on(street: &str) -> TaxInvoice {
    let lines = [line("p1", "Brake Pad Set – Front (BMW 3 Series)", 1_249_950, 1, 18, None)];
    let address = AddressInput {
        house_no: "मकान १२, दूसरी मंज़िल".into(),
        street: street.into(),
        landmark: String::new(),
        city: HINDI_CITY.into(),
        state: "Delhi".into(),
        mobile_no: "9810012345".into(),
        pincode: "110005".into(),
        gstin: String::new(),
    };
    invoice_at(&lines, HINDI_NAME, &address, 45)
}

/// A credit note for `now` on `doc`, nothing refunded before.
#[must_use]
pub fn credit_note_on(doc: &TaxInvoice, now: &RefundSelection, serial: u32) -> CreditNote {
    CreditNote::build(CreditNoteInput {
        invoice: doc,
        before: &RefundSelection::default(),
        now,
        number: CreditNoteNumber::new(FinancialYear::starting(2026), serial).expect("a serial"),
        date: InvoiceDate::new(2026, 11, 27).expect("a day"),
        reason: "Part damaged in transit".into(),
    })
    .expect("a refund the invoice allows")
}

/// One of the two brake pad sets and the delivery charge of [`same_state_invoice`], given back.
#[must_use]
pub fn same_state_credit_note() -> CreditNote {
    credit_note_on(&same_state_invoice(), &RefundSelection::of([(0, 1)], true), 7)
}

/// The tail lamp of [`inter_state_invoice`], given back.
#[must_use]
pub fn inter_state_credit_note() -> CreditNote {
    credit_note_on(&inter_state_invoice(), &RefundSelection::of([(1, 1)], false), 8)
}

fn render(renderer: &dyn InvoiceRenderer, doc: &TaxInvoice) -> Vec<u8> {
    let pdf = renderer.render(doc).expect("every built invoice renders");
    assert!(pdf.starts_with(b"%PDF-"), "a PDF starts with its header");
    pdf
}

/// Whitespace collapsed, so a reader's line breaks and spacing do not matter.
fn text_of(extract: ExtractText, pdf: &[u8]) -> String {
    extract(pdf).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Compared without whitespace: readers differ on whether a wrapped line's break is a space.
fn assert_says(text: &str, wanted: &str) {
    let squash = |s: &str| s.split_whitespace().collect::<String>();
    assert!(squash(text).contains(&squash(wanted)), "the invoice should say {wanted:?}; it says:\n{text}");
}

pub fn the_same_invoice_renders_byte_identical_pdfs(renderer: &dyn InvoiceRenderer, _extract: ExtractText) {
    let doc = same_state_invoice();
    let first = render(renderer, &doc);
    assert_eq!(first, render(renderer, &doc), "same document, same bytes");
    assert_eq!(first, render(renderer, &doc.clone()), "a copy of the document, same bytes");
    assert_ne!(first, render(renderer, &inter_state_invoice()), "another document, other bytes");
}

pub fn no_time_of_rendering_and_fonts_embedded(renderer: &dyn InvoiceRenderer, _extract: ExtractText) {
    let pdf = String::from_utf8_lossy(&render(renderer, &same_state_invoice())).into_owned();
    for stamp in ["/CreationDate", "/ModDate", "xmp:CreateDate", "xmp:ModifyDate", "xmp:MetadataDate"] {
        assert!(!pdf.contains(stamp), "the PDF carries {stamp}");
    }
    assert!(pdf.contains("/FontFile"), "the fonts are embedded");
}

/// What every invoice prints, whichever the supply.
fn assert_common(text: &str, doc: &TaxInvoice) {
    let seller = doc.seller();
    let buyer = doc.buyer();
    let pos = doc.place_of_supply();
    for wanted in [
        "Tax Invoice",
        &seller.legal_name,
        seller.gstin.as_str(),
        &format!("{} ({})", seller.state.name, seller.state.code),
        &doc.number().to_string(),
        &doc.date().to_string(),
        &buyer.name,
        &format!("{} ({})", pos.name, pos.code),
        "18% inc. GST",
        "8708",
        "9965",
        "₹",
        &format!("{:#}", doc.invoice().total),
        &doc.total_in_words(),
        "Reverse charge: No",
        "Authorised Signatory",
    ] {
        assert_says(text, wanted);
    }
    for line in &doc.invoice().lines {
        assert_says(text, &line.description);
        if line.kind == InvoiceLineKind::Discount && line.amount != Money::ZERO {
            assert!(line.amount < Money::ZERO);
            assert_says(text, &line.amount.to_the_paisa());
        }
    }
}

pub fn a_same_state_invoice_prints_cgst_and_sgst(renderer: &dyn InvoiceRenderer, extract: ExtractText) {
    let doc = same_state_invoice();
    let text = text_of(extract, &render(renderer, &doc));
    assert_common(&text, &doc);
    assert_says(&text, "CGST");
    assert_says(&text, "SGST");
    assert!(!text.contains("IGST"), "no IGST within a state:\n{text}");
    for row in &doc.invoice().tax {
        assert_says(&text, &row.split.cgst.to_the_paisa());
        assert_says(&text, &row.split.taxable.to_the_paisa());
    }
}

pub fn an_inter_state_invoice_prints_igst(renderer: &dyn InvoiceRenderer, extract: ExtractText) {
    let doc = inter_state_invoice();
    let text = text_of(extract, &render(renderer, &doc));
    assert_common(&text, &doc);
    assert_says(&text, "IGST");
    assert!(!text.contains("CGST") && !text.contains("SGST"), "no CGST or SGST across states:\n{text}");
    if let Some(gstin) = &doc.buyer().gstin {
        assert_says(&text, gstin.as_str());
    }
    for row in &doc.invoice().tax {
        assert_says(&text, &row.split.igst.to_the_paisa());
    }
}

pub fn a_long_invoice_lists_every_line(renderer: &dyn InvoiceRenderer, extract: ExtractText) {
    let doc = long_invoice();
    let text = text_of(extract, &render(renderer, &doc));
    assert_common(&text, &doc);
    assert_says(&text, "Page 2 of");
}

/// An order paid partly with store credit: the invoice's lines, tax and total are those of the
/// full price (store credit is a way of paying), and a sentence under the total says what the
/// credit paid and what the card paid. An invoice without store credit says nothing of it.
pub fn an_invoice_paid_partly_with_store_credit_says_what_credit_and_card_paid(
    renderer: &dyn InvoiceRenderer,
    extract: ExtractText,
) {
    let plain = same_state_invoice();
    let credit = Money::from_paise(123_456);
    let doc = plain.clone().with_store_credit(credit);
    assert_eq!(doc.paid_by_card(), plain.invoice().total - credit);
    let text = text_of(extract, &render(renderer, &doc));
    assert_common(&text, &doc);
    assert_says(&text, &format!("Paid by store credit: {credit:#}; paid by card: {:#}.", doc.paid_by_card()));
    let without = text_of(extract, &render(renderer, &plain));
    assert!(!without.contains("store credit"), "an invoice paid by card alone:\n{without}");
    assert_ne!(render(renderer, &doc), render(renderer, &plain), "the sentence is part of the document");
}

/// A Devanagari name and address read back as written. Not in [`for_each_invoice_pdf_suite`]:
/// it needs a reader that understands how a PDF maps a conjunct or a vowel sign drawn before
/// its consonant back to the letters (`/ActualText`), as poppler's `pdftotext` does.
pub fn a_devanagari_name_and_address_read_back(renderer: &dyn InvoiceRenderer, extract: ExtractText) {
    let doc = hindi_invoice();
    let text = text_of(extract, &render(renderer, &doc));
    assert_common(&text, &doc);
    for wanted in [HINDI_NAME, HINDI_STREET, HINDI_CITY, "मकान १२, दूसरी मंज़िल"] {
        assert_says(&text, wanted);
    }
}

fn render_note(renderer: &dyn InvoiceRenderer, note: &CreditNote) -> Vec<u8> {
    let pdf = renderer.render_credit_note(note).expect("every built credit note renders");
    assert!(pdf.starts_with(b"%PDF-"), "a PDF starts with its header");
    pdf
}

pub fn the_same_credit_note_renders_byte_identical_pdfs(renderer: &dyn InvoiceRenderer, _extract: ExtractText) {
    let note = same_state_credit_note();
    let first = render_note(renderer, &note);
    assert_eq!(first, render_note(renderer, &note.clone()), "same note, same bytes");
    assert_ne!(first, render_note(renderer, &inter_state_credit_note()), "another note, other bytes");
    let pdf = String::from_utf8_lossy(&first).into_owned();
    assert!(!pdf.contains("/CreationDate") && !pdf.contains("xmp:CreateDate"), "no time of rendering");
}

/// What every credit note prints: its title and number, the invoice it corrects, the buyer,
/// each line with its taxable value and total, the totals and the reason.
fn assert_note_common(text: &str, note: &CreditNote) {
    let seller = note.seller();
    for wanted in [
        "Credit Note",
        &note.number().to_string(),
        &note.date().to_string(),
        &note.invoice_number().to_string(),
        &note.invoice_date().to_string(),
        &seller.legal_name,
        seller.gstin.as_str(),
        &note.buyer().name,
        &format!("{} ({})", note.buyer().state.name, note.buyer().state.code),
        note.reason(),
        &format!("{:#}", note.total()),
        &note.total_in_words(),
        "Authorised Signatory",
    ] {
        assert_says(text, wanted);
    }
    assert!(!text.contains("Tax Invoice"), "a credit note is not titled a tax invoice:\n{text}");
    for line in note.lines() {
        assert_says(text, &line.description);
        assert_says(text, &line.tax.taxable.to_the_paisa());
        assert_says(text, &line.amount.to_the_paisa());
    }
    for row in note.tax() {
        assert_says(text, &row.split.taxable.to_the_paisa());
    }
}

pub fn a_same_state_credit_note_reverses_cgst_and_sgst(renderer: &dyn InvoiceRenderer, extract: ExtractText) {
    let note = same_state_credit_note();
    assert_eq!(note.supply(), Supply::IntraState);
    let text = text_of(extract, &render_note(renderer, &note));
    assert_note_common(&text, &note);
    assert!(!text.contains("IGST"), "no IGST within a state:\n{text}");
    for line in note.lines() {
        assert_says(&text, &line.tax.cgst.to_the_paisa());
        assert_says(&text, &line.tax.sgst.to_the_paisa());
    }
    for row in note.tax() {
        assert_says(&text, &row.split.cgst.to_the_paisa());
        assert_says(&text, &row.split.tax().to_the_paisa());
    }
}

pub fn an_inter_state_credit_note_reverses_igst(renderer: &dyn InvoiceRenderer, extract: ExtractText) {
    let note = inter_state_credit_note();
    assert_eq!(note.supply(), Supply::InterState);
    let text = text_of(extract, &render_note(renderer, &note));
    assert_note_common(&text, &note);
    assert!(!text.contains("CGST") && !text.contains("SGST"), "no CGST or SGST across states:\n{text}");
    for line in note.lines() {
        assert_says(&text, &line.tax.igst.to_the_paisa());
    }
}

/// A credit note to a buyer who wrote in Devanagari reads back as written (a reader of
/// `/ActualText` again, see [`a_devanagari_name_and_address_read_back`]).
pub fn a_devanagari_credit_note_reads_back(renderer: &dyn InvoiceRenderer, extract: ExtractText) {
    let note = credit_note_on(&hindi_invoice(), &RefundSelection::of([(0, 1)], false), 9);
    let text = text_of(extract, &render_note(renderer, &note));
    assert_note_common(&text, &note);
    for wanted in [HINDI_NAME, HINDI_STREET, HINDI_CITY] {
        assert_says(&text, wanted);
    }
}

/// Neither the purchase price nor what lies outside the margin is printed, in any form.
fn assert_never_says(text: &str, amounts: &[Money]) {
    let squash = |s: &str| s.split_whitespace().collect::<String>();
    for amount in amounts {
        for printed in [amount.to_the_paisa(), format!("{amount:#}")] {
            assert!(!squash(text).contains(&squash(&printed)), "the document must not print {printed}:\n{text}");
        }
    }
}

pub fn a_margin_scheme_line_prints_its_rule_and_never_its_purchase_price(
    renderer: &dyn InvoiceRenderer,
    extract: ExtractText,
) {
    let doc = margin_scheme_invoice();
    let text = text_of(extract, &render(renderer, &doc));
    assert_common(&text, &doc);
    let used = &doc.invoice().lines[1];
    assert!(used.margin.is_some());
    assert_says(&text, "Adaptive LED Headlamp (used, grade B) (18% GST on the margin)");
    assert_says(&text, MARGIN_SCHEME_NOTE);
    assert_says(&text, MARGIN_SCHEME_FOOTNOTE);
    assert_says(&text, "on margins");
    for wanted in [used.tax.taxable, used.tax.cgst, used.tax.sgst, used.amount] {
        assert_says(&text, &wanted.to_the_paisa());
    }
    let margin_row = doc.invoice().tax.iter().find(|r| r.margin_scheme).expect("a margin-scheme row");
    assert_says(&text, &margin_row.split.tax().to_the_paisa());
    let outside: Vec<Money> = doc.invoice().lines.iter().map(|l| l.outside()).filter(|m| *m != Money::ZERO).collect();
    assert_never_says(
        &text,
        &[&[Money::from_paise(MARGIN_PURCHASE_PAISE), doc.invoice().outside()][..], &outside].concat(),
    );
}

pub fn a_margin_scheme_credit_note_reverses_the_tax_on_the_margin(
    renderer: &dyn InvoiceRenderer,
    extract: ExtractText,
) {
    let doc = margin_scheme_invoice();
    let note = credit_note_on(&doc, &RefundSelection::of([(1, 1)], false), 10);
    let text = text_of(extract, &render_note(renderer, &note));
    assert_note_common(&text, &note);
    let [line] = note.lines() else { panic!("one line: {:?}", note.lines()) };
    assert!(line.margin.is_some());
    assert_says(&text, MARGIN_SCHEME_NOTE);
    assert_says(&text, MARGIN_SCHEME_FOOTNOTE);
    for wanted in [line.tax.cgst, line.tax.sgst, line.amount] {
        assert_says(&text, &wanted.to_the_paisa());
    }
    assert_never_says(&text, &[Money::from_paise(MARGIN_PURCHASE_PAISE), line.outside()]);
}
