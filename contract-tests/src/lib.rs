//! Port contracts as executable suites, run by every adapter on every engine it supports.
//!
//! Each suite is a plain `pub async fn name(store: &dyn Port)` that takes a fresh,
//! empty store and panics when the adapter breaks a promise the port's doc comments
//! make. Adapters call them from their own `#[tokio::test]`s, one test per suite per
//! engine ([`for_each_catalog_suite!`] generates them), or loop over [`catalog::CATALOG_SUITE`].
//!
//! An engine that cannot be reached where the tests run (a database server, say) must
//! report each suite it skips by name on stderr — never pass it silently.
//!
//! `tests/dependency_rule.rs` checks the workspace's dependency rule (ARCHITECTURE.md §1).

pub mod accounts;
pub mod addresses;
pub mod audit;
pub mod blobs;
pub mod catalog;
pub mod catalog_changes;
pub mod catalog_editor;
pub mod fixtures;
pub mod garage;
pub mod grievances;
pub mod imports;
pub mod invoice_pdf;
pub mod moto;
pub mod notice_outbox;
pub mod order_desk;
pub mod order_refunds;
pub mod orders;
pub mod payment;
pub mod photos;
pub mod rate;
pub mod readiness;
pub mod returns;
pub mod staff;
pub mod stock;
pub mod store_credit;
pub mod vehicles;
pub mod wishlist;

pub use catalog::{CatalogSuite, CATALOG_SUITE};
