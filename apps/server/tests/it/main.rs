//! The server's black-box tests, one binary (the server links once): each module was a test
//! binary of its own before. Run one with `cargo test -p marque-server --test it <module>::`,
//! e.g. `--test it webhook_fault::`.

mod helpers;

mod accounts_api;
mod addresses_api;
mod admin_catalog;
mod admin_customers;
mod admin_imports;
mod admin_lists;
mod admin_orders;
mod admin_photos;
mod admin_refunds;
mod admin_roles;
mod admin_staff;
mod admin_stock;
mod api;
mod catalog_cache;
mod checkout_api;
mod contract;
mod database_outage;
mod durability;
mod fitment;
mod garage;
mod grievances_api;
mod hardening;
mod import_fitment;
mod import_photos;
mod limits_api;
mod notices_api;
mod observability;
mod orders_api;
mod picture_bomb;
mod returns_api;
mod secrets_in_logs;
mod shutdown;
mod store_credit_api;
mod storefront;
mod two_instances;
mod used_parts;
mod webhook_fault;
