//! The shapes of `admin-orders`' cancellations and refunds: what staff send to cancel an order or
//! refund some of it, and how an order's refunds and what is left to refund are answered.

use marque_app::admin::refunds::{CancelInput, RefundInput, RefundLineInput};
use marque_domain::order::Refundable;
use marque_domain::Money;
use marque_ports::OrderRefund;
use poem_openapi::Object;

use crate::orders::iso_8601;

/// One line of a refund: the units of a product given back and what they were refunded.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminRefundLine")]
pub struct RefundLineBody {
    #[oai(rename = "productId")]
    pub product_id: String,
    pub name: String,
    pub quantity: u32,
    /// In rupees: the units' price less their share of the order's discount.
    pub amount: f64,
    /// Whether the units went back into stock.
    pub restock: bool,
    pub reason: String,
}

/// One refund of an order and where it stands at the payment provider.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminRefund")]
pub struct RefundBody {
    #[oai(rename = "_id")]
    pub id: String,
    /// `cancel` (the refund of a cancellation) or `partial`.
    pub kind: String,
    /// What the refund gives back in all, in rupees.
    pub amount: f64,
    /// The delivery charge refunded, in rupees (0 when not).
    #[oai(rename = "deliveryCharge")]
    pub delivery_charge: f64,
    pub lines: Vec<RefundLineBody>,
    /// `requested` (not yet accepted by the provider), `pending`, `processed` or `failed` (retry it).
    pub state: String,
    pub reason: String,
    /// Who made it: a staff member's email.
    pub by: String,
    /// When it was made, ISO 8601 in UTC.
    #[oai(rename = "createdAt")]
    pub created_at: String,
    /// When its state last changed, ISO 8601 in UTC.
    #[oai(rename = "updatedAt")]
    pub updated_at: String,
    /// 1, and one more with each retry.
    pub attempt: u32,
    /// The provider's refund id, once it accepted the refund.
    #[oai(rename = "providerRefundId")]
    pub provider_refund_id: Option<String>,
    /// The GST credit note's number, once one is issued.
    #[oai(rename = "creditNote")]
    pub credit_note: Option<String>,
}

fn rupees(m: Money) -> f64 {
    m.rupees()
}

impl From<&OrderRefund> for RefundBody {
    fn from(r: &OrderRefund) -> Self {
        Self {
            id: r.id.clone(),
            kind: r.kind.code().to_owned(),
            amount: rupees(r.amount),
            delivery_charge: rupees(r.delivery),
            lines: r
                .lines
                .iter()
                .map(|l| RefundLineBody {
                    product_id: l.product.0.clone(),
                    name: l.name.clone(),
                    quantity: l.quantity,
                    amount: rupees(l.amount),
                    restock: l.restock,
                    reason: l.reason.clone(),
                })
                .collect(),
            state: r.state.code().to_owned(),
            reason: r.reason.clone(),
            by: r.actor_label.clone(),
            created_at: iso_8601(r.created_at),
            updated_at: iso_8601(r.updated_at),
            attempt: r.attempt,
            provider_refund_id: r.provider_refund.clone(),
            credit_note: r.credit_note.clone(),
        }
    }
}

/// A line of the order and how many of its units are left to refund.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminRefundableLine")]
pub struct RefundableLineBody {
    #[oai(rename = "productId")]
    pub product_id: String,
    pub name: String,
    pub ordered: u32,
    /// Units not refunded yet.
    pub left: u32,
}

/// What is left to refund of an order.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminRefundable")]
pub struct RefundableBody {
    /// What is left of what was paid, in rupees.
    pub amount: f64,
    pub lines: Vec<RefundableLineBody>,
    /// Whether the delivery charge can still be refunded (the order had one, not refunded yet).
    #[oai(rename = "deliveryCharge")]
    pub delivery_charge: bool,
}

impl From<&Refundable> for RefundableBody {
    fn from(left: &Refundable) -> Self {
        Self {
            amount: rupees(left.left()),
            lines: left
                .lines
                .iter()
                .map(|l| RefundableLineBody {
                    product_id: l.product.0.clone(),
                    name: l.name.clone(),
                    ordered: l.ordered,
                    left: l.left(),
                })
                .collect(),
            delivery_charge: !left.delivery_refunded && left.delivery > Money::ZERO,
        }
    }
}

/// What `POST /api/admin/orders/{id}/cancel` receives.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminCancel", deny_unknown_fields)]
pub struct CancelBody {
    /// Why, 1 to 200 characters.
    #[oai(validator(max_length = 1000))]
    pub reason: String,
    /// Whether the units go back into stock (false: the part is gone).
    pub restock: bool,
}

impl From<CancelBody> for CancelInput {
    fn from(b: CancelBody) -> Self {
        CancelInput { reason: b.reason, restock: b.restock }
    }
}

/// One line of a refund staff ask for.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminRefundAskLine", deny_unknown_fields)]
pub struct RefundAskLineBody {
    /// A product of the order.
    #[oai(rename = "productId", validator(max_length = 100))]
    pub product_id: String,
    /// At least 1, at most the units left to refund of the line.
    pub quantity: i64,
    /// Whether the units go back into stock.
    pub restock: bool,
    /// The line's own reason (1 to 200 characters); the refund's when left out.
    #[oai(validator(max_length = 1000))]
    pub reason: Option<String>,
}

/// What `POST /api/admin/orders/{id}/refunds` receives.
#[derive(Debug, Clone, Object)]
#[oai(rename = "AdminRefundAsk", deny_unknown_fields)]
pub struct RefundAskBody {
    /// Each product at most once.
    #[oai(validator(max_items = 50))]
    pub lines: Vec<RefundAskLineBody>,
    /// Whether to refund the delivery charge (once per order).
    #[oai(rename = "deliveryCharge")]
    pub delivery_charge: bool,
    /// Why, 1 to 200 characters.
    #[oai(validator(max_length = 1000))]
    pub reason: String,
}

impl From<RefundAskBody> for RefundInput {
    fn from(b: RefundAskBody) -> Self {
        RefundInput {
            lines: b
                .lines
                .into_iter()
                .map(|l| RefundLineInput {
                    product: l.product_id,
                    quantity: l.quantity,
                    restock: l.restock,
                    reason: l.reason,
                })
                .collect(),
            delivery_charge: b.delivery_charge,
            reason: b.reason,
        }
    }
}
