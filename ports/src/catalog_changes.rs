//! Catalog changes: what caches of catalog answers poll to know what to forget.
//!
//! Split from [`CatalogStore`](crate::CatalogStore): the storefront reads the catalog through
//! a cache that decorates the store, and only that cache (and whatever keeps answers made
//! from it) needs to know when and where the catalog moved.

use async_trait::async_trait;
use marque_domain::catalog::ProductId;

use crate::catalog::CatalogStoreError;

/// How long a stock change stays listed in [`CatalogVersion::stock_changes`]. A cache that
/// has not read the version for longer than half of it must forget everything instead.
pub const STOCK_CHANGE_WINDOW: std::time::Duration = std::time::Duration::from_secs(10);

/// What [`CatalogChanges::catalog_version`] reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CatalogVersion {
    /// Moves with every write of brands, categories or products.
    pub version: u64,
    /// The stock changes of the last [`STOCK_CHANGE_WINDOW`], in no particular order.
    pub stock_changes: Vec<StockChange>,
}

/// One change of the stock (`quantity`) or sales (`units_sold`) of some products.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StockChange {
    /// Unique among the changes: a poller tells new changes from ones it has seen by it.
    pub id: String,
    /// The products whose stock or sales changed.
    pub products: Vec<ProductId>,
}

/// How the catalog of one store moves, read from the store itself by any process sharing it.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait CatalogChanges: Send + Sync {
    /// A stamp of the catalog's state: the version of what only the shop's writes change
    /// (brands, categories, products), and the stock changes of the last
    /// [`STOCK_CHANGE_WINDOW`]. Caches of catalog reads poll it to know what to forget:
    /// everything when `version` moved, the answers holding a named product when only the
    /// stock moved.
    ///
    /// # Contract
    /// - Every successful write of the catalog store on the same database (`put_brands`,
    ///   `put_categories`, `add_products` with at least one item) changes `version` before
    ///   the write call returns.
    /// - A refused write (nothing written) may or may not change it; reads never do.
    /// - Every change of a product's stock or sales by the order store on the same database
    ///   (a reservation, its release, its expiry, a placed order) appears in `stock_changes`
    ///   before that call returns, naming exactly its products, and stays there for at least
    ///   [`STOCK_CHANGE_WINDOW`]; it does not move `version`. When a change cannot be
    ///   recorded so, `version` moves instead. A refused reservation lists nothing.
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the store cannot be read.
    async fn catalog_version(&self) -> Result<CatalogVersion, CatalogStoreError>;
}
