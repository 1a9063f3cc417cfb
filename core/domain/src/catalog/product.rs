//! A part for sale: one listing, one unit price, its own stock.

use serde::{Deserialize, Serialize};

use super::{Condition, FuelType, ProductDetails, ProductImage};
use crate::{Money, PartNumber};

/// Identifier of a product, opaque to clients (e.g. `p000123`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ProductId(pub String);

impl ProductId {
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for ProductId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Every field of a product the specification lists (section 3), plus what
/// the shop needs behind them: the GST rate, units sold and when it was listed.
///
/// Part numbers are not unique: a used-parts shop lists several units of one
/// part number, each its own product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Product {
    pub id: ProductId,
    pub name: String,
    /// Unit price including GST.
    pub price: Money,
    /// Units in stock.
    pub quantity: u32,
    pub condition: Condition,
    /// Pictures, the first one is the main picture.
    pub images: Vec<ProductImage>,
    pub description: String,
    pub category: String,
    pub category_slug: String,
    pub subcategory: String,
    pub subcategory_slug: String,
    pub oem: String,
    pub oem_slug: String,
    pub fuel_type: Option<FuelType>,
    pub variant: String,
    pub part_no: PartNumber,
    /// Delivery charge per line inside the NCR region, GST included.
    pub inside_ncr: Money,
    /// Delivery charge per line outside the NCR region, GST included.
    pub outside_ncr: Money,
    /// GST rate in percent included in `price` (18 for motor-vehicle parts, HSN 8708).
    pub gst_percent: u8,
    /// Units sold so far: hot-selling lists rank by this.
    pub units_sold: u32,
    /// When the product was listed, seconds since the Unix epoch.
    pub created_at: i64,
    /// SKU, other part numbers, HSN, warranty, weight and size, published (the back office's).
    pub details: ProductDetails,
}

impl Product {
    /// A product is out of stock when its quantity is below 1.
    #[must_use]
    pub fn in_stock(&self) -> bool {
        self.quantity >= 1
    }
}
