//! Catalog import jobs on SurrealDB ([`ImportJobs`], migration 23): `import_job` rows claimed by
//! conditional updates, and each batch written in one transaction with the products it creates or
//! changes (in the table its `published` names, as the catalog editor writes them), their stock
//! entries, the job's audit row (once), the catalog change caches follow, the refused rows
//! (`import_error`) and the job's counters.

use std::collections::HashMap;

use async_trait::async_trait;
use marque_domain::catalog::import::RowError;
use marque_domain::catalog::Product;
use marque_domain::Message;
use marque_ports::{
    CatalogChange, ImportBatch, ImportCounts, ImportJob, ImportJobId, ImportJobs, ImportJobsError, ImportMode,
    ImportPhotoTask, ImportState, PhotoCounts, PhotoOutcome,
};
use surrealdb::types::SurrealValue;

use super::changes::{CatalogChangeRow, RECORD_CHANGE};
use super::rows::{self, rewrite_products, table, ProductRow};
use super::Vars;
use crate::conn::{Conn, Tx};
use crate::error::{is_conflict, until_settled, Attempt};
use crate::stock::EntryRow;

/// [`ImportJobs`] on a SurrealDB connection. Get one from [`crate::Database::import_jobs`].
///
/// - `claim` picks the oldest claimable job and updates it only where it is still claimable, in
///   one transaction: of two instances claiming at once one wins, the other's transaction
///   conflicts and, tried again, finds nothing (or the next job).
/// - `write_batch` reads the job, the stored products of the batch's SKUs and their stock inside
///   its transaction, so the stock entries' `before` is the quantity at that moment.
#[derive(Debug, Clone)]
pub struct SurrealImportJobs {
    db: Conn,
}

impl SurrealImportJobs {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }
}

/// How many SKUs one `IN` names in [`by_skus`]: SurrealDB 3.3.5 plans `sku IN [...]` as a union of
/// lookups through the unique `sku` index for up to 32 values and as a scan of the whole table past
/// that (`sku_lookups_go_through_the_unique_indexes` checks the plan).
const SKUS_PER_LOOKUP: usize = 16;

/// One lookup of [`by_skus`]: the stored products (published or not) whose SKU is in `$c`, read
/// whole. (Naming the fields as `PRODUCT_FIELDS` does costs three times as much: SurrealDB 3.3.5
/// computes each named field of each row apart, and that list's fitment is one lookup a row.)
const SKU_LOOKUP: &str = "SELECT *, record::id(id) AS id FROM product, unpublished_product WHERE sku IN $c";

/// The stored products (published or not) with the SKUs `$skus`, found through each table's unique
/// `sku` index, [`SKUS_PER_LOOKUP`] SKUs a lookup (one `IN` over all of a batch's SKUs is a scan of
/// every product, comparing each with every SKU: a 100,000-row dry run ran at 438 rows a second),
/// and their fitment, read by key: `{ products, fits }` ([`ProductRow::with_fits`] joins them).
fn by_skus() -> String {
    format!(
        "LET $found = array::flatten(array::clump($skus, {SKUS_PER_LOOKUP}).map(|$c| ({SKU_LOOKUP}))); \
         RETURN {{ products: $found, fits: (SELECT record::id(id) AS id, fits \
         FROM $found.map(|$p| type::record('product_fitment', $p.id))) }};"
    )
}

/// What [`by_skus`] answers.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct Found {
    products: Vec<ProductRow>,
    fits: Vec<rows::FitsRow>,
}

impl Found {
    /// The rows, each with its fitment.
    fn rows(self) -> Vec<ProductRow> {
        let mut fits: HashMap<String, Option<Vec<crate::vehicles::FitRow>>> =
            self.fits.into_iter().map(|f| (f.id, f.fits)).collect();
        self.products
            .into_iter()
            .map(|row| {
                let of_row = fits.remove(row.key()).flatten();
                row.with_fits(of_row)
            })
            .collect()
    }
}

const JOB_FIELDS: &str =
    "record::id(id) AS id, mode, create_missing, state, file_name, file_key, file_bytes, actor, actor_label, \
     rows_read, accepted, rejected, created, updated, unchanged, rows_total, batches_done, claimed_by, claimed_until, \
     created_at, started_at, finished_at, failure, audited, photos_key, photos_total, photos_done, photos_failed, \
     photos_started_at, photos_updated_at";

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct JobRow {
    id: String,
    mode: String,
    create_missing: bool,
    state: String,
    file_name: String,
    file_key: String,
    file_bytes: i64,
    actor: String,
    actor_label: String,
    rows_read: i64,
    accepted: i64,
    rejected: i64,
    created: i64,
    updated: i64,
    unchanged: i64,
    rows_total: i64,
    batches_done: i64,
    claimed_by: Option<String>,
    claimed_until: i64,
    created_at: i64,
    started_at: Option<i64>,
    finished_at: Option<i64>,
    failure: Option<String>,
    audited: bool,
    photos_key: Option<String>,
    photos_total: i64,
    photos_done: i64,
    photos_failed: i64,
    photos_started_at: Option<i64>,
    photos_updated_at: Option<i64>,
}

fn count(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn uncount(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

impl From<&ImportJob> for JobRow {
    fn from(j: &ImportJob) -> Self {
        JobRow {
            id: j.id.0.clone(),
            mode: j.mode.code().to_owned(),
            create_missing: j.create_missing,
            state: j.state.code().to_owned(),
            file_name: j.file_name.clone(),
            file_key: j.file_key.clone(),
            file_bytes: count(j.file_bytes),
            actor: j.actor.clone(),
            actor_label: j.actor_label.clone(),
            rows_read: count(j.counts.rows_read),
            accepted: count(j.counts.accepted),
            rejected: count(j.counts.rejected),
            created: count(j.counts.created),
            updated: count(j.counts.updated),
            unchanged: count(j.counts.unchanged),
            rows_total: count(j.rows_total),
            batches_done: count(j.batches_done),
            claimed_by: j.claimed_by.clone(),
            claimed_until: j.claimed_until,
            created_at: j.created_at,
            started_at: j.started_at,
            finished_at: j.finished_at,
            failure: j.failure.clone(),
            audited: false,
            photos_key: j.photos_key.clone(),
            photos_total: count(j.photos.total),
            photos_done: count(j.photos.done),
            photos_failed: count(j.photos.failed),
            photos_started_at: j.photos_started_at,
            photos_updated_at: j.photos_updated_at,
        }
    }
}

impl TryFrom<JobRow> for ImportJob {
    type Error = ImportJobsError;
    fn try_from(r: JobRow) -> Result<Self, ImportJobsError> {
        let unreadable = |what: &str| ImportJobsError::Unavailable { reason: format!("import job {}: {what}", r.id) };
        Ok(ImportJob {
            mode: ImportMode::parse(&r.mode).ok_or_else(|| unreadable("mode"))?,
            create_missing: r.create_missing,
            state: ImportState::parse(&r.state).ok_or_else(|| unreadable("state"))?,
            id: ImportJobId(r.id),
            file_name: r.file_name,
            file_key: r.file_key,
            file_bytes: uncount(r.file_bytes),
            actor: r.actor,
            actor_label: r.actor_label,
            counts: ImportCounts {
                rows_read: uncount(r.rows_read),
                accepted: uncount(r.accepted),
                rejected: uncount(r.rejected),
                created: uncount(r.created),
                updated: uncount(r.updated),
                unchanged: uncount(r.unchanged),
            },
            rows_total: uncount(r.rows_total),
            batches_done: uncount(r.batches_done),
            claimed_by: r.claimed_by,
            claimed_until: r.claimed_until,
            created_at: r.created_at,
            started_at: r.started_at,
            finished_at: r.finished_at,
            failure: r.failure,
            photos_key: r.photos_key,
            photos: PhotoCounts {
                total: uncount(r.photos_total),
                done: uncount(r.photos_done),
                failed: uncount(r.photos_failed),
            },
            photos_started_at: r.photos_started_at,
            photos_updated_at: r.photos_updated_at,
        })
    }
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct ErrorRow {
    job: String,
    line: i64,
    n: i64,
    col: String,
    val: String,
    code: String,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct QuantityRow {
    table: String,
    id: String,
    quantity: i64,
}

/// A job's report rows for `errors`, ordered within a line from `first`.
fn error_rows(job: &str, errors: &[RowError], first: i64) -> Vec<ErrorRow> {
    errors
        .iter()
        .enumerate()
        .map(|(i, e)| ErrorRow {
            job: job.to_owned(),
            line: count(e.line),
            n: first.saturating_add(i64::try_from(i).unwrap_or(0)),
            col: e.column.clone(),
            val: e.value.clone(),
            code: e.message.code().to_owned(),
        })
        .collect()
}

fn unavailable(e: &surrealdb::Error) -> ImportJobsError {
    ImportJobsError::Unavailable { reason: e.message().to_owned() }
}

fn not_claimed(reason: &str) -> ImportJobsError {
    ImportJobsError::NotClaimed { reason: reason.to_owned() }
}

/// Commits `tx` on a success and cancels it otherwise; a lost race (at any statement or the
/// commit) is tried again by [`until_settled`].
async fn settle<T>(tx: Tx, outcome: Result<T, ImportJobsError>) -> Attempt<Result<T, ImportJobsError>> {
    match outcome {
        Ok(value) => match tx.commit().await {
            Ok(()) => Attempt::Done(Ok(value)),
            Err(e) => Attempt::failed(e, unavailable),
        },
        Err(refused) => {
            if let Err(e) = tx.cancel().await {
                tracing::warn!(error = %e.message(), "cancelling a refused import write failed");
            }
            Attempt::Done(Err(refused))
        }
    }
}

/// A statement's failure inside a transaction: a lost race is tried again.
macro_rules! step {
    ($tx:expr, $result:expr) => {
        match $result {
            Ok(value) => value,
            Err(e) if is_conflict(&e) => {
                let _ = $tx.cancel().await;
                return Attempt::Conflict(e);
            }
            Err(e) => return settle($tx, Err(write_failed(&e))).await,
        }
    };
}

/// A write the store refused: a SKU index clash is the batch's, anything else the store's.
fn write_failed(e: &surrealdb::Error) -> ImportJobsError {
    let message = e.message();
    if message.contains("product_sku") && message.contains("already contains") {
        let sku = message.split('`').nth(1).or_else(|| message.split('\'').nth(1)).unwrap_or("").to_owned();
        return ImportJobsError::DuplicateSku { sku };
    }
    unavailable(e)
}

async fn read_job(tx: &Tx, id: &str) -> Result<Option<JobRow>, surrealdb::Error> {
    let rows: Vec<JobRow> = tx
        .query(format!("SELECT {JOB_FIELDS} FROM type::record('import_job', $id)"))
        .bind(("id", id.to_owned()))
        .await
        .and_then(|mut r| r.take(0))?;
    Ok(rows.into_iter().next())
}

/// Merges what several products' writes changed into one change.
fn merged(changes: impl IntoIterator<Item = CatalogChange>) -> CatalogChange {
    let mut all = CatalogChange::default();
    for c in changes {
        for p in c.products {
            if !all.products.contains(&p) {
                all.products.push(p);
            }
        }
        for place in c.placements {
            if !all.placements.contains(&place) {
                all.placements.push(place);
            }
        }
        for n in c.numbers {
            if !all.numbers.contains(&n) {
                all.numbers.push(n);
            }
        }
        for g in c.fitment {
            if !all.fitment.contains(&g) {
                all.fitment.push(g);
            }
        }
        all.names |= c.names;
        all.home |= c.home;
    }
    all
}

impl SurrealImportJobs {
    /// The rows `surql` (one statement, one bound variable) answers.
    async fn select<T: SurrealValue>(
        &self,
        surql: String,
        var: (&'static str, surrealdb::types::Value),
    ) -> Result<Vec<T>, ImportJobsError> {
        self.db.query(surql).bind(var).await.and_then(|mut r| r.take(0)).map_err(|e| unavailable(&e))
    }

    /// The stored rows of the products with these SKUs ([`by_skus`]).
    async fn lookup(&self, skus: Vec<String>) -> Result<Vec<ProductRow>, ImportJobsError> {
        if skus.is_empty() {
            return Ok(Vec::new());
        }
        let found: Option<Found> = self
            .db
            .query(by_skus())
            .bind(("skus", skus))
            .await
            .and_then(|mut r| r.take(1))
            .map_err(|e| unavailable(&e))?;
        Ok(found.map(Found::rows).unwrap_or_default())
    }

    async fn one_job(&self, id: &str) -> Result<Option<ImportJob>, ImportJobsError> {
        let surql = format!("SELECT {JOB_FIELDS} FROM type::record('import_job', $id)");
        let rows: Vec<JobRow> = self.select(surql, ("id", surrealdb::types::Value::from_t(id.to_owned()))).await?;
        rows.into_iter().next().map(ImportJob::try_from).transpose()
    }

    /// What a conditional update of a running job under `worker`'s claim answers: done, not ours,
    /// or no such job.
    async fn claimed_outcome(&self, done: bool, id: &ImportJobId) -> Result<(), ImportJobsError> {
        match (done, self.one_job(&id.0).await?) {
            (true, _) => Ok(()),
            (false, Some(_)) => Err(not_claimed("the job is not running under this worker's claim")),
            (false, None) => Err(ImportJobsError::NotFound { id: id.0.clone() }),
        }
    }

    /// Runs `surql` (which answers the ids it updated) in its own transaction; `Ok(false)` when it
    /// updated nothing.
    async fn conditional(&self, surql: &'static str, vars: Vars) -> Result<bool, ImportJobsError> {
        until_settled(
            || async {
                let tx = match self.db.begin().await {
                    Ok(tx) => tx,
                    Err(e) => return Attempt::failed(e, unavailable),
                };
                let mut request = tx.query(surql);
                for var in vars.clone() {
                    request = request.bind(var);
                }
                let ids: Vec<String> = step!(tx, request.await.and_then(|mut r| r.take(0)));
                settle(tx, Ok(!ids.is_empty())).await
            },
            |e| Err(unavailable(e)),
        )
        .await
    }

    async fn try_claim(
        &self,
        worker: &str,
        now: i64,
        until: i64,
    ) -> Attempt<Result<Option<ImportJob>, ImportJobsError>> {
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        const CLAIMABLE: &str = "(state = 'queued' OR (state = 'running' AND claimed_until < $now))";
        let next: Vec<String> = step!(
            tx,
            tx.query(format!(
                "SELECT VALUE record::id(id) FROM import_job WHERE {CLAIMABLE} ORDER BY created_at, id LIMIT 1"
            ))
            .bind(("now", now))
            .await
            .and_then(|mut r| r.take(0))
        );
        let Some(id) = next.into_iter().next() else { return settle(tx, Ok(None)).await };
        let claimed: Vec<String> = step!(
            tx,
            tx.query(format!(
                "UPDATE type::record('import_job', $id) SET state = 'running', claimed_by = $worker, \
                 claimed_until = $until, started_at = started_at ?? $now WHERE {CLAIMABLE} RETURN VALUE record::id(id)"
            ))
            .bind(("id", id.clone()))
            .bind(("worker", worker.to_owned()))
            .bind(("until", until))
            .bind(("now", now))
            .await
            .and_then(|mut r| r.take(0))
        );
        if claimed.is_empty() {
            return settle(tx, Ok(None)).await;
        }
        let row = step!(tx, read_job(&tx, &id).await);
        let job = row.map(ImportJob::try_from).transpose();
        settle(tx, job).await
    }

    #[expect(clippy::too_many_lines, reason = "one transaction, read in the order it is written")]
    async fn try_write(
        &self,
        id: &str,
        worker: &str,
        now: i64,
        batch: &ImportBatch,
    ) -> Attempt<Result<(), ImportJobsError>> {
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        let Some(job) = step!(tx, read_job(&tx, id).await) else {
            return settle(tx, Err(ImportJobsError::NotFound { id: id.to_owned() })).await;
        };
        if job.state != "running" || job.claimed_by.as_deref() != Some(worker) {
            return settle(tx, Err(not_claimed("the job is not running under this worker's claim"))).await;
        }
        if uncount(job.batches_done) != batch.index {
            return settle(tx, Err(not_claimed("the batch is not the job's next one"))).await;
        }
        // Every stored product the batch names, read in this transaction.
        let mut skus: Vec<String> = batch.created.iter().map(|p| p.details.sku.clone()).collect();
        skus.extend(batch.updated.iter().map(|p| p.details.sku.clone()));
        skus.extend(batch.stock.iter().map(|s| s.sku.clone()));
        let found: Vec<ProductRow> = if skus.is_empty() {
            Vec::new()
        } else {
            let found: Option<Found> =
                step!(tx, tx.query(by_skus()).bind(("skus", skus)).await.and_then(|mut r| r.take(1)));
            found.map(Found::rows).unwrap_or_default()
        };
        let stored: HashMap<String, Product> = match rows::products(found) {
            Ok(products) => products.into_iter().map(|p| (p.details.sku.clone(), p)).collect(),
            Err(e) => return settle(tx, Err(ImportJobsError::Unavailable { reason: e.to_string() })).await,
        };
        if let Some(taken) = batch.created.iter().find(|p| stored.contains_key(&p.details.sku)) {
            return settle(tx, Err(ImportJobsError::DuplicateSku { sku: taken.details.sku.clone() })).await;
        }
        let actor = (batch.audit.actor.key(), batch.audit.actor.label());
        let entry = |product: &str, before: i64, after: i64, reason: &str| EntryRow {
            product: product.to_owned(),
            delta: after - before,
            reason: reason.to_owned(),
            note: None,
            before,
            after,
            actor: actor.0.clone(),
            actor_label: actor.1.clone(),
            at: now,
            order: None,
        };
        let mut entries: Vec<EntryRow> = Vec::new();
        let mut inserts: HashMap<&'static str, Vec<ProductRow>> = HashMap::new();
        // Updated rows by (stored table, new table): written in place, or moved with their threshold.
        let mut rewrites: HashMap<(bool, bool), Vec<ProductRow>> = HashMap::new();
        let mut quantities: Vec<QuantityRow> = Vec::new();
        let mut changes: Vec<CatalogChange> = Vec::new();
        let mut stock_moved: Vec<String> = Vec::new();
        let shown = |p: &Product| p.details.published;
        for p in &batch.created {
            entries.push(entry(p.id.as_str(), 0, i64::from(p.quantity), "opening"));
            inserts.entry(table(p.details.published)).or_default().push(ProductRow::from(p));
            changes.push(CatalogChange::of_product(None, Some(p).filter(|p| shown(p))));
        }
        let targets: HashMap<&str, u32> = batch.stock.iter().map(|s| (s.sku.as_str(), s.quantity)).collect();
        let mut written_skus: Vec<&str> = Vec::new();
        for p in &batch.updated {
            let Some(before) = stored.get(&p.details.sku) else {
                return settle(tx, Err(ImportJobsError::Unavailable { reason: format!("no product {}", p.id) })).await;
            };
            let mut quantity = before.quantity;
            if let Some(target) = targets.get(p.details.sku.as_str()).filter(|q| **q != before.quantity) {
                entries.push(entry(before.id.as_str(), i64::from(before.quantity), i64::from(*target), "import"));
                quantity = *target;
                stock_moved.push(before.id.0.clone());
            }
            let written = Product {
                id: before.id.clone(),
                quantity,
                units_sold: before.units_sold,
                created_at: before.created_at,
                images: before.images.clone(),
                ..p.clone()
            };
            rewrites
                .entry((before.details.published, written.details.published))
                .or_default()
                .push(ProductRow::from(&written));
            changes.push(CatalogChange::of_product(
                Some(before).filter(|p| shown(p)),
                Some(&written).filter(|p| shown(p)),
            ));
            written_skus.push(p.details.sku.as_str());
        }
        for target in batch.stock.iter().filter(|s| !written_skus.contains(&s.sku.as_str())) {
            let Some(before) = stored.get(&target.sku) else { continue };
            if before.quantity == target.quantity {
                continue;
            }
            entries.push(entry(before.id.as_str(), i64::from(before.quantity), i64::from(target.quantity), "import"));
            quantities.push(QuantityRow {
                table: table(before.details.published).to_owned(),
                id: before.id.0.clone(),
                quantity: i64::from(target.quantity),
            });
            stock_moved.push(before.id.0.clone());
        }
        // Fitment as the fitment editor writes it: the version after the stored one, read here.
        let mut fitments = Vec::new();
        let mut new_fitments = Vec::new();
        let mut fitment_audits: Vec<crate::audit::AuditRow> = Vec::new();
        if !batch.fitment.is_empty() {
            let keys: Vec<String> = batch.fitment.iter().map(|f| f.product.0.clone()).collect();
            let stored_fits: Vec<crate::vehicles::KeyedFitment> = step!(
                tx,
                tx.query(
                    "SELECT record::id(id) AS id, version, generations, fits \
                     FROM $keys.map(|$k| type::record('product_fitment', $k))"
                )
                .bind(("keys", keys))
                .await
                .and_then(|mut r| r.take(0))
            );
            for f in &batch.fitment {
                let before = stored_fits.iter().find(|s| s.id == f.product.0).map(crate::vehicles::FitmentRecord::from);
                let (record, change) = crate::vehicles::fitment_write(&f.product, &f.fits, before.as_ref());
                // A product without a stored fitment record gets one inserted with the others.
                if before.is_some() {
                    fitments.push(record);
                } else {
                    new_fitments.push(record);
                }
                changes.push(change);
                fitment_audits.push(crate::audit::AuditRow::from(&f.audit));
            }
        }
        let writes_catalog = !entries.is_empty()
            || !inserts.is_empty()
            || !rewrites.is_empty()
            || !fitments.is_empty()
            || !new_fitments.is_empty();
        let mut surql = String::new();
        let mut vars: Vars = Vec::new();
        for ((was, is), rows) in rewrites {
            let name = match (was, is) {
                (true, true) => "rewrite_published",
                (false, false) => "rewrite_unpublished",
                (true, false) => "rewrite_unpublishing",
                (false, true) => "rewrite_publishing",
            };
            surql.push_str(&rewrite_products(name, table(was), table(is)));
            vars.push((name, surrealdb::types::Value::from_t(rows)));
        }
        for (name, t) in [("published_rows", "product"), ("unpublished_rows", "unpublished_product")] {
            if let Some(rows) = inserts.remove(t) {
                surql.push_str(&format!("INSERT INTO {t} ${name} RETURN NONE;"));
                vars.push((name, surrealdb::types::Value::from_t(rows)));
            }
        }
        if !quantities.is_empty() {
            surql.push_str(
                "FOR $q IN $quantities { UPDATE type::record($q.table, $q.id) SET quantity = $q.quantity RETURN NONE; };",
            );
            vars.push(("quantities", surrealdb::types::Value::from_t(quantities)));
        }
        if !entries.is_empty() {
            surql.push_str("INSERT INTO stock_entry $entries RETURN NONE;");
            vars.push(("entries", surrealdb::types::Value::from_t(entries)));
        }
        if !fitments.is_empty() {
            surql.push_str(crate::vehicles::WRITE_FITMENTS);
            vars.push(("fitments", surrealdb::types::Value::from_t(fitments)));
        }
        if !new_fitments.is_empty() {
            surql.push_str("INSERT INTO product_fitment $new_fitments RETURN NONE;");
            vars.push(("new_fitments", surrealdb::types::Value::from_t(new_fitments)));
        }
        if !fitment_audits.is_empty() {
            surql.push_str("INSERT INTO audit $fitment_audits RETURN NONE;");
            vars.push(("fitment_audits", surrealdb::types::Value::from_t(fitment_audits)));
        }
        if !stock_moved.is_empty() {
            surql.push_str("CREATE stock_change SET products = $stock_moved, at = time::now() RETURN NONE;");
            vars.push(("stock_moved", surrealdb::types::Value::from_t(stock_moved)));
        }
        let change = merged(changes);
        if !change.is_empty() {
            surql.push_str(RECORD_CHANGE);
            vars.push(("change", CatalogChangeRow::from(&change).into_value()));
        }
        let audit_now = writes_catalog && !job.audited;
        if audit_now {
            surql.push_str(crate::audit::WRITE);
            let (name, row) = crate::audit::bind(&batch.audit);
            vars.push((name, row.into_value()));
        }
        let errors = error_rows(id, &batch.rejected, count(batch.index).saturating_mul(1_000_000));
        if !errors.is_empty() {
            surql.push_str("INSERT INTO import_error $errors RETURN NONE;");
            vars.push(("errors", surrealdb::types::Value::from_t(errors)));
        }
        let tasks: Vec<PhotoTaskRow> = batch.photos.iter().map(PhotoTaskRow::from).collect();
        let photos_total: usize = batch.photos.iter().map(|t| t.sources.len()).sum();
        if !tasks.is_empty() {
            surql.push_str("INSERT INTO import_photo $photo_tasks RETURN NONE;");
            vars.push(("photo_tasks", surrealdb::types::Value::from_t(tasks)));
        }
        vars.push(("photos_total", surrealdb::types::Value::from_t(count(photos_total as u64))));
        let c = batch.counts;
        surql.push_str(
            "UPDATE type::record('import_job', $id) SET rows_read += $c.rows_read, accepted += $c.accepted, \
             rejected += $c.rejected, created += $c.created, updated += $c.updated, unchanged += $c.unchanged, \
             rows_total = $rows_total, batches_done = $batches_done, audited = audited OR $audited, \
             photos_total += $photos_total, \
             state = IF $last THEN 'done' ELSE state END, finished_at = IF $last THEN $now ELSE finished_at END, \
             claimed_by = IF $last THEN NONE ELSE claimed_by END RETURN NONE;",
        );
        let counts = serde_counts(c);
        vars.extend([
            ("id", surrealdb::types::Value::from_t(id.to_owned())),
            ("c", counts),
            ("rows_total", surrealdb::types::Value::from_t(count(batch.rows_total))),
            ("batches_done", surrealdb::types::Value::from_t(count(batch.index + 1))),
            ("audited", surrealdb::types::Value::from_t(audit_now)),
            ("last", surrealdb::types::Value::from_t(batch.last)),
            ("now", surrealdb::types::Value::from_t(now)),
        ]);
        let mut request = tx.query(surql);
        for var in vars {
            request = request.bind(var);
        }
        step!(tx, request.await.and_then(surrealdb::IndexedResults::check));
        settle(tx, Ok(())).await
    }
}

/// One row's photographs as stored (`import_photo`).
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct PhotoTaskRow {
    id: String,
    job: String,
    line: i64,
    col: String,
    sku: String,
    sources: Vec<String>,
    state: String,
    claimed_by: Option<String>,
    claimed_until: i64,
}

impl From<&ImportPhotoTask> for PhotoTaskRow {
    fn from(t: &ImportPhotoTask) -> Self {
        PhotoTaskRow {
            id: t.id.clone(),
            job: t.job.0.clone(),
            line: count(t.line),
            col: t.column.clone(),
            sku: t.sku.clone(),
            sources: t.sources.clone(),
            state: "pending".to_owned(),
            claimed_by: None,
            claimed_until: 0,
        }
    }
}

impl From<PhotoTaskRow> for ImportPhotoTask {
    fn from(r: PhotoTaskRow) -> Self {
        ImportPhotoTask {
            id: r.id,
            job: ImportJobId(r.job),
            line: uncount(r.line),
            column: r.col,
            sku: r.sku,
            sources: r.sources,
        }
    }
}

const TASK_FIELDS: &str = "record::id(id) AS id, job, line, col, sku, sources, state, claimed_by, claimed_until";

/// Where a photograph failure sorts in a job's report: after the row's own refusals.
const PHOTO_REPORT_N: i64 = 1 << 50;

impl SurrealImportJobs {
    async fn try_claim_photos(
        &self,
        worker: &str,
        now: i64,
        until: i64,
    ) -> Attempt<Result<Option<(ImportJob, ImportPhotoTask)>, ImportJobsError>> {
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        // Jobs whose rows are over; their pending rows of photographs, line by line.
        let jobs: Vec<String> = step!(
            tx,
            tx.query("SELECT VALUE record::id(id) FROM import_job WHERE state = 'done' AND photos_total > photos_done + photos_failed ORDER BY created_at, id")
                .await
                .and_then(|mut r| r.take(0))
        );
        for job in jobs {
            let next: Vec<String> = step!(
                tx,
                tx.query(
                    "SELECT VALUE record::id(id) FROM import_photo WHERE state = 'pending' AND job = $job \
                     AND claimed_until < $now ORDER BY line LIMIT 1"
                )
                .bind(("job", job.clone()))
                .bind(("now", now))
                .await
                .and_then(|mut r| r.take(0))
            );
            let Some(task_id) = next.into_iter().next() else { continue };
            let claimed: Vec<PhotoTaskRow> = step!(
                tx,
                tx.query(format!(
                    "UPDATE type::record('import_photo', $tid) SET claimed_by = $worker, claimed_until = $until \
                     WHERE state = 'pending' AND claimed_until < $now; \
                     SELECT {TASK_FIELDS} FROM type::record('import_photo', $tid);"
                ))
                .bind(("tid", task_id.clone()))
                .bind(("worker", worker.to_owned()))
                .bind(("until", until))
                .bind(("now", now))
                .await
                .and_then(|mut r| r.take(1))
            );
            let Some(row) = claimed.into_iter().next().filter(|r| r.claimed_by.as_deref() == Some(worker)) else {
                return settle(tx, Ok(None)).await;
            };
            step!(
                tx,
                tx.query(
                    "UPDATE type::record('import_job', $job) SET photos_started_at = photos_started_at ?? $now \
                     RETURN NONE;"
                )
                .bind(("job", job.clone()))
                .bind(("now", now))
                .await
                .and_then(surrealdb::IndexedResults::check)
            );
            let job_row = step!(tx, read_job(&tx, &job).await);
            let found = match job_row.map(ImportJob::try_from).transpose() {
                Ok(Some(job)) => Some((job, ImportPhotoTask::from(row))),
                Ok(None) => None,
                Err(e) => return settle(tx, Err(e)).await,
            };
            return settle(tx, Ok(found)).await;
        }
        settle(tx, Ok(None)).await
    }

    async fn try_finish_photos(
        &self,
        task: &ImportPhotoTask,
        worker: &str,
        now: i64,
        outcome: &PhotoOutcome,
    ) -> Attempt<Result<(), ImportJobsError>> {
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        let rows: Vec<PhotoTaskRow> = step!(
            tx,
            tx.query(format!("SELECT {TASK_FIELDS} FROM type::record('import_photo', $tid)"))
                .bind(("tid", task.id.clone()))
                .await
                .and_then(|mut r| r.take(0))
        );
        if !rows.first().is_some_and(|r| r.state == "pending" && r.claimed_by.as_deref() == Some(worker)) {
            return settle(tx, Err(not_claimed("the photographs are not pending under this worker's claim"))).await;
        }
        let found: Vec<(String, String)> = {
            #[derive(Debug, Clone, SurrealValue)]
            #[surreal(crate = "surrealdb::types")]
            struct Found {
                tb: String,
                id: String,
            }
            let rows: Vec<Found> = step!(
                tx,
                tx.query(
                    "SELECT record::tb(id) AS tb, record::id(id) AS id FROM product, unpublished_product \
                     WHERE sku = $sku LIMIT 1"
                )
                .bind(("sku", task.sku.clone()))
                .await
                .and_then(|mut r| r.take(0))
            );
            rows.into_iter().map(|f| (f.tb, f.id)).collect()
        };
        let mut done = outcome.images.len();
        let mut failed: Vec<RowError> = outcome.failed.clone();
        let mut surql = String::from(
            "UPDATE type::record('import_photo', $tid) SET state = 'done', claimed_by = NONE RETURN NONE;",
        );
        let mut vars: Vars = vec![("tid", surrealdb::types::Value::from_t(task.id.clone()))];
        match found.first() {
            Some((tb, pid)) if done > 0 => {
                let images: Vec<crate::photos::ImageRow> =
                    outcome.images.iter().map(crate::photos::ImageRow::from).collect();
                surql.push_str(
                    "UPDATE type::record($tb, $pid) SET images = array::slice(array::concat(images, $images), 0, $max) \
                     RETURN NONE;",
                );
                surql.push_str(RECORD_CHANGE);
                let change = CatalogChange::shown(&marque_domain::catalog::ProductId(pid.clone()));
                vars.extend([
                    ("tb", surrealdb::types::Value::from_t(tb.clone())),
                    ("pid", surrealdb::types::Value::from_t(pid.clone())),
                    ("images", surrealdb::types::Value::from_t(images)),
                    ("max", surrealdb::types::Value::from_t(count(marque_domain::catalog::MAX_PRODUCT_PHOTOS as u64))),
                    ("change", CatalogChangeRow::from(&change).into_value()),
                ]);
            }
            Some(_) => {}
            None => {
                for image in &outcome.images {
                    failed.push(RowError::new(task.line, &task.column, &image.name, Message::AdminProductNotFound));
                }
                done = 0;
            }
        }
        let errors = error_rows(&task.job.0, &failed, PHOTO_REPORT_N);
        if !errors.is_empty() {
            surql.push_str("INSERT INTO import_error $errors RETURN NONE;");
            vars.push(("errors", surrealdb::types::Value::from_t(errors)));
        }
        surql.push_str(
            "UPDATE type::record('import_job', $job) SET photos_done += $done, photos_failed += $failed, \
             photos_updated_at = $now RETURN NONE;",
        );
        vars.extend([
            ("job", surrealdb::types::Value::from_t(task.job.0.clone())),
            ("done", surrealdb::types::Value::from_t(count(done as u64))),
            ("failed", surrealdb::types::Value::from_t(count(task.sources.len().saturating_sub(done) as u64))),
            ("now", surrealdb::types::Value::from_t(now)),
        ]);
        let mut request = tx.query(surql);
        for var in vars {
            request = request.bind(var);
        }
        step!(tx, request.await.and_then(surrealdb::IndexedResults::check));
        settle(tx, Ok(())).await
    }
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct CountsRow {
    rows_read: i64,
    accepted: i64,
    rejected: i64,
    created: i64,
    updated: i64,
    unchanged: i64,
}

fn serde_counts(c: ImportCounts) -> surrealdb::types::Value {
    CountsRow {
        rows_read: count(c.rows_read),
        accepted: count(c.accepted),
        rejected: count(c.rejected),
        created: count(c.created),
        updated: count(c.updated),
        unchanged: count(c.unchanged),
    }
    .into_value()
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct ReportRow {
    line: i64,
    col: String,
    val: String,
    code: String,
}

#[async_trait]
impl ImportJobs for SurrealImportJobs {
    async fn create(&self, job: &ImportJob) -> Result<(), ImportJobsError> {
        self.db
            .query("INSERT INTO import_job $row RETURN NONE;")
            .bind(("row", JobRow::from(job)))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map(|_| ())
            .map_err(|e| unavailable(&e))
    }

    async fn job(&self, id: &ImportJobId) -> Result<Option<ImportJob>, ImportJobsError> {
        self.one_job(&id.0).await
    }

    async fn claim(&self, worker: &str, now: i64, until: i64) -> Result<Option<ImportJob>, ImportJobsError> {
        until_settled(|| self.try_claim(worker, now, until), |e| Err(unavailable(e))).await
    }

    async fn renew(&self, id: &ImportJobId, worker: &str, until: i64) -> Result<(), ImportJobsError> {
        let vars: Vars = vec![
            ("id", surrealdb::types::Value::from_t(id.0.clone())),
            ("worker", surrealdb::types::Value::from_t(worker.to_owned())),
            ("until", surrealdb::types::Value::from_t(until)),
        ];
        let renewed = self
            .conditional(
                "UPDATE type::record('import_job', $id) SET claimed_until = $until \
                 WHERE state = 'running' AND claimed_by = $worker RETURN VALUE record::id(id);",
                vars,
            )
            .await?;
        self.claimed_outcome(renewed, id).await
    }

    async fn write_batch(
        &self,
        id: &ImportJobId,
        worker: &str,
        now: i64,
        batch: &ImportBatch,
    ) -> Result<(), ImportJobsError> {
        until_settled(|| self.try_write(&id.0, worker, now, batch), |e| Err(unavailable(e))).await
    }

    async fn fail(&self, id: &ImportJobId, worker: &str, now: i64, reason: &str) -> Result<(), ImportJobsError> {
        let vars: Vars = vec![
            ("id", surrealdb::types::Value::from_t(id.0.clone())),
            ("worker", surrealdb::types::Value::from_t(worker.to_owned())),
            ("now", surrealdb::types::Value::from_t(now)),
            ("reason", surrealdb::types::Value::from_t(reason.to_owned())),
        ];
        let failed = self
            .conditional(
                "UPDATE type::record('import_job', $id) SET state = 'failed', failure = $reason, finished_at = $now, \
                 claimed_by = NONE WHERE state = 'running' AND claimed_by = $worker RETURN VALUE record::id(id);",
                vars,
            )
            .await?;
        self.claimed_outcome(failed, id).await
    }

    async fn cancel(&self, id: &ImportJobId, now: i64) -> Result<ImportJob, ImportJobsError> {
        let vars: Vars =
            vec![("id", surrealdb::types::Value::from_t(id.0.clone())), ("now", surrealdb::types::Value::from_t(now))];
        self.conditional(
            "UPDATE type::record('import_job', $id) SET state = 'cancelled', finished_at = $now, claimed_by = NONE \
             WHERE state IN ['queued', 'running'] RETURN VALUE record::id(id);",
            vars,
        )
        .await?;
        // Photographs not taken up stay as they are: the job's total becomes what was done.
        self.db
            .query(
                "BEGIN; UPDATE import_photo SET state = 'cancelled' WHERE job = $id AND state = 'pending' RETURN NONE; \
                 UPDATE type::record('import_job', $id) SET photos_total = photos_done + photos_failed \
                 WHERE photos_total > photos_done + photos_failed RETURN NONE; COMMIT;",
            )
            .bind(("id", id.0.clone()))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map_err(|e| unavailable(&e))?;
        self.one_job(&id.0).await?.ok_or_else(|| ImportJobsError::NotFound { id: id.0.clone() })
    }

    async fn rejected(&self, id: &ImportJobId) -> Result<Vec<RowError>, ImportJobsError> {
        let surql = "SELECT line, n, col, val, code FROM import_error WHERE job = $job ORDER BY line, n".to_owned();
        let rows: Vec<ReportRow> = self.select(surql, ("job", surrealdb::types::Value::from_t(id.0.clone()))).await?;
        Ok(rows
            .into_iter()
            .map(|r| RowError {
                line: uncount(r.line),
                column: r.col,
                value: r.val,
                message: Message::from_code(&r.code).unwrap_or(Message::SomethingWentWrong),
            })
            .collect())
    }

    async fn claim_photos(
        &self,
        worker: &str,
        now: i64,
        until: i64,
    ) -> Result<Option<(ImportJob, ImportPhotoTask)>, ImportJobsError> {
        until_settled(|| self.try_claim_photos(worker, now, until), |e| Err(unavailable(e))).await
    }

    async fn finish_photos(
        &self,
        task: &ImportPhotoTask,
        worker: &str,
        now: i64,
        outcome: &PhotoOutcome,
    ) -> Result<(), ImportJobsError> {
        until_settled(|| self.try_finish_photos(task, worker, now, outcome), |e| Err(unavailable(e))).await
    }

    async fn products_by_sku(&self, skus: &[String]) -> Result<Vec<Product>, ImportJobsError> {
        // A batch's lookups in two halves, the second on a task of its own: each query runs on the
        // task that awaits it, and the lookups are CPU work, so two cores take them at once.
        let half = skus.len().div_ceil(2);
        let (first, second) = skus.split_at(half);
        let second = (!second.is_empty()).then(|| {
            let (jobs, second) = (self.clone(), second.to_vec());
            tokio::spawn(async move { jobs.lookup(second).await })
        });
        let mut rows = self.lookup(first.to_vec()).await?;
        if let Some(task) = second {
            let more = task.await.map_err(|e| ImportJobsError::Unavailable { reason: e.to_string() })??;
            rows.extend(more);
        }
        rows::products(rows).map_err(|e| ImportJobsError::Unavailable { reason: e.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::{SKUS_PER_LOOKUP, SKU_LOOKUP};

    /// A batch's SKUs are looked up [`SKUS_PER_LOOKUP`] at a time through the unique `sku` index of
    /// each table, never by a scan of the catalog (which SurrealDB plans past 32 values in one `IN`).
    #[tokio::test]
    async fn sku_lookups_go_through_the_unique_indexes() {
        let db = crate::Database::connect("mem://").await.expect("open mem://");
        let skus: Vec<String> = (0..SKUS_PER_LOOKUP).map(|n| format!("SKU-{n}")).collect();
        let jobs = db.import_jobs();
        let mut response =
            jobs.inner().db.query(format!("{SKU_LOOKUP} EXPLAIN")).bind(("c", skus)).await.expect("explain runs");
        let plan: surrealdb::types::Value = response.take(0).expect("a plan");
        let plan = plan.into_json_value().to_string();
        assert!(!plan.contains("TableScan"), "{plan}");
        for index in ["\"product_sku\"", "\"unpublished_product_sku\""] {
            assert_eq!(plan.matches(index).count(), SKUS_PER_LOOKUP, "one lookup a SKU through {index}: {plan}");
        }
    }
}
