//! Placed orders: their lines, their total and their status badge.

mod line;
mod status;

pub use line::{stored_order_totals, OrderLine};
pub use status::{status_label, BadgeColour, OrderStatus, OrderStatusBadge, ADMIN_CANCELLED};

/// Orders per page of the purchase history (the listings' page size).
pub const HISTORY_PAGE_SIZE: u32 = crate::catalog::LISTING_PAGE_SIZE;
