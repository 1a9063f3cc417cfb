//! `RazorpayGateway` against a wiremock fake of Razorpay's API (port 0): the exact requests, and
//! how each kind of failure reaches the port. The whole contract runs against the sandbox, in
//! `marque-razorpay-sandbox`'s tests.

use std::time::Duration;

use marque_domain::Money;
use std::collections::BTreeMap;

use marque_ports::{
    NewPaymentOrder, NewRefund, PaymentError, PaymentGateway, PaymentId, PaymentOrderId, PaymentState, RefundId,
    RefundStatus,
};
use marque_razorpay::{RazorpayConfig, RazorpayGateway};
use secrecy::SecretString;
use serde_json::json;
use wiremock::matchers::{body_json, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// `Basic base64("rzp_test_Fake00000001:fake-key-secret")`.
const BASIC: &str = "Basic cnpwX3Rlc3RfRmFrZTAwMDAwMDAxOmZha2Uta2V5LXNlY3JldA==";

fn gateway(base_url: &str) -> RazorpayGateway {
    let mut config = RazorpayConfig::new(
        "rzp_test_Fake00000001",
        SecretString::from("fake-key-secret"),
        SecretString::from("fake-hook-secret"),
    );
    config.base_url = base_url.to_owned();
    config.timeout = Duration::from_millis(500);
    RazorpayGateway::new(config).expect("a valid configuration")
}

fn new_order() -> NewPaymentOrder {
    NewPaymentOrder { amount: Money::from_paise(250_000), currency: "INR".to_owned(), receipt: "MRQ-42".to_owned() }
}

#[tokio::test]
async fn an_order_is_one_authenticated_post_in_paise_with_capture_on() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/orders"))
        .and(header("authorization", BASIC))
        .and(body_json(json!({ "amount": 250_000, "currency": "INR", "receipt": "MRQ-42", "payment_capture": true })))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "order_IluGWxBm9U8zJ8", "entity": "order", "amount": 250_000, "amount_paid": 0, "amount_due": 250_000,
            "currency": "INR", "receipt": "MRQ-42", "offer_id": null, "status": "created", "attempts": 0, "notes": [],
            "created_at": 1_642_662_092,
        })))
        .expect(1)
        .mount(&server)
        .await;
    let order = gateway(&server.uri()).create_order(&new_order()).await.expect("created");
    assert_eq!(order.id, PaymentOrderId("order_IluGWxBm9U8zJ8".to_owned()));
    assert_eq!((order.amount, order.currency.as_str()), (Money::from_paise(250_000), "INR"));
}

#[tokio::test]
async fn a_payment_is_read_with_its_status() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/payments/pay_29QQoUBi66xm2f"))
        .and(header("authorization", BASIC))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "pay_29QQoUBi66xm2f", "entity": "payment", "amount": 250_000, "currency": "INR", "status": "authorized",
            "order_id": "order_IluGWxBm9U8zJ8", "method": "upi", "captured": false, "vpa": "a@upi", "fee": null,
        })))
        .mount(&server)
        .await;
    let payment = gateway(&server.uri()).payment(&PaymentId("pay_29QQoUBi66xm2f".to_owned())).await.expect("read");
    assert_eq!(payment.state, PaymentState::Authorized);
    assert_eq!(payment.order_id.0, "order_IluGWxBm9U8zJ8");
}

#[tokio::test]
async fn a_4xx_is_refused_with_razorpays_description_and_a_5xx_is_unavailable() {
    let server = MockServer::start().await;
    Mock::given(path("/v1/orders"))
        .respond_with(
            ResponseTemplate::new(401).set_body_json(
                json!({ "error": { "code": "BAD_REQUEST_ERROR", "description": "Authentication failed" } }),
            ),
        )
        .mount(&server)
        .await;
    Mock::given(path("/v1/payments/pay_Down0000000000"))
        .respond_with(ResponseTemplate::new(502).set_body_string("<html>bad gateway</html>"))
        .mount(&server)
        .await;
    Mock::given(path("/v1/payments/pay_Odd00000000000")).respond_with(ResponseTemplate::new(200).set_body_json(json!({ "id": "pay_Odd00000000000", "amount": 1, "currency": "INR", "status": "pending", "order_id": "order_x" }))).mount(&server).await;
    let gateway = gateway(&server.uri());

    assert_eq!(
        gateway.create_order(&new_order()).await,
        Err(PaymentError::Refused { reason: "Authentication failed".to_owned() })
    );
    let down = gateway.payment(&PaymentId("pay_Down0000000000".to_owned())).await;
    assert!(matches!(&down, Err(PaymentError::Unavailable { reason }) if reason.contains("502")), "{down:?}");
    let odd = gateway.payment(&PaymentId("pay_Odd00000000000".to_owned())).await;
    assert!(matches!(&odd, Err(PaymentError::Unavailable { reason }) if reason.contains("pending")), "{odd:?}");
}

#[tokio::test]
async fn a_slow_or_absent_razorpay_is_unavailable() {
    let server = MockServer::start().await;
    Mock::given(path("/v1/orders"))
        .respond_with(ResponseTemplate::new(200).set_delay(Duration::from_secs(3)))
        .mount(&server)
        .await;
    let slow = gateway(&server.uri()).create_order(&new_order()).await;
    assert!(matches!(&slow, Err(PaymentError::Unavailable { reason }) if reason.contains("timed out")), "{slow:?}");

    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr");
    let absent = gateway(&format!("http://{closed}")).create_order(&new_order()).await;
    assert!(matches!(absent, Err(PaymentError::Unavailable { .. })), "{absent:?}");
}

fn payment_json(status: &str, captured: bool) -> serde_json::Value {
    json!({
        "id": "pay_29QQoUBi66xm2f", "entity": "payment", "amount": 250_000, "currency": "INR", "status": status,
        "order_id": "order_IluGWxBm9U8zJ8", "method": "card", "captured": captured, "amount_refunded": 0, "refund_status": null,
    })
}

#[tokio::test]
async fn a_capture_posts_the_amount_and_currency_and_a_capture_made_already_is_answered_as_it_stands() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/payments/pay_29QQoUBi66xm2f/capture"))
        .and(header("authorization", BASIC))
        .and(body_json(json!({ "amount": 250_000, "currency": "INR" })))
        .respond_with(ResponseTemplate::new(200).set_body_json(payment_json("captured", true)))
        .expect(1)
        .mount(&server)
        .await;
    let gateway = gateway(&server.uri());
    let id = PaymentId("pay_29QQoUBi66xm2f".to_owned());
    let captured = gateway.capture(&id, Money::from_paise(250_000)).await.expect("captured");
    assert_eq!((captured.state, captured.amount), (PaymentState::Captured, Money::from_paise(250_000)));

    // Razorpay refuses a second capture; the payment, read back, is captured for that amount.
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/payments/pay_29QQoUBi66xm2f/capture"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({ "error": { "code": "BAD_REQUEST_ERROR", "description": "This payment has already been captured" } })))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/payments/pay_29QQoUBi66xm2f"))
        .respond_with(ResponseTemplate::new(200).set_body_json(payment_json("captured", true)))
        .mount(&server)
        .await;
    let again = self::gateway(&server.uri());
    assert_eq!(again.capture(&id, Money::from_paise(250_000)).await.map(|p| p.state), Ok(PaymentState::Captured));
    let other = again.capture(&id, Money::from_paise(200_000)).await;
    assert_eq!(other, Err(PaymentError::Refused { reason: "This payment has already been captured".to_owned() }));
}

#[tokio::test]
async fn a_refund_carries_the_shops_idempotency_key_and_reads_razorpays_refund() {
    let server = MockServer::start().await;
    let refund = json!({
        "id": "rfnd_FP8QHiV938haTz", "entity": "refund", "amount": 50_000, "receipt": null, "currency": "INR",
        "payment_id": "pay_29QQoUBi66xm2f", "notes": { "reason": "out of stock" }, "acquirer_data": { "arn": null },
        "created_at": 1_597_078_866, "batch_id": null, "status": "pending", "speed_processed": "normal", "speed_requested": "normal",
    });
    Mock::given(method("POST"))
        .and(path("/v1/payments/pay_29QQoUBi66xm2f/refund"))
        .and(header("authorization", BASIC))
        .and(header("x-refund-idempotency", "refund-MRQ-42-stock"))
        .and(body_json(json!({ "amount": 50_000, "speed": "normal", "notes": { "reason": "out of stock" } })))
        .respond_with(ResponseTemplate::new(200).set_body_json(refund.clone()))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/refunds/rfnd_FP8QHiV938haTz"))
        .respond_with(ResponseTemplate::new(200).set_body_json({
            let mut processed = refund.clone();
            processed["status"] = json!("processed");
            processed
        }))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/payments/pay_29QQoUBi66xm2f/refunds"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({ "entity": "collection", "count": 1, "items": [refund] })),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/orders/order_IluGWxBm9U8zJ8/payments"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(
                json!({ "entity": "collection", "count": 1, "items": [payment_json("captured", true)] }),
            ),
        )
        .mount(&server)
        .await;
    let gateway = gateway(&server.uri());
    let payment = PaymentId("pay_29QQoUBi66xm2f".to_owned());
    let notes = BTreeMap::from([("reason".to_owned(), "out of stock".to_owned())]);
    let asked =
        NewRefund { amount: Money::from_paise(50_000), idempotency_key: "refund-MRQ-42-stock".to_owned(), notes };
    let made = gateway.refund(&payment, &asked).await.expect("refunded");
    let id = RefundId("rfnd_FP8QHiV938haTz".to_owned());
    assert_eq!(
        (made.id.clone(), made.payment_id.clone(), made.amount, made.status),
        (id.clone(), payment.clone(), Money::from_paise(50_000), RefundStatus::Pending)
    );
    assert_eq!(gateway.fetch_refund(&id).await.map(|r| r.status), Ok(RefundStatus::Processed));
    assert_eq!(gateway.refunds(&payment).await, Ok(vec![made]));
    let payments = gateway.order_payments(&PaymentOrderId("order_IluGWxBm9U8zJ8".to_owned())).await.expect("listed");
    assert_eq!(payments.iter().map(|p| p.state).collect::<Vec<_>>(), [PaymentState::Captured]);

    let bad_key = NewRefund { idempotency_key: "short".to_owned(), ..asked };
    assert!(
        matches!(gateway.refund(&payment, &bad_key).await, Err(PaymentError::Refused { .. })),
        "refused before asking Razorpay"
    );
}
