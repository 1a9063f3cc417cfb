//! The Marque server: configuration, and the composition root that wires adapters into the use
//! cases and hands those to the HTTP API (`marque-api`) and the storefront (`marque-storefront`).

pub mod app;
pub mod catalog_cli;
pub mod identity;
pub mod listener;
pub mod memory;
pub mod metrics;
pub mod notify;
pub mod payments;
pub mod request_id;
pub mod request_log;
pub mod seed;
pub mod settings;
pub mod staff_cli;
pub mod warm_up;

pub use app::App;
pub use settings::{Flags, Settings};
