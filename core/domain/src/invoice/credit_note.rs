//! The GST credit note (CGST Act section 34): what a refund on an invoiced order gives back,
//! line by line, with the tax it reverses, naming the tax invoice it corrects.
//!
//! The rule (shop rules, "Credit notes"): each product line is worth its amount less its share
//! of the order's discount, shared within a GST rate in proportion to the lines' values (whole
//! paise, rounded down, the last line of the rate takes the remainder), taxable value and each
//! tax alike. `k` of a line's `n` units are worth `⌊worth × k / n⌋` in all, shared over the parts
//! unit by unit in proportion to what is left of each (so no part of a refund is negative and
//! none adds up past the invoice's); a refund
//! gives back what the units refunded so far are worth less what the units refunded before
//! were worth. So a line refunded whole reverses exactly its worth, refunds in parts add up to
//! it, and every product line and the delivery charge refunded reverse the invoice exactly,
//! part by part.
//!
//! A margin-scheme line (CGST Rules, rule 32(5)) is worth its own line and its own discount line:
//! its margin's taxable value and tax, and the part of its price outside the margin, a fifth part
//! shared unit by unit like the others. So its units give back the tax on the margin in proportion,
//! to the paisa, and all of them give back exactly what the invoice carried.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{
    amount_in_words, Buyer, CreditNoteNumber, HsnCode, Invoice, InvoiceDate, InvoiceLine, InvoiceLineKind,
    InvoiceNumber, MarginPart, Seller, Supply, TaxInvoice, TaxRow, TaxSplit,
};
use crate::message::{user_facing_error, Message, UserFacing};
use crate::Money;

/// What a refund gives back: units of the invoice's product lines, each named by its position
/// among the product lines (0 for the first; the order's lines, in order), and the delivery
/// charge, whole, or not.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefundSelection {
    /// Units per product line; a line not named gives nothing back.
    pub units: BTreeMap<usize, u32>,
    /// The delivery charge, in full.
    pub delivery: bool,
}

impl RefundSelection {
    /// Units of lines (a line named twice counts both), and the delivery charge or not.
    #[must_use]
    pub fn of(units: impl IntoIterator<Item = (usize, u32)>, delivery: bool) -> Self {
        let mut selection = Self { units: BTreeMap::new(), delivery };
        for (line, quantity) in units {
            let at = selection.units.entry(line).or_default();
            *at = at.saturating_add(quantity);
        }
        selection
    }

    /// Every unit of every product line, and the delivery charge: a whole refund.
    #[must_use]
    pub fn everything(invoice: &Invoice) -> Self {
        Self::of(products(invoice).enumerate().map(|(i, line)| (i, line.quantity)), true)
    }

    /// Everything of `invoice` not in `before`: every unit left of each line, and the delivery
    /// charge unless refunded already (a cancellation after partial refunds).
    #[must_use]
    pub fn left_after(invoice: &Invoice, before: &Self) -> Self {
        let left = products(invoice)
            .enumerate()
            .map(|(i, line)| (i, line.quantity.saturating_sub(before.units.get(&i).copied().unwrap_or(0))));
        Self::of(left.filter(|(_, units)| *units > 0), !before.delivery)
    }

    /// This selection and `other` together, e.g. what was refunded before and this refund.
    #[must_use]
    pub fn and(&self, other: &Self) -> Self {
        Self::of(
            self.units.iter().chain(&other.units).map(|(line, units)| (*line, *units)),
            self.delivery || other.delivery,
        )
    }
}

/// Why a refund selection cannot be credited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreditNoteError {
    /// No unit and no delivery charge (or a delivery charge of nothing).
    NothingRefunded,
    /// The invoice has no product line at this position.
    LineUnknown { line: usize },
    /// Zero units, or more than the line has left after earlier refunds.
    TooManyUnits { line: usize, left: u32 },
    /// The delivery charge was refunded before.
    DeliveryRefunded,
}

impl UserFacing for CreditNoteError {
    fn message(&self) -> Message {
        match self {
            CreditNoteError::NothingRefunded => Message::CreditNoteNothingRefunded,
            CreditNoteError::LineUnknown { .. } => Message::CreditNoteLineUnknown,
            CreditNoteError::TooManyUnits { .. } => Message::CreditNoteTooManyUnits,
            CreditNoteError::DeliveryRefunded => Message::CreditNoteDeliveryRefunded,
        }
    }
}
user_facing_error!(CreditNoteError);

/// Why a credit note cannot be issued: the refund does not fit the invoice, or the note would be
/// dated before the invoice it reverses (CGST section 34 reverses a supply already invoiced).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreditNoteIssueError {
    Refund(CreditNoteError),
    BeforeInvoice { invoice: InvoiceDate, note: InvoiceDate },
}

impl From<CreditNoteError> for CreditNoteIssueError {
    fn from(e: CreditNoteError) -> Self {
        Self::Refund(e)
    }
}

/// The paise a refund of `now` gives back on `invoice`, after the refunds of `before` (every
/// unit and delivery charge refunded earlier on this invoice, [`RefundSelection::and`] of them).
/// The refund and its [`CreditNote`] are this amount exactly.
///
/// # Errors
/// [`CreditNoteError`] when `now` names nothing, a line the invoice does not have, zero units or
/// more than are left of a line, or the delivery charge again.
pub fn refund_amount(
    invoice: &Invoice,
    before: &RefundSelection,
    now: &RefundSelection,
) -> Result<Money, CreditNoteError> {
    Ok(credit_lines(invoice, before, now)?.iter().map(|l| l.amount).sum())
}

/// One line of a credit note: units of an invoice line given back, with the tax reversed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreditNoteLine {
    pub kind: InvoiceLineKind,
    /// The product line's position among the invoice's product lines; none for the delivery.
    pub line: Option<usize>,
    /// As on the invoice.
    pub description: String,
    pub hsn: Option<HsnCode>,
    pub rate_percent: u8,
    /// Units given back (1 for the delivery charge).
    pub quantity: u32,
    /// The unit price as invoiced, GST included.
    pub unit_price: Money,
    /// Unit price × quantity, before the discount.
    pub value: Money,
    /// What is given back, GST included: `value` less this line's share of the discount.
    pub amount: Money,
    /// `amount` taken apart: the taxable value and the tax reversed (on a margin-scheme line, of
    /// the margin).
    pub tax: TaxSplit,
    /// On a margin-scheme line: what of `amount` lies outside the margin (never printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<MarginPart>,
}

impl CreditNoteLine {
    /// The part of `amount` outside the value of supply: zero but on a margin-scheme line.
    #[must_use]
    pub fn outside(&self) -> Money {
        self.margin.map_or(Money::ZERO, |m| m.outside)
    }

    /// This line's share of the order's discount.
    #[must_use]
    pub fn discount(&self) -> Money {
        self.value - self.amount
    }
}

/// What a credit note is built from.
#[derive(Debug, Clone)]
pub struct CreditNoteInput<'a> {
    /// The tax invoice it corrects (its seller, buyer and supply are the note's).
    pub invoice: &'a TaxInvoice,
    /// Everything refunded on this invoice before.
    pub before: &'a RefundSelection,
    /// This refund.
    pub now: &'a RefundSelection,
    pub number: CreditNoteNumber,
    /// The day it is issued, in India.
    pub date: InvoiceDate,
    /// Why the supply is reversed (the refund's reason), printed.
    pub reason: String,
}

/// A GST credit note ready to print. Built only by [`CreditNote::build`], so its amounts are
/// [`refund_amount`]'s and its tax is the invoice's kind (CGST + SGST or IGST).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreditNote {
    number: CreditNoteNumber,
    date: InvoiceDate,
    seller: Seller,
    buyer: Buyer,
    invoice_number: InvoiceNumber,
    invoice_date: InvoiceDate,
    supply: Supply,
    reason: String,
    lines: Vec<CreditNoteLine>,
    tax: Vec<TaxRow>,
    total: Money,
}

impl CreditNote {
    /// # Errors
    /// [`CreditNoteIssueError::Refund`] as [`refund_amount`];
    /// [`CreditNoteIssueError::BeforeInvoice`] for a date before the invoice's.
    pub fn build(input: CreditNoteInput<'_>) -> Result<Self, CreditNoteIssueError> {
        let invoice = input.invoice;
        if input.date < invoice.date() {
            return Err(CreditNoteIssueError::BeforeInvoice { invoice: invoice.date(), note: input.date });
        }
        let lines = credit_lines(invoice.invoice(), input.before, input.now)?;
        let mut per_rate: BTreeMap<(u8, bool), TaxSplit> = BTreeMap::new();
        for line in &lines {
            let at = per_rate.entry((line.rate_percent, line.margin.is_some())).or_default();
            *at = *at + line.tax;
        }
        let tax = per_rate
            .into_iter()
            .map(|((rate_percent, margin_scheme), split)| TaxRow { rate_percent, margin_scheme, split })
            .collect();
        Ok(Self {
            number: input.number,
            date: input.date,
            seller: invoice.seller().clone(),
            buyer: invoice.buyer().clone(),
            invoice_number: invoice.number(),
            invoice_date: invoice.date(),
            supply: invoice.invoice().supply,
            reason: input.reason.trim().to_owned(),
            total: lines.iter().map(|l| l.amount).sum(),
            lines,
            tax,
        })
    }

    #[must_use]
    pub fn number(&self) -> CreditNoteNumber {
        self.number
    }

    #[must_use]
    pub fn date(&self) -> InvoiceDate {
        self.date
    }

    #[must_use]
    pub fn seller(&self) -> &Seller {
        &self.seller
    }

    #[must_use]
    pub fn buyer(&self) -> &Buyer {
        &self.buyer
    }

    /// The tax invoice this note corrects.
    #[must_use]
    pub fn invoice_number(&self) -> InvoiceNumber {
        self.invoice_number
    }

    #[must_use]
    pub fn invoice_date(&self) -> InvoiceDate {
        self.invoice_date
    }

    /// As on the invoice: CGST + SGST within the seller's state, IGST across states.
    #[must_use]
    pub fn supply(&self) -> Supply {
        self.supply
    }

    #[must_use]
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// Products first, in the invoice's order, then the delivery charge.
    #[must_use]
    pub fn lines(&self) -> &[CreditNoteLine] {
        &self.lines
    }

    /// Taxable value and tax reversed per GST rate, lowest rate first (a rate's margin-scheme
    /// row after its other).
    #[must_use]
    pub fn tax(&self) -> &[TaxRow] {
        &self.tax
    }

    /// Whether a line reverses a margin-scheme line.
    #[must_use]
    pub fn has_margin_scheme(&self) -> bool {
        self.lines.iter().any(|l| l.margin.is_some())
    }

    /// Everything given back, GST included: the refund.
    #[must_use]
    pub fn total(&self) -> Money {
        self.total
    }

    #[must_use]
    pub fn total_in_words(&self) -> String {
        amount_in_words(self.total)
    }
}

fn products(invoice: &Invoice) -> impl Iterator<Item = &InvoiceLine> {
    invoice.lines.iter().filter(|l| l.kind == InvoiceLineKind::Product)
}

/// The parts of a line, to work on them alike: taxable value, CGST, SGST, IGST, and what lies
/// outside the margin of a margin-scheme line (zero on any other).
type Parts = [i64; 5];

fn parts(l: &InvoiceLine) -> Parts {
    let s = l.tax;
    [s.taxable.paise(), s.cgst.paise(), s.sgst.paise(), s.igst.paise(), l.outside().paise()]
}

fn split_of(p: Parts) -> TaxSplit {
    TaxSplit {
        taxable: Money::from_paise(p[0]),
        cgst: Money::from_paise(p[1]),
        sgst: Money::from_paise(p[2]),
        igst: Money::from_paise(p[3]),
    }
}

/// `a × b / c` rounded toward zero, in whole paise; 0 when `c` is 0.
fn scale(a: i64, b: i64, c: i64) -> i64 {
    if c == 0 {
        return 0;
    }
    let exact = i128::from(a) * i128::from(b) / i128::from(c);
    // |a × b / c| ≤ |a| whenever 0 ≤ b ≤ c, as every caller has it.
    i64::try_from(exact).unwrap_or(if exact < 0 { i64::MIN } else { i64::MAX })
}

/// The `num / den` share of `whole` (taxable value, CGST, SGST, IGST, outside): the amount and
/// each other part rounded toward zero, the taxable value what is left, so the parts add up to
/// the amount.
fn share(whole: Parts, num: i64, den: i64) -> Parts {
    let amount = scale(whole.iter().sum(), num, den);
    let [_, cgst, sgst, igst, outside] = whole.map(|part| scale(part, num, den));
    [amount - cgst - sgst - igst - outside, cgst, sgst, igst, outside]
}

/// Each product line's worth, in the invoice's order: its tax split plus its share of the
/// discount lines of its rate (see the module). Within a rate the worths add up to the product
/// lines and the discount lines exactly, part by part. A margin-scheme line is worth itself and
/// its own discount line.
fn worths(invoice: &Invoice) -> Vec<Parts> {
    let lines: Vec<&InvoiceLine> = products(invoice).collect();
    let mut worth: Vec<Parts> = lines.iter().map(|l| parts(l)).collect();
    let add = |to: &mut Parts, from: Parts| {
        for (t, f) in to.iter_mut().zip(from) {
            *t += f;
        }
    };
    for l in invoice.lines.iter().filter(|l| l.kind == InvoiceLineKind::Discount) {
        if let Some(at) = l.margin.and_then(|m| worth.get_mut(m.product)) {
            add(at, parts(l));
        }
    }
    let rates: std::collections::BTreeSet<u8> =
        lines.iter().filter(|l| l.margin.is_none()).map(|l| l.rate_percent).collect();
    for rate in rates {
        let mut discount: Parts = [0; 5];
        for l in invoice.lines.iter().filter(|l| l.kind == InvoiceLineKind::Discount && l.margin.is_none()) {
            if l.rate_percent == rate {
                add(&mut discount, parts(l));
            }
        }
        let at_rate: Vec<usize> =
            (0..lines.len()).filter(|i| lines[*i].rate_percent == rate && lines[*i].margin.is_none()).collect();
        let value: i64 = at_rate.iter().map(|i| lines[*i].amount.paise()).sum();
        let mut left = discount;
        for (n, i) in at_rate.iter().enumerate() {
            let part_of = if n + 1 == at_rate.len() { left } else { share(discount, lines[*i].amount.paise(), value) };
            for p in 0..5 {
                left[p] -= part_of[p];
                worth[*i][p] += part_of[p];
            }
        }
        // Rounding can leave a line a few paise below zero in a part only when the discount
        // takes nearly all of the rate's value; those paise come from the lines with the most of
        // that part, the richest first. The rate's goods are never below zero in a part (the
        // invoice splits them as one amount), so every deficit is met.
        #[expect(clippy::needless_range_loop, reason = "one part of every line of the rate at a time")]
        for p in 0..5 {
            for i in &at_rate {
                while worth[*i][p] < 0 {
                    let richest = at_rate.iter().copied().filter(|j| worth[*j][p] > 0).max_by_key(|j| worth[*j][p]);
                    let Some(richest) = richest else { break };
                    let moved = (-worth[*i][p]).min(worth[richest][p]);
                    worth[richest][p] -= moved;
                    worth[*i][p] += moved;
                }
            }
        }
    }
    worth
}

/// `k` of `n` units of a line worth `worth`: `⌊amount × k / n⌋` in all, so that without a
/// discount `k` units are worth `k` unit prices exactly. Unit by unit, what the next unit adds
/// is shared over the parts in proportion to what is left of each (rounded down, the odd paise
/// to the first parts with room left, taxable value first), so no part ever goes past the
/// line's nor falls back as `k` grows: a refund reverses no part below zero and, over several
/// refunds, no part beyond the invoice's.
fn units_worth(worth: Parts, k: u32, n: u32) -> Parts {
    if k >= n {
        return worth;
    }
    let amount: i64 = worth.iter().sum();
    let mut so_far = [0_i64; 5];
    let mut reached = 0_i64;
    for unit in 1..=k {
        let target = scale(amount, i64::from(unit), i64::from(n));
        let step = target - reached;
        let room = std::array::from_fn::<i64, 5, _>(|p| (worth[p] - so_far[p]).max(0));
        let rooms: i64 = room.iter().sum();
        let mut given = room.map(|r| scale(step, r, rooms).min(r));
        let mut odd = step - given.iter().sum::<i64>();
        for p in 0..5 {
            let more = odd.min(room[p] - given[p]).max(0);
            given[p] += more;
            odd -= more;
        }
        for p in 0..5 {
            so_far[p] += given[p];
        }
        reached = target;
    }
    so_far
}

/// The credit note's lines for `now` after `before` (products in the invoice's order, then the
/// delivery charge), each with what it gives back: what a refund pays line by line, and
/// [`refund_amount`] in all.
///
/// # Errors
/// As [`refund_amount`].
pub fn credit_lines(
    invoice: &Invoice,
    before: &RefundSelection,
    now: &RefundSelection,
) -> Result<Vec<CreditNoteLine>, CreditNoteError> {
    let lines: Vec<&InvoiceLine> = products(invoice).collect();
    let delivery = invoice.lines.iter().find(|l| l.kind == InvoiceLineKind::Delivery && l.amount != Money::ZERO);
    for (line, units) in before.units.iter().chain(&now.units) {
        let invoiced = lines.get(*line).ok_or(CreditNoteError::LineUnknown { line: *line })?.quantity;
        if *units > invoiced {
            return Err(CreditNoteError::TooManyUnits { line: *line, left: invoiced });
        }
    }
    let mut credit = Vec::new();
    let worth = worths(invoice);
    for (line, units) in &now.units {
        let (invoice_line, worth) = (lines[*line], worth[*line]);
        let invoiced = invoice_line.quantity;
        let done = before.units.get(line).copied().unwrap_or(0);
        let left = invoiced.saturating_sub(done);
        if *units == 0 || *units > left {
            return Err(CreditNoteError::TooManyUnits { line: *line, left });
        }
        let mut reversed = units_worth(worth, done + units, invoiced);
        let earlier = units_worth(worth, done, invoiced);
        for (part, was) in reversed.iter_mut().zip(earlier) {
            *part -= was;
        }
        let tax = split_of(reversed);
        let outside = Money::from_paise(reversed[4]);
        credit.push(CreditNoteLine {
            kind: InvoiceLineKind::Product,
            line: Some(*line),
            description: invoice_line.description.clone(),
            hsn: invoice_line.hsn.clone(),
            rate_percent: invoice_line.rate_percent,
            quantity: *units,
            unit_price: invoice_line.unit_price,
            value: invoice_line.unit_price.times(*units),
            amount: tax.inclusive() + outside,
            tax,
            margin: invoice_line.margin.map(|m| MarginPart { outside, product: m.product }),
        });
    }
    if now.delivery {
        if before.delivery {
            return Err(CreditNoteError::DeliveryRefunded);
        }
        if let Some(d) = delivery {
            credit.push(CreditNoteLine {
                kind: InvoiceLineKind::Delivery,
                line: None,
                description: d.description.clone(),
                hsn: d.hsn.clone(),
                rate_percent: d.rate_percent,
                quantity: 1,
                unit_price: d.amount,
                value: d.amount,
                amount: d.amount,
                tax: d.tax,
                margin: None,
            });
        }
    }
    if credit.is_empty() {
        return Err(CreditNoteError::NothingRefunded);
    }
    Ok(credit)
}

#[cfg(test)]
#[expect(clippy::inconsistent_digit_grouping, reason = "paise written as rupees_paise, e.g. 2_499_50 is ₹2,499.50")]
mod tests {
    use super::*;
    use crate::address::{Address, AddressInput};
    use crate::invoice::{FinancialYear, TaxInvoiceInput};
    use crate::order::OrderLine;
    use crate::pricing::DiscountPercent;
    use crate::tax::{GstState, Gstin};
    use proptest::prelude::*;

    fn line(name: &str, price: i64, qty: u32, gst: u8) -> OrderLine {
        OrderLine::sample(name, price, qty, gst)
    }

    /// A line, under the margin scheme when it has a purchase price.
    fn drawn(name: &str, price: i64, qty: u32, gst: u8, bought: Option<i64>) -> OrderLine {
        let l = line(name, price, qty, gst);
        match bought {
            Some(purchase) => l.under_margin_scheme(purchase),
            None => l,
        }
    }

    fn split_parts(s: TaxSplit) -> [i64; 4] {
        [s.taxable.paise(), s.cgst.paise(), s.sgst.paise(), s.igst.paise()]
    }

    fn invoice(lines: &[OrderLine], pct: u32, delivery: i64, state: &str) -> TaxInvoice {
        let address = Address::parse(&AddressInput {
            house_no: "B-12".into(),
            city: "Somewhere".into(),
            state: state.into(),
            mobile_no: "9810012345".into(),
            pincode: "110005".into(),
            ..AddressInput::default()
        })
        .expect("valid address");
        TaxInvoice::build(TaxInvoiceInput {
            seller: Seller {
                legal_name: "Marque Parts Private Limited".into(),
                address_lines: vec!["New Delhi 110020".into()],
                gstin: Gstin::parse("07AAKCM4821R1ZU").expect("valid"),
                state: GstState::by_name("Delhi").expect("a state"),
            },
            buyer: Buyer::at("Ravi Kumar", &address),
            number: InvoiceNumber::new(FinancialYear::starting(2026), 42).expect("valid"),
            date: InvoiceDate::new(2026, 11, 22).expect("a day"),
            lines,
            discount: DiscountPercent::new(pct).expect("ok"),
            delivery_charge: Money::from_paise(delivery),
        })
    }

    fn note(
        doc: &TaxInvoice,
        before: &RefundSelection,
        now: &RefundSelection,
    ) -> Result<CreditNote, CreditNoteIssueError> {
        CreditNote::build(CreditNoteInput {
            invoice: doc,
            before,
            now,
            number: CreditNoteNumber::new(FinancialYear::starting(2026), 7).expect("valid"),
            date: InvoiceDate::new(2026, 11, 27).expect("a day"),
            reason: " Part damaged in transit ".into(),
        })
    }

    fn nothing() -> RefundSelection {
        RefundSelection::default()
    }

    /// The invoice's taxable value and taxes, summed over its rows.
    fn invoiced(doc: &TaxInvoice) -> TaxSplit {
        doc.invoice().tax.iter().map(|r| r.split).sum()
    }

    fn credited(note: &CreditNote) -> TaxSplit {
        note.lines().iter().map(|l| l.tax).sum()
    }

    #[test]
    fn a_credit_note_names_the_invoice_and_reverses_the_lines_refunded() {
        // ₹1,180 × 2 at 18% within Delhi, no discount, ₹118 delivery.
        let doc = invoice(&[line("Brake Pad Set", 1_180_00, 2, 18), line("Wiper", 590_00, 1, 18)], 0, 118_00, "Delhi");
        let cn = note(&doc, &nothing(), &RefundSelection::of([(0, 1)], false)).expect("a credit note");
        assert_eq!(cn.number().to_string(), "CN/26-27/000007");
        assert_eq!(
            (cn.invoice_number().to_string(), cn.invoice_date().to_string()),
            ("MQ/26-27/000042".into(), "22 Nov 2026".into())
        );
        assert_eq!((cn.date().to_string(), cn.reason()), ("27 Nov 2026".into(), "Part damaged in transit"));
        assert_eq!(cn.supply(), Supply::IntraState);
        assert_eq!(cn.buyer(), doc.buyer());
        let [l] = cn.lines() else { panic!("one line: {:?}", cn.lines()) };
        assert_eq!(
            (l.description.as_str(), l.quantity, l.amount, l.discount()),
            ("Brake Pad Set (18% GST)", 1, Money::from_rupees(1180), Money::ZERO)
        );
        assert_eq!(
            (l.tax.taxable, l.tax.cgst, l.tax.sgst, l.tax.igst),
            (Money::from_rupees(1000), Money::from_rupees(90), Money::from_rupees(90), Money::ZERO)
        );
        assert_eq!(cn.total(), Money::from_rupees(1180));
        assert_eq!(cn.tax().len(), 1);
        assert_eq!(cn.total_in_words(), "Rupees One Thousand One Hundred Eighty Only");
        assert_eq!(refund_amount(doc.invoice(), &nothing(), &RefundSelection::of([(0, 1)], false)), Ok(cn.total()));
    }

    #[test]
    fn across_states_it_reverses_igst() {
        let doc = invoice(&[line("Mirror", 1_180_00, 1, 18)], 0, 0, "Kerala");
        let cn = note(&doc, &nothing(), &RefundSelection::of([(0, 1)], false)).expect("a credit note");
        assert_eq!(cn.supply(), Supply::InterState);
        let tax = cn.lines()[0].tax;
        assert_eq!((tax.igst, tax.cgst, tax.sgst), (Money::from_rupees(180), Money::ZERO, Money::ZERO));
    }

    #[test]
    fn the_discount_is_shared_by_value_and_the_last_line_takes_the_remainder() {
        // ₹1,000 + ₹2,000 + ₹1 at 18%; 10% of ₹3,001 is ₹300 (whole rupees): shares of the
        // discount line's ₹300 by value, rounded down, the last line the remainder.
        let doc =
            invoice(&[line("a", 1_000_00, 1, 18), line("b", 2_000_00, 1, 18), line("c", 1_00, 1, 18)], 10, 0, "Delhi");
        let d = doc.invoice().lines.iter().find(|l| l.kind == InvoiceLineKind::Discount).expect("a discount line");
        assert_eq!(d.amount, Money::from_rupees(-300));
        let all = note(&doc, &nothing(), &RefundSelection::everything(doc.invoice())).expect("a credit note");
        let discounts: Vec<i64> = all.lines().iter().map(|l| l.discount().paise()).collect();
        // ₹300 × 1000/3001 = ₹99.9667 → ₹99.96; × 2000/3001 → ₹199.93; the ₹1 line the
        // remainder, 11 paise.
        assert_eq!(discounts, vec![99_96, 199_93, 11]);
        // Each tax alike: the discount's CGST is −₹22.88: ₹7.62, ₹15.24 and the rest, 2 paise.
        let cgst: Vec<i64> = all.lines().iter().map(|l| l.tax.cgst.paise()).collect();
        let printed: Vec<i64> = products(doc.invoice()).map(|l| l.tax.cgst.paise()).collect();
        assert_eq!(d.tax.cgst, Money::from_paise(-22_88));
        assert_eq!(printed.iter().zip(&cgst).map(|(p, c)| p - c).collect::<Vec<_>>(), vec![7_62, 15_24, 2]);
        assert_eq!(discounts.iter().sum::<i64>(), 300_00);
        assert_eq!(credited(&all), invoiced(&doc));
        assert_eq!(all.total(), doc.invoice().total);
    }

    #[test]
    fn with_several_rates_each_rate_shares_its_own_discount_line() {
        // ₹100.00 at 28% then ₹200.01 at 18%, 50% off: ₹150. The invoice gives the odd paisa
        // of the split by rate to the larger remainder (28%): ₹50.00 and ₹100.00. Each line's
        // share follows its rate's line, so refunding the 28% line reverses exactly that rate.
        let doc = invoice(&[line("a", 100_00, 1, 28), line("b", 200_01, 1, 18)], 50, 0, "Delhi");
        let printed: Vec<(u8, i64)> = doc
            .invoice()
            .lines
            .iter()
            .filter(|l| l.kind == InvoiceLineKind::Discount)
            .map(|l| (l.rate_percent, l.amount.paise()))
            .collect();
        assert_eq!(printed, vec![(18, -100_00), (28, -50_00)]);
        let lamp = note(&doc, &nothing(), &RefundSelection::of([(0, 1)], false)).expect("a credit note");
        assert_eq!((lamp.total(), lamp.lines()[0].discount()), (Money::from_rupees(50), Money::from_rupees(50)));
        let row_28 = doc.invoice().tax.iter().find(|r| r.rate_percent == 28).expect("a 28% row");
        assert_eq!(lamp.tax()[0].split, row_28.split, "the whole 28% row reversed");
    }

    #[test]
    fn refunds_in_parts_add_up_to_the_invoice() {
        // ₹999.99 × 3 at 28% and ₹100 at 5%, 10% off, ₹236 delivery, within Delhi.
        let doc = invoice(&[line("Lamp", 999_99, 3, 28), line("Clip", 100_00, 1, 5)], 10, 236_00, "Delhi");
        let first = RefundSelection::of([(0, 1)], false);
        let second = RefundSelection::of([(0, 1), (1, 1)], true);
        let third = RefundSelection::of([(0, 1)], false);
        let a = note(&doc, &nothing(), &first).expect("first");
        let b = note(&doc, &first, &second).expect("second");
        let c = note(&doc, &first.and(&second), &third).expect("third");
        assert_eq!(credited(&a) + credited(&b) + credited(&c), invoiced(&doc));
        assert_eq!(a.total() + b.total() + c.total(), doc.invoice().total);
        // What is left after the first refund, refunded at once, gives the same as the two others.
        let rest = RefundSelection::left_after(doc.invoice(), &first);
        assert_eq!(rest, second.and(&third));
        assert_eq!(note(&doc, &first, &rest).map(|n| n.total()), Ok(b.total() + c.total()));
        let all = first.and(&rest);
        assert_eq!(RefundSelection::left_after(doc.invoice(), &all), RefundSelection::of([], false));
        // One unit of three is worth a third of the line, rounded down part by part.
        assert!(a.total() <= c.total(), "{} then {}", a.total(), c.total());
    }

    #[test]
    fn what_cannot_be_refunded_is_refused() {
        let doc = invoice(&[line("a", 1_000_00, 2, 18)], 0, 100_00, "Delhi");
        let inv = doc.invoice();
        let refused =
            |before: &RefundSelection, now: &RefundSelection| refund_amount(inv, before, now).expect_err("refused");
        assert_eq!(refused(&nothing(), &nothing()), CreditNoteError::NothingRefunded);
        assert_eq!(
            refused(&nothing(), &RefundSelection::of([(1, 1)], false)),
            CreditNoteError::LineUnknown { line: 1 }
        );
        assert_eq!(
            refused(&nothing(), &RefundSelection::of([(0, 3)], false)),
            CreditNoteError::TooManyUnits { line: 0, left: 2 }
        );
        assert_eq!(
            refused(&nothing(), &RefundSelection::of([(0, 0)], false)),
            CreditNoteError::TooManyUnits { line: 0, left: 2 }
        );
        let one = RefundSelection::of([(0, 1)], true);
        assert_eq!(
            refused(&one, &RefundSelection::of([(0, 2)], false)),
            CreditNoteError::TooManyUnits { line: 0, left: 1 }
        );
        assert_eq!(refused(&one, &RefundSelection::of([], true)), CreditNoteError::DeliveryRefunded);
        assert_eq!(CreditNoteError::DeliveryRefunded.code(), "credit_note.delivery_refunded");
        // Never dated before the invoice it reverses (an instance whose clock is behind).
        let early = CreditNote::build(CreditNoteInput {
            invoice: &doc,
            before: &nothing(),
            now: &RefundSelection::of([(0, 1)], false),
            number: CreditNoteNumber::new(FinancialYear::starting(2026), 8).expect("valid"),
            date: InvoiceDate::new(2026, 11, 21).expect("a day"),
            reason: "Part damaged in transit".into(),
        });
        assert_eq!(
            early,
            Err(CreditNoteIssueError::BeforeInvoice {
                invoice: InvoiceDate::new(2026, 11, 22).expect("a day"),
                note: InvoiceDate::new(2026, 11, 21).expect("a day"),
            })
        );
        assert_eq!(CreditNoteError::LineUnknown { line: 1 }.code(), "credit_note.line_unknown");
        // A delivery charge of nothing is nothing to refund.
        let free = invoice(&[line("a", 1_000_00, 1, 18)], 0, 0, "Delhi");
        assert_eq!(
            refund_amount(free.invoice(), &nothing(), &RefundSelection::of([], true)),
            Err(CreditNoteError::NothingRefunded)
        );
    }

    #[test]
    fn a_margin_scheme_line_gives_back_its_tax_on_the_margin_unit_by_unit() {
        // Three used wheels at ₹11,800, each bought for ₹10,000, within Delhi, no discount: the
        // invoice taxes 3 × ₹1,800 of margin (₹823.73 of tax). One wheel gives back a third of
        // each part, rounded down; the other two the rest.
        let doc = invoice(&[line("Wheel", 11_800_00, 3, 18).under_margin_scheme(10_000_00)], 0, 0, "Delhi");
        let printed = &doc.invoice().lines[0];
        assert_eq!(printed.tax.tax(), Money::from_paise(823_73));
        let one = note(&doc, &nothing(), &RefundSelection::of([(0, 1)], false)).expect("a credit note");
        let [l] = one.lines() else { panic!("one line") };
        assert_eq!(
            (l.amount, l.value, l.discount()),
            (Money::from_rupees(11_800), Money::from_rupees(11_800), Money::ZERO)
        );
        assert_eq!(l.description, "Wheel (18% GST on the margin)");
        assert_eq!(l.tax.inclusive(), Money::from_rupees(1_800), "one wheel's margin");
        assert_eq!(l.outside(), Money::from_rupees(10_000));
        assert!(one.has_margin_scheme());
        let rows: Vec<_> = one.tax().iter().map(|r| (r.rate_percent, r.margin_scheme)).collect();
        assert_eq!(rows, vec![(18, true)]);
        let rest = note(&doc, &RefundSelection::of([(0, 1)], false), &RefundSelection::of([(0, 2)], false))
            .expect("a credit note");
        assert_eq!(one.lines()[0].tax + rest.lines()[0].tax, printed.tax, "the two reverse the line exactly");
        assert_eq!(one.total() + rest.total(), doc.invoice().total);
        for part in split_parts(l.tax) {
            assert!(part >= 0);
        }
    }

    /// An order, and a plan that refunds every unit and the delivery charge over three
    /// refunds: each unit's refund (0, 1 or 2), and the delivery's.
    /// Lines (price, units, rate, a margin-scheme line's purchase price), discount %, delivery,
    /// within Delhi, each unit's refund, the delivery's.
    type Plan = (Vec<(i64, u32, u8, Option<i64>)>, u32, i64, bool, Vec<Vec<usize>>, usize);

    fn order_and_plan() -> impl Strategy<Value = Plan> {
        (
            proptest::collection::vec(
                (
                    1_i64..5_000_000,
                    1_u32..5,
                    proptest::sample::select(vec![0_u8, 5, 12, 18, 28]),
                    proptest::option::of(1_i64..6_000_000),
                ),
                1..6,
            ),
            0_u32..=100,
            0_i64..100_000,
            any::<bool>(),
        )
            .prop_flat_map(|(lines, pct, delivery, same_state)| {
                let plans: Vec<_> =
                    lines.iter().map(|(_, q, _, _)| proptest::collection::vec(0_usize..3, *q as usize)).collect();
                (Just(lines), Just(pct), Just(delivery), Just(same_state), plans, 0_usize..3)
            })
    }

    proptest! {
        #[test]
        fn credit_notes_reconcile_never_exceed_and_add_up_to_the_invoice(
            (lines, pct, delivery, same_state, plan, delivery_step) in order_and_plan()
        ) {
            let order: Vec<_> = lines.iter().map(|(p, q, g, bought)| drawn("x", *p, *q, *g, *bought)).collect();
            let doc = invoice(&order, pct, delivery, if same_state { "Delhi" } else { "Kerala" });
            let whole = invoiced(&doc);
            let mut before = nothing();
            let mut sum = TaxSplit::default();
            let mut outside = Money::ZERO;
            let mut paid_back = Money::ZERO;
            for step in 0..3 {
                let units = plan.iter().enumerate().map(|(i, units)| (i, u32::try_from(units.iter().filter(|s| **s == step).count()).unwrap_or(0)));
                let now = RefundSelection::of(units.filter(|(_, k)| *k > 0), delivery_step == step);
                let amount = refund_amount(doc.invoice(), &before, &now);
                let cn = match note(&doc, &before, &now) {
                    Ok(cn) => cn,
                    Err(e) => {
                        // Only a refund of nothing (no unit; no or a free delivery) is refused.
                        prop_assert_eq!(e, CreditNoteIssueError::Refund(CreditNoteError::NothingRefunded));
                        prop_assert_eq!(amount, Err(CreditNoteError::NothingRefunded));
                        continue;
                    }
                };
                // The refund is the credit note, and the note adds up, line by line and per rate.
                prop_assert_eq!(amount, Ok(cn.total()));
                let by_line = credit_lines(doc.invoice(), &before, &now);
                prop_assert_eq!(by_line.as_deref(), Ok(cn.lines()));
                let by_lines = credited(&cn);
                prop_assert_eq!(by_lines, cn.tax().iter().map(|r| r.split).sum::<TaxSplit>());
                let by_lines_outside: Money = cn.lines().iter().map(CreditNoteLine::outside).sum();
                prop_assert_eq!(by_lines.inclusive() + by_lines_outside, cn.total());
                for l in cn.lines() {
                    prop_assert_eq!(l.tax.inclusive() + l.outside(), l.amount);
                    prop_assert!(l.outside() >= Money::ZERO);
                    prop_assert_eq!(l.margin.is_some(), l.line.is_some_and(|i| order[i].margin_scheme.is_some()));
                    prop_assert!(l.amount <= l.value, "a line gives back at most its value");
                    if pct == 0 {
                        prop_assert_eq!(l.amount, l.value, "without a discount a unit gives back its price");
                    }
                    for part in split_parts(l.tax) {
                        prop_assert!(part >= 0, "no part of a line is negative: {:?}", l);
                    }
                    match cn.supply() {
                        Supply::IntraState => prop_assert_eq!(l.tax.igst, Money::ZERO),
                        Supply::InterState => prop_assert_eq!((l.tax.cgst, l.tax.sgst), (Money::ZERO, Money::ZERO)),
                    }
                }
                sum = sum + by_lines;
                outside = outside + by_lines_outside;
                paid_back = paid_back + cn.total();
                // Never more than the invoice, part by part.
                for (so_far, all) in split_parts(sum).into_iter().zip(split_parts(whole)) {
                    prop_assert!(so_far <= all, "credited {:?} of {:?}", sum, whole);
                }
                prop_assert!(outside <= doc.invoice().outside());
                before = before.and(&now);
            }
            // Every unit and the delivery refunded: the invoice reversed exactly.
            prop_assert_eq!(sum, whole);
            prop_assert_eq!(outside, doc.invoice().outside());
            prop_assert_eq!(paid_back, doc.invoice().total);
            let at_once = note(&doc, &nothing(), &RefundSelection::everything(doc.invoice()));
            prop_assert_eq!(at_once.map(|cn| (credited(&cn), cn.total())), Ok((whole, doc.invoice().total)));
        }

        #[test]
        fn without_a_discount_a_whole_line_reverses_the_tax_printed_on_it(
            lines in proptest::collection::vec((1_i64..5_000_000, 1_u32..5, proptest::sample::select(vec![0_u8, 5, 12, 18, 28]), proptest::option::of(1_i64..6_000_000)), 1..6),
            same_state in any::<bool>(),
        ) {
            let order: Vec<_> = lines.iter().map(|(p, q, g, bought)| drawn("x", *p, *q, *g, *bought)).collect();
            let doc = invoice(&order, 0, 0, if same_state { "Delhi" } else { "Kerala" });
            for (i, printed) in products(doc.invoice()).enumerate() {
                let cn = note(&doc, &nothing(), &RefundSelection::of([(i, printed.quantity)], false)).expect("a credit note");
                prop_assert_eq!(cn.lines()[0].tax, printed.tax);
            }
        }
    }
}
