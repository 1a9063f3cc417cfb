//! Webhook delivery: a receiver on a free port gets the signed events, and `RazorpayGateway`
//! (configured with the same webhook secret) reads them.

use crate::common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{razorpay_config, serve, served_sandbox, OverHttp, KEY_ID};
use marque_domain::Money;
use marque_ports::{NewRefund, PaymentEventKind, PaymentGateway, PaymentId, PaymentOrderId, RefundStatus};
use marque_razorpay::RazorpayGateway;
use marque_razorpay_sandbox::RefundOutcome;
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
        .create_order(&marque_ports::NewPaymentOrder {
            amount: Money::from_paise(76_500),
            currency: "INR".to_owned(),
            receipt: "MRQ-W".to_owned(),
        })
        .await
        .expect("order");
    let (status, answer) = OverHttp::new(&served.base)
        .pay_json(json!({ "order_id": order.id.0, "key_id": KEY_ID, "outcome": outcome }))
        .await;
    assert_eq!(status, 200);
    let payment = answer["razorpay_payment_id"]
        .as_str()
        .or(answer["error"]["metadata"]["payment_id"].as_str())
        .expect("payment id");
    Scene {
        receiver,
        sandbox,
        gateway,
        order_id: order.id,
        payment_id: PaymentId(payment.to_owned()),
        _servers: (hook, served),
    }
}

#[tokio::test]
async fn a_success_delivers_payment_authorized_then_captured_and_order_paid_signed_for_the_shop() {
    let scene = pay_with_webhooks(0, "success").await;
    let received = wait_for(&scene.receiver, 3).await;
    let shop = RazorpayGateway::new(razorpay_config("http://127.0.0.1:9")).expect("config");
    let (order_id, payment_id, amount) = (scene.order_id.clone(), scene.payment_id.clone(), Money::from_paise(76_500));
    let authorized =
        PaymentEventKind::Authorized { order_id: order_id.clone(), payment_id: payment_id.clone(), amount };
    let paid = PaymentEventKind::Paid { order_id, payment_id, amount };
    let mut ids = Vec::new();
    for (delivery, expected) in received.iter().zip([&authorized, &paid, &paid]) {
        let event = shop
            .read_webhook(&delivery.body, &delivery.signature, delivery.event_id.clone())
            .expect("a genuine webhook");
        assert_eq!(&event.kind, expected);
        assert!(event.id.starts_with("evt_"));
        ids.push(event.id);
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 3, "each event has its own id");
    assert_eq!(names(&received), ["payment.authorized", "payment.captured", "order.paid"]);
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

fn names(received: &[Received]) -> Vec<String> {
    received
        .iter()
        .map(|d| {
            serde_json::from_slice::<serde_json::Value>(&d.body).expect("json")["event"]
                .as_str()
                .expect("event")
                .to_owned()
        })
        .collect()
}

#[tokio::test]
async fn without_automatic_capture_only_the_authorization_goes_out_until_the_capture() {
    let scene = pay_with_webhooks(0, "authorized").await;
    let received = wait_for(&scene.receiver, 1).await;
    assert_eq!(names(&received), ["payment.authorized"]);
    assert_eq!(scene.sandbox.payment(&scene.payment_id.0).expect("the payment").status, "authorized");
    let captured = scene.gateway.capture(&scene.payment_id, Money::from_paise(76_500)).await.expect("the capture");
    assert_eq!(captured.state, marque_ports::PaymentState::Captured);
    let received = wait_for(&scene.receiver, 3).await;
    assert_eq!(names(&received), ["payment.authorized", "payment.captured", "order.paid"]);
    let event = scene.gateway.read_webhook(&received[2].body, &received[2].signature, None).expect("genuine");
    assert_eq!(
        event.kind,
        PaymentEventKind::Paid {
            order_id: scene.order_id,
            payment_id: scene.payment_id,
            amount: Money::from_paise(76_500)
        }
    );
}

#[tokio::test]
async fn refunds_deliver_refund_created_then_processed_or_failed_signed_for_the_shop() {
    let scene = pay_with_webhooks(0, "success").await;
    wait_for(&scene.receiver, 3).await;
    let refund = |paise: i64, key: &str| NewRefund {
        amount: Money::from_paise(paise),
        idempotency_key: key.to_owned(),
        notes: BTreeMap::new(),
    };
    let processed =
        scene.gateway.refund(&scene.payment_id, &refund(20_000, "refund-processed-1")).await.expect("a refund");
    assert_eq!(processed.status, RefundStatus::Processed);
    scene.sandbox.set_refund_outcome(RefundOutcome::Failed);
    let failed = scene.gateway.refund(&scene.payment_id, &refund(56_500, "refund-failed-01")).await.expect("a refund");
    assert_eq!(failed.status, RefundStatus::Failed);
    scene.sandbox.set_refund_outcome(RefundOutcome::Pending);
    let pending = scene
        .gateway
        .refund(&scene.payment_id, &refund(56_500, "refund-pending-1"))
        .await
        .expect("the failed amount again");
    assert_eq!(pending.status, RefundStatus::Pending);
    let received = wait_for(&scene.receiver, 8).await;
    assert_eq!(
        names(&received[3..]),
        ["refund.created", "refund.processed", "refund.created", "refund.failed", "refund.created"]
    );
    let settled = scene.sandbox.settle_refund(&pending.id.0, true).expect("settled");
    assert_eq!(settled.status, "processed");
    let received = wait_for(&scene.receiver, 9).await;
    assert_eq!(scene.gateway.fetch_refund(&pending.id).await.map(|r| r.status), Ok(RefundStatus::Processed));

    let read = |delivery: &Received| {
        scene.gateway.read_webhook(&delivery.body, &delivery.signature, None).expect("genuine").kind
    };
    let order_id = scene.order_id.clone();
    let payment_id = scene.payment_id.clone();
    assert_eq!(
        read(&received[4]),
        PaymentEventKind::RefundProcessed {
            order_id: order_id.clone(),
            payment_id: payment_id.clone(),
            refund_id: processed.id,
            amount: Money::from_paise(20_000)
        }
    );
    assert_eq!(
        read(&received[6]),
        PaymentEventKind::RefundFailed {
            order_id: order_id.clone(),
            payment_id: payment_id.clone(),
            refund_id: failed.id,
            amount: Money::from_paise(56_500)
        }
    );
    assert_eq!(
        read(&received[8]),
        PaymentEventKind::RefundProcessed {
            order_id,
            payment_id,
            refund_id: pending.id,
            amount: Money::from_paise(56_500)
        }
    );
    assert_eq!(read(&received[3]), PaymentEventKind::Other { name: "refund.created".to_owned() });
    let body: serde_json::Value = serde_json::from_slice(&received[8].body).expect("json");
    assert_eq!(body["contains"], json!(["refund", "payment"]));
    assert_eq!(body["payload"]["payment"]["entity"]["refund_status"], "full");
    assert_eq!(body["payload"]["payment"]["entity"]["status"], "refunded");
}

#[tokio::test]
async fn a_failure_delivers_payment_failed() {
    let scene = pay_with_webhooks(0, "failure").await;
    let received = wait_for(&scene.receiver, 1).await;
    let event = scene
        .gateway
        .read_webhook(&received[0].body, &received[0].signature, received[0].event_id.clone())
        .expect("genuine");
    assert_eq!(event.kind, PaymentEventKind::Failed { order_id: scene.order_id, payment_id: scene.payment_id });
}

#[tokio::test]
async fn a_refused_delivery_is_tried_again() {
    let scene = pay_with_webhooks(2, "failure").await;
    let received = wait_for(&scene.receiver, 1).await;
    assert_eq!(received.len(), 1, "delivered once, after two refusals");
    assert_eq!(received[0].event_id.as_deref(), Some(scene.sandbox.webhook_events()[0].id.as_str()));
}
