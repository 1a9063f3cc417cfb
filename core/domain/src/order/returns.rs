//! Returns within the warranty (issue 24): a customer asks to return units of a delivered line
//! within the product's warranty days after delivery, with a reason and up to three photographs;
//! the shop approves or refuses it with a note, receives the part, inspects it and resolves the
//! return as a refund, a replacement or store credit.
//!
//! The rules here are pure: the window ([`ReturnWindow`]), how many units may still be asked for
//! ([`units_left`]), the texts' limits and the moves between states ([`ReturnState`]).

use crate::catalog::WarrantyDays;
use crate::message::{user_facing_error, Message, UserFacing};
use crate::order::OrderLine;

/// Fewest characters of a customer's reason.
pub const RETURN_REASON_MIN: usize = 10;
/// Most characters of a customer's reason.
pub const RETURN_REASON_MAX: usize = 1000;
/// Most characters of the shop's note (approval, refusal, inspection).
pub const RETURN_NOTE_MAX: usize = 1000;
/// Most photographs a return request carries.
pub const MAX_RETURN_PHOTOS: usize = 3;
/// The warranty a line gets when its product is gone from the catalog (the catalog's default).
pub const FALLBACK_WARRANTY_DAYS: u8 = 7;
/// Seconds in a day: the window counts whole days of 24 hours from the delivery.
const DAY: i64 = 86_400;

/// Why a return cannot be asked for or moved as asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReturnError {
    /// A reason shorter than [`RETURN_REASON_MIN`] or longer than [`RETURN_REASON_MAX`] (`return.reason_invalid`).
    ReasonInvalid,
    /// A note longer than [`RETURN_NOTE_MAX`], or a refusal without one (`return.note_invalid`).
    NoteInvalid,
    /// A quantity below 1 (`return.quantity_invalid`).
    QuantityInvalid,
    /// More units than are left to return of the line (`return.quantity_above_left`).
    QuantityAboveLeft { left: u32 },
    /// The order holds no such line (`return.unknown_line`).
    UnknownLine,
    /// The order is not delivered (`return.not_delivered`).
    NotDelivered,
    /// The warranty's days after delivery are over (`return.window_closed`).
    WindowClosed,
    /// More than [`MAX_RETURN_PHOTOS`] photographs (`return.too_many_photos`).
    TooManyPhotos,
    /// A move the return's state does not allow (`return.illegal_move`).
    IllegalMove { from: ReturnState },
}

impl UserFacing for ReturnError {
    fn message(&self) -> Message {
        match self {
            ReturnError::ReasonInvalid => Message::ReturnReasonInvalid,
            ReturnError::NoteInvalid => Message::ReturnNoteInvalid,
            ReturnError::QuantityInvalid => Message::ReturnQuantityInvalid,
            ReturnError::QuantityAboveLeft { .. } => Message::ReturnQuantityAboveLeft,
            ReturnError::UnknownLine => Message::ReturnUnknownLine,
            ReturnError::NotDelivered => Message::ReturnNotDelivered,
            ReturnError::WindowClosed => Message::ReturnWindowClosed,
            ReturnError::TooManyPhotos => Message::ReturnTooManyPhotos,
            ReturnError::IllegalMove { .. } => Message::ReturnIllegalMove,
        }
    }
}
user_facing_error!(ReturnError);

/// A customer's reason: trimmed, [`RETURN_REASON_MIN`] to [`RETURN_REASON_MAX`] characters, no
/// control characters but line breaks.
///
/// # Errors
/// [`ReturnError::ReasonInvalid`].
pub fn parse_reason(raw: &str) -> Result<String, ReturnError> {
    let text = raw.trim();
    let count = text.chars().count();
    let clean = !text.chars().any(|c| c.is_control() && c != '\n' && c != '\r');
    if (RETURN_REASON_MIN..=RETURN_REASON_MAX).contains(&count) && clean {
        Ok(text.to_owned())
    } else {
        Err(ReturnError::ReasonInvalid)
    }
}

/// The shop's note: trimmed, at most [`RETURN_NOTE_MAX`] characters; `None` when empty. A refusal
/// must give one (`required`).
///
/// # Errors
/// [`ReturnError::NoteInvalid`].
pub fn parse_note(raw: Option<&str>, required: bool) -> Result<Option<String>, ReturnError> {
    let text = raw.map(str::trim).unwrap_or_default();
    if text.chars().count() > RETURN_NOTE_MAX || text.chars().any(|c| c.is_control() && c != '\n' && c != '\r') {
        return Err(ReturnError::NoteInvalid);
    }
    match (text.is_empty(), required) {
        (true, true) => Err(ReturnError::NoteInvalid),
        (true, false) => Ok(None),
        (false, _) => Ok(Some(text.to_owned())),
    }
}

/// The warranty days a line is returned within: those the line kept when its order was placed;
/// for a line of an order placed before lines kept them, the product's `current` warranty days;
/// for such a line whose product is gone, [`FALLBACK_WARRANTY_DAYS`].
#[must_use]
pub fn line_warranty_days(line: &OrderLine, current: Option<WarrantyDays>) -> u8 {
    line.warranty_days.or(current).map_or(FALLBACK_WARRANTY_DAYS, WarrantyDays::days)
}

/// When a delivered line may be returned: from its delivery for its warranty's days (each 24 hours).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReturnWindow {
    /// When the order was delivered (its move to status 5), seconds since 1970 UTC.
    pub delivered_at: i64,
    /// The product's warranty days (2–15).
    pub days: u8,
}

impl ReturnWindow {
    /// The first instant the window is closed.
    #[must_use]
    pub fn closes_at(self) -> i64 {
        self.delivered_at.saturating_add(i64::from(self.days) * DAY)
    }

    /// Whether a return may be asked for at `now`.
    #[must_use]
    pub fn open_at(self, now: i64) -> bool {
        now < self.closes_at()
    }

    /// # Errors
    /// [`ReturnError::WindowClosed`] at or after [`ReturnWindow::closes_at`].
    pub fn check(self, now: i64) -> Result<(), ReturnError> {
        if self.open_at(now) {
            Ok(())
        } else {
            Err(ReturnError::WindowClosed)
        }
    }
}

/// Units of a line that may still be asked back: what was bought, less what was refunded and what
/// other returns (not refused) already hold.
#[must_use]
pub fn units_left(ordered: u32, refunded: u32, returning: u32) -> u32 {
    ordered.saturating_sub(refunded).saturating_sub(returning)
}

/// The quantity asked for, checked against [`units_left`].
///
/// # Errors
/// [`ReturnError::QuantityInvalid`] below 1; [`ReturnError::QuantityAboveLeft`] above what is left.
pub fn check_quantity(asked: i64, left: u32) -> Result<u32, ReturnError> {
    let quantity = u32::try_from(asked).ok().filter(|q| *q >= 1).ok_or(ReturnError::QuantityInvalid)?;
    if quantity > left {
        return Err(ReturnError::QuantityAboveLeft { left });
    }
    Ok(quantity)
}

/// Whether a return at `state`, resolved as `outcome`, keeps its units from a refund of the order
/// made apart from it: an open one holds them (asked for, approved, received), and one settled as a
/// replacement or store credit has given them back already. A refused return holds none, and one
/// resolved as a refund is counted as that refund.
#[must_use]
pub fn keeps_units_from_refunds(state: ReturnState, outcome: Option<ReturnOutcome>) -> bool {
    state != ReturnState::Refused && outcome != Some(ReturnOutcome::Refund)
}

/// What the shop gave for a received return.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReturnOutcome {
    /// The units' money back, with a GST credit note.
    Refund,
    /// The same part again, as a new order at no charge.
    Replacement,
    /// Store credit of the units' value, valid six months.
    StoreCredit,
}

impl ReturnOutcome {
    pub const ALL: [ReturnOutcome; 3] = [ReturnOutcome::Refund, ReturnOutcome::Replacement, ReturnOutcome::StoreCredit];

    /// `refund`, `replacement`, `storeCredit`: as stored and answered.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            ReturnOutcome::Refund => "refund",
            ReturnOutcome::Replacement => "replacement",
            ReturnOutcome::StoreCredit => "storeCredit",
        }
    }

    #[must_use]
    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.code() == code.trim())
    }

    /// Whether the outcome gives money (a refund or credit): it follows the refunds' role rule.
    #[must_use]
    pub const fn is_money(self) -> bool {
        matches!(self, ReturnOutcome::Refund | ReturnOutcome::StoreCredit)
    }
}

/// Where a return stands: requested → approved | refused; approved → received → resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReturnState {
    Requested,
    Approved,
    Refused,
    Received,
    Resolved,
}

impl ReturnState {
    pub const ALL: [ReturnState; 5] = [
        ReturnState::Requested,
        ReturnState::Approved,
        ReturnState::Refused,
        ReturnState::Received,
        ReturnState::Resolved,
    ];

    /// `requested`, `approved`, `refused`, `received`, `resolved`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            ReturnState::Requested => "requested",
            ReturnState::Approved => "approved",
            ReturnState::Refused => "refused",
            ReturnState::Received => "received",
            ReturnState::Resolved => "resolved",
        }
    }

    #[must_use]
    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.code() == code.trim())
    }

    /// Whether the shop still has something to do: the dashboard's "returns waiting".
    #[must_use]
    pub const fn is_waiting(self) -> bool {
        matches!(self, ReturnState::Requested | ReturnState::Approved | ReturnState::Received)
    }

    /// Whether the return holds its units (every state but refused): they cannot be asked back twice.
    #[must_use]
    pub const fn holds_units(self) -> bool {
        !matches!(self, ReturnState::Refused)
    }

    fn step(self, from: ReturnState, to: ReturnState) -> Result<ReturnState, ReturnError> {
        if self == from {
            Ok(to)
        } else {
            Err(ReturnError::IllegalMove { from: self })
        }
    }

    /// # Errors
    /// [`ReturnError::IllegalMove`] unless requested.
    pub fn approve(self) -> Result<ReturnState, ReturnError> {
        self.step(ReturnState::Requested, ReturnState::Approved)
    }

    /// # Errors
    /// [`ReturnError::IllegalMove`] unless requested.
    pub fn refuse(self) -> Result<ReturnState, ReturnError> {
        self.step(ReturnState::Requested, ReturnState::Refused)
    }

    /// # Errors
    /// [`ReturnError::IllegalMove`] unless approved.
    pub fn receive(self) -> Result<ReturnState, ReturnError> {
        self.step(ReturnState::Approved, ReturnState::Received)
    }

    /// # Errors
    /// [`ReturnError::IllegalMove`] unless received.
    pub fn resolve(self) -> Result<ReturnState, ReturnError> {
        self.step(ReturnState::Received, ReturnState::Resolved)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn a_line_is_returned_within_the_days_it_kept_else_the_products_current_else_a_week() {
        let days = |n| WarrantyDays::new(n).expect("2 to 15");
        let mut line = OrderLine::sample("disc", 100_000, 1, 18);
        // An order placed before lines kept their warranty: the product's days today, or a week when it is gone.
        assert_eq!(line_warranty_days(&line, Some(days(3))), 3);
        assert_eq!(line_warranty_days(&line, None), FALLBACK_WARRANTY_DAYS);
        // A line that kept its days uses them, whatever the product says now.
        line.warranty_days = Some(days(10));
        assert_eq!(line_warranty_days(&line, Some(days(2))), 10);
        assert_eq!(line_warranty_days(&line, None), 10);
        // A line stored before the snapshot (no `warranty_days` in its JSON) reads as none.
        let mut stored = serde_json::to_value(&line).expect("json");
        assert_eq!(stored["warranty_days"], 10);
        stored.as_object_mut().expect("an object").remove("warranty_days");
        let old: OrderLine = serde_json::from_value(stored).expect("an older line");
        assert_eq!(old.warranty_days, None);
    }

    #[test]
    fn the_window_is_the_warranty_days_after_delivery() {
        let w = ReturnWindow { delivered_at: 1_000_000, days: 7 };
        assert_eq!(w.closes_at(), 1_000_000 + 7 * 86_400);
        assert!(w.open_at(1_000_000));
        assert!(w.open_at(w.closes_at() - 1));
        assert_eq!(w.check(w.closes_at()), Err(ReturnError::WindowClosed));
        assert_eq!(ReturnError::WindowClosed.code(), "return.window_closed");
    }

    #[test]
    fn states_move_only_forward_along_the_rules() {
        use ReturnState::*;
        assert_eq!(Requested.approve(), Ok(Approved));
        assert_eq!(Requested.refuse(), Ok(Refused));
        assert_eq!(Approved.receive(), Ok(Received));
        assert_eq!(Received.resolve(), Ok(Resolved));
        for s in ReturnState::ALL {
            assert_eq!(ReturnState::parse(s.code()), Some(s));
            if s != Requested {
                assert_eq!(s.approve(), Err(ReturnError::IllegalMove { from: s }));
                assert_eq!(s.refuse(), Err(ReturnError::IllegalMove { from: s }));
            }
            if s != Approved {
                assert_eq!(s.receive(), Err(ReturnError::IllegalMove { from: s }));
            }
            if s != Received {
                assert_eq!(s.resolve(), Err(ReturnError::IllegalMove { from: s }));
            }
        }
        assert!(Requested.is_waiting() && Approved.is_waiting() && Received.is_waiting());
        assert!(!Refused.is_waiting() && !Resolved.is_waiting());
        assert!(!Refused.holds_units() && Resolved.holds_units());
        assert_eq!(ReturnError::IllegalMove { from: Resolved }.code(), "return.illegal_move");
    }

    #[test]
    fn outcomes_parse_from_their_codes() {
        for o in ReturnOutcome::ALL {
            assert_eq!(ReturnOutcome::parse(o.code()), Some(o));
        }
        assert_eq!(ReturnOutcome::parse("cash"), None);
        assert!(ReturnOutcome::Refund.is_money() && ReturnOutcome::StoreCredit.is_money());
        assert!(!ReturnOutcome::Replacement.is_money());
    }

    #[test]
    fn reasons_and_notes_have_limits() {
        assert_eq!(parse_reason("  too short "), Err(ReturnError::ReasonInvalid), "9 characters");
        assert_eq!(parse_reason("The disc is warped out of the box"), Ok("The disc is warped out of the box".into()));
        assert_eq!(parse_reason(&"x".repeat(1001)), Err(ReturnError::ReasonInvalid));
        assert_eq!(parse_reason("warped\u{0}disc badly"), Err(ReturnError::ReasonInvalid));
        assert_eq!(parse_note(None, false), Ok(None));
        assert_eq!(parse_note(Some("  "), true), Err(ReturnError::NoteInvalid));
        assert_eq!(parse_note(Some(" ok "), true), Ok(Some("ok".into())));
        assert_eq!(parse_note(Some(&"n".repeat(1001)), false), Err(ReturnError::NoteInvalid));
    }

    #[test]
    fn quantities_are_checked_against_what_is_left() {
        assert_eq!(units_left(3, 1, 1), 1);
        assert_eq!(units_left(1, 1, 1), 0);
        assert_eq!(check_quantity(1, 1), Ok(1));
        assert_eq!(check_quantity(0, 1), Err(ReturnError::QuantityInvalid));
        assert_eq!(check_quantity(-2, 1), Err(ReturnError::QuantityInvalid));
        assert_eq!(check_quantity(2, 1), Err(ReturnError::QuantityAboveLeft { left: 1 }));
        assert_eq!(check_quantity(i64::MAX, 5), Err(ReturnError::QuantityInvalid));
    }

    proptest! {
        /// A return may be asked for exactly while fewer than the warranty's days of 24 hours have
        /// passed since the delivery.
        #[test]
        fn the_window_opens_at_delivery_for_exactly_the_warranty_days(
            delivered in 0i64..4_000_000_000, days in 2u8..=15, after in -86_400i64..(20 * 86_400),
        ) {
            let w = ReturnWindow { delivered_at: delivered, days };
            let now = delivered + after;
            prop_assert_eq!(w.open_at(now), after < i64::from(days) * 86_400);
            prop_assert_eq!(w.check(now).is_ok(), w.open_at(now));
        }

        /// Whatever is asked, in whatever steps, the units held by returns never exceed what was
        /// bought less what was refunded.
        #[test]
        fn returns_never_hold_more_units_than_are_left(
            ordered in 1u32..=20, refunded in 0u32..=20, asks in proptest::collection::vec(-3i64..=25, 0..12),
        ) {
            let refunded = refunded.min(ordered);
            let mut returning = 0u32;
            for asked in asks {
                if let Ok(q) = check_quantity(asked, units_left(ordered, refunded, returning)) {
                    prop_assert!(q >= 1);
                    returning += q;
                }
                prop_assert!(returning + refunded <= ordered);
            }
        }
    }

    #[test]
    fn open_returns_and_those_settled_otherwise_keep_their_units_from_refunds() {
        use ReturnOutcome::{Refund, Replacement, StoreCredit};
        for state in [ReturnState::Requested, ReturnState::Approved, ReturnState::Received] {
            assert!(keeps_units_from_refunds(state, None), "{state:?}");
        }
        assert!(keeps_units_from_refunds(ReturnState::Resolved, Some(StoreCredit)));
        assert!(keeps_units_from_refunds(ReturnState::Resolved, Some(Replacement)));
        assert!(!keeps_units_from_refunds(ReturnState::Resolved, Some(Refund)), "counted as its refund");
        assert!(!keeps_units_from_refunds(ReturnState::Refused, None));
    }
}
