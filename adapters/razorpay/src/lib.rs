//! The [`PaymentGateway`] port over Razorpay's HTTP API.
//!
//! [`RazorpayGateway`] creates orders with automatic capture (`POST /v1/orders`), reads payments
//! (`GET /v1/payments/{id}`, `GET /v1/orders/{id}/payments`), captures them
//! (`POST /v1/payments/{id}/capture`), refunds them (`POST /v1/payments/{id}/refund` with
//! `X-Refund-Idempotency`, `GET /v1/refunds/{id}`, `GET /v1/payments/{id}/refunds`), all with Basic
//! auth `key_id:key_secret`, and checks the two signed reports of a payment: the
//! checkout handler's `razorpay_signature` (HMAC-SHA256 of `order_id|payment_id` under the key
//! secret) and webhooks (`X-Razorpay-Signature`, HMAC-SHA256 of the raw body under the webhook
//! secret). [`protocol`] holds the wire format, shared with `marque-razorpay-sandbox`.
//!
//! Errors: a 4xx answer is [`PaymentError::Refused`] with Razorpay's `error.description`; no
//! answer, a timeout or a 5xx is [`PaymentError::Unavailable`].

pub mod protocol;

use std::time::Duration;

use async_trait::async_trait;
use marque_domain::Money;
use marque_ports::{
    CheckoutConfig, NewPaymentOrder, NewRefund, Payment, PaymentError, PaymentEvent, PaymentGateway, PaymentId,
    PaymentOrder, PaymentOrderId, PaymentState, Refund, RefundId,
};
use protocol::{
    CaptureBody, Collection, ErrorBody, NewOrderBody, OrderEntity, PaymentEntity, RefundBody, RefundEntity,
};
use secrecy::{ExposeSecret, SecretString};
use serde::de::DeserializeOwned;

/// Razorpay's API address.
pub const RAZORPAY_BASE_URL: &str = "https://api.razorpay.com";
/// Razorpay's checkout script.
pub const RAZORPAY_CHECKOUT_SCRIPT: &str = "https://checkout.razorpay.com/v1/checkout.js";

/// The account's keys and where to reach it. The secrets never appear in `Debug` output.
#[derive(Debug, Clone)]
pub struct RazorpayConfig {
    /// Without a trailing path, e.g. [`RAZORPAY_BASE_URL`]; the sandbox's prefix in dev and tests.
    pub base_url: String,
    /// The public key id (`rzp_test_…`, `rzp_live_…`), given to the browser too.
    pub key_id: String,
    pub key_secret: SecretString,
    /// The secret set on the dashboard's webhook (not the key secret).
    pub webhook_secret: SecretString,
    /// The checkout script the browser loads, e.g. [`RAZORPAY_CHECKOUT_SCRIPT`].
    pub checkout_script_url: String,
    /// For each call, connection included.
    pub timeout: Duration,
}

impl RazorpayConfig {
    /// Razorpay in production, with a 10-second timeout.
    #[must_use]
    pub fn new(key_id: impl Into<String>, key_secret: SecretString, webhook_secret: SecretString) -> Self {
        Self {
            base_url: RAZORPAY_BASE_URL.to_owned(),
            key_id: key_id.into(),
            key_secret,
            webhook_secret,
            checkout_script_url: RAZORPAY_CHECKOUT_SCRIPT.to_owned(),
            timeout: Duration::from_secs(10),
        }
    }
}

/// A configuration the gateway cannot be built from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RazorpayConfigError {
    #[error("the Razorpay address `{0}` is not an http(s) URL")]
    BaseUrl(String),
    #[error("`{0}` must not be empty")]
    Missing(&'static str),
    #[error("the HTTP client cannot be built: {0}")]
    Client(String),
}

/// Razorpay over HTTP.
#[derive(Debug)]
pub struct RazorpayGateway {
    base: String,
    config: RazorpayConfig,
    http: reqwest::Client,
}

impl RazorpayGateway {
    /// Builds the gateway; nothing is sent until the first call.
    ///
    /// # Errors
    /// [`RazorpayConfigError`] for a base URL that is not http(s) or an empty key id or secret.
    pub fn new(config: RazorpayConfig) -> Result<Self, RazorpayConfigError> {
        let base = config.base_url.trim_end_matches('/').to_owned();
        match reqwest::Url::parse(&base) {
            Ok(url) if matches!(url.scheme(), "http" | "https") => {}
            _ => return Err(RazorpayConfigError::BaseUrl(config.base_url.clone())),
        }
        for (name, value) in [
            ("key_id", config.key_id.as_str()),
            ("key_secret", config.key_secret.expose_secret()),
            ("webhook_secret", config.webhook_secret.expose_secret()),
        ] {
            if value.trim().is_empty() {
                return Err(RazorpayConfigError::Missing(name));
            }
        }
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| RazorpayConfigError::Client(e.to_string()))?;
        Ok(Self { base, config, http })
    }

    async fn call<T: DeserializeOwned>(&self, request: reqwest::RequestBuilder) -> Result<T, PaymentError> {
        let unavailable = |reason: String| PaymentError::Unavailable { reason };
        let response = request
            .basic_auth(&self.config.key_id, Some(self.config.key_secret.expose_secret()))
            .send()
            .await
            .map_err(|e| unavailable(format!("no answer from Razorpay: {}", without_url(&e))))?;
        let status = response.status();
        let body =
            response.text().await.map_err(|e| unavailable(format!("the answer broke off: {}", without_url(&e))))?;
        if status.is_success() {
            return serde_json::from_str(&body)
                .map_err(|e| unavailable(format!("an answer Razorpay does not give: {e}")));
        }
        let description = serde_json::from_str::<ErrorBody>(&body)
            .map(|b| b.error.description)
            .unwrap_or_else(|_| body.chars().take(200).collect());
        if status.is_client_error() {
            Err(PaymentError::Refused { reason: description })
        } else {
            tracing::warn!(%status, %description, "Razorpay failed");
            Err(unavailable(format!("Razorpay answered {status}: {description}")))
        }
    }
}

/// What went wrong on the way, without the URL reqwest's messages carry.
fn without_url(error: &reqwest::Error) -> String {
    let kind = if error.is_timeout() {
        "timed out"
    } else if error.is_connect() {
        "cannot connect"
    } else {
        "request failed"
    };
    match std::error::Error::source(error) {
        Some(cause) => format!("{kind} ({cause})"),
        None => kind.to_owned(),
    }
}

/// The port's payment for Razorpay's.
///
/// # Errors
/// [`PaymentError::Unavailable`] for a status the port has no state for.
pub fn payment_from(entity: PaymentEntity) -> Result<Payment, PaymentError> {
    let state = protocol::payment_state(&entity.status)
        .ok_or_else(|| PaymentError::Unavailable { reason: format!("unknown payment status `{}`", entity.status) })?;
    let order_id = entity
        .order_id
        .ok_or_else(|| PaymentError::Refused { reason: format!("payment {} belongs to no order", entity.id) })?;
    Ok(Payment {
        id: PaymentId(entity.id),
        order_id: PaymentOrderId(order_id),
        amount: Money::from_paise(entity.amount),
        currency: entity.currency,
        state,
    })
}

/// The port's refund for Razorpay's.
///
/// # Errors
/// [`PaymentError::Unavailable`] for a status the port has no state for.
pub fn refund_from(entity: RefundEntity) -> Result<Refund, PaymentError> {
    let status = protocol::refund_status(&entity.status)
        .ok_or_else(|| PaymentError::Unavailable { reason: format!("unknown refund status `{}`", entity.status) })?;
    Ok(Refund {
        id: RefundId(entity.id),
        payment_id: PaymentId(entity.payment_id),
        amount: Money::from_paise(entity.amount),
        status,
    })
}

/// Refuses, without asking Razorpay, an id that is not `prefix` and letters and digits.
fn known_shape(id: &str, prefix: &str) -> Result<(), PaymentError> {
    if protocol::is_entity_id(id, prefix) {
        Ok(())
    } else {
        Err(PaymentError::Refused { reason: protocol::UNKNOWN_ID.to_owned() })
    }
}

/// What the shop's refund request says on Razorpay's wire.
///
/// # Errors
/// [`PaymentError::Refused`] for a key Razorpay would refuse.
pub fn refund_body(refund: &NewRefund) -> Result<RefundBody, PaymentError> {
    if !protocol::is_idempotency_key(&refund.idempotency_key) {
        return Err(PaymentError::Refused {
            reason: "The idempotency key must be 10 to 64 letters, digits, hyphens or underscores".to_owned(),
        });
    }
    let notes = (!refund.notes.is_empty()).then(|| serde_json::json!(refund.notes));
    Ok(RefundBody { amount: Some(refund.amount.paise()), speed: Some("normal".to_owned()), receipt: None, notes })
}

/// The port's order for Razorpay's.
#[must_use]
pub fn order_from(entity: OrderEntity) -> PaymentOrder {
    PaymentOrder { id: PaymentOrderId(entity.id), amount: Money::from_paise(entity.amount), currency: entity.currency }
}

#[async_trait]
impl PaymentGateway for RazorpayGateway {
    fn checkout(&self) -> CheckoutConfig {
        CheckoutConfig { key_id: self.config.key_id.clone(), script_url: self.config.checkout_script_url.clone() }
    }

    async fn create_order(&self, order: &NewPaymentOrder) -> Result<PaymentOrder, PaymentError> {
        let body = NewOrderBody {
            amount: order.amount.paise(),
            currency: order.currency.clone(),
            receipt: order.receipt.clone(),
            payment_capture: Some(true),
        };
        let created: OrderEntity = self.call(self.http.post(format!("{}/v1/orders", self.base)).json(&body)).await?;
        Ok(order_from(created))
    }

    async fn payment(&self, id: &PaymentId) -> Result<Payment, PaymentError> {
        known_shape(&id.0, "pay_")?;
        let entity: PaymentEntity = self.call(self.http.get(format!("{}/v1/payments/{}", self.base, id.0))).await?;
        payment_from(entity)
    }

    async fn capture(&self, id: &PaymentId, amount: Money) -> Result<Payment, PaymentError> {
        known_shape(&id.0, "pay_")?;
        let body = CaptureBody { amount: amount.paise(), currency: protocol::SHOP_CURRENCY.to_owned() };
        let url = format!("{}/v1/payments/{}/capture", self.base, id.0);
        match self.call::<PaymentEntity>(self.http.post(url).json(&body)).await {
            Ok(entity) => payment_from(entity),
            Err(refused @ PaymentError::Refused { .. }) => {
                // Already captured (automatically, or by an earlier try whose answer was lost)?
                match self.payment(id).await {
                    Ok(payment) if payment.state == PaymentState::Captured && payment.amount == amount => Ok(payment),
                    _ => Err(refused),
                }
            }
            Err(e) => Err(e),
        }
    }

    async fn order_payments(&self, order: &PaymentOrderId) -> Result<Vec<Payment>, PaymentError> {
        known_shape(&order.0, "order_")?;
        let url = format!("{}/v1/orders/{}/payments", self.base, order.0);
        let list: Collection<PaymentEntity> = self.call(self.http.get(url)).await?;
        list.items.into_iter().map(payment_from).collect()
    }

    async fn refund(&self, payment: &PaymentId, refund: &NewRefund) -> Result<Refund, PaymentError> {
        known_shape(&payment.0, "pay_")?;
        let body = refund_body(refund)?;
        let request = self
            .http
            .post(format!("{}/v1/payments/{}/refund", self.base, payment.0))
            .header(protocol::REFUND_IDEMPOTENCY_HEADER, &refund.idempotency_key)
            .json(&body);
        refund_from(self.call(request).await?)
    }

    async fn fetch_refund(&self, id: &RefundId) -> Result<Refund, PaymentError> {
        known_shape(&id.0, "rfnd_")?;
        refund_from(self.call(self.http.get(format!("{}/v1/refunds/{}", self.base, id.0))).await?)
    }

    async fn refunds(&self, payment: &PaymentId) -> Result<Vec<Refund>, PaymentError> {
        known_shape(&payment.0, "pay_")?;
        let url = format!("{}/v1/payments/{}/refunds", self.base, payment.0);
        let list: Collection<RefundEntity> = self.call(self.http.get(url)).await?;
        list.items.into_iter().map(refund_from).collect()
    }

    fn verify_payment(
        &self,
        order_id: &PaymentOrderId,
        payment_id: &PaymentId,
        signature: &str,
    ) -> Result<(), PaymentError> {
        protocol::verify_payment(self.config.key_secret.expose_secret(), order_id, payment_id, signature)
    }

    fn read_webhook(
        &self,
        body: &[u8],
        signature: &str,
        event_id: Option<String>,
    ) -> Result<PaymentEvent, PaymentError> {
        protocol::read_webhook(self.config.webhook_secret.expose_secret(), body, signature, event_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_stay_out_of_debug_output() {
        let config = RazorpayConfig::new(
            "rzp_test_k",
            SecretString::from("key-secret-xyz"),
            SecretString::from("hook-secret-xyz"),
        );
        let gateway = RazorpayGateway::new(config).expect("valid");
        let printed = format!("{gateway:?}");
        assert!(printed.contains("rzp_test_k"));
        assert!(!printed.contains("key-secret-xyz") && !printed.contains("hook-secret-xyz"), "{printed}");
    }

    #[test]
    fn a_bad_configuration_is_refused() {
        let config = || RazorpayConfig::new("rzp_test_k", SecretString::from("s"), SecretString::from("w"));
        let bad_url = RazorpayConfig { base_url: "ftp://x".to_owned(), ..config() };
        assert_eq!(RazorpayGateway::new(bad_url).map(drop), Err(RazorpayConfigError::BaseUrl("ftp://x".to_owned())));
        let no_secret = RazorpayConfig { key_secret: SecretString::from(" "), ..config() };
        assert_eq!(RazorpayGateway::new(no_secret).map(drop), Err(RazorpayConfigError::Missing("key_secret")));
    }
}
