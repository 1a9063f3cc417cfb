//! `returns`: a signed-in customer asks to return a delivered part within its warranty days
//! (`POST /api/account/returns`, multipart with up to three photographs) and follows their returns
//! (`GET /api/account/returns`). The shop's side is `admin-returns` (`admin/returns.rs`).

use marque_app::{Action, ReturnRequestInput, ReturnsError, ReturnsService, Throttle};
use marque_domain::order::ReturnWindow;
use marque_domain::Message;
use marque_ports::{ProductReturn, UserId};
use poem_openapi::payload::Json;
use poem_openapi::types::multipart::Upload;
use poem_openapi::{ApiResponse, Multipart, Object, OpenApi, Tags};

use super::auth::Customer;
use super::error::ErrorBody;
use crate::orders::iso_8601;

#[derive(Tags)]
enum Tag {
    /// A customer's returns within the warranty.
    Returns,
}

/// A return as the customer (and, with more, the shop) reads it.
#[derive(Debug, Clone, Object)]
#[oai(rename = "ProductReturn")]
pub struct ReturnBody {
    #[oai(rename = "_id")]
    pub id: String,
    #[oai(rename = "orderId")]
    pub order_id: String,
    #[oai(rename = "orderNumber")]
    pub order_number: String,
    #[oai(rename = "productId")]
    pub product_id: String,
    #[oai(rename = "productName")]
    pub product_name: String,
    pub quantity: u32,
    pub reason: String,
    /// How many photographs came with it (`GET /api/admin/returns/{id}/photos/{n}`, 1-based, for staff).
    pub photos: u32,
    /// `requested`, `approved`, `refused`, `received` or `resolved`.
    pub state: String,
    /// The shop's note on approving or refusing.
    #[oai(nullable)]
    pub note: Option<String>,
    /// The shop's note on resolving.
    #[oai(rename = "resolutionNote", nullable)]
    pub resolution_note: Option<String>,
    /// `refund`, `replacement` or `storeCredit`, once resolved.
    #[oai(nullable)]
    pub outcome: Option<String>,
    /// What the refund or store credit gave, in rupees (0 for a replacement).
    #[oai(nullable)]
    pub amount: Option<f64>,
    /// The replacement's order, for a replacement.
    #[oai(rename = "replacementOrderId", nullable)]
    pub replacement_order_id: Option<String>,
    /// When the order was delivered, and when the warranty window closed (ISO 8601, UTC).
    #[oai(rename = "deliveredAt")]
    pub delivered_at: String,
    #[oai(rename = "windowClosesAt")]
    pub window_closes_at: String,
    #[oai(rename = "createdAt")]
    pub created_at: String,
    #[oai(rename = "updatedAt")]
    pub updated_at: String,
}

impl From<&ProductReturn> for ReturnBody {
    fn from(r: &ProductReturn) -> Self {
        let window = ReturnWindow { delivered_at: r.delivered_at, days: r.warranty_days };
        Self {
            id: r.id.clone(),
            order_id: r.order.0.clone(),
            order_number: r.order_number.clone(),
            product_id: r.product.0.clone(),
            product_name: r.product_name.clone(),
            quantity: r.quantity,
            reason: r.reason.clone(),
            photos: u32::try_from(r.photos.len()).unwrap_or(0),
            state: r.state.code().to_owned(),
            note: r.note.clone(),
            resolution_note: r.resolution_note.clone(),
            outcome: r.outcome.map(|o| o.code().to_owned()),
            amount: r.amount.map(marque_domain::Money::rupees),
            replacement_order_id: r.replacement_order.clone(),
            delivered_at: iso_8601(r.delivered_at),
            window_closes_at: iso_8601(window.closes_at()),
            created_at: iso_8601(r.created_at),
            updated_at: iso_8601(r.updated_at),
        }
    }
}

/// The customer's returns, newest first.
#[derive(Debug, Clone, Object)]
#[oai(rename = "ProductReturnList")]
pub struct ReturnListBody {
    pub results: Vec<ReturnBody>,
}

/// `POST /api/account/returns`.
#[derive(Debug, Multipart)]
pub struct ReturnForm {
    /// The order's `_id` (Purchase History's).
    #[oai(rename = "orderId")]
    order_id: String,
    /// The line's product.
    #[oai(rename = "productId")]
    product_id: String,
    /// Units to return: 1 to what was bought less what was refunded or is being returned already.
    quantity: i64,
    /// What is wrong with the part: 10 to 1000 characters.
    reason: String,
    /// Up to three photographs: JPEG, PNG or WebP, each at most 10 MB; repeat the field for several.
    photos: Vec<Upload>,
}

// Built once and moved straight into the response: the size of the return's body costs nothing worth a box.
#[expect(clippy::large_enum_variant, reason = "an answer is built once and moved into the response")]
#[derive(ApiResponse)]
#[oai(bad_request_handler = "request_bad_request")]
enum RequestAnswer {
    /// The return is asked for (`requested`); the customer is emailed (and sent an SMS).
    #[oai(status = 201)]
    Created(Json<ReturnBody>),
    /// A field that does not parse (`return.reason_invalid`, `return.quantity_invalid`,
    /// `return.unknown_line`, `return.too_many_photos`, `return.photo_invalid`, `request.invalid`).
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No valid session (`account.login_required`).
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>),
    /// No such order among the customer's (`order.not_found`): another customer's answers the same.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// Not as the order stands: not delivered (`return.not_delivered`), the warranty's days are over
    /// (`return.window_closed`), or no units left to return (`return.quantity_above_left`).
    #[oai(status = 409)]
    Conflict(Json<ErrorBody>),
    /// Too many return requests in an hour (`request.too_many`); `Retry-After` gives the seconds to wait.
    #[oai(status = 429)]
    TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
    /// A store the call needs cannot be reached right now.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

fn request_bad_request(err: poem::Error) -> RequestAnswer {
    match err.status() {
        poem::http::StatusCode::UNAUTHORIZED => {
            RequestAnswer::Unauthorized(ErrorBody::from_message(Message::LoginRequired))
        }
        poem::http::StatusCode::SERVICE_UNAVAILABLE => {
            RequestAnswer::Unavailable(ErrorBody::from_message(Message::AccountUnavailable))
        }
        _ => RequestAnswer::BadRequest(ErrorBody::from_poem(&err)),
    }
}

session_response!(MineAnswer, ReturnListBody, mine_bad_request, "mine_bad_request", {});

fn body(e: &ReturnsError) -> Json<ErrorBody> {
    if let ReturnsError::Unavailable(reason) = e {
        tracing::error!(%reason, "returns unavailable");
    }
    ErrorBody::from_message(e.message())
}

pub struct ReturnsApi {
    returns: ReturnsService,
    throttle: Throttle,
}

impl ReturnsApi {
    pub fn new(returns: ReturnsService, throttle: Throttle) -> Self {
        Self { returns, throttle }
    }
}

#[OpenApi(tag = "Tag::Returns")]
impl ReturnsApi {
    /// Asks to return units of a delivered line of one of the customer's orders, within the
    /// product's warranty days after delivery, with a reason and up to three photographs (checked
    /// by their content and size before they are decoded, re-encoded, metadata dropped).
    #[oai(path = "/account/returns", method = "post", operation_id = "requestReturn")]
    async fn request(&self, customer: Customer, form: ReturnForm) -> RequestAnswer {
        throttle!(self.throttle, Action::ReturnRequest, customer, RequestAnswer);
        if form.photos.len() > marque_domain::order::MAX_RETURN_PHOTOS {
            return RequestAnswer::BadRequest(ErrorBody::from_message(Message::ReturnTooManyPhotos));
        }
        let mut photos = Vec::with_capacity(form.photos.len());
        for upload in form.photos {
            if upload.size() > marque_app::returns::MAX_RETURN_PHOTO_BYTES {
                return RequestAnswer::BadRequest(ErrorBody::from_message(Message::ReturnPhotoInvalid));
            }
            match upload.into_vec().await {
                Ok(bytes) => photos.push(bytes),
                Err(_) => return RequestAnswer::BadRequest(ErrorBody::from_message(Message::ReturnPhotoInvalid)),
            }
        }
        let input = ReturnRequestInput {
            order: form.order_id,
            product: form.product_id,
            quantity: form.quantity,
            reason: form.reason,
            photos,
        };
        match self.returns.request(&UserId(customer.id().to_owned()), input).await {
            Ok(made) => RequestAnswer::Created(Json(ReturnBody::from(&made))),
            Err(e) => match &e {
                ReturnsError::Invalid(_) => RequestAnswer::BadRequest(body(&e)),
                ReturnsError::OrderNotFound | ReturnsError::NotFound => RequestAnswer::NotFound(body(&e)),
                ReturnsError::Refused(_) | ReturnsError::Changed { .. } => RequestAnswer::Conflict(body(&e)),
                _ => RequestAnswer::Unavailable(body(&e)),
            },
        }
    }

    /// The signed-in customer's returns, newest first, each with where it stands.
    #[oai(path = "/account/returns", method = "get", operation_id = "getReturns")]
    async fn mine(&self, customer: Customer) -> MineAnswer {
        match self.returns.mine(&UserId(customer.id().to_owned())).await {
            Ok(found) => MineAnswer::Ok(Json(ReturnListBody { results: found.iter().map(ReturnBody::from).collect() })),
            Err(e) => MineAnswer::Unavailable(body(&e)),
        }
    }
}
