//! Orders: a customer's purchase history and the GST tax invoice of each order as a PDF.

use marque_app::{Action, CreditNoteFileError, CreditNoteService, OrderError, OrderService, Throttle};
use marque_domain::Message;
use marque_ports::{OrderId, PlacedOrder, UserId};
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Binary, Json};
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use super::auth::{ensure_owner, forbidden, Customer};
use super::catalog::page_from;
use super::error::ErrorBody;
use super::model::SUCCESS;

#[derive(Tags)]
enum Tag {
    /// Placed orders and their tax invoices.
    Orders,
}

/// One product of an order, as it was sold.
#[derive(Debug, Clone, Object)]
pub struct OrderProduct {
    pub product_id: String,
    pub name: String,
    pub quantity: u32,
    /// Unit price paid, in rupees, GST included.
    pub price: f64,
    /// GST percent included in the price.
    pub gst: u8,
}

/// Where the order was delivered.
#[derive(Debug, Clone, Object)]
#[oai(rename = "OrderAddress")]
pub struct OrderAddress {
    #[oai(rename = "houseNo")]
    pub house_no: String,
    pub street: String,
    pub landmark: String,
    pub city: String,
    pub state: String,
    pub pincode: String,
    #[oai(rename = "mobileNo")]
    pub mobile_no: String,
    /// The buyer's GSTIN, or empty (orders keep none yet).
    pub gstin: String,
}

/// A placed order (docs/checkout-api.md). Amounts are rupees.
#[derive(Debug, Clone, Object)]
#[oai(rename = "Order")]
pub struct Order {
    #[oai(rename = "_id")]
    pub id: String,
    /// e.g. `MQ-000042`.
    #[oai(rename = "orderNumber")]
    pub order_number: String,
    /// e.g. `MQ/26-27/000042`.
    #[oai(rename = "invoiceNumber")]
    pub invoice_number: String,
    /// When it was placed, ISO 8601 in UTC.
    #[oai(rename = "createdAt")]
    pub created_at: String,
    pub products: Vec<OrderProduct>,
    /// The discount percent (0 when none).
    pub discount: u8,
    /// The discount in rupees.
    #[oai(rename = "discountAmount")]
    pub discount_amount: f64,
    /// Delivery charge in rupees, 18% GST included.
    #[oai(rename = "deliveryCharge")]
    pub delivery_charge: f64,
    /// What the customer paid: items − discount + delivery.
    pub total: f64,
    /// The courier's name (e.g. `Blue Dart`); empty until shipped.
    pub courier: String,
    /// The courier's airway bill number; empty until shipped (Purchase History shows N/A).
    pub awb: String,
    /// Where the customer follows the parcel: the courier's tracking page for the AWB (or the link
    /// the shop typed for another courier); `null` until shipped.
    #[oai(rename = "trackingUrl")]
    pub tracking_url: Option<String>,
    /// 1 placed, 2 confirmed, 3 packed, 4 shipped, 5 delivered, 6 cancelled.
    pub order_status: u8,
    /// The status label (`admin-cancelled` is shown as `cancelled`).
    pub order_status_string: String,
    pub user_name: String,
    pub address: OrderAddress,
    /// The GST credit notes of the order's refunds, oldest first; each downloads from
    /// `/api/get/creditnote/{_id}/{refundId}`. Given in Purchase History; empty elsewhere.
    #[oai(rename = "creditNotes")]
    pub credit_notes: Vec<OrderCreditNote>,
}

/// A credit note issued for a refund of an order.
#[derive(Debug, Clone, Object)]
#[oai(rename = "OrderCreditNote")]
pub struct OrderCreditNote {
    /// The refund it was issued for.
    #[oai(rename = "refundId")]
    pub refund_id: String,
    /// e.g. `CN/26-27/000001`.
    pub number: String,
}

/// Seconds since the Unix epoch as `2026-06-01T06:30:00.000Z`.
pub(crate) fn iso_8601(seconds: i64) -> String {
    chrono::DateTime::from_timestamp(seconds, 0)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
        .unwrap_or_default()
}

impl From<&PlacedOrder> for Order {
    fn from(o: &PlacedOrder) -> Self {
        let d = &o.draft;
        let a = &d.address;
        Self {
            id: o.id.0.clone(),
            order_number: o.order_number.clone(),
            invoice_number: o.invoice_number.to_string(),
            created_at: iso_8601(o.created_at),
            products: d
                .lines
                .iter()
                .map(|l| OrderProduct {
                    product_id: l.product_id.0.clone(),
                    name: l.name.clone(),
                    quantity: l.quantity.get(),
                    price: l.price.rupees(),
                    gst: l.gst,
                })
                .collect(),
            discount: d.discount.get(),
            discount_amount: d.discount_amount.rupees(),
            delivery_charge: d.delivery_charge.rupees(),
            total: d.total.rupees(),
            courier: o.shipment.as_ref().map(|s| s.courier().name().to_owned()).unwrap_or_default(),
            awb: o.shipment.as_ref().map(|s| s.awb().as_str().to_owned()).unwrap_or_default(),
            tracking_url: o.shipment.as_ref().map(marque_domain::order::Shipment::tracking_link),
            order_status: o.status,
            order_status_string: o.status_text.clone(),
            user_name: d.user_name.clone(),
            address: OrderAddress {
                house_no: a.house_no.clone(),
                street: a.street.clone(),
                landmark: a.landmark.clone(),
                city: a.city.clone(),
                state: a.state.name.to_owned(),
                pincode: a.pincode.as_str().to_owned(),
                mobile_no: a.mobile_no.as_str().to_owned(),
                gstin: a.gstin.as_ref().map(|g| g.as_str().to_owned()).unwrap_or_default(),
            },
            credit_notes: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Object)]
pub struct OrderHistory {
    /// `success`.
    pub status: String,
    /// This page's orders, newest first.
    pub result: Vec<Order>,
    pub page: u32,
    /// How many pages of 20 the whole history fills (0 when there are no orders).
    pub pages: u64,
}

session_response!(HistoryResponse, OrderHistory, history_bad_request, "history_bad_request", {
    /// `userId` names another customer.
    Forbidden = 403,
});

/// The invoice, or why not.
#[derive(ApiResponse)]
#[oai(bad_request_handler = "invoice_bad_request")]
enum InvoiceResponse {
    /// The GST tax invoice; the same bytes every time.
    #[oai(status = 200, content_type = "application/pdf")]
    Ok(Binary<Vec<u8>>, #[oai(header = "Content-Disposition")] String),
    /// A malformed request.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No valid session (`account.login_required`).
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>),
    /// The order is another customer's.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// No order has this id (`order.not_found`).
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// Too many invoices in a short time (`request.too_many`); `Retry-After` gives the seconds to wait.
    #[oai(status = 429)]
    TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
    /// The invoice could not be made (`invoice.failed`).
    #[oai(status = 500)]
    Failed(Json<ErrorBody>),
    /// The accounts or order store cannot be reached right now.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

/// A credit note, or why not: the invoice's answers, and 404 for a refund with no note.
#[derive(ApiResponse)]
#[oai(bad_request_handler = "credit_note_bad_request")]
enum CreditNoteResponse {
    /// The GST credit note; the same bytes every time.
    #[oai(status = 200, content_type = "application/pdf")]
    Ok(Binary<Vec<u8>>, #[oai(header = "Content-Disposition")] String),
    /// A malformed request.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No valid session (`account.login_required`).
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>),
    /// The order is another customer's.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// No order has this id (`order.not_found`), or no refund of it has a credit note under this id
    /// (`credit_note.not_found`).
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// Too many invoices and credit notes in a short time (`request.too_many`); `Retry-After` gives the seconds to wait.
    #[oai(status = 429)]
    TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
    /// The credit note could not be made (`invoice.failed`).
    #[oai(status = 500)]
    Failed(Json<ErrorBody>),
    /// The accounts or order store cannot be reached right now.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

fn credit_note_bad_request(err: poem::Error) -> CreditNoteResponse {
    match err.status() {
        poem::http::StatusCode::UNAUTHORIZED => {
            CreditNoteResponse::Unauthorized(ErrorBody::from_message(Message::LoginRequired))
        }
        poem::http::StatusCode::SERVICE_UNAVAILABLE => {
            CreditNoteResponse::Unavailable(ErrorBody::from_message(Message::AccountUnavailable))
        }
        _ => CreditNoteResponse::BadRequest(ErrorBody::from_poem(&err)),
    }
}

fn invoice_bad_request(err: poem::Error) -> InvoiceResponse {
    match err.status() {
        poem::http::StatusCode::UNAUTHORIZED => {
            InvoiceResponse::Unauthorized(ErrorBody::from_message(Message::LoginRequired))
        }
        poem::http::StatusCode::SERVICE_UNAVAILABLE => {
            InvoiceResponse::Unavailable(ErrorBody::from_message(Message::AccountUnavailable))
        }
        _ => InvoiceResponse::BadRequest(ErrorBody::from_poem(&err)),
    }
}

fn unavailable(e: &OrderError) -> Json<ErrorBody> {
    tracing::error!(error = %e, "orders unavailable");
    ErrorBody::from_message(Message::OrderUnavailable)
}

pub struct OrderApi {
    orders: OrderService,
    credit_notes: CreditNoteService,
    throttle: Throttle,
}

impl OrderApi {
    pub fn new(orders: OrderService, credit_notes: CreditNoteService, throttle: Throttle) -> Self {
        Self { orders, credit_notes, throttle }
    }
}

#[OpenApi(tag = "Tag::Orders")]
impl OrderApi {
    /// The customer's orders, newest first, 20 a page, each as it was sold (prices, GST and
    /// address of the day it was paid for) with its invoice number and total.
    #[oai(path = "/get/orderhistory/:userId", method = "get", operation_id = "getOrderHistory")]
    async fn history(
        &self,
        customer: Customer,
        /// The customer's `_id`.
        #[oai(name = "userId")]
        user_id: Path<String>,
        /// Page number from 1; absent means 1.
        page: Query<Option<u64>>,
    ) -> HistoryResponse {
        if let Err(e) = ensure_owner(&customer, &user_id) {
            return HistoryResponse::Forbidden(e);
        }
        let page = match page_from(page.0) {
            Ok(page) => page,
            Err(e) => return HistoryResponse::BadRequest(ErrorBody::from_rule(&e)),
        };
        let h = match self.orders.history_page(&UserId(customer.id().to_owned()), page).await {
            Ok(h) => h,
            Err(e) => return HistoryResponse::Unavailable(unavailable(&e)),
        };
        let ids: Vec<OrderId> = h.orders.iter().map(|o| o.id.clone()).collect();
        let notes = match self.credit_notes.issued(&ids).await {
            Ok(notes) => notes,
            Err(e) => return HistoryResponse::Unavailable(unavailable(&OrderError::Unavailable(e.to_string()))),
        };
        let result = h
            .orders
            .iter()
            .map(|o| {
                let mut order = Order::from(o);
                order.credit_notes = notes
                    .iter()
                    .filter(|n| n.order == o.id)
                    .map(|n| OrderCreditNote { refund_id: n.refund.clone(), number: n.number.clone() })
                    .collect();
                order
            })
            .collect();
        HistoryResponse::Ok(Json(OrderHistory {
            status: SUCCESS.into(),
            result,
            page: h.page.number(),
            pages: h.pages,
        }))
    }

    /// The GST tax invoice of one of the customer's orders, as a PDF (`invoice.pdf`), built from
    /// the order as it was sold.
    #[oai(path = "/get/invoice/:orderId", method = "get", operation_id = "getInvoice")]
    async fn invoice(
        &self,
        customer: Customer,
        /// The order's `_id`.
        #[oai(name = "orderId")]
        order_id: Path<String>,
    ) -> InvoiceResponse {
        throttle!(self.throttle, Action::Invoice, customer, InvoiceResponse);
        let user = UserId(customer.id().to_owned());
        match self.orders.invoice_pdf(&user, &OrderId(order_id.0)).await {
            Ok(pdf) => {
                InvoiceResponse::Ok(Binary(pdf), format!("inline; filename=\"{}\"", marque_app::INVOICE_FILENAME))
            }
            Err(OrderError::Forbidden) => InvoiceResponse::Forbidden(forbidden()),
            Err(OrderError::NotFound) => InvoiceResponse::NotFound(ErrorBody::from_message(Message::OrderNotFound)),
            Err(e @ OrderError::InvoiceFailed(_)) => {
                tracing::error!(error = %e, "invoice not rendered");
                InvoiceResponse::Failed(ErrorBody::from_message(Message::InvoiceFailed))
            }
            Err(e @ OrderError::Unavailable(_)) => InvoiceResponse::Unavailable(unavailable(&e)),
        }
    }

    /// The GST credit note of one refund of one of the customer's orders, as a PDF
    /// (`credit-note.pdf`): the refund's lines and the tax they reverse, naming the order's invoice.
    /// Purchase History lists each order's notes (`creditNotes`).
    #[oai(path = "/get/creditnote/:orderId/:refundId", method = "get", operation_id = "getCreditNote")]
    async fn credit_note(
        &self,
        customer: Customer,
        /// The order's `_id`.
        #[oai(name = "orderId")]
        order_id: Path<String>,
        /// The refund's id (`creditNotes[].refundId`).
        #[oai(name = "refundId")]
        refund_id: Path<String>,
    ) -> CreditNoteResponse {
        throttle!(self.throttle, Action::Invoice, customer, CreditNoteResponse);
        let user = UserId(customer.id().to_owned());
        match self.credit_notes.for_customer(&user, &OrderId(order_id.0), &refund_id.0).await {
            Ok(pdf) => CreditNoteResponse::Ok(
                Binary(pdf),
                format!("inline; filename=\"{}\"", marque_app::CREDIT_NOTE_FILENAME),
            ),
            Err(CreditNoteFileError::NotOwner | CreditNoteFileError::Forbidden(_)) => {
                CreditNoteResponse::Forbidden(forbidden())
            }
            Err(CreditNoteFileError::NotFound) => {
                CreditNoteResponse::NotFound(ErrorBody::from_message(Message::OrderNotFound))
            }
            Err(CreditNoteFileError::NoCreditNote) => {
                CreditNoteResponse::NotFound(ErrorBody::from_message(Message::CreditNoteNotFound))
            }
            Err(e @ CreditNoteFileError::Failed(_)) => {
                tracing::error!(error = %e, "credit note not rendered");
                CreditNoteResponse::Failed(ErrorBody::from_message(Message::InvoiceFailed))
            }
            Err(e @ CreditNoteFileError::Unavailable(_)) => {
                CreditNoteResponse::Unavailable(unavailable(&OrderError::Unavailable(e.to_string())))
            }
        }
    }
}
