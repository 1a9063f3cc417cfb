//! A customer's discount offer and how much it takes off.

use serde::{Deserialize, Serialize};

use crate::calendar::{civil_from_days, days_from_civil, days_in_month, ist_day};
use crate::message::{user_facing_error, Message, UserFacing};
use crate::Money;

/// The smallest and largest percentage an owner may give a customer (the shop's rule).
pub const OFFER_PERCENT_RANGE: std::ops::RangeInclusive<u32> = 1..=90;

/// How far ahead an offer's last day may be: two years of days from today in India.
pub const OFFER_MAX_DAYS_AHEAD: i64 = 730;

/// A discount percentage, a whole number from 0 to 100.
///
/// Capped at 100 so a discount can never exceed what it discounts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct DiscountPercent(u8);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OfferError;

impl UserFacing for OfferError {
    fn message(&self) -> Message {
        Message::OfferPercentageInvalid
    }
}
user_facing_error!(OfferError);

impl DiscountPercent {
    pub const ZERO: DiscountPercent = DiscountPercent(0);

    /// # Errors
    /// [`OfferError`] above 100.
    pub fn new(percent: u32) -> Result<Self, OfferError> {
        u8::try_from(percent).ok().filter(|p| *p <= 100).map(Self).ok_or(OfferError)
    }

    #[must_use]
    pub fn get(self) -> u8 {
        self.0
    }
}

/// A percentage an owner may give as an offer is outside [`OFFER_PERCENT_RANGE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OfferPercentError;

impl UserFacing for OfferPercentError {
    fn message(&self) -> Message {
        Message::OfferPercentageRange
    }
}
user_facing_error!(OfferPercentError);

impl DiscountPercent {
    /// A percentage for a new offer: a whole number in [`OFFER_PERCENT_RANGE`] (1–90).
    ///
    /// # Errors
    /// [`OfferPercentError`] outside it.
    pub fn for_offer(percent: u32) -> Result<Self, OfferPercentError> {
        if OFFER_PERCENT_RANGE.contains(&percent) {
            Self::new(percent).map_err(|_| OfferPercentError)
        } else {
            Err(OfferPercentError)
        }
    }
}

impl TryFrom<u32> for DiscountPercent {
    type Error = OfferError;
    fn try_from(p: u32) -> Result<Self, Self::Error> {
        Self::new(p)
    }
}

impl From<DiscountPercent> for u32 {
    fn from(p: DiscountPercent) -> Self {
        u32::from(p.0)
    }
}

/// The user's `offerExp` and `percentage`, as the specification names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Offer {
    /// Above 0 means the discount is active.
    #[serde(rename = "offerExp")]
    pub offer_exp: i64,
    pub percentage: DiscountPercent,
}

impl Offer {
    /// No discount.
    pub const NONE: Offer = Offer { offer_exp: 0, percentage: DiscountPercent::ZERO };

    #[must_use]
    pub fn is_active(&self) -> bool {
        self.offer_exp > 0
    }

    /// The percentage that applies now: the offer's when active, else 0.
    #[must_use]
    pub fn percent_now(&self) -> DiscountPercent {
        if self.is_active() {
            self.percentage
        } else {
            DiscountPercent::ZERO
        }
    }
}

/// The last day an offer runs: a calendar day in India, inclusive (the offer ends at midnight
/// IST after it). Written `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OfferEndsOn {
    /// Days from 1970-01-01.
    day: i64,
}

/// Why a date cannot end a new offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferEndError {
    /// Not a real day written `YYYY-MM-DD`.
    Invalid,
    /// Before today in India.
    Past,
    /// More than [`OFFER_MAX_DAYS_AHEAD`] days after today in India.
    TooFar,
}

impl UserFacing for OfferEndError {
    fn message(&self) -> Message {
        match self {
            OfferEndError::Invalid => Message::OfferEndsOnInvalid,
            OfferEndError::Past => Message::OfferEndsOnPast,
            OfferEndError::TooFar => Message::OfferEndsOnTooFar,
        }
    }
}
user_facing_error!(OfferEndError);

impl OfferEndsOn {
    /// The day numbered `day` from 1970-01-01 (as stored).
    #[must_use]
    pub fn from_day(day: i64) -> Self {
        Self { day }
    }

    /// Days from 1970-01-01.
    #[must_use]
    pub fn day(self) -> i64 {
        self.day
    }

    /// A real day written `YYYY-MM-DD` (four-digit year, two-digit month and day), whenever it is.
    ///
    /// # Errors
    /// [`OfferEndError::Invalid`] for anything else.
    pub fn parse(text: &str) -> Result<Self, OfferEndError> {
        let b = text.as_bytes();
        let shaped = b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && b.iter().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
        if !shaped {
            return Err(OfferEndError::Invalid);
        }
        let number = |range: std::ops::Range<usize>| text.get(range).and_then(|t| t.parse::<u16>().ok());
        let (Some(year), Some(month), Some(day)) = (number(0..4), number(5..7), number(8..10)) else {
            return Err(OfferEndError::Invalid);
        };
        let (year, month, day) = (i32::from(year), u8::try_from(month).unwrap_or(0), u8::try_from(day).unwrap_or(0));
        if !(1..=12).contains(&month) || !(1..=days_in_month(year, month)).contains(&day) {
            return Err(OfferEndError::Invalid);
        }
        Ok(Self { day: days_from_civil(year, month, day) })
    }

    /// The last day of a new offer set at `now` (seconds since the Unix epoch): a real day, not
    /// before today in India and at most [`OFFER_MAX_DAYS_AHEAD`] days after it. Today itself is
    /// allowed: the offer then runs until midnight IST.
    ///
    /// # Errors
    /// [`OfferEndError`] saying which of these fails.
    pub fn for_new_offer(text: &str, now: i64) -> Result<Self, OfferEndError> {
        let ends = Self::parse(text)?;
        let today = ist_day(now);
        if ends.day < today {
            Err(OfferEndError::Past)
        } else if ends.day - today > OFFER_MAX_DAYS_AHEAD {
            Err(OfferEndError::TooFar)
        } else {
            Ok(ends)
        }
    }

    /// The specification's `offerExp` at `now`: how many days in India the offer still runs,
    /// today included (1 on its last day), and 0 once it has ended.
    #[must_use]
    pub fn days_left(self, now: i64) -> i64 {
        (self.day - ist_day(now) + 1).max(0)
    }
}

/// `2026-12-31`.
impl std::fmt::Display for OfferEndsOn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (year, month, day) = civil_from_days(self.day);
        write!(f, "{year:04}-{month:02}-{day:02}")
    }
}

impl Offer {
    /// The offer as the customer sees it at `now`: `offerExp` is the days its end date leaves
    /// ([`OfferEndsOn::days_left`]), 0 without one.
    #[must_use]
    pub fn at(percentage: DiscountPercent, ends_on: Option<OfferEndsOn>, now: i64) -> Self {
        Offer { offer_exp: ends_on.map_or(0, |e| e.days_left(now)), percentage }
    }
}

/// The specification's discount: the whole-number part of
/// (items total × percentage / 100), in rupees.
///
/// Computed exactly in integers: with the items total as `P` paise the rupee
/// amount is `P / 100`, so the discount is `floor(P × pct / 10_000)` whole
/// rupees, returned as paise. E.g. ₹999.99 at 10% is ₹99.999 → ₹99; ₹1,234.50
/// at 7% is ₹86.415 → ₹86. A negative total (which a cart cannot have) earns
/// no discount.
#[must_use]
pub fn discount(items_total: Money, percent: DiscountPercent) -> Money {
    let paise = i128::from(items_total.paise().max(0));
    let rupees = paise * i128::from(percent.get()) / 10_000;
    // rupees ≤ paise / 100, so it fits back into i64 paise.
    Money::from_rupees(i64::try_from(rupees).unwrap_or(i64::MAX / 100))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pct(p: u32) -> DiscountPercent {
        DiscountPercent::new(p).expect("0..=100")
    }

    #[test]
    fn the_whole_rupee_part_is_kept() {
        assert_eq!(discount(Money::from_paise(99_999), pct(10)), Money::from_rupees(99));
        assert_eq!(discount(Money::from_paise(123_450), pct(7)), Money::from_rupees(86));
        assert_eq!(discount(Money::from_rupees(1000), pct(10)), Money::from_rupees(100));
        assert_eq!(discount(Money::from_rupees(9), pct(10)), Money::ZERO, "₹0.90 → ₹0");
        assert_eq!(discount(Money::from_rupees(10), pct(10)), Money::from_rupees(1));
        assert_eq!(discount(Money::from_rupees(500), pct(100)), Money::from_rupees(500));
        assert_eq!(
            discount(Money::from_paise(50_050), pct(100)),
            Money::from_rupees(500),
            "paise are never discounted"
        );
        assert_eq!(discount(Money::from_rupees(-500), pct(10)), Money::ZERO);
    }

    #[test]
    fn percentages_stay_within_0_to_100() {
        assert!(DiscountPercent::new(100).is_ok());
        assert_eq!(DiscountPercent::new(101), Err(OfferError));
        assert_eq!(DiscountPercent::new(300), Err(OfferError));
        assert_eq!(OfferError.code(), "offer.percentage_invalid");
    }

    #[test]
    fn an_offer_is_active_only_above_zero() {
        let with = |offer_exp| Offer { offer_exp, percentage: pct(15) };
        assert_eq!(with(1).percent_now(), pct(15));
        assert_eq!(with(0).percent_now(), DiscountPercent::ZERO);
        assert_eq!(with(-5).percent_now(), DiscountPercent::ZERO);
        let o: Offer = serde_json::from_str(r#"{"offerExp":1,"percentage":10}"#).expect("valid");
        assert_eq!(o.percent_now(), pct(10));
    }

    /// 2026-11-26T18:29:59Z: 23:59:59 IST on 26 November 2026.
    const LAST_SECOND_OF_26_NOV_IST: i64 = 1_795_717_799;

    fn ends(text: &str) -> OfferEndsOn {
        OfferEndsOn::parse(text).expect("a real day")
    }

    #[test]
    fn an_offer_runs_to_the_end_of_its_day_in_india() {
        let now = LAST_SECOND_OF_26_NOV_IST;
        assert_eq!(ends("2026-11-26").days_left(now), 1, "its last day, one second before midnight IST");
        assert_eq!(ends("2026-11-26").days_left(now + 1), 0, "midnight IST ends it");
        assert_eq!(ends("2026-11-27").days_left(now), 2);
        assert_eq!(ends("2026-11-27").days_left(now + 1), 1);
        assert_eq!(ends("2026-11-25").days_left(now), 0, "ended yesterday");
        // At 00:00 IST on 26 Nov (18:30 UTC on the 25th) it is already the 26th in India.
        assert_eq!(ends("2026-11-26").days_left(now - 86_399), 1);
        assert_eq!(ends("2026-11-25").days_left(now - 86_399), 0);
        assert_eq!(ends("2026-11-25").days_left(now - 86_400), 1, "23:59:59 IST on the 25th");
        let offer = Offer::at(pct(10), Some(ends("2026-12-05")), now);
        assert_eq!(offer, Offer { offer_exp: 10, percentage: pct(10) });
        assert_eq!(Offer::at(pct(10), None, now).percent_now(), DiscountPercent::ZERO);
        assert_eq!(Offer::at(pct(10), Some(ends("2026-11-26")), now + 1).percent_now(), DiscountPercent::ZERO);
    }

    #[test]
    fn leap_days_exist_only_in_leap_years() {
        assert_eq!(ends("2028-02-29").to_string(), "2028-02-29");
        assert_eq!(ends("2028-03-01").day() - ends("2028-02-28").day(), 2);
        assert_eq!(ends("2027-03-01").day() - ends("2027-02-28").day(), 1);
        assert_eq!(OfferEndsOn::parse("2027-02-29"), Err(OfferEndError::Invalid));
        assert_eq!(OfferEndsOn::parse("2100-02-29"), Err(OfferEndError::Invalid));
        assert!(OfferEndsOn::parse("2000-02-29").is_ok());
        // From 28 Feb 2028 (IST) an offer ending 1 March runs three days: 28, 29, 1.
        let feb_28_2028_noon_ist = 1_835_332_200;
        assert_eq!(ends("2028-03-01").days_left(feb_28_2028_noon_ist), 3);
    }

    #[test]
    fn only_dates_written_yyyy_mm_dd_parse() {
        for bad in [
            "",
            "2026-1-05",
            "26-11-2026",
            "2026/11/26",
            "2026-11-26T00:00",
            "2026-13-01",
            "2026-11-31",
            "2026-00-10",
            "2026-11-00",
            "+026-11-26",
            "２026-11-26",
            "2026-11-2 ",
        ] {
            assert_eq!(OfferEndsOn::parse(bad), Err(OfferEndError::Invalid), "{bad:?}");
        }
        assert_eq!(ends("2026-11-26").to_string(), "2026-11-26");
    }

    #[test]
    fn a_new_offer_ends_today_at_the_earliest_and_within_two_years() {
        let now = LAST_SECOND_OF_26_NOV_IST;
        assert_eq!(OfferEndsOn::for_new_offer("2026-11-26", now), Ok(ends("2026-11-26")), "today in India");
        assert_eq!(OfferEndsOn::for_new_offer("2026-11-25", now), Err(OfferEndError::Past));
        assert_eq!(
            OfferEndsOn::for_new_offer("2026-11-26", now + 1),
            Err(OfferEndError::Past),
            "now the 27th in India"
        );
        assert_eq!(OfferEndsOn::for_new_offer("2028-11-25", now), Ok(ends("2028-11-25")), "730 days ahead");
        assert_eq!(OfferEndsOn::for_new_offer("2028-11-26", now), Err(OfferEndError::TooFar));
        assert_eq!(OfferEndsOn::for_new_offer("2026-02-30", now), Err(OfferEndError::Invalid));
        assert_eq!(OfferEndError::Past.code(), "offer.ends_on_past");
    }

    #[test]
    fn an_offer_gives_1_to_90_percent() {
        assert_eq!(DiscountPercent::for_offer(1), Ok(pct(1)));
        assert_eq!(DiscountPercent::for_offer(90), Ok(pct(90)));
        assert_eq!(DiscountPercent::for_offer(0), Err(OfferPercentError));
        assert_eq!(DiscountPercent::for_offer(91), Err(OfferPercentError));
        assert_eq!(OfferPercentError.code(), "offer.percentage_range");
    }

    proptest! {
        #[test]
        fn days_left_counts_down_one_a_day_to_zero(day in 0_i64..40_000, now in 0_i64..4_000_000_000) {
            let end = OfferEndsOn::from_day(day);
            let left = end.days_left(now);
            prop_assert!(left >= 0);
            prop_assert_eq!(left > 0, crate::calendar::ist_day(now) <= day, "runs exactly through its last day");
            prop_assert_eq!(end.days_left(now + 86_400), (left - 1).max(0));
            prop_assert_eq!(OfferEndsOn::parse(&end.to_string()), Ok(end), "written and read back");
        }

        #[test]
        fn a_date_before_today_is_always_refused(back in 1_i64..10_000, now in 0_i64..4_000_000_000) {
            let past = OfferEndsOn::from_day(crate::calendar::ist_day(now) - back);
            prop_assert_eq!(OfferEndsOn::for_new_offer(&past.to_string(), now), Err(OfferEndError::Past));
        }

        #[test]
        fn a_discount_never_exceeds_the_items_total(paise in 0_i64..10_000_000_000_000, p in 0_u32..=100) {
            let d = discount(Money::from_paise(paise), pct(p));
            prop_assert!(d >= Money::ZERO && d <= Money::from_paise(paise));
            prop_assert_eq!(d.paise() % 100, 0, "whole rupees");
        }
    }
}
