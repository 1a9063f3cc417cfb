//! The date printed on an invoice: a calendar day in India, never the time of printing.

use std::fmt;

use super::FinancialYear;
use crate::calendar::{civil_from_days, days_in_month, ist_day};

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// A day of the Gregorian calendar, e.g. the day an order was placed, in India.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InvoiceDate {
    year: i32,
    month: u8,
    day: u8,
}

impl InvoiceDate {
    /// The day with this year, month (1-12) and day of the month, if it exists.
    #[must_use]
    pub fn new(year: i32, month: u8, day: u8) -> Option<Self> {
        (1..=12)
            .contains(&month)
            .then_some(())
            .filter(|()| (1..=days_in_month(year, month)).contains(&day))
            .map(|()| Self { year, month, day })
    }

    /// The day in India at an instant (seconds since 1970-01-01 UTC), such as an
    /// order's placement time (days, and so financial years, turn at midnight IST).
    #[must_use]
    pub fn at_unix_seconds(seconds: i64) -> Self {
        let (year, month, day) = civil_from_days(ist_day(seconds));
        Self { year, month, day }
    }

    #[must_use]
    pub fn year(self) -> i32 {
        self.year
    }

    #[must_use]
    pub fn month(self) -> u8 {
        self.month
    }

    #[must_use]
    pub fn day(self) -> u8 {
        self.day
    }

    #[must_use]
    pub fn financial_year(self) -> FinancialYear {
        FinancialYear::containing(self.year, self.month)
    }
}

/// `22 Nov 2026`: the month by name, so no reader takes the day for the month.
impl fmt::Display for InvoiceDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let month = MONTHS.get(usize::from(self.month) - 1).copied().unwrap_or("?");
        write!(f, "{:02} {month} {}", self.day, self.year)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_day_turns_at_midnight_in_india() {
        // 2026-03-31T18:29:59Z is 23:59:59 IST on 31 March; a second later it is 1 April.
        let last = InvoiceDate::at_unix_seconds(1_774_981_799);
        assert_eq!(last.to_string(), "31 Mar 2026");
        assert_eq!(last.financial_year(), FinancialYear::starting(2025));
        let first = InvoiceDate::at_unix_seconds(1_774_981_800);
        assert_eq!(first.to_string(), "01 Apr 2026");
        assert_eq!(first.financial_year(), FinancialYear::starting(2026));
    }

    #[test]
    fn only_real_days_exist() {
        assert!(InvoiceDate::new(2028, 2, 29).is_some());
        assert!(InvoiceDate::new(2026, 2, 29).is_none());
        assert!(InvoiceDate::new(2100, 2, 29).is_none());
        assert!(InvoiceDate::new(2026, 4, 31).is_none());
        assert!(InvoiceDate::new(2026, 13, 1).is_none());
        assert!(InvoiceDate::new(2026, 1, 0).is_none());
        assert_eq!(InvoiceDate::new(2026, 11, 22).map(|d| d.to_string()).as_deref(), Some("22 Nov 2026"));
    }

    proptest! {
        #[test]
        fn every_instant_falls_on_a_real_day(seconds in -4_000_000_000_i64..8_000_000_000) {
            let d = InvoiceDate::at_unix_seconds(seconds);
            prop_assert_eq!(InvoiceDate::new(d.year(), d.month(), d.day()), Some(d));
            // The next day in India is the same day or the one after.
            let next = InvoiceDate::at_unix_seconds(seconds + 86_400);
            prop_assert!(next > d);
        }
    }
}
