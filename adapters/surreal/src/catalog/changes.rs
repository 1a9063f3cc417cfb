//! The catalog changes on SurrealDB: the version stamp every catalog write bumps, and the
//! stock changes the order store records.

use async_trait::async_trait;
use marque_domain::catalog::{Grade, ProductId};
use marque_ports::{
    CatalogChange, CatalogChanges, CatalogStoreError, CatalogVersion, ListingPlace, StockChange, STOCK_CHANGE_WINDOW,
};
use surrealdb::types::SurrealValue;

use crate::conn::Conn;
use crate::error::unavailable;

/// [`CatalogChanges`] on a SurrealDB connection. Get one from [`crate::Database::catalog_changes`].
///
/// - The version is `catalog_meta:version`, which every write of the catalog store bumps in its
///   own transaction (`BUMP_VERSION`), so a reader that sees the new stamp also sees the write;
///   a fresh database reads as version 0.
/// - Stock changes are the `stock_change` rows the order store writes with each change of stock
///   or sales (random keys, the database's time), read for the last [`STOCK_CHANGE_WINDOW`].
/// - Catalog changes are the `catalog_change` rows (migration 19) the catalog editor and the
///   product photos write in each write's transaction ([`RECORD_CHANGE`]), read the same way.
#[derive(Debug, Clone)]
pub struct SurrealCatalogChanges {
    db: Conn,
    /// The database's in-process catalog index when the shop uses one (ADR 0019): brought in step
    /// before the changes are read, see [`CatalogChanges::catalog_version`] below.
    index: Option<crate::catalog::CatalogFollower>,
}

impl SurrealCatalogChanges {
    pub(crate) fn new(db: Conn, index: Option<crate::catalog::CatalogFollower>) -> Self {
        Self { db, index }
    }
}

/// The current version stamp (0 before the first write), and the stock changes and catalog
/// changes of the last [`STOCK_CHANGE_WINDOW`] (`$window`, seconds), by the database's clock.
const READ_VERSION: &str = "RETURN { \
    version: (SELECT VALUE n FROM catalog_meta:version)[0] ?? 0, \
    stock: (SELECT record::id(id) AS id, products FROM stock_change WHERE at > time::now() - type::duration($window)), \
    catalog: (SELECT record::id(id) AS id, products, placements, names, numbers, home, categories, brands, \
        (fitment ?? []) AS fitment FROM catalog_change WHERE at > time::now() - type::duration($window)) \
};";

/// How long a read of the changes waits for the index's catch-up (see
/// [`SurrealCatalogChanges::catalog_version`]).
const CATCH_UP_WAIT: std::time::Duration = std::time::Duration::from_millis(250);

/// Records `$change` (a [`CatalogChangeRow`]) with the database's time: run in the transaction of
/// the write it describes, so a reader that sees the row also sees the write.
pub(crate) const RECORD_CHANGE: &str = "CREATE catalog_change SET at = time::now(), \
    products = $change.products, placements = $change.placements, names = $change.names, \
    numbers = $change.numbers, home = $change.home, categories = $change.categories, \
    brands = $change.brands, fitment = $change.fitment RETURN NONE;";

/// A [`CatalogChange`] as stored (its id is the record's key).
#[derive(Debug, Clone, SurrealValue)]
pub(crate) struct CatalogChangeRow {
    id: String,
    products: Vec<String>,
    placements: Vec<PlacementRow>,
    names: bool,
    numbers: Vec<String>,
    home: bool,
    categories: Vec<String>,
    brands: Vec<String>,
    fitment: Vec<String>,
}

#[derive(Debug, Clone, SurrealValue)]
struct PlacementRow {
    oem_slug: String,
    category_slug: String,
    subcategory_slug: String,
    condition: String,
    fuel: Option<String>,
    /// Absent in rows written before migration 28.
    grade: Option<String>,
}

impl From<&CatalogChange> for CatalogChangeRow {
    fn from(c: &CatalogChange) -> Self {
        Self {
            id: String::new(),
            products: c.products.iter().map(|p| p.0.clone()).collect(),
            placements: c
                .placements
                .iter()
                .map(|p| PlacementRow {
                    oem_slug: p.oem_slug.clone(),
                    category_slug: p.category_slug.clone(),
                    subcategory_slug: p.subcategory_slug.clone(),
                    condition: p.condition.clone(),
                    fuel: p.fuel.clone(),
                    grade: p.grade.map(|g| g.letter().to_owned()),
                })
                .collect(),
            names: c.names,
            numbers: c.numbers.clone(),
            home: c.home,
            categories: c.categories.clone(),
            brands: c.brands.clone(),
            fitment: c.fitment.clone(),
        }
    }
}

impl From<CatalogChangeRow> for CatalogChange {
    fn from(r: CatalogChangeRow) -> Self {
        Self {
            id: r.id,
            products: r.products.into_iter().map(ProductId).collect(),
            placements: r
                .placements
                .into_iter()
                .map(|p| ListingPlace {
                    oem_slug: p.oem_slug,
                    category_slug: p.category_slug,
                    subcategory_slug: p.subcategory_slug,
                    condition: p.condition,
                    fuel: p.fuel,
                    grade: p.grade.as_deref().and_then(|g| Grade::parse(g).ok()),
                })
                .collect(),
            names: r.names,
            numbers: r.numbers,
            home: r.home,
            categories: r.categories,
            brands: r.brands,
            fitment: r.fitment,
        }
    }
}

/// What [`READ_VERSION`] reads.
#[derive(Debug, SurrealValue)]
struct VersionRow {
    version: i64,
    stock: Vec<StockChangeRow>,
    catalog: Vec<CatalogChangeRow>,
}

#[derive(Debug, SurrealValue)]
struct StockChangeRow {
    id: String,
    products: Vec<String>,
}

#[async_trait]
impl CatalogChanges for SurrealCatalogChanges {
    /// Brings the in-process catalog index in step first (when built), waiting for that at most
    /// [`CATCH_UP_WAIT`]: the caches that read these changes forget the answers they name, and the
    /// reads that ask those answers again then find an index that already holds the change, instead
    /// of each catching it up on a shopper's request (at 1,000 products a batch of an import,
    /// 50–700 ms under load). A catch-up that takes longer goes on in the background, and a read that
    /// needs it waits for it, as before; the wait is bounded because the caches serve their answers
    /// only while a read of the changes *began* within a second. A change written after the
    /// catch-up's look is caught up by the first read that needs it.
    async fn catalog_version(&self) -> Result<CatalogVersion, CatalogStoreError> {
        if let Some(index) = self.index.clone() {
            let catching_up = tokio::spawn(async move { index.catch_up().await });
            drop(tokio::time::timeout(CATCH_UP_WAIT, catching_up).await);
        }
        let row: Option<VersionRow> = self
            .db
            .query(READ_VERSION)
            .bind(("window", format!("{}s", STOCK_CHANGE_WINDOW.as_secs())))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        let row =
            row.ok_or_else(|| CatalogStoreError::Unavailable { reason: "the catalog version read nothing".into() })?;
        Ok(CatalogVersion {
            version: u64::try_from(row.version).unwrap_or(0),
            stock_changes: row
                .stock
                .into_iter()
                .map(|c| StockChange { id: c.id, products: c.products.into_iter().map(ProductId).collect() })
                .collect(),
            catalog_changes: row.catalog.into_iter().map(CatalogChange::from).collect(),
        })
    }
}
