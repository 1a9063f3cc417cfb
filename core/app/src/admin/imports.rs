//! Catalog imports (issue 23): a staff member uploads a CSV file in `dry-run` or `apply` mode; the
//! file is kept and a job queued; a worker (any instance) claims the job and goes through the file
//! in batches of [`BATCH_ROWS`] rows, each batch written in one transaction with the job's new
//! counters, so a restart resumes from the batch after the last one written. Rows are read with the
//! domain's rules (`marque_domain::catalog::import`), keyed by SKU; a dry run writes only the
//! job's counters and report.
//!
//! With `createMissing`, a category, subcategory or brand slug the shop lacks is created when a
//! row that otherwise passes needs it (named after the slug, one audit entry each, in the job's
//! actor's name; a dry run only counts on it). A `delete` cell of true unpublishes the row's product.
//!
//! A `fits` cell replaces the product's fitment as the back office's fitment editor does: each row
//! named against the vehicle table ([`ImportService::with_vehicles`]; a vehicle or generation the
//! table lacks refuses the row, `vehicle.unknown`), written in the row's batch with a
//! `product.fitment` audit entry naming the job.
//!
//! Photographs: a zip uploaded with the file (checked whole at upload: no name leaving its
//! folder, no zip bomb; kept in the blob store, streamed) and a `photos` column listing, per row,
//! file names in the zip and `https` addresses. The rows' batches check each name and address and
//! queue a row's photographs (apply only, and only for a product that has none yet, so importing
//! a file again adds nothing); once the rows are over, the photograph worker
//! ([`ImportService::photos_next`]) takes them row by row through the product photographs'
//! pipeline and attaches them in the order listed, reporting each failure in `errors.csv`.

pub mod archive;
pub mod export;
pub mod file;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use marque_domain::catalog::editor::{self, ProductPatch};
use marque_domain::catalog::import::photos::PhotoSource;
use marque_domain::catalog::import::{Column, ImportHeader, ImportRow, RowChange, RowError};
use marque_domain::catalog::{Category, OemBrand, Product, ProductId, Subcategory};
use marque_domain::staff::{Area, Forbidden, Staff, StaffId};
use marque_domain::vehicle::{FitmentRow, GenerationId, ProductFit, Vehicle};
use marque_domain::Message;
use marque_domain::UserFacing as _;
use marque_ports::{
    Actor, AuditEntry, BlobStore, CatalogEditor, CatalogEditorError, CatalogStore, CatalogStoreError, Clock,
    ImportBatch, ImportCounts, ImportFitment, ImportJob, ImportJobId, ImportJobs, ImportJobsError, ImportMode,
    ImportPhotoTask, ImportState, PhotoCounts, PhotoFetchError, PhotoFetcher, PhotoOutcome, StockTarget, VehicleStore,
};

use super::photos::PhotosService;

use file::Record;

/// Rows a batch holds (its rows are written all or nothing).
pub const BATCH_ROWS: usize = 1_000;
/// Largest CSV file an import takes.
pub const FILE_MAX_BYTES: usize = 100 * 1024 * 1024;
/// How long a worker's claim on a job holds without being renewed (it is renewed every batch).
pub const CLAIM_SECONDS: i64 = 120;

/// Why an import call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// The staff member's role does not cover imports.
    #[error(transparent)]
    Forbidden(#[from] Forbidden),
    /// The file is refused whole (400), with its message.
    #[error("refused: {}", .0.code())]
    Invalid(Message),
    /// The file is above [`FILE_MAX_BYTES`] (413).
    #[error("the file is too large")]
    TooLarge,
    /// No job has this id.
    #[error("no such import")]
    NotFound,
    /// A store could not be reached.
    #[error("imports are unavailable: {0}")]
    Unavailable(String),
}

impl ImportError {
    /// The message a staff member reads.
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            ImportError::Forbidden(f) => f.message(),
            ImportError::Invalid(m) => *m,
            ImportError::TooLarge => Message::ImportFileTooLarge,
            ImportError::NotFound => Message::ImportNotFound,
            ImportError::Unavailable(_) => Message::ImportUnavailable,
        }
    }
}

impl From<ImportJobsError> for ImportError {
    fn from(e: ImportJobsError) -> Self {
        match e {
            ImportJobsError::NotFound { .. } => ImportError::NotFound,
            other => ImportError::Unavailable(other.to_string()),
        }
    }
}

impl From<CatalogStoreError> for ImportError {
    fn from(e: CatalogStoreError) -> Self {
        ImportError::Unavailable(e.to_string())
    }
}

/// A file a staff member uploads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewImport {
    pub file_name: String,
    pub bytes: Vec<u8>,
    pub mode: ImportMode,
    /// Create unknown category, subcategory and brand slugs instead of refusing their rows.
    pub create_missing: bool,
    /// A zip of photographs, as a file on disk (the caller's temporary file, read as it is kept).
    pub photos: Option<std::path::PathBuf>,
}

/// What photographs need: the product photographs' pipeline and the fetcher of addresses.
#[derive(Clone)]
struct PhotoWork {
    photos: PhotosService,
    fetcher: Arc<dyn PhotoFetcher>,
    /// The zip of the job last worked, on disk.
    zip: Arc<tokio::sync::Mutex<Option<ZipCopy>>>,
}

/// A job's zip copied from the blob store: (the job, its temporary file).
type ZipCopy = (ImportJobId, Arc<tempfile::TempPath>);

/// The import use cases, and the worker's.
#[derive(Clone)]
pub struct ImportService {
    jobs: Arc<dyn ImportJobs>,
    blobs: Arc<dyn BlobStore>,
    catalog: Arc<dyn CatalogStore>,
    /// Creates the categories and brands a `createMissing` job lacks.
    editor: Arc<dyn CatalogEditor>,
    clock: Arc<dyn Clock>,
    /// This instance's name in claims.
    worker: String,
    /// Rows a batch holds: [`BATCH_ROWS`], every instance alike (a job resumes by counting them).
    batch_rows: usize,
    /// The vehicle table the `fits` column is named against (none: every `fits` cell is refused).
    vehicles: Option<Arc<dyn VehicleStore>>,
    /// Photographs' pipeline and fetcher; without them a `photos` column's rows are refused.
    photo_work: Option<PhotoWork>,
}

impl std::fmt::Debug for ImportService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImportService").field("worker", &self.worker).finish_non_exhaustive()
    }
}

/// A fresh identifier: `prefix` and 16 random hex digits.
fn new_id(prefix: &str) -> Result<String, ImportError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| ImportError::Unavailable(format!("no randomness: {e}")))?;
    Ok(format!("{prefix}{}", hex::encode(bytes)))
}

impl ImportService {
    #[must_use]
    pub fn new(
        jobs: Arc<dyn ImportJobs>,
        blobs: Arc<dyn BlobStore>,
        catalog: Arc<dyn CatalogStore>,
        editor: Arc<dyn CatalogEditor>,
        clock: Arc<dyn Clock>,
        worker: String,
    ) -> Self {
        Self { jobs, blobs, catalog, editor, clock, worker, batch_rows: BATCH_ROWS, vehicles: None, photo_work: None }
    }

    /// The same service naming the `fits` column's rows against `vehicles`.
    #[must_use]
    pub fn with_vehicles(mut self, vehicles: Arc<dyn VehicleStore>) -> Self {
        self.vehicles = Some(vehicles);
        self
    }

    /// The same service taking photographs: attached with `photos`' pipeline, addresses fetched
    /// by `fetcher`.
    #[must_use]
    pub fn with_photos(mut self, photos: PhotosService, fetcher: Arc<dyn PhotoFetcher>) -> Self {
        self.photo_work = Some(PhotoWork { photos, fetcher, zip: Arc::new(tokio::sync::Mutex::new(None)) });
        self
    }

    /// The same service with batches of `rows` rows (at least 1), for tests that go through many
    /// batches on few rows. Every instance working a job must use the same size.
    #[must_use]
    pub fn with_batch_rows(mut self, rows: usize) -> Self {
        self.batch_rows = rows.max(1);
        self
    }

    /// Checks the file's header, keeps the file and queues its job.
    ///
    /// # Errors
    /// [`ImportError::Forbidden`] without [`Area::Imports`]; [`ImportError::TooLarge`];
    /// [`ImportError::Invalid`] for a file refused whole (empty, not UTF-8 text, header only, a
    /// header without `sku`, …); [`ImportError::Unavailable`].
    pub async fn start(&self, staff: &Staff, upload: NewImport) -> Result<ImportJob, ImportError> {
        staff.require(Area::Imports)?;
        self.start_as(&Actor::staff(staff), upload).await
    }

    /// [`ImportService::start`] for the shop's own command line (`marque-server import-csv`): the
    /// operator who runs it on the shop's machine already holds the database, so no staff role is
    /// asked; the job and its audit entry name `actor` (`system:cli`).
    ///
    /// # Errors
    /// As [`ImportService::start`], `Forbidden` aside.
    pub async fn start_as(&self, actor: &Actor, upload: NewImport) -> Result<ImportJob, ImportError> {
        if upload.bytes.len() > FILE_MAX_BYTES {
            return Err(ImportError::TooLarge);
        }
        file::header(&upload.bytes).map_err(ImportError::Invalid)?;
        let id = ImportJobId(new_id("i")?);
        let photos_key = match &upload.photos {
            None => None,
            Some(path) => {
                let size = std::fs::metadata(path).map_err(|e| ImportError::Unavailable(e.to_string()))?.len();
                if size > archive::ZIP_MAX_BYTES {
                    return Err(ImportError::Invalid(Message::ImportZipTooLarge));
                }
                let checked = path.clone();
                tokio::task::spawn_blocking(move || archive::inspect(&checked))
                    .await
                    .map_err(|e| ImportError::Unavailable(e.to_string()))?
                    .map_err(ImportError::Invalid)?;
                let key = format!("imports/{id}.zip");
                self.blobs.put_file(&key, path).await.map_err(|e| ImportError::Unavailable(e.to_string()))?;
                Some(key)
            }
        };
        let file_key = format!("imports/{id}.csv");
        let file_bytes = upload.bytes.len() as u64;
        self.blobs.put(&file_key, upload.bytes).await.map_err(|e| ImportError::Unavailable(e.to_string()))?;
        let job = ImportJob {
            id,
            mode: upload.mode,
            create_missing: upload.create_missing,
            state: ImportState::Queued,
            file_name: upload.file_name.chars().take(200).collect(),
            file_key,
            file_bytes,
            actor: actor.key(),
            actor_label: actor.label(),
            counts: ImportCounts::default(),
            rows_total: 0,
            batches_done: 0,
            claimed_by: None,
            claimed_until: 0,
            created_at: self.clock.now(),
            started_at: None,
            finished_at: None,
            failure: None,
            photos_key,
            photos: PhotoCounts::default(),
            photos_started_at: None,
            photos_updated_at: None,
        };
        self.jobs.create(&job).await?;
        Ok(job)
    }

    /// A job as it stands, for the command line that started it (no staff role asked).
    ///
    /// # Errors
    /// `NotFound`, `Unavailable`.
    pub async fn job_as_operator(&self, id: &ImportJobId) -> Result<ImportJob, ImportError> {
        self.jobs.job(id).await?.ok_or(ImportError::NotFound)
    }

    /// The job's refused rows as CSV, for the command line that started it.
    ///
    /// # Errors
    /// `Unavailable`.
    pub async fn errors_csv_as_operator(&self, id: &ImportJobId) -> Result<Vec<u8>, ImportError> {
        Ok(file::errors_csv(&self.jobs.rejected(id).await?))
    }

    /// A job as it stands.
    ///
    /// # Errors
    /// `Forbidden`, `NotFound`, `Unavailable`.
    pub async fn job(&self, staff: &Staff, id: &ImportJobId) -> Result<ImportJob, ImportError> {
        staff.require(Area::Imports)?;
        self.jobs.job(id).await?.ok_or(ImportError::NotFound)
    }

    /// The job's refused rows as CSV (`line,column,value,code,message`).
    ///
    /// # Errors
    /// `Forbidden`, `NotFound`, `Unavailable`.
    pub async fn errors_csv(&self, staff: &Staff, id: &ImportJobId) -> Result<Vec<u8>, ImportError> {
        self.job(staff, id).await?;
        Ok(file::errors_csv(&self.jobs.rejected(id).await?))
    }

    /// Cancels a queued or running job: batches written stay written, no further one is.
    ///
    /// # Errors
    /// `Forbidden`, `NotFound`, `Unavailable`.
    pub async fn cancel(&self, staff: &Staff, id: &ImportJobId) -> Result<ImportJob, ImportError> {
        staff.require(Area::Imports)?;
        Ok(self.jobs.cancel(id, self.clock.now()).await?)
    }

    /// The worker's turn: claims a queued job (or one whose worker stopped) and takes it to its end,
    /// a cancel or a failure; returns its id, `None` when there was nothing to do.
    ///
    /// # Errors
    /// [`ImportError::Unavailable`] when a store failed (the claim lapses and a later turn resumes).
    pub async fn run_next(&self) -> Result<Option<ImportJobId>, ImportError> {
        let now = self.clock.now();
        let Some(job) = self.jobs.claim(&self.worker, now, now + CLAIM_SECONDS).await? else { return Ok(None) };
        self.run(&job).await?;
        Ok(Some(job.id))
    }

    async fn fail(&self, job: &ImportJob, reason: Message) -> Result<(), ImportError> {
        match self.jobs.fail(&job.id, &self.worker, self.clock.now(), reason.code()).await {
            Ok(()) | Err(ImportJobsError::NotClaimed { .. }) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    async fn run(&self, job: &ImportJob) -> Result<(), ImportError> {
        let blob = self.blobs.get(&job.file_key).await.map_err(|e| ImportError::Unavailable(e.to_string()))?;
        let Some(bytes) = blob else { return self.fail(job, Message::ImportFileGone).await };
        let (header, header_reports) = match file::header(&bytes) {
            Ok((h, reports)) => (h.with_this_year(this_year(self.clock.now())), reports),
            Err(m) => return self.fail(job, m).await,
        };
        let plan = Plan::of(&bytes, &header);
        let zip_names = match (&job.photos_key, header.has(Column::Photos)) {
            (Some(key), true) => match self.zip_names(key).await? {
                Some(names) => Some(names),
                None => return self.fail(job, Message::ImportFileGone).await,
            },
            _ => None,
        };
        let photos =
            RowPhotos { names: zip_names.as_ref(), column: header.name_of(Column::Photos).unwrap_or("photos") };
        let mut places = self.places().await?;
        let mut records = Records::of(&bytes).peekable();
        let skipped = usize::try_from(job.batches_done).unwrap_or(usize::MAX).saturating_mul(self.batch_rows);
        for _ in 0..skipped {
            records.next();
        }
        // Batch n+1 is read and compared while batch n is written: the rows of one SKU are refused
        // when the file repeats it (`Plan::repeated`), so no batch reads what the one before writes,
        // and the write's transaction reads its products again anyway.
        let mut index = job.batches_done;
        let mut next = match records.peek() {
            None => None,
            Some(_) => {
                let chunk: Vec<Record> = records.by_ref().take(self.batch_rows).collect();
                let reports = if index == 0 { header_reports.clone() } else { Vec::new() };
                Some(self.batch(job, &header, (&plan, &photos), &mut places, chunk, reports).await?)
            }
        };
        while let Some(mut batch) = next.take() {
            let now = self.clock.now();
            match self.jobs.renew(&job.id, &self.worker, now + CLAIM_SECONDS).await {
                Err(ImportJobsError::NotClaimed { .. }) => return Ok(()),
                other => other?,
            }
            batch.index = index;
            batch.last = records.peek().is_none();
            let chunk: Option<Vec<Record>> = (!batch.last).then(|| records.by_ref().take(self.batch_rows).collect());
            let started = std::time::Instant::now();
            // On a task of its own, so that the two run on two cores where there are two.
            let write = tokio::spawn({
                let (jobs, id, worker) = (Arc::clone(&self.jobs), job.id.clone(), self.worker.clone());
                async move {
                    let outcome = jobs.write_batch(&id, &worker, now, &batch).await;
                    (outcome, started.elapsed())
                }
            });
            let read = async {
                match chunk {
                    Some(chunk) => {
                        let read = self.batch(job, &header, (&plan, &photos), &mut places, chunk, Vec::new()).await;
                        Some((read, started.elapsed()))
                    }
                    None => None,
                }
            };
            let (write, following) = tokio::join!(write, read);
            let (written, write_took) =
                write.map_err(|e| ImportError::Unavailable(format!("a batch's write stopped: {e}")))?;
            tracing::debug!(
                job = %job.id,
                batch = index,
                write_ms = write_took.as_millis(),
                next_read_ms = following.as_ref().map(|(_, took)| took.as_millis()),
                "import batch written"
            );
            match written {
                Ok(()) => {}
                // Cancelled, taken over by another instance, or written already: not ours to go on with.
                Err(ImportJobsError::NotClaimed { .. }) => return Ok(()),
                // A staff member gave a new product this SKU meanwhile: the batch is refused whole.
                Err(ImportJobsError::DuplicateSku { .. }) => return self.fail(job, Message::ProductSkuTaken).await,
                Err(e) => return Err(e.into()),
            }
            next = following.map(|(read, _)| read).transpose()?;
            index += 1;
        }
        // A zip no row's photographs came from (a dry run, or rows that queued none) is not kept.
        if let Some(key) = &job.photos_key {
            if self.jobs.job(&job.id).await?.is_some_and(|j| j.state == ImportState::Done && j.photos.total == 0) {
                if let Err(e) = self.blobs.delete(key).await {
                    tracing::warn!(key = %key, error = %e, "an import's zip was not deleted");
                }
            }
        }
        Ok(())
    }

    /// One batch: every record read, compared with the stored products of its SKUs.
    async fn batch(
        &self,
        job: &ImportJob,
        header: &ImportHeader,
        (plan, photos): (&Plan, &RowPhotos<'_>),
        places: &mut Places,
        records: Vec<Record>,
        mut rejected: Vec<RowError>,
    ) -> Result<ImportBatch, ImportError> {
        let mut counts = ImportCounts { rows_read: records.len() as u64, ..ImportCounts::default() };
        let mut refused_lines = HashSet::new();
        let mut refuse = |errors: Vec<RowError>, rejected: &mut Vec<RowError>| {
            if let Some(first) = errors.first() {
                refused_lines.insert(first.line);
            }
            rejected.extend(errors);
        };
        let mut rows: Vec<ImportRow> = Vec::with_capacity(records.len());
        for record in records {
            let read = record.cells.map_err(|e| vec![e]).and_then(|cells| {
                let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
                header.row(record.line, &cells)
            });
            match read {
                Err(errors) => refuse(errors, &mut rejected),
                Ok(row) if plan.repeated.contains(row.sku.as_str()) => refuse(
                    vec![RowError::new(row.line, &plan.sku_column, row.sku.as_str(), Message::ImportSkuTwice)],
                    &mut rejected,
                ),
                Ok(row) => match self.check_photos(photos, &row) {
                    Err(e) => refuse(vec![e], &mut rejected),
                    Ok(()) => rows.push(row),
                },
            }
        }
        let skus: Vec<String> = rows.iter().map(|r| r.sku.as_str().to_owned()).collect();
        let stored: HashMap<String, Product> = if skus.is_empty() {
            HashMap::new()
        } else {
            self.jobs.products_by_sku(&skus).await?.into_iter().map(|p| (p.details.sku.clone(), p)).collect()
        };
        let now = self.clock.now();
        let (mut created, mut updated, mut stock) = (Vec::new(), Vec::new(), Vec::new());
        let mut fitment: Vec<ImportFitment> = Vec::new();
        let mut vehicles = Vehicles::default();
        let mut tasks = Vec::new();
        for row in rows {
            let before = stored.get(row.sku.as_str());
            let change = row.compare(before);
            // The fitment the row writes, named against the vehicle table (a refusal refuses the row).
            let fits = match (&change, row.used.fits_to_write(before)) {
                (Ok(RowChange::Create(_) | RowChange::Update { .. }), Some(rows)) => {
                    match self.named_fits(&mut vehicles, header, row.line, rows).await? {
                        Ok(fits) => Some(fits),
                        Err(e) => {
                            refuse(vec![e], &mut rejected);
                            continue;
                        }
                    }
                }
                _ => None,
            };
            let fitment_of = |product: &ProductId, fits: Vec<ProductFit>| ImportFitment {
                product: product.clone(),
                audit: fitment_audit(job, now, product, before.map_or(&[][..], |b| &b.details.fits), &fits),
                fits,
            };
            // A row's photographs go to a product that has none yet: importing a file again adds none.
            if !row.photos.is_empty() && before.is_none_or(|p| p.images.is_empty()) {
                tasks.push(ImportPhotoTask {
                    id: format!("{}-{}", job.id, row.line),
                    job: job.id.clone(),
                    line: row.line,
                    column: photos.column.to_owned(),
                    sku: row.sku.as_str().to_owned(),
                    sources: row.photos.iter().map(|p| p.text().to_owned()).collect(),
                });
            }
            let line = row.line;
            let keep = |tasks: &mut Vec<ImportPhotoTask>, kept: bool| {
                if !kept {
                    tasks.retain(|t| t.line != line);
                }
            };
            match change {
                Err(errors) => {
                    keep(&mut tasks, false);
                    refuse(errors, &mut rejected);
                }
                Ok(RowChange::Unchanged) => counts.unchanged += 1,
                Ok(RowChange::Create(draft)) => {
                    let mut product = draft.product(ProductId(new_id("p")?), now);
                    self.create_missing(job, places, &product, draft.fields()).await?;
                    match places.place(&mut product, draft.fields(), row.line) {
                        Ok(()) => {
                            if let Some(fits) = fits {
                                fitment.push(fitment_of(&product.id, fits));
                            }
                            created.push(product);
                            counts.created += 1;
                        }
                        Err(e) => {
                            keep(&mut tasks, false);
                            refuse(vec![e], &mut rejected);
                        }
                    }
                }
                Ok(RowChange::Update { patch, changed, stock: target }) => {
                    let Some(before) = before else { continue };
                    let mut after = before.clone();
                    patch.apply_to(&mut after);
                    // A used unit's grade, donor or margin scheme stay only while its condition is used.
                    if let Err(m) = marque_domain::catalog::used::check_used_fields(&after) {
                        keep(&mut tasks, false);
                        refuse(
                            vec![RowError::new(row.line, Column::Producttype.name(), after.condition.code(), m)],
                            &mut rejected,
                        );
                        continue;
                    }
                    self.create_missing(job, places, &after, &patch).await?;
                    if let Err(e) = places.place(&mut after, &patch, row.line) {
                        keep(&mut tasks, false);
                        refuse(vec![e], &mut rejected);
                        continue;
                    }
                    if let Some(fits) = fits {
                        fitment.push(fitment_of(&after.id, fits));
                    }
                    if changed.iter().any(|c| !matches!(c, Column::Quantity | Column::Fits)) {
                        updated.push(after);
                    }
                    if let Some((_, quantity)) = target {
                        stock.push(StockTarget { sku: row.sku.as_str().to_owned(), quantity });
                    }
                    counts.updated += 1;
                }
            }
        }
        counts.rejected = refused_lines.len() as u64;
        counts.accepted = counts.created + counts.updated + counts.unchanged;
        if job.mode == ImportMode::DryRun {
            (created, updated, stock, fitment, tasks) = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        }
        Ok(ImportBatch {
            index: 0,
            created,
            updated,
            stock,
            fitment,
            rejected,
            counts,
            rows_total: plan.rows,
            audit: audit_entry(job, now),
            last: false,
            photos: tasks,
        })
    }

    /// A row's photographs checked: each file in the zip, each address one the fetcher may fetch.
    fn check_photos(&self, photos: &RowPhotos<'_>, row: &ImportRow) -> Result<(), RowError> {
        for source in &row.photos {
            let refused = |m: Message| Err(RowError::new(row.line, photos.column, source.text(), m));
            match source {
                PhotoSource::File(name) => match photos.names {
                    None => return refused(Message::ImportPhotosWithoutZip),
                    Some(names) if !names.contains(name) => return refused(Message::ImportPhotoNotInZip),
                    Some(_) => {}
                },
                PhotoSource::Url(url) => match &self.photo_work {
                    None => return refused(Message::ImportPhotoAddressRefused),
                    Some(work) => {
                        if work.fetcher.precheck(url).is_err() {
                            return refused(Message::ImportPhotoAddressRefused);
                        }
                    }
                },
            }
        }
        Ok(())
    }

    /// The names of the job's zip (`None` when it is no longer kept).
    async fn zip_names(&self, key: &str) -> Result<Option<HashSet<String>>, ImportError> {
        let temp =
            tempfile::NamedTempFile::new().map_err(|e| ImportError::Unavailable(e.to_string()))?.into_temp_path();
        if !self.blobs.get_file(key, &temp).await.map_err(|e| ImportError::Unavailable(e.to_string()))? {
            return Ok(None);
        }
        let names = tokio::task::spawn_blocking(move || archive::inspect(&temp))
            .await
            .map_err(|e| ImportError::Unavailable(e.to_string()))?;
        Ok(names.ok())
    }
}

/// What a batch needs to check its rows' photographs.
struct RowPhotos<'a> {
    /// The zip's file names, when the job has a zip.
    names: Option<&'a HashSet<String>>,
    /// The `photos` column as the header spells it.
    column: &'a str,
}

impl ImportService {
    /// The photograph worker's turn: claims one row's photographs of a job whose rows are over,
    /// takes each (from the zip or its address) through the product photographs' pipeline, and
    /// attaches those that pass, in order, with the job's counters; returns the task's id, `None`
    /// when there was nothing to do (or this service takes no photographs).
    ///
    /// # Errors
    /// [`ImportError::Unavailable`] when a store failed (the claim lapses and a later turn redoes it).
    pub async fn photos_next(&self) -> Result<Option<String>, ImportError> {
        let Some(work) = &self.photo_work else { return Ok(None) };
        let now = self.clock.now();
        let Some((job, task)) = self.jobs.claim_photos(&self.worker, now, now + CLAIM_SECONDS).await? else {
            return Ok(None);
        };
        let product = self.jobs.products_by_sku(std::slice::from_ref(&task.sku)).await?.into_iter().next();
        let mut written = Vec::new();
        let mut outcome = PhotoOutcome { images: Vec::new(), failed: Vec::new() };
        let report = |source: &str, m: Message| RowError::new(task.line, &task.column, source, m);
        match product {
            None => {
                outcome.failed = task.sources.iter().map(|s| report(s, Message::AdminProductNotFound)).collect();
            }
            Some(product) => {
                let room = marque_domain::catalog::MAX_PRODUCT_PHOTOS.saturating_sub(product.images.len());
                for (n, source) in task.sources.iter().enumerate() {
                    if n >= room {
                        outcome.failed.push(report(source, Message::PhotoCount));
                        continue;
                    }
                    let bytes = match PhotoSource::stored(source) {
                        PhotoSource::File(name) => self.zip_entry(work, &job, &name).await?,
                        PhotoSource::Url(url) => work.fetcher.fetch(&url).await.map_err(|e| match e {
                            PhotoFetchError::Refused(_) => Message::ImportPhotoAddressRefused,
                            PhotoFetchError::Failed(_) => Message::ImportPhotoFetchFailed,
                        }),
                    };
                    let stored = match bytes {
                        Ok(bytes) => work.photos.store_for_import(&product.id, bytes, &mut written).await,
                        Err(m) => {
                            outcome.failed.push(report(source, m));
                            continue;
                        }
                    };
                    match stored {
                        Ok(image) => outcome.images.push(image),
                        Err(super::photos::PhotosError::Unavailable(reason)) => {
                            work.photos.discard(&written).await;
                            return Err(ImportError::Unavailable(reason));
                        }
                        Err(e) => outcome.failed.push(report(source, e.message())),
                    }
                }
            }
        }
        match self.jobs.finish_photos(&task, &self.worker, self.clock.now(), &outcome).await {
            Ok(()) => {}
            Err(ImportJobsError::NotClaimed { .. }) => {
                work.photos.discard(&written).await;
                return Ok(Some(task.id));
            }
            Err(e) => {
                work.photos.discard(&written).await;
                return Err(e.into());
            }
        }
        // The last row's photographs of the job: its zip is no longer needed.
        if let Some(after) = self.jobs.job(&job.id).await? {
            if after.photos.pending() == 0 {
                if let Some(key) = &after.photos_key {
                    if let Err(e) = self.blobs.delete(key).await {
                        tracing::warn!(key = %key, error = %e, "an import's zip was not deleted");
                    }
                }
                *work.zip.lock().await = None;
            }
        }
        Ok(Some(task.id))
    }

    /// One file of the job's zip (copied from the blob store once per job and worker).
    async fn zip_entry(
        &self,
        work: &PhotoWork,
        job: &ImportJob,
        name: &str,
    ) -> Result<Result<Vec<u8>, Message>, ImportError> {
        let Some(key) = &job.photos_key else { return Ok(Err(Message::ImportPhotosWithoutZip)) };
        let path = {
            let mut cached = work.zip.lock().await;
            match cached.as_ref().filter(|(id, _)| *id == job.id) {
                Some((_, path)) => path.clone(),
                None => {
                    let temp = tempfile::NamedTempFile::new()
                        .map_err(|e| ImportError::Unavailable(e.to_string()))?
                        .into_temp_path();
                    if !self.blobs.get_file(key, &temp).await.map_err(|e| ImportError::Unavailable(e.to_string()))? {
                        return Ok(Err(Message::ImportFileGone));
                    }
                    let path = Arc::new(temp);
                    *cached = Some((job.id.clone(), path.clone()));
                    path
                }
            }
        };
        let name = name.to_owned();
        tokio::task::spawn_blocking(move || archive::read(&path, &name))
            .await
            .map_err(|e| ImportError::Unavailable(e.to_string()))
    }
}

impl ImportService {
    /// The shop's categories and brands as stored.
    async fn places(&self) -> Result<Places, ImportError> {
        Ok(Places { categories: self.catalog.categories().await?, brands: self.catalog.brands().await? })
    }

    /// For a `createMissing` job: creates the category, subcategory and brand that `patch` names
    /// for `product` (its slugs after the patch) and the shop lacks, each named after its slug and
    /// audited in the job's actor's name; a dry run only adds them to `places`, writing nothing.
    async fn create_missing(
        &self,
        job: &ImportJob,
        places: &mut Places,
        product: &Product,
        patch: &ProductPatch,
    ) -> Result<(), ImportError> {
        if !job.create_missing {
            return Ok(());
        }
        let apply = job.mode == ImportMode::Apply;
        let entry = |action: &str, subject: String, record: serde_json::Value| {
            let mut values = record;
            values["import"] = serde_json::Value::String(job.id.0.clone());
            AuditEntry::new(self.clock.now(), job_actor(job), action, subject)
                .with_values(None, Some(values.to_string()))
        };
        if patch.category_slug.is_some() || patch.subcategory_slug.is_some() {
            let category_slug = patch.category_slug.as_deref().unwrap_or(&product.category_slug);
            let subcategory_slug = patch.subcategory_slug.as_deref().unwrap_or(&product.subcategory_slug);
            let at = match places.categories.iter().position(|c| c.slug == category_slug) {
                Some(at) => at,
                None => {
                    // Created with the subcategory the row names: one write, one audit entry.
                    let category = Category {
                        id: new_id("c")?,
                        name: name_of(category_slug),
                        slug: category_slug.to_owned(),
                        subcategories: vec![new_subcategory(subcategory_slug)?],
                    };
                    if apply {
                        let audit = entry("category.create", format!("category:{}", category.id), json(&category));
                        self.created(places, self.editor.create_category(&category, &audit).await).await?;
                    }
                    if !places.categories.iter().any(|c| c.slug == category_slug) {
                        places.categories.push(category);
                    }
                    places.categories.iter().rposition(|c| c.slug == category_slug).unwrap_or(0)
                }
            };
            let category = &places.categories[at];
            if !category.subcategories.iter().any(|s| s.slug == subcategory_slug) {
                let mut after = category.clone();
                after.subcategories.push(new_subcategory(subcategory_slug)?);
                if apply {
                    let audit = entry("category.update", format!("category:{}", after.id), json(&after));
                    self.created(places, self.editor.update_category(&after, &audit).await).await?;
                }
                if let Some(c) = places.categories.iter_mut().find(|c| c.id == after.id) {
                    if !c.subcategories.iter().any(|s| s.slug == subcategory_slug) {
                        *c = after;
                    }
                }
            }
        }
        if let Some(slug) = patch.oem_slug.as_deref().filter(|s| !places.brands.iter().any(|b| b.slug == *s)) {
            let brand = OemBrand { id: new_id("b")?, name: name_of(slug), slug: slug.to_owned(), image: String::new() };
            if apply {
                let audit = entry("brand.create", format!("brand:{}", brand.id), json(&brand));
                self.created(places, self.editor.create_brand(&brand, &audit).await).await?;
            }
            if !places.brands.iter().any(|b| b.slug == slug) {
                places.brands.push(brand);
            }
        }
        Ok(())
    }
}

impl ImportService {
    /// `rows` named against the vehicle table: the row's refusal (on its `fits` column, with the
    /// generation or vehicle the table lacks) when one names a generation or engine it does not hold.
    async fn named_fits(
        &self,
        known: &mut Vehicles,
        header: &ImportHeader,
        line: u64,
        rows: &[FitmentRow],
    ) -> Result<Result<Vec<ProductFit>, RowError>, ImportError> {
        let column = header.name_of(Column::Fits).unwrap_or(Column::Fits.name());
        let mut fits = Vec::with_capacity(rows.len());
        for row in rows {
            if !known.0.contains_key(&row.generation) {
                let vehicles = match &self.vehicles {
                    Some(store) => {
                        store.vehicles_of(&row.generation).await.map_err(|e| ImportError::Unavailable(e.to_string()))?
                    }
                    None => Vec::new(),
                };
                known.0.insert(row.generation.clone(), vehicles);
            }
            let vehicles = known.0.get(&row.generation).map_or(&[][..], Vec::as_slice);
            match ProductFit::named(row.clone(), vehicles) {
                Ok(fit) => fits.push(fit),
                Err(_) => {
                    let named = match &row.engine {
                        Some(e) => format!("{}.{}", row.generation, e.as_str().to_ascii_lowercase()),
                        None => row.generation.to_string(),
                    };
                    return Ok(Err(RowError::new(line, column, &named, Message::VehicleUnknown)));
                }
            }
        }
        Ok(Ok(fits))
    }

    /// After creating a category or brand: a slug another writer took meanwhile means the shop has
    /// it now (the places are read again); any other failure stops the batch.
    async fn created(&self, places: &mut Places, outcome: Result<(), CatalogEditorError>) -> Result<(), ImportError> {
        match outcome {
            Err(CatalogEditorError::SlugTaken { .. }) => {
                *places = self.places().await?;
                Ok(())
            }
            other => other.map_err(|e| ImportError::Unavailable(e.to_string())),
        }
    }
}

/// A subcategory an import creates, named after its slug.
fn new_subcategory(slug: &str) -> Result<Subcategory, ImportError> {
    Ok(Subcategory { id: new_id("s")?, name: name_of(slug), slug: slug.to_owned() })
}

/// A record as the audit trail keeps it.
fn json(record: &impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(record).unwrap_or_default()
}

/// A name for a slug created by an import: its words capitalised (`oil-pump` → `Oil Pump`).
#[must_use]
pub fn name_of(slug: &str) -> String {
    slug.split('-')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Who started the job, as the audit trail names them.
fn job_actor(job: &ImportJob) -> Actor {
    match job.actor.strip_prefix("system:") {
        Some(what) => Actor::System(what.to_owned()),
        None => Actor::Staff { id: StaffId(job.actor.clone()), email: job.actor_label.clone() },
    }
}

/// This year in India at `now` (seconds since the Unix epoch), for a donor car's latest model year.
fn this_year(now: i64) -> i32 {
    marque_domain::calendar::civil_from_days(marque_domain::calendar::ist_day(now)).0
}

/// The vehicles of the generations a batch's `fits` cells named, read once each.
#[derive(Default)]
struct Vehicles(HashMap<GenerationId, Vec<Vehicle>>);

/// A fitment write's audit entry, as the back office's fitment editor writes it (`product.fitment`,
/// the rows before and after), naming the job it came from.
fn fitment_audit(
    job: &ImportJob,
    at: i64,
    product: &ProductId,
    before: &[ProductFit],
    after: &[ProductFit],
) -> AuditEntry {
    let mut after = super::fitment::audited_value(after);
    after["import"] = serde_json::Value::String(job.id.0.clone());
    AuditEntry::new(at, job_actor(job), "product.fitment", format!("product:{product}"))
        .with_values(Some(super::fitment::audited_value(before).to_string()), Some(after.to_string()))
}

/// The job's one audit entry: who imported which file, how.
fn audit_entry(job: &ImportJob, at: i64) -> AuditEntry {
    let actor = job_actor(job);
    let values = serde_json::json!({
        "file": job.file_name,
        "bytes": job.file_bytes,
        "mode": job.mode.code(),
        "createMissing": job.create_missing,
    });
    AuditEntry::new(at, actor, "import.apply", format!("import:{}", job.id)).with_values(None, Some(values.to_string()))
}

/// The data records of a file (its header left out).
struct Records;

impl Records {
    fn of(bytes: &[u8]) -> impl Iterator<Item = Record> + '_ {
        file::Records::new(bytes).skip(1)
    }
}

/// What a first pass over the file finds: how many rows, and the SKUs on more than one row.
struct Plan {
    rows: u64,
    repeated: HashSet<String>,
    /// The `sku` column as the header spells it.
    sku_column: String,
}

impl Plan {
    fn of(bytes: &[u8], header: &ImportHeader) -> Plan {
        let at = header.position(Column::Sku);
        let mut seen: HashSet<String> = HashSet::new();
        let mut repeated = HashSet::new();
        let mut rows = 0;
        for record in Records::of(bytes) {
            rows += 1;
            let sku = record.cells.ok().and_then(|cells| at.and_then(|i| cells.get(i).cloned()));
            if let Some(sku) = sku.and_then(|s| editor::Sku::parse(&s).ok()) {
                let sku: String = sku.into();
                if !seen.insert(sku.clone()) {
                    repeated.insert(sku);
                }
            }
        }
        let sku_column = header.name_of(Column::Sku).unwrap_or(Column::Sku.name()).to_owned();
        Plan { rows, repeated, sku_column }
    }
}

/// The shop's categories and brands, read once per job.
struct Places {
    categories: Vec<Category>,
    brands: Vec<OemBrand>,
}

impl Places {
    /// The domain's placement, its refusal reported on the column of the first slug the shop lacks.
    fn place(&self, product: &mut Product, patch: &ProductPatch, line: u64) -> Result<(), RowError> {
        editor::place(product, patch, &self.categories, &self.brands).map_err(|message| {
            let category = self.categories.iter().find(|c| Some(&c.slug) == patch.category_slug.as_ref());
            let (column, value) = if patch.category_slug.is_some() && category.is_none() {
                (Column::CategorySlug, patch.category_slug.clone())
            } else if patch.oem_slug.as_ref().is_some_and(|s| !self.brands.iter().any(|b| &b.slug == s)) {
                (Column::OemSlug, patch.oem_slug.clone())
            } else {
                (Column::SubcategorySlug, patch.subcategory_slug.clone())
            };
            RowError::new(line, column.name(), value.as_deref().unwrap_or(""), message)
        })
    }
}

#[cfg(test)]
mod tests;
