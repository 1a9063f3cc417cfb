//! Days in India: the calendar arithmetic invoices and offers share, free of a date crate.

/// India Standard Time is UTC+5:30; days turn at midnight IST.
pub const IST_OFFSET_SECONDS: i64 = 5 * 3600 + 30 * 60;

/// The day in India at an instant (seconds since 1970-01-01 UTC), counted in days from 1970-01-01.
#[must_use]
pub fn ist_day(seconds: i64) -> i64 {
    seconds.saturating_add(IST_OFFSET_SECONDS).div_euclid(86_400)
}

/// How many days `month` (1-12) of `year` has.
#[must_use]
pub fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Year, month and day of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
#[must_use]
pub fn civil_from_days(days: i64) -> (i32, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (i32::try_from(year).unwrap_or(i32::MAX), u8::try_from(month).unwrap_or(1), u8::try_from(day).unwrap_or(1))
}

/// The day number (from 1970-01-01) of a year, month and day (Howard Hinnant's `days_from_civil`);
/// the inverse of [`civil_from_days`] for real days.
#[must_use]
pub fn days_from_civil(year: i32, month: u8, day: u8) -> i64 {
    let y = i64::from(year) - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(month);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The instant (seconds since 1970 UTC) the day in India holding `seconds` began: its midnight IST.
#[must_use]
pub fn ist_day_start(seconds: i64) -> i64 {
    ist_day(seconds) * 86_400 - IST_OFFSET_SECONDS
}

/// The instant the month in India holding `seconds` began: midnight IST of its first day.
#[must_use]
pub fn ist_month_start(seconds: i64) -> i64 {
    let (year, month, _) = civil_from_days(ist_day(seconds));
    days_from_civil(year, month, 1) * 86_400 - IST_OFFSET_SECONDS
}

/// The same time on the same day `months` calendar months after `seconds`, in India, or on the last
/// day of that month when it is shorter (31 August plus six months is 28 or 29 February).
#[must_use]
pub fn add_months_ist(seconds: i64, months: u32) -> i64 {
    let local = seconds.saturating_add(IST_OFFSET_SECONDS);
    let (day, time) = (local.div_euclid(86_400), local.rem_euclid(86_400));
    let (year, month, date) = civil_from_days(day);
    let index = i64::from(year) * 12 + i64::from(month) - 1 + i64::from(months);
    let year = i32::try_from(index.div_euclid(12)).unwrap_or(i32::MAX);
    let month = u8::try_from(index.rem_euclid(12) + 1).unwrap_or(12);
    let date = date.min(days_in_month(year, month));
    days_from_civil(year, month, date) * 86_400 + time - IST_OFFSET_SECONDS
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_days() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
        assert_eq!(civil_from_days(days_from_civil(2028, 2, 29)), (2028, 2, 29));
        // 2026-03-31T18:29:59Z is 23:59:59 IST on 31 March; a second later it is 1 April.
        assert_eq!(civil_from_days(ist_day(1_774_981_799)), (2026, 3, 31));
        assert_eq!(civil_from_days(ist_day(1_774_981_800)), (2026, 4, 1));
    }

    #[test]
    fn days_and_months_begin_at_midnight_in_india() {
        // 2026-03-31T18:29:59Z is the last second of 31 March in India, which began at 2026-03-30T18:30Z.
        assert_eq!(ist_day_start(1_774_981_799), 1_774_895_400);
        assert_eq!(ist_day_start(1_774_981_800), 1_774_981_800);
        // March 2026 began at 2026-02-28T18:30Z; April at 2026-03-31T18:30Z.
        assert_eq!(ist_month_start(1_774_981_799), 1_772_303_400);
        assert_eq!(ist_month_start(1_774_981_800), 1_774_981_800);
    }

    proptest! {
        #[test]
        fn days_and_dates_round_trip(days in -1_000_000_i64..3_000_000) {
            let (y, m, d) = civil_from_days(days);
            prop_assert!((1..=days_in_month(y, m)).contains(&d));
            prop_assert_eq!(days_from_civil(y, m, d), days);
        }

        #[test]
        fn a_day_starts_within_its_month_and_before_the_instant(seconds in 0_i64..4_102_444_800) {
            let (day, month) = (ist_day_start(seconds), ist_month_start(seconds));
            prop_assert!(month <= day && day <= seconds && seconds - day < 86_400);
            prop_assert_eq!(civil_from_days(ist_day(month)).2, 1);
        }
    }
}
