//! Driven ports: what the use cases need from the outside world.
//!
//! Each trait documents its contract; `marque-contract-tests` turns every
//! `# Errors` / `# Contract` sentence into a suite every adapter must pass.
//! Driver types (database values, HTTP clients) never appear here.

pub mod catalog;

pub use catalog::{CatalogStore, CatalogStoreError, ProductListing, ProductQuery, ProductSlice, ProductStamp};

#[cfg(feature = "mock")]
pub use catalog::MockCatalogStore;
