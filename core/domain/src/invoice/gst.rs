//! Splitting a GST-inclusive amount into taxable value and tax.
//!
//! Rounding rule (to the paisa, halves away from zero):
//! 1. taxable value = inclusive × 100 / (100 + rate), rounded;
//! 2. tax = inclusive − taxable value, so the two always add up exactly;
//! 3. within the seller's state the tax splits into CGST = half the tax
//!    rounded (an odd paisa goes to CGST) and SGST = tax − CGST; otherwise it
//!    is all IGST.
//!
//! Rounding the taxable value rather than the tax keeps the tax within one
//! paisa of taxable value × rate, which is what a reader of the invoice checks.

use std::fmt;
use std::ops::{Add, Sub};

use serde::{Deserialize, Serialize};

use crate::Money;

/// The rate for motor-vehicle parts (HSN 8708), the default for a product.
pub const DEFAULT_GST_PERCENT: u8 = 18;
/// Delivery charges include GST at 18%.
pub const DELIVERY_GST_PERCENT: u8 = 18;
/// HSN code of motor-vehicle parts and accessories.
pub const PARTS_HSN: &str = "8708";
/// SAC (services accounting code) of goods transport, the delivery line's code.
pub const DELIVERY_SAC: &str = "9965";

/// An HSN code (goods) or SAC (services) as printed on a tax invoice: 4, 6 or 8 digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct HsnCode(String);

/// Why a text is not an HSN or SAC code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("an HSN or SAC code has 4, 6 or 8 digits")]
pub struct HsnCodeError;

impl HsnCode {
    /// Surrounding spaces are ignored.
    ///
    /// # Errors
    /// [`HsnCodeError`] unless the text is 4, 6 or 8 ASCII digits.
    pub fn parse(raw: &str) -> Result<Self, HsnCodeError> {
        let code = raw.trim();
        if matches!(code.len(), 4 | 6 | 8) && code.bytes().all(|b| b.is_ascii_digit()) {
            Ok(Self(code.to_owned()))
        } else {
            Err(HsnCodeError)
        }
    }

    /// HSN 8708, motor-vehicle parts: the code of a product that names no other.
    #[must_use]
    pub fn parts() -> Self {
        Self(PARTS_HSN.to_owned())
    }

    /// SAC 9965, goods transport: the delivery line's code.
    #[must_use]
    pub fn delivery() -> Self {
        Self(DELIVERY_SAC.to_owned())
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for HsnCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for HsnCode {
    type Error = HsnCodeError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<HsnCode> for String {
    fn from(code: HsnCode) -> Self {
        code.0
    }
}

/// Which GST applies: CGST + SGST inside the seller's state, IGST across states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Supply {
    IntraState,
    InterState,
}

/// State names as typed vary in case, spacing and '&' versus 'and'.
fn normalise_state(name: &str) -> String {
    name.split_whitespace()
        .map(|w| if w == "&" { "and".to_owned() } else { w.to_lowercase() })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Supply {
    /// `seller_state` comes from configuration; `delivery_state` from the
    /// order's address. Same state (ignoring case, spacing and '&'/'and') is
    /// intra-state supply.
    #[must_use]
    pub fn between(seller_state: &str, delivery_state: &str) -> Self {
        if normalise_state(seller_state) == normalise_state(delivery_state) {
            Supply::IntraState
        } else {
            Supply::InterState
        }
    }
}

/// A GST-inclusive amount taken apart. `taxable + cgst + sgst + igst` is the
/// inclusive amount exactly; either `igst` or both `cgst` and `sgst` are zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TaxSplit {
    pub taxable: Money,
    pub cgst: Money,
    pub sgst: Money,
    pub igst: Money,
}

/// `numerator / denominator` rounded to the nearest integer, halves away from zero.
fn div_round(numerator: i128, denominator: i128) -> i128 {
    let (n, d) = (numerator.abs(), denominator.abs());
    let q = (2 * n + d) / (2 * d);
    if (numerator < 0) != (denominator < 0) {
        -q
    } else {
        q
    }
}

fn money(paise: i128) -> Money {
    // Every part is between zero and the inclusive amount, itself an i64.
    Money::from_paise(i64::try_from(paise).unwrap_or(i64::MAX))
}

impl TaxSplit {
    /// Applies the module's rounding rule to `inclusive` at `rate_percent`.
    /// Negative amounts (a discount) split symmetrically.
    #[must_use]
    pub fn of_inclusive(inclusive: Money, rate_percent: u8, supply: Supply) -> Self {
        let amount = i128::from(inclusive.paise());
        let taxable = div_round(amount * 100, 100 + i128::from(rate_percent));
        let tax = amount - taxable;
        match supply {
            Supply::InterState => Self { taxable: money(taxable), igst: money(tax), ..Self::default() },
            Supply::IntraState => {
                let cgst = div_round(tax, 2);
                Self { taxable: money(taxable), cgst: money(cgst), sgst: money(tax - cgst), ..Self::default() }
            }
        }
    }

    /// All the tax in the amount.
    #[must_use]
    pub fn tax(&self) -> Money {
        self.cgst + self.sgst + self.igst
    }

    /// The inclusive amount again.
    #[must_use]
    pub fn inclusive(&self) -> Money {
        self.taxable + self.tax()
    }
}

/// Part by part, for adding lines up to a row and finding what rounding left over.
impl Add for TaxSplit {
    type Output = TaxSplit;
    fn add(self, rhs: TaxSplit) -> TaxSplit {
        TaxSplit {
            taxable: self.taxable + rhs.taxable,
            cgst: self.cgst + rhs.cgst,
            sgst: self.sgst + rhs.sgst,
            igst: self.igst + rhs.igst,
        }
    }
}

impl Sub for TaxSplit {
    type Output = TaxSplit;
    fn sub(self, rhs: TaxSplit) -> TaxSplit {
        TaxSplit {
            taxable: self.taxable - rhs.taxable,
            cgst: self.cgst - rhs.cgst,
            sgst: self.sgst - rhs.sgst,
            igst: self.igst - rhs.igst,
        }
    }
}

impl std::iter::Sum for TaxSplit {
    fn sum<I: Iterator<Item = TaxSplit>>(iter: I) -> TaxSplit {
        iter.fold(TaxSplit::default(), Add::add)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn eighteen_percent_of_a_round_amount() {
        let s = TaxSplit::of_inclusive(Money::from_rupees(1180), 18, Supply::IntraState);
        assert_eq!(
            (s.taxable, s.cgst, s.sgst, s.igst),
            (Money::from_rupees(1000), Money::from_rupees(90), Money::from_rupees(90), Money::ZERO)
        );
        let s = TaxSplit::of_inclusive(Money::from_rupees(1180), 18, Supply::InterState);
        assert_eq!((s.taxable, s.igst, s.cgst), (Money::from_rupees(1000), Money::from_rupees(180), Money::ZERO));
    }

    #[test]
    fn odd_paise_go_to_cgst() {
        // ₹100 at 18%: taxable 84.745… → ₹84.75; tax ₹15.25 → CGST ₹7.63, SGST ₹7.62.
        let s = TaxSplit::of_inclusive(Money::from_rupees(100), 18, Supply::IntraState);
        assert_eq!(s.taxable, Money::from_paise(8475));
        assert_eq!((s.cgst, s.sgst), (Money::from_paise(763), Money::from_paise(762)));
        assert_eq!(s.inclusive(), Money::from_rupees(100));
    }

    #[test]
    fn zero_rate_and_negative_amounts() {
        let s = TaxSplit::of_inclusive(Money::from_rupees(500), 0, Supply::IntraState);
        assert_eq!((s.taxable, s.tax()), (Money::from_rupees(500), Money::ZERO));
        let d = TaxSplit::of_inclusive(Money::from_rupees(-100), 18, Supply::IntraState);
        assert_eq!(
            (d.taxable, d.cgst, d.sgst),
            (Money::from_paise(-8475), Money::from_paise(-763), Money::from_paise(-762))
        );
    }

    #[test]
    fn hsn_and_sac_codes_have_four_six_or_eight_digits() {
        assert_eq!(HsnCode::parse(" 8708 ").map(String::from), Ok("8708".to_owned()));
        assert_eq!(HsnCode::parse("870830").map(|c| c.to_string()), Ok("870830".to_owned()));
        assert_eq!(HsnCode::delivery().as_str(), "9965");
        for bad in ["", "870", "87083", "8708301", "87A8", "870830000"] {
            assert_eq!(HsnCode::parse(bad), Err(HsnCodeError), "{bad:?}");
        }
    }

    #[test]
    fn states_compare_loosely() {
        assert_eq!(Supply::between("Haryana", " haryana "), Supply::IntraState);
        assert_eq!(Supply::between("Jammu & Kashmir", "Jammu and  Kashmir"), Supply::IntraState);
        assert_eq!(Supply::between("Haryana", "Delhi"), Supply::InterState);
    }

    fn supply() -> impl Strategy<Value = Supply> {
        prop_oneof![Just(Supply::IntraState), Just(Supply::InterState)]
    }

    proptest! {
        #[test]
        fn the_parts_add_up_to_the_paisa(paise in -10_000_000_000_i64..10_000_000_000, rate in 0_u8..=28, supply in supply()) {
            let inclusive = Money::from_paise(paise);
            let s = TaxSplit::of_inclusive(inclusive, rate, supply);
            prop_assert_eq!(s.taxable + s.cgst + s.sgst + s.igst, inclusive);
            match supply {
                Supply::IntraState => {
                    prop_assert_eq!(s.igst, Money::ZERO);
                    prop_assert!((s.cgst.paise() - s.sgst.paise()).abs() <= 1);
                }
                Supply::InterState => prop_assert_eq!((s.cgst, s.sgst), (Money::ZERO, Money::ZERO)),
            }
            // The tax is within a paisa of taxable value × rate.
            let exact = i128::from(s.taxable.paise()) * i128::from(rate);
            prop_assert!((i128::from(s.tax().paise()) * 100 - exact).abs() <= 100);
        }
    }
}
