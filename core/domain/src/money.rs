//! Money: integer paise inside the system, rupees on the way out.

use std::fmt;
use std::ops::{Add, Sub};

use serde::{Deserialize, Serialize};

/// An amount of Indian rupees held as whole paise (1 rupee = 100 paise).
///
/// Prices in the shop include GST. Arithmetic never goes through floating
/// point; [`Money::rupees`] exists only for presenting an amount to a client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Money(i64);

impl Money {
    pub const ZERO: Money = Money(0);

    #[must_use]
    pub const fn from_paise(paise: i64) -> Self {
        Self(paise)
    }

    #[must_use]
    pub const fn from_rupees(rupees: i64) -> Self {
        Self(rupees * 100)
    }

    #[must_use]
    pub const fn paise(self) -> i64 {
        self.0
    }

    /// Whole rupees, the paise part dropped (towards zero).
    #[must_use]
    pub const fn whole_rupees(self) -> i64 {
        self.0 / 100
    }

    /// The amount in rupees as a JSON-friendly number (e.g. `12499.5`).
    #[must_use]
    pub fn rupees(self) -> f64 {
        self.0 as f64 / 100.0
    }

    /// Rupees with exactly two decimals and no grouping, as machine-readable
    /// offers want it (e.g. `12499.50`).
    #[must_use]
    pub fn decimal_rupees(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        format!("{sign}{}.{:02}", abs / 100, abs % 100)
    }

    /// Parses a rupee amount given as a number with at most two decimals.
    ///
    /// Returns `None` for negative, non-finite or sub-paisa amounts.
    #[must_use]
    pub fn try_from_rupees_f64(rupees: f64) -> Option<Self> {
        if !(0.0..=9.0e15).contains(&rupees) {
            return None;
        }
        let paise = (rupees * 100.0).round();
        if ((rupees * 100.0) - paise).abs() > 1e-3 {
            return None;
        }
        // In range: checked above, so the cast cannot truncate.
        Some(Self(paise as i64))
    }

    #[must_use]
    pub fn times(self, quantity: u32) -> Self {
        Self(self.0 * i64::from(quantity))
    }

    #[must_use]
    pub fn checked_add(self, other: Money) -> Option<Money> {
        self.0.checked_add(other.0).map(Money)
    }
}

impl Add for Money {
    type Output = Money;
    fn add(self, rhs: Money) -> Money {
        Money(self.0 + rhs.0)
    }
}

impl Sub for Money {
    type Output = Money;
    fn sub(self, rhs: Money) -> Money {
        Money(self.0 - rhs.0)
    }
}

impl std::iter::Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        iter.fold(Money::ZERO, Add::add)
    }
}

impl Money {
    /// Indian digit grouping with both decimals and no currency sign, as the
    /// columns of an invoice print amounts: `1,23,456.78`, `-236.00`.
    #[must_use]
    pub fn to_the_paisa(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        format!("{sign}{}.{:02}", grouped(abs / 100), abs % 100)
    }
}

/// `1,23,45,678`: the last three digits, then pairs.
fn grouped(rupees: u64) -> String {
    let digits = rupees.to_string();
    if digits.len() <= 3 {
        return digits;
    }
    let (head, last3) = digits.split_at(digits.len() - 3);
    let mut parts: Vec<&str> = Vec::new();
    let mut rest = head;
    while rest.len() > 2 {
        let (h, t) = rest.split_at(rest.len() - 2);
        parts.push(t);
        rest = h;
    }
    parts.push(rest);
    parts.reverse();
    format!("{},{last3}", parts.join(","))
}

/// Indian digit grouping: `₹1,23,45,678` or `₹12,499.50`; the alternate form
/// (`{:#}`) keeps zero paise: `₹2,360.00`.
impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        let (rupees, paise) = (grouped(abs / 100), abs % 100);
        if paise == 0 && !f.alternate() {
            write!(f, "{sign}₹{rupees}")
        } else {
            write!(f, "{sign}₹{rupees}.{paise:02}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn displays_with_indian_grouping() {
        assert_eq!(Money::from_rupees(0).to_string(), "₹0");
        assert_eq!(Money::from_rupees(999).to_string(), "₹999");
        assert_eq!(Money::from_rupees(12_499).to_string(), "₹12,499");
        assert_eq!(Money::from_rupees(123_456).to_string(), "₹1,23,456");
        assert_eq!(Money::from_rupees(12_345_678).to_string(), "₹1,23,45,678");
        assert_eq!(Money::from_paise(1_249_950).to_string(), "₹12,499.50");
        assert_eq!(Money::from_paise(-5).to_string(), "-₹0.05");
        assert_eq!(format!("{:#}", Money::from_rupees(2_360)), "₹2,360.00");
        assert_eq!(format!("{:#}", Money::from_paise(12_345_678)), "₹1,23,456.78");
    }

    #[test]
    fn invoice_columns_print_to_the_paisa() {
        assert_eq!(Money::from_paise(12_345_678).to_the_paisa(), "1,23,456.78");
        assert_eq!(Money::from_rupees(-236).to_the_paisa(), "-236.00");
        assert_eq!(Money::ZERO.to_the_paisa(), "0.00");
        assert_eq!(Money::from_paise(i64::MIN).to_the_paisa(), "-92,23,37,20,36,85,47,758.08");
    }

    #[test]
    fn decimal_rupees_have_two_places() {
        assert_eq!(Money::from_paise(1_249_950).decimal_rupees(), "12499.50");
        assert_eq!(Money::from_rupees(7).decimal_rupees(), "7.00");
        assert_eq!(Money::from_paise(-5).decimal_rupees(), "-0.05");
    }

    #[test]
    fn rupee_floats_parse_only_to_the_paisa() {
        assert_eq!(Money::try_from_rupees_f64(12.5), Some(Money::from_paise(1250)));
        assert_eq!(Money::try_from_rupees_f64(0.0), Some(Money::ZERO));
        assert_eq!(Money::try_from_rupees_f64(-1.0), None);
        assert_eq!(Money::try_from_rupees_f64(1.005), None);
        assert_eq!(Money::try_from_rupees_f64(f64::NAN), None);
    }

    proptest! {
        #[test]
        fn rupees_round_trip_through_f64(paise in 0_i64..1_000_000_000_000) {
            let m = Money::from_paise(paise);
            prop_assert_eq!(Money::try_from_rupees_f64(m.rupees()), Some(m));
        }
    }
}
