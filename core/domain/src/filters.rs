//! Listing filters in the query string: condition, fuel and brand, several values
//! per filter joined by a double hyphen (`product_type=old--new`).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::catalog::{Condition, FuelType};
use crate::message::{user_facing_error, Message, UserFacing};

/// Joins the values of one filter. Double, because brand slugs hold single
/// hyphens (`mercedes-benz--land-rover`).
pub const FILTER_SEPARATOR: &str = "--";

/// One value a filter can take, written in a query by its code.
pub trait FilterValue: Sized + Clone + PartialEq {
    /// The value as it appears in a query, e.g. `old`.
    fn code(&self) -> &str;
    /// The value for a lower-case code, if the filter offers it.
    fn from_code(code: &str) -> Option<Self>;
}

/// The condition filter (`product_type`): the specification offers only old and new.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConditionFilter {
    Old,
    New,
}

impl ConditionFilter {
    pub const ALL: [ConditionFilter; 2] = [ConditionFilter::Old, ConditionFilter::New];

    /// Matches the stored condition with the same code only: `new` does not
    /// take in `new_without_box`, which has a label of its own.
    #[must_use]
    pub fn matches(self, condition: &Condition) -> bool {
        condition.code() == self.code()
    }
}

impl FilterValue for ConditionFilter {
    fn code(&self) -> &str {
        match self {
            ConditionFilter::Old => "old",
            ConditionFilter::New => "new",
        }
    }
    fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.code() == code)
    }
}

/// The fuel filter (`fuel_type`): the specification offers only petrol and diesel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FuelFilter {
    Petrol,
    Diesel,
}

impl FuelFilter {
    pub const ALL: [FuelFilter; 2] = [FuelFilter::Petrol, FuelFilter::Diesel];

    #[must_use]
    pub fn fuel_type(self) -> FuelType {
        match self {
            FuelFilter::Petrol => FuelType::Petrol,
            FuelFilter::Diesel => FuelType::Diesel,
        }
    }
}

impl FilterValue for FuelFilter {
    fn code(&self) -> &str {
        self.fuel_type().code()
    }
    fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.code() == code)
    }
}

/// A brand's slug in the brand filter (`oem`): lower-case letters and digits
/// in groups joined by single hyphens, e.g. `land-rover`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct BrandSlug(String);

impl BrandSlug {
    /// The slug rule in regular-expression form, for clients.
    pub const PATTERN: &'static str = "^[a-z0-9]+(-[a-z0-9]+)*$";

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FilterValue for BrandSlug {
    fn code(&self) -> &str {
        &self.0
    }
    fn from_code(code: &str) -> Option<Self> {
        let groups_ok =
            code.split('-').all(|g| !g.is_empty() && g.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()));
        groups_ok.then(|| Self(code.to_owned()))
    }
}

impl TryFrom<String> for BrandSlug {
    type Error = FilterError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::from_code(&s).ok_or(FilterError { value: s })
    }
}

impl From<BrandSlug> for String {
    fn from(s: BrandSlug) -> Self {
        s.0
    }
}

/// A value the filter does not offer (or an empty one between separators).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterError {
    pub value: String,
}

impl UserFacing for FilterError {
    fn message(&self) -> Message {
        Message::FilterInvalid
    }
}
user_facing_error!(FilterError);

/// The values chosen in one filter, in the order chosen, each once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterList<T>(Vec<T>);

impl<T> Default for FilterList<T> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<T: FilterValue> FilterList<T> {
    /// Keeps the first of any repeated value.
    #[must_use]
    pub fn new(values: impl IntoIterator<Item = T>) -> Self {
        let mut list = Vec::new();
        for v in values {
            if !list.contains(&v) {
                list.push(v);
            }
        }
        Self(list)
    }

    /// Reads a query value. Blank means no filter; values are matched without
    /// regard to case and a repeated value counts once, so printing the result
    /// gives the canonical form (lower case, first occurrences).
    ///
    /// # Errors
    /// [`FilterError`] naming the first value the filter does not offer,
    /// including an empty one (`old--`, `old----new`).
    pub fn parse(raw: &str) -> Result<Self, FilterError> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Ok(Self::default());
        }
        let values = raw
            .split(FILTER_SEPARATOR)
            .map(|v| T::from_code(&v.to_ascii_lowercase()).ok_or_else(|| FilterError { value: v.to_owned() }))
            .collect::<Result<Vec<T>, _>>()?;
        Ok(Self::new(values))
    }

    #[must_use]
    pub fn values(&self) -> &[T] {
        &self.0
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Prints the query value: codes joined by [`FILTER_SEPARATOR`].
impl<T: FilterValue> fmt::Display for FilterList<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(FILTER_SEPARATOR)?;
            }
            f.write_str(v.code())?;
        }
        Ok(())
    }
}

/// The filters of a category or subcategory listing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListingFilters {
    pub oem: FilterList<BrandSlug>,
    pub product_type: FilterList<ConditionFilter>,
    pub fuel_type: FilterList<FuelFilter>,
    /// Used units' grades (`grade=A--B`): only products of one of them.
    pub grade: FilterList<crate::catalog::Grade>,
    /// The shopper's car (`fits`, `year`), once the vehicle table has named it: only the parts
    /// that fit it.
    pub fits: Option<crate::vehicle::Car>,
}

impl ListingFilters {
    /// From the `oem`, `product_type` and `fuel_type` query values; absent means none.
    ///
    /// # Errors
    /// [`FilterError`] for the first value no filter offers.
    pub fn parse(oem: Option<&str>, product_type: Option<&str>, fuel_type: Option<&str>) -> Result<Self, FilterError> {
        Ok(Self {
            oem: FilterList::parse(oem.unwrap_or(""))?,
            product_type: FilterList::parse(product_type.unwrap_or(""))?,
            fuel_type: FilterList::parse(fuel_type.unwrap_or(""))?,
            grade: FilterList::default(),
            fits: None,
        })
    }

    /// The same filters with the `grade` query value's grades (absent or blank: none).
    ///
    /// # Errors
    /// [`FilterError`] for a value that is not a grade.
    pub fn with_grades(self, grade: Option<&str>) -> Result<Self, FilterError> {
        Ok(Self { grade: FilterList::parse(grade.unwrap_or(""))?, ..self })
    }

    /// Without any filter a category page groups products by subcategory.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.oem.is_empty()
            && self.product_type.is_empty()
            && self.fuel_type.is_empty()
            && self.grade.is_empty()
            && self.fits.is_none()
    }

    /// The same filters narrowed to `car` (none when `None`).
    #[must_use]
    pub fn fitting(self, car: Option<crate::vehicle::Car>) -> Self {
        Self { fits: car, ..self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn deserialised_brand_slugs_follow_the_slug_rule() {
        let slug: BrandSlug = serde_json::from_str("\"land-rover\"").expect("valid");
        assert_eq!(slug.as_str(), "land-rover");
        assert_eq!(serde_json::to_string(&slug).expect("serialises"), "\"land-rover\"");
        for bad in ["\"Land Rover\"", "\"-bmw\"", "\"\"", "\"a--b\""] {
            assert!(serde_json::from_str::<BrandSlug>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn values_are_joined_by_a_double_hyphen() {
        let list = FilterList::<ConditionFilter>::parse("old--new").expect("valid");
        assert_eq!(list.values(), &[ConditionFilter::Old, ConditionFilter::New]);
        assert_eq!(list.to_string(), "old--new");
        let fuels = FilterList::<FuelFilter>::parse("Diesel").expect("valid");
        assert_eq!((fuels.to_string().as_str(), fuels.values()[0].fuel_type()), ("diesel", FuelType::Diesel));
        let brands = FilterList::<BrandSlug>::parse("mercedes-benz--land-rover--bmw").expect("valid");
        assert_eq!(
            brands.values().iter().map(BrandSlug::as_str).collect::<Vec<_>>(),
            ["mercedes-benz", "land-rover", "bmw"]
        );
    }

    #[test]
    fn blank_is_no_filter_and_repeats_count_once() {
        assert!(FilterList::<ConditionFilter>::parse("").expect("blank").is_empty());
        assert!(FilterList::<ConditionFilter>::parse("  ").expect("blank").is_empty());
        assert_eq!(FilterList::<ConditionFilter>::parse("new--old--new").expect("ok").to_string(), "new--old");
    }

    #[test]
    fn values_the_filter_does_not_offer_are_refused() {
        for raw in ["used", "refurbished", "old-new", "old--", "old----new", "--old"] {
            let e = FilterList::<ConditionFilter>::parse(raw).expect_err(raw);
            assert_eq!(e.code(), "filter.invalid", "{raw}");
        }
        assert!(FilterList::<FuelFilter>::parse("hybrid").is_err(), "filters offer petrol and diesel only");
        for raw in ["mercedes---benz", "-bmw", "bmw-", "land rover", "audi_a4"] {
            assert!(FilterList::<BrandSlug>::parse(raw).is_err(), "{raw}");
        }
    }

    #[test]
    fn condition_filters_match_their_own_code_only() {
        assert!(ConditionFilter::New.matches(&Condition::New));
        assert!(!ConditionFilter::New.matches(&Condition::NewWithoutBox));
        assert!(ConditionFilter::Old.matches(&Condition::Old));
    }

    #[test]
    fn listing_filters_from_the_query() {
        let f = ListingFilters::parse(Some("audi"), None, Some("petrol--diesel")).expect("valid");
        assert!(!f.is_empty());
        assert_eq!(f.fuel_type.values(), &FuelFilter::ALL);
        assert!(ListingFilters::parse(None, Some(""), None).expect("valid").is_empty());
        let graded = ListingFilters::parse(None, None, None).and_then(|f| f.with_grades(Some("A--c"))).expect("valid");
        assert_eq!(graded.grade.values(), &[crate::catalog::Grade::A, crate::catalog::Grade::C]);
        assert!(!graded.is_empty(), "a grade filter makes a flat listing");
        assert!(ListingFilters::default().with_grades(Some("D")).is_err());
    }

    fn condition() -> impl Strategy<Value = ConditionFilter> {
        proptest::sample::select(ConditionFilter::ALL.to_vec())
    }

    fn slug() -> impl Strategy<Value = BrandSlug> {
        "[a-z0-9]{1,6}(-[a-z0-9]{1,6}){0,2}".prop_map(|s| BrandSlug::from_code(&s).expect("slug"))
    }

    proptest! {
        #[test]
        fn printing_then_parsing_gives_the_list_back(values in proptest::collection::vec(condition(), 0..4)) {
            let list = FilterList::new(values);
            prop_assert_eq!(FilterList::parse(&list.to_string()), Ok(list));
        }

        #[test]
        fn brand_lists_round_trip(values in proptest::collection::vec(slug(), 0..5)) {
            let list = FilterList::new(values);
            let printed = list.to_string();
            prop_assert_eq!(FilterList::parse(&printed), Ok(list.clone()));
            prop_assert_eq!(FilterList::<BrandSlug>::parse(&printed).map(|l| l.to_string()), Ok(printed));
        }

        #[test]
        fn parsing_then_printing_is_canonical(raw in "(old|new|OLD|New)(--(old|new|Old|NEW)){0,3}") {
            let once = FilterList::<ConditionFilter>::parse(&raw).expect("valid").to_string();
            prop_assert_eq!(FilterList::<ConditionFilter>::parse(&once).map(|l| l.to_string()), Ok(once.clone()));
        }
    }
}
