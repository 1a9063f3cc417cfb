//! Catalog import jobs: a job is a row with its state, its counters and the last batch done, so
//! that it survives a restart; an instance claims it with a conditional update and whichever claims
//! it resumes from the batch after the last one written. Each batch is written in one transaction:
//! the products it creates or changes (keyed by SKU), their `import` stock entries, the job's
//! audit entry (once, with the first batch), the rows it refused and the job's new counters.

use async_trait::async_trait;
use marque_domain::catalog::import::RowError;
use marque_domain::catalog::{Product, ProductId};
use marque_domain::vehicle::ProductFit;

use crate::AuditEntry;

/// Identifier of an import job (`i` and 16 hexadecimal digits).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ImportJobId(pub String);

impl std::fmt::Display for ImportJobId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether a job only checks the rows or also writes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImportMode {
    /// Every row checked and reported; nothing of the catalog written.
    DryRun,
    /// The rows that pass written, in batches, each all or nothing.
    Apply,
}

impl ImportMode {
    /// `dry-run` or `apply`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            ImportMode::DryRun => "dry-run",
            ImportMode::Apply => "apply",
        }
    }

    #[must_use]
    pub fn parse(code: &str) -> Option<Self> {
        match code {
            "dry-run" => Some(ImportMode::DryRun),
            "apply" => Some(ImportMode::Apply),
            _ => None,
        }
    }
}

/// Where a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImportState {
    Queued,
    Running,
    Done,
    Failed,
    Cancelled,
}

impl ImportState {
    /// `queued`, `running`, `done`, `failed` or `cancelled`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            ImportState::Queued => "queued",
            ImportState::Running => "running",
            ImportState::Done => "done",
            ImportState::Failed => "failed",
            ImportState::Cancelled => "cancelled",
        }
    }

    #[must_use]
    pub fn parse(code: &str) -> Option<Self> {
        [ImportState::Queued, ImportState::Running, ImportState::Done, ImportState::Failed, ImportState::Cancelled]
            .into_iter()
            .find(|s| s.code() == code)
    }

    /// Done, failed or cancelled: nothing more happens to the job.
    #[must_use]
    pub const fn is_over(self) -> bool {
        matches!(self, ImportState::Done | ImportState::Failed | ImportState::Cancelled)
    }
}

/// A job's counters. `rows_read = accepted + rejected`; `accepted = created + updated + unchanged`
/// (a dry run counts what applying would do).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImportCounts {
    pub rows_read: u64,
    pub accepted: u64,
    pub rejected: u64,
    pub created: u64,
    pub updated: u64,
    pub unchanged: u64,
}

impl ImportCounts {
    /// These counts and `other`'s, added.
    #[must_use]
    pub fn plus(self, other: ImportCounts) -> ImportCounts {
        ImportCounts {
            rows_read: self.rows_read + other.rows_read,
            accepted: self.accepted + other.accepted,
            rejected: self.rejected + other.rejected,
            created: self.created + other.created,
            updated: self.updated + other.updated,
            unchanged: self.unchanged + other.unchanged,
        }
    }
}

/// A job's photographs (processed after its rows, by the photograph worker): how many its rows
/// list (apply only), how many were attached and how many failed (each failure in `errors.csv`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PhotoCounts {
    pub total: u64,
    pub done: u64,
    pub failed: u64,
}

impl PhotoCounts {
    /// Photographs not yet attached or failed.
    #[must_use]
    pub const fn pending(self) -> u64 {
        self.total.saturating_sub(self.done + self.failed)
    }
}

/// One row's photographs, kept with the batch that read the row and attached after the rows,
/// in the order listed: a file name in the job's zip or an address to fetch, each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportPhotoTask {
    /// `{job}-{line}`: unique in the store.
    pub id: String,
    pub job: ImportJobId,
    /// The row's line, for reports.
    pub line: u64,
    /// The `photos` column as the header spells it.
    pub column: String,
    /// The product, by SKU.
    pub sku: String,
    /// The entries, in order (see `marque_domain::catalog::import::photos::PhotoSource::stored`).
    pub sources: Vec<String>,
}

/// An import job as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportJob {
    pub id: ImportJobId,
    pub mode: ImportMode,
    /// Unknown category, subcategory and brand slugs are created (named after the slug, audited)
    /// rather than refused.
    pub create_missing: bool,
    pub state: ImportState,
    /// The file's name as uploaded (for the audit trail and the report).
    pub file_name: String,
    /// Where the file is kept ([`crate::BlobStore`] key) until the job is over.
    pub file_key: String,
    /// The file's size in bytes.
    pub file_bytes: u64,
    /// [`crate::Actor::key`] of who started it, and what a person reads for them.
    pub actor: String,
    pub actor_label: String,
    pub counts: ImportCounts,
    /// Rows in the file (its header aside), once a worker counted them; 0 before.
    pub rows_total: u64,
    /// Batches written so far; the next batch to write is this number (0-based).
    pub batches_done: u64,
    /// The instance working on it while `running`, and until when its claim holds (seconds since
    /// the Unix epoch); a claim that lapsed (an instance that stopped) may be taken by another.
    pub claimed_by: Option<String>,
    pub claimed_until: i64,
    /// When it was created, started (first claimed) and ended, seconds since the Unix epoch.
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    /// Why a failed job failed (a file-level refusal's message code, or the store's trouble).
    pub failure: Option<String>,
    /// Where the zip of photographs uploaded with the file is kept ([`crate::BlobStore`] key), if any.
    pub photos_key: Option<String>,
    /// The photographs' counters, and when the first was taken up and the last finished.
    pub photos: PhotoCounts,
    pub photos_started_at: Option<i64>,
    pub photos_updated_at: Option<i64>,
}

/// The stock a row gives for a product: the ledger gets an `import` entry of the difference from
/// the quantity at the moment of writing (none when equal).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StockTarget {
    pub sku: String,
    pub quantity: u32,
}

/// A product's fitment as an import row gives it (its `fits` column): written whole, as the
/// back office's fitment editor writes it (`VehicleStore::set_fitment`, on whatever version is
/// stored), with its `product.fitment` audit entry naming the job.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportFitment {
    /// A product of the batch (created or stored).
    pub product: ProductId,
    pub fits: Vec<ProductFit>,
    pub audit: AuditEntry,
}

/// One batch of a job, as the use case computed it.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportBatch {
    /// Which batch (0-based): written only when the job's `batches_done` equals it.
    pub index: u64,
    /// Products to create (new SKUs), each with its opening stock as `quantity`.
    pub created: Vec<Product>,
    /// Products whose editable fields change (as `CatalogEditor::update_product` writes them), by id.
    pub updated: Vec<Product>,
    /// Stock on hand for known SKUs whose quantity the row changes.
    pub stock: Vec<StockTarget>,
    /// Fitment the rows replace (after the products are written).
    pub fitment: Vec<ImportFitment>,
    /// The rows refused, for the report.
    pub rejected: Vec<RowError>,
    /// What this batch adds to the job's counters.
    pub counts: ImportCounts,
    /// Rows in the whole file (its header aside), stored on the job.
    pub rows_total: u64,
    /// The job's audit entry (`import.apply`, subject `import:<id>`): stored with the first batch
    /// that writes to the catalog, and only once per job.
    pub audit: AuditEntry,
    /// Whether this is the job's last batch (the job ends `done` with it).
    pub last: bool,
    /// The photographs of its rows that pass (apply only), queued for the photograph worker.
    pub photos: Vec<ImportPhotoTask>,
}

/// What the photograph worker made of one row's photographs: the pictures to append to the
/// product (in order) and the entries that failed, for the report.
#[derive(Debug, Clone, PartialEq)]
pub struct PhotoOutcome {
    pub images: Vec<marque_domain::catalog::ProductImage>,
    pub failed: Vec<RowError>,
}

/// Why an import job call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportJobsError {
    /// No job has this id.
    #[error("no import job `{id}`")]
    NotFound { id: String },
    /// The job is not this instance's to write: another claimed it, it is over (cancelled
    /// included), or the batch is not the next one (written already).
    #[error("the import job is not ours to write: {reason}")]
    NotClaimed { reason: String },
    /// A product to create has a SKU another product has (nothing of the batch written).
    #[error("another product has the SKU `{sku}`")]
    DuplicateSku { sku: String },
    /// The store could not be reached or failed; the caller may retry later.
    #[error("the import store is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// The import jobs' store.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait ImportJobs: Send + Sync {
    /// Stores a new job (state `queued`, no claim, counters zero).
    ///
    /// # Errors
    /// [`ImportJobsError::Unavailable`].
    async fn create(&self, job: &ImportJob) -> Result<(), ImportJobsError>;

    /// The job with this id.
    ///
    /// # Errors
    /// [`ImportJobsError::Unavailable`].
    async fn job(&self, id: &ImportJobId) -> Result<Option<ImportJob>, ImportJobsError>;

    /// Claims one job for `worker` until `until`: a `queued` job, or a `running` one whose claim
    /// lapsed before `now` (its instance stopped), oldest first; the job is `running`, claimed by
    /// `worker`, `started_at` set on the first claim. By a conditional update: of instances
    /// claiming at once, one gets each job. `None` when there is none to claim.
    ///
    /// # Errors
    /// [`ImportJobsError::Unavailable`].
    async fn claim(&self, worker: &str, now: i64, until: i64) -> Result<Option<ImportJob>, ImportJobsError>;

    /// Extends `worker`'s claim on a running job to `until`.
    ///
    /// # Errors
    /// [`ImportJobsError::NotClaimed`] when the job is not running under `worker`'s claim
    /// (cancelled, taken over); [`ImportJobsError::NotFound`]; [`ImportJobsError::Unavailable`].
    async fn renew(&self, id: &ImportJobId, worker: &str, until: i64) -> Result<(), ImportJobsError>;

    /// Writes `batch` in one transaction: the products created (with their opening `stock_entry`,
    /// reason `opening`), the products updated, an `import` stock entry for each target that
    /// differs from the product's quantity (delta from the quantity at that moment), each fitment
    /// (as `VehicleStore::set_fitment` writes it: the next version, its audit entry, the catalog
    /// change naming the generations before and after), the audit
    /// entry when the job has none yet and the batch writes to the catalog, the rejected rows, the
    /// counters added, `rows_total`, `batches_done` = `index + 1`, and `done` with `finished_at` = `now` when
    /// `batch.last`. Moves the catalog's version when it writes to the catalog.
    ///
    /// # Errors
    /// [`ImportJobsError::NotClaimed`] unless the job is `running`, claimed by `worker` and its
    /// `batches_done` is `batch.index` (so a batch is never written twice, nor after a cancel);
    /// [`ImportJobsError::DuplicateSku`]; [`ImportJobsError::NotFound`]; [`ImportJobsError::Unavailable`].
    /// Nothing is written on any error.
    async fn write_batch(
        &self,
        id: &ImportJobId,
        worker: &str,
        now: i64,
        batch: &ImportBatch,
    ) -> Result<(), ImportJobsError>;

    /// Ends a job `failed` with `reason` (a message code), keeping what earlier batches wrote.
    ///
    /// # Errors
    /// [`ImportJobsError::NotClaimed`] unless running under `worker`'s claim; `NotFound`; `Unavailable`.
    async fn fail(&self, id: &ImportJobId, worker: &str, now: i64, reason: &str) -> Result<(), ImportJobsError>;

    /// Cancels a `queued` or `running` job (batches written stay written); returns the job as it is
    /// after. A job already over is returned unchanged.
    ///
    /// # Errors
    /// [`ImportJobsError::NotFound`], [`ImportJobsError::Unavailable`].
    async fn cancel(&self, id: &ImportJobId, now: i64) -> Result<ImportJob, ImportJobsError>;

    /// The job's rejected rows (its header's reports included), by line.
    ///
    /// # Errors
    /// [`ImportJobsError::Unavailable`].
    async fn rejected(&self, id: &ImportJobId) -> Result<Vec<RowError>, ImportJobsError>;

    /// Claims one row's photographs for `worker` until `until`: a pending task (or one whose claim
    /// lapsed before `now`) of a job whose rows are over (`done`), oldest job first, line by line;
    /// sets the job's `photos_started_at` on its first. `None` when there is none.
    ///
    /// # Errors
    /// [`ImportJobsError::Unavailable`].
    async fn claim_photos(
        &self,
        worker: &str,
        now: i64,
        until: i64,
    ) -> Result<Option<(ImportJob, ImportPhotoTask)>, ImportJobsError>;

    /// Ends a task claimed by `worker`, in one transaction: `outcome.images` appended to the
    /// product of its SKU (at most `MAX_PRODUCT_PHOTOS` in all; a catalog change so caches follow),
    /// its failures added to the job's report, the job's photograph counters moved. No audit
    /// entry of its own: the job's one entry covers its photographs.
    ///
    /// # Errors
    /// [`ImportJobsError::NotClaimed`] unless the task is pending under `worker`'s claim (taken
    /// over, cancelled, or done already); [`ImportJobsError::Unavailable`]. Nothing is written on
    /// any error.
    async fn finish_photos(
        &self,
        task: &ImportPhotoTask,
        worker: &str,
        now: i64,
        outcome: &PhotoOutcome,
    ) -> Result<(), ImportJobsError>;

    /// The stored products (published or not) with these SKUs (upper-case), keyed by their SKU.
    ///
    /// # Errors
    /// [`ImportJobsError::Unavailable`].
    async fn products_by_sku(&self, skus: &[String]) -> Result<Vec<Product>, ImportJobsError>;
}
