//! The shop's language: entities, value objects and business rules.
//!
//! Everything here is plain, synchronous Rust with no I/O, so the server,
//! the use cases, the adapters and the tests all speak the same words.

pub mod catalog;
pub mod money;
pub mod part_number;

pub use money::Money;
pub use part_number::PartNumber;
