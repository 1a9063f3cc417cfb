//! The values of one cell as spreadsheets write them: rupees with Indian or western grouping and an
//! optional `₹`, whole numbers, yes/no, and `|`-separated lists.

use crate::{Message, Money};

/// Most digits a rupee amount may have before its decimal point (below ₹10 lakh crore, far from any
/// overflow of paise in an `i64`).
const RUPEE_DIGITS_MAX: usize = 12;

/// A rupee amount as a spreadsheet writes it, as paise: `125000`, `1,25,000.00`, `₹1,25,000`,
/// `Rs. 1,250.5`, `INR 999`. Commas must group digits (Indian `1,25,000` or western `125,000`), so a
/// decimal comma (`1,25` meaning 1.25) is refused rather than read as a hundred times the price.
///
/// # Errors
/// [`Message::ProductPriceInvalid`] for anything else: a sign, more than two decimals, letters,
/// misplaced commas, more than twelve digits of rupees.
pub fn rupees_text(text: &str) -> Result<Money, Message> {
    let invalid = Message::ProductPriceInvalid;
    let mut rest = text.trim();
    for prefix in ["₹", "INR", "Rs.", "Rs"] {
        if rest.len() >= prefix.len() && rest.is_char_boundary(prefix.len()) {
            let (head, tail) = rest.split_at(prefix.len());
            if head.eq_ignore_ascii_case(prefix) {
                rest = tail.trim_start();
                break;
            }
        }
    }
    let (whole, fraction) = match rest.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (rest, None),
    };
    let digits = grouped_digits(whole).ok_or(invalid)?;
    if digits.is_empty() || digits.len() > RUPEE_DIGITS_MAX {
        return Err(invalid);
    }
    let paise = match fraction {
        None => 0,
        Some(f) if (1..=2).contains(&f.len()) && f.bytes().all(|b| b.is_ascii_digit()) => {
            let value: i64 = f.parse().map_err(|_| invalid)?;
            if f.len() == 1 {
                value * 10
            } else {
                value
            }
        }
        Some(_) => return Err(invalid),
    };
    let rupees: i64 = digits.parse().map_err(|_| invalid)?;
    Ok(Money::from_paise(rupees * 100 + paise))
}

/// The digits of `1,25,000` or `125,000` or `125000`; `None` when commas do not group digits the
/// Indian way (last three, then pairs) or the western way (threes).
fn grouped_digits(text: &str) -> Option<String> {
    if !text.bytes().all(|b| b.is_ascii_digit() || b == b',') {
        return None;
    }
    let groups: Vec<&str> = text.split(',').collect();
    if groups.len() > 1 {
        let (first, others) = groups.split_first()?;
        let (last, middle) = others.split_last()?;
        let first_ok = (1..=3).contains(&first.len());
        let western = first_ok && middle.iter().all(|g| g.len() == 3);
        let indian = (1..=2).contains(&first.len()) && middle.iter().all(|g| g.len() == 2);
        let single = middle.is_empty() && first_ok;
        if last.len() != 3 || !(western || indian || single) {
            return None;
        }
    }
    Some(groups.concat())
}

/// A whole number (`18`, `-3`); `None` for anything else.
#[must_use]
pub fn whole_number(text: &str) -> Option<i64> {
    let t = text.trim();
    let digits = t.strip_prefix('-').unwrap_or(t);
    if digits.is_empty() || digits.len() > 15 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// `true`/`false`, `yes`/`no`, `1`/`0`, in any case.
///
/// # Errors
/// [`Message::ImportBooleanInvalid`] otherwise.
pub fn yes_no(text: &str) -> Result<bool, Message> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "y" | "1" => Ok(true),
        "false" | "no" | "n" | "0" => Ok(false),
        _ => Err(Message::ImportBooleanInvalid),
    }
}

/// The items of a `|`-separated list, each trimmed, empty ones left out.
#[must_use]
pub fn list(text: &str) -> Vec<String> {
    text.split('|').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn prices_are_read_as_spreadsheets_write_them() {
        let paise = |t: &str| rupees_text(t).map(Money::paise);
        assert_eq!(paise("125000"), Ok(12_500_000));
        assert_eq!(paise("1,25,000.00"), Ok(12_500_000));
        assert_eq!(paise("₹1,25,000"), Ok(12_500_000));
        assert_eq!(paise("₹ 1,25,000.5"), Ok(12_500_050));
        assert_eq!(paise("125,000.05"), Ok(12_500_005));
        assert_eq!(paise("rs. 999"), Ok(99_900));
        assert_eq!(paise("INR 1,000"), Ok(100_000));
        assert_eq!(paise(" 0 "), Ok(0));
        assert_eq!(paise("12,34,56,789.99"), Ok(12_345_678_999));
        for bad in [
            "",
            "-1",
            "1,25",
            "1,2,5000",
            "12,5000",
            "1.005",
            "1.",
            ".5",
            "₹",
            "abc",
            "1 000",
            "1e5",
            "+5",
            "1,,000",
            ",100",
            "100,",
            "1234567890123",
            "₹-5",
            "12.3.4",
        ] {
            assert_eq!(rupees_text(bad), Err(Message::ProductPriceInvalid), "{bad:?}");
        }
    }

    #[test]
    fn whole_numbers_booleans_and_lists() {
        assert_eq!(whole_number(" 18 "), Some(18));
        assert_eq!(whole_number("-1"), Some(-1));
        for bad in ["", "-", "1.5", "18%", "1,000", "9999999999999999"] {
            assert_eq!(whole_number(bad), None, "{bad:?}");
        }
        assert_eq!(yes_no("TRUE"), Ok(true));
        assert_eq!(yes_no(" no"), Ok(false));
        assert_eq!(yes_no("0"), Ok(false));
        assert_eq!(yes_no("maybe"), Err(Message::ImportBooleanInvalid));
        assert_eq!(list(" A 1 | |B-2|"), ["A 1", "B-2"]);
        assert!(list("  ").is_empty());
    }

    /// Groups whole rupees the Indian way, as the invoice prints them.
    fn indian(rupees: i64) -> String {
        Money::from_rupees(rupees).to_the_paisa()
    }

    proptest! {
        #[test]
        fn any_amount_printed_either_way_reads_back_to_its_paise(paise in 0i64..10_000_000_000_000) {
            let money = Money::from_paise(paise);
            prop_assert_eq!(rupees_text(&money.decimal_rupees()), Ok(money));
            prop_assert_eq!(rupees_text(&money.to_the_paisa()), Ok(money));
            prop_assert_eq!(rupees_text(&format!("{money:#}")), Ok(money));
            let whole = indian(paise / 100);
            prop_assert_eq!(rupees_text(&whole), Ok(Money::from_rupees(paise / 100)));
        }
    }
}
