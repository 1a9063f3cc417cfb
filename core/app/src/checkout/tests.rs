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
use marque_ports::Clock;

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
        email_verified: true,
        mobile_verified: true,
        offer_ends_on: None,
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
                margin_scheme: None,
                warranty_days: None,
            }],
            address: address(),
            discount: marque_domain::pricing::DiscountPercent::ZERO,
            discount_amount: Money::ZERO,
            delivery_charge: Money::ZERO,
            total: Money::from_paise(total),
            store_credit: marque_domain::Money::ZERO,
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
    addresses
        .expect_address()
        .returning(|id| Ok(Some((UserId("someone-else".into()), SavedAddress { id: id.clone(), address: address() }))));
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
    orders.expect_refund_of().returning(|_| Ok(None));
    orders.expect_place().never();
    let checkout = service(MockAddressStore::new(), orders, payments);
    let outcome = checkout
        .confirm(&UserId("me".into()), &PaymentOrderId("order_1".into()), &PaymentId("pay_1".into()), "sig")
        .await;
    assert_eq!(outcome, Err(CheckoutError::NotPaid));
}

fn failed_event() -> PaymentEvent {
    PaymentEvent {
        id: "evt_1".into(),
        kind: PaymentEventKind::Failed {
            order_id: PaymentOrderId("order_1".into()),
            payment_id: PaymentId("pay_1".into()),
        },
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
    let checkout = service(MockAddressStore::new(), orders, payments).probing_events(Arc::new(move || {
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
    orders
        .expect_forget_events_before()
        .times(1)
        .withf(|before| *before == Fixed.now() - 90 * 86_400)
        .returning(|_| Ok(3));
    let checkout = service(MockAddressStore::new(), orders, MockPaymentGateway::new());
    assert_eq!(checkout.forget_old_events().await, Ok(3));
}

fn product(id: &str, stock: u32) -> marque_domain::catalog::Product {
    marque_contract_tests::fixtures::product(id).quantity(stock).build()
}

/// A checkout whose address is the customer's and whose catalog has every product with 100 units.
fn shop(
    orders: MockOrderStore,
    payments: MockPaymentGateway,
    limits: marque_domain::checkout::OrderLimits,
) -> CheckoutService {
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
        Ok(marque_ports::PaymentOrder {
            id: PaymentOrderId("order_new".into()),
            amount: o.amount,
            currency: o.currency.clone(),
        })
    });
    let mut orders = MockOrderStore::new();
    let mut seq = mockall::Sequence::new();
    // Before holding: the customer's two unpaid holds; the oldest makes room.
    orders
        .expect_held_by()
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_| Ok(vec![held("order_old", 10), held("order_mid", 20)]));
    orders.expect_release().times(1).in_sequence(&mut seq).withf(|o| o.0 == "order_old").returning(|_| Ok(true));
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
        Ok(marque_ports::PaymentOrder {
            id: PaymentOrderId("order_new".into()),
            amount: o.amount,
            currency: o.currency.clone(),
        })
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
async fn an_order_line_keeps_the_margin_scheme_and_warranty_days_the_product_had_when_paid_for() {
    use marque_domain::catalog::{MarginScheme, WarrantyDays};
    let days = |n| WarrantyDays::new(n).expect("2 to 15");
    let scheme = MarginScheme::new(Money::from_rupees(6_000)).expect("a purchase price");
    let mut payments = MockPaymentGateway::new();
    payments.expect_create_order().returning(|o| {
        Ok(marque_ports::PaymentOrder {
            id: PaymentOrderId("order_m".into()),
            amount: o.amount,
            currency: o.currency.clone(),
        })
    });
    let mut orders = MockOrderStore::new();
    orders.expect_held_by().returning(|_| Ok(vec![]));
    orders
        .expect_reserve()
        .times(1)
        .withf(move |r| {
            let schemes: Vec<_> = r.draft.lines.iter().map(|l| (l.product_id.0.as_str(), l.margin_scheme)).collect();
            let warranties: Vec<_> = r.draft.lines.iter().map(|l| l.warranty_days).collect();
            schemes == [("used", Some(scheme)), ("new", None)] && warranties == [Some(days(12)), Some(days(7))]
        })
        .returning(|_| Ok(()));
    let mut addresses = MockAddressStore::new();
    addresses
        .expect_address()
        .returning(|id| Ok(Some((UserId("me".into()), SavedAddress { id: id.clone(), address: address() }))));
    let mut catalog = MockCatalogStore::new();
    catalog.expect_product().returning(move |id| {
        let mut p = product(&id.0, 5);
        if id.0 == "used" {
            p.condition = marque_domain::catalog::Condition::Old;
            p.details.margin_scheme = Some(scheme);
            p.details.warranty_days = days(12);
        } else {
            p.details.warranty_days = days(7);
        }
        Ok(Some(p))
    });
    let checkout = CheckoutService::new(
        Arc::new(catalog),
        Arc::new(addresses),
        Arc::new(orders),
        Arc::new(payments),
        Arc::new(Fixed),
    );
    checkout
        .pay(&customer("me"), &[line("used", 1), line("new", 1)], Some(&AddressId("a1".into())))
        .await
        .expect("held");
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

// Authorized is not paid; paid but no order.

fn placed_order(payment: &str) -> marque_ports::PlacedOrder {
    use marque_domain::invoice::{FinancialYear, InvoiceNumber};
    let r = reservation("me", 10_000);
    marque_ports::PlacedOrder {
        id: marque_ports::OrderId("o1".into()),
        order_number: "MQ-000001".into(),
        invoice_number: InvoiceNumber::new(FinancialYear::at_unix_seconds(Fixed.now()), 1).expect("a number"),
        draft: r.draft,
        payment_order: r.payment_order,
        payment: PaymentId(payment.into()),
        created_at: Fixed.now(),
        status: 1,
        status_text: "Placed".into(),
        shipment: None,
    }
}

fn payment_in(state: PaymentState) -> Payment {
    Payment {
        id: PaymentId("pay_1".into()),
        order_id: PaymentOrderId("order_1".into()),
        amount: Money::from_paise(10_000),
        currency: "INR".into(),
        state,
    }
}

/// Records what the customer is told.
#[derive(Default)]
struct Told {
    refunds: std::sync::Mutex<Vec<marque_ports::RefundRecord>>,
}

#[async_trait::async_trait]
impl crate::orders::OrderPlaced for Told {
    async fn order_placed(&self, _: &marque_ports::PlacedOrder) {}
    async fn payment_refunded(&self, refund: &marque_ports::RefundRecord) {
        self.refunds.lock().expect("lock").push(refund.clone());
    }
}

fn confirm_ready(orders: &mut MockOrderStore, payments: &mut MockPaymentGateway) {
    payments.expect_verify_payment().returning(|_, _, _| Ok(()));
    orders.expect_reservation().returning(|_| Ok(Some((reservation("me", 10_000), ReservationState::Released))));
}

async fn confirm(checkout: &CheckoutService) -> Result<marque_ports::PlacedOrder, CheckoutError> {
    checkout.confirm(&UserId("me".into()), &PaymentOrderId("order_1".into()), &PaymentId("pay_1".into()), "sig").await
}

/// Today's fault: an authorized payment was placed as paid, and nothing ever captured it.
#[tokio::test]
async fn an_authorized_payment_is_captured_for_the_orders_amount_before_it_is_placed() {
    let (mut orders, mut payments) = (MockOrderStore::new(), MockPaymentGateway::new());
    confirm_ready(&mut orders, &mut payments);
    orders.expect_refund_of().returning(|_| Ok(None));
    let mut seq = mockall::Sequence::new();
    payments.expect_payment().times(1).in_sequence(&mut seq).returning(|_| Ok(payment_in(PaymentState::Authorized)));
    payments
        .expect_capture()
        .times(1)
        .in_sequence(&mut seq)
        .withf(|id, amount| id.0 == "pay_1" && *amount == Money::from_paise(10_000))
        .returning(|_, _| Ok(payment_in(PaymentState::Captured)));
    orders
        .expect_place()
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_, p, _| Ok(marque_ports::Placement::Placed(placed_order(&p.0))));
    let checkout = service(MockAddressStore::new(), orders, payments);
    assert_eq!(confirm(&checkout).await.map(|o| o.payment), Ok(PaymentId("pay_1".into())));
}

#[tokio::test]
async fn a_payment_that_is_not_captured_places_nothing() {
    let (mut orders, mut payments) = (MockOrderStore::new(), MockPaymentGateway::new());
    confirm_ready(&mut orders, &mut payments);
    orders.expect_refund_of().returning(|_| Ok(None));
    payments.expect_payment().returning(|_| Ok(payment_in(PaymentState::Authorized)));
    payments
        .expect_capture()
        .returning(|_, _| Err(PaymentError::Refused { reason: "the authorization lapsed".into() }));
    orders.expect_place().never();
    let checkout = service(MockAddressStore::new(), orders, payments);
    assert_eq!(confirm(&checkout).await, Err(CheckoutError::NotPaid));
}

/// Today's fault: a payment after its hold lapsed, with the stock sold, was only logged.
#[tokio::test]
async fn a_late_payment_whose_stock_is_gone_is_refunded_once_by_a_key_of_its_payment_and_told() {
    let (mut orders, mut payments) = (MockOrderStore::new(), MockPaymentGateway::new());
    confirm_ready(&mut orders, &mut payments);
    orders.expect_refund_of().returning(|_| Ok(None));
    payments.expect_payment().returning(|_| Ok(payment_in(PaymentState::Captured)));
    orders
        .expect_place()
        .times(1)
        .returning(|_, _, _| Err(marque_ports::OrderStoreError::OutOfStock { product: ProductId("p1".into()) }));
    let saved = Arc::new(std::sync::Mutex::new(Vec::new()));
    let keep = saved.clone();
    orders.expect_save_refund().times(2).returning(move |r| {
        keep.lock().expect("lock").push(r.clone());
        Ok(())
    });
    payments
        .expect_refund()
        .times(1)
        .withf(|p, r| p.0 == "pay_1" && r.amount == Money::from_paise(10_000) && r.idempotency_key == "refund-pay_1")
        .returning(|p, r| {
            Ok(marque_ports::Refund {
                id: marque_ports::RefundId("rfnd_1".into()),
                payment_id: p.clone(),
                amount: r.amount,
                status: marque_ports::RefundStatus::Pending,
            })
        });
    let told = Arc::new(Told::default());
    let checkout = service(MockAddressStore::new(), orders, payments).notifying(told.clone());
    assert_eq!(confirm(&checkout).await, Err(CheckoutError::Refunded));
    let saved = saved.lock().expect("lock").clone();
    assert_eq!(
        saved.iter().map(|r| (r.state, r.refund_id.clone())).collect::<Vec<_>>(),
        vec![(marque_ports::RefundState::Requested, None), (marque_ports::RefundState::Pending, Some("rfnd_1".into())),]
    );
    assert_eq!((saved[1].user.0.as_str(), saved[1].reason.as_str()), ("me", "sold_out"));
    for _ in 0..100 {
        if !told.refunds.lock().expect("lock").is_empty() {
            break;
        }
        tokio::task::yield_now().await;
    }
    assert_eq!(told.refunds.lock().expect("lock").as_slice(), &saved[1..]);
}

#[tokio::test]
async fn a_refunded_payment_is_never_placed_even_when_the_stock_came_back() {
    let (mut orders, mut payments) = (MockOrderStore::new(), MockPaymentGateway::new());
    confirm_ready(&mut orders, &mut payments);
    orders.expect_refund_of().returning(|p| {
        Ok(Some(marque_ports::RefundRecord {
            payment: p.clone(),
            payment_order: PaymentOrderId("order_1".into()),
            user: UserId("me".into()),
            amount: Money::from_paise(10_000),
            reason: "sold_out".into(),
            refund_id: Some("rfnd_1".into()),
            state: marque_ports::RefundState::Pending,
            created_at: 0,
            updated_at: 0,
        }))
    });
    payments.expect_payment().never();
    payments.expect_refund().never();
    orders.expect_place().never();
    let checkout = service(MockAddressStore::new(), orders, payments);
    assert_eq!(confirm(&checkout).await, Err(CheckoutError::Refunded));
}

#[tokio::test]
async fn reconciliation_places_the_paid_checkouts_nobody_reported() {
    let (mut orders, mut payments) = (MockOrderStore::new(), MockPaymentGateway::new());
    orders.expect_unplaced_since().withf(|since| *since == Fixed.now() - 86_400).returning(|_| {
        Ok(vec![
            (held("order_1", 10), ReservationState::Released),
            (held("order_unpaid", 20), ReservationState::Held),
            (held("order_down", 30), ReservationState::Held),
        ])
    });
    payments.expect_order_payments().returning(|o| match o.0.as_str() {
        "order_1" => Ok(vec![
            Payment { state: PaymentState::Failed, id: PaymentId("pay_0".into()), ..payment_in(PaymentState::Failed) },
            payment_in(PaymentState::Authorized),
        ]),
        "order_unpaid" => Ok(vec![]),
        _ => Err(PaymentError::Unavailable { reason: "timeout".into() }),
    });
    orders.expect_refund_of().returning(|_| Ok(None));
    payments.expect_payment().withf(|p| p.0 == "pay_1").returning(|_| Ok(payment_in(PaymentState::Authorized)));
    payments.expect_capture().times(1).returning(|_, _| Ok(payment_in(PaymentState::Captured)));
    orders
        .expect_place()
        .times(1)
        .withf(|o, p, _| o.0 == "order_1" && p.0 == "pay_1")
        .returning(|_, p, _| Ok(marque_ports::Placement::Placed(placed_order(&p.0))));
    let checkout = service(MockAddressStore::new(), orders, payments);
    assert_eq!(checkout.reconcile().await, Ok(super::Reconciled { checked: 3, placed: 1, refunded: 0, failed: 1 }));
}

#[tokio::test]
async fn refund_events_are_recorded_on_the_shops_refund() {
    let mut payments = MockPaymentGateway::new();
    payments.expect_read_webhook().returning(|body, _, _| {
        let refund_id = marque_ports::RefundId(String::from_utf8_lossy(body).into_owned());
        let (order_id, payment_id, amount) =
            (PaymentOrderId("order_1".into()), PaymentId("pay_1".into()), Money::from_paise(10_000));
        Ok(PaymentEvent {
            id: format!("evt_{}", refund_id.0),
            kind: if refund_id.0 == "rfnd_bad" {
                PaymentEventKind::RefundFailed { order_id, payment_id, refund_id, amount }
            } else {
                PaymentEventKind::RefundProcessed { order_id, payment_id, refund_id, amount }
            },
        })
    });
    let mut orders = MockOrderStore::new();
    orders.expect_receive_event().returning(|_, _| Ok(false));
    orders.expect_event_handled().returning(|_, _| Ok(()));
    orders
        .expect_refund_status()
        .withf(|id, state, _| {
            (id, *state) == ("rfnd_1", marque_ports::RefundState::Processed)
                || (id, *state) == ("rfnd_bad", marque_ports::RefundState::Failed)
                || id == "rfnd_dashboard"
        })
        .returning(|id, _, _| Ok(id != "rfnd_dashboard"));
    let checkout = service(MockAddressStore::new(), orders, payments);
    assert_eq!(checkout.webhook(b"rfnd_1", "sig", None).await, Ok(super::EventOutcome::Recorded));
    assert_eq!(checkout.webhook(b"rfnd_bad", "sig", None).await, Ok(super::EventOutcome::Recorded));
    assert_eq!(checkout.webhook(b"rfnd_dashboard", "sig", None).await, Ok(super::EventOutcome::Ignored));
}

/// A Pay of one ₹1,000 part by a customer whose offer gives `percentage` % until `ends_on`
/// (the clock reads 12:00 IST on 1 June 2026): the amount the provider is asked for.
async fn amount_charged(percentage: u8, ends_on: Option<&str>) -> Money {
    let mut catalog = MockCatalogStore::new();
    catalog
        .expect_product()
        .returning(|id| Ok(Some(marque_contract_tests::fixtures::product(&id.0).quantity(5).build())));
    let mut addresses = MockAddressStore::new();
    addresses
        .expect_address()
        .returning(|id| Ok(Some((UserId("me".into()), SavedAddress { id: id.clone(), address: address() }))));
    let mut payments = MockPaymentGateway::new();
    payments.expect_create_order().returning(|o| {
        Ok(marque_ports::PaymentOrder {
            id: PaymentOrderId("order_1".into()),
            amount: o.amount,
            currency: o.currency.clone(),
        })
    });
    let mut orders = MockOrderStore::new();
    orders.expect_held_by().returning(|_| Ok(Vec::new()));
    orders.expect_reserve().returning(|_| Ok(()));
    let checkout = CheckoutService::new(
        Arc::new(catalog),
        Arc::new(addresses),
        Arc::new(orders),
        Arc::new(payments),
        Arc::new(Fixed),
    );
    let buyer = UserRecord {
        percentage,
        offer_ends_on: ends_on.map(|d| marque_domain::pricing::OfferEndsOn::parse(d).expect("a day")),
        ..customer("me")
    };
    let wanted = [super::WantedLine { product: ProductId("p1".into()), quantity: 1 }];
    let started = checkout.pay(&buyer, &wanted, Some(&AddressId("a1".into()))).await.expect("held");
    assert_eq!(started.order.amount, started.totals.total, "the provider is asked for the total");
    started.totals.total
}

#[tokio::test]
async fn the_server_prices_an_offer_from_its_end_date_and_the_clock() {
    assert_eq!(amount_charged(10, Some("2026-06-30")).await, Money::from_rupees(900), "running: ₹100 off");
    assert_eq!(amount_charged(10, Some("2026-06-01")).await, Money::from_rupees(900), "its last day, in India");
    assert_eq!(amount_charged(10, Some("2026-05-31")).await, Money::from_rupees(1_000), "ended at midnight IST");
    assert_eq!(amount_charged(10, None).await, Money::from_rupees(1_000), "no end date, no offer");
}

/// A checkout like [`shop`] that pays with the store credit `balance` (paise) first.
fn shop_with_credit(orders: MockOrderStore, payments: MockPaymentGateway, balance: i64) -> CheckoutService {
    let mut credit = marque_ports::MockStoreCreditStore::new();
    credit.expect_balance().returning(move |_, now| {
        Ok(marque_ports::CreditBalance {
            balance: Money::from_paise(balance),
            expires_at: (balance > 0).then_some(now + 86_400),
        })
    });
    shop(orders, payments, marque_domain::checkout::OrderLimits::DEFAULT).with_store_credit(Arc::new(credit))
}

fn provider_order(o: &marque_ports::NewPaymentOrder) -> Result<marque_ports::PaymentOrder, PaymentError> {
    Ok(marque_ports::PaymentOrder {
        id: PaymentOrderId("order_new".into()),
        amount: o.amount,
        currency: o.currency.clone(),
    })
}

#[tokio::test]
async fn credit_pays_part_and_the_provider_order_is_for_the_rest() {
    let mut payments = MockPaymentGateway::new();
    let mut orders = MockOrderStore::new();
    orders.expect_held_by().returning(|_| Ok(vec![]));
    orders
        .expect_reserve()
        .times(1)
        .withf(|r| {
            r.draft.store_credit == Money::from_paise(50_000)
                && r.draft.card_amount() + Money::from_paise(50_000) == r.draft.total
        })
        .returning(|_| Ok(()));
    orders.expect_place().never();
    payments.expect_create_order().times(1).withf(|o| o.amount.paise() > 0).returning(provider_order);
    let checkout = shop_with_credit(orders, payments, 50_000);
    let started =
        checkout.pay(&customer("me"), &[line("p1", 1)], Some(&AddressId("a1".into()))).await.expect("started");
    assert_eq!(started.store_credit, Money::from_paise(50_000));
    assert_eq!(started.card + started.store_credit, started.totals.total, "GST stays on the full price");
    assert_eq!(started.order.amount, started.card);
    assert_eq!(started.placed, None);
}

#[tokio::test]
async fn credit_that_pays_everything_places_the_order_without_a_card_payment() {
    let mut payments = MockPaymentGateway::new();
    payments.expect_create_order().never();
    let mut orders = MockOrderStore::new();
    orders.expect_held_by().returning(|_| Ok(vec![]));
    orders
        .expect_reserve()
        .times(1)
        .withf(|r| r.payment_order.0.starts_with("credit_") && r.draft.card_amount() == Money::ZERO)
        .returning(|_| Ok(()));
    orders
        .expect_place()
        .times(1)
        .withf(|o, p, _| o.0.starts_with("credit_") && p.0 == super::STORE_CREDIT_PAYMENT)
        .returning(|o, p, at| {
            let r = Reservation { payment_order: o.clone(), ..reservation("me", 10_000) };
            Ok(marque_ports::Placement::Placed(marque_ports::PlacedOrder {
                id: marque_ports::OrderId("o1".into()),
                order_number: "MQ-000001".into(),
                invoice_number: marque_domain::invoice::InvoiceNumber::new(
                    marque_domain::invoice::FinancialYear::at_unix_seconds(Fixed.now()),
                    1,
                )
                .expect("a number"),
                draft: r.draft,
                payment_order: o.clone(),
                payment: p.clone(),
                created_at: at,
                status: 1,
                status_text: "placed".into(),
                shipment: None,
            }))
        });
    let checkout = shop_with_credit(orders, payments, 100_000_000);
    let started = checkout.pay(&customer("me"), &[line("p1", 1)], Some(&AddressId("a1".into()))).await.expect("placed");
    assert_eq!(started.card, Money::ZERO);
    assert_eq!(started.store_credit, started.totals.total);
    assert_eq!(started.order.amount, Money::ZERO);
    assert_eq!(started.placed.map(|o| o.payment.0), Some(super::STORE_CREDIT_PAYMENT.to_owned()));
}

#[tokio::test]
async fn a_wholly_credit_order_that_cannot_be_placed_gives_the_hold_back_at_once() {
    let mut payments = MockPaymentGateway::new();
    payments.expect_create_order().never();
    let mut orders = MockOrderStore::new();
    orders.expect_held_by().returning(|_| Ok(vec![]));
    orders.expect_reserve().returning(|_| Ok(()));
    orders.expect_place().returning(|_, _, _| Err(marque_ports::OrderStoreError::SeriesExhausted));
    orders.expect_release().times(1).withf(|o| o.0.starts_with("credit_")).returning(|_| Ok(true));
    let checkout = shop_with_credit(orders, payments, 100_000_000);
    let outcome = checkout.pay(&customer("me"), &[line("p1", 1)], Some(&AddressId("a1".into()))).await;
    assert!(matches!(outcome, Err(CheckoutError::Unavailable(_))), "{outcome:?}");
}

#[tokio::test]
async fn credit_spent_by_another_checkout_meanwhile_is_a_conflict_and_nothing_is_held() {
    let mut payments = MockPaymentGateway::new();
    payments.expect_create_order().returning(provider_order);
    let mut orders = MockOrderStore::new();
    orders.expect_held_by().returning(|_| Ok(vec![]));
    orders.expect_reserve().returning(|_| Err(marque_ports::OrderStoreError::CreditShort));
    orders.expect_place().never();
    let checkout = shop_with_credit(orders, payments, 1_000);
    assert_eq!(
        checkout.pay(&customer("me"), &[line("p1", 1)], Some(&AddressId("a1".into()))).await,
        Err(CheckoutError::CreditChanged)
    );
}

#[tokio::test]
async fn an_earlier_unpaid_hold_of_credit_gives_it_back_before_the_new_checkout_is_priced() {
    let mut payments = MockPaymentGateway::new();
    payments.expect_create_order().returning(provider_order);
    let mut orders = MockOrderStore::new();
    let mut seq = mockall::Sequence::new();
    let mut with_credit = held("order_credit", 10);
    with_credit.draft.store_credit = Money::from_paise(500);
    orders
        .expect_held_by()
        .times(1)
        .in_sequence(&mut seq)
        .returning(move |_| Ok(vec![held("order_card", 5), with_credit.clone()]));
    orders.expect_release().times(1).in_sequence(&mut seq).withf(|o| o.0 == "order_credit").returning(|_| Ok(true));
    orders.expect_held_by().returning(|_| Ok(vec![]));
    orders.expect_reserve().returning(|_| Ok(()));
    let checkout = shop_with_credit(orders, payments, 500);
    let started =
        checkout.pay(&customer("me"), &[line("p1", 1)], Some(&AddressId("a1".into()))).await.expect("started");
    assert_eq!(started.store_credit, Money::from_paise(500));
}

#[tokio::test]
async fn a_card_payment_must_be_the_amount_the_credit_left() {
    let mut r = reservation("me", 10_000);
    r.draft.store_credit = Money::from_paise(4_000);
    let mut payments = MockPaymentGateway::new();
    payments.expect_verify_payment().returning(|_, _, _| Ok(()));
    payments.expect_payment().returning(|id| {
        Ok(Payment {
            id: id.clone(),
            order_id: PaymentOrderId("order_1".into()),
            amount: Money::from_paise(10_000),
            currency: "INR".into(),
            state: PaymentState::Captured,
        })
    });
    let mut orders = MockOrderStore::new();
    orders.expect_refund_of().returning(|_| Ok(None));
    let kept = r.clone();
    orders.expect_reservation().returning(move |_| Ok(Some((kept.clone(), ReservationState::Held))));
    orders.expect_place().never();
    let checkout = service(MockAddressStore::new(), orders, payments);
    assert_eq!(
        checkout
            .confirm(&UserId("me".into()), &PaymentOrderId("order_1".into()), &PaymentId("pay_1".into()), "sig")
            .await,
        Err(CheckoutError::NotPaid),
        "the whole total by card is not what this checkout asked for"
    );
}

#[tokio::test]
async fn a_late_payment_whose_credit_is_gone_refunds_the_card_part() {
    let mut r = reservation("me", 10_000);
    r.draft.store_credit = Money::from_paise(4_000);
    let mut payments = MockPaymentGateway::new();
    payments.expect_verify_payment().returning(|_, _, _| Ok(()));
    payments.expect_payment().returning(|id| {
        Ok(Payment {
            id: id.clone(),
            order_id: PaymentOrderId("order_1".into()),
            amount: Money::from_paise(6_000),
            currency: "INR".into(),
            state: PaymentState::Captured,
        })
    });
    payments.expect_refund().times(1).withf(|_, ask| ask.amount == Money::from_paise(6_000)).returning(|p, ask| {
        Ok(marque_ports::Refund {
            id: marque_ports::RefundId("rfnd_1".into()),
            payment_id: p.clone(),
            amount: ask.amount,
            status: marque_ports::RefundStatus::Pending,
        })
    });
    let mut orders = MockOrderStore::new();
    orders.expect_refund_of().returning(|_| Ok(None));
    let kept = r.clone();
    orders.expect_reservation().returning(move |_| Ok(Some((kept.clone(), ReservationState::Released))));
    orders.expect_place().returning(|_, _, _| Err(marque_ports::OrderStoreError::CreditShort));
    orders.expect_save_refund().returning(|_| Ok(()));
    let checkout = service(MockAddressStore::new(), orders, payments);
    assert_eq!(
        checkout
            .confirm(&UserId("me".into()), &PaymentOrderId("order_1".into()), &PaymentId("pay_1".into()), "sig")
            .await,
        Err(CheckoutError::Refunded)
    );
}
