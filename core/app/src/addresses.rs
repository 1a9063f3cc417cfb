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
    pub async fn edit(&self, user: &UserId, id: &AddressId, input: &AddressInput) -> Result<SavedAddress, AddressError> {
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
mod tests {
    use super::*;
    use marque_contract_tests::addresses::address;
    use marque_domain::address::AddressField;
    use marque_ports::MockAddressStore;

    fn u(id: &str) -> UserId {
        UserId(id.to_owned())
    }

    fn saved(id: &str, house: &str) -> SavedAddress {
        SavedAddress { id: AddressId(id.to_owned()), address: address(house) }
    }

    fn down() -> AddressStoreError {
        AddressStoreError::Unavailable { reason: "down".into() }
    }

    fn service(store: MockAddressStore) -> AddressService {
        AddressService::new(Arc::new(store))
    }

    fn owned_by(store: &mut MockAddressStore, owner: &'static str) {
        store.expect_address().returning(move |id| Ok(Some((u(owner), saved(&id.0, "1")))));
    }

    #[tokio::test]
    async fn adds_a_parsed_address_with_the_shops_limit() {
        let mut store = MockAddressStore::new();
        store
            .expect_add()
            .withf(|user, a, limit| user.0 == "u1" && a.state.name == "Karnataka" && *limit == ADDRESS_LIMIT)
            .returning(|_, a, _| Ok(SavedAddress { id: AddressId("a1".into()), address: a.clone() }));
        let added = service(store).add(&u("u1"), &address("5").to_input()).await.expect("added");
        assert_eq!(added, saved("a1", "5"));
        assert_eq!(ADDRESS_LIMIT, 20);
    }

    #[tokio::test]
    async fn invalid_fields_are_all_reported_and_nothing_is_stored() {
        // No expectation set: any store call would panic.
        let s = service(MockAddressStore::new());
        let input = AddressInput { state: "Atlantis".into(), gstin: "29AAGCB7383J1Z5".into(), ..address("1").to_input() };
        let Err(AddressError::Invalid(errors)) = s.add(&u("u1"), &input).await else { panic!("invalid") };
        assert_eq!(errors.get(AddressField::State), Some(Message::AddressStateInvalid));
        assert_eq!(errors.get(AddressField::Gstin), Some(Message::AddressGstinInvalid));
        assert_eq!(AddressError::Invalid(errors).message(), Message::AddressStateInvalid);
    }

    #[tokio::test]
    async fn edits_only_the_customers_own_address() {
        let mut store = MockAddressStore::new();
        owned_by(&mut store, "u1");
        store.expect_replace().withf(|user, id, a| user.0 == "u1" && id.0 == "a1" && a.house_no == "9").returning(|_, _, _| Ok(()));
        let s = service(store);
        assert_eq!(s.edit(&u("u1"), &AddressId("a1".into()), &address("9").to_input()).await, Ok(saved("a1", "9")));
        let bad = AddressInput { pincode: "0".into(), ..address("9").to_input() };
        assert!(matches!(s.edit(&u("u1"), &AddressId("a1".into()), &bad).await, Err(AddressError::Invalid(_))));

        let mut store = MockAddressStore::new();
        owned_by(&mut store, "someone else");
        let s = service(store);
        let a1 = AddressId("a1".into());
        assert_eq!(s.edit(&u("u1"), &a1, &address("9").to_input()).await, Err(AddressError::Forbidden));
        assert_eq!(s.remove(&u("u1"), &a1).await, Err(AddressError::Forbidden));
    }

    #[tokio::test]
    async fn unknown_ids_are_not_found() {
        let mut store = MockAddressStore::new();
        store.expect_address().returning(|_| Ok(None));
        let s = service(store);
        let id = AddressId("nope".into());
        assert_eq!(s.edit(&u("u1"), &id, &address("1").to_input()).await, Err(AddressError::NotFound));
        assert_eq!(s.remove(&u("u1"), &id).await, Err(AddressError::NotFound));
        assert_eq!(AddressError::NotFound.message(), Message::AddressNotFound);
    }

    #[tokio::test]
    async fn removes_the_customers_own_address_even_if_it_vanished_meanwhile() {
        let mut store = MockAddressStore::new();
        owned_by(&mut store, "u1");
        store.expect_remove().times(1).returning(|_, _| Ok(()));
        assert_eq!(service(store).remove(&u("u1"), &AddressId("a1".into())).await, Ok(()));

        let mut store = MockAddressStore::new();
        owned_by(&mut store, "u1");
        store.expect_remove().returning(|_, _| Err(AddressStoreError::NotFound));
        assert_eq!(service(store).remove(&u("u1"), &AddressId("a1".into())).await, Err(AddressError::NotFound));
    }

    #[tokio::test]
    async fn a_full_book_and_failing_stores_are_reported() {
        let mut store = MockAddressStore::new();
        store.expect_add().returning(|_, _, _| Err(AddressStoreError::Full));
        store.expect_addresses().returning(|_| Err(down()));
        store.expect_address().returning(|_| Err(down()));
        let s = service(store);
        let input = address("1").to_input();
        let id = AddressId("a1".into());
        assert_eq!(s.add(&u("u1"), &input).await, Err(AddressError::Full));
        assert_eq!(AddressError::Full.message(), Message::AddressBookFull);
        assert_eq!(s.list(&u("u1")).await, Err(AddressError::Unavailable("down".into())));
        assert_eq!(s.edit(&u("u1"), &id, &input).await, Err(AddressError::Unavailable("down".into())));
        assert_eq!(s.remove(&u("u1"), &id).await, Err(AddressError::Unavailable("down".into())));

        let mut store = MockAddressStore::new();
        owned_by(&mut store, "u1");
        store.expect_add().returning(|_, _, _| Err(down()));
        store.expect_replace().returning(|_, _, _| Err(down()));
        store.expect_remove().returning(|_, _| Err(down()));
        let s = service(store);
        assert!(matches!(s.add(&u("u1"), &input).await, Err(AddressError::Unavailable(_))));
        assert!(matches!(s.edit(&u("u1"), &id, &input).await, Err(AddressError::Unavailable(_))));
        assert!(matches!(s.remove(&u("u1"), &id).await, Err(AddressError::Unavailable(_))));
        assert_eq!(AddressError::Unavailable("x".into()).message(), Message::AddressUnavailable);
    }
}
