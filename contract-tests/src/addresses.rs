//! The `AddressStore` contract, one suite per promise in `marque_ports::addresses`.

use futures::future::join_all;
use marque_domain::address::{Address, AddressId, AddressInput, SavedAddress};
use marque_ports::{AddressStore, AddressStoreError, UserId};

/// Calls `$callback!(suite_name)` once for every address suite.
#[macro_export]
macro_rules! for_each_address_suite {
    ($callback:ident) => {
        $callback!(a_new_address_book_is_empty);
        $callback!(added_addresses_come_back_oldest_first_with_distinct_ids);
        $callback!(an_address_is_found_with_its_owner);
        $callback!(full_at_the_limit_and_a_removal_makes_room);
        $callback!(replace_keeps_the_id_and_the_place);
        $callback!(remove_takes_one_address);
        $callback!(unknown_ids_are_not_found);
        $callback!(another_customers_address_is_not_found_and_stays);
        $callback!(address_books_are_per_customer);
        $callback!(concurrent_adds_at_one_below_the_limit_end_at_the_limit);
        $callback!(remove_all_empties_one_customers_book_only);
    };
}

fn uid(s: &str) -> UserId {
    UserId(s.to_owned())
}

/// A valid address whose house number is `house`; business buyers' ones carry a GSTIN.
#[must_use]
pub fn address(house: &str) -> Address {
    Address::parse(&AddressInput {
        house_no: house.to_owned(),
        street: "MG Road".into(),
        landmark: String::new(),
        city: "Bengaluru".into(),
        state: "karnataka".into(),
        mobile_no: "9876543210".into(),
        pincode: "560001".into(),
        gstin: String::new(),
    })
    .expect("a valid address")
}

fn business(house: &str) -> Address {
    Address::parse(&AddressInput { gstin: "29AAGCB7383J1Z4".into(), ..address(house).to_input() }).expect("valid GSTIN")
}

fn houses(book: &[SavedAddress]) -> Vec<&str> {
    book.iter().map(|a| a.address.house_no.as_str()).collect()
}

async fn book(store: &dyn AddressStore, user: &str) -> Vec<SavedAddress> {
    store.addresses(&uid(user)).await.expect("read the address book")
}

pub async fn a_new_address_book_is_empty(store: &dyn AddressStore) {
    assert_eq!(store.addresses(&uid("u1")).await, Ok(vec![]));
}

pub async fn added_addresses_come_back_oldest_first_with_distinct_ids(store: &dyn AddressStore) {
    let first = store.add(&uid("u1"), &address("1"), 20).await.expect("add");
    assert_eq!(first.address, address("1"), "stored as given");
    let second = store.add(&uid("u1"), &business("2"), 20).await.expect("add");
    store.add(&uid("u1"), &address("3"), 20).await.expect("add");
    assert_ne!(first.id, second.id);
    assert!(!first.id.0.is_empty());
    let saved = book(store, "u1").await;
    assert_eq!(houses(&saved), vec!["1", "2", "3"]);
    assert_eq!(saved[0], first);
    assert_eq!(saved[1], second, "the GSTIN and the state are kept");
    assert_eq!(saved[1].address.gstin.as_ref().map(|g| g.as_str()), Some("29AAGCB7383J1Z4"));
}

pub async fn an_address_is_found_with_its_owner(store: &dyn AddressStore) {
    let saved = store.add(&uid("u1"), &business("7"), 20).await.expect("add");
    assert_eq!(store.address(&saved.id).await, Ok(Some((uid("u1"), saved))));
}

pub async fn full_at_the_limit_and_a_removal_makes_room(store: &dyn AddressStore) {
    let mut ids = Vec::new();
    for n in 1..=3 {
        ids.push(store.add(&uid("u1"), &address(&n.to_string()), 3).await.expect("add").id);
    }
    assert_eq!(store.add(&uid("u1"), &address("4"), 3).await, Err(AddressStoreError::Full));
    assert_eq!(houses(&book(store, "u1").await), vec!["1", "2", "3"], "nothing written when full");
    store.remove(&uid("u1"), &ids[0]).await.expect("remove");
    store.add(&uid("u1"), &address("4"), 3).await.expect("a removal makes room");
    assert_eq!(houses(&book(store, "u1").await), vec!["2", "3", "4"]);
}

pub async fn replace_keeps_the_id_and_the_place(store: &dyn AddressStore) {
    let first = store.add(&uid("u1"), &address("1"), 20).await.expect("add");
    store.add(&uid("u1"), &address("2"), 20).await.expect("add");
    store.replace(&uid("u1"), &first.id, &business("1A")).await.expect("replace");
    let saved = book(store, "u1").await;
    assert_eq!(houses(&saved), vec!["1A", "2"]);
    assert_eq!(saved[0], SavedAddress { id: first.id.clone(), address: business("1A") });
    store.replace(&uid("u1"), &first.id, &address("1B")).await.expect("replace again");
    assert_eq!(
        store.address(&first.id).await.map(|a| a.map(|(_, a)| a.address.gstin)),
        Ok(Some(None)),
        "a GSTIN can be cleared"
    );
}

pub async fn remove_takes_one_address(store: &dyn AddressStore) {
    let ids: Vec<AddressId> = add_all(store, "u1", &["1", "2", "3"]).await;
    store.remove(&uid("u1"), &ids[1]).await.expect("remove");
    assert_eq!(houses(&book(store, "u1").await), vec!["1", "3"]);
    assert_eq!(store.address(&ids[1]).await, Ok(None));
    assert_eq!(store.remove(&uid("u1"), &ids[1]).await, Err(AddressStoreError::NotFound), "removed already");
}

async fn add_all(store: &dyn AddressStore, user: &str, houses: &[&str]) -> Vec<AddressId> {
    let mut ids = Vec::new();
    for house in houses {
        ids.push(store.add(&uid(user), &address(house), 20).await.expect("add").id);
    }
    ids
}

pub async fn unknown_ids_are_not_found(store: &dyn AddressStore) {
    add_all(store, "u1", &["1"]).await;
    for id in ["nope", "", "address:nope", "a b/c?d", "⟨x⟩"] {
        let id = AddressId(id.to_owned());
        assert_eq!(store.address(&id).await, Ok(None), "{id:?}");
        assert_eq!(store.replace(&uid("u1"), &id, &address("9")).await, Err(AddressStoreError::NotFound), "{id:?}");
        assert_eq!(store.remove(&uid("u1"), &id).await, Err(AddressStoreError::NotFound), "{id:?}");
    }
    assert_eq!(houses(&book(store, "u1").await), vec!["1"], "nothing created by a missed edit");
}

pub async fn another_customers_address_is_not_found_and_stays(store: &dyn AddressStore) {
    let theirs = store.add(&uid("owner"), &business("1"), 20).await.expect("add");
    assert_eq!(store.replace(&uid("intruder"), &theirs.id, &address("X")).await, Err(AddressStoreError::NotFound));
    assert_eq!(store.remove(&uid("intruder"), &theirs.id).await, Err(AddressStoreError::NotFound));
    assert_eq!(store.address(&theirs.id).await, Ok(Some((uid("owner"), theirs.clone()))), "untouched");
    assert_eq!(book(store, "owner").await, vec![theirs]);
    assert_eq!(book(store, "intruder").await, vec![]);
}

pub async fn address_books_are_per_customer(store: &dyn AddressStore) {
    store.add(&uid("u1"), &address("1"), 1).await.expect("add");
    store.add(&uid("u2"), &address("2"), 1).await.expect("another customer's limit is their own");
    assert_eq!(houses(&book(store, "u1").await), vec!["1"]);
    assert_eq!(houses(&book(store, "u2").await), vec!["2"]);
}

pub async fn concurrent_adds_at_one_below_the_limit_end_at_the_limit(store: &dyn AddressStore) {
    const LIMIT: usize = 20;
    for n in 0..LIMIT - 1 {
        store.add(&uid("u1"), &address(&n.to_string()), LIMIT).await.expect("seed");
    }
    let user = uid("u1");
    let racing: Vec<Address> = (100..110).map(|n| address(&n.to_string())).collect();
    let outcomes = join_all(racing.iter().map(|a| store.add(&user, a, LIMIT))).await;
    let added = outcomes.iter().filter(|o| o.is_ok()).count();
    let full = outcomes.iter().filter(|o| **o == Err(AddressStoreError::Full)).count();
    assert_eq!((added, full), (1, 9), "{outcomes:?}");
    let saved = book(store, "u1").await;
    assert_eq!(saved.len(), LIMIT);
    let winner = outcomes.into_iter().find_map(Result::ok).expect("one was added");
    assert_eq!(saved.last(), Some(&winner), "the newest comes last");
}

pub async fn remove_all_empties_one_customers_book_only(store: &dyn AddressStore) {
    let asha = add_all(store, "u1", &["1", "2"]).await;
    add_all(store, "u2", &["9"]).await;
    store.remove_all(&uid("u1")).await.expect("remove all");
    assert_eq!(book(store, "u1").await, vec![], "the customer's addresses are gone");
    assert_eq!(store.address(&asha[0]).await, Ok(None));
    assert_eq!(houses(&book(store, "u2").await), vec!["9"], "another customer's stay");
    store.remove_all(&uid("u1")).await.expect("an empty book is harmless");
    store.remove_all(&uid("nobody")).await.expect("an unknown customer is harmless");
}
