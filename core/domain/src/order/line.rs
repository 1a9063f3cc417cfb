//! The lines of a stored order and the total recomputed from them.

use serde::{Deserialize, Serialize};

use crate::cart::Quantity;
use crate::catalog::{MarginScheme, ProductId, WarrantyDays};
use crate::invoice::HsnCode;
use crate::pricing::{DiscountPercent, Totals};
use crate::Money;

/// One product of a stored order (the specification's `products` entry).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderLine {
    pub product_id: ProductId,
    pub name: String,
    pub quantity: Quantity,
    /// Unit price including GST, as paid.
    pub price: Money,
    /// GST rate in percent included in `price`.
    pub gst: u8,
    /// The product's HSN code when it is not 8708 (motor-vehicle parts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hsn: Option<HsnCode>,
    /// The GST margin scheme (CGST Rules, rule 32(5)) the unit was sold under: its purchase price
    /// as the product had it when the order was placed (the product may change later). None for a
    /// part taxed on its whole price, and for every order placed before issue 25. The purchase
    /// price is the back office's: no customer's answer or document prints it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin_scheme: Option<MarginScheme>,
    /// The product's warranty days (2–15) when the order was placed: the return window of the line
    /// (the product may change later). None for every order placed before issue 24's snapshot
    /// (migration 33): such a line's window uses the product's current value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warranty_days: Option<WarrantyDays>,
}

impl OrderLine {
    #[must_use]
    pub fn amount(&self) -> Money {
        self.price.times(self.quantity.get())
    }
}

#[cfg(test)]
impl OrderLine {
    /// A line for tests: `qty` units of `name` (also its id) at `price` paise and `gst` %, HSN 8708.
    pub(crate) fn sample(name: &str, price: i64, qty: u32, gst: u8) -> Self {
        Self {
            product_id: ProductId(name.into()),
            name: name.into(),
            quantity: Quantity::new(qty).expect("≥1"),
            price: Money::from_paise(price),
            gst,
            hsn: None,
            margin_scheme: None,
            warranty_days: None,
        }
    }

    /// The same line sold under the margin scheme, bought for `purchase` paise a unit.
    pub(crate) fn under_margin_scheme(mut self, purchase: i64) -> Self {
        self.margin_scheme = Some(MarginScheme::new(Money::from_paise(purchase)).expect("a purchase price"));
        self
    }
}

/// A stored order's totals: sum of price × quantity, minus the discount
/// (the order stores its percentage; the amount is the whole-rupee part, as
/// at checkout), plus the stored delivery charge.
#[must_use]
pub fn stored_order_totals(lines: &[OrderLine], discount: DiscountPercent, delivery_charge: Money) -> Totals {
    let items = lines.iter().map(OrderLine::amount).sum();
    Totals::from_parts(items, discount, delivery_charge)
}

#[cfg(test)]
#[expect(clippy::inconsistent_digit_grouping, reason = "paise written as rupees_paise, e.g. 2_499_50 is ₹2,499.50")]
mod tests {
    use super::*;

    #[test]
    fn the_stored_total_matches_checkout() {
        let line = |price, qty| OrderLine {
            product_id: ProductId("p".into()),
            name: "Brake pad".into(),
            quantity: Quantity::new(qty).expect("≥1"),
            price: Money::from_paise(price),
            gst: 18,
            hsn: None,
            margin_scheme: None,
            warranty_days: None,
        };
        let lines = [line(1_999_99, 2), line(500_00, 1)];
        let t = stored_order_totals(&lines, DiscountPercent::new(5).expect("ok"), Money::from_rupees(300));
        // ₹4,499.98 × 5% = ₹224.999 → ₹224.
        assert_eq!(t.items, Money::from_paise(4_499_98));
        assert_eq!(t.discount, Money::from_rupees(224));
        assert_eq!(t.total, Money::from_paise(4_575_98));
    }
}
