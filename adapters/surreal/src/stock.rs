//! The stock ledger on SurrealDB: `stock_entry` rows (see `schema/0015_stock_ledger.surql`), each
//! written in the transaction that moves `product.quantity`, so the sum of a product's entries is
//! its quantity at every commit. The catalog store writes opening entries ([`opening_rows`]), the
//! order store its reservations, releases and sales ([`ENTRY_WRITE`]), and [`SurrealStockLedger`]
//! staff's adjustments and thresholds.

use async_trait::async_trait;
use marque_domain::catalog::{Product, ProductId};
use marque_domain::paging::ListWindow;
use marque_domain::stock::{Adjustment, LowStockThreshold, StockReason};
use marque_ports::{AuditEntry, LowStockItem, LowStockPage, StockEntry, StockHistory, StockLedger, StockLedgerError};
use surrealdb::types::SurrealValue;

use crate::conn::{Conn, Tx};
use crate::error::{until_settled, Attempt};

/// The actor key and label of entries the order store writes.
pub(crate) const CHECKOUT_ACTOR: (&str, &str) = ("system:checkout", "system (checkout)");
/// The actor key and label of the opening entries of products the catalog store adds (the seed, tests).
pub(crate) const SEED_ACTOR: (&str, &str) = ("system:seed", "system (seed)");

/// A product `$id` wherever it is: listed (`product`) or unpublished (`unpublished_product`).
const EITHER_TABLE: &str = "type::record('product', $id), type::record('unpublished_product', $id)";

/// Stores the bound `$entry` ([`EntryRow`]) and answers its id.
pub(crate) const ENTRY_WRITE: &str = "CREATE stock_entry CONTENT $entry RETURN VALUE record::id(id);";

/// Records a stock change for cached catalog answers (as the order store does after its changes).
const STOCK_CHANGED: &str = "CREATE stock_change SET products = [$id], at = time::now() RETURN NONE;";

/// One `stock_entry` as written (`seq` comes from its default).
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(crate) struct EntryRow {
    pub(crate) product: String,
    pub(crate) delta: i64,
    pub(crate) reason: String,
    pub(crate) note: Option<String>,
    pub(crate) before: i64,
    pub(crate) after: i64,
    pub(crate) actor: String,
    pub(crate) actor_label: String,
    pub(crate) at: i64,
    pub(crate) order: Option<String>,
}

/// One `stock_entry` as read.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct EntryRead {
    id: String,
    product: String,
    delta: i64,
    reason: String,
    note: Option<String>,
    before: i64,
    after: i64,
    actor: String,
    actor_label: String,
    at: i64,
    order: Option<String>,
}

const ENTRY_FIELDS: &str =
    "record::id(id) AS id, product, delta, reason, note, before, after, actor, actor_label, at, `order` AS order, seq";

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct LowRow {
    id: String,
    name: String,
    quantity: i64,
    threshold: i64,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct Count {
    n: i64,
}

/// The opening entries of products being added (their whole stock), by `actor` at `at`.
pub(crate) fn opening_rows<'a>(
    products: impl IntoIterator<Item = &'a Product>,
    actor: (&str, &str),
    at: i64,
) -> Vec<EntryRow> {
    products
        .into_iter()
        .map(|p| EntryRow {
            product: p.id.0.clone(),
            delta: i64::from(p.quantity),
            reason: StockReason::Opening.as_str().to_owned(),
            note: None,
            before: 0,
            after: i64::from(p.quantity),
            actor: actor.0.to_owned(),
            actor_label: actor.1.to_owned(),
            at,
            order: None,
        })
        .collect()
}

/// Seconds since the Unix epoch now, for entries written by the stores themselves (their callers
/// give no time).
pub(crate) fn now_seconds() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

fn unavailable(e: &surrealdb::Error) -> StockLedgerError {
    StockLedgerError::Unavailable { reason: e.message().to_owned() }
}

fn corrupt(what: &str) -> StockLedgerError {
    StockLedgerError::Unavailable { reason: format!("the database holds an impossible {what}") }
}

fn entry_of(row: EntryRead) -> Result<StockEntry, StockLedgerError> {
    Ok(StockEntry {
        id: row.id,
        product: ProductId(row.product),
        delta: row.delta,
        reason: StockReason::from_name(&row.reason).ok_or_else(|| corrupt("stock entry reason"))?,
        note: row.note,
        before: row.before,
        after: row.after,
        actor: row.actor,
        actor_label: row.actor_label,
        at: row.at,
        order: row.order,
    })
}

/// `{"quantity":before}` and `{"quantity":after,"delta":…,"reason":…,"note":…}` as the audit's values.
fn adjustment_values(before: i64, after: i64, adjustment: &Adjustment) -> (String, String) {
    let before = serde_json::json!({ "quantity": before });
    let after = serde_json::json!({
        "quantity": after,
        "delta": adjustment.delta,
        "reason": adjustment.reason.as_str(),
        "note": adjustment.note,
    });
    (before.to_string(), after.to_string())
}

/// [`StockLedger`] on a SurrealDB connection. Get one from [`crate::Database::stock`].
#[derive(Debug, Clone)]
pub struct SurrealStockLedger {
    db: Conn,
}

async fn give_up<T>(tx: Tx, outcome: Result<T, StockLedgerError>) -> Attempt<Result<T, StockLedgerError>> {
    // Nothing was written that a failing cancel could keep.
    let _ = tx.cancel().await;
    Attempt::Done(outcome)
}

async fn abandon<T>(tx: Tx, e: surrealdb::Error) -> Attempt<Result<T, StockLedgerError>> {
    let _ = tx.cancel().await;
    Attempt::failed(e, unavailable)
}

/// The quantity (`None`: no such product) of `product`, read in `tx`.
async fn quantity_in(tx: &Tx, product: &str) -> Result<Option<i64>, surrealdb::Error> {
    let found: Vec<i64> = tx
        .query(format!("SELECT VALUE quantity FROM {EITHER_TABLE}"))
        .bind(("id", product.to_owned()))
        .await
        .and_then(|mut r| r.take(0))?;
    Ok(found.into_iter().next())
}

impl SurrealStockLedger {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }

    async fn try_adjust(
        &self,
        product: &str,
        adjustment: &Adjustment,
        audit: &AuditEntry,
    ) -> Attempt<Result<StockEntry, StockLedgerError>> {
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        // The product is in `product`, or in `unpublished_product` while unpublished (migration 14).
        let moved: Result<(Vec<i64>, Vec<i64>), _> = tx
            .query(
                "UPDATE type::record('product', $id) SET quantity += $delta WHERE quantity + $delta >= 0 \
                 RETURN VALUE quantity",
            )
            .query(
                "UPDATE type::record('unpublished_product', $id) SET quantity += $delta \
                 WHERE quantity + $delta >= 0 RETURN VALUE quantity",
            )
            .bind(("id", product.to_owned()))
            .bind(("delta", adjustment.delta))
            .await
            .and_then(|mut r| Ok((r.take(0)?, r.take(1)?)));
        let after = match moved {
            Ok((listed, unlisted)) => listed.into_iter().chain(unlisted).next(),
            Err(e) => return abandon(tx, e).await,
        };
        let Some(after) = after else {
            let refusal = match quantity_in(&tx, product).await {
                Ok(None) => StockLedgerError::UnknownProduct,
                Ok(Some(q)) => StockLedgerError::BelowZero { quantity: u32::try_from(q).unwrap_or(0) },
                Err(e) => return abandon(tx, e).await,
            };
            return give_up(tx, Err(refusal)).await;
        };
        let before = after - adjustment.delta;
        let (audit_before, audit_after) = adjustment_values(before, after, adjustment);
        let audit = audit.clone().with_values(Some(audit_before), Some(audit_after));
        let row = EntryRow {
            product: product.to_owned(),
            delta: adjustment.delta,
            reason: adjustment.reason.as_str().to_owned(),
            note: adjustment.note.clone(),
            before,
            after,
            actor: audit.actor.key(),
            actor_label: audit.actor.label(),
            at: audit.at,
            order: None,
        };
        let written: Result<Vec<String>, _> = tx
            .query(ENTRY_WRITE)
            .query(crate::audit::WRITE)
            .query(STOCK_CHANGED)
            .bind(("entry", row.clone()))
            .bind(crate::audit::bind(&audit))
            .bind(("id", product.to_owned()))
            .await
            .and_then(|mut r| {
                let id = r.take(0)?;
                r.check()?;
                Ok(id)
            });
        let id = match written {
            Ok(ids) => ids.into_iter().next().unwrap_or_default(),
            Err(e) => return abandon(tx, e).await,
        };
        let entry = StockEntry {
            id,
            product: ProductId(row.product),
            delta: row.delta,
            reason: adjustment.reason,
            note: row.note,
            before,
            after,
            actor: row.actor,
            actor_label: row.actor_label,
            at: row.at,
            order: None,
        };
        match tx.commit().await {
            Ok(()) => Attempt::Done(Ok(entry)),
            Err(e) => Attempt::failed(e, unavailable),
        }
    }

    async fn try_set_threshold(
        &self,
        product: &str,
        threshold: LowStockThreshold,
        audit: &AuditEntry,
    ) -> Attempt<Result<LowStockThreshold, StockLedgerError>> {
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        let had: Result<Vec<Option<i64>>, _> = tx
            .query(format!("SELECT VALUE low_stock_threshold FROM {EITHER_TABLE}"))
            .bind(("id", product.to_owned()))
            .await
            .and_then(|mut r| r.take(0));
        let had = match had {
            Ok(rows) => match rows.into_iter().next() {
                None => return give_up(tx, Err(StockLedgerError::UnknownProduct)).await,
                Some(t) => t.and_then(|t| LowStockThreshold::new(t).ok()).unwrap_or(LowStockThreshold::DEFAULT),
            },
            Err(e) => return abandon(tx, e).await,
        };
        let audit = audit.clone().with_values(
            Some(serde_json::json!({ "threshold": had.get() }).to_string()),
            Some(serde_json::json!({ "threshold": threshold.get() }).to_string()),
        );
        let written = tx
            .query(
                "UPDATE type::record('product', $id) SET low_stock_threshold = $threshold RETURN NONE; \
                 UPDATE type::record('unpublished_product', $id) SET low_stock_threshold = $threshold RETURN NONE;",
            )
            .query(crate::audit::WRITE)
            .bind(("id", product.to_owned()))
            .bind(("threshold", i64::from(threshold.get())))
            .bind(crate::audit::bind(&audit))
            .await
            .and_then(surrealdb::IndexedResults::check);
        if let Err(e) = written {
            return abandon(tx, e).await;
        }
        match tx.commit().await {
            Ok(()) => Attempt::Done(Ok(had)),
            Err(e) => Attempt::failed(e, unavailable),
        }
    }

    async fn exists(&self, product: &str) -> Result<bool, StockLedgerError> {
        let found: Vec<String> = self
            .db
            .query(format!("SELECT VALUE record::id(id) FROM {EITHER_TABLE}"))
            .bind(("id", product.to_owned()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(!found.is_empty())
    }
}

#[async_trait]
impl StockLedger for SurrealStockLedger {
    async fn adjust(
        &self,
        product: &ProductId,
        adjustment: &Adjustment,
        audit: &AuditEntry,
    ) -> Result<StockEntry, StockLedgerError> {
        // SurrealDB refuses an empty record key; no product has one.
        if product.0.is_empty() {
            return Err(StockLedgerError::UnknownProduct);
        }
        until_settled(|| self.try_adjust(&product.0, adjustment, audit), |e| Err(unavailable(e))).await
    }

    async fn history(&self, product: &ProductId, window: ListWindow) -> Result<StockHistory, StockLedgerError> {
        if product.0.is_empty() || !self.exists(&product.0).await? {
            return Err(StockLedgerError::UnknownProduct);
        }
        let (rows, count): (Vec<EntryRead>, Vec<Count>) = self
            .db
            .query(format!(
                "SELECT {ENTRY_FIELDS} FROM stock_entry WHERE product = $id ORDER BY seq DESC, id DESC \
                 LIMIT $limit START $offset"
            ))
            .query("SELECT count() AS n FROM stock_entry WHERE product = $id GROUP ALL")
            .bind(("id", product.0.clone()))
            .bind(("limit", i64::from(window.limit())))
            .bind(("offset", i64::try_from(window.offset()).unwrap_or(i64::MAX)))
            .await
            .and_then(|mut r| Ok((r.take(0)?, r.take(1)?)))
            .map_err(|e| unavailable(&e))?;
        let entries = rows.into_iter().map(entry_of).collect::<Result<Vec<_>, _>>()?;
        let total = count.first().map_or(0, |c| u64::try_from(c.n).unwrap_or(0));
        Ok(StockHistory { entries, total })
    }

    async fn low_stock(&self, window: ListWindow) -> Result<LowStockPage, StockLedgerError> {
        let (rows, count): (Vec<LowRow>, Vec<Count>) = self
            .db
            .query(
                "SELECT record::id(id) AS id, name, quantity, low_stock_threshold AS threshold FROM product \
                 WHERE quantity <= low_stock_threshold ORDER BY quantity, id LIMIT $limit START $offset",
            )
            .query("SELECT count() AS n FROM product WHERE quantity <= low_stock_threshold GROUP ALL")
            .bind(("limit", i64::from(window.limit())))
            .bind(("offset", i64::try_from(window.offset()).unwrap_or(i64::MAX)))
            .await
            .and_then(|mut r| Ok((r.take(0)?, r.take(1)?)))
            .map_err(|e| unavailable(&e))?;
        let items = rows
            .into_iter()
            .map(|r| {
                Ok(LowStockItem {
                    product: ProductId(r.id),
                    name: r.name,
                    quantity: u32::try_from(r.quantity).map_err(|_| corrupt("quantity"))?,
                    threshold: u32::try_from(r.threshold).map_err(|_| corrupt("threshold"))?,
                })
            })
            .collect::<Result<Vec<_>, StockLedgerError>>()?;
        let total = count.first().map_or(0, |c| u64::try_from(c.n).unwrap_or(0));
        Ok(LowStockPage { items, total })
    }

    async fn threshold(&self, product: &ProductId) -> Result<LowStockThreshold, StockLedgerError> {
        if product.0.is_empty() {
            return Err(StockLedgerError::UnknownProduct);
        }
        let found: Vec<Option<i64>> = self
            .db
            .query(format!("SELECT VALUE low_stock_threshold FROM {EITHER_TABLE}"))
            .bind(("id", product.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        match found.into_iter().next() {
            None => Err(StockLedgerError::UnknownProduct),
            Some(None) => Ok(LowStockThreshold::DEFAULT),
            Some(Some(t)) => LowStockThreshold::new(t).map_err(|_| corrupt("threshold")),
        }
    }

    async fn set_threshold(
        &self,
        product: &ProductId,
        threshold: LowStockThreshold,
        audit: &AuditEntry,
    ) -> Result<LowStockThreshold, StockLedgerError> {
        if product.0.is_empty() {
            return Err(StockLedgerError::UnknownProduct);
        }
        until_settled(|| self.try_set_threshold(&product.0, threshold, audit), |e| Err(unavailable(e))).await
    }
}

#[cfg(test)]
mod tests {
    use marque_domain::staff::StaffId;
    use marque_ports::{Actor, CatalogStore};

    use super::*;
    use crate::Database;

    #[derive(Debug, SurrealValue)]
    #[surreal(crate = "surrealdb::types")]
    struct AuditRead {
        action: String,
        subject: String,
        actor: String,
        before: Option<String>,
        after: Option<String>,
    }

    async fn audit_rows(db: &Database) -> Vec<AuditRead> {
        db.db
            .query("SELECT action, subject, actor, before, after, seq FROM audit ORDER BY seq")
            .await
            .and_then(|mut r| r.take(0))
            .expect("read the audit table")
    }

    fn audit(action: &str) -> AuditEntry {
        let actor = Actor::Staff { id: StaffId("s1".into()), email: "asha@marque.test".into() };
        AuditEntry::new(1_780_295_400, actor, action, "product:p1")
    }

    /// Each adjustment and threshold leaves its audit record with the quantities around it; a
    /// refused one leaves none (the contract suites check the entries; the audit table is this
    /// adapter's).
    #[tokio::test]
    async fn writes_leave_their_audit_record_and_refusals_none() {
        let db = Database::connect("mem://").await.expect("open mem://");
        let product = marque_contract_tests::fixtures::product("p1").quantity(4).build();
        db.catalog().add_products(&[product]).await.expect("add");
        let ledger = db.stock();
        let p1 = ProductId("p1".into());
        let received = Adjustment::parse(3, "received", Some("invoice \"7\"")).expect("valid");
        ledger.adjust(&p1, &received, &audit("stock.adjust")).await.expect("adjust");
        let too_many = Adjustment::parse(-8, "damaged", None).expect("valid");
        assert_eq!(
            ledger.adjust(&p1, &too_many, &audit("stock.adjust")).await,
            Err(StockLedgerError::BelowZero { quantity: 7 })
        );
        let ten = LowStockThreshold::new(10).expect("valid");
        ledger.set_threshold(&p1, ten, &audit("stock.threshold")).await.expect("threshold");
        let nobody = ProductId("p9".into());
        assert_eq!(
            ledger.set_threshold(&nobody, ten, &audit("stock.threshold")).await,
            Err(StockLedgerError::UnknownProduct)
        );

        let rows = audit_rows(&db).await;
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!(
            (rows[0].action.as_str(), rows[0].subject.as_str(), rows[0].actor.as_str()),
            ("stock.adjust", "product:p1", "s1")
        );
        let before: serde_json::Value = serde_json::from_str(rows[0].before.as_deref().expect("before")).expect("JSON");
        let after: serde_json::Value = serde_json::from_str(rows[0].after.as_deref().expect("after")).expect("JSON");
        assert_eq!(before, serde_json::json!({ "quantity": 4 }));
        assert_eq!(
            after,
            serde_json::json!({ "quantity": 7, "delta": 3, "reason": "received", "note": "invoice \"7\"" })
        );
        assert_eq!(rows[1].action, "stock.threshold");
        assert_eq!(rows[1].before.as_deref(), Some(r#"{"threshold":5}"#));
        assert_eq!(rows[1].after.as_deref(), Some(r#"{"threshold":10}"#));
    }

    /// Products stored before migration 15 get one opening entry each with their stock and the
    /// default threshold; running the migration again writes nothing twice.
    #[tokio::test]
    async fn the_migration_opens_every_products_ledger_once() {
        let db = Database::connect("mem://").await.expect("open mem://");
        db.catalog()
            .add_products(&[
                marque_contract_tests::fixtures::product("p1").quantity(4).build(),
                marque_contract_tests::fixtures::product("p2").quantity(0).build(),
            ])
            .await
            .expect("add");
        // As a database from before the ledger: no entries, no thresholds.
        db.db
            .query("DELETE stock_entry; REMOVE FIELD low_stock_threshold ON product; UPDATE product UNSET low_stock_threshold;")
            .await
            .and_then(surrealdb::IndexedResults::check)
            .expect("forget the ledger");
        for _ in 0..2 {
            crate::schema::apply_unrecorded(&db.db, 15).await.expect("migration 15");
        }
        let ledger = db.stock();
        for (id, quantity) in [("p1", 4), ("p2", 0)] {
            let history = ledger.history(&ProductId(id.into()), ListWindow::default()).await.expect("history");
            assert_eq!(history.total, 1, "one opening entry for {id}");
            let e = &history.entries[0];
            assert_eq!((e.reason, e.delta, e.before, e.after), (StockReason::Opening, quantity, 0, quantity));
            assert_eq!(e.actor, "system:migration");
            assert_eq!(ledger.threshold(&ProductId(id.into())).await, Ok(LowStockThreshold::DEFAULT));
        }
    }
}
