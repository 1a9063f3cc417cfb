//! Keeps the in-process [`CatalogIndex`] in step with the database (ADR 0019), and tells a read
//! whether it may answer from it.
//!
//! - **A stamp says where the database is.** Every indexed read runs [`STAMP`] in its own request:
//!   the catalog version (`catalog_meta:version`, moved by the writes that do not say what they
//!   changed: the seed and the command line's `add_products`, `put_brands`, `put_categories`), the
//!   keys of the `catalog_change` rows of the last [`CHANGE_WINDOW_SECS`] (every back-office write
//!   records one in its transaction, ADR 0018) and the database's time.
//! - **The index answers only when it is in step.** Built at version *v* from one read transaction
//!   (a snapshot), it knows the change rows that snapshot held. A read whose stamp shows the same
//!   version answers from the index once every change row of the stamp is applied: the products the
//!   new rows name are read again (or found gone) and replaced, under one lock so that a product is
//!   never replaced by an older read of itself. A moved version, a category or brand rename (its
//!   products move without being named), or more than [`STALE_AFTER_SECS`] since the last look
//!   (change rows are swept after a minute) start a rebuild in the background; meanwhile reads take
//!   the database's own path, exactly as before the index.
//! - **A poll keeps it fresh.** Every [`POLL`] a task applies what changed, so a read rarely waits for
//!   it, and an idle shop never drifts past [`STALE_AFTER_SECS`]. The answer caches' poll (every
//!   ~200 ms) also brings it in step ([`CatalogFollower::catch_up`]) just before it reads the changes
//!   whose answers it forgets, so the reads asking those answers again find the change applied. The
//!   task holds the index weakly and ends once every store of the database has been dropped.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock, Weak};
use std::time::Duration;

use surrealdb::types::SurrealValue;

use super::index::{CatalogIndex, IndexedProduct};
use crate::conn::Conn;

/// The database's position, read before every indexed answer.
pub(crate) const STAMP: &str = "RETURN { \
    version: (SELECT VALUE n FROM catalog_meta:version)[0] ?? 0, \
    changes: (SELECT VALUE record::id(id) FROM catalog_change WHERE at > time::now() - 50s), \
    now: time::unix(time::now()) \
};";

/// Seconds of `catalog_change` rows a stamp reads; they are swept once a minute old.
const CHANGE_WINDOW_SECS: i64 = 50;

/// Past this many seconds without a look at the database, rows the index never saw may have been
/// swept: the index is rebuilt rather than trusted.
const STALE_AFTER_SECS: i64 = CHANGE_WINDOW_SECS - 10;

/// How often the index looks at the database on its own.
const POLL: Duration = Duration::from_secs(2);

/// Products read a request while building. Small: each request's rows (with up to 20 fitment rows
/// a product, thousands of SurrealDB values) are garbage once put, and the heap a large page leaves
/// behind stays resident around the index's own allocations. At 100,000 products with 20 fitment
/// rows each, 5,000 a request took 20–29 s and left 165 MB of anonymous memory at rest (ready
/// answers off); 100 a request took 15 s and left 111 MB with them on (`bench/results/issue-25.md`).
const BUILD_PAGE: u32 = 100;

/// What the index keeps of a product, read by the database (the name's words analysed by it).
const INDEX_FIELDS: &str = "record::id(id) AS id, search::analyze('product_query', name) AS words, \
    oem_slug, category_slug, subcategory_slug, condition, fuel_type, grade, created_at, \
    type::record('product_fitment', IF type::is_record(id) THEN record::id(id) ELSE id END).fits AS fits";

/// A [`STAMP`] as read.
#[derive(Debug, Clone, SurrealValue)]
pub(crate) struct Stamp {
    version: i64,
    changes: Vec<String>,
    now: i64,
}

#[derive(Debug, SurrealValue)]
struct IndexRow {
    id: String,
    words: Vec<String>,
    oem_slug: String,
    category_slug: String,
    subcategory_slug: String,
    condition: String,
    fuel_type: Option<String>,
    /// Migration 28; absent in rows stored before it.
    grade: Option<String>,
    created_at: i64,
    /// The product's fitment rows; `None` without a `product_fitment` record.
    fits: Option<Vec<crate::vehicles::FitRow>>,
}

impl From<IndexRow> for IndexedProduct {
    fn from(r: IndexRow) -> Self {
        Self {
            id: r.id,
            words: r.words,
            oem_slug: r.oem_slug,
            category_slug: r.category_slug,
            subcategory_slug: r.subcategory_slug,
            condition: r.condition,
            fuel: r.fuel_type,
            grade: r.grade,
            created_at: r.created_at,
            fits: r.fits.unwrap_or_default().iter().map(crate::vehicles::FitRow::indexed).collect(),
        }
    }
}

/// What the change rows a stamp newly shows ask of the index.
#[derive(Debug, SurrealValue)]
struct Catchup {
    /// Category and brand slugs renamed: their products moved without being named.
    renamed: i64,
    /// Every product the rows name.
    products: Vec<String>,
    /// Those of them in the shop (the others left it).
    rows: Vec<IndexRow>,
}

const CATCH_UP: &str = "
LET $rows = (SELECT products, categories, brands FROM $changes.map(|$c| type::record('catalog_change', $c)));
LET $products = array::distinct(array::flatten($rows.products));
RETURN {
    renamed: array::len(array::flatten($rows.categories)) + array::len(array::flatten($rows.brands)),
    products: $products,
    rows: (SELECT {INDEX_FIELDS} FROM $products.map(|$p| type::record('product', $p)))
};";

/// The index as built, and where in the database it stands.
#[derive(Debug)]
struct Built {
    index: CatalogIndex,
    version: i64,
    /// The change rows it holds (of the last window).
    seen: HashSet<String>,
    /// The database's time of the last stamp it was found in step with.
    checked_at: i64,
    /// Moves with every rebuild, so a catch-up read for an older index is dropped.
    generation: u64,
}

impl Built {
    /// Of `changes` (a stamp's change rows), those it has not applied.
    fn unseen<'a>(&'a self, changes: &'a [String]) -> impl Iterator<Item = &'a String> + 'a {
        changes.iter().filter(|c| !self.seen.contains(*c))
    }
}

struct Shared {
    db: Conn,
    built: RwLock<Option<Built>>,
    /// Held while reading changed products for the index and applying them, and while a rebuilt
    /// index replaces the old one, so that writes apply in the order they were read.
    applying: tokio::sync::Mutex<()>,
    building: AtomicBool,
    polling: AtomicBool,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let built = self.built.read().ok().and_then(|b| b.as_ref().map(|b| (b.version, b.index.count())));
        f.debug_struct("CatalogIndex").field("version_and_products", &built).finish_non_exhaustive()
    }
}

/// The in-process catalog index of one database, shared by its catalog stores.
#[derive(Debug, Clone)]
pub(crate) struct CatalogFollower {
    shared: Arc<Shared>,
}

/// Why a read cannot use the index: it takes the database's own path.
#[derive(Debug)]
pub(crate) struct Behind;

impl CatalogFollower {
    pub(crate) fn new(db: Conn) -> Self {
        let shared = Shared {
            db,
            built: RwLock::new(None),
            applying: tokio::sync::Mutex::new(()),
            building: AtomicBool::new(false),
            polling: AtomicBool::new(false),
        };
        Self { shared: Arc::new(shared) }
    }

    /// Starts the first build and the poll (once; later calls do nothing).
    pub(crate) fn start(&self) {
        if self.shared.building.load(Ordering::Acquire) || self.is_built() {
            return;
        }
        self.rebuild();
        if self.shared.polling.swap(true, Ordering::AcqRel) {
            return;
        }
        // The task holds the index (and its connection) weakly, so it never keeps a database open.
        let weak: Weak<Shared> = Arc::downgrade(&self.shared);
        drop(tokio::spawn(async move {
            loop {
                tokio::time::sleep(POLL).await;
                let Some(shared) = weak.upgrade() else { return };
                let follower = CatalogFollower { shared };
                if let Ok(stamp) = follower.stamp().await {
                    drop(follower.in_step(&stamp).await);
                }
            }
        }));
    }

    /// Starts the index (see [`CatalogFollower::start`]) and waits, at most `within`, until it is
    /// built; `true` once it is.
    pub(crate) async fn built_within(&self, within: Duration) -> bool {
        self.start();
        let started = tokio::time::Instant::now();
        while !self.is_built() {
            if started.elapsed() >= within {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        true
    }

    fn is_built(&self) -> bool {
        self.shared.built.read().map(|b| b.is_some()).unwrap_or(false)
    }

    /// Whether an indexed read is worth trying (the index is built and not known to be behind).
    pub(crate) fn usable(&self) -> bool {
        if !self.is_built() && !self.shared.building.load(Ordering::Acquire) {
            self.start();
        }
        self.is_built()
    }

    /// Brings the index in step with the database now: applies what changed, or rebuilds it at once
    /// (waiting for the build) when that is what it takes.
    pub(crate) async fn bring_in_step(&self) -> Result<(), surrealdb::Error> {
        let stamp = self.stamp().await?;
        if self.in_step(&stamp).await.is_ok() {
            return Ok(());
        }
        self.build().await.map(drop)
    }

    /// Applies what changed since the index last looked, when it is built and that needs only the
    /// products the new change rows name (otherwise a rebuild starts in the background); errors are
    /// the next read's to meet.
    pub(crate) async fn catch_up(&self) {
        if !self.is_built() {
            return;
        }
        if let Ok(stamp) = self.stamp().await {
            drop(self.in_step(&stamp).await);
        }
    }

    /// How many change rows of `stamp` the index has not applied yet (nothing is applied here);
    /// `None` when it is not built at the stamp's version: for tests.
    pub(crate) fn unapplied(&self, stamp: &Stamp) -> Option<usize> {
        let built = self.shared.built.read().ok()?;
        let b = built.as_ref().filter(|b| b.version == stamp.version)?;
        Some(b.unseen(&stamp.changes).count())
    }

    /// Reads the database's position.
    pub(crate) async fn stamp(&self) -> Result<Stamp, surrealdb::Error> {
        let stamp: Option<Stamp> = self.shared.db.query(STAMP).await.and_then(|mut r| r.take(0))?;
        stamp.ok_or_else(|| surrealdb::Error::internal("the catalog stamp read nothing".to_owned()))
    }

    /// Answers `read` from the index once it is in step with `stamp`; [`Behind`] when it cannot be
    /// (the caller takes the database's path; a rebuild may have been started).
    pub(crate) async fn answer<T>(&self, stamp: &Stamp, read: impl FnOnce(&CatalogIndex) -> T) -> Result<T, Behind> {
        self.in_step(stamp).await?;
        let built = self.shared.built.read().map_err(|_| Behind)?;
        match built.as_ref() {
            Some(b) if b.version == stamp.version => Ok(read(&b.index)),
            _ => Err(Behind),
        }
    }

    /// Brings the index to `stamp` when that needs only the products its new change rows name.
    async fn in_step(&self, stamp: &Stamp) -> Result<(), Behind> {
        let unseen = {
            let built = self.shared.built.read().map_err(|_| Behind)?;
            let Some(b) = built.as_ref() else {
                drop(built);
                self.usable();
                return Err(Behind);
            };
            if b.version != stamp.version || stamp.now - b.checked_at > STALE_AFTER_SECS {
                drop(built);
                self.rebuild();
                return Err(Behind);
            }
            b.unseen(&stamp.changes).cloned().collect::<Vec<_>>()
        };
        if unseen.is_empty() {
            self.mark_checked(stamp);
            return Ok(());
        }
        let _applying = self.shared.applying.lock().await;
        // Of them, those a catch-up that held the lock meanwhile did not apply (often none: the
        // poll and a read, or several reads, wait for the same change rows).
        let (generation, unseen) = {
            let built = self.shared.built.read().map_err(|_| Behind)?;
            let Some(b) = built.as_ref() else { return Err(Behind) };
            if b.version != stamp.version {
                return Err(Behind);
            }
            (b.generation, unseen.into_iter().filter(|c| !b.seen.contains(c)).collect::<Vec<_>>())
        };
        if unseen.is_empty() {
            self.mark_checked(stamp);
            return Ok(());
        }
        let catchup: Option<Catchup> = self
            .shared
            .db
            .query(CATCH_UP.replace("{INDEX_FIELDS}", INDEX_FIELDS))
            .bind(("changes", unseen.clone()))
            .await
            .and_then(|mut r| r.take(2))
            .map_err(|e| {
                tracing::warn!(error = %e.message(), "reading catalog changes for the index failed");
                Behind
            })?;
        let Some(catchup) = catchup else { return Err(Behind) };
        if catchup.renamed > 0 {
            self.rebuild();
            return Err(Behind);
        }
        let mut built = self.shared.built.write().map_err(|_| Behind)?;
        let Some(b) = built.as_mut().filter(|b| b.generation == generation) else { return Err(Behind) };
        let present: HashSet<&str> = catchup.rows.iter().map(|r| r.id.as_str()).collect();
        for gone in catchup.products.iter().filter(|p| !present.contains(p.as_str())) {
            b.index.remove(gone);
        }
        for row in catchup.rows {
            b.index.put(&row.into());
        }
        b.seen.extend(unseen);
        b.seen.retain(|c| stamp.changes.contains(c));
        b.checked_at = b.checked_at.max(stamp.now);
        Ok(())
    }

    fn mark_checked(&self, stamp: &Stamp) {
        if let Ok(mut built) = self.shared.built.write() {
            if let Some(b) = built.as_mut().filter(|b| b.version == stamp.version) {
                b.checked_at = b.checked_at.max(stamp.now);
                b.seen.retain(|c| stamp.changes.contains(c));
            }
        }
    }

    /// Starts a rebuild in the background unless one is running.
    fn rebuild(&self) {
        if self.shared.building.swap(true, Ordering::AcqRel) {
            return;
        }
        let follower = self.clone();
        drop(tokio::spawn(async move {
            let started = std::time::Instant::now();
            match follower.build().await {
                Ok(count) => tracing::debug!(products = count, took = ?started.elapsed(), "catalog index built"),
                Err(e) => tracing::warn!(error = %e.message(), "building the catalog index failed"),
            }
            follower.shared.building.store(false, Ordering::Release);
        }));
    }

    /// Reads every product of the shop in one transaction (one snapshot) and replaces the index.
    /// Catch-ups go on meanwhile on the old index; those read before the snapshot and applied after
    /// it are dropped (the generation moved), those after it find the new index.
    async fn build(&self) -> Result<u64, surrealdb::Error> {
        let tx = self.shared.db.begin().await?;
        let read = async {
            let stamp: Option<Stamp> = tx.query(STAMP).await.and_then(|mut r| r.take(0))?;
            let stamp = stamp.ok_or_else(|| surrealdb::Error::internal("the catalog stamp read nothing".to_owned()))?;
            let mut index = CatalogIndex::default();
            let mut after: Option<String> = None;
            loop {
                let request = match &after {
                    None => tx.query(format!("SELECT {INDEX_FIELDS} FROM product ORDER BY id ASC LIMIT $limit")),
                    Some(after) => tx
                        .query(format!("SELECT {INDEX_FIELDS} FROM type::record('product', $after>..) LIMIT $limit"))
                        .bind(("after", after.clone())),
                };
                let rows: Vec<IndexRow> =
                    request.bind(("limit", i64::from(BUILD_PAGE))).await.and_then(|mut r| r.take(0))?;
                let last = rows.last().map(|r| r.id.clone());
                let full = rows.len() == BUILD_PAGE as usize;
                for row in rows {
                    index.put(&row.into());
                }
                match last {
                    Some(last) if full => after = Some(last),
                    _ => break,
                }
            }
            Ok::<_, surrealdb::Error>((stamp, index))
        }
        .await;
        if let Err(e) = tx.cancel().await {
            tracing::debug!(error = %e.message(), "closing the catalog index's read");
        }
        let (stamp, index) = read?;
        let count = index.count();
        let _applying = self.shared.applying.lock().await;
        let mut built = self
            .shared
            .built
            .write()
            .map_err(|_| surrealdb::Error::internal("the catalog index lock is poisoned".to_owned()))?;
        let generation = built.as_ref().map_or(0, |b| b.generation + 1);
        *built = Some(Built {
            index,
            version: stamp.version,
            seen: stamp.changes.into_iter().collect(),
            checked_at: stamp.now,
            generation,
        });
        Ok(count)
    }
}
