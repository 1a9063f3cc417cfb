//! Who a customer is: the fields of logging in and signing up, each parsed into a value.

mod email;
mod login_mobile;
mod name;
mod otp;
mod password;
mod sign_up;

pub use email::{Email, EmailError};
pub use login_mobile::{sanitize_login_mobile, LoginMobile, LoginMobileError, MOBILE_LENGTH};
pub use name::{PersonName, PersonNameError};
pub use otp::{Otp, OtpError, OTP_LENGTH, OTP_MAX_ATTEMPTS, OTP_RESEND_AFTER_SECONDS, OTP_VALID_SECONDS};
pub use password::{
    check_confirmation, Password, PasswordError, PasswordMismatch, PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS,
    PASSWORD_SPECIALS,
};
pub use sign_up::{
    sign_up_allowed, Registration, RegistrationErrors, RegistrationField, RegistrationInput, SignUpForm,
};
