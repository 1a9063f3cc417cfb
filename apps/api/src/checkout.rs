//! Checkout and payment: checkout items, starting a payment, and the provider's confirmations.
//!
//! The story of one purchase is in docs/checkout-api.md. Money leaves as rupees, except the
//! provider order's `amount`, which is paise as Razorpay speaks it.

use marque_app::{Action, CheckoutError, CheckoutService, EventOutcome, StartedPayment, Throttle, WantedLine};
use marque_domain::address::AddressId;
use marque_domain::catalog::{Product, ProductId};
use marque_domain::checkout::CheckoutError as Rule;
use marque_domain::Message;
use marque_ports::{PaymentId, PaymentOrderId, PlacedOrder};
use poem::http::StatusCode;
use poem::web::Data;
use poem::{handler, Body, IntoResponse, Request, Response};
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use super::auth::{ensure_owner, Customer};
use super::error::ErrorBody;
use super::model::{ImageRef, SUCCESS};

#[derive(Tags)]
enum Tag {
    /// Checkout items, card payments and the provider's confirmations.
    Checkout,
}

/// A product as checkout reloads it (the specification's checkout item). `quantity` is 1; the
/// client puts the chosen quantity there. `totalQuantity` is the stock now.
#[derive(Debug, Clone, Object)]
pub struct CheckoutItem {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    pub images: Vec<ImageRef>,
    pub producttype: String,
    pub quantity: u32,
    /// Unit price in rupees, GST included.
    pub price: f64,
    #[oai(rename = "totalQuantity")]
    pub total_quantity: u32,
    pub category: String,
    pub subcategory: String,
    #[oai(rename = "fuelType")]
    pub fuel_type: String,
    pub variant: String,
    #[oai(rename = "partNo")]
    pub part_no: String,
    pub outside_ncr: f64,
    pub inside_ncr: f64,
    /// GST rate in percent included in the price.
    pub gst: u8,
}

impl From<Product> for CheckoutItem {
    fn from(p: Product) -> Self {
        Self {
            id: p.id.0,
            name: p.name,
            images: p.images.into_iter().map(ImageRef::from).collect(),
            producttype: p.condition.code().to_owned(),
            quantity: 1,
            price: p.price.rupees(),
            total_quantity: p.quantity,
            category: p.category,
            subcategory: p.subcategory,
            fuel_type: p.fuel_type.map(|f| f.code().to_owned()).unwrap_or_default(),
            variant: p.variant,
            part_no: p.part_no.printed().to_owned(),
            outside_ncr: p.outside_ncr.rupees(),
            inside_ncr: p.inside_ncr.rupees(),
            gst: p.gst_percent,
        }
    }
}

#[derive(Debug, Clone, Object)]
pub struct CheckoutItemBody {
    /// `success`.
    pub status: String,
    pub data: CheckoutItem,
}

#[derive(ApiResponse)]
#[oai(bad_request_handler = "item_bad_request")]
enum ItemResponse {
    #[oai(status = 200)]
    Ok(Json<Box<CheckoutItemBody>>),
    /// The request was malformed.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No product has this id (`product.not_found`).
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// The catalog cannot be reached.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

fn item_bad_request(err: poem::Error) -> ItemResponse {
    ItemResponse::BadRequest(ErrorBody::from_poem(&err))
}

/// A line of the pay request: only `_id` and `quantity` are read; the rest is ignored.
#[derive(Debug, Clone, Object)]
pub struct PayLine {
    #[oai(rename = "_id")]
    pub id: String,
    /// Units wanted, at least 1 (default 1).
    pub quantity: Option<u32>,
}

/// The chosen address: only `_id` is read.
#[derive(Debug, Clone, Object)]
pub struct PayAddress {
    #[oai(rename = "_id")]
    pub id: String,
}

/// `POST /api/razorpay/pay`: the products and the chosen address. Prices, totals and the
/// `discount` a client sends are ignored: the server prices the order.
#[derive(Debug, Clone, Object)]
pub struct PayInput {
    #[oai(default)]
    pub products: Vec<PayLine>,
    pub address: Option<PayAddress>,
    pub discount: Option<serde_json::Value>,
    pub user_id: Option<String>,
}

/// The provider's order to open the checkout with (`amount` in paise).
#[derive(Debug, Clone, Object)]
pub struct PaymentResponse {
    pub id: String,
    /// In paise.
    pub amount: i64,
    pub currency: String,
}

#[derive(Debug, Clone, Object)]
pub struct PayBody {
    /// `success`.
    pub status: String,
    #[oai(rename = "paymentResponse")]
    pub payment_response: PaymentResponse,
    /// Total payable in rupees: items − discount + delivery.
    pub total: f64,
    /// Items total in rupees.
    pub items: f64,
    /// Discount in rupees (0 without an active offer).
    pub discount: f64,
    /// Delivery charge in rupees, 18% GST included.
    pub delivery: f64,
    /// The part of `total` paid with the customer's store credit, in rupees (0 when none): held
    /// with the stock, a way of paying (GST stays on the full `total`), not a discount.
    #[oai(rename = "storeCredit")]
    pub store_credit: f64,
    /// What is left to pay by card, in rupees: `total − storeCredit` (`paymentResponse.amount` in paise).
    #[oai(rename = "toPay")]
    pub to_pay: f64,
    /// When store credit paid everything (`toPay` 0): the order, placed at once; no provider checkout
    /// is opened (`paymentResponse` is the shop's own id with an amount of 0). `null` otherwise.
    #[oai(nullable)]
    pub order: Option<PlacedOrderSummary>,
}

impl From<StartedPayment> for PayBody {
    fn from(p: StartedPayment) -> Self {
        Self {
            status: SUCCESS.into(),
            payment_response: PaymentResponse {
                id: p.order.id.0,
                amount: p.order.amount.paise(),
                currency: p.order.currency,
            },
            total: p.totals.total.rupees(),
            items: p.totals.items.rupees(),
            discount: p.totals.discount.rupees(),
            delivery: p.totals.delivery.rupees(),
            store_credit: p.store_credit.rupees(),
            to_pay: p.card.rupees(),
            order: p.placed.map(PlacedOrderSummary::from),
        }
    }
}

session_response!(PayResponse, PayBody, pay_bad_request, "pay_bad_request", limited, {
    /// `user_id` or the address is another customer's.
    Forbidden = 403,
    /// A line cannot be had (`checkout.out_of_stock`), or the order is above the shop's limits
    /// (`checkout.too_many_units`, `checkout.too_many_lines`), or the store credit it was priced
    /// with was spent by another checkout meanwhile (`checkout.credit_changed`); nothing is held.
    Conflict = 409,
});

/// What the checkout's handler received from the provider.
#[derive(Debug, Clone, Object)]
pub struct RazorpayOption {
    /// The order id the pay call answered (`paymentResponse.id`).
    pub order_id: Option<String>,
    pub razorpay_payment_id: String,
    pub razorpay_order_id: String,
    pub razorpay_signature: String,
}

/// `POST /api/razorpay/success`. `orderHistory` is accepted and ignored: the order is the
/// server's own snapshot, taken when the payment started.
#[derive(Debug, Clone, Object)]
pub struct SuccessInput {
    #[oai(rename = "razorpayOption")]
    pub razorpay_option: RazorpayOption,
    #[oai(rename = "orderHistory")]
    pub order_history: Option<serde_json::Value>,
}

/// The order placed.
#[derive(Debug, Clone, Object)]
pub struct PlacedOrderSummary {
    #[oai(rename = "_id")]
    pub id: String,
    #[oai(rename = "orderNumber")]
    pub order_number: String,
    #[oai(rename = "invoiceNumber")]
    pub invoice_number: String,
    /// Total paid in rupees (store credit and card together).
    pub total: f64,
    /// The part of `total` paid with store credit, in rupees (0 when none).
    #[oai(rename = "storeCredit")]
    pub store_credit: f64,
}

impl From<PlacedOrder> for PlacedOrderSummary {
    fn from(o: PlacedOrder) -> Self {
        Self {
            id: o.id.0,
            order_number: o.order_number,
            invoice_number: o.invoice_number.to_string(),
            total: o.draft.total.rupees(),
            store_credit: o.draft.store_credit.rupees(),
        }
    }
}

#[derive(Debug, Clone, Object)]
pub struct SuccessBody {
    /// `success`.
    pub status: String,
    pub result: PlacedOrderSummary,
}

session_response!(SuccessResponse, SuccessBody, success_bad_request, "success_bad_request", {
    /// The checkout is another customer's.
    Forbidden = 403,
    /// The payment arrived after its hold expired and the stock is gone: it was refunded in full
    /// and no order was placed (`payment.refunded_sold_out`).
    Conflict = 409,
});

/// `POST /api/razorpay/failed`: the provider's order whose attempt failed.
#[derive(Debug, Clone, Object)]
pub struct FailedInput {
    pub order_id: String,
}

#[derive(Debug, Clone, Object)]
pub struct StatusBody {
    /// `success`.
    pub status: String,
}

session_response!(FailedResponse, StatusBody, failed_bad_request, "failed_bad_request", {
    /// The checkout is another customer's.
    Forbidden = 403,
});

fn unavailable(e: &CheckoutError) -> Json<ErrorBody> {
    tracing::error!(error = %e, "checkout unavailable");
    ErrorBody::from_message(Message::PaymentUnavailable)
}

/// The 400 body of a checkout error that is the request's fault.
fn refused(e: &CheckoutError) -> Option<Json<ErrorBody>> {
    match e {
        CheckoutError::Rule(rule @ (Rule::AddressMissing | Rule::CartEmpty)) => Some(ErrorBody::from_rule(rule)),
        CheckoutError::BadQuantity => Some(ErrorBody::from_message(Message::CartQuantityInvalid)),
        CheckoutError::BadSignature => Some(ErrorBody::from_message(Message::PaymentSignatureInvalid)),
        CheckoutError::NotPaid => Some(ErrorBody::from_message(Message::PaymentNotPaid)),
        CheckoutError::UnknownPayment => Some(ErrorBody::from_message(Message::PaymentUnknown)),
        _ => None,
    }
}

fn out_of_stock(product: ProductId) -> Json<ErrorBody> {
    ErrorBody::from_rule(&Rule::OutOfStock { product })
}

pub struct CheckoutApi {
    checkout: CheckoutService,
    throttle: Throttle,
}

impl CheckoutApi {
    pub fn new(checkout: CheckoutService, throttle: Throttle) -> Self {
        Self { checkout, throttle }
    }
}

#[OpenApi(tag = "Tag::Checkout")]
impl CheckoutApi {
    /// A product as checkout reloads it: today's price and stock (`totalQuantity`).
    #[oai(path = "/get/checkoutById/:id", method = "get", operation_id = "getCheckoutItem")]
    async fn checkout_item(&self, id: Path<String>) -> ItemResponse {
        match self.checkout.item(&ProductId(id.0)).await {
            Ok(p) => ItemResponse::Ok(Json(Box::new(CheckoutItemBody { status: SUCCESS.into(), data: p.into() }))),
            Err(CheckoutError::ProductNotFound) => {
                ItemResponse::NotFound(ErrorBody::from_message(Message::ProductNotFound))
            }
            Err(e) => ItemResponse::Unavailable(unavailable(&e)),
        }
    }

    /// Starts a card payment: prices the order on the server, holds the stock for 15 minutes and
    /// creates the provider's order for the total (`paymentResponse.amount` in paise).
    #[oai(path = "/razorpay/pay", method = "post", operation_id = "startPayment")]
    async fn pay(&self, customer: Customer, input: Json<PayInput>) -> PayResponse {
        throttle!(self.throttle, Action::Pay, customer, PayResponse);
        if let Some(user) = input.user_id.as_deref().filter(|u| !u.is_empty()) {
            if let Err(e) = ensure_owner(&customer, user) {
                return PayResponse::Forbidden(e);
            }
        }
        let wanted: Vec<WantedLine> = input
            .products
            .iter()
            .map(|l| WantedLine { product: ProductId(l.id.clone()), quantity: l.quantity.unwrap_or(1) })
            .collect();
        let address = input.address.as_ref().map(|a| AddressId(a.id.clone()));
        match self.checkout.pay(&customer.0.user, &wanted, address.as_ref()).await {
            Ok(started) => PayResponse::Ok(Json(started.into())),
            Err(CheckoutError::Rule(Rule::OutOfStock { product })) => PayResponse::Conflict(out_of_stock(product)),
            Err(CheckoutError::Limit(limit)) => PayResponse::Conflict(ErrorBody::from_rule(&limit)),
            Err(CheckoutError::CreditChanged) => {
                PayResponse::Conflict(ErrorBody::from_message(Message::CheckoutCreditChanged))
            }
            Err(CheckoutError::Forbidden) => PayResponse::Forbidden(super::auth::forbidden()),
            Err(e) => match refused(&e) {
                Some(body) => PayResponse::BadRequest(body),
                None => PayResponse::Unavailable(unavailable(&e)),
            },
        }
    }

    /// The checkout's successful handler answer: the signature and the payment are verified, then
    /// the order is placed exactly once (posting the same payment again answers the same order).
    #[oai(path = "/razorpay/success", method = "post", operation_id = "confirmPayment")]
    async fn success(&self, customer: Customer, input: Json<SuccessInput>) -> SuccessResponse {
        let option = &input.razorpay_option;
        if option.order_id.as_deref().is_some_and(|id| !id.is_empty() && id != option.razorpay_order_id) {
            return SuccessResponse::BadRequest(ErrorBody::from_message(Message::PaymentSignatureInvalid));
        }
        let confirmed = self
            .checkout
            .confirm(
                &customer.0.user.id,
                &PaymentOrderId(option.razorpay_order_id.clone()),
                &PaymentId(option.razorpay_payment_id.clone()),
                &option.razorpay_signature,
            )
            .await;
        match confirmed {
            Ok(order) => SuccessResponse::Ok(Json(SuccessBody { status: SUCCESS.into(), result: order.into() })),
            Err(CheckoutError::Rule(Rule::OutOfStock { product })) => SuccessResponse::Conflict(out_of_stock(product)),
            Err(CheckoutError::Refunded) => {
                SuccessResponse::Conflict(ErrorBody::from_message(Message::PaymentRefundedSoldOut))
            }
            Err(CheckoutError::Forbidden) => SuccessResponse::Forbidden(super::auth::forbidden()),
            Err(e) => match refused(&e) {
                Some(body) => SuccessResponse::BadRequest(body),
                None => SuccessResponse::Unavailable(unavailable(&e)),
            },
        }
    }

    /// The checkout reported a failed attempt: the held stock goes back.
    #[oai(path = "/razorpay/failed", method = "post", operation_id = "paymentFailed")]
    async fn failed(&self, customer: Customer, input: Json<FailedInput>) -> FailedResponse {
        match self.checkout.payment_failed(&customer.0.user.id, &PaymentOrderId(input.order_id.clone())).await {
            Ok(()) => FailedResponse::Ok(Json(StatusBody { status: SUCCESS.into() })),
            Err(CheckoutError::Forbidden) => FailedResponse::Forbidden(super::auth::forbidden()),
            Err(e) => match refused(&e) {
                Some(body) => FailedResponse::BadRequest(body),
                None => FailedResponse::Unavailable(unavailable(&e)),
            },
        }
    }
}

/// `POST /api/razorpay/webhook`: the provider's signed events. Outside the OpenAPI document because
/// the signature covers the raw body, which must be read as bytes. 200 for every event handled or
/// deliberately ignored (so the provider stops retrying), 400 for a bad signature, 503 when the
/// shop could not act (the provider retries).
#[handler]
pub async fn webhook(req: &Request, body: Body, checkout: Data<&CheckoutService>) -> Response {
    let json = |status: StatusCode, body: serde_json::Value| {
        Response::builder().status(status).content_type("application/json; charset=utf-8").body(body.to_string())
    };
    let Ok(bytes) = body.into_bytes_limit(crate::body_limits::WEBHOOK_MAX_BYTES).await else {
        return json(
            StatusCode::PAYLOAD_TOO_LARGE,
            serde_json::json!({"status": "failed", "message": "The event is too large."}),
        );
    };
    let signature = req.header("x-razorpay-signature").unwrap_or_default();
    let event_id = req.header("x-razorpay-event-id").map(str::to_owned);
    match checkout.webhook(&bytes, signature, event_id).await {
        Ok(outcome) => {
            let handled = match outcome {
                EventOutcome::Duplicate => "duplicate",
                EventOutcome::Placed(_) => "placed",
                EventOutcome::Released => "released",
                EventOutcome::Ignored => "ignored",
                EventOutcome::Refunded => "refunded",
                EventOutcome::Recorded => "recorded",
            };
            json(StatusCode::OK, serde_json::json!({"status": SUCCESS, "handled": handled}))
        }
        Err(CheckoutError::BadSignature) => {
            let m = Message::PaymentSignatureInvalid;
            json(
                StatusCode::BAD_REQUEST,
                serde_json::json!({"status": "failed", "message": m.text(), "code": m.code()}),
            )
        }
        Err(e) => {
            tracing::error!(error = %e, "a payment event could not be handled; the provider will retry");
            let m = Message::PaymentUnavailable;
            json(
                StatusCode::SERVICE_UNAVAILABLE,
                serde_json::json!({"status": "failed", "message": m.text(), "code": m.code()}),
            )
        }
    }
    .into_response()
}
