//! Indian postal codes.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::DeliveryRegion;
use crate::message::{user_facing_error, Message, UserFacing};

/// Digits in an Indian pincode.
pub const PINCODE_LENGTH: usize = 6;

/// Six ASCII digits, the first one 1-9 (no Indian pincode starts with 0).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Pincode(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PincodeError;

impl UserFacing for PincodeError {
    fn message(&self) -> Message {
        Message::PincodeInvalid
    }
}
user_facing_error!(PincodeError);

impl Pincode {
    /// Digits a pincode can start with.
    pub const FIRST_DIGITS: &'static str = "123456789";

    /// Surrounding spaces are ignored.
    ///
    /// # Errors
    /// [`PincodeError`] unless the text is 6 ASCII digits starting 1-9.
    pub fn parse(raw: &str) -> Result<Self, PincodeError> {
        let pin = raw.trim();
        let b = pin.as_bytes();
        if b.len() != PINCODE_LENGTH
            || !b.iter().all(u8::is_ascii_digit)
            || !Self::FIRST_DIGITS.as_bytes().contains(&b[0])
        {
            return Err(PincodeError);
        }
        Ok(Self(pin.to_owned()))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    #[must_use]
    pub fn delivery_region(&self) -> DeliveryRegion {
        DeliveryRegion::of(self)
    }
}

impl TryFrom<String> for Pincode {
    type Error = PincodeError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<Pincode> for String {
    fn from(p: Pincode) -> Self {
        p.0
    }
}

impl fmt::Display for Pincode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn six_digits_not_starting_with_zero() {
        assert_eq!(Pincode::parse("110001").map(|p| p.to_string()), Ok("110001".into()));
        assert_eq!(Pincode::parse(" 560001 ").map(|p| p.to_string()), Ok("560001".into()));
        for bad in ["", "11000", "1100011", "011001", "11000a", "110 001", "１１０００１"] {
            assert_eq!(Pincode::parse(bad), Err(PincodeError), "{bad}");
        }
    }

    #[test]
    fn the_message_is_the_specifications() {
        let e = Pincode::parse("011001").expect_err("starts with 0");
        assert_eq!((e.to_string().as_str(), e.code()), ("Enter a valid 6-digit pincode", "pincode.invalid"));
    }

    #[test]
    fn serde_parses() {
        assert!(serde_json::from_str::<Pincode>("\"012345\"").is_err());
        let p: Pincode = serde_json::from_str("\"201301\"").expect("valid");
        assert_eq!(serde_json::to_string(&p).expect("ser"), "\"201301\"");
    }

    proptest! {
        #[test]
        fn parses_exactly_the_six_digit_codes_starting_1_to_9(s in "[0-9]{0,8}") {
            let rule = s.len() == 6 && !s.starts_with('0');
            prop_assert_eq!(Pincode::parse(&s).is_ok(), rule);
        }
    }
}
