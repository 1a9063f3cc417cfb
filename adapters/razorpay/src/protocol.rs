//! Razorpay's wire format and signatures: what the gateway reads and what the sandbox writes.
//!
//! Both sides use these definitions so the sandbox cannot drift from the gateway; the contract
//! suite computes signatures independently, so a mistake here cannot hide on both sides at once.

use hmac::{Hmac, Mac};
use marque_domain::Money;
use marque_ports::{
    PaymentError, PaymentEvent, PaymentEventKind, PaymentId, PaymentOrderId, PaymentState, RefundId, RefundStatus,
};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

type HmacSha256 = Hmac<Sha256>;

/// Razorpay's smallest order, in paise (₹1).
pub const MIN_AMOUNT_PAISE: i64 = 100;
/// The longest `receipt` Razorpay accepts, in characters.
pub const MAX_RECEIPT_CHARS: usize = 40;
/// The only currency the shop collects (what a capture is made in).
pub const SHOP_CURRENCY: &str = "INR";
/// The `error.code` of every refusal the shop can cause.
pub const BAD_REQUEST: &str = "BAD_REQUEST_ERROR";
/// Razorpay's words for an id it does not know.
pub const UNKNOWN_ID: &str = "The id provided does not exist";

/// `POST /v1/orders` body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewOrderBody {
    pub amount: i64,
    pub currency: String,
    #[serde(default)]
    pub receipt: String,
    /// Whether the order's payment is captured automatically once authorized (`true`, `1` or `"1"`;
    /// Razorpay's SDKs send `1`/`0`). The shop always asks for it.
    #[serde(default, deserialize_with = "flag", skip_serializing_if = "Option::is_none")]
    pub payment_capture: Option<bool>,
}

/// `POST /v1/payments/{id}/capture` body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaptureBody {
    pub amount: i64,
    pub currency: String,
}

/// `POST /v1/payments/{id}/refund` body (the idempotency key is the `X-Refund-Idempotency` header).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RefundBody {
    /// In paise; the whole unrefunded amount when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<i64>,
    /// `normal` or `optimum`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<serde_json::Value>,
}

/// The header that makes a refund request idempotent.
pub const REFUND_IDEMPOTENCY_HEADER: &str = "X-Refund-Idempotency";

/// Whether `key` is an idempotency key Razorpay accepts: at least 10 characters, letters, digits,
/// `-` and `_` (and at most 64, the shop's own bound).
#[must_use]
pub fn is_idempotency_key(key: &str) -> bool {
    (10..=64).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A flag as Razorpay's clients send it: a JSON boolean, `0`/`1`, or the same as a string.
fn flag<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<bool>, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(deserializer)?;
    Ok(match value {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::Bool(flag)) => Some(flag),
        Some(serde_json::Value::Number(n)) if n.as_i64() == Some(1) => Some(true),
        Some(serde_json::Value::Number(n)) if n.as_i64() == Some(0) => Some(false),
        Some(serde_json::Value::String(s)) if matches!(s.as_str(), "1" | "true") => Some(true),
        Some(serde_json::Value::String(s)) if matches!(s.as_str(), "0" | "false") => Some(false),
        Some(other) => return Err(serde::de::Error::custom(format!("payment_capture must be a boolean, not {other}"))),
    })
}

/// An order as Razorpay answers it (`entity: "order"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrderEntity {
    pub id: String,
    #[serde(default)]
    pub entity: String,
    pub amount: i64,
    #[serde(default)]
    pub amount_paid: i64,
    #[serde(default)]
    pub amount_due: i64,
    pub currency: String,
    #[serde(default)]
    pub receipt: Option<String>,
    /// `created`, `attempted` or `paid`.
    #[serde(default)]
    pub status: String,
    #[serde(default)]
    pub attempts: u32,
    #[serde(default)]
    pub notes: serde_json::Value,
    #[serde(default)]
    pub created_at: i64,
}

/// A payment as Razorpay answers it (`entity: "payment"`); only the fields the shop reads are
/// required.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PaymentEntity {
    pub id: String,
    #[serde(default)]
    pub entity: String,
    pub amount: i64,
    pub currency: String,
    /// `created`, `authorized`, `captured`, `refunded` or `failed`.
    pub status: String,
    #[serde(default)]
    pub order_id: Option<String>,
    #[serde(default)]
    pub method: Option<String>,
    #[serde(default)]
    pub captured: bool,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub contact: Option<String>,
    /// In paise; what refunds have returned so far.
    #[serde(default)]
    pub amount_refunded: i64,
    /// `null`, `partial` or `full`.
    #[serde(default)]
    pub refund_status: Option<String>,
    #[serde(default)]
    pub error_code: Option<String>,
    #[serde(default)]
    pub error_description: Option<String>,
    #[serde(default)]
    pub error_source: Option<String>,
    #[serde(default)]
    pub error_step: Option<String>,
    #[serde(default)]
    pub error_reason: Option<String>,
    #[serde(default)]
    pub created_at: i64,
}

/// A refund as Razorpay answers it (`entity: "refund"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RefundEntity {
    pub id: String,
    #[serde(default)]
    pub entity: String,
    pub amount: i64,
    #[serde(default)]
    pub currency: String,
    pub payment_id: String,
    #[serde(default)]
    pub notes: serde_json::Value,
    #[serde(default)]
    pub receipt: Option<String>,
    #[serde(default)]
    pub acquirer_data: serde_json::Value,
    #[serde(default)]
    pub created_at: i64,
    #[serde(default)]
    pub batch_id: Option<String>,
    /// `pending`, `processed` or `failed`.
    pub status: String,
    #[serde(default)]
    pub speed_processed: Option<String>,
    #[serde(default)]
    pub speed_requested: Option<String>,
}

/// A list as Razorpay answers it: `{"entity": "collection", "count": n, "items": [...]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Collection<T> {
    #[serde(default)]
    pub entity: String,
    #[serde(default)]
    pub count: usize,
    pub items: Vec<T>,
}

impl<T> Collection<T> {
    /// Razorpay's collection of `items`.
    #[must_use]
    pub fn of(items: Vec<T>) -> Self {
        Self { entity: "collection".to_owned(), count: items.len(), items }
    }
}

/// Razorpay's error answer: `{"error": {"code": "BAD_REQUEST_ERROR", "description": …}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorDetail {
    pub code: String,
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<serde_json::Value>,
}

impl ErrorBody {
    /// A `BAD_REQUEST_ERROR` with Razorpay's description.
    #[must_use]
    pub fn bad_request(description: impl Into<String>) -> Self {
        Self {
            error: ErrorDetail {
                code: BAD_REQUEST.to_owned(),
                description: description.into(),
                source: None,
                step: None,
                reason: None,
                metadata: None,
            },
        }
    }
}

/// A webhook's body: `{"entity": "event", "event": "payment.captured", "contains": [...],
/// "payload": {"payment": {"entity": {...}}, "order": {"entity": {...}}}, ...}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventBody {
    #[serde(default)]
    pub entity: String,
    #[serde(default)]
    pub account_id: String,
    pub event: String,
    #[serde(default)]
    pub contains: Vec<String>,
    pub payload: EventPayload,
    #[serde(default)]
    pub created_at: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventPayload {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment: Option<Wrapped<PaymentEntity>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Wrapped<OrderEntity>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refund: Option<Wrapped<RefundEntity>>,
}

/// Razorpay wraps each entity of a payload as `{"entity": {...}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Wrapped<T> {
    pub entity: T,
}

/// The port's state for a payment `status`, `None` for a status Razorpay has not documented.
#[must_use]
pub fn payment_state(status: &str) -> Option<PaymentState> {
    Some(match status {
        "created" => PaymentState::Created,
        "authorized" => PaymentState::Authorized,
        "captured" => PaymentState::Captured,
        "refunded" => PaymentState::Refunded,
        "failed" => PaymentState::Failed,
        _ => return None,
    })
}

/// The `status` Razorpay writes for a state.
#[must_use]
pub fn status_name(state: PaymentState) -> &'static str {
    match state {
        PaymentState::Created => "created",
        PaymentState::Authorized => "authorized",
        PaymentState::Captured => "captured",
        PaymentState::Refunded => "refunded",
        PaymentState::Failed => "failed",
    }
}

/// The port's status for a refund `status`, `None` for a status Razorpay has not documented.
#[must_use]
pub fn refund_status(status: &str) -> Option<RefundStatus> {
    Some(match status {
        "pending" => RefundStatus::Pending,
        "processed" => RefundStatus::Processed,
        "failed" => RefundStatus::Failed,
        _ => return None,
    })
}

/// The `status` Razorpay writes for a refund's status.
#[must_use]
pub fn refund_status_name(status: RefundStatus) -> &'static str {
    match status {
        RefundStatus::Pending => "pending",
        RefundStatus::Processed => "processed",
        RefundStatus::Failed => "failed",
    }
}

/// Whether `id` is `prefix` followed by letters and digits only: safe to put in a URL path.
#[must_use]
pub fn is_entity_id(id: &str, prefix: &str) -> bool {
    id.strip_prefix(prefix)
        .is_some_and(|rest| !rest.is_empty() && rest.len() <= 40 && rest.bytes().all(|b| b.is_ascii_alphanumeric()))
}

fn mac(key: &str, message: &[u8]) -> HmacSha256 {
    let mut mac = HmacSha256::new_from_slice(key.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(message);
    mac
}

/// Lower-case hex HMAC-SHA256 of `message` under `key`.
#[must_use]
pub fn sign(key: &str, message: &[u8]) -> String {
    hex::encode(mac(key, message).finalize().into_bytes())
}

/// Checks a hex HMAC-SHA256 in constant time.
///
/// # Errors
/// [`PaymentError::BadSignature`] when `signature` is not hex or not the MAC of `message`.
pub fn verify(key: &str, message: &[u8], signature: &str) -> Result<(), PaymentError> {
    let tag = hex::decode(signature).map_err(|_| PaymentError::BadSignature)?;
    mac(key, message).verify_slice(&tag).map_err(|_| PaymentError::BadSignature)
}

/// What Razorpay signs for the checkout's handler: `order_id|payment_id`.
#[must_use]
pub fn handler_message(order_id: &str, payment_id: &str) -> String {
    format!("{order_id}|{payment_id}")
}

/// Checks the checkout handler's `razorpay_signature` with the key secret.
///
/// # Errors
/// [`PaymentError::BadSignature`] when it is not the MAC of `order_id|payment_id`.
pub fn verify_payment(
    key_secret: &str,
    order_id: &PaymentOrderId,
    payment_id: &PaymentId,
    signature: &str,
) -> Result<(), PaymentError> {
    verify(key_secret, handler_message(&order_id.0, &payment_id.0).as_bytes(), signature)
}

/// SHA-256 of a body, hex: the event id of a webhook that came without one.
#[must_use]
pub fn body_digest(body: &[u8]) -> String {
    hex::encode(Sha256::digest(body))
}

/// Checks a webhook's signature with the webhook secret, then reads the event.
///
/// # Errors
/// [`PaymentError::BadSignature`] when the signature does not match, or when the body is not an
/// event (or a payment event without its payment).
pub fn read_webhook(
    webhook_secret: &str,
    body: &[u8],
    signature: &str,
    event_id: Option<String>,
) -> Result<PaymentEvent, PaymentError> {
    verify(webhook_secret, body, signature)?;
    let kind = event_kind(body).ok_or(PaymentError::BadSignature)?;
    let id = event_id.filter(|id| !id.is_empty()).unwrap_or_else(|| body_digest(body));
    Ok(PaymentEvent { id, kind })
}

/// Only the event's name is needed to decide how to read the rest.
#[derive(Deserialize)]
struct EventName {
    event: String,
}

fn event_kind(body: &[u8]) -> Option<PaymentEventKind> {
    let EventName { event } = serde_json::from_slice(body).ok()?;
    match event.as_str() {
        "payment.authorized" | "payment.captured" | "order.paid" | "payment.failed" => payment_event(&event, body),
        "refund.processed" | "refund.failed" => {
            Some(refund_event(&event, body)?.unwrap_or(PaymentEventKind::Other { name: event }))
        }
        _ => Some(PaymentEventKind::Other { name: event }),
    }
}

/// A payment's event; `None` when the body is not one.
fn payment_event(event: &str, body: &[u8]) -> Option<PaymentEventKind> {
    let parsed: EventBody = serde_json::from_slice(body).ok()?;
    let payment = parsed.payload.payment?.entity;
    let order_id = match (parsed.payload.order, payment.order_id) {
        (Some(order), _) => order.entity.id,
        (None, Some(order_id)) => order_id,
        (None, None) => return None,
    };
    let (order_id, payment_id, amount) =
        (PaymentOrderId(order_id), PaymentId(payment.id), Money::from_paise(payment.amount));
    Some(match event {
        "payment.authorized" => PaymentEventKind::Authorized { order_id, payment_id, amount },
        "payment.failed" => PaymentEventKind::Failed { order_id, payment_id },
        _ => PaymentEventKind::Paid { order_id, payment_id, amount },
    })
}

/// A refund's event (its payload holds the refund and its payment); `None` when the body is not
/// one, `Some(None)` for the refund of a payment that belongs to no order (not the shop's).
fn refund_event(event: &str, body: &[u8]) -> Option<Option<PaymentEventKind>> {
    let parsed: EventBody = serde_json::from_slice(body).ok()?;
    let refund = parsed.payload.refund?.entity;
    let order_id = parsed.payload.payment.and_then(|p| p.entity.order_id);
    let Some(order_id) = order_id else { return Some(None) };
    let (order_id, payment_id) = (PaymentOrderId(order_id), PaymentId(refund.payment_id));
    let (refund_id, amount) = (RefundId(refund.id), Money::from_paise(refund.amount));
    Some(Some(if event == "refund.processed" {
        PaymentEventKind::RefundProcessed { order_id, payment_id, refund_id, amount }
    } else {
        PaymentEventKind::RefundFailed { order_id, payment_id, refund_id, amount }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_match_a_vector_computed_elsewhere() {
        // printf 'order_A|pay_B' | openssl dgst -sha256 -hmac secret
        assert_eq!(
            sign("secret", handler_message("order_A", "pay_B").as_bytes()),
            "64302fe866b18d796052d1dcbf300cf4e855f198ec279dadef68c28610dd4844"
        );
    }

    #[test]
    fn verification_refuses_anything_but_the_whole_tag() {
        let good = sign("k", b"m");
        assert_eq!(verify("k", b"m", &good), Ok(()));
        assert_eq!(verify("k", b"m", &good.to_uppercase()), Ok(()), "hex is case-blind");
        for bad in ["", "zz", &good[..62], &format!("{good}00"), &sign("other", b"m")] {
            assert_eq!(verify("k", b"m", bad), Err(PaymentError::BadSignature), "{bad:?}");
        }
    }

    #[test]
    fn ids_safe_for_a_path() {
        assert!(is_entity_id("pay_29QQoUBi66xm2f", "pay_"));
        for bad in ["pay_", "order_x", "pay_../v1", "pay_a b", "pay_ä"] {
            assert!(!is_entity_id(bad, "pay_"), "{bad}");
        }
    }

    #[test]
    fn statuses_round_trip() {
        for state in [
            PaymentState::Created,
            PaymentState::Authorized,
            PaymentState::Captured,
            PaymentState::Refunded,
            PaymentState::Failed,
        ] {
            assert_eq!(payment_state(status_name(state)), Some(state));
        }
        assert_eq!(payment_state("pending"), None);
    }
}
