//! The catalog changes on SurrealDB: the version stamp every catalog write bumps, and the
//! stock changes the order store records.

use async_trait::async_trait;
use marque_domain::catalog::ProductId;
use marque_ports::{CatalogChanges, CatalogStoreError, CatalogVersion, StockChange, STOCK_CHANGE_WINDOW};
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
#[derive(Debug, Clone)]
pub struct SurrealCatalogChanges {
    db: Conn,
}

impl SurrealCatalogChanges {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }
}

/// The current version stamp (0 before the first write) and the stock changes of the last
/// [`STOCK_CHANGE_WINDOW`] (`$window`, seconds), by the database's clock.
const READ_VERSION: &str = "RETURN { \
    version: (SELECT VALUE n FROM catalog_meta:version)[0] ?? 0, \
    stock: (SELECT record::id(id) AS id, products FROM stock_change WHERE at > time::now() - type::duration($window)) \
};";

/// What [`READ_VERSION`] reads.
#[derive(Debug, SurrealValue)]
struct VersionRow {
    version: i64,
    stock: Vec<StockChangeRow>,
}

#[derive(Debug, SurrealValue)]
struct StockChangeRow {
    id: String,
    products: Vec<String>,
}

#[async_trait]
impl CatalogChanges for SurrealCatalogChanges {
    async fn catalog_version(&self) -> Result<CatalogVersion, CatalogStoreError> {
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
        })
    }
}
