//! The catalog cache the server reads through (`CachedCatalogStore` over SurrealDB):
//! it keeps the store's contract, answers exactly what the store answers, and shows a
//! write made by another instance sharing the database within a second.

use crate::helpers;

use std::sync::Arc;
use std::time::Duration;

use helpers::within;

use marque_catalog_cache::{spawn_poller, CachedCatalogStore};
use marque_domain::catalog::{Condition, FuelType, Product, ProductId};
use marque_domain::filters::{BrandSlug, FilterValue};
use marque_ports::{CatalogStore, OrderStore, ProductListing, ProductQuery};
use marque_server::seed;
use marque_surreal::Database;

const MB: u64 = 1 << 20;

/// A cache over a fresh `mem://` database, and the database (for other handles on it).
async fn cached_store(poll: Option<Duration>) -> (Arc<CachedCatalogStore>, Database) {
    let db = Database::connect("mem://").await.expect("open mem://");
    let cache = Arc::new(CachedCatalogStore::new(Arc::new(db.catalog()), Arc::new(db.catalog_changes()), 8 * MB));
    cache.refresh().await.expect("the catalog version reads");
    if let Some(poll) = poll {
        spawn_poller(&cache, poll);
    }
    (cache, db)
}

/// Every `CatalogStore` suite, through the cache.
#[tokio::test]
async fn the_cache_keeps_the_catalog_store_contract() {
    for (name, suite) in marque_contract_tests::catalog::CATALOG_SUITE {
        let (cache, _db) = cached_store(Some(Duration::from_millis(50))).await;
        eprintln!("suite {name}");
        suite(cache.as_ref()).await;
    }
}

/// Writes through the cache move the catalog version its database's changes read.
#[tokio::test]
async fn writes_through_the_cache_move_the_catalog_version() {
    let (cache, db) = cached_store(Some(Duration::from_millis(50))).await;
    marque_contract_tests::catalog_changes::catalog_version_moves_with_every_write(
        &db.catalog_changes(),
        cache.as_ref(),
    )
    .await;
}

fn every_query() -> (Vec<ProductQuery>, Vec<ProductListing>) {
    let mut queries = Vec::new();
    let seeded = seed::product(7);
    let typed = seeded.part_no.printed().to_lowercase().replace(' ', "-");
    for text in ["", "brake", "filter", "tur", "br", "x5 brake disc", "oil filter", "zzz", &typed, "a 0", "  "] {
        for page in 0..4u64 {
            queries.push(ProductQuery {
                text: text.to_owned(),
                offset: page * 20,
                limit: 20,
                fits: None,
                grades: Vec::new(),
            });
        }
    }
    let slug = |s: &str| BrandSlug::from_code(s).expect("a slug");
    let mut listings = Vec::new();
    for page in [0u64, 1, 6, 49] {
        let window = |l: ProductListing| ProductListing { offset: page * 20, limit: 20, ..l };
        for brand in seed::brands() {
            listings.push(window(ProductListing { brands: vec![slug(&brand.slug)], ..ProductListing::default() }));
        }
        for category in seed::categories() {
            listings
                .push(window(ProductListing { category: Some(category.slug.clone()), ..ProductListing::default() }));
            listings.push(window(ProductListing {
                category: Some(category.slug.clone()),
                brands: vec![slug("bmw"), slug("audi")],
                ..ProductListing::default()
            }));
            listings.push(window(ProductListing {
                category: Some(category.slug.clone()),
                conditions: vec![Condition::Old],
                fuels: vec![FuelType::Diesel],
                ..ProductListing::default()
            }));
            for sub in &category.subcategories {
                listings.push(window(ProductListing {
                    category: Some(category.slug.clone()),
                    subcategory: Some(sub.slug.clone()),
                    ..ProductListing::default()
                }));
                listings.push(window(ProductListing {
                    category: Some(category.slug.clone()),
                    subcategory: Some(sub.slug.clone()),
                    brands: vec![slug("bmw")],
                    fuels: vec![FuelType::Petrol],
                    ..ProductListing::default()
                }));
            }
        }
        listings.push(window(ProductListing::default()));
    }
    (queries, listings)
}

/// On a seeded catalog, every read through the cache (first asked, then remembered)
/// equals the same read straight from the store: products, order, totals.
#[tokio::test]
async fn cached_answers_equal_the_store_answers() {
    let (cache, db) = cached_store(Some(Duration::from_millis(50))).await;
    let direct = db.catalog();
    seed::write_demo_catalog(&direct, 600).await.expect("seed");
    cache.refresh().await.expect("version");

    let (queries, listings) = every_query();
    for round in ["asked", "remembered"] {
        for q in &queries {
            let want = direct.search(q).await.expect("direct search");
            assert_eq!(cache.search(q).await.expect("cached search"), want, "{round}: {q:?}");
        }
        for l in &listings {
            let want = direct.list_products(l).await.expect("direct listing");
            assert_eq!(cache.list_products(l).await.expect("cached listing"), want, "{round}: {l:?}");
        }
        for n in [0u32, 1, 7, 299, 599, 600] {
            let id = ProductId(format!("p{n:06}"));
            assert_eq!(cache.product(&id).await.expect("cached"), direct.product(&id).await.expect("direct"), "{id:?}");
        }
        assert_eq!(cache.newest_products(12).await.expect("cached"), direct.newest_products(12).await.expect("direct"));
        assert_eq!(
            cache.best_selling_products(12).await.expect("cached"),
            direct.best_selling_products(12).await.expect("direct")
        );
        assert_eq!(cache.brands().await.expect("cached"), direct.brands().await.expect("direct"));
        assert_eq!(cache.categories().await.expect("cached"), direct.categories().await.expect("direct"));
        assert_eq!(cache.count_products().await.expect("cached"), direct.count_products().await.expect("direct"));
    }
    assert!(cache.usage().0 > queries.len(), "the answers were kept: {:?}", cache.usage());
}

/// A product added by another instance (its own handle on the database, not through the
/// cache) shows in every cached read within the poll interval: by id, newest, search,
/// the brand, category and subcategory listings, the count.
#[tokio::test]
async fn a_write_by_another_instance_shows_within_a_second() {
    let (cache, db) = cached_store(Some(Duration::from_millis(200))).await;
    let other_instance = db.catalog();
    seed::write_demo_catalog(&other_instance, 300).await.expect("seed");

    let slug = BrandSlug::from_code("bmw").expect("a slug");
    let brand_page = ProductListing { brands: vec![slug], limit: 20, ..ProductListing::default() };
    let template = seed::product(1); // a BMW part
    assert_eq!(template.oem_slug, "bmw");
    let sub_page = ProductListing {
        category: Some(template.category_slug.clone()),
        subcategory: Some(template.subcategory_slug.clone()),
        limit: 20,
        ..ProductListing::default()
    };
    let search = ProductQuery { text: "zebrawood".into(), offset: 0, limit: 20, fits: None, grades: Vec::new() };
    let id = ProductId("p-fresh".into());

    // Fill the cache with the answers the write must change (after the seed is seen).
    within(Duration::from_secs(3), "the seed", async || cache.count_products().await.expect("count") == 300).await;
    let before_brand = cache.list_products(&brand_page).await.expect("brand page").total;
    let before_sub = cache.list_products(&sub_page).await.expect("sub page").total;
    assert_eq!(cache.product(&id).await.expect("product"), None);
    assert_eq!(cache.search(&search).await.expect("search").total, 0);
    let _ = cache.newest_products(12).await.expect("newest");

    let fresh = Product {
        id: id.clone(),
        name: "BMW Zebrawood Trim".into(),
        created_at: seed::product(299).created_at + 1_000,
        // A SKU of its own: SKUs are unique (the template's belongs to a seeded product).
        details: marque_domain::catalog::ProductDetails { sku: "P-FRESH".into(), ..template.details.clone() },
        ..template
    };
    other_instance.add_products(std::slice::from_ref(&fresh)).await.expect("the other instance writes");

    let took = within(Duration::from_secs(3), "the new product", async || {
        cache.product(&id).await.expect("product").as_ref() == Some(&fresh)
            && cache.newest_products(12).await.expect("newest").first().map(|p| &p.id) == Some(&id)
            && cache.search(&search).await.expect("search").total == 1
            && cache.list_products(&brand_page).await.expect("brand").total == before_brand + 1
            && cache.list_products(&sub_page).await.expect("sub").total == before_sub + 1
            && cache.count_products().await.expect("count") == 301
    })
    .await;
    assert!(took <= Duration::from_secs(1), "visible after {took:?}, more than the promised second");
}

/// The finished responses (`ResponseCache`): once warmed they hold every product, each the same bytes
/// and tag `GET /api/get/productById/{id}` gives without them, as are kept listings and searches;
/// a revalidation with the tag is a 304; a product added through another handle on the database
/// shows within a second, in a kept search too, and the products are warmed again with it.
#[tokio::test]
async fn ready_product_answers_equal_the_call_and_follow_the_catalog() {
    let (shop, app) = helpers::spawn_app_with(|_| {}).await;
    let plain = helpers::spawn_with(|c| c.ready_product_answers_mb = Some(0)).await;
    let pages = app.services.response_cache.clone().expect("on with the catalog cache");
    let products = helpers::PRODUCTS as usize;
    let ids: Vec<String> = (0..helpers::PRODUCTS).map(|n| seed::product(n).id.0).collect();
    let all_fresh = |ids: &[String]| ids.iter().all(|id| pages.holds_fresh(id));
    within(Duration::from_secs(10), "warming", async || all_fresh(&ids)).await;
    assert_eq!(pages.usage().0, products, "one answer a product");

    let answer = async |shop: &helpers::TestShop, id: &str| {
        let resp = shop.get(&format!("/api/get/productById/{id}")).await;
        let status = resp.status().as_u16();
        let tag = resp.headers().get("etag").map(|v| v.to_str().expect("ascii").to_owned());
        let kind = resp.headers().get("content-type").map(|v| v.to_str().expect("ascii").to_owned());
        (status, tag, kind, resp.bytes().await.expect("a body"))
    };
    for id in &ids {
        let kept = answer(&shop, id).await;
        assert_eq!(kept.0, 200, "{id}");
        assert_eq!(kept, answer(&plain, id).await, "{id}: the kept answer is the call's own");
    }
    let (_, tag, _, _) = answer(&shop, "p000007").await;
    assert_eq!(shop.revalidate("/api/get/productById/p000007", &tag.expect("a tag")).await, 304);
    assert_eq!(answer(&shop, "p-unknown").await.0, 404, "no answer is made up for an unknown id");
    let listings = [
        "/api/get/productBySearch?search=brake&page=2",
        "/api/get/product/brakes?oem=bmw--audi&page=1",
        "/api/get/productByOem/bmw?page=1",
        "/api/get/new-products",
        "/api/get/category",
    ];
    // Every header but the date and the request's own id: a kept answer (given before the routes
    // are matched) goes out as the routes would give it.
    let headers = |resp: &reqwest::Response| {
        let mut all: Vec<String> = resp
            .headers()
            .iter()
            .filter(|(name, _)| !matches!(name.as_str(), "date" | "x-request-id"))
            .map(|(name, value)| format!("{name}: {}", value.to_str().expect("ascii")))
            .collect();
        all.sort();
        all
    };
    for path in listings {
        for round in ["asked", "kept"] {
            let (kept, plain) = (shop.get(path).await, plain.get(path).await);
            assert_eq!(kept.status(), plain.status(), "{round} {path}");
            assert_eq!(headers(&kept), headers(&plain), "{round} {path}");
            assert_eq!(kept.bytes().await.expect("body"), plain.bytes().await.expect("body"), "{round} {path}");
        }
    }
    let zebra = "/api/get/productBySearch?search=zebrawood";
    assert_eq!(shop.get_json(zebra).await.1["total"], 0, "kept before the change");

    // Asked before it exists: the catalog cache keeps that answer (none) until the change is seen.
    assert_eq!(answer(&shop, "p-fresh").await.0, 404);
    let before = pages.generation();
    let template = seed::product(1);
    let details = marque_domain::catalog::ProductDetails { sku: "P-FRESH".into(), ..template.details.clone() };
    let fresh = Product { id: ProductId("p-fresh".into()), name: "BMW Zebrawood Trim".into(), details, ..template };
    app.database().catalog().add_products(std::slice::from_ref(&fresh)).await.expect("another handle writes");
    let took = within(Duration::from_secs(3), "the new product", async || {
        let (status, _, _, body) = answer(&shop, "p-fresh").await;
        status == 200 && String::from_utf8_lossy(&body).contains("Zebrawood")
    })
    .await;
    assert!(took <= Duration::from_secs(1), "visible after {took:?}, more than the promised second");
    assert_eq!(shop.get_json(zebra).await.1["total"], 1, "the kept search was not given after the change");
    assert_ne!(pages.generation(), before, "the change moved the generation the kept answers carry");
    let mut with_fresh = ids.clone();
    with_fresh.push("p-fresh".into());
    within(Duration::from_secs(10), "warming again", async || all_fresh(&with_fresh)).await;
    assert_eq!(
        answer(&shop, "p000009").await,
        answer(&plain, "p000009").await,
        "after the change, still the call's own"
    );
}

/// A reservation of one unit of `product`, as the checkout makes one when the shopper pays.
fn one_unit_of(product: &Product, key: &str) -> marque_ports::Reservation {
    use marque_domain::cart::Quantity;
    use marque_domain::order::OrderLine;
    use marque_domain::pricing::DiscountPercent;
    use marque_domain::Money;
    marque_ports::Reservation {
        payment_order: marque_ports::PaymentOrderId(format!("order_{key}")),
        draft: marque_ports::OrderDraft {
            user: marque_ports::UserId("u-cache".into()),
            user_name: "Asha Rao".into(),
            lines: vec![OrderLine {
                product_id: product.id.clone(),
                name: product.name.clone(),
                quantity: Quantity::new(1).expect("≥ 1"),
                price: product.price,
                gst: 18,
                hsn: None,
                margin_scheme: None,
                warranty_days: None,
            }],
            address: marque_contract_tests::orders::address(),
            discount: DiscountPercent::new(0).expect("a percent"),
            discount_amount: Money::ZERO,
            delivery_charge: Money::ZERO,
            total: product.price,
            store_credit: marque_domain::Money::ZERO,
        },
        created_at: 1_780_295_400,
        expires_at: 1_780_295_400 + 900,
    }
}

/// An order's stock change, made through another handle on the database as another instance
/// would, shows within a second in the product's answer and in a kept search holding it; the
/// kept answers that do not hold it (another product, another search, the categories) stay
/// kept, the generation does not move, and the best sellers are asked again once it sells.
#[tokio::test]
async fn a_stock_change_forgets_only_the_answers_holding_the_product() {
    let (shop, app) = helpers::spawn_app_with(|_| {}).await;
    let pages = app.services.response_cache.clone().expect("on with the catalog cache");
    let seeded: Vec<Product> = (0..helpers::PRODUCTS).map(seed::product).collect();
    let x = seeded.iter().find(|p| p.quantity >= 2).expect("a product with two units").clone();
    let y = seeded
        .iter()
        .find(|p| p.id != x.id && p.part_no.normalized() != x.part_no.normalized())
        .expect("another product")
        .clone();
    let product_path = |p: &Product| format!("/api/get/productById/{}", p.id.as_str());
    let search_path = |p: &Product| format!("/api/get/productBySearch?search={}", p.part_no.normalized());
    let quantity_in_search = async |p: &Product| {
        let (status, body) = shop.get_json(&search_path(p)).await;
        assert_eq!(status, 200);
        let results = body["results"].as_array().expect("results").clone();
        results.iter().find(|r| r["_id"] == p.id.as_str()).map(|r| r["quantity"].as_u64().expect("a quantity"))
    };
    let listings = [search_path(&x), search_path(&y), "/api/get/category".to_owned(), "/api/get/suggestion".to_owned()];
    within(Duration::from_secs(10), "warming", async || {
        pages.holds_fresh(x.id.as_str()) && pages.holds_fresh(y.id.as_str())
    })
    .await;
    for path in &listings {
        assert_eq!(shop.get(path).await.status(), 200, "{path}");
        assert!(pages.holds_listing(path.strip_prefix("/api").expect("under /api")), "{path} kept once asked");
    }
    assert_eq!(quantity_in_search(&x).await, Some(u64::from(x.quantity)));
    let generation = pages.generation();
    // Forgotten answers are asked again in the background: a forget shows as another keep.
    let keep = |path: &str| pages.listing_keep(path.strip_prefix("/api").unwrap_or(path));
    let kept: Vec<Option<u64>> = listings.iter().map(|p| keep(p)).collect();

    let orders = app.database().orders();
    let reservation = one_unit_of(&x, "cache1");
    orders.reserve(&reservation).await.expect("one unit held");
    let held = u64::from(x.quantity - 1);
    let took = within(Duration::from_secs(3), "the held unit", async || {
        shop.get_json(&product_path(&x)).await.1["data"]["quantity"].as_u64() == Some(held)
    })
    .await;
    assert!(took <= Duration::from_secs(1), "visible after {took:?}, more than the promised second");
    assert_eq!(quantity_in_search(&x).await, Some(held), "the kept search holding the product was forgotten");
    assert!(pages.holds_fresh(y.id.as_str()), "another product's answer stays kept");
    for (path, before) in listings.iter().zip(&kept).skip(1).take(2) {
        assert_eq!(keep(path), *before, "{path} stays kept");
    }
    assert_ne!(keep("/api/get/suggestion"), kept[3], "the best sellers were forgotten with the sale's stock");
    assert_eq!(pages.generation(), generation, "a stock change is not a change of the whole catalog");

    shop.get("/api/get/suggestion").await;
    assert!(pages.holds_listing("/get/suggestion"));
    let before_sale = keep("/api/get/suggestion");
    let placed = orders
        .place(&reservation.payment_order, &marque_ports::PaymentId("pay_cache1".into()), 1_780_295_460)
        .await
        .expect("placed");
    assert!(matches!(placed, marque_ports::Placement::Placed(_)));
    within(Duration::from_secs(1), "the sale forgetting the best sellers", async || {
        keep("/api/get/suggestion") != before_sale
    })
    .await;
    let sold = app
        .database()
        .catalog()
        .best_selling_products(marque_domain::catalog::HOME_LIST_SIZE)
        .await
        .expect("best sellers");
    let (_, answer) = shop.get_json("/api/get/suggestion").await;
    let answered: Vec<&str> =
        answer["result"].as_array().expect("data").iter().map(|b| b["product_id"].as_str().expect("an id")).collect();
    let expected: Vec<&str> = sold.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(answered, expected, "the best sellers as the store ranks them after the sale");
    assert_eq!(
        shop.get_json(&product_path(&x)).await.1["data"]["quantity"].as_u64(),
        Some(held),
        "sold, not given back"
    );
}

/// Back-office edits chosen by a fixed-seed generator: the same sequence on every database they
/// are applied to.
struct Edits(seed::rng::Rng);

const NAMES: [&str; 6] =
    ["Front Brake Disc", "Oil Filter Kit", "Zebrawood Trim", "Brake Pad Brake Set", "Turbo Hose", "Br Bracket Brace"];
const NUMBERS: [&str; 4] = ["A1B2C3", "ZX-9", "A 000 180 26 09", "K-55"];

impl Edits {
    fn new(seed: u64) -> Self {
        Self(seed::rng::Rng::new(seed))
    }

    fn below(&mut self, n: u32) -> u32 {
        self.0.below(n)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        self.0.pick(items)
    }

    /// Makes one edit through `editor` (a product among the first `products`, a category or a
    /// brand) and says what it did.
    async fn apply(&mut self, editor: &dyn marque_ports::CatalogEditor, products: u32) -> String {
        use marque_domain::{Money, PartNumber};
        let audit = |action: &str, subject: &str| {
            marque_ports::AuditEntry::new(1_780_000_000, marque_ports::Actor::System("test".into()), action, subject)
        };
        let kind = self.below(10);
        if kind == 8 {
            let mut category = self.pick(&seed::categories()).clone();
            category.name = format!("{} {}", category.name, self.below(100));
            let what = format!("category {} renamed {}", category.slug, category.name);
            editor.update_category(&category, &audit("category.update", &category.id)).await.expect("category");
            return what;
        }
        if kind == 9 {
            let mut brand = self.pick(&seed::brands()).clone();
            brand.name = format!("{} {}", brand.name, self.below(100));
            let what = format!("brand {} renamed {}", brand.slug, brand.name);
            editor.update_brand(&brand, &audit("brand.update", &brand.id)).await.expect("brand");
            return what;
        }
        let n = self.below(products);
        let id = ProductId(format!("p{n:06}"));
        let mut p = editor.product(&id).await.expect("reads").expect("a seeded product");
        let what = match kind {
            0 | 1 => {
                p.price = Money::from_paise(100 + i64::from(self.below(100_000)));
                "price"
            }
            2 => {
                p.name = format!("{} {}", self.pick(&NAMES), self.below(50));
                "name"
            }
            3 => {
                let category = self.pick(&seed::categories()).clone();
                let sub = self.pick(&category.subcategories).clone();
                (p.category, p.category_slug, p.subcategory, p.subcategory_slug) =
                    (category.name, category.slug, sub.name, sub.slug);
                "category"
            }
            4 => {
                let brand = self.pick(&seed::brands()).clone();
                (p.oem, p.oem_slug) = (brand.name, brand.slug);
                "brand"
            }
            5 => {
                let number = |s: &str| PartNumber::parse(s).expect("a part number");
                p.details.alternate_numbers = vec![number(self.pick::<&str>(&NUMBERS))];
                p.details.superseded_numbers =
                    if self.below(2) == 0 { vec![] } else { vec![number(self.pick::<&str>(&NUMBERS))] };
                "numbers"
            }
            6 => {
                p.details.published = !p.details.published;
                "published"
            }
            _ => {
                p.condition = self.pick(&[Condition::New, Condition::Old, Condition::Refurbished]).clone();
                p.fuel_type = *self.pick(&[None, Some(FuelType::Diesel), Some(FuelType::Petrol)]);
                "condition and fuel"
            }
        };
        editor.update_product(&p, &audit("product.update", &format!("product:{}", id.as_str()))).await.expect("edit");
        format!("{} of {}", what, id.as_str())
    }
}

/// The questions compared after edits: searches (names, numbers, everything), listings of every
/// brand, category and subcategory (with filters), products by id, the home lists.
fn compared_questions() -> (Vec<ProductQuery>, Vec<ProductListing>) {
    let mut queries = Vec::new();
    let typed = seed::product(7).part_no.printed().to_lowercase();
    let texts = ["", "brake", "filter", "zebra", "br", "oil filter", "turbo hose", "a1b2c3", "zx 9", "k55", &typed];
    for text in texts {
        for page in 0..2u64 {
            queries.push(ProductQuery {
                text: text.to_owned(),
                offset: page * 20,
                limit: 20,
                fits: None,
                grades: Vec::new(),
            });
        }
    }
    let slug = |s: &str| BrandSlug::from_code(s).expect("a slug");
    let mut listings = Vec::new();
    for page in 0..2u64 {
        let window = |l: ProductListing| ProductListing { offset: page * 20, limit: 20, ..l };
        listings.push(window(ProductListing::default()));
        for brand in seed::brands() {
            listings.push(window(ProductListing { brands: vec![slug(&brand.slug)], ..ProductListing::default() }));
        }
        for category in seed::categories() {
            let pinned = || ProductListing { category: Some(category.slug.clone()), ..ProductListing::default() };
            listings.push(window(pinned()));
            listings.push(window(ProductListing { brands: vec![slug("bmw"), slug("audi")], ..pinned() }));
            listings.push(window(ProductListing { conditions: vec![Condition::Old], ..pinned() }));
            for sub in &category.subcategories {
                let sub_page = ProductListing { subcategory: Some(sub.slug.clone()), ..pinned() };
                listings.push(window(ProductListing { fuels: vec![FuelType::Diesel], ..sub_page.clone() }));
                listings.push(window(sub_page));
            }
        }
    }
    (queries, listings)
}

/// Every compared answer the cache gives that differs from the store's, described.
async fn differences(cache: &CachedCatalogStore, direct: &dyn CatalogStore, products: u32) -> Vec<String> {
    let (queries, listings) = compared_questions();
    let mut differ = Vec::new();
    for q in &queries {
        if cache.search(q).await.expect("cached") != direct.search(q).await.expect("direct") {
            differ.push(format!("{q:?}"));
        }
    }
    for l in &listings {
        if cache.list_products(l).await.expect("cached") != direct.list_products(l).await.expect("direct") {
            differ.push(format!("{l:?}"));
        }
    }
    for n in 0..products {
        let id = ProductId(format!("p{n:06}"));
        if cache.product(&id).await.expect("cached") != direct.product(&id).await.expect("direct") {
            differ.push(format!("product {}", id.as_str()));
        }
    }
    let (size, home) = (12, cache.newest_products(12).await.expect("cached"));
    if home != direct.newest_products(size).await.expect("direct") {
        differ.push("newest".into());
    }
    if cache.best_selling_products(size).await.expect("cached") != direct.best_selling_products(size).await.expect("d")
    {
        differ.push("best sellers".into());
    }
    if cache.brands().await.expect("cached") != direct.brands().await.expect("direct") {
        differ.push("brands".into());
    }
    if cache.categories().await.expect("cached") != direct.categories().await.expect("direct") {
        differ.push("categories".into());
    }
    if cache.count_products().await.expect("cached") != direct.count_products().await.expect("direct") {
        differ.push("count".into());
    }
    differ
}

/// Random back-office edits (prices, names, category and brand moves, part numbers, publishing,
/// conditions, category and brand renames) made through another handle on the database, as
/// another instance would: a second after each burst, every compared answer the cache gives
/// (hundreds, kept since before the edits) equals the store's own.
#[tokio::test]
async fn after_random_edits_by_another_instance_kept_answers_equal_the_store_within_a_second() {
    const PRODUCTS: u32 = 200;
    let (cache, db) = cached_store(Some(Duration::from_millis(200))).await;
    let direct = db.catalog();
    seed::write_demo_catalog(&direct, PRODUCTS).await.expect("seed");
    within(Duration::from_secs(3), "the seed", async || {
        cache.count_products().await.expect("count") == u64::from(PRODUCTS)
    })
    .await;
    let editor = db.catalog_editor();
    let (queries, listings) = compared_questions();
    assert!(queries.len() + listings.len() + PRODUCTS as usize >= 300, "hundreds of questions");
    assert_eq!(differences(&cache, &direct, PRODUCTS).await, Vec::<String>::new(), "before any edit");
    let mut edits = Edits::new(22);
    for round in 0..12 {
        let kept = cache.usage().0;
        let mut made = Vec::new();
        for _ in 0..3 {
            made.push(edits.apply(&editor, PRODUCTS).await);
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        let differ = differences(&cache, &direct, PRODUCTS).await;
        assert!(differ.is_empty(), "round {round}, after {made:?}: kept answers differ from the store's: {differ:?}");
        eprintln!("round {round}: {made:?}; {kept} answers kept before, {} after", cache.usage().0);
    }
}

/// A price edit by another instance shows within a second in the product's answer and in the
/// answers holding it, and leaves the other kept answers kept (no clear of the cache).
#[tokio::test]
async fn a_price_edit_forgets_only_the_answers_holding_the_product() {
    let (cache, db) = cached_store(Some(Duration::from_millis(200))).await;
    let direct = db.catalog();
    seed::write_demo_catalog(&direct, 200).await.expect("seed");
    within(Duration::from_secs(3), "the seed", async || cache.count_products().await.expect("count") == 200).await;
    assert!(differences(&cache, &direct, 200).await.is_empty());
    let kept = cache.usage().0;
    let generation = cache.answering_generation();
    let id = ProductId("p000042".into());
    let editor = db.catalog_editor();
    let mut p = marque_ports::CatalogEditor::product(&editor, &id).await.expect("reads").expect("seeded");
    p.price = marque_domain::Money::from_paise(123_456);
    let audit = marque_ports::AuditEntry::new(1, marque_ports::Actor::System("test".into()), "product.update", "p");
    marque_ports::CatalogEditor::update_product(&editor, &p, &audit).await.expect("edited");
    let took = within(Duration::from_secs(3), "the new price", async || {
        cache.product(&id).await.expect("product").is_some_and(|p| p.price.paise() == 123_456)
    })
    .await;
    assert!(took <= Duration::from_secs(1), "visible after {took:?}");
    assert_eq!(cache.answering_generation(), generation, "nothing was cleared");
    let left = cache.usage().0;
    assert!(left + 30 >= kept && left <= kept, "a few answers forgotten, not all: {kept} → {left}");
    assert!(differences(&cache, &direct, 200).await.is_empty(), "and every answer equals the store's");
}

/// The same random edits made on two shops seeded alike, one answering from its caches (the
/// finished responses and the answer cache) and its in-process catalog index (ADR 0019), and one
/// without either (every answer from the database's own statements), each through another handle
/// on its database: a second after each burst, every compared call answers both the same bytes,
/// and the first shop's index was in step to answer.
#[tokio::test]
async fn after_random_edits_kept_responses_equal_a_shop_without_caches() {
    let (shop, app) = helpers::spawn_app_with(|_| {}).await;
    let (plain, plain_app) = helpers::spawn_app_with(|c| {
        c.catalog_cache_mb = 0;
        c.catalog_index = false;
    })
    .await;
    assert!(plain_app.services.response_cache.is_none(), "the plain shop keeps nothing");
    let texts = ["", "brake", "filter", "zebra", "br", "turbo%20hose", "a1b2c3", "zx-9"];
    let paths = helpers::catalog_paths(helpers::PRODUCTS, &texts);
    let differences = async || helpers::differing(&shop, &plain, &paths).await;
    assert_eq!(differences().await, Vec::<String>::new(), "before any edit");
    let (editor, plain_editor) = (app.database().catalog_editor(), plain_app.database().catalog_editor());
    let (mut edits, mut same_edits) = (Edits::new(2026), Edits::new(2026));
    for round in 0..8 {
        let mut made = Vec::new();
        for _ in 0..3 {
            made.push(edits.apply(&editor, helpers::PRODUCTS).await);
            same_edits.apply(&plain_editor, helpers::PRODUCTS).await;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        let differ = differences().await;
        assert!(differ.is_empty(), "round {round}, after {made:?}: kept responses differ: {differ:?}");
        // A category or brand rename has the index rebuilt in the background: it is in step again soon.
        helpers::within(Duration::from_secs(30), "the shop's index in step", async || {
            app.database().catalog_index_in_step().await
        })
        .await;
    }
    let pages = app.services.response_cache.clone().expect("on with the catalog cache");
    assert!(pages.usage().0 > 0, "answers are still kept after the edits");
}
