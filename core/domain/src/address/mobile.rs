//! The mobile number on a delivery address.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::account::MOBILE_LENGTH;
use crate::message::{user_facing_error, Message, UserFacing};

/// Ten ASCII digits starting 6-9: the shape of every Indian mobile number,
/// which the courier calls on delivery.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct IndianMobile(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndianMobileError;

impl UserFacing for IndianMobileError {
    fn message(&self) -> Message {
        Message::AddressMobileInvalid
    }
}
user_facing_error!(IndianMobileError);

impl IndianMobile {
    /// Digits an Indian mobile number can start with.
    pub const FIRST_DIGITS: &'static str = "6789";

    /// Surrounding spaces are ignored; nothing else is stripped.
    ///
    /// # Errors
    /// [`IndianMobileError`] unless the text is 10 ASCII digits starting 6-9.
    pub fn parse(raw: &str) -> Result<Self, IndianMobileError> {
        let number = raw.trim();
        let b = number.as_bytes();
        if b.len() != MOBILE_LENGTH
            || !b.iter().all(u8::is_ascii_digit)
            || !Self::FIRST_DIGITS.as_bytes().contains(&b[0])
        {
            return Err(IndianMobileError);
        }
        Ok(Self(number.to_owned()))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The ten digits of a mobile number as people type it in a search: with spaces, dashes, dots,
/// brackets, `+91`/`91` or a leading `0`; `None` for anything else. The digits are not checked
/// further (a search finds what is stored).
#[must_use]
pub fn typed_mobile_digits(text: &str) -> Option<String> {
    if !text.chars().all(|c| c.is_ascii_digit() || " -.()+".contains(c)) {
        return None;
    }
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    let ten = match digits.len() {
        10 => digits.as_str(),
        11 if digits.starts_with('0') => &digits[1..],
        12 if digits.starts_with("91") => &digits[2..],
        _ => return None,
    };
    Some(ten.to_owned())
}

impl TryFrom<String> for IndianMobile {
    type Error = IndianMobileError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<IndianMobile> for String {
    fn from(m: IndianMobile) -> Self {
        m.0
    }
}

impl fmt::Display for IndianMobile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ten_digits_starting_six_to_nine() {
        for good in ["6000000000", "7123456789", "8123456789", "9876543210", " 9876543210 "] {
            assert!(IndianMobile::parse(good).is_ok(), "{good}");
        }
        for bad in ["5876543210", "0876543210", "987654321", "98765432101", "98765 43210", "+919876543210", ""] {
            assert_eq!(IndianMobile::parse(bad), Err(IndianMobileError), "{bad}");
        }
    }

    #[test]
    fn the_message_is_the_specifications() {
        let e = IndianMobile::parse("5876543210").expect_err("starts with 5");
        assert_eq!(e.to_string(), "Enter a valid 10-digit Indian mobile number starting with 6-9");
        assert_eq!(e.code(), "address.mobile_invalid");
    }

    proptest! {
        #[test]
        fn parses_exactly_ten_digits_starting_6_to_9(s in "[0-9]{8,12}") {
            let rule = s.len() == 10 && matches!(s.as_bytes()[0], b'6'..=b'9');
            prop_assert_eq!(IndianMobile::parse(&s).is_ok(), rule);
        }
    }
}
