//! Part numbers as printed by each maker, and the normalised form search matches on.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::message::{user_facing_error, Message, UserFacing};

/// Reduces a part number to upper-case ASCII letters and digits, so
/// `A 000 180 26 09`, `a0001802609` and `A000-180-2609` all become `A0001802609`.
/// Idempotent.
#[must_use]
pub fn normalize_part_number(raw: &str) -> String {
    raw.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_uppercase()).collect()
}

/// A maker's part number, kept as written (for display) with its normalised form.
/// In serde it is the printed text; the normalised form is always recomputed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct PartNumber {
    printed: String,
    normalized: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartNumberError {
    Empty,
}

impl UserFacing for PartNumberError {
    fn message(&self) -> Message {
        Message::PartNumberEmpty
    }
}
user_facing_error!(PartNumberError);

impl PartNumber {
    /// # Errors
    /// [`PartNumberError::Empty`] when the text holds no letter or digit.
    pub fn parse(printed: &str) -> Result<Self, PartNumberError> {
        let normalized = normalize_part_number(printed);
        if normalized.is_empty() {
            return Err(PartNumberError::Empty);
        }
        Ok(Self { printed: printed.trim().to_owned(), normalized })
    }

    /// As the maker prints it, e.g. `A 000 180 26 09`.
    #[must_use]
    pub fn printed(&self) -> &str {
        &self.printed
    }

    /// Upper-case letters and digits only, e.g. `A0001802609`.
    #[must_use]
    pub fn normalized(&self) -> &str {
        &self.normalized
    }
}

impl TryFrom<String> for PartNumber {
    type Error = PartNumberError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<PartNumber> for String {
    fn from(p: PartNumber) -> Self {
        p.printed
    }
}

impl fmt::Display for PartNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.printed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn deserialising_recomputes_the_normalised_form() {
        let p: PartNumber = serde_json::from_str("\"A 000 180 26 09\"").expect("valid");
        assert_eq!(p.normalized(), "A0001802609");
        assert_eq!(serde_json::to_string(&p).expect("serialises"), "\"A 000 180 26 09\"");
        assert!(serde_json::from_str::<PartNumber>("\" - \"").is_err());
        let forged = r#"{"printed":"A 000","normalized":"ZZZ"}"#;
        assert!(serde_json::from_str::<PartNumber>(forged).is_err(), "no inconsistent pair");
    }

    #[test]
    fn spellings_of_one_part_normalise_alike() {
        for s in ["A 000 180 26 09", "a0001802609", "A000-180-2609", "a.000/180 26-09"] {
            assert_eq!(normalize_part_number(s), "A0001802609", "{s}");
        }
        assert_eq!(normalize_part_number("11 42 7 953 129"), "11427953129");
    }

    #[test]
    fn empty_part_numbers_are_refused() {
        assert_eq!(PartNumber::parse(" -/. "), Err(PartNumberError::Empty));
        let p = PartNumber::parse(" LR 012 345 ").expect("valid");
        assert_eq!((p.printed(), p.normalized()), ("LR 012 345", "LR012345"));
    }

    proptest! {
        #[test]
        fn normalising_twice_changes_nothing(s in ".*") {
            let once = normalize_part_number(&s);
            prop_assert_eq!(normalize_part_number(&once), once.clone());
            prop_assert!(once.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()));
        }

        #[test]
        fn separators_and_case_are_ignored(core in "[A-Za-z0-9]{1,12}", seps in proptest::collection::vec(prop_oneof![Just(' '), Just('.'), Just('-'), Just('/')], 12)) {
            let mut spelled = String::new();
            for (c, sep) in core.chars().zip(seps.iter().cycle()) {
                spelled.push(c);
                spelled.push(*sep);
            }
            prop_assert_eq!(normalize_part_number(&spelled), core.to_ascii_uppercase());
        }
    }
}
