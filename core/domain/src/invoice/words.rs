//! An amount in words as Indian invoices print it, counted in thousands, lakhs and crores.

use crate::Money;

const ONES: [&str; 20] = [
    "Zero",
    "One",
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Eleven",
    "Twelve",
    "Thirteen",
    "Fourteen",
    "Fifteen",
    "Sixteen",
    "Seventeen",
    "Eighteen",
    "Nineteen",
];
const TENS: [&str; 10] = ["", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"];

const CRORE: u64 = 10_000_000;
const LAKH: u64 = 100_000;
const THOUSAND: u64 = 1_000;
const HUNDRED: u64 = 100;

/// `Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six and Seventy-Eight Paise Only`.
///
/// Title case, tens and units joined by a hyphen, no "and" inside a number (it
/// joins the rupees to the paise). Zero paise are left out (`Rupees Five Only`);
/// less than a rupee reads `Fifty Paise Only` (`One Paisa Only`). Crores above ninety-nine are
/// counted in the same words (`One Lakh Crore`). A negative amount starts `Minus`.
#[must_use]
pub fn amount_in_words(amount: Money) -> String {
    let paise_total = amount.paise().unsigned_abs();
    let (rupees, paise) = (paise_total / 100, paise_total % 100);
    let mut words = Vec::new();
    if amount.paise() < 0 {
        words.push("Minus".to_owned());
    }
    if rupees > 0 || paise == 0 {
        words.push("Rupees".to_owned());
        words.push(number_in_words(rupees));
    }
    if paise > 0 {
        if rupees > 0 {
            words.push("and".to_owned());
        }
        words.push(number_in_words(paise));
        words.push(if paise == 1 { "Paisa" } else { "Paise" }.to_owned());
    }
    words.push("Only".to_owned());
    words.join(" ")
}

/// A whole number in words, e.g. `One Crore Two Lakh Five`.
fn number_in_words(n: u64) -> String {
    if n == 0 {
        return ONES[0].to_owned();
    }
    let mut parts = Vec::new();
    let crores = n / CRORE;
    if crores > 0 {
        parts.push(format!("{} Crore", number_in_words(crores)));
    }
    let mut rest = n % CRORE;
    for (unit, name) in [(LAKH, "Lakh"), (THOUSAND, "Thousand"), (HUNDRED, "Hundred")] {
        let count = rest / unit;
        if count > 0 {
            parts.push(format!("{} {name}", below_hundred(count)));
        }
        rest %= unit;
    }
    if rest > 0 {
        parts.push(below_hundred(rest));
    }
    parts.join(" ")
}

/// 1 to 99 (every count of lakhs, thousands and hundreds is below a hundred).
fn below_hundred(n: u64) -> String {
    let index = |k: u64| usize::try_from(k).unwrap_or(0);
    match n {
        0..=19 => ONES[index(n)].to_owned(),
        _ if n.is_multiple_of(10) => TENS[index(n / 10 % 10)].to_owned(),
        _ => format!("{}-{}", TENS[index(n / 10 % 10)], ONES[index(n % 10)]),
    }
}

#[cfg(test)]
#[expect(
    clippy::inconsistent_digit_grouping,
    reason = "paise written as rupees_paise, e.g. 1_23_456_78 is ₹1,23,456.78"
)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn words(paise: i64) -> String {
        amount_in_words(Money::from_paise(paise))
    }

    #[test]
    fn the_example_on_the_invoice() {
        assert_eq!(
            words(1_23_456_78),
            "Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six and Seventy-Eight Paise Only"
        );
    }

    #[test]
    fn small_and_round_amounts() {
        assert_eq!(words(0), "Rupees Zero Only");
        assert_eq!(words(5_00), "Rupees Five Only");
        assert_eq!(words(50), "Fifty Paise Only");
        assert_eq!(words(1), "One Paisa Only");
        assert_eq!(words(19_00), "Rupees Nineteen Only");
        assert_eq!(words(40_00), "Rupees Forty Only");
        assert_eq!(words(105_00), "Rupees One Hundred Five Only");
        assert_eq!(words(1_000_00), "Rupees One Thousand Only");
        assert_eq!(words(1_00_000_00), "Rupees One Lakh Only");
        assert_eq!(words(2_360_05), "Rupees Two Thousand Three Hundred Sixty and Five Paise Only");
        assert_eq!(words(-236_00), "Minus Rupees Two Hundred Thirty-Six Only");
    }

    #[test]
    fn crores_and_beyond() {
        assert_eq!(words(1_00_00_000_00), "Rupees One Crore Only");
        assert_eq!(
            words(12_34_56_789_00),
            "Rupees Twelve Crore Thirty-Four Lakh Fifty-Six Thousand Seven Hundred Eighty-Nine Only"
        );
        assert_eq!(words(1_00_000_00_00_000_00), "Rupees One Lakh Crore Only");
        // ₹92,23,37,20,36,85,47,758.08: 922,33,72,036 crore and the rest.
        let lowest = amount_in_words(Money::from_paise(i64::MIN));
        assert!(
            lowest.starts_with(
                "Minus Rupees Nine Hundred Twenty-Two Crore Thirty-Three Lakh Seventy-Two Thousand Thirty-Six Crore"
            ),
            "{lowest}"
        );
        assert!(lowest.ends_with("Seven Hundred Fifty-Eight and Eight Paise Only"), "{lowest}");
    }

    proptest! {
        #[test]
        fn every_amount_reads_as_rupees_and_paise(paise in any::<i64>()) {
            let text = amount_in_words(Money::from_paise(paise));
            let abs = paise.unsigned_abs();
            prop_assert!(text.ends_with(" Only"));
            prop_assert_eq!(text.contains("Crore"), abs / 100 >= CRORE);
            prop_assert_eq!(text.contains(" Pais"), abs % 100 != 0);
            prop_assert_eq!(text.starts_with("Minus "), paise < 0);
            prop_assert!(!text.contains("  ") && !text.contains("Zero Crore") && !text.contains(" Zero "));
        }
    }
}
