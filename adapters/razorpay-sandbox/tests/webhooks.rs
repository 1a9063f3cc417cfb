//! Webhook delivery: a receiver on a free port gets the signed events, and `RazorpayGateway`
//! (configured with the same webhook secret) reads them.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{razorpay_config, served_sandbox, serve, OverHttp, KEY_ID};
use marque_domain::Money;
use marque_ports::{PaymentEventKind, PaymentGateway, PaymentId, PaymentOrderId};
use marque_razorpay::RazorpayGateway;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{handler, post, EndpointExt, Request, Route};
use serde_json::json;

#[derive(Debug, Clone)]
struct Received {
    signature: String,
    event_id: Option<String>,
    body: Vec<u8>,
}

#[derive(Default)]
struct Receiver {
    received: Mutex<Vec<Received>>,
    /// How many requests to answer 500 before accepting.
    refuse_first: Mutex<u32>,
}

#[handler]
fn receive(receiver: Data<&Arc<Receiver>>, request: &Request, body: Vec<u8>) -> StatusCode {
    {
        let mut refuse = receiver.refuse_first.lock().expect("lock");
        if *refuse > 0 {
            *refuse -= 1;
            return StatusCode::INTERNAL_SERVER_ERROR;
        }
    }
    let header = |name: &str| request.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    receiver.received.lock().expect("lock").push(Received {
        signature: header("x-razorpay-signature").unwrap_or_default(),
        event_id: header("x-razorpay-event-id"),
        body,
    });
    StatusCode::OK
}

async fn start_receiver(refuse_first: u32) -> (Arc<Receiver>, common::Served) {
    let receiver = Arc::new(Receiver { refuse_first: Mutex::new(refuse_first), ..Receiver::default() });
    let app = Route::new().at("/webhook", post(receive)).data(Arc::clone(&receiver));
    (Arc::clone(&receiver), serve(|_| app).await)
}

async fn wait_for(receiver: &Receiver, count: usize) -> Vec<Received> {
    for _ in 0..100 {
        let received = receiver.received.lock().expect("lock").clone();
        if received.len() >= count {
            return received;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{count} webhooks did not arrive within 5 s");
}

/// A receiver (refusing its first `refuse_first` requests), a sandbox posting to it, and one
/// order paid with `outcome` through the test bank.
struct Scene {
    receiver: Arc<Receiver>,
    sandbox: marque_razorpay_sandbox::Sandbox,
    gateway: RazorpayGateway,
    order_id: PaymentOrderId,
    payment_id: PaymentId,
    _servers: (common::Served, common::Served),
}

async fn pay_with_webhooks(refuse_first: u32, outcome: &str) -> Scene {
    let (receiver, hook) = start_receiver(refuse_first).await;
    let (sandbox, served, gateway) = served_sandbox(Some(format!("{}/webhook", hook.base))).await;
    let order = gateway
        .create_order(&marque_ports::NewPaymentOrder { amount: Money::from_paise(76_500), currency: "INR".to_owned(), receipt: "MRQ-W".to_owned() })
        .await
        .expect("order");
    let (status, answer) = OverHttp::new(&served.base).pay_json(json!({ "order_id": order.id.0, "key_id": KEY_ID, "outcome": outcome })).await;
    assert_eq!(status, 200);
    let payment = answer["razorpay_payment_id"].as_str().or(answer["error"]["metadata"]["payment_id"].as_str()).expect("payment id");
    Scene { receiver, sandbox, gateway, order_id: order.id, payment_id: PaymentId(payment.to_owned()), _servers: (hook, served) }
}

#[tokio::test]
async fn a_success_delivers_payment_captured_and_order_paid_signed_for_the_shop() {
    let scene = pay_with_webhooks(0, "success").await;
    let received = wait_for(&scene.receiver, 2).await;
    let shop = RazorpayGateway::new(razorpay_config("http://127.0.0.1:9")).expect("config");
    let paid = PaymentEventKind::Paid { order_id: scene.order_id, payment_id: scene.payment_id, amount: Money::from_paise(76_500) };
    let mut ids = Vec::new();
    for delivery in &received {
        let event = shop.read_webhook(&delivery.body, &delivery.signature, delivery.event_id.clone()).expect("a genuine webhook");
        assert_eq!(event.kind, paid);
        assert!(event.id.starts_with("evt_"));
        ids.push(event.id);
    }
    assert_ne!(ids[0], ids[1], "each event has its own id");
    let names: Vec<String> = received
        .iter()
        .map(|d| serde_json::from_slice::<serde_json::Value>(&d.body).expect("json")["event"].as_str().expect("event").to_owned())
        .collect();
    assert_eq!(names, ["payment.captured", "order.paid"]);
    for _ in 0..100 {
        if scene.sandbox.webhook_events().iter().all(|e| e.delivered) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(scene.sandbox.webhook_events().iter().all(|e| e.delivered), "{:?}", scene.sandbox.webhook_events());

    let forged = shop.read_webhook(&received[0].body, &received[1].signature, None);
    assert_eq!(forged, Err(marque_ports::PaymentError::BadSignature));
}

#[tokio::test]
async fn a_failure_delivers_payment_failed() {
    let scene = pay_with_webhooks(0, "failure").await;
    let received = wait_for(&scene.receiver, 1).await;
    let event = scene.gateway.read_webhook(&received[0].body, &received[0].signature, received[0].event_id.clone()).expect("genuine");
    assert_eq!(event.kind, PaymentEventKind::Failed { order_id: scene.order_id, payment_id: scene.payment_id });
}

#[tokio::test]
async fn a_refused_delivery_is_tried_again() {
    let scene = pay_with_webhooks(2, "failure").await;
    let received = wait_for(&scene.receiver, 1).await;
    assert_eq!(received.len(), 1, "delivered once, after two refusals");
    assert_eq!(received[0].event_id.as_deref(), Some(scene.sandbox.webhook_events()[0].id.as_str()));
}
