//! marque-surreal's integration tests, in one binary (it links SurrealDB once, not ten times).
//! Each module was a test file of its own; test names keep that as their first part
//! (`accounts_contract::<suite>::mem`, `database::…`).

#[macro_use]
mod engines;

mod accounts_contract;
mod addresses_contract;
mod audit_contract;
mod catalog_changes_contract;
mod catalog_contract;
mod catalog_editor_contract;
mod catalog_index;
mod database;
mod garage_contract;
mod grievances_contract;
mod imports_contract;
mod notice_outbox_contract;
mod order_desk_contract;
mod order_refunds_contract;
mod orders_contract;
mod photos_contract;
mod rate_contract;
mod readiness_contract;
mod returns_contract;
mod staff_contract;
mod stock_contract;
mod store_credit_contract;
mod store_memory;
mod vehicles_contract;
mod wishlist_contract;
