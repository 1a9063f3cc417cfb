//! Browsing and searching the catalog: the calls a visitor makes without logging in.

use std::sync::Arc;

use marque_app::{CatalogError, CatalogService, VehicleLookupError, VehicleService};
use marque_domain::catalog::Grade;
use marque_domain::catalog::{Page, PageError, Product, ProductId, SearchPage, SearchTerm};
use marque_domain::filters::{FilterList, ListingFilters};
use marque_domain::vehicle::Car;
use marque_domain::Message;
use poem::Request;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use super::auth::client_address;
use super::error::ErrorBody;
use super::model::{
    BrandList, CategoryList, CategoryListingBody, HotSellingList, ProductBody, ProductDetail, ProductList,
    SearchResults, SubcategoryListingBody, SUCCESS,
};
use crate::catalog_budget::{guarded, CatalogGuard, Verdict};

#[derive(Tags)]
enum Tag {
    /// Products, categories and OEM brands.
    Catalog,
}

/// A response enum per list operation: the body, a malformed request, or the store down.
macro_rules! list_response {
    ($name:ident, $body:ty, $bad_request:ident, $handler:tt) => {
        list_response!(@build $name, $body, $bad_request, $handler, []);
    };
    // A search or listing the answer cache may miss: each client's budget of misses (429) and
    // their deadline (503, see `crate::catalog_budget`).
    ($name:ident, $body:ty, $bad_request:ident, $handler:tt, guarded) => {
        list_response!(@build $name, $body, $bad_request, $handler, [
            /// Too many searches or listings past the answer cache from this client in a minute
            /// (`request.too_many`); `Retry-After` gives the seconds to wait.
            #[oai(status = 429)]
            TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
        ]);
        guarded_answers!($name);
    };
    (@build $name:ident, $body:ty, $bad_request:ident, $handler:tt, [$($extra:tt)*]) => {
        #[derive(ApiResponse)]
        #[oai(bad_request_handler = $handler)]
        enum $name {
            #[oai(status = 200)]
            Ok(Json<$body>),
            /// The request was malformed (e.g. a page that is not a whole number from 1).
            #[oai(status = 400)]
            BadRequest(Json<ErrorBody>),
            $($extra)*
            /// The catalog cannot be read right now, or the query ran past its deadline (`catalog.too_slow`).
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

/// How a guarded catalog call answers a refused miss (see `crate::catalog_budget`).
macro_rules! guarded_answers {
    ($name:ident) => {
        impl $name {
            /// The answer to `result` unless one of its misses was refused.
            fn guarded<T>(
                result: Result<T, CatalogError>,
                verdict: Option<Verdict>,
                ok: impl FnOnce(T) -> Self,
            ) -> Self {
                match (verdict, result) {
                    (Some(Verdict::TooMany(wait)), _) => {
                        $name::TooMany(ErrorBody::from_message(Message::TooManyRequests), wait)
                    }
                    (Some(Verdict::TooSlow), _) => $name::Unavailable(too_slow_body()),
                    (None, Ok(answer)) => ok(answer),
                    (None, Err(e)) => e.into(),
                }
            }
        }
    };
}

fn too_slow_body() -> Json<ErrorBody> {
    ErrorBody::new("The catalog took too long to answer. Please try again.", Some("catalog.too_slow"))
}

fn unavailable_body() -> Json<ErrorBody> {
    ErrorBody::new("The catalog is unavailable right now. Please try again.", Some("catalog.unavailable"))
}

list_response!(CategoriesResponse, CategoryList, categories_bad_request, "categories_bad_request");
list_response!(BrandsResponse, BrandList, brands_bad_request, "brands_bad_request");
list_response!(NewProductsResponse, ProductList, new_products_bad_request, "new_products_bad_request");
list_response!(HotSellingResponse, HotSellingList, hot_selling_bad_request, "hot_selling_bad_request");
list_response!(SearchResponse, SearchResults, search_bad_request, "search_bad_request", guarded);
list_response!(BrandProductsResponse, SearchResults, brand_products_bad_request, "brand_products_bad_request", guarded);

/// A response enum per filtered listing: the body, a malformed page or filter, an
/// unknown category or subcategory, or the store down.
macro_rules! filtered_listing_response {
    ($name:ident, $body:ty, $bad_request:ident, $handler:tt) => {
        #[derive(ApiResponse)]
        #[oai(bad_request_handler = $handler)]
        enum $name {
            #[oai(status = 200)]
            Ok(Json<$body>),
            /// A page that is not a whole number from 1 (`page.invalid`), or a filter
            /// value the shop does not offer (`filter.invalid`).
            #[oai(status = 400)]
            BadRequest(Json<ErrorBody>),
            /// No such category, or no such subcategory in it (`category.not_found`).
            #[oai(status = 404)]
            NotFound(Json<ErrorBody>),
            /// Too many searches or listings past the answer cache from this client in a minute
            /// (`request.too_many`); `Retry-After` gives the seconds to wait.
            #[oai(status = 429)]
            TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
            /// The catalog cannot be read right now, or the query ran past its deadline (`catalog.too_slow`).
            #[oai(status = 503)]
            Unavailable(Json<ErrorBody>),
        }
        guarded_answers!($name);

        fn $bad_request(err: poem::Error) -> $name {
            $name::BadRequest(ErrorBody::from_poem(&err))
        }

        impl From<CatalogError> for $name {
            fn from(err: CatalogError) -> Self {
                match err {
                    CatalogError::CategoryNotFound => $name::NotFound(ErrorBody::new(
                        Message::CategoryNotFound.text(),
                        Some(Message::CategoryNotFound.code()),
                    )),
                    CatalogError::FilterInvalid(e) => $name::BadRequest(ErrorBody::from_rule(&e)),
                    other => {
                        tracing::error!(error = %other, "catalog unavailable");
                        $name::Unavailable(unavailable_body())
                    }
                }
            }
        }
    };
}

filtered_listing_response!(
    CategoryListingResponse,
    CategoryListingBody,
    category_listing_bad_request,
    "category_listing_bad_request"
);
filtered_listing_response!(
    SubcategoryListingResponse,
    SubcategoryListingBody,
    subcategory_listing_bad_request,
    "subcategory_listing_bad_request"
);

/// The page and filters of a category or subcategory listing, or why they are malformed.
fn listing_query(
    page: Option<u64>,
    oem: Option<&str>,
    (product_type, fuel_type, grade): (Option<&str>, Option<&str>, Option<&str>),
) -> Result<(Page, ListingFilters), Json<ErrorBody>> {
    let page = page_from(page).map_err(|e| ErrorBody::from_rule(&e))?;
    let filters = ListingFilters::parse(oem, product_type, fuel_type)
        .and_then(|f| f.with_grades(grade))
        .map_err(|e| ErrorBody::from_rule(&e))?;
    Ok((page, filters))
}

/// The `page` query value: absent means page 1.
pub(super) fn page_from(page: Option<u64>) -> Result<Page, PageError> {
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

/// A search's results: each card says which superseded number `typed` found it by, if one did.
fn search_body(r: SearchPage, typed: &str) -> Json<SearchResults> {
    Json(SearchResults {
        status: SUCCESS.into(),
        results: r.products.into_iter().map(|p| ProductBody::found_by(p, typed)).collect(),
        pages: r.pages,
        page: r.page.number(),
        total: r.total,
    })
}

/// The `grade` query value: used units' grades joined by a double hyphen (`A--B`), any case.
fn grades_from(grade: Option<&str>) -> Result<Vec<Grade>, Json<ErrorBody>> {
    FilterList::<Grade>::parse(grade.unwrap_or_default())
        .map(|list| list.values().to_vec())
        .map_err(|e| ErrorBody::from_rule(&e))
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

fn product_ok(p: Product) -> ProductResponse {
    ProductResponse::Ok(Json(ProductDetail { status: SUCCESS.into(), data: ProductBody::with_fits(p) }))
}

/// The answer `GET /get/productById/{id}` gives for a product, before the middlewares.
pub(super) fn product_answer(p: Product) -> poem::Response {
    poem::IntoResponse::into_response(product_ok(p))
}

fn product_bad_request(err: poem::Error) -> ProductResponse {
    ProductResponse::BadRequest(ErrorBody::from_poem(&err))
}

pub struct CatalogApi {
    catalog: CatalogService,
    /// Names the car of a listing's `fits` query.
    vehicles: VehicleService,
    /// Each client's budget of catalog searches and listings past the answer cache, and their deadline.
    catalog_guard: Arc<CatalogGuard>,
}

impl CatalogApi {
    pub fn new(catalog: CatalogService, vehicles: VehicleService, catalog_guard: Arc<CatalogGuard>) -> Self {
        Self { catalog, vehicles, catalog_guard }
    }

    /// The car of a listing's `fits` and `year` (none without `fits`; `year` alone is ignored).
    async fn car(&self, fits: Option<&str>, year: Option<i64>) -> Result<Option<Car>, Refused> {
        let Some(fits) = fits.map(str::trim).filter(|f| !f.is_empty()) else { return Ok(None) };
        match self.vehicles.car(fits, year).await {
            Ok(car) => Ok(Some(car)),
            Err(VehicleLookupError::Unavailable(reason)) => {
                tracing::error!(error = %reason, "vehicle table unavailable");
                Err(Refused::Unavailable(unavailable_body()))
            }
            Err(e) => Err(Refused::BadRequest(ErrorBody::from_message(e.message()))),
        }
    }
}

/// Why a listing's `fits` named no car: a 400 (`vehicle.unknown`, `vehicle.year_invalid`) or a 503.
enum Refused {
    BadRequest(Json<ErrorBody>),
    Unavailable(Json<ErrorBody>),
}

/// Answers a refused `fits` as the response enum `$name`.
macro_rules! refused {
    ($name:ident, $refused:expr) => {
        match $refused {
            Refused::BadRequest(body) => $name::BadRequest(body),
            Refused::Unavailable(body) => $name::Unavailable(body),
        }
    };
}

#[OpenApi(tag = "Tag::Catalog")]
impl CatalogApi {
    /// Categories with their subcategories.
    #[oai(path = "/get/category", method = "get", operation_id = "listCategories")]
    async fn categories(&self) -> CategoriesResponse {
        match self.catalog.categories().await {
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
        match self.catalog.brands().await {
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
        match self.catalog.recently_added().await {
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
        match self.catalog.hot_selling().await {
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
        match self.catalog.product(&ProductId(id.0)).await {
            Ok(p) => product_ok(p),
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
        req: &Request,
        /// Part name or number; empty lists every product.
        search: Query<Option<String>>,
        /// Page number from 1; absent means 1.
        page: Query<Option<u64>>,
        /// A vehicle id (`bmw-x5-g05.b57`): only the parts that fit it (`vehicle.unknown`, 400, when
        /// the vehicle table has no such vehicle).
        fits: Query<Option<String>>,
        /// With `fits`: the car's model year; a fitment row limited to some years must hold it
        /// (`vehicle.year_invalid`, 400, outside 1950–2100).
        year: Query<Option<i64>>,
        /// Used units' grades: `A`, `B`, `C` or several joined by a double hyphen (`A--B`), any case;
        /// only the parts of one of them (`filter.invalid`, 400, for another value).
        grade: Query<Option<String>>,
    ) -> SearchResponse {
        let page = match page_from(page.0) {
            Ok(p) => p,
            Err(e) => return SearchResponse::BadRequest(ErrorBody::from_rule(&e)),
        };
        let grades = match grades_from(grade.0.as_deref()) {
            Ok(g) => g,
            Err(body) => return SearchResponse::BadRequest(body),
        };
        let term = match SearchTerm::parse(search.0.as_deref().unwrap_or_default()) {
            Ok(t) => t,
            Err(e) => return SearchResponse::BadRequest(ErrorBody::from_rule(&e)),
        };
        let car = match self.car(fits.0.as_deref(), year.0).await {
            Ok(car) => car,
            Err(refused) => return refused!(SearchResponse, refused),
        };
        let search = self.catalog.search_narrowed(term.as_str(), page, car, &grades);
        let (result, verdict) = guarded(&self.catalog_guard, client_address(req), search).await;
        SearchResponse::guarded(result, verdict, |r| SearchResponse::Ok(search_body(r, term.as_str())))
    }

    /// Products of one category. Without any filter (`oem`, `product_type`, `fuel_type`
    /// absent or blank) they are grouped by subcategory (`view` grouped): each subcategory
    /// that has products, with its count and its 4 newest products. With any filter they
    /// are one list (`view` flat), newest first, 20 a page. Several values of one filter
    /// are joined by a double hyphen (`oem=bmw--audi`) and any of them matches; values
    /// are case-insensitive.
    #[oai(path = "/get/product/:categorySlug", method = "get", operation_id = "listCategoryProducts")]
    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per path and query parameter of the operation, and the request"
    )]
    async fn category_products(
        &self,
        req: &Request,
        /// The category's slug, e.g. `brakes`.
        #[oai(name = "categorySlug")]
        category_slug: Path<String>,
        /// Page number from 1; absent means 1. Only a flat listing has more than one page.
        page: Query<Option<u64>>,
        /// OEM brand slugs, e.g. `bmw` or `mercedes-benz--land-rover`.
        oem: Query<Option<String>>,
        /// Conditions: `old`, `new` or `old--new`.
        product_type: Query<Option<String>>,
        /// Fuel types: `petrol`, `diesel` or `petrol--diesel`.
        fuel_type: Query<Option<String>>,
        /// A vehicle id (`bmw-x5-g05.b57`): only the parts that fit it, as one flat list (`vehicle.unknown`,
        /// 400, when the vehicle table has no such vehicle).
        fits: Query<Option<String>>,
        /// With `fits`: the car's model year (`vehicle.year_invalid`, 400, outside 1950–2100).
        year: Query<Option<i64>>,
        /// Used units' grades: `A`, `B`, `C` or `A--B`, any case (`filter.invalid`, 400, for another value).
        grade: Query<Option<String>>,
    ) -> CategoryListingResponse {
        let filter_values = (product_type.0.as_deref(), fuel_type.0.as_deref(), grade.0.as_deref());
        let (page, filters) = match listing_query(page.0, oem.0.as_deref(), filter_values) {
            Ok(q) => q,
            Err(body) => return CategoryListingResponse::BadRequest(body),
        };
        let filters = match self.car(fits.0.as_deref(), year.0).await {
            Ok(car) => filters.fitting(car),
            Err(refused) => return refused!(CategoryListingResponse, refused),
        };
        let listing = self.catalog.category_listing(&category_slug.0, &filters, page);
        let (result, verdict) = guarded(&self.catalog_guard, client_address(req), listing).await;
        CategoryListingResponse::guarded(result, verdict, |listing| CategoryListingResponse::Ok(Json(listing.into())))
    }

    /// Products of one subcategory of a category, newest first, 20 a page, narrowed by
    /// the same filters as a category page. Public: a bearer token may be sent and is
    /// not needed.
    #[oai(
        path = "/get/product/:categoryName/:subCategoryName",
        method = "get",
        operation_id = "listSubcategoryProducts"
    )]
    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per path and query parameter of the operation, and the request"
    )]
    async fn subcategory_products(
        &self,
        req: &Request,
        /// The category's slug, e.g. `brakes`.
        #[oai(name = "categoryName")]
        category_slug: Path<String>,
        /// The subcategory's slug within that category, e.g. `discs`.
        #[oai(name = "subCategoryName")]
        sub_slug: Path<String>,
        /// Page number from 1; absent means 1.
        page: Query<Option<u64>>,
        /// OEM brand slugs, e.g. `bmw` or `mercedes-benz--land-rover`.
        oem: Query<Option<String>>,
        /// Conditions: `old`, `new` or `old--new`.
        product_type: Query<Option<String>>,
        /// Fuel types: `petrol`, `diesel` or `petrol--diesel`.
        fuel_type: Query<Option<String>>,
        /// A vehicle id (`bmw-x5-g05.b57`): only the parts that fit it (`vehicle.unknown`, 400, when the
        /// vehicle table has no such vehicle).
        fits: Query<Option<String>>,
        /// With `fits`: the car's model year (`vehicle.year_invalid`, 400, outside 1950–2100).
        year: Query<Option<i64>>,
        /// Used units' grades: `A`, `B`, `C` or `A--B`, any case (`filter.invalid`, 400, for another value).
        grade: Query<Option<String>>,
    ) -> SubcategoryListingResponse {
        let filter_values = (product_type.0.as_deref(), fuel_type.0.as_deref(), grade.0.as_deref());
        let (page, filters) = match listing_query(page.0, oem.0.as_deref(), filter_values) {
            Ok(q) => q,
            Err(body) => return SubcategoryListingResponse::BadRequest(body),
        };
        let filters = match self.car(fits.0.as_deref(), year.0).await {
            Ok(car) => filters.fitting(car),
            Err(refused) => return refused!(SubcategoryListingResponse, refused),
        };
        let listing = self.catalog.subcategory_listing(&category_slug.0, &sub_slug.0, &filters, page);
        let (result, verdict) = guarded(&self.catalog_guard, client_address(req), listing).await;
        SubcategoryListingResponse::guarded(result, verdict, |listing| {
            SubcategoryListingResponse::Ok(Json(listing.into()))
        })
    }

    /// Products of one OEM brand (car maker), newest first, 20 a page. A slug no
    /// product carries answers an empty page (`pages` 0), not an error.
    #[oai(path = "/get/productByOem/:brandSlug", method = "get", operation_id = "listProductsByOem")]
    async fn products_by_oem(
        &self,
        req: &Request,
        /// The brand's slug, e.g. `bmw` or `land-rover`.
        #[oai(name = "brandSlug")]
        brand_slug: Path<String>,
        /// Page number from 1; absent means 1.
        page: Query<Option<u64>>,
        /// A vehicle id (`bmw-x5-g05.b57`): only the parts that fit it (`vehicle.unknown`, 400, when the
        /// vehicle table has no such vehicle).
        fits: Query<Option<String>>,
        /// With `fits`: the car's model year (`vehicle.year_invalid`, 400, outside 1950–2100).
        year: Query<Option<i64>>,
        /// Used units' grades: `A`, `B`, `C` or `A--B`, any case (`filter.invalid`, 400, for another value).
        grade: Query<Option<String>>,
    ) -> BrandProductsResponse {
        let page = match page_from(page.0) {
            Ok(p) => p,
            Err(e) => return BrandProductsResponse::BadRequest(ErrorBody::from_rule(&e)),
        };
        let grades = match grades_from(grade.0.as_deref()) {
            Ok(g) => g,
            Err(body) => return BrandProductsResponse::BadRequest(body),
        };
        let car = match self.car(fits.0.as_deref(), year.0).await {
            Ok(car) => car,
            Err(refused) => return refused!(BrandProductsResponse, refused),
        };
        let listing = self.catalog.brand_products_narrowed(&brand_slug.0, page, car, &grades);
        let (result, verdict) = guarded(&self.catalog_guard, client_address(req), listing).await;
        BrandProductsResponse::guarded(result, verdict, |r| BrandProductsResponse::Ok(results_body(r)))
    }
}
