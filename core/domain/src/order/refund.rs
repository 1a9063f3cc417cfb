//! What a refund of a placed order gives back, computed by the shop (docs/shop-rules.md, "Credit
//! notes"): each line's units and the delivery charge exactly as the GST credit note reverses them
//! ([`crate::invoice::credit_lines`]: the invoice's discount of each GST rate shared across that
//! rate's lines by value, to the paisa, the last line taking the remainder; a line's last unit takes
//! its remainder), and the shop's own checks around it: the lines named, the units left, at least ₹1,
//! never above what was paid. Refunding every unit and the delivery charge gives back exactly the
//! order's total.

use std::collections::BTreeMap;

use crate::catalog::ProductId;
use crate::invoice::{credit_lines, CreditNoteError, Invoice, RefundSelection};
use crate::message::{user_facing_error, Message, UserFacing};
use crate::order::OrderLine;
use crate::Money;

/// Smallest refund the payment provider makes: ₹1.
pub const MIN_REFUND: Money = Money::from_paise(100);
/// Most characters of a refund's reason (and of each line's).
pub const REFUND_REASON_MAX: usize = 200;

/// Why a refund cannot be made as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefundError {
    /// No line and no delivery charge asked for (`refund.empty`).
    Empty,
    /// A product the order does not hold (`refund.unknown_product`).
    UnknownProduct { product: ProductId },
    /// A product named on two lines of one request (`refund.duplicate_line`).
    DuplicateLine { product: ProductId },
    /// A quantity below 1 (`refund.quantity_invalid`).
    QuantityInvalid { product: ProductId },
    /// More units than are left to refund of the line (`refund.quantity_above_left`).
    QuantityAboveLeft { product: ProductId, left: u32 },
    /// The delivery charge is refunded already, or the order had none (`refund.delivery_not_left`).
    DeliveryNotLeft,
    /// Less than [`MIN_REFUND`] (`refund.too_small`).
    TooSmall { amount: Money },
    /// It would leave less than [`MIN_REFUND`] (but more than nothing) of what was paid, which the
    /// provider could never pay back, not even by a cancellation (`refund.remainder_too_small`).
    RemainderTooSmall { remainder: Money },
    /// Nothing is left to refund: everything paid is refunded already (`refund.nothing_left`).
    NothingLeft,
    /// More than is left of what was paid (`refund.above_paid`); the store's own check says the same.
    AbovePaid { left: Money },
    /// A reason that is empty or too long (`refund.reason_invalid`).
    ReasonInvalid,
}

impl UserFacing for RefundError {
    fn message(&self) -> Message {
        match self {
            RefundError::Empty => Message::RefundEmpty,
            RefundError::UnknownProduct { .. } => Message::RefundUnknownProduct,
            RefundError::DuplicateLine { .. } => Message::RefundDuplicateLine,
            RefundError::QuantityInvalid { .. } => Message::RefundQuantityInvalid,
            RefundError::QuantityAboveLeft { .. } => Message::RefundQuantityAboveLeft,
            RefundError::DeliveryNotLeft => Message::RefundDeliveryNotLeft,
            RefundError::TooSmall { .. } => Message::RefundTooSmall,
            RefundError::RemainderTooSmall { .. } => Message::RefundRemainderTooSmall,
            RefundError::NothingLeft => Message::RefundNothingLeft,
            RefundError::AbovePaid { .. } => Message::RefundAbovePaid,
            RefundError::ReasonInvalid => Message::RefundReasonInvalid,
        }
    }
}
user_facing_error!(RefundError);

/// A reason staff gave: trimmed, 1 to [`REFUND_REASON_MAX`] characters.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct RefundReason(String);

impl RefundReason {
    /// # Errors
    /// [`RefundError::ReasonInvalid`] for an empty reason or one over [`REFUND_REASON_MAX`] characters.
    pub fn parse(raw: &str) -> Result<Self, RefundError> {
        let text = raw.trim();
        if text.is_empty() || text.chars().count() > REFUND_REASON_MAX || text.chars().any(char::is_control) {
            return Err(RefundError::ReasonInvalid);
        }
        Ok(Self(text.to_owned()))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// One line of an order as a refund sees it: what was bought and how many of its units are
/// refunded already.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundableLine {
    pub product: ProductId,
    pub name: String,
    pub ordered: u32,
    pub refunded: u32,
}

impl RefundableLine {
    #[must_use]
    pub fn left(&self) -> u32 {
        self.ordered.saturating_sub(self.refunded)
    }
}

/// A placed order's refundable state: its tax invoice, its lines, the delivery charge, what was paid
/// and what was refunded so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refundable {
    /// The order's tax invoice: what each unit gives back is what its credit note reverses.
    pub invoice: Invoice,
    pub lines: Vec<RefundableLine>,
    pub delivery: Money,
    pub delivery_refunded: bool,
    /// What the customer paid.
    pub paid: Money,
    /// What the earlier refunds of the order total (whatever their state at the provider).
    pub refunded: Money,
}

/// One line of a refund staff asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundAsk {
    pub product: ProductId,
    pub quantity: i64,
    pub restock: bool,
    /// The line's own reason; the refund's when `None`.
    pub reason: Option<RefundReason>,
}

/// One line of a refund as the shop computed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundLine {
    pub product: ProductId,
    pub name: String,
    pub quantity: u32,
    /// What these units are refunded, in paise.
    pub amount: Money,
    /// Whether the units go back into stock.
    pub restock: bool,
    pub reason: RefundReason,
}

/// A refund as computed: its lines, the delivery charge refunded (zero when not), and the total.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundAmounts {
    pub lines: Vec<RefundLine>,
    pub delivery: Money,
    pub total: Money,
}

impl Refundable {
    /// The refundable state of an order: its tax invoice, its lines (one per product, in the
    /// invoice's order), the delivery charge and `paid`, and the units, delivery and amount refunded so far.
    #[must_use]
    pub fn of_order(
        invoice: Invoice,
        lines: &[OrderLine],
        delivery: Money,
        paid: Money,
        refunded_units: &BTreeMap<ProductId, u32>,
        delivery_refunded: bool,
        refunded: Money,
    ) -> Self {
        let lines = lines
            .iter()
            .map(|line| RefundableLine {
                product: line.product_id.clone(),
                name: line.name.clone(),
                ordered: line.quantity.get(),
                refunded: refunded_units.get(&line.product_id).copied().unwrap_or(0),
            })
            .collect();
        Self { invoice, lines, delivery, delivery_refunded, paid, refunded }
    }

    /// What was refunded before, as the credit notes count it.
    fn before(&self) -> RefundSelection {
        RefundSelection::of(
            self.lines.iter().enumerate().filter(|(_, l)| l.refunded > 0).map(|(i, l)| (i, l.refunded)),
            self.delivery_refunded,
        )
    }

    /// The credit note's amount of each selected line (by position) and of the delivery charge.
    fn amounts(&self, now: &RefundSelection) -> Result<(BTreeMap<usize, Money>, Money), RefundError> {
        let lines = credit_lines(&self.invoice, &self.before(), now).map_err(|e| match e {
            CreditNoteError::NothingRefunded => RefundError::NothingLeft,
            CreditNoteError::DeliveryRefunded => RefundError::DeliveryNotLeft,
            CreditNoteError::LineUnknown { line } | CreditNoteError::TooManyUnits { line, .. } => {
                let at = self.lines.get(line);
                RefundError::QuantityAboveLeft {
                    product: at.map(|l| l.product.clone()).unwrap_or_else(|| ProductId(String::new())),
                    left: at.map_or(0, RefundableLine::left),
                }
            }
        })?;
        let mut by_line = BTreeMap::new();
        let mut delivery = Money::ZERO;
        for credit in lines {
            match credit.line {
                Some(i) => {
                    by_line.insert(i, credit.amount);
                }
                None => delivery = credit.amount,
            }
        }
        Ok((by_line, delivery))
    }

    /// What is left to refund of what was paid.
    #[must_use]
    pub fn left(&self) -> Money {
        let left = self.paid - self.refunded;
        if left.paise() < 0 {
            Money::ZERO
        } else {
            left
        }
    }

    /// The refund of `asks` (and the delivery charge when `delivery`), each line's reason defaulting
    /// to `reason`.
    ///
    /// # Errors
    /// The first rule broken: [`RefundError::DuplicateLine`], [`RefundError::UnknownProduct`],
    /// [`RefundError::QuantityInvalid`], [`RefundError::QuantityAboveLeft`],
    /// [`RefundError::DeliveryNotLeft`], [`RefundError::Empty`], [`RefundError::AbovePaid`],
    /// [`RefundError::TooSmall`].
    pub fn refund(
        &self,
        asks: &[RefundAsk],
        delivery: bool,
        reason: &RefundReason,
    ) -> Result<RefundAmounts, RefundError> {
        let mut seen: Vec<&ProductId> = Vec::with_capacity(asks.len());
        let mut chosen: Vec<(usize, u32, &RefundAsk)> = Vec::with_capacity(asks.len());
        for ask in asks {
            if seen.contains(&&ask.product) {
                return Err(RefundError::DuplicateLine { product: ask.product.clone() });
            }
            seen.push(&ask.product);
            let (at, line) = self
                .lines
                .iter()
                .enumerate()
                .find(|(_, l)| l.product == ask.product)
                .ok_or_else(|| RefundError::UnknownProduct { product: ask.product.clone() })?;
            let quantity = u32::try_from(ask.quantity)
                .ok()
                .filter(|q| *q >= 1)
                .ok_or_else(|| RefundError::QuantityInvalid { product: ask.product.clone() })?;
            if quantity > line.left() {
                return Err(RefundError::QuantityAboveLeft { product: ask.product.clone(), left: line.left() });
            }
            chosen.push((at, quantity, ask));
        }
        if delivery && (self.delivery_refunded || self.delivery.paise() <= 0) {
            return Err(RefundError::DeliveryNotLeft);
        }
        if chosen.is_empty() && !delivery {
            return Err(RefundError::Empty);
        }
        let now = RefundSelection::of(chosen.iter().map(|(at, q, _)| (*at, *q)), delivery);
        let (amounts, delivery) = self.amounts(&now)?;
        let lines = chosen
            .into_iter()
            .map(|(at, quantity, ask)| RefundLine {
                product: ask.product.clone(),
                name: self.lines[at].name.clone(),
                quantity,
                amount: amounts.get(&at).copied().unwrap_or(Money::ZERO),
                restock: ask.restock,
                reason: ask.reason.clone().unwrap_or_else(|| reason.clone()),
            })
            .collect();
        self.finish(lines, delivery)
    }

    /// The refund of everything not refunded yet (a cancellation): every unit left of every line,
    /// restocked when `restock`, and the delivery charge if it is not refunded yet.
    ///
    /// # Errors
    /// [`RefundError::NothingLeft`] when nothing is left; [`RefundError::AbovePaid`] when earlier
    /// refunds leave less than these units cost.
    pub fn refund_all(&self, restock: bool, reason: &RefundReason) -> Result<RefundAmounts, RefundError> {
        let now = RefundSelection::left_after(&self.invoice, &self.before());
        let (amounts, delivery) = self.amounts(&now)?;
        let lines: Vec<RefundLine> = now
            .units
            .iter()
            .map(|(at, quantity)| RefundLine {
                product: self.lines[*at].product.clone(),
                name: self.lines[*at].name.clone(),
                quantity: *quantity,
                amount: amounts.get(at).copied().unwrap_or(Money::ZERO),
                restock,
                reason: reason.clone(),
            })
            .collect();
        let amounts =
            RefundAmounts { total: lines.iter().map(|l| l.amount).sum::<Money>() + delivery, lines, delivery };
        if amounts.total > self.left() {
            return Err(RefundError::AbovePaid { left: self.left() });
        }
        Ok(amounts)
    }

    fn finish(&self, lines: Vec<RefundLine>, delivery: Money) -> Result<RefundAmounts, RefundError> {
        let total = lines.iter().map(|l| l.amount).sum::<Money>() + delivery;
        if total > self.left() {
            return Err(RefundError::AbovePaid { left: self.left() });
        }
        if total < MIN_REFUND {
            return Err(RefundError::TooSmall { amount: total });
        }
        let remainder = self.left() - total;
        if remainder > Money::ZERO && remainder < MIN_REFUND {
            return Err(RefundError::RemainderTooSmall { remainder });
        }
        Ok(RefundAmounts { lines, delivery, total })
    }
}

#[cfg(test)]
#[expect(clippy::inconsistent_digit_grouping, reason = "paise written as rupees_paise, e.g. 2_499_50 is ₹2,499.50")]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::cart::Quantity;
    use crate::invoice::{FinancialYear, InvoiceInput, InvoiceNumber};
    use crate::pricing::DiscountPercent;

    fn line(product: &str, price: i64, quantity: u32, gst: u8) -> OrderLine {
        OrderLine {
            product_id: ProductId(product.into()),
            name: format!("Part {product}"),
            quantity: Quantity::new(quantity).expect("≥1"),
            price: Money::from_paise(price),
            gst,
            hsn: None,
            margin_scheme: None,
            warranty_days: None,
        }
    }

    fn reason() -> RefundReason {
        RefundReason::parse("customer asked").expect("valid")
    }

    fn ask(product: &str, quantity: i64) -> RefundAsk {
        RefundAsk { product: ProductId(product.into()), quantity, restock: true, reason: None }
    }

    /// An order of `lines`, `percent` off, `delivery` paise, delivered in `state` (sold from Delhi).
    fn fresh(lines: &[OrderLine], percent: u32, delivery: i64, state: &str) -> Refundable {
        let invoice = Invoice::build(&InvoiceInput {
            number: InvoiceNumber::first(FinancialYear::starting(2026)),
            lines,
            discount: DiscountPercent::new(percent).expect("0-100"),
            delivery_charge: Money::from_paise(delivery),
            seller_state: "Delhi",
            delivery_state: state,
        });
        let paid = invoice.total;
        Refundable::of_order(invoice, lines, Money::from_paise(delivery), paid, &BTreeMap::new(), false, Money::ZERO)
    }

    #[test]
    fn a_line_refunded_unit_by_unit_gives_back_what_it_cost_after_the_discount() {
        // ₹1,999.99 × 2 and ₹500 × 1, 5 % off (₹224), delivery ₹300: ₹4,575.98 paid.
        let mut order = fresh(&[line("a", 1_999_99, 2, 18), line("b", 500_00, 1, 18)], 5, 300_00, "Delhi");
        assert_eq!(order.paid, Money::from_paise(4_575_98));
        let one = order.refund(&[ask("a", 1)], false, &reason()).expect("one unit");
        assert!(one.total < Money::from_paise(1_999_99), "less its share of the discount: {:?}", one.total);
        order.refunded = one.total;
        order.lines[0].refunded = 1;
        let other = order.refund(&[ask("a", 1)], false, &reason()).expect("the other unit");
        assert!((other.total.paise() - one.total.paise()).abs() <= 1, "{:?} and {:?}", one.total, other.total);
        let with_delivery = order.refund(&[ask("b", 1)], true, &reason()).expect("b and delivery");
        assert_eq!(with_delivery.delivery, Money::from_paise(300_00));
        assert_eq!(one.total + other.total + with_delivery.total, order.paid, "everything, to the paisa");
    }

    #[test]
    fn refusals_name_the_rule() {
        let order = fresh(&[line("a", 1_000_00, 2, 18)], 0, 0, "Delhi");
        let cases = [
            (vec![], false, RefundError::Empty),
            (vec![ask("zz", 1)], false, RefundError::UnknownProduct { product: ProductId("zz".into()) }),
            (vec![ask("a", 0)], false, RefundError::QuantityInvalid { product: ProductId("a".into()) }),
            (vec![ask("a", -1)], false, RefundError::QuantityInvalid { product: ProductId("a".into()) }),
            (vec![ask("a", 3)], false, RefundError::QuantityAboveLeft { product: ProductId("a".into()), left: 2 }),
            (vec![ask("a", 1), ask("a", 1)], false, RefundError::DuplicateLine { product: ProductId("a".into()) }),
            (vec![ask("a", 1)], true, RefundError::DeliveryNotLeft),
        ];
        for (asks, delivery, error) in cases {
            assert_eq!(order.refund(&asks, delivery, &reason()), Err(error.clone()), "{error:?}");
            assert!(!error.code().is_empty());
        }
        let cheap = fresh(&[line("c", 50, 1, 18)], 0, 0, "Delhi");
        assert_eq!(
            cheap.refund(&[ask("c", 1)], false, &reason()),
            Err(RefundError::TooSmall { amount: Money::from_paise(50) })
        );
        // ₹1,000 and a 50-paisa part: refunding the first alone would leave 50 paise no provider pays back.
        let odd = fresh(&[line("a", 1_000_00, 1, 18), line("c", 50, 1, 18)], 0, 0, "Delhi");
        assert_eq!(
            odd.refund(&[ask("a", 1)], false, &reason()),
            Err(RefundError::RemainderTooSmall { remainder: Money::from_paise(50) })
        );
        assert_eq!(odd.refund(&[ask("a", 1), ask("c", 1)], false, &reason()).map(|r| r.total), Ok(odd.paid));
        assert_eq!(RefundReason::parse("  "), Err(RefundError::ReasonInvalid));
        assert_eq!(RefundReason::parse(&"x".repeat(201)), Err(RefundError::ReasonInvalid));
    }

    #[test]
    fn cancelling_after_a_partial_refund_gives_back_exactly_the_rest() {
        let lines = [line("a", 1_999_99, 2, 28), line("b", 500_00, 3, 18)];
        let mut order = fresh(&lines, 10, 150_00, "Karnataka");
        let first = order.refund(&[ask("a", 1)], true, &reason()).expect("partial");
        order.refunded = first.total;
        order.lines[0].refunded = 1;
        order.delivery_refunded = true;
        let rest = order.refund_all(true, &reason()).expect("the rest");
        assert_eq!(first.total + rest.total, order.paid);
        assert_eq!(rest.delivery, Money::ZERO);
        order.refunded = order.paid;
        order.lines.iter_mut().for_each(|l| l.refunded = l.ordered);
        assert_eq!(order.refund_all(true, &reason()), Err(RefundError::NothingLeft));
    }

    fn any_order() -> impl Strategy<Value = (Vec<OrderLine>, u32, i64, bool)> {
        (
            proptest::collection::vec(
                (1i64..5_000_000, 1u32..=10, prop::sample::select(vec![5u8, 12, 18, 28])),
                1..=20,
            ),
            0u32..=90,
            0i64..=100_000,
            any::<bool>(),
        )
            .prop_map(|(specs, percent, delivery, local)| {
                let lines = specs
                    .iter()
                    .enumerate()
                    .map(|(i, (price, qty, gst))| line(&format!("p{i}"), *price, *qty, *gst))
                    .collect();
                (lines, percent, delivery, local)
            })
    }

    proptest! {
        /// Whatever units are refunded in whatever steps, the refunds never total more than was
        /// paid, never leave less than ₹1 unrefunded unless they leave nothing (of a payment of at
        /// least ₹1), and refunding everything gives back exactly what was paid.
        #[test]
        fn refunds_never_exceed_what_was_paid(
            (lines, percent, delivery, local) in any_order(),
            steps in proptest::collection::vec((0usize..20, 1i64..=10, any::<bool>()), 0..30),
        ) {
            let mut order = fresh(&lines, percent, delivery, if local { "Delhi" } else { "Maharashtra" });
            for (index, quantity, with_delivery) in steps {
                let at = index % order.lines.len();
                let Some(line) = order.lines.get(at).cloned() else { continue };
                match order.refund(&[ask(&line.product.0, quantity)], with_delivery, &reason()) {
                    Ok(done) => {
                        order.refunded = order.refunded + done.total;
                        order.delivery_refunded |= done.delivery > Money::ZERO;
                        order.lines[at].refunded += done.lines[0].quantity;
                        prop_assert!(order.refunded <= order.paid);
                    }
                    Err(e) => prop_assert!(!e.code().is_empty()),
                }
            }
            if let Ok(rest) = order.refund_all(false, &reason()) {
                prop_assert_eq!(order.refunded + rest.total, order.paid);
                if order.paid >= MIN_REFUND {
                    prop_assert!(rest.total == Money::ZERO || rest.total >= MIN_REFUND, "{:?} left", rest.total);
                }
            } else {
                prop_assert_eq!(order.refunded, order.paid);
            }
        }
    }
}
