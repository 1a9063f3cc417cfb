//! Browsing and searching the catalog: the calls a visitor makes without logging in.

use marque_app::CatalogError;
use marque_domain::catalog::{Page, PageError, ProductId, SearchPage, SearchTerm};
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use super::error::ErrorBody;
use super::model::{
    BrandList, CategoryList, HotSellingList, ProductDetail, ProductList, SearchResults, SUCCESS,
};
use crate::app::Shop;


#[derive(Tags)]
enum Tag {
    /// Products, categories and OEM brands.
    Catalog,
}

/// A response enum per list operation: the body, a malformed request, or the store down.
macro_rules! list_response {
    ($name:ident, $body:ty, $bad_request:ident, $handler:tt) => {
        #[derive(ApiResponse)]
        #[oai(bad_request_handler = $handler)]
        enum $name {
            #[oai(status = 200)]
            Ok(Json<$body>),
            /// The request was malformed (e.g. a page that is not a whole number from 1).
            #[oai(status = 400)]
            BadRequest(Json<ErrorBody>),
            /// The catalog cannot be read right now.
            #[oai(status = 503)]
            Unavailable(Json<ErrorBody>),
        }

        fn $bad_request(err: poem::Error) -> $name {
            $name::BadRequest(ErrorBody::from_poem(&err))
        }

        impl From<CatalogError> for $name {
            fn from(err: CatalogError) -> Self {
                tracing::error!(error = %err, "catalog unavailable");
                $name::Unavailable(unavailable_body())
            }
        }
    };
}

fn unavailable_body() -> Json<ErrorBody> {
    ErrorBody::new("The catalog is unavailable right now. Please try again.", Some("catalog.unavailable"))
}

list_response!(CategoriesResponse, CategoryList, categories_bad_request, "categories_bad_request");
list_response!(BrandsResponse, BrandList, brands_bad_request, "brands_bad_request");
list_response!(NewProductsResponse, ProductList, new_products_bad_request, "new_products_bad_request");
list_response!(HotSellingResponse, HotSellingList, hot_selling_bad_request, "hot_selling_bad_request");
list_response!(SearchResponse, SearchResults, search_bad_request, "search_bad_request");
list_response!(BrandProductsResponse, SearchResults, brand_products_bad_request, "brand_products_bad_request");

/// The `page` query value: absent means page 1.
fn page_from(page: Option<u64>) -> Result<Page, PageError> {
    page.map(|n| Page::parse(Some(&n.to_string()))).transpose().map(|p| p.unwrap_or(Page::FIRST))
}

fn results_body(r: SearchPage) -> Json<SearchResults> {
    Json(SearchResults {
        status: SUCCESS.into(),
        results: r.products.into_iter().map(Into::into).collect(),
        pages: r.pages,
        page: r.page.number(),
        total: r.total,
    })
}

#[expect(clippy::large_enum_variant, reason = "built once per request and returned at once; boxing buys nothing")]
#[derive(ApiResponse)]
#[oai(bad_request_handler = "product_bad_request")]
enum ProductResponse {
    #[oai(status = 200)]
    Ok(Json<ProductDetail>),
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No product has this id.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

fn product_bad_request(err: poem::Error) -> ProductResponse {
    ProductResponse::BadRequest(ErrorBody::from_poem(&err))
}

pub struct CatalogApi {
    shop: Shop,
}

impl CatalogApi {
    pub fn new(shop: Shop) -> Self {
        Self { shop }
    }
}

#[OpenApi(tag = "Tag::Catalog")]
impl CatalogApi {
    /// Categories with their subcategories.
    #[oai(path = "/get/category", method = "get", operation_id = "listCategories")]
    async fn categories(&self) -> CategoriesResponse {
        match self.shop.catalog.categories().await {
            Ok(c) => CategoriesResponse::Ok(Json(CategoryList {
                status: SUCCESS.into(),
                data: c.into_iter().map(Into::into).collect(),
            })),
            Err(e) => e.into(),
        }
    }

    /// OEM brands (car makers).
    #[oai(path = "/get/brand/oem", method = "get", operation_id = "listOemBrands")]
    async fn brands(&self) -> BrandsResponse {
        match self.shop.catalog.brands().await {
            Ok(b) => BrandsResponse::Ok(Json(BrandList {
                status: SUCCESS.into(),
                data: b.into_iter().map(Into::into).collect(),
            })),
            Err(e) => e.into(),
        }
    }

    /// Recently added products, newest first.
    #[oai(path = "/get/new-products", method = "get", operation_id = "listNewProducts")]
    async fn new_products(&self) -> NewProductsResponse {
        match self.shop.catalog.recently_added().await {
            Ok(p) => NewProductsResponse::Ok(Json(ProductList {
                status: SUCCESS.into(),
                data: p.into_iter().map(Into::into).collect(),
            })),
            Err(e) => e.into(),
        }
    }

    /// Hot-selling products, ranked by units sold.
    #[oai(path = "/get/suggestion", method = "get", operation_id = "listHotSelling")]
    async fn suggestion(&self) -> HotSellingResponse {
        match self.shop.catalog.hot_selling().await {
            Ok(p) => HotSellingResponse::Ok(Json(HotSellingList {
                status: SUCCESS.into(),
                result: p.into_iter().map(Into::into).collect(),
            })),
            Err(e) => e.into(),
        }
    }

    /// One product.
    #[oai(path = "/get/productById/:id", method = "get", operation_id = "getProductById")]
    async fn product_by_id(&self, id: Path<String>) -> ProductResponse {
        match self.shop.catalog.product(&ProductId(id.0)).await {
            Ok(p) => ProductResponse::Ok(Json(ProductDetail { status: SUCCESS.into(), data: p.into() })),
            Err(CatalogError::ProductNotFound) => ProductResponse::NotFound(ErrorBody::new(
                CatalogError::ProductNotFound.to_string(),
                Some("product.not_found"),
            )),
            Err(e) => {
                tracing::error!(error = %e, "catalog unavailable");
                ProductResponse::Unavailable(unavailable_body())
            }
        }
    }

    /// Search by part name or part number (any spelling: spaces, dashes, dots and
    /// case are ignored). Exact part-number hits come first. 20 products a page.
    #[oai(path = "/get/productBySearch", method = "get", operation_id = "searchProducts")]
    async fn search(
        &self,
        /// Part name or number; empty lists every product.
        search: Query<Option<String>>,
        /// Page number from 1; absent means 1.
        page: Query<Option<u64>>,
    ) -> SearchResponse {
        let page = match page_from(page.0) {
            Ok(p) => p,
            Err(e) => return SearchResponse::BadRequest(ErrorBody::from_rule(&e)),
        };
        let term = match SearchTerm::parse(search.0.as_deref().unwrap_or_default()) {
            Ok(t) => t,
            Err(e) => return SearchResponse::BadRequest(ErrorBody::from_rule(&e)),
        };
        match self.shop.catalog.search(term.as_str(), page).await {
            Ok(r) => SearchResponse::Ok(results_body(r)),
            Err(e) => e.into(),
        }
    }

    /// Products of one OEM brand (car maker), newest first, 20 a page. A slug no
    /// product carries answers an empty page (`pages` 0), not an error.
    #[oai(path = "/get/productByOem/:brandSlug", method = "get", operation_id = "listProductsByOem")]
    async fn products_by_oem(
        &self,
        /// The brand's slug, e.g. `bmw` or `land-rover`.
        #[oai(name = "brandSlug")]
        brand_slug: Path<String>,
        /// Page number from 1; absent means 1.
        page: Query<Option<u64>>,
    ) -> BrandProductsResponse {
        let page = match page_from(page.0) {
            Ok(p) => p,
            Err(e) => return BrandProductsResponse::BadRequest(ErrorBody::from_rule(&e)),
        };
        match self.shop.catalog.brand_products(&brand_slug.0, page).await {
            Ok(r) => BrandProductsResponse::Ok(results_body(r)),
            Err(e) => e.into(),
        }
    }
}
