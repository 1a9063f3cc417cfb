//! The Marque server: the public HTTP contract, the storefront's hosting and
//! the composition root that wires adapters into the use cases.

pub mod api;
pub mod app;
pub mod avatar;
pub mod catalog_budget;
pub mod clients;
pub mod config;
pub mod encoding;
pub mod hardening;
pub mod identity;
pub mod listener;
pub mod memory;
pub mod metrics;
pub mod notify;
pub mod payments;
pub mod request_id;
pub mod request_log;
pub mod seed;
pub mod web;

pub use app::{App, Shop};
pub use config::Config;
