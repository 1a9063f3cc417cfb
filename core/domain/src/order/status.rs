//! An order's status: its number (1-6), its name, and the badge showing it.

use serde::{Deserialize, Serialize};

/// The status names behind `order_status` 1-6 (docs/shop-rules.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OrderStatus {
    Placed,
    Confirmed,
    Packed,
    Shipped,
    Delivered,
    Cancelled,
}

/// The `order_status_string` of an order the shop cancelled (rather than the customer).
pub const ADMIN_CANCELLED: &str = "admin-cancelled";

impl OrderStatus {
    pub const ALL: [OrderStatus; 6] = [
        OrderStatus::Placed,
        OrderStatus::Confirmed,
        OrderStatus::Packed,
        OrderStatus::Shipped,
        OrderStatus::Delivered,
        OrderStatus::Cancelled,
    ];

    /// The stored `order_status` number.
    #[must_use]
    pub fn number(self) -> i64 {
        match self {
            OrderStatus::Placed => 1,
            OrderStatus::Confirmed => 2,
            OrderStatus::Packed => 3,
            OrderStatus::Shipped => 4,
            OrderStatus::Delivered => 5,
            OrderStatus::Cancelled => 6,
        }
    }

    #[must_use]
    pub fn from_number(n: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.number() == n)
    }

    /// The name, e.g. `Placed`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            OrderStatus::Placed => "Placed",
            OrderStatus::Confirmed => "Confirmed",
            OrderStatus::Packed => "Packed",
            OrderStatus::Shipped => "Shipped",
            OrderStatus::Delivered => "Delivered",
            OrderStatus::Cancelled => "Cancelled",
        }
    }

    /// The `order_status_string` stored with the number, e.g. `placed`.
    /// A cancellation by the shop stores [`ADMIN_CANCELLED`] instead.
    #[must_use]
    pub fn status_string(self) -> &'static str {
        match self {
            OrderStatus::Placed => "placed",
            OrderStatus::Confirmed => "confirmed",
            OrderStatus::Packed => "packed",
            OrderStatus::Shipped => "shipped",
            OrderStatus::Delivered => "delivered",
            OrderStatus::Cancelled => "cancelled",
        }
    }
}

/// The badge colours; clients map each to their palette.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BadgeColour {
    Blue,
    Purple,
    DarkYellow,
    LightYellow,
    Green,
    Red,
    Grey,
}

impl BadgeColour {
    pub const ALL: [BadgeColour; 7] = [
        BadgeColour::Blue,
        BadgeColour::Purple,
        BadgeColour::DarkYellow,
        BadgeColour::LightYellow,
        BadgeColour::Green,
        BadgeColour::Red,
        BadgeColour::Grey,
    ];

    /// The colour's token, e.g. `dark-yellow`.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            BadgeColour::Blue => "blue",
            BadgeColour::Purple => "purple",
            BadgeColour::DarkYellow => "dark-yellow",
            BadgeColour::LightYellow => "light-yellow",
            BadgeColour::Green => "green",
            BadgeColour::Red => "red",
            BadgeColour::Grey => "grey",
        }
    }

    /// The specification's rule: the number drives the colour, anything else is grey.
    #[must_use]
    pub fn of(order_status: i64) -> Self {
        match OrderStatus::from_number(order_status) {
            Some(OrderStatus::Placed) => BadgeColour::Blue,
            Some(OrderStatus::Confirmed) => BadgeColour::Purple,
            Some(OrderStatus::Packed) => BadgeColour::DarkYellow,
            Some(OrderStatus::Shipped) => BadgeColour::LightYellow,
            Some(OrderStatus::Delivered) => BadgeColour::Green,
            Some(OrderStatus::Cancelled) => BadgeColour::Red,
            None => BadgeColour::Grey,
        }
    }
}

/// The badge's text: `order_status_string` itself, except that
/// `admin-cancelled` shows as `cancelled` (customers need not know who cancelled).
#[must_use]
pub fn status_label(order_status_string: &str) -> &str {
    if order_status_string == ADMIN_CANCELLED {
        OrderStatus::Cancelled.status_string()
    } else {
        order_status_string
    }
}

/// What the purchase history shows for an order's status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderStatusBadge {
    pub colour: BadgeColour,
    pub label: String,
}

impl OrderStatusBadge {
    #[must_use]
    pub fn of(order_status: i64, order_status_string: &str) -> Self {
        Self { colour: BadgeColour::of(order_status), label: status_label(order_status_string).to_owned() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_drive_the_colour() {
        let cases = [
            (1, "blue"),
            (2, "purple"),
            (3, "dark-yellow"),
            (4, "light-yellow"),
            (5, "green"),
            (6, "red"),
            (0, "grey"),
            (7, "grey"),
            (-1, "grey"),
        ];
        for (n, colour) in cases {
            assert_eq!(BadgeColour::of(n).code(), colour, "{n}");
        }
    }

    #[test]
    fn names_follow_the_product_rules() {
        let names: Vec<_> = OrderStatus::ALL.iter().map(|s| (s.number(), s.name())).collect();
        assert_eq!(
            names,
            [(1, "Placed"), (2, "Confirmed"), (3, "Packed"), (4, "Shipped"), (5, "Delivered"), (6, "Cancelled")]
        );
        for s in OrderStatus::ALL {
            assert_eq!(OrderStatus::from_number(s.number()), Some(s));
        }
    }

    #[test]
    fn admin_cancelled_shows_as_cancelled() {
        assert_eq!(status_label("admin-cancelled"), "cancelled");
        assert_eq!(status_label("cancelled"), "cancelled");
        assert_eq!(status_label("shipped"), "shipped");
        assert_eq!(status_label("Admin-Cancelled"), "Admin-Cancelled", "exact value only");
        let badge = OrderStatusBadge::of(6, ADMIN_CANCELLED);
        assert_eq!((badge.colour, badge.label.as_str()), (BadgeColour::Red, "cancelled"));
    }
}
