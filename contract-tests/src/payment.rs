//! The `PaymentGateway` contract, one suite per promise in `marque_ports::payment`.
//!
//! Paying happens in the provider's checkout, outside the port, so each suite also takes a
//! [`ProviderDriver`]: it presses the test bank's buttons and knows the provider's secrets.
//! Signatures are computed here from those secrets, independently of the adapter, so an adapter
//! and a sandbox that agree on a wrong algorithm still fail.

use async_trait::async_trait;
use hmac::{Hmac, Mac};
use marque_domain::Money;
use marque_ports::{
    NewPaymentOrder, PaymentError, PaymentEventKind, PaymentGateway, PaymentId, PaymentOrder, PaymentOrderId, PaymentState,
};
use sha2::{Digest, Sha256};

/// What the shopper presses in the provider's test checkout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Success,
    Failure,
}

/// How the attempt ended, as the checkout reports it to the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// The handler's `razorpay_payment_id` and `razorpay_signature`.
    Paid { payment_id: PaymentId, signature: String },
    /// `payment.failed`'s `metadata.payment_id`.
    Failed { payment_id: PaymentId },
}

/// The provider's side of a test: its checkout and its secrets.
#[async_trait]
pub trait ProviderDriver: Send + Sync {
    /// Opens the provider's checkout for `order` and presses Success or Failure.
    async fn pay(&self, order: &PaymentOrderId, outcome: Outcome) -> Attempt;
    /// The key secret the provider signs handler answers with.
    fn key_secret(&self) -> String;
    /// The webhook secret the provider signs webhooks with.
    fn webhook_secret(&self) -> String;
}

/// Calls `$callback!(suite_name)` once for every payment suite.
#[macro_export]
macro_rules! for_each_payment_suite {
    ($callback:ident) => {
        $callback!(orders_are_created_for_the_amount_asked);
        $callback!(orders_below_one_rupee_or_with_long_receipts_are_refused);
        $callback!(an_unknown_payment_is_refused);
        $callback!(payments_read_back_as_the_checkout_left_them);
        $callback!(a_genuine_handler_signature_is_accepted_and_a_tampered_one_refused);
        $callback!(webhooks_are_read_only_under_the_webhook_secret);
        $callback!(webhook_events_are_read_as_the_shop_acts_on_them);
    };
}

fn hmac_hex(key: &str, message: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key.as_bytes()).expect("HMAC takes any key");
    mac.update(message);
    hex::encode(mac.finalize().into_bytes())
}

/// The signature with its eleventh hex digit changed.
fn flipped(signature: &str) -> String {
    signature.char_indices().map(|(i, c)| if i != 10 { c } else if c == '0' { '1' } else { '0' }).collect()
}

fn new_order(paise: i64, receipt: &str) -> NewPaymentOrder {
    NewPaymentOrder { amount: Money::from_paise(paise), currency: "INR".to_owned(), receipt: receipt.to_owned() }
}

async fn an_order(gateway: &dyn PaymentGateway, paise: i64) -> PaymentOrder {
    gateway.create_order(&new_order(paise, "MRQ-TEST-1")).await.expect("an order")
}

fn refused<T: std::fmt::Debug>(result: &Result<T, PaymentError>) -> bool {
    matches!(result, Err(PaymentError::Refused { reason }) if !reason.is_empty())
}

pub async fn orders_are_created_for_the_amount_asked(gateway: &dyn PaymentGateway, _provider: &dyn ProviderDriver) {
    let order = gateway.create_order(&new_order(1_249_950, "MRQ-2026-000001")).await.expect("an order");
    assert!(order.id.0.starts_with("order_") && order.id.0.len() > "order_".len(), "{:?}", order.id);
    assert_eq!((order.amount, order.currency.as_str()), (Money::from_paise(1_249_950), "INR"));
    let smallest = gateway.create_order(&new_order(100, &"r".repeat(40))).await.expect("₹1 and a 40-character receipt");
    assert_eq!(smallest.amount, Money::from_paise(100));
    assert_ne!(order.id, smallest.id, "every order has its own id");
    assert!(!gateway.checkout().key_id.is_empty() && !gateway.checkout().script_url.is_empty());
}

pub async fn orders_below_one_rupee_or_with_long_receipts_are_refused(gateway: &dyn PaymentGateway, _provider: &dyn ProviderDriver) {
    for paise in [99, 1, 0, -500] {
        assert!(refused(&gateway.create_order(&new_order(paise, "r")).await), "{paise} paise");
    }
    assert!(refused(&gateway.create_order(&new_order(10_000, &"r".repeat(41))).await), "a 41-character receipt");
}

pub async fn an_unknown_payment_is_refused(gateway: &dyn PaymentGateway, _provider: &dyn ProviderDriver) {
    for id in ["pay_DoesNotExist00", "pay_", "order_Abc", "../v1/orders", "pay_a/b"] {
        assert!(refused(&gateway.payment(&PaymentId(id.to_owned())).await), "{id}");
    }
}

pub async fn payments_read_back_as_the_checkout_left_them(gateway: &dyn PaymentGateway, provider: &dyn ProviderDriver) {
    let order = an_order(gateway, 54_321).await;
    let Attempt::Failed { payment_id: failed } = provider.pay(&order.id, Outcome::Failure).await else {
        panic!("Failure must fail")
    };
    let payment = gateway.payment(&failed).await.expect("the failed payment");
    assert_eq!((payment.state, payment.order_id.clone()), (PaymentState::Failed, order.id.clone()));
    assert!(!payment.state.is_paid());

    let Attempt::Paid { payment_id, .. } = provider.pay(&order.id, Outcome::Success).await else {
        panic!("Success after a failure must pay")
    };
    assert!(payment_id.0.starts_with("pay_") && payment_id != failed, "{payment_id:?}");
    let payment = gateway.payment(&payment_id).await.expect("the payment");
    assert_eq!(payment.id, payment_id);
    assert_eq!(payment.order_id, order.id);
    assert_eq!((payment.amount, payment.currency.as_str()), (Money::from_paise(54_321), "INR"));
    assert_eq!(payment.state, PaymentState::Captured);
    assert!(payment.state.is_paid());
}

pub async fn a_genuine_handler_signature_is_accepted_and_a_tampered_one_refused(
    gateway: &dyn PaymentGateway,
    provider: &dyn ProviderDriver,
) {
    let order = an_order(gateway, 9_900).await;
    let Attempt::Paid { payment_id, signature } = provider.pay(&order.id, Outcome::Success).await else {
        panic!("Success must pay")
    };
    let expected = hmac_hex(&provider.key_secret(), format!("{}|{}", order.id.0, payment_id.0).as_bytes());
    assert_eq!(signature, expected, "the provider signs order_id|payment_id with the key secret");
    assert_eq!(gateway.verify_payment(&order.id, &payment_id, &signature), Ok(()));

    let other_order = an_order(gateway, 9_900).await;
    let bad = |order: &PaymentOrderId, payment: &PaymentId, signature: &str, what: &str| {
        assert_eq!(gateway.verify_payment(order, payment, signature), Err(PaymentError::BadSignature), "{what}");
    };
    bad(&order.id, &PaymentId("pay_SomeoneElses00".to_owned()), &signature, "another payment id");
    bad(&other_order.id, &payment_id, &signature, "another order id");
    bad(&order.id, &payment_id, &flipped(&signature), "one hex digit changed");
    bad(&order.id, &payment_id, "", "empty");
    bad(&order.id, &payment_id, &signature[..32], "truncated");
    bad(&order.id, &payment_id, "not hex at all", "not hex");
    let under_webhook_secret = hmac_hex(&provider.webhook_secret(), format!("{}|{}", order.id.0, payment_id.0).as_bytes());
    bad(&order.id, &payment_id, &under_webhook_secret, "signed with the wrong secret");
}

/// A Razorpay event body, as the provider sends it.
fn event_body(event: &str, order_id: &str, payment_id: &str, paise: i64, status: &str) -> String {
    let payment = serde_json::json!({
        "id": payment_id, "entity": "payment", "amount": paise, "currency": "INR", "status": status,
        "order_id": order_id, "method": "card", "captured": status == "captured", "created_at": 1_767_000_000,
    });
    let mut payload = serde_json::json!({ "payment": { "entity": payment } });
    let mut contains = vec!["payment"];
    if event == "order.paid" {
        payload["order"] = serde_json::json!({ "entity": {
            "id": order_id, "entity": "order", "amount": paise, "amount_paid": paise, "amount_due": 0,
            "currency": "INR", "receipt": "MRQ-TEST-1", "status": "paid", "attempts": 1, "notes": [], "created_at": 1_767_000_000,
        }});
        contains.push("order");
    }
    serde_json::json!({
        "entity": "event", "account_id": "acc_Test0000000000", "event": event, "contains": contains,
        "payload": payload, "created_at": 1_767_000_001,
    })
    .to_string()
}

pub async fn webhooks_are_read_only_under_the_webhook_secret(gateway: &dyn PaymentGateway, provider: &dyn ProviderDriver) {
    let body = event_body("payment.captured", "order_Webhook000001", "pay_Webhook0000001", 20_000, "captured");
    let signature = hmac_hex(&provider.webhook_secret(), body.as_bytes());
    let event = gateway.read_webhook(body.as_bytes(), &signature, Some("evt_Header00000001".to_owned())).expect("a genuine webhook");
    assert_eq!(event.id, "evt_Header00000001", "the header's event id");

    let without_id = gateway.read_webhook(body.as_bytes(), &signature, None).expect("a genuine webhook without an id");
    assert_eq!(without_id.id, hex::encode(Sha256::digest(body.as_bytes())), "the body's SHA-256 stands in for the id");

    let refused = |body: &[u8], signature: &str, what: &str| {
        assert_eq!(gateway.read_webhook(body, signature, None), Err(PaymentError::BadSignature), "{what}");
    };
    let altered = body.replace("20000", "20001");
    refused(altered.as_bytes(), &signature, "the body changed after signing");
    refused(body.as_bytes(), &hmac_hex(&provider.key_secret(), body.as_bytes()), "signed with the key secret");
    refused(body.as_bytes(), "", "no signature");
    refused(body.as_bytes(), &flipped(&signature), "one hex digit changed");
    for not_an_event in ["", "{}", "not json", r#"{"event":"payment.captured","payload":{}}"#] {
        let signature = hmac_hex(&provider.webhook_secret(), not_an_event.as_bytes());
        refused(not_an_event.as_bytes(), &signature, &format!("signed, but not an event: {not_an_event:?}"));
    }
}

pub async fn webhook_events_are_read_as_the_shop_acts_on_them(gateway: &dyn PaymentGateway, provider: &dyn ProviderDriver) {
    let read = |body: String| {
        let signature = hmac_hex(&provider.webhook_secret(), body.as_bytes());
        gateway.read_webhook(body.as_bytes(), &signature, Some("evt_1".to_owned())).expect("a genuine webhook").kind
    };
    let (order_id, payment_id) = (PaymentOrderId("order_Kind00000001".to_owned()), PaymentId("pay_Kind000000001".to_owned()));
    let paid = PaymentEventKind::Paid { order_id: order_id.clone(), payment_id: payment_id.clone(), amount: Money::from_paise(45_600) };
    for event in ["payment.captured", "payment.authorized", "order.paid"] {
        let status = if event == "payment.authorized" { "authorized" } else { "captured" };
        assert_eq!(read(event_body(event, &order_id.0, &payment_id.0, 45_600, status)), paid, "{event}");
    }
    assert_eq!(
        read(event_body("payment.failed", &order_id.0, &payment_id.0, 45_600, "failed")),
        PaymentEventKind::Failed { order_id, payment_id }
    );
    let refund = r#"{"entity":"event","event":"refund.created","contains":["refund"],"payload":{"refund":{"entity":{"id":"rfnd_1"}}}}"#;
    assert_eq!(read(refund.to_owned()), PaymentEventKind::Other { name: "refund.created".to_owned() });
}
