//! The back office's catalog editor: what a product carries beyond the specification's fields
//! (the shop's SKU, alternate and superseded part numbers, HSN code, warranty, weight and size,
//! whether shoppers see it), and the values staff type, each a value that parses.

use serde::{Deserialize, Serialize};

use super::{Category, Condition, CrossReference, Donor, FuelType, Grade, MarginScheme, OemBrand, Product, ProductId};
use crate::{Message, Money, PartNumber};

/// Characters a SKU may have, at most.
pub const SKU_MAX: usize = 40;
/// Longest product name staff may give.
pub const PRODUCT_NAME_MAX: usize = 200;
/// Warranty days the shop gives, at least and at most (the terms: "2 to 15 days depending on the part").
pub const WARRANTY_DAYS: std::ops::RangeInclusive<u8> = 2..=15;
/// Heaviest part the shop ships, in grams (one tonne; 0 means not yet weighed).
pub const WEIGHT_GRAMS_MAX: u32 = 1_000_000;
/// Longest side the shop ships, in millimetres (ten metres; 0 means not yet measured).
pub const SIDE_MM_MAX: u32 = 10_000;
/// Alternate or superseded part numbers one product may list, at most (each kind).
pub const OTHER_NUMBERS_MAX: usize = 20;
/// GST rates (percent) a product may carry.
pub const GST_RATES: [u8; 5] = [0, 5, 12, 18, 28];

/// The shop's stock-keeping unit: 1 to 40 letters, digits, `-`, `_`, `.` or `/`, kept upper-case,
/// unique among products (a used-parts shop lists several units of one part number, each its own SKU).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Sku(String);

impl Sku {
    /// # Errors
    /// [`Message::ProductSkuInvalid`] for an empty, too long or otherwise spelt SKU.
    pub fn parse(text: &str) -> Result<Self, Message> {
        let sku = text.trim().to_ascii_uppercase();
        let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/');
        if sku.is_empty() || sku.len() > SKU_MAX || !sku.chars().all(allowed) {
            return Err(Message::ProductSkuInvalid);
        }
        Ok(Sku(sku))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Sku {
    type Error = Message;
    fn try_from(s: String) -> Result<Self, Message> {
        Sku::parse(&s)
    }
}

impl From<Sku> for String {
    fn from(s: Sku) -> Self {
        s.0
    }
}

/// An HSN code (India's goods classification): 4 to 8 digits. Motor-vehicle parts are `8708`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Hsn(String);

impl Hsn {
    /// # Errors
    /// [`Message::ProductHsnInvalid`] unless the text is 4 to 8 digits.
    pub fn parse(text: &str) -> Result<Self, Message> {
        let code = text.trim();
        if (4..=8).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_digit()) {
            Ok(Hsn(code.to_owned()))
        } else {
            Err(Message::ProductHsnInvalid)
        }
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for Hsn {
    /// `8708`, parts and accessories of motor vehicles.
    fn default() -> Self {
        Hsn("8708".to_owned())
    }
}

impl TryFrom<String> for Hsn {
    type Error = Message;
    fn try_from(s: String) -> Result<Self, Message> {
        Hsn::parse(&s)
    }
}

impl From<Hsn> for String {
    fn from(h: Hsn) -> Self {
        h.0
    }
}

/// Days of warranty a product carries: 2 to 15 (the shop's terms).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct WarrantyDays(u8);

impl WarrantyDays {
    /// # Errors
    /// [`Message::ProductWarrantyDays`] outside 2 to 15.
    pub fn new(days: i64) -> Result<Self, Message> {
        u8::try_from(days)
            .ok()
            .filter(|d| WARRANTY_DAYS.contains(d))
            .map(WarrantyDays)
            .ok_or(Message::ProductWarrantyDays)
    }

    #[must_use]
    pub const fn days(self) -> u8 {
        self.0
    }
}

impl Default for WarrantyDays {
    /// A week.
    fn default() -> Self {
        WarrantyDays(7)
    }
}

impl TryFrom<u8> for WarrantyDays {
    type Error = Message;
    fn try_from(d: u8) -> Result<Self, Message> {
        WarrantyDays::new(i64::from(d))
    }
}

impl From<WarrantyDays> for u8 {
    fn from(w: WarrantyDays) -> Self {
        w.0
    }
}

/// A parcel's sides in millimetres; 0 everywhere means not yet measured.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Dimensions {
    pub length: u32,
    pub width: u32,
    pub height: u32,
}

impl Dimensions {
    /// # Errors
    /// [`Message::ProductDimensionsInvalid`] when a side is negative or above ten metres.
    pub fn new(length: i64, width: i64, height: i64) -> Result<Self, Message> {
        let side = |mm: i64| u32::try_from(mm).ok().filter(|mm| *mm <= SIDE_MM_MAX);
        match (side(length), side(width), side(height)) {
            (Some(length), Some(width), Some(height)) => Ok(Dimensions { length, width, height }),
            _ => Err(Message::ProductDimensionsInvalid),
        }
    }
}

/// A weight in grams, 0 (not yet weighed) to one tonne.
///
/// # Errors
/// [`Message::ProductWeightInvalid`] otherwise.
pub fn weight_grams(grams: i64) -> Result<u32, Message> {
    u32::try_from(grams).ok().filter(|g| *g <= WEIGHT_GRAMS_MAX).ok_or(Message::ProductWeightInvalid)
}

/// A product's name as staff give it: trimmed, 1 to 200 characters.
///
/// # Errors
/// [`Message::ProductNameInvalid`] otherwise.
pub fn product_name(text: &str) -> Result<String, Message> {
    let name = text.trim();
    if name.is_empty() || name.chars().count() > PRODUCT_NAME_MAX {
        return Err(Message::ProductNameInvalid);
    }
    Ok(name.to_owned())
}

/// A price or delivery charge in rupees with at most two decimals (`1499.5`), as paise.
///
/// # Errors
/// [`Message::ProductPriceInvalid`] for a negative, non-finite or sub-paisa amount.
pub fn rupees(amount: f64) -> Result<Money, Message> {
    Money::try_from_rupees_f64(amount).ok_or(Message::ProductPriceInvalid)
}

/// A GST rate in percent: 0, 5, 12, 18 or 28.
///
/// # Errors
/// [`Message::ProductGstInvalid`] otherwise.
pub fn gst_rate(percent: i64) -> Result<u8, Message> {
    u8::try_from(percent).ok().filter(|p| GST_RATES.contains(p)).ok_or(Message::ProductGstInvalid)
}

/// Alternate or superseded part numbers: each with a letter or digit, at most 20, a number
/// spelt twice (in any spelling) kept once.
///
/// # Errors
/// [`Message::PartNumberEmpty`] for a number without letters or digits,
/// [`Message::ProductNumbersTooMany`] past 20.
pub fn other_numbers(printed: &[String]) -> Result<Vec<PartNumber>, Message> {
    let mut numbers: Vec<PartNumber> = Vec::with_capacity(printed.len());
    for text in printed {
        let number = PartNumber::parse(text).map_err(|_| Message::PartNumberEmpty)?;
        if !numbers.iter().any(|n| n.normalized() == number.normalized()) {
            numbers.push(number);
        }
    }
    if numbers.len() > OTHER_NUMBERS_MAX {
        return Err(Message::ProductNumbersTooMany);
    }
    Ok(numbers)
}

/// What a product carries beyond the specification's fields (issue 21's catalog editor).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProductDetails {
    /// The shop's SKU ([`Sku`]'s text), unique among products.
    pub sku: String,
    /// Other makers' numbers for the same part; search finds them like `part_no`.
    pub alternate_numbers: Vec<PartNumber>,
    /// Older numbers this part replaces; search finds them like `part_no`.
    pub superseded_numbers: Vec<PartNumber>,
    pub hsn: Hsn,
    pub warranty_days: WarrantyDays,
    /// 0 when not yet weighed.
    pub weight_grams: u32,
    pub dimensions_mm: Dimensions,
    /// Whether shoppers see it. An unpublished product answers 404 to them and is in no
    /// listing, search or sitemap; orders naming it keep their snapshots.
    pub published: bool,
    /// The vehicles it fits (issue 25), written apart from the product's other fields (the
    /// fitment editor's), read with it; empty when none are listed.
    #[serde(default)]
    pub fits: Vec<crate::vehicle::ProductFit>,
    /// A used unit's grade (issue 25); only a used condition carries one.
    #[serde(default)]
    pub grade: Option<Grade>,
    /// The car a used unit came from; only a used condition carries one.
    #[serde(default)]
    pub donor: Option<Donor>,
    /// Sold under the GST margin scheme, with its purchase price: the back office's alone.
    #[serde(default)]
    pub margin_scheme: Option<MarginScheme>,
    /// Other makers' numbers for the part (Bosch `0 986 494 104`); search finds them like `part_no`.
    #[serde(default)]
    pub cross_references: Vec<CrossReference>,
}

impl Default for ProductDetails {
    /// No SKU yet, HSN 8708, 7 days' warranty, not measured, published.
    fn default() -> Self {
        ProductDetails {
            sku: String::new(),
            alternate_numbers: Vec::new(),
            superseded_numbers: Vec::new(),
            hsn: Hsn::default(),
            warranty_days: WarrantyDays::default(),
            weight_grams: 0,
            dimensions_mm: Dimensions::default(),
            published: true,
            fits: Vec::new(),
            grade: None,
            donor: None,
            margin_scheme: None,
            cross_references: Vec::new(),
        }
    }
}

impl ProductDetails {
    /// Every normalised number search matches for a product whose own part number is `part_no`:
    /// that one first, then the alternates, the superseded ones and the cross-references', each once.
    #[must_use]
    pub fn searched_numbers(&self, part_no: &PartNumber) -> Vec<String> {
        let mut all: Vec<String> = vec![part_no.normalized().to_owned()];
        let crossed = self.cross_references.iter().map(|r| &r.number);
        for n in self.alternate_numbers.iter().chain(&self.superseded_numbers).chain(crossed) {
            if !all.iter().any(|a| a == n.normalized()) {
                all.push(n.normalized().to_owned());
            }
        }
        all
    }
}

/// Most opening stock a creation may record.
pub const OPENING_STOCK_MAX: u32 = 100_000;

/// An opening stock: 0 to 100,000 units.
///
/// # Errors
/// [`Message::ProductQuantityInvalid`] otherwise.
pub fn opening_stock(units: i64) -> Result<u32, Message> {
    u32::try_from(units).ok().filter(|u| *u <= OPENING_STOCK_MAX).ok_or(Message::ProductQuantityInvalid)
}

/// A category's, subcategory's or brand's name: trimmed, 1 to 100 characters.
///
/// # Errors
/// [`Message::CatalogNameInvalid`] otherwise.
pub fn catalog_name(text: &str) -> Result<String, Message> {
    let name = text.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(Message::CatalogNameInvalid);
    }
    Ok(name.to_owned())
}

/// A slug as addresses carry it: 1 to 60 lower-case letters and digits in words joined by single
/// hyphens (`brake-discs`, `mercedes-benz`).
///
/// # Errors
/// [`Message::CatalogSlugInvalid`] otherwise.
pub fn catalog_slug(text: &str) -> Result<String, Message> {
    let slug = text.trim();
    let words_ok =
        slug.split('-').all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()));
    if slug.is_empty() || slug.len() > 60 || !words_ok {
        return Err(Message::CatalogSlugInvalid);
    }
    Ok(slug.to_owned())
}

/// A brand's logo: an `https://` address, a path on the shop (`/new-car-logo/bmw.png`) or a stored
/// picture's name (`logos/bmw.webp`); at most 300 characters, no spaces, no `..`.
///
/// # Errors
/// [`Message::BrandLogoInvalid`] otherwise.
pub fn brand_logo(text: &str) -> Result<String, Message> {
    let logo = text.trim();
    let plain = |s: &str| {
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b)) && !s.contains("..")
    };
    let ok = match logo.strip_prefix("https://") {
        Some(rest) => !rest.is_empty() && !rest.chars().any(char::is_whitespace) && !rest.contains(['"', '<', '>']),
        None => plain(logo),
    };
    if !ok || logo.len() > 300 {
        return Err(Message::BrandLogoInvalid);
    }
    Ok(logo.to_owned())
}

/// A change to a product as staff typed it, each field parsed; `None` leaves a field as it is.
/// Category, subcategory and brand are slugs the use case resolves to the shop's names. Stock is
/// never part of it (it changes only through the stock ledger).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProductPatch {
    pub name: Option<String>,
    pub price: Option<Money>,
    pub condition: Option<Condition>,
    pub description: Option<String>,
    pub category_slug: Option<String>,
    pub subcategory_slug: Option<String>,
    pub oem_slug: Option<String>,
    /// `Some(None)` removes the fuel type.
    pub fuel_type: Option<Option<FuelType>>,
    pub variant: Option<String>,
    pub part_no: Option<PartNumber>,
    pub inside_ncr: Option<Money>,
    pub outside_ncr: Option<Money>,
    pub gst_percent: Option<u8>,
    pub sku: Option<Sku>,
    pub alternate_numbers: Option<Vec<PartNumber>>,
    pub superseded_numbers: Option<Vec<PartNumber>>,
    pub hsn: Option<Hsn>,
    pub warranty_days: Option<WarrantyDays>,
    pub weight_grams: Option<u32>,
    pub dimensions_mm: Option<Dimensions>,
    pub published: Option<bool>,
    /// `Some(None)` removes the grade.
    pub grade: Option<Option<Grade>>,
    /// `Some(None)` removes the donor car.
    pub donor: Option<Option<Donor>>,
    /// `Some(None)` takes the product out of the margin scheme.
    pub margin_scheme: Option<Option<MarginScheme>>,
    pub cross_references: Option<Vec<CrossReference>>,
}

impl ProductPatch {
    /// Writes the fields it carries (but the category, subcategory and brand, which need the
    /// shop's names) into `product`.
    pub fn apply_to(&self, product: &mut Product) {
        fn set<T: Clone>(field: &mut T, value: Option<&T>) {
            if let Some(value) = value {
                field.clone_from(value);
            }
        }
        set(&mut product.name, self.name.as_ref());
        set(&mut product.price, self.price.as_ref());
        set(&mut product.condition, self.condition.as_ref());
        set(&mut product.description, self.description.as_ref());
        set(&mut product.fuel_type, self.fuel_type.as_ref());
        set(&mut product.variant, self.variant.as_ref());
        set(&mut product.part_no, self.part_no.as_ref());
        set(&mut product.inside_ncr, self.inside_ncr.as_ref());
        set(&mut product.outside_ncr, self.outside_ncr.as_ref());
        set(&mut product.gst_percent, self.gst_percent.as_ref());
        let details = &mut product.details;
        set(&mut details.sku, self.sku.as_ref().map(|s| s.as_str().to_owned()).as_ref());
        set(&mut details.alternate_numbers, self.alternate_numbers.as_ref());
        set(&mut details.superseded_numbers, self.superseded_numbers.as_ref());
        set(&mut details.hsn, self.hsn.as_ref());
        set(&mut details.warranty_days, self.warranty_days.as_ref());
        set(&mut details.weight_grams, self.weight_grams.as_ref());
        set(&mut details.dimensions_mm, self.dimensions_mm.as_ref());
        set(&mut details.published, self.published.as_ref());
        set(&mut details.grade, self.grade.as_ref());
        set(&mut details.donor, self.donor.as_ref());
        set(&mut details.margin_scheme, self.margin_scheme.as_ref());
        set(&mut details.cross_references, self.cross_references.as_ref());
    }
}

/// Sets `product`'s category, subcategory and brand (names and slugs) from the slugs `patch`
/// carries, looked up in the shop's `categories` and `brands`; a slug the patch leaves out keeps
/// the product's. Only the lists a patch's slugs need are read (an empty one is fine otherwise).
///
/// # Errors
/// [`Message::ProductPlacementUnknown`] for a category, subcategory (within its category) or brand
/// the shop does not have.
pub fn place(
    product: &mut Product,
    patch: &ProductPatch,
    categories: &[Category],
    brands: &[OemBrand],
) -> Result<(), Message> {
    let unknown = Message::ProductPlacementUnknown;
    if patch.category_slug.is_some() || patch.subcategory_slug.is_some() {
        let category_slug = patch.category_slug.as_deref().unwrap_or(&product.category_slug);
        let subcategory_slug = patch.subcategory_slug.as_deref().unwrap_or(&product.subcategory_slug);
        let category = categories.iter().find(|c| c.slug == category_slug).ok_or(unknown)?;
        let sub = category.subcategories.iter().find(|s| s.slug == subcategory_slug).ok_or(unknown)?;
        product.category.clone_from(&category.name);
        product.category_slug.clone_from(&category.slug);
        product.subcategory.clone_from(&sub.name);
        product.subcategory_slug.clone_from(&sub.slug);
    }
    if let Some(slug) = &patch.oem_slug {
        let brand = brands.iter().find(|b| &b.slug == slug).ok_or(unknown)?;
        product.oem.clone_from(&brand.name);
        product.oem_slug.clone_from(&brand.slug);
    }
    Ok(())
}

/// A new product as staff typed it: a patch that carries every field a product cannot be without
/// (name, price, category, subcategory, brand, part number, SKU), and its opening stock.
#[derive(Debug, Clone, PartialEq)]
pub struct ProductDraft {
    fields: ProductPatch,
    quantity: u32,
    part_no: PartNumber,
}

impl ProductDraft {
    /// # Errors
    /// The message of the first required field missing: [`Message::ProductNameInvalid`],
    /// [`Message::ProductPriceInvalid`], [`Message::ProductPlacementUnknown`],
    /// [`Message::PartNumberEmpty`], [`Message::ProductSkuInvalid`].
    pub fn new(fields: ProductPatch, quantity: u32) -> Result<Self, Message> {
        let f = &fields;
        let required = [
            (f.name.is_some(), Message::ProductNameInvalid),
            (f.price.is_some(), Message::ProductPriceInvalid),
            (
                f.category_slug.is_some() && f.subcategory_slug.is_some() && f.oem_slug.is_some(),
                Message::ProductPlacementUnknown,
            ),
            (f.part_no.is_some(), Message::PartNumberEmpty),
            (f.sku.is_some(), Message::ProductSkuInvalid),
        ];
        if let Some((_, missing)) = required.iter().find(|(present, _)| !present) {
            return Err(*missing);
        }
        let part_no = fields.part_no.clone().ok_or(Message::PartNumberEmpty)?;
        Ok(ProductDraft { fields, quantity, part_no })
    }

    #[must_use]
    pub fn fields(&self) -> &ProductPatch {
        &self.fields
    }

    /// The opening stock.
    #[must_use]
    pub fn quantity(&self) -> u32 {
        self.quantity
    }

    /// The product it describes, with `id`, listed at `created_at`, its stock the opening stock,
    /// condition `new`, GST 18 % and the details' defaults unless given; category, subcategory and
    /// brand names are still to be [`place`]d.
    #[must_use]
    pub fn product(&self, id: ProductId, created_at: i64) -> Product {
        let mut product = Product {
            id,
            name: String::new(),
            price: Money::ZERO,
            quantity: self.quantity,
            condition: Condition::New,
            images: Vec::new(),
            description: String::new(),
            category: String::new(),
            category_slug: String::new(),
            subcategory: String::new(),
            subcategory_slug: String::new(),
            oem: String::new(),
            oem_slug: String::new(),
            fuel_type: None,
            variant: String::new(),
            part_no: self.part_no.clone(),
            inside_ncr: Money::ZERO,
            outside_ncr: Money::ZERO,
            gst_percent: 18,
            units_sold: 0,
            created_at,
            details: ProductDetails::default(),
        };
        self.fields.apply_to(&mut product);
        product
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::ProductId;

    fn sample() -> Product {
        Product {
            id: ProductId("p1".into()),
            name: "Front Brake Disc".into(),
            price: Money::from_rupees(100),
            quantity: 4,
            condition: Condition::New,
            images: Vec::new(),
            description: String::new(),
            category: "Brakes".into(),
            category_slug: "brakes".into(),
            subcategory: "Discs".into(),
            subcategory_slug: "discs".into(),
            oem: "BMW".into(),
            oem_slug: "bmw".into(),
            fuel_type: Some(FuelType::Petrol),
            variant: String::new(),
            part_no: PartNumber::parse("A 1").expect("valid"),
            inside_ncr: Money::ZERO,
            outside_ncr: Money::ZERO,
            gst_percent: 18,
            units_sold: 0,
            created_at: 0,
            details: ProductDetails { sku: "S1".into(), ..ProductDetails::default() },
        }
    }

    #[test]
    fn skus_are_upper_case_and_plainly_spelt() {
        assert_eq!(Sku::parse(" mb-204/a.1_x ").map(|s| s.as_str().to_owned()), Ok("MB-204/A.1_X".to_owned()));
        for bad in ["", "   ", "a b", "ä1", &"x".repeat(41)] {
            assert_eq!(Sku::parse(bad), Err(Message::ProductSkuInvalid), "{bad:?}");
        }
        assert!(Sku::parse(&"x".repeat(40)).is_ok());
        assert!(serde_json::from_str::<Sku>("\"a 1\"").is_err(), "serde parses too");
    }

    #[test]
    fn hsn_codes_are_four_to_eight_digits() {
        for good in ["8708", "87089900", " 870830 "] {
            assert!(Hsn::parse(good).is_ok(), "{good}");
        }
        for bad in ["870", "870899001", "87O8", "", "-8708"] {
            assert_eq!(Hsn::parse(bad), Err(Message::ProductHsnInvalid), "{bad}");
        }
        assert_eq!(Hsn::default().as_str(), "8708");
    }

    #[test]
    fn warranty_is_two_to_fifteen_days() {
        assert_eq!(WarrantyDays::new(2).map(WarrantyDays::days), Ok(2));
        assert_eq!(WarrantyDays::new(15).map(WarrantyDays::days), Ok(15));
        for bad in [1, 16, 0, -3, 300] {
            assert_eq!(WarrantyDays::new(bad), Err(Message::ProductWarrantyDays), "{bad}");
        }
        assert!(serde_json::from_str::<WarrantyDays>("16").is_err());
    }

    #[test]
    fn weights_sizes_prices_and_rates_are_bounded() {
        assert_eq!(weight_grams(0), Ok(0));
        assert_eq!(weight_grams(1_000_000), Ok(1_000_000));
        assert_eq!(weight_grams(-1), Err(Message::ProductWeightInvalid));
        assert_eq!(weight_grams(1_000_001), Err(Message::ProductWeightInvalid));
        assert_eq!(Dimensions::new(300, 200, 0), Ok(Dimensions { length: 300, width: 200, height: 0 }));
        assert_eq!(Dimensions::new(10_001, 1, 1), Err(Message::ProductDimensionsInvalid));
        assert_eq!(Dimensions::new(1, -1, 1), Err(Message::ProductDimensionsInvalid));
        assert_eq!(rupees(1499.5), Ok(Money::from_paise(149_950)));
        assert_eq!(rupees(0.001), Err(Message::ProductPriceInvalid));
        assert_eq!(rupees(-1.0), Err(Message::ProductPriceInvalid));
        assert_eq!(rupees(f64::NAN), Err(Message::ProductPriceInvalid));
        assert_eq!(gst_rate(18), Ok(18));
        assert_eq!(gst_rate(17), Err(Message::ProductGstInvalid));
        assert_eq!(product_name("  Brake Disc "), Ok("Brake Disc".to_owned()));
        assert_eq!(product_name("  "), Err(Message::ProductNameInvalid));
        assert_eq!(product_name(&"n".repeat(201)), Err(Message::ProductNameInvalid));
    }

    #[test]
    fn other_numbers_are_kept_once_in_any_spelling() {
        let typed = vec!["A 000 180 26 09".to_owned(), "a0001802609".to_owned(), "11-42".to_owned()];
        let numbers = other_numbers(&typed).expect("valid");
        let printed: Vec<&str> = numbers.iter().map(PartNumber::printed).collect();
        assert_eq!(printed, ["A 000 180 26 09", "11-42"]);
        assert_eq!(other_numbers(&[" - ".to_owned()]), Err(Message::PartNumberEmpty));
        let many: Vec<String> = (0..21).map(|i| format!("N{i}")).collect();
        assert_eq!(other_numbers(&many), Err(Message::ProductNumbersTooMany));
    }

    #[test]
    fn search_numbers_hold_each_spelling_once_own_number_first() {
        let part = PartNumber::parse("A 000 180 26 09").expect("valid");
        let details = ProductDetails {
            alternate_numbers: other_numbers(&["LR 012".to_owned(), "a0001802609".to_owned()]).expect("valid"),
            superseded_numbers: other_numbers(&["lr-012".to_owned(), "X9".to_owned()]).expect("valid"),
            ..ProductDetails::default()
        };
        assert_eq!(details.searched_numbers(&part), ["A0001802609", "LR012", "X9"]);
        let crossed = ProductDetails {
            cross_references: vec![
                super::super::used::CrossReference::parse("Bosch", "0 986 494 104").expect("valid"),
                super::super::used::CrossReference::parse("ATE", "x-9").expect("valid"),
            ],
            ..details
        };
        assert_eq!(crossed.searched_numbers(&part), ["A0001802609", "LR012", "X9", "0986494104"]);
        assert!(ProductDetails::default().published);
    }

    #[test]
    fn names_slugs_logos_and_stock_parse() {
        assert_eq!(catalog_slug("brake-discs"), Ok("brake-discs".to_owned()));
        for bad in ["", "Brakes", "brake--discs", "-brakes", "brakes-", "brake discs", &"a".repeat(61)] {
            assert_eq!(catalog_slug(bad), Err(Message::CatalogSlugInvalid), "{bad:?}");
        }
        assert_eq!(catalog_name(" Brakes "), Ok("Brakes".to_owned()));
        assert_eq!(catalog_name(""), Err(Message::CatalogNameInvalid));
        for good in ["https://cdn.example.in/bmw.png", "/new-car-logo/bmw.png", "logos/bmw.webp"] {
            assert!(brand_logo(good).is_ok(), "{good}");
        }
        for bad in ["", "javascript:alert(1)", "../etc/passwd", "https://", "a b.png", "https://x/\"<y"] {
            assert_eq!(brand_logo(bad), Err(Message::BrandLogoInvalid), "{bad}");
        }
        assert_eq!(opening_stock(0), Ok(0));
        assert_eq!(opening_stock(100_001), Err(Message::ProductQuantityInvalid));
        assert_eq!(opening_stock(-1), Err(Message::ProductQuantityInvalid));
    }

    #[test]
    fn a_draft_needs_its_required_fields_and_a_patch_changes_only_what_it_carries() {
        let complete = ProductPatch {
            name: Some("Disc".into()),
            price: Some(Money::from_rupees(10)),
            category_slug: Some("brakes".into()),
            subcategory_slug: Some("discs".into()),
            oem_slug: Some("bmw".into()),
            part_no: Some(PartNumber::parse("A 1").expect("valid")),
            sku: Some(Sku::parse("S1").expect("valid")),
            ..ProductPatch::default()
        };
        assert_eq!(ProductDraft::new(complete.clone(), 3).map(|d| d.quantity()), Ok(3));
        let no_sku = ProductPatch { sku: None, ..complete.clone() };
        assert_eq!(ProductDraft::new(no_sku, 0), Err(Message::ProductSkuInvalid));
        let no_brand = ProductPatch { oem_slug: None, ..complete };
        assert_eq!(ProductDraft::new(no_brand, 0), Err(Message::ProductPlacementUnknown));

        let patch = ProductPatch {
            price: Some(Money::from_paise(149_950)),
            fuel_type: Some(None),
            warranty_days: Some(WarrantyDays::new(15).expect("valid")),
            published: Some(false),
            ..ProductPatch::default()
        };
        let before = sample();
        let mut after = before.clone();
        patch.apply_to(&mut after);
        assert_eq!(after.price, Money::from_paise(149_950));
        assert_eq!(after.fuel_type, None);
        assert_eq!(after.details.warranty_days.days(), 15);
        assert!(!after.details.published);
        assert_eq!(
            (after.name.as_str(), after.quantity, &after.details.sku),
            (before.name.as_str(), before.quantity, &before.details.sku)
        );
    }
}
