//! The shop's language: entities, value objects and business rules.
//!
//! Everything here is plain, synchronous Rust with no I/O, so the server,
//! the use cases, the adapters and the tests all speak the same words.
//! Every text a rule shows a person lives in [`message::Message`].

pub mod account;
pub mod address;
pub mod calendar;
pub mod cart;
pub mod catalog;
pub mod checkout;
pub mod filters;
pub mod grievance;
pub mod invoice;
pub mod message;
pub mod money;
pub mod order;
pub mod paging;
pub mod part_number;
pub mod pricing;
pub mod rate;
pub mod staff;
pub mod stock;
pub mod store_credit;
pub mod tax;
pub mod titles;
pub mod vehicle;
pub mod wishlist;

pub use message::{FieldErrors, Message, UserFacing};
pub use money::Money;
pub use part_number::PartNumber;
