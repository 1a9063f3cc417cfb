//! `admin-imports` (owner, catalog): catalog imports from a CSV file (issue 23). Upload the file
//! with a mode (`POST /api/admin/imports`, multipart `file`, `mode` = `dry-run` or `apply`, and
//! optionally `photos`, a zip of the photographs the `photos` column names) and
//! get its job's id; the server's worker goes through the file in batches of 1,000 rows, each
//! written all or nothing. Read the job's progress (`GET /api/admin/imports/{id}`), its refused
//! rows as a spreadsheet (`GET /api/admin/imports/{id}/errors.csv`: line, column, value, code,
//! reason), or stop it (`POST /api/admin/imports/{id}/cancel`: batches written stay written).
//! `GET /api/admin/exports/products.csv` streams the whole catalog in the import's columns, so that
//! importing the export back writes nothing.

use marque_app::admin::imports::archive::ZIP_MAX_BYTES;
use marque_app::admin::imports::export::{ExportService, ProductExport};
use marque_app::admin::imports::{ImportError, ImportService, NewImport, FILE_MAX_BYTES};
use marque_domain::Message;
use marque_ports::{ImportJob, ImportJobId, ImportMode, ImportState};
use poem_openapi::param::Path;
use poem_openapi::payload::{Binary, Json};
use poem_openapi::types::multipart::Upload;
use poem_openapi::{Multipart, Object, OpenApi, Tags};

use super::auth::ImportsStaff;
use crate::error::ErrorBody;
use crate::orders::iso_8601;

#[derive(Tags)]
enum Tag {
    /// Back office: catalog imports from a CSV file, with a dry run, progress and a row-by-row
    /// report (roles owner and catalog).
    #[oai(rename = "admin-imports")]
    AdminImports,
}

/// `POST /api/admin/imports`: the file and what to do with it.
#[derive(Debug, Multipart)]
pub struct ImportUpload {
    /// The CSV file (UTF-8, with or without a BOM), at most 100 MB; the header names the columns.
    file: Upload,
    /// `dry-run` (check every row, write nothing) or `apply` (write the rows that pass).
    mode: String,
    /// `true`: a category, subcategory or brand slug the shop lacks is created (named after the
    /// slug, each creation in the audit trail) instead of its row being refused. Default `false`.
    #[oai(rename = "createMissing")]
    create_missing: Option<String>,
    /// A zip of photographs (at most 1 GB) for the `photos` column's file names. Refused whole
    /// (400) when a name in it leaves its folder (`../`, an absolute path: `import.zip_unsafe_path`)
    /// or it unpacks past its limits (`import.zip_bomb`).
    photos: Option<Upload>,
}

/// An import job as it stands.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminImport")]
pub struct ImportBody {
    pub id: String,
    /// `dry-run` or `apply`.
    pub mode: String,
    /// Whether unknown category, subcategory and brand slugs are created rather than refused.
    #[oai(rename = "createMissing")]
    pub create_missing: bool,
    /// `queued`, `running`, `done`, `failed` or `cancelled`.
    pub state: String,
    /// The file's name as uploaded.
    #[oai(rename = "fileName")]
    pub file_name: String,
    /// Rows in the file (its header aside), once the worker has counted them; 0 before.
    #[oai(rename = "rowsTotal")]
    pub rows_total: u64,
    /// Rows read so far: `accepted + rejected`.
    #[oai(rename = "rowsRead")]
    pub rows_read: u64,
    /// Rows that pass: `created + updated + unchanged` (a dry run counts what applying would do).
    pub accepted: u64,
    /// Rows refused, each listed in `errors.csv`.
    pub rejected: u64,
    pub created: u64,
    pub updated: u64,
    pub unchanged: u64,
    /// Rows read per second since the worker started the job; absent before it starts.
    #[oai(rename = "rowsPerSecond", skip_serializing_if_is_none)]
    pub rows_per_second: Option<u64>,
    /// Seconds the rest of the file should take at that rate, while it runs; absent otherwise.
    #[oai(rename = "secondsLeft", skip_serializing_if_is_none)]
    pub seconds_left: Option<u64>,
    /// When it was uploaded, started and ended, ISO 8601 in UTC.
    #[oai(rename = "createdAt")]
    pub created_at: String,
    #[oai(rename = "startedAt", skip_serializing_if_is_none)]
    pub started_at: Option<String>,
    #[oai(rename = "finishedAt", skip_serializing_if_is_none)]
    pub finished_at: Option<String>,
    /// Why a failed job failed: a message code (`import.file_gone`, …).
    #[oai(skip_serializing_if_is_none)]
    pub failure: Option<String>,
    /// Photographs the rows list (apply only, for products without photographs yet), attached
    /// after the rows by a background worker: how many, how many are attached, how many failed
    /// (each in `errors.csv`). Pending while `photosDone + photosFailed < photosTotal`.
    #[oai(rename = "photosTotal")]
    pub photos_total: u64,
    #[oai(rename = "photosDone")]
    pub photos_done: u64,
    #[oai(rename = "photosFailed")]
    pub photos_failed: u64,
    /// Photographs attached or failed per second since the first was taken up; absent before.
    #[oai(rename = "photosPerSecond", skip_serializing_if_is_none)]
    pub photos_per_second: Option<u64>,
}

/// `{id}` of a job just queued.
#[derive(Debug, Clone, Object)]
pub struct ImportQueued {
    pub id: String,
    /// `dry-run` or `apply`.
    pub mode: String,
    /// `queued`.
    pub state: String,
}

/// Seconds since the Unix epoch, now.
fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// The job's rate (rows per second since it started, its whole run once over) and the seconds the
/// rest of its rows should take at that rate while it runs.
fn pace(job: &ImportJob, now: i64) -> (Option<u64>, Option<u64>) {
    let Some(started) = job.started_at else { return (None, None) };
    let until = job.finished_at.unwrap_or(now);
    // Under a second counts as one: the rate is never divided by zero.
    let seconds = u64::try_from(until.saturating_sub(started)).unwrap_or(0).max(1);
    let rate = job.counts.rows_read / seconds;
    let left = (job.state == ImportState::Running && job.rows_total > 0).then(|| {
        let rest = job.rows_total.saturating_sub(job.counts.rows_read);
        rest.div_ceil(rate.max(1))
    });
    (Some(rate), left)
}

/// Photographs attached or failed per second, from the first taken up to the last finished (to
/// now while some are pending).
fn photo_pace(job: &ImportJob, now: i64) -> Option<u64> {
    let started = job.photos_started_at?;
    let until = if job.photos.pending() > 0 { now } else { job.photos_updated_at.unwrap_or(now) };
    let seconds = u64::try_from(until.saturating_sub(started)).unwrap_or(0).max(1);
    Some((job.photos.done + job.photos.failed) / seconds)
}

impl ImportBody {
    fn of(job: ImportJob, now: i64) -> Self {
        let (rows_per_second, seconds_left) = pace(&job, now);
        let photos_per_second = photo_pace(&job, now);
        let c = job.counts;
        ImportBody {
            id: job.id.0,
            mode: job.mode.code().to_owned(),
            create_missing: job.create_missing,
            state: job.state.code().to_owned(),
            file_name: job.file_name,
            rows_total: job.rows_total,
            rows_read: c.rows_read,
            accepted: c.accepted,
            rejected: c.rejected,
            created: c.created,
            updated: c.updated,
            unchanged: c.unchanged,
            rows_per_second,
            seconds_left,
            created_at: iso_8601(job.created_at),
            started_at: job.started_at.map(iso_8601),
            finished_at: job.finished_at.map(iso_8601),
            failure: job.failure,
            photos_total: job.photos.total,
            photos_done: job.photos.done,
            photos_failed: job.photos.failed,
            photos_per_second,
        }
    }
}

admin_response!(ImportStarted, import_started_bad_request, "import_started_bad_request", {
    /// The file is kept and its job queued; read its progress at `GET /api/admin/imports/{id}`.
    Accepted(Json<ImportQueued>) = 202,
    /// The file is above 100 MB (`import.file_too_large`), or the zip of photographs above 1 GB
    /// (`import.zip_too_large`).
    TooLarge(Json<ErrorBody>) = 413,
});

admin_response!(ImportAnswer, import_bad_request, "import_bad_request", {
    /// The job as it stands.
    Ok(Json<ImportBody>) = 200,
    /// No import has this id (`import.not_found`).
    NotFound(Json<ErrorBody>) = 404,
});

admin_response!(ErrorsAnswer, errors_bad_request, "errors_bad_request", {
    /// One line per refused cell: `line,column,value,code,message` (the header is line 1), UTF-8.
    /// Only its header line while nothing was refused.
    Ok(Binary<Vec<u8>>, #[oai(header = "Content-Disposition")] String) = 200 as "text/csv; charset=utf-8",
    /// No import has this id (`import.not_found`).
    NotFound(Json<ErrorBody>) = 404,
});

admin_response!(ExportAnswer, export_bad_request, "export_bad_request", {
    /// Every product, published or not, one row each in the import's columns, after the header;
    /// streamed as it is read. A store failing midway breaks the connection rather than end the
    /// file early.
    Ok(Binary<poem::Body>, #[oai(header = "Content-Disposition")] String) = 200 as "text/csv; charset=utf-8",
});

/// An upload copied, as it is read, into a named temporary file (removed when dropped).
async fn named_copy(upload: Upload) -> std::io::Result<tempfile::TempPath> {
    let path = tempfile::NamedTempFile::new()?.into_temp_path();
    let mut out = tokio::fs::File::create(&path).await?;
    let mut from = upload.into_async_read();
    tokio::io::copy(&mut from, &mut out).await?;
    tokio::io::AsyncWriteExt::flush(&mut out).await?;
    Ok(path)
}

/// The export's parts as a byte stream; a failed read ends it with an error.
fn streamed(export: ProductExport) -> poem::Body {
    let parts = futures::stream::unfold(export, |mut export| async move {
        match export.next_chunk().await {
            Ok(Some(part)) => Some((Ok(bytes::Bytes::from(part)), export)),
            Ok(None) => None,
            Err(e) => {
                tracing::error!(error = %e, "an export stopped on a store's failure");
                Some((Err(std::io::Error::other("the catalog could not be read")), export))
            }
        }
    });
    poem::Body::from_bytes_stream(parts)
}

/// The answer for a refused call: its status and the import's message.
macro_rules! refusal {
    ($answer:ident, $e:expr) => {{
        let e: ImportError = $e;
        let body = ErrorBody::from_message(e.message());
        match e {
            ImportError::Forbidden(_) => $answer::Forbidden(body),
            ImportError::NotFound => refusal!(@not_found $answer, body),
            ImportError::Unavailable(reason) => {
                tracing::error!(%reason, "an import call failed");
                $answer::Unavailable(body)
            }
            ImportError::Invalid(_) => $answer::BadRequest(body),
            ImportError::TooLarge => refusal!(@too_large $answer, body),
        }
    }};
    (@not_found ImportStarted, $body:expr) => {
        ImportStarted::BadRequest($body)
    };
    (@not_found $answer:ident, $body:expr) => {
        $answer::NotFound($body)
    };
    (@too_large ImportStarted, $body:expr) => {
        ImportStarted::TooLarge($body)
    };
    (@too_large $answer:ident, $body:expr) => {
        $answer::BadRequest($body)
    };
}

#[derive(Debug)]
pub struct ImportsApi {
    imports: ImportService,
    exports: ExportService,
}

impl ImportsApi {
    #[must_use]
    pub fn new(imports: ImportService, exports: ExportService) -> Self {
        Self { imports, exports }
    }
}

#[OpenApi(tag = "Tag::AdminImports")]
impl ImportsApi {
    /// Uploads a CSV file and queues its import. The header is checked at once (a file that is
    /// empty, not UTF-8 text, without rows or without a `sku` column is refused whole with its
    /// code); every row is checked by the worker, which reports each refused one in `errors.csv`.
    /// `dry-run` writes nothing of the catalog; `apply` writes the rows that pass, 1,000 at a
    /// time, each batch all or nothing, and records one audit entry for the job.
    #[oai(path = "/admin/imports", method = "post", operation_id = "adminStartImport")]
    async fn start(&self, staff: ImportsStaff, form: ImportUpload) -> ImportStarted {
        let Some(mode) = ImportMode::parse(form.mode.trim()) else {
            return ImportStarted::BadRequest(ErrorBody::from_message(Message::ImportModeInvalid));
        };
        let create_missing = match form.create_missing.as_deref().map(str::trim) {
            None | Some("") => false,
            Some(text) => match marque_domain::catalog::import::cells::yes_no(text) {
                Ok(yes) => yes,
                Err(m) => return ImportStarted::BadRequest(ErrorBody::from_message(m)),
            },
        };
        if form.file.size() > FILE_MAX_BYTES {
            return refusal!(ImportStarted, ImportError::TooLarge);
        }
        if form.photos.as_ref().is_some_and(|p| p.size() as u64 > ZIP_MAX_BYTES) {
            return ImportStarted::TooLarge(ErrorBody::from_message(Message::ImportZipTooLarge));
        }
        // The zip is copied, as it is read, to a named temporary file the use case reads and keeps.
        let photos = match form.photos {
            None => None,
            Some(upload) => match named_copy(upload).await {
                Ok(file) => Some(file),
                Err(e) => {
                    tracing::warn!(error = %e, "an import's zip could not be kept");
                    return ImportStarted::Unavailable(ErrorBody::from_message(Message::ImportUnavailable));
                }
            },
        };
        let file_name = form.file.file_name().unwrap_or("import.csv").to_owned();
        let bytes = match form.file.into_vec().await {
            Ok(bytes) => bytes,
            Err(e) => {
                tracing::info!(error = %e, "an import's file could not be read");
                return ImportStarted::BadRequest(ErrorBody::from_message(Message::ImportNotText));
            }
        };
        let upload =
            NewImport { file_name, bytes, mode, create_missing, photos: photos.as_ref().map(|p| p.to_path_buf()) };
        match self.imports.start(&staff, upload).await {
            Ok(job) => ImportStarted::Accepted(Json(ImportQueued {
                id: job.id.0,
                mode: job.mode.code().to_owned(),
                state: job.state.code().to_owned(),
            })),
            Err(e) => refusal!(ImportStarted, e),
        }
    }

    /// A job's state and counters, with its rate and the time left while it runs.
    #[oai(path = "/admin/imports/:id", method = "get", operation_id = "adminImport")]
    async fn job(&self, staff: ImportsStaff, id: Path<String>) -> ImportAnswer {
        match self.imports.job(&staff, &ImportJobId(id.0)).await {
            Ok(job) => ImportAnswer::Ok(Json(ImportBody::of(job, now()))),
            Err(e) => refusal!(ImportAnswer, e),
        }
    }

    /// A job's refused rows as CSV, to open in a spreadsheet: `line,column,value,code,message`.
    #[oai(path = "/admin/imports/:id/errors.csv", method = "get", operation_id = "adminImportErrors")]
    async fn errors(&self, staff: ImportsStaff, id: Path<String>) -> ErrorsAnswer {
        let id = ImportJobId(id.0);
        match self.imports.errors_csv(&staff, &id).await {
            Ok(csv) => ErrorsAnswer::Ok(Binary(csv), format!("attachment; filename=\"import-{id}-errors.csv\"")),
            Err(e) => refusal!(ErrorsAnswer, e),
        }
    }

    /// The whole catalog as CSV in the import's columns (published and unpublished products),
    /// streamed: importing it back writes nothing.
    #[oai(path = "/admin/exports/products.csv", method = "get", operation_id = "adminExportProducts")]
    async fn export(&self, staff: ImportsStaff) -> ExportAnswer {
        match self.exports.products(&staff) {
            Ok(export) => {
                ExportAnswer::Ok(Binary(streamed(export)), "attachment; filename=\"products.csv\"".to_owned())
            }
            // Only the role is checked before the first read.
            Err(e) => ExportAnswer::Forbidden(ErrorBody::from_message(e.message())),
        }
    }

    /// Stops a queued or running job: the batches written stay written, no further one is. A job
    /// already over is answered as it stands.
    #[oai(path = "/admin/imports/:id/cancel", method = "post", operation_id = "adminCancelImport")]
    async fn cancel(&self, staff: ImportsStaff, id: Path<String>) -> ImportAnswer {
        match self.imports.cancel(&staff, &ImportJobId(id.0)).await {
            Ok(job) => ImportAnswer::Ok(Json(ImportBody::of(job, now()))),
            Err(e) => refusal!(ImportAnswer, e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marque_ports::ImportCounts;

    fn job(state: ImportState, read: u64, total: u64, started: Option<i64>, finished: Option<i64>) -> ImportJob {
        ImportJob {
            id: ImportJobId("i1".into()),
            mode: ImportMode::Apply,
            create_missing: false,
            state,
            file_name: "parts.csv".into(),
            file_key: "imports/i1.csv".into(),
            file_bytes: 10,
            actor: "staff:s1".into(),
            actor_label: "a@example.com".into(),
            counts: ImportCounts { rows_read: read, ..ImportCounts::default() },
            rows_total: total,
            batches_done: 0,
            claimed_by: None,
            claimed_until: 0,
            created_at: 100,
            started_at: started,
            finished_at: finished,
            failure: None,
            photos_key: None,
            photos: marque_ports::PhotoCounts::default(),
            photos_started_at: None,
            photos_updated_at: None,
        }
    }

    #[test]
    fn the_pace_is_the_rows_read_over_the_seconds_run() {
        assert_eq!(pace(&job(ImportState::Queued, 0, 0, None, None), 200), (None, None));
        // 4,000 of 10,000 rows in 2 s: 2,000 a second, 3 s left.
        assert_eq!(pace(&job(ImportState::Running, 4_000, 10_000, Some(100), None), 102), (Some(2_000), Some(3)));
        // Started this very second: counted as one second, never divided by zero.
        assert_eq!(pace(&job(ImportState::Running, 500, 1_000, Some(100), None), 100), (Some(500), Some(1)));
        // Nothing read yet: the rest at one row a second rather than forever.
        assert_eq!(pace(&job(ImportState::Running, 0, 30, Some(100), None), 100), (Some(0), Some(30)));
        // Over: its whole run's rate and no time left, however late it is read.
        assert_eq!(pace(&job(ImportState::Done, 9_000, 9_000, Some(100), Some(103)), 999), (Some(3_000), None));
    }
}
