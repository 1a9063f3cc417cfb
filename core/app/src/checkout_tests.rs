//! Checkout against mocked ports: the failures a real store or provider rarely shows on demand.

use std::sync::Arc;

use marque_domain::address::{Address, AddressId, AddressInput, SavedAddress};
use marque_domain::cart::Quantity;
use marque_domain::catalog::ProductId;
use marque_domain::order::OrderLine;
use marque_domain::Money;
use marque_ports::{
    MockAddressStore, MockCatalogStore, MockOrderStore, MockPaymentGateway, OrderDraft, Payment, PaymentError,
    PaymentEvent, PaymentEventKind, PaymentId, PaymentOrderId, PaymentState, Reservation, ReservationState, UserId,
    UserRecord,
};

use super::{CheckoutError, CheckoutService};
use crate::accounts::Clock;

struct Fixed;
impl Clock for Fixed {
    fn now(&self) -> i64 {
        1_780_295_400
    }
}

fn customer(id: &str) -> UserRecord {
    UserRecord {
        id: UserId(id.into()),
        name: "Asha".into(),
        email: "asha@example.com".into(),
        google_email: None,
        mobile: "9876543210".into(),
        password_hash: None,
        profile: String::new(),
        verified: true,
        offer_exp: 0,
        percentage: 0,
        created_at: 0,
    }
}

fn address() -> Address {
    Address::parse(&AddressInput {
        house_no: "1".into(),
        city: "New Delhi".into(),
        state: "Delhi".into(),
        mobile_no: "9876543210".into(),
        pincode: "110001".into(),
        ..AddressInput::default()
    })
    .expect("valid")
}

fn reservation(user: &str, total: i64) -> Reservation {
    Reservation {
        payment_order: PaymentOrderId("order_1".into()),
        draft: OrderDraft {
            user: UserId(user.into()),
            user_name: "Asha".into(),
            lines: vec![OrderLine {
                product_id: ProductId("p1".into()),
                name: "Part".into(),
                quantity: Quantity::ONE,
                price: Money::from_paise(total),
                gst: 18,
                hsn: None,
            }],
            address: address(),
            discount: marque_domain::pricing::DiscountPercent::ZERO,
            discount_amount: Money::ZERO,
            delivery_charge: Money::ZERO,
            total: Money::from_paise(total),
        },
        created_at: 0,
        expires_at: 900,
    }
}

fn service(addresses: MockAddressStore, orders: MockOrderStore, payments: MockPaymentGateway) -> CheckoutService {
    CheckoutService::new(
        Arc::new(MockCatalogStore::new()),
        Arc::new(addresses),
        Arc::new(orders),
        Arc::new(payments),
        Arc::new(Fixed),
    )
}

#[tokio::test]
async fn another_customers_address_is_refused_before_anything_is_charged_or_held() {
    let mut addresses = MockAddressStore::new();
    addresses.expect_address().returning(|id| {
        Ok(Some((UserId("someone-else".into()), SavedAddress { id: id.clone(), address: address() })))
    });
    let mut payments = MockPaymentGateway::new();
    payments.expect_create_order().never();
    let mut orders = MockOrderStore::new();
    orders.expect_reserve().never();
    let checkout = service(addresses, orders, payments);
    let wanted = [super::WantedLine { product: ProductId("p1".into()), quantity: 1 }];
    let outcome = checkout.pay(&customer("me"), &wanted, Some(&AddressId("a1".into()))).await;
    assert_eq!(outcome, Err(CheckoutError::Forbidden));
}

#[tokio::test]
async fn a_payment_short_of_the_total_places_nothing() {
    let mut payments = MockPaymentGateway::new();
    payments.expect_verify_payment().returning(|_, _, _| Ok(()));
    payments.expect_payment().returning(|id| {
        Ok(Payment {
            id: id.clone(),
            order_id: PaymentOrderId("order_1".into()),
            amount: Money::from_paise(9_900),
            currency: "INR".into(),
            state: PaymentState::Captured,
        })
    });
    let mut orders = MockOrderStore::new();
    orders.expect_reservation().returning(|_| Ok(Some((reservation("me", 10_000), ReservationState::Held))));
    orders.expect_place().never();
    let checkout = service(MockAddressStore::new(), orders, payments);
    let outcome =
        checkout.confirm(&UserId("me".into()), &PaymentOrderId("order_1".into()), &PaymentId("pay_1".into()), "sig").await;
    assert_eq!(outcome, Err(CheckoutError::NotPaid));
}

fn failed_event() -> PaymentEvent {
    PaymentEvent {
        id: "evt_1".into(),
        kind: PaymentEventKind::Failed { order_id: PaymentOrderId("order_1".into()), payment_id: PaymentId("pay_1".into()) },
    }
}

#[tokio::test]
async fn a_webhook_that_cannot_be_handled_stays_unhandled_so_its_retry_is_handled() {
    let mut payments = MockPaymentGateway::new();
    payments.expect_read_webhook().returning(|_, _, _| Ok(failed_event()));
    let mut orders = MockOrderStore::new();
    orders.expect_receive_event().times(1).returning(|_, _| Ok(false));
    orders
        .expect_reservation()
        .returning(|_| Err(marque_ports::OrderStoreError::Unavailable { reason: "down".into() }));
    orders.expect_event_handled().never();
    let checkout = service(MockAddressStore::new(), orders, payments);
    let outcome = checkout.webhook(b"{}", "sig", None).await;
    assert!(matches!(outcome, Err(CheckoutError::Unavailable(_))), "{outcome:?}");
}

/// Today's fault: the event id was committed before its effect, so a crash in between made every
/// retry a duplicate. Now the event is marked handled only after its effect, and the fault point
/// (a crash) sits between noting and acting.
#[tokio::test]
async fn a_webhook_is_marked_handled_only_after_its_effect() {
    let mut seq = mockall::Sequence::new();
    let mut payments = MockPaymentGateway::new();
    payments.expect_read_webhook().returning(|_, _, _| Ok(failed_event()));
    let mut orders = MockOrderStore::new();
    orders.expect_receive_event().times(1).in_sequence(&mut seq).returning(|_, _| Ok(false));
    orders
        .expect_reservation()
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_| Ok(Some((reservation("me", 10_000), ReservationState::Held))));
    orders.expect_release().times(1).in_sequence(&mut seq).returning(|_| Ok(true));
    orders.expect_event_handled().times(1).in_sequence(&mut seq).withf(|id, _| id == "evt_1").returning(|_, _| Ok(()));
    let probed = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = probed.clone();
    let checkout = service(MockAddressStore::new(), orders, payments)
        .probing_events(Arc::new(move || {
            seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }));
    assert_eq!(checkout.webhook(b"{}", "sig", None).await, Ok(super::EventOutcome::Released));
    assert_eq!(probed.load(std::sync::atomic::Ordering::SeqCst), 1, "the fault point lies between noting and acting");
}

#[tokio::test]
async fn a_handled_webhook_is_a_duplicate_and_does_nothing_again() {
    let mut payments = MockPaymentGateway::new();
    payments.expect_read_webhook().returning(|_, _, _| Ok(failed_event()));
    let mut orders = MockOrderStore::new();
    orders.expect_receive_event().times(1).returning(|_, _| Ok(true));
    orders.expect_reservation().never();
    orders.expect_event_handled().never();
    let checkout = service(MockAddressStore::new(), orders, payments);
    assert_eq!(checkout.webhook(b"{}", "sig", None).await, Ok(super::EventOutcome::Duplicate));
}

#[tokio::test]
async fn payment_events_are_forgotten_after_ninety_days() {
    let mut orders = MockOrderStore::new();
    orders.expect_forget_events_before().times(1).withf(|before| *before == Fixed.now() - 90 * 86_400).returning(|_| Ok(3));
    let checkout = service(MockAddressStore::new(), orders, MockPaymentGateway::new());
    assert_eq!(checkout.forget_old_events().await, Ok(3));
}

fn product(id: &str, stock: u32) -> marque_domain::catalog::Product {
    marque_contract_tests::fixtures::product(id).quantity(stock).build()
}

/// A checkout whose address is the customer's and whose catalog has every product with 100 units.
fn shop(orders: MockOrderStore, payments: MockPaymentGateway, limits: marque_domain::checkout::OrderLimits) -> CheckoutService {
    let mut addresses = MockAddressStore::new();
    addresses
        .expect_address()
        .returning(|id| Ok(Some((UserId("me".into()), SavedAddress { id: id.clone(), address: address() }))));
    let mut catalog = MockCatalogStore::new();
    catalog.expect_product().returning(|id| Ok(Some(product(&id.0, 100))));
    CheckoutService::new(Arc::new(catalog), Arc::new(addresses), Arc::new(orders), Arc::new(payments), Arc::new(Fixed))
        .with_limits(limits)
}

fn line(product: &str, quantity: u32) -> super::WantedLine {
    super::WantedLine { product: ProductId(product.into()), quantity }
}

#[tokio::test]
async fn an_order_above_the_limits_is_refused_before_anything_is_charged_or_held() {
    use marque_domain::checkout::{OrderLimitError, OrderLimits};
    let mut payments = MockPaymentGateway::new();
    payments.expect_create_order().never();
    let mut orders = MockOrderStore::new();
    orders.expect_reserve().never();
    orders.expect_held_by().never();
    let checkout = shop(orders, payments, OrderLimits { units_per_line: 4, lines_per_order: 2 });
    let a = Some(&AddressId("a1".into()));
    // Repeated lines of one product count together.
    assert_eq!(
        checkout.pay(&customer("me"), &[line("p1", 3), line("p2", 1), line("p1", 2)], a).await,
        Err(CheckoutError::Limit(OrderLimitError::TooManyUnits { product: ProductId("p1".into()), limit: 4 }))
    );
    assert_eq!(
        checkout.pay(&customer("me"), &[line("p1", 1), line("p2", 1), line("p3", 1)], a).await,
        Err(CheckoutError::Limit(OrderLimitError::TooManyLines { limit: 2 }))
    );
}

fn held(key: &str, created_at: i64) -> Reservation {
    Reservation { payment_order: PaymentOrderId(key.into()), created_at, ..reservation("me", 10_000) }
}

#[tokio::test]
async fn a_third_unpaid_hold_releases_the_oldest() {
    let mut payments = MockPaymentGateway::new();
    payments.expect_create_order().returning(|o| {
        Ok(marque_ports::PaymentOrder { id: PaymentOrderId("order_new".into()), amount: o.amount, currency: o.currency.clone() })
    });
    let mut orders = MockOrderStore::new();
    let mut seq = mockall::Sequence::new();
    // Before holding: the customer's two unpaid holds; the oldest makes room.
    orders
        .expect_held_by()
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_| Ok(vec![held("order_old", 10), held("order_mid", 20)]));
    orders
        .expect_release()
        .times(1)
        .in_sequence(&mut seq)
        .withf(|o| o.0 == "order_old")
        .returning(|_| Ok(true));
    orders.expect_reserve().times(1).in_sequence(&mut seq).returning(|_| Ok(()));
    // After: two holds, nothing more to release.
    orders
        .expect_held_by()
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_| Ok(vec![held("order_mid", 20), held("order_new", 30)]));
    let checkout = shop(orders, payments, marque_domain::checkout::OrderLimits::DEFAULT);
    let started = checkout.pay(&customer("me"), &[line("p1", 1)], Some(&AddressId("a1".into()))).await.expect("paid");
    assert_eq!(started.order.id, PaymentOrderId("order_new".into()));
}

#[tokio::test]
async fn holds_of_racing_pays_are_trimmed_to_two_after_holding() {
    let mut payments = MockPaymentGateway::new();
    payments.expect_create_order().returning(|o| {
        Ok(marque_ports::PaymentOrder { id: PaymentOrderId("order_new".into()), amount: o.amount, currency: o.currency.clone() })
    });
    let mut orders = MockOrderStore::new();
    let mut seq = mockall::Sequence::new();
    orders.expect_held_by().times(1).in_sequence(&mut seq).returning(|_| Ok(vec![held("order_a", 10)]));
    orders.expect_reserve().times(1).in_sequence(&mut seq).returning(|_| Ok(()));
    // Another Pay of the same customer held meanwhile: three now, the oldest goes.
    orders
        .expect_held_by()
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_| Ok(vec![held("order_a", 10), held("order_b", 20), held("order_new", 30)]));
    orders.expect_release().times(1).in_sequence(&mut seq).withf(|o| o.0 == "order_a").returning(|_| Ok(true));
    let checkout = shop(orders, payments, marque_domain::checkout::OrderLimits::DEFAULT);
    checkout.pay(&customer("me"), &[line("p1", 1)], Some(&AddressId("a1".into()))).await.expect("paid");
}

#[tokio::test]
async fn a_bad_webhook_signature_touches_nothing() {
    let mut payments = MockPaymentGateway::new();
    payments.expect_read_webhook().returning(|_, _, _| Err(PaymentError::BadSignature));
    let mut orders = MockOrderStore::new();
    orders.expect_receive_event().never();
    let checkout = service(MockAddressStore::new(), orders, payments);
    assert_eq!(checkout.webhook(b"{}", "bad", None).await, Err(CheckoutError::BadSignature));
}
