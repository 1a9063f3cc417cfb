//! Invoice and credit note numbers: each series consecutive per Indian financial year
//! (April to March).
//!
//! GST rules cap a document number at 16 characters. The form
//! `MQ/{financial year}/{serial}` with the year written in full
//! (`MQ/2026-27/000042`) is 17, so the year is written short:
//! `MQ/26-27/000042` (15), leaving room for serials up to 9,999,999. Credit notes are
//! `CN/26-27/000007`, the same form with their own prefix and serials.

use std::fmt;

use super::InvoiceDate;
use crate::message::{user_facing_error, Message, UserFacing};

/// A financial year, April of its first year to March of the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FinancialYear {
    start: i32,
}

impl FinancialYear {
    /// The year running from April `year` to March `year + 1`.
    #[must_use]
    pub fn starting(year: i32) -> Self {
        Self { start: year }
    }

    /// The financial year a calendar month (1-12) falls in.
    #[must_use]
    pub fn containing(year: i32, month: u8) -> Self {
        Self { start: if month >= 4 { year } else { year - 1 } }
    }

    /// The financial year of an instant, by the calendar in India.
    #[must_use]
    pub fn at_unix_seconds(seconds: i64) -> Self {
        InvoiceDate::at_unix_seconds(seconds).financial_year()
    }

    #[must_use]
    pub fn start_year(self) -> i32 {
        self.start
    }

    /// `26-27`, as in invoice numbers.
    #[must_use]
    pub fn short(self) -> String {
        format!("{:02}-{:02}", self.start.rem_euclid(100), (self.start + 1).rem_euclid(100))
    }
}

/// `2026-27`, as Indian documents name a financial year.
impl fmt::Display for FinancialYear {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{:02}", self.start, (self.start + 1).rem_euclid(100))
    }
}

/// Declares a series of document numbers, consecutive per financial year and at most
/// 16 characters (the GST limit): `{PREFIX}/{yy-yy}/{serial}`, with its error type.
/// Tax invoices and credit notes each have their own series, told apart by the prefix.
macro_rules! numbered_series {
    (
        $(#[$doc:meta])*
        $name:ident, $error:ident, prefix: $prefix:literal, exhausted: $exhausted:ident, invalid: $invalid:ident,
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name {
            year: FinancialYear,
            serial: u32,
        }

        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $error {
            /// Serials run from 1 to the series' `MAX_SERIAL`.
            SerialExhausted,
            /// Text that is not a number of this series in the shop's form.
            Invalid,
        }

        impl UserFacing for $error {
            fn message(&self) -> Message {
                match self {
                    $error::SerialExhausted => Message::$exhausted,
                    $error::Invalid => Message::$invalid,
                }
            }
        }
        user_facing_error!($error);

        impl $name {
            pub const PREFIX: &'static str = $prefix;
            /// The GST limit on a document number's length.
            pub const MAX_CHARS: usize = 16;
            /// The largest serial that keeps the number within [`Self::MAX_CHARS`].
            /// (`{two letters}/{yy-yy}/` takes 9, leaving 7 digits.)
            pub const MAX_SERIAL: u32 = 9_999_999;
            const SERIAL_DIGITS: usize = 6;

            /// # Errors
            #[doc = concat!("[`", stringify!($error), "::SerialExhausted`] for serial 0 or above [`Self::MAX_SERIAL`].")]
            pub fn new(year: FinancialYear, serial: u32) -> Result<Self, $error> {
                if serial == 0 || serial > Self::MAX_SERIAL {
                    return Err($error::SerialExhausted);
                }
                Ok(Self { year, serial })
            }

            /// The first number of a financial year.
            #[must_use]
            pub fn first(year: FinancialYear) -> Self {
                Self { year, serial: 1 }
            }

            /// The number after this one in the same financial year.
            ///
            /// # Errors
            #[doc = concat!("[`", stringify!($error), "::SerialExhausted`] after [`Self::MAX_SERIAL`].")]
            pub fn next(self) -> Result<Self, $error> {
                Self::new(self.year, self.serial + 1)
            }

            /// The number that follows the last one issued (if any) for a document
            /// issued in `year`: serials restart at 1 each financial year.
            ///
            /// # Errors
            #[doc = concat!("[`", stringify!($error), "::SerialExhausted`] after [`Self::MAX_SERIAL`].")]
            pub fn following(last: Option<Self>, year: FinancialYear) -> Result<Self, $error> {
                match last {
                    Some(last) if last.year == year => last.next(),
                    _ => Ok(Self::first(year)),
                }
            }

            #[must_use]
            pub fn year(self) -> FinancialYear {
                self.year
            }

            #[must_use]
            pub fn serial(self) -> u32 {
                self.serial
            }

            /// Reads a number in exactly the printed form (years taken as 20xx).
            ///
            /// # Errors
            #[doc = concat!("[`", stringify!($error), "::Invalid`] for any other text.")]
            pub fn parse(text: &str) -> Result<Self, $error> {
                let invalid = $error::Invalid;
                let (year, serial) = parse_numbered(Self::PREFIX, text).ok_or(invalid)?;
                let number = Self::new(year, serial).map_err(|_| invalid)?;
                // Only the canonical spelling: one number, one text.
                if number.to_string() != text {
                    return Err(invalid);
                }
                Ok(number)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}/{}/{:0width$}", Self::PREFIX, self.year.short(), self.serial, width = Self::SERIAL_DIGITS)
            }
        }

        /// As printed.
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = String::deserialize(d)?;
                $name::parse(&text).map_err(serde::de::Error::custom)
            }
        }
    };
}

/// The financial year and serial of `{prefix}/{yy-yy}/{digits}`, not yet checked for range
/// or canonical spelling.
fn parse_numbered(prefix: &str, text: &str) -> Option<(FinancialYear, u32)> {
    let mut parts = text.split('/');
    let (Some(head), Some(year), Some(serial), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return None;
    };
    let two_digits =
        |s: &str| (s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse::<i32>().ok()).flatten();
    let (from, to) = year.split_once('-')?;
    let (from, to) = (two_digits(from)?, two_digits(to)?);
    if head != prefix || to != (from + 1) % 100 || !serial.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((FinancialYear::starting(2000 + from), serial.parse().ok()?))
}

numbered_series! {
    /// `MQ/26-27/000042`: serial 42 of financial year 2026-27, a tax invoice.
    InvoiceNumber, InvoiceNumberError, prefix: "MQ",
    exhausted: InvoiceSerialExhausted, invalid: InvoiceNumberInvalid,
}

numbered_series! {
    /// `CN/26-27/000007`: serial 7 of financial year 2026-27, a GST credit note
    /// (CGST Act section 34), in a series of its own beside the invoices'.
    CreditNoteNumber, CreditNoteNumberError, prefix: "CN",
    exhausted: CreditNoteSerialExhausted, invalid: CreditNoteNumberInvalid,
}

numbered_series! {
    /// `GR/26-27/000003`: serial 3 of financial year 2026-27, a grievance ticket (not a GST document,
    /// but numbered the same way: consecutive per financial year, never reused).
    GrievanceNumber, GrievanceNumberError, prefix: "GR",
    exhausted: GrievanceSerialExhausted, invalid: GrievanceNumberInvalid,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn fy(year: i32) -> FinancialYear {
        FinancialYear::starting(year)
    }

    #[test]
    fn years_run_april_to_march() {
        assert_eq!(FinancialYear::containing(2026, 4), fy(2026));
        assert_eq!(FinancialYear::containing(2027, 3), fy(2026));
        assert_eq!(FinancialYear::containing(2027, 1), fy(2026));
        assert_eq!(FinancialYear::containing(2026, 3), fy(2025));
        assert_eq!(fy(2026).to_string(), "2026-27");
        assert_eq!(fy(2099).to_string(), "2099-00");
        assert_eq!(fy(2099).short(), "99-00");
    }

    #[test]
    fn the_year_turns_at_midnight_in_india() {
        // 2026-03-31T18:29:59Z is 23:59:59 IST on 31 March; a second later it is April in India.
        assert_eq!(FinancialYear::at_unix_seconds(1_774_981_799), fy(2025));
        assert_eq!(FinancialYear::at_unix_seconds(1_774_981_800), fy(2026));
        assert_eq!(FinancialYear::at_unix_seconds(0), fy(1969));
        // 2024-02-29T12:00:00Z, a leap day, and 2000-04-01T00:00:00 IST.
        assert_eq!(FinancialYear::at_unix_seconds(1_709_208_000), fy(2023));
        assert_eq!(FinancialYear::at_unix_seconds(954_527_400), fy(2000));
        assert_eq!(FinancialYear::at_unix_seconds(954_527_399), fy(1999));
    }

    #[test]
    fn numbers_print_within_sixteen_characters() {
        let n = InvoiceNumber::new(fy(2026), 42).expect("valid");
        assert_eq!(n.to_string(), "MQ/26-27/000042");
        let last = InvoiceNumber::new(fy(2026), InvoiceNumber::MAX_SERIAL).expect("valid");
        assert_eq!(last.to_string(), "MQ/26-27/9999999");
        assert_eq!(last.to_string().chars().count(), InvoiceNumber::MAX_CHARS);
        assert_eq!(last.next(), Err(InvoiceNumberError::SerialExhausted));
        assert_eq!(InvoiceNumber::new(fy(2026), 0), Err(InvoiceNumberError::SerialExhausted));
    }

    #[test]
    fn serials_are_consecutive_and_restart_each_year() {
        let first = InvoiceNumber::following(None, fy(2026)).expect("ok");
        assert_eq!(first.to_string(), "MQ/26-27/000001");
        let second = InvoiceNumber::following(Some(first), fy(2026)).expect("ok");
        assert_eq!(second.serial(), 2);
        assert_eq!(InvoiceNumber::following(Some(second), fy(2027)).expect("ok").to_string(), "MQ/27-28/000001");
    }

    #[test]
    fn only_the_printed_form_parses() {
        assert_eq!(InvoiceNumber::parse("MQ/26-27/000042"), InvoiceNumber::new(fy(2026), 42));
        for bad in [
            "MQ/26-28/000042",
            "MQ/2026-27/000042",
            "XX/26-27/000042",
            "MQ/26-27/42",
            "MQ/26-27/0000042",
            "MQ/26-27/000000",
            "MQ/26-27/00004a",
            "MQ/26-27",
            "MQ/26-27/000042/1",
            "MQ/+6-27/000042",
        ] {
            assert_eq!(InvoiceNumber::parse(bad), Err(InvoiceNumberError::Invalid), "{bad}");
        }
        assert_eq!(InvoiceNumberError::Invalid.code(), "invoice.number_invalid");
    }

    #[test]
    fn credit_notes_have_their_own_series() {
        let first = CreditNoteNumber::following(None, fy(2026)).expect("ok");
        assert_eq!(first.to_string(), "CN/26-27/000001");
        let next = CreditNoteNumber::following(Some(first), fy(2026)).expect("ok");
        assert_eq!((next.serial(), next.to_string().as_str()), (2, "CN/26-27/000002"));
        assert_eq!(CreditNoteNumber::following(Some(next), fy(2027)).expect("ok").to_string(), "CN/27-28/000001");
        let last = CreditNoteNumber::new(fy(2026), CreditNoteNumber::MAX_SERIAL).expect("valid");
        assert_eq!(last.to_string(), "CN/26-27/9999999");
        assert_eq!(last.to_string().chars().count(), CreditNoteNumber::MAX_CHARS);
        assert_eq!(last.next(), Err(CreditNoteNumberError::SerialExhausted));
        // One series' number is never read as the other's.
        assert_eq!(CreditNoteNumber::parse("MQ/26-27/000001"), Err(CreditNoteNumberError::Invalid));
        assert_eq!(InvoiceNumber::parse("CN/26-27/000001"), Err(InvoiceNumberError::Invalid));
        assert_eq!(CreditNoteNumberError::Invalid.code(), "credit_note.number_invalid");
        assert_eq!(CreditNoteNumberError::SerialExhausted.code(), "credit_note.serial_exhausted");
        assert_eq!(serde_json::to_value(first).expect("ser"), "CN/26-27/000001");
        assert_eq!(serde_json::from_value::<CreditNoteNumber>("CN/26-27/000001".into()).expect("de"), first);
    }

    proptest! {
        #[test]
        fn credit_note_numbers_print_and_parse_back(year in 2000_i32..2099, serial in 1_u32..=CreditNoteNumber::MAX_SERIAL) {
            let n = CreditNoteNumber::new(fy(year), serial).expect("valid");
            let text = n.to_string();
            prop_assert!(text.chars().count() <= CreditNoteNumber::MAX_CHARS);
            prop_assert_eq!(CreditNoteNumber::parse(&text), Ok(n));
        }

        #[test]
        fn printing_and_parsing_are_inverse(year in 2000_i32..2099, serial in 1_u32..=InvoiceNumber::MAX_SERIAL) {
            let n = InvoiceNumber::new(fy(year), serial).expect("valid");
            let text = n.to_string();
            prop_assert!(text.chars().count() <= InvoiceNumber::MAX_CHARS);
            prop_assert_eq!(InvoiceNumber::parse(&text), Ok(n));
        }

        #[test]
        fn years_advance_one_at_a_time(seconds in 946_684_800_i64..4_102_444_800) {
            let today = FinancialYear::at_unix_seconds(seconds).start_year();
            let tomorrow = FinancialYear::at_unix_seconds(seconds + 86_400).start_year();
            prop_assert!(tomorrow == today || tomorrow == today + 1);
        }
    }
}
