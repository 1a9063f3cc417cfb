//! Valid catalog records for suites, with only the fields a test cares about spelled out.

use marque_domain::catalog::{
    Category, Condition, FuelType, ImageFormat, ImageVariant, OemBrand, Product, ProductDetails, ProductId,
    ProductImage, Subcategory,
};
use marque_domain::filters::{BrandSlug, FilterValue};
use marque_domain::{Money, PartNumber};

/// Starts a valid product with this id; every other field has a plain default.
#[must_use]
pub fn product(id: &str) -> ProductBuilder {
    ProductBuilder(Product {
        id: ProductId(id.to_owned()),
        name: format!("Spare {id}"),
        price: Money::from_rupees(1_000),
        quantity: 1,
        condition: Condition::New,
        images: vec![format!("/images/{id}.jpg").into()],
        description: String::new(),
        category: "Brakes".to_owned(),
        category_slug: "brakes".to_owned(),
        subcategory: "Discs".to_owned(),
        subcategory_slug: "discs".to_owned(),
        oem: "Mercedes-Benz".to_owned(),
        oem_slug: "mercedes-benz".to_owned(),
        fuel_type: None,
        variant: String::new(),
        part_no: part_number(&format!("MQ {id}")),
        inside_ncr: Money::ZERO,
        outside_ncr: Money::ZERO,
        gst_percent: 18,
        units_sold: 0,
        created_at: 1_700_000_000,
        details: ProductDetails { sku: id.to_owned(), ..ProductDetails::default() },
    })
}

/// A product under construction; [`ProductBuilder::build`] hands it over.
#[derive(Debug, Clone)]
pub struct ProductBuilder(Product);

impl ProductBuilder {
    #[must_use]
    pub fn name(mut self, name: &str) -> Self {
        name.clone_into(&mut self.0.name);
        self
    }

    /// Part number as printed; it must hold at least one letter or digit.
    #[must_use]
    pub fn part_no(mut self, printed: &str) -> Self {
        self.0.part_no = part_number(printed);
        self
    }

    /// When it was listed, seconds since the Unix epoch.
    #[must_use]
    pub fn created_at(mut self, seconds: i64) -> Self {
        self.0.created_at = seconds;
        self
    }

    #[must_use]
    pub fn units_sold(mut self, units: u32) -> Self {
        self.0.units_sold = units;
        self
    }

    #[must_use]
    pub fn price(mut self, price: Money) -> Self {
        self.0.price = price;
        self
    }

    #[must_use]
    pub fn quantity(mut self, quantity: u32) -> Self {
        self.0.quantity = quantity;
        self
    }

    #[must_use]
    pub fn fuel_type(mut self, fuel: Option<FuelType>) -> Self {
        self.0.fuel_type = fuel;
        self
    }

    /// The maker, by name; its slug follows (`Land Rover` → `land-rover`).
    #[must_use]
    pub fn brand(mut self, name: &str) -> Self {
        name.clone_into(&mut self.0.oem);
        self.0.oem_slug = slug(name);
        self
    }

    /// Category and subcategory, by name; their slugs follow (`Oil Pumps` → `oil-pumps`).
    #[must_use]
    pub fn category(mut self, category: &str, subcategory: &str) -> Self {
        category.clone_into(&mut self.0.category);
        self.0.category_slug = slug(category);
        subcategory.clone_into(&mut self.0.subcategory);
        self.0.subcategory_slug = slug(subcategory);
        self
    }

    #[must_use]
    pub fn condition(mut self, condition: Condition) -> Self {
        self.0.condition = condition;
        self
    }

    /// The shop's SKU (the id by default).
    #[must_use]
    pub fn sku(mut self, sku: &str) -> Self {
        sku.clone_into(&mut self.0.details.sku);
        self
    }

    /// Any other change, for the rare test that needs one.
    #[must_use]
    pub fn with(mut self, change: impl FnOnce(&mut Product)) -> Self {
        change(&mut self.0);
        self
    }

    #[must_use]
    pub fn build(self) -> Product {
        self.0
    }
}

/// A part number the fixture knows to be valid.
///
/// # Panics
/// When `printed` holds no letter or digit: a mistake in the test itself.
#[must_use]
pub fn part_number(printed: &str) -> PartNumber {
    PartNumber::parse(printed).unwrap_or_else(|e| panic!("fixture part number {printed:?}: {e}"))
}

/// A brand slug the fixture knows to be valid.
///
/// # Panics
/// When `slug` is not lower-case letters and digits joined by single hyphens.
#[must_use]
pub fn brand_slug(slug: &str) -> BrandSlug {
    BrandSlug::from_code(slug).unwrap_or_else(|| panic!("fixture brand slug {slug:?} is not a slug"))
}

#[must_use]
pub fn brand(id: &str, name: &str) -> OemBrand {
    let slug = slug(name);
    OemBrand { id: id.to_owned(), name: name.to_owned(), image: format!("/new-car-logo/{slug}.png"), slug }
}

/// A category with subcategories given as `(id, name)` pairs, in the order given.
#[must_use]
pub fn category(id: &str, name: &str, subcategories: &[(&str, &str)]) -> Category {
    Category {
        id: id.to_owned(),
        name: name.to_owned(),
        slug: slug(name),
        subcategories: subcategories
            .iter()
            .map(|(id, name)| Subcategory { id: (*id).to_owned(), name: (*name).to_owned(), slug: slug(name) })
            .collect(),
    }
}

fn slug(name: &str) -> String {
    name.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join("-")
}

/// An uploaded photograph of `product` (4000 × 3000) with its variants at 320 and 640 pixels,
/// each as WebP and JPEG.
#[must_use]
pub fn photo(product: &str, id: &str) -> ProductImage {
    let variant = |width: u32, format: ImageFormat| ImageVariant {
        name: format!("/media/products/{product}/{id}-{width}.{}", format.code()),
        width,
        height: width * 3 / 4,
        format,
    };
    ProductImage {
        name: format!("/media/products/{product}/{id}-640.jpeg"),
        width: Some(4000),
        height: Some(3000),
        variants: vec![
            variant(320, ImageFormat::Webp),
            variant(320, ImageFormat::Jpeg),
            variant(640, ImageFormat::Webp),
            variant(640, ImageFormat::Jpeg),
        ],
    }
}

/// The page `page` of `size` rows of an admin list (both within the shop's rule).
#[must_use]
pub fn window(page: u64, size: u64) -> marque_domain::paging::ListWindow {
    marque_domain::paging::ListWindow::new(Some(page), Some(size)).expect("a window within the rule")
}
