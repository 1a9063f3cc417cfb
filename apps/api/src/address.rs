//! The address book: a logged-in customer's delivery addresses (at most 20).

use marque_app::{Action, AddressError, AddressService, Throttle};
use marque_domain::address::{AddressErrors, AddressId, AddressInput, SavedAddress};
use marque_domain::Message;
use marque_ports::UserId;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use super::auth::{ensure_owner, forbidden, Customer};
use super::error::ErrorBody;
use super::model::SUCCESS;

#[derive(Tags)]
enum Tag {
    /// A customer's delivery addresses.
    Address,
}

/// A saved delivery address, as the user object (`address`) and the address calls return it.
#[derive(Debug, Clone, Object)]
#[oai(rename = "Address", rename_all = "camelCase")]
pub struct AddressView {
    #[oai(rename = "_id")]
    pub id: String,
    pub house_no: String,
    /// May be empty.
    pub street: String,
    /// May be empty.
    pub landmark: String,
    pub city: String,
    /// One of India's states and union territories, as `GST_STATES` names it.
    pub state: String,
    /// 10 digits starting 6-9.
    pub mobile_no: String,
    /// 6 digits.
    pub pincode: String,
    /// A business buyer's 15-character GSTIN; empty for none.
    pub gstin: String,
}

impl From<SavedAddress> for AddressView {
    fn from(saved: SavedAddress) -> Self {
        let a = saved.address.to_input();
        Self {
            id: saved.id.0,
            house_no: a.house_no,
            street: a.street,
            landmark: a.landmark,
            city: a.city,
            state: a.state,
            mobile_no: a.mobile_no,
            pincode: a.pincode,
            gstin: a.gstin,
        }
    }
}

/// The address form: every field a string, a missing one counts as empty.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AddressForm", rename_all = "camelCase")]
pub struct AddressForm {
    pub house_no: Option<String>,
    pub street: Option<String>,
    pub landmark: Option<String>,
    pub city: Option<String>,
    /// A name from `GST_STATES`, in any case.
    pub state: Option<String>,
    pub mobile_no: Option<String>,
    pub pincode: Option<String>,
    /// Empty, or a GSTIN with a valid check character.
    pub gstin: Option<String>,
}

impl From<AddressForm> for AddressInput {
    fn from(f: AddressForm) -> Self {
        Self {
            house_no: f.house_no.unwrap_or_default(),
            street: f.street.unwrap_or_default(),
            landmark: f.landmark.unwrap_or_default(),
            city: f.city.unwrap_or_default(),
            state: f.state.unwrap_or_default(),
            mobile_no: f.mobile_no.unwrap_or_default(),
            pincode: f.pincode.unwrap_or_default(),
            gstin: f.gstin.unwrap_or_default(),
        }
    }
}

/// One field that failed, with the message the form shows for it.
#[derive(Debug, Clone, Object)]
pub struct FieldError {
    /// The field's name, e.g. `pincode`.
    pub field: String,
    pub message: String,
    pub code: String,
}

/// `failed` with every failing field; `message` and `code` are the first one's.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AddressError")]
pub struct InvalidAddressBody {
    /// Always `failed`.
    pub status: String,
    pub message: String,
    #[oai(skip_serializing_if_is_none)]
    pub code: Option<String>,
    /// Every failing field, in form order; empty when the body itself did not parse.
    pub errors: Vec<FieldError>,
}

impl From<ErrorBody> for InvalidAddressBody {
    fn from(e: ErrorBody) -> Self {
        Self { status: e.status, message: e.message, code: e.code, errors: Vec::new() }
    }
}

/// Every failing field of a form, in form order, each named as the call's body names it.
pub(crate) fn field_errors<F: Copy + PartialEq>(
    errors: &marque_domain::FieldErrors<F>,
    name: impl Fn(F) -> &'static str,
) -> Vec<FieldError> {
    errors
        .iter()
        .map(|(field, m)| FieldError { field: name(field).into(), message: m.text().into(), code: m.code().into() })
        .collect()
}

impl From<&AddressErrors> for InvalidAddressBody {
    fn from(errors: &AddressErrors) -> Self {
        let first = ErrorBody::from_rule(errors).0;
        Self { errors: field_errors(errors, |f| f.name()), ..first.into() }
    }
}

/// An address was added: its id and the whole book.
#[derive(Debug, Clone, Object)]
pub struct AddedBody {
    /// `success`.
    pub status: String,
    pub message: String,
    /// The new address's id.
    #[oai(rename = "_id")]
    pub id: String,
    /// Every address of the customer, oldest first.
    pub address: Vec<AddressView>,
}

/// An address was edited.
#[derive(Debug, Clone, Object)]
pub struct EditedBody {
    /// `success`.
    pub status: String,
    /// `address updated successfully`.
    pub message: String,
    #[oai(rename = "_id")]
    pub id: String,
    /// The address as saved.
    pub address: AddressView,
}

/// An address was removed: the addresses left.
#[derive(Debug, Clone, Object)]
pub struct RemovedBody {
    /// `success`.
    pub status: String,
    /// Every address left, oldest first.
    pub address: Vec<AddressView>,
}

session_response!(AddResponse, AddedBody, add_bad_request, "add_bad_request", bad_request = InvalidAddressBody, limited, {
    /// `userId` names another customer.
    Forbidden = 403,
    /// The customer keeps 20 addresses already (`address.book_full`).
    Conflict = 409,
});
session_response!(EditResponse, EditedBody, edit_bad_request, "edit_bad_request", bad_request = InvalidAddressBody, limited, {
    /// The address is another customer's; nothing changes.
    Forbidden = 403,
    /// No address has this id (`address.not_found`).
    NotFound = 404,
});
session_response!(RemoveResponse, RemovedBody, remove_bad_request, "remove_bad_request", limited, {
    /// `userId` names another customer, or the address is another customer's; nothing changes.
    Forbidden = 403,
    /// No address has this id (`address.not_found`).
    NotFound = 404,
});

/// The body of an address error that is not a field's.
fn body(e: &AddressError) -> Json<ErrorBody> {
    if let AddressError::Unavailable(reason) = e {
        tracing::error!(%reason, "address book unavailable");
    }
    ErrorBody::from_message(e.message())
}

fn views(book: Vec<SavedAddress>) -> Vec<AddressView> {
    book.into_iter().map(AddressView::from).collect()
}

pub struct AddressApi {
    addresses: AddressService,
    throttle: Throttle,
}

impl AddressApi {
    pub fn new(addresses: AddressService, throttle: Throttle) -> Self {
        Self { addresses, throttle }
    }
}

#[OpenApi(tag = "Tag::Address")]
impl AddressApi {
    /// Adds a delivery address to the customer's book. Every failing field is answered at once.
    #[oai(path = "/add/address/:userId", method = "patch", operation_id = "addAddress")]
    async fn add(
        &self,
        customer: Customer,
        #[oai(name = "userId")] user_id: Path<String>,
        form: Json<AddressForm>,
    ) -> AddResponse {
        if let Err(e) = ensure_owner(&customer, &user_id) {
            return AddResponse::Forbidden(e);
        }
        throttle!(self.throttle, Action::AddressWrite, customer, AddResponse);
        let user = UserId(customer.id().to_owned());
        let added = match self.addresses.add(&user, &form.0.into()).await {
            Ok(added) => added,
            Err(AddressError::Invalid(errors)) => return AddResponse::BadRequest(Json((&errors).into())),
            Err(e @ AddressError::Full) => return AddResponse::Conflict(body(&e)),
            Err(e) => return AddResponse::Unavailable(body(&e)),
        };
        match self.addresses.list(&user).await {
            Ok(book) => AddResponse::Ok(Json(AddedBody {
                status: SUCCESS.into(),
                message: Message::AddressAdded.text().into(),
                id: added.id.0,
                address: views(book),
            })),
            Err(e) => AddResponse::Unavailable(body(&e)),
        }
    }

    /// Replaces one of the customer's addresses; its id stays.
    #[oai(path = "/edit/address/:addressId", method = "patch", operation_id = "editAddress")]
    async fn edit(
        &self,
        customer: Customer,
        #[oai(name = "addressId")] address_id: Path<String>,
        form: Json<AddressForm>,
    ) -> EditResponse {
        throttle!(self.throttle, Action::AddressWrite, customer, EditResponse);
        let user = UserId(customer.id().to_owned());
        match self.addresses.edit(&user, &AddressId(address_id.0), &form.0.into()).await {
            Ok(saved) => EditResponse::Ok(Json(EditedBody {
                status: SUCCESS.into(),
                message: Message::AddressUpdated.text().into(),
                id: saved.id.0.clone(),
                address: saved.into(),
            })),
            Err(AddressError::Invalid(errors)) => EditResponse::BadRequest(Json((&errors).into())),
            Err(AddressError::Forbidden) => EditResponse::Forbidden(forbidden()),
            Err(e @ AddressError::NotFound) => EditResponse::NotFound(body(&e)),
            Err(e) => EditResponse::Unavailable(body(&e)),
        }
    }

    /// Removes one of the customer's addresses; answers the addresses left.
    #[oai(path = "/remove/:userId/address/:addressId", method = "delete", operation_id = "removeAddress")]
    async fn remove(
        &self,
        customer: Customer,
        #[oai(name = "userId")] user_id: Path<String>,
        #[oai(name = "addressId")] address_id: Path<String>,
    ) -> RemoveResponse {
        if let Err(e) = ensure_owner(&customer, &user_id) {
            return RemoveResponse::Forbidden(e);
        }
        throttle!(self.throttle, Action::AddressWrite, customer, RemoveResponse);
        let user = UserId(customer.id().to_owned());
        let removed = self.addresses.remove(&user, &AddressId(address_id.0)).await;
        let outcome = match removed {
            Ok(()) => self.addresses.list(&user).await,
            Err(e) => Err(e),
        };
        match outcome {
            Ok(book) => RemoveResponse::Ok(Json(RemovedBody { status: SUCCESS.into(), address: views(book) })),
            Err(AddressError::Forbidden) => RemoveResponse::Forbidden(forbidden()),
            Err(e @ AddressError::NotFound) => RemoveResponse::NotFound(body(&e)),
            Err(e) => RemoveResponse::Unavailable(body(&e)),
        }
    }
}
