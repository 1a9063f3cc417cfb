//! The Marque binary: `serve` (default), `seed`, `export`, `import`, `import-csv`, `export-csv`,
//! `openapi`, `staff`.

use clap::{Parser, Subcommand};
use marque_server::listener::NoDelayAcceptor;
use marque_server::settings::database::DatabaseSettings;
use marque_server::settings::Environment;
use marque_server::{App, Flags, Settings};
use marque_surreal::Database;
use poem::listener::Acceptor;
use poem::Server;

#[derive(Debug, Parser)]
#[command(name = "marque-server", version, about = "Marque: spare parts for luxury cars")]
struct Cli {
    #[command(flatten)]
    flags: Flags,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the shop and its API (in `dev`, seeds the demo catalog into an empty database).
    Serve,
    /// Write the deterministic demo catalog into an empty database (`dev` only).
    Seed {
        /// Number of demo products.
        #[arg(long)]
        products: Option<u32>,
        /// Fitment rows a product (1 by default: its own generation; `make bench`'s fitment
        /// rows use 20, the product's model line nearest first).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=200))]
        fits: u16,
    },
    /// Write a backup of the database (every table's definition and record, SurrealQL) to FILE.
    /// Stop the server first when the database is embedded (surrealkv://).
    Export {
        /// Where to write the backup.
        file: std::path::PathBuf,
    },
    /// Restore a backup written by `export` into the configured database, which must be empty.
    /// A file that does not read through to the end mark `export` writes is refused.
    Import {
        /// The backup to restore.
        file: std::path::PathBuf,
        /// Erase everything in a non-empty database first, after writing it to a safety export
        /// (`$MARQUE_DATA_DIR/backups/before-import-<UTC time>.surql`).
        #[arg(long)]
        replace: bool,
    },
    /// Import a catalog CSV file (the columns of `GET /api/admin/exports/products.csv`), as
    /// `POST /api/admin/imports` does, and wait for its job to end, showing its progress on standard
    /// error; prints its counts. Exits 0 when every row was accepted, 2 when rows were refused, 1
    /// when the job failed. Stop the server first when the database is embedded (surrealkv://).
    ImportCsv {
        /// The CSV file (UTF-8, at most 100 MB).
        file: std::path::PathBuf,
        /// Check every row and count what applying would do, writing nothing of the catalog.
        #[arg(long)]
        dry_run: bool,
        /// Create the categories, subcategories and brands the file names and the shop lacks
        /// (named after their slugs) instead of refusing their rows.
        #[arg(long)]
        create_missing: bool,
        /// Write the refused rows there (`line,column,value,code,message`).
        #[arg(long)]
        errors: Option<std::path::PathBuf>,
    },
    /// Write every product, published or not, to FILE as CSV in the import's columns (importing it
    /// back writes nothing). `export` stays the database backup.
    ExportCsv {
        /// Where to write the CSV file.
        file: std::path::PathBuf,
    },
    /// Print the OpenAPI document the server publishes.
    Openapi,
    /// The back office's staff: add (prints a one-time set-up link), remove, list. Stop the server
    /// first when the database is embedded (surrealkv://); a ws:// server may keep running.
    Staff {
        #[command(subcommand)]
        action: marque_server::staff_cli::StaffCommand,
    },
}

fn main() -> anyhow::Result<()> {
    limit_malloc_arenas();
    // 8 MiB a thread, as the tests get (RUST_MIN_STACK in .cargo/config.toml): a debug build's photograph upload
    // overflowed the 2 MiB default of a worker and aborted the whole server.
    tokio::runtime::Builder::new_multi_thread().thread_stack_size(8 * 1024 * 1024).enable_all().build()?.block_on(run())
}

/// The binary runs itself again (the same process, `exec`) with `MALLOC_ARENA_MAX` set to
/// [`marque_server::memory::malloc_arenas`] (why that many: there and in ADR 0004) unless the variable
/// is set already: an operator's own value is kept, and a failed `exec` carries on as it is.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn limit_malloc_arenas() {
    use std::os::unix::process::CommandExt as _;
    const VARIABLE: &str = "MALLOC_ARENA_MAX";
    if std::env::var_os(VARIABLE).is_some() {
        return;
    }
    let Ok(exe) = std::env::current_exe() else { return };
    let arenas = marque_server::memory::malloc_arenas();
    let mut args = std::env::args_os();
    let arg0 = args.next().unwrap_or_else(|| exe.clone().into_os_string());
    let error = std::process::Command::new(&exe).arg0(arg0).args(args).env(VARIABLE, arenas.to_string()).exec();
    eprintln!(
        "marque-server: could not restart with {VARIABLE}={arenas} ({error}); going on with glibc's default arenas"
    );
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn limit_malloc_arenas() {}

async fn run() -> anyhow::Result<()> {
    let cli = Cli::parse();
    init_tracing();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(Settings::from_flags(cli.flags)?).await,
        Command::Seed { products, fits } => {
            if cli.flags.env == Environment::Prod {
                anyhow::bail!("marque-server seed writes the demo catalog; it is refused with MARQUE_ENV=prod");
            }
            let mut flags = cli.flags;
            if let Some(n) = products {
                flags.seed_products = n;
            }
            let app = App::connect(Settings::from_flags(flags)?).await?;
            let started = std::time::Instant::now();
            let step = (app.settings.seed_products / 10).max(1_000);
            let written = app
                .seed_if_empty_reporting(usize::from(fits), |done, count| {
                    if done % step < 1_000 || done == count {
                        eprintln!("seeding: {done} / {count} products ({:.1} s)", started.elapsed().as_secs_f64());
                    }
                })
                .await?;
            if written == 0 {
                println!("the catalog already has products; nothing written");
            } else {
                println!("wrote the demo catalog: {written} products");
            }
            close(app).await;
            Ok(())
        }
        Command::Export { file } => {
            // Only the database's settings: a backup is taken whatever else is configured.
            let db = DatabaseSettings::parse(&cli.flags);
            let database = Database::connect_with(db.url.as_str(), &db.connect_options()).await?;
            database.export_to(&file).await?;
            println!("wrote the backup {}", file.display());
            close_database(database).await;
            Ok(())
        }
        Command::Import { file, replace } => {
            let db = DatabaseSettings::parse(&cli.flags);
            let safety = replace.then(|| safety_export_path(&cli.flags.data_dir, chrono::Utc::now()));
            let (database, saved) =
                Database::restore(db.url.as_str(), &db.connect_options(), &file, safety.as_deref()).await?;
            if let Some(safety) = safety.filter(|_| saved) {
                println!("wrote what the database held to the safety export {}", safety.display());
            }
            println!("restored the backup {}", file.display());
            close_database(database).await;
            Ok(())
        }
        Command::ImportCsv { file, dry_run, create_missing, errors } => {
            let options = marque_server::catalog_cli::ImportCsv { file, dry_run, create_missing, errors };
            let (files, database) = catalog_files(cli.flags).await?;
            let outcome = files.import_csv(&options).await;
            drop(files);
            close_database(database).await;
            let job = outcome?;
            println!("{}", marque_server::catalog_cli::summary(&job));
            match marque_server::catalog_cli::exit_status(&job) {
                0 => Ok(()),
                status => std::process::exit(status),
            }
        }
        Command::ExportCsv { file } => {
            let (files, database) = catalog_files(cli.flags).await?;
            let outcome = files.export_csv(&file).await;
            drop(files);
            close_database(database).await;
            println!("wrote {} products to {}", outcome?, file.display());
            Ok(())
        }
        Command::Staff { action } => {
            let db = DatabaseSettings::parse(&cli.flags);
            let public_url = marque_server::settings::storefront::PublicUrl::parse(cli.flags.public_url.as_ref());
            let database = Database::connect_with(db.url.as_str(), &db.connect_options()).await?;
            let outcome =
                marque_server::staff_cli::run(&database, public_url.as_ref().map(|u| u.as_str()), action).await;
            close_database(database).await;
            println!("{}", outcome?);
            Ok(())
        }
        Command::Openapi => {
            let mut flags = cli.flags;
            flags.db = Some("mem://".into());
            let app = App::connect(Settings::from_flags(flags)?).await?;
            println!("{}", marque_api::spec_json(&app.services));
            Ok(())
        }
    }
}

/// The catalog's CSV import and export on the configured database and picture store.
async fn catalog_files(flags: Flags) -> anyhow::Result<(marque_server::catalog_cli::CatalogFiles, Database)> {
    let settings = Settings::from_flags(flags)?;
    let blobs = marque_server::app::blob_store(&settings)?;
    let url = settings.database.url.to_string();
    let database = Database::connect_with(&url, &settings.database.connect_options()).await?;
    Ok((marque_server::catalog_cli::CatalogFiles::new(&database, blobs), database))
}

/// Where `import --replace` saves what it is about to erase: a new file under the data directory.
fn safety_export_path(data_dir: &std::path::Path, now: chrono::DateTime<chrono::Utc>) -> std::path::PathBuf {
    let dir = data_dir.join("backups");
    let stamp = now.format("%Y%m%dT%H%M%SZ");
    let mut path = dir.join(format!("before-import-{stamp}.surql"));
    for n in 2.. {
        if !path.exists() {
            break;
        }
        path = dir.join(format!("before-import-{stamp}-{n}.surql"));
    }
    path
}

async fn serve(settings: Settings) -> anyhow::Result<()> {
    let addr = settings.addr.clone();
    if settings.env == Environment::Dev {
        marque_server::listener::dev_listens_on_loopback(&addr).await.map_err(anyhow::Error::msg)?;
    }
    let metrics_at = settings.metrics;
    if metrics_at != marque_server::metrics::MetricsAt::Off {
        marque_server::metrics::install().map_err(anyhow::Error::msg)?;
    }
    let app = App::connect(settings).await?;
    // A production shop starts from its own data (or a backup), never from the demo.
    if app.settings.env == Environment::Dev {
        let seeded = app.seed_if_empty().await?;
        if seeded > 0 {
            tracing::info!(products = seeded, "seeded the demo catalog");
        }
    }
    // The set-up link goes to standard output, once, never through the logger (it is a secret).
    if let Some(link) = app.ensure_first_owner().await? {
        println!("back office: the owner's one-time set-up link (24 hours): {link}");
    }
    let routes = app.routes()?;
    let acceptor = NoDelayAcceptor::bind(addr).await?.with_timeouts(app.settings.limits.timeouts());
    for local in acceptor.local_addr() {
        if let Some(addr) = local.as_socket_addr() {
            // Scripts and tests read this line to find a port picked with `:0`.
            println!("listening on http://{addr}");
        }
    }
    if let marque_server::metrics::MetricsAt::Loopback(at) = metrics_at {
        // Metrics help the operator, they serve no shopper: a port already taken (a second server
        // on this machine) leaves the shop serving, and says so.
        match marque_server::metrics::serve_apart(at).await {
            Ok(bound) => println!("metrics on http://{bound}/metrics"),
            Err(e) => {
                tracing::warn!(error = %e, address = %at, "the metrics listener cannot bind (MARQUE_METRICS); serving without it")
            }
        }
    }
    Server::new_with_acceptor(acceptor)
        .run_with_graceful_shutdown(routes, shutdown_signal(), Some(std::time::Duration::from_secs(5)))
        .await?;
    close(app).await;
    Ok(())
}

/// Lets the embedded database finish shutting down before the runtime stops.
///
/// The engine shuts its datastore down (flushing storage, stopping its maintenance tasks,
/// releasing its directory) on a task of its own once the last handle is dropped; if the process
/// exited first those tasks would be cancelled mid-way. Every commit is already synced to disk,
/// so a close cut short loses nothing; it only leaves the log to replay at the next start.
async fn close(app: App) {
    let within = std::time::Duration::from_secs(10);
    if app.close(within).await {
        tracing::info!("the database is closed");
    } else {
        tracing::warn!("the database was still in use after {} s; exiting without waiting further", within.as_secs());
    }
}

/// [`close`] for a database opened without the app (`export`, `import`).
async fn close_database(database: Database) {
    let closing = database.closing();
    drop(database);
    if !closing.wait(std::time::Duration::from_secs(10)).await {
        tracing::warn!("the database was still in use after 10 s; exiting without waiting further");
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}

/// Structured logs: human-readable by default, JSON with `MARQUE_LOG_FORMAT=json`;
/// levels from `RUST_LOG` (default `info`).
fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,surrealdb=warn,surrealdb_core=warn"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    if std::env::var("MARQUE_LOG_FORMAT").is_ok_and(|f| f == "json") {
        builder.json().init();
    } else {
        builder.init();
    }
}
