//! Refunds of placed orders on SurrealDB (`order_refund`, migration 21), kept by the back office's
//! order store ([`SurrealOrderDesk`]).
//!
//! A refund is one transaction: the order row's refund count and refunded total step (only on the
//! count the refund was computed on, and only within the order's total), the refund row, the stock
//! entries of the units restocked, the timeline row and the audit row; with a cancellation, the
//! order's status too. Two refunds racing on one order both write the order row, so one loses,
//! is tried again, finds the count moved, and writes nothing.

use marque_domain::catalog::ProductId;
use marque_domain::invoice::{CreditNoteNumber, FinancialYear};
use marque_domain::order::{OrderStatus, ADMIN_CANCELLED};
use marque_domain::stock::StockReason;
use marque_domain::Money;
use marque_ports::{
    AdminOrder, AuditEntry, IssuedCreditNote, OrderDeskError, OrderId, OrderRefund, OrderRefundLine, PaymentId,
    RefundKind, RefundRecorded, RefundState, RefundWrite,
};
use surrealdb::types::SurrealValue;

use crate::conn::Tx;
use crate::error::Attempt;
use crate::order_desk::{abandon, give_up, take_order, unavailable, OrderEventRow, SurrealOrderDesk};

/// The fields of a refund as read (`seq` orders them).
pub(crate) const REFUND_FIELDS: &str =
    "record::id(id) AS id, order_id, payment, kind, lines, delivery, amount, reason, \
     status, provider_refund, attempt, idem_key, request, actor, actor_label, created_at, updated_at, credit_note, seq";

/// An order's refunds, oldest first (`$id`).
pub(crate) fn refunds_read() -> String {
    format!("SELECT {REFUND_FIELDS} FROM order_refund WHERE order_id = $id ORDER BY seq, id")
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(crate) struct RefundLineRow {
    product: String,
    name: String,
    quantity: i64,
    amount: i64,
    restock: bool,
    reason: String,
}

/// One `order_refund` row as written.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct RefundWriteRow {
    order_id: String,
    payment: String,
    kind: String,
    lines: Vec<RefundLineRow>,
    delivery: i64,
    amount: i64,
    reason: String,
    status: String,
    provider_refund: Option<String>,
    attempt: i64,
    idem_key: String,
    request: String,
    actor: String,
    actor_label: String,
    created_at: i64,
    updated_at: i64,
    credit_note: Option<String>,
}

/// One `order_refund` row as read.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(crate) struct RefundRow {
    id: String,
    order_id: String,
    payment: String,
    kind: String,
    lines: Vec<RefundLineRow>,
    delivery: i64,
    amount: i64,
    reason: String,
    status: String,
    provider_refund: Option<String>,
    attempt: i64,
    idem_key: String,
    request: String,
    actor: String,
    actor_label: String,
    created_at: i64,
    updated_at: i64,
    credit_note: Option<String>,
}

/// What the refund checks read of the order row.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct Standing {
    version: i64,
    refunded: i64,
    refund_count: i64,
    total: i64,
}

fn corrupt(what: &str) -> OrderDeskError {
    OrderDeskError::Unavailable { reason: format!("a stored {what} does not satisfy the shop's rules") }
}

fn write_row(r: &OrderRefund) -> RefundWriteRow {
    RefundWriteRow {
        order_id: r.order.0.clone(),
        payment: r.payment.0.clone(),
        kind: r.kind.code().to_owned(),
        lines: r
            .lines
            .iter()
            .map(|l| RefundLineRow {
                product: l.product.0.clone(),
                name: l.name.clone(),
                quantity: i64::from(l.quantity),
                amount: l.amount.paise(),
                restock: l.restock,
                reason: l.reason.clone(),
            })
            .collect(),
        delivery: r.delivery.paise(),
        amount: r.amount.paise(),
        reason: r.reason.clone(),
        status: r.state.code().to_owned(),
        provider_refund: r.provider_refund.clone(),
        attempt: i64::from(r.attempt.max(1)),
        idem_key: r.key.clone(),
        request: r.request.clone(),
        actor: r.actor.clone(),
        actor_label: r.actor_label.clone(),
        created_at: r.created_at,
        updated_at: r.updated_at,
        credit_note: r.credit_note.clone(),
    }
}

pub(crate) fn refund_of_row(row: RefundRow) -> Result<OrderRefund, OrderDeskError> {
    Ok(OrderRefund {
        id: row.id,
        order: OrderId(row.order_id),
        payment: PaymentId(row.payment),
        kind: RefundKind::from_code(&row.kind).ok_or_else(|| corrupt("refund kind"))?,
        lines: row
            .lines
            .into_iter()
            .map(|l| {
                Ok(OrderRefundLine {
                    product: ProductId(l.product),
                    name: l.name,
                    quantity: u32::try_from(l.quantity).map_err(|_| corrupt("refund quantity"))?,
                    amount: Money::from_paise(l.amount),
                    restock: l.restock,
                    reason: l.reason,
                })
            })
            .collect::<Result<_, OrderDeskError>>()?,
        delivery: Money::from_paise(row.delivery),
        amount: Money::from_paise(row.amount),
        reason: row.reason,
        state: RefundState::from_code(&row.status).ok_or_else(|| corrupt("refund status"))?,
        provider_refund: row.provider_refund,
        attempt: u32::try_from(row.attempt).map_err(|_| corrupt("refund attempt"))?,
        key: row.idem_key,
        request: row.request,
        actor: row.actor,
        actor_label: row.actor_label,
        created_at: row.created_at,
        updated_at: row.updated_at,
        credit_note: row.credit_note,
    })
}

/// A refund key SurrealDB accepts as a record key: as the use case made it (`{order}-{n}`).
fn valid_key(id: &str) -> bool {
    !id.is_empty() && id.len() <= 120
}

/// Why the refund may not be written on the order as it stands: the first rule broken.
fn refusal(
    write: &RefundWrite,
    standing: &Standing,
    earlier: &[OrderRefund],
    ordered: &[(String, i64)],
) -> Option<OrderDeskError> {
    if let Some((version, _)) = &write.cancel {
        if i64::try_from(*version).ok() != Some(standing.version) {
            return Some(OrderDeskError::Changed { version: u64::try_from(standing.version).unwrap_or(0) });
        }
    }
    if usize::try_from(standing.refund_count).ok() != Some(write.refunds_seen) || earlier.len() != write.refunds_seen {
        return Some(OrderDeskError::RefundsChanged);
    }
    let left = standing.total - standing.refunded;
    let amount = write.refund.amount.paise();
    let lines: i64 = write.refund.lines.iter().map(|l| l.amount.paise()).sum();
    if amount < 0 || lines + write.refund.delivery.paise() != amount || amount > left {
        return Some(OrderDeskError::AbovePaid { left: Money::from_paise(left.max(0)) });
    }
    for line in &write.refund.lines {
        let Some((_, holds)) = ordered.iter().find(|(p, _)| *p == line.product.0) else {
            return Some(OrderDeskError::UnitsAboveLeft);
        };
        let before: i64 = earlier
            .iter()
            .flat_map(|r| r.lines.iter())
            .filter(|l| l.product == line.product)
            .map(|l| i64::from(l.quantity))
            .sum();
        if line.quantity == 0 || before + i64::from(line.quantity) > *holds {
            return Some(OrderDeskError::UnitsAboveLeft);
        }
    }
    let delivery_before = earlier.iter().any(|r| r.delivery.paise() > 0);
    if write.refund.delivery.paise() > 0 && delivery_before {
        return Some(OrderDeskError::AbovePaid { left: Money::from_paise(left.max(0)) });
    }
    None
}

/// The next number of `year`'s credit-note series, taken in `tx` from its counter row
/// (`number_series:⟨cn-yy-yy⟩`, beside the invoices' `number_series:⟨yy-yy⟩`): two transactions
/// taking one conflict, and the loser is tried again, so numbers are neither skipped nor repeated.
async fn credit_note_number(tx: &Tx, year: FinancialYear) -> Result<String, surrealdb::Error> {
    let serial: Vec<i64> = tx
        .query("UPSERT type::record('number_series', $series) SET last = (last ?? 0) + 1 RETURN VALUE last")
        .bind(("series", format!("cn-{}", year.short())))
        .await
        .and_then(|mut r| r.take(0))?;
    let number = serial
        .first()
        .and_then(|s| u32::try_from(*s).ok())
        .and_then(|s| CreditNoteNumber::new(year, s).ok())
        .ok_or_else(|| surrealdb::Error::internal(format!("the credit-note series of {year} is exhausted")))?;
    Ok(number.to_string())
}

/// Puts each restocked line's units back (listed or unpublished product) with its ledger entry.
pub(crate) const RESTOCK: &str = "FOR $l IN $restock { \
       LET $listed = (UPDATE type::record('product', $l.product) SET quantity += $l.quantity RETURN VALUE quantity)[0]; \
       LET $unlisted = (UPDATE type::record('unpublished_product', $l.product) SET quantity += $l.quantity RETURN VALUE quantity)[0]; \
       LET $after = $listed ?? $unlisted; \
       IF $after != NONE { \
         CREATE stock_entry CONTENT { product: $l.product, delta: $l.quantity, reason: $reason, note: $note, \
           before: $after - $l.quantity, after: $after, actor: $actor, actor_label: $actor_label, at: $at, \
           \"order\": $payment_order } RETURN NONE; \
       }; \
     }; \
     IF array::len($restock) > 0 { CREATE stock_change SET products = $restock.product, at = time::now() RETURN NONE; };";

/// A line of the order as the refund checks read it.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct LineQty {
    product_id: String,
    quantity: i64,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(crate) struct RestockRow {
    pub(crate) product: String,
    pub(crate) quantity: i64,
}

impl SurrealOrderDesk {
    pub(crate) async fn try_record_refund(
        &self,
        write: &RefundWrite,
        audit: &AuditEntry,
    ) -> Attempt<Result<RefundRecorded, OrderDeskError>> {
        let id = write.refund.order.0.clone();
        if !valid_key(&write.refund.id) {
            return Attempt::Done(Err(OrderDeskError::Unavailable { reason: "a refund needs an id".into() }));
        }
        let tx = match self.conn().begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        let read = tx
            .query(
                "SELECT version ?? 0 AS version, refunded ?? 0 AS refunded, refund_count ?? 0 AS refund_count, total \
                 FROM type::record('customer_order', $id)",
            )
            .query(refunds_read())
            .query("SELECT VALUE lines FROM type::record('customer_order', $id)")
            .bind(("id", id.clone()))
            .await
            .and_then(|mut r| {
                let standing: Vec<Standing> = r.take(0)?;
                let refunds: Vec<RefundRow> = r.take(1)?;
                let lines: Vec<Vec<LineQty>> = r.take(2)?;
                Ok((standing, refunds, lines))
            });
        let (standing, rows, lines) = match read {
            Ok(found) => found,
            Err(e) => return abandon(tx, e).await,
        };
        let Some(standing) = standing.into_iter().next() else {
            return give_up(tx, Err(OrderDeskError::NotFound)).await;
        };
        let earlier = match rows.into_iter().map(refund_of_row).collect::<Result<Vec<_>, _>>() {
            Ok(earlier) => earlier,
            Err(e) => return give_up(tx, Err(e)).await,
        };
        if let Some(same) = earlier.iter().find(|r| r.key == write.refund.key) {
            let outcome = if same.request == write.refund.request {
                Ok(RefundRecorded::Existing(Box::new(same.clone())))
            } else {
                Err(OrderDeskError::KeyReused)
            };
            return give_up(tx, outcome).await;
        }
        let ordered: Vec<(String, i64)> =
            lines.into_iter().next().unwrap_or_default().into_iter().map(|l| (l.product_id, l.quantity)).collect();
        if let Some(refused) = refusal(write, &standing, &earlier, &ordered) {
            return give_up(tx, Err(refused)).await;
        }
        match self.write_refund(&tx, write, audit).await {
            Ok(true) => {}
            Ok(false) => return give_up(tx, Err(OrderDeskError::RefundsChanged)).await,
            Err(e) => return abandon(tx, e).await,
        }
        let order = match self.read_in(&tx, &id).await {
            Ok(Some(order)) => order,
            Ok(None) => return give_up(tx, Err(OrderDeskError::NotFound)).await,
            Err(e) => return abandon(tx, e).await,
        };
        let order = match order {
            Ok(order) => order,
            Err(e) => return give_up(tx, Err(e)).await,
        };
        match tx.commit().await {
            Ok(()) => Attempt::Done(Ok(RefundRecorded::Recorded(Box::new(order)))),
            Err(e) => Attempt::failed(e, unavailable),
        }
    }

    /// The writes of a refund checked by [`refusal`], in `tx`; `false` when the order row is no longer
    /// as checked (nothing of the refund is written then).
    async fn write_refund(&self, tx: &Tx, write: &RefundWrite, audit: &AuditEntry) -> Result<bool, surrealdb::Error> {
        let refund = &write.refund;
        let cancel = write.cancel.as_ref().map(|(_, to)| to);
        let set_status = if cancel.is_some() {
            ", status = $status, status_text = $status_text, version = (version ?? 0) + 1"
        } else {
            ""
        };
        let (moved, order): (Vec<i64>, Vec<crate::orders::OrderRow>) = tx
            .query(format!(
                "UPDATE type::record('customer_order', $id) SET refunded = (refunded ?? 0) + $amount, \
                 refund_count = (refund_count ?? 0) + 1{set_status} \
                 WHERE (refund_count ?? 0) = $seen AND (refunded ?? 0) + $amount <= total RETURN VALUE refund_count; \
                 SELECT {} FROM type::record('customer_order', $id);",
                crate::orders::ORDER_FIELDS
            ))
            .bind(("id", refund.order.0.clone()))
            .bind(("amount", refund.amount.paise()))
            .bind(("seen", i64::try_from(write.refunds_seen).unwrap_or(i64::MAX)))
            .bind(("status", OrderStatus::Cancelled.number()))
            .bind(("status_text", ADMIN_CANCELLED))
            .await
            .and_then(|mut r| Ok((r.take(0)?, r.take(1)?)))?;
        if moved.is_empty() {
            return Ok(false);
        }
        let (status, courier, awb, tracking_url, payment_order) =
            match order.into_iter().next().map(crate::orders::order_of) {
                Some(Ok(o)) => {
                    let (courier, awb, url) = o.shipment.as_ref().map_or_else(
                        || (String::new(), String::new(), None),
                        |s| {
                            (
                                s.courier().slug().to_owned(),
                                s.awb().as_str().to_owned(),
                                s.tracking_url().map(|u| u.as_str().to_owned()),
                            )
                        },
                    );
                    (i64::from(o.status), courier, awb, url, o.payment_order.0)
                }
                _ => (OrderStatus::Placed.number(), String::new(), String::new(), None, String::new()),
            };
        let restock: Vec<RestockRow> = refund
            .lines
            .iter()
            .filter(|l| l.restock)
            .map(|l| RestockRow { product: l.product.0.clone(), quantity: i64::from(l.quantity) })
            .collect();
        let event = OrderEventRow {
            order_id: refund.order.0.clone(),
            at: audit.at,
            actor: audit.actor.key(),
            actor_label: audit.actor.label(),
            action: audit.action.clone(),
            status,
            courier,
            awb,
            tracking_url,
        };
        let mut row = write_row(refund);
        if let Some(year) = write.credit_note_year {
            row.credit_note = Some(credit_note_number(tx, year).await?);
        }
        tx.query("CREATE type::record('order_refund', $rid) CONTENT $refund RETURN NONE;")
            .query(RESTOCK)
            .query("CREATE order_event CONTENT $event RETURN NONE;")
            .query(crate::audit::WRITE)
            .query(crate::notice_outbox::ENQUEUE)
            .bind(("rid", refund.id.clone()))
            .bind(("refund", row))
            .bind(("restock", restock))
            .bind(("reason", StockReason::Returned.as_str()))
            .bind(("note", Some(format!("refund {}", refund.id))))
            .bind(("actor", audit.actor.key()))
            .bind(("actor_label", audit.actor.label()))
            .bind(("at", audit.at))
            .bind(("payment_order", payment_order))
            .bind(("event", event))
            .bind(crate::audit::bind(audit))
            .bind(crate::notice_outbox::bind(&write.notices))
            .await
            .and_then(surrealdb::IndexedResults::check)?;
        Ok(true)
    }

    /// The order `id` as read inside `tx`.
    async fn read_in(&self, tx: &Tx, id: &str) -> Result<Option<Result<AdminOrder, OrderDeskError>>, surrealdb::Error> {
        let [fields, version, timeline, refunds] = crate::order_desk::order_reads();
        let found = tx
            .query(fields)
            .query(version)
            .query(timeline)
            .query(refunds)
            .bind(("id", id.to_owned()))
            .await
            .and_then(|mut r| take_order(&mut r, 0))?;
        Ok(found
            .map(|(row, version, events, refunds)| crate::order_desk::admin_order_of(row, version, events, refunds)))
    }

    /// The refund `refund_id`, or `None`.
    pub(crate) async fn refund(&self, refund_id: &str) -> Result<Option<OrderRefund>, OrderDeskError> {
        if !valid_key(refund_id) {
            return Ok(None);
        }
        let rows: Vec<RefundRow> = self
            .conn()
            .query(format!("SELECT {REFUND_FIELDS} FROM type::record('order_refund', $rid)"))
            .bind(("rid", refund_id.to_owned()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().next().map(refund_of_row).transpose()
    }

    pub(crate) async fn do_settle_refund(
        &self,
        refund_id: &str,
        attempt: u32,
        state: RefundState,
        provider_refund: Option<String>,
        now: i64,
    ) -> Result<OrderRefund, OrderDeskError> {
        if !valid_key(refund_id) {
            return Err(OrderDeskError::RefundNotFound);
        }
        self.conn()
            .query(
                "UPDATE type::record('order_refund', $rid) SET status = $status, \
                 provider_refund = $provider ?? provider_refund, updated_at = $now \
                 WHERE attempt = $attempt AND status IN ['requested', 'pending'] RETURN NONE",
            )
            .bind(("rid", refund_id.to_owned()))
            .bind(("status", state.code()))
            .bind(("provider", provider_refund))
            .bind(("now", now))
            .bind(("attempt", i64::from(attempt)))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map_err(|e| unavailable(&e))?;
        self.refund(refund_id).await?.ok_or(OrderDeskError::RefundNotFound)
    }

    pub(crate) async fn try_retry_refund(
        &self,
        order: &OrderId,
        refund_id: &str,
        audit: &AuditEntry,
    ) -> Attempt<Result<OrderRefund, OrderDeskError>> {
        let tx = match self.conn().begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        let moved: Result<Vec<i64>, _> = tx
            .query(
                "UPDATE type::record('order_refund', $rid) SET status = 'requested', attempt += 1, \
                 provider_refund = NONE, updated_at = $at WHERE order_id = $id AND status = 'failed' RETURN VALUE attempt",
            )
            .bind(("rid", refund_id.to_owned()))
            .bind(("id", order.0.clone()))
            .bind(("at", audit.at))
            .await
            .and_then(|mut r| r.take(0));
        match moved {
            Ok(v) if v.is_empty() => {
                let _ = tx.cancel().await;
                return Attempt::Done(match self.refund(refund_id).await {
                    Ok(Some(r)) if r.order == *order => Ok(r),
                    Ok(_) => Err(OrderDeskError::RefundNotFound),
                    Err(e) => Err(e),
                });
            }
            Ok(_) => {}
            Err(e) => return abandon(tx, e).await,
        }
        let written = tx
            .query(format!("SELECT {} FROM type::record('customer_order', $id)", crate::orders::ORDER_FIELDS))
            .bind(("id", order.0.clone()))
            .await
            .and_then(|mut r| r.take::<Vec<crate::orders::OrderRow>>(0));
        let placed = match written.map(|rows| rows.into_iter().next().map(crate::orders::order_of)) {
            Ok(Some(Ok(o))) => o,
            Ok(_) => return give_up(tx, Err(OrderDeskError::NotFound)).await,
            Err(e) => return abandon(tx, e).await,
        };
        let (courier, awb, tracking_url) = placed.shipment.as_ref().map_or_else(
            || (String::new(), String::new(), None),
            |s| {
                (
                    s.courier().slug().to_owned(),
                    s.awb().as_str().to_owned(),
                    s.tracking_url().map(|u| u.as_str().to_owned()),
                )
            },
        );
        let event = OrderEventRow {
            order_id: order.0.clone(),
            at: audit.at,
            actor: audit.actor.key(),
            actor_label: audit.actor.label(),
            action: audit.action.clone(),
            status: i64::from(placed.status),
            courier,
            awb,
            tracking_url,
        };
        let rows = tx
            .query("CREATE order_event CONTENT $event RETURN NONE;")
            .query(crate::audit::WRITE)
            .query(format!("SELECT {REFUND_FIELDS} FROM type::record('order_refund', $rid)"))
            .bind(("event", event))
            .bind(crate::audit::bind(audit))
            .bind(("rid", refund_id.to_owned()))
            .await
            .and_then(|mut r| {
                let rows: Vec<RefundRow> = r.take(2)?;
                r.check()?;
                Ok(rows)
            });
        let refund = match rows.map(|rows| rows.into_iter().next().map(refund_of_row)) {
            Ok(Some(Ok(r))) => r,
            Ok(Some(Err(e))) => return give_up(tx, Err(e)).await,
            Ok(None) => return give_up(tx, Err(OrderDeskError::RefundNotFound)).await,
            Err(e) => return abandon(tx, e).await,
        };
        match tx.commit().await {
            Ok(()) => Attempt::Done(Ok(refund)),
            Err(e) => Attempt::failed(e, unavailable),
        }
    }

    pub(crate) async fn do_unsettled_refunds(&self, limit: u32) -> Result<Vec<OrderRefund>, OrderDeskError> {
        let rows: Vec<RefundRow> = self
            .conn()
            .query(format!(
                "SELECT {REFUND_FIELDS} FROM order_refund WHERE status IN ['requested', 'pending'] \
                 ORDER BY created_at, seq LIMIT $limit"
            ))
            .bind(("limit", i64::from(limit)))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().map(refund_of_row).collect()
    }

    pub(crate) async fn do_credit_notes_of(&self, orders: &[OrderId]) -> Result<Vec<IssuedCreditNote>, OrderDeskError> {
        if orders.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<String> = orders.iter().map(|o| o.0.clone()).collect();
        let rows: Vec<IssuedRow> = self
            .conn()
            .query(
                "SELECT order_id, record::id(id) AS id, credit_note, seq FROM order_refund \
                 WHERE order_id IN $ids AND credit_note != NONE ORDER BY seq, id",
            )
            .bind(("ids", ids))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(rows
            .into_iter()
            .filter_map(|r| {
                r.credit_note.map(|number| IssuedCreditNote { order: OrderId(r.order_id), refund: r.id, number })
            })
            .collect())
    }
}

/// A refund's credit note as Purchase History lists it.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct IssuedRow {
    order_id: String,
    id: String,
    credit_note: Option<String>,
}
