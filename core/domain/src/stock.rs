//! The stock ledger: a product's stock is the sum of its entries (STYLE.md, "A ledger, not a
//! number"). Staff record what happened (stock received, a correction, damage, a return to stock,
//! a sale over the counter); the shop itself records the opening stock, imports and the order
//! store's reservations, releases and sales. A correction is a new entry, never an edit.

use serde::{Deserialize, Serialize};

use crate::message::Message;

/// Why a product's stock changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StockReason {
    /// The stock a product had when the ledger began, or when it was created.
    Opening,
    /// Units that arrived from a supplier (staff; adds).
    Received,
    /// A count that did not match (staff; adds or takes away).
    Correction,
    /// Units found broken or unsellable (staff; takes away).
    Damaged,
    /// Units a customer brought back, put back on the shelf (staff; adds).
    Returned,
    /// Units sold over the counter, outside the web shop (staff; takes away).
    SoldOffline,
    /// Set by a catalog import (system).
    Import,
    /// Units held for a customer's payment (system; takes away).
    Reserved,
    /// A hold that ended without payment gave its units back (system; adds).
    Released,
    /// A reservation became an order (system; takes away only when its hold had lapsed and the units
    /// were taken again, otherwise it records the sale with a change of zero).
    Sold,
}

impl StockReason {
    /// Every reason, in the order the admin lists them.
    pub const ALL: [StockReason; 10] = [
        StockReason::Opening,
        StockReason::Received,
        StockReason::Correction,
        StockReason::Damaged,
        StockReason::Returned,
        StockReason::SoldOffline,
        StockReason::Import,
        StockReason::Reserved,
        StockReason::Released,
        StockReason::Sold,
    ];

    /// The reasons staff may give an adjustment; the others are written by the shop itself.
    pub const STAFF: [StockReason; 5] = [
        StockReason::Received,
        StockReason::Correction,
        StockReason::Damaged,
        StockReason::Returned,
        StockReason::SoldOffline,
    ];

    /// The stored and wire name (`sold_offline`, …).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            StockReason::Opening => "opening",
            StockReason::Received => "received",
            StockReason::Correction => "correction",
            StockReason::Damaged => "damaged",
            StockReason::Returned => "returned",
            StockReason::SoldOffline => "sold_offline",
            StockReason::Import => "import",
            StockReason::Reserved => "reserved",
            StockReason::Released => "released",
            StockReason::Sold => "sold",
        }
    }

    /// The reason stored as `name`, any of [`StockReason::ALL`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        StockReason::ALL.into_iter().find(|r| r.as_str() == name)
    }

    /// Whether staff may give this reason to an adjustment.
    #[must_use]
    pub const fn is_staff(self) -> bool {
        matches!(
            self,
            StockReason::Received
                | StockReason::Correction
                | StockReason::Damaged
                | StockReason::Returned
                | StockReason::SoldOffline
        )
    }

    /// A reason staff typed.
    ///
    /// # Errors
    /// [`Message::StockReasonUnknown`] for anything but a staff reason (the system's reasons included).
    pub fn parse_staff(name: &str) -> Result<Self, Message> {
        StockReason::from_name(name.trim()).filter(|r| r.is_staff()).ok_or(Message::StockReasonUnknown)
    }
}

impl std::fmt::Display for StockReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Most units one adjustment may move either way (a typo guard: no shop receives a million of one part).
pub const MAX_ADJUSTMENT: i64 = 100_000;
/// Most characters of an adjustment's note.
pub const NOTE_MAX_CHARS: usize = 500;
/// The low-stock threshold a product has until staff set one: listed as low at this many units or fewer.
pub const DEFAULT_LOW_STOCK_THRESHOLD: u32 = 5;
/// Highest low-stock threshold staff may set.
pub const MAX_LOW_STOCK_THRESHOLD: u32 = 100_000;

/// A staff member's adjustment, checked: a staff reason, a change of the reason's sign and never
/// zero, and an optional note of at most [`NOTE_MAX_CHARS`] characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjustment {
    pub delta: i64,
    pub reason: StockReason,
    /// Trimmed; `None` when empty.
    pub note: Option<String>,
}

impl Adjustment {
    /// Checks an adjustment as staff typed it.
    ///
    /// # Errors
    /// - [`Message::StockReasonUnknown`]: not one of received, correction, damaged, returned, sold_offline;
    /// - [`Message::StockDeltaZero`]: a change of zero;
    /// - [`Message::StockDeltaTooLarge`]: more than [`MAX_ADJUSTMENT`] units either way;
    /// - [`Message::StockDeltaMustAdd`]: received or returned with a negative change;
    /// - [`Message::StockDeltaMustTake`]: damaged or sold offline with a positive change;
    /// - [`Message::StockNoteTooLong`]: a note over [`NOTE_MAX_CHARS`] characters.
    pub fn parse(delta: i64, reason: &str, note: Option<&str>) -> Result<Self, Message> {
        let reason = StockReason::parse_staff(reason)?;
        if delta == 0 {
            return Err(Message::StockDeltaZero);
        }
        if delta.unsigned_abs() > MAX_ADJUSTMENT.unsigned_abs() {
            return Err(Message::StockDeltaTooLarge);
        }
        match reason {
            StockReason::Received | StockReason::Returned if delta < 0 => return Err(Message::StockDeltaMustAdd),
            StockReason::Damaged | StockReason::SoldOffline if delta > 0 => return Err(Message::StockDeltaMustTake),
            _ => {}
        }
        let note = note.map(str::trim).filter(|n| !n.is_empty());
        if note.is_some_and(|n| n.chars().count() > NOTE_MAX_CHARS) {
            return Err(Message::StockNoteTooLong);
        }
        Ok(Adjustment { delta, reason, note: note.map(str::to_owned) })
    }
}

/// A product's low-stock threshold: listed as low when its stock is at or below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct LowStockThreshold(u32);

impl LowStockThreshold {
    pub const DEFAULT: LowStockThreshold = LowStockThreshold(DEFAULT_LOW_STOCK_THRESHOLD);

    /// # Errors
    /// [`Message::StockThresholdInvalid`] below 0 or above [`MAX_LOW_STOCK_THRESHOLD`].
    pub fn new(n: i64) -> Result<Self, Message> {
        u32::try_from(n)
            .ok()
            .filter(|n| *n <= MAX_LOW_STOCK_THRESHOLD)
            .map(LowStockThreshold)
            .ok_or(Message::StockThresholdInvalid)
    }

    #[must_use]
    pub const fn get(self) -> u32 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_round_trip_and_staff_ones_are_five() {
        for r in StockReason::ALL {
            assert_eq!(StockReason::from_name(r.as_str()), Some(r));
        }
        assert_eq!(StockReason::ALL.iter().filter(|r| r.is_staff()).count(), 5);
        assert!(StockReason::STAFF.iter().all(|r| r.is_staff()));
        assert_eq!(StockReason::parse_staff(" sold_offline "), Ok(StockReason::SoldOffline));
        for system in ["opening", "import", "reserved", "released", "sold", "", "Received", "lost"] {
            assert_eq!(StockReason::parse_staff(system), Err(Message::StockReasonUnknown), "{system}");
        }
    }

    #[test]
    fn each_reason_keeps_its_sign() {
        assert!(Adjustment::parse(3, "received", None).is_ok());
        assert!(Adjustment::parse(1, "returned", None).is_ok());
        assert!(Adjustment::parse(-2, "damaged", None).is_ok());
        assert!(Adjustment::parse(-1, "sold_offline", None).is_ok());
        assert!(Adjustment::parse(-4, "correction", None).is_ok());
        assert!(Adjustment::parse(4, "correction", None).is_ok());
        assert_eq!(Adjustment::parse(-3, "received", None), Err(Message::StockDeltaMustAdd));
        assert_eq!(Adjustment::parse(-3, "returned", None), Err(Message::StockDeltaMustAdd));
        assert_eq!(Adjustment::parse(2, "damaged", None), Err(Message::StockDeltaMustTake));
        assert_eq!(Adjustment::parse(2, "sold_offline", None), Err(Message::StockDeltaMustTake));
        for reason in StockReason::STAFF {
            assert_eq!(Adjustment::parse(0, reason.as_str(), None), Err(Message::StockDeltaZero));
        }
    }

    #[test]
    fn limits_on_size_and_note() {
        assert!(Adjustment::parse(MAX_ADJUSTMENT, "received", None).is_ok());
        assert!(Adjustment::parse(-MAX_ADJUSTMENT, "correction", None).is_ok());
        assert_eq!(Adjustment::parse(MAX_ADJUSTMENT + 1, "received", None), Err(Message::StockDeltaTooLarge));
        assert_eq!(Adjustment::parse(i64::MIN, "correction", None), Err(Message::StockDeltaTooLarge));
        let longest = "न".repeat(NOTE_MAX_CHARS);
        let ok = Adjustment::parse(1, "received", Some(&longest)).expect("500 characters fit");
        assert_eq!(ok.note.as_deref(), Some(longest.as_str()));
        let long = "a".repeat(NOTE_MAX_CHARS + 1);
        assert_eq!(Adjustment::parse(1, "received", Some(&long)), Err(Message::StockNoteTooLong));
        let blank = Adjustment::parse(1, "received", Some("   ")).expect("a blank note is no note");
        assert_eq!(blank.note, None);
        let trimmed = Adjustment::parse(1, "received", Some(" invoice 42 ")).expect("valid");
        assert_eq!(trimmed.note.as_deref(), Some("invoice 42"));
    }

    #[test]
    fn the_reason_is_checked_before_the_number() {
        assert_eq!(Adjustment::parse(0, "opening", None), Err(Message::StockReasonUnknown));
    }

    #[test]
    fn thresholds() {
        assert_eq!(LowStockThreshold::new(0).map(LowStockThreshold::get), Ok(0));
        assert_eq!(LowStockThreshold::new(100_000).map(LowStockThreshold::get), Ok(100_000));
        assert_eq!(LowStockThreshold::new(-1), Err(Message::StockThresholdInvalid));
        assert_eq!(LowStockThreshold::new(100_001), Err(Message::StockThresholdInvalid));
        assert_eq!(LowStockThreshold::DEFAULT.get(), DEFAULT_LOW_STOCK_THRESHOLD);
    }
}
