//! A local payment provider that speaks Razorpay's protocol, for `dev` and tests.
//!
//! **Development only: a `prod` server must refuse it** (anyone can "pay" with its Success button).
//!
//! A [`Sandbox`] keeps orders and payments in memory and serves, from [`Sandbox::routes`]:
//!
//! | route | what |
//! |---|---|
//! | `POST /v1/orders`, `GET /v1/orders/{id}`, `GET /v1/orders/{id}/payments`, `GET /v1/payments/{id}`, `POST /v1/payments/{id}/capture`, `POST /v1/payments/{id}/refund`, `GET /v1/payments/{id}/refunds`, `GET /v1/payments/{id}/refunds/{refund_id}`, `GET /v1/refunds/{id}` | Razorpay's API (Basic auth `key_id:key_secret`) |
//! | `GET /checkout.js` | a stand-in for Razorpay's checkout script: `window.Razorpay`, whose modal is the test bank |
//! | `GET /checkout/orders/{id}?key_id=…` | what the script shows, once the key matches the order's |
//! | `POST /pay` | the test bank's Success / Failure buttons |
//!
//! A successful payment is authorized, then captured at once when automatic capture is on (the
//! order asked for it, and [`Sandbox::set_auto_capture`] has not turned it off); otherwise it stays
//! authorized until `POST /v1/payments/{id}/capture`. Refunds are settled by the sandbox's bank as
//! [`Sandbox::set_refund_outcome`] says (processed at once by default).
//!
//! After each payment, capture and refund it posts Razorpay's signed webhooks to [`SandboxConfig::webhook_url`], from a
//! spawned task, retrying a failed delivery with backoff. [`SandboxGateway`] is the
//! [`marque_ports::PaymentGateway`] over the same state in process (no HTTP to itself).

mod gateway;
mod money;
mod routes;
mod webhooks;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use marque_razorpay::protocol::{
    self, ErrorBody, ErrorDetail, NewOrderBody, OrderEntity, PaymentEntity, RefundBody, RefundEntity,
};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};

pub use gateway::SandboxGateway;
pub use money::RefundOutcome;
pub use webhooks::WebhookEvent;

/// The sandbox's keys, where it is served, and where it sends webhooks.
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    /// What the shop and the browser use as Razorpay's public key, e.g. `rzp_test_sandbox`.
    pub key_id: String,
    pub key_secret: SecretString,
    pub webhook_secret: SecretString,
    /// Where to post webhooks (the shop's `…/api/razorpay/webhook`); `None` sends none.
    pub webhook_url: Option<String>,
    /// The URL prefix the routes are served under, without a trailing slash, e.g.
    /// `http://localhost:8080/sandbox/razorpay` (or a path alone, `/sandbox/razorpay`, when the
    /// page and the sandbox share an origin). The checkout script calls back here.
    pub public_base: String,
}

impl SandboxConfig {
    /// Fixed development keys (the sandbox is never a real account, so they guard nothing), served
    /// under `public_base`, webhooks to `webhook_url`.
    #[must_use]
    pub fn dev(public_base: impl Into<String>, webhook_url: Option<String>) -> Self {
        Self {
            key_id: "rzp_test_MarqueSandbox".to_owned(),
            key_secret: SecretString::from("marque-sandbox-key-secret"),
            webhook_secret: SecretString::from("marque-sandbox-webhook-secret"),
            webhook_url,
            public_base: public_base.into(),
        }
    }
}

/// What the shopper chose on the test bank page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The bank approves: the payment is authorized, and captured when automatic capture is on.
    Success,
    /// The bank approves, but capture does not follow even when automatic capture is on (a late
    /// authorization): the payment stays authorized until captured through the API.
    Authorized,
    /// The bank declines.
    Failure,
}

/// What Razorpay's checkout hands the page's `handler` after a successful payment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandlerResponse {
    pub razorpay_payment_id: String,
    pub razorpay_order_id: String,
    pub razorpay_signature: String,
}

/// How a payment attempt ended.
#[derive(Debug, Clone, PartialEq)]
pub enum PayAnswer {
    /// Authorized (and captured too when automatic capture is on); what the checkout's `handler`
    /// receives.
    Paid(HandlerResponse),
    /// Failed; what the checkout's `payment.failed` callbacks receive
    /// (`{error: {code, description, source, step, reason, metadata: {order_id, payment_id}}}`).
    Failed(ErrorBody),
}

/// Razorpay's refusal of a request: the HTTP status and its `error.description`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub description: String,
}

impl Refusal {
    fn bad_request(description: impl Into<String>) -> Self {
        Self { status: 400, description: description.into() }
    }
}

/// The in-memory provider; cheap to clone, every clone the same provider.
#[derive(Debug, Clone)]
pub struct Sandbox {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: SandboxConfig,
    state: Mutex<State>,
    events: Mutex<Vec<WebhookEvent>>,
    http: reqwest::Client,
    /// Whether payments of orders that asked for automatic capture are captured at once.
    auto_capture: AtomicBool,
    refund_outcome: Mutex<RefundOutcome>,
    /// The queue of the task posting webhooks, in order (started by the first webhook).
    outbox: Mutex<Option<tokio::sync::mpsc::UnboundedSender<WebhookEvent>>>,
}

#[derive(Debug, Default)]
struct State {
    orders: HashMap<String, OrderEntity>,
    /// Whether each order asked for automatic capture (`payment_capture`; absent: yes, the account's default).
    order_capture: HashMap<String, bool>,
    payments: HashMap<String, PaymentEntity>,
    /// Each order's payments, oldest first.
    order_payments: HashMap<String, Vec<String>>,
    refunds: HashMap<String, RefundEntity>,
    /// Each payment's refunds, oldest first.
    payment_refunds: HashMap<String, Vec<String>>,
    /// `X-Refund-Idempotency` keys: the payment, the request and the refund it made.
    refund_keys: HashMap<String, (String, RefundBody, String)>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// `prefix` and 14 random letters and digits, as Razorpay's ids look (`order_EKwxwAgItmmXdp`).
fn new_id(prefix: &str) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut bytes = [0u8; 14];
    getrandom::fill(&mut bytes).expect("the system's random source");
    let suffix: String = bytes.iter().map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()])).collect();
    format!("{prefix}{suffix}")
}

impl Sandbox {
    #[must_use]
    pub fn new(mut config: SandboxConfig) -> Self {
        config.public_base = config.public_base.trim_end_matches('/').to_owned();
        let http = reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(5))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        Self {
            inner: Arc::new(Inner {
                config,
                state: Mutex::default(),
                events: Mutex::default(),
                http,
                auto_capture: AtomicBool::new(true),
                refund_outcome: Mutex::new(RefundOutcome::Processed),
                outbox: Mutex::default(),
            }),
        }
    }

    /// Turns automatic capture on (the default) or off. Off, a successful payment stays
    /// authorized, whatever its order asked, until it is captured through the API: what Razorpay
    /// does for an account without automatic capture, or for an authorization that came too late.
    pub fn set_auto_capture(&self, on: bool) {
        self.inner.auto_capture.store(on, Ordering::SeqCst);
    }

    #[must_use]
    pub fn config(&self) -> &SandboxConfig {
        &self.inner.config
    }

    /// The in-process gateway over this sandbox.
    #[must_use]
    pub fn gateway(&self) -> SandboxGateway {
        SandboxGateway::new(self.clone())
    }

    /// Whether `key_id:key_secret` are this sandbox's keys.
    fn authenticates(&self, key_id: &str, key_secret: &str) -> bool {
        key_id == self.inner.config.key_id && key_secret == self.inner.config.key_secret.expose_secret()
    }

    /// `POST /v1/orders`, as Razorpay validates it.
    ///
    /// # Errors
    /// A 400 [`Refusal`] for an amount below 100 paise, a currency that is not three capital
    /// letters, or a receipt over 40 characters.
    pub fn create_order(&self, request: &NewOrderBody) -> Result<OrderEntity, Refusal> {
        if request.amount < protocol::MIN_AMOUNT_PAISE {
            return Err(Refusal::bad_request("The amount must be atleast INR 1.00"));
        }
        if request.currency.len() != 3 || !request.currency.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(Refusal::bad_request("The currency provided is not supported"));
        }
        if request.receipt.chars().count() > protocol::MAX_RECEIPT_CHARS {
            return Err(Refusal::bad_request("receipt: the length must be no more than 40."));
        }
        let order = OrderEntity {
            id: new_id("order_"),
            entity: "order".to_owned(),
            amount: request.amount,
            amount_paid: 0,
            amount_due: request.amount,
            currency: request.currency.clone(),
            receipt: Some(request.receipt.clone()),
            status: "created".to_owned(),
            attempts: 0,
            notes: serde_json::json!([]),
            created_at: now(),
        };
        let mut state = lock(&self.inner.state);
        state.order_capture.insert(order.id.clone(), request.payment_capture.unwrap_or(true));
        state.orders.insert(order.id.clone(), order.clone());
        Ok(order)
    }

    /// `GET /v1/orders/{id}`.
    ///
    /// # Errors
    /// A 400 [`Refusal`] for an unknown id.
    pub fn order(&self, id: &str) -> Result<OrderEntity, Refusal> {
        lock(&self.inner.state).orders.get(id).cloned().ok_or_else(|| Refusal::bad_request(protocol::UNKNOWN_ID))
    }

    /// `GET /v1/payments/{id}`.
    ///
    /// # Errors
    /// A 400 [`Refusal`] for an unknown id.
    pub fn payment(&self, id: &str) -> Result<PaymentEntity, Refusal> {
        lock(&self.inner.state).payments.get(id).cloned().ok_or_else(|| Refusal::bad_request(protocol::UNKNOWN_ID))
    }

    /// The order as the checkout script may see it with the public key alone.
    ///
    /// # Errors
    /// A 400 [`Refusal`] for an unknown order or a key that is not the order's.
    pub fn checkout_order(&self, order_id: &str, key_id: &str) -> Result<OrderEntity, Refusal> {
        if key_id != self.inner.config.key_id {
            return Err(Refusal::bad_request("The key provided is not the key this order was created with"));
        }
        let order = self.order(order_id)?;
        if order.status == "paid" {
            return Err(Refusal::bad_request("This order has already been paid"));
        }
        Ok(order)
    }

    /// The shopper presses Success or Failure on the test bank page for `order_id`: a payment is
    /// made (authorized, and captured when automatic capture is on; or failed), the order follows,
    /// and the webhooks go out.
    ///
    /// # Errors
    /// A 400 [`Refusal`] for an unknown order or one already paid.
    pub fn pay(&self, order_id: &str, outcome: Outcome) -> Result<PayAnswer, Refusal> {
        self.pay_as(order_id, outcome, Prefill::default())
    }

    fn pay_as(&self, order_id: &str, outcome: Outcome, prefill: Prefill) -> Result<PayAnswer, Refusal> {
        let succeeded = outcome != Outcome::Failure;
        let mut events = Vec::new();
        let payment = {
            let mut state = lock(&self.inner.state);
            let capture = self.inner.auto_capture.load(Ordering::SeqCst)
                && state.order_capture.get(order_id).copied().unwrap_or(true)
                && outcome == Outcome::Success;
            let order = state.orders.get_mut(order_id).ok_or_else(|| Refusal::bad_request(protocol::UNKNOWN_ID))?;
            if order.status == "paid" {
                return Err(Refusal::bad_request("This order has already been paid"));
            }
            order.attempts += 1;
            order.status = "attempted".to_owned();
            let failure = |text: &str| (!succeeded).then(|| text.to_owned());
            let payment = PaymentEntity {
                id: new_id("pay_"),
                entity: "payment".to_owned(),
                amount: order.amount,
                currency: order.currency.clone(),
                status: if succeeded { "authorized" } else { "failed" }.to_owned(),
                order_id: Some(order.id.clone()),
                method: Some("card".to_owned()),
                captured: false,
                email: prefill.email,
                contact: prefill.contact,
                amount_refunded: 0,
                refund_status: None,
                error_code: failure(protocol::BAD_REQUEST),
                error_description: failure("Payment failed"),
                error_source: failure("bank"),
                error_step: failure("payment_authorization"),
                error_reason: failure("payment_failed"),
                created_at: now(),
            };
            let order = order.clone();
            state.order_payments.entry(order.id.clone()).or_default().push(payment.id.clone());
            state.payments.insert(payment.id.clone(), payment.clone());
            events.push(self.payment_event(
                if succeeded { "payment.authorized" } else { "payment.failed" },
                &payment,
                None,
            ));
            if succeeded && capture {
                self.capture_in(&mut state, &payment.id, &mut events);
            }
            payment
        };
        self.dispatch(events);
        let order_id = payment.order_id.clone().unwrap_or_default();
        Ok(if succeeded {
            let message = protocol::handler_message(&order_id, &payment.id);
            PayAnswer::Paid(HandlerResponse {
                razorpay_signature: protocol::sign(self.inner.config.key_secret.expose_secret(), message.as_bytes()),
                razorpay_payment_id: payment.id,
                razorpay_order_id: order_id,
            })
        } else {
            PayAnswer::Failed(ErrorBody {
                error: ErrorDetail {
                    code: protocol::BAD_REQUEST.to_owned(),
                    description: "Payment failed".to_owned(),
                    source: payment.error_source,
                    step: payment.error_step,
                    reason: payment.error_reason,
                    metadata: Some(serde_json::json!({ "order_id": order_id, "payment_id": payment.id })),
                },
            })
        })
    }
}

/// The shopper's details the checkout was opened with (`prefill`), kept on the payment.
#[derive(Debug, Clone, Default, Deserialize)]
struct Prefill {
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    contact: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn sandbox() -> Sandbox {
        Sandbox::new(SandboxConfig {
            key_id: "rzp_test_unit".to_owned(),
            key_secret: SecretString::from("unit-key-secret"),
            webhook_secret: SecretString::from("unit-webhook-secret"),
            webhook_url: None,
            public_base: "http://sandbox.test/rzp/".to_owned(),
        })
    }

    fn order(sandbox: &Sandbox) -> OrderEntity {
        sandbox
            .create_order(&NewOrderBody {
                amount: 12_345,
                currency: "INR".to_owned(),
                receipt: "r1".to_owned(),
                payment_capture: None,
            })
            .expect("order")
    }

    #[test]
    fn ids_look_like_razorpay_ids() {
        let id = new_id("pay_");
        assert!(protocol::is_entity_id(&id, "pay_") && id.len() == 18, "{id}");
        assert_ne!(new_id("pay_"), new_id("pay_"));
    }

    #[test]
    fn a_failed_attempt_leaves_the_order_payable_and_a_success_closes_it() {
        let sandbox = sandbox();
        let order = order(&sandbox);
        let PayAnswer::Failed(failed) = sandbox.pay(&order.id, Outcome::Failure).expect("attempt") else {
            panic!("failed expected")
        };
        assert_eq!(failed.error.reason.as_deref(), Some("payment_failed"));
        assert_eq!(sandbox.order(&order.id).expect("order").status, "attempted");
        let PayAnswer::Paid(paid) = sandbox.pay(&order.id, Outcome::Success).expect("attempt") else {
            panic!("paid expected")
        };
        assert_eq!(paid.razorpay_order_id, order.id);
        let after = sandbox.order(&order.id).expect("order");
        assert_eq!((after.status.as_str(), after.attempts, after.amount_paid), ("paid", 2, 12_345));
        assert_eq!(
            sandbox.pay(&order.id, Outcome::Success),
            Err(Refusal::bad_request("This order has already been paid"))
        );
        assert_eq!(sandbox.payment(&paid.razorpay_payment_id).expect("payment").status, "captured");
    }

    #[test]
    fn the_public_key_must_be_the_orders() {
        let sandbox = sandbox();
        let order = order(&sandbox);
        assert!(sandbox.checkout_order(&order.id, "rzp_test_unit").is_ok());
        assert_eq!(sandbox.checkout_order(&order.id, "rzp_test_other").map(drop).map_err(|r| r.status), Err(400));
        assert_eq!(sandbox.config().public_base, "http://sandbox.test/rzp", "the trailing slash is dropped");
    }

    #[test]
    fn secrets_stay_out_of_debug_output() {
        let printed = format!("{:?}", sandbox());
        assert!(!printed.contains("unit-key-secret") && !printed.contains("unit-webhook-secret"), "{printed}");
    }
}
