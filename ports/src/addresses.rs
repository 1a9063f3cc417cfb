//! The address store: the delivery addresses a customer keeps on their account.

use async_trait::async_trait;
use marque_domain::address::{Address, AddressId, SavedAddress};

use crate::accounts::UserId;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressStoreError {
    /// No address has this id, or it is another customer's.
    #[error("no such address")]
    NotFound,
    /// The customer keeps the most addresses allowed.
    #[error("the address book is full")]
    Full,
    #[error("the address store is unavailable: {reason}")]
    Unavailable { reason: String },
}

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait AddressStore: Send + Sync {
    /// The customer's addresses, oldest first.
    ///
    /// # Errors
    /// [`AddressStoreError::Unavailable`] when the store cannot be read.
    async fn addresses(&self, user: &UserId) -> Result<Vec<SavedAddress>, AddressStoreError>;

    /// One address with its owner, or None.
    ///
    /// # Errors
    /// [`AddressStoreError::Unavailable`] when the store cannot be read; an unknown id is `Ok(None)`.
    async fn address(&self, id: &AddressId) -> Result<Option<(UserId, SavedAddress)>, AddressStoreError>;

    /// Adds one; Full at `limit` (atomic under concurrent adds, like the wishlist).
    /// The new address gets an id no other address has, and comes last in [`AddressStore::addresses`].
    ///
    /// # Errors
    /// MUST return [`AddressStoreError::Full`] when the customer has `limit` addresses, atomically:
    /// many concurrent adds to a book of `limit - 1` addresses end with exactly `limit`, every other
    /// add answering `Full` and writing nothing. [`AddressStoreError::Unavailable`].
    async fn add(&self, user: &UserId, address: &Address, limit: usize) -> Result<SavedAddress, AddressStoreError>;

    /// Replaces the customer's address; NotFound when it is not this customer's.
    /// The id and the address's place in the list stay the same.
    ///
    /// # Errors
    /// MUST return [`AddressStoreError::NotFound`] when no address has `id` or it is another
    /// customer's, changing nothing. [`AddressStoreError::Unavailable`].
    async fn replace(&self, user: &UserId, id: &AddressId, address: &Address) -> Result<(), AddressStoreError>;

    /// Removes it; NotFound when it is not this customer's (nothing changes then).
    ///
    /// # Errors
    /// MUST return [`AddressStoreError::NotFound`] when no address has `id` or it is another
    /// customer's, changing nothing. [`AddressStoreError::Unavailable`].
    async fn remove(&self, user: &UserId, id: &AddressId) -> Result<(), AddressStoreError>;

    /// Removes every address of the customer (their account is being erased); other customers'
    /// addresses stay. A customer without addresses is not an error.
    ///
    /// # Errors
    /// [`AddressStoreError::Unavailable`] when the store cannot be written.
    async fn remove_all(&self, user: &UserId) -> Result<(), AddressStoreError>;
}
