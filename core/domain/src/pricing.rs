//! What an order costs: items total, discount, delivery charge and total payable.

mod offer;
mod totals;

pub use offer::{
    discount, DiscountPercent, Offer, OfferEndError, OfferEndsOn, OfferError, OfferPercentError, OFFER_MAX_DAYS_AHEAD,
    OFFER_PERCENT_RANGE,
};
pub use totals::{delivery_charge, items_total, PricedLine, Totals};
