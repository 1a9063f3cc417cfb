//! Totals of a cart or an order as the review page and the payment show them.

use serde::{Deserialize, Serialize};

use super::{discount, DiscountPercent};
use crate::address::DeliveryRegion;
use crate::cart::Quantity;
use crate::Money;

/// What pricing needs of one line: its unit price (GST included), quantity and
/// the product's two delivery charges. Amounts are never negative.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PricedLine {
    pub unit_price: Money,
    pub quantity: Quantity,
    pub inside_ncr: Money,
    pub outside_ncr: Money,
}

impl PricedLine {
    /// Unit price × quantity.
    #[must_use]
    pub fn amount(&self) -> Money {
        self.unit_price.times(self.quantity.get())
    }

    /// The line's delivery charge in `region`: once per line, whatever the quantity.
    #[must_use]
    pub fn delivery(&self, region: DeliveryRegion) -> Money {
        match region {
            DeliveryRegion::Ncr => self.inside_ncr,
            DeliveryRegion::OutsideNcr => self.outside_ncr,
        }
    }
}

/// Sum of price × quantity over the lines.
#[must_use]
pub fn items_total(lines: &[PricedLine]) -> Money {
    lines.iter().map(PricedLine::amount).sum()
}

/// Sum over the lines of each line's `inside_ncr` or `outside_ncr`, by
/// region; not multiplied by quantity (docs/shop-rules.md). GST (18%) included.
#[must_use]
pub fn delivery_charge(lines: &[PricedLine], region: DeliveryRegion) -> Money {
    lines.iter().map(|l| l.delivery(region)).sum()
}

/// The four amounts the review page shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    pub items: Money,
    pub discount: Money,
    pub delivery: Money,
    /// items − discount + delivery.
    pub total: Money,
}

impl Totals {
    /// Totals of lines delivered to `region` with `percent` off (0 when no offer is active).
    #[must_use]
    pub fn of(lines: &[PricedLine], region: DeliveryRegion, percent: DiscountPercent) -> Self {
        Self::from_parts(items_total(lines), percent, delivery_charge(lines, region))
    }

    /// Totals from an items total, a discount percentage and a delivery charge:
    /// also how a stored order's total is recomputed.
    #[must_use]
    pub fn from_parts(items: Money, percent: DiscountPercent, delivery: Money) -> Self {
        let discount = discount(items, percent);
        Self { items, discount, delivery, total: items - discount + delivery }
    }
}

#[cfg(test)]
#[expect(clippy::inconsistent_digit_grouping, reason = "paise written as rupees_paise, e.g. 2_499_50 is ₹2,499.50")]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn line(price: i64, qty: u32, inside: i64, outside: i64) -> PricedLine {
        PricedLine {
            unit_price: Money::from_paise(price),
            quantity: Quantity::new(qty).expect("≥1"),
            inside_ncr: Money::from_paise(inside),
            outside_ncr: Money::from_paise(outside),
        }
    }

    fn pct(p: u32) -> DiscountPercent {
        DiscountPercent::new(p).expect("0..=100")
    }

    #[test]
    fn delivery_is_charged_per_line_not_per_unit() {
        let lines = [line(1_000_00, 3, 50_00, 150_00), line(2_499_50, 1, 0, 200_00)];
        assert_eq!(items_total(&lines), Money::from_paise(5_499_50));
        assert_eq!(delivery_charge(&lines, DeliveryRegion::Ncr), Money::from_rupees(50));
        assert_eq!(delivery_charge(&lines, DeliveryRegion::OutsideNcr), Money::from_rupees(350));
    }

    #[test]
    fn a_worked_example() {
        let lines = [line(1_000_00, 3, 50_00, 150_00), line(2_499_50, 1, 0, 200_00)];
        let t = Totals::of(&lines, DeliveryRegion::OutsideNcr, pct(10));
        // ₹5,499.50 × 10% = ₹549.95 → ₹549 off; ₹5,499.50 − ₹549 + ₹350.
        assert_eq!(t.discount, Money::from_rupees(549));
        assert_eq!(t.total, Money::from_paise(5_300_50));
        let none = Totals::of(&lines, DeliveryRegion::Ncr, DiscountPercent::ZERO);
        assert_eq!((none.discount, none.total), (Money::ZERO, Money::from_paise(5_549_50)));
        assert_eq!(Totals::of(&[], DeliveryRegion::Ncr, pct(50)).total, Money::ZERO);
    }

    fn lines() -> impl Strategy<Value = Vec<PricedLine>> {
        proptest::collection::vec(
            (0_i64..10_000_000, 1_u32..50, 0_i64..100_000, 0_i64..100_000).prop_map(|(p, q, i, o)| line(p, q, i, o)),
            0..20,
        )
    }

    fn region() -> impl Strategy<Value = DeliveryRegion> {
        prop_oneof![Just(DeliveryRegion::Ncr), Just(DeliveryRegion::OutsideNcr)]
    }

    proptest! {
        #[test]
        fn totals_are_never_negative_and_add_up(lines in lines(), region in region(), p in 0_u32..=100) {
            let t = Totals::of(&lines, region, pct(p));
            prop_assert!(t.total >= Money::ZERO);
            prop_assert_eq!(t.total, t.items - t.discount + t.delivery);
            prop_assert!(t.discount <= t.items);
            prop_assert_eq!(t.delivery, lines.iter().map(|l| l.delivery(region)).sum::<Money>());
        }

        #[test]
        fn quantity_never_changes_the_delivery_charge(mut lines in lines(), region in region(), q in 1_u32..100) {
            let before = delivery_charge(&lines, region);
            for l in &mut lines { l.quantity = Quantity::new(q).expect("≥1"); }
            prop_assert_eq!(delivery_charge(&lines, region), before);
        }
    }
}
