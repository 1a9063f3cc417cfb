//! Car makers (OEM brands) whose parts the shop sells.

use serde::{Deserialize, Serialize};

/// An OEM brand, e.g. `Mercedes-Benz` with slug `mercedes-benz`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OemBrand {
    pub id: String,
    pub name: String,
    pub slug: String,
    /// Address of the brand's logo (a file in the `new-car-logo` folder).
    pub image: String,
}
