//! Captures and refunds, as Razorpay makes them: a payment is authorized, then captured (the
//! money is the shop's), then refunded in full or in parts that never total more than it captured.

use std::collections::HashMap;

use marque_razorpay::protocol::{self, CaptureBody, Collection, PaymentEntity, RefundBody, RefundEntity};

use crate::webhooks::WebhookEvent;
use crate::{lock, new_id, now, Refusal, Sandbox, State};

/// How the sandbox's bank settles the refunds made from now on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RefundOutcome {
    /// At once: `refund.processed` (the default).
    #[default]
    Processed,
    /// At once: `refund.failed`; the amount may be refunded again.
    Failed,
    /// Not yet: the refund stays `pending` until [`Sandbox::settle_refund`].
    Pending,
}

fn unknown() -> Refusal {
    Refusal::bad_request(protocol::UNKNOWN_ID)
}

impl Sandbox {
    /// How the refunds made from now on are settled (processed at once by default).
    pub fn set_refund_outcome(&self, outcome: RefundOutcome) {
        *lock(&self.inner.refund_outcome) = outcome;
    }

    /// `GET /v1/orders/{id}/payments`: every payment attempted for the order, newest first.
    ///
    /// # Errors
    /// A 400 [`Refusal`] for an unknown order.
    pub fn order_payments(&self, order_id: &str) -> Result<Collection<PaymentEntity>, Refusal> {
        let state = lock(&self.inner.state);
        if !state.orders.contains_key(order_id) {
            return Err(unknown());
        }
        Ok(newest_first(state.order_payments.get(order_id), &state.payments))
    }

    /// `POST /v1/payments/{id}/capture`: an authorized payment, for its whole amount, becomes the
    /// shop's; its order is paid.
    ///
    /// # Errors
    /// A 400 [`Refusal`] for an unknown payment, one already captured or not authorized, or an
    /// amount or currency other than the payment's.
    pub fn capture(&self, payment_id: &str, request: &CaptureBody) -> Result<PaymentEntity, Refusal> {
        let mut events = Vec::new();
        let captured = {
            let mut state = lock(&self.inner.state);
            let payment = state.payments.get(payment_id).ok_or_else(unknown)?;
            if payment.captured {
                return Err(Refusal::bad_request("This payment has already been captured"));
            }
            if payment.status != "authorized" {
                return Err(Refusal::bad_request(
                    "Only payments which have been authorized and not yet captured can be captured",
                ));
            }
            if request.amount != payment.amount {
                return Err(Refusal::bad_request("Capture amount must be equal to the amount authorized"));
            }
            if request.currency != payment.currency {
                return Err(Refusal::bad_request("The currency should be same as the payment currency"));
            }
            self.capture_in(&mut state, payment_id, &mut events)
        };
        self.dispatch(events);
        captured.ok_or_else(unknown)
    }

    /// Captures an authorized payment and pays its order, adding `payment.captured` and
    /// `order.paid` to `events`: the payment as captured.
    pub(crate) fn capture_in(
        &self,
        state: &mut State,
        payment_id: &str,
        events: &mut Vec<WebhookEvent>,
    ) -> Option<PaymentEntity> {
        let payment = state.payments.get_mut(payment_id)?;
        payment.status = "captured".to_owned();
        payment.captured = true;
        let payment = payment.clone();
        events.push(self.payment_event("payment.captured", &payment, None));
        if let Some(order) = payment.order_id.as_ref().and_then(|id| state.orders.get_mut(id)) {
            order.status = "paid".to_owned();
            order.amount_paid = order.amount;
            order.amount_due = 0;
            events.push(self.payment_event("order.paid", &payment, Some(&order.clone())));
        }
        Some(payment)
    }

    /// `POST /v1/payments/{id}/refund` with `X-Refund-Idempotency: key` when given: refunds
    /// `amount` paise (all that is left when absent). A retry with the same key and body answers
    /// the refund that key made.
    ///
    /// # Errors
    /// A 400 [`Refusal`] for an unknown payment, one not captured or refunded in full, an amount
    /// below 100 paise or above what is left, a malformed key, or a key used for another request.
    pub fn refund(&self, payment_id: &str, request: &RefundBody, key: Option<&str>) -> Result<RefundEntity, Refusal> {
        let mut events = Vec::new();
        let refund = {
            let mut state = lock(&self.inner.state);
            if let Some(key) = key {
                if !protocol::is_idempotency_key(key) {
                    return Err(Refusal::bad_request(
                        "The idempotency key must be at least 10 characters: alphabets, numbers, hyphens and underscores only",
                    ));
                }
                if let Some((payment, earlier, refund_id)) = state.refund_keys.get(key) {
                    if payment != payment_id || earlier != request {
                        return Err(Refusal::bad_request(
                            "Different request with the same idempotency key has already been processed.",
                        ));
                    }
                    return state.refunds.get(refund_id).cloned().ok_or_else(unknown);
                }
            }
            let refund = self.new_refund(&mut state, payment_id, request, &mut events)?;
            if let Some(key) = key {
                state.refund_keys.insert(key.to_owned(), (payment_id.to_owned(), request.clone(), refund.id.clone()));
            }
            refund
        };
        self.dispatch(events);
        Ok(refund)
    }

    fn new_refund(
        &self,
        state: &mut State,
        payment_id: &str,
        request: &RefundBody,
        events: &mut Vec<WebhookEvent>,
    ) -> Result<RefundEntity, Refusal> {
        let payment = state.payments.get_mut(payment_id).ok_or_else(unknown)?;
        if payment.status == "refunded" {
            return Err(Refusal::bad_request("The payment has been fully refunded already"));
        }
        if payment.status != "captured" {
            return Err(Refusal::bad_request("The payment status should be captured for action to be taken"));
        }
        let left = payment.amount - payment.amount_refunded;
        let amount = request.amount.unwrap_or(left);
        if amount < protocol::MIN_AMOUNT_PAISE {
            return Err(Refusal::bad_request("The amount must be atleast INR 1.00"));
        }
        if amount > left {
            return Err(Refusal::bad_request("The total refund amount is greater than the refund payment amount"));
        }
        if !matches!(request.speed.as_deref(), None | Some("normal" | "optimum")) {
            return Err(Refusal::bad_request("The selected speed is invalid."));
        }
        if request.receipt.as_ref().is_some_and(|r| r.chars().count() > protocol::MAX_RECEIPT_CHARS) {
            return Err(Refusal::bad_request("receipt: the length must be no more than 40."));
        }
        let notes = match &request.notes {
            None => serde_json::json!([]),
            Some(serde_json::Value::Object(notes)) if notes.len() > 15 => {
                return Err(Refusal::bad_request("Number of fields in notes should be less than or equal to 15"));
            }
            Some(notes @ (serde_json::Value::Object(_) | serde_json::Value::Array(_))) => notes.clone(),
            Some(_) => return Err(Refusal::bad_request("notes must be an object")),
        };
        payment.amount_refunded += amount;
        refund_standing(payment);
        let refund = RefundEntity {
            id: new_id("rfnd_"),
            entity: "refund".to_owned(),
            amount,
            currency: payment.currency.clone(),
            payment_id: payment.id.clone(),
            notes,
            receipt: request.receipt.clone(),
            acquirer_data: serde_json::json!({ "arn": null }),
            created_at: now(),
            batch_id: None,
            status: "pending".to_owned(),
            speed_processed: None,
            speed_requested: Some(request.speed.clone().unwrap_or_else(|| "normal".to_owned())),
        };
        let payment = payment.clone();
        events.push(self.refund_event("refund.created", &refund, &payment));
        state.payment_refunds.entry(payment.id.clone()).or_default().push(refund.id.clone());
        state.refunds.insert(refund.id.clone(), refund.clone());
        let outcome = *lock(&self.inner.refund_outcome);
        Ok(match outcome {
            RefundOutcome::Pending => refund,
            RefundOutcome::Processed | RefundOutcome::Failed => {
                self.settle_in(state, &refund.id, outcome == RefundOutcome::Processed, events).ok_or_else(unknown)?
            }
        })
    }

    /// The sandbox's bank settles a pending refund: processed, or failed (its amount may then be
    /// refunded again). `refund.processed` or `refund.failed` goes out.
    ///
    /// # Errors
    /// A 400 [`Refusal`] for an unknown refund or one already settled.
    pub fn settle_refund(&self, refund_id: &str, processed: bool) -> Result<RefundEntity, Refusal> {
        let mut events = Vec::new();
        let settled = {
            let mut state = lock(&self.inner.state);
            let refund = state.refunds.get(refund_id).ok_or_else(unknown)?;
            if refund.status != "pending" {
                return Err(Refusal::bad_request("The refund has been settled already"));
            }
            self.settle_in(&mut state, refund_id, processed, &mut events)
        };
        self.dispatch(events);
        settled.ok_or_else(unknown)
    }

    fn settle_in(
        &self,
        state: &mut State,
        refund_id: &str,
        processed: bool,
        events: &mut Vec<WebhookEvent>,
    ) -> Option<RefundEntity> {
        let refund = state.refunds.get_mut(refund_id)?;
        refund.status = if processed { "processed" } else { "failed" }.to_owned();
        if processed {
            refund.speed_processed = Some("normal".to_owned());
            refund.acquirer_data = serde_json::json!({ "arn": format!("7{}", &refund.id[5..]) });
        }
        let refund = refund.clone();
        let payment = state.payments.get_mut(&refund.payment_id)?;
        if !processed {
            payment.amount_refunded -= refund.amount;
            refund_standing(payment);
        }
        let payment = payment.clone();
        events.push(self.refund_event(if processed { "refund.processed" } else { "refund.failed" }, &refund, &payment));
        Some(refund)
    }

    /// `GET /v1/refunds/{id}`.
    ///
    /// # Errors
    /// A 400 [`Refusal`] for an unknown refund.
    pub fn refund_entity(&self, refund_id: &str) -> Result<RefundEntity, Refusal> {
        lock(&self.inner.state).refunds.get(refund_id).cloned().ok_or_else(unknown)
    }

    /// `GET /v1/payments/{id}/refunds/{refund_id}`: the refund, when it is the payment's.
    ///
    /// # Errors
    /// A 400 [`Refusal`] for an unknown refund or one of another payment.
    pub fn payment_refund(&self, payment_id: &str, refund_id: &str) -> Result<RefundEntity, Refusal> {
        self.refund_entity(refund_id).and_then(|r| if r.payment_id == payment_id { Ok(r) } else { Err(unknown()) })
    }

    /// `GET /v1/payments/{id}/refunds`: the payment's refunds, newest first.
    ///
    /// # Errors
    /// A 400 [`Refusal`] for an unknown payment.
    pub fn payment_refunds(&self, payment_id: &str) -> Result<Collection<RefundEntity>, Refusal> {
        let state = lock(&self.inner.state);
        if !state.payments.contains_key(payment_id) {
            return Err(unknown());
        }
        Ok(newest_first(state.payment_refunds.get(payment_id), &state.refunds))
    }
}

/// The entities `ids` names (oldest first), newest first as Razorpay lists them.
fn newest_first<T: Clone>(ids: Option<&Vec<String>>, all: &HashMap<String, T>) -> Collection<T> {
    let ids = ids.map(Vec::as_slice).unwrap_or_default();
    Collection::of(ids.iter().rev().filter_map(|id| all.get(id).cloned()).collect())
}

/// A payment's `refund_status` and `status` for what its refunds returned so far.
fn refund_standing(payment: &mut PaymentEntity) {
    let (status, refund_status) = match payment.amount_refunded {
        0 => ("captured", None),
        refunded if refunded >= payment.amount => ("refunded", Some("full")),
        _ => ("captured", Some("partial")),
    };
    payment.status = status.to_owned();
    payment.refund_status = refund_status.map(str::to_owned);
}
