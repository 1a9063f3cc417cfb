//! The demo catalog: eight makers, a dozen categories and as many products as
//! asked for, the same every time (a fixed-seed generator), so demos, tests
//! and benchmarks see one shop.

mod data;
pub mod rng;
pub(crate) mod vehicles;

use marque_domain::catalog::{
    Category, Condition, Donor, FuelType, Grade, MarginScheme, OemBrand, Product, ProductDetails, ProductId,
    Subcategory,
};
use marque_domain::{Money, PartNumber};
use marque_ports::{CatalogStore, CatalogStoreError, VehicleStore};

use data::{BrandSpec, KindSpec, BRANDS, CATEGORIES};
use rng::Rng;

/// Products written per call to the store.
const BATCH: usize = 1_000;
/// When the first demo product was listed: 2026-01-01T00:00:00Z.
const FIRST_LISTED: i64 = 1_767_225_600;
/// The first demo product a used unit's grade and donor car may be given to. The products before
/// it stay ungraded, so a small demo catalog (the tests' 120 products) holds no graded unit that a
/// test's grade filter would meet; the `dev` shop's 600 hold many.
pub const FIRST_GRADED: u32 = 200;

/// The eight makers of the specification's footer.
#[must_use]
pub fn brands() -> Vec<OemBrand> {
    BRANDS
        .iter()
        .map(|b| OemBrand {
            id: format!("brand-{}", b.slug),
            name: b.name.to_owned(),
            slug: b.slug.to_owned(),
            image: format!("/media/new-car-logo/{}.svg", b.slug),
        })
        .collect()
}

#[must_use]
pub fn categories() -> Vec<Category> {
    CATEGORIES
        .iter()
        .map(|c| Category {
            id: format!("cat-{}", c.slug),
            name: c.name.to_owned(),
            slug: c.slug.to_owned(),
            subcategories: c
                .kinds
                .iter()
                .map(|k| Subcategory {
                    id: format!("sub-{}-{}", c.slug, k.slug),
                    name: k.name.to_owned(),
                    slug: k.slug.to_owned(),
                })
                .collect(),
        })
        .collect()
}

/// The `n`-th demo product (from 0). Pure: the same `n` always gives the same product.
#[must_use]
pub fn product(n: u32) -> Product {
    product_with_model(n).0
}

/// [`product`], with the maker and model it was made for.
fn product_with_model(n: u32) -> (Product, &'static BrandSpec, &'static data::ModelSpec) {
    let mut rng = Rng::new(u64::from(n));
    let brand = &BRANDS[n as usize % BRANDS.len()];
    let category = rng.pick(CATEGORIES);
    let kind = rng.pick(category.kinds);
    let model = rng.pick(brand.models);
    let condition = match rng.below(100) {
        0..=34 => Condition::New,
        35..=69 => Condition::Old,
        70..=79 => Condition::NewWithoutBox,
        80..=89 => Condition::Refurbished,
        _ => Condition::Other("stock_lot".into()),
    };
    let fuel = match rng.below(10) {
        0..=4 => Some(FuelType::Petrol),
        5..=8 => Some(FuelType::Diesel),
        _ => Some(FuelType::Hybrid),
    };
    let variant = (*rng.pick(model.variants)).to_owned();
    let price = price(kind, &condition, &mut rng);
    let quantity = if rng.below(10) == 0 { 0 } else { 1 + rng.below(6) };
    let units_sold = if rng.below(3) == 0 { 0 } else { rng.below(40) + rng.below(40) * u32::from(rng.below(8) == 0) };
    let name = format!("{} {} {}", brand.name, model.name, kind.part_name);
    let part_no = PartNumber::parse(&part_number(brand, &mut rng)).unwrap_or_else(|_| unreachable_part());
    let description = format!(
        "{} for the {} {} ({}). {} Part number {} as printed on the part.",
        kind.part_name,
        brand.name,
        model.name,
        variant,
        condition_note(&condition),
        part_no
    );
    let image_count = 1 + rng.below(3) as usize;
    let drawing = slugify(kind.part_name);
    let images =
        (0..image_count).map(|i| format!("/media/parts/{drawing}-{}.svg", (n as usize + i) % 6).into()).collect();
    let product = Product {
        id: ProductId(format!("p{n:06}")),
        name,
        price,
        quantity,
        condition,
        images,
        description,
        category: category.name.to_owned(),
        category_slug: category.slug.to_owned(),
        subcategory: kind.name.to_owned(),
        subcategory_slug: kind.slug.to_owned(),
        oem: brand.name.to_owned(),
        oem_slug: brand.slug.to_owned(),
        fuel_type: fuel,
        variant,
        part_no,
        inside_ncr: Money::from_rupees(kind.delivery_ncr),
        outside_ncr: Money::from_rupees(kind.delivery_ncr * 2 + 100),
        gst_percent: 18,
        units_sold,
        created_at: FIRST_LISTED + i64::from(n) * 3_600,
        details: ProductDetails { sku: format!("P{n:06}"), ..ProductDetails::default() },
    };
    (used_unit(n, product, model, &mut rng), brand, model)
}

/// From [`FIRST_GRADED`] on, a used (old or refurbished) product is a graded unit with its donor
/// car, the maker's model it was made for; one in four of them is sold under the GST margin scheme,
/// bought for 55 to 85% of its price (so its invoice has a margin to tax). Drawn after everything
/// else, so the rest of each product stays as it was.
fn used_unit(n: u32, mut product: Product, model: &data::ModelSpec, rng: &mut Rng) -> Product {
    if n < FIRST_GRADED || !product.condition.is_used() {
        return product;
    }
    let grade = *rng.pick(&Grade::ALL);
    let (model_name, generation) = model.name.rsplit_once(' ').unwrap_or((model.name, model.name));
    let year = i64::from(2016 + rng.below(9));
    let odometer = i64::from(8_000 + rng.below(150) * 1_000);
    product.details.grade = Some(grade);
    product.details.donor = Donor::parse((&product.oem, model_name, generation), year, odometer, 2026).ok();
    if rng.below(4) == 0 {
        let percent = i64::from(55 + rng.below(31));
        let purchase = Money::from_paise(product.price.paise() * percent / 100);
        product.details.margin_scheme = MarginScheme::new(purchase).ok();
    }
    product
}

/// `Front Brake Disc` → `front-brake-disc`.
fn slugify(text: &str) -> String {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect::<Vec<_>>()
        .join("-")
}

fn unreachable_part() -> PartNumber {
    // Every generated part number has digits; this keeps the generator total anyway.
    PartNumber::parse("0").unwrap_or_else(|_| unreachable!("\"0\" is a valid part number"))
}

fn condition_note(condition: &Condition) -> &'static str {
    match condition {
        Condition::New => "Brand new in the maker's box.",
        Condition::NewWithoutBox => "New and unused, supplied without the original box.",
        Condition::Refurbished => "Refurbished and tested by our workshop.",
        Condition::Old => "Used, removed from a running car and checked before dispatch.",
        Condition::Other(_) => "From a stock lot: sold as seen.",
    }
}

/// A GST-inclusive price in the kind's range, lower for used parts, ending in 9.
fn price(kind: &KindSpec, condition: &Condition, rng: &mut Rng) -> Money {
    let (low, high) = kind.price_range;
    let base = low + i64::from(rng.below(u32::try_from(high - low).unwrap_or(u32::MAX).max(1)));
    let percent = match condition {
        Condition::New => 100,
        Condition::NewWithoutBox => 85,
        Condition::Refurbished => 70,
        Condition::Old => 55,
        Condition::Other(_) => 45,
    };
    let rupees = (base * percent / 100) / 10 * 10 + 9;
    Money::from_rupees(rupees)
}

/// A part number in the maker's own format.
fn part_number(brand: &BrandSpec, rng: &mut Rng) -> String {
    let mut out = String::new();
    for c in brand.part_format.chars() {
        match c {
            '#' => out.push(char::from(b'0' + u8::try_from(rng.below(10)).unwrap_or(0))),
            '@' => out.push(char::from(b'A' + u8::try_from(rng.below(26)).unwrap_or(0))),
            other => out.push(other),
        }
    }
    out
}

/// Writes brands, categories and `count` products.
///
/// # Errors
/// When the store refuses a write (e.g. the products are already there).
pub async fn write_demo_catalog(store: &dyn CatalogStore, count: u32) -> Result<(), CatalogStoreError> {
    write_demo_catalog_reporting(store, count, |_, _| {}).await
}

/// [`write_demo_catalog`], calling `progress(written, count)` after every batch.
///
/// # Errors
/// When the store refuses a write or cannot be reached.
pub async fn write_demo_catalog_reporting(
    store: &dyn CatalogStore,
    count: u32,
    mut progress: impl FnMut(u32, u32) + Send,
) -> Result<(), CatalogStoreError> {
    store.put_brands(&brands()).await?;
    store.put_categories(&categories()).await?;
    let mut next = 0;
    while next < count {
        let end = count.min(next + u32::try_from(BATCH).unwrap_or(u32::MAX));
        let batch: Vec<Product> = (next..end).map(product).collect();
        store.add_products(&batch).await?;
        next = end;
        progress(next, count);
    }
    Ok(())
}

/// Gives the first `count` demo products the fitment of their generation
/// ([`vehicles::demo_fitment`]), widened to `rows` rows a product when more than one is asked
/// ([`vehicles::demo_fitment_rows`]), a batch at a time; products that have a fitment keep it.
///
/// # Errors
/// When the seed list does not parse or the store refuses a write.
pub async fn write_demo_fitment(store: &dyn VehicleStore, count: u32, rows: usize) -> anyhow::Result<()> {
    let list = vehicles::vehicles()?;
    let mut next = 0;
    while next < count {
        let end = count.min(next + u32::try_from(BATCH).unwrap_or(u32::MAX));
        let batch: Vec<(ProductId, Vec<marque_domain::vehicle::ProductFit>)> = (next..end)
            .map(|n| {
                let (product, brand, model) = product_with_model(n);
                let fits = vehicles::demo_fitment_rows(&product, brand, model, &list, rows);
                (product.id, fits)
            })
            .filter(|(_, fits)| !fits.is_empty())
            .collect();
        store.seed_fitment(&batch).await.map_err(|e| anyhow::anyhow!("{e}"))?;
        next = end;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use marque_domain::part_number::normalize_part_number;

    #[test]
    fn the_demo_catalog_is_deterministic() {
        assert_eq!(product(7), product(7));
        assert_ne!(product(7).id, product(8).id);
    }

    #[test]
    fn the_demo_catalog_covers_what_the_shop_shows() {
        let products: Vec<Product> = (0..600).map(product).collect();
        assert_eq!(brands().len(), 8);
        assert!(categories().len() >= 10);
        assert!(categories().iter().all(|c| !c.subcategories.is_empty()));
        assert!(products.iter().any(|p| p.quantity == 0), "some products are out of stock");
        assert!(products.iter().any(|p| p.units_sold > 20), "some products sell well");
        for code in ["new", "old", "new_without_box", "refurbished", "stock_lot"] {
            assert!(products.iter().any(|p| p.condition.code() == code), "{code}");
        }
        for b in brands() {
            assert!(products.iter().filter(|p| p.oem_slug == b.slug).count() >= 50, "{}", b.slug);
        }
        assert!(products.iter().all(|p| p.price > Money::ZERO && p.outside_ncr > p.inside_ncr));
    }

    #[test]
    fn used_demo_units_have_grades_donors_and_some_the_margin_scheme() {
        let products: Vec<Product> = (0..600).map(product).collect();
        assert!(products[..FIRST_GRADED as usize].iter().all(|p| p.details.grade.is_none()), "the first stay ungraded");
        let graded: Vec<&Product> = products.iter().filter(|p| p.details.grade.is_some()).collect();
        assert!(graded.len() >= 50, "{} graded units", graded.len());
        for p in &graded {
            assert!(p.condition.is_used(), "{}", p.id.as_str());
            assert!(p.details.donor.is_some(), "{}", p.id.as_str());
            assert_eq!(marque_domain::catalog::used::check_used_fields(p), Ok(()));
        }
        let margin: Vec<&&Product> = graded.iter().filter(|p| p.details.margin_scheme.is_some()).collect();
        assert!(!margin.is_empty(), "some are sold under the margin scheme");
        for p in margin {
            let bought = p.details.margin_scheme.expect("a scheme").purchase_price;
            assert!(bought > Money::ZERO && bought < p.price, "{}: bought below its price", p.id.as_str());
        }
        for grade in Grade::ALL {
            assert!(graded.iter().any(|p| p.details.grade == Some(grade)), "{grade:?}");
        }
    }

    #[test]
    fn part_numbers_look_like_each_makers_format() {
        let merc = (0..600).map(product).find(|p| p.oem_slug == "mercedes-benz").expect("has Mercedes-Benz");
        let printed = merc.part_no.printed();
        assert!(printed.starts_with("A "), "{printed}");
        assert_eq!(printed.len(), "A 000 180 26 09".len());
        let bmw = (0..600).map(product).find(|p| p.oem_slug == "bmw").expect("has BMW");
        assert_eq!(bmw.part_no.printed().len(), "11 42 7 953 129".len());
        assert_eq!(normalize_part_number(bmw.part_no.printed()).len(), 11);
    }
}
