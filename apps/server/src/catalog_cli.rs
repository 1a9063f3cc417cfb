//! `marque-server import-csv FILE [--dry-run] [--create-missing] [--errors REPORT]` and `export-csv FILE`: the
//! catalog's CSV import and export for the shop's own scripts, on the configured database (a
//! stopped embedded one, or a `ws://` server that may keep running). The import is the HTTP
//! path's job (`ImportService`): the file is kept, a job queued, and this process works it through
//! to its end (a running server may take a turn at it: whoever claims a batch writes it), showing
//! its progress on standard error (a bar on a terminal, plain lines otherwise), then prints the
//! job's counts on standard output.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use marque_app::admin::imports::export::ExportService;
use marque_app::admin::imports::{ImportError, ImportService, NewImport, FILE_MAX_BYTES};
use marque_ports::{Actor, BlobStore, ImportJob, ImportMode, ImportState, SystemClock};
use marque_surreal::Database;

/// How often the job is read for the progress shown.
const POLL: Duration = Duration::from_millis(200);
/// How long the worker of this process waits when there is no job to claim (a running server
/// holds the claim on ours, or it is not queued yet).
const IDLE: Duration = Duration::from_millis(250);
/// How often a plain progress line is written when standard error is not a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(1);

/// `import-csv`'s options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportCsv {
    pub file: PathBuf,
    pub dry_run: bool,
    pub create_missing: bool,
    /// Where to write the refused rows (`line,column,value,code,message`), if anywhere.
    pub errors: Option<PathBuf>,
}

/// The import and export services on `database`, as the command line uses them.
#[derive(Debug, Clone)]
pub struct CatalogFiles {
    imports: ImportService,
    exports: ExportService,
}

impl CatalogFiles {
    #[must_use]
    pub fn new(database: &Database, blobs: Arc<dyn BlobStore>) -> Self {
        let imports = ImportService::new(
            Arc::new(database.import_jobs()),
            blobs,
            Arc::new(database.catalog()),
            Arc::new(database.catalog_editor()),
            Arc::new(SystemClock),
            format!("cli-{}", std::process::id()),
        )
        .with_vehicles(Arc::new(database.vehicles()));
        let exports = ExportService::new(Arc::new(database.catalog()), Arc::new(database.catalog_editor()));
        Self { imports, exports }
    }

    /// Imports `options.file` and waits for its job to end: the job as it ended.
    ///
    /// # Errors
    /// The file unreadable or refused whole (its message), or a store's failure.
    pub async fn import_csv(&self, options: &ImportCsv) -> anyhow::Result<ImportJob> {
        let size = std::fs::metadata(&options.file).with_context(|| format!("reading {}", options.file.display()))?;
        if size.len() > FILE_MAX_BYTES as u64 {
            anyhow::bail!(
                "{}: {} ({} bytes; at most {FILE_MAX_BYTES})",
                options.file.display(),
                marque_domain::Message::ImportFileTooLarge.text(),
                size.len()
            );
        }
        let bytes =
            tokio::fs::read(&options.file).await.with_context(|| format!("reading {}", options.file.display()))?;
        let file_name =
            options.file.file_name().map_or_else(|| "import.csv".to_owned(), |n| n.to_string_lossy().into());
        let mode = if options.dry_run { ImportMode::DryRun } else { ImportMode::Apply };
        let upload = NewImport { file_name, bytes, mode, create_missing: options.create_missing, photos: None };
        let job = self.imports.start_as(&Actor::System("cli".into()), upload).await.map_err(refused)?;
        let id = job.id.clone();
        let worker = {
            let imports = self.imports.clone();
            tokio::spawn(async move {
                loop {
                    match imports.run_next().await {
                        Ok(Some(_)) => {}
                        Ok(None) => tokio::time::sleep(IDLE).await,
                        Err(e) => {
                            tracing::warn!(error = %e, "an import turn stopped on a store's failure; trying again");
                            tokio::time::sleep(IDLE).await;
                        }
                    }
                }
            })
        };
        let mut progress = Progress::new("import");
        let ended = loop {
            let job = self.imports.job_as_operator(&id).await.map_err(refused);
            match job {
                Ok(job) if job.state.is_over() => break Ok(job),
                Ok(job) => progress.rows(&job),
                Err(e) => break Err(e),
            }
            tokio::time::sleep(POLL).await;
        };
        // A turn at another queued job cut short lets its claim lapse; a later turn resumes it.
        worker.abort();
        let _ = worker.await;
        let job = ended?;
        progress.finish(&format!("{} rows read", job.counts.rows_read));
        if let Some(path) = &options.errors {
            let report = self.imports.errors_csv_as_operator(&id).await.map_err(refused)?;
            std::fs::write(path, report).with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(job)
    }

    /// Writes every product, published or not, to `file` in the import's columns: the number of
    /// products written. The file appears whole or not at all (written beside it, then renamed).
    ///
    /// # Errors
    /// A store's failure or the file not writable.
    pub async fn export_csv(&self, file: &Path) -> anyhow::Result<u64> {
        use std::io::Write as _;
        let partial = partial_path(file);
        let mut out = std::io::BufWriter::new(
            std::fs::File::create(&partial).with_context(|| format!("writing {}", partial.display()))?,
        );
        let mut export = self.exports.everything();
        let mut progress = Progress::new("export");
        let written = async {
            while let Some(part) = export.next_chunk().await.map_err(refused)? {
                out.write_all(&part).with_context(|| format!("writing {}", partial.display()))?;
                progress.count(export.rows());
            }
            out.flush().with_context(|| format!("writing {}", partial.display()))?;
            anyhow::Ok(())
        }
        .await;
        drop(out);
        if let Err(e) = written {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
        std::fs::rename(&partial, file).with_context(|| format!("writing {}", file.display()))?;
        progress.finish(&format!("{} products", export.rows()));
        Ok(export.rows())
    }
}

/// `FILE.part`, beside `file`.
fn partial_path(file: &Path) -> PathBuf {
    let mut name = file.file_name().map(std::ffi::OsStr::to_os_string).unwrap_or_default();
    name.push(".part");
    file.with_file_name(name)
}

/// An import refusal as the operator reads it: the message's words and code.
fn refused(e: ImportError) -> anyhow::Error {
    match e {
        ImportError::Unavailable(reason) => {
            anyhow::anyhow!("{} ({reason})", marque_domain::Message::ImportUnavailable.text())
        }
        e => {
            let m = e.message();
            anyhow::anyhow!("{} ({})", m.text(), m.code())
        }
    }
}

/// What the command prints when the job is over: its counts, one line.
#[must_use]
pub fn summary(job: &ImportJob) -> String {
    let c = job.counts;
    let mut line = format!(
        "import {} ({}): {}; {} rows read, {} accepted ({} created, {} updated, {} unchanged), {} refused",
        job.file_name,
        job.mode.code(),
        job.state.code(),
        c.rows_read,
        c.accepted,
        c.created,
        c.updated,
        c.unchanged,
        c.rejected
    );
    if job.mode == ImportMode::DryRun {
        line.push_str("; a dry run: nothing written");
    }
    if let Some(failure) = &job.failure {
        line.push_str(&format!("; failed: {failure}"));
    }
    line
}

/// The exit status for a job that ended: 0 done with every row accepted, 2 done with rows refused
/// (their report in `--errors`), 1 failed or cancelled.
#[must_use]
pub fn exit_status(job: &ImportJob) -> i32 {
    match job.state {
        ImportState::Done if job.counts.rejected == 0 => 0,
        ImportState::Done => 2,
        _ => 1,
    }
}

/// Progress on standard error: a bar on a terminal, else a plain line at most every second.
struct Progress {
    what: &'static str,
    bar: Option<indicatif::ProgressBar>,
    started: Instant,
    last_line: Option<Instant>,
    last_count: u64,
}

impl Progress {
    fn new(what: &'static str) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.enable_steady_tick(Duration::from_millis(120));
            bar.set_message(format!("{what}: starting"));
            bar
        });
        Progress { what, bar, started: Instant::now(), last_line: None, last_count: u64::MAX }
    }

    /// A running job's rows.
    fn rows(&mut self, job: &ImportJob) {
        let read = job.counts.rows_read;
        let total = job.rows_total;
        if let Some(bar) = &self.bar {
            if total > 0 && bar.length() != Some(total) {
                bar.set_length(total);
                if let Ok(style) =
                    indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} rows, {per_sec}, {eta} left")
                {
                    bar.set_style(style.progress_chars("=> "));
                }
            }
            bar.set_position(read);
            bar.set_message(format!("{}: {}", self.what, job.state.code()));
        } else if read > 0 && read != self.last_count && self.last_line.is_none_or(|at| at.elapsed() >= PLAIN_EVERY) {
            let of = if total > 0 { format!(" of {total}") } else { String::new() };
            eprintln!("{}: {} rows read{of} ({:.1} s)", self.what, read, self.started.elapsed().as_secs_f64());
            self.last_line = Some(Instant::now());
            self.last_count = read;
        }
    }

    /// Products written so far (an export).
    fn count(&mut self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{}: {n} products", self.what));
        } else if n > 0 && self.last_line.is_none_or(|at| at.elapsed() >= PLAIN_EVERY) {
            eprintln!("{}: {n} products ({:.1} s)", self.what, self.started.elapsed().as_secs_f64());
            self.last_line = Some(Instant::now());
        }
    }

    fn finish(&self, what: &str) {
        let line = format!("{}: {what} in {:.1} s", self.what, self.started.elapsed().as_secs_f64());
        match &self.bar {
            Some(bar) => bar.finish_with_message(line),
            None => eprintln!("{line}"),
        }
    }
}
