//! Response bodies with the specification's field names (`_id`, `partNo`, …).
//! Money leaves the system here, as rupees.

use marque_app::{CategoryListing, CategoryView, SubcategoryListing};
use marque_domain::catalog::{Category, OemBrand, Product, ProductImage, SearchPage, Subcategory};
use poem_openapi::{Enum, Object};

/// An image of a product; `name` holds its address. A photograph uploaded in the back office
/// also tells its size and its responsive variants (for `srcset`); the demo's drawings only `name`.
#[derive(Debug, Clone, Object)]
pub struct ImageRef {
    pub name: String,
    /// Width in pixels, the right way up.
    #[oai(skip_serializing_if_is_none)]
    pub width: Option<u32>,
    /// Height in pixels, the right way up.
    #[oai(skip_serializing_if_is_none)]
    pub height: Option<u32>,
    /// The same picture at a few widths, narrowest first, each as WebP and as JPEG; absent for a
    /// picture with only an address.
    #[oai(skip_serializing_if_is_none)]
    pub variants: Option<Vec<ImageVariantRef>>,
}

/// One rendition of a product's photograph.
#[derive(Debug, Clone, Object)]
pub struct ImageVariantRef {
    /// Its address.
    pub name: String,
    pub width: u32,
    pub height: u32,
    /// `webp` or `jpeg`.
    pub format: String,
}

impl From<ProductImage> for ImageRef {
    fn from(image: ProductImage) -> Self {
        ImageRef {
            name: image.name,
            width: image.width,
            height: image.height,
            variants: (!image.variants.is_empty()).then(|| {
                image
                    .variants
                    .into_iter()
                    .map(|v| ImageVariantRef {
                        name: v.name,
                        width: v.width,
                        height: v.height,
                        format: v.format.code().to_owned(),
                    })
                    .collect()
            }),
        }
    }
}

/// A part for sale. Prices are rupees including GST.
#[derive(Debug, Clone, Object)]
#[oai(rename = "Product")]
pub struct ProductBody {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    /// Unit price in rupees, GST included.
    pub price: f64,
    /// Units in stock; below 1 means out of stock.
    pub quantity: u32,
    /// Condition code: new, new_without_box, refurbished, old, or another value shown as 'Stock Lot'.
    pub producttype: String,
    pub images: Vec<ImageRef>,
    pub description: String,
    pub category: String,
    pub subcategory: String,
    pub category_slug: String,
    pub subcategory_slug: String,
    pub oem: String,
    pub oem_slug: String,
    /// petrol, diesel, hybrid, electric, or empty when not applicable.
    #[oai(rename = "fuelType")]
    pub fuel_type: String,
    pub variant: String,
    /// The maker's part number as printed.
    #[oai(rename = "partNo")]
    pub part_no: String,
    /// Delivery charge in rupees inside the NCR region, GST included.
    pub inside_ncr: f64,
    /// Delivery charge in rupees outside the NCR region, GST included.
    pub outside_ncr: f64,
    /// GST rate in percent included in the price.
    pub gst: u8,
    /// The vehicles the part fits (issue 25): in the product's own answer
    /// (`GET /api/get/productById/{id}`) only, never in listings; empty when fitment is not listed.
    #[oai(skip_serializing_if_is_none)]
    pub fits: Option<Vec<FitBody>>,
    /// A used unit's grade (issue 25): `A` like new, `B` normal wear, `C` visible wear or damage;
    /// absent for a part without one. In listings too, for the card's badge.
    #[oai(skip_serializing_if_is_none)]
    pub grade: Option<String>,
    /// With `grade`, in the product's own answer only: the message code of the shop's definition
    /// of the grade (`grade.a`, `grade.b`, `grade.c`), whose English and Hindi texts the frontends hold.
    #[oai(rename = "gradeDefinition", skip_serializing_if_is_none)]
    pub grade_definition: Option<String>,
    /// The car a used unit came from, in the product's own answer only; absent when not given.
    #[oai(skip_serializing_if_is_none)]
    pub donor: Option<DonorBody>,
    /// Other makers' numbers for the part, in the product's own answer only; absent when none.
    #[oai(rename = "crossReferences", skip_serializing_if_is_none)]
    pub cross_references: Option<Vec<CrossReferenceRef>>,
    /// In a search's results only: the superseded number the search text named, when the part was
    /// found by it (the card reads "supersedes {number}").
    #[oai(skip_serializing_if_is_none)]
    pub supersedes: Option<String>,
}

/// The car a used unit was taken from.
#[derive(Debug, Clone, Object)]
#[oai(rename = "Donor")]
pub struct DonorBody {
    pub make: String,
    pub model: String,
    /// The generation or body code: `G05`.
    pub generation: String,
    /// Model year.
    pub year: u16,
    #[oai(rename = "odometerKm")]
    pub odometer_km: u32,
}

/// Another maker's number for the same part (OEM or aftermarket).
#[derive(Debug, Clone, Object)]
#[oai(rename = "CrossReference")]
pub struct CrossReferenceRef {
    pub brand: String,
    /// As the maker prints it.
    pub number: String,
}

/// One row of a part's fitment: a generation (`vehicleId` null, every engine) or one of its
/// engines (`vehicleId` names the vehicle), maybe for some model years only.
#[derive(Debug, Clone, Object)]
#[oai(rename = "Fit")]
pub struct FitBody {
    /// The vehicle (`bmw-x5-g05.b57`) when the row names an engine; null when it fits every engine.
    #[oai(rename = "vehicleId", nullable)]
    pub vehicle_id: Option<String>,
    /// The generation's id (`bmw-x5-g05`): a car fits the row when its vehicle id starts with it
    /// and a dot, and the engine and years allow.
    #[oai(rename = "generationId")]
    pub generation_id: String,
    /// As the maker writes it: `BMW`.
    pub make: String,
    pub model: String,
    /// The generation or body code: `G05`.
    pub generation: String,
    /// The engine's label (`3.0d`), null when the row fits every engine.
    #[oai(nullable)]
    pub engine: Option<String>,
    /// The engine's code (`B57`), null when the row fits every engine.
    #[oai(rename = "engineCode", nullable)]
    pub engine_code: Option<String>,
    /// The model years it fits; null when every year.
    #[oai(nullable)]
    pub years: Option<YearsBody>,
    #[oai(nullable)]
    pub note: Option<String>,
}

/// Model years, `to` null while the model is still made.
#[derive(Debug, Clone, Object)]
#[oai(rename = "Years")]
pub struct YearsBody {
    pub from: u16,
    #[oai(nullable)]
    pub to: Option<u16>,
}

impl From<marque_domain::vehicle::YearRange> for YearsBody {
    fn from(y: marque_domain::vehicle::YearRange) -> Self {
        Self { from: y.from, to: y.to }
    }
}

impl From<&marque_domain::vehicle::ProductFit> for FitBody {
    fn from(f: &marque_domain::vehicle::ProductFit) -> Self {
        Self {
            vehicle_id: f.vehicle_id().map(|v| v.to_string()),
            generation_id: f.row.generation.to_string(),
            make: f.make.clone(),
            model: f.model.clone(),
            generation: f.generation.clone(),
            engine: f.engine_label.clone(),
            engine_code: f.row.engine.as_ref().map(|e| e.as_str().to_owned()),
            years: f.row.years.map(YearsBody::from),
            note: f.row.note.as_ref().map(|n| n.as_str().to_owned()),
        }
    }
}

impl ProductBody {
    /// The product's own answer: its body with its fitment.
    #[must_use]
    pub fn with_fits(p: Product) -> Self {
        let d = &p.details;
        let fits = d.fits.iter().map(FitBody::from).collect();
        let grade_definition = d.grade.map(|g| g.definition().code().to_owned());
        let donor = d.donor.as_ref().map(|d| DonorBody {
            make: d.make.clone(),
            model: d.model.clone(),
            generation: d.generation.clone(),
            year: d.year,
            odometer_km: d.odometer_km,
        });
        let cross_references = (!d.cross_references.is_empty()).then(|| {
            d.cross_references
                .iter()
                .map(|r| CrossReferenceRef { brand: r.brand.clone(), number: r.number.printed().to_owned() })
                .collect()
        });
        Self { fits: Some(fits), grade_definition, donor, cross_references, ..Self::from(p) }
    }

    /// A search result's card: `supersedes` names the superseded number `typed` found it by.
    #[must_use]
    pub fn found_by(p: Product, typed: &str) -> Self {
        let supersedes = marque_domain::catalog::used::superseded_match(&p, typed).map(str::to_owned);
        Self { supersedes, ..Self::from(p) }
    }
}

impl From<Product> for ProductBody {
    fn from(p: Product) -> Self {
        Self {
            id: p.id.0,
            name: p.name,
            price: p.price.rupees(),
            quantity: p.quantity,
            producttype: p.condition.code().to_owned(),
            images: p.images.into_iter().map(ImageRef::from).collect(),
            description: p.description,
            category: p.category,
            subcategory: p.subcategory,
            category_slug: p.category_slug,
            subcategory_slug: p.subcategory_slug,
            oem: p.oem,
            oem_slug: p.oem_slug,
            fuel_type: p.fuel_type.map(|f| f.code().to_owned()).unwrap_or_default(),
            variant: p.variant,
            part_no: p.part_no.printed().to_owned(),
            inside_ncr: p.inside_ncr.rupees(),
            outside_ncr: p.outside_ncr.rupees(),
            gst: p.gst_percent,
            fits: None,
            grade: p.details.grade.map(|g| g.letter().to_owned()),
            grade_definition: None,
            donor: None,
            cross_references: None,
            supersedes: None,
        }
    }
}

/// A best seller on the home page. `_id` is the title text (the product's name).
#[derive(Debug, Clone, Object)]
#[oai(rename = "HotSellingItem")]
pub struct HotSellingBody {
    pub product_id: String,
    #[oai(rename = "_id")]
    pub title: String,
    pub name: String,
    pub price: f64,
    pub image: Vec<ImageRef>,
}

impl From<Product> for HotSellingBody {
    fn from(p: Product) -> Self {
        Self {
            product_id: p.id.0,
            title: p.name.clone(),
            name: p.name,
            price: p.price.rupees(),
            image: p.images.into_iter().map(ImageRef::from).collect(),
        }
    }
}

#[derive(Debug, Clone, Object)]
#[oai(rename = "Subcategory")]
pub struct SubcategoryBody {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    pub slug: String,
}

#[derive(Debug, Clone, Object)]
#[oai(rename = "Category")]
pub struct CategoryBody {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    pub slug: String,
    pub subcategory: Vec<SubcategoryBody>,
}

impl From<Category> for CategoryBody {
    fn from(c: Category) -> Self {
        Self {
            id: c.id,
            name: c.name,
            slug: c.slug,
            subcategory: c
                .subcategories
                .into_iter()
                .map(|s| SubcategoryBody { id: s.id, name: s.name, slug: s.slug })
                .collect(),
        }
    }
}

/// A car maker (OEM brand); `image` is the address of its logo.
#[derive(Debug, Clone, Object)]
#[oai(rename = "OemBrand")]
pub struct BrandBody {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub image: String,
}

impl From<OemBrand> for BrandBody {
    fn from(b: OemBrand) -> Self {
        Self { id: b.id, name: b.name, slug: b.slug, image: b.image }
    }
}

/// `{ status: "success", data: [...] }`
#[derive(Debug, Clone, Object)]
#[oai(rename = "CategoryList")]
pub struct CategoryList {
    pub status: String,
    pub data: Vec<CategoryBody>,
}

#[derive(Debug, Clone, Object)]
#[oai(rename = "BrandList")]
pub struct BrandList {
    pub status: String,
    pub data: Vec<BrandBody>,
}

#[derive(Debug, Clone, Object)]
#[oai(rename = "ProductList")]
pub struct ProductList {
    pub status: String,
    pub data: Vec<ProductBody>,
}

#[derive(Debug, Clone, Object)]
#[oai(rename = "HotSellingList")]
pub struct HotSellingList {
    pub status: String,
    pub result: Vec<HotSellingBody>,
}

#[derive(Debug, Clone, Object)]
#[oai(rename = "ProductDetail")]
pub struct ProductDetail {
    pub status: String,
    pub data: ProductBody,
}

/// One page of a product listing: search results, or the products of a brand.
#[derive(Debug, Clone, Object)]
#[oai(rename = "SearchResults")]
pub struct SearchResults {
    pub status: String,
    pub results: Vec<ProductBody>,
    /// Number of pages of the whole result (0 when nothing matched).
    pub pages: u64,
    /// The page returned, from 1.
    pub page: u32,
    /// Number of products matching, over all pages.
    pub total: u64,
}

/// A category as a listing names it, without its subcategories.
#[derive(Debug, Clone, Object)]
#[oai(rename = "CategorySummary")]
pub struct CategorySummary {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    pub slug: String,
}

impl From<&Category> for CategorySummary {
    fn from(c: &Category) -> Self {
        Self { id: c.id.clone(), name: c.name.clone(), slug: c.slug.clone() }
    }
}

impl From<Subcategory> for SubcategoryBody {
    fn from(s: Subcategory) -> Self {
        Self { id: s.id, name: s.name, slug: s.slug }
    }
}

/// One subcategory of a category page without filters.
#[derive(Debug, Clone, Object)]
#[oai(rename = "SubcategoryGroup")]
pub struct SubcategoryGroupBody {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    pub slug: String,
    /// Number of the subcategory's products (the 'See all' link lists them).
    pub count: u64,
    /// Its newest products, at most 4.
    pub products: Vec<ProductBody>,
}

/// How a category page shows its products.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename = "ListingView", rename_all = "lowercase")]
pub enum ListingView {
    /// No filter chosen: products grouped by subcategory (`subcategory`).
    Grouped,
    /// Some filter chosen: one page of products (`results`).
    Flat,
}

/// A category page. Without filters (`view` grouped) `subcategory` holds every
/// subcategory that has products, in the category's order, and `results` is empty;
/// with filters (`view` flat) `results` holds one page of matching products, newest
/// first, and `subcategory` is empty.
#[derive(Debug, Clone, Object)]
#[oai(rename = "CategoryListing")]
pub struct CategoryListingBody {
    pub status: String,
    pub view: ListingView,
    pub category: CategorySummary,
    pub subcategory: Vec<SubcategoryGroupBody>,
    pub results: Vec<ProductBody>,
    /// Number of pages (grouped: 1 when there are products, else 0).
    pub pages: u64,
    /// The page returned, from 1 (grouped: always 1).
    pub page: u32,
    /// Number of products matching, over all pages (grouped: the sum of the counts).
    pub total: u64,
}

impl From<CategoryListing> for CategoryListingBody {
    fn from(listing: CategoryListing) -> Self {
        let category = CategorySummary::from(&listing.category);
        let total = listing.view.total();
        match listing.view {
            CategoryView::Grouped(groups) => Self {
                status: SUCCESS.into(),
                view: ListingView::Grouped,
                category,
                subcategory: groups
                    .into_iter()
                    .map(|g| SubcategoryGroupBody {
                        id: g.subcategory.id,
                        name: g.subcategory.name,
                        slug: g.subcategory.slug,
                        count: g.total,
                        products: g.newest.into_iter().map(Into::into).collect(),
                    })
                    .collect(),
                results: Vec::new(),
                pages: u64::from(total > 0),
                page: 1,
                total,
            },
            CategoryView::Flat(page) => Self {
                status: SUCCESS.into(),
                view: ListingView::Flat,
                category,
                subcategory: Vec::new(),
                results: products(page.products),
                pages: page.pages,
                page: page.page.number(),
                total: page.total,
            },
        }
    }
}

/// A subcategory page: one page of its products matching the filters, newest first.
#[derive(Debug, Clone, Object)]
#[oai(rename = "SubcategoryListing")]
pub struct SubcategoryListingBody {
    pub status: String,
    pub category: CategorySummary,
    pub subcategory: SubcategoryBody,
    pub results: Vec<ProductBody>,
    /// Number of pages of the whole result (0 when nothing matched).
    pub pages: u64,
    /// The page returned, from 1.
    pub page: u32,
    /// Number of products matching, over all pages.
    pub total: u64,
}

impl From<SubcategoryListing> for SubcategoryListingBody {
    fn from(listing: SubcategoryListing) -> Self {
        let SearchPage { products: found, page, pages, total } = listing.page;
        Self {
            status: SUCCESS.into(),
            category: CategorySummary::from(&listing.category),
            subcategory: listing.subcategory.into(),
            results: products(found),
            pages,
            page: page.number(),
            total,
        }
    }
}

fn products(products: Vec<Product>) -> Vec<ProductBody> {
    products.into_iter().map(Into::into).collect()
}

pub const SUCCESS: &str = "success";
