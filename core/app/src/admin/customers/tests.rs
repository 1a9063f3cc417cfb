use std::sync::{Arc, Mutex};

use marque_domain::paging::ListWindow;
use marque_domain::pricing::{DiscountPercent, OfferEndsOn};
use marque_domain::staff::{Staff, StaffId, StaffRole};
use marque_ports::{
    AccountStoreError, Actor, AuditEntry, Clock, MockAccountStore, MockOrderStore, OrderStoreError, OrdersPage, UserId,
    UserRecord, UsersPage,
};

use super::*;

/// 2026-11-26T18:29:59Z: 23:59:59 IST on 26 November 2026.
const NOW: i64 = 1_795_717_799;

struct FixedClock(i64);
impl Clock for FixedClock {
    fn now(&self) -> i64 {
        self.0
    }
}

fn staff(role: StaffRole) -> Staff {
    Staff { id: StaffId("s1".into()), email: "someone@marque.in".into(), name: "Someone".into(), role }
}

fn customer() -> UserRecord {
    UserRecord {
        id: UserId("u1".into()),
        name: "Asha Rao".into(),
        email: "asha@example.in".into(),
        google_email: None,
        mobile: "9876543210".into(),
        password_hash: None,
        profile: String::new(),
        email_verified: true,
        mobile_verified: true,
        offer_ends_on: None,
        percentage: 0,
        created_at: 1,
    }
}

fn service(accounts: MockAccountStore, orders: MockOrderStore) -> CustomersService {
    CustomersService::new(Arc::new(accounts), Arc::new(orders), Arc::new(FixedClock(NOW)))
}

/// An account store that knows [`customer`].
fn knowing_asha() -> MockAccountStore {
    let mut accounts = MockAccountStore::new();
    accounts.expect_user().returning(|id| Ok((id.0 == "u1").then(customer)));
    accounts
}

#[tokio::test]
async fn an_owner_sets_an_offer_with_its_audit_entry() {
    let mut accounts = knowing_asha();
    let written = Arc::new(Mutex::new(Vec::new()));
    let log = written.clone();
    accounts.expect_set_offer().times(1).returning(move |id, offer, audit| {
        log.lock().expect("lock").push((id.clone(), offer, audit.clone()));
        Ok(())
    });
    let view = service(accounts, MockOrderStore::new())
        .set_offer(&staff(StaffRole::Owner), &UserId("u1".into()), 15, "2026-12-05")
        .await
        .expect("set");
    assert_eq!(view.offer.offer_exp, 10, "26 Nov to 5 Dec, both included");
    assert_eq!(view.offer.percent_now(), DiscountPercent::new(15).expect("15"));
    let written = written.lock().expect("lock");
    let (id, offer, audit) = written.first().expect("one write");
    assert_eq!(id.0, "u1");
    let ends = OfferEndsOn::parse("2026-12-05").expect("a day");
    assert_eq!(*offer, Some(CustomerOffer { percentage: DiscountPercent::new(15).expect("15"), ends_on: ends }));
    let expected = AuditEntry::new(NOW, Actor::staff(&staff(StaffRole::Owner)), "offer.set", "customer:u1")
        .with_values(
            Some(r#"{"percentage":0,"endsOn":null}"#.into()),
            Some(r#"{"percentage":15,"endsOn":"2026-12-05"}"#.into()),
        );
    assert_eq!(*audit, expected);
}

#[tokio::test]
async fn ending_an_offer_records_what_it_was() {
    let mut accounts = MockAccountStore::new();
    accounts.expect_user().returning(|_| {
        Ok(Some(UserRecord { percentage: 20, offer_ends_on: OfferEndsOn::parse("2027-01-31").ok(), ..customer() }))
    });
    accounts
        .expect_set_offer()
        .withf(|_, offer, audit| {
            offer.is_none()
                && audit.action == "offer.end"
                && audit.before.as_deref() == Some(r#"{"percentage":20,"endsOn":"2027-01-31"}"#)
                && audit.after.as_deref() == Some(r#"{"percentage":0,"endsOn":null}"#)
        })
        .times(1)
        .returning(|_, _, _| Ok(()));
    let view = service(accounts, MockOrderStore::new())
        .end_offer(&staff(StaffRole::Owner), &UserId("u1".into()))
        .await
        .expect("ended");
    assert_eq!(view.offer.offer_exp, 0);
}

#[tokio::test]
async fn only_owners_touch_offers_and_nothing_is_read_before_the_role_check() {
    for role in [StaffRole::Catalog, StaffRole::Fulfilment] {
        // A mock with no expectations: any store call would panic.
        let customers = service(MockAccountStore::new(), MockOrderStore::new());
        let id = UserId("u1".into());
        let set = customers.set_offer(&staff(role), &id, 10, "2026-12-01").await;
        assert!(matches!(set, Err(CustomersError::Forbidden(_))), "{role:?}: {set:?}");
        let end = customers.end_offer(&staff(role), &id).await;
        assert!(matches!(end, Err(CustomersError::Forbidden(_))), "{role:?}: {end:?}");
        assert_eq!(end.err().map(|e| e.message()), Some(Message::StaffForbidden));
    }
}

#[tokio::test]
async fn catalog_staff_may_not_read_customers_but_fulfilment_may() {
    let customers = service(MockAccountStore::new(), MockOrderStore::new());
    let staff_catalog = staff(StaffRole::Catalog);
    assert!(matches!(
        customers.search(&staff_catalog, "asha", ListWindow::default()).await,
        Err(CustomersError::Forbidden(_))
    ));
    assert!(matches!(
        customers.customer(&staff_catalog, &UserId("u1".into())).await,
        Err(CustomersError::Forbidden(_))
    ));
    assert!(matches!(
        customers.orders(&staff_catalog, &UserId("u1".into()), ListWindow::default()).await,
        Err(CustomersError::Forbidden(_))
    ));

    let mut accounts = MockAccountStore::new();
    accounts
        .expect_search_users()
        .withf(|text, window| text == "asha" && window.offset() == 20 && window.limit() == 20)
        .returning(|_, _| Ok(UsersPage { users: vec![customer()], total: 21 }));
    let page = service(accounts, MockOrderStore::new())
        .search(&staff(StaffRole::Fulfilment), "asha", ListWindow::new(Some(2), Some(20)).expect("a window"))
        .await
        .expect("fulfilment finds customers");
    assert_eq!(page.total, 21);
    assert_eq!(page.customers.first().map(|c| c.user.id.0.as_str()), Some("u1"));
}

#[tokio::test]
async fn bad_offers_are_refused_before_anything_is_written() {
    let owner = staff(StaffRole::Owner);
    let id = UserId("u1".into());
    // No expectations: neither read nor written.
    let customers = service(MockAccountStore::new(), MockOrderStore::new());
    for (pct, ends, code) in [
        (0, "2026-12-01", "offer.percentage_range"),
        (91, "2026-12-01", "offer.percentage_range"),
        (10, "2026-11-25", "offer.ends_on_past"),
        (10, "2026-02-30", "offer.ends_on_invalid"),
        (10, "01-12-2026", "offer.ends_on_invalid"),
        (10, "2030-01-01", "offer.ends_on_too_far"),
    ] {
        let refused = customers.set_offer(&owner, &id, pct, ends).await.expect_err("refused");
        assert_eq!(refused.message().code(), code, "{pct} {ends}");
    }
}

#[tokio::test]
async fn an_unknown_customer_is_not_found_and_gets_no_offer() {
    let owner = staff(StaffRole::Owner);
    let ghost = UserId("ghost".into());
    let customers = service(knowing_asha(), MockOrderStore::new());
    assert_eq!(customers.customer(&owner, &ghost).await, Err(CustomersError::NotFound));
    assert_eq!(customers.orders(&owner, &ghost, ListWindow::default()).await.err(), Some(CustomersError::NotFound));
    assert_eq!(customers.set_offer(&owner, &ghost, 10, "2026-12-01").await, Err(CustomersError::NotFound));
    assert_eq!(customers.end_offer(&owner, &ghost).await, Err(CustomersError::NotFound));
    assert_eq!(CustomersError::NotFound.message().code(), "admin.customer_not_found");

    // Erased between the read and the write: still not found.
    let mut accounts = knowing_asha();
    accounts.expect_set_offer().returning(|_, _, _| Err(AccountStoreError::Invalid { reason: "gone".into() }));
    let gone = service(accounts, MockOrderStore::new()).end_offer(&owner, &UserId("u1".into())).await;
    assert_eq!(gone, Err(CustomersError::NotFound));
}

#[tokio::test]
async fn a_customers_orders_come_from_the_order_store() {
    let mut orders = MockOrderStore::new();
    orders
        .expect_orders_page()
        .withf(|user, offset, limit| user.0 == "u1" && *offset == 40 && *limit == 20)
        .returning(|_, _, _| Ok(OrdersPage { orders: Vec::new(), total: 0 }));
    let page = service(knowing_asha(), orders)
        .orders(
            &staff(StaffRole::Fulfilment),
            &UserId("u1".into()),
            ListWindow::new(Some(3), Some(20)).expect("a window"),
        )
        .await
        .expect("orders");
    assert_eq!(page.total, 0);
}

#[tokio::test]
async fn stores_that_fail_answer_unavailable() {
    let owner = staff(StaffRole::Owner);
    let down = || AccountStoreError::Unavailable { reason: "down".into() };
    let mut accounts = MockAccountStore::new();
    accounts.expect_user().returning(move |_| Err(down()));
    accounts.expect_search_users().returning(move |_, _| Err(down()));
    let customers = service(accounts, MockOrderStore::new());
    let id = UserId("u1".into());
    assert!(matches!(
        customers.search(&owner, "asha", ListWindow::default()).await,
        Err(CustomersError::Unavailable(_))
    ));
    assert!(matches!(customers.customer(&owner, &id).await, Err(CustomersError::Unavailable(_))));
    assert!(matches!(customers.set_offer(&owner, &id, 10, "2026-12-01").await, Err(CustomersError::Unavailable(_))));

    let mut accounts = knowing_asha();
    accounts.expect_set_offer().returning(move |_, _, _| Err(down()));
    let failed = service(accounts, MockOrderStore::new()).end_offer(&owner, &id).await;
    assert!(matches!(failed, Err(CustomersError::Unavailable(_))));
    assert_eq!(failed.err().map(|e| e.message()), Some(Message::StaffUnavailable));

    let mut orders = MockOrderStore::new();
    orders.expect_orders_page().returning(|_, _, _| Err(OrderStoreError::Unavailable { reason: "down".into() }));
    let failed = service(knowing_asha(), orders).orders(&owner, &id, ListWindow::default()).await;
    assert!(matches!(failed, Err(CustomersError::Unavailable(_))));
}
