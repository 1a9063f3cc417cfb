//! The back office's orders on SurrealDB: the list with its filters and counts, one order with its
//! version and timeline (`order_event`, migration 20), and the change of status or shipment made
//! only on the version it was decided on.
//!
//! A change is one transaction: a conditional update (`WHERE (version ?? 0) = $version`) that also
//! steps the version, then the timeline row and the audit row. Two changes racing on one order
//! conflict; the loser is tried again, finds the version moved, and writes nothing.

use async_trait::async_trait;
use marque_domain::order::{Fulfilment, Language, OrderSearch, OrderStatus, RefundFilter};
use marque_domain::Money;
use marque_ports::{
    AdminOrder, AdminOrderPage, AdminOrderQuery, AuditEntry, IssuedCreditNote, NewNotice, OrderDesk, OrderDeskError,
    OrderEvent, OrderId, OrderRefund, OrderStoreError, RefundCounts, RefundRecorded, RefundState, RefundWrite,
    StatusCounts,
};
use surrealdb::types::SurrealValue;

use crate::conn::{Conn, Tx};
use crate::error::{until_settled, Attempt};
use crate::order_refunds::{refund_of_row, RefundRow};
use crate::orders::{order_of, shipment_of, OrderRow, ORDER_FIELDS};

/// [`OrderDesk`] on a SurrealDB connection. Get one from [`crate::Database::order_desk`].
#[derive(Debug, Clone)]
pub struct SurrealOrderDesk {
    db: Conn,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct Count {
    n: i64,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct StateCount {
    status: String,
    n: i64,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct StatusCount {
    status: i64,
    n: i64,
}

/// One `order_event` row.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(crate) struct OrderEventRow {
    pub(crate) order_id: String,
    pub(crate) at: i64,
    pub(crate) actor: String,
    pub(crate) actor_label: String,
    pub(crate) action: String,
    pub(crate) status: i64,
    pub(crate) courier: String,
    pub(crate) awb: String,
    pub(crate) tracking_url: Option<String>,
}

/// The customer's contact details as the account holds them.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct ContactRow {
    email: Option<String>,
    google_email: Option<String>,
    mobile: Option<String>,
    language: Option<String>,
}

pub(crate) fn unavailable(e: &surrealdb::Error) -> OrderDeskError {
    OrderDeskError::Unavailable { reason: e.message().to_owned() }
}

fn from_orders(e: OrderStoreError) -> OrderDeskError {
    OrderDeskError::Unavailable { reason: e.to_string() }
}

fn corrupt(what: &str) -> OrderDeskError {
    OrderDeskError::Unavailable { reason: format!("a stored {what} does not satisfy the shop's rules") }
}

/// The accounts whose email (or Google email) is `$email`.
const USERS_BY_EMAIL: &str =
    "(SELECT VALUE record::id(id) FROM user WHERE email_claim = $email OR google_email = $email)";
/// The accounts whose mobile is `$mobile`.
const USERS_BY_MOBILE: &str = "(SELECT VALUE record::id(id) FROM user WHERE mobile_number = $mobile)";

/// The orders (their ids) with a refund at one of `states` (fixed words, never a caller's text).
fn refunds_at(states: &[&str]) -> String {
    let states: Vec<String> = states.iter().map(|s| format!("'{s}'")).collect();
    format!("(SELECT VALUE order_id FROM order_refund WHERE status IN [{}])", states.join(", "))
}

/// The `WHERE` condition of `query`, with or without its status (the counts per status leave it out).
fn condition(query: &AdminOrderQuery, with_status: bool) -> String {
    let mut parts: Vec<String> = Vec::new();
    if with_status && query.status.is_some() {
        parts.push("status = $status".into());
    }
    if query.from.is_some() {
        parts.push("created_at >= $from".into());
    }
    if query.until.is_some() {
        parts.push("created_at < $until".into());
    }
    match &query.search {
        None => {}
        Some(OrderSearch::Email(_)) => parts.push(format!("user IN {USERS_BY_EMAIL}")),
        Some(OrderSearch::Mobile(_)) => {
            parts.push(format!("(address.mobile_no = $mobile OR user IN {USERS_BY_MOBILE})"))
        }
        Some(OrderSearch::Number(_)) => parts.push("(order_number = $number OR invoice_number = $number)".into()),
    }
    match query.refunds {
        None => {}
        Some(RefundFilter::None) => parts.push("(refunded ?? 0) = 0".into()),
        Some(RefundFilter::Partial) => parts.push("(refunded ?? 0) > 0 AND (refunded ?? 0) < total".into()),
        Some(RefundFilter::Full) => parts.push("(refunded ?? 0) > 0 AND (refunded ?? 0) >= total".into()),
        Some(RefundFilter::Open) => parts.push(format!("record::id(id) IN {}", refunds_at(&["requested", "pending"]))),
        Some(RefundFilter::Failed) => parts.push(format!("record::id(id) IN {}", refunds_at(&["failed"]))),
    }
    if parts.is_empty() {
        "true".into()
    } else {
        parts.join(" AND ")
    }
}

/// The statements reading one order (`$id`): its fields, its version, its timeline, its refunds.
pub(crate) fn order_reads() -> [String; 4] {
    [
        format!("SELECT {ORDER_FIELDS} FROM type::record('customer_order', $id)"),
        "SELECT VALUE version ?? 0 FROM type::record('customer_order', $id)".to_owned(),
        "SELECT order_id, at, actor, actor_label, action, status, courier, awb, tracking_url, seq FROM order_event \
         WHERE order_id = $id ORDER BY seq, id"
            .to_owned(),
        crate::order_refunds::refunds_read(),
    ]
}

/// What [`order_reads`]' statements answered, from the statement at `first`.
/// One order as [`order_reads`] read it: its row, version, timeline and refunds.
pub(crate) type OrderRead = (OrderRow, i64, Vec<OrderEventRow>, Vec<RefundRow>);

pub(crate) fn take_order(
    results: &mut surrealdb::IndexedResults,
    first: usize,
) -> Result<Option<OrderRead>, surrealdb::Error> {
    let rows: Vec<OrderRow> = results.take(first)?;
    let versions: Vec<i64> = results.take(first + 1)?;
    let events: Vec<OrderEventRow> = results.take(first + 2)?;
    let refunds: Vec<RefundRow> = results.take(first + 3)?;
    Ok(rows.into_iter().next().map(|row| (row, versions.first().copied().unwrap_or(0), events, refunds)))
}

fn event_of(row: OrderEventRow) -> Result<OrderEvent, OrderDeskError> {
    Ok(OrderEvent {
        at: row.at,
        actor: row.actor,
        actor_label: row.actor_label,
        action: row.action,
        status: OrderStatus::from_number(row.status).ok_or_else(|| corrupt("order event status"))?,
        shipment: shipment_of(&row.courier, &row.awb, row.tracking_url.as_deref())
            .map_err(|reason| OrderDeskError::Unavailable { reason })?,
    })
}

pub(crate) fn admin_order_of(
    row: OrderRow,
    version: i64,
    events: Vec<OrderEventRow>,
    refunds: Vec<RefundRow>,
) -> Result<AdminOrder, OrderDeskError> {
    Ok(AdminOrder {
        order: order_of(row).map_err(from_orders)?,
        version: u64::try_from(version).map_err(|_| corrupt("order version"))?,
        timeline: events.into_iter().map(event_of).collect::<Result<_, _>>()?,
        customer_email: None,
        customer_mobile: None,
        customer_language: None,
        refunds: refunds.into_iter().map(refund_of_row).collect::<Result<_, _>>()?,
    })
}

/// `(courier, awb, tracking_url)` as a row stores `to`'s shipment (empty strings: none).
fn shipment_fields(to: &Fulfilment) -> (String, String, Option<String>) {
    to.shipment.as_ref().map_or_else(
        || (String::new(), String::new(), None),
        |s| {
            (
                s.courier().slug().to_owned(),
                s.awb().as_str().to_owned(),
                s.tracking_url().map(|u| u.as_str().to_owned()),
            )
        },
    )
}

pub(crate) async fn give_up<T>(tx: Tx, outcome: Result<T, OrderDeskError>) -> Attempt<Result<T, OrderDeskError>> {
    // Nothing was written that a failing cancel could keep.
    let _ = tx.cancel().await;
    Attempt::Done(outcome)
}

pub(crate) async fn abandon<T>(tx: Tx, e: surrealdb::Error) -> Attempt<Result<T, OrderDeskError>> {
    let _ = tx.cancel().await;
    Attempt::failed(e, unavailable)
}

impl SurrealOrderDesk {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }

    pub(crate) fn conn(&self) -> &Conn {
        &self.db
    }

    async fn contact(&self, order: &mut AdminOrder) -> Result<(), OrderDeskError> {
        let rows: Vec<ContactRow> = self
            .db
            .query("SELECT email, google_email, mobile_number AS mobile, language FROM type::record('user', $user)")
            .bind(("user", order.order.draft.user.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        if let Some(contact) = rows.into_iter().next() {
            let given = |v: Option<String>| v.filter(|t| !t.trim().is_empty());
            order.customer_email = given(contact.email).or_else(|| given(contact.google_email));
            order.customer_mobile = given(contact.mobile);
            order.customer_language = contact.language.as_deref().and_then(Language::parse);
        }
        Ok(())
    }

    async fn try_update(
        &self,
        id: &str,
        version: u64,
        to: &Fulfilment,
        audit: &AuditEntry,
        notices: &[NewNotice],
    ) -> Attempt<Result<AdminOrder, OrderDeskError>> {
        let Ok(expected) = i64::try_from(version) else {
            return Attempt::Done(Err(OrderDeskError::Changed { version: 0 }));
        };
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        let (courier, awb, tracking_url) = shipment_fields(to);
        let moved: Result<Vec<i64>, _> = tx
            .query(
                "UPDATE type::record('customer_order', $id) SET status = $status, status_text = $status_text, \
                 courier = $courier, awb = $awb, tracking_url = $tracking_url, version = $version + 1 \
                 WHERE (version ?? 0) = $version RETURN VALUE version",
            )
            .bind(("id", id.to_owned()))
            .bind(("status", to.status.number()))
            .bind(("status_text", to.status.status_string()))
            .bind(("courier", courier.clone()))
            .bind(("awb", awb.clone()))
            .bind(("tracking_url", tracking_url.clone()))
            .bind(("version", expected))
            .await
            .and_then(|mut r| r.take(0));
        match moved {
            Ok(v) if !v.is_empty() => {}
            Ok(_) => {
                let now: Result<Vec<i64>, _> = tx
                    .query("SELECT VALUE version ?? 0 FROM type::record('customer_order', $id)")
                    .bind(("id", id.to_owned()))
                    .await
                    .and_then(|mut r| r.take(0));
                let refusal = match now {
                    Ok(v) => match v.first() {
                        None => OrderDeskError::NotFound,
                        Some(&now) => OrderDeskError::Changed { version: u64::try_from(now).unwrap_or(0) },
                    },
                    Err(e) => return abandon(tx, e).await,
                };
                return give_up(tx, Err(refusal)).await;
            }
            Err(e) => return abandon(tx, e).await,
        }
        let event = OrderEventRow {
            order_id: id.to_owned(),
            at: audit.at,
            actor: audit.actor.key(),
            actor_label: audit.actor.label(),
            action: audit.action.clone(),
            status: to.status.number(),
            courier,
            awb,
            tracking_url,
        };
        let [fields, version_now, timeline, refunds] = order_reads();
        let written = tx
            .query("CREATE order_event CONTENT $event RETURN NONE;")
            .query(crate::audit::WRITE)
            .query(crate::notice_outbox::ENQUEUE)
            .query(fields)
            .query(version_now)
            .query(timeline)
            .query(refunds)
            .bind(("id", id.to_owned()))
            .bind(("event", event))
            .bind(crate::audit::bind(audit))
            .bind(crate::notice_outbox::bind(notices))
            .await
            .and_then(|mut r| {
                let order = take_order(&mut r, 3)?;
                r.check()?;
                Ok(order)
            });
        let order = match written {
            Ok(Some((row, version, events, refunds))) => admin_order_of(row, version, events, refunds),
            Ok(None) => Err(OrderDeskError::NotFound),
            Err(e) => return abandon(tx, e).await,
        };
        let order = match order {
            Ok(order) => order,
            Err(e) => return give_up(tx, Err(e)).await,
        };
        match tx.commit().await {
            Ok(()) => Attempt::Done(Ok(order)),
            Err(e) => Attempt::failed(e, unavailable),
        }
    }
}

#[async_trait]
impl OrderDesk for SurrealOrderDesk {
    async fn orders(&self, query: &AdminOrderQuery) -> Result<AdminOrderPage, OrderDeskError> {
        let matching = condition(query, true);
        let any_status = condition(query, false);
        let mut statement = self
            .db
            .query(format!("SELECT count() AS n FROM customer_order WHERE {matching} GROUP ALL"))
            .query(format!(
                "SELECT {ORDER_FIELDS} FROM customer_order WHERE {matching} \
                 ORDER BY created_at DESC, order_number DESC LIMIT $limit START $offset"
            ))
            .query(format!("SELECT status, count() AS n FROM customer_order WHERE {any_status} GROUP BY status"))
            .bind(("limit", i64::from(query.window.limit())))
            .bind(("offset", i64::try_from(query.window.offset()).unwrap_or(i64::MAX)))
            .bind(("status", query.status.map_or(0, OrderStatus::number)))
            .bind(("from", query.from.unwrap_or(i64::MIN)))
            .bind(("until", query.until.unwrap_or(i64::MAX)));
        statement = match &query.search {
            None => statement,
            Some(OrderSearch::Email(email)) => statement.bind(("email", email.clone())),
            Some(OrderSearch::Mobile(mobile)) => statement.bind(("mobile", mobile.clone())),
            Some(OrderSearch::Number(number)) => statement.bind(("number", number.clone())),
        };
        let (count, rows, counts): (Vec<Count>, Vec<OrderRow>, Vec<StatusCount>) =
            statement.await.and_then(|mut r| Ok((r.take(0)?, r.take(1)?, r.take(2)?))).map_err(|e| unavailable(&e))?;
        let mut by_status = StatusCounts::default();
        for c in counts {
            let slot = usize::try_from(c.status - 1).ok().and_then(|i| by_status.0.get_mut(i));
            *slot.ok_or_else(|| corrupt("order status"))? = u64::try_from(c.n).unwrap_or(0);
        }
        Ok(AdminOrderPage {
            orders: rows.into_iter().map(order_of).collect::<Result<_, _>>().map_err(from_orders)?,
            total: count.first().map_or(0, |c| u64::try_from(c.n).unwrap_or(0)),
            counts: by_status,
        })
    }

    async fn order(&self, id: &OrderId) -> Result<Option<AdminOrder>, OrderDeskError> {
        // SurrealDB refuses an empty record key; no order has one.
        if id.0.is_empty() {
            return Ok(None);
        }
        let [fields, version, timeline, refunds] = order_reads();
        let found = self
            .db
            .query(fields)
            .query(version)
            .query(timeline)
            .query(refunds)
            .bind(("id", id.0.clone()))
            .await
            .and_then(|mut r| take_order(&mut r, 0))
            .map_err(|e| unavailable(&e))?;
        let Some((row, version, events, refunds)) = found else { return Ok(None) };
        let mut order = admin_order_of(row, version, events, refunds)?;
        self.contact(&mut order).await?;
        Ok(Some(order))
    }

    async fn update_fulfilment(
        &self,
        id: &OrderId,
        version: u64,
        to: &Fulfilment,
        audit: &AuditEntry,
        notices: &[NewNotice],
    ) -> Result<AdminOrder, OrderDeskError> {
        if id.0.is_empty() {
            return Err(OrderDeskError::NotFound);
        }
        let mut order =
            until_settled(|| self.try_update(&id.0, version, to, audit, notices), |e| Err(unavailable(e))).await?;
        self.contact(&mut order).await?;
        Ok(order)
    }

    async fn record_refund(&self, write: &RefundWrite, audit: &AuditEntry) -> Result<RefundRecorded, OrderDeskError> {
        if write.refund.order.0.is_empty() {
            return Err(OrderDeskError::NotFound);
        }
        let recorded = until_settled(|| self.try_record_refund(write, audit), |e| Err(unavailable(e))).await?;
        match recorded {
            RefundRecorded::Recorded(mut order) => {
                self.contact(&mut order).await?;
                Ok(RefundRecorded::Recorded(order))
            }
            existing @ RefundRecorded::Existing(_) => Ok(existing),
        }
    }

    async fn settle_refund(
        &self,
        refund_id: &str,
        attempt: u32,
        state: RefundState,
        provider_refund: Option<String>,
        now: i64,
    ) -> Result<OrderRefund, OrderDeskError> {
        self.do_settle_refund(refund_id, attempt, state, provider_refund, now).await
    }

    async fn retry_refund(
        &self,
        order: &OrderId,
        refund_id: &str,
        audit: &AuditEntry,
    ) -> Result<OrderRefund, OrderDeskError> {
        if order.0.is_empty() || refund_id.is_empty() {
            return Err(OrderDeskError::RefundNotFound);
        }
        until_settled(|| self.try_retry_refund(order, refund_id, audit), |e| Err(unavailable(e))).await
    }

    async fn unsettled_refunds(&self, limit: u32) -> Result<Vec<OrderRefund>, OrderDeskError> {
        self.do_unsettled_refunds(limit).await
    }

    async fn credit_notes_of(&self, orders: &[OrderId]) -> Result<Vec<IssuedCreditNote>, OrderDeskError> {
        self.do_credit_notes_of(orders).await
    }

    async fn refund_counts(&self) -> Result<RefundCounts, OrderDeskError> {
        let rows: Vec<StateCount> = self
            .db
            .query(
                "SELECT status, count() AS n FROM order_refund WHERE status IN ['requested', 'pending', 'failed'] \
                 GROUP BY status",
            )
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        let mut counts = RefundCounts::default();
        for row in rows {
            let n = u64::try_from(row.n).unwrap_or(0);
            if row.status == RefundState::Failed.code() {
                counts.failed += n;
            } else {
                counts.waiting += n;
            }
        }
        Ok(counts)
    }

    async fn sales(&self, from: i64, until: i64) -> Result<Money, OrderDeskError> {
        let sum: Option<i64> = self
            .db
            .query(
                "RETURN math::sum((SELECT VALUE total FROM customer_order \
                 WHERE created_at >= $from AND created_at < $until AND status != 6))",
            )
            .bind(("from", from))
            .bind(("until", until))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(Money::from_paise(sum.unwrap_or(0)))
    }
}
