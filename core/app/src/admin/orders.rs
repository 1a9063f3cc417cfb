//! The back office's orders: the list with its filters and counts, one order with its version and
//! timeline, and moving an order along (confirm, pack, ship with a courier and AWB, deliver).
//!
//! Whether a move is allowed is the domain's rule ([`Fulfilment::apply`]); this use case reads the
//! order, asks the rule, and hands the store the outcome with the version it was decided on, so a
//! change made meanwhile by someone else is refused (`order.changed`) rather than overwritten.

use std::sync::Arc;

use crate::notices::{notice_of_move, queue_for, NoticeSettings};
use marque_domain::catalog::ProductId;
use marque_domain::order::{
    Fulfilment, FulfilmentChange, OrderMoveError, OrderSearch, OrderStatus, RefundError, RefundFilter, Shipment,
};
use marque_domain::paging::ListWindow;
use marque_domain::staff::{Area, Forbidden, Staff};
use marque_domain::{Message, UserFacing};

use marque_ports::{
    Actor, AdminOrder, AdminOrderPage, AdminOrderQuery, AuditEntry, Clock, OrderDesk, OrderDeskError, OrderId,
};

/// The audit trail's actions of this area: a move of the status (with or without a shipment), and
/// a corrected shipment of a shipped order.
pub const ACTION_STATUS: &str = "order.status";
pub const ACTION_SHIPMENT: &str = "order.shipment";

/// Why an order call did not happen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AdminOrderError {
    /// The staff member's role does not cover orders.
    #[error(transparent)]
    Forbidden(#[from] Forbidden),
    /// A filter, status, courier, AWB or tracking link that does not parse.
    #[error("invalid: {}", .0.code())]
    Invalid(Message),
    #[error("no such order")]
    NotFound,
    /// The order is no longer at the version the change named; `version` is where it is now.
    #[error("the order changed meanwhile (now at version {version})")]
    Changed { version: u64 },
    /// The shop's rules refuse the move.
    #[error("refused: {}", .0.code())]
    Refused(OrderMoveError),
    /// The refund rules refuse the refund as the order stands (units or delivery not left, above
    /// what was paid, nothing left).
    #[error("refund refused: {}", .0.code())]
    RefundRefused(RefundError),
    /// The `Idempotency-Key` was used for a different refund of the order.
    #[error("the idempotency key was used for another refund")]
    KeyReused,
    /// The order has no refund with this id.
    #[error("no such refund")]
    RefundNotFound,
    #[error("the orders are unavailable: {0}")]
    Unavailable(String),
}

impl AdminOrderError {
    /// The message the caller reads.
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            AdminOrderError::Forbidden(f) => f.message(),
            AdminOrderError::Invalid(m) => *m,
            AdminOrderError::NotFound => Message::OrderNotFound,
            AdminOrderError::Changed { .. } => Message::OrderChanged,
            AdminOrderError::Refused(e) => e.message(),
            AdminOrderError::RefundRefused(e) => e.message(),
            AdminOrderError::KeyReused => Message::RefundKeyReused,
            AdminOrderError::RefundNotFound => Message::RefundNotFound,
            AdminOrderError::Unavailable(_) => Message::OrderUnavailable,
        }
    }
}

impl From<OrderDeskError> for AdminOrderError {
    fn from(e: OrderDeskError) -> Self {
        match e {
            OrderDeskError::NotFound => AdminOrderError::NotFound,
            OrderDeskError::Changed { version } => AdminOrderError::Changed { version },
            OrderDeskError::Unavailable { reason } => AdminOrderError::Unavailable(reason),
            OrderDeskError::AbovePaid { left } => AdminOrderError::RefundRefused(RefundError::AbovePaid { left }),
            OrderDeskError::UnitsAboveLeft => AdminOrderError::RefundRefused(RefundError::QuantityAboveLeft {
                product: ProductId(String::new()),
                left: 0,
            }),
            OrderDeskError::KeyReused => AdminOrderError::KeyReused,
            OrderDeskError::RefundNotFound => AdminOrderError::RefundNotFound,
            // Only after the use case's retries: another refund keeps landing first.
            OrderDeskError::RefundsChanged => AdminOrderError::Changed { version: 0 },
        }
    }
}

/// The list's filters as staff give them, unchecked (the window is checked by the caller).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderFilters {
    /// 1–6.
    pub status: Option<i64>,
    /// Seconds since the Unix epoch: placed at or after.
    pub from: Option<i64>,
    /// Seconds since the Unix epoch: placed before.
    pub until: Option<i64>,
    /// An order or invoice number, or a customer's email or mobile.
    pub search: Option<String>,
    /// Where the order's refunds stand: `none`, `partial`, `full`, `open` or `failed`.
    pub refunds: Option<String>,
    pub window: ListWindow,
}

/// A change as staff give it, unchecked: a new status, a shipment, or both.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FulfilmentInput {
    pub status: Option<i64>,
    pub courier: Option<String>,
    pub awb: Option<String>,
    pub tracking_url: Option<String>,
}

/// One window of the order list, with the number of pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderList {
    pub page: AdminOrderPage,
    pub pages: u64,
}

/// The back office's orders for staff whose role covers [`Area::Orders`] (owner, fulfilment).
#[derive(Clone)]
pub struct AdminOrdersService {
    desk: Arc<dyn OrderDesk>,
    clock: Arc<dyn Clock>,
    notices: Arc<NoticeSettings>,
}

impl std::fmt::Debug for AdminOrdersService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdminOrdersService").finish_non_exhaustive()
    }
}

fn status_of(number: i64, fault: Message) -> Result<OrderStatus, AdminOrderError> {
    OrderStatus::from_number(number).ok_or(AdminOrderError::Invalid(fault))
}

/// The query the filters ask for.
fn query_of(filters: &OrderFilters) -> Result<AdminOrderQuery, AdminOrderError> {
    let invalid = AdminOrderError::Invalid(Message::OrderFilterInvalid);
    let status = filters.status.map(|n| status_of(n, Message::OrderFilterInvalid)).transpose()?;
    if filters.from.is_some_and(|t| t < 0) || filters.until.is_some_and(|t| t < 0) {
        return Err(invalid);
    }
    if let (Some(from), Some(until)) = (filters.from, filters.until) {
        if from >= until {
            return Err(invalid);
        }
    }
    let search = match filters.search.as_deref() {
        Some(text) => OrderSearch::parse(text).map_err(AdminOrderError::Invalid)?,
        None => None,
    };
    let refunds = filters.refunds.as_deref().map(|code| RefundFilter::parse(code).ok_or(invalid)).transpose()?;
    Ok(AdminOrderQuery { status, from: filters.from, until: filters.until, search, refunds, window: filters.window })
}

/// The change the input asks for: the status, and the shipment when any of its fields is given
/// (then the courier and the AWB are both needed).
fn change_of(input: &FulfilmentInput) -> Result<FulfilmentChange, AdminOrderError> {
    let status = input.status.map(|n| status_of(n, Message::OrderStatusInvalid)).transpose()?;
    let given = input.courier.is_some() || input.awb.is_some() || input.tracking_url.is_some();
    let shipment = if given {
        let courier = input.courier.as_deref().ok_or(AdminOrderError::Invalid(Message::OrderCourierUnknown))?;
        let awb = input.awb.as_deref().ok_or(AdminOrderError::Invalid(Message::OrderAwbInvalid))?;
        Some(Shipment::parse(courier, awb, input.tracking_url.as_deref()).map_err(AdminOrderError::Invalid)?)
    } else {
        None
    };
    Ok(FulfilmentChange { status, shipment })
}

/// Where the stored order stands.
pub(crate) fn fulfilment_of(order: &AdminOrder) -> Result<Fulfilment, AdminOrderError> {
    let status = OrderStatus::from_number(i64::from(order.order.status))
        .ok_or_else(|| AdminOrderError::Unavailable("a stored order has a status outside 1-6".into()))?;
    Ok(Fulfilment { status, shipment: order.order.shipment.clone() })
}

/// The fields of `f` the audit trail records, as a JSON object.
fn values(f: &Fulfilment) -> serde_json::Map<String, serde_json::Value> {
    let mut map = serde_json::Map::new();
    map.insert("status".into(), f.status.number().into());
    let shipment = f.shipment.as_ref();
    map.insert("courier".into(), shipment.map(|s| s.courier().slug()).into());
    map.insert("awb".into(), shipment.map(|s| s.awb().as_str()).into());
    map.insert("trackingUrl".into(), shipment.and_then(|s| s.tracking_url()).map(|u| u.as_str()).into());
    map
}

/// `(before, after)`: only the fields that changed, each side as JSON text.
fn changed_values(before: &Fulfilment, after: &Fulfilment) -> (String, String) {
    let (mut old, mut new) = (values(before), values(after));
    let same: Vec<String> = old.iter().filter(|(k, v)| new.get(*k) == Some(*v)).map(|(k, _)| k.clone()).collect();
    for key in same {
        old.remove(&key);
        new.remove(&key);
    }
    (serde_json::Value::Object(old).to_string(), serde_json::Value::Object(new).to_string())
}

impl AdminOrdersService {
    #[must_use]
    pub fn new(desk: Arc<dyn OrderDesk>, clock: Arc<dyn Clock>) -> Self {
        Self { desk, clock, notices: Arc::new(NoticeSettings::default()) }
    }

    /// How the customer's notices of a move are signed and which go by SMS too.
    #[must_use]
    pub fn with_notices(mut self, notices: NoticeSettings) -> Self {
        self.notices = Arc::new(notices);
        self
    }

    /// One window of the orders `filters` match, newest first, with the counts per status.
    ///
    /// # Errors
    /// [`AdminOrderError::Forbidden`] first; [`AdminOrderError::Invalid`] (`order.filter_invalid`) for
    /// a status outside 1–6, a negative time, `from` not before `until`, or a search too long;
    /// [`AdminOrderError::Unavailable`].
    pub async fn list(&self, staff: &Staff, filters: &OrderFilters) -> Result<OrderList, AdminOrderError> {
        staff.require(Area::Orders)?;
        let query = query_of(filters)?;
        let page = self.desk.orders(&query).await?;
        Ok(OrderList { pages: query.window.pages(page.total), page })
    }

    /// One order with its version and timeline.
    ///
    /// # Errors
    /// [`AdminOrderError::Forbidden`] first; [`AdminOrderError::NotFound`]; [`AdminOrderError::Unavailable`].
    pub async fn order(&self, staff: &Staff, id: &OrderId) -> Result<AdminOrder, AdminOrderError> {
        staff.require(Area::Orders)?;
        self.desk.order(id).await?.ok_or(AdminOrderError::NotFound)
    }

    /// Moves the order (and/or sets its shipment) as `input` asks, if the order is still at
    /// `version` and the shop's rules allow it, with its audit record and the customer's notice of
    /// it (confirmed, shipped, delivered, cancelled: [`notice_of_move`]) queued in the outbox in the
    /// same write; answers the order after. Sending the notice is the worker's: it never fails this.
    ///
    /// # Errors
    /// [`AdminOrderError::Forbidden`] first; [`AdminOrderError::Invalid`] for a status, courier, AWB
    /// or tracking link that does not parse; [`AdminOrderError::NotFound`];
    /// [`AdminOrderError::Changed`] when the order is no longer at `version` (also when another
    /// change wins the race to the store); [`AdminOrderError::Refused`] for a move the rules refuse;
    /// [`AdminOrderError::Unavailable`].
    pub async fn change(
        &self,
        staff: &Staff,
        id: &OrderId,
        version: u64,
        input: &FulfilmentInput,
    ) -> Result<AdminOrder, AdminOrderError> {
        staff.require(Area::Orders)?;
        let change = change_of(input)?;
        let current = self.desk.order(id).await?.ok_or(AdminOrderError::NotFound)?;
        if current.version != version {
            return Err(AdminOrderError::Changed { version: current.version });
        }
        let before = fulfilment_of(&current)?;
        let after = before.apply(&change).map_err(AdminOrderError::Refused)?;
        let action = if after.status == before.status { ACTION_SHIPMENT } else { ACTION_STATUS };
        let (old, new) = changed_values(&before, &after);
        let audit = AuditEntry::new(self.clock.now(), Actor::staff(staff), action, format!("order:{}", id.0))
            .with_values(Some(old), Some(new));
        let now = self.clock.now();
        let notices =
            notice_of_move(&before, &after).map(|n| queue_for(&current, &n, &self.notices, now)).unwrap_or_default();
        Ok(self.desk.update_fulfilment(id, version, &after, &audit, &notices).await?)
    }
}

#[cfg(test)]
mod tests;
