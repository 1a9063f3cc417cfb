//! The `PaymentGateway` contract, one suite per promise in `marque_ports::payment`.
//!
//! Paying happens in the provider's checkout, outside the port, so each suite also takes a
//! [`ProviderDriver`]: it presses the test bank's buttons and knows the provider's secrets.
//! Signatures are computed here from those secrets, independently of the adapter, so an adapter
//! and a sandbox that agree on a wrong algorithm still fail.

use async_trait::async_trait;
use hmac::{Hmac, Mac};
use std::collections::BTreeMap;

use marque_domain::Money;
use marque_ports::{
    NewPaymentOrder, NewRefund, PaymentError, PaymentEventKind, PaymentGateway, PaymentId, PaymentOrder,
    PaymentOrderId, PaymentState, RefundId, RefundStatus,
};
use sha2::{Digest, Sha256};

/// What the shopper presses in the provider's test checkout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The bank approves; the order asked for automatic capture, so the payment is captured.
    Success,
    /// The bank approves, but capture does not follow (automatic capture off, a late
    /// authorization): the payment stays authorized.
    Authorized,
    Failure,
}

/// How the attempt ended, as the checkout reports it to the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// The handler's `razorpay_payment_id` and `razorpay_signature` (Success or Authorized).
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
        $callback!(an_orders_payments_are_listed_failed_ones_too);
        $callback!(an_authorized_payment_is_not_paid_until_captured);
        $callback!(refunds_are_partial_or_full_and_never_exceed_the_capture);
        $callback!(a_refund_is_made_once_per_idempotency_key);
        $callback!(what_cannot_be_refunded_is_refused);
        $callback!(concurrent_refunds_of_one_payment_never_exceed_the_capture);
    };
}

fn hmac_hex(key: &str, message: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key.as_bytes()).expect("HMAC takes any key");
    mac.update(message);
    hex::encode(mac.finalize().into_bytes())
}

/// The signature with its eleventh hex digit changed.
fn flipped(signature: &str) -> String {
    signature
        .char_indices()
        .map(|(i, c)| {
            if i != 10 {
                c
            } else if c == '0' {
                '1'
            } else {
                '0'
            }
        })
        .collect()
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

pub async fn orders_below_one_rupee_or_with_long_receipts_are_refused(
    gateway: &dyn PaymentGateway,
    _provider: &dyn ProviderDriver,
) {
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
    let under_webhook_secret =
        hmac_hex(&provider.webhook_secret(), format!("{}|{}", order.id.0, payment_id.0).as_bytes());
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

pub async fn webhooks_are_read_only_under_the_webhook_secret(
    gateway: &dyn PaymentGateway,
    provider: &dyn ProviderDriver,
) {
    let body = event_body("payment.captured", "order_Webhook000001", "pay_Webhook0000001", 20_000, "captured");
    let signature = hmac_hex(&provider.webhook_secret(), body.as_bytes());
    let event = gateway
        .read_webhook(body.as_bytes(), &signature, Some("evt_Header00000001".to_owned()))
        .expect("a genuine webhook");
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

pub async fn webhook_events_are_read_as_the_shop_acts_on_them(
    gateway: &dyn PaymentGateway,
    provider: &dyn ProviderDriver,
) {
    let read = |body: String| {
        let signature = hmac_hex(&provider.webhook_secret(), body.as_bytes());
        gateway.read_webhook(body.as_bytes(), &signature, Some("evt_1".to_owned())).expect("a genuine webhook").kind
    };
    let (order_id, payment_id) =
        (PaymentOrderId("order_Kind00000001".to_owned()), PaymentId("pay_Kind000000001".to_owned()));
    let amount = Money::from_paise(45_600);
    let paid = PaymentEventKind::Paid { order_id: order_id.clone(), payment_id: payment_id.clone(), amount };
    for event in ["payment.captured", "order.paid"] {
        assert_eq!(read(event_body(event, &order_id.0, &payment_id.0, 45_600, "captured")), paid, "{event}");
    }
    assert_eq!(
        read(event_body("payment.authorized", &order_id.0, &payment_id.0, 45_600, "authorized")),
        PaymentEventKind::Authorized { order_id: order_id.clone(), payment_id: payment_id.clone(), amount },
        "an authorization is not a payment: it still has to be captured"
    );
    assert_eq!(
        read(event_body("payment.failed", &order_id.0, &payment_id.0, 45_600, "failed")),
        PaymentEventKind::Failed { order_id: order_id.clone(), payment_id: payment_id.clone() }
    );
    let refund_id = RefundId("rfnd_Kind00000001".to_owned());
    let refunded = |status: &str| {
        refund_event_body(&format!("refund.{status}"), &order_id.0, &payment_id.0, &refund_id.0, 10_000, status)
    };
    let (ids, part) = ((order_id.clone(), payment_id.clone(), refund_id.clone()), Money::from_paise(10_000));
    assert_eq!(
        read(refunded("processed")),
        PaymentEventKind::RefundProcessed {
            order_id: ids.0.clone(),
            payment_id: ids.1.clone(),
            refund_id: ids.2.clone(),
            amount: part
        }
    );
    assert_eq!(
        read(refunded("failed")),
        PaymentEventKind::RefundFailed { order_id: ids.0, payment_id: ids.1, refund_id: ids.2, amount: part }
    );
    let created = refund_event_body("refund.created", &order_id.0, &payment_id.0, &refund_id.0, 10_000, "pending");
    assert_eq!(read(created), PaymentEventKind::Other { name: "refund.created".to_owned() });
}

/// A Razorpay `refund.*` event body: the refund and its payment (partly refunded by it).
fn refund_event_body(
    event: &str,
    order_id: &str,
    payment_id: &str,
    refund_id: &str,
    paise: i64,
    status: &str,
) -> String {
    let refund = serde_json::json!({
        "id": refund_id, "entity": "refund", "amount": paise, "currency": "INR", "payment_id": payment_id,
        "notes": {}, "receipt": null, "acquirer_data": { "arn": null }, "created_at": 1_767_000_100, "batch_id": null,
        "status": status, "speed_processed": "normal", "speed_requested": "normal",
    });
    let payment = serde_json::json!({
        "id": payment_id, "entity": "payment", "amount": 45_600, "currency": "INR", "status": "captured",
        "order_id": order_id, "method": "card", "captured": true, "amount_refunded": paise, "refund_status": "partial",
        "created_at": 1_767_000_000,
    });
    serde_json::json!({
        "entity": "event", "account_id": "acc_Test0000000000", "event": event, "contains": ["refund", "payment"],
        "payload": { "refund": { "entity": refund }, "payment": { "entity": payment } }, "created_at": 1_767_000_101,
    })
    .to_string()
}

/// Pays `order` in the provider's checkout and expects the handler's answer: the payment id.
async fn paid(provider: &dyn ProviderDriver, order: &PaymentOrderId, outcome: Outcome) -> PaymentId {
    match provider.pay(order, outcome).await {
        Attempt::Paid { payment_id, .. } => payment_id,
        Attempt::Failed { .. } => panic!("{outcome:?} must reach the handler"),
    }
}

/// A captured payment of `paise`.
async fn a_captured_payment(gateway: &dyn PaymentGateway, provider: &dyn ProviderDriver, paise: i64) -> PaymentId {
    let order = an_order(gateway, paise).await;
    let payment = paid(provider, &order.id, Outcome::Success).await;
    assert_eq!(
        gateway.payment(&payment).await.expect("the payment").state,
        PaymentState::Captured,
        "captured automatically"
    );
    payment
}

fn a_refund(paise: i64, key: &str) -> NewRefund {
    let notes = BTreeMap::from([("reason".to_owned(), "out of stock".to_owned())]);
    NewRefund { amount: Money::from_paise(paise), idempotency_key: key.to_owned(), notes }
}

/// A key no other test run uses (the provider keeps keys for good).
fn fresh_key(what: &str) -> String {
    let mut random = [0u8; 8];
    getrandom::fill(&mut random).expect("the system's random source");
    format!("test-{what}-{}", hex::encode(random))
}

pub async fn an_orders_payments_are_listed_failed_ones_too(
    gateway: &dyn PaymentGateway,
    provider: &dyn ProviderDriver,
) {
    let order = an_order(gateway, 31_000).await;
    assert_eq!(gateway.order_payments(&order.id).await, Ok(Vec::new()), "nobody tried to pay yet");
    let Attempt::Failed { payment_id: failed } = provider.pay(&order.id, Outcome::Failure).await else {
        panic!("Failure must fail")
    };
    let captured = paid(provider, &order.id, Outcome::Success).await;
    let mut payments = gateway.order_payments(&order.id).await.expect("the order's payments");
    payments.sort_by_key(|p| p.state == PaymentState::Captured);
    let seen: Vec<_> = payments.iter().map(|p| (p.id.clone(), p.order_id.clone(), p.amount, p.state)).collect();
    let amount = Money::from_paise(31_000);
    assert_eq!(
        seen,
        [
            (failed, order.id.clone(), amount, PaymentState::Failed),
            (captured, order.id.clone(), amount, PaymentState::Captured)
        ]
    );
    let other = an_order(gateway, 31_000).await;
    assert_eq!(gateway.order_payments(&other.id).await, Ok(Vec::new()), "another order's payments are not listed");
    for id in ["order_DoesNotExist00", "order_", "pay_Abc", "../v1/orders"] {
        assert!(refused(&gateway.order_payments(&PaymentOrderId(id.to_owned())).await), "{id}");
    }
}

pub async fn an_authorized_payment_is_not_paid_until_captured(
    gateway: &dyn PaymentGateway,
    provider: &dyn ProviderDriver,
) {
    let order = an_order(gateway, 76_500).await;
    let payment = paid(provider, &order.id, Outcome::Authorized).await;
    let authorized = gateway.payment(&payment).await.expect("the payment");
    assert_eq!((authorized.state, authorized.amount), (PaymentState::Authorized, Money::from_paise(76_500)));
    assert!(!authorized.state.is_paid(), "an authorization is not money the shop has");

    for wrong in [76_499, 76_501, 100] {
        assert!(refused(&gateway.capture(&payment, Money::from_paise(wrong)).await), "a capture of {wrong} paise");
    }
    assert_eq!(
        gateway.payment(&payment).await.expect("the payment").state,
        PaymentState::Authorized,
        "a refused capture changes nothing"
    );

    let captured = gateway.capture(&payment, Money::from_paise(76_500)).await.expect("the capture");
    assert_eq!(
        (captured.id.clone(), captured.order_id.clone(), captured.state),
        (payment.clone(), order.id.clone(), PaymentState::Captured)
    );
    assert!(captured.state.is_paid());
    assert_eq!(gateway.payment(&payment).await.expect("the payment").state, PaymentState::Captured);
    assert_eq!(
        gateway.capture(&payment, Money::from_paise(76_500)).await,
        Ok(captured),
        "a second capture answers the first"
    );
    assert!(
        refused(&gateway.capture(&payment, Money::from_paise(76_000)).await),
        "captured already, for another amount"
    );

    let automatic = a_captured_payment(gateway, provider, 12_300).await;
    assert_eq!(
        gateway.capture(&automatic, Money::from_paise(12_300)).await.map(|p| p.state),
        Ok(PaymentState::Captured)
    );
    let order = an_order(gateway, 12_300).await;
    let Attempt::Failed { payment_id: failed } = provider.pay(&order.id, Outcome::Failure).await else {
        panic!("Failure must fail")
    };
    assert!(refused(&gateway.capture(&failed, Money::from_paise(12_300)).await), "a failed payment");
    for id in ["pay_DoesNotExist00", "pay_", "order_Abc", "pay_a/b"] {
        assert!(refused(&gateway.capture(&PaymentId(id.to_owned()), Money::from_paise(12_300)).await), "{id}");
    }
}

pub async fn refunds_are_partial_or_full_and_never_exceed_the_capture(
    gateway: &dyn PaymentGateway,
    provider: &dyn ProviderDriver,
) {
    let payment = a_captured_payment(gateway, provider, 50_000).await;
    assert_eq!(gateway.refunds(&payment).await, Ok(Vec::new()), "no refund yet");

    let part = gateway.refund(&payment, &a_refund(20_000, &fresh_key("part"))).await.expect("a partial refund");
    assert!(part.id.0.starts_with("rfnd_"), "{:?}", part.id);
    assert_eq!((part.payment_id.clone(), part.amount), (payment.clone(), Money::from_paise(20_000)));
    assert!(matches!(part.status, RefundStatus::Pending | RefundStatus::Processed), "{:?}", part.status);
    assert_eq!(
        gateway.payment(&payment).await.expect("the payment").state,
        PaymentState::Captured,
        "partly refunded, still captured"
    );

    for too_much in [30_001, 50_000] {
        assert!(
            refused(&gateway.refund(&payment, &a_refund(too_much, &fresh_key("over"))).await),
            "{too_much} of the 30,000 left"
        );
    }
    let rest = gateway.refund(&payment, &a_refund(30_000, &fresh_key("rest"))).await.expect("the rest");
    assert_ne!(rest.id, part.id);
    assert_eq!(gateway.payment(&payment).await.expect("the payment").state, PaymentState::Refunded, "refunded in full");
    assert!(refused(&gateway.refund(&payment, &a_refund(100, &fresh_key("more"))).await), "nothing is left to refund");

    let fetched = gateway.fetch_refund(&part.id).await.expect("the refund");
    assert_eq!(
        (fetched.id, fetched.payment_id, fetched.amount),
        (part.id.clone(), payment.clone(), Money::from_paise(20_000))
    );
    let mut listed = gateway.refunds(&payment).await.expect("the payment's refunds");
    listed.sort_by_key(|r| r.amount);
    let listed: Vec<_> = listed.into_iter().map(|r| (r.id, r.payment_id, r.amount)).collect();
    assert_eq!(
        listed,
        [(part.id, payment.clone(), Money::from_paise(20_000)), (rest.id, payment, Money::from_paise(30_000))],
        "two refunds, 50,000 paise in all"
    );

    let whole = a_captured_payment(gateway, provider, 8_800).await;
    let full = gateway.refund(&whole, &a_refund(8_800, &fresh_key("full"))).await.expect("a full refund");
    assert_eq!(full.amount, Money::from_paise(8_800));
    assert_eq!(gateway.payment(&whole).await.expect("the payment").state, PaymentState::Refunded);
}

pub async fn a_refund_is_made_once_per_idempotency_key(gateway: &dyn PaymentGateway, provider: &dyn ProviderDriver) {
    let payment = a_captured_payment(gateway, provider, 40_000).await;
    let key = fresh_key("once");
    let first = gateway.refund(&payment, &a_refund(15_000, &key)).await.expect("the refund");
    let retried = gateway.refund(&payment, &a_refund(15_000, &key)).await.expect("the retry");
    assert_eq!(
        (retried.id.clone(), retried.amount),
        (first.id.clone(), first.amount),
        "a retry answers the same refund"
    );
    assert_eq!(gateway.refunds(&payment).await.map(|r| r.len()), Ok(1), "one refund for one key");

    assert!(refused(&gateway.refund(&payment, &a_refund(10_000, &key)).await), "the same key for another amount");
    let other = a_captured_payment(gateway, provider, 40_000).await;
    assert!(refused(&gateway.refund(&other, &a_refund(15_000, &key)).await), "the same key for another payment");
    assert_eq!(gateway.refunds(&other).await, Ok(Vec::new()));
    let second =
        gateway.refund(&payment, &a_refund(15_000, &fresh_key("twice"))).await.expect("another key, another refund");
    assert_ne!(second.id, first.id);
    assert_eq!(gateway.refunds(&payment).await.map(|r| r.len()), Ok(2));
}

pub async fn what_cannot_be_refunded_is_refused(gateway: &dyn PaymentGateway, provider: &dyn ProviderDriver) {
    let payment = a_captured_payment(gateway, provider, 20_000).await;
    for amount in [99, 0, -100] {
        assert!(refused(&gateway.refund(&payment, &a_refund(amount, &fresh_key("small"))).await), "{amount} paise");
    }
    for key in ["", "short", "has spaces in it", "slash/in/the/key", &"k".repeat(65)] {
        assert!(refused(&gateway.refund(&payment, &a_refund(1_000, key)).await), "the key {key:?}");
    }
    assert_eq!(gateway.refunds(&payment).await, Ok(Vec::new()), "nothing refused was made");

    let order = an_order(gateway, 20_000).await;
    let authorized = paid(provider, &order.id, Outcome::Authorized).await;
    assert!(
        refused(&gateway.refund(&authorized, &a_refund(20_000, &fresh_key("auth"))).await),
        "an authorized payment is not captured"
    );
    for id in ["pay_DoesNotExist00", "pay_", "order_Abc"] {
        assert!(
            refused(&gateway.refund(&PaymentId(id.to_owned()), &a_refund(1_000, &fresh_key("none"))).await),
            "{id}"
        );
        assert!(refused(&gateway.refunds(&PaymentId(id.to_owned())).await), "{id}");
    }
    for id in ["rfnd_DoesNotExist0", "rfnd_", "pay_Abc", "../v1/orders"] {
        assert!(refused(&gateway.fetch_refund(&RefundId(id.to_owned())).await), "{id}");
    }
}

/// Two staff members refunding one order at once reach the provider as refunds of one payment under
/// different keys (the shop's store refuses the excess first; the provider must never pay it either),
/// and a request retried while its first try is still on the way under the same key.
pub async fn concurrent_refunds_of_one_payment_never_exceed_the_capture(
    gateway: &dyn PaymentGateway,
    provider: &dyn ProviderDriver,
) {
    let payment = a_captured_payment(gateway, provider, 30_000).await;
    let asks: Vec<NewRefund> = (0..6).map(|n| a_refund(10_000, &fresh_key(&format!("race{n}")))).collect();
    let outcomes = futures::future::join_all(asks.iter().map(|ask| gateway.refund(&payment, ask))).await;
    let made = outcomes.iter().filter(|o| o.is_ok()).count();
    assert_eq!(made, 3, "30,000 paise refunded in 10,000s: {outcomes:?}");
    assert!(outcomes.iter().filter(|o| o.is_err()).all(refused), "the rest refused: {outcomes:?}");
    let total: i64 = gateway.refunds(&payment).await.expect("refunds").iter().map(|r| r.amount.paise()).sum();
    assert_eq!(total, 30_000);

    // The shop's own key of an order's refund attempt (`mq-rf-{refund}-a{attempt}`), sent twice at once.
    let other = a_captured_payment(gateway, provider, 20_000).await;
    let key = format!("mq-rf-{}-1-a1", fresh_key("order"));
    let ask = a_refund(5_000, &key);
    let twice = futures::future::join_all([gateway.refund(&other, &ask), gateway.refund(&other, &ask)]).await;
    let ids: Vec<_> = twice.iter().filter_map(|o| o.as_ref().ok().map(|r| r.id.clone())).collect();
    assert!(!ids.is_empty() && ids.iter().all(|id| *id == ids[0]), "one refund for one key: {twice:?}");
    assert_eq!(gateway.refunds(&other).await.map(|r| r.len()), Ok(1));
}
