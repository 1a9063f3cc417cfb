//! The delivery region: NCR (Delhi and its neighbours) or the rest of India.

use serde::{Deserialize, Serialize};

use super::Pincode;

/// Pincode prefixes of the NCR region: Delhi, Faridabad, Noida/Ghaziabad, Gurugram.
pub const NCR_PREFIXES: [&str; 4] = ["110", "121", "201", "122"];

/// Which of a product's two delivery charges applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryRegion {
    Ncr,
    OutsideNcr,
}

/// The region rule on any text: NCR when its first three characters (after
/// surrounding spaces) are one of [`NCR_PREFIXES`]; nothing after them counts.
#[must_use]
pub fn is_ncr_pincode(pincode: &str) -> bool {
    let pin = pincode.trim();
    NCR_PREFIXES.iter().any(|prefix| pin.starts_with(prefix))
}

impl DeliveryRegion {
    #[must_use]
    pub fn of(pincode: &Pincode) -> Self {
        if is_ncr_pincode(pincode.as_str()) {
            DeliveryRegion::Ncr
        } else {
            DeliveryRegion::OutsideNcr
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn region(pin: &str) -> DeliveryRegion {
        DeliveryRegion::of(&Pincode::parse(pin).expect("valid pincode"))
    }

    #[test]
    fn the_four_prefixes_are_ncr_and_their_neighbours_are_not() {
        for pin in ["110001", "121001", "201301", "122001", "110999", "122999"] {
            assert_eq!(region(pin), DeliveryRegion::Ncr, "{pin}");
        }
        for pin in ["109999", "111001", "120999", "123001", "200999", "202001", "560001", "400001"] {
            assert_eq!(region(pin), DeliveryRegion::OutsideNcr, "{pin}");
        }
    }

    proptest! {
        #[test]
        fn only_the_first_three_digits_decide(prefix in "[1-9][0-9]{2}", a in "[0-9]{3}", b in "[0-9]{3}") {
            let (one, other) = (region(&format!("{prefix}{a}")), region(&format!("{prefix}{b}")));
            prop_assert_eq!(one, other);
            prop_assert_eq!(one == DeliveryRegion::Ncr, NCR_PREFIXES.contains(&prefix.as_str()));
        }
    }
}
