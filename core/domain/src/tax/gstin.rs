//! The GST identification number (GSTIN) of a registered business.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::message::{Message, UserFacing};

/// The 36 characters of the GSTIN alphabet; a character's value is its index.
const ALPHABET: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LENGTH: usize = 15;

/// A GSTIN such as `27AAPFU0939F1ZV`: a state code (2 digits), the holder's PAN
/// (5 letters, 4 digits, 1 letter), the registration number within that PAN
/// (1-9 or A-Z), `Z`, and a check character (GSTN's mod-36 algorithm).
///
/// Stored upper-case without spaces; once held, the format and check character are right.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Gstin(String);

/// Why a text is not a GSTIN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum GstinError {
    #[error("a GSTIN has 15 letters and digits")]
    Length,
    #[error("a GSTIN starts with a GST state code (01-38, 97 or 99)")]
    StateCode,
    #[error("characters 3-12 of a GSTIN are a PAN: 5 letters, 4 digits, 1 letter")]
    Pan,
    #[error("character 13 of a GSTIN is 1-9 or A-Z and character 14 is Z")]
    Registration,
    #[error("the GSTIN's check character does not match (a character is mistyped)")]
    CheckCharacter,
}

/// A person sees one message whatever part is wrong; the variant says which, for logs and configuration errors.
impl UserFacing for GstinError {
    fn message(&self) -> Message {
        Message::AddressGstinInvalid
    }
}

fn value(c: u8) -> Option<u32> {
    ALPHABET.iter().position(|&a| a == c).and_then(|i| u32::try_from(i).ok())
}

/// The check character of the first 14 characters: weights alternate 1 and 2;
/// each product counts as `product / 36 + product % 36`; the character brings the sum to a multiple of 36.
fn check_character(first14: &[u8]) -> Option<u8> {
    let mut sum = 0;
    for (i, &c) in first14.iter().enumerate() {
        let product = value(c)? * if i % 2 == 0 { 1 } else { 2 };
        sum += product / 36 + product % 36;
    }
    let index = usize::try_from((36 - sum % 36) % 36).ok()?;
    ALPHABET.get(index).copied()
}

impl Gstin {
    /// Spaces around and inside are ignored and letters are upper-cased.
    ///
    /// # Errors
    /// A [`GstinError`] naming the first part that is wrong.
    pub fn parse(raw: &str) -> Result<Self, GstinError> {
        let text: String = raw.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_uppercase();
        let b = text.as_bytes();
        if b.len() != LENGTH || !b.iter().all(u8::is_ascii_alphanumeric) {
            return Err(GstinError::Length);
        }
        let state: u8 = text[..2].parse().map_err(|_| GstinError::StateCode)?;
        if !matches!(state, 1..=38 | 97 | 99) {
            return Err(GstinError::StateCode);
        }
        let pan = &b[2..12];
        if !(pan[..5].iter().all(u8::is_ascii_uppercase)
            && pan[5..9].iter().all(u8::is_ascii_digit)
            && pan[9].is_ascii_uppercase())
        {
            return Err(GstinError::Pan);
        }
        if b[12] == b'0' || b[13] != b'Z' {
            return Err(GstinError::Registration);
        }
        if check_character(&b[..14]) != Some(b[14]) {
            return Err(GstinError::CheckCharacter);
        }
        Ok(Self(text))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The two-digit GST state code it is registered in (`07` for Delhi).
    #[must_use]
    pub fn state_code(&self) -> &str {
        &self.0[..2]
    }

    /// The holder's PAN.
    #[must_use]
    pub fn pan(&self) -> &str {
        &self.0[2..12]
    }
}

impl TryFrom<String> for Gstin {
    type Error = GstinError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<Gstin> for String {
    fn from(g: Gstin) -> Self {
        g.0
    }
}

impl fmt::Display for Gstin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A GSTIN in the published format, used in GSTN's own examples.
    const KNOWN_VALID: &str = "27AAPFU0939F1ZV";

    #[test]
    fn a_known_valid_gstin_parses() {
        let g = Gstin::parse(KNOWN_VALID).expect("valid");
        assert_eq!(g.as_str(), KNOWN_VALID);
        assert_eq!(g.state_code(), "27");
        assert_eq!(g.pan(), "AAPFU0939F");
        for other in ["29AAGCB7383J1Z4", "33AAACH7409R1Z8", "24AAACC1206D1ZM", "07AAKCM4821R1ZU"] {
            assert!(Gstin::parse(other).is_ok(), "{other}");
        }
    }

    #[test]
    fn spaces_and_case_do_not_matter() {
        assert_eq!(Gstin::parse(" 27aapfu0939f1zv ").map(String::from), Ok(KNOWN_VALID.to_owned()));
        assert_eq!(Gstin::parse("27 AAPFU 0939F 1ZV").map(String::from), Ok(KNOWN_VALID.to_owned()));
    }

    #[test]
    fn each_wrong_part_is_named() {
        assert_eq!(Gstin::parse("27AAPFU0939F1Z"), Err(GstinError::Length));
        assert_eq!(Gstin::parse("27AAPFU0939F1ZV1"), Err(GstinError::Length));
        assert_eq!(Gstin::parse("27AAPFU-939F1ZV"), Err(GstinError::Length));
        assert_eq!(Gstin::parse("00AAPFU0939F1ZV"), Err(GstinError::StateCode));
        assert_eq!(Gstin::parse("39AAPFU0939F1ZV"), Err(GstinError::StateCode));
        assert_eq!(Gstin::parse("A7AAPFU0939F1ZV"), Err(GstinError::StateCode));
        assert_eq!(Gstin::parse("27AAPF10939F1ZV"), Err(GstinError::Pan));
        assert_eq!(Gstin::parse("27AAPFU093AF1ZV"), Err(GstinError::Pan));
        assert_eq!(Gstin::parse("27AAPFU093911ZV"), Err(GstinError::Pan));
        assert_eq!(Gstin::parse("27AAPFU0939F0ZV"), Err(GstinError::Registration));
        assert_eq!(Gstin::parse("27AAPFU0939F1YV"), Err(GstinError::Registration));
        assert_eq!(Gstin::parse("27AAPFU0939F1ZW"), Err(GstinError::CheckCharacter));
    }

    #[test]
    fn deserialising_goes_through_parse() {
        let g: Gstin = serde_json::from_str(&format!("\"{KNOWN_VALID}\"")).expect("valid");
        assert_eq!(serde_json::to_string(&g).expect("serialises"), format!("\"{KNOWN_VALID}\""));
        assert!(serde_json::from_str::<Gstin>("\"27AAPFU0939F1ZW\"").is_err());
    }

    fn first14() -> impl Strategy<Value = String> {
        (1u8..=38, "[A-Z]{5}[0-9]{4}[A-Z]", "[1-9A-Z]").prop_map(|(s, pan, n)| format!("{s:02}{pan}{n}Z"))
    }

    proptest! {
        #[test]
        fn a_computed_check_character_always_parses(head in first14()) {
            let check = char::from(check_character(head.as_bytes()).expect("alphabet"));
            let gstin = format!("{head}{check}");
            prop_assert_eq!(Gstin::parse(&gstin).map(String::from), Ok(gstin));
        }

        #[test]
        fn any_other_check_character_is_refused(head in first14(), wrong in 0usize..36) {
            let right = check_character(head.as_bytes()).expect("alphabet");
            let wrong = ALPHABET[wrong];
            prop_assume!(wrong != right);
            let gstin = format!("{head}{}", char::from(wrong));
            prop_assert_eq!(Gstin::parse(&gstin), Err(GstinError::CheckCharacter));
        }

        #[test]
        fn one_mistyped_character_is_caught(head in first14(), at in 2usize..12, by in 1u8..10) {
            let check = char::from(check_character(head.as_bytes()).expect("alphabet"));
            let mut bytes = format!("{head}{check}").into_bytes();
            // Change a PAN character to another of its kind, keeping the format valid.
            bytes[at] = if bytes[at].is_ascii_digit() {
                b'0' + (bytes[at] - b'0' + by) % 10
            } else {
                b'A' + (bytes[at] - b'A' + by) % 26
            };
            let mistyped = String::from_utf8(bytes).expect("ascii");
            prop_assert_eq!(Gstin::parse(&mistyped), Err(GstinError::CheckCharacter));
        }
    }
}
