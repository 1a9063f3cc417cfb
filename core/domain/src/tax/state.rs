//! India's 28 states and 8 union territories with their two-digit GST state codes.

/// A state or union territory as GST knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GstState {
    /// Two digits, the first two characters of every GSTIN registered there.
    pub code: &'static str,
    pub name: &'static str,
}

const fn state(code: &'static str, name: &'static str) -> GstState {
    GstState { code, name }
}

/// Every state and union territory, by GST state code. Code 25 (Daman and Diu)
/// was merged into 26 in 2020; 28 (undivided Andhra Pradesh) is no longer issued.
pub const GST_STATES: [GstState; 36] = [
    state("01", "Jammu and Kashmir"),
    state("02", "Himachal Pradesh"),
    state("03", "Punjab"),
    state("04", "Chandigarh"),
    state("05", "Uttarakhand"),
    state("06", "Haryana"),
    state("07", "Delhi"),
    state("08", "Rajasthan"),
    state("09", "Uttar Pradesh"),
    state("10", "Bihar"),
    state("11", "Sikkim"),
    state("12", "Arunachal Pradesh"),
    state("13", "Nagaland"),
    state("14", "Manipur"),
    state("15", "Mizoram"),
    state("16", "Tripura"),
    state("17", "Meghalaya"),
    state("18", "Assam"),
    state("19", "West Bengal"),
    state("20", "Jharkhand"),
    state("21", "Odisha"),
    state("22", "Chhattisgarh"),
    state("23", "Madhya Pradesh"),
    state("24", "Gujarat"),
    state("26", "Dadra and Nagar Haveli and Daman and Diu"),
    state("27", "Maharashtra"),
    state("29", "Karnataka"),
    state("30", "Goa"),
    state("31", "Lakshadweep"),
    state("32", "Kerala"),
    state("33", "Tamil Nadu"),
    state("34", "Puducherry"),
    state("35", "Andaman and Nicobar Islands"),
    state("36", "Telangana"),
    state("37", "Andhra Pradesh"),
    state("38", "Ladakh"),
];

impl GstState {
    /// The state of this name, ignoring case and surrounding spaces.
    #[must_use]
    pub fn by_name(name: &str) -> Option<Self> {
        let name = name.trim();
        GST_STATES.iter().copied().find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// The state of this two-digit code.
    #[must_use]
    pub fn by_code(code: &str) -> Option<Self> {
        GST_STATES.iter().copied().find(|s| s.code == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_eight_states_and_eight_territories_with_distinct_codes() {
        let mut codes: Vec<&str> = GST_STATES.iter().map(|s| s.code).collect();
        codes.dedup();
        assert_eq!(codes.len(), 36);
        assert!(codes.windows(2).all(|w| w[0] < w[1]), "sorted by code");
    }

    #[test]
    fn states_are_found_by_name_and_code() {
        assert_eq!(GstState::by_name(" delhi ").map(|s| s.code), Some("07"));
        assert_eq!(GstState::by_code("27").map(|s| s.name), Some("Maharashtra"));
        assert_eq!(GstState::by_name("Atlantis"), None);
        assert_eq!(GstState::by_code("25"), None);
    }
}
