//! What a tax invoice says: its lines and a tax summary per GST rate.
//!
//! A used unit sold under the GST margin scheme (CGST Rules, rule 32(5)) is taxed on its margin
//! only: its value of supply is the price received less the purchase price, ignored (zero) when
//! negative, and the GST is taken out of that margin as out of any GST-inclusive amount. The rest
//! of its price lies outside the value of supply, and is never printed as such (docs/shop-rules.md,
//! "Used parts").

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::gst::{HsnCode, Supply, TaxSplit, DELIVERY_GST_PERCENT};
use super::InvoiceNumber;
use crate::order::{stored_order_totals, OrderLine};
use crate::pricing::DiscountPercent;
use crate::Money;

/// The specification's label of the delivery charge line.
pub const DELIVERY_LINE_LABEL: &str = "18% inc. GST";

/// What a margin-scheme line says under its description, on the invoice and its credit notes.
pub const MARGIN_SCHEME_NOTE: &str = "Margin scheme – CGST Rules 32(5)";

/// The sentence a document with a margin-scheme line prints under its lines.
pub const MARGIN_SCHEME_FOOTNOTE: &str = "Margin scheme: second-hand goods on which no input tax credit was taken are \
     taxed on the margin only (rule 32(5) of the CGST Rules, 2017). Their taxable value is the margin, the price \
     less the purchase price, and is zero when the price is not above it; the GST shown on them is the tax on that \
     margin.";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InvoiceLineKind {
    Product,
    Delivery,
    Discount,
}

/// One line as printed: description, unit price, quantity and amount, GST
/// included, and the amount taken apart into taxable value and tax.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvoiceLine {
    pub kind: InvoiceLineKind,
    pub description: String,
    pub unit_price: Money,
    pub quantity: u32,
    /// unit price × quantity; negative on the discount line.
    pub amount: Money,
    /// HSN of a product, SAC of the delivery; none on a discount line.
    pub hsn: Option<HsnCode>,
    /// The GST rate included in `amount`.
    pub rate_percent: u8,
    /// `amount` taken apart (on a margin-scheme line, the margin within it). The lines of one
    /// [`TaxRow`] add up to it exactly, part by part.
    pub tax: TaxSplit,
    /// Set on a line under the margin scheme: its product line and its discount line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<MarginPart>,
}

/// What a margin-scheme line holds beside its margin (CGST Rules, rule 32(5)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarginPart {
    /// The part of the line's amount outside the value of supply: on the product line its
    /// purchase price (its whole amount when the margin is below zero); on its discount line
    /// what the discount took from that part (zero or below). Kept for the credit notes and the
    /// shop's books, never printed.
    pub outside: Money,
    /// The product line it belongs to: its position among the invoice's product lines.
    pub product: usize,
}

impl InvoiceLine {
    /// The part of `amount` outside the value of supply: zero but on a margin-scheme line.
    /// `tax.inclusive() + outside() == amount` on every line.
    #[must_use]
    pub fn outside(&self) -> Money {
        self.margin.map_or(Money::ZERO, |m| m.outside)
    }
}

/// Taxable value and tax of everything sold at one GST rate: the goods taxed on their value, or
/// (`margin_scheme`) the margins of the goods sold under the margin scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaxRow {
    pub rate_percent: u8,
    #[serde(default)]
    pub margin_scheme: bool,
    #[serde(flatten)]
    pub split: TaxSplit,
}

/// What an invoice is built from: the stored order and the shop's state.
#[derive(Debug, Clone, Copy)]
pub struct InvoiceInput<'a> {
    pub number: InvoiceNumber,
    pub lines: &'a [OrderLine],
    /// The order's discount percentage (0 when none applied).
    pub discount: DiscountPercent,
    pub delivery_charge: Money,
    /// The seller's state, from configuration.
    pub seller_state: &'a str,
    /// The state of the delivery address.
    pub delivery_state: &'a str,
}

/// A GST tax invoice. The sum of the tax rows' taxable values and taxes, and of what lies outside
/// the margin of margin-scheme lines ([`Invoice::outside`]), is `total` exactly, and `total` is
/// the stored order's total: the amount paid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invoice {
    pub number: InvoiceNumber,
    pub supply: Supply,
    /// Each product, then the delivery charge, then the discount (negative).
    pub lines: Vec<InvoiceLine>,
    /// One row per GST rate, lowest rate first (the margin scheme's after the other of its rate).
    pub tax: Vec<TaxRow>,
    pub total: Money,
}

impl Invoice {
    /// Lines as the specification lists them; tax per rate as
    /// [`TaxSplit::of_inclusive`] rounds it.
    ///
    /// The discount is a reduction of the products' price, so it lowers the
    /// taxable value of each rate in proportion to that rate's share of the
    /// items total (whole paise, the odd paise to the largest remainders,
    /// lower rate first on a tie). When the products carry several rates the
    /// discount is one line per rate, since a line has one rate. Delivery is
    /// taxed at 18% and not discounted.
    ///
    /// Each line is split by [`TaxSplit::of_inclusive`] too; whatever that
    /// rounding leaves between the goods lines of a rate (products and
    /// discount) and the split of their sum (a few paise at most) goes to the
    /// one with the largest amount. A rate's row is its goods' split plus the
    /// delivery charge's when paid at that rate, so the lines add up to the
    /// rows and the rows to the total.
    ///
    /// A margin-scheme line (CGST Rules, rule 32(5)) takes its share of the discount alone, as a
    /// rate does (after the rates on a tie), on a discount line of its own. Its margin is its
    /// amount less its purchase price, zero when below; its discount line lowers the margin to
    /// what the discounted price leaves over the purchase price, zero when below. Each margin is
    /// split on its own, and the margins of a rate make that rate's margin-scheme row. So the tax
    /// of a margin-scheme line is never below zero, and the lines still add up to the total.
    #[must_use]
    pub fn build(input: &InvoiceInput<'_>) -> Self {
        let totals = stored_order_totals(input.lines, input.discount, input.delivery_charge);
        let supply = Supply::between(input.seller_state, input.delivery_state);
        let line = |kind, description, unit_price: Money, quantity: u32, hsn, rate_percent| {
            let amount = unit_price.times(quantity);
            InvoiceLine {
                kind,
                description,
                unit_price,
                quantity,
                amount,
                hsn,
                rate_percent,
                tax: TaxSplit::of_inclusive(amount, rate_percent, supply),
                margin: None,
            }
        };
        let mut lines: Vec<InvoiceLine> = input
            .lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let hsn = Some(l.hsn.clone().unwrap_or_else(HsnCode::parts));
                let Some(scheme) = l.margin_scheme else {
                    let described = format!("{} ({}% GST)", l.name, l.gst);
                    return line(InvoiceLineKind::Product, described, l.price, l.quantity.get(), hsn, l.gst);
                };
                let described = format!("{} ({}% GST on the margin)", l.name, l.gst);
                let mut product = line(InvoiceLineKind::Product, described, l.price, l.quantity.get(), hsn, l.gst);
                let margin = margin_of(product.amount, scheme.purchase_price.times(l.quantity.get()));
                product.tax = TaxSplit::of_inclusive(margin, l.gst, supply);
                product.margin = Some(MarginPart { outside: product.amount - margin, product: i });
                product
            })
            .collect();
        lines.push(line(
            InvoiceLineKind::Delivery,
            format!("Delivery Charge ({DELIVERY_LINE_LABEL})"),
            totals.delivery,
            1,
            Some(HsnCode::delivery()),
            DELIVERY_GST_PERCENT,
        ));

        // What shares the discount: the products of each rate taxed on their value, and each
        // margin-scheme line alone.
        let mut per_share: BTreeMap<Share, Money> = BTreeMap::new();
        for (i, l) in input.lines.iter().enumerate() {
            let key = if l.margin_scheme.is_some() { Share::MarginLine(i) } else { Share::Rate(l.gst) };
            let at = per_share.entry(key).or_default();
            *at = *at + l.amount();
        }
        let percent = input.discount.get();
        let shares: Vec<(Share, Money)> =
            share_out(totals.discount, &per_share).into_iter().filter(|(_, share)| *share != Money::ZERO).collect();
        if shares.is_empty() {
            let first = per_share.keys().next().copied().unwrap_or(Share::Rate(DELIVERY_GST_PERCENT));
            let no_discount = Money::ZERO - totals.discount;
            lines.push(discount_line(input, &lines, first, format!("Discount ({percent}%)"), no_discount, supply));
        }
        for (key, share) in &shares {
            let description = match key {
                _ if per_share.len() == 1 => format!("Discount ({percent}%)"),
                Share::Rate(rate) => format!("Discount ({percent}%) on {rate}% GST items"),
                Share::MarginLine(i) => format!("Discount ({percent}%) on {}", input.lines[*i].name),
            };
            lines.push(discount_line(input, &lines, *key, description, Money::ZERO - *share, supply));
        }

        // The goods of a rate (its products less its discount) are split as one amount, and the
        // lines of that rate settled to it; a delivery charge keeps its own split and joins its
        // rate's row. So a rate's goods never carry a part below zero however the rounding falls
        // (a discount of 100% leaves them nothing, part by part), and what a refund gives back
        // of them can be shared out without one (the credit note's rule).
        let mut goods: BTreeMap<u8, Money> =
            per_share.keys().filter_map(|key| key.rate()).map(|rate| (rate, Money::ZERO)).collect();
        for l in lines.iter().filter(|l| l.kind != InvoiceLineKind::Delivery && l.margin.is_none()) {
            let at_rate = goods.entry(l.rate_percent).or_default();
            *at_rate = *at_rate + l.amount;
        }
        let goods: Vec<TaxRow> = goods
            .into_iter()
            .map(|(rate, amount)| TaxRow {
                rate_percent: rate,
                margin_scheme: false,
                split: TaxSplit::of_inclusive(amount, rate, supply),
            })
            .collect();
        for row in &goods {
            settle_rounding(&mut lines, row);
        }
        // A rate has a row when a product carries it, or a delivery charge is paid at it; the
        // margins of a rate have a row of their own, the sum of their lines.
        let mut rows: BTreeMap<(u8, bool), TaxSplit> =
            goods.into_iter().map(|row| ((row.rate_percent, false), row.split)).collect();
        for l in &lines {
            if l.margin.is_some() {
                let at_rate = rows.entry((l.rate_percent, true)).or_default();
                *at_rate = *at_rate + l.tax;
            } else if l.kind == InvoiceLineKind::Delivery && l.amount != Money::ZERO {
                let at_rate = rows.entry((l.rate_percent, false)).or_default();
                *at_rate = *at_rate + l.tax;
            }
        }
        let tax: Vec<TaxRow> = rows
            .into_iter()
            .map(|((rate_percent, margin_scheme), split)| TaxRow { rate_percent, margin_scheme, split })
            .collect();
        Self { number: input.number, supply, lines, tax, total: totals.total }
    }

    /// Of the total, what lies outside the value of supply of the margin-scheme lines (their
    /// purchase prices, less the discount's share of them). Zero without such a line.
    #[must_use]
    pub fn outside(&self) -> Money {
        self.lines.iter().map(InvoiceLine::outside).sum()
    }

    /// Whether a line is sold under the margin scheme (the document then prints
    /// [`MARGIN_SCHEME_FOOTNOTE`]).
    #[must_use]
    pub fn has_margin_scheme(&self) -> bool {
        self.lines.iter().any(|l| l.margin.is_some())
    }
}

/// What shares the order's discount: the products of a GST rate, or one margin-scheme line (by
/// its position among the order's lines). Rates come first on a tie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Share {
    Rate(u8),
    MarginLine(usize),
}

impl Share {
    fn rate(self) -> Option<u8> {
        match self {
            Share::Rate(rate) => Some(rate),
            Share::MarginLine(_) => None,
        }
    }
}

/// A margin (rule 32(5)): what `received` leaves over `purchase`, ignored (zero) when negative.
fn margin_of(received: Money, purchase: Money) -> Money {
    (received - purchase).max(Money::ZERO)
}

/// The discount line of `key` for `amount` (zero or below). A rate's is split as any amount is;
/// a margin-scheme line's lowers that line's margin to what its discounted price leaves over the
/// purchase price, so the product and its discount line together carry the tax on that margin.
fn discount_line(
    input: &InvoiceInput<'_>,
    lines: &[InvoiceLine],
    key: Share,
    description: String,
    amount: Money,
    supply: Supply,
) -> InvoiceLine {
    let mut discount = InvoiceLine {
        kind: InvoiceLineKind::Discount,
        description,
        unit_price: amount,
        quantity: 1,
        amount,
        hsn: None,
        rate_percent: DELIVERY_GST_PERCENT,
        tax: TaxSplit::default(),
        margin: None,
    };
    match key {
        Share::Rate(rate) => {
            discount.rate_percent = rate;
            discount.tax = TaxSplit::of_inclusive(amount, rate, supply);
        }
        Share::MarginLine(i) => {
            let (order_line, product) = (&input.lines[i], &lines[i]);
            let purchase =
                order_line.margin_scheme.map_or(Money::ZERO, |m| m.purchase_price.times(order_line.quantity.get()));
            let margin = margin_of(product.amount, purchase);
            let discounted = margin_of(product.amount + amount, purchase);
            discount.rate_percent = product.rate_percent;
            discount.tax = TaxSplit::of_inclusive(discounted, product.rate_percent, supply) - product.tax;
            discount.margin = Some(MarginPart { outside: amount - (discounted - margin), product: i });
        }
    }
    discount
}

/// Moves the difference between `row` (a rate's goods) and the sum of the
/// goods lines of its rate onto the one of them with the largest amount (the
/// first of equals). Both sides add up to the same inclusive amount, so that
/// line's parts still add up to its amount.
fn settle_rounding(lines: &mut [InvoiceLine], row: &TaxRow) {
    let at_rate = |l: &&mut InvoiceLine| {
        l.rate_percent == row.rate_percent && l.kind != InvoiceLineKind::Delivery && l.margin.is_none()
    };
    let lines_sum: TaxSplit = lines.iter_mut().filter(at_rate).map(|l| l.tax).sum();
    let left_over = row.split - lines_sum;
    let largest = lines.iter_mut().filter(at_rate).rev().max_by_key(|l| l.amount.paise().unsigned_abs());
    if let Some(line) = largest {
        line.tax = line.tax + left_over;
    }
}

/// Splits `discount` over the rates (and margin-scheme lines) in proportion to their amounts, in
/// whole paise that add up to `discount` exactly (largest remainder method).
fn share_out<K: Ord + Copy>(discount: Money, amounts: &BTreeMap<K, Money>) -> BTreeMap<K, Money> {
    let whole: i128 = amounts.values().map(|m| i128::from(m.paise())).sum();
    let d = i128::from(discount.paise());
    if whole <= 0 || d <= 0 {
        return BTreeMap::new();
    }
    let mut parts: Vec<(K, i128, i128)> = amounts
        .iter()
        .map(|(rate, m)| {
            let exact = d * i128::from(m.paise());
            (*rate, exact / whole, exact % whole)
        })
        .collect();
    let mut left = d - parts.iter().map(|p| p.1).sum::<i128>();
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by(|a, b| parts[*b].2.cmp(&parts[*a].2).then(parts[*a].0.cmp(&parts[*b].0)));
    for i in order {
        if left == 0 {
            break;
        }
        parts[i].1 += 1;
        left -= 1;
    }
    parts
        .into_iter()
        .map(|(rate, share, _)| (rate, Money::from_paise(i64::try_from(share).unwrap_or(i64::MAX))))
        .collect()
}

#[cfg(test)]
#[expect(clippy::inconsistent_digit_grouping, reason = "paise written as rupees_paise, e.g. 2_499_50 is ₹2,499.50")]
mod tests {
    use super::*;
    use crate::invoice::FinancialYear;
    use proptest::prelude::*;

    fn line(name: &str, price: i64, qty: u32, gst: u8) -> OrderLine {
        OrderLine::sample(name, price, qty, gst)
    }

    fn number() -> InvoiceNumber {
        InvoiceNumber::new(FinancialYear::starting(2026), 42).expect("valid")
    }

    fn build(lines: &[OrderLine], pct: u32, delivery: i64, to: &str) -> Invoice {
        Invoice::build(&InvoiceInput {
            number: number(),
            lines,
            discount: DiscountPercent::new(pct).expect("ok"),
            delivery_charge: Money::from_paise(delivery),
            seller_state: "Delhi",
            delivery_state: to,
        })
    }

    fn tax_total(invoice: &Invoice) -> Money {
        invoice.tax.iter().map(|r| r.split.inclusive()).sum()
    }

    #[test]
    fn lines_as_the_specification_lists_them() {
        let inv = build(&[line("Brake Pad Set", 1_180_00, 2, 18)], 10, 236_00, "Delhi");
        let described: Vec<_> = inv.lines.iter().map(|l| (l.description.as_str(), l.quantity, l.amount)).collect();
        assert_eq!(
            described,
            vec![
                ("Brake Pad Set (18% GST)", 2, Money::from_rupees(2360)),
                ("Delivery Charge (18% inc. GST)", 1, Money::from_rupees(236)),
                ("Discount (10%)", 1, Money::from_rupees(-236)),
            ]
        );
        assert_eq!(inv.total, Money::from_rupees(2360));
        assert_eq!(inv.supply, Supply::IntraState);
        // All at 18%: ₹2,360 − ₹236 + ₹236 = ₹2,360 → taxable ₹2,000, CGST = SGST = ₹180.
        assert_eq!(inv.tax.len(), 1);
        let s = inv.tax[0].split;
        assert_eq!(
            (s.taxable, s.cgst, s.sgst, s.igst),
            (Money::from_rupees(2000), Money::from_rupees(180), Money::from_rupees(180), Money::ZERO)
        );
        assert_eq!(serde_json::to_value(&inv).expect("ser")["number"], "MQ/26-27/000042");
    }

    #[test]
    fn another_state_pays_igst() {
        let inv = build(&[line("Mirror", 1_180_00, 1, 18)], 0, 0, "Haryana");
        assert_eq!(inv.supply, Supply::InterState);
        assert_eq!((inv.tax[0].split.igst, inv.tax[0].split.cgst), (Money::from_rupees(180), Money::ZERO));
    }

    #[test]
    fn the_discount_is_shared_between_rates() {
        // ₹3,000 at 18% and ₹1,000 at 28%; 10% off is ₹400: ₹300 and ₹100.
        let inv = build(&[line("a", 3_000_00, 1, 18), line("b", 1_000_00, 1, 28)], 10, 0, "Delhi");
        let nets: Vec<_> = inv.tax.iter().map(|r| (r.rate_percent, r.split.inclusive())).collect();
        assert_eq!(nets, vec![(18, Money::from_rupees(2700)), (28, Money::from_rupees(900))]);
        assert_eq!(tax_total(&inv), inv.total);
    }

    #[test]
    fn each_line_carries_its_code_rate_and_tax() {
        let mut lines = [line("Brake Pad Set", 1_180_00, 2, 18), line("Wiper Blade", 1_280_00, 1, 28)];
        lines[1].hsn = Some(HsnCode::parse("851240").expect("valid"));
        let inv = build(&lines, 10, 118_00, "Delhi");
        let printed: Vec<_> = inv
            .lines
            .iter()
            .map(|l| (l.description.as_str(), l.hsn.as_ref().map(HsnCode::as_str), l.rate_percent, l.amount))
            .collect();
        // 10% of ₹3,640 is ₹364: ₹236 on the ₹2,360 at 18%, ₹128 on the ₹1,280 at 28%.
        assert_eq!(
            printed,
            vec![
                ("Brake Pad Set (18% GST)", Some("8708"), 18, Money::from_rupees(2360)),
                ("Wiper Blade (28% GST)", Some("851240"), 28, Money::from_rupees(1280)),
                ("Delivery Charge (18% inc. GST)", Some("9965"), 18, Money::from_rupees(118)),
                ("Discount (10%) on 18% GST items", None, 18, Money::from_rupees(-236)),
                ("Discount (10%) on 28% GST items", None, 28, Money::from_rupees(-128)),
            ]
        );
        let brake = inv.lines[0].tax;
        assert_eq!(
            (brake.taxable, brake.cgst, brake.sgst, brake.igst),
            (Money::from_rupees(2000), Money::from_rupees(180), Money::from_rupees(180), Money::ZERO)
        );
        let discount_28 = inv.lines[4].tax;
        assert_eq!((discount_28.taxable, discount_28.tax()), (Money::from_rupees(-100), Money::from_rupees(-28)));
    }

    #[test]
    fn rounding_left_between_lines_and_row_goes_to_the_largest_line() {
        // Three ₹1 lines at 18%: each 84.75 paise taxable → 85 (255 in all); the row of ₹3
        // is 254.24 → 254, so the first of the equal lines gives a paisa back.
        let inv = build(&[line("a", 1_00, 1, 18), line("b", 1_00, 1, 18), line("c", 1_00, 1, 18)], 0, 0, "Kerala");
        let taxable: Vec<i64> = inv.lines.iter().map(|l| l.tax.taxable.paise()).collect();
        assert_eq!(taxable, vec![84, 85, 85, 0, 0]);
        assert_eq!(inv.tax[0].split.taxable, Money::from_paise(254));
        assert_eq!(inv.lines[0].tax.inclusive(), inv.lines[0].amount);
    }

    #[test]
    fn shares_add_up_and_odd_paise_go_to_the_largest_remainders() {
        let amounts: BTreeMap<u8, Money> =
            [(5, Money::from_paise(1)), (12, Money::from_paise(1)), (18, Money::from_paise(1))].into();
        let shares = share_out(Money::from_paise(2), &amounts);
        assert_eq!(shares.values().copied().sum::<Money>(), Money::from_paise(2));
        assert_eq!(shares[&5], Money::from_paise(1), "ties: lower rate first");
        assert_eq!(shares[&18], Money::ZERO);
    }

    fn used(name: &str, price: i64, qty: u32, gst: u8, purchase: i64) -> OrderLine {
        OrderLine::sample(name, price, qty, gst).under_margin_scheme(purchase)
    }

    #[test]
    fn a_margin_scheme_line_is_taxed_on_its_margin() {
        // A used door mirror sold for ₹11,800, bought for ₹10,000: the margin is ₹1,800, of
        // which 18% GST is ₹274.58 (taxable ₹1,525.42); ₹10,000 lies outside the margin.
        let inv = build(&[used("Door Mirror", 11_800_00, 1, 18, 10_000_00)], 0, 0, "Delhi");
        let l = &inv.lines[0];
        assert_eq!(l.description, "Door Mirror (18% GST on the margin)");
        assert_eq!((l.amount, l.unit_price, l.quantity), (Money::from_rupees(11_800), Money::from_rupees(11_800), 1));
        assert_eq!(
            (l.tax.taxable, l.tax.cgst, l.tax.sgst, l.tax.igst),
            (Money::from_paise(1_525_42), Money::from_paise(137_29), Money::from_paise(137_29), Money::ZERO)
        );
        assert_eq!(l.outside(), Money::from_rupees(10_000));
        assert_eq!(l.tax.inclusive() + l.outside(), l.amount);
        assert_eq!(inv.total, Money::from_rupees(11_800), "the total is what was paid");
        assert_eq!(inv.outside(), Money::from_rupees(10_000));
        assert!(inv.has_margin_scheme());
        let rows: Vec<_> = inv.tax.iter().map(|r| (r.rate_percent, r.margin_scheme, r.split.tax())).collect();
        assert_eq!(rows, vec![(18, true, Money::from_paise(274_58))]);
    }

    #[test]
    fn a_margin_below_zero_is_ignored() {
        // Sold for ₹5,000, bought for ₹6,000: no value of supply, no tax.
        let inv = build(&[used("Headlamp", 5_000_00, 2, 28, 6_000_00)], 0, 0, "Kerala");
        let l = &inv.lines[0];
        assert_eq!((l.tax, l.outside(), l.amount), (TaxSplit::default(), Money::from_rupees(10_000), l.amount));
        assert_eq!(inv.tax[0].split, TaxSplit::default());
        assert_eq!(inv.total, Money::from_rupees(10_000));
    }

    #[test]
    fn a_mixed_invoice_shares_the_discount_and_each_margin_line_has_its_own() {
        // A new pad set ₹2,360 at 18% and a used calliper ₹3,540 (bought for ₹2,500) at 18%,
        // 10% off: ₹590 shared by value, ₹236 and ₹354.
        let lines = [line("Brake Pad Set", 2_360_00, 1, 18), used("Calliper", 3_540_00, 1, 18, 2_500_00)];
        let inv = build(&lines, 10, 0, "Delhi");
        let described: Vec<_> = inv.lines.iter().map(|l| (l.description.as_str(), l.amount, l.outside())).collect();
        assert_eq!(
            described,
            vec![
                ("Brake Pad Set (18% GST)", Money::from_rupees(2_360), Money::ZERO),
                ("Calliper (18% GST on the margin)", Money::from_rupees(3_540), Money::from_rupees(2_500)),
                ("Delivery Charge (18% inc. GST)", Money::ZERO, Money::ZERO),
                ("Discount (10%) on 18% GST items", Money::from_rupees(-236), Money::ZERO),
                ("Discount (10%) on Calliper", Money::from_rupees(-354), Money::ZERO),
            ]
        );
        // The calliper's margin was ₹1,040; the discount leaves ₹686 (₹3,186 − ₹2,500), all of
        // the discount taken from the margin.
        let calliper = inv.lines[1].tax + inv.lines[4].tax;
        assert_eq!(calliper.inclusive(), Money::from_rupees(686));
        assert_eq!(calliper, TaxSplit::of_inclusive(Money::from_rupees(686), 18, Supply::IntraState));
        let rows: Vec<_> = inv.tax.iter().map(|r| (r.rate_percent, r.margin_scheme, r.split.inclusive())).collect();
        assert_eq!(rows, vec![(18, false, Money::from_rupees(2_124)), (18, true, Money::from_rupees(686))]);
        assert_eq!(inv.total, Money::from_rupees(5_310));
        assert_eq!(tax_total(&inv) + inv.outside(), inv.total);
    }

    #[test]
    fn a_discount_that_takes_the_margin_leaves_no_tax_and_takes_the_rest_from_outside() {
        // ₹1,000 bought for ₹900, 50% off: ₹500 received, below the purchase price.
        let inv = build(&[used("Grille", 1_000_00, 1, 18, 900_00)], 50, 0, "Delhi");
        let discount = inv.lines.iter().find(|l| l.kind == InvoiceLineKind::Discount).expect("a discount line");
        assert_eq!(discount.description, "Discount (50%)");
        assert_eq!((inv.lines[0].tax + discount.tax).inclusive(), Money::ZERO);
        assert_eq!(inv.lines[0].outside() + discount.outside(), Money::from_rupees(500));
        assert_eq!(inv.total, Money::from_rupees(500));
    }

    /// An order line for the properties: price, units, rate and, under the margin scheme, the
    /// purchase price of a unit.
    type Drawn = (i64, u32, u8, Option<i64>);

    fn drawn_line() -> impl Strategy<Value = Drawn> {
        (
            1_i64..5_000_000,
            1_u32..5,
            proptest::sample::select(vec![0_u8, 5, 12, 18, 28]),
            proptest::option::of(1_i64..6_000_000),
        )
    }

    fn order_lines(drawn: &[Drawn]) -> Vec<OrderLine> {
        drawn
            .iter()
            .map(|(p, q, g, purchase)| {
                let l = line("x", *p, *q, *g);
                match purchase {
                    Some(bought) => l.under_margin_scheme(*bought),
                    None => l,
                }
            })
            .collect()
    }

    proptest! {
        #[test]
        fn margin_scheme_tax_is_never_negative_nor_above_the_margin(
            drawn in proptest::collection::vec(drawn_line(), 1..6),
            pct in 0_u32..=100,
            same_state in any::<bool>(),
        ) {
            let lines = order_lines(&drawn);
            let inv = build(&lines, pct, 0, if same_state { "Delhi" } else { "Kerala" });
            for (i, order_line) in lines.iter().enumerate() {
                let Some(scheme) = order_line.margin_scheme else { continue };
                let product = &inv.lines[i];
                let discount: Vec<&InvoiceLine> = inv.lines.iter()
                    .filter(|l| l.kind == InvoiceLineKind::Discount && l.margin.map(|m| m.product) == Some(i))
                    .collect();
                prop_assert!(discount.len() <= 1);
                let taken: Money = discount.iter().map(|l| l.amount).sum();
                let net = discount.iter().fold(product.tax, |sum, l| sum + l.tax);
                let purchase = scheme.purchase_price.times(order_line.quantity.get());
                let margin = (product.amount + taken - purchase).max(Money::ZERO);
                // Rule 32(5): the value of supply is the margin of what was received, never below
                // zero, and the tax is taken out of it as out of any inclusive amount.
                prop_assert_eq!(net, TaxSplit::of_inclusive(margin, order_line.gst, inv.supply));
                prop_assert_eq!(product.tax, TaxSplit::of_inclusive((product.amount - purchase).max(Money::ZERO), order_line.gst, inv.supply));
                for split in [product.tax, net] {
                    for part in [split.taxable, split.cgst, split.sgst, split.igst] {
                        prop_assert!(part >= Money::ZERO, "{:?}", split);
                    }
                }
                prop_assert!(net.tax() <= TaxSplit::of_inclusive(product.amount + taken, order_line.gst, inv.supply).tax());
                prop_assert!(product.outside() + discount.iter().map(|l| l.outside()).sum::<Money>() >= Money::ZERO);
            }
            for row in inv.tax.iter().filter(|r| r.margin_scheme) {
                prop_assert!(row.split.taxable >= Money::ZERO && row.split.tax() >= Money::ZERO);
            }
        }

        #[test]
        fn mixed_invoices_are_right_line_by_line_and_add_up_to_the_total(
            drawn in proptest::collection::vec(drawn_line(), 1..6),
            pct in 0_u32..=100,
            delivery in 0_i64..100_000,
            same_state in any::<bool>(),
        ) {
            let lines = order_lines(&drawn);
            let inv = build(&lines, pct, delivery, if same_state { "Delhi" } else { "Kerala" });
            prop_assert_eq!(inv.total, stored_order_totals(&lines, DiscountPercent::new(pct).expect("ok"), Money::from_paise(delivery)).total);
            prop_assert_eq!(inv.lines.iter().map(|l| l.amount).sum::<Money>(), inv.total);
            prop_assert_eq!(tax_total(&inv) + inv.outside(), inv.total);
            for l in &inv.lines {
                prop_assert_eq!(l.tax.inclusive() + l.outside(), l.amount);
                match inv.supply {
                    Supply::IntraState => prop_assert_eq!(l.tax.igst, Money::ZERO),
                    Supply::InterState => prop_assert_eq!((l.tax.cgst, l.tax.sgst), (Money::ZERO, Money::ZERO)),
                }
            }
            for row in &inv.tax {
                prop_assert!(row.split.taxable >= Money::ZERO);
                let of_row: TaxSplit = inv.lines.iter()
                    .filter(|l| l.rate_percent == row.rate_percent && l.margin.is_some() == row.margin_scheme)
                    .map(|l| l.tax)
                    .sum();
                prop_assert_eq!(of_row, row.split, "lines of the {}% row (margin: {})", row.rate_percent, row.margin_scheme);
            }
            // Without a discount a line taxed on its value is taxed as if alone on the invoice.
            if pct == 0 {
                for (i, order_line) in lines.iter().enumerate().filter(|(_, l)| l.margin_scheme.is_none()) {
                    let alone = build(std::slice::from_ref(order_line), 0, 0, if same_state { "Delhi" } else { "Kerala" });
                    prop_assert_eq!(inv.lines[i].amount, alone.lines[0].amount);
                    prop_assert_eq!(inv.lines[i].margin, None);
                }
            }
        }

        #[test]
        fn tax_rows_add_up_to_the_total(
            lines in proptest::collection::vec((1_i64..5_000_000, 1_u32..5, proptest::sample::select(vec![0_u8, 5, 12, 18, 28])), 1..6),
            pct in 0_u32..=100,
            delivery in 0_i64..100_000,
            same_state in any::<bool>(),
        ) {
            let lines: Vec<_> = lines.into_iter().map(|(p, q, g)| line("x", p, q, g)).collect();
            let inv = build(&lines, pct, delivery, if same_state { "Delhi" } else { "Kerala" });
            prop_assert_eq!(tax_total(&inv), inv.total);
            prop_assert_eq!(inv.lines.iter().map(|l| l.amount).sum::<Money>(), inv.total);
            for row in &inv.tax {
                prop_assert!(row.split.taxable >= Money::ZERO);
                let at_rate: TaxSplit = inv.lines.iter().filter(|l| l.rate_percent == row.rate_percent).map(|l| l.tax).sum();
                prop_assert_eq!(at_rate, row.split, "lines at {}% against their row", row.rate_percent);
            }
            for l in &inv.lines {
                prop_assert_eq!(l.tax.inclusive(), l.amount);
                prop_assert!(inv.tax.iter().any(|row| row.rate_percent == l.rate_percent) || l.amount == Money::ZERO);
                match inv.supply {
                    Supply::IntraState => prop_assert_eq!(l.tax.igst, Money::ZERO),
                    Supply::InterState => prop_assert_eq!((l.tax.cgst, l.tax.sgst), (Money::ZERO, Money::ZERO)),
                }
            }
        }
    }
}
