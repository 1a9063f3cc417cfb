//! What a printed GST document shows, whichever it is: a tax invoice and a credit note share
//! one layout (seller, buyer, facts, the line table with its tax columns, the tax summary per
//! rate, totals, the amount in words, the signature).

use marque_domain::invoice::{
    Buyer, CreditNote, InvoiceLineKind, Seller, Supply, TaxInvoice, TaxRow, TaxSplit, MARGIN_SCHEME_FOOTNOTE,
    MARGIN_SCHEME_NOTE,
};
use marque_domain::tax::GstState;
use marque_domain::Money;

/// One row of the line table.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    pub(crate) description: String,
    /// Muted lines under the description (a margin-scheme line's rule, a credit note's discount
    /// share).
    pub(crate) note: Vec<String>,
    pub(crate) hsn: Option<String>,
    /// Quantity and unit price; none on a discount row.
    pub(crate) units: Option<(u32, Money)>,
    pub(crate) rate_percent: u8,
    pub(crate) tax: TaxSplit,
    pub(crate) amount: Money,
}

/// A document laid out by `layout.rs`.
#[derive(Debug)]
pub(crate) struct Printed<'d> {
    pub(crate) title: &'static str,
    pub(crate) seller: &'d Seller,
    pub(crate) buyer: &'d Buyer,
    /// The heading of the facts beside the buyer, and the facts (the first, the number, bold).
    pub(crate) facts_head: &'static str,
    pub(crate) facts: Vec<String>,
    /// A sentence under the parties (a credit note's reason).
    pub(crate) remark: Option<String>,
    /// A sentence under the line table (what the margin scheme means, when a line is under it).
    pub(crate) footnote: Option<&'static str>,
    pub(crate) supply: Supply,
    pub(crate) rows: Vec<Row>,
    pub(crate) tax: &'d [TaxRow],
    pub(crate) total: Money,
    pub(crate) total_label: &'static str,
    pub(crate) words: String,
    /// How the total was paid, when store credit paid some of it.
    pub(crate) payment: Option<String>,
    pub(crate) footer: &'static str,
}

/// `Delhi (07)`.
pub(crate) fn state(s: GstState) -> String {
    format!("{} ({})", s.name, s.code)
}

impl<'d> Printed<'d> {
    pub(crate) fn invoice(doc: &'d TaxInvoice) -> Self {
        let invoice = doc.invoice();
        // A discount of nothing is no line of the printed invoice.
        let rows = invoice
            .lines
            .iter()
            .filter(|l| l.kind != InvoiceLineKind::Discount || l.amount != Money::ZERO)
            .map(|l| Row {
                description: l.description.clone(),
                note: (l.kind == InvoiceLineKind::Product && l.margin.is_some())
                    .then(|| MARGIN_SCHEME_NOTE.to_owned())
                    .into_iter()
                    .collect(),
                hsn: l.hsn.as_ref().map(ToString::to_string),
                units: (l.kind != InvoiceLineKind::Discount).then_some((l.quantity, l.unit_price)),
                rate_percent: l.rate_percent,
                tax: l.tax,
                amount: l.amount,
            })
            .collect();
        Self {
            title: "Tax Invoice",
            seller: doc.seller(),
            buyer: doc.buyer(),
            facts_head: "Invoice details",
            facts: vec![
                format!("Invoice No.: {}", doc.number()),
                format!("Invoice Date: {}", doc.date()),
                format!("Place of supply: {}", state(doc.place_of_supply())),
                format!("Reverse charge: {}", if doc.reverse_charge() { "Yes" } else { "No" }),
            ],
            remark: None,
            footnote: invoice.has_margin_scheme().then_some(MARGIN_SCHEME_FOOTNOTE),
            supply: invoice.supply,
            rows,
            tax: &invoice.tax,
            total: invoice.total,
            total_label: "Total (inc. GST)",
            words: doc.total_in_words(),
            payment: (doc.paid_by_store_credit() > Money::ZERO).then(|| {
                format!(
                    "Paid by store credit: {:#}; paid by card: {:#}.",
                    doc.paid_by_store_credit(),
                    doc.paid_by_card()
                )
            }),
            footer: "This is a computer-generated tax invoice.",
        }
    }

    pub(crate) fn credit_note(note: &'d CreditNote) -> Self {
        let rows = note
            .lines()
            .iter()
            .map(|l| Row {
                description: l.description.clone(),
                note: l
                    .margin
                    .map(|_| MARGIN_SCHEME_NOTE.to_owned())
                    .into_iter()
                    .chain((l.discount() != Money::ZERO).then(|| {
                        format!(
                            "Value {} less its share of the discount {}",
                            l.value.to_the_paisa(),
                            l.discount().to_the_paisa()
                        )
                    }))
                    .collect(),
                hsn: l.hsn.as_ref().map(ToString::to_string),
                units: Some((l.quantity, l.unit_price)),
                rate_percent: l.rate_percent,
                tax: l.tax,
                amount: l.amount,
            })
            .collect();
        Self {
            title: "Credit Note",
            seller: note.seller(),
            buyer: note.buyer(),
            facts_head: "Credit note details",
            facts: vec![
                format!("Credit Note No.: {}", note.number()),
                format!("Credit Note Date: {}", note.date()),
                format!("Against Invoice No.: {}", note.invoice_number()),
                format!("Invoice Date: {}", note.invoice_date()),
                format!("Place of supply: {}", state(note.buyer().state)),
                "Reverse charge: No".to_owned(),
            ],
            remark: (!note.reason().is_empty()).then(|| format!("Reason: {}", note.reason())),
            footnote: note.has_margin_scheme().then_some(MARGIN_SCHEME_FOOTNOTE),
            supply: note.supply(),
            rows,
            tax: note.tax(),
            total: note.total(),
            total_label: "Total credited",
            words: note.total_in_words(),
            payment: None,
            footer: "This is a computer-generated credit note (section 34 of the Central GST Act).",
        }
    }
}
