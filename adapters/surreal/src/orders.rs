//! The order store on SurrealDB: reservations, placed orders, number series and provider events.

use async_trait::async_trait;
use marque_domain::address::{Address, AddressInput};
use marque_domain::cart::Quantity;
use marque_domain::catalog::{MarginScheme, ProductId, WarrantyDays};
use marque_domain::invoice::{FinancialYear, HsnCode, InvoiceNumber};
use marque_domain::order::{OrderLine, OrderStatus, Shipment};
use marque_domain::pricing::DiscountPercent;
use marque_domain::stock::StockReason;
use marque_domain::Money;
use marque_ports::{
    OrderDraft, OrderId, OrderStore, OrderStoreError, OrdersPage, PaymentId, PaymentOrderId, PlacedOrder, Placement,
    RefundRecord, RefundState, Reservation, ReservationState, UserId,
};
use surrealdb::types::SurrealValue;

use crate::addresses::AddressFields;
use crate::conn::{Conn, Tx};
use crate::error::{backoff, is_conflict, CONFLICT_RETRIES};
use crate::store_credit::{give_back, take_credit, TakeRow};

/// [`OrderStore`] on a SurrealDB connection. Get one from [`crate::Database::orders`].
///
/// - `reservation` records are keyed by the payment provider's order id; `customer_order`
///   records carry unique indexes on that id and on the invoice number, so however calls race
///   one payment order never yields two orders and one invoice number never serves two.
/// - Stock is taken with conditional updates (`quantity -= n WHERE quantity >= n`) inside one
///   transaction per reservation: a line that cannot be had cancels the whole transaction.
///   Two transactions touching one product conflict and the loser is tried again with the
///   winner's stock seen, so stock never goes below zero.
/// - Invoice serials come from `number_series:⟨financial year⟩`, taken in the transaction that
///   writes the order: a number is used exactly when its order exists.
/// - Every change of stock bumps the catalog's version stamp afterwards, so cached listings
///   show the new stock.
#[derive(Debug, Clone)]
pub struct SurrealOrderStore {
    db: Conn,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct LineRow {
    product_id: String,
    name: String,
    quantity: i64,
    price: i64,
    gst: i64,
    hsn: Option<String>,
    /// The margin scheme's purchase price of one unit, in paise (migration 31).
    purchase_price: Option<i64>,
    /// The product's warranty days when the order was placed (migration 33); none before.
    warranty_days: Option<i64>,
}

/// The draft's fields as both tables store them.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct ReservationRow {
    user: String,
    user_name: String,
    lines: Vec<LineRow>,
    address: AddressFields,
    discount: i64,
    discount_amount: i64,
    delivery_charge: i64,
    total: i64,
    created_at: i64,
    expires_at: i64,
    state: String,
    /// The store credit it pays with (`None`: written before migration 32, none).
    store_credit: Option<i64>,
    /// What it took from which grant while held.
    credit_takes: Option<Vec<TakeRow>>,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(crate) struct OrderRow {
    id: String,
    payment_order: String,
    payment_id: String,
    order_number: String,
    invoice_number: String,
    user: String,
    user_name: String,
    lines: Vec<LineRow>,
    address: AddressFields,
    discount: i64,
    discount_amount: i64,
    delivery_charge: i64,
    total: i64,
    store_credit: Option<i64>,
    status: i64,
    status_text: String,
    courier: String,
    awb: String,
    tracking_url: Option<String>,
    created_at: i64,
}

pub(crate) const ORDER_FIELDS: &str = "record::id(id) AS id, payment_order, payment_id, order_number, invoice_number, \
     user, user_name, lines, address, discount, discount_amount, delivery_charge, total, store_credit, status, \
     status_text, courier, awb, tracking_url, created_at";

const RESERVATION_FIELDS: &str = "user, user_name, lines, address, discount, discount_amount, delivery_charge, total, \
     created_at, expires_at, state, store_credit, credit_takes";

fn unavailable(e: &surrealdb::Error) -> OrderStoreError {
    OrderStoreError::Unavailable { reason: e.message().to_owned() }
}

fn corrupt(what: &str) -> OrderStoreError {
    OrderStoreError::Unavailable { reason: format!("a stored {what} does not satisfy the shop's rules") }
}

fn line_rows(lines: &[OrderLine]) -> Vec<LineRow> {
    lines
        .iter()
        .map(|l| LineRow {
            product_id: l.product_id.0.clone(),
            name: l.name.clone(),
            quantity: i64::from(l.quantity.get()),
            price: l.price.paise(),
            gst: i64::from(l.gst),
            hsn: l.hsn.as_ref().map(|h| h.as_str().to_owned()),
            purchase_price: l.margin_scheme.map(|m| m.purchase_price.paise()),
            warranty_days: l.warranty_days.map(|d| i64::from(d.days())),
        })
        .collect()
}

fn lines_of(rows: Vec<LineRow>) -> Result<Vec<OrderLine>, OrderStoreError> {
    rows.into_iter()
        .map(|r| {
            let quantity = u32::try_from(r.quantity).ok().and_then(|q| Quantity::new(q).ok());
            let gst = u8::try_from(r.gst).ok();
            let hsn = r.hsn.map(|h| HsnCode::parse(&h).map_err(|_| corrupt("HSN code"))).transpose()?;
            let margin_scheme = r
                .purchase_price
                .map(|paise| MarginScheme::new(Money::from_paise(paise)).map_err(|_| corrupt("purchase price")))
                .transpose()?;
            let warranty_days = r
                .warranty_days
                .map(|days| WarrantyDays::new(days).map_err(|_| corrupt("warranty days")))
                .transpose()?;
            match (quantity, gst) {
                (Some(quantity), Some(gst)) => Ok(OrderLine {
                    product_id: ProductId(r.product_id),
                    name: r.name,
                    quantity,
                    price: Money::from_paise(r.price),
                    gst,
                    hsn,
                    margin_scheme,
                    warranty_days,
                }),
                _ => Err(corrupt("order line")),
            }
        })
        .collect()
}

fn address_of(row: AddressFields) -> Result<Address, OrderStoreError> {
    Address::parse(&AddressInput::from(row)).map_err(|_| corrupt("address"))
}

/// The draft's fields of a reservation or an order row (both tables store them under the same names).
macro_rules! draft_parts {
    ($row:ident) => {
        DraftParts {
            user: $row.user,
            user_name: $row.user_name,
            lines: $row.lines,
            address: $row.address,
            discount: $row.discount,
            discount_amount: $row.discount_amount,
            delivery_charge: $row.delivery_charge,
            total: $row.total,
            store_credit: $row.store_credit,
        }
    };
}

struct DraftParts {
    user: String,
    user_name: String,
    lines: Vec<LineRow>,
    address: AddressFields,
    discount: i64,
    discount_amount: i64,
    delivery_charge: i64,
    total: i64,
    store_credit: Option<i64>,
}

fn draft_of(parts: DraftParts) -> Result<OrderDraft, OrderStoreError> {
    let discount = u32::try_from(parts.discount)
        .ok()
        .and_then(|d| DiscountPercent::new(d).ok())
        .ok_or_else(|| corrupt("discount"))?;
    Ok(OrderDraft {
        user: UserId(parts.user),
        user_name: parts.user_name,
        lines: lines_of(parts.lines)?,
        address: address_of(parts.address)?,
        discount,
        discount_amount: Money::from_paise(parts.discount_amount),
        delivery_charge: Money::from_paise(parts.delivery_charge),
        total: Money::from_paise(parts.total),
        store_credit: Money::from_paise(parts.store_credit.unwrap_or(0)),
    })
}

fn reservation_row(r: &Reservation, state: &str) -> ReservationRow {
    let d = &r.draft;
    ReservationRow {
        user: d.user.0.clone(),
        user_name: d.user_name.clone(),
        lines: line_rows(&d.lines),
        address: AddressFields::from(&d.address),
        discount: i64::from(d.discount.get()),
        discount_amount: d.discount_amount.paise(),
        delivery_charge: d.delivery_charge.paise(),
        total: d.total.paise(),
        created_at: r.created_at,
        expires_at: r.expires_at,
        state: state.to_owned(),
        store_credit: Some(d.store_credit.paise()),
        credit_takes: None,
    }
}

fn reservation_of(key: &str, row: ReservationRow) -> Result<(Reservation, ReservationState), OrderStoreError> {
    let state = match row.state.as_str() {
        "held" => ReservationState::Held,
        "released" => ReservationState::Released,
        "sold" => ReservationState::Sold,
        _ => return Err(corrupt("reservation state")),
    };
    let draft = draft_of(draft_parts!(row))?;
    let reservation = Reservation {
        payment_order: PaymentOrderId(key.to_owned()),
        draft,
        created_at: row.created_at,
        expires_at: row.expires_at,
    };
    Ok((reservation, state))
}

/// The shipment a row holds: none while `courier` is empty (not shipped).
pub(crate) fn shipment_of(courier: &str, awb: &str, tracking_url: Option<&str>) -> Result<Option<Shipment>, String> {
    if courier.is_empty() {
        return Ok(None);
    }
    Shipment::parse(courier, awb, tracking_url)
        .map(Some)
        .map_err(|_| "a stored shipment does not satisfy the shop's rules".to_owned())
}

pub(crate) fn order_of(row: OrderRow) -> Result<PlacedOrder, OrderStoreError> {
    let shipment = shipment_of(&row.courier, &row.awb, row.tracking_url.as_deref())
        .map_err(|reason| OrderStoreError::Unavailable { reason })?;
    let invoice_number = InvoiceNumber::parse(&row.invoice_number).map_err(|_| corrupt("invoice number"))?;
    let status = u8::try_from(row.status).map_err(|_| corrupt("order status"))?;
    let draft = draft_of(draft_parts!(row))?;
    Ok(PlacedOrder {
        id: OrderId(row.id),
        order_number: row.order_number,
        invoice_number,
        draft,
        payment_order: PaymentOrderId(row.payment_order),
        payment: PaymentId(row.payment_id),
        created_at: row.created_at,
        status,
        status_text: row.status_text,
        shipment,
    })
}

/// A reservation row with its key (the payment order id).
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct KeyedReservationRow {
    key: String,
    /// When the database held it (finer than `created_at`); only orders the holds.
    held_at: Option<surrealdb::types::Value>,
    user: String,
    user_name: String,
    lines: Vec<LineRow>,
    address: AddressFields,
    discount: i64,
    discount_amount: i64,
    delivery_charge: i64,
    total: i64,
    created_at: i64,
    expires_at: i64,
    state: String,
    store_credit: Option<i64>,
    credit_takes: Option<Vec<TakeRow>>,
}

fn keyed_reservation(row: KeyedReservationRow) -> Result<(Reservation, ReservationState), OrderStoreError> {
    let KeyedReservationRow {
        key,
        held_at: _,
        user,
        user_name,
        lines,
        address,
        discount,
        discount_amount,
        delivery_charge,
        total,
        created_at,
        expires_at,
        state,
        store_credit,
        credit_takes,
    } = row;
    let row = ReservationRow {
        user,
        user_name,
        lines,
        address,
        discount,
        discount_amount,
        delivery_charge,
        total,
        created_at,
        expires_at,
        state,
        store_credit,
        credit_takes,
    };
    reservation_of(&key, row)
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct RefundRow {
    payment: String,
    payment_order: String,
    user: String,
    amount: i64,
    reason: String,
    refund_id: Option<String>,
    status: String,
    created_at: i64,
    updated_at: i64,
}

const REFUND_FIELDS: &str =
    "record::id(id) AS payment, payment_order, user, amount, reason, refund_id, status, created_at, updated_at";

fn refund_row(r: &RefundRecord) -> RefundRow {
    RefundRow {
        payment: r.payment.0.clone(),
        payment_order: r.payment_order.0.clone(),
        user: r.user.0.clone(),
        amount: r.amount.paise(),
        reason: r.reason.clone(),
        refund_id: r.refund_id.clone(),
        status: r.state.code().to_owned(),
        created_at: r.created_at,
        updated_at: r.updated_at,
    }
}

fn refund_of_row(row: RefundRow) -> Result<RefundRecord, OrderStoreError> {
    Ok(RefundRecord {
        payment: PaymentId(row.payment),
        payment_order: PaymentOrderId(row.payment_order),
        user: UserId(row.user),
        amount: Money::from_paise(row.amount),
        reason: row.reason,
        refund_id: row.refund_id,
        state: RefundState::from_code(&row.status).ok_or_else(|| corrupt("refund status"))?,
        created_at: row.created_at,
        updated_at: row.updated_at,
    })
}

/// The customer-facing order number for a serial of the shop-wide order series.
fn order_number(serial: i64) -> String {
    format!("MQ-{serial:06}")
}

/// What one attempt of a transaction decided.
enum Attempt<T> {
    Done(Result<T, OrderStoreError>),
    Conflict(surrealdb::Error),
}

impl<T> Attempt<T> {
    fn failed(e: surrealdb::Error) -> Self {
        if is_conflict(&e) {
            Attempt::Conflict(e)
        } else {
            Attempt::Done(Err(unavailable(&e)))
        }
    }
}

/// Cancels `tx` and reports `outcome`.
async fn give_up<T>(tx: Tx, outcome: Result<T, OrderStoreError>) -> Attempt<T> {
    let _ = tx.cancel().await;
    Attempt::Done(outcome)
}

/// Cancels `tx` after a driver error and reports it (a conflict is tried again).
async fn abandon<T>(tx: Tx, e: surrealdb::Error) -> Attempt<T> {
    let _ = tx.cancel().await;
    Attempt::failed(e)
}

/// Commits `tx` and reports `value`, or the conflict that lost it.
async fn commit<T>(tx: Tx, value: T) -> Attempt<T> {
    match tx.commit().await {
        Ok(_) => Attempt::Done(Ok(value)),
        Err(e) => Attempt::failed(e),
    }
}

/// Takes each line's units in `tx` and writes each its ledger entry (`reason`, for payment order
/// `key`, at `at`); the first line whose product has too few ends it.
async fn take_stock(
    tx: &Tx,
    lines: &[LineRow],
    reason: StockReason,
    key: &str,
    at: i64,
) -> Result<Option<ProductId>, surrealdb::Error> {
    const TAKE: &str =
        "UPDATE type::record('product', $id) SET quantity -= $n WHERE quantity >= $n RETURN VALUE quantity";
    for line in lines {
        let taken: Vec<i64> = tx
            .query(TAKE)
            .bind(("id", line.product_id.clone()))
            .bind(("n", line.quantity))
            .await
            .and_then(|mut r| r.take(0))?;
        let Some(after) = taken.first().copied() else {
            return Ok(Some(ProductId(line.product_id.clone())));
        };
        let (actor, actor_label) = crate::stock::CHECKOUT_ACTOR;
        let entry = crate::stock::EntryRow {
            product: line.product_id.clone(),
            delta: -line.quantity,
            reason: reason.as_str().to_owned(),
            note: None,
            before: after + line.quantity,
            after,
            actor: actor.to_owned(),
            actor_label: actor_label.to_owned(),
            at,
            order: Some(key.to_owned()),
        };
        tx.query(crate::stock::ENTRY_WRITE).bind(("entry", entry)).await.and_then(surrealdb::IndexedResults::check)?;
    }
    Ok(None)
}

/// The ids of the products an order's lines sell.
fn products_of(draft: &OrderDraft) -> Vec<String> {
    draft.lines.iter().map(|l| l.product_id.0.clone()).collect()
}

/// A reservation's state and the products it holds.
#[derive(Debug, SurrealValue)]
struct HeldRow {
    state: String,
    products: Vec<String>,
    credit_takes: Option<Vec<TakeRow>>,
}

impl SurrealOrderStore {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }

    /// Runs `attempt` until it is decided, trying again while it loses races.
    async fn retrying<T, F, Fut>(&self, mut attempt: F) -> Result<T, OrderStoreError>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Attempt<T>>,
    {
        let mut tries = 0;
        loop {
            match attempt().await {
                Attempt::Done(outcome) => return outcome,
                Attempt::Conflict(e) if tries >= CONFLICT_RETRIES => return Err(unavailable(&e)),
                Attempt::Conflict(_) => {
                    tries += 1;
                    backoff(tries).await;
                }
            }
        }
    }

    /// Tells cached catalog answers that the stock or sales of `products` changed (a
    /// `stock_change` row, see [`CatalogChanges::catalog_version`](marque_ports::CatalogChanges::catalog_version)).
    /// Best effort: the change itself is committed. When the row cannot be written, the
    /// catalog's version moves instead, so caches forget everything rather than keep it.
    async fn stock_changed(&self, products: Vec<String>) {
        let recorded = self
            .db
            .query("CREATE stock_change SET products = $products, at = time::now() RETURN NONE")
            .bind(("products", products))
            .await
            .and_then(surrealdb::IndexedResults::check);
        let Err(e) = recorded else { return };
        tracing::warn!(error = %e.message(), "could not record a stock change; moving the catalog version instead");
        let bumped = self
            .db
            .query("UPSERT catalog_meta:version SET n = (n ?? 0) + 1 RETURN NONE")
            .await
            .and_then(surrealdb::IndexedResults::check);
        if let Err(e) = bumped {
            tracing::warn!(error = %e.message(), "could not bump the catalog version after a stock change");
        }
    }

    /// Deletes the stock and catalog changes no cache reads any more (older than a minute). Best effort.
    async fn forget_old_stock_changes(&self) {
        let deleted = self
            .db
            .query("DELETE stock_change WHERE at < time::now() - 1m RETURN NONE")
            .query("DELETE catalog_change WHERE at < time::now() - 1m RETURN NONE")
            .await
            .and_then(surrealdb::IndexedResults::check);
        if let Err(e) = deleted {
            tracing::debug!(error = %e.message(), "old stock and catalog changes stay until the next sweep");
        }
    }

    async fn try_reserve(&self, key: &str, row: &ReservationRow) -> Attempt<()> {
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e),
        };
        match take_stock(&tx, &row.lines, StockReason::Reserved, key, row.created_at).await {
            Ok(None) => {}
            Ok(Some(product)) => return give_up(tx, Err(OrderStoreError::OutOfStock { product })).await,
            Err(e) => return abandon(tx, e).await,
        }
        let mut row = row.clone();
        match take_credit(&tx, &row.user, row.store_credit.unwrap_or(0), row.created_at).await {
            Ok(Some(takes)) => row.credit_takes = Some(takes),
            Ok(None) => return give_up(tx, Err(OrderStoreError::CreditShort)).await,
            Err(e) => return abandon(tx, e).await,
        }
        let created = tx
            .query("CREATE type::record('reservation', $key) CONTENT $row RETURN NONE")
            .bind(("key", key.to_owned()))
            .bind(("row", row))
            .await
            .and_then(surrealdb::IndexedResults::check);
        match created {
            Ok(_) => commit(tx, ()).await,
            Err(e) if e.is_already_exists() => give_up(tx, Err(OrderStoreError::DuplicateReservation)).await,
            Err(e) => abandon(tx, e).await,
        }
    }

    /// Releases a held reservation: the ids of the products whose stock came back, `None`
    /// when it was not held.
    async fn try_release(&self, key: &str) -> Attempt<Option<Vec<String>>> {
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e),
        };
        let held: Result<Vec<HeldRow>, _> = tx
            .query("SELECT state, lines.product_id AS products, credit_takes FROM type::record('reservation', $key)")
            .bind(("key", key.to_owned()))
            .await
            .and_then(|mut r| r.take(0));
        let held = match held {
            Ok(rows) => rows.into_iter().next(),
            Err(e) => return abandon(tx, e).await,
        };
        let (products, takes) = match held {
            None => return give_up(tx, Err(OrderStoreError::UnknownReservation)).await,
            Some(HeldRow { state, products, credit_takes }) if state == "held" => (products, credit_takes),
            Some(_) => return give_up(tx, Ok(None)).await,
        };
        // The store credit it took goes back to the grants it came from, with the stock.
        if let Err(e) = give_back(&tx, takes.as_deref().unwrap_or_default()).await {
            return abandon(tx, e).await;
        }
        let released = tx
            .query(
                "LET $lines = (UPDATE ONLY type::record('reservation', $key) SET state = 'released', credit_takes = NONE RETURN VALUE lines); \
                 FOR $l IN $lines { \
                   LET $listed = (UPDATE type::record('product', $l.product_id) SET quantity += $l.quantity RETURN VALUE quantity)[0]; \
                   LET $unlisted = (UPDATE type::record('unpublished_product', $l.product_id) SET quantity += $l.quantity RETURN VALUE quantity)[0]; \
                   LET $after = $listed ?? $unlisted; \
                   IF $after != NONE { \
                     CREATE stock_entry CONTENT { product: $l.product_id, delta: $l.quantity, reason: 'released', note: NONE, \
                       before: $after - $l.quantity, after: $after, actor: $actor, actor_label: $actor_label, at: $at, \
                       \"order\": $key } RETURN NONE; \
                   }; \
                 };",
            )
            .bind(("key", key.to_owned()))
            .bind(("actor", crate::stock::CHECKOUT_ACTOR.0))
            .bind(("actor_label", crate::stock::CHECKOUT_ACTOR.1))
            .bind(("at", crate::stock::now_seconds()))
            .await
            .and_then(surrealdb::IndexedResults::check);
        match released {
            Ok(_) => commit(tx, Some(products)).await,
            Err(e) => abandon(tx, e).await,
        }
    }

    async fn order_by_payment_order(&self, key: &str) -> Result<Option<PlacedOrder>, OrderStoreError> {
        let rows: Vec<OrderRow> = self
            .db
            .query(format!("SELECT {ORDER_FIELDS} FROM customer_order WHERE payment_order = $key LIMIT 1"))
            .bind(("key", key.to_owned()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().next().map(order_of).transpose()
    }

    async fn try_place(&self, key: &str, payment: &str, placed_at: i64) -> Attempt<Placement> {
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e),
        };
        let read: Result<Vec<ReservationRow>, _> = tx
            .query(format!("SELECT {RESERVATION_FIELDS} FROM type::record('reservation', $key)"))
            .bind(("key", key.to_owned()))
            .await
            .and_then(|mut r| r.take(0));
        let row = match read {
            Ok(rows) => rows.into_iter().next(),
            Err(e) => return abandon(tx, e).await,
        };
        let Some(row) = row else {
            return give_up(tx, Err(OrderStoreError::UnknownReservation)).await;
        };
        // A held reservation's units were taken when it was made: its sale is an entry of zero.
        let held = row.state == "held";
        match row.state.as_str() {
            "sold" => {
                let _ = tx.cancel().await;
                return match self.order_by_payment_order(key).await {
                    Ok(Some(order)) => Attempt::Done(Ok(Placement::AlreadyPlaced(order))),
                    Ok(None) => Attempt::Done(Err(corrupt("sold reservation without its order"))),
                    Err(e) => Attempt::Done(Err(e)),
                };
            }
            "released" => {
                match take_stock(&tx, &row.lines, StockReason::Sold, key, placed_at).await {
                    Ok(None) => {}
                    Ok(Some(product)) => return give_up(tx, Err(OrderStoreError::OutOfStock { product })).await,
                    Err(e) => return abandon(tx, e).await,
                }
                // Its store credit went back with the release: it is taken again, or nothing is placed.
                let takes = match take_credit(&tx, &row.user, row.store_credit.unwrap_or(0), placed_at).await {
                    Ok(Some(takes)) => takes,
                    Ok(None) => return give_up(tx, Err(OrderStoreError::CreditShort)).await,
                    Err(e) => return abandon(tx, e).await,
                };
                let kept = tx
                    .query("UPDATE type::record('reservation', $key) SET credit_takes = $takes RETURN NONE")
                    .bind(("key", key.to_owned()))
                    .bind(("takes", takes))
                    .await
                    .and_then(surrealdb::IndexedResults::check);
                if let Err(e) = kept {
                    return abandon(tx, e).await;
                }
            }
            _ => {}
        }
        let year = FinancialYear::at_unix_seconds(placed_at);
        let serials: Result<(Vec<i64>, Vec<i64>), _> = tx
            .query("UPSERT type::record('number_series', $year) SET last = (last ?? 0) + 1 RETURN VALUE last")
            .query("UPSERT number_series:orders SET last = (last ?? 0) + 1 RETURN VALUE last")
            .bind(("year", year.short()))
            .await
            .and_then(|mut r| Ok((r.take(0)?, r.take(1)?)));
        let (invoice_serial, order_serial) = match serials {
            Ok((i, o)) => (i.first().copied().unwrap_or(0), o.first().copied().unwrap_or(0)),
            Err(e) => return abandon(tx, e).await,
        };
        let Ok(invoice_number) =
            u32::try_from(invoice_serial).map_err(|_| ()).and_then(|s| InvoiceNumber::new(year, s).map_err(|_| ()))
        else {
            return give_up(tx, Err(OrderStoreError::SeriesExhausted)).await;
        };
        let status = OrderStatus::Placed;
        let written: Result<Vec<String>, _> = tx
            .query(
                "UPDATE type::record('reservation', $key) SET state = 'sold' RETURN NONE; \
                 FOR $l IN $lines { \
                   LET $listed = (UPDATE type::record('product', $l.product_id) SET units_sold += $l.quantity RETURN VALUE quantity)[0]; \
                   LET $unlisted = (UPDATE type::record('unpublished_product', $l.product_id) SET units_sold += $l.quantity RETURN VALUE quantity)[0]; \
                   LET $q = $listed ?? $unlisted; \
                   IF $held AND $q != NONE { \
                     CREATE stock_entry CONTENT { product: $l.product_id, delta: 0, reason: 'sold', note: NONE, \
                       before: $q, after: $q, actor: $actor, actor_label: $actor_label, at: $placed_at, \"order\": $key } RETURN NONE; \
                   }; \
                 }; \
                 CREATE customer_order CONTENT { \
                   payment_order: $key, payment_id: $payment, order_number: $order_number, invoice_number: $invoice_number, \
                   user: $row.user, user_name: $row.user_name, lines: $row.lines, address: $row.address, \
                   discount: $row.discount, discount_amount: $row.discount_amount, delivery_charge: $row.delivery_charge, \
                   total: $row.total, store_credit: $row.store_credit ?? 0, status: $status, status_text: $status_text, courier: '', awb: '', created_at: $placed_at \
                 } RETURN VALUE record::id(id);",
            )
            .bind(("key", key.to_owned()))
            .bind(("payment", payment.to_owned()))
            .bind(("order_number", order_number(order_serial)))
            .bind(("invoice_number", invoice_number.to_string()))
            .bind(("lines", row.lines.clone()))
            .bind(("row", row.clone()))
            .bind(("status", status.number()))
            .bind(("status_text", status.status_string()))
            .bind(("placed_at", placed_at))
            .bind(("held", held))
            .bind(("actor", crate::stock::CHECKOUT_ACTOR.0))
            .bind(("actor_label", crate::stock::CHECKOUT_ACTOR.1))
            .await
            .and_then(|mut r| r.take(2));
        let id = match written {
            Ok(ids) => ids.into_iter().next().unwrap_or_default(),
            Err(e) => return abandon(tx, e).await,
        };
        let order = order_of(OrderRow {
            id,
            payment_order: key.to_owned(),
            payment_id: payment.to_owned(),
            order_number: order_number(order_serial),
            invoice_number: invoice_number.to_string(),
            user: row.user,
            user_name: row.user_name,
            lines: row.lines,
            address: row.address,
            discount: row.discount,
            discount_amount: row.discount_amount,
            delivery_charge: row.delivery_charge,
            total: row.total,
            store_credit: Some(row.store_credit.unwrap_or(0)),
            status: status.number(),
            status_text: status.status_string().to_owned(),
            courier: String::new(),
            awb: String::new(),
            tracking_url: None,
            created_at: placed_at,
        });
        match order {
            Ok(order) => commit(tx, Placement::Placed(order)).await,
            Err(e) => give_up(tx, Err(e)).await,
        }
    }
}

#[async_trait]
impl OrderStore for SurrealOrderStore {
    async fn reserve(&self, reservation: &Reservation) -> Result<(), OrderStoreError> {
        let row = reservation_row(reservation, "held");
        let key = reservation.payment_order.0.as_str();
        self.retrying(|| self.try_reserve(key, &row)).await?;
        self.stock_changed(products_of(&reservation.draft)).await;
        Ok(())
    }

    async fn reservation(
        &self,
        payment_order: &PaymentOrderId,
    ) -> Result<Option<(Reservation, ReservationState)>, OrderStoreError> {
        // SurrealDB refuses an empty record key; no reservation has one.
        if payment_order.0.is_empty() {
            return Ok(None);
        }
        let rows: Vec<ReservationRow> = self
            .db
            .query(format!("SELECT {RESERVATION_FIELDS} FROM type::record('reservation', $key)"))
            .bind(("key", payment_order.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().next().map(|row| reservation_of(&payment_order.0, row)).transpose()
    }

    async fn release(&self, payment_order: &PaymentOrderId) -> Result<bool, OrderStoreError> {
        if payment_order.0.is_empty() {
            return Err(OrderStoreError::UnknownReservation);
        }
        let Some(products) = self.retrying(|| self.try_release(&payment_order.0)).await? else { return Ok(false) };
        self.stock_changed(products).await;
        Ok(true)
    }

    async fn release_expired(&self, now: i64) -> Result<usize, OrderStoreError> {
        self.forget_old_stock_changes().await;
        let due: Vec<String> = self
            .db
            .query("SELECT VALUE record::id(id) FROM reservation WHERE state = 'held' AND expires_at <= $now")
            .bind(("now", now))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        let mut released = 0;
        for key in due {
            // Paid or released by someone else since the read: not ours to count.
            if self.release(&PaymentOrderId(key)).await? {
                released += 1;
            }
        }
        Ok(released)
    }

    async fn place(
        &self,
        payment_order: &PaymentOrderId,
        payment: &PaymentId,
        placed_at: i64,
    ) -> Result<Placement, OrderStoreError> {
        let key = payment_order.0.as_str();
        if key.is_empty() {
            return Err(OrderStoreError::UnknownReservation);
        }
        let outcome = self.retrying(|| self.try_place(key, &payment.0, placed_at)).await;
        match outcome {
            Ok(Placement::Placed(order)) => {
                self.stock_changed(products_of(&order.draft)).await;
                Ok(Placement::Placed(order))
            }
            other => other,
        }
    }

    async fn order(&self, id: &OrderId) -> Result<Option<PlacedOrder>, OrderStoreError> {
        if id.0.is_empty() {
            return Ok(None);
        }
        let rows: Vec<OrderRow> = self
            .db
            .query(format!("SELECT {ORDER_FIELDS} FROM type::record('customer_order', $id)"))
            .bind(("id", id.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().next().map(order_of).transpose()
    }

    async fn orders_of(&self, user: &UserId) -> Result<Vec<PlacedOrder>, OrderStoreError> {
        let rows: Vec<OrderRow> = self
            .db
            .query(format!("SELECT {ORDER_FIELDS} FROM customer_order WHERE user = $user ORDER BY created_at DESC"))
            .bind(("user", user.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().map(order_of).collect()
    }

    async fn orders_page(&self, user: &UserId, offset: u64, limit: u64) -> Result<OrdersPage, OrderStoreError> {
        // The (user, created_at) index serves both: the count and the one page, newest first.
        let (total, rows): (Option<u64>, Vec<OrderRow>) = self
            .db
            .query("RETURN (SELECT count() AS n FROM customer_order WHERE user = $user GROUP ALL)[0].n ?? 0")
            .query(format!(
                "SELECT {ORDER_FIELDS} FROM customer_order WHERE user = $user \
                 ORDER BY created_at DESC LIMIT $limit START $offset"
            ))
            .bind(("user", user.0.clone()))
            .bind(("limit", limit))
            .bind(("offset", offset))
            .await
            .and_then(|mut r| Ok((r.take(0)?, r.take(1)?)))
            .map_err(|e| unavailable(&e))?;
        Ok(OrdersPage { orders: rows.into_iter().map(order_of).collect::<Result<_, _>>()?, total: total.unwrap_or(0) })
    }

    async fn receive_event(&self, event_id: &str, now: i64) -> Result<bool, OrderStoreError> {
        // Created on the first arrival; a later arrival changes nothing and reads whether it was handled.
        // Arrivals racing on one event conflict on a server (ws://): the loser is tried again.
        let mut attempt = 0;
        loop {
            let answer: Result<Vec<Option<i64>>, surrealdb::Error> = self
                .db
                .query(
                    "INSERT INTO payment_event { id: type::record('payment_event', $id), seen_at: $now } \
                     ON DUPLICATE KEY UPDATE seen_at = seen_at RETURN VALUE handled_at",
                )
                .bind(("id", event_id.to_owned()))
                .bind(("now", now))
                .await
                .and_then(|mut r| r.take(0));
            match answer {
                Ok(handled) => return Ok(handled.into_iter().next().flatten().is_some()),
                Err(e) if is_conflict(&e) && attempt < CONFLICT_RETRIES => {
                    attempt += 1;
                    backoff(attempt).await;
                }
                Err(e) => return Err(unavailable(&e)),
            }
        }
    }

    async fn event_handled(&self, event_id: &str, now: i64) -> Result<(), OrderStoreError> {
        self.db
            .query("UPSERT type::record('payment_event', $id) SET seen_at = seen_at ?? $now, handled_at = $now RETURN NONE")
            .bind(("id", event_id.to_owned()))
            .bind(("now", now))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map(drop)
            .map_err(|e| unavailable(&e))
    }

    async fn forget_events_before(&self, before: i64) -> Result<usize, OrderStoreError> {
        let deleted: Vec<surrealdb::types::Value> = self
            .db
            .query("DELETE payment_event WHERE seen_at < $before RETURN BEFORE")
            .bind(("before", before))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(deleted.len())
    }

    async fn held_by(&self, user: &UserId) -> Result<Vec<Reservation>, OrderStoreError> {
        let rows: Vec<KeyedReservationRow> = self
            .db
            .query(format!(
                "SELECT record::id(id) AS key, held_at, {RESERVATION_FIELDS} FROM reservation \
                 WHERE user = $user AND state = 'held' ORDER BY created_at, held_at, key"
            ))
            .bind(("user", user.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().map(|row| keyed_reservation(row).map(|(r, _)| r)).collect()
    }

    async fn unplaced_since(&self, since: i64) -> Result<Vec<(Reservation, ReservationState)>, OrderStoreError> {
        let rows: Vec<KeyedReservationRow> = self
            .db
            .query(format!(
                "SELECT record::id(id) AS key, {RESERVATION_FIELDS} FROM reservation \
                 WHERE created_at >= $since AND state != 'sold' ORDER BY created_at, key"
            ))
            .bind(("since", since))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().map(keyed_reservation).collect()
    }

    async fn save_refund(&self, refund: &RefundRecord) -> Result<(), OrderStoreError> {
        if refund.payment.0.is_empty() {
            return Err(OrderStoreError::Unavailable { reason: "a refund needs its payment id".into() });
        }
        self.db
            .query(
                "UPSERT type::record('payment_refund', $payment) SET \
                   payment_order = payment_order ?? $row.payment_order, user = user ?? $row.user, \
                   amount = amount ?? $row.amount, reason = reason ?? $row.reason, created_at = created_at ?? $row.created_at, \
                   refund_id = $row.refund_id, status = $row.status, updated_at = $row.updated_at RETURN NONE",
            )
            .bind(("payment", refund.payment.0.clone()))
            .bind(("row", refund_row(refund)))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map(drop)
            .map_err(|e| unavailable(&e))
    }

    async fn refund_of(&self, payment: &PaymentId) -> Result<Option<RefundRecord>, OrderStoreError> {
        if payment.0.is_empty() {
            return Ok(None);
        }
        let rows: Vec<RefundRow> = self
            .db
            .query(format!("SELECT {REFUND_FIELDS} FROM type::record('payment_refund', $payment)"))
            .bind(("payment", payment.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().next().map(refund_of_row).transpose()
    }

    async fn refund_status(&self, refund_id: &str, status: RefundState, now: i64) -> Result<bool, OrderStoreError> {
        // A payment given back without an order, or a refund of a placed order (migration 21): a
        // provider refund id is on one of them. An order's refund already settled keeps its state.
        let (unplaced, placed): (Vec<String>, Vec<String>) = self
            .db
            .query(
                "UPDATE payment_refund SET status = $status, updated_at = $now WHERE refund_id = $refund_id \
                 RETURN VALUE record::id(id)",
            )
            .query(
                "UPDATE order_refund SET status = $status, updated_at = $now WHERE provider_refund = $refund_id \
                 AND status IN ['requested', 'pending'] RETURN VALUE record::id(id)",
            )
            .query("SELECT VALUE record::id(id) FROM order_refund WHERE provider_refund = $refund_id")
            .bind(("refund_id", refund_id.to_owned()))
            .bind(("status", status.code()))
            .bind(("now", now))
            .await
            .and_then(|mut r| {
                let unplaced: Vec<String> = r.take(0)?;
                let _: Vec<String> = r.take(1)?;
                Ok((unplaced, r.take(2)?))
            })
            .map_err(|e| unavailable(&e))?;
        Ok(!unplaced.is_empty() || !placed.is_empty())
    }
}
