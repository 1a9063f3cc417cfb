//! What a refund of a placed order gives back, computed by the shop (docs/shop-rules.md, "Refunds"):
//! a line's units at the price paid, less their share of the order's discount, and the delivery
//! charge once. The refunds of an order never total more than was paid: refunding every unit and the
//! delivery charge gives back exactly the order's total, to the paisa.
//!
//! The discount is shared across the lines in proportion to their value, in whole paise, the last
//! line taking the remainder; inside a line, the units refunded so far are given the same part of
//! the line's net amount, rounded down, so the line's last unit takes the line's remainder.

use std::collections::BTreeMap;

use crate::catalog::ProductId;
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

/// Each line's share of `discount`, in proportion to `values` (whole paise, rounded down), the last
/// line taking the remainder, so the shares add up to `discount` exactly. With no value at all (or
/// no discount) every share is zero.
#[must_use]
pub fn discount_shares(values: &[Money], discount: Money) -> Vec<Money> {
    let total: i128 = values.iter().map(|v| i128::from(v.paise().max(0))).sum();
    let discount_paise = i128::from(discount.paise().max(0)).min(total);
    if total == 0 || discount_paise == 0 {
        return vec![Money::ZERO; values.len()];
    }
    let mut shares: Vec<Money> = Vec::with_capacity(values.len());
    let mut given: i128 = 0;
    for (i, value) in values.iter().enumerate() {
        let share = if i + 1 == values.len() {
            discount_paise - given
        } else {
            discount_paise * i128::from(value.paise().max(0)) / total
        };
        given += share;
        shares.push(Money::from_paise(i64::try_from(share).unwrap_or(i64::MAX)));
    }
    shares
}

/// What `units` more units of a line cost the customer, when `already` of its `ordered` units are
/// refunded: the net amount of the first `already + units` units less that of the first `already`,
/// each rounded down to the paisa (so the line's last unit takes its remainder).
#[must_use]
pub fn units_amount(net: Money, ordered: u32, already: u32, units: u32) -> Money {
    if ordered == 0 {
        return Money::ZERO;
    }
    let upto = |n: u32| i128::from(net.paise()) * i128::from(n.min(ordered)) / i128::from(ordered);
    let amount = upto(already.saturating_add(units)) - upto(already);
    Money::from_paise(i64::try_from(amount).unwrap_or(0))
}

/// One line of an order as a refund sees it: what was bought, what it cost after the discount, and
/// how many of its units are refunded already.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundableLine {
    pub product: ProductId,
    pub name: String,
    pub ordered: u32,
    /// Price × quantity, as paid before the discount.
    pub value: Money,
    /// `value` less the line's share of the discount.
    pub net: Money,
    pub refunded: u32,
}

impl RefundableLine {
    #[must_use]
    pub fn left(&self) -> u32 {
        self.ordered.saturating_sub(self.refunded)
    }
}

/// A placed order's refundable state: its lines, the delivery charge, what was paid and what was
/// refunded so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refundable {
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
    /// The refundable state of an order: its lines (one per product) with their share of the
    /// `discount`, the delivery charge and `paid`, and the units, delivery and amount refunded so far.
    #[must_use]
    pub fn of_order(
        lines: &[OrderLine],
        discount: Money,
        delivery: Money,
        paid: Money,
        refunded_units: &BTreeMap<ProductId, u32>,
        delivery_refunded: bool,
        refunded: Money,
    ) -> Self {
        let values: Vec<Money> = lines.iter().map(OrderLine::amount).collect();
        let shares = discount_shares(&values, discount);
        let lines = lines
            .iter()
            .zip(values.iter().zip(shares))
            .map(|(line, (value, share))| RefundableLine {
                product: line.product_id.clone(),
                name: line.name.clone(),
                ordered: line.quantity.get(),
                value: *value,
                net: *value - share,
                refunded: refunded_units.get(&line.product_id).copied().unwrap_or(0),
            })
            .collect();
        Self { lines, delivery, delivery_refunded, paid, refunded }
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
        let mut lines = Vec::with_capacity(asks.len());
        for ask in asks {
            if seen.contains(&&ask.product) {
                return Err(RefundError::DuplicateLine { product: ask.product.clone() });
            }
            seen.push(&ask.product);
            let line = self
                .lines
                .iter()
                .find(|l| l.product == ask.product)
                .ok_or_else(|| RefundError::UnknownProduct { product: ask.product.clone() })?;
            let quantity = u32::try_from(ask.quantity)
                .ok()
                .filter(|q| *q >= 1)
                .ok_or_else(|| RefundError::QuantityInvalid { product: ask.product.clone() })?;
            if quantity > line.left() {
                return Err(RefundError::QuantityAboveLeft { product: ask.product.clone(), left: line.left() });
            }
            lines.push(RefundLine {
                product: line.product.clone(),
                name: line.name.clone(),
                quantity,
                amount: units_amount(line.net, line.ordered, line.refunded, quantity),
                restock: ask.restock,
                reason: ask.reason.clone().unwrap_or_else(|| reason.clone()),
            });
        }
        let delivery = if delivery {
            if self.delivery_refunded || self.delivery.paise() <= 0 {
                return Err(RefundError::DeliveryNotLeft);
            }
            self.delivery
        } else {
            Money::ZERO
        };
        if lines.is_empty() && delivery == Money::ZERO {
            return Err(RefundError::Empty);
        }
        self.finish(lines, delivery)
    }

    /// The refund of everything not refunded yet (a cancellation): every unit left of every line,
    /// restocked when `restock`, and the delivery charge if it is not refunded yet.
    ///
    /// # Errors
    /// [`RefundError::NothingLeft`] when nothing is left; [`RefundError::AbovePaid`] when earlier
    /// refunds leave less than these units cost.
    pub fn refund_all(&self, restock: bool, reason: &RefundReason) -> Result<RefundAmounts, RefundError> {
        let lines: Vec<RefundLine> = self
            .lines
            .iter()
            .filter(|l| l.left() > 0)
            .map(|l| RefundLine {
                product: l.product.clone(),
                name: l.name.clone(),
                quantity: l.left(),
                amount: units_amount(l.net, l.ordered, l.refunded, l.left()),
                restock,
                reason: reason.clone(),
            })
            .collect();
        let delivery = if self.delivery_refunded { Money::ZERO } else { self.delivery.max(Money::ZERO) };
        if lines.is_empty() && delivery == Money::ZERO {
            return Err(RefundError::NothingLeft);
        }
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
        Ok(RefundAmounts { lines, delivery, total })
    }
}

#[cfg(test)]
#[expect(clippy::inconsistent_digit_grouping, reason = "paise written as rupees_paise, e.g. 2_499_50 is ₹2,499.50")]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::cart::Quantity;

    fn line(product: &str, price: i64, quantity: u32) -> OrderLine {
        OrderLine {
            product_id: ProductId(product.into()),
            name: format!("Part {product}"),
            quantity: Quantity::new(quantity).expect("≥1"),
            price: Money::from_paise(price),
            gst: 18,
            hsn: None,
        }
    }

    fn reason() -> RefundReason {
        RefundReason::parse("customer asked").expect("valid")
    }

    fn ask(product: &str, quantity: i64) -> RefundAsk {
        RefundAsk { product: ProductId(product.into()), quantity, restock: true, reason: None }
    }

    fn fresh(lines: &[OrderLine], discount: i64, delivery: i64) -> Refundable {
        let items: i64 = lines.iter().map(|l| l.amount().paise()).sum();
        Refundable::of_order(
            lines,
            Money::from_paise(discount),
            Money::from_paise(delivery),
            Money::from_paise(items - discount + delivery),
            &BTreeMap::new(),
            false,
            Money::ZERO,
        )
    }

    #[test]
    fn the_discount_is_shared_by_value_and_the_last_line_takes_the_remainder() {
        // ₹100 of discount over ₹300 and ₹600 (+ ₹100): 100×300/1000 = 30, 100×600/1000 = 60, last 10.
        let shares = discount_shares(
            &[Money::from_rupees(300), Money::from_rupees(600), Money::from_rupees(100)],
            Money::from_rupees(100),
        );
        assert_eq!(shares, vec![Money::from_rupees(30), Money::from_rupees(60), Money::from_rupees(10)]);
        // 1 paisa over three equal lines: the first two round down to 0, the last takes it.
        let odd = discount_shares(&[Money::from_paise(100); 3], Money::from_paise(1));
        assert_eq!(odd, vec![Money::ZERO, Money::ZERO, Money::from_paise(1)]);
        assert_eq!(discount_shares(&[], Money::from_rupees(5)), Vec::<Money>::new());
    }

    #[test]
    fn one_line_of_two_is_refunded_net_of_its_share() {
        // ₹1,999.99 × 2 and ₹500 × 1; 5 % off ₹4,499.98 is ₹224 (whole rupees); delivery ₹300.
        let order = fresh(&[line("a", 1_999_99, 2), line("b", 500_00, 1)], 224_00, 300_00);
        // Line a: 22400 × 399998 / 449998 = 19911.0… → ₹199.11; line b takes ₹24.89.
        assert_eq!(order.lines[0].net, Money::from_paise(3_999_98 - 199_11));
        assert_eq!(order.lines[1].net, Money::from_paise(500_00 - 24_89));
        let one = order.refund(&[ask("a", 1)], false, &reason()).expect("one unit");
        // Half of ₹3,800.87 rounded down: ₹1,900.43; the second unit will take ₹1,900.44.
        assert_eq!(one.total, Money::from_paise(1_900_43));
        assert_eq!(units_amount(order.lines[0].net, 2, 1, 1), Money::from_paise(1_900_44));
        let with_delivery = order.refund(&[ask("b", 1)], true, &reason()).expect("b and delivery");
        assert_eq!(with_delivery.total, Money::from_paise(475_11 + 300_00));
        assert_eq!(with_delivery.delivery, Money::from_paise(300_00));
    }

    #[test]
    fn refusals_name_the_rule() {
        let order = fresh(&[line("a", 1_000_00, 2)], 0, 0);
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
        let cheap = fresh(&[line("c", 50, 1)], 0, 0);
        assert_eq!(
            cheap.refund(&[ask("c", 1)], false, &reason()),
            Err(RefundError::TooSmall { amount: Money::from_paise(50) })
        );
        assert_eq!(RefundReason::parse("  "), Err(RefundError::ReasonInvalid));
        assert_eq!(RefundReason::parse(&"x".repeat(201)), Err(RefundError::ReasonInvalid));
    }

    #[test]
    fn cancelling_after_a_partial_refund_gives_back_exactly_the_rest() {
        let lines = [line("a", 1_999_99, 2), line("b", 500_00, 3)];
        let mut order = fresh(&lines, 350_00, 150_00);
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

    fn any_order() -> impl Strategy<Value = (Vec<OrderLine>, i64, i64)> {
        (proptest::collection::vec((100i64..5_000_000, 1u32..=10), 1..=20), 0u32..=90, 0i64..=100_000).prop_map(
            |(specs, percent, delivery)| {
                let lines: Vec<OrderLine> =
                    specs.iter().enumerate().map(|(i, (price, qty))| line(&format!("p{i}"), *price, *qty)).collect();
                let items: i64 = lines.iter().map(|l| l.amount().paise()).sum();
                // The checkout's rule: whole rupees of the percentage.
                let discount = items * i64::from(percent) / 100 / 100 * 100;
                (lines, discount, delivery)
            },
        )
    }

    proptest! {
        /// The shares add up to the discount exactly, none is negative, and none is more than its
        /// line's value.
        #[test]
        fn shares_sum_exactly((lines, discount, _) in any_order()) {
            let values: Vec<Money> = lines.iter().map(OrderLine::amount).collect();
            let shares = discount_shares(&values, Money::from_paise(discount));
            prop_assert_eq!(shares.iter().copied().sum::<Money>(), Money::from_paise(discount));
            for (share, value) in shares.iter().zip(&values) {
                prop_assert!(share.paise() >= 0 && share <= value, "{:?} of {:?}", share, value);
            }
        }

        /// Whatever units are refunded in whatever steps, the refunds never total more than was
        /// paid, and refunding everything gives back exactly what was paid.
        #[test]
        fn refunds_never_exceed_what_was_paid(
            (lines, discount, delivery) in any_order(),
            steps in proptest::collection::vec((0usize..20, 1i64..=10, any::<bool>()), 0..30),
        ) {
            let mut order = fresh(&lines, discount, delivery);
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
            } else {
                prop_assert_eq!(order.refunded, order.paid);
            }
        }
    }
}
