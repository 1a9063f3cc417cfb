//! Store credit (issue 24): a balance the shop grants a customer, for example when it accepts a
//! returned part as credit (the specification's "6-month credit note"; called store credit so it is
//! not confused with the GST credit note). Each grant is valid for six calendar months from the day
//! it was granted, in India. At checkout it is a way of paying, not a discount: GST stays on the full
//! price.
//!
//! The ledger (`store_credit` table, migration 29) keeps one row per grant with what remains of it;
//! spending takes from the grants that expire first.

use crate::calendar::add_months_ist;
use crate::money::Money;

/// How long a grant of store credit can be spent: six calendar months.
pub const VALID_MONTHS: u32 = 6;

/// When a grant made at `granted_at` (seconds since 1970 UTC) expires: the same time six calendar
/// months on in India, or on the last day of that month when it is shorter.
#[must_use]
pub fn expires_at(granted_at: i64) -> i64 {
    add_months_ist(granted_at, VALID_MONTHS)
}

/// Why the shop granted credit: the ledger's `source`, unique per grant so a retried grant is
/// written once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrantSource {
    /// An accepted return resolved as store credit (the return's id).
    Return(String),
    /// The part of a refund that went back to credit because the order was paid with credit (the
    /// refund's id).
    Refund(String),
}

impl GrantSource {
    /// The ledger's `source` text: `return:{id}` or `refund:{id}`.
    #[must_use]
    pub fn key(&self) -> String {
        match self {
            GrantSource::Return(id) => format!("return:{id}"),
            GrantSource::Refund(id) => format!("refund:{id}"),
        }
    }
}

/// One grant as the ledger keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub amount: Money,
    /// What is left of it, never below zero or above `amount`.
    pub remaining: Money,
    pub granted_at: i64,
    pub expires_at: i64,
    pub source: GrantSource,
}

impl Grant {
    /// A new grant of `amount` made at `granted_at`, whole and valid for [`VALID_MONTHS`].
    #[must_use]
    pub fn new(amount: Money, granted_at: i64, source: GrantSource) -> Self {
        Grant { amount, remaining: amount, granted_at, expires_at: expires_at(granted_at), source }
    }

    /// Whether it can still be spent at `now`.
    #[must_use]
    pub fn live_at(&self, now: i64) -> bool {
        now < self.expires_at && self.remaining.paise() > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calendar::{days_from_civil, IST_OFFSET_SECONDS};

    fn ist(year: i32, month: u8, day: u8, hour: i64) -> i64 {
        days_from_civil(year, month, day) * 86_400 + hour * 3600 - IST_OFFSET_SECONDS
    }

    #[test]
    fn six_calendar_months_in_india() {
        assert_eq!(expires_at(ist(2026, 5, 10, 9)), ist(2026, 11, 10, 9));
        assert_eq!(expires_at(ist(2026, 8, 31, 23)), ist(2027, 2, 28, 23));
        assert_eq!(expires_at(ist(2027, 8, 31, 1)), ist(2028, 2, 29, 1));
        assert_eq!(expires_at(ist(2026, 11, 27, 12)), ist(2027, 5, 27, 12));
    }

    #[test]
    fn a_grant_lives_until_it_expires_or_is_spent() {
        let at = ist(2026, 1, 1, 10);
        let mut grant = Grant::new(Money::from_rupees(500), at, GrantSource::Return("r1".into()));
        assert_eq!(grant.source.key(), "return:r1");
        assert!(grant.live_at(at));
        assert!(!grant.live_at(grant.expires_at));
        grant.remaining = Money::from_paise(0);
        assert!(!grant.live_at(at));
    }
}
