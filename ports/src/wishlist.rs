//! The wishlist store: the products a customer keeps for later.

use async_trait::async_trait;
use marque_domain::catalog::ProductId;

use crate::accounts::UserId;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WishlistStoreError {
    /// The wishlist already holds the most entries allowed.
    #[error("the wishlist is full")]
    Full,
    #[error("the wishlist store is unavailable: {reason}")]
    Unavailable { reason: String },
}

/// Whether an add changed the wishlist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Added {
    Added,
    /// The product was already in the wishlist; it is kept once.
    AlreadyThere,
}

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait WishlistStore: Send + Sync {
    /// The customer's wished products, most recently added first.
    ///
    /// # Errors
    /// [`WishlistStoreError::Unavailable`] when the store cannot be read.
    async fn wishlist(&self, user: &UserId) -> Result<Vec<ProductId>, WishlistStoreError>;

    /// Adds a product, keeping at most `limit` entries.
    ///
    /// # Errors
    /// MUST return [`WishlistStoreError::Full`] when the wishlist holds `limit` entries and the product
    /// is not among them, atomically: many concurrent adds to a wishlist of `limit - 1` entries end with
    /// exactly `limit`, every other add answering `Full`. [`WishlistStoreError::Unavailable`].
    async fn add(&self, user: &UserId, product: &ProductId, limit: usize) -> Result<Added, WishlistStoreError>;

    /// Removes a product; removing one that is not there is not an error.
    ///
    /// # Errors
    /// [`WishlistStoreError::Unavailable`] when the store cannot be written.
    async fn remove(&self, user: &UserId, product: &ProductId) -> Result<(), WishlistStoreError>;

    /// Empties the customer's wishlist (their account is being erased); other wishlists stay.
    ///
    /// # Errors
    /// [`WishlistStoreError::Unavailable`] when the store cannot be written.
    async fn clear(&self, user: &UserId) -> Result<(), WishlistStoreError>;
}
