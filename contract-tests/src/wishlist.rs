//! The `WishlistStore` contract, one suite per promise in `marque_ports::wishlist`.

use futures::future::join_all;
use marque_domain::catalog::ProductId;
use marque_ports::{Added, UserId, WishlistStore, WishlistStoreError};

/// Calls `$callback!(suite_name)` once for every wishlist suite.
#[macro_export]
macro_rules! for_each_wishlist_suite {
    ($callback:ident) => {
        $callback!(a_new_wishlist_is_empty);
        $callback!(adding_twice_keeps_one);
        $callback!(newest_first);
        $callback!(full_at_the_limit_but_a_listed_product_is_already_there);
        $callback!(remove_and_remove_a_missing_product);
        $callback!(wishlists_are_per_customer);
        $callback!(concurrent_adds_at_one_below_the_limit_end_at_the_limit);
        $callback!(clear_empties_one_customers_wishlist_only);
    };
}

fn pid(n: usize) -> ProductId {
    ProductId(format!("p{n:03}"))
}

fn uid(s: &str) -> UserId {
    UserId(s.to_owned())
}

pub async fn a_new_wishlist_is_empty(store: &dyn WishlistStore) {
    assert_eq!(store.wishlist(&uid("u1")).await, Ok(vec![]));
}

pub async fn adding_twice_keeps_one(store: &dyn WishlistStore) {
    assert_eq!(store.add(&uid("u1"), &pid(1), 50).await, Ok(Added::Added));
    assert_eq!(store.add(&uid("u1"), &pid(1), 50).await, Ok(Added::AlreadyThere));
    assert_eq!(store.wishlist(&uid("u1")).await, Ok(vec![pid(1)]));
}

pub async fn newest_first(store: &dyn WishlistStore) {
    for n in 1..=4 {
        store.add(&uid("u1"), &pid(n), 50).await.expect("add");
    }
    assert_eq!(store.wishlist(&uid("u1")).await, Ok(vec![pid(4), pid(3), pid(2), pid(1)]));
}

pub async fn full_at_the_limit_but_a_listed_product_is_already_there(store: &dyn WishlistStore) {
    for n in 1..=3 {
        store.add(&uid("u1"), &pid(n), 3).await.expect("add");
    }
    assert_eq!(store.add(&uid("u1"), &pid(4), 3).await, Err(WishlistStoreError::Full));
    assert_eq!(
        store.add(&uid("u1"), &pid(2), 3).await,
        Ok(Added::AlreadyThere),
        "a product already there is not refused"
    );
    assert_eq!(store.wishlist(&uid("u1")).await.map(|w| w.len()), Ok(3), "nothing written when full");
}

pub async fn remove_and_remove_a_missing_product(store: &dyn WishlistStore) {
    for n in 1..=3 {
        store.add(&uid("u1"), &pid(n), 3).await.expect("add");
    }
    store.remove(&uid("u1"), &pid(2)).await.expect("remove");
    assert_eq!(store.wishlist(&uid("u1")).await, Ok(vec![pid(3), pid(1)]));
    store.remove(&uid("u1"), &pid(2)).await.expect("removing a missing product is not an error");
    assert_eq!(store.add(&uid("u1"), &pid(4), 3).await, Ok(Added::Added), "a removal makes room");
}

pub async fn wishlists_are_per_customer(store: &dyn WishlistStore) {
    store.add(&uid("u1"), &pid(1), 1).await.expect("add");
    assert_eq!(store.add(&uid("u2"), &pid(2), 1).await, Ok(Added::Added), "another customer's limit is their own");
    store.remove(&uid("u2"), &pid(1)).await.expect("remove");
    assert_eq!(
        store.wishlist(&uid("u1")).await,
        Ok(vec![pid(1)]),
        "removing from another wishlist changes nothing here"
    );
    assert_eq!(store.wishlist(&uid("u2")).await, Ok(vec![pid(2)]));
}

pub async fn concurrent_adds_at_one_below_the_limit_end_at_the_limit(store: &dyn WishlistStore) {
    const LIMIT: usize = 50;
    for n in 0..LIMIT - 1 {
        store.add(&uid("u1"), &pid(n), LIMIT).await.expect("seed");
    }
    let user = uid("u1");
    let products: Vec<ProductId> = (100..110).map(pid).collect();
    let outcomes = join_all(products.iter().map(|p| store.add(&user, p, LIMIT))).await;
    let added = outcomes.iter().filter(|o| **o == Ok(Added::Added)).count();
    let full = outcomes.iter().filter(|o| **o == Err(WishlistStoreError::Full)).count();
    assert_eq!((added, full), (1, 9), "{outcomes:?}");
    assert_eq!(store.wishlist(&uid("u1")).await.map(|w| w.len()), Ok(LIMIT));
}

pub async fn clear_empties_one_customers_wishlist_only(store: &dyn WishlistStore) {
    for n in 1..=3 {
        store.add(&uid("u1"), &pid(n), 50).await.expect("add");
    }
    store.add(&uid("u2"), &pid(1), 50).await.expect("add");
    store.clear(&uid("u1")).await.expect("clear");
    assert_eq!(store.wishlist(&uid("u1")).await, Ok(vec![]), "the customer's wishlist is empty");
    assert_eq!(store.wishlist(&uid("u2")).await, Ok(vec![pid(1)]), "another customer's stays");
    store.clear(&uid("u1")).await.expect("an empty wishlist is harmless");
    assert_eq!(store.add(&uid("u1"), &pid(4), 1).await, Ok(Added::Added), "the emptied wishlist takes new products");
}
