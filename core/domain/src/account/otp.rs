//! The one-time code sent to log in or verify a sign-up, and how long it lasts.

use std::fmt;

use crate::message::{user_facing_error, Message, UserFacing};

/// Digits in a one-time code.
pub const OTP_LENGTH: usize = 6;
/// A code stops working 10 minutes after it was sent (docs/shop-rules.md).
pub const OTP_VALID_SECONDS: u32 = 10 * 60;
/// The fifth wrong try ends a code (docs/shop-rules.md).
pub const OTP_MAX_ATTEMPTS: u32 = 5;
/// A new code may be requested 30 seconds after the last one (docs/shop-rules.md).
pub const OTP_RESEND_AFTER_SECONDS: u32 = 30;

/// Six ASCII digits as typed by the customer. Whether it is the right code is
/// the OTP store's business; a wrong one is [`Message::OtpWrong`].
#[derive(Clone, PartialEq, Eq)]
pub struct Otp(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OtpError {
    /// Nothing typed.
    Missing,
    /// Not exactly 6 digits.
    Invalid,
}

impl UserFacing for OtpError {
    fn message(&self) -> Message {
        match self {
            OtpError::Missing => Message::OtpRequired,
            OtpError::Invalid => Message::OtpInvalid,
        }
    }
}
user_facing_error!(OtpError);

impl Otp {
    /// Surrounding spaces (a pasted code) are ignored; inside, only digits.
    ///
    /// # Errors
    /// [`OtpError::Missing`] for blank input, [`OtpError::Invalid`] for
    /// anything but exactly 6 ASCII digits.
    pub fn parse(raw: &str) -> Result<Self, OtpError> {
        let code = raw.trim();
        if code.is_empty() {
            return Err(OtpError::Missing);
        }
        if code.len() != OTP_LENGTH || !code.bytes().all(|b| b.is_ascii_digit()) {
            return Err(OtpError::Invalid);
        }
        Ok(Self(code.to_owned()))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Codes are secrets until used: keep them out of logs.
impl fmt::Debug for Otp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Otp(******)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn exactly_six_digits() {
        assert_eq!(Otp::parse("12345"), Err(OtpError::Invalid));
        assert_eq!(Otp::parse("123456").map(|o| o.as_str().to_owned()), Ok("123456".into()));
        assert_eq!(Otp::parse("1234567"), Err(OtpError::Invalid));
        assert_eq!(Otp::parse("12345a"), Err(OtpError::Invalid));
        assert_eq!(Otp::parse("12 456"), Err(OtpError::Invalid));
        assert_eq!(Otp::parse("١٢٣٤٥٦"), Err(OtpError::Invalid), "ASCII digits only");
        assert_eq!(Otp::parse(" 000000 ").map(|o| o.as_str().to_owned()), Ok("000000".into()));
    }

    #[test]
    fn required_and_its_messages() {
        assert_eq!(Otp::parse(""), Err(OtpError::Missing));
        assert_eq!(Otp::parse("   "), Err(OtpError::Missing));
        assert_eq!(OtpError::Missing.code(), "otp.required");
        assert_eq!(OtpError::Invalid.code(), "otp.invalid");
        assert_eq!(OtpError::Invalid.to_string(), "Enter 6 digit OTP");
        assert_eq!(format!("{:?}", Otp::parse("123456")), "Ok(Otp(******))");
    }

    proptest! {
        #[test]
        fn six_digits_always_parse(s in "[0-9]{6}") {
            prop_assert!(Otp::parse(&s).is_ok());
        }

        #[test]
        fn other_lengths_never_parse(s in "[0-9]{1,5}|[0-9]{7,12}") {
            prop_assert_eq!(Otp::parse(&s), Err(OtpError::Invalid));
        }
    }
}
