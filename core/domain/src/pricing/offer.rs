//! A customer's discount offer and how much it takes off.

use serde::{Deserialize, Serialize};

use crate::message::{user_facing_error, Message, UserFacing};
use crate::Money;

/// A discount percentage, a whole number from 0 to 100.
///
/// Capped at 100 so a discount can never exceed what it discounts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct DiscountPercent(u8);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OfferError;

impl UserFacing for OfferError {
    fn message(&self) -> Message {
        Message::OfferPercentageInvalid
    }
}
user_facing_error!(OfferError);

impl DiscountPercent {
    pub const ZERO: DiscountPercent = DiscountPercent(0);

    /// # Errors
    /// [`OfferError`] above 100.
    pub fn new(percent: u32) -> Result<Self, OfferError> {
        u8::try_from(percent).ok().filter(|p| *p <= 100).map(Self).ok_or(OfferError)
    }

    #[must_use]
    pub fn get(self) -> u8 {
        self.0
    }
}

impl TryFrom<u32> for DiscountPercent {
    type Error = OfferError;
    fn try_from(p: u32) -> Result<Self, Self::Error> {
        Self::new(p)
    }
}

impl From<DiscountPercent> for u32 {
    fn from(p: DiscountPercent) -> Self {
        u32::from(p.0)
    }
}

/// The user's `offerExp` and `percentage`, as the specification names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Offer {
    /// Above 0 means the discount is active.
    #[serde(rename = "offerExp")]
    pub offer_exp: i64,
    pub percentage: DiscountPercent,
}

impl Offer {
    /// No discount.
    pub const NONE: Offer = Offer { offer_exp: 0, percentage: DiscountPercent::ZERO };

    #[must_use]
    pub fn is_active(&self) -> bool {
        self.offer_exp > 0
    }

    /// The percentage that applies now: the offer's when active, else 0.
    #[must_use]
    pub fn percent_now(&self) -> DiscountPercent {
        if self.is_active() {
            self.percentage
        } else {
            DiscountPercent::ZERO
        }
    }
}

/// The specification's discount: the whole-number part of
/// (items total × percentage / 100), in rupees.
///
/// Computed exactly in integers: with the items total as `P` paise the rupee
/// amount is `P / 100`, so the discount is `floor(P × pct / 10_000)` whole
/// rupees, returned as paise. E.g. ₹999.99 at 10% is ₹99.999 → ₹99; ₹1,234.50
/// at 7% is ₹86.415 → ₹86. A negative total (which a cart cannot have) earns
/// no discount.
#[must_use]
pub fn discount(items_total: Money, percent: DiscountPercent) -> Money {
    let paise = i128::from(items_total.paise().max(0));
    let rupees = paise * i128::from(percent.get()) / 10_000;
    // rupees ≤ paise / 100, so it fits back into i64 paise.
    Money::from_rupees(i64::try_from(rupees).unwrap_or(i64::MAX / 100))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pct(p: u32) -> DiscountPercent {
        DiscountPercent::new(p).expect("0..=100")
    }

    #[test]
    fn the_whole_rupee_part_is_kept() {
        assert_eq!(discount(Money::from_paise(99_999), pct(10)), Money::from_rupees(99));
        assert_eq!(discount(Money::from_paise(123_450), pct(7)), Money::from_rupees(86));
        assert_eq!(discount(Money::from_rupees(1000), pct(10)), Money::from_rupees(100));
        assert_eq!(discount(Money::from_rupees(9), pct(10)), Money::ZERO, "₹0.90 → ₹0");
        assert_eq!(discount(Money::from_rupees(10), pct(10)), Money::from_rupees(1));
        assert_eq!(discount(Money::from_rupees(500), pct(100)), Money::from_rupees(500));
        assert_eq!(
            discount(Money::from_paise(50_050), pct(100)),
            Money::from_rupees(500),
            "paise are never discounted"
        );
        assert_eq!(discount(Money::from_rupees(-500), pct(10)), Money::ZERO);
    }

    #[test]
    fn percentages_stay_within_0_to_100() {
        assert!(DiscountPercent::new(100).is_ok());
        assert_eq!(DiscountPercent::new(101), Err(OfferError));
        assert_eq!(DiscountPercent::new(300), Err(OfferError));
        assert_eq!(OfferError.code(), "offer.percentage_invalid");
    }

    #[test]
    fn an_offer_is_active_only_above_zero() {
        let with = |offer_exp| Offer { offer_exp, percentage: pct(15) };
        assert_eq!(with(1).percent_now(), pct(15));
        assert_eq!(with(0).percent_now(), DiscountPercent::ZERO);
        assert_eq!(with(-5).percent_now(), DiscountPercent::ZERO);
        let o: Offer = serde_json::from_str(r#"{"offerExp":1,"percentage":10}"#).expect("valid");
        assert_eq!(o.percent_now(), pct(10));
    }

    proptest! {
        #[test]
        fn a_discount_never_exceeds_the_items_total(paise in 0_i64..10_000_000_000_000, p in 0_u32..=100) {
            let d = discount(Money::from_paise(paise), pct(p));
            prop_assert!(d >= Money::ZERO && d <= Money::from_paise(paise));
            prop_assert_eq!(d.paise() % 100, 0, "whole rupees");
        }
    }
}
