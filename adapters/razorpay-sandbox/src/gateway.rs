//! The [`PaymentGateway`] over a [`Sandbox`] in process: what `RazorpayGateway` does over HTTP,
//! with the same refusals and the same signature checks, without a request to itself.

use async_trait::async_trait;
use marque_domain::Money;
use marque_ports::{
    CheckoutConfig, NewPaymentOrder, NewRefund, Payment, PaymentError, PaymentEvent, PaymentGateway, PaymentId,
    PaymentOrder, PaymentOrderId, PaymentState, Refund, RefundId,
};
use marque_razorpay::protocol::{self, CaptureBody, NewOrderBody};
use marque_razorpay::{order_from, payment_from, refund_body, refund_from};
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
        let body = NewOrderBody {
            amount: order.amount.paise(),
            currency: order.currency.clone(),
            receipt: order.receipt.clone(),
            payment_capture: Some(true),
        };
        self.sandbox.create_order(&body).map(order_from).map_err(refused)
    }

    async fn payment(&self, id: &PaymentId) -> Result<Payment, PaymentError> {
        payment_from(self.sandbox.payment(&id.0).map_err(refused)?)
    }

    async fn capture(&self, id: &PaymentId, amount: Money) -> Result<Payment, PaymentError> {
        let body = CaptureBody { amount: amount.paise(), currency: protocol::SHOP_CURRENCY.to_owned() };
        match self.sandbox.capture(&id.0, &body) {
            Ok(entity) => payment_from(entity),
            Err(refusal) => match self.payment(id).await {
                // Captured already (automatically, or by an earlier try): answered as it stands.
                Ok(payment) if payment.state == PaymentState::Captured && payment.amount == amount => Ok(payment),
                _ => Err(refused(refusal)),
            },
        }
    }

    async fn order_payments(&self, order: &PaymentOrderId) -> Result<Vec<Payment>, PaymentError> {
        self.sandbox.order_payments(&order.0).map_err(refused)?.items.into_iter().map(payment_from).collect()
    }

    async fn refund(&self, payment: &PaymentId, refund: &NewRefund) -> Result<Refund, PaymentError> {
        let body = refund_body(refund)?;
        refund_from(self.sandbox.refund(&payment.0, &body, Some(&refund.idempotency_key)).map_err(refused)?)
    }

    async fn fetch_refund(&self, id: &RefundId) -> Result<Refund, PaymentError> {
        refund_from(self.sandbox.refund_entity(&id.0).map_err(refused)?)
    }

    async fn refunds(&self, payment: &PaymentId) -> Result<Vec<Refund>, PaymentError> {
        self.sandbox.payment_refunds(&payment.0).map_err(refused)?.items.into_iter().map(refund_from).collect()
    }

    fn verify_payment(
        &self,
        order_id: &PaymentOrderId,
        payment_id: &PaymentId,
        signature: &str,
    ) -> Result<(), PaymentError> {
        protocol::verify_payment(self.sandbox.config().key_secret.expose_secret(), order_id, payment_id, signature)
    }

    fn read_webhook(
        &self,
        body: &[u8],
        signature: &str,
        event_id: Option<String>,
    ) -> Result<PaymentEvent, PaymentError> {
        protocol::read_webhook(self.sandbox.config().webhook_secret.expose_secret(), body, signature, event_id)
    }
}
