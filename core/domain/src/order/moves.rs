//! How an order's status may move (docs/shop-rules.md, "Orders"): 1 Placed → 2 Confirmed → 3 Packed
//! → 4 Shipped → 5 Delivered, one step at a time; 6 Cancelled only by cancelling, and only from 1–3.
//! Shipped needs a shipment (courier and AWB). The back office's handlers ask these rules, never
//! decide themselves.

use crate::message::{user_facing_error, Message, UserFacing};
use crate::order::{OrderStatus, Shipment};

/// Why a change of an order's status or shipment is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderMoveError {
    /// Not the next step from where the order is (`order.illegal_move`).
    Illegal { from: OrderStatus, to: OrderStatus },
    /// Status 6 is reached only by cancelling, which refunds (`order.cancel_by_cancel`).
    CancelOnlyByCancel,
    /// Shipped without a courier and an AWB (`order.shipment_required`).
    ShipmentRequired,
    /// A courier and AWB given while the order does not ship, or after delivery (`order.shipment_not_now`).
    ShipmentNotNow { status: OrderStatus },
    /// Neither the status nor the shipment would change (`order.no_change`).
    NoChange,
}

impl UserFacing for OrderMoveError {
    fn message(&self) -> Message {
        match self {
            OrderMoveError::Illegal { .. } => Message::OrderIllegalMove,
            OrderMoveError::CancelOnlyByCancel => Message::OrderCancelByCancel,
            OrderMoveError::ShipmentRequired => Message::OrderShipmentRequired,
            OrderMoveError::ShipmentNotNow { .. } => Message::OrderShipmentNotNow,
            OrderMoveError::NoChange => Message::OrderNoChange,
        }
    }
}
user_facing_error!(OrderMoveError);

impl OrderStatus {
    /// The one status an order moves on to from this one, or `None` (delivered, cancelled).
    #[must_use]
    pub const fn next(self) -> Option<OrderStatus> {
        match self {
            OrderStatus::Placed => Some(OrderStatus::Confirmed),
            OrderStatus::Confirmed => Some(OrderStatus::Packed),
            OrderStatus::Packed => Some(OrderStatus::Shipped),
            OrderStatus::Shipped => Some(OrderStatus::Delivered),
            OrderStatus::Delivered | OrderStatus::Cancelled => None,
        }
    }

    /// Whether the shop may still cancel an order at this status (before it ships: 1–3).
    #[must_use]
    pub const fn cancellable(self) -> bool {
        matches!(self, OrderStatus::Placed | OrderStatus::Confirmed | OrderStatus::Packed)
    }
}

/// Where an order stands: its status and, once shipped, its shipment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fulfilment {
    pub status: OrderStatus,
    pub shipment: Option<Shipment>,
}

/// What staff ask for: a new status, a shipment, or both (either may be left out).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FulfilmentChange {
    pub status: Option<OrderStatus>,
    pub shipment: Option<Shipment>,
}

impl Fulfilment {
    /// Where the order stands after `change`, by the shop's rules:
    /// - a new status must be the next step ([`OrderStatus::next`]); 6 only through [`Fulfilment::cancel`];
    /// - moving to 4 needs a shipment, given now or already held; a shipment may be given only with
    ///   that move, or to correct it while the order is at 4;
    /// - a change that changes nothing is refused, so a repeated request is told so.
    ///
    /// # Errors
    /// The [`OrderMoveError`] of the first rule broken.
    pub fn apply(&self, change: &FulfilmentChange) -> Result<Fulfilment, OrderMoveError> {
        let to = change.status.unwrap_or(self.status);
        if to == OrderStatus::Cancelled && self.status != OrderStatus::Cancelled {
            return Err(OrderMoveError::CancelOnlyByCancel);
        }
        if to != self.status && self.status.next() != Some(to) {
            return Err(OrderMoveError::Illegal { from: self.status, to });
        }
        if change.shipment.is_some() && to != OrderStatus::Shipped {
            return Err(OrderMoveError::ShipmentNotNow { status: to });
        }
        let shipment = change.shipment.clone().or_else(|| self.shipment.clone());
        if to == OrderStatus::Shipped && shipment.is_none() {
            return Err(OrderMoveError::ShipmentRequired);
        }
        let after = Fulfilment { status: to, shipment };
        if after == *self {
            return Err(OrderMoveError::NoChange);
        }
        Ok(after)
    }

    /// The order cancelled, if it may be (before it ships); the shipment, if any, is kept.
    ///
    /// # Errors
    /// [`OrderMoveError::Illegal`] from 4, 5 or 6.
    pub fn cancel(&self) -> Result<Fulfilment, OrderMoveError> {
        if self.status.cancellable() {
            Ok(Fulfilment { status: OrderStatus::Cancelled, shipment: self.shipment.clone() })
        } else {
            Err(OrderMoveError::Illegal { from: self.status, to: OrderStatus::Cancelled })
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::order::Courier;

    fn shipment(awb: &str) -> Shipment {
        Shipment::parse("delhivery", awb, None).expect("valid")
    }

    fn at(status: OrderStatus) -> Fulfilment {
        let shipment = matches!(status, OrderStatus::Shipped | OrderStatus::Delivered).then(|| shipment("1234567"));
        Fulfilment { status, shipment }
    }

    fn to(status: OrderStatus) -> FulfilmentChange {
        FulfilmentChange { status: Some(status), shipment: None }
    }

    #[test]
    fn the_happy_path_is_one_step_at_a_time() {
        let mut order = at(OrderStatus::Placed);
        order = order.apply(&to(OrderStatus::Confirmed)).expect("1 → 2");
        order = order.apply(&to(OrderStatus::Packed)).expect("2 → 3");
        assert_eq!(order.apply(&to(OrderStatus::Shipped)), Err(OrderMoveError::ShipmentRequired));
        order = order
            .apply(&FulfilmentChange { status: Some(OrderStatus::Shipped), shipment: Some(shipment("998877665")) })
            .expect("3 → 4 with a shipment");
        assert_eq!(order.shipment.as_ref().map(|s| s.awb().as_str()), Some("998877665"));
        order = order.apply(&to(OrderStatus::Delivered)).expect("4 → 5");
        assert_eq!(order.status, OrderStatus::Delivered);
        assert_eq!(order.shipment.as_ref().map(Shipment::courier), Some(Courier::Delhivery), "kept after delivery");
    }

    #[test]
    fn skipping_going_back_and_cancelling_by_patch_are_refused() {
        use OrderStatus::*;
        let cases = [
            (Placed, Packed, OrderMoveError::Illegal { from: Placed, to: Packed }),
            (Placed, Delivered, OrderMoveError::Illegal { from: Placed, to: Delivered }),
            (Packed, Confirmed, OrderMoveError::Illegal { from: Packed, to: Confirmed }),
            (Delivered, Shipped, OrderMoveError::Illegal { from: Delivered, to: Shipped }),
            (Cancelled, Placed, OrderMoveError::Illegal { from: Cancelled, to: Placed }),
            (Placed, Cancelled, OrderMoveError::CancelOnlyByCancel),
            (Packed, Cancelled, OrderMoveError::CancelOnlyByCancel),
            (Confirmed, Confirmed, OrderMoveError::NoChange),
        ];
        for (from, target, error) in cases {
            assert_eq!(at(from).apply(&to(target)), Err(error), "{from:?} → {target:?}");
        }
        assert_eq!(OrderMoveError::Illegal { from: Placed, to: Packed }.code(), "order.illegal_move");
        assert_eq!(OrderMoveError::CancelOnlyByCancel.code(), "order.cancel_by_cancel");
    }

    #[test]
    fn a_shipment_is_given_only_to_ship_or_to_correct_it() {
        let with = |status, awb| FulfilmentChange { status, shipment: Some(shipment(awb)) };
        assert_eq!(
            at(OrderStatus::Confirmed).apply(&with(None, "1234567")),
            Err(OrderMoveError::ShipmentNotNow { status: OrderStatus::Confirmed })
        );
        assert_eq!(
            at(OrderStatus::Shipped).apply(&with(Some(OrderStatus::Delivered), "7654321")),
            Err(OrderMoveError::ShipmentNotNow { status: OrderStatus::Delivered })
        );
        let corrected = at(OrderStatus::Shipped).apply(&with(None, "7654321")).expect("a corrected AWB");
        assert_eq!((corrected.status, corrected.shipment), (OrderStatus::Shipped, Some(shipment("7654321"))));
        assert_eq!(at(OrderStatus::Shipped).apply(&with(None, "1234567")), Err(OrderMoveError::NoChange));
        assert_eq!(at(OrderStatus::Shipped).apply(&FulfilmentChange::default()), Err(OrderMoveError::NoChange));
    }

    #[test]
    fn only_orders_not_yet_shipped_are_cancelled() {
        for status in OrderStatus::ALL {
            let cancelled = at(status).cancel();
            assert_eq!(cancelled.is_ok(), status.number() <= 3, "{status:?}");
            if let Ok(c) = cancelled {
                assert_eq!(c.status, OrderStatus::Cancelled);
            }
        }
    }

    fn any_status() -> impl Strategy<Value = OrderStatus> {
        (0usize..6).prop_map(|i| OrderStatus::ALL[i])
    }

    fn any_change() -> impl Strategy<Value = FulfilmentChange> {
        (proptest::option::of(any_status()), proptest::option::of("[0-9]{6,12}"))
            .prop_map(|(status, awb)| FulfilmentChange { status, shipment: awb.map(|a| shipment(&a)) })
    }

    proptest! {
        /// Whatever staff ask, in whatever order, an order only ever moves one step forward, never
        /// reaches 6 through a change, and is never at 4 or 5 without a shipment.
        #[test]
        fn any_sequence_of_changes_follows_the_rules(changes in proptest::collection::vec(any_change(), 0..40)) {
            let mut order = at(OrderStatus::Placed);
            for change in &changes {
                match order.apply(change) {
                    Ok(after) => {
                        let step = after.status.number() - order.status.number();
                        prop_assert!(step == 0 || step == 1, "{:?} → {:?}", order.status, after.status);
                        prop_assert!(after.status != OrderStatus::Cancelled);
                        prop_assert!(after != order);
                        if step == 0 {
                            prop_assert_eq!(after.status, OrderStatus::Shipped, "only a shipment is corrected in place");
                        }
                        order = after;
                    }
                    Err(e) => prop_assert!(!e.code().is_empty()),
                }
                if order.status.number() >= 4 {
                    prop_assert!(order.shipment.is_some());
                }
            }
        }

        /// A move between two statuses is allowed exactly when it is the next step (with the
        /// shipment 4 needs), whatever status the order is at.
        #[test]
        fn a_move_is_legal_exactly_when_it_is_the_next_step(from in any_status(), target in any_status()) {
            let change = FulfilmentChange {
                status: Some(target),
                shipment: (target == OrderStatus::Shipped && from != OrderStatus::Shipped).then(|| shipment("55555555")),
            };
            let legal = from.next() == Some(target);
            prop_assert_eq!(at(from).apply(&change).is_ok(), legal, "{:?} → {:?}", from, target);
        }
    }
}
