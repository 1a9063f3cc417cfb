//! The shop's cancellations and refunds of placed orders (roles owner, fulfilment).
//!
//! What a refund gives back is the domain's rule ([`Refundable`]); the order store records it with
//! its stock entries, timeline row and audit record in one transaction, and refuses it when it would
//! take the order's refunds above what was paid (also when two staff members refund at once). Only
//! then is the payment provider asked, under a key made of the refund and its attempt, so a repeated
//! call never pays twice. A refund the provider could not take now stays `requested` and is sent
//! again by [`RefundsService::settle_unsettled`] (the reconciliation pass); one it failed is shown
//! and can be retried ([`RefundsService::retry`]).
//!
//! An order paid partly or wholly with store credit: each refund gives back to the card first, never
//! more than the card paid (less what earlier refunds gave it), and the rest as a new grant of store
//! credit (`GrantSource::Refund`, written once per refund), by the domain's rule
//! (`marque_domain::store_credit::refund_parts`).

use std::collections::BTreeMap;
use std::sync::Arc;

use marque_domain::catalog::ProductId;
use marque_domain::invoice::{FinancialYear, Seller};
use marque_domain::order::{Fulfilment, OrderNotice, RefundAmounts, RefundAsk, RefundError, RefundReason, Refundable};
use marque_domain::staff::{Area, Staff};
use marque_domain::{Message, Money, UserFacing};
use marque_ports::{
    Actor, AdminOrder, AuditEntry, Clock, NewRefund, OrderDesk, OrderDeskError, OrderId, OrderRefund, OrderRefundLine,
    PaymentError, PaymentGateway, RefundKind, RefundRecorded, RefundState, RefundStatus, RefundWrite, StoreCreditStore,
};

use super::orders::{fulfilment_of, AdminOrderError};
use crate::notices::{queue_for, NoticeSettings};

/// The audit trail's actions of this area.
pub const ACTION_CANCEL: &str = "order.cancel";
pub const ACTION_REFUND: &str = "order.refund";
pub const ACTION_REFUND_RETRY: &str = "order.refund_retry";

/// The idempotency key a cancellation's refund is kept under (an order is cancelled once).
pub const CANCEL_KEY: &str = "cancel";

/// Most lines one refund request may name (an order holds at most 20 parts; room for typos).
pub const MAX_REFUND_LINES: usize = 50;

/// How many times a refund is computed again when another refund of the order lands first.
const RECOMPUTE: usize = 4;

/// How many unsettled refunds one reconciliation pass asks the provider about.
const SETTLE_BATCH: u32 = 100;

/// A cancellation as staff ask for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CancelInput {
    pub reason: String,
    /// Whether the units go back into stock (false: the part is gone).
    pub restock: bool,
}

/// One line of a refund as staff ask for it, unchecked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundLineInput {
    pub product: String,
    pub quantity: i64,
    pub restock: bool,
    pub reason: Option<String>,
}

/// A partial refund as staff ask for it, unchecked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundInput {
    pub lines: Vec<RefundLineInput>,
    pub delivery_charge: bool,
    pub reason: String,
}

/// A refund made (or found again) and the order after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundDone {
    pub order: AdminOrder,
    pub refund: OrderRefund,
    /// The same request was answered before under this key: nothing new was refunded.
    pub replayed: bool,
}

/// What one reconciliation pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SettledRefunds {
    pub checked: usize,
    /// Refunds the provider accepted or settled on this pass.
    pub changed: usize,
    /// Refunds the provider could not be asked about now (tried again next pass).
    pub failed: usize,
}

/// The order's refundable state as `seller` invoiced it: its lines, delivery charge and payment,
/// less its refunds so far.
#[must_use]
pub fn refundable_of(order: &AdminOrder, seller: &Seller) -> Refundable {
    refundable_beside(order, seller, BTreeMap::new())
}

/// [`refundable_of`], with `held` units (by product) counted as given back already: the units the
/// order's returns hold or settled otherwise than by a refund.
fn refundable_beside(order: &AdminOrder, seller: &Seller, held: BTreeMap<ProductId, u32>) -> Refundable {
    let mut units = held;
    for line in order.refunds.iter().flat_map(|r| r.lines.iter()) {
        *units.entry(line.product.clone()).or_insert(0) += line.quantity;
    }
    let draft = &order.order.draft;
    Refundable::of_order(
        crate::orders::tax_invoice(seller, &order.order).invoice().clone(),
        &draft.lines,
        draft.delivery_charge,
        draft.total,
        &units,
        order.refunds.iter().any(|r| r.delivery > Money::ZERO),
        order.refunds.iter().map(|r| r.amount).sum(),
    )
}

/// A refund rule broken: bad input is 400 ([`AdminOrderError::Invalid`]), the order's state 409.
fn refused(e: RefundError) -> AdminOrderError {
    match e {
        RefundError::Empty
        | RefundError::UnknownProduct { .. }
        | RefundError::DuplicateLine { .. }
        | RefundError::QuantityInvalid { .. }
        | RefundError::TooSmall { .. }
        | RefundError::ReasonInvalid => AdminOrderError::Invalid(e.message()),
        RefundError::QuantityAboveLeft { .. }
        | RefundError::RemainderTooSmall { .. }
        | RefundError::DeliveryNotLeft
        | RefundError::NothingLeft
        | RefundError::AbovePaid { .. } => AdminOrderError::RefundRefused(e),
    }
}

/// An `Idempotency-Key` staff may send: 8 to 64 letters, digits, `-` and `_`.
///
/// # Errors
/// [`AdminOrderError::Invalid`] (`refund.key_required`).
pub fn parse_key(key: &str) -> Result<String, AdminOrderError> {
    let ok = (8..=64).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok && key != CANCEL_KEY {
        Ok(key.to_owned())
    } else {
        Err(AdminOrderError::Invalid(Message::RefundKeyRequired))
    }
}

/// The request as read, one line per product in product order: a repeat of the same key compares it.
fn canonical(asks: &[RefundAsk], delivery: bool, reason: &RefundReason) -> String {
    let mut lines: Vec<serde_json::Value> = asks
        .iter()
        .map(|a| {
            serde_json::json!({
                "productId": a.product.0,
                "quantity": a.quantity,
                "restock": a.restock,
                "reason": a.reason.as_ref().map(RefundReason::as_str),
            })
        })
        .collect();
    lines.sort_by(|a, b| a["productId"].as_str().cmp(&b["productId"].as_str()));
    serde_json::json!({ "lines": lines, "deliveryCharge": delivery, "reason": reason.as_str() }).to_string()
}

/// The provider's idempotency key of one attempt of a refund: one provider refund per attempt,
/// however often it is sent (10 to 64 letters, digits, `-` and `_`).
#[must_use]
pub fn provider_key(refund: &OrderRefund) -> String {
    let clean: String =
        refund.id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').take(48).collect();
    format!("mq-rf-{clean}-a{}", refund.attempt)
}

fn state_of(status: RefundStatus) -> RefundState {
    match status {
        RefundStatus::Pending => RefundState::Pending,
        RefundStatus::Processed => RefundState::Processed,
        RefundStatus::Failed => RefundState::Failed,
    }
}

/// Every refund of more than nothing is a GST credit note against the order's tax invoice, numbered
/// in the series of the financial year it is made in; a cancellation of an order refunded in full
/// already gives nothing back and issues none.
fn credit_note_year(refund: &OrderRefund) -> Option<FinancialYear> {
    (refund.amount > Money::ZERO).then(|| FinancialYear::at_unix_seconds(refund.created_at))
}

/// The order with `refund` in place of its earlier copy.
fn with_refund(mut order: AdminOrder, refund: &OrderRefund) -> AdminOrder {
    if let Some(slot) = order.refunds.iter_mut().find(|r| r.id == refund.id) {
        *slot = refund.clone();
    }
    order
}

/// Cancellations and refunds, for staff whose role covers [`Area::Refunds`] (owner, fulfilment).
#[derive(Clone)]
pub struct RefundsService {
    desk: Arc<dyn OrderDesk>,
    payments: Arc<dyn PaymentGateway>,
    clock: Arc<dyn Clock>,
    /// The shop as it invoices: a refund gives back what its credit note reverses.
    seller: Seller,
    notices: Arc<NoticeSettings>,
    /// Where the store-credit part of a refund goes (orders paid with credit).
    credit: Option<Arc<dyn StoreCreditStore>>,
    /// The orders' returns, whose units a refund may not give back again.
    returns: Option<Arc<dyn marque_ports::ReturnStore>>,
}

impl std::fmt::Debug for RefundsService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RefundsService").finish_non_exhaustive()
    }
}

impl RefundsService {
    #[must_use]
    pub fn new(
        desk: Arc<dyn OrderDesk>,
        payments: Arc<dyn PaymentGateway>,
        clock: Arc<dyn Clock>,
        seller: Seller,
    ) -> Self {
        Self {
            desk,
            payments,
            clock,
            seller,
            notices: Arc::new(NoticeSettings::default()),
            credit: None,
            returns: None,
        }
    }

    /// Gives the store-credit part of refunds of orders paid with credit back as store credit.
    #[must_use]
    pub fn with_store_credit(mut self, credit: Arc<dyn StoreCreditStore>) -> Self {
        self.credit = Some(credit);
        self
    }

    /// Counts the units of each order's returns as not left to refund (see [`Self::refund`]).
    #[must_use]
    pub fn with_returns(mut self, returns: Arc<dyn marque_ports::ReturnStore>) -> Self {
        self.returns = Some(returns);
        self
    }

    /// The units of `order` its returns hold (asked for, approved, received) or settled otherwise
    /// than by a refund (a replacement, store credit), but for the return refunded under `key`
    /// itself: a refund may not give them back as well.
    async fn units_in_returns(&self, order: &OrderId, key: &str) -> Result<BTreeMap<ProductId, u32>, AdminOrderError> {
        let mut units = BTreeMap::new();
        let Some(returns) = &self.returns else { return Ok(units) };
        let list = returns.returns_of_order(order).await.map_err(|e| AdminOrderError::Unavailable(e.to_string()))?;
        let held = list.into_iter().filter(|r| {
            marque_domain::order::keeps_units_from_refunds(r.state, r.outcome)
                && crate::returns::refund_key(&r.id) != key
        });
        for r in held {
            *units.entry(r.product).or_insert(0) += r.quantity;
        }
        Ok(units)
    }

    /// What of `refund` goes back to the card; the rest of it, for an order paid with store credit,
    /// is granted back as store credit here first (once per refund, however often this is asked).
    async fn card_part(&self, refund: &OrderRefund) -> Result<Money, String> {
        let Some(credit) = &self.credit else { return Ok(refund.amount) };
        let order = self.desk.order(&refund.order).await.map_err(|e| e.to_string())?.ok_or("the order is gone")?;
        let draft = &order.order.draft;
        if draft.store_credit == Money::ZERO {
            return Ok(refund.amount);
        }
        let earlier: Vec<Money> = order.refunds.iter().take_while(|r| r.id != refund.id).map(|r| r.amount).collect();
        let (to_card, to_credit) =
            marque_domain::store_credit::refund_parts(draft.card_amount(), draft.store_credit, &earlier, refund.amount);
        if to_credit > Money::ZERO {
            let source = marque_domain::store_credit::GrantSource::Refund(refund.id.clone());
            credit.grant(&draft.user, to_credit, &source, self.clock.now()).await.map_err(|e| e.to_string())?;
            tracing::info!(refund = %refund.id, credit = to_credit.paise(), card = to_card.paise(), "a refund of an order paid with store credit: its credit part granted back");
        }
        Ok(to_card)
    }

    /// How the customer's notices of a cancellation or refund are signed and which go by SMS too.
    #[must_use]
    pub fn with_notices(mut self, notices: NoticeSettings) -> Self {
        self.notices = Arc::new(notices);
        self
    }

    /// What is left to refund of `order`.
    #[must_use]
    pub fn refundable(&self, order: &AdminOrder) -> Refundable {
        refundable_of(order, &self.seller)
    }

    async fn read(&self, id: &OrderId) -> Result<AdminOrder, AdminOrderError> {
        self.desk.order(id).await?.ok_or(AdminOrderError::NotFound)
    }

    /// The refund as `staff` made it: lines, delivery and total from the domain's amounts.
    fn refund_of(
        &self,
        staff: &Staff,
        order: &AdminOrder,
        amounts: &RefundAmounts,
        reason: &RefundReason,
        (kind, key, request): (RefundKind, &str, String),
    ) -> OrderRefund {
        // Never before the order: its credit note may not be dated before the invoice it reverses
        // (CreditNote::build refuses that), even on an instance whose clock is behind another's.
        let now = self.clock.now().max(order.order.created_at);
        let actor = Actor::staff(staff);
        OrderRefund {
            id: format!("{}-{}", order.order.id.0, order.refunds.len() + 1),
            order: order.order.id.clone(),
            payment: order.order.payment.clone(),
            kind,
            lines: amounts
                .lines
                .iter()
                .map(|l| OrderRefundLine {
                    product: l.product.clone(),
                    name: l.name.clone(),
                    quantity: l.quantity,
                    amount: l.amount,
                    restock: l.restock,
                    reason: l.reason.as_str().to_owned(),
                })
                .collect(),
            delivery: amounts.delivery,
            amount: amounts.total,
            reason: reason.as_str().to_owned(),
            state: RefundState::Requested,
            provider_refund: None,
            attempt: 1,
            key: key.to_owned(),
            request,
            actor: actor.key(),
            actor_label: actor.label(),
            created_at: now,
            updated_at: now,
            credit_note: None,
        }
    }

    fn audit(
        &self,
        staff: &Staff,
        action: &str,
        id: &OrderId,
        refund: &OrderRefund,
        extra: serde_json::Value,
    ) -> AuditEntry {
        let mut after = serde_json::json!({
            "refund": refund.id,
            "amount": refund.amount.paise(),
            "delivery": refund.delivery.paise(),
            "lines": refund.lines.iter().map(|l| serde_json::json!({
                "productId": l.product.0, "quantity": l.quantity, "amount": l.amount.paise(), "restock": l.restock,
            })).collect::<Vec<_>>(),
            "reason": refund.reason,
        });
        if let (Some(map), serde_json::Value::Object(more)) = (after.as_object_mut(), extra) {
            map.extend(more);
        }
        AuditEntry::new(self.clock.now(), Actor::staff(staff), action, format!("order:{}", id.0))
            .with_values(None, Some(after.to_string()))
    }

    /// Records `write` and asks the provider for it; `None` when another refund of the order landed
    /// first (the caller computes the refund again).
    async fn record(
        &self,
        id: &OrderId,
        write: &RefundWrite,
        audit: &AuditEntry,
    ) -> Result<Option<RefundDone>, AdminOrderError> {
        match self.desk.record_refund(write, audit).await {
            Ok(RefundRecorded::Recorded(order)) => {
                // As recorded: with its credit note's number.
                let recorded = order.refunds.iter().find(|r| r.id == write.refund.id).cloned();
                let refund = self.send(recorded.unwrap_or_else(|| write.refund.clone())).await;
                Ok(Some(RefundDone { order: with_refund(*order, &refund), refund, replayed: false }))
            }
            Ok(RefundRecorded::Existing(first)) => {
                let refund = self.send(*first).await;
                Ok(Some(RefundDone { order: with_refund(self.read(id).await?, &refund), refund, replayed: true }))
            }
            Err(OrderDeskError::RefundsChanged) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Cancels the order (from 1–3, on the version named), refunding everything not refunded yet
    /// and, when `restock`, returning its units to stock; then asks the provider for the refund.
    ///
    /// # Errors
    /// [`AdminOrderError::Forbidden`] first; [`AdminOrderError::Invalid`] for a reason that does not
    /// parse; [`AdminOrderError::NotFound`]; [`AdminOrderError::Changed`] for a stale version;
    /// [`AdminOrderError::Refused`] (`order.illegal_move`) from 4–6; [`AdminOrderError::Unavailable`].
    /// A provider that cannot be reached is no error: the refund stays `requested` and is sent later.
    pub async fn cancel(
        &self,
        staff: &Staff,
        id: &OrderId,
        version: u64,
        input: &CancelInput,
    ) -> Result<RefundDone, AdminOrderError> {
        staff.require(Area::Refunds)?;
        let reason = RefundReason::parse(&input.reason).map_err(refused)?;
        for _ in 0..RECOMPUTE {
            let current = self.read(id).await?;
            if current.version != version {
                return Err(AdminOrderError::Changed { version: current.version });
            }
            let before = fulfilment_of(&current)?;
            let after: Fulfilment = before.cancel().map_err(AdminOrderError::Refused)?;
            let amounts = match self.refundable(&current).refund_all(input.restock, &reason) {
                Ok(amounts) => amounts,
                // Refunded in full already: the cancellation refunds nothing more.
                Err(RefundError::NothingLeft) => {
                    RefundAmounts { lines: Vec::new(), delivery: Money::ZERO, total: Money::ZERO }
                }
                Err(e) => return Err(refused(e)),
            };
            let request =
                serde_json::json!({ "cancel": true, "restock": input.restock, "reason": reason.as_str() }).to_string();
            let refund = self.refund_of(staff, &current, &amounts, &reason, (RefundKind::Cancel, CANCEL_KEY, request));
            let audit = self.audit(
                staff,
                ACTION_CANCEL,
                id,
                &refund,
                serde_json::json!({ "status": after.status.number(), "restock": input.restock }),
            );
            let notices = queue_for(
                &current,
                &OrderNotice::Cancelled { refund: refund.amount },
                &self.notices,
                refund.created_at,
            );
            let write = RefundWrite {
                credit_note_year: credit_note_year(&refund),
                refund,
                refunds_seen: current.refunds.len(),
                cancel: Some((version, after)),
                notices,
            };
            if let Some(done) = self.record(id, &write, &audit).await? {
                return Ok(done);
            }
        }
        Err(AdminOrderError::Changed { version })
    }

    /// Refunds the lines (and the delivery charge) staff chose, once per `key`: the same key and
    /// request answer the refund made the first time, and never pay twice.
    ///
    /// # Errors
    /// [`AdminOrderError::Forbidden`] first; [`AdminOrderError::Invalid`] for a malformed key or
    /// input (`refund.key_required`, `refund.reason_invalid`, `refund.quantity_invalid`,
    /// `refund.unknown_product`, `refund.duplicate_line`, `refund.empty`, `refund.too_small`);
    /// [`AdminOrderError::NotFound`]; [`AdminOrderError::KeyReused`] for the same key with another
    /// request; [`AdminOrderError::RefundRefused`] for units or a delivery charge not left, or more
    /// than is left of what was paid; [`AdminOrderError::Unavailable`].
    pub async fn refund(
        &self,
        staff: &Staff,
        id: &OrderId,
        key: &str,
        input: &RefundInput,
    ) -> Result<RefundDone, AdminOrderError> {
        staff.require(Area::Refunds)?;
        let key = parse_key(key)?;
        let reason = RefundReason::parse(&input.reason).map_err(refused)?;
        if input.lines.len() > MAX_REFUND_LINES {
            return Err(AdminOrderError::Invalid(Message::RefundDuplicateLine));
        }
        let asks = input
            .lines
            .iter()
            .map(|l| {
                let reason = match l.reason.as_deref().map(str::trim) {
                    None | Some("") => None,
                    Some(text) => Some(RefundReason::parse(text).map_err(refused)?),
                };
                Ok(RefundAsk {
                    product: ProductId(l.product.trim().to_owned()),
                    quantity: l.quantity,
                    restock: l.restock,
                    reason,
                })
            })
            .collect::<Result<Vec<_>, AdminOrderError>>()?;
        let request = canonical(&asks, input.delivery_charge, &reason);
        let held = self.units_in_returns(id, &key).await?;
        for _ in 0..RECOMPUTE {
            let current = self.read(id).await?;
            if let Some(first) = current.refunds.iter().find(|r| r.key == key) {
                if first.request != request {
                    return Err(AdminOrderError::KeyReused);
                }
                let refund = self.send(first.clone()).await;
                return Ok(RefundDone { order: with_refund(current, &refund), refund, replayed: true });
            }
            let amounts = refundable_beside(&current, &self.seller, held.clone())
                .refund(&asks, input.delivery_charge, &reason)
                .map_err(refused)?;
            let refund =
                self.refund_of(staff, &current, &amounts, &reason, (RefundKind::Partial, &key, request.clone()));
            let audit = self.audit(staff, ACTION_REFUND, id, &refund, serde_json::json!({}));
            let notices =
                queue_for(&current, &OrderNotice::Refunded { amount: refund.amount }, &self.notices, refund.created_at);
            let write = RefundWrite {
                credit_note_year: credit_note_year(&refund),
                refund,
                refunds_seen: current.refunds.len(),
                cancel: None,
                notices,
            };
            if let Some(done) = self.record(id, &write, &audit).await? {
                return Ok(done);
            }
        }
        Err(AdminOrderError::Changed { version: 0 })
    }

    /// Tries a refund again: a `failed` one as a new attempt (a new provider key), a `requested` one
    /// sent again under its own key; any other is answered as it stands. Calling it twice never
    /// pays twice.
    ///
    /// # Errors
    /// [`AdminOrderError::Forbidden`] first; [`AdminOrderError::NotFound`];
    /// [`AdminOrderError::RefundNotFound`]; [`AdminOrderError::Unavailable`].
    pub async fn retry(&self, staff: &Staff, id: &OrderId, refund_id: &str) -> Result<RefundDone, AdminOrderError> {
        staff.require(Area::Refunds)?;
        let current = self.read(id).await?;
        let found =
            current.refunds.iter().find(|r| r.id == refund_id).cloned().ok_or(AdminOrderError::RefundNotFound)?;
        let refund = match found.state {
            RefundState::Failed => {
                let audit = self.audit(
                    staff,
                    ACTION_REFUND_RETRY,
                    id,
                    &found,
                    serde_json::json!({ "attempt": found.attempt + 1 }),
                );
                let again = self.desk.retry_refund(id, refund_id, &audit).await?;
                self.send(again).await
            }
            RefundState::Requested => self.send(found).await,
            RefundState::Pending | RefundState::Processed => {
                return Ok(RefundDone { order: current, refund: found, replayed: true });
            }
        };
        Ok(RefundDone { order: with_refund(self.read(id).await?, &refund), refund, replayed: false })
    }

    /// Asks the provider for a `requested` refund (under its attempt's key) and records the answer;
    /// answers the refund as it stands after. Never fails: a provider that cannot be reached leaves
    /// it `requested` for the reconciliation pass, a refusal marks it `failed` for staff to see.
    async fn send(&self, refund: OrderRefund) -> OrderRefund {
        if refund.state != RefundState::Requested {
            return refund;
        }
        // The card never gets back more than it paid; the store-credit part goes back as credit.
        let to_card = match self.card_part(&refund).await {
            Ok(amount) => amount,
            Err(e) => {
                tracing::warn!(refund = %refund.id, error = %e, "a refund's store-credit part cannot be granted now; the reconciliation sends it again");
                return refund;
            }
        };
        let answer = if to_card == Money::ZERO {
            Ok((RefundState::Processed, None))
        } else {
            let notes = [
                ("order".to_owned(), refund.order.0.clone()),
                ("refund".to_owned(), refund.id.clone()),
                ("kind".to_owned(), refund.kind.code().to_owned()),
            ]
            .into_iter()
            .collect();
            let ask = NewRefund { amount: to_card, idempotency_key: provider_key(&refund), notes };
            match self.payments.refund(&refund.payment, &ask).await {
                Ok(made) => Ok((state_of(made.status), Some(made.id.0))),
                Err(PaymentError::Refused { reason }) => {
                    tracing::error!(refund = %refund.id, %reason, "the provider refused a refund: shown to staff as failed");
                    Ok((RefundState::Failed, None))
                }
                Err(e) => Err(e),
            }
        };
        match answer {
            Ok((state, provider)) => {
                metrics::counter!("marque_refunds_total", "state" => state.code()).increment(1);
                match self.desk.settle_refund(&refund.id, refund.attempt, state, provider, self.clock.now()).await {
                    Ok(settled) => settled,
                    Err(e) => {
                        tracing::warn!(refund = %refund.id, error = %e, "a refund's answer could not be recorded; the reconciliation reads it again");
                        refund
                    }
                }
            }
            Err(e) => {
                tracing::warn!(refund = %refund.id, error = %e, "the provider cannot take a refund now; the reconciliation sends it again");
                refund
            }
        }
    }

    /// The reconciliation pass: sends every `requested` refund again and asks the provider where
    /// each `pending` one stands, recording what changed (the webhooks' news, when they were lost).
    ///
    /// # Errors
    /// [`AdminOrderError::Unavailable`] when the order store cannot be read.
    pub async fn settle_unsettled(&self) -> Result<SettledRefunds, AdminOrderError> {
        let mut done = SettledRefunds::default();
        for refund in self.desk.unsettled_refunds(SETTLE_BATCH).await? {
            done.checked += 1;
            let before = refund.state;
            let after = match (refund.state, refund.provider_refund.clone()) {
                (RefundState::Requested, _) => self.send(refund).await.state,
                (RefundState::Pending, Some(provider)) => {
                    match self.payments.fetch_refund(&marque_ports::RefundId(provider.clone())).await {
                        Ok(found) if state_of(found.status) != RefundState::Pending => {
                            match self
                                .desk
                                .settle_refund(
                                    &refund.id,
                                    refund.attempt,
                                    state_of(found.status),
                                    Some(provider),
                                    self.clock.now(),
                                )
                                .await
                            {
                                Ok(settled) => settled.state,
                                Err(_) => {
                                    done.failed += 1;
                                    continue;
                                }
                            }
                        }
                        Ok(_) => RefundState::Pending,
                        Err(e) => {
                            tracing::warn!(refund = %refund.id, error = %e, "reconciliation: a refund cannot be read from the provider now");
                            done.failed += 1;
                            continue;
                        }
                    }
                }
                (state, _) => state,
            };
            if after != before {
                done.changed += 1;
            } else if after == RefundState::Requested {
                done.failed += 1;
            }
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests;
