//! Placed orders: their lines, their total, their status badge, how the status moves and how a
//! shipped order travels.

mod line;
mod moves;
mod notice;
mod refund;
mod returns;
mod search;
mod shipping;
mod status;

pub use line::{stored_order_totals, OrderLine};
pub use moves::{Fulfilment, FulfilmentChange, OrderMoveError};
pub use notice::{
    retry_after, Language, NoticeContext, NoticeKind, NoticeTexts, OrderNotice, NOTICE_FIRST_RETRY_SECS,
    NOTICE_MAX_ATTEMPTS, NOTICE_MAX_RETRY_SECS,
};
pub use refund::{
    RefundAmounts, RefundAsk, RefundError, RefundLine, RefundReason, Refundable, RefundableLine, MIN_REFUND,
    REFUND_REASON_MAX,
};
pub use returns::{
    check_quantity, keeps_units_from_refunds, line_warranty_days, parse_note, parse_reason, units_left, ReturnError,
    ReturnOutcome, ReturnState, ReturnWindow, FALLBACK_WARRANTY_DAYS, MAX_RETURN_PHOTOS, RETURN_NOTE_MAX,
    RETURN_REASON_MAX, RETURN_REASON_MIN,
};
pub use search::{OrderSearch, RefundFilter, ORDER_SEARCH_MAX};
pub use shipping::{Awb, Courier, Shipment, TrackingUrl, AWB_MAX, AWB_MIN, TRACKING_URL_MAX};
pub use status::{status_label, BadgeColour, OrderStatus, OrderStatusBadge, ADMIN_CANCELLED};

/// Orders per page of the purchase history (the listings' page size).
pub const HISTORY_PAGE_SIZE: u32 = crate::catalog::LISTING_PAGE_SIZE;
