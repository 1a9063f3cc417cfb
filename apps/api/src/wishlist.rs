//! The wishlist: a logged-in customer's products kept for later (at most 50).

use marque_app::{Action, Throttle, WishlistError, WishlistService};
use marque_domain::catalog::{Product, ProductId};
use marque_domain::Message;
use marque_ports::UserId;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use super::auth::{ensure_owner, Customer};
use super::error::ErrorBody;
use super::model::SUCCESS;

#[derive(Tags)]
enum Tag {
    /// Products a customer keeps for later.
    Wishlist,
}

/// A wished product as the catalog has it now.
#[derive(Debug, Clone, Object)]
pub struct WishlistEntry {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: String,
    /// Units in stock; below 1 means out of stock.
    pub quantity: u32,
    /// Condition code.
    pub producttype: String,
    /// Unit price in rupees, GST included.
    pub price: f64,
    /// Address of the product's main picture.
    pub image: String,
    pub user_id: String,
}

impl WishlistEntry {
    fn new(p: Product, user: &str) -> Self {
        Self {
            id: p.id.0,
            name: p.name,
            quantity: p.quantity,
            producttype: p.condition.code().to_owned(),
            price: p.price.rupees(),
            image: p.images.into_iter().next().map(|i| i.name).unwrap_or_default(),
            user_id: user.to_owned(),
        }
    }
}

#[derive(Debug, Clone, Object)]
pub struct WishlistBody {
    /// `success`.
    pub status: String,
    /// Newest first.
    pub result: Vec<WishlistEntry>,
}

/// What `POST /api/add/wishlist` receives: only `_id` is used (and `user_id`, when given,
/// must be the caller's); the other fields are accepted and ignored — name, price, stock
/// and picture come from the catalog.
#[derive(Debug, Clone, Object)]
pub struct WishlistAdd {
    #[oai(rename = "_id")]
    pub id: String,
    pub name: Option<serde_json::Value>,
    pub quantity: Option<serde_json::Value>,
    pub producttype: Option<serde_json::Value>,
    pub price: Option<serde_json::Value>,
    pub image: Option<serde_json::Value>,
    pub user_id: Option<String>,
}

/// `success`, or `failed` with the wishlist-full message (answered with 200, as the
/// specification's clients expect).
#[derive(Debug, Clone, Object)]
pub struct WishlistAddBody {
    /// `success` or `failed`.
    pub status: String,
    #[oai(skip_serializing_if_is_none)]
    pub message: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub code: Option<String>,
}

#[derive(Debug, Clone, Object)]
pub struct WishlistStatus {
    /// `success`.
    pub status: String,
}

session_response!(ListResponse, WishlistBody, list_bad_request, "list_bad_request", {
    /// `user` names another customer.
    Forbidden = 403,
});
session_response!(AddResponse, WishlistAddBody, add_bad_request, "add_bad_request", limited, {
    /// `user_id` names another customer.
    Forbidden = 403,
    /// No product has this `_id`.
    NotFound = 404,
});
session_response!(RemoveResponse, WishlistStatus, remove_bad_request, "remove_bad_request", limited, {});

fn unavailable(e: &WishlistError) -> Json<ErrorBody> {
    tracing::error!(error = %e, "wishlist unavailable");
    ErrorBody::new("The wishlist is unavailable right now. Please try again.", Some("wishlist.unavailable"))
}

pub struct WishlistApi {
    wishlist: WishlistService,
    throttle: Throttle,
}

impl WishlistApi {
    pub fn new(wishlist: WishlistService, throttle: Throttle) -> Self {
        Self { wishlist, throttle }
    }

    async fn list(&self, customer: &Customer, user: &str) -> ListResponse {
        if let Err(e) = ensure_owner(customer, user) {
            return ListResponse::Forbidden(e);
        }
        match self.wishlist.list(&customer.0.user.id).await {
            Ok(products) => ListResponse::Ok(Json(WishlistBody {
                status: SUCCESS.into(),
                result: products.into_iter().map(|p| WishlistEntry::new(p, customer.id())).collect(),
            })),
            Err(e) => ListResponse::Unavailable(unavailable(&e)),
        }
    }
}

#[OpenApi(tag = "Tag::Wishlist")]
impl WishlistApi {
    /// The customer's wishlist, newest first, with today's name, price, stock and picture.
    /// Also answered at `/api/get/wishlist/` (with the trailing slash, as the specification
    /// writes it; OpenAPI paths cannot carry one).
    #[oai(path = "/get/wishlist", method = "get", operation_id = "getWishlist")]
    async fn get_wishlist(
        &self,
        customer: Customer,
        /// The customer's `_id`.
        user: Query<String>,
    ) -> ListResponse {
        self.list(&customer, &user).await
    }

    /// Adds a product. A full wishlist (50) answers 200 with `status: failed` and the
    /// `wishlist.full` message.
    #[oai(path = "/add/wishlist", method = "post", operation_id = "addToWishlist")]
    async fn add(&self, customer: Customer, input: Json<WishlistAdd>) -> AddResponse {
        if let Some(user) = input.user_id.as_deref().filter(|u| !u.is_empty()) {
            if let Err(e) = ensure_owner(&customer, user) {
                return AddResponse::Forbidden(e);
            }
        }
        throttle!(self.throttle, Action::WishlistWrite, customer, AddResponse);
        let user = UserId(customer.id().to_owned());
        match self.wishlist.add(&user, &ProductId(input.id.clone())).await {
            Ok(_) => AddResponse::Ok(Json(WishlistAddBody { status: SUCCESS.into(), message: None, code: None })),
            Err(WishlistError::Full) => AddResponse::Ok(Json(WishlistAddBody {
                status: "failed".into(),
                message: Some(Message::WishlistFull.text().into()),
                code: Some(Message::WishlistFull.code().into()),
            })),
            Err(WishlistError::ProductNotFound) => {
                AddResponse::NotFound(ErrorBody::from_message(Message::ProductNotFound))
            }
            Err(e) => AddResponse::Unavailable(unavailable(&e)),
        }
    }

    /// Removes a product from the customer's wishlist.
    #[oai(path = "/remove/wishlist/:productId", method = "delete", operation_id = "removeFromWishlist")]
    async fn remove(&self, customer: Customer, #[oai(name = "productId")] product_id: Path<String>) -> RemoveResponse {
        throttle!(self.throttle, Action::WishlistWrite, customer, RemoveResponse);
        let user = UserId(customer.id().to_owned());
        match self.wishlist.remove(&user, &ProductId(product_id.0)).await {
            Ok(()) => RemoveResponse::Ok(Json(WishlistStatus { status: SUCCESS.into() })),
            Err(e) => RemoveResponse::Unavailable(unavailable(&e)),
        }
    }
}
