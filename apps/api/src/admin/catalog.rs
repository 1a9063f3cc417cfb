//! The catalog editor's calls (tag `admin-catalog`): products (published or not), categories with
//! their subcategories, and brands. Bodies use the API's Product field names (`name`, `price` in
//! rupees, `producttype`, `category_slug`, …, `partNo`, `gst`) plus the editor's (`sku`,
//! `alternateNumbers`, `supersededNumbers`, `hsn`, `warrantyDays`, `weightGrams`, `dimensionsMm`,
//! `published`); `quantity` (the opening stock) only on creation. A PATCH changes the fields it
//! carries; `published: false` unpublishes (404 to shoppers, out of every listing), `true`
//! publishes again. Unknown fields are refused (a PATCH never carries the stock).

use marque_app::admin::catalog::{AdminCatalogError, AdminCatalogService, BrandChange, CategoryChange};
use marque_domain::catalog::editor::{self, Dimensions, Hsn, ProductDraft, ProductPatch, Sku, WarrantyDays};
use marque_domain::catalog::used::{self, CrossReference, Donor, Grade, MarginScheme};
use marque_domain::catalog::{Category, Condition, FuelType, OemBrand, Product, ProductId};
use marque_domain::paging::ListWindow;
use marque_domain::{Message, Money, PartNumber};
use marque_ports::{AdminProductQuery, AdminProductSort};
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::types::MaybeUndefined;
use poem_openapi::{Object, OpenApi, Tags};

use super::auth::{BrandsStaff, CategoriesStaff, ProductsStaff};
use super::list_window;
use crate::error::ErrorBody;

#[derive(Tags)]
enum Tag {
    /// The back office's catalog editor: products (published or not), categories, brands.
    #[oai(rename = "admin-catalog")]
    AdminCatalog,
}

/// A parcel's sides in millimetres (0 when not measured).
#[derive(Debug, Clone, Object)]
pub struct DimensionsMm {
    pub length: i64,
    pub width: i64,
    pub height: i64,
}

/// The car a used unit was taken from (issue 25).
#[derive(Debug, Clone, Object)]
pub struct DonorCar {
    /// 1 to 60 characters, e.g. `BMW`.
    pub make: String,
    /// 1 to 60 characters, e.g. `X5`.
    pub model: String,
    /// 1 to 60 characters, e.g. `G05`.
    pub generation: String,
    /// Model year, 1950 to next year.
    pub year: i64,
    /// 0 to 2,000,000 km.
    #[oai(rename = "odometerKm")]
    pub odometer_km: i64,
}

/// The GST margin scheme (CGST Rules, rule 32(5)) of a used unit bought without input tax credit.
/// The back office's alone: no storefront answer carries the purchase price.
#[derive(Debug, Clone, Object)]
pub struct MarginSchemeBody {
    /// What the shop paid for the unit, in paise (1 to 1,000,000,000).
    #[oai(rename = "purchasePrice")]
    pub purchase_price: i64,
}

/// Another maker's number for the part (OEM or aftermarket), searched in any spelling.
#[derive(Debug, Clone, Object)]
pub struct CrossReferenceBody {
    /// 1 to 40 characters, e.g. `Bosch`.
    pub brand: String,
    /// As the maker prints it, e.g. `0 986 494 104`.
    pub number: String,
}

/// A product as the back office sees it: the storefront's fields and the editor's.
#[derive(Debug, Clone, Object)]
pub struct AdminProduct {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    /// Unit price in rupees, GST included.
    pub price: f64,
    /// Units in stock (changed only through the stock ledger).
    pub quantity: u32,
    /// Condition code (`new`, `new_without_box`, `refurbished`, `old`, …).
    pub producttype: String,
    /// Photographs, the main one first, as the photographs calls answer them: the storefront's `images`
    /// with the `_id` that `DELETE …/photos/{photoId}` takes.
    pub images: Vec<super::photos::AdminPhoto>,
    pub description: String,
    pub category: String,
    pub category_slug: String,
    pub subcategory: String,
    pub subcategory_slug: String,
    pub oem: String,
    pub oem_slug: String,
    #[oai(rename = "fuelType")]
    pub fuel_type: Option<String>,
    pub variant: String,
    #[oai(rename = "partNo")]
    pub part_no: String,
    /// Delivery charge per line inside the NCR, rupees.
    pub inside_ncr: f64,
    /// Delivery charge per line outside the NCR, rupees.
    pub outside_ncr: f64,
    /// GST rate in percent.
    pub gst: u8,
    pub sku: String,
    #[oai(rename = "alternateNumbers")]
    pub alternate_numbers: Vec<String>,
    #[oai(rename = "supersededNumbers")]
    pub superseded_numbers: Vec<String>,
    pub hsn: String,
    #[oai(rename = "warrantyDays")]
    pub warranty_days: u8,
    #[oai(rename = "weightGrams")]
    pub weight_grams: u32,
    #[oai(rename = "dimensionsMm")]
    pub dimensions_mm: DimensionsMm,
    /// Whether shoppers see it.
    pub published: bool,
    #[oai(rename = "unitsSold")]
    pub units_sold: u32,
    /// When it was listed, seconds since the Unix epoch.
    #[oai(rename = "createdAt")]
    pub created_at: i64,
    /// A used unit's grade: `A`, `B` or `C` (old and refurbished products only).
    pub grade: Option<String>,
    /// The car a used unit came from.
    pub donor: Option<DonorCar>,
    /// Sold under the GST margin scheme, with its purchase price.
    #[oai(rename = "marginScheme")]
    pub margin_scheme: Option<MarginSchemeBody>,
    /// Other makers' numbers for the part, at most 20.
    #[oai(rename = "crossReferences")]
    pub cross_references: Vec<CrossReferenceBody>,
}

impl From<Product> for AdminProduct {
    fn from(p: Product) -> Self {
        let printed = |numbers: &[PartNumber]| numbers.iter().map(|n| n.printed().to_owned()).collect();
        let d = &p.details;
        Self {
            id: p.id.0.clone(),
            name: p.name.clone(),
            price: p.price.rupees(),
            quantity: p.quantity,
            producttype: p.condition.code().to_owned(),
            images: p.images.iter().cloned().map(super::photos::AdminPhoto::from).collect(),
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
            inside_ncr: p.inside_ncr.rupees(),
            outside_ncr: p.outside_ncr.rupees(),
            gst: p.gst_percent,
            sku: d.sku.clone(),
            alternate_numbers: printed(&d.alternate_numbers),
            superseded_numbers: printed(&d.superseded_numbers),
            hsn: d.hsn.as_str().to_owned(),
            warranty_days: d.warranty_days.days(),
            weight_grams: d.weight_grams,
            dimensions_mm: DimensionsMm {
                length: i64::from(d.dimensions_mm.length),
                width: i64::from(d.dimensions_mm.width),
                height: i64::from(d.dimensions_mm.height),
            },
            published: d.published,
            units_sold: p.units_sold,
            created_at: p.created_at,
            grade: d.grade.map(|g| g.letter().to_owned()),
            donor: d.donor.as_ref().map(|d| DonorCar {
                make: d.make.clone(),
                model: d.model.clone(),
                generation: d.generation.clone(),
                year: i64::from(d.year),
                odometer_km: i64::from(d.odometer_km),
            }),
            margin_scheme: d.margin_scheme.map(|m| MarginSchemeBody { purchase_price: m.purchase_price.paise() }),
            cross_references: d
                .cross_references
                .iter()
                .map(|r| CrossReferenceBody { brand: r.brand.clone(), number: r.number.printed().to_owned() })
                .collect(),
        }
    }
}

/// A product's fields as staff send them: every field optional in a PATCH; on creation `name`,
/// `price`, `category_slug`, `subcategory_slug`, `oem_slug`, `partNo` and `sku` are required and
/// `quantity` is the opening stock.
#[derive(Debug, Clone, Default, Object)]
#[oai(deny_unknown_fields)]
pub struct ProductFields {
    pub name: Option<String>,
    /// Rupees, at most two decimals.
    pub price: Option<f64>,
    /// Condition code; `new` when not given on creation.
    pub producttype: Option<String>,
    pub description: Option<String>,
    pub category_slug: Option<String>,
    pub subcategory_slug: Option<String>,
    pub oem_slug: Option<String>,
    /// `petrol`, `diesel`, `hybrid`, `electric`; `null` or `""` for none.
    #[oai(rename = "fuelType")]
    pub fuel_type: MaybeUndefined<String>,
    pub variant: Option<String>,
    #[oai(rename = "partNo")]
    pub part_no: Option<String>,
    /// Rupees.
    pub inside_ncr: Option<f64>,
    /// Rupees.
    pub outside_ncr: Option<f64>,
    /// GST rate in percent: 0, 5, 12, 18 (the default) or 28.
    pub gst: Option<i64>,
    /// The shop's SKU: 1 to 40 letters, digits, `-_./`; kept upper-case; unique.
    pub sku: Option<String>,
    #[oai(rename = "alternateNumbers")]
    pub alternate_numbers: Option<Vec<String>>,
    #[oai(rename = "supersededNumbers")]
    pub superseded_numbers: Option<Vec<String>>,
    /// 4 to 8 digits; `8708` when not given on creation.
    pub hsn: Option<String>,
    /// 2 to 15; 7 when not given on creation.
    #[oai(rename = "warrantyDays")]
    pub warranty_days: Option<i64>,
    #[oai(rename = "weightGrams")]
    pub weight_grams: Option<i64>,
    #[oai(rename = "dimensionsMm")]
    pub dimensions_mm: Option<DimensionsMm>,
    pub published: Option<bool>,
    /// Creation only: the opening stock (0 to 100000), written as the stock ledger's opening entry.
    pub quantity: Option<i64>,
    /// `A`, `B` or `C`; `null` removes it. Only an old or refurbished product has one (`product.used_only`).
    pub grade: MaybeUndefined<String>,
    /// The donor car; `null` removes it. Only an old or refurbished product has one.
    pub donor: MaybeUndefined<DonorCar>,
    /// The GST margin scheme with its purchase price; `null` takes the product out of it. Only an old or
    /// refurbished product may be in it.
    #[oai(rename = "marginScheme")]
    pub margin_scheme: MaybeUndefined<MarginSchemeBody>,
    /// Other makers' numbers (replaces the list), at most 20; one brand's number given twice is kept once.
    #[oai(rename = "crossReferences")]
    pub cross_references: Option<Vec<CrossReferenceBody>>,
}

/// `Some(None)` for `null`, `Some(Some(…))` for a value, `None` when absent.
fn maybe<T, U>(
    value: MaybeUndefined<T>,
    parse: impl FnOnce(T) -> Result<U, Message>,
) -> Result<Option<Option<U>>, Message> {
    match value {
        MaybeUndefined::Undefined => Ok(None),
        MaybeUndefined::Null => Ok(Some(None)),
        MaybeUndefined::Value(v) => parse(v).map(|u| Some(Some(u))),
    }
}

/// This year in India, for a donor car's latest model year.
fn this_year() -> i32 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
    marque_domain::calendar::civil_from_days(marque_domain::calendar::ist_day(now)).0
}

fn parsed<T, U>(value: Option<T>, parse: impl FnOnce(T) -> Result<U, Message>) -> Result<Option<U>, Message> {
    value.map(parse).transpose()
}

fn slug(text: String) -> Result<String, Message> {
    editor::catalog_slug(&text)
}

/// The fields of `body` as a parsed patch (its `quantity` aside); a donor's model year may be at most
/// `this_year` + 1.
fn patch_of(body: ProductFields, this_year: i32) -> Result<ProductPatch, Message> {
    let fuel_type = match body.fuel_type {
        MaybeUndefined::Undefined => None,
        MaybeUndefined::Null => Some(None),
        MaybeUndefined::Value(code) if code.trim().is_empty() => Some(None),
        MaybeUndefined::Value(code) => Some(Some(FuelType::parse(&code).ok_or(Message::FilterInvalid)?)),
    };
    let condition = |code: String| {
        let code = code.trim();
        if code.is_empty() {
            Err(Message::FilterInvalid)
        } else {
            Ok(Condition::from(code))
        }
    };
    Ok(ProductPatch {
        name: parsed(body.name, |n| editor::product_name(&n))?,
        price: parsed(body.price, editor::rupees)?,
        condition: parsed(body.producttype, condition)?,
        description: body.description,
        category_slug: parsed(body.category_slug, slug)?,
        subcategory_slug: parsed(body.subcategory_slug, slug)?,
        oem_slug: parsed(body.oem_slug, slug)?,
        fuel_type,
        variant: body.variant.map(|v| v.trim().to_owned()),
        part_no: parsed(body.part_no, |p| PartNumber::parse(&p).map_err(|_| Message::PartNumberEmpty))?,
        inside_ncr: parsed(body.inside_ncr, editor::rupees)?,
        outside_ncr: parsed(body.outside_ncr, editor::rupees)?,
        gst_percent: parsed(body.gst, editor::gst_rate)?,
        sku: parsed(body.sku, |s| Sku::parse(&s))?,
        alternate_numbers: parsed(body.alternate_numbers, |n| editor::other_numbers(&n))?,
        superseded_numbers: parsed(body.superseded_numbers, |n| editor::other_numbers(&n))?,
        hsn: parsed(body.hsn, |h| Hsn::parse(&h))?,
        warranty_days: parsed(body.warranty_days, WarrantyDays::new)?,
        weight_grams: parsed(body.weight_grams, editor::weight_grams)?,
        dimensions_mm: parsed(body.dimensions_mm, |d| Dimensions::new(d.length, d.width, d.height))?,
        published: body.published,
        grade: maybe(body.grade, |g| Grade::parse(&g))?,
        donor: maybe(body.donor, |d| {
            Donor::parse((&d.make, &d.model, &d.generation), d.year, d.odometer_km, this_year)
        })?,
        margin_scheme: maybe(body.margin_scheme, |m| MarginScheme::new(Money::from_paise(m.purchase_price)))?,
        cross_references: parsed(body.cross_references, |refs| {
            let refs =
                refs.into_iter().map(|r| CrossReference::parse(&r.brand, &r.number)).collect::<Result<Vec<_>, _>>()?;
            used::cross_references(refs)
        })?,
    })
}

/// One page of products and how many there are.
#[derive(Debug, Clone, Object)]
pub struct ProductPage {
    pub results: Vec<AdminProduct>,
    /// Pages of this size over every match.
    pub pages: u64,
    /// Products matching, over all pages.
    pub total: u64,
}

#[derive(Debug, Clone, Object)]
pub struct AdminSubcategory {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    pub slug: String,
}

/// A category with its subcategories (`others` included: the storefront hides it).
#[derive(Debug, Clone, Object)]
pub struct AdminCategory {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    pub slug: String,
    pub subcategories: Vec<AdminSubcategory>,
}

impl From<Category> for AdminCategory {
    fn from(c: Category) -> Self {
        Self {
            id: c.id,
            name: c.name,
            slug: c.slug,
            subcategories: c
                .subcategories
                .into_iter()
                .map(|s| AdminSubcategory { id: s.id, name: s.name, slug: s.slug })
                .collect(),
        }
    }
}

#[derive(Debug, Clone, Object)]
pub struct CategoryPage {
    pub results: Vec<AdminCategory>,
    pub pages: u64,
    pub total: u64,
}

/// A brand and its logo.
#[derive(Debug, Clone, Object)]
pub struct AdminBrand {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    pub slug: String,
    /// The logo: an `https://` address, a path on the shop, or a stored picture's name.
    pub logo: String,
}

impl From<OemBrand> for AdminBrand {
    fn from(b: OemBrand) -> Self {
        Self { id: b.id, name: b.name, slug: b.slug, logo: b.image }
    }
}

#[derive(Debug, Clone, Object)]
pub struct BrandPage {
    pub results: Vec<AdminBrand>,
    pub pages: u64,
    pub total: u64,
}

/// A new category, or a new subcategory of one.
#[derive(Debug, Clone, Object)]
#[oai(deny_unknown_fields)]
pub struct NewCategory {
    /// 1 to 100 characters.
    pub name: String,
    /// 1 to 60 lower-case letters and digits joined by single hyphens; unique.
    pub slug: String,
}

/// A category's new name or slug.
#[derive(Debug, Clone, Object)]
#[oai(deny_unknown_fields)]
pub struct CategoryFields {
    pub name: Option<String>,
    pub slug: Option<String>,
}

/// A new brand.
#[derive(Debug, Clone, Object)]
#[oai(deny_unknown_fields)]
pub struct NewBrand {
    pub name: String,
    pub slug: String,
    /// An `https://` address, a path on the shop (`/new-car-logo/bmw.png`) or a stored picture's name.
    pub logo: String,
}

/// A brand's new name, slug or logo.
#[derive(Debug, Clone, Object)]
#[oai(deny_unknown_fields)]
pub struct BrandFields {
    pub name: Option<String>,
    pub slug: Option<String>,
    pub logo: Option<String>,
}

admin_response!(ProductListAnswer, product_list_bad_request, "product_list_bad_request", {
    /// One page of products, published or not.
    Ok(Json<ProductPage>) = 200,
});
admin_response!(ProductCreated, product_create_bad_request, "product_create_bad_request", {
    /// The product as stored, with its new `_id`.
    Created(Json<AdminProduct>) = 201,
    /// Another product has this SKU (`product.sku_taken`).
    Conflict(Json<ErrorBody>) = 409,
});
admin_response!(ProductAnswer, product_bad_request, "product_bad_request", {
    /// The product as stored.
    Ok(Json<AdminProduct>) = 200,
    /// No product has this id (`admin.product_not_found`).
    NotFound(Json<ErrorBody>) = 404,
    /// Another product has this SKU (`product.sku_taken`).
    Conflict(Json<ErrorBody>) = 409,
});
admin_response!(CategoryListAnswer, category_list_bad_request, "category_list_bad_request", {
    /// One page of categories, ordered by name.
    Ok(Json<CategoryPage>) = 200,
});
admin_response!(CategoryAnswer, category_bad_request, "category_bad_request", {
    /// The category as stored.
    Ok(Json<AdminCategory>) = 200,
    /// The category as stored, with its new `_id` (and a new subcategory's).
    Created(Json<AdminCategory>) = 201,
    /// No category has this id (`catalog.record_not_found`).
    NotFound(Json<ErrorBody>) = 404,
    /// The slug is used by another category, or by another subcategory of this one (`catalog.slug_taken`).
    Conflict(Json<ErrorBody>) = 409,
});
admin_response!(BrandListAnswer, brand_list_bad_request, "brand_list_bad_request", {
    /// One page of brands, ordered by name.
    Ok(Json<BrandPage>) = 200,
});
admin_response!(BrandAnswer, brand_bad_request, "brand_bad_request", {
    /// The brand as stored.
    Ok(Json<AdminBrand>) = 200,
    /// The brand as stored, with its new `_id`.
    Created(Json<AdminBrand>) = 201,
    /// No brand has this id (`catalog.record_not_found`).
    NotFound(Json<ErrorBody>) = 404,
    /// Another brand has this slug (`catalog.slug_taken`).
    Conflict(Json<ErrorBody>) = 409,
});

/// How a failure answers: the variant for each kind, built with the error's message.
macro_rules! failed {
    ($answer:ident, $e:expr, { $($kind:ident => $variant:ident),* }) => {{
        let e: AdminCatalogError = $e;
        let body = ErrorBody::from_message(e.message());
        match e {
            AdminCatalogError::Forbidden(_) => $answer::Forbidden(body),
            AdminCatalogError::Invalid(_) => $answer::BadRequest(body),
            AdminCatalogError::Unavailable(reason) => {
                tracing::error!(%reason, "the catalog editor's store failed");
                $answer::Unavailable(body)
            }
            $(AdminCatalogError::$kind(_) => $answer::$variant(body),)*
        }
    }};
}

/// A window of a list the store answers whole, with `pages` and `total`. Only for categories and
/// brands: a shop has a few dozen of each, read in one query, so paging them in memory costs less
/// than a count and a window in the store; products, which grow without bound, are paged by the store.
fn paged<T, U: From<T>>(all: Vec<T>, window: ListWindow) -> (Vec<U>, u64, u64) {
    let total = all.len() as u64;
    let results = window.of(all).into_iter().map(U::from).collect();
    (results, window.pages(total), total)
}

fn sort_of(text: Option<&str>) -> Result<AdminProductSort, Message> {
    Ok(match text.unwrap_or("newest") {
        "newest" => AdminProductSort::Newest,
        "name" => AdminProductSort::Name,
        "price" => AdminProductSort::PriceAscending,
        "-price" => AdminProductSort::PriceDescending,
        "sku" => AdminProductSort::Sku,
        _ => return Err(Message::FilterInvalid),
    })
}

/// The name and slug a category or subcategory is given.
fn named(name: &str, slug_text: &str) -> Result<(String, String), Message> {
    Ok((editor::catalog_name(name)?, editor::catalog_slug(slug_text)?))
}

#[derive(Debug)]
pub struct AdminCatalogApi {
    catalog: AdminCatalogService,
}

impl AdminCatalogApi {
    pub fn new(catalog: AdminCatalogService) -> Self {
        Self { catalog }
    }
}

#[OpenApi(tag = "Tag::AdminCatalog")]
impl AdminCatalogApi {
    /// Products, published or not, a page at a time: `q` matches the name or SKU (any case) or a
    /// part number (own, alternate or superseded, any spelling); `category` and `brand` are slugs;
    /// `sort` is `newest` (default), `name`, `price`, `-price` or `sku`.
    #[oai(path = "/admin/products", method = "get", operation_id = "adminProducts")]
    #[allow(clippy::too_many_arguments)]
    async fn products(
        &self,
        staff: ProductsStaff,
        page: Query<Option<u64>>,
        size: Query<Option<u64>>,
        q: Query<Option<String>>,
        category: Query<Option<String>>,
        brand: Query<Option<String>>,
        published: Query<Option<bool>>,
        sort: Query<Option<String>>,
    ) -> ProductListAnswer {
        let window = match list_window(page.0, size.0) {
            Ok(w) => w,
            Err(body) => return ProductListAnswer::BadRequest(body),
        };
        let sort = match sort_of(sort.0.as_deref()) {
            Ok(s) => s,
            Err(m) => return ProductListAnswer::BadRequest(ErrorBody::from_message(m)),
        };
        let query = AdminProductQuery {
            text: q.0.unwrap_or_default().chars().take(200).collect(),
            category: category.0,
            brand: brand.0,
            published: published.0,
            sort,
            window,
        };
        match self.catalog.products(&staff, &query).await {
            Ok(slice) => ProductListAnswer::Ok(Json(ProductPage {
                pages: window.pages(slice.total),
                total: slice.total,
                results: slice.products.into_iter().map(AdminProduct::from).collect(),
            })),
            Err(e) => failed!(ProductListAnswer, e, { NotFound => BadRequest, Taken => BadRequest }),
        }
    }

    /// Adds a product; `quantity` is its opening stock (an `opening` entry of its stock ledger).
    #[oai(path = "/admin/products", method = "post", operation_id = "adminCreateProduct")]
    async fn create_product(&self, staff: ProductsStaff, body: Json<ProductFields>) -> ProductCreated {
        let quantity = body.0.quantity;
        let draft = patch_of(body.0, this_year())
            .and_then(|patch| ProductDraft::new(patch, editor::opening_stock(quantity.unwrap_or(0))?));
        let draft = match draft {
            Ok(d) => d,
            Err(m) => return ProductCreated::BadRequest(ErrorBody::from_message(m)),
        };
        match self.catalog.create_product(&staff, draft).await {
            Ok(p) => ProductCreated::Created(Json(p.into())),
            Err(e) => failed!(ProductCreated, e, { NotFound => BadRequest, Taken => Conflict }),
        }
    }

    /// One product, published or not.
    #[oai(path = "/admin/products/:id", method = "get", operation_id = "adminProduct")]
    async fn product(&self, staff: ProductsStaff, id: Path<String>) -> ProductAnswer {
        match self.catalog.product(&staff, &ProductId(id.0)).await {
            Ok(p) => ProductAnswer::Ok(Json(p.into())),
            Err(e) => failed!(ProductAnswer, e, { NotFound => NotFound, Taken => Conflict }),
        }
    }

    /// Changes the fields the body carries (never the stock: `quantity` is refused here);
    /// `published: false` unpublishes the product, `true` publishes it again.
    #[oai(path = "/admin/products/:id", method = "patch", operation_id = "adminUpdateProduct")]
    async fn update_product(&self, staff: ProductsStaff, id: Path<String>, body: Json<ProductFields>) -> ProductAnswer {
        if body.0.quantity.is_some() {
            return ProductAnswer::BadRequest(ErrorBody::from_message(Message::ProductQuantityInvalid));
        }
        let patch = match patch_of(body.0, this_year()) {
            Ok(p) => p,
            Err(m) => return ProductAnswer::BadRequest(ErrorBody::from_message(m)),
        };
        match self.catalog.update_product(&staff, &ProductId(id.0), &patch).await {
            Ok(p) => ProductAnswer::Ok(Json(p.into())),
            Err(e) => failed!(ProductAnswer, e, { NotFound => NotFound, Taken => Conflict }),
        }
    }

    /// Every category with its subcategories, a page at a time.
    #[oai(path = "/admin/categories", method = "get", operation_id = "adminCategories")]
    async fn categories(
        &self,
        staff: CategoriesStaff,
        page: Query<Option<u64>>,
        size: Query<Option<u64>>,
    ) -> CategoryListAnswer {
        let window = match list_window(page.0, size.0) {
            Ok(w) => w,
            Err(body) => return CategoryListAnswer::BadRequest(body),
        };
        match self.catalog.categories(&staff).await {
            Ok(all) => {
                let (results, pages, total) = paged(all, window);
                CategoryListAnswer::Ok(Json(CategoryPage { results, pages, total }))
            }
            Err(e) => failed!(CategoryListAnswer, e, { NotFound => BadRequest, Taken => BadRequest }),
        }
    }

    /// Adds a category (without subcategories).
    #[oai(path = "/admin/categories", method = "post", operation_id = "adminCreateCategory")]
    async fn create_category(&self, staff: CategoriesStaff, body: Json<NewCategory>) -> CategoryAnswer {
        let (name, slug) = match named(&body.0.name, &body.0.slug) {
            Ok(n) => n,
            Err(m) => return CategoryAnswer::BadRequest(ErrorBody::from_message(m)),
        };
        match self.catalog.create_category(&staff, name, slug).await {
            Ok(c) => CategoryAnswer::Created(Json(c.into())),
            Err(e) => failed!(CategoryAnswer, e, { NotFound => NotFound, Taken => Conflict }),
        }
    }

    /// Renames a category or changes its slug; its products follow.
    #[oai(path = "/admin/categories/:id", method = "patch", operation_id = "adminUpdateCategory")]
    async fn update_category(
        &self,
        staff: CategoriesStaff,
        id: Path<String>,
        body: Json<CategoryFields>,
    ) -> CategoryAnswer {
        let change = parsed(body.0.name, |n| editor::catalog_name(&n))
            .and_then(|name| Ok(CategoryChange { name, slug: parsed(body.0.slug, slug)? }));
        let change = match change {
            Ok(c) => c,
            Err(m) => return CategoryAnswer::BadRequest(ErrorBody::from_message(m)),
        };
        match self.catalog.update_category(&staff, &id.0, change).await {
            Ok(c) => CategoryAnswer::Ok(Json(c.into())),
            Err(e) => failed!(CategoryAnswer, e, { NotFound => NotFound, Taken => Conflict }),
        }
    }

    /// Adds a subcategory to a category; answers the category.
    #[oai(path = "/admin/categories/:id/subcategories", method = "post", operation_id = "adminCreateSubcategory")]
    async fn create_subcategory(
        &self,
        staff: CategoriesStaff,
        id: Path<String>,
        body: Json<NewCategory>,
    ) -> CategoryAnswer {
        let (name, slug) = match named(&body.0.name, &body.0.slug) {
            Ok(n) => n,
            Err(m) => return CategoryAnswer::BadRequest(ErrorBody::from_message(m)),
        };
        match self.catalog.add_subcategory(&staff, &id.0, name, slug).await {
            Ok(c) => CategoryAnswer::Created(Json(c.into())),
            Err(e) => failed!(CategoryAnswer, e, { NotFound => NotFound, Taken => Conflict }),
        }
    }

    /// Every brand, a page at a time.
    #[oai(path = "/admin/brands", method = "get", operation_id = "adminBrands")]
    async fn brands(&self, staff: BrandsStaff, page: Query<Option<u64>>, size: Query<Option<u64>>) -> BrandListAnswer {
        let window = match list_window(page.0, size.0) {
            Ok(w) => w,
            Err(body) => return BrandListAnswer::BadRequest(body),
        };
        match self.catalog.brands(&staff).await {
            Ok(all) => {
                let (results, pages, total) = paged(all, window);
                BrandListAnswer::Ok(Json(BrandPage { results, pages, total }))
            }
            Err(e) => failed!(BrandListAnswer, e, { NotFound => BadRequest, Taken => BadRequest }),
        }
    }

    /// Adds a brand with its logo.
    #[oai(path = "/admin/brands", method = "post", operation_id = "adminCreateBrand")]
    async fn create_brand(&self, staff: BrandsStaff, body: Json<NewBrand>) -> BrandAnswer {
        let fields = named(&body.0.name, &body.0.slug).and_then(|(n, s)| Ok((n, s, editor::brand_logo(&body.0.logo)?)));
        let (name, slug, logo) = match fields {
            Ok(f) => f,
            Err(m) => return BrandAnswer::BadRequest(ErrorBody::from_message(m)),
        };
        match self.catalog.create_brand(&staff, name, slug, logo).await {
            Ok(b) => BrandAnswer::Created(Json(b.into())),
            Err(e) => failed!(BrandAnswer, e, { NotFound => NotFound, Taken => Conflict }),
        }
    }

    /// Changes a brand's name, slug or logo; its products follow its name and slug.
    #[oai(path = "/admin/brands/:id", method = "patch", operation_id = "adminUpdateBrand")]
    async fn update_brand(&self, staff: BrandsStaff, id: Path<String>, body: Json<BrandFields>) -> BrandAnswer {
        let body = body.0;
        let change = (|| {
            Ok(BrandChange {
                name: parsed(body.name, |n| editor::catalog_name(&n))?,
                slug: parsed(body.slug, slug)?,
                logo: parsed(body.logo, |l| editor::brand_logo(&l))?,
            })
        })();
        let change = match change {
            Ok(c) => c,
            Err(m) => return BrandAnswer::BadRequest(ErrorBody::from_message(m)),
        };
        match self.catalog.update_brand(&staff, &id.0, change).await {
            Ok(b) => BrandAnswer::Ok(Json(b.into())),
            Err(e) => failed!(BrandAnswer, e, { NotFound => NotFound, Taken => Conflict }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_parses_into_the_domains_values_or_names_the_field_that_failed() {
        let body = ProductFields {
            price: Some(1499.5),
            sku: Some(" ab-1 ".into()),
            fuel_type: MaybeUndefined::Null,
            alternate_numbers: Some(vec!["LR 012".into()]),
            dimensions_mm: Some(DimensionsMm { length: 300, width: 200, height: 50 }),
            ..ProductFields::default()
        };
        let patch = patch_of(body, 2026).expect("parses");
        assert_eq!(patch.price, Some(marque_domain::Money::from_paise(149_950)));
        assert_eq!(patch.sku.map(|s| s.as_str().to_owned()), Some("AB-1".to_owned()));
        assert_eq!(patch.fuel_type, Some(None));
        assert_eq!(patch.name, None, "absent fields stay absent");
        let refused = |body: ProductFields| patch_of(body, 2026).err();
        assert_eq!(
            refused(ProductFields { price: Some(1.234), ..ProductFields::default() }),
            Some(Message::ProductPriceInvalid)
        );
        assert_eq!(
            refused(ProductFields { warranty_days: Some(16), ..ProductFields::default() }),
            Some(Message::ProductWarrantyDays)
        );
        assert_eq!(
            refused(ProductFields { hsn: Some("87".into()), ..ProductFields::default() }),
            Some(Message::ProductHsnInvalid)
        );
        assert_eq!(
            refused(ProductFields { gst: Some(17), ..ProductFields::default() }),
            Some(Message::ProductGstInvalid)
        );
        assert_eq!(
            refused(ProductFields { category_slug: Some("Brakes".into()), ..ProductFields::default() }),
            Some(Message::CatalogSlugInvalid)
        );
        let steam = ProductFields { fuel_type: MaybeUndefined::Value("steam".into()), ..ProductFields::default() };
        assert_eq!(refused(steam), Some(Message::FilterInvalid));

        let donor = |year: i64| DonorCar {
            make: "BMW".into(),
            model: "X5".into(),
            generation: "G05".into(),
            year,
            odometer_km: 84_000,
        };
        let used = ProductFields {
            grade: MaybeUndefined::Value("b".into()),
            donor: MaybeUndefined::Value(donor(2027)),
            margin_scheme: MaybeUndefined::Null,
            cross_references: Some(vec![CrossReferenceBody { brand: "Bosch".into(), number: "0 986 494 104".into() }]),
            ..ProductFields::default()
        };
        let patch = patch_of(used, 2026).expect("parses");
        assert_eq!(patch.grade, Some(Some(Grade::B)));
        assert_eq!(patch.donor.flatten().map(|d| d.year), Some(2027));
        assert_eq!(patch.margin_scheme, Some(None), "null takes it out of the scheme");
        assert_eq!(patch.cross_references.map(|r| r.len()), Some(1));
        let grade = ProductFields { grade: MaybeUndefined::Value("D".into()), ..ProductFields::default() };
        assert_eq!(refused(grade), Some(Message::ProductGradeInvalid));
        let future = ProductFields { donor: MaybeUndefined::Value(donor(2028)), ..ProductFields::default() };
        assert_eq!(refused(future), Some(Message::ProductDonorInvalid));
        let free = ProductFields {
            margin_scheme: MaybeUndefined::Value(MarginSchemeBody { purchase_price: 0 }),
            ..ProductFields::default()
        };
        assert_eq!(refused(free), Some(Message::ProductPurchasePriceInvalid));
        let nameless = ProductFields {
            cross_references: Some(vec![CrossReferenceBody { brand: " ".into(), number: "1".into() }]),
            ..ProductFields::default()
        };
        assert_eq!(refused(nameless), Some(Message::ProductCrossReferenceInvalid));
        assert!(this_year() >= 2026, "the clock reads a year");
    }

    #[test]
    fn short_lists_are_paged_in_memory_and_sorts_are_checked() {
        let window = ListWindow::new(Some(3), Some(20)).expect("a window");
        let (results, pages, total): (Vec<u32>, _, _) = paged((1..=41).collect::<Vec<u32>>(), window);
        assert_eq!((results, pages, total), (vec![41], 3, 41));
        assert_eq!(sort_of(Some("-price")), Ok(AdminProductSort::PriceDescending));
        assert_eq!(sort_of(Some("cheapest")), Err(Message::FilterInvalid));
    }
}
