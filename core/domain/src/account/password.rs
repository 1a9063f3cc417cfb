//! A password chosen at sign-up, and its confirmation.

use std::fmt;

use crate::message::{user_facing_error, Message, UserFacing};

pub const PASSWORD_MIN_CHARS: usize = 8;
pub const PASSWORD_MAX_CHARS: usize = 16;
/// The only characters besides ASCII letters and digits a password may hold;
/// at least one of them is required.
pub const PASSWORD_SPECIALS: &str = "!@#$%^&*";

/// A password that follows the specification's rule. Its text never shows in
/// `Debug` output or logs; take it with [`Password::expose`] to hash it.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

/// Why a password breaks the rule. Every reason shows the same message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PasswordError {
    /// Outside 8-16 characters.
    Length {
        chars: usize,
    },
    /// A character that is not an ASCII letter, digit or one of `!@#$%^&*`.
    ForbiddenCharacter,
    MissingDigit,
    MissingSpecial,
}

impl UserFacing for PasswordError {
    fn message(&self) -> Message {
        Message::PasswordRule
    }
}

/// The confirmation differs from the password.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PasswordMismatch;

impl UserFacing for PasswordMismatch {
    fn message(&self) -> Message {
        Message::PasswordMismatch
    }
}
user_facing_error!(PasswordError, PasswordMismatch);

fn is_special(c: char) -> bool {
    PASSWORD_SPECIALS.contains(c)
}

impl Password {
    /// # Errors
    /// [`PasswordError`] when `raw` is not 8-16 characters drawn from ASCII
    /// letters, digits and `!@#$%^&*` with at least one digit and one of those
    /// specials. Nothing is trimmed: a space is a forbidden character.
    pub fn parse(raw: &str) -> Result<Self, PasswordError> {
        let chars = raw.chars().count();
        if !(PASSWORD_MIN_CHARS..=PASSWORD_MAX_CHARS).contains(&chars) {
            return Err(PasswordError::Length { chars });
        }
        if !raw.chars().all(|c| c.is_ascii_alphanumeric() || is_special(c)) {
            return Err(PasswordError::ForbiddenCharacter);
        }
        if !raw.chars().any(|c| c.is_ascii_digit()) {
            return Err(PasswordError::MissingDigit);
        }
        if !raw.chars().any(is_special) {
            return Err(PasswordError::MissingSpecial);
        }
        Ok(Self(raw.to_owned()))
    }

    /// The password itself, for hashing. Never log it.
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(***)")
    }
}

/// The confirmation rule: the two texts must be equal, character for character.
///
/// # Errors
/// [`PasswordMismatch`] when they differ.
pub fn check_confirmation(password: &str, confirmation: &str) -> Result<(), PasswordMismatch> {
    if password == confirmation {
        Ok(())
    } else {
        Err(PasswordMismatch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn seven_eight_sixteen_and_seventeen_characters() {
        assert_eq!(Password::parse("abcde1!"), Err(PasswordError::Length { chars: 7 }));
        assert!(Password::parse("abcdef1!").is_ok());
        assert!(Password::parse("abcdefghijklm12!").is_ok());
        assert_eq!(Password::parse("abcdefghijklmn12!"), Err(PasswordError::Length { chars: 17 }));
        assert_eq!(Password::parse(""), Err(PasswordError::Length { chars: 0 }));
    }

    #[test]
    fn a_digit_and_a_special_are_both_needed() {
        assert_eq!(Password::parse("abcdefgh!"), Err(PasswordError::MissingDigit));
        assert_eq!(Password::parse("abcdefgh1"), Err(PasswordError::MissingSpecial));
        assert_eq!(Password::parse("abcd efg1!"), Err(PasswordError::ForbiddenCharacter));
        assert_eq!(Password::parse("abcdefg1!?"), Err(PasswordError::ForbiddenCharacter));
        assert_eq!(Password::parse("abcdéfg1!"), Err(PasswordError::ForbiddenCharacter));
        for special in PASSWORD_SPECIALS.chars() {
            assert!(Password::parse(&format!("Passw0rd{special}")).is_ok(), "{special}");
        }
    }

    #[test]
    fn every_failure_shows_the_rule() {
        for bad in ["", "short1!", "nodigits!!", "nospecial11", "with space1!"] {
            let e = Password::parse(bad).expect_err(bad);
            assert_eq!(
                e.to_string(),
                "Password must include atleast a number, a special character and 8-16 characters."
            );
            assert_eq!(e.code(), "password.rule");
        }
    }

    #[test]
    fn confirmation_must_match() {
        assert_eq!(check_confirmation("abcdef1!", "abcdef1!"), Ok(()));
        let e = check_confirmation("abcdef1!", "abcdef1@").expect_err("differs");
        assert_eq!((e.to_string().as_str(), e.code()), ("Passwords not match.", "password.mismatch"));
        assert_eq!(check_confirmation("", ""), Ok(()));
    }

    #[test]
    fn debug_hides_the_password() {
        let p = Password::parse("abcdef1!").expect("valid");
        assert_eq!(format!("{p:?}"), "Password(***)");
        assert_eq!(p.expose(), "abcdef1!");
    }

    fn allowed() -> impl Strategy<Value = char> {
        prop_oneof![
            proptest::char::range('a', 'z'),
            proptest::char::range('A', 'Z'),
            proptest::char::range('0', '9'),
            proptest::sample::select(PASSWORD_SPECIALS.chars().collect::<Vec<_>>()),
        ]
    }

    proptest! {
        #[test]
        fn every_valid_generated_password_parses(
            rest in proptest::collection::vec(allowed(), 6..=14),
            digit in proptest::char::range('0', '9'),
            special in proptest::sample::select(PASSWORD_SPECIALS.chars().collect::<Vec<_>>()),
            at in any::<proptest::sample::Index>(),
        ) {
            let mut chars = rest;
            chars.insert(at.index(chars.len() + 1), digit);
            chars.insert(at.index(chars.len() + 1), special);
            let s: String = chars.into_iter().collect();
            prop_assert!(Password::parse(&s).is_ok(), "{}", s);
        }

        #[test]
        fn without_a_digit_nothing_parses(s in "[a-zA-Z!@#$%^&*]{0,20}") {
            prop_assert!(Password::parse(&s).is_err());
        }

        #[test]
        fn without_a_special_nothing_parses(s in "[a-zA-Z0-9]{0,20}") {
            prop_assert!(Password::parse(&s).is_err());
        }

        #[test]
        fn any_text_parses_exactly_when_the_rule_holds(s in ".{0,20}") {
            let n = s.chars().count();
            let rule = (8..=16).contains(&n)
                && s.chars().all(|c| c.is_ascii_alphanumeric() || "!@#$%^&*".contains(c))
                && s.chars().any(|c| c.is_ascii_digit())
                && s.chars().any(|c| "!@#$%^&*".contains(c));
            prop_assert_eq!(Password::parse(&s).is_ok(), rule);
        }
    }
}
