//! What a tax invoice says: its lines and a tax summary per GST rate.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::gst::{HsnCode, Supply, TaxSplit, DELIVERY_GST_PERCENT};
use super::InvoiceNumber;
use crate::order::{stored_order_totals, OrderLine};
use crate::pricing::DiscountPercent;
use crate::Money;

/// The specification's label of the delivery charge line.
pub const DELIVERY_LINE_LABEL: &str = "18% inc. GST";

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
    /// `amount` taken apart. The lines at one rate add up to that rate's
    /// [`TaxRow`] exactly, part by part.
    pub tax: TaxSplit,
}

/// Taxable value and tax of everything sold at one GST rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaxRow {
    pub rate_percent: u8,
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

/// A GST tax invoice. The sum of the tax rows' taxable values and taxes is
/// `total` exactly, and `total` is the stored order's total.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invoice {
    pub number: InvoiceNumber,
    pub supply: Supply,
    /// Each product, then the delivery charge, then the discount (negative).
    pub lines: Vec<InvoiceLine>,
    /// One row per GST rate, lowest rate first.
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
            }
        };
        let mut lines: Vec<InvoiceLine> = input
            .lines
            .iter()
            .map(|l| {
                line(
                    InvoiceLineKind::Product,
                    format!("{} ({}% GST)", l.name, l.gst),
                    l.price,
                    l.quantity.get(),
                    Some(l.hsn.clone().unwrap_or_else(HsnCode::parts)),
                    l.gst,
                )
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

        let mut per_rate: BTreeMap<u8, Money> = BTreeMap::new();
        for l in input.lines {
            let at_rate = per_rate.entry(l.gst).or_default();
            *at_rate = *at_rate + l.amount();
        }
        let percent = input.discount.get();
        let shares: Vec<(u8, Money)> =
            share_out(totals.discount, &per_rate).into_iter().filter(|(_, share)| *share != Money::ZERO).collect();
        if shares.is_empty() {
            let rate = per_rate.keys().next().copied().unwrap_or(DELIVERY_GST_PERCENT);
            let no_discount = Money::ZERO - totals.discount;
            lines.push(line(InvoiceLineKind::Discount, format!("Discount ({percent}%)"), no_discount, 1, None, rate));
        }
        for (rate, share) in &shares {
            let description = if per_rate.len() == 1 {
                format!("Discount ({percent}%)")
            } else {
                format!("Discount ({percent}%) on {rate}% GST items")
            };
            lines.push(line(InvoiceLineKind::Discount, description, Money::ZERO - *share, 1, None, *rate));
        }

        // The goods of a rate (its products less its discount) are split as one amount, and the
        // lines of that rate settled to it; a delivery charge keeps its own split and joins its
        // rate's row. So a rate's goods never carry a part below zero however the rounding falls
        // (a discount of 100% leaves them nothing, part by part), and what a refund gives back
        // of them can be shared out without one (the credit note's rule).
        let mut goods: BTreeMap<u8, Money> = per_rate.keys().map(|rate| (*rate, Money::ZERO)).collect();
        for l in lines.iter().filter(|l| l.kind != InvoiceLineKind::Delivery) {
            let at_rate = goods.entry(l.rate_percent).or_default();
            *at_rate = *at_rate + l.amount;
        }
        let goods: Vec<TaxRow> = goods
            .into_iter()
            .map(|(rate, amount)| TaxRow { rate_percent: rate, split: TaxSplit::of_inclusive(amount, rate, supply) })
            .collect();
        for row in &goods {
            settle_rounding(&mut lines, row);
        }
        // A rate has a row when a product carries it, or a delivery charge is paid at it.
        let mut rows: BTreeMap<u8, TaxSplit> = goods.into_iter().map(|row| (row.rate_percent, row.split)).collect();
        for l in lines.iter().filter(|l| l.kind == InvoiceLineKind::Delivery && l.amount != Money::ZERO) {
            let at_rate = rows.entry(l.rate_percent).or_default();
            *at_rate = *at_rate + l.tax;
        }
        let tax: Vec<TaxRow> = rows.into_iter().map(|(rate_percent, split)| TaxRow { rate_percent, split }).collect();
        Self { number: input.number, supply, lines, tax, total: totals.total }
    }
}

/// Moves the difference between `row` (a rate's goods) and the sum of the
/// goods lines of its rate onto the one of them with the largest amount (the
/// first of equals). Both sides add up to the same inclusive amount, so that
/// line's parts still add up to its amount.
fn settle_rounding(lines: &mut [InvoiceLine], row: &TaxRow) {
    let at_rate = |l: &&mut InvoiceLine| l.rate_percent == row.rate_percent && l.kind != InvoiceLineKind::Delivery;
    let lines_sum: TaxSplit = lines.iter_mut().filter(at_rate).map(|l| l.tax).sum();
    let left_over = row.split - lines_sum;
    let largest = lines.iter_mut().filter(at_rate).rev().max_by_key(|l| l.amount.paise().unsigned_abs());
    if let Some(line) = largest {
        line.tax = line.tax + left_over;
    }
}

/// Splits `discount` over the rates in proportion to their amounts, in whole
/// paise that add up to `discount` exactly (largest remainder method).
fn share_out(discount: Money, amounts: &BTreeMap<u8, Money>) -> BTreeMap<u8, Money> {
    let whole: i128 = amounts.values().map(|m| i128::from(m.paise())).sum();
    let d = i128::from(discount.paise());
    if whole <= 0 || d <= 0 {
        return BTreeMap::new();
    }
    let mut parts: Vec<(u8, i128, i128)> = amounts
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

    proptest! {
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
