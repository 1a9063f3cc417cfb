//! Every store port on SurrealDB 3, on any of its engines.
//!
//! [`Database::connect`] opens one connection — `mem://` (tests), `surrealkv://<dir>`
//! (embedded, durable; the shop's default) or `ws://host:port` (a SurrealDB server) —
//! applies the schema's numbered migrations, and hands out the stores that share it:
//! [`Database::catalog`], [`Database::catalog_changes`], [`Database::accounts`],
//! [`Database::rate_counter`], [`Database::wishlist`], [`Database::addresses`] and
//! [`Database::orders`], each behind a [`Guarded`] link that turns a server gone away into
//! the port's `Unavailable` error within a deadline (see `link.rs`), and [`Database::readiness`].
//!
//! The schema is SCHEMAFULL with typed, asserted fields (`src/schema/*.surql`); money
//! is whole paise; part numbers are kept as printed and normalised. No SurrealDB type
//! appears in a public signature: driver errors become the ports' error enums.
//!
//! # Tests
//! `tests/` runs every suite of `marque-contract-tests` on `mem://` and on
//! `surrealkv://` in a temporary directory. Against a server they run only when
//! `MARQUE_TEST_SURREAL_URL` names one (e.g. `ws://127.0.0.1:8000`, with
//! `MARQUE_TEST_SURREAL_USER` / `MARQUE_TEST_SURREAL_PASS` for a root user); each suite
//! gets a database of its own there and removes it afterwards. The server tests are
//! marked ignored, so `cargo test` lists each as skipped by name; `make test` runs them
//! with `--ignored` when the variable is set.

mod accounts;
mod addresses;
mod audit;
mod audit_log;
mod backup;
mod catalog;
mod conn;
mod connect;
mod error;
mod garage;
mod grievances;
mod link;
mod notice_outbox;
mod order_desk;
mod order_refunds;
mod orders;
mod photos;
mod rate;
mod returns;
mod schema;
mod staff;
mod stock;
mod store_credit;
mod vehicles;
mod wishlist;

pub use accounts::SurrealAccountStore;
pub use addresses::SurrealAddressStore;
pub use audit_log::SurrealAuditLog;
pub use backup::BackupError;
pub use catalog::{SurrealCatalogChanges, SurrealCatalogEditor, SurrealCatalogStore, SurrealImportJobs};
pub use connect::{Closing, ConnectError, ConnectOptions, Credentials, Database, StoreMemory, UserLevel};
pub use garage::SurrealGarageStore;
pub use grievances::SurrealGrievanceStore;
pub use link::{Guarded, SurrealReadiness};
pub use notice_outbox::SurrealNoticeOutbox;
pub use order_desk::SurrealOrderDesk;
pub use orders::SurrealOrderStore;
pub use photos::SurrealProductPhotos;
pub use rate::SurrealRateCounter;
pub use returns::SurrealReturnStore;
pub use schema::{latest_migration, AppliedMigration};
pub use staff::SurrealStaffStore;
pub use stock::SurrealStockLedger;
pub use store_credit::SurrealStoreCredit;
pub use vehicles::SurrealVehicleStore;
pub use wishlist::SurrealWishlistStore;
