//! The `GarageStore` contract, one suite per promise in `marque_ports::garage`.

use futures::future::join_all;
use marque_domain::vehicle::{Car, VehicleId};
use marque_ports::{GarageStore, UserId};

/// Calls `$callback!(suite_name)` once for every garage suite.
#[macro_export]
macro_rules! for_each_garage_suite {
    ($callback:ident) => {
        $callback!(a_new_garage_is_empty);
        $callback!(a_garage_is_kept_whole_in_its_order);
        $callback!(a_write_replaces_the_garage_and_an_empty_one_empties_it);
        $callback!(garages_are_per_customer_and_clear_forgets_one);
        $callback!(concurrent_writes_leave_one_list_whole);
    };
}

fn uid(s: &str) -> UserId {
    UserId(s.to_owned())
}

fn car(id: &str, year: Option<u16>) -> Car {
    Car { vehicle: VehicleId::parse(id).expect("a vehicle id"), year }
}

pub async fn a_new_garage_is_empty(store: &dyn GarageStore) {
    assert_eq!(store.garage(&uid("u1")).await, Ok(vec![]));
}

pub async fn a_garage_is_kept_whole_in_its_order(store: &dyn GarageStore) {
    let cars =
        vec![car("bmw-x5-g05.b57", Some(2020)), car("audi-a4-b9.cvka", None), car("bmw-3-series-g20.b48", Some(1950))];
    store.set_garage(&uid("u1"), &cars).await.expect("kept");
    assert_eq!(store.garage(&uid("u1")).await, Ok(cars), "the order and years as given");
}

pub async fn a_write_replaces_the_garage_and_an_empty_one_empties_it(store: &dyn GarageStore) {
    store.set_garage(&uid("u1"), &[car("bmw-x5-g05.b57", None), car("audi-a4-b9.cvka", None)]).await.expect("kept");
    store.set_garage(&uid("u1"), &[car("audi-a4-b9.cvka", Some(2018))]).await.expect("replaced");
    assert_eq!(store.garage(&uid("u1")).await, Ok(vec![car("audi-a4-b9.cvka", Some(2018))]));
    store.set_garage(&uid("u1"), &[]).await.expect("emptied");
    assert_eq!(store.garage(&uid("u1")).await, Ok(vec![]));
}

pub async fn garages_are_per_customer_and_clear_forgets_one(store: &dyn GarageStore) {
    store.set_garage(&uid("u1"), &[car("bmw-x5-g05.b57", None)]).await.expect("kept");
    store.set_garage(&uid("u2"), &[car("audi-a4-b9.cvka", None)]).await.expect("kept");
    store.clear(&uid("u1")).await.expect("cleared");
    store.clear(&uid("nobody")).await.expect("clearing no garage is no error");
    assert_eq!(store.garage(&uid("u1")).await, Ok(vec![]));
    assert_eq!(store.garage(&uid("u2")).await, Ok(vec![car("audi-a4-b9.cvka", None)]), "another's untouched");
}

pub async fn concurrent_writes_leave_one_list_whole(store: &dyn GarageStore) {
    let lists: Vec<Vec<Car>> = (1..=4)
        .map(|n| {
            (1..=n)
                .map(|k| car(&format!("bmw-x{k}-g0{k}.b57"), Some(2000 + u16::try_from(n).expect("small"))))
                .collect()
        })
        .collect();
    let user = uid("u1");
    let writes = lists.iter().map(|cars| store.set_garage(&user, cars));
    for written in join_all(writes).await {
        written.expect("each write is kept or replaced, never refused");
    }
    let kept = store.garage(&uid("u1")).await.expect("read");
    assert!(lists.contains(&kept), "one of the lists, whole: {kept:?}");
}
