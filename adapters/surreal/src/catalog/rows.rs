//! Catalog records as stored: plain fields, money in paise, part numbers printed and normalised.

use marque_domain::catalog::{
    Category, Condition, CrossReference, Dimensions, Donor, FuelType, Grade, Hsn, MarginScheme, OemBrand, Product,
    ProductDetails, ProductId, Subcategory, WarrantyDays,
};

use crate::photos::ImageRow;
use marque_domain::{Money, PartNumber};
use marque_ports::{CatalogStoreError, ProductStamp};
use surrealdb::types::SurrealValue;

/// The fields of a product's own record, as every product read selects them; `id` is the record key as a string.
macro_rules! record_fields {
    () => {
        "record::id(id) AS id, name, price, quantity, condition, images, \
     description, category, category_slug, subcategory, subcategory_slug, oem, oem_slug, fuel_type, variant, \
     part_no, part_norm, inside_ncr, outside_ncr, gst_percent, units_sold, created_at, sku, alternate_numbers, \
     superseded_numbers, part_norms, hsn, warranty_days, weight_grams, dimensions_mm, published, grade, \
     donor_make, donor_model, donor_generation, donor_year, donor_odometer_km, purchase_price, cross_references"
    };
}

/// Fields a product read selects: [`LISTED_FIELDS`] and `fits`, the product's `product_fitment`
/// record's rows (migration 25), read by key; with an `ORDER BY`, SurrealDB 3.3 evaluates the
/// projection again after `id` became the key's text, hence the `IF`.
pub(super) const PRODUCT_FIELDS: &str = concat!(
    record_fields!(),
    ", type::record('product_fitment', IF type::is_record(id) THEN record::id(id) ELSE id END).fits AS fits"
);

/// Fields a listing's or a search's products are read with: the product's record without its
/// fitment rows, which their answers do not show (with 20 rows a product, reading them was most of
/// a listing's first answer). Such products carry no `fits`.
pub(super) const LISTED_FIELDS: &str = record_fields!();

/// The table a product is stored in: `product` when published, else `unpublished_product`.
pub(super) fn table(published: bool) -> &'static str {
    if published {
        "product"
    } else {
        "unpublished_product"
    }
}

/// SurrealQL writing every [`ProductRow`] of `$var` over its stored product, stored in table `from` and
/// to be stored in `to`. In place when the table stays (`MERGE`: the row carries every field of the
/// product but one, the low-stock threshold the stock page sets, which is kept); else deleted from `from`
/// and inserted into `to`, the stored threshold carried over. (Deleting and inserting every updated row,
/// as before, lost the threshold and cost three to six times the time of an update in place.)
pub(super) fn rewrite_products(var: &str, from: &str, to: &str) -> String {
    if from == to {
        format!("FOR $r IN ${var} {{ UPDATE type::record('{to}', $r.id) MERGE $r RETURN NONE; }};")
    } else {
        format!(
            "FOR $r IN ${var} {{ \
             LET $kept = (SELECT VALUE low_stock_threshold FROM type::record('{from}', $r.id))[0]; \
             DELETE type::record('{from}', $r.id) RETURN NONE; INSERT INTO {to} $r RETURN NONE; \
             IF $kept != NONE {{ UPDATE type::record('{to}', $r.id) SET low_stock_threshold = $kept RETURN NONE; }}; }};"
        )
    }
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(super) struct ProductRow {
    id: String,
    name: String,
    price: i64,
    quantity: i64,
    condition: String,
    images: Vec<ImageRow>,
    description: String,
    category: String,
    category_slug: String,
    subcategory: String,
    subcategory_slug: String,
    oem: String,
    oem_slug: String,
    fuel_type: Option<String>,
    variant: String,
    part_no: String,
    part_norm: String,
    inside_ncr: i64,
    outside_ncr: i64,
    gst_percent: i64,
    units_sold: i64,
    created_at: i64,
    sku: String,
    alternate_numbers: Vec<String>,
    superseded_numbers: Vec<String>,
    part_norms: Vec<String>,
    hsn: String,
    warranty_days: i64,
    weight_grams: i64,
    dimensions_mm: DimensionsRow,
    /// True in `product`, false in `unpublished_product` (each table asserts its own).
    published: bool,
    /// Read from `product_fitment` (migration 25), never written with the product: `None` on writes.
    fits: Option<Vec<crate::vehicles::FitRow>>,
    /// Migration 28: a used unit's grade letter, its donor car (all five or none), the margin
    /// scheme's purchase price in paise, and cross-references; absent in rows stored before.
    grade: Option<String>,
    donor_make: Option<String>,
    donor_model: Option<String>,
    donor_generation: Option<String>,
    donor_year: Option<i64>,
    donor_odometer_km: Option<i64>,
    purchase_price: Option<i64>,
    cross_references: Option<Vec<CrossReferenceRow>>,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(super) struct CrossReferenceRow {
    brand: String,
    /// As printed; its normalised form is in `part_norms`.
    number: String,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(super) struct DimensionsRow {
    length: i64,
    width: i64,
    height: i64,
}

impl From<&Product> for ProductRow {
    fn from(p: &Product) -> Self {
        Self {
            id: p.id.0.clone(),
            name: p.name.clone(),
            price: p.price.paise(),
            quantity: i64::from(p.quantity),
            condition: p.condition.code().to_owned(),
            images: p.images.iter().map(ImageRow::from).collect(),
            description: p.description.clone(),
            category: p.category.clone(),
            category_slug: p.category_slug.clone(),
            subcategory: p.subcategory.clone(),
            subcategory_slug: p.subcategory_slug.clone(),
            oem: p.oem.clone(),
            oem_slug: p.oem_slug.clone(),
            fuel_type: p.fuel_type.map(|f| f.code().to_owned()),
            variant: p.variant.clone(),
            part_no: p.part_no.printed().to_owned(),
            part_norm: p.part_no.normalized().to_owned(),
            inside_ncr: p.inside_ncr.paise(),
            outside_ncr: p.outside_ncr.paise(),
            gst_percent: i64::from(p.gst_percent),
            units_sold: i64::from(p.units_sold),
            created_at: p.created_at,
            sku: p.details.sku.clone(),
            alternate_numbers: p.details.alternate_numbers.iter().map(|n| n.printed().to_owned()).collect(),
            superseded_numbers: p.details.superseded_numbers.iter().map(|n| n.printed().to_owned()).collect(),
            part_norms: p.details.searched_numbers(&p.part_no),
            hsn: p.details.hsn.as_str().to_owned(),
            warranty_days: i64::from(p.details.warranty_days.days()),
            weight_grams: i64::from(p.details.weight_grams),
            dimensions_mm: DimensionsRow {
                length: i64::from(p.details.dimensions_mm.length),
                width: i64::from(p.details.dimensions_mm.width),
                height: i64::from(p.details.dimensions_mm.height),
            },
            published: p.details.published,
            fits: None,
            grade: p.details.grade.map(|g| g.letter().to_owned()),
            donor_make: p.details.donor.as_ref().map(|d| d.make.clone()),
            donor_model: p.details.donor.as_ref().map(|d| d.model.clone()),
            donor_generation: p.details.donor.as_ref().map(|d| d.generation.clone()),
            donor_year: p.details.donor.as_ref().map(|d| i64::from(d.year)),
            donor_odometer_km: p.details.donor.as_ref().map(|d| i64::from(d.odometer_km)),
            purchase_price: p.details.margin_scheme.map(|m| m.purchase_price.paise()),
            cross_references: Some(
                p.details
                    .cross_references
                    .iter()
                    .map(|r| CrossReferenceRow { brand: r.brand.clone(), number: r.number.printed().to_owned() })
                    .collect(),
            ),
        }
    }
}

impl TryFrom<ProductRow> for Product {
    type Error = CatalogStoreError;

    fn try_from(row: ProductRow) -> Result<Self, CatalogStoreError> {
        let id = row.id;
        let corrupt = |field: &str, value: &dyn std::fmt::Display| CatalogStoreError::Unavailable {
            reason: format!("stored product `{id}` has an unreadable {field}: {value}"),
        };
        let part_no = PartNumber::parse(&row.part_no).map_err(|e| corrupt("part number", &e))?;
        let fuel_type = match row.fuel_type {
            None => None,
            Some(code) => Some(FuelType::parse(&code).ok_or_else(|| corrupt("fuel type", &code))?),
        };
        let quantity = u32::try_from(row.quantity).map_err(|_| corrupt("quantity", &row.quantity))?;
        let units_sold = u32::try_from(row.units_sold).map_err(|_| corrupt("units sold", &row.units_sold))?;
        let gst_percent = u8::try_from(row.gst_percent).map_err(|_| corrupt("GST rate", &row.gst_percent))?;
        let numbers = |printed: &[String]| printed.iter().map(|n| PartNumber::parse(n)).collect::<Result<Vec<_>, _>>();
        let alternate_numbers = numbers(&row.alternate_numbers).map_err(|e| corrupt("alternate number", &e))?;
        let superseded_numbers = numbers(&row.superseded_numbers).map_err(|e| corrupt("superseded number", &e))?;
        let hsn = Hsn::parse(&row.hsn).map_err(|e| corrupt("HSN code", &e.code()))?;
        let warranty_days =
            WarrantyDays::new(row.warranty_days).map_err(|_| corrupt("warranty", &row.warranty_days))?;
        let weight_grams = u32::try_from(row.weight_grams).map_err(|_| corrupt("weight", &row.weight_grams))?;
        let d = &row.dimensions_mm;
        let dimensions_mm =
            Dimensions::new(d.length, d.width, d.height).map_err(|_| corrupt("dimensions", &d.length))?;
        let fits = row
            .fits
            .unwrap_or_default()
            .into_iter()
            .map(crate::vehicles::FitRow::into_fit)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| corrupt("fitment row", &e))?;
        let grade = match &row.grade {
            None => None,
            Some(letter) => Some(Grade::parse(letter).map_err(|_| corrupt("grade", letter))?),
        };
        let donor = match (row.donor_make, row.donor_model, row.donor_generation, row.donor_year, row.donor_odometer_km)
        {
            (Some(make), Some(model), Some(generation), Some(year), Some(km)) => Some(Donor {
                make,
                model,
                generation,
                year: u16::try_from(year).map_err(|_| corrupt("donor year", &year))?,
                odometer_km: u32::try_from(km).map_err(|_| corrupt("donor odometer", &km))?,
            }),
            (None, None, None, None, None) => None,
            _ => return Err(corrupt("donor car", &"a part of it")),
        };
        let margin_scheme = match row.purchase_price {
            None => None,
            Some(paise) => {
                Some(MarginScheme::new(Money::from_paise(paise)).map_err(|_| corrupt("purchase price", &paise))?)
            }
        };
        let cross_references = row
            .cross_references
            .unwrap_or_default()
            .into_iter()
            .map(|r| {
                PartNumber::parse(&r.number)
                    .map(|number| CrossReference { brand: r.brand, number })
                    .map_err(|e| corrupt("cross-reference", &e))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let images = row
            .images
            .into_iter()
            .map(ImageRow::into_image)
            .collect::<Result<_, _>>()
            .map_err(|e| corrupt("image", &e))?;
        Ok(Product {
            id: ProductId(id),
            name: row.name,
            price: Money::from_paise(row.price),
            quantity,
            condition: Condition::from(row.condition),
            images,
            description: row.description,
            category: row.category,
            category_slug: row.category_slug,
            subcategory: row.subcategory,
            subcategory_slug: row.subcategory_slug,
            oem: row.oem,
            oem_slug: row.oem_slug,
            fuel_type,
            variant: row.variant,
            part_no,
            inside_ncr: Money::from_paise(row.inside_ncr),
            outside_ncr: Money::from_paise(row.outside_ncr),
            gst_percent,
            units_sold,
            created_at: row.created_at,
            details: ProductDetails {
                sku: row.sku,
                alternate_numbers,
                superseded_numbers,
                hsn,
                warranty_days,
                weight_grams,
                dimensions_mm,
                published: row.published,
                fits,
                grade,
                donor,
                margin_scheme,
                cross_references,
            },
        })
    }
}

/// A product's fitment read apart from its row (see [`ProductRow::with_fits`]).
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(super) struct FitsRow {
    pub(super) id: String,
    pub(super) fits: Option<Vec<crate::vehicles::FitRow>>,
}

impl ProductRow {
    /// The product's id (its record key).
    pub(super) fn key(&self) -> &str {
        &self.id
    }

    /// The row with its fitment, for rows read whole (`SELECT *`) rather than through
    /// [`PRODUCT_FIELDS`], whose fitment is a lookup per row.
    pub(super) fn with_fits(mut self, fits: Option<Vec<crate::vehicles::FitRow>>) -> Self {
        self.fits = fits;
        self
    }
}

pub(super) fn products(rows: Vec<ProductRow>) -> Result<Vec<Product>, CatalogStoreError> {
    rows.into_iter().map(Product::try_from).collect()
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(super) struct BrandRow {
    id: String,
    name: String,
    slug: String,
    image: String,
}

impl From<&OemBrand> for BrandRow {
    fn from(b: &OemBrand) -> Self {
        Self { id: b.id.clone(), name: b.name.clone(), slug: b.slug.clone(), image: b.image.clone() }
    }
}

impl From<BrandRow> for OemBrand {
    fn from(b: BrandRow) -> Self {
        Self { id: b.id, name: b.name, slug: b.slug, image: b.image }
    }
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(super) struct SubcategoryRow {
    id: String,
    name: String,
    slug: String,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(super) struct CategoryRow {
    id: String,
    name: String,
    slug: String,
    subcategories: Vec<SubcategoryRow>,
}

impl From<&Category> for CategoryRow {
    fn from(c: &Category) -> Self {
        Self {
            id: c.id.clone(),
            name: c.name.clone(),
            slug: c.slug.clone(),
            subcategories: c
                .subcategories
                .iter()
                .map(|s| SubcategoryRow { id: s.id.clone(), name: s.name.clone(), slug: s.slug.clone() })
                .collect(),
        }
    }
}

impl From<CategoryRow> for Category {
    fn from(c: CategoryRow) -> Self {
        Self {
            id: c.id,
            name: c.name,
            slug: c.slug,
            subcategories: c
                .subcategories
                .into_iter()
                .map(|s| Subcategory { id: s.id, name: s.name, slug: s.slug })
                .collect(),
        }
    }
}

/// A product's id and listing time, for the sitemap.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(super) struct StampRow {
    id: String,
    created_at: i64,
}

impl From<StampRow> for ProductStamp {
    fn from(row: StampRow) -> Self {
        Self { id: ProductId(row.id), listed_at: row.created_at }
    }
}
