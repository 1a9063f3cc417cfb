//! The mobile number typed to log in or sign up.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::message::{user_facing_error, Message, UserFacing};

/// Digits in an Indian mobile number.
pub const MOBILE_LENGTH: usize = 10;

/// What the login and sign-up field keeps of what was typed: its digits, at
/// most [`MOBILE_LENGTH`] of them (the specification strips everything else
/// and stops at 10). `"+91 98765-43210"` keeps `"9198765432"`, exactly as the
/// field would; the field is meant for the bare 10 digits.
#[must_use]
pub fn sanitize_login_mobile(typed: &str) -> String {
    typed.chars().filter(char::is_ascii_digit).take(MOBILE_LENGTH).collect()
}

/// A 10-digit mobile number used to log in or sign up.
///
/// Unlike an address mobile ([`crate::address::IndianMobile`]) the
/// specification does not ask for a first digit of 6-9 here.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct LoginMobile(String);

/// A login mobile that is not 10 digits once sanitised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoginMobileError {
    /// Fewer than 10 digits (including none at all).
    TooShort { digits: usize },
}

impl UserFacing for LoginMobileError {
    fn message(&self) -> Message {
        Message::MobileTooShort
    }
}
user_facing_error!(LoginMobileError);

impl LoginMobile {
    /// Applies the field's rule: digits only, at most 10, and then exactly 10.
    ///
    /// # Errors
    /// [`LoginMobileError::TooShort`] when fewer than 10 digits remain.
    pub fn parse(typed: &str) -> Result<Self, LoginMobileError> {
        let digits = sanitize_login_mobile(typed);
        if digits.len() < MOBILE_LENGTH {
            return Err(LoginMobileError::TooShort { digits: digits.len() });
        }
        Ok(Self(digits))
    }

    /// What the field shows while typing: the sanitised digits, and the
    /// message only once something was typed and it is still short.
    #[must_use]
    pub fn live(typed: &str) -> (String, Option<LoginMobileError>) {
        let digits = sanitize_login_mobile(typed);
        let error = (!digits.is_empty() && digits.len() < MOBILE_LENGTH)
            .then_some(LoginMobileError::TooShort { digits: digits.len() });
        (digits, error)
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for LoginMobile {
    type Error = LoginMobileError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<LoginMobile> for String {
    fn from(m: LoginMobile) -> Self {
        m.0
    }
}

impl fmt::Display for LoginMobile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn nine_ten_and_eleven_digits() {
        assert_eq!(LoginMobile::parse("987654321"), Err(LoginMobileError::TooShort { digits: 9 }));
        assert_eq!(LoginMobile::parse("9876543210").map(|m| m.to_string()), Ok("9876543210".into()));
        // The field stops at 10 digits, so an eleventh is dropped, not refused.
        assert_eq!(LoginMobile::parse("98765432101").map(|m| m.to_string()), Ok("9876543210".into()));
    }

    #[test]
    fn other_characters_are_stripped() {
        assert_eq!(sanitize_login_mobile("98765 43210"), "9876543210");
        assert_eq!(sanitize_login_mobile("(987) 654-3210x"), "9876543210");
        assert_eq!(sanitize_login_mobile("+91 98765 43210"), "9198765432");
        assert_eq!(sanitize_login_mobile("abc"), "");
        assert_eq!(sanitize_login_mobile("९८७"), "", "only ASCII digits count");
        // No 6-9 rule for logging in.
        assert!(LoginMobile::parse("0123456789").is_ok());
    }

    #[test]
    fn the_message_shows_only_for_a_non_empty_short_number() {
        assert_eq!(LoginMobile::live(""), (String::new(), None));
        assert_eq!(LoginMobile::live("abc"), (String::new(), None));
        let (value, error) = LoginMobile::live("98-76");
        assert_eq!(value, "9876");
        let error = error.expect("short");
        assert_eq!(error.to_string(), "Enter 10 digit mobile number");
        assert_eq!(error.code(), "mobile.too_short");
        assert_eq!(LoginMobile::live("9876543210"), ("9876543210".into(), None));
        assert_eq!(LoginMobile::parse(""), Err(LoginMobileError::TooShort { digits: 0 }));
    }

    #[test]
    fn serde_parses() {
        let m: LoginMobile = serde_json::from_str("\"9876543210\"").expect("valid");
        assert_eq!(serde_json::to_string(&m).expect("ser"), "\"9876543210\"");
        assert!(serde_json::from_str::<LoginMobile>("\"12345\"").is_err());
    }

    proptest! {
        #[test]
        fn sanitised_values_are_at_most_ten_ascii_digits(s in ".*") {
            let v = sanitize_login_mobile(&s);
            prop_assert!(v.len() <= MOBILE_LENGTH && v.chars().all(|c| c.is_ascii_digit()));
            prop_assert_eq!(sanitize_login_mobile(&v), v.clone());
            prop_assert_eq!(LoginMobile::parse(&s).is_ok(), v.len() == MOBILE_LENGTH);
        }
    }
}
