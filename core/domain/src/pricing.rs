//! What an order costs: items total, discount, delivery charge and total payable.

mod offer;
mod totals;

pub use offer::{discount, DiscountPercent, Offer, OfferError};
pub use totals::{delivery_charge, items_total, PricedLine, Totals};
