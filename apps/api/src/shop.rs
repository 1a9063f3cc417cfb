//! Who runs the shop: the identity the frontends show in the footer, policies and chat link
//! (built from configuration by the server).

use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use marque_domain::invoice::Seller;
use marque_domain::tax::{GstState, Gstin};
use poem_openapi::Object;
use serde::Serialize;

#[derive(Tags)]
enum Tag {
    /// The shop's identity: legal name, GSTIN, contacts, grievance officer.
    Shop,
}

#[derive(ApiResponse)]
enum ShopResponse {
    /// The shop's identity, the same JSON every storefront page embeds as `#marque-shop`.
    #[oai(status = 200)]
    Ok(Json<ShopIdentity>),
}

pub struct ShopApi {
    identity: std::sync::Arc<ShopIdentity>,
}

impl ShopApi {
    pub fn new(identity: std::sync::Arc<ShopIdentity>) -> Self {
        Self { identity }
    }
}

#[OpenApi(tag = "Tag::Shop")]
impl ShopApi {
    /// The shop's identity, from configuration.
    #[oai(path = "/get/shop", method = "get", operation_id = "getShop")]
    async fn get_shop(&self) -> ShopResponse {
        ShopResponse::Ok(Json(self.identity.as_ref().clone()))
    }
}

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
    /// The shop as its invoices name it. The GSTIN and state were checked by
    /// the server when it built it from configuration, so `None` only for an identity built by hand wrongly.
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
    use super::address_lines;

    #[test]
    fn the_address_is_cut_into_lines_of_its_parts() {
        assert_eq!(address_lines("4 Lamington Road, Mumbai 400007"), ["4 Lamington Road, Mumbai 400007"]);
        assert_eq!(address_lines(" , Unit 9,,"), ["Unit 9"]);
    }
}
