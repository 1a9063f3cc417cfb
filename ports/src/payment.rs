//! The payment provider: card payments through Razorpay's protocol.
//!
//! The shop creates a provider order for the amount it priced itself, the shopper pays in the
//! provider's checkout, and the provider reports the payment twice: to the browser (a signed
//! handler response) and to the server (a signed webhook). Signatures are checked here, by the
//! adapter that holds the secrets, so no secret leaves it.
//!
//! Money is the shop's only once the payment is **captured**. Provider orders are created with
//! automatic capture on, but an authorized payment can stay uncaptured (automatic capture off on
//! the account, a late authorization), so the shop captures what it places ([`PaymentGateway::capture`])
//! and places only on a captured payment. Refunds ([`PaymentGateway::refund`]) are full or partial,
//! in paise, and idempotent by a key the shop chooses.

use std::collections::BTreeMap;

use async_trait::async_trait;
use marque_domain::Money;

/// The provider's order id (`order_…`), created for one checkout.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PaymentOrderId(pub String);

/// The provider's payment id (`pay_…`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PaymentId(pub String);

/// The provider's refund id (`rfnd_…`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RefundId(pub String);

/// What the shop asks the provider to collect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPaymentOrder {
    /// What to collect, in paise (always positive).
    pub amount: Money,
    /// ISO 4217; the shop only collects `INR`.
    pub currency: String,
    /// The shop's own reference, at most 40 characters.
    pub receipt: String,
}

/// A provider order as created (with automatic capture of its payment requested).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentOrder {
    pub id: PaymentOrderId,
    /// In paise.
    pub amount: Money,
    pub currency: String,
}

/// Where a payment stands at the provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentState {
    Created,
    /// The bank approved it, but the money is not the shop's yet: it must be captured (automatically,
    /// or by [`PaymentGateway::capture`]); an authorization never captured is returned to the shopper.
    Authorized,
    /// The money is the shop's (a partial refund leaves a payment captured).
    Captured,
    /// Refunded in full.
    Refunded,
    Failed,
}

impl PaymentState {
    /// Whether the money is the shop's: captured. An authorized payment is not paid (yet).
    #[must_use]
    pub fn is_paid(self) -> bool {
        matches!(self, PaymentState::Captured)
    }
}

/// A payment as the provider reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payment {
    pub id: PaymentId,
    pub order_id: PaymentOrderId,
    /// In paise.
    pub amount: Money,
    pub currency: String,
    pub state: PaymentState,
}

/// A refund the shop asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRefund {
    /// In paise: the payment's whole amount for a full refund, less for a partial one; at least 100.
    pub amount: Money,
    /// Chosen by the shop, the same for every retry of this refund (e.g. `refund-{order}-{reason}`):
    /// the provider makes one refund per key. 10 to 64 characters: letters, digits, `-` and `_`
    /// (Razorpay's `X-Refund-Idempotency`).
    pub idempotency_key: String,
    /// The shop's notes kept with the refund (Razorpay: at most 15, each value at most 256 characters).
    pub notes: BTreeMap<String, String>,
}

/// Where a refund stands at the provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefundStatus {
    /// Accepted; the bank has not confirmed it yet (`refund.processed` or `refund.failed` follows).
    Pending,
    /// The money is on its way back to the shopper.
    Processed,
    /// The provider could not refund it; the money stays with the shop.
    Failed,
}

/// A refund as the provider reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refund {
    pub id: RefundId,
    pub payment_id: PaymentId,
    /// In paise.
    pub amount: Money,
    pub status: RefundStatus,
}

/// A webhook whose signature checked out, reduced to what the shop acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentEvent {
    /// The provider's event id (`x-razorpay-event-id`), for de-duplication; when the provider sent
    /// none, a digest of the body stands in.
    pub id: String,
    pub kind: PaymentEventKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentEventKind {
    /// `payment.authorized`: the bank approved this payment, but it is not captured yet. Not paid:
    /// the shop captures it ([`PaymentGateway::capture`]) and places the order once it is captured.
    Authorized { order_id: PaymentOrderId, payment_id: PaymentId, amount: Money },
    /// `payment.captured` or `order.paid`: the order is paid by this payment, captured.
    Paid { order_id: PaymentOrderId, payment_id: PaymentId, amount: Money },
    /// `payment.failed`: this attempt failed (the shopper may try again within the same order).
    Failed { order_id: PaymentOrderId, payment_id: PaymentId },
    /// `refund.processed`: `amount` paise of the order's payment are on their way back to the shopper.
    RefundProcessed { order_id: PaymentOrderId, payment_id: PaymentId, refund_id: RefundId, amount: Money },
    /// `refund.failed`: the provider could not make this refund.
    RefundFailed { order_id: PaymentOrderId, payment_id: PaymentId, refund_id: RefundId, amount: Money },
    /// Any other event: acknowledged and ignored (a refund event of a payment without an order too).
    Other { name: String },
}

/// What the browser needs to open the provider's checkout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckoutConfig {
    /// The public key id (`rzp_test_…` / `rzp_live_…`).
    pub key_id: String,
    /// Where the checkout script is loaded from.
    pub script_url: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PaymentError {
    /// The provider refused the request (bad amount, bad credentials, unknown id).
    #[error("the payment provider refused the request: {reason}")]
    Refused { reason: String },
    /// A signature did not match, or a signed body could not be read.
    #[error("the payment signature is not valid")]
    BadSignature,
    /// The provider could not be reached or failed; the caller may retry later.
    #[error("the payment provider is unavailable: {reason}")]
    Unavailable { reason: String },
}

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait PaymentGateway: Send + Sync {
    /// What the browser's checkout needs: the public key and the script's address.
    fn checkout(&self) -> CheckoutConfig;

    /// Creates a provider order for `order.amount` paise, asking for automatic capture of its
    /// payment (Razorpay's `payment_capture`).
    ///
    /// # Errors
    /// MUST return [`PaymentError::Refused`] for an amount below 100 paise (the provider's minimum)
    /// or a receipt over 40 characters; [`PaymentError::Unavailable`] when the provider cannot be reached.
    async fn create_order(&self, order: &NewPaymentOrder) -> Result<PaymentOrder, PaymentError>;

    /// The payment as the provider has it now.
    ///
    /// # Errors
    /// MUST return [`PaymentError::Refused`] for an unknown payment id; [`PaymentError::Unavailable`].
    async fn payment(&self, id: &PaymentId) -> Result<Payment, PaymentError>;

    /// Captures an authorized payment for `amount` paise (its whole amount): the money becomes the
    /// shop's. Idempotent: a payment already captured for `amount` is answered as it stands.
    ///
    /// # Errors
    /// MUST return [`PaymentError::Refused`] for an unknown payment id, a payment that is neither
    /// authorized nor captured (created, failed, refunded), or an `amount` other than the payment's;
    /// [`PaymentError::Unavailable`] when the provider cannot be reached (retry: capture is idempotent).
    async fn capture(&self, id: &PaymentId, amount: Money) -> Result<Payment, PaymentError>;

    /// Every payment attempted for a provider order, as the provider has each now (failed ones too);
    /// empty for an order nobody tried to pay.
    ///
    /// # Errors
    /// MUST return [`PaymentError::Refused`] for an unknown order id; [`PaymentError::Unavailable`].
    async fn order_payments(&self, order: &PaymentOrderId) -> Result<Vec<Payment>, PaymentError>;

    /// Refunds `refund.amount` paise of a captured payment. Idempotent by `refund.idempotency_key`:
    /// a retry with the same key (and the same payment and amount) answers the refund already made,
    /// never a second one. The refunds of a payment never total more than it captured.
    ///
    /// # Errors
    /// MUST return [`PaymentError::Refused`] for an unknown payment id, a payment not captured, an
    /// amount below 100 paise or above what is left to refund, an empty or malformed key, or a key
    /// already used for another payment or amount; [`PaymentError::Unavailable`] when the provider
    /// cannot be reached (retry with the same key).
    async fn refund(&self, payment: &PaymentId, refund: &NewRefund) -> Result<Refund, PaymentError>;

    /// A refund as the provider has it now.
    ///
    /// # Errors
    /// MUST return [`PaymentError::Refused`] for an unknown refund id; [`PaymentError::Unavailable`].
    async fn fetch_refund(&self, id: &RefundId) -> Result<Refund, PaymentError>;

    /// Every refund of a payment; empty when it has none.
    ///
    /// # Errors
    /// MUST return [`PaymentError::Refused`] for an unknown payment id; [`PaymentError::Unavailable`].
    async fn refunds(&self, payment: &PaymentId) -> Result<Vec<Refund>, PaymentError>;

    /// Checks the browser's handler response: `signature` MUST be the hex HMAC-SHA256, keyed with the
    /// key secret, of `order_id|payment_id`, compared in constant time.
    ///
    /// # Errors
    /// [`PaymentError::BadSignature`] when it is not.
    fn verify_payment(
        &self,
        order_id: &PaymentOrderId,
        payment_id: &PaymentId,
        signature: &str,
    ) -> Result<(), PaymentError>;

    /// Checks a webhook: `signature` (`X-Razorpay-Signature`) MUST be the hex HMAC-SHA256 of the raw
    /// `body`, keyed with the webhook secret, compared in constant time; then reads the event.
    /// `event_id` is the `x-razorpay-event-id` header when sent.
    ///
    /// # Errors
    /// [`PaymentError::BadSignature`] when the signature does not match or the body is not an event.
    fn read_webhook(
        &self,
        body: &[u8],
        signature: &str,
        event_id: Option<String>,
    ) -> Result<PaymentEvent, PaymentError>;
}
