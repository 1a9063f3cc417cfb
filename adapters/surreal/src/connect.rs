//! Opening the database on one of its engines, once, and handing out the stores.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use surrealdb::engine::local::Db;
use surrealdb::opt::auth::{Database as DatabaseUser, Namespace as NamespaceUser, Root};
use surrealdb::Surreal;
use surrealdb_cnf::ConfigMap;
use surrealdb_core::kvs::Datastore;

use crate::conn::Conn;
use crate::link::{Guarded, Link, SurrealReadiness};
use crate::schema::{self, AppliedMigration};
use crate::staff::SurrealStaffStore;
use crate::{
    SurrealAccountStore, SurrealAddressStore, SurrealAuditLog, SurrealCatalogChanges, SurrealCatalogEditor,
    SurrealCatalogStore, SurrealOrderStore, SurrealRateCounter, SurrealStockLedger, SurrealWishlistStore,
};

/// Why the database could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConnectError {
    #[error("unsupported database address `{url}`: use mem://, surrealkv://<dir> or ws://host:port")]
    UnsupportedUrl { url: String },
    #[error("invalid {what} `{value}`: use letters, digits and underscores")]
    InvalidName { what: &'static str, value: String },
    #[error("cannot create the database directory {}: {reason}", path.display())]
    DataDir { path: PathBuf, reason: String },
    #[error("cannot open the database at {url}: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("the database at {url} refused the credentials: {reason}")]
    SignIn { url: String, reason: String },
    #[error("cannot bring the database schema up to date: {reason}")]
    Schema { reason: String },
    #[error("invalid {what} of {value} MB: use {min} to {max} MB")]
    StoreMemory { what: &'static str, value: u64, min: u64, max: u64 },
}

/// A user of a SurrealDB server (`ws://`); embedded engines need none.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    pub username: String,
    pub password: String,
    /// Where the user is defined on the server.
    pub level: UserLevel,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("username", &self.username)
            .field("password", &"…")
            .field("level", &self.level)
            .finish()
    }
}

/// The level a SurrealDB user is defined on (`DEFINE USER … ON ROOT | NAMESPACE | DATABASE`).
///
/// The shop needs no more than its own database: a `Database` user with the `EDITOR` role can
/// read and write its data and apply its schema migrations, and cannot see anything else on
/// the server. `Root` is for tests and tooling that create databases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UserLevel {
    Root,
    Namespace,
    #[default]
    Database,
}

/// Where inside the database server the shop's data lives, and who signs in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectOptions {
    /// Default `marque`.
    pub namespace: String,
    /// Default `shop`.
    pub database: String,
    /// Signs in as this user when given (at its level, on this namespace and database).
    pub credentials: Option<Credentials>,
    /// How long one store call to a server (`ws://`) may take before it answers its port's
    /// `Unavailable` error (default 30 s): a backstop, as a server that stops answering probes
    /// cuts calls short sooner. Embedded engines have no deadline.
    pub timeout: Duration,
    /// What an embedded `surrealkv://` store may keep in memory (`mem://` and `ws://` ignore it).
    pub store_memory: StoreMemory,
    /// Whether the catalog store answers search rankings and listing counts from the in-process
    /// index (ADR 0019; default `true`). `false` leaves every answer to the database's statements,
    /// exactly as before the index (same answers, slower when cold).
    pub catalog_index: bool,
}

impl Default for ConnectOptions {
    fn default() -> Self {
        Self {
            namespace: "marque".to_owned(),
            database: "shop".to_owned(),
            credentials: None,
            timeout: Duration::from_secs(30),
            store_memory: StoreMemory::default(),
            catalog_index: true,
        }
    }
}

/// The memory SurrealKV keeps, in megabytes (MiB). Left to itself it sizes its block cache at
/// half the machine's memory less 1 GiB and its memtable at up to 4 GiB, far more than a shop's
/// catalog needs; the shop keeps its own caches of finished answers above it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreMemory {
    /// The block cache: blocks of the store's files read recently (default 16).
    pub block_cache_mb: u64,
    /// The memtable: writes not yet flushed to a file (default 64). One transaction's writes must
    /// fit in it, or the transaction fails: a 1,000-product catalog write (the seed's) needs more
    /// than 4 MB and fits in 16.
    pub memtable_mb: u64,
}

impl Default for StoreMemory {
    fn default() -> Self {
        Self { block_cache_mb: 16, memtable_mb: 64 }
    }
}

impl StoreMemory {
    /// Bounds accepted for the block cache (SurrealKV's blocks are 64 KiB).
    pub const BLOCK_CACHE_MB: (u64, u64) = (1, 65_536);
    /// Bounds accepted for the memtable: below 4 MB a catalog write no longer fits.
    pub const MEMTABLE_MB: (u64, u64) = (4, 16_384);

    /// Both sizes in bytes, when each is within its bounds.
    ///
    /// # Errors
    /// [`ConnectError::StoreMemory`] naming the first size out of bounds.
    pub fn bytes(&self) -> Result<(u64, u64), ConnectError> {
        let check = |what: &'static str, value: u64, (min, max): (u64, u64)| {
            if (min..=max).contains(&value) {
                Ok(value << 20)
            } else {
                Err(ConnectError::StoreMemory { what, value, min, max })
            }
        };
        Ok((
            check("SurrealKV block cache", self.block_cache_mb, Self::BLOCK_CACHE_MB)?,
            check("SurrealKV memtable", self.memtable_mb, Self::MEMTABLE_MB)?,
        ))
    }
}

/// The shop's database: one connection, shared by every store it hands out.
#[derive(Debug, Clone)]
pub struct Database {
    pub(crate) db: Conn,
    pub(crate) database: String,
    pub(crate) namespace: String,
    /// The address as shown in messages (no password).
    pub(crate) url: String,
    link: Link,
    /// The in-process catalog index its catalog stores share (ADR 0019).
    catalog_index: crate::catalog::CatalogFollower,
    /// Whether the shop's catalog store uses it ([`ConnectOptions::catalog_index`]).
    catalog_index_on: bool,
    /// The `LOCK` file of a `surrealkv://` directory.
    lock: Option<PathBuf>,
}

/// How long to wait for a `surrealkv://` directory another handle in this process is
/// still closing: the engine shuts down in the background after its last handle drops.
const LOCK_WAIT: Duration = Duration::from_secs(5);

impl Database {
    /// Opens `url` with the default namespace and database and brings the schema up to date.
    ///
    /// `url` is `mem://` (in memory, gone when the last handle drops), `surrealkv://<dir>`
    /// (embedded and durable; the directory, relative or absolute, is created when missing)
    /// or `ws://host:port` / `wss://host:port` (a SurrealDB server).
    ///
    /// # Errors
    /// See [`ConnectError`].
    pub async fn connect(url: &str) -> Result<Self, ConnectError> {
        Self::connect_with(url, &ConnectOptions::default()).await
    }

    /// [`Database::connect`] with a chosen namespace, database and credentials.
    ///
    /// # Errors
    /// See [`ConnectError`].
    pub async fn connect_with(url: &str, options: &ConnectOptions) -> Result<Self, ConnectError> {
        let db = Self::open_unmigrated(url, options).await?;
        schema::migrate(&db.db).await?;
        tracing::debug!(namespace = %options.namespace, database = %options.database, "database ready");
        Ok(db)
    }

    /// Opens `url` and selects the namespace and database, leaving the schema as it is
    /// (a restore brings its own).
    pub(crate) async fn open_unmigrated(url: &str, options: &ConnectOptions) -> Result<Self, ConnectError> {
        check_name("namespace", &options.namespace)?;
        check_name("database", &options.database)?;
        // Checked whatever the engine, so a bad setting is found where it is made.
        options.store_memory.bytes()?;
        let endpoint = Endpoint::parse(url)?;
        let shown = endpoint.to_string();
        let db = endpoint.open(options.store_memory).await?;
        if let Some(credentials) = &options.credentials {
            let signed_in = match &db {
                Conn::Any(db) => sign_in(db, credentials, options).await,
                Conn::Local(db) => sign_in(db, credentials, options).await,
            };
            signed_in.map_err(|e| ConnectError::SignIn { url: shown.clone(), reason: e.message().to_owned() })?;
        }
        db.use_ns_db(&options.namespace, &options.database)
            .await
            .map_err(|e| ConnectError::Unreachable { url: shown.clone(), reason: e.message().to_owned() })?;
        let server = match &endpoint {
            Endpoint::Server(url) => Some(host_and_port(url)),
            Endpoint::Memory | Endpoint::SurrealKv(_) => None,
        };
        let link = Link::new(db.clone(), server, options.timeout);
        let lock = match &endpoint {
            Endpoint::SurrealKv(dir) => Some(absolute_dir(dir)?.join("LOCK")),
            Endpoint::Memory | Endpoint::Server(_) => None,
        };
        Ok(Self {
            catalog_index: crate::catalog::CatalogFollower::new(db.clone()),
            catalog_index_on: options.catalog_index,
            db,
            database: options.database.clone(),
            namespace: options.namespace.clone(),
            url: shown,
            link,
            lock,
        })
    }

    /// The catalog store on this connection.
    #[must_use]
    pub fn catalog(&self) -> Guarded<SurrealCatalogStore> {
        self.catalog_using(if self.catalog_index_on {
            crate::catalog::CatalogIndexUse::WhenInStep
        } else {
            crate::catalog::CatalogIndexUse::Never
        })
    }

    /// The catalog store answering every read with the database's own statements, never from the
    /// in-process index (ADR 0019): the reference the index is tested against.
    #[doc(hidden)]
    #[must_use]
    pub fn catalog_unindexed(&self) -> Guarded<SurrealCatalogStore> {
        self.catalog_using(crate::catalog::CatalogIndexUse::Never)
    }

    /// The catalog store that brings the in-process index in step before every read (rebuilding it
    /// at once when a write moved the version), so that its counts and rankings come from the
    /// index: for tests.
    #[doc(hidden)]
    #[must_use]
    pub fn catalog_indexed(&self) -> Guarded<SurrealCatalogStore> {
        self.catalog_using(crate::catalog::CatalogIndexUse::Always)
    }

    /// Whether the in-process catalog index is in step with the database now (applying what recent
    /// back-office writes changed, when that is all it takes): for tests.
    #[doc(hidden)]
    pub async fn catalog_index_in_step(&self) -> bool {
        match self.catalog_index.stamp().await {
            Ok(stamp) => self.catalog_index.answer(&stamp, |_| ()).await.is_ok(),
            Err(_) => false,
        }
    }

    /// How many recent catalog change rows the in-process index has not applied yet, applying none;
    /// `None` when it is not built at the database's catalog version: for tests.
    #[doc(hidden)]
    pub async fn catalog_index_unapplied(&self) -> Option<usize> {
        let stamp = self.catalog_index.stamp().await.ok()?;
        self.catalog_index.unapplied(&stamp)
    }

    fn catalog_using(&self, uses: crate::catalog::CatalogIndexUse) -> Guarded<SurrealCatalogStore> {
        let store = SurrealCatalogStore::new(self.db.clone(), self.catalog_index.clone(), uses);
        Guarded::new(store, self.link.clone())
    }

    /// Starts the in-process catalog index (ADR 0019: names and listing fields of every product, kept
    /// in step with the database) and waits, at most `within`, for its first build; `true` once built.
    /// The catalog store starts it on its first read anyway; a server calls this at start so that its
    /// first answers are quick, and CLI commands never pay for it.
    pub async fn build_catalog_index(&self, within: Duration) -> bool {
        self.catalog_index_on && self.catalog_index.built_within(within).await
    }

    /// The back office's catalog store (products published or not, categories, brands) on this
    /// connection.
    #[must_use]
    pub fn catalog_editor(&self) -> Guarded<SurrealCatalogEditor> {
        Guarded::new(SurrealCatalogEditor::new(self.db.clone()), self.link.clone())
    }

    /// The catalog's changes (its version and the recent stock changes) on this connection, for
    /// caches of catalog answers.
    #[must_use]
    pub fn catalog_changes(&self) -> Guarded<SurrealCatalogChanges> {
        let index = self.catalog_index_on.then(|| self.catalog_index.clone());
        Guarded::new(SurrealCatalogChanges::new(self.db.clone(), index), self.link.clone())
    }

    /// The account store (customers, sessions, one-time codes) on this connection.
    #[must_use]
    pub fn accounts(&self) -> Guarded<SurrealAccountStore> {
        Guarded::new(SurrealAccountStore::new(self.db.clone()), self.link.clone())
    }

    /// The audit trail (read back; the staff-facing stores write it) on this connection.
    #[must_use]
    pub fn audit_log(&self) -> Guarded<SurrealAuditLog> {
        Guarded::new(SurrealAuditLog::new(self.db.clone()), self.link.clone())
    }

    /// The shared rate counters on this connection.
    #[must_use]
    pub fn rate_counter(&self) -> Guarded<SurrealRateCounter> {
        Guarded::new(SurrealRateCounter::new(self.db.clone()), self.link.clone())
    }

    /// The order store (reservations, orders, number series) on this connection.
    #[must_use]
    pub fn orders(&self) -> Guarded<SurrealOrderStore> {
        Guarded::new(SurrealOrderStore::new(self.db.clone()), self.link.clone())
    }

    /// The back office's orders (list, detail, status and shipment changes) on this connection.
    #[must_use]
    pub fn order_desk(&self) -> Guarded<crate::SurrealOrderDesk> {
        Guarded::new(crate::SurrealOrderDesk::new(self.db.clone()), self.link.clone())
    }

    /// The outbox of customers' order notices, for the worker that sends them (migration 27).
    #[must_use]
    pub fn notice_outbox(&self) -> Guarded<crate::SurrealNoticeOutbox> {
        Guarded::new(crate::SurrealNoticeOutbox::new(self.db.clone()), self.link.clone())
    }

    /// The vehicle table and products' fitment on this connection (migration 25).
    #[must_use]
    pub fn vehicles(&self) -> Guarded<crate::SurrealVehicleStore> {
        Guarded::new(crate::SurrealVehicleStore::new(self.db.clone()), self.link.clone())
    }

    /// The returns within the warranty on this connection (migration 30).
    #[must_use]
    pub fn returns(&self) -> Guarded<crate::SurrealReturnStore> {
        Guarded::new(crate::SurrealReturnStore::new(self.db.clone()), self.link.clone())
    }

    /// The grievance tickets on this connection.
    #[must_use]
    pub fn grievances(&self) -> Guarded<crate::SurrealGrievanceStore> {
        Guarded::new(crate::SurrealGrievanceStore::new(self.db.clone()), self.link.clone())
    }

    /// The catalog import jobs on this connection (migration 23).
    #[must_use]
    pub fn import_jobs(&self) -> Guarded<crate::SurrealImportJobs> {
        Guarded::new(crate::SurrealImportJobs::new(self.db.clone()), self.link.clone())
    }

    /// The stock ledger (staff adjustments, history, low stock) on this connection.
    #[must_use]
    pub fn stock(&self) -> Guarded<SurrealStockLedger> {
        Guarded::new(SurrealStockLedger::new(self.db.clone()), self.link.clone())
    }

    /// The store credit ledger (grants and balances; spending is the order store's) on this connection.
    #[must_use]
    pub fn store_credit(&self) -> Guarded<crate::store_credit::SurrealStoreCredit> {
        Guarded::new(crate::store_credit::SurrealStoreCredit::new(self.db.clone()), self.link.clone())
    }

    /// The garage store (signed-in shoppers' cars) on this connection.
    #[must_use]
    pub fn garage(&self) -> Guarded<crate::garage::SurrealGarageStore> {
        Guarded::new(crate::garage::SurrealGarageStore::new(self.db.clone()), self.link.clone())
    }

    /// The wishlist store on this connection.
    #[must_use]
    pub fn wishlist(&self) -> Guarded<SurrealWishlistStore> {
        Guarded::new(SurrealWishlistStore::new(self.db.clone()), self.link.clone())
    }

    /// Products' pictures as the back office sets them, on this connection.
    #[must_use]
    pub fn photos(&self) -> Guarded<crate::SurrealProductPhotos> {
        Guarded::new(crate::SurrealProductPhotos::new(self.db.clone()), self.link.clone())
    }

    /// The address store (customers' delivery addresses) on this connection.
    #[must_use]
    pub fn addresses(&self) -> Guarded<SurrealAddressStore> {
        Guarded::new(SurrealAddressStore::new(self.db.clone()), self.link.clone())
    }

    /// The staff store (the back office's people, set-up codes, sessions) on this connection.
    #[must_use]
    pub fn staff(&self) -> Guarded<SurrealStaffStore> {
        Guarded::new(SurrealStaffStore::new(self.db.clone()), self.link.clone())
    }

    /// Whether the database answers right now (a `RETURN 1` round trip, no table read), for
    /// readiness probes.
    #[must_use]
    pub fn readiness(&self) -> SurrealReadiness {
        SurrealReadiness::new(self.link.clone())
    }

    /// What to wait on, once every handle of this database is dropped, for the engine to have
    /// closed. See [`Closing::wait`].
    #[must_use]
    pub fn closing(&self) -> Closing {
        Closing { lock: self.lock.clone() }
    }

    /// Applies any migration the database has not recorded. [`Database::connect`]
    /// already did; running it again is a no-op.
    ///
    /// # Errors
    /// [`ConnectError::Schema`] when a migration fails.
    pub async fn migrate(&self) -> Result<(), ConnectError> {
        schema::migrate(&self.db).await
    }

    /// The migrations this database has recorded as applied, in order.
    ///
    /// # Errors
    /// [`ConnectError::Schema`] when they cannot be read.
    pub async fn applied_migrations(&self) -> Result<Vec<AppliedMigration>, ConnectError> {
        schema::applied(&self.db).await
    }

    /// Defines (or redefines) a user of this database with the `EDITOR` role: what the shop
    /// signs in as on a server ([`UserLevel::Database`]). Needs a connection signed in above
    /// the database (root or namespace); for tests and tooling, the shop never calls it.
    ///
    /// # Errors
    /// [`ConnectError::InvalidName`] for a username that is not a plain identifier;
    /// [`ConnectError::Unreachable`] when the server refuses.
    pub async fn define_editor(&self, username: &str, password: &str) -> Result<(), ConnectError> {
        check_name("username", username)?;
        // DEFINE USER takes the password as a string literal, not a parameter.
        let literal = password.replace('\\', "\\\\").replace('\'', "\\'");
        self.db
            .query(format!("DEFINE USER OVERWRITE {username} ON DATABASE PASSWORD '{literal}' ROLES EDITOR"))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map(drop)
            .map_err(|e| ConnectError::Unreachable {
                url: "the current database".to_owned(),
                reason: e.message().to_owned(),
            })
    }

    /// Removes this database and everything in it. For tests and tooling against a
    /// shared server; the shop itself never calls it.
    ///
    /// # Errors
    /// [`ConnectError::Unreachable`] when the server refuses or cannot be reached.
    pub async fn erase(self) -> Result<(), ConnectError> {
        // The name passed `check_name`, so it is a plain identifier.
        self.db
            .query(format!("REMOVE DATABASE IF EXISTS {}", self.database))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map(drop)
            .map_err(|e| ConnectError::Unreachable {
                url: "the current database".to_owned(),
                reason: e.message().to_owned(),
            })
    }
}

/// An embedded database closing in the background.
///
/// The SDK shuts the engine down on a task of its own once the last handle of the connection
/// is dropped, and offers nothing to await. SurrealKV's shutdown flushes its memtable and write-ahead
/// log, syncs the directory and, last, releases its `LOCK` file (an `flock`): that release is
/// the sign it is done.
#[derive(Debug, Clone)]
pub struct Closing {
    lock: Option<PathBuf>,
}

impl Closing {
    /// Waits, at most `within`, for the engine to release its directory; `true` once it has (at
    /// once for `mem://` and `ws://`, which keep nothing on this machine). Call it after dropping
    /// every handle: while one is alive the engine stays open.
    pub async fn wait(&self, within: Duration) -> bool {
        let Some(lock) = &self.lock else { return true };
        let started = tokio::time::Instant::now();
        loop {
            if released(lock) {
                return true;
            }
            if started.elapsed() >= within {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Whether nothing holds the `flock` on `lock` (taking it for an instant to find out).
fn released(lock: &Path) -> bool {
    match std::fs::File::open(lock) {
        // Dropping the file releases the lock just taken.
        Ok(file) => file.try_lock().is_ok(),
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    }
}

fn check_name(what: &'static str, value: &str) -> Result<(), ConnectError> {
    let plain = !value.is_empty() && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        Ok(())
    } else {
        Err(ConnectError::InvalidName { what, value: value.to_owned() })
    }
}

/// An engine and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Endpoint {
    Memory,
    SurrealKv(PathBuf),
    Server(String),
}

impl Endpoint {
    fn parse(url: &str) -> Result<Self, ConnectError> {
        let url = url.trim();
        let unsupported = || ConnectError::UnsupportedUrl { url: redact(url) };
        if url == "mem://" || url == "memory" {
            return Ok(Endpoint::Memory);
        }
        if let Some(dir) = url.strip_prefix("surrealkv://") {
            if dir.is_empty() || dir.contains('?') {
                return Err(unsupported());
            }
            return Ok(Endpoint::SurrealKv(PathBuf::from(dir)));
        }
        let is_server = ["ws://", "wss://"].iter().any(|scheme| url.starts_with(scheme) && url.len() > scheme.len());
        if is_server {
            return Ok(Endpoint::Server(url.to_owned()));
        }
        Err(unsupported())
    }

    async fn open(&self, memory: StoreMemory) -> Result<Conn, ConnectError> {
        let any =
            |result: surrealdb::Result<Surreal<_>>| result.map(Conn::Any).map_err(|e| self.unreachable(e.message()));
        match self {
            Endpoint::Memory => any(surrealdb::engine::any::connect("mem://").await),
            Endpoint::Server(url) => any(surrealdb::engine::any::connect(url.as_str()).await),
            Endpoint::SurrealKv(dir) => {
                let (block_cache, memtable) = memory.bytes()?;
                let dir = absolute_dir(dir)?;
                let address = format!("surrealkv://{}", dir.display());
                let config = ConfigMap::empty()
                    .with_key_value("surrealkv_block_cache_capacity", block_cache.to_string())
                    .with_key_value("surrealkv_max_memtable_size", memtable.to_string());
                let started = tokio::time::Instant::now();
                loop {
                    match open_surrealkv(&address, config.clone()).await {
                        Ok(db) => return Ok(Conn::Local(db)),
                        Err(e) if e.contains("locked") && started.elapsed() < LOCK_WAIT => {
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        Err(e) => return Err(self.unreachable(&e)),
                    }
                }
            }
        }
    }

    fn unreachable(&self, reason: &str) -> ConnectError {
        ConnectError::Unreachable { url: self.to_string(), reason: reason.to_owned() }
    }
}

/// Signs in on `db` as `credentials`, at their level.
async fn sign_in<C: surrealdb::Connection>(
    db: &Surreal<C>,
    credentials: &Credentials,
    options: &ConnectOptions,
) -> surrealdb::Result<()> {
    let username = credentials.username.clone();
    let password = credentials.password.clone();
    let namespace = options.namespace.clone();
    match credentials.level {
        UserLevel::Root => db.signin(Root { username, password }).await.map(drop),
        UserLevel::Namespace => db.signin(NamespaceUser { namespace, username, password }).await.map(drop),
        UserLevel::Database => {
            let database = options.database.clone();
            db.signin(DatabaseUser { namespace, database, username, password }).await.map(drop)
        }
    }
}

/// Opens the SurrealKV store at `address` with `config` and serves it through the SDK.
///
/// What the SDK does for a `surrealkv://` address (`surrealdb-engine-local`'s `connect`), with
/// the store's settings ours: the datastore with the SDK's default capabilities, no
/// authentication and no timeouts; its storage version checked (refusing a store written by an
/// incompatible version) before anything writes, then this node registered (`bootstrap`) and the
/// maintenance tasks started. Live-query notifications are not wired: the shop uses none.
async fn open_surrealkv(address: &str, config: ConfigMap) -> Result<Surreal<Db>, String> {
    let datastore: Arc<Datastore> = Datastore::builder()
        .with_config(config)
        .without_maintenance_tasks()
        .build_with_path(address)
        .await
        .map_err(|e| format!("{e:#}"))?;
    datastore.check_version().await.map_err(|e| format!("{e:#}"))?;
    datastore.bootstrap().await.map_err(|e| format!("{e:#}"))?;
    datastore.start_maintenance_tasks();
    Surreal::<Db>::unstable_from_datastore(datastore, None).await.map_err(|e| e.message().to_owned())
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Endpoint::Memory => f.write_str("mem://"),
            Endpoint::SurrealKv(dir) => write!(f, "surrealkv://{}", dir.display()),
            Endpoint::Server(url) => f.write_str(&redact(url)),
        }
    }
}

/// Creates `dir` when missing and returns it absolute, so the engine and the logs agree
/// on one place however the current directory changes later.
fn absolute_dir(dir: &Path) -> Result<PathBuf, ConnectError> {
    let fail = |e: std::io::Error| ConnectError::DataDir { path: dir.to_owned(), reason: e.to_string() };
    std::fs::create_dir_all(dir).map_err(fail)?;
    dir.canonicalize().map_err(fail)
}

/// `host:port` of a `ws://` or `wss://` address (port 80 or 443 when it names none).
fn host_and_port(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("ws", url));
    let authority = rest.split(['/', '?']).next().unwrap_or(rest);
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let has_port =
        host.rsplit_once(':').is_some_and(|(_, port)| port.chars().all(|c| c.is_ascii_digit()) && !port.is_empty());
    if has_port {
        host.to_owned()
    } else {
        format!("{host}:{}", if scheme == "wss" { 443 } else { 80 })
    }
}

/// The address without any `user:password@` part, for messages and logs.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => format!("{}://…@{}", &url[..scheme_end], &url[at + 1..]),
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_name_their_engine() {
        assert_eq!(Endpoint::parse("mem://"), Ok(Endpoint::Memory));
        assert_eq!(Endpoint::parse(" memory "), Ok(Endpoint::Memory));
        assert_eq!(Endpoint::parse("surrealkv://data/db"), Ok(Endpoint::SurrealKv(PathBuf::from("data/db"))));
        assert_eq!(
            Endpoint::parse("surrealkv:///var/lib/marque"),
            Ok(Endpoint::SurrealKv(PathBuf::from("/var/lib/marque")))
        );
        assert_eq!(Endpoint::parse("ws://127.0.0.1:8000"), Ok(Endpoint::Server("ws://127.0.0.1:8000".into())));
        assert_eq!(Endpoint::parse("wss://db.example.in"), Ok(Endpoint::Server("wss://db.example.in".into())));
        for bad in ["", "surrealkv://", "ws://", "rocksdb://x", "postgres://u@h/db", "mem://x", "data/db"] {
            assert!(matches!(Endpoint::parse(bad), Err(ConnectError::UnsupportedUrl { .. })), "{bad:?}");
        }
    }

    #[test]
    fn passwords_stay_out_of_messages() {
        let e = Endpoint::parse("http://root:secret@db:8000").expect_err("http is not an engine here");
        assert!(!e.to_string().contains("secret"), "{e}");
        assert_eq!(Endpoint::parse("ws://root:secret@db:8000").map(|e| e.to_string()), Ok("ws://…@db:8000".to_owned()));
        let credentials = Credentials { username: "root".into(), password: "secret".into(), level: UserLevel::Root };
        assert!(!format!("{credentials:?}").contains("secret"));
    }

    #[test]
    fn the_watchdog_dials_the_servers_host_and_port() {
        assert_eq!(host_and_port("ws://127.0.0.1:8000"), "127.0.0.1:8000");
        assert_eq!(host_and_port("ws://root:pw@db.local:8000/rpc"), "db.local:8000");
        assert_eq!(host_and_port("wss://db.example.in"), "db.example.in:443");
        assert_eq!(host_and_port("ws://db"), "db:80");
        assert_eq!(host_and_port("ws://[::1]:8000"), "[::1]:8000");
        assert_eq!(host_and_port("wss://[::1]"), "[::1]:443");
    }

    #[test]
    fn names_are_plain_identifiers() {
        assert!(check_name("database", "shop_2").is_ok());
        for bad in ["", "shop; REMOVE NAMESPACE marque", "a-b", "`x`", "ünï"] {
            assert!(check_name("database", bad).is_err(), "{bad:?}");
        }
    }
}
