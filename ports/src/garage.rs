//! The garage store: the cars a signed-in shopper keeps (at most five, newest first), so that their
//! garage follows them from one device to another.

use async_trait::async_trait;
use marque_domain::vehicle::Car;

use crate::accounts::UserId;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GarageStoreError {
    #[error("the garage store is unavailable: {reason}")]
    Unavailable { reason: String },
}

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait GarageStore: Send + Sync {
    /// The customer's cars as last kept, newest first; none for a customer who never kept one.
    ///
    /// # Errors
    /// [`GarageStoreError::Unavailable`] when the store cannot be read.
    async fn garage(&self, user: &UserId) -> Result<Vec<Car>, GarageStoreError>;

    /// Keeps `cars` (already checked by `marque_domain::vehicle::garage`) as the customer's garage,
    /// replacing what was kept, in one write; an empty list empties it.
    ///
    /// # Errors
    /// [`GarageStoreError::Unavailable`] when the store cannot be written.
    async fn set_garage(&self, user: &UserId, cars: &[Car]) -> Result<(), GarageStoreError>;

    /// Forgets the customer's garage (their account is being erased); other garages stay.
    ///
    /// # Errors
    /// [`GarageStoreError::Unavailable`] when the store cannot be written.
    async fn clear(&self, user: &UserId) -> Result<(), GarageStoreError>;
}
