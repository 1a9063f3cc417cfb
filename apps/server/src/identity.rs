//! The shop's identity (legal name, GSTIN, contacts, grievance officer), built
//! once from configuration and published to the frontends by the server.

use marque_domain::invoice::Seller;
use marque_domain::tax::{GstState, Gstin};
use poem_openapi::Object;
use serde::Serialize;

use crate::settings::identity::IdentitySettings;

/// Who runs the shop, as the storefront, policies and invoices state it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Object)]
#[serde(rename_all = "camelCase")]
#[oai(rename_all = "camelCase")]
pub struct ShopIdentity {
    /// Trading name, used in page titles.
    pub name: String,
    /// Registered (legal) name.
    pub legal_name: String,
    /// Registered office address.
    pub address: String,
    /// The seller's GSTIN.
    pub gstin: String,
    /// The seller's state or union territory.
    pub state: String,
    /// Its two-digit GST state code (`07` for Delhi).
    pub state_code: String,
    pub support_email: String,
    pub support_phone: String,
    /// Shown in the announcement banner for enquiries.
    pub enquiry_phone: String,
    /// WhatsApp number, digits with the country code; `null` means no chat link.
    /// Always present in the JSON (as `null` when there is none).
    #[oai(nullable)]
    pub chat_number: Option<String>,
    pub grievance_officer: GrievanceOfficer,
    /// What the checkout needs to open the payment provider's window; `null` until payments are set up.
    #[oai(nullable)]
    pub payment: Option<PaymentSettings>,
    /// The third-party sign-in the login page offers; `null` when none is configured (`prod` without
    /// Google's keys), and the login page then offers no such button.
    #[oai(nullable)]
    pub sign_in: Option<SignInSettings>,
}

/// A configured third-party sign-in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Object)]
pub struct SignInSettings {
    /// The provider (`google`).
    pub provider: String,
    /// Where its popup opens (`/api/google`).
    pub start: String,
}

impl SignInSettings {
    /// Google sign-in (or its `dev` stand-in), started at `GET /api/google`.
    #[must_use]
    pub fn google() -> Self {
        Self { provider: "google".to_owned(), start: "/api/google".to_owned() }
    }
}

/// The payment provider's public key and the checkout script browsers load on Pay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Object)]
pub struct PaymentSettings {
    /// The public key id (`rzp_test_…`).
    pub key: String,
    /// The checkout script's address.
    pub script: String,
}

/// The grievance officer customers may write to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Object)]
#[serde(rename_all = "camelCase")]
#[oai(rename_all = "camelCase")]
pub struct GrievanceOfficer {
    pub name: String,
    pub email: String,
    pub phone: String,
}

impl ShopIdentity {
    /// The identity as the settings give it (every value checked there), before the payment and
    /// sign-in settings are added.
    #[must_use]
    pub fn from_settings(c: &IdentitySettings) -> Self {
        Self {
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
}

impl ShopIdentity {
    /// The shop as its invoices name it. The GSTIN and state were checked by
    /// [`IdentitySettings::parse`], so `None` only for an identity built by hand wrongly.
    #[must_use]
    pub fn seller(&self) -> Option<Seller> {
        Some(Seller {
            legal_name: self.legal_name.clone(),
            address_lines: address_lines(&self.address),
            gstin: Gstin::parse(&self.gstin).ok()?,
            state: GstState::by_name(&self.state)?,
        })
    }
}

/// The one-line registered address as printed lines: its comma-separated parts joined while a
/// line stays within [`ADDRESS_LINE_CHARS`] characters.
fn address_lines(address: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for part in address.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 2 + part.chars().count() <= ADDRESS_LINE_CHARS => {
                line.push_str(", ");
                line.push_str(part);
            }
            _ => lines.push(part.to_owned()),
        }
    }
    lines
}

/// Widest address line the invoice's header holds comfortably.
const ADDRESS_LINE_CHARS: usize = 45;

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::settings::Flags;

    /// The `dev` identity: every value the demo's.
    fn demo() -> ShopIdentity {
        let flags = Flags::for_tests(PathBuf::from("web"));
        ShopIdentity::from_settings(&IdentitySettings::parse(&flags).expect("demo identity"))
    }

    #[test]
    fn the_seller_prints_the_address_in_lines_of_its_parts() {
        let id = demo();
        let seller = id.seller().expect("a valid seller");
        assert_eq!(seller.legal_name, "Marque Parts Private Limited");
        assert_eq!((seller.gstin.as_str(), seller.state.code), ("07AAKCM4821R1ZU", "07"));
        assert_eq!(seller.address_lines, ["Plot 14, Okhla Industrial Estate Phase III", "New Delhi, Delhi 110020"]);
        assert_eq!(address_lines("4 Lamington Road, Mumbai 400007"), ["4 Lamington Road, Mumbai 400007"]);
        assert_eq!(address_lines(" , Unit 9,,"), ["Unit 9"]);
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
