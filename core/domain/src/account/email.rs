//! An email address, checked only for being plausibly one.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::message::{user_facing_error, Message, UserFacing};

/// Longest address a mail system accepts (RFC 5321 path limit).
const MAX_LEN: usize = 254;
const MAX_LOCAL_LEN: usize = 64;

/// A trimmed, lower-cased email address of the shape `local@domain.tld`.
///
/// Lower-cased because people type their address in varying case and the
/// store keeps one account per address. The only proof an address works is
/// the verification mail; this check just refuses what cannot be one.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Email(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmailError;

impl UserFacing for EmailError {
    fn message(&self) -> Message {
        Message::EmailInvalid
    }
}
user_facing_error!(EmailError);

impl Email {
    /// # Errors
    /// [`EmailError`] unless the text is one `@` between a non-empty local
    /// part (at most 64 characters) and a domain of at least two dot-separated
    /// labels of letters, digits and hyphens, without spaces, at most 254 in all.
    pub fn parse(raw: &str) -> Result<Self, EmailError> {
        let email = raw.trim().to_lowercase();
        if email.len() > MAX_LEN || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(EmailError);
        }
        let (local, domain) = email.split_once('@').ok_or(EmailError)?;
        if local.is_empty() || local.len() > MAX_LOCAL_LEN || domain.contains('@') {
            return Err(EmailError);
        }
        let labels: Vec<&str> = domain.split('.').collect();
        let label_ok = |l: &&str| {
            !l.is_empty()
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_alphanumeric() || c == '-')
        };
        if labels.len() < 2 || !labels.iter().all(label_ok) {
            return Err(EmailError);
        }
        Ok(Self(email))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Email {
    type Error = EmailError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<Email> for String {
    fn from(e: Email) -> Self {
        e.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn plausible_addresses_parse_lower_cased() {
        for (raw, stored) in [
            ("asha@example.in", "asha@example.in"),
            (" Asha.Rao+parts@Mail.Example.CO.IN ", "asha.rao+parts@mail.example.co.in"),
            ("a@b.co", "a@b.co"),
        ] {
            assert_eq!(Email::parse(raw).map(|e| e.to_string()), Ok(stored.to_owned()), "{raw}");
        }
    }

    #[test]
    fn implausible_addresses_are_refused() {
        for raw in [
            "",
            "asha",
            "@example.in",
            "asha@",
            "asha@example",
            "asha@@example.in",
            "a@b@c.in",
            "asha @example.in",
            "asha@exa mple.in",
            "asha@.in",
            "asha@example..in",
            "asha@-x.in",
        ] {
            assert_eq!(Email::parse(raw), Err(EmailError), "{raw}");
        }
        assert_eq!(Email::parse(&format!("{}@example.in", "a".repeat(65))), Err(EmailError));
        assert_eq!(EmailError.code(), "email.invalid");
    }

    proptest! {
        #[test]
        fn parsing_is_idempotent(local in "[a-zA-Z0-9._+]{1,20}", domain in "[a-zA-Z0-9]{1,10}\\.[a-z]{2,4}") {
            let e = Email::parse(&format!("{local}@{domain}")).expect("plausible");
            prop_assert_eq!(Email::parse(e.as_str()), Ok(e.clone()));
        }
    }
}
