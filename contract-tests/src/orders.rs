//! The `OrderStore` contract, one suite per promise in `marque_ports::orders`. Each suite gets an
//! empty order store and the catalog store of the same database (stock lives on the products).

use futures::future::join_all;
use marque_domain::address::{Address, AddressInput};
use marque_domain::cart::Quantity;
use marque_domain::catalog::ProductId;
use marque_domain::invoice::{FinancialYear, InvoiceNumber};
use marque_domain::order::OrderLine;
use marque_domain::pricing::DiscountPercent;
use marque_domain::Money;
use marque_ports::{
    CatalogStore, OrderDraft, OrderId, OrderStore, OrderStoreError, OrdersPage, PaymentId, PaymentOrderId, Placement,
    RefundRecord, RefundState, Reservation, ReservationState, UserId,
};

use crate::fixtures::product;

/// Calls `$callback!(suite_name)` once for every order store suite.
#[macro_export]
macro_rules! for_each_order_suite {
    ($callback:ident) => {
        $callback!(a_reservation_takes_stock_and_a_release_gives_it_back_once);
        $callback!(a_reservation_is_all_or_nothing);
        $callback!(a_payment_order_holds_one_reservation);
        $callback!(placing_sells_the_reservation_once);
        $callback!(concurrent_placements_of_one_payment_make_one_order);
        $callback!(invoice_numbers_are_consecutive_per_financial_year);
        $callback!(expired_reservations_give_their_stock_back);
        $callback!(a_late_payment_takes_the_stock_again_when_it_is_there);
        $callback!(a_hundred_buyers_of_the_last_unit_make_one_order);
        $callback!(orders_are_per_customer_newest_first);
        $callback!(orders_come_a_page_at_a_time_newest_first);
        $callback!(a_provider_event_is_a_duplicate_only_once_handled);
        $callback!(old_provider_events_are_forgotten);
        $callback!(a_customers_holds_are_listed_oldest_first);
        $callback!(unplaced_reservations_of_a_period);
        $callback!(a_refund_is_kept_per_payment_and_follows_the_provider);
        $callback!(an_empty_id_names_nothing);
        $callback!(an_order_line_keeps_its_margin_scheme);
        $callback!(an_order_line_keeps_its_warranty_days);
    };
}

/// 2026-06-01 12:00 IST, in financial year 2026-27.
pub const JUNE_2026: i64 = 1_780_295_400;
/// 2027-04-02 12:00 IST, in financial year 2027-28.
const APRIL_2027: i64 = 1_806_647_400;

pub fn pid(n: u32) -> ProductId {
    ProductId(format!("p{n:03}"))
}

fn pay_order(key: &str) -> PaymentOrderId {
    PaymentOrderId(format!("order_{key}"))
}

/// A Delhi delivery address.
#[must_use]
pub fn address() -> Address {
    Address::parse(&AddressInput {
        house_no: "12B".into(),
        city: "New Delhi".into(),
        state: "Delhi".into(),
        mobile_no: "9876543210".into(),
        pincode: "110001".into(),
        ..AddressInput::default()
    })
    .expect("a valid address")
}

/// A reservation of `lines` (product number, quantity) at ₹1,000 a unit, made at `now`, held for 15 minutes.
pub fn reservation(key: &str, user: &str, lines: &[(u32, u32)], now: i64) -> Reservation {
    let lines: Vec<OrderLine> = lines
        .iter()
        .map(|&(n, quantity)| OrderLine {
            product_id: pid(n),
            name: format!("Part {n}"),
            quantity: Quantity::new(quantity).expect("≥ 1"),
            price: Money::from_rupees(1000),
            gst: 18,
            hsn: None,
            margin_scheme: None,
            warranty_days: None,
        })
        .collect();
    let items: Money = lines.iter().map(OrderLine::amount).sum();
    Reservation {
        payment_order: pay_order(key),
        draft: OrderDraft {
            user: UserId(user.to_owned()),
            user_name: "Asha Rao".into(),
            lines,
            address: address(),
            discount: DiscountPercent::new(0).expect("0 is a percent"),
            discount_amount: Money::ZERO,
            delivery_charge: Money::from_rupees(100),
            total: items + Money::from_rupees(100),
            store_credit: marque_domain::Money::ZERO,
        },
        created_at: now,
        expires_at: now + 900,
    }
}

/// Puts products `numbers` in the catalog with `stock` units each.
pub async fn stock(catalog: &dyn CatalogStore, numbers: &[u32], stock: u32) {
    let products: Vec<_> = numbers.iter().map(|&n| product(&pid(n).0).quantity(stock).build()).collect();
    catalog.add_products(&products).await.expect("add products");
}

/// (units in stock, units sold) of product `n`.
async fn units(catalog: &dyn CatalogStore, n: u32) -> (u32, u32) {
    let p = catalog.product(&pid(n)).await.expect("read").expect("the product exists");
    (p.quantity, p.units_sold)
}

pub async fn a_reservation_takes_stock_and_a_release_gives_it_back_once(
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
) {
    stock(catalog, &[1, 2], 5).await;
    let r = reservation("a", "u1", &[(1, 2), (2, 5)], JUNE_2026);
    orders.reserve(&r).await.expect("reserve");
    assert_eq!((units(catalog, 1).await.0, units(catalog, 2).await.0), (3, 0));
    assert_eq!(orders.reservation(&r.payment_order).await, Ok(Some((r.clone(), ReservationState::Held))));
    assert_eq!(orders.release(&r.payment_order).await, Ok(true));
    assert_eq!(orders.release(&r.payment_order).await, Ok(false), "released once");
    assert_eq!((units(catalog, 1).await.0, units(catalog, 2).await.0), (5, 5));
    assert_eq!(
        orders.reservation(&r.payment_order).await.map(|r| r.map(|(_, s)| s)),
        Ok(Some(ReservationState::Released))
    );
    assert_eq!(orders.release(&pay_order("none")).await, Err(OrderStoreError::UnknownReservation));
    assert_eq!(orders.reservation(&pay_order("none")).await, Ok(None));
}

pub async fn a_reservation_is_all_or_nothing(orders: &dyn OrderStore, catalog: &dyn CatalogStore) {
    stock(catalog, &[1, 2], 2).await;
    let short = reservation("a", "u1", &[(1, 2), (2, 3)], JUNE_2026);
    assert_eq!(orders.reserve(&short).await, Err(OrderStoreError::OutOfStock { product: pid(2) }));
    assert_eq!((units(catalog, 1).await.0, units(catalog, 2).await.0), (2, 2), "nothing held");
    assert_eq!(orders.reservation(&short.payment_order).await, Ok(None));
    let missing = reservation("b", "u1", &[(1, 1), (9, 1)], JUNE_2026);
    assert_eq!(orders.reserve(&missing).await, Err(OrderStoreError::OutOfStock { product: pid(9) }));
    assert_eq!(units(catalog, 1).await.0, 2);
}

pub async fn a_payment_order_holds_one_reservation(orders: &dyn OrderStore, catalog: &dyn CatalogStore) {
    stock(catalog, &[1], 5).await;
    let r = reservation("a", "u1", &[(1, 1)], JUNE_2026);
    orders.reserve(&r).await.expect("reserve");
    assert_eq!(orders.reserve(&r).await, Err(OrderStoreError::DuplicateReservation));
    assert_eq!(units(catalog, 1).await.0, 4, "the refused one took nothing");
}

pub async fn placing_sells_the_reservation_once(orders: &dyn OrderStore, catalog: &dyn CatalogStore) {
    stock(catalog, &[1, 2], 5).await;
    let r = reservation("a", "u1", &[(1, 2), (2, 1)], JUNE_2026);
    orders.reserve(&r).await.expect("reserve");
    let placed = orders.place(&r.payment_order, &PaymentId("pay_1".into()), JUNE_2026 + 60).await.expect("place");
    let Placement::Placed(order) = placed else { panic!("the first placement places: {placed:?}") };
    assert_eq!(order.draft, r.draft, "the order is the reservation's snapshot");
    assert_eq!((order.payment.0.as_str(), order.status, order.created_at), ("pay_1", 1, JUNE_2026 + 60));
    assert_eq!(order.invoice_number, InvoiceNumber::first(FinancialYear::starting(2026)));
    assert_eq!(order.shipment, None, "not shipped");
    assert_eq!((units(catalog, 1).await, units(catalog, 2).await), ((3, 2), (4, 1)), "sold, not given back");

    let again = orders.place(&r.payment_order, &PaymentId("pay_2".into()), JUNE_2026 + 120).await.expect("again");
    assert_eq!(again, Placement::AlreadyPlaced(order.clone()), "the same order, unchanged");
    assert_eq!(orders.release(&r.payment_order).await, Ok(false), "a sold reservation is not released");
    assert_eq!(units(catalog, 1).await, (3, 2));
    assert_eq!(orders.order(&order.id).await, Ok(Some(order)));
    assert_eq!(
        orders.place(&pay_order("none"), &PaymentId("pay_3".into()), JUNE_2026).await,
        Err(OrderStoreError::UnknownReservation)
    );
}

pub async fn concurrent_placements_of_one_payment_make_one_order(orders: &dyn OrderStore, catalog: &dyn CatalogStore) {
    stock(catalog, &[1], 3).await;
    let r = reservation("a", "u1", &[(1, 1)], JUNE_2026);
    orders.reserve(&r).await.expect("reserve");
    let payment = PaymentId("pay_1".into());
    let outcomes = join_all((0..10).map(|_| orders.place(&r.payment_order, &payment, JUNE_2026))).await;
    let placed: Vec<_> = outcomes.iter().filter(|o| matches!(o, Ok(Placement::Placed(_)))).collect();
    assert_eq!(placed.len(), 1, "exactly one placement places: {outcomes:?}");
    let ids: Vec<_> = outcomes.into_iter().map(|o| o.expect("every call answers").into_order().id).collect();
    assert!(ids.windows(2).all(|w| w[0] == w[1]), "every call answers the same order");
    assert_eq!(orders.orders_of(&UserId("u1".into())).await.map(|o| o.len()), Ok(1));
    assert_eq!(units(catalog, 1).await, (2, 1));
}

pub async fn invoice_numbers_are_consecutive_per_financial_year(orders: &dyn OrderStore, catalog: &dyn CatalogStore) {
    stock(catalog, &[1], 10).await;
    let mut numbers = Vec::new();
    for (key, at) in [("a", JUNE_2026), ("b", JUNE_2026 + 10), ("c", APRIL_2027), ("d", JUNE_2026 + 20)] {
        let r = reservation(key, "u1", &[(1, 1)], at);
        orders.reserve(&r).await.expect("reserve");
        let order =
            orders.place(&r.payment_order, &PaymentId(format!("pay_{key}")), at).await.expect("place").into_order();
        numbers.push((order.invoice_number.to_string(), order.order_number));
    }
    let invoices: Vec<&str> = numbers.iter().map(|(i, _)| i.as_str()).collect();
    assert_eq!(invoices, ["MQ/26-27/000001", "MQ/26-27/000002", "MQ/27-28/000001", "MQ/26-27/000003"]);
    let mut order_numbers: Vec<&str> = numbers.iter().map(|(_, o)| o.as_str()).collect();
    order_numbers.dedup();
    assert_eq!(order_numbers.len(), 4, "order numbers are never reused: {order_numbers:?}");
}

pub async fn expired_reservations_give_their_stock_back(orders: &dyn OrderStore, catalog: &dyn CatalogStore) {
    stock(catalog, &[1], 5).await;
    let early = reservation("a", "u1", &[(1, 2)], JUNE_2026);
    let later = reservation("b", "u2", &[(1, 1)], JUNE_2026 + 600);
    let paid = reservation("c", "u3", &[(1, 1)], JUNE_2026);
    for r in [&early, &later, &paid] {
        orders.reserve(r).await.expect("reserve");
    }
    orders.place(&paid.payment_order, &PaymentId("pay_c".into()), JUNE_2026 + 60).await.expect("place");
    assert_eq!(units(catalog, 1).await.0, 1);
    assert_eq!(orders.release_expired(JUNE_2026 + 899).await, Ok(0), "nothing is due yet");
    assert_eq!(
        orders.release_expired(JUNE_2026 + 900).await,
        Ok(1),
        "only the early one is due (the paid one is sold)"
    );
    assert_eq!(units(catalog, 1).await.0, 3);
    assert_eq!(orders.release_expired(JUNE_2026 + 900).await, Ok(0), "released once");
    assert_eq!(orders.release_expired(JUNE_2026 + 1500).await, Ok(1));
    assert_eq!(units(catalog, 1).await, (4, 1));
}

pub async fn a_late_payment_takes_the_stock_again_when_it_is_there(
    orders: &dyn OrderStore,
    catalog: &dyn CatalogStore,
) {
    stock(catalog, &[1, 2], 1).await;
    let first = reservation("a", "u1", &[(1, 1)], JUNE_2026);
    orders.reserve(&first).await.expect("reserve");
    orders.release_expired(JUNE_2026 + 900).await.expect("expire");
    let late = orders.place(&first.payment_order, &PaymentId("pay_a".into()), JUNE_2026 + 1000).await;
    assert!(matches!(late, Ok(Placement::Placed(_))), "the unit is still there: {late:?}");
    assert_eq!(units(catalog, 1).await, (0, 1));

    let second = reservation("b", "u1", &[(2, 1)], JUNE_2026);
    orders.reserve(&second).await.expect("reserve");
    orders.release(&second.payment_order).await.expect("release");
    let other = reservation("c", "u2", &[(2, 1)], JUNE_2026 + 10);
    orders.reserve(&other).await.expect("another buyer takes the unit");
    assert_eq!(
        orders.place(&second.payment_order, &PaymentId("pay_b".into()), JUNE_2026 + 20).await,
        Err(OrderStoreError::OutOfStock { product: pid(2) })
    );
    assert_eq!(units(catalog, 2).await, (0, 0), "nothing placed, the other buyer's hold untouched");
    assert_eq!(orders.orders_of(&UserId("u1".into())).await.map(|o| o.len()), Ok(1));
}

pub async fn a_hundred_buyers_of_the_last_unit_make_one_order(orders: &dyn OrderStore, catalog: &dyn CatalogStore) {
    stock(catalog, &[1], 1).await;
    let buyers: Vec<Reservation> =
        (0..100).map(|n| reservation(&format!("b{n}"), &format!("u{n}"), &[(1, 1)], JUNE_2026)).collect();
    let outcomes = join_all(buyers.iter().map(|r| orders.reserve(r))).await;
    let winners: Vec<usize> = outcomes.iter().enumerate().filter(|(_, o)| o.is_ok()).map(|(i, _)| i).collect();
    assert_eq!(winners.len(), 1, "one buyer holds the unit");
    for outcome in outcomes.iter().filter(|o| o.is_err()) {
        assert_eq!(outcome, &Err(OrderStoreError::OutOfStock { product: pid(1) }));
    }
    assert_eq!(units(catalog, 1).await.0, 0);
    let winner = &buyers[winners[0]];
    let payment = PaymentId("pay".into());
    let placed = join_all(buyers.iter().map(|r| orders.place(&r.payment_order, &payment, JUNE_2026))).await;
    assert_eq!(placed.iter().filter(|p| matches!(p, Ok(Placement::Placed(_)))).count(), 1);
    assert_eq!(placed.iter().filter(|p| p == &&Err(OrderStoreError::UnknownReservation)).count(), 99);
    assert_eq!(orders.orders_of(&winner.draft.user).await.map(|o| o.len()), Ok(1));
    assert_eq!(units(catalog, 1).await, (0, 1), "stock 0, never below");
}

pub async fn orders_are_per_customer_newest_first(orders: &dyn OrderStore, catalog: &dyn CatalogStore) {
    stock(catalog, &[1], 10).await;
    for (key, user, at) in [("a", "u1", JUNE_2026), ("b", "u2", JUNE_2026 + 5), ("c", "u1", JUNE_2026 + 10)] {
        let r = reservation(key, user, &[(1, 1)], at);
        orders.reserve(&r).await.expect("reserve");
        orders.place(&r.payment_order, &PaymentId(format!("pay_{key}")), at).await.expect("place");
    }
    let mine = orders.orders_of(&UserId("u1".into())).await.expect("read");
    let payments: Vec<&str> = mine.iter().map(|o| o.payment.0.as_str()).collect();
    assert_eq!(payments, ["pay_c", "pay_a"]);
    assert_eq!(orders.orders_of(&UserId("nobody".into())).await, Ok(vec![]));
}

pub async fn orders_come_a_page_at_a_time_newest_first(orders: &dyn OrderStore, catalog: &dyn CatalogStore) {
    stock(catalog, &[1], 10).await;
    for n in 0..5_i64 {
        for user in ["u1", "u2"] {
            let key = format!("{user}-{n}");
            let r = reservation(&key, user, &[(1, 1)], JUNE_2026 + n * 10);
            orders.reserve(&r).await.expect("reserve");
            orders.place(&r.payment_order, &PaymentId(format!("pay_{key}")), JUNE_2026 + n * 10).await.expect("place");
        }
    }
    let u1 = UserId("u1".into());
    let payments = |page: &OrdersPage| page.orders.iter().map(|o| o.payment.0.clone()).collect::<Vec<_>>();
    let first = orders.orders_page(&u1, 0, 2).await.expect("page 1");
    assert_eq!((payments(&first), first.total), (vec!["pay_u1-4".to_owned(), "pay_u1-3".to_owned()], 5));
    let last = orders.orders_page(&u1, 4, 2).await.expect("page 3");
    assert_eq!((payments(&last), last.total), (vec!["pay_u1-0".to_owned()], 5));
    // Pages agree with the whole list.
    let whole: Vec<String> = orders.orders_of(&u1).await.expect("all").iter().map(|o| o.payment.0.clone()).collect();
    let mut paged = Vec::new();
    for offset in (0..6).step_by(2) {
        paged.extend(payments(&orders.orders_page(&u1, offset, 2).await.expect("a page")));
    }
    assert_eq!(paged, whole);
    let past = orders.orders_page(&u1, 10, 2).await.expect("past the end");
    assert_eq!((past.orders.len(), past.total), (0, 5));
    assert_eq!(orders.orders_page(&UserId("nobody".into()), 0, 20).await, Ok(OrdersPage::default()));
}

/// An event is a duplicate only once its handling finished: one that arrived and was never marked
/// handled (a crash between arrival and effect) is handled again on its retry.
pub async fn a_provider_event_is_a_duplicate_only_once_handled(orders: &dyn OrderStore, _catalog: &dyn CatalogStore) {
    assert_eq!(orders.receive_event("evt_1", JUNE_2026).await, Ok(false));
    assert_eq!(orders.receive_event("evt_1", JUNE_2026 + 1).await, Ok(false), "arrived, never handled: handled again");
    assert_eq!(orders.event_handled("evt_1", JUNE_2026 + 2).await, Ok(()));
    assert_eq!(orders.receive_event("evt_1", JUNE_2026 + 3).await, Ok(true), "handled: a duplicate");
    let racing = join_all((0..10).map(|_| orders.receive_event("evt_2", JUNE_2026))).await;
    assert!(racing.iter().all(|r| r == &Ok(false)), "{racing:?}");
    let marking = join_all((0..5).map(|_| orders.event_handled("evt_2", JUNE_2026 + 1))).await;
    assert!(marking.iter().all(Result::is_ok), "{marking:?}");
    assert_eq!(orders.receive_event("evt_2", JUNE_2026 + 2).await, Ok(true));
    assert_eq!(orders.event_handled("evt_never_received", JUNE_2026).await, Ok(()));
    assert_eq!(orders.receive_event("evt_never_received", JUNE_2026 + 1).await, Ok(true));
}

/// Events are deleted by the time they first arrived, whatever their state.
pub async fn old_provider_events_are_forgotten(orders: &dyn OrderStore, _catalog: &dyn CatalogStore) {
    const DAY: i64 = 86_400;
    orders.receive_event("evt_old", JUNE_2026 - 91 * DAY).await.expect("receive");
    orders.event_handled("evt_old", JUNE_2026 - 91 * DAY).await.expect("handled");
    orders.receive_event("evt_old_unhandled", JUNE_2026 - 95 * DAY).await.expect("receive");
    orders.receive_event("evt_new", JUNE_2026 - 10 * DAY).await.expect("receive");
    orders.event_handled("evt_new", JUNE_2026 - 10 * DAY).await.expect("handled");
    // A later arrival keeps the first arrival's time.
    orders.receive_event("evt_old", JUNE_2026).await.expect("receive again");
    assert_eq!(orders.forget_events_before(JUNE_2026 - 90 * DAY).await, Ok(2));
    assert_eq!(orders.receive_event("evt_new", JUNE_2026).await, Ok(true), "a recent event stays");
    assert_eq!(orders.receive_event("evt_old", JUNE_2026).await, Ok(false), "a forgotten event is new again");
    assert_eq!(orders.forget_events_before(JUNE_2026 - 90 * DAY).await, Ok(0));
}

/// A customer's held reservations, oldest first; released and sold ones and other customers' are not listed.
pub async fn a_customers_holds_are_listed_oldest_first(orders: &dyn OrderStore, catalog: &dyn CatalogStore) {
    stock(catalog, &[1], 10).await;
    let a = reservation("a", "u1", &[(1, 1)], JUNE_2026 + 20);
    let b = reservation("b", "u1", &[(1, 1)], JUNE_2026);
    let c = reservation("c", "u1", &[(1, 1)], JUNE_2026 + 10);
    let d = reservation("d", "u1", &[(1, 1)], JUNE_2026 + 5);
    let other = reservation("e", "u2", &[(1, 1)], JUNE_2026);
    for r in [&a, &b, &c, &d, &other] {
        orders.reserve(r).await.expect("reserve");
    }
    orders.release(&d.payment_order).await.expect("release");
    orders.place(&c.payment_order, &PaymentId("pay_c".into()), JUNE_2026 + 60).await.expect("place");
    assert_eq!(orders.held_by(&UserId("u1".into())).await, Ok(vec![b, a]));
    assert_eq!(orders.held_by(&UserId("u2".into())).await, Ok(vec![other]));
    assert_eq!(orders.held_by(&UserId("nobody".into())).await, Ok(vec![]));
}

/// The reservations of a period from which no order was placed: held and released ones, oldest first.
pub async fn unplaced_reservations_of_a_period(orders: &dyn OrderStore, catalog: &dyn CatalogStore) {
    stock(catalog, &[1], 10).await;
    let old = reservation("old", "u1", &[(1, 1)], JUNE_2026 - 2 * 86_400);
    let held = reservation("held", "u1", &[(1, 1)], JUNE_2026 + 10);
    let released = reservation("released", "u2", &[(1, 1)], JUNE_2026);
    let sold = reservation("sold", "u1", &[(1, 1)], JUNE_2026 + 5);
    for r in [&old, &held, &released, &sold] {
        orders.reserve(r).await.expect("reserve");
    }
    orders.release(&released.payment_order).await.expect("release");
    orders.place(&sold.payment_order, &PaymentId("pay_s".into()), JUNE_2026 + 60).await.expect("place");
    assert_eq!(
        orders.unplaced_since(JUNE_2026 - 86_400).await,
        Ok(vec![(released, ReservationState::Released), (held, ReservationState::Held)])
    );
}

/// A refund is kept per payment; a second save moves its provider id and status only; the
/// provider's news finds it by the provider's refund id.
pub async fn a_refund_is_kept_per_payment_and_follows_the_provider(
    orders: &dyn OrderStore,
    _catalog: &dyn CatalogStore,
) {
    let payment = PaymentId("pay_late".into());
    assert_eq!(orders.refund_of(&payment).await, Ok(None));
    let requested = RefundRecord {
        payment: payment.clone(),
        payment_order: pay_order("late"),
        user: UserId("u1".into()),
        amount: Money::from_paise(123_450),
        reason: "sold_out".into(),
        refund_id: None,
        state: RefundState::Requested,
        created_at: JUNE_2026,
        updated_at: JUNE_2026,
    };
    orders.save_refund(&requested).await.expect("save");
    assert_eq!(orders.refund_of(&payment).await, Ok(Some(requested.clone())));
    let accepted = RefundRecord {
        refund_id: Some("rfnd_1".into()),
        state: RefundState::Pending,
        amount: Money::from_paise(1),
        reason: "changed".into(),
        created_at: JUNE_2026 + 5,
        updated_at: JUNE_2026 + 10,
        ..requested.clone()
    };
    orders.save_refund(&accepted).await.expect("save again");
    let kept = RefundRecord {
        refund_id: Some("rfnd_1".into()),
        state: RefundState::Pending,
        updated_at: JUNE_2026 + 10,
        ..requested.clone()
    };
    assert_eq!(orders.refund_of(&payment).await, Ok(Some(kept.clone())), "what was refunded and why stays");
    assert_eq!(orders.refund_status("rfnd_1", RefundState::Processed, JUNE_2026 + 99).await, Ok(true));
    assert_eq!(
        orders.refund_of(&payment).await,
        Ok(Some(RefundRecord { state: RefundState::Processed, updated_at: JUNE_2026 + 99, ..kept }))
    );
    assert_eq!(orders.refund_status("rfnd_unknown", RefundState::Failed, JUNE_2026 + 99).await, Ok(false));
    assert_eq!(orders.refund_of(&PaymentId(String::new())).await, Ok(None));
}

/// An empty id (a request's empty field) is an unknown reservation or order, never a store failure.
pub async fn an_empty_id_names_nothing(orders: &dyn OrderStore, _catalog: &dyn CatalogStore) {
    let empty = PaymentOrderId(String::new());
    assert_eq!(orders.reservation(&empty).await, Ok(None));
    assert_eq!(orders.release(&empty).await, Err(OrderStoreError::UnknownReservation));
    assert_eq!(
        orders.place(&empty, &PaymentId("pay_x".into()), JUNE_2026).await,
        Err(OrderStoreError::UnknownReservation)
    );
    assert_eq!(orders.order(&OrderId(String::new())).await, Ok(None));
}

/// A used unit's margin scheme (its purchase price) is part of the snapshot: the reservation and
/// the order read it back as it was written, beside a line without one.
pub async fn an_order_line_keeps_its_margin_scheme(orders: &dyn OrderStore, catalog: &dyn CatalogStore) {
    use marque_domain::catalog::MarginScheme;
    stock(catalog, &[1, 2], 5).await;
    let mut r = reservation("m", "u1", &[(1, 1), (2, 2)], JUNE_2026);
    let scheme = MarginScheme::new(Money::from_paise(612_345)).expect("a purchase price");
    r.draft.lines[0].margin_scheme = Some(scheme);
    orders.reserve(&r).await.expect("reserve");
    let held = orders.reservation(&r.payment_order).await.expect("read").expect("held");
    assert_eq!(held.0.draft.lines[0].margin_scheme, Some(scheme));
    assert_eq!(held.0.draft.lines[1].margin_scheme, None);
    let placed = orders.place(&r.payment_order, &PaymentId("pay_m".into()), JUNE_2026 + 60).await.expect("place");
    let order = placed.into_order();
    assert_eq!(order.draft, r.draft, "the order keeps the reservation's margin scheme");
    let again = orders.order(&order.id).await.expect("read").expect("the order");
    let schemes: Vec<_> = again.draft.lines.iter().map(|l| l.margin_scheme).collect();
    assert_eq!(schemes, vec![Some(scheme), None]);
}

/// The product's warranty days when the order was placed are part of the snapshot: the reservation
/// and the order read them back as written, beside a line without them (an order placed before
/// lines kept them reads as none).
pub async fn an_order_line_keeps_its_warranty_days(orders: &dyn OrderStore, catalog: &dyn CatalogStore) {
    use marque_domain::catalog::WarrantyDays;
    stock(catalog, &[1, 2], 5).await;
    let mut r = reservation("w", "u1", &[(1, 1), (2, 2)], JUNE_2026);
    let days = WarrantyDays::new(12).expect("2 to 15");
    r.draft.lines[0].warranty_days = Some(days);
    orders.reserve(&r).await.expect("reserve");
    let held = orders.reservation(&r.payment_order).await.expect("read").expect("held");
    let kept: Vec<_> = held.0.draft.lines.iter().map(|l| l.warranty_days).collect();
    assert_eq!(kept, vec![Some(days), None]);
    let placed = orders.place(&r.payment_order, &PaymentId("pay_w".into()), JUNE_2026 + 60).await.expect("place");
    let order = placed.into_order();
    assert_eq!(order.draft, r.draft, "the order keeps the reservation's warranty days");
    let again = orders.order(&order.id).await.expect("read").expect("the order");
    let kept: Vec<_> = again.draft.lines.iter().map(|l| l.warranty_days).collect();
    assert_eq!(kept, vec![Some(days), None]);
}
