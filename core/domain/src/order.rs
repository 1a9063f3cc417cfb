//! Placed orders: their lines, their total and their status badge.

mod line;
mod status;

pub use line::{stored_order_totals, OrderLine};
pub use status::{status_label, BadgeColour, OrderStatus, OrderStatusBadge, ADMIN_CANCELLED};
