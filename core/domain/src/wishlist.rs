//! The wishlist's one rule: it holds at most 50 products.

use crate::message::{user_facing_error, Message, UserFacing};

/// Most entries a wishlist holds (docs/shop-rules.md).
pub const WISHLIST_LIMIT: usize = 50;

/// The wishlist already holds [`WISHLIST_LIMIT`] products. Product cards show
/// this message; the product detail page shows [`Message::WishlistFullAlert`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WishlistFull;

impl UserFacing for WishlistFull {
    fn message(&self) -> Message {
        Message::WishlistFull
    }
}
user_facing_error!(WishlistFull);

/// Whether one more product fits in a wishlist of `entries` products.
///
/// # Errors
/// [`WishlistFull`] when it already holds [`WISHLIST_LIMIT`] or more.
pub fn check_room(entries: usize) -> Result<(), WishlistFull> {
    if entries < WISHLIST_LIMIT {
        Ok(())
    } else {
        Err(WishlistFull)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forty_nine_leave_room_fifty_do_not() {
        assert_eq!(check_room(0), Ok(()));
        assert_eq!(check_room(49), Ok(()));
        assert_eq!(check_room(50), Err(WishlistFull));
        assert_eq!(WishlistFull.to_string(), "Your wishlist is full! Kindly remove some products from wishlist.");
        assert_eq!(WishlistFull.code(), "wishlist.full");
    }
}
