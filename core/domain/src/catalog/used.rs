//! Honest used parts (issue 25): a used unit's grade, the donor car it came from, the GST margin
//! scheme it may be sold under, and the other makers' numbers (cross-references) any part may carry.
//!
//! Only a used condition ([`Condition::is_used`]: old or refurbished) may carry a grade, a donor or
//! the margin scheme; cross-references suit new parts as well. The purchase price of the margin
//! scheme is the back office's alone: no shopper's answer carries it.

use serde::{Deserialize, Serialize};

use super::{Condition, Product};
use crate::filters::FilterValue;
use crate::{Message, Money, PartNumber};

/// How worn a used unit is, by the shop's definitions ([`Grade::definition`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Grade {
    /// Like new.
    A,
    /// Normal wear for its age.
    B,
    /// Visible wear or damage.
    C,
}

impl Grade {
    pub const ALL: [Grade; 3] = [Grade::A, Grade::B, Grade::C];

    /// The letter as stored and shown: `A`, `B` or `C`.
    #[must_use]
    pub const fn letter(self) -> &'static str {
        match self {
            Grade::A => "A",
            Grade::B => "B",
            Grade::C => "C",
        }
    }

    /// The shop's definition of the grade, shown beside it on the product page.
    #[must_use]
    pub const fn definition(self) -> Message {
        match self {
            Grade::A => Message::GradeA,
            Grade::B => Message::GradeB,
            Grade::C => Message::GradeC,
        }
    }

    /// A grade as typed: one letter, any case, blanks around it ignored.
    ///
    /// # Errors
    /// [`Message::ProductGradeInvalid`] for anything else.
    pub fn parse(text: &str) -> Result<Self, Message> {
        match text.trim() {
            "A" | "a" => Ok(Grade::A),
            "B" | "b" => Ok(Grade::B),
            "C" | "c" => Ok(Grade::C),
            _ => Err(Message::ProductGradeInvalid),
        }
    }
}

/// The grade filter (`grade=A--B`): its values are written lower-case once parsed.
impl FilterValue for Grade {
    fn code(&self) -> &str {
        match self {
            Grade::A => "a",
            Grade::B => "b",
            Grade::C => "c",
        }
    }
    fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| FilterValue::code(g) == code)
    }
}

/// Longest make, model or generation of a donor car.
pub const DONOR_TEXT_MAX: usize = 60;
/// Earliest model year of a donor car.
pub const DONOR_YEAR_MIN: i32 = 1950;
/// Highest odometer reading accepted, in kilometres.
pub const ODOMETER_KM_MAX: u32 = 2_000_000;

/// The car a used unit was taken from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Donor {
    pub make: String,
    pub model: String,
    pub generation: String,
    /// Model year.
    pub year: u16,
    pub odometer_km: u32,
}

impl Donor {
    /// A donor as typed: make, model and generation trimmed, each 1 to 60 characters; the model
    /// year from 1950 to next year (`this_year` + 1: next year's models are sold this year); the
    /// odometer 0 to 2,000,000 km.
    ///
    /// # Errors
    /// [`Message::ProductDonorInvalid`] otherwise.
    pub fn parse(
        (make, model, generation): (&str, &str, &str),
        year: i64,
        odometer_km: i64,
        this_year: i32,
    ) -> Result<Self, Message> {
        let text = |s: &str| {
            let s = s.trim();
            (!s.is_empty() && s.chars().count() <= DONOR_TEXT_MAX).then(|| s.to_owned())
        };
        let latest = i64::from(this_year) + 1;
        let year = u16::try_from(year).ok().filter(|y| (i64::from(DONOR_YEAR_MIN)..=latest).contains(&i64::from(*y)));
        let odometer_km = u32::try_from(odometer_km).ok().filter(|km| *km <= ODOMETER_KM_MAX);
        match (text(make), text(model), text(generation), year, odometer_km) {
            (Some(make), Some(model), Some(generation), Some(year), Some(odometer_km)) => {
                Ok(Donor { make, model, generation, year, odometer_km })
            }
            _ => Err(Message::ProductDonorInvalid),
        }
    }
}

/// Highest purchase price the margin scheme records: one crore rupees.
pub const PURCHASE_PRICE_MAX: Money = Money::from_rupees(10_000_000);

/// A used unit sold under the GST margin scheme (CGST Rules, rule 32(5)): bought without input tax
/// credit, its tax is on the margin over this purchase price. Back office only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MarginScheme {
    /// What the shop paid for the unit, in paise.
    pub purchase_price: Money,
}

impl MarginScheme {
    /// # Errors
    /// [`Message::ProductPurchasePriceInvalid`] for a price below 1 paisa or above one crore rupees.
    pub fn new(purchase_price: Money) -> Result<Self, Message> {
        if purchase_price.paise() < 1 || purchase_price > PURCHASE_PRICE_MAX {
            return Err(Message::ProductPurchasePriceInvalid);
        }
        Ok(MarginScheme { purchase_price })
    }
}

/// Longest brand name of a cross-reference.
pub const CROSS_BRAND_MAX: usize = 40;
/// Cross-references one product may carry, at most.
pub const CROSS_REFERENCES_MAX: usize = 20;

/// Another maker's number for the same part, e.g. Bosch `0 986 494 104`; search finds it in any
/// spelling, like the product's own number.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CrossReference {
    pub brand: String,
    pub number: PartNumber,
}

impl CrossReference {
    /// # Errors
    /// [`Message::ProductCrossReferenceInvalid`] for a brand that is empty or above 40 characters
    /// (trimmed), or a number without letters or digits.
    pub fn parse(brand: &str, number: &str) -> Result<Self, Message> {
        let brand = brand.trim();
        if brand.is_empty() || brand.chars().count() > CROSS_BRAND_MAX {
            return Err(Message::ProductCrossReferenceInvalid);
        }
        let number = PartNumber::parse(number).map_err(|_| Message::ProductCrossReferenceInvalid)?;
        Ok(CrossReference { brand: brand.to_owned(), number })
    }
}

/// A product's cross-references: each kept once (one brand, in any case, with one number in any
/// spelling), at most 20.
///
/// # Errors
/// [`Message::ProductCrossReferencesTooMany`] past 20.
pub fn cross_references(references: Vec<CrossReference>) -> Result<Vec<CrossReference>, Message> {
    let mut kept: Vec<CrossReference> = Vec::with_capacity(references.len());
    for r in references {
        let same = |k: &CrossReference| {
            k.brand.to_lowercase() == r.brand.to_lowercase() && k.number.normalized() == r.number.normalized()
        };
        if !kept.iter().any(same) {
            kept.push(r);
        }
    }
    if kept.len() > CROSS_REFERENCES_MAX {
        return Err(Message::ProductCrossReferencesTooMany);
    }
    Ok(kept)
}

/// Whether `product` carries a grade, donor or margin scheme only in a used condition.
///
/// # Errors
/// [`Message::ProductUsedOnly`] when a new (or stock-lot) product carries any of them.
pub fn check_used_fields(product: &Product) -> Result<(), Message> {
    let d = &product.details;
    let carries = d.grade.is_some() || d.donor.is_some() || d.margin_scheme.is_some();
    if carries && !product.condition.is_used() {
        return Err(Message::ProductUsedOnly);
    }
    Ok(())
}

/// The printed superseded number of `product` that `typed` names (in any spelling), when the
/// product was found by it rather than by its own number: what a search card shows as
/// "supersedes …".
#[must_use]
pub fn superseded_match<'a>(product: &'a Product, typed: &str) -> Option<&'a str> {
    let wanted = crate::part_number::normalize_part_number(typed);
    if wanted.is_empty() || product.part_no.normalized() == wanted {
        return None;
    }
    product.details.superseded_numbers.iter().find(|n| n.normalized() == wanted).map(PartNumber::printed)
}

impl Condition {
    /// Whether the condition is a used one (old or refurbished): only these may carry a grade,
    /// a donor car and the margin scheme (docs/shop-rules.md).
    #[must_use]
    pub fn is_used(&self) -> bool {
        matches!(self, Condition::Old | Condition::Refurbished)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filters::FilterList;
    use proptest::prelude::*;

    #[test]
    fn grades_parse_in_any_case_and_have_definitions() {
        assert_eq!(Grade::parse(" a "), Ok(Grade::A));
        assert_eq!(Grade::parse("C"), Ok(Grade::C));
        for bad in ["", "D", "AB", "1", "ए"] {
            assert_eq!(Grade::parse(bad), Err(Message::ProductGradeInvalid), "{bad:?}");
        }
        let codes: Vec<&str> = Grade::ALL.iter().map(|g| g.definition().code()).collect();
        assert_eq!(codes, ["grade.a", "grade.b", "grade.c"]);
        assert_eq!(serde_json::to_string(&Grade::B).expect("serialises"), "\"B\"");
    }

    #[test]
    fn the_grade_filter_takes_letters_joined_by_a_double_hyphen() {
        let list = FilterList::<Grade>::parse("A--b").expect("valid");
        assert_eq!(list.values(), &[Grade::A, Grade::B]);
        assert_eq!(list.to_string(), "a--b");
        for bad in ["D", "A-B", "A--", "AB"] {
            let e = FilterList::<Grade>::parse(bad).expect_err(bad);
            assert_eq!(crate::UserFacing::message(&e), Message::FilterInvalid, "{bad}");
        }
    }

    #[test]
    fn donors_are_bounded() {
        let ok = Donor::parse((" BMW ", "X5", "G05"), 2019, 84_000, 2026).expect("valid");
        assert_eq!((ok.make.as_str(), ok.year, ok.odometer_km), ("BMW", 2019, 84_000));
        assert!(Donor::parse(("BMW", "X5", "G05"), 2027, 0, 2026).is_ok(), "next year's model");
        assert!(Donor::parse(("BMW", "X5", "G05"), 1950, 2_000_000, 2026).is_ok());
        let bad = [
            (("BMW", "X5", "G05"), 2028, 0),
            (("BMW", "X5", "G05"), 1949, 0),
            (("BMW", "X5", "G05"), 2019, -1),
            (("BMW", "X5", "G05"), 2019, 2_000_001),
            (("  ", "X5", "G05"), 2019, 0),
            (("BMW", "", "G05"), 2019, 0),
            (("BMW", "X5", ""), 2019, 0),
        ];
        for (names, year, km) in bad {
            assert_eq!(Donor::parse(names, year, km, 2026), Err(Message::ProductDonorInvalid), "{names:?} {year} {km}");
        }
        let long = "m".repeat(61);
        assert_eq!(Donor::parse((&long, "X5", "G05"), 2019, 0, 2026), Err(Message::ProductDonorInvalid));
        assert!(Donor::parse((&"m".repeat(60), "X5", "G05"), 2019, 0, 2026).is_ok());
    }

    #[test]
    fn margin_scheme_needs_a_purchase_price() {
        assert!(MarginScheme::new(Money::from_paise(1)).is_ok());
        assert!(MarginScheme::new(PURCHASE_PRICE_MAX).is_ok());
        assert_eq!(MarginScheme::new(Money::ZERO), Err(Message::ProductPurchasePriceInvalid));
        assert_eq!(MarginScheme::new(Money::from_paise(-5)), Err(Message::ProductPurchasePriceInvalid));
        let over = Money::from_paise(PURCHASE_PRICE_MAX.paise() + 1);
        assert_eq!(MarginScheme::new(over), Err(Message::ProductPurchasePriceInvalid));
    }

    #[test]
    fn cross_references_are_kept_once_and_bounded() {
        let r = |b: &str, n: &str| CrossReference::parse(b, n).expect("valid");
        let kept =
            cross_references(vec![r("Bosch", "0 986 494 104"), r("bosch", "0986494104"), r("ATE", "0 986 494 104")])
                .expect("valid");
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[0].number.printed(), "0 986 494 104");
        assert_eq!(CrossReference::parse(" ", "1"), Err(Message::ProductCrossReferenceInvalid));
        assert_eq!(CrossReference::parse(&"b".repeat(41), "1"), Err(Message::ProductCrossReferenceInvalid));
        assert_eq!(CrossReference::parse("Bosch", " - "), Err(Message::ProductCrossReferenceInvalid));
        let many: Vec<CrossReference> = (0..21).map(|i| r("Bosch", &format!("N{i}"))).collect();
        assert_eq!(cross_references(many), Err(Message::ProductCrossReferencesTooMany));
    }

    #[test]
    fn only_used_conditions_carry_grade_donor_and_margin() {
        assert!(Condition::Old.is_used() && Condition::Refurbished.is_used());
        assert!(!Condition::New.is_used() && !Condition::NewWithoutBox.is_used());
        assert!(!Condition::Other("stock_lot".into()).is_used());
    }

    #[test]
    fn a_superseded_number_found_is_named_in_any_spelling() {
        let mut p = crate::catalog::editor::ProductDraft::new(
            crate::catalog::editor::ProductPatch {
                name: Some("Disc".into()),
                price: Some(Money::from_rupees(10)),
                category_slug: Some("brakes".into()),
                subcategory_slug: Some("discs".into()),
                oem_slug: Some("bmw".into()),
                part_no: Some(PartNumber::parse("34 11 6 860 907").expect("valid")),
                sku: Some(crate::catalog::Sku::parse("S1").expect("valid")),
                ..Default::default()
            },
            1,
        )
        .expect("a draft")
        .product(crate::catalog::ProductId("p1".into()), 0);
        p.details.superseded_numbers = vec![PartNumber::parse("34 11 6 794 429").expect("valid")];
        assert_eq!(superseded_match(&p, "34116794429"), Some("34 11 6 794 429"));
        assert_eq!(superseded_match(&p, "34-11-6-860-907"), None, "its own number");
        assert_eq!(superseded_match(&p, "brake disc"), None);
        assert_eq!(superseded_match(&p, ""), None);

        assert_eq!(check_used_fields(&p), Ok(()));
        p.details.grade = Some(Grade::B);
        assert_eq!(check_used_fields(&p), Err(Message::ProductUsedOnly), "a new part has no grade");
        p.condition = Condition::Refurbished;
        assert_eq!(check_used_fields(&p), Ok(()));
        p.condition = Condition::NewWithoutBox;
        p.details.grade = None;
        p.details.margin_scheme = Some(MarginScheme::new(Money::from_rupees(5)).expect("valid"));
        assert_eq!(check_used_fields(&p), Err(Message::ProductUsedOnly));
        p.details.margin_scheme = None;
        p.details.cross_references = vec![CrossReference::parse("Bosch", "1").expect("valid")];
        assert_eq!(check_used_fields(&p), Ok(()), "cross-references suit new parts too");
    }

    fn grade() -> impl Strategy<Value = Grade> {
        proptest::sample::select(Grade::ALL.to_vec())
    }

    proptest! {
        #[test]
        fn grade_lists_round_trip(values in proptest::collection::vec(grade(), 0..5)) {
            let list = FilterList::new(values);
            prop_assert_eq!(FilterList::parse(&list.to_string()), Ok(list.clone()));
            prop_assert_eq!(FilterList::<Grade>::parse(&list.to_string().to_uppercase()), Ok(list));
        }

        #[test]
        fn a_donor_that_parses_is_within_its_bounds(
            year in -10i64..5000, km in -10i64..3_000_000, this_year in 1990i32..2200,
            make in "[ a-zA-Z]{0,70}",
        ) {
            if let Ok(d) = Donor::parse((&make, "X5", "G05"), year, km, this_year) {
                prop_assert!(i32::from(d.year) >= DONOR_YEAR_MIN && i32::from(d.year) <= this_year + 1);
                prop_assert!(d.odometer_km <= ODOMETER_KM_MAX);
                prop_assert!(!d.make.is_empty() && d.make.chars().count() <= DONOR_TEXT_MAX);
                prop_assert_eq!(d.make.trim(), d.make.as_str());
            } else {
                let in_bounds = (1950..=i64::from(this_year) + 1).contains(&year)
                    && (0..=2_000_000).contains(&km)
                    && !make.trim().is_empty() && make.trim().chars().count() <= 60;
                prop_assert!(!in_bounds);
            }
        }

        #[test]
        fn cross_reference_lists_never_hold_a_pair_twice(
            numbers in proptest::collection::vec(("(Bosch|bosch|ATE)", "[0-9 ]{0,3}[0-9]{1,3}"), 0..30),
        ) {
            let refs: Vec<CrossReference> =
                numbers.iter().map(|(b, n)| CrossReference::parse(b, n).expect("valid")).collect();
            if let Ok(kept) = cross_references(refs) {
                prop_assert!(kept.len() <= CROSS_REFERENCES_MAX);
                for (i, a) in kept.iter().enumerate() {
                    for b in &kept[i + 1..] {
                        prop_assert!(
                            a.brand.to_lowercase() != b.brand.to_lowercase()
                                || a.number.normalized() != b.number.normalized()
                        );
                    }
                }
            }
        }
    }
}
