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
    store
        .expect_replace()
        .withf(|user, id, a| user.0 == "u1" && id.0 == "a1" && a.house_no == "9")
        .returning(|_, _, _| Ok(()));
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
