//! The address book: a customer's delivery addresses, at most [`ADDRESS_LIMIT`].

use std::sync::Arc;

use marque_domain::address::{Address, AddressErrors, AddressId, AddressInput, SavedAddress, ADDRESS_LIMIT};
use marque_domain::Message;
use marque_ports::{AddressStore, AddressStoreError, UserId};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    /// Fields that do not parse, every one with its message.
    #[error("the address is not valid: {0}")]
    Invalid(AddressErrors),
    /// The customer keeps [`ADDRESS_LIMIT`] addresses already.
    #[error("the address book is full")]
    Full,
    /// No address has this id.
    #[error("no such address")]
    NotFound,
    /// The address is another customer's.
    #[error("the address is another customer's")]
    Forbidden,
    #[error("the address book is unavailable: {0}")]
    Unavailable(String),
}

impl AddressError {
    /// What the customer reads; [`AddressError::Invalid`] speaks with its first field's message.
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            AddressError::Invalid(errors) => marque_domain::UserFacing::message(errors),
            AddressError::Full => Message::AddressBookFull,
            AddressError::NotFound => Message::AddressNotFound,
            AddressError::Forbidden => Message::AccountForbidden,
            AddressError::Unavailable(_) => Message::AddressUnavailable,
        }
    }
}

impl From<AddressStoreError> for AddressError {
    fn from(e: AddressStoreError) -> Self {
        match e {
            AddressStoreError::NotFound => AddressError::NotFound,
            AddressStoreError::Full => AddressError::Full,
            AddressStoreError::Unavailable { reason } => AddressError::Unavailable(reason),
        }
    }
}

/// Listing, adding, editing and removing a customer's addresses. Every address is parsed by
/// the domain's rules before it is stored; edits and removals of another customer's address
/// are refused before anything is written.
#[derive(Clone)]
pub struct AddressService {
    store: Arc<dyn AddressStore>,
    limit: usize,
}

impl std::fmt::Debug for AddressService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AddressService").field("limit", &self.limit).finish_non_exhaustive()
    }
}

fn parse(input: &AddressInput) -> Result<Address, AddressError> {
    Address::parse(input).map_err(AddressError::Invalid)
}

impl AddressService {
    #[must_use]
    pub fn new(store: Arc<dyn AddressStore>) -> Self {
        Self { store, limit: ADDRESS_LIMIT }
    }

    /// The customer's addresses, oldest first.
    ///
    /// # Errors
    /// [`AddressError::Unavailable`].
    pub async fn list(&self, user: &UserId) -> Result<Vec<SavedAddress>, AddressError> {
        Ok(self.store.addresses(user).await?)
    }

    /// Adds an address after parsing it.
    ///
    /// # Errors
    /// [`AddressError::Invalid`] (nothing stored); [`AddressError::Full`]; [`AddressError::Unavailable`].
    pub async fn add(&self, user: &UserId, input: &AddressInput) -> Result<SavedAddress, AddressError> {
        let address = parse(input)?;
        Ok(self.store.add(user, &address, self.limit).await?)
    }

    /// Replaces one of the customer's addresses; the id stays.
    ///
    /// # Errors
    /// [`AddressError::NotFound`]; [`AddressError::Forbidden`] for another customer's address
    /// (checked before the fields); [`AddressError::Invalid`]; [`AddressError::Unavailable`].
    pub async fn edit(
        &self,
        user: &UserId,
        id: &AddressId,
        input: &AddressInput,
    ) -> Result<SavedAddress, AddressError> {
        self.ensure_owned(user, id).await?;
        let address = parse(input)?;
        self.store.replace(user, id, &address).await?;
        Ok(SavedAddress { id: id.clone(), address })
    }

    /// Removes one of the customer's addresses.
    ///
    /// # Errors
    /// [`AddressError::NotFound`]; [`AddressError::Forbidden`] for another customer's address;
    /// [`AddressError::Unavailable`].
    pub async fn remove(&self, user: &UserId, id: &AddressId) -> Result<(), AddressError> {
        self.ensure_owned(user, id).await?;
        Ok(self.store.remove(user, id).await?)
    }

    /// Tells an unknown id (404) from another customer's (403); the store's conditional
    /// write still guards against the address changing hands in between.
    async fn ensure_owned(&self, user: &UserId, id: &AddressId) -> Result<(), AddressError> {
        match self.store.address(id).await? {
            None => Err(AddressError::NotFound),
            Some((owner, _)) if owner != *user => Err(AddressError::Forbidden),
            Some(_) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests;
