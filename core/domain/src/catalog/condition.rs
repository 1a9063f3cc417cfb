//! A part's condition (`producttype`) and the fuel its car runs on.

use serde::{Deserialize, Serialize};

/// The condition of a part as stored (`producttype`). Values the shop does not
/// know are kept as they are and shown as 'Stock Lot'.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum Condition {
    New,
    NewWithoutBox,
    Refurbished,
    Old,
    Other(String),
}

impl Condition {
    /// The stored code, e.g. `new_without_box`.
    #[must_use]
    pub fn code(&self) -> &str {
        match self {
            Condition::New => "new",
            Condition::NewWithoutBox => "new_without_box",
            Condition::Refurbished => "refurbished",
            Condition::Old => "old",
            Condition::Other(code) => code,
        }
    }

    /// The label a shopper sees.
    #[must_use]
    pub fn label(&self) -> &'static str {
        match self {
            Condition::New => "New",
            Condition::NewWithoutBox => "New Without Box",
            Condition::Refurbished => "Refurbished",
            Condition::Old => "Old",
            Condition::Other(_) => "Stock Lot",
        }
    }

    /// Every code with a label of its own, in display order.
    pub const KNOWN: [Condition; 4] =
        [Condition::New, Condition::NewWithoutBox, Condition::Refurbished, Condition::Old];
}

impl From<String> for Condition {
    fn from(code: String) -> Self {
        Condition::from(code.as_str())
    }
}

impl From<&str> for Condition {
    fn from(code: &str) -> Self {
        match code {
            "new" => Condition::New,
            "new_without_box" => Condition::NewWithoutBox,
            "refurbished" => Condition::Refurbished,
            "old" => Condition::Old,
            other => Condition::Other(other.to_owned()),
        }
    }
}

impl From<Condition> for String {
    fn from(c: Condition) -> Self {
        c.code().to_owned()
    }
}

/// Fuel of the car a part fits. Stored lower-case (`petrol`, `diesel`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FuelType {
    Petrol,
    Diesel,
    Hybrid,
    Electric,
}

impl FuelType {
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            FuelType::Petrol => "petrol",
            FuelType::Diesel => "diesel",
            FuelType::Hybrid => "hybrid",
            FuelType::Electric => "electric",
        }
    }

    /// The label a shopper sees, e.g. `Petrol`.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            FuelType::Petrol => "Petrol",
            FuelType::Diesel => "Diesel",
            FuelType::Hybrid => "Hybrid",
            FuelType::Electric => "Electric",
        }
    }

    /// Every fuel, in display order.
    pub const ALL: [FuelType; 4] = [FuelType::Petrol, FuelType::Diesel, FuelType::Hybrid, FuelType::Electric];

    #[must_use]
    pub fn parse(code: &str) -> Option<Self> {
        match code.trim().to_ascii_lowercase().as_str() {
            "petrol" => Some(FuelType::Petrol),
            "diesel" => Some(FuelType::Diesel),
            "hybrid" => Some(FuelType::Hybrid),
            "electric" => Some(FuelType::Electric),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_specification() {
        let cases = [
            ("new", "New"),
            ("new_without_box", "New Without Box"),
            ("refurbished", "Refurbished"),
            ("old", "Old"),
            ("used", "Stock Lot"),
            ("", "Stock Lot"),
            ("NEW", "Stock Lot"),
        ];
        for (code, label) in cases {
            let c = Condition::from(code);
            assert_eq!(c.label(), label, "{code}");
            assert_eq!(c.code(), code, "code round-trips");
        }
    }

    #[test]
    fn fuel_codes_round_trip() {
        for f in FuelType::ALL {
            assert_eq!(FuelType::parse(f.code()), Some(f));
            assert_eq!(FuelType::parse(f.label()), Some(f), "labels read back too");
        }
        assert_eq!(FuelType::parse(" Diesel "), Some(FuelType::Diesel));
        assert_eq!(FuelType::parse("steam"), None);
    }
}
