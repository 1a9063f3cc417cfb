//! `admin-orders` (owner, fulfilment): the order list with its filters and counts per status
//! (`GET /api/admin/orders`), one order with its `version` and timeline (`GET /api/admin/orders/{id}`),
//! moving it along (`PATCH /api/admin/orders/{id}` with `If-Match: <version>`), cancelling it
//! (`POST …/cancel`, `If-Match`) and refunding some of it (`POST …/refunds`, `Idempotency-Key`).

use marque_app::admin::orders::{AdminOrderError, AdminOrdersService, FulfilmentInput, OrderFilters};
use marque_app::admin::refunds::{RefundDone, RefundsService};
use marque_app::{CreditNoteFileError, CreditNoteService, CREDIT_NOTE_FILENAME};
use marque_domain::order::Shipment;
use marque_domain::Message;
use marque_ports::{AdminOrder, OrderEvent, OrderId, PlacedOrder};
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::{Binary, Json};
use poem_openapi::{Object, OpenApi, Tags};

use super::auth::{OrdersStaff, RefundsStaff};
use super::list_window;
use super::refunds::{CancelBody, RefundAskBody, RefundBody, RefundableBody};
use crate::error::ErrorBody;
use crate::orders::{iso_8601, Order};

#[derive(Tags)]
enum Tag {
    /// Staff: orders, their status moves and shipments (roles: owner, fulfilment).
    #[oai(rename = "admin-orders")]
    AdminOrders,
}

/// How an order travels, as staff see it.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminShipment")]
pub struct ShipmentBody {
    /// `delhivery`, `bluedart`, `dtdc`, `indiapost`, `shiprocket`, `ekart` or `other`.
    pub courier: String,
    /// The courier's name as the customer reads it.
    #[oai(rename = "courierName")]
    pub courier_name: String,
    pub awb: String,
    /// The link staff typed, for courier `other` only.
    #[oai(rename = "trackingUrl")]
    pub tracking_url: Option<String>,
    /// Where the customer follows the parcel.
    #[oai(rename = "trackingLink")]
    pub tracking_link: String,
}

impl From<&Shipment> for ShipmentBody {
    fn from(s: &Shipment) -> Self {
        Self {
            courier: s.courier().slug().to_owned(),
            courier_name: s.courier().name().to_owned(),
            awb: s.awb().as_str().to_owned(),
            tracking_url: s.tracking_url().map(|u| u.as_str().to_owned()),
            tracking_link: s.tracking_link(),
        }
    }
}

/// One order of the list.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminOrderSummary")]
pub struct OrderSummary {
    #[oai(rename = "_id")]
    pub id: String,
    #[oai(rename = "orderNumber")]
    pub order_number: String,
    #[oai(rename = "invoiceNumber")]
    pub invoice_number: String,
    /// When it was placed, ISO 8601 in UTC.
    #[oai(rename = "createdAt")]
    pub created_at: String,
    #[oai(rename = "userName")]
    pub user_name: String,
    /// The delivery address's mobile.
    #[oai(rename = "mobileNo")]
    pub mobile_no: String,
    /// What the customer paid, in rupees.
    pub total: f64,
    /// 1 placed, 2 confirmed, 3 packed, 4 shipped, 5 delivered, 6 cancelled.
    pub status: u8,
    /// The stored label (`admin-cancelled` for an order the shop cancelled).
    #[oai(rename = "statusText")]
    pub status_text: String,
    /// `null` until shipped.
    pub shipment: Option<ShipmentBody>,
}

impl From<&PlacedOrder> for OrderSummary {
    fn from(o: &PlacedOrder) -> Self {
        Self {
            id: o.id.0.clone(),
            order_number: o.order_number.clone(),
            invoice_number: o.invoice_number.to_string(),
            created_at: iso_8601(o.created_at),
            user_name: o.draft.user_name.clone(),
            mobile_no: o.draft.address.mobile_no.as_str().to_owned(),
            total: o.draft.total.rupees(),
            status: o.status,
            status_text: o.status_text.clone(),
            shipment: o.shipment.as_ref().map(ShipmentBody::from),
        }
    }
}

/// How many orders the filters (all but the status) find at each status.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminOrderCounts")]
pub struct CountsBody {
    pub placed: u64,
    pub confirmed: u64,
    pub packed: u64,
    pub shipped: u64,
    pub delivered: u64,
    pub cancelled: u64,
}

/// One page of orders, newest first.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminOrderList")]
pub struct OrderListBody {
    pub results: Vec<OrderSummary>,
    pub pages: u64,
    pub total: u64,
    pub counts: CountsBody,
}

/// One change of the order: who moved it where, and when.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminOrderEvent")]
pub struct EventBody {
    /// Seconds since the Unix epoch.
    pub at: i64,
    /// A staff member's `_id`, or `system:<what>`.
    pub actor: String,
    #[oai(rename = "actorLabel")]
    pub actor_label: String,
    /// `order.status` (a move) or `order.shipment` (a corrected shipment).
    pub action: String,
    /// The status after the change.
    pub status: u8,
    pub shipment: Option<ShipmentBody>,
}

impl From<&OrderEvent> for EventBody {
    fn from(e: &OrderEvent) -> Self {
        Self {
            at: e.at,
            actor: e.actor.clone(),
            actor_label: e.actor_label.clone(),
            action: e.action.clone(),
            status: u8::try_from(e.status.number()).unwrap_or(0),
            shipment: e.shipment.as_ref().map(ShipmentBody::from),
        }
    }
}

/// One order as staff see it.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminOrder")]
pub struct OrderBody {
    /// The order as its customer sees it.
    pub order: Order,
    /// Send it back as `If-Match` with a change: a change made meanwhile by someone else is refused.
    pub version: u64,
    /// `null` until shipped.
    pub shipment: Option<ShipmentBody>,
    /// The payment provider's payment id.
    #[oai(rename = "paymentId")]
    pub payment_id: String,
    /// The customer's account email, if the account has one.
    #[oai(rename = "customerEmail")]
    pub customer_email: Option<String>,
    /// The customer's account mobile, if the account has one.
    #[oai(rename = "customerMobile")]
    pub customer_mobile: Option<String>,
    /// Every change since the order was placed, oldest first.
    pub timeline: Vec<EventBody>,
    /// The order's refunds, oldest first.
    pub refunds: Vec<RefundBody>,
    /// What is left to refund: of what was paid, of each line, and the delivery charge.
    pub refundable: RefundableBody,
}

impl OrderBody {
    /// `a` with what is left to refund as `refunds` computes it.
    fn of(a: &AdminOrder, refunds: &RefundsService) -> Self {
        Self {
            order: Order::from(&a.order),
            version: a.version,
            shipment: a.order.shipment.as_ref().map(ShipmentBody::from),
            payment_id: a.order.payment.0.clone(),
            customer_email: a.customer_email.clone(),
            customer_mobile: a.customer_mobile.clone(),
            timeline: a.timeline.iter().map(EventBody::from).collect(),
            refunds: a.refunds.iter().map(RefundBody::from).collect(),
            refundable: RefundableBody::from(&refunds.refundable(a)),
        }
    }
}

/// What `PATCH /api/admin/orders/{id}` receives: a new status, a shipment, or both.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminOrderChange", deny_unknown_fields)]
pub struct ChangeBody {
    /// The next status (2 confirmed, 3 packed, 4 shipped, 5 delivered), one step at a time; 6 only
    /// through cancelling.
    pub status: Option<i64>,
    /// With 4, or to correct a shipped order's: `delhivery`, `bluedart`, `dtdc`, `indiapost`,
    /// `shiprocket`, `ekart` or `other`.
    pub courier: Option<String>,
    /// 6–24 letters and digits.
    pub awb: Option<String>,
    /// Courier `other` only: the `https://` tracking link.
    #[oai(rename = "trackingUrl")]
    pub tracking_url: Option<String>,
}

admin_response!(ListAnswer, list_bad_request, "list_bad_request", {
    /// One page of the orders the filters find, newest first, with the counts per status.
    Ok(Json<OrderListBody>) = 200,
});

admin_response!(OrderAnswer, order_bad_request, "order_bad_request", {
    /// The order, its version and its timeline.
    Ok(Json<OrderBody>) = 200,
    /// No order has this id (`order.not_found`).
    NotFound(Json<ErrorBody>) = 404,
});

admin_response!(ChangeAnswer, change_bad_request, "change_bad_request", {
    /// The order after the change, at its new version.
    Ok(Json<OrderBody>) = 200,
    /// No order has this id (`order.not_found`).
    NotFound(Json<ErrorBody>) = 404,
    /// The order changed since the version named (`order.changed`), or the shop's rules refuse the
    /// move (`order.illegal_move`, `order.cancel_by_cancel`, `order.shipment_required`,
    /// `order.shipment_not_now`, `order.no_change`); nothing was written.
    Conflict(Json<ErrorBody>) = 409,
    /// No `If-Match` header naming the order's version (`order.version_required`).
    PreconditionRequired(Json<ErrorBody>) = 428,
});

/// A cancellation or refund made, and the order after it.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminRefundDone")]
pub struct RefundDoneBody {
    pub order: OrderBody,
    pub refund: RefundBody,
}

impl RefundDoneBody {
    fn of(d: &RefundDone, refunds: &RefundsService) -> Self {
        Self { order: OrderBody::of(&d.order, refunds), refund: RefundBody::from(&d.refund) }
    }
}

admin_response!(CancelAnswer, cancel_bad_request, "cancel_bad_request", {
    /// The order cancelled (status 6, `admin-cancelled`) and the refund of everything not refunded
    /// yet, as the provider took it (`requested` when it could not be reached: it is sent again).
    Ok(Json<RefundDoneBody>) = 200,
    /// No order has this id (`order.not_found`).
    NotFound(Json<ErrorBody>) = 404,
    /// The order changed since the version named (`order.changed`), or is past packing
    /// (`order.illegal_move`); nothing was written.
    Conflict(Json<ErrorBody>) = 409,
    /// No `If-Match` header naming the order's version (`order.version_required`).
    PreconditionRequired(Json<ErrorBody>) = 428,
});

admin_response!(RefundAnswer, refund_bad_request, "refund_bad_request", {
    /// The same `Idempotency-Key` and body as before: the refund made then, as it stands.
    Ok(Json<RefundDoneBody>) = 200,
    /// The refund made, as the provider took it (`requested` when it could not be reached).
    Created(Json<RefundDoneBody>) = 201,
    /// No order has this id (`order.not_found`).
    NotFound(Json<ErrorBody>) = 404,
    /// Not as the order stands: units or the delivery charge not left to refund
    /// (`refund.quantity_above_left`, `refund.delivery_not_left`), more than is left of what was
    /// paid (`refund.above_paid`), or other refunds kept landing first (`order.changed`).
    Conflict(Json<ErrorBody>) = 409,
    /// The `Idempotency-Key` was used for a different refund of this order (`refund.key_reused`).
    UnprocessableEntity(Json<ErrorBody>) = 422,
    /// No `Idempotency-Key` header (`refund.key_required`).
    PreconditionRequired(Json<ErrorBody>) = 428,
});

admin_response!(RetryAnswer, retry_bad_request, "retry_bad_request", {
    /// The refund after the retry: a failed one asked for again as a new attempt, a requested one
    /// sent again, any other as it stands.
    Ok(Json<RefundDoneBody>) = 200,
    /// No order has this id (`order.not_found`), or no refund of it this one (`refund.not_found`).
    NotFound(Json<ErrorBody>) = 404,
});

/// A refund's credit note, or why not.
#[derive(poem_openapi::ApiResponse)]
#[oai(bad_request_handler = "credit_note_bad_request")]
pub(crate) enum CreditNoteAnswer {
    /// The GST credit note (`credit-note.pdf`); the same bytes every time.
    #[oai(status = 200, content_type = "application/pdf")]
    Ok(Binary<Vec<u8>>, #[oai(header = "Content-Disposition")] String),
    /// A field or parameter that does not parse; its message and code come from the shop's rules.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No valid staff session (`staff.login_required`): no token, a customer's, an expired or revoked one.
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>),
    /// The staff member's role does not cover refunds (`staff.forbidden`).
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// No order has this id (`order.not_found`), or no refund of it has a credit note under this id
    /// (`credit_note.not_found`).
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// The credit note could not be made (`invoice.failed`).
    #[oai(status = 500)]
    Failed(Json<ErrorBody>),
    /// A store the call needs cannot be reached right now.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

fn credit_note_bad_request(err: poem::Error) -> CreditNoteAnswer {
    match err.status() {
        poem::http::StatusCode::UNAUTHORIZED => {
            CreditNoteAnswer::Unauthorized(ErrorBody::from_message(Message::StaffLoginRequired))
        }
        poem::http::StatusCode::FORBIDDEN => {
            CreditNoteAnswer::Forbidden(ErrorBody::from_message(Message::StaffForbidden))
        }
        poem::http::StatusCode::SERVICE_UNAVAILABLE => {
            CreditNoteAnswer::Unavailable(ErrorBody::from_message(Message::StaffUnavailable))
        }
        _ => CreditNoteAnswer::BadRequest(ErrorBody::from_poem(&err)),
    }
}

/// The answer's body for a refusal or failure (the message and code of the shop's rules).
fn body(e: &AdminOrderError) -> Json<ErrorBody> {
    if let AdminOrderError::Unavailable(reason) = e {
        tracing::error!(%reason, "the orders failed");
    }
    ErrorBody::from_message(e.message())
}

macro_rules! refusal {
    ($answer:ident, $e:expr, { $($variant:pat => $to:ident),* }) => {{
        let e = $e;
        match &e {
            AdminOrderError::Forbidden(_) => $answer::Forbidden(body(&e)),
            AdminOrderError::Invalid(_) => $answer::BadRequest(body(&e)),
            AdminOrderError::Unavailable(_) => $answer::Unavailable(body(&e)),
            $($variant => $answer::$to(body(&e)),)*
        }
    }};
}

/// The orders' calls, built from their services: the orders' moves, and their cancellations and refunds.
#[derive(Debug)]
pub struct AdminOrdersApi {
    orders: AdminOrdersService,
    refunds: RefundsService,
    credit_notes: CreditNoteService,
}

impl AdminOrdersApi {
    #[must_use]
    pub fn new(orders: AdminOrdersService, refunds: RefundsService, credit_notes: CreditNoteService) -> Self {
        Self { orders, refunds, credit_notes }
    }
}

#[OpenApi(tag = "Tag::AdminOrders")]
impl AdminOrdersApi {
    /// The orders, newest first, filtered by status, the time they were placed and a search (an
    /// order or invoice number, or a customer's email or mobile), with how many the filters (all
    /// but the status) find at each status.
    #[oai(path = "/admin/orders", method = "get", operation_id = "adminListOrders")]
    #[expect(clippy::too_many_arguments, reason = "one argument a query parameter, as poem-openapi reads them")]
    async fn list(
        &self,
        staff: OrdersStaff,
        /// 1 placed, 2 confirmed, 3 packed, 4 shipped, 5 delivered, 6 cancelled.
        status: Query<Option<i64>>,
        /// Placed at or after (seconds since the Unix epoch).
        from: Query<Option<i64>>,
        /// Placed before (seconds since the Unix epoch).
        until: Query<Option<i64>>,
        /// An order number, an invoice number, or a customer's email or mobile (at most 100 characters).
        search: Query<Option<String>>,
        /// Where the order's refunds stand: `none` (nothing given back), `partial` (some of the
        /// total), `full` (all of it; every refund recorded counts, paid or still at the provider),
        /// `open` (a refund not yet settled by the provider) or `failed` (one to retry).
        refunds: Query<Option<String>>,
        /// 1-based page number (default 1).
        page: Query<Option<u32>>,
        /// Orders per page, 1 to 100 (default 20).
        size: Query<Option<u32>>,
    ) -> ListAnswer {
        let window = match list_window(page.0.map(u64::from), size.0.map(u64::from)) {
            Ok(w) => w,
            Err(body) => return ListAnswer::BadRequest(body),
        };
        let filters = OrderFilters {
            status: status.0,
            from: from.0,
            until: until.0,
            search: search.0,
            refunds: refunds.0,
            window,
        };
        match self.orders.list(&staff, &filters).await {
            Ok(list) => {
                let [placed, confirmed, packed, shipped, delivered, cancelled] = list.page.counts.0;
                ListAnswer::Ok(Json(OrderListBody {
                    results: list.page.orders.iter().map(OrderSummary::from).collect(),
                    pages: list.pages,
                    total: list.page.total,
                    counts: CountsBody { placed, confirmed, packed, shipped, delivered, cancelled },
                }))
            }
            Err(e) => refusal!(ListAnswer, e, {
                AdminOrderError::NotFound
                | AdminOrderError::Changed { .. }
                | AdminOrderError::Refused(_)
                | AdminOrderError::RefundRefused(_)
                | AdminOrderError::KeyReused
                | AdminOrderError::RefundNotFound => Unavailable
            }),
        }
    }

    /// One order: as its customer sees it, its shipment, its payment, the customer's contacts, its
    /// `version` (for `If-Match`) and every change since it was placed.
    #[oai(path = "/admin/orders/:id", method = "get", operation_id = "adminGetOrder")]
    async fn order(&self, staff: OrdersStaff, id: Path<String>) -> OrderAnswer {
        match self.orders.order(&staff, &OrderId(id.0)).await {
            Ok(order) => OrderAnswer::Ok(Json(OrderBody::of(&order, &self.refunds))),
            Err(e) => refusal!(OrderAnswer, e, {
                AdminOrderError::NotFound
                | AdminOrderError::Changed { .. }
                | AdminOrderError::Refused(_)
                | AdminOrderError::RefundRefused(_)
                | AdminOrderError::KeyReused
                | AdminOrderError::RefundNotFound => NotFound
            }),
        }
    }

    /// Moves an order one step along (2 confirmed, 3 packed, 4 shipped with a courier and AWB,
    /// 5 delivered) or corrects a shipped order's courier and AWB, on the version named by
    /// `If-Match`: of two staff members changing one order at once, one wins and the other is told
    /// (`order.changed`). Status 6 is only reached by cancelling.
    #[oai(path = "/admin/orders/:id", method = "patch", operation_id = "adminChangeOrder")]
    async fn change(
        &self,
        staff: OrdersStaff,
        id: Path<String>,
        /// The order's `version` as last read (`3`, or `"3"`).
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        input: Json<ChangeBody>,
    ) -> ChangeAnswer {
        let version = required_version!(ChangeAnswer, if_match.0, Message::OrderVersionRequired);
        let ChangeBody { status, courier, awb, tracking_url } = input.0;
        let input = FulfilmentInput { status, courier, awb, tracking_url };
        match self.orders.change(&staff, &OrderId(id.0), version, &input).await {
            Ok(order) => ChangeAnswer::Ok(Json(OrderBody::of(&order, &self.refunds))),
            Err(e) => refusal!(ChangeAnswer, e, {
                AdminOrderError::NotFound | AdminOrderError::RefundNotFound => NotFound,
                AdminOrderError::Changed { .. }
                | AdminOrderError::Refused(_)
                | AdminOrderError::RefundRefused(_)
                | AdminOrderError::KeyReused => Conflict
            }),
        }
    }

    /// Cancels an order before it ships (status 1–3), on the version named by `If-Match`: status 6
    /// (`admin-cancelled`, shown 'cancelled' to the customer), a refund through the payment provider
    /// of everything not refunded yet, and its units back in stock unless `restock` is false.
    #[oai(path = "/admin/orders/:id/cancel", method = "post", operation_id = "adminCancelOrder")]
    async fn cancel(
        &self,
        staff: RefundsStaff,
        id: Path<String>,
        /// The order's `version` as last read (`3`, or `"3"`).
        #[oai(name = "If-Match")]
        if_match: Header<Option<String>>,
        input: Json<CancelBody>,
    ) -> CancelAnswer {
        let version = required_version!(CancelAnswer, if_match.0, Message::OrderVersionRequired);
        match self.refunds.cancel(&staff, &OrderId(id.0), version, &input.0.into()).await {
            Ok(done) => CancelAnswer::Ok(Json(RefundDoneBody::of(&done, &self.refunds))),
            Err(e) => refusal!(CancelAnswer, e, {
                AdminOrderError::NotFound | AdminOrderError::RefundNotFound => NotFound,
                AdminOrderError::Changed { .. }
                | AdminOrderError::Refused(_)
                | AdminOrderError::RefundRefused(_)
                | AdminOrderError::KeyReused => Conflict
            }),
        }
    }

    /// Refunds chosen lines (quantities, restock or not, a reason each) and the delivery charge or
    /// not, computed by the shop: each unit at the price paid less its share of the order's discount.
    /// Idempotent by `Idempotency-Key`: the same key and body answer the refund made the first
    /// time, never a second one. The refunds of an order never total more than was paid.
    #[oai(path = "/admin/orders/:id/refunds", method = "post", operation_id = "adminRefundOrder")]
    async fn refund(
        &self,
        staff: RefundsStaff,
        id: Path<String>,
        /// 8 to 64 letters, digits, `-` and `_`, new for each refund and the same for its retries.
        #[oai(name = "Idempotency-Key")]
        key: Header<Option<String>>,
        input: Json<RefundAskBody>,
    ) -> RefundAnswer {
        let Some(key) = key.0 else {
            return RefundAnswer::PreconditionRequired(ErrorBody::from_message(Message::RefundKeyRequired));
        };
        match self.refunds.refund(&staff, &OrderId(id.0), &key, &input.0.into()).await {
            Ok(done) if done.replayed => RefundAnswer::Ok(Json(RefundDoneBody::of(&done, &self.refunds))),
            Ok(done) => RefundAnswer::Created(Json(RefundDoneBody::of(&done, &self.refunds))),
            Err(e) => refusal!(RefundAnswer, e, {
                AdminOrderError::NotFound | AdminOrderError::RefundNotFound => NotFound,
                AdminOrderError::KeyReused => UnprocessableEntity,
                AdminOrderError::Changed { .. }
                | AdminOrderError::Refused(_)
                | AdminOrderError::RefundRefused(_) => Conflict
            }),
        }
    }

    /// Tries a refund again: a failed one is asked of the provider again as a new attempt, a
    /// requested one is sent again under its own key, any other is answered as it stands. Calling it
    /// twice never pays twice.
    #[oai(path = "/admin/orders/:id/refunds/:refund/retry", method = "post", operation_id = "adminRetryRefund")]
    async fn retry(&self, staff: RefundsStaff, id: Path<String>, refund: Path<String>) -> RetryAnswer {
        match self.refunds.retry(&staff, &OrderId(id.0), &refund.0).await {
            Ok(done) => RetryAnswer::Ok(Json(RefundDoneBody::of(&done, &self.refunds))),
            Err(e) => refusal!(RetryAnswer, e, {
                AdminOrderError::NotFound
                | AdminOrderError::RefundNotFound
                | AdminOrderError::Changed { .. }
                | AdminOrderError::Refused(_)
                | AdminOrderError::RefundRefused(_)
                | AdminOrderError::KeyReused => NotFound
            }),
        }
    }

    /// The GST credit note of one refund of the order, as a PDF (`credit-note.pdf`), as its customer
    /// downloads it; the order's `refunds[].creditNote` names each note.
    #[oai(path = "/admin/orders/:id/refunds/:refund/credit-note", method = "get", operation_id = "adminGetCreditNote")]
    async fn credit_note(&self, staff: RefundsStaff, id: Path<String>, refund: Path<String>) -> CreditNoteAnswer {
        match self.credit_notes.for_staff(&staff, &OrderId(id.0), &refund.0).await {
            Ok(pdf) => CreditNoteAnswer::Ok(Binary(pdf), format!("inline; filename=\"{}\"", CREDIT_NOTE_FILENAME)),
            Err(CreditNoteFileError::Forbidden(f)) => CreditNoteAnswer::Forbidden(ErrorBody::from_message(f.message())),
            Err(CreditNoteFileError::NotOwner) => {
                CreditNoteAnswer::Forbidden(ErrorBody::from_message(Message::StaffForbidden))
            }
            Err(CreditNoteFileError::NotFound) => {
                CreditNoteAnswer::NotFound(ErrorBody::from_message(Message::OrderNotFound))
            }
            Err(CreditNoteFileError::NoCreditNote) => {
                CreditNoteAnswer::NotFound(ErrorBody::from_message(Message::CreditNoteNotFound))
            }
            Err(e @ CreditNoteFileError::Failed(_)) => {
                tracing::error!(error = %e, "credit note not rendered");
                CreditNoteAnswer::Failed(ErrorBody::from_message(Message::InvoiceFailed))
            }
            Err(e @ CreditNoteFileError::Unavailable(_)) => {
                tracing::error!(error = %e, "the orders failed");
                CreditNoteAnswer::Unavailable(ErrorBody::from_message(Message::OrderUnavailable))
            }
        }
    }
}
