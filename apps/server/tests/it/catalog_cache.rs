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
            queries.push(ProductQuery { text: text.to_owned(), offset: page * 20, limit: 20 });
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
    let search = ProductQuery { text: "zebrawood".into(), offset: 0, limit: 20 };
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
    for path in listings {
        for round in ["asked", "kept"] {
            let (kept, plain) = (shop.get(path).await, plain.get(path).await);
            assert_eq!(kept.status(), plain.status(), "{round} {path}");
            assert_eq!(kept.headers().get("etag"), plain.headers().get("etag"), "{round} {path}");
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
            }],
            address: marque_contract_tests::orders::address(),
            discount: DiscountPercent::new(0).expect("a percent"),
            discount_amount: Money::ZERO,
            delivery_charge: Money::ZERO,
            total: product.price,
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
    for path in [search_path(&y), "/api/get/category".to_owned()] {
        assert!(pages.holds_listing(path.strip_prefix("/api").expect("under /api")), "{path} stays kept");
    }
    assert!(!pages.holds_listing("/get/suggestion"), "the best sellers were forgotten with the sale's stock");
    assert_eq!(pages.generation(), generation, "a stock change is not a change of the whole catalog");

    shop.get("/api/get/suggestion").await;
    assert!(pages.holds_listing("/get/suggestion"));
    let placed = orders
        .place(&reservation.payment_order, &marque_ports::PaymentId("pay_cache1".into()), 1_780_295_460)
        .await
        .expect("placed");
    assert!(matches!(placed, marque_ports::Placement::Placed(_)));
    within(Duration::from_secs(1), "the sale forgetting the best sellers", async || {
        !pages.holds_listing("/get/suggestion")
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
