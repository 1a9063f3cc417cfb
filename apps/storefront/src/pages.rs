//! Which storefront page a path is, and what its head says.

use marque_domain::catalog::{Condition, Page, Product, ProductId};
use poem::http::StatusCode;
use serde_json::json;

use super::head::PageHead;
use super::routes::{Matched, RouteTable};
use marque_app::CatalogService;

/// The query string of a page request, decoded.
#[derive(Debug, Default)]
pub struct Query(Vec<(String, String)>);

impl Query {
    pub fn parse(raw: Option<&str>) -> Self {
        Self(raw.and_then(|q| serde_urlencoded::from_str(q).ok()).unwrap_or_default())
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// A page's HTTP status and head.
#[derive(Debug)]
pub struct Resolved {
    pub status: StatusCode,
    pub head: PageHead,
}

impl Resolved {
    fn ok(head: PageHead) -> Self {
        Self { status: StatusCode::OK, head }
    }

    fn not_found(head: PageHead) -> Self {
        Self { status: StatusCode::NOT_FOUND, head }
    }
}

fn page(title: &str, canonical: &str) -> PageHead {
    PageHead {
        title: Some(title.to_owned()),
        canonical: canonical.to_owned(),
        og_type: "website",
        ..PageHead::default()
    }
}

/// A page kept out of search indexes: not-found pages and the one-time sign-in landings.
fn unindexed(title: &str, canonical: &str) -> PageHead {
    PageHead { noindex: true, ..page(title, canonical) }
}

fn not_found(title: &str, path: &str) -> Resolved {
    Resolved::not_found(unindexed(title, path))
}

fn encode(pairs: &[(&str, &str)]) -> String {
    serde_urlencoded::to_string(pairs).unwrap_or_default()
}

/// Resolves a storefront path to its page: the route table (`contract/routes.json`)
/// decides which paths exist; each page the server knows adds its title and data.
/// A page in the table that the server has no head for still answers 200 with the defaults.
pub async fn resolve(catalog: &CatalogService, routes: &RouteTable, path: &str, query: &Query) -> Resolved {
    let Some(matched) = routes.find(path) else {
        return not_found("Page not found", path);
    };
    let mut resolved = resolve_page(catalog, &matched, path, query).await;
    // The route table marks pages no search engine should list (the back office).
    resolved.head.noindex |= matched.noindex;
    resolved
}

async fn resolve_page(catalog: &CatalogService, matched: &Matched<'_, '_>, path: &str, query: &Query) -> Resolved {
    match matched.page {
        "catalog/Home" => Resolved::ok(PageHead { canonical: "/".into(), og_type: "website", ..PageHead::default() }),
        "catalog/Search" => search(query),
        "catalog/Product" => product(catalog, query).await,
        "catalog/Brand" => brand(catalog, matched.param("brandSlug"), query).await,
        "catalog/Category" => category(catalog, matched.param("categorySlug"), None).await,
        "catalog/Subcategory" => {
            category(catalog, matched.param("categorySlug"), Some(matched.param("subcategorySlug"))).await
        }
        "shell/About" => Resolved::ok(page("About us", "/about")),
        "shell/Contact" => Resolved::ok(page("Contact us", "/contactus")),
        "shell/Policy" => Resolved::ok(page("Privacy Policy", "/policy")),
        "shell/Terms" => Resolved::ok(page("Terms and Conditions", "/termandcondition")),
        // Account and checkout pages may be crawled: their HTML is the same for everyone (a crawler
        // without a session sees the sign-in prompt), and they are not in the sitemap. Only the
        // one-time sign-in landings are noindex. The canonical never carries the query
        // (`/login/success?token=…` holds a one-time sign-in code).
        "account/Login" => Resolved::ok(page("Login", "/login")),
        "account/LoginSuccess" => Resolved::ok(unindexed("Login", "/login/success")),
        "account/LoginFailure" => Resolved::ok(unindexed("Login", "/login/failure")),
        "account/Profile" => Resolved::ok(page("Profile", "/profile")),
        "account/Wishlist" => Resolved::ok(page("Wishlist", "/wishlist")),
        "account/OrderHistory" => Resolved::ok(page("Purchase History", "/orderhistory")),
        "account/RenderInvoice" => Resolved::ok(page("Invoice", "/orderhistory/render_invoice")),
        "checkout/Address" => Resolved::ok(page("Delivery address", "/address")),
        "checkout/OrderSuccess" => Resolved::ok(page("Order Confirmed!", "/ordersuccess")),
        // The back office: one remote module draws every `/admin/…` page; never indexed (the table says so).
        "admin/Admin" => {
            let canonical = if path.len() > 1 { path.trim_end_matches('/') } else { path };
            Resolved::ok(unindexed("Admin", canonical))
        }
        _ => {
            let canonical = if path.len() > 1 { path.trim_end_matches('/') } else { path };
            Resolved::ok(PageHead { canonical: canonical.to_owned(), og_type: "website", ..PageHead::default() })
        }
    }
}

fn search(query: &Query) -> Resolved {
    let term = query.get("search").unwrap_or("").trim();
    let page_no = Page::parse(query.get("page")).unwrap_or(Page::FIRST).number().to_string();
    let title = if term.is_empty() { "All parts".to_owned() } else { format!("Search results for {term}") };
    let canonical = format!("/search?{}", encode(&[("search", term), ("page", &page_no)]));
    Resolved::ok(page(&title, &canonical))
}

async fn brand(catalog: &CatalogService, slug: &str, query: &Query) -> Resolved {
    let path = format!("/brand/{slug}");
    let brands = catalog.brands().await.unwrap_or_default();
    match brands.into_iter().find(|b| b.slug == slug) {
        Some(b) => {
            let page_no = Page::parse(query.get("page")).unwrap_or(Page::FIRST).number().to_string();
            let mut head =
                page(&format!("{} Spare Parts", b.name), &format!("{path}?{}", encode(&[("page", &page_no)])));
            head.description = Some(format!(
                "New and used {} spare parts, genuine part numbers, prices including GST, delivered across India.",
                b.name
            ));
            head.image = Some(b.image);
            Resolved::ok(head)
        }
        None => not_found("Brand not found", &path),
    }
}

async fn category(catalog: &CatalogService, slug: &str, sub_slug: Option<&str>) -> Resolved {
    let categories = catalog.categories().await.unwrap_or_default();
    let Some(category) = categories.into_iter().find(|c| c.slug == slug) else {
        return not_found("Category not found", &format!("/category/{slug}"));
    };
    match sub_slug {
        None => Resolved::ok(page(&format!("{} Parts", category.name), &format!("/category/{slug}?page=1"))),
        Some(sub) => match category.subcategories.iter().find(|s| s.slug == sub) {
            Some(s) => Resolved::ok(page(
                &format!("{} - {}", s.name, category.name),
                &format!("/subcategory/{slug}/{sub}?page=1"),
            )),
            None => not_found("Category not found", &format!("/subcategory/{slug}/{sub}")),
        },
    }
}

async fn product(catalog: &CatalogService, query: &Query) -> Resolved {
    let id = query.get("productId").unwrap_or("").trim();
    let canonical = format!("/product?{}", encode(&[("productId", id)]));
    if id.is_empty() {
        return not_found("Product not found", &canonical);
    }
    match catalog.product(&ProductId(id.to_owned())).await {
        Ok(p) => Resolved::ok(product_head(&p, canonical)),
        Err(marque_app::CatalogError::ProductNotFound) => not_found("Product not found", &canonical),
        Err(e) => {
            tracing::warn!(error = %e, "product page without product data");
            Resolved::ok(page("Product", &canonical))
        }
    }
}

fn product_head(p: &Product, canonical: String) -> PageHead {
    let description = format!(
        "{} ({}) for {}, part number {}. {} inc. GST. {}",
        p.name,
        p.condition.label(),
        p.oem,
        p.part_no,
        p.price,
        p.description
    );
    let description: String = description.chars().take(300).collect();
    PageHead {
        title: Some(p.name.clone()),
        description: Some(description.clone()),
        canonical,
        og_type: "product",
        image: p.images.first().map(|i| i.name.clone()),
        json_ld: Some(product_json_ld(p, &description)),
        ..PageHead::default()
    }
}

/// schema.org Product data: name, part number, price in INR, availability.
fn product_json_ld(p: &Product, description: &str) -> serde_json::Value {
    let condition = match p.condition {
        Condition::New | Condition::NewWithoutBox => "https://schema.org/NewCondition",
        Condition::Refurbished => "https://schema.org/RefurbishedCondition",
        Condition::Old | Condition::Other(_) => "https://schema.org/UsedCondition",
    };
    let availability = if p.in_stock() { "https://schema.org/InStock" } else { "https://schema.org/OutOfStock" };
    json!({
        "@context": "https://schema.org",
        "@type": "Product",
        "name": p.name,
        "description": description,
        "sku": p.id.as_str(),
        "mpn": p.part_no.printed(),
        "image": p.images.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(),
        "brand": { "@type": "Brand", "name": p.oem },
        "category": p.category,
        "offers": {
            "@type": "Offer",
            "price": p.price.decimal_rupees(),
            "priceCurrency": "INR",
            "availability": availability,
            "itemCondition": condition,
        }
    })
}
