//! Use cases of the shop, one service per area, each holding the ports it needs.

pub mod catalog;

pub use catalog::{
    CatalogError, CatalogService, CategoryListing, CategoryView, SubcategoryGroup, SubcategoryListing,
};
