//! Use cases of the shop, one service per area, each holding the ports it needs.

pub mod catalog;
pub mod catalog_cache;

pub use catalog::{
    CatalogError, CatalogService, CategoryListing, CategoryView, SubcategoryGroup, SubcategoryListing,
};
pub use catalog_cache::CachedCatalogStore;
