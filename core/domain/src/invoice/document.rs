//! What a tax invoice says: its lines and a tax summary per GST rate.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::gst::{Supply, TaxSplit, DELIVERY_GST_PERCENT};
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

/// One line as printed: description, unit price, quantity and amount, GST included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvoiceLine {
    pub kind: InvoiceLineKind,
    pub description: String,
    pub unit_price: Money,
    pub quantity: u32,
    /// unit price × quantity; negative on the discount line.
    pub amount: Money,
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
    /// lower rate first on a tie). Delivery is taxed at 18% and not discounted.
    #[must_use]
    pub fn build(input: &InvoiceInput<'_>) -> Self {
        let totals = stored_order_totals(input.lines, input.discount, input.delivery_charge);
        let mut lines: Vec<InvoiceLine> = input
            .lines
            .iter()
            .map(|l| InvoiceLine {
                kind: InvoiceLineKind::Product,
                description: format!("{} ({}% GST)", l.name, l.gst),
                unit_price: l.price,
                quantity: l.quantity.get(),
                amount: l.amount(),
            })
            .collect();
        lines.push(InvoiceLine {
            kind: InvoiceLineKind::Delivery,
            description: format!("Delivery Charge ({DELIVERY_LINE_LABEL})"),
            unit_price: totals.delivery,
            quantity: 1,
            amount: totals.delivery,
        });
        lines.push(InvoiceLine {
            kind: InvoiceLineKind::Discount,
            description: format!("Discount ({}%)", input.discount.get()),
            unit_price: Money::ZERO - totals.discount,
            quantity: 1,
            amount: Money::ZERO - totals.discount,
        });

        let mut per_rate: BTreeMap<u8, Money> = BTreeMap::new();
        for l in input.lines {
            let at_rate = per_rate.entry(l.gst).or_default();
            *at_rate = *at_rate + l.amount();
        }
        let shares = share_out(totals.discount, &per_rate);
        let mut net: BTreeMap<u8, Money> = per_rate
            .iter()
            .map(|(rate, amount)| {
                (
                    *rate,
                    *amount - shares.get(rate).copied().unwrap_or_default(),
                )
            })
            .collect();
        if totals.delivery != Money::ZERO {
            let at_18 = net.get(&DELIVERY_GST_PERCENT).copied().unwrap_or_default();
            net.insert(DELIVERY_GST_PERCENT, at_18 + totals.delivery);
        }
        let supply = Supply::between(input.seller_state, input.delivery_state);
        let tax = net
            .into_iter()
            .map(|(rate, amount)| TaxRow {
                rate_percent: rate,
                split: TaxSplit::of_inclusive(amount, rate, supply),
            })
            .collect();
        Self {
            number: input.number,
            supply,
            lines,
            tax,
            total: totals.total,
        }
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
    order.sort_by(|a, b| {
        parts[*b]
            .2
            .cmp(&parts[*a].2)
            .then(parts[*a].0.cmp(&parts[*b].0))
    });
    for i in order {
        if left == 0 {
            break;
        }
        parts[i].1 += 1;
        left -= 1;
    }
    parts
        .into_iter()
        .map(|(rate, share, _)| {
            (
                rate,
                Money::from_paise(i64::try_from(share).unwrap_or(i64::MAX)),
            )
        })
        .collect()
}

#[cfg(test)]
#[expect(
    clippy::inconsistent_digit_grouping,
    reason = "paise written as rupees_paise, e.g. 2_499_50 is ₹2,499.50"
)]
mod tests {
    use super::*;
    use crate::cart::Quantity;
    use crate::catalog::ProductId;
    use crate::invoice::FinancialYear;
    use proptest::prelude::*;

    fn line(name: &str, price: i64, qty: u32, gst: u8) -> OrderLine {
        OrderLine {
            product_id: ProductId(name.into()),
            name: name.into(),
            quantity: Quantity::new(qty).expect("≥1"),
            price: Money::from_paise(price),
            gst,
        }
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
        let inv = build(
            &[line("Brake Pad Set", 1_180_00, 2, 18)],
            10,
            236_00,
            "Delhi",
        );
        let described: Vec<_> = inv
            .lines
            .iter()
            .map(|l| (l.description.as_str(), l.quantity, l.amount))
            .collect();
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
            (
                Money::from_rupees(2000),
                Money::from_rupees(180),
                Money::from_rupees(180),
                Money::ZERO
            )
        );
        assert_eq!(
            serde_json::to_value(&inv).expect("ser")["number"],
            "MQ/26-27/000042"
        );
    }

    #[test]
    fn another_state_pays_igst() {
        let inv = build(&[line("Mirror", 1_180_00, 1, 18)], 0, 0, "Haryana");
        assert_eq!(inv.supply, Supply::InterState);
        assert_eq!(
            (inv.tax[0].split.igst, inv.tax[0].split.cgst),
            (Money::from_rupees(180), Money::ZERO)
        );
    }

    #[test]
    fn the_discount_is_shared_between_rates() {
        // ₹3,000 at 18% and ₹1,000 at 28%; 10% off is ₹400: ₹300 and ₹100.
        let inv = build(
            &[line("a", 3_000_00, 1, 18), line("b", 1_000_00, 1, 28)],
            10,
            0,
            "Delhi",
        );
        let nets: Vec<_> = inv
            .tax
            .iter()
            .map(|r| (r.rate_percent, r.split.inclusive()))
            .collect();
        assert_eq!(
            nets,
            vec![
                (18, Money::from_rupees(2700)),
                (28, Money::from_rupees(900))
            ]
        );
        assert_eq!(tax_total(&inv), inv.total);
    }

    #[test]
    fn shares_add_up_and_odd_paise_go_to_the_largest_remainders() {
        let amounts: BTreeMap<u8, Money> = [
            (5, Money::from_paise(1)),
            (12, Money::from_paise(1)),
            (18, Money::from_paise(1)),
        ]
        .into();
        let shares = share_out(Money::from_paise(2), &amounts);
        assert_eq!(
            shares.values().copied().sum::<Money>(),
            Money::from_paise(2)
        );
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
            }
        }
    }
}
