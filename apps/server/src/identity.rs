//! The shop's identity (legal name, GSTIN, contacts, grievance officer), built once from the
//! settings (`crate::settings::identity`, where every value is checked); the API publishes it
//! (`marque_api::ShopIdentity`).

use marque_api::{GrievanceOfficer, ShopIdentity};

use crate::settings::identity::IdentitySettings;

/// The identity as the settings give it (every value checked there), before the payment and
/// sign-in settings are added.
#[must_use]
pub fn from_settings(c: &IdentitySettings) -> ShopIdentity {
    ShopIdentity {
        name: c.name.clone(),
        legal_name: c.legal_name.clone(),
        address: c.address.clone(),
        gstin: c.gstin.to_string(),
        state: c.state.name.to_owned(),
        state_code: c.state.code.to_owned(),
        support_email: c.support_email.as_str().to_owned(),
        support_phone: c.support_phone.clone(),
        enquiry_phone: c.enquiry_phone.clone(),
        chat_number: c.chat_number.clone(),
        grievance_officer: GrievanceOfficer {
            name: c.grievance_name.clone(),
            email: c.grievance_email.as_str().to_owned(),
            phone: c.grievance_phone.clone(),
        },
        payment: None,
        sign_in: None,
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use marque_domain::tax::Gstin;

    use super::*;
    use crate::settings::Flags;

    /// The `dev` identity: every value the demo's.
    fn demo() -> ShopIdentity {
        let flags = Flags::for_tests(PathBuf::from("web"));
        from_settings(&IdentitySettings::parse(&flags).expect("demo identity"))
    }

    #[test]
    fn the_seller_prints_the_address_in_lines_of_its_parts() {
        let id = demo();
        let seller = id.seller().expect("a valid seller");
        assert_eq!(seller.legal_name, "Marque Parts Private Limited");
        assert_eq!((seller.gstin.as_str(), seller.state.code), ("07AAKCM4821R1ZU", "07"));
        assert_eq!(seller.address_lines, ["Plot 14, Okhla Industrial Estate Phase III", "New Delhi, Delhi 110020"]);
    }

    #[test]
    fn dev_fills_a_believable_demo_identity() {
        let id = demo();
        assert_eq!(id.legal_name, "Marque Parts Private Limited");
        assert_eq!((id.state.as_str(), id.state_code.as_str()), ("Delhi", "07"));
        assert!(Gstin::parse(&id.gstin).is_ok_and(|g| g.state_code() == "07"));
        assert!(id.address.contains("New Delhi"));
        assert!(!id.grievance_officer.name.is_empty() && !id.grievance_officer.phone.is_empty());
        assert_eq!(id.chat_number.as_deref(), Some("919810042424"));
        let json = serde_json::to_string(&id).expect("serialises");
        for placeholder in ["XXXX", ".example", "example.com"] {
            assert!(!json.contains(placeholder), "{placeholder} in {json}");
        }
    }
}
