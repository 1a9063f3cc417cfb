//! `admin-orders`: the customer notices of one order (`GET /api/admin/orders/{id}/notices`), so staff
//! see which emails and SMS went out, which wait for another attempt and which failed, and why.

use marque_app::admin::notices::{OrderNoticesError, OrderNoticesService};
use marque_ports::{Channel, OrderId, QueuedNotice};
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Enum, Object, OpenApi, Tags};

use super::auth::OrdersStaff;
use crate::error::ErrorBody;

#[derive(Tags)]
enum Tag {
    /// Staff: orders, their status moves and shipments (roles: owner, fulfilment).
    #[oai(rename = "admin-orders")]
    AdminOrders,
}

/// How a notice reaches the customer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename = "NoticeChannel", rename_all = "lowercase")]
pub enum ChannelView {
    Email,
    Sms,
}

/// Where a notice stands: `waiting` (for its first or next attempt), `sent`, `failed` (given up).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename = "NoticeState", rename_all = "lowercase")]
pub enum StateView {
    Waiting,
    Sent,
    Failed,
}

/// One email or SMS queued for the order (its text is the customer's and is not shown).
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminOrderNotice")]
pub struct NoticeView {
    #[oai(rename = "_id")]
    pub id: String,
    /// What it tells, as its SMS template is named: `order-confirmed`, `order-shipped`, …
    pub kind: String,
    pub channel: ChannelView,
    /// The email address or the ten-digit mobile it goes to.
    pub recipient: String,
    pub state: StateView,
    /// Failed attempts so far.
    pub attempts: u32,
    /// When it was queued (seconds since the Unix epoch).
    #[oai(rename = "queuedAt")]
    pub queued_at: i64,
    /// When the next attempt is due, while it waits (seconds since the Unix epoch).
    #[oai(rename = "dueAt")]
    pub due_at: i64,
    /// Why the last attempt failed (the gateway's reason); null when none failed.
    #[oai(rename = "lastError", nullable)]
    pub last_error: Option<String>,
}

impl From<QueuedNotice> for NoticeView {
    fn from(q: QueuedNotice) -> Self {
        NoticeView {
            id: q.id,
            kind: q.notice.kind.template().to_owned(),
            channel: match q.notice.channel {
                Channel::Email => ChannelView::Email,
                Channel::Sms => ChannelView::Sms,
            },
            recipient: q.notice.recipient,
            state: match q.state {
                marque_ports::NoticeState::Waiting => StateView::Waiting,
                marque_ports::NoticeState::Sent => StateView::Sent,
                marque_ports::NoticeState::Failed => StateView::Failed,
            },
            attempts: q.attempts,
            queued_at: q.notice.at,
            due_at: q.due_at,
            last_error: q.last_error,
        }
    }
}

/// The order's notices, oldest first.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminOrderNotices")]
pub struct NoticesBody {
    pub results: Vec<NoticeView>,
}

admin_response!(NoticesAnswer, notices_bad_request, "notices_bad_request", {
    /// The order's notices, oldest first (none for an order without any).
    Ok(Json<NoticesBody>) = 200,
});

#[derive(Debug)]
pub struct OrderNoticesApi {
    notices: OrderNoticesService,
}

impl OrderNoticesApi {
    pub fn new(notices: OrderNoticesService) -> Self {
        Self { notices }
    }
}

#[OpenApi(tag = "Tag::AdminOrders")]
impl OrderNoticesApi {
    /// The emails and SMS queued for the order's customer, oldest first: sent, waiting for an
    /// attempt, or failed after the last one, with the last failure's reason. Owners and fulfilment.
    #[oai(path = "/admin/orders/:id/notices", method = "get", operation_id = "adminOrderNotices")]
    async fn notices(&self, staff: OrdersStaff, #[oai(validator(max_length = 200))] id: Path<String>) -> NoticesAnswer {
        match self.notices.of_order(&staff, &OrderId(id.0)).await {
            Ok(list) => {
                NoticesAnswer::Ok(Json(NoticesBody { results: list.into_iter().map(NoticeView::from).collect() }))
            }
            Err(e @ OrderNoticesError::Forbidden(_)) => NoticesAnswer::Forbidden(ErrorBody::from_message(e.message())),
            Err(e @ OrderNoticesError::Unavailable(_)) => {
                tracing::error!(error = %e, "reading an order's notices failed");
                NoticesAnswer::Unavailable(ErrorBody::from_message(e.message()))
            }
        }
    }
}
