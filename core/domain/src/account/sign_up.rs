//! Signing up: when the form's button is enabled, and what the server accepts.

use serde::{Deserialize, Serialize};

use super::{check_confirmation, sanitize_login_mobile, Email, LoginMobile, Password, PersonName, MOBILE_LENGTH};
use crate::message::{FieldErrors, UserFacing};

/// The sign-up form as typed, before anything is parsed.
#[derive(Debug, Clone, Copy, Default)]
pub struct SignUpForm<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub password: &'a str,
    pub confirmation: &'a str,
    pub mobile: &'a str,
}

/// The specification's rule for the sign-up button: enabled only when the
/// password and confirmation errors are both empty, name and email are filled
/// (something other than spaces), the mobile field holds 10 digits, and
/// password and confirmation are equal and non-empty.
///
/// Email is only required to be filled here, as in the specification; the
/// server still parses it ([`Registration::parse`]).
#[must_use]
pub fn sign_up_allowed(form: &SignUpForm<'_>) -> bool {
    let errors_empty =
        Password::parse(form.password).is_ok() && check_confirmation(form.password, form.confirmation).is_ok();
    errors_empty
        && !form.name.trim().is_empty()
        && !form.email.trim().is_empty()
        && sanitize_login_mobile(form.mobile).len() == MOBILE_LENGTH
        && !form.password.is_empty()
        && !form.confirmation.is_empty()
        && form.password == form.confirmation
}

/// What `POST /api/register` receives (the profile picture travels apart).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegistrationInput {
    pub name: String,
    pub email: String,
    pub password: String,
    pub mobile: String,
}

/// A sign-up whose every field parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    pub name: PersonName,
    pub email: Email,
    pub password: Password,
    pub mobile: LoginMobile,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RegistrationField {
    Name,
    Email,
    Password,
    Mobile,
}

/// Every sign-up field that failed.
pub type RegistrationErrors = FieldErrors<RegistrationField>;

impl Registration {
    /// # Errors
    /// [`RegistrationErrors`] listing every field that does not parse.
    pub fn parse(input: &RegistrationInput) -> Result<Self, RegistrationErrors> {
        let name = PersonName::parse(&input.name);
        let email = Email::parse(&input.email);
        let password = Password::parse(&input.password);
        let mobile = LoginMobile::parse(&input.mobile);
        match (name, email, password, mobile) {
            (Ok(name), Ok(email), Ok(password), Ok(mobile)) => Ok(Self { name, email, password, mobile }),
            (name, email, password, mobile) => Err(FieldErrors::collect([
                (RegistrationField::Name, name.err().map(|e| e.message())),
                (RegistrationField::Email, email.err().map(|e| e.message())),
                (RegistrationField::Password, password.err().map(|e| e.message())),
                (RegistrationField::Mobile, mobile.err().map(|e| e.message())),
            ])),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Message;

    const FILLED: SignUpForm<'static> = SignUpForm {
        name: "Asha",
        email: "asha@example.in",
        password: "abcdef1!",
        confirmation: "abcdef1!",
        mobile: "9876543210",
    };

    #[test]
    fn a_filled_form_may_be_sent() {
        assert!(sign_up_allowed(&FILLED));
    }

    #[test]
    fn each_missing_piece_disables_the_button() {
        let cases = [
            SignUpForm { name: " ", ..FILLED },
            SignUpForm { email: "", ..FILLED },
            SignUpForm { mobile: "987654321", ..FILLED },
            SignUpForm { confirmation: "abcdef1@", ..FILLED },
            SignUpForm { password: "abcdefgh", confirmation: "abcdefgh", ..FILLED },
            SignUpForm { password: "", confirmation: "", ..FILLED },
        ];
        for form in cases {
            assert!(!sign_up_allowed(&form), "{form:?}");
        }
        // Typed separators in the mobile are stripped like the field does.
        assert!(sign_up_allowed(&SignUpForm { mobile: "98765-43210", ..FILLED }));
    }

    #[test]
    fn the_server_lists_every_bad_field() {
        let input = RegistrationInput {
            name: String::new(),
            email: "asha".into(),
            password: "abc".into(),
            mobile: "98".into(),
        };
        let errors = Registration::parse(&input).expect_err("all bad");
        let fields: Vec<_> = errors.iter().collect();
        assert_eq!(
            fields,
            vec![
                (RegistrationField::Name, Message::NameRequired),
                (RegistrationField::Email, Message::EmailInvalid),
                (RegistrationField::Password, Message::PasswordRule),
                (RegistrationField::Mobile, Message::MobileTooShort),
            ]
        );
        assert_eq!(errors.code(), "name.required");
        assert_eq!(errors.get(RegistrationField::Mobile), Some(Message::MobileTooShort));
    }

    #[test]
    fn the_server_accepts_a_good_sign_up() {
        let input = RegistrationInput {
            name: " Asha ".into(),
            email: "Asha@Example.in".into(),
            password: "abcdef1!".into(),
            mobile: "9876543210".into(),
        };
        let r = Registration::parse(&input).expect("valid");
        assert_eq!((r.name.as_str(), r.email.as_str(), r.mobile.as_str()), ("Asha", "asha@example.in", "9876543210"));
    }
}
