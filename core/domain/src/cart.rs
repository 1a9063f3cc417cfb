//! The cart: which products a shopper means to buy, and how many of each.

use std::num::NonZeroU32;

use serde::{Deserialize, Serialize};

use crate::catalog::ProductId;
use crate::message::{user_facing_error, Message, UserFacing};

/// How many units of a product a cart line or an order line holds: at least 1.
/// There is no upper bound here; stock is checked when continuing to payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct Quantity(NonZeroU32);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuantityError;

impl UserFacing for QuantityError {
    fn message(&self) -> Message {
        Message::CartQuantityInvalid
    }
}
user_facing_error!(QuantityError);

impl Quantity {
    pub const ONE: Quantity = Quantity(NonZeroU32::MIN);
    /// Buy now always buys one unit.
    pub const DIRECT_PURCHASE: Quantity = Quantity::ONE;

    /// # Errors
    /// [`QuantityError`] for 0.
    pub fn new(n: u32) -> Result<Self, QuantityError> {
        NonZeroU32::new(n).map(Self).ok_or(QuantityError)
    }

    #[must_use]
    pub fn get(self) -> u32 {
        self.0.get()
    }

    /// The plus button.
    #[must_use]
    pub fn increased(self) -> Self {
        Self(self.0.saturating_add(1))
    }

    /// The minus button: stops at 1.
    #[must_use]
    pub fn decreased(self) -> Self {
        Self(NonZeroU32::new(self.0.get() - 1).unwrap_or(NonZeroU32::MIN))
    }
}

impl TryFrom<u32> for Quantity {
    type Error = QuantityError;
    fn try_from(n: u32) -> Result<Self, Self::Error> {
        Self::new(n)
    }
}

impl From<Quantity> for u32 {
    fn from(q: Quantity) -> Self {
        q.get()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CartLine {
    pub product_id: ProductId,
    pub quantity: Quantity,
}

/// Cart lines in the order they were added; one line per product.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<CartLine>", into = "Vec<CartLine>")]
pub struct Cart {
    lines: Vec<CartLine>,
}

/// Lines that name one product twice cannot be a cart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateCartLine(pub ProductId);

impl std::fmt::Display for DuplicateCartLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "product {} is on two cart lines", self.0.as_str())
    }
}

impl TryFrom<Vec<CartLine>> for Cart {
    type Error = DuplicateCartLine;
    fn try_from(lines: Vec<CartLine>) -> Result<Self, Self::Error> {
        for (i, line) in lines.iter().enumerate() {
            if lines[..i].iter().any(|l| l.product_id == line.product_id) {
                return Err(DuplicateCartLine(line.product_id.clone()));
            }
        }
        Ok(Self { lines })
    }
}

impl From<Cart> for Vec<CartLine> {
    fn from(c: Cart) -> Self {
        c.lines
    }
}

impl Cart {
    #[must_use]
    pub fn lines(&self) -> &[CartLine] {
        &self.lines
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    #[must_use]
    pub fn contains(&self, product: &ProductId) -> bool {
        self.lines.iter().any(|l| &l.product_id == product)
    }

    /// Add to cart: a new line with quantity 1. A product already in the cart
    /// is left alone (its button reads 'Go to cart' instead). Returns whether
    /// a line was added.
    pub fn add(&mut self, product: ProductId) -> bool {
        if self.contains(&product) {
            return false;
        }
        self.lines.push(CartLine { product_id: product, quantity: Quantity::ONE });
        true
    }

    pub fn increase(&mut self, product: &ProductId) {
        self.update(product, Quantity::increased);
    }

    pub fn decrease(&mut self, product: &ProductId) {
        self.update(product, Quantity::decreased);
    }

    pub fn set_quantity(&mut self, product: &ProductId, quantity: Quantity) {
        self.update(product, |_| quantity);
    }

    pub fn remove(&mut self, product: &ProductId) {
        self.lines.retain(|l| &l.product_id != product);
    }

    fn update(&mut self, product: &ProductId, change: impl FnOnce(Quantity) -> Quantity) {
        if let Some(line) = self.lines.iter_mut().find(|l| &l.product_id == product) {
            line.quantity = change(line.quantity);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn id(s: &str) -> ProductId {
        ProductId(s.to_owned())
    }

    #[test]
    fn quantities_start_at_one_and_never_go_below() {
        assert_eq!(Quantity::new(0), Err(QuantityError));
        assert_eq!(QuantityError.code(), "cart.quantity_invalid");
        assert_eq!(Quantity::ONE.decreased(), Quantity::ONE);
        assert_eq!(Quantity::DIRECT_PURCHASE.get(), 1);
        assert_eq!(Quantity::ONE.increased().get(), 2);
        assert!(serde_json::from_str::<Quantity>("0").is_err());
    }

    #[test]
    fn the_cart_keeps_one_line_per_product() {
        let mut cart = Cart::default();
        assert!(cart.add(id("p1")));
        assert!(!cart.add(id("p1")));
        cart.increase(&id("p1"));
        cart.increase(&id("p1"));
        cart.decrease(&id("p1"));
        assert_eq!(cart.lines()[0].quantity.get(), 2);
        cart.add(id("p2"));
        cart.remove(&id("p1"));
        assert_eq!(cart.lines().len(), 1);
        assert!(cart.contains(&id("p2")) && !cart.contains(&id("p1")));
    }

    #[test]
    fn a_deserialised_cart_keeps_one_line_per_product() {
        let one = r#"[{"product_id":"p1","quantity":2}]"#;
        let cart: Cart = serde_json::from_str(one).expect("valid");
        assert_eq!(cart.lines()[0].quantity.get(), 2);
        assert_eq!(serde_json::to_string(&cart).expect("serialises"), one);
        let twice = r#"[{"product_id":"p1","quantity":1},{"product_id":"p1","quantity":1}]"#;
        assert!(serde_json::from_str::<Cart>(twice).is_err());
    }

    proptest! {
        #[test]
        fn no_sequence_of_presses_goes_below_one(presses in proptest::collection::vec(any::<bool>(), 0..50)) {
            let q = presses.iter().fold(Quantity::ONE, |q, up| if *up { q.increased() } else { q.decreased() });
            prop_assert!(q.get() >= 1);
        }
    }
}
