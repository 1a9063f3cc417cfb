//! Razorpay's webhooks for each payment, capture and refund: built, signed, recorded and posted
//! from a spawned task.

use std::sync::Arc;
use std::time::Duration;

use marque_razorpay::protocol::{self, EventBody, EventPayload, OrderEntity, PaymentEntity, RefundEntity, Wrapped};
use secrecy::ExposeSecret;

use crate::{lock, new_id, now, Sandbox};

/// How many times a delivery is tried, and the pause before the first retry (doubled each time).
const ATTEMPTS: u32 = 5;
const FIRST_PAUSE: Duration = Duration::from_millis(200);

/// One webhook as the sandbox signed it (and, when a URL is configured, sent it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookEvent {
    /// `x-razorpay-event-id`.
    pub id: String,
    /// `payment.authorized`, `payment.captured`, `order.paid`, `payment.failed`, `refund.created`,
    /// `refund.processed`, `refund.failed`.
    pub name: String,
    /// The exact body sent.
    pub body: String,
    /// `X-Razorpay-Signature`: hex HMAC-SHA256 of `body` under the webhook secret.
    pub signature: String,
    /// Whether the receiver answered 2xx (always false without a webhook URL).
    pub delivered: bool,
}

impl Sandbox {
    /// Every webhook signed so far, oldest first: what a receiver got or should have got.
    #[must_use]
    pub fn webhook_events(&self) -> Vec<WebhookEvent> {
        lock(&self.inner.events).clone()
    }

    /// A payment's event, signed: its payload holds the payment (and the order, for `order.paid`).
    pub(crate) fn payment_event(
        &self,
        name: &str,
        payment: &PaymentEntity,
        order: Option<&OrderEntity>,
    ) -> WebhookEvent {
        let payload = EventPayload {
            payment: Some(Wrapped { entity: payment.clone() }),
            order: order.map(|order| Wrapped { entity: order.clone() }),
            refund: None,
        };
        self.event(name, payload)
    }

    /// A refund's event, signed: its payload holds the refund and its payment.
    pub(crate) fn refund_event(&self, name: &str, refund: &RefundEntity, payment: &PaymentEntity) -> WebhookEvent {
        let payload = EventPayload {
            refund: Some(Wrapped { entity: refund.clone() }),
            payment: Some(Wrapped { entity: payment.clone() }),
            order: None,
        };
        self.event(name, payload)
    }

    /// Records signed events; posts them, one after the other in the order they were made, from a
    /// spawned task when a webhook URL is set.
    pub(crate) fn dispatch(&self, events: Vec<WebhookEvent>) {
        if events.is_empty() {
            return;
        }
        lock(&self.inner.events).extend(events.iter().cloned());
        let Some(url) = self.inner.config.webhook_url.clone() else { return };
        let mut outbox = lock(&self.inner.outbox);
        // Closed when the task that posted them ended with the runtime it ran on: start another.
        if let Some(queue) = outbox.as_ref().filter(|queue| !queue.is_closed()) {
            for event in events {
                let _ = queue.send(event);
            }
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            tracing::warn!("no async runtime here: the sandbox's webhooks are not sent");
            return;
        };
        let (queue, mut posts) = tokio::sync::mpsc::unbounded_channel::<WebhookEvent>();
        for event in events {
            let _ = queue.send(event);
        }
        *outbox = Some(queue);
        let sandbox = Arc::downgrade(&self.inner);
        runtime.spawn(async move {
            while let Some(event) = posts.recv().await {
                let Some(inner) = sandbox.upgrade() else { return };
                let sandbox = Sandbox { inner };
                let delivered = sandbox.deliver(&url, &event).await;
                sandbox.mark_delivered(&event.id, delivered);
            }
        });
    }

    fn mark_delivered(&self, id: &str, delivered: bool) {
        if let Some(kept) = lock(&self.inner.events).iter_mut().find(|e| e.id == id) {
            kept.delivered = delivered;
        }
    }

    fn event(&self, name: &str, payload: EventPayload) -> WebhookEvent {
        let contains = [
            payload.refund.as_ref().map(|_| "refund"),
            payload.payment.as_ref().map(|_| "payment"),
            payload.order.as_ref().map(|_| "order"),
        ];
        let body = EventBody {
            entity: "event".to_owned(),
            account_id: "acc_MarqueSandbox0".to_owned(),
            event: name.to_owned(),
            contains: contains.into_iter().flatten().map(str::to_owned).collect(),
            payload,
            created_at: now(),
        };
        let body = serde_json::to_string(&body).unwrap_or_default();
        WebhookEvent {
            id: new_id("evt_"),
            name: name.to_owned(),
            signature: protocol::sign(self.inner.config.webhook_secret.expose_secret(), body.as_bytes()),
            body,
            delivered: false,
        }
    }

    /// Posts one event until the receiver answers 2xx or the attempts run out.
    async fn deliver(&self, url: &str, event: &WebhookEvent) -> bool {
        let mut pause = FIRST_PAUSE;
        for attempt in 1..=ATTEMPTS {
            let sent = self
                .inner
                .http
                .post(url)
                .header("content-type", "application/json")
                .header("x-razorpay-signature", &event.signature)
                .header("x-razorpay-event-id", &event.id)
                .body(event.body.clone())
                .send()
                .await;
            match sent {
                Ok(answer) if answer.status().is_success() => return true,
                Ok(answer) => {
                    tracing::warn!(event = %event.name, id = %event.id, attempt, status = %answer.status(), "webhook refused")
                }
                Err(error) => {
                    tracing::warn!(event = %event.name, id = %event.id, attempt, %error, "webhook not delivered")
                }
            }
            if attempt < ATTEMPTS {
                tokio::time::sleep(pause).await;
                pause *= 2;
            }
        }
        tracing::error!(event = %event.name, id = %event.id, "webhook given up after {ATTEMPTS} attempts");
        false
    }
}

#[cfg(test)]
mod tests {
    use marque_razorpay::protocol::NewOrderBody;

    use crate::tests::sandbox;
    use crate::Outcome;

    #[test]
    fn a_success_signs_payment_authorized_captured_then_order_paid_and_a_failure_payment_failed() {
        let sandbox = sandbox();
        let order = sandbox
            .create_order(&NewOrderBody {
                amount: 500,
                currency: "INR".to_owned(),
                receipt: String::new(),
                payment_capture: None,
            })
            .expect("order");
        sandbox.pay(&order.id, Outcome::Failure).expect("failure");
        sandbox.pay(&order.id, Outcome::Success).expect("success");
        let events = sandbox.webhook_events();
        let names: Vec<&str> = events.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["payment.failed", "payment.authorized", "payment.captured", "order.paid"]);
        for event in &events {
            assert!(!event.delivered, "no URL, nothing delivered");
            let json: serde_json::Value = serde_json::from_str(&event.body).expect("json");
            assert_eq!(json["entity"], "event");
            assert_eq!(json["payload"]["payment"]["entity"]["order_id"], order.id.as_str());
        }
        let paid: serde_json::Value = serde_json::from_str(&events[3].body).expect("json");
        assert_eq!(paid["contains"], serde_json::json!(["payment", "order"]));
        assert_eq!(paid["payload"]["order"]["entity"]["status"], "paid");
    }
}
