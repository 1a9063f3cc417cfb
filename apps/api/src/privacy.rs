//! A customer's rights over their data (Digital Personal Data Protection Act 2023): a copy of it as
//! JSON, and the erasure of their account. Orders and invoices are kept as GST law requires.

use marque_app::{PrivacyError, PrivacyService};
use marque_domain::Message;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use super::account::StatusMessage;
use super::address::AddressView;
use super::auth::{ensure_owner, Customer};
use super::error::ErrorBody;
use super::model::SUCCESS;
use super::orders::{iso_8601, Order};
use super::returns::ReturnBody;

#[derive(Tags)]
enum Tag {
    /// Signing up, logging in (email and password, or a one-time code), the profile.
    Account,
}

/// The account as kept, in a customer's copy of their data.
#[derive(Debug, Clone, Object)]
#[oai(rename = "ExportedProfile")]
pub struct ExportedProfile {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    pub email: String,
    #[oai(rename = "googleEmail")]
    pub google_email: String,
    pub mobile: String,
    /// Address of the profile picture; empty for the default picture.
    pub profile: String,
    /// Whether the email was proven by its own code (or by the sign-in provider).
    #[oai(rename = "emailVerified")]
    pub email_verified: bool,
    /// Whether the mobile was proven by its own code.
    #[oai(rename = "mobileVerified")]
    pub mobile_verified: bool,
    /// The days the customer's offer still runs (0 without one), as `GET /api/get/user` says.
    #[oai(rename = "offerExp")]
    pub offer_exp: i64,
    pub percentage: u8,
    /// When the account was made (seconds since the Unix epoch).
    #[oai(rename = "createdAt")]
    pub created_at: i64,
}

/// A return in a customer's copy of their data: as Purchase History reads it, and the names of the
/// photographs sent with it.
#[derive(Debug, Clone, Object)]
#[oai(rename = "ExportedReturn")]
pub struct ExportedReturn {
    #[oai(rename = "return")]
    pub made: ReturnBody,
    /// The photographs' names in the shop's file store (`returns/…`), in the order they were sent.
    #[oai(rename = "photoNames")]
    pub photo_names: Vec<String>,
}

/// A grant of store credit in a customer's copy of their data.
#[derive(Debug, Clone, Object)]
#[oai(rename = "ExportedStoreCredit")]
pub struct ExportedGrant {
    #[oai(rename = "_id")]
    pub id: String,
    /// What was granted and what is left of it, in rupees.
    pub amount: f64,
    pub remaining: f64,
    /// When it was granted and when it expires (ISO 8601, UTC).
    #[oai(rename = "grantedAt")]
    pub granted_at: String,
    #[oai(rename = "expiresAt")]
    pub expires_at: String,
    /// Where it came from: `return:{id}` or `refund:{id}`.
    pub source: String,
}

/// Everything the shop keeps about the customer.
#[derive(Debug, Clone, Object)]
#[oai(rename = "DataExport")]
pub struct DataExportBody {
    /// `success`.
    pub status: String,
    pub profile: ExportedProfile,
    /// Saved delivery addresses, oldest first.
    pub addresses: Vec<AddressView>,
    /// The `_id`s of the wished products, most recently added first.
    pub wishlist: Vec<String>,
    /// The garage's cars, newest first.
    pub garage: Vec<crate::garage::KeptCarBody>,
    /// Every order, newest first, as sold.
    pub orders: Vec<Order>,
    /// The customer's returns, newest first.
    pub returns: Vec<ExportedReturn>,
    /// Every grant of store credit, spent or not.
    #[oai(rename = "storeCredit")]
    pub store_credit: Vec<ExportedGrant>,
}

session_response!(ExportResponse, DataExportBody, export_bad_request, "export_bad_request", {
    /// The path names another customer.
    Forbidden = 403,
});
session_response!(EraseResponse, StatusMessage, erase_bad_request, "erase_bad_request", {
    /// The path names another customer.
    Forbidden = 403,
});

fn unavailable(e: &PrivacyError) -> Json<ErrorBody> {
    tracing::error!(error = %e, "a customer's data could not be read or erased");
    ErrorBody::from_message(Message::AccountUnavailable)
}

pub struct PrivacyApi {
    privacy: PrivacyService,
}

impl PrivacyApi {
    pub fn new(privacy: PrivacyService) -> Self {
        Self { privacy }
    }

    fn service(&self) -> &PrivacyService {
        &self.privacy
    }
}

#[OpenApi(tag = "Tag::Account")]
impl PrivacyApi {
    /// A copy of everything the shop keeps about the customer, as JSON: the profile, saved
    /// addresses, wishlist, garage, orders, returns (with their photographs' names) and store credit
    /// grants (the Digital Personal Data Protection Act's right of access).
    #[oai(path = "/user/:userId/export", method = "get", operation_id = "exportUserData")]
    async fn export(
        &self,
        customer: Customer,
        /// The customer's `_id`.
        #[oai(name = "userId")]
        user_id: Path<String>,
    ) -> ExportResponse {
        if let Err(e) = ensure_owner(&customer, &user_id) {
            return ExportResponse::Forbidden(e);
        }
        match self.service().export(&customer.0.user).await {
            Ok(data) => {
                let u = data.user;
                ExportResponse::Ok(Json(DataExportBody {
                    status: SUCCESS.into(),
                    profile: ExportedProfile {
                        id: u.id.0,
                        name: u.name,
                        email: u.email,
                        google_email: u.google_email.unwrap_or_default(),
                        mobile: u.mobile,
                        profile: u.profile,
                        email_verified: u.email_verified,
                        mobile_verified: u.mobile_verified,
                        offer_exp: data.offer.offer_exp,
                        percentage: u.percentage,
                        created_at: u.created_at,
                    },
                    addresses: data.addresses.into_iter().map(AddressView::from).collect(),
                    wishlist: data.wishlist.into_iter().map(|p| p.0).collect(),
                    garage: data
                        .garage
                        .iter()
                        .map(|c| crate::garage::KeptCarBody {
                            vehicle_id: c.vehicle.to_string(),
                            year: c.year.map(i64::from),
                        })
                        .collect(),
                    orders: data.orders.iter().map(Order::from).collect(),
                    returns: data
                        .returns
                        .iter()
                        .map(|r| ExportedReturn { made: ReturnBody::from(r), photo_names: r.photos.clone() })
                        .collect(),
                    store_credit: data
                        .store_credit
                        .into_iter()
                        .map(|g| ExportedGrant {
                            id: g.id,
                            amount: g.amount.rupees(),
                            remaining: g.remaining.rupees(),
                            granted_at: iso_8601(g.granted_at),
                            expires_at: iso_8601(g.expires_at),
                            source: g.source,
                        })
                        .collect(),
                }))
            }
            Err(e) => ExportResponse::Unavailable(unavailable(&e)),
        }
    }

    /// Deletes the customer's account (the right of erasure), after the customer confirmed it: every
    /// session ends; addresses, wishlist, garage, picture and contact details are erased, and so are the
    /// reasons and photographs of the customer's returns. Orders and their invoices are kept for 72 months
    /// as GST law requires, with the name and address printed on them; so are the returns' records and
    /// the store credit ledger (credit left unspent lapses with the account).
    #[oai(path = "/user/:userId", method = "delete", operation_id = "deleteUser")]
    async fn erase(
        &self,
        customer: Customer,
        /// The customer's `_id`.
        #[oai(name = "userId")]
        user_id: Path<String>,
    ) -> EraseResponse {
        if let Err(e) = ensure_owner(&customer, &user_id) {
            return EraseResponse::Forbidden(e);
        }
        match self.service().erase(&customer.0.user).await {
            Ok(()) => {
                EraseResponse::Ok(Json(StatusMessage { status: SUCCESS.into(), message: ACCOUNT_DELETED.into() }))
            }
            Err(e) => EraseResponse::Unavailable(unavailable(&e)),
        }
    }
}

/// The answer of a deleted account (Marque's own text; the frontends show their own translation).
pub const ACCOUNT_DELETED: &str = "Your account has been deleted.";
