//! Who runs the shop: the identity the frontends show in the footer, policies and chat link.

use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use crate::app::Shop;
use crate::identity::ShopIdentity;

#[derive(Tags)]
enum Tag {
    /// The shop's identity: legal name, GSTIN, contacts, grievance officer.
    Shop,
}

#[derive(ApiResponse)]
enum ShopResponse {
    /// The shop's identity, the same JSON every storefront page embeds as `#marque-shop`.
    #[oai(status = 200)]
    Ok(Json<ShopIdentity>),
}

pub struct ShopApi {
    shop: Shop,
}

impl ShopApi {
    pub fn new(shop: Shop) -> Self {
        Self { shop }
    }
}

#[OpenApi(tag = "Tag::Shop")]
impl ShopApi {
    /// The shop's identity, from configuration.
    #[oai(path = "/get/shop", method = "get", operation_id = "getShop")]
    async fn get_shop(&self) -> ShopResponse {
        ShopResponse::Ok(Json(self.shop.identity.as_ref().clone()))
    }
}
