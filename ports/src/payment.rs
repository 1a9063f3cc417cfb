//! The payment provider: card payments through Razorpay's protocol.
//!
//! The shop creates a provider order for the amount it priced itself, the shopper pays in the
//! provider's checkout, and the provider reports the payment twice: to the browser (a signed
//! handler response) and to the server (a signed webhook). Signatures are checked here, by the
//! adapter that holds the secrets, so no secret leaves it.

use async_trait::async_trait;
use marque_domain::Money;

/// The provider's order id (`order_…`), created for one checkout.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PaymentOrderId(pub String);

/// The provider's payment id (`pay_…`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PaymentId(pub String);

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

/// A provider order as created.
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
    /// The bank approved it; capture follows (automatic capture is the shop's setting).
    Authorized,
    /// The money is the shop's.
    Captured,
    Refunded,
    Failed,
}

impl PaymentState {
    /// Whether the shopper has paid: authorised or captured.
    #[must_use]
    pub fn is_paid(self) -> bool {
        matches!(self, PaymentState::Authorized | PaymentState::Captured)
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
    /// `payment.captured`, `payment.authorized` or `order.paid`: the order is paid by this payment.
    Paid { order_id: PaymentOrderId, payment_id: PaymentId, amount: Money },
    /// `payment.failed`: this attempt failed (the shopper may try again within the same order).
    Failed { order_id: PaymentOrderId, payment_id: PaymentId },
    /// Any other event: acknowledged and ignored.
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

    /// Creates a provider order for `order.amount` paise.
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

    /// Checks the browser's handler response: `signature` MUST be the hex HMAC-SHA256, keyed with the
    /// key secret, of `order_id|payment_id`, compared in constant time.
    ///
    /// # Errors
    /// [`PaymentError::BadSignature`] when it is not.
    fn verify_payment(&self, order_id: &PaymentOrderId, payment_id: &PaymentId, signature: &str)
        -> Result<(), PaymentError>;

    /// Checks a webhook: `signature` (`X-Razorpay-Signature`) MUST be the hex HMAC-SHA256 of the raw
    /// `body`, keyed with the webhook secret, compared in constant time; then reads the event.
    /// `event_id` is the `x-razorpay-event-id` header when sent.
    ///
    /// # Errors
    /// [`PaymentError::BadSignature`] when the signature does not match or the body is not an event.
    fn read_webhook(&self, body: &[u8], signature: &str, event_id: Option<String>) -> Result<PaymentEvent, PaymentError>;
}
