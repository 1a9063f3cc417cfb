//! A customer's name as given at sign-up or in the profile.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::message::{user_facing_error, Message, UserFacing};

/// A non-blank name, trimmed. Nothing else is asked of a name: people's names
/// take every shape.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct PersonName(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PersonNameError;

impl UserFacing for PersonNameError {
    fn message(&self) -> Message {
        Message::NameRequired
    }
}
user_facing_error!(PersonNameError);

impl PersonName {
    /// # Errors
    /// [`PersonNameError`] when nothing but spaces was given.
    pub fn parse(raw: &str) -> Result<Self, PersonNameError> {
        let name = raw.trim();
        if name.is_empty() {
            return Err(PersonNameError);
        }
        Ok(Self(name.to_owned()))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for PersonName {
    type Error = PersonNameError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<PersonName> for String {
    fn from(n: PersonName) -> Self {
        n.0
    }
}

impl fmt::Display for PersonName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_required() {
        assert_eq!(PersonName::parse("  Asha Rao ").map(|n| n.to_string()), Ok("Asha Rao".into()));
        assert_eq!(PersonName::parse("आशा").map(|n| n.to_string()), Ok("आशा".into()));
        assert_eq!(PersonName::parse(" \t "), Err(PersonNameError));
        assert_eq!(PersonNameError.code(), "name.required");
    }
}
