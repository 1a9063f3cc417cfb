//! Returns within the warranty on SurrealDB (`product_return`, `return_line`, migration 30).
//!
//! A request is one transaction: the line's guard row (`return_line:⟨order|product⟩`) is written,
//! so two requests for one line conflict and the second, tried again, counts the first; the units
//! the line's returns (not refused) hold are summed and checked; the row and its notices follow. A
//! move is a conditional update (`WHERE version = $version`) with, in the same transaction, the
//! audit row, the notices, the stock put back when asked and the grant of store credit (whose
//! `source` is unique, so a grant is written once).

use async_trait::async_trait;
use marque_domain::catalog::ProductId;
use marque_domain::order::{ReturnOutcome, ReturnState};
use marque_domain::stock::StockReason;
use marque_domain::Money;
use marque_ports::{
    AuditEntry, CreditGrant, NewNotice, NewReturn, OrderId, ProductReturn, ReturnMove, ReturnPage, ReturnQuery,
    ReturnStore, ReturnStoreError, UserId,
};
use surrealdb::types::SurrealValue;

use crate::conn::{Conn, Tx};
use crate::error::{until_settled, Attempt};
use crate::order_refunds::{RestockRow, RESTOCK};

/// [`ReturnStore`] on a SurrealDB connection. Get one from [`crate::Database::returns`].
#[derive(Debug, Clone)]
pub struct SurrealReturnStore {
    db: Conn,
}

const FIELDS: &str = "record::id(id) AS id, order_id, order_number, customer, product, product_name, quantity, \
                      reason, photos, delivered_at, warranty_days, state, note, resolution_note, outcome, restock, \
                      amount, refund, replacement_order, created_at, updated_at, handled_by, version";

/// The most returns a customer's list answers.
const MINE_MAX: i64 = 200;

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct ReturnRow {
    id: String,
    order_id: String,
    order_number: String,
    customer: String,
    product: String,
    product_name: String,
    quantity: i64,
    reason: String,
    photos: Vec<String>,
    delivered_at: i64,
    warranty_days: i64,
    state: String,
    note: Option<String>,
    resolution_note: Option<String>,
    outcome: Option<String>,
    restock: bool,
    amount: Option<i64>,
    refund: Option<String>,
    replacement_order: Option<String>,
    created_at: i64,
    updated_at: i64,
    handled_by: Option<String>,
    version: i64,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct NewRow {
    order_id: String,
    order_number: String,
    customer: String,
    product: String,
    product_name: String,
    quantity: i64,
    reason: String,
    photos: Vec<String>,
    delivered_at: i64,
    warranty_days: i64,
    state: String,
    restock: bool,
    created_at: i64,
    updated_at: i64,
    version: i64,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct CreditRow {
    customer: String,
    amount: i64,
    remaining: i64,
    granted_at: i64,
    expires_at: i64,
    source: String,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct GrantedRow {
    customer: String,
    amount: i64,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct Count {
    n: i64,
}

fn unavailable(e: &surrealdb::Error) -> ReturnStoreError {
    ReturnStoreError::Unavailable { reason: e.message().to_owned() }
}

fn return_of(row: ReturnRow) -> Result<ProductReturn, ReturnStoreError> {
    let corrupt = |what: &str| ReturnStoreError::Unavailable {
        reason: format!("a stored return's {what} does not satisfy the shop's rules"),
    };
    let outcome = match row.outcome.as_deref() {
        None => None,
        Some(code) => Some(ReturnOutcome::parse(code).ok_or_else(|| corrupt("outcome"))?),
    };
    Ok(ProductReturn {
        state: ReturnState::parse(&row.state).ok_or_else(|| corrupt("state"))?,
        quantity: u32::try_from(row.quantity).map_err(|_| corrupt("quantity"))?,
        warranty_days: u8::try_from(row.warranty_days).map_err(|_| corrupt("warranty days"))?,
        version: u64::try_from(row.version).map_err(|_| corrupt("version"))?,
        outcome,
        id: row.id,
        order: OrderId(row.order_id),
        order_number: row.order_number,
        customer: UserId(row.customer),
        product: ProductId(row.product),
        product_name: row.product_name,
        reason: row.reason,
        photos: row.photos,
        delivered_at: row.delivered_at,
        note: row.note,
        resolution_note: row.resolution_note,
        restock: row.restock,
        amount: row.amount.map(Money::from_paise),
        refund: row.refund,
        replacement_order: row.replacement_order,
        created_at: row.created_at,
        updated_at: row.updated_at,
        handled_by: row.handled_by,
    })
}

async fn give_up<T>(tx: Tx, outcome: ReturnStoreError) -> Attempt<Result<T, ReturnStoreError>> {
    // Nothing was written that a failing cancel could keep.
    let _ = tx.cancel().await;
    Attempt::Done(Err(outcome))
}

async fn abandon<T>(tx: Tx, e: surrealdb::Error) -> Attempt<Result<T, ReturnStoreError>> {
    let _ = tx.cancel().await;
    Attempt::failed(e, unavailable)
}

async fn commit<T>(tx: Tx, value: T) -> Attempt<Result<T, ReturnStoreError>> {
    match tx.commit().await {
        Ok(()) => Attempt::Done(Ok(value)),
        Err(e) => Attempt::failed(e, unavailable),
    }
}

impl SurrealReturnStore {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }

    async fn try_request(
        &self,
        new: &NewReturn,
        notices: &[NewNotice],
    ) -> Attempt<Result<ProductReturn, ReturnStoreError>> {
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        let held: Result<Vec<i64>, _> = tx
            .query("UPSERT type::record('return_line', $line) SET requests = (requests ?? 0) + 1 RETURN NONE;")
            .query(
                "SELECT VALUE quantity FROM product_return WHERE order_id = $order AND product = $product \
                 AND state != 'refused' AND (outcome ?? '') != 'refund'",
            )
            .bind(("line", format!("{}|{}", new.order.0, new.product.0)))
            .bind(("order", new.order.0.clone()))
            .bind(("product", new.product.0.clone()))
            .await
            .and_then(|mut r| {
                let held: Vec<i64> = r.take(1)?;
                r.check()?;
                Ok(held)
            });
        let held: i64 = match held {
            Ok(held) => held.iter().sum(),
            Err(e) => return abandon(tx, e).await,
        };
        let allowed = i64::from(new.units_allowed);
        if held + i64::from(new.quantity) > allowed {
            let left = u32::try_from((allowed - held).max(0)).unwrap_or(0);
            return give_up(tx, ReturnStoreError::UnitsAboveLeft { left }).await;
        }
        let row = NewRow {
            order_id: new.order.0.clone(),
            order_number: new.order_number.clone(),
            customer: new.customer.0.clone(),
            product: new.product.0.clone(),
            product_name: new.product_name.clone(),
            quantity: i64::from(new.quantity),
            reason: new.reason.clone(),
            photos: new.photos.clone(),
            delivered_at: new.delivered_at,
            warranty_days: i64::from(new.warranty_days),
            state: ReturnState::Requested.code().to_owned(),
            restock: false,
            created_at: new.created_at,
            updated_at: new.created_at,
            version: 0,
        };
        let created: Result<Vec<ReturnRow>, _> = tx
            .query(format!("SELECT {FIELDS} FROM (CREATE type::record('product_return', $id) CONTENT $row)"))
            .query(crate::notice_outbox::ENQUEUE)
            .bind(("id", new.id.clone()))
            .bind(("row", row))
            .bind(crate::notice_outbox::bind(notices))
            .await
            .and_then(|mut r| {
                let rows: Vec<ReturnRow> = r.take(0)?;
                r.check()?;
                Ok(rows)
            });
        let made = match created {
            Ok(rows) => match rows.into_iter().next().map(return_of) {
                Some(Ok(made)) => made,
                Some(Err(e)) => return give_up(tx, e).await,
                None => {
                    let missing = ReturnStoreError::Unavailable { reason: "the new return was not read back".into() };
                    return give_up(tx, missing).await;
                }
            },
            Err(e) => return abandon(tx, e).await,
        };
        commit(tx, made).await
    }

    async fn try_change(
        &self,
        id: &str,
        version: u64,
        change: &ReturnMove,
        credit: Option<&CreditGrant>,
        audit: &AuditEntry,
        notices: &[NewNotice],
    ) -> Attempt<Result<ProductReturn, ReturnStoreError>> {
        let Ok(expected) = i64::try_from(version) else {
            return Attempt::Done(Err(ReturnStoreError::Changed { version: 0 }));
        };
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        let resolving = change.to == ReturnState::Resolved;
        let moved: Result<Vec<ReturnRow>, _> = tx
            .query(format!(
                "SELECT {FIELDS} FROM (UPDATE type::record('product_return', $id) SET state = $state, \
                 note = IF $resolving THEN note ELSE $note END, \
                 resolution_note = IF $resolving THEN $note ELSE resolution_note END, \
                 outcome = $outcome, restock = $restock, amount = $amount, refund = $refund, \
                 replacement_order = $replacement, updated_at = $at, handled_by = $handled_by, \
                 version = $version + 1 WHERE version = $version)"
            ))
            .bind(("id", id.to_owned()))
            .bind(("state", change.to.code().to_owned()))
            .bind(("resolving", resolving))
            .bind(("note", change.note.clone()))
            .bind(("outcome", change.outcome.map(|o| o.code().to_owned())))
            .bind(("restock", change.restock))
            .bind(("amount", change.amount.map(Money::paise)))
            .bind(("refund", change.refund.clone()))
            .bind(("replacement", change.replacement_order.clone()))
            .bind(("at", change.at))
            .bind(("handled_by", audit.actor.label()))
            .bind(("version", expected))
            .await
            .and_then(|mut r| {
                let rows: Vec<ReturnRow> = r.take(0)?;
                r.check()?;
                Ok(rows)
            });
        let after = match moved {
            Ok(rows) if !rows.is_empty() => match rows.into_iter().next().map(return_of) {
                Some(Ok(after)) => after,
                Some(Err(e)) => return give_up(tx, e).await,
                None => return give_up(tx, ReturnStoreError::NotFound).await,
            },
            Ok(_) => {
                let now: Result<Vec<i64>, _> = tx
                    .query("SELECT VALUE version FROM type::record('product_return', $id)")
                    .bind(("id", id.to_owned()))
                    .await
                    .and_then(|mut r| r.take(0));
                let refusal = match now {
                    Ok(v) => match v.first() {
                        None => ReturnStoreError::NotFound,
                        Some(&now) => ReturnStoreError::Changed { version: u64::try_from(now).unwrap_or(0) },
                    },
                    Err(e) => return abandon(tx, e).await,
                };
                return give_up(tx, refusal).await;
            }
            Err(e) => return abandon(tx, e).await,
        };
        let restock: Vec<RestockRow> = if change.put_back {
            vec![RestockRow { product: after.product.0.clone(), quantity: i64::from(after.quantity) }]
        } else {
            Vec::new()
        };
        let credits: Vec<CreditRow> = credit
            .map(|c| CreditRow {
                customer: c.customer.0.clone(),
                amount: c.grant.amount.paise(),
                remaining: c.grant.remaining.paise(),
                granted_at: c.grant.granted_at,
                expires_at: c.grant.expires_at,
                source: c.grant.source.key(),
            })
            .into_iter()
            .collect();
        let written = tx
            .query(crate::audit::WRITE)
            .query(crate::notice_outbox::ENQUEUE)
            .query(RESTOCK)
            .query("FOR $c IN $credits { CREATE store_credit CONTENT $c RETURN NONE; };")
            .bind(crate::audit::bind(audit))
            .bind(crate::notice_outbox::bind(notices))
            .bind(("restock", restock))
            .bind(("reason", StockReason::Returned.as_str()))
            .bind(("note", Some(format!("return {id}"))))
            .bind(("actor", audit.actor.key()))
            .bind(("actor_label", audit.actor.label()))
            .bind(("at", audit.at))
            .bind(("payment_order", None::<String>))
            .bind(("credits", credits))
            .await
            .and_then(|r| r.check().map(|_| ()));
        if let Err(e) = written {
            return abandon(tx, e).await;
        }
        commit(tx, after).await
    }

    async fn list(
        &self,
        filter: &str,
        bind: (&'static str, String),
        limit: i64,
    ) -> Result<Vec<ProductReturn>, ReturnStoreError> {
        let rows: Vec<ReturnRow> = self
            .db
            .query(format!("SELECT {FIELDS} FROM product_return WHERE {filter} LIMIT $limit"))
            .bind(bind)
            .bind(("limit", limit))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().map(return_of).collect()
    }
}

#[async_trait]
impl ReturnStore for SurrealReturnStore {
    async fn request(&self, new: &NewReturn, notices: &[NewNotice]) -> Result<ProductReturn, ReturnStoreError> {
        until_settled(|| self.try_request(new, notices), |e| Err(unavailable(e))).await
    }

    async fn returns_of(&self, customer: &UserId) -> Result<Vec<ProductReturn>, ReturnStoreError> {
        self.list("customer = $who ORDER BY created_at DESC, id DESC", ("who", customer.0.clone()), MINE_MAX).await
    }

    async fn returns_of_order(&self, order: &OrderId) -> Result<Vec<ProductReturn>, ReturnStoreError> {
        self.list("order_id = $order ORDER BY created_at, id", ("order", order.0.clone()), 1000).await
    }

    async fn returns(&self, query: &ReturnQuery) -> Result<ReturnPage, ReturnStoreError> {
        let matching = if query.state.is_some() { "state = $state" } else { "true" };
        let (count, rows): (Vec<Count>, Vec<ReturnRow>) = self
            .db
            .query(format!("SELECT count() AS n FROM product_return WHERE {matching} GROUP ALL"))
            .query(format!(
                "SELECT {FIELDS} FROM product_return WHERE {matching} \
                 ORDER BY created_at DESC, id DESC LIMIT $limit START $offset"
            ))
            .bind(("state", query.state.map_or("", ReturnState::code).to_owned()))
            .bind(("limit", i64::from(query.window.limit())))
            .bind(("offset", i64::try_from(query.window.offset()).unwrap_or(i64::MAX)))
            .await
            .and_then(|mut r| Ok((r.take(0)?, r.take(1)?)))
            .map_err(|e| unavailable(&e))?;
        Ok(ReturnPage {
            returns: rows.into_iter().map(return_of).collect::<Result<_, _>>()?,
            total: count.first().map_or(0, |c| u64::try_from(c.n).unwrap_or(0)),
        })
    }

    async fn product_return(&self, id: &str) -> Result<Option<ProductReturn>, ReturnStoreError> {
        // SurrealDB refuses an empty record key; no return has one.
        if id.is_empty() {
            return Ok(None);
        }
        let rows: Vec<ReturnRow> = self
            .db
            .query(format!("SELECT {FIELDS} FROM type::record('product_return', $id)"))
            .bind(("id", id.to_owned()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().next().map(return_of).transpose()
    }

    async fn change(
        &self,
        id: &str,
        version: u64,
        change: &ReturnMove,
        credit: Option<CreditGrant>,
        audit: &AuditEntry,
        notices: &[NewNotice],
    ) -> Result<ProductReturn, ReturnStoreError> {
        if id.is_empty() {
            return Err(ReturnStoreError::NotFound);
        }
        until_settled(|| self.try_change(id, version, change, credit.as_ref(), audit, notices), |e| Err(unavailable(e)))
            .await
    }

    async fn waiting(&self) -> Result<u64, ReturnStoreError> {
        let count: Vec<Count> = self
            .db
            .query(
                "SELECT count() AS n FROM product_return WHERE state IN ['requested', 'approved', 'received'] \
                 GROUP ALL",
            )
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(count.first().map_or(0, |c| u64::try_from(c.n).unwrap_or(0)))
    }

    async fn forget_customer(&self, customer: &UserId) -> Result<u64, ReturnStoreError> {
        let changed: Vec<String> = self
            .db
            .query(
                "UPDATE product_return SET reason = '', photos = [], version += 1 \
                 WHERE customer = $who AND (reason != '' OR array::len(photos) > 0) RETURN VALUE record::id(id)",
            )
            .bind(("who", customer.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(u64::try_from(changed.len()).unwrap_or(u64::MAX))
    }

    async fn credit_granted(&self, source: &str) -> Result<Vec<(UserId, Money)>, ReturnStoreError> {
        let rows: Vec<GrantedRow> = self
            .db
            .query("SELECT customer, amount FROM store_credit WHERE source = $source")
            .bind(("source", source.to_owned()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(rows.into_iter().map(|r| (UserId(r.customer), Money::from_paise(r.amount))).collect())
    }
}
