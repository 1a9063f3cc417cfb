//! The [`PaymentGateway`] over a [`Sandbox`] in process: what `RazorpayGateway` does over HTTP,
//! with the same refusals and the same signature checks, without a request to itself.

use async_trait::async_trait;
use marque_ports::{
    CheckoutConfig, NewPaymentOrder, Payment, PaymentError, PaymentEvent, PaymentGateway, PaymentId, PaymentOrder,
    PaymentOrderId,
};
use marque_razorpay::protocol::{self, NewOrderBody};
use marque_razorpay::{order_from, payment_from};
use secrecy::ExposeSecret;

use crate::{Refusal, Sandbox};

/// The sandbox as the shop's payment gateway (`dev` only).
#[derive(Debug, Clone)]
pub struct SandboxGateway {
    sandbox: Sandbox,
}

impl SandboxGateway {
    #[must_use]
    pub fn new(sandbox: Sandbox) -> Self {
        Self { sandbox }
    }
}

fn refused(refusal: Refusal) -> PaymentError {
    PaymentError::Refused { reason: refusal.description }
}

#[async_trait]
impl PaymentGateway for SandboxGateway {
    fn checkout(&self) -> CheckoutConfig {
        let config = self.sandbox.config();
        CheckoutConfig { key_id: config.key_id.clone(), script_url: format!("{}/checkout.js", config.public_base) }
    }

    async fn create_order(&self, order: &NewPaymentOrder) -> Result<PaymentOrder, PaymentError> {
        let body = NewOrderBody { amount: order.amount.paise(), currency: order.currency.clone(), receipt: order.receipt.clone() };
        self.sandbox.create_order(&body).map(order_from).map_err(refused)
    }

    async fn payment(&self, id: &PaymentId) -> Result<Payment, PaymentError> {
        payment_from(self.sandbox.payment(&id.0).map_err(refused)?)
    }

    fn verify_payment(&self, order_id: &PaymentOrderId, payment_id: &PaymentId, signature: &str) -> Result<(), PaymentError> {
        protocol::verify_payment(self.sandbox.config().key_secret.expose_secret(), order_id, payment_id, signature)
    }

    fn read_webhook(&self, body: &[u8], signature: &str, event_id: Option<String>) -> Result<PaymentEvent, PaymentError> {
        protocol::read_webhook(self.sandbox.config().webhook_secret.expose_secret(), body, signature, event_id)
    }
}
