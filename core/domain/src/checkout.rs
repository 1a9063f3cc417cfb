//! Continuing from the address step to review and pay: what must hold first.

use serde::{Deserialize, Serialize};

use crate::address::{Address, DeliveryRegion};
use crate::cart::Quantity;
use crate::catalog::{MarginScheme, Product, ProductId, WarrantyDays};
use crate::message::{user_facing_error, Message, UserFacing};
use crate::pricing::{Offer, PricedLine, Totals};
use crate::Money;

/// A product as freshly reloaded from the store for checkout, with the
/// quantity chosen (the specification's checkout item).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckoutLine {
    pub product_id: ProductId,
    pub name: String,
    /// Unit price including GST.
    pub unit_price: Money,
    pub quantity: Quantity,
    /// Units in stock when reloaded.
    pub stock: u32,
    pub inside_ncr: Money,
    pub outside_ncr: Money,
    pub gst_percent: u8,
    /// The product's GST margin scheme when reloaded, which the order line keeps (its invoice
    /// line is taxed on the margin over this purchase price).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin_scheme: Option<MarginScheme>,
    /// The product's warranty days when reloaded, which the order line keeps (its return window).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warranty_days: Option<WarrantyDays>,
}

impl CheckoutLine {
    #[must_use]
    pub fn from_product(product: &Product, quantity: Quantity) -> Self {
        Self {
            product_id: product.id.clone(),
            name: product.name.clone(),
            unit_price: product.price,
            quantity,
            stock: product.quantity,
            inside_ncr: product.inside_ncr,
            outside_ncr: product.outside_ncr,
            gst_percent: product.gst_percent,
            margin_scheme: product.details.margin_scheme,
            warranty_days: Some(product.details.warranty_days),
        }
    }

    #[must_use]
    pub fn in_stock(&self) -> bool {
        self.quantity.get() <= self.stock
    }

    #[must_use]
    pub fn priced(&self) -> PricedLine {
        PricedLine {
            unit_price: self.unit_price,
            quantity: self.quantity,
            inside_ncr: self.inside_ncr,
            outside_ncr: self.outside_ncr,
        }
    }
}

/// Why checkout cannot continue, checked in this order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckoutError {
    AddressMissing,
    CartEmpty,
    /// The first line whose quantity is above its stock.
    OutOfStock {
        product: ProductId,
    },
}

impl UserFacing for CheckoutError {
    fn message(&self) -> Message {
        match self {
            CheckoutError::AddressMissing => Message::CheckoutAddressMissing,
            CheckoutError::CartEmpty => Message::CheckoutCartEmpty,
            CheckoutError::OutOfStock { .. } => Message::CheckoutOutOfStock,
        }
    }
}
user_facing_error!(CheckoutError);

/// How much one order may hold, so that one account cannot hold a product's whole stock (shop
/// rules, "Orders"): units of one product, and different products.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrderLimits {
    /// Most units of one product in an order.
    pub units_per_line: u32,
    /// Most different products in an order.
    pub lines_per_order: usize,
}

impl OrderLimits {
    /// The shop's defaults: 10 units of a part, 20 different parts.
    pub const DEFAULT: OrderLimits = OrderLimits { units_per_line: 10, lines_per_order: 20 };

    /// Checks an order's lines (one per product, quantities merged).
    ///
    /// # Errors
    /// [`OrderLimitError::TooManyLines`] when there are more lines than allowed, else
    /// [`OrderLimitError::TooManyUnits`] naming the first line above its limit.
    pub fn check(&self, lines: &[(ProductId, Quantity)]) -> Result<(), OrderLimitError> {
        if lines.len() > self.lines_per_order {
            return Err(OrderLimitError::TooManyLines { limit: self.lines_per_order });
        }
        match lines.iter().find(|(_, q)| q.get() > self.units_per_line) {
            Some((product, _)) => {
                Err(OrderLimitError::TooManyUnits { product: product.clone(), limit: self.units_per_line })
            }
            None => Ok(()),
        }
    }
}

impl Default for OrderLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// An order above [`OrderLimits`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderLimitError {
    /// A line asks for more than `limit` units of `product`.
    TooManyUnits { product: ProductId, limit: u32 },
    /// The order has more than `limit` lines.
    TooManyLines { limit: usize },
}

impl UserFacing for OrderLimitError {
    fn message(&self) -> Message {
        match self {
            OrderLimitError::TooManyUnits { .. } => Message::CheckoutTooManyUnits,
            OrderLimitError::TooManyLines { .. } => Message::CheckoutTooManyLines,
        }
    }
}
user_facing_error!(OrderLimitError);

/// The CHECKOUT button's rule: an empty cart cannot check out.
///
/// # Errors
/// [`CheckoutError::CartEmpty`] when `lines` is empty.
pub fn check_cart_not_empty<T>(lines: &[T]) -> Result<(), CheckoutError> {
    if lines.is_empty() {
        Err(CheckoutError::CartEmpty)
    } else {
        Ok(())
    }
}

/// An order ready for review and payment: an address is chosen, there is at
/// least one line, and every quantity is within stock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkout {
    address: Address,
    lines: Vec<CheckoutLine>,
}

impl Checkout {
    /// `lines` are either the one direct-purchase product or the cart's
    /// lines, reloaded from the store.
    ///
    /// # Errors
    /// [`CheckoutError::AddressMissing`], then [`CheckoutError::CartEmpty`],
    /// then [`CheckoutError::OutOfStock`] for the first line above its stock.
    pub fn new(address: Option<Address>, lines: Vec<CheckoutLine>) -> Result<Self, CheckoutError> {
        let address = address.ok_or(CheckoutError::AddressMissing)?;
        check_cart_not_empty(&lines)?;
        if let Some(line) = lines.iter().find(|l| !l.in_stock()) {
            return Err(CheckoutError::OutOfStock { product: line.product_id.clone() });
        }
        Ok(Self { address, lines })
    }

    #[must_use]
    pub fn address(&self) -> &Address {
        &self.address
    }

    #[must_use]
    pub fn lines(&self) -> &[CheckoutLine] {
        &self.lines
    }

    #[must_use]
    pub fn region(&self) -> DeliveryRegion {
        self.address.delivery_region()
    }

    /// Items total, discount (when the offer is active), delivery and total payable.
    #[must_use]
    pub fn totals(&self, offer: &Offer) -> Totals {
        let priced: Vec<PricedLine> = self.lines.iter().map(CheckoutLine::priced).collect();
        Totals::of(&priced, self.region(), offer.percent_now())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::AddressInput;
    use crate::pricing::DiscountPercent;

    fn address(pincode: &str) -> Address {
        Address::parse(&AddressInput {
            house_no: "1".into(),
            city: "Gurugram".into(),
            state: "Haryana".into(),
            mobile_no: "9876543210".into(),
            pincode: pincode.into(),
            ..AddressInput::default()
        })
        .expect("valid")
    }

    fn line(id: &str, quantity: u32, stock: u32) -> CheckoutLine {
        CheckoutLine {
            product_id: ProductId(id.into()),
            name: id.into(),
            unit_price: Money::from_rupees(1000),
            quantity: Quantity::new(quantity).expect("≥1"),
            stock,
            inside_ncr: Money::from_rupees(100),
            outside_ncr: Money::from_rupees(250),
            gst_percent: 18,
            margin_scheme: None,
            warranty_days: None,
        }
    }

    #[test]
    fn each_precondition_has_its_message_in_order() {
        let e = Checkout::new(None, vec![]).expect_err("nothing");
        assert_eq!(
            (e.code(), e.to_string().as_str()),
            ("checkout.address_missing", "Please select address for further process")
        );
        let e = Checkout::new(Some(address("122001")), vec![]).expect_err("empty");
        assert_eq!((e.code(), e.to_string().as_str()), ("checkout.cart_empty", "please! add product to cart."));
        let e = Checkout::new(Some(address("122001")), vec![line("a", 1, 1), line("b", 3, 2)]).expect_err("stock");
        assert_eq!(e, CheckoutError::OutOfStock { product: ProductId("b".into()) });
        assert_eq!(e.to_string(), "please order products which are in stock");
        assert_eq!(check_cart_not_empty::<CheckoutLine>(&[]), Err(CheckoutError::CartEmpty));
    }

    #[test]
    fn quantity_equal_to_stock_is_fine_and_zero_stock_is_not() {
        assert!(Checkout::new(Some(address("122001")), vec![line("a", 2, 2)]).is_ok());
        assert!(Checkout::new(Some(address("122001")), vec![line("a", 1, 0)]).is_err());
    }

    #[test]
    fn totals_follow_the_address_region_and_the_offer() {
        let lines = vec![line("a", 2, 5), line("b", 1, 5)];
        let ncr = Checkout::new(Some(address("122001")), lines.clone()).expect("ok");
        let offer = Offer { offer_exp: 1, percentage: DiscountPercent::new(10).expect("ok") };
        let t = ncr.totals(&offer);
        assert_eq!(
            (t.items, t.discount, t.delivery, t.total),
            (Money::from_rupees(3000), Money::from_rupees(300), Money::from_rupees(200), Money::from_rupees(2900))
        );
        let far = Checkout::new(Some(address("560001")), lines).expect("ok");
        assert_eq!(far.totals(&Offer::NONE).total, Money::from_rupees(3500));
    }

    #[test]
    fn order_limits_count_lines_then_units() {
        let limits = OrderLimits { units_per_line: 3, lines_per_order: 2 };
        let line = |p: &str, q: u32| (ProductId(p.into()), Quantity::new(q).expect("≥ 1"));
        assert_eq!(limits.check(&[line("a", 3), line("b", 1)]), Ok(()));
        assert_eq!(
            limits.check(&[line("a", 1), line("b", 4)]),
            Err(OrderLimitError::TooManyUnits { product: ProductId("b".into()), limit: 3 })
        );
        assert_eq!(
            limits.check(&[line("a", 9), line("b", 1), line("c", 1)]),
            Err(OrderLimitError::TooManyLines { limit: 2 })
        );
        assert_eq!(OrderLimitError::TooManyLines { limit: 2 }.message(), Message::CheckoutTooManyLines);
        assert_eq!(OrderLimits::default(), OrderLimits::DEFAULT);
    }
}
