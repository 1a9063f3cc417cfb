//! Response bodies with the specification's field names (`_id`, `partNo`, …).
//! Money leaves the system here, as rupees.

use marque_domain::catalog::{Category, OemBrand, Product};
use poem_openapi::Object;

/// An image of a product; `name` holds its address.
#[derive(Debug, Clone, Object)]
pub struct ImageRef {
    pub name: String,
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
}

impl From<Product> for ProductBody {
    fn from(p: Product) -> Self {
        Self {
            id: p.id.0,
            name: p.name,
            price: p.price.rupees(),
            quantity: p.quantity,
            producttype: p.condition.code().to_owned(),
            images: p.images.into_iter().map(|name| ImageRef { name }).collect(),
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
            image: p.images.into_iter().map(|name| ImageRef { name }).collect(),
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

pub const SUCCESS: &str = "success";
