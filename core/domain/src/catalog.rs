//! The catalog: products, their categories and makers, and how a visitor finds them.

mod brand;
mod category;
mod condition;
pub mod editor;
mod image;
pub mod import;
mod product;
mod search;
pub mod used;

pub use brand::OemBrand;
pub use category::{Category, Subcategory};
pub use condition::{Condition, FuelType};
pub use editor::{Dimensions, Hsn, ProductDetails, Sku, WarrantyDays};
pub use image::{ImageFormat, ImageVariant, ProductImage, MAX_PRODUCT_PHOTOS};
pub use product::{Product, ProductId};
pub use search::{
    Page, PageError, SearchPage, SearchTerm, SearchTermError, GROUP_PREVIEW_SIZE, HOME_LIST_SIZE, LISTING_PAGE_SIZE,
};
pub use used::{CrossReference, Donor, Grade, MarginScheme};
