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
        email_verified: true,
        mobile_verified: true,
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

#[tokio::test]
async fn a_webhook_that_cannot_be_handled_is_forgotten_so_its_retry_is_handled() {
    let mut payments = MockPaymentGateway::new();
    payments.expect_read_webhook().returning(|_, _, _| {
        Ok(PaymentEvent {
            id: "evt_1".into(),
            kind: PaymentEventKind::Failed { order_id: PaymentOrderId("order_1".into()), payment_id: PaymentId("pay_1".into()) },
        })
    });
    let mut orders = MockOrderStore::new();
    orders.expect_first_sight().times(1).returning(|_, _| Ok(true));
    orders
        .expect_reservation()
        .returning(|_| Err(marque_ports::OrderStoreError::Unavailable { reason: "down".into() }));
    orders.expect_forget_event().times(1).withf(|id| id == "evt_1").returning(|_| Ok(()));
    let checkout = service(MockAddressStore::new(), orders, payments);
    let outcome = checkout.webhook(b"{}", "sig", None).await;
    assert!(matches!(outcome, Err(CheckoutError::Unavailable(_))), "{outcome:?}");
}

#[tokio::test]
async fn a_bad_webhook_signature_touches_nothing() {
    let mut payments = MockPaymentGateway::new();
    payments.expect_read_webhook().returning(|_, _, _| Err(PaymentError::BadSignature));
    let mut orders = MockOrderStore::new();
    orders.expect_first_sight().never();
    let checkout = service(MockAddressStore::new(), orders, payments);
    assert_eq!(checkout.webhook(b"{}", "bad", None).await, Err(CheckoutError::BadSignature));
}
