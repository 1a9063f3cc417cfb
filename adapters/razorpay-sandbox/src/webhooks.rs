//! Razorpay's webhooks for each payment: built, signed, recorded and posted from a spawned task.

use std::time::Duration;

use marque_razorpay::protocol::{self, EventBody, EventPayload, OrderEntity, PaymentEntity, Wrapped};
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
    /// `payment.captured`, `order.paid`, `payment.failed`.
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

    /// Signs and records the payment's events; posts them when a webhook URL is set.
    pub(crate) fn send_webhooks(&self, payment: &PaymentEntity, order: &OrderEntity) {
        let payment_only = EventPayload { payment: Some(Wrapped { entity: payment.clone() }), order: None };
        let events = if payment.captured {
            let with_order = EventPayload { order: Some(Wrapped { entity: order.clone() }), ..payment_only.clone() };
            vec![self.event("payment.captured", payment_only), self.event("order.paid", with_order)]
        } else {
            vec![self.event("payment.failed", payment_only)]
        };
        lock(&self.inner.events).extend(events.iter().cloned());
        let Some(url) = self.inner.config.webhook_url.clone() else { return };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            tracing::warn!("no async runtime here: the sandbox's webhooks are not sent");
            return;
        };
        let sandbox = self.clone();
        runtime.spawn(async move {
            for event in events {
                let delivered = sandbox.deliver(&url, &event).await;
                if let Some(kept) = lock(&sandbox.inner.events).iter_mut().find(|e| e.id == event.id) {
                    kept.delivered = delivered;
                }
            }
        });
    }

    fn event(&self, name: &str, payload: EventPayload) -> WebhookEvent {
        let contains = [payload.payment.as_ref().map(|_| "payment"), payload.order.as_ref().map(|_| "order")];
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
                Ok(answer) => tracing::warn!(event = %event.name, id = %event.id, attempt, status = %answer.status(), "webhook refused"),
                Err(error) => tracing::warn!(event = %event.name, id = %event.id, attempt, %error, "webhook not delivered"),
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
    fn a_success_signs_payment_captured_then_order_paid_and_a_failure_payment_failed() {
        let sandbox = sandbox();
        let order = sandbox.create_order(&NewOrderBody { amount: 500, currency: "INR".to_owned(), receipt: String::new() }).expect("order");
        sandbox.pay(&order.id, Outcome::Failure).expect("failure");
        sandbox.pay(&order.id, Outcome::Success).expect("success");
        let events = sandbox.webhook_events();
        let names: Vec<&str> = events.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["payment.failed", "payment.captured", "order.paid"]);
        for event in &events {
            assert!(!event.delivered, "no URL, nothing delivered");
            let json: serde_json::Value = serde_json::from_str(&event.body).expect("json");
            assert_eq!(json["entity"], "event");
            assert_eq!(json["payload"]["payment"]["entity"]["order_id"], order.id.as_str());
        }
        let paid: serde_json::Value = serde_json::from_str(&events[2].body).expect("json");
        assert_eq!(paid["contains"], serde_json::json!(["payment", "order"]));
        assert_eq!(paid["payload"]["order"]["entity"]["status"], "paid");
    }
}
