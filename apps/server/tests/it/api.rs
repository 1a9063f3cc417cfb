//! Black-box tests of the catalog API: the real server over HTTP.

use crate::helpers;

use helpers::{spawn_shop, spawn_with, PRODUCTS};
use marque_domain::part_number::normalize_part_number;
use marque_server::seed;

#[tokio::test]
async fn health_is_ok() {
    let shop = spawn_shop().await;
    // Ready once the first warm-up of the catalog's answers is done (a few milliseconds here).
    helpers::within(std::time::Duration::from_secs(60), "ready", async || {
        shop.get("/api/health/ready").await.status() == 200
    })
    .await;
    for path in ["/api/health", "/api/health/live", "/api/health/ready"] {
        let (status, body) = shop.get_json(path).await;
        assert_eq!((status, &body["status"]), (200, &serde_json::json!("ok")), "{path}: {body}");
        assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    }
}

/// An instance with a seeded catalog answers 503 `warming` on ready (and on the old `/api/health`)
/// until its first warm-up is done, then 200; live answers 200 all along. The warm-up filled the
/// caches: the home lists and every product are kept ready before the first shopper asks.
#[tokio::test]
async fn ready_only_once_warm() {
    let (shop, app) = helpers::spawn_app_with(|c| c.test_warm_up_delay_ms = 1_500).await;
    let started = std::time::Instant::now();
    for path in ["/api/health/ready", "/api/health"] {
        let (status, body) = shop.get_json(path).await;
        assert_eq!((status, &body["status"]), (503, &serde_json::json!("warming")), "{path}: {body}");
    }
    assert_eq!(shop.get_json("/api/health/live").await.0, 200, "live while warming");
    assert_eq!(shop.get_json("/api/get/new-products").await.0, 200, "a cold instance still answers");
    let took = helpers::within(std::time::Duration::from_secs(20), "ready", async || {
        shop.get("/api/health/ready").await.status() == 200
    })
    .await;
    assert!(started.elapsed() >= std::time::Duration::from_millis(1_400), "not before the warm-up: {took:?}");
    assert_eq!(shop.get_json("/api/health").await.0, 200);
    let pages = app.services.response_cache.clone().expect("on with the catalog cache");
    for path in ["/get/suggestion", "/get/category", "/get/brand/oem"] {
        assert!(pages.holds_listing(path), "{path} warmed");
    }
    for n in 0..PRODUCTS {
        assert!(pages.holds_fresh(seed::product(n).id.as_str()), "product {n} warmed");
    }
}

/// Past its limit an instance whose warm-up has not finished reports ready anyway.
#[tokio::test]
async fn ready_anyway_past_the_warm_up_limit() {
    let shop = spawn_with(|c| {
        c.test_warm_up_delay_ms = 60_000;
        c.warm_up_limit_secs = 2;
    })
    .await;
    assert_eq!(shop.get_json("/api/health/ready").await.0, 503);
    helpers::within(std::time::Duration::from_secs(30), "ready past the limit", async || {
        shop.get("/api/health/ready").await.status() == 200
    })
    .await;
}

/// A database that does not answer: live stays 200, ready (and the old `/api/health`) answer 503.
#[tokio::test]
async fn readiness_follows_the_database_and_liveness_does_not() {
    struct Gone;
    #[async_trait::async_trait]
    impl marque_ports::Readiness for Gone {
        async fn ready(&self) -> Result<(), marque_ports::ReadinessError> {
            Err(marque_ports::ReadinessError::Unavailable { reason: "stopped".into() })
        }
    }
    let flags = marque_server::Flags::for_tests(std::path::PathBuf::from("/nonexistent-web-dir"));
    let settings = marque_server::Settings::from_flags(flags).expect("dev settings");
    let mut app = marque_server::App::connect(settings).await.expect("the shop starts");
    app.services.readiness = marque_api::DatabaseReadiness(std::sync::Arc::new(Gone));
    let shop = helpers::serve(&app).await;
    let (status, body) = shop.get_json("/api/health/live").await;
    assert_eq!((status, &body["status"]), (200, &serde_json::json!("ok")), "{body}");
    for path in ["/api/health/ready", "/api/health"] {
        let (status, body) = shop.get_json(path).await;
        assert_eq!((status, &body["status"]), (503, &serde_json::json!("degraded")), "{path}: {body}");
    }
}

#[tokio::test]
async fn categories_come_with_their_subcategories() {
    let shop = spawn_shop().await;
    let (status, body) = shop.get_json("/api/get/category").await;
    assert_eq!(status, 200);
    let data = body["data"].as_array().expect("data list");
    assert!(data.len() >= 10, "{} categories", data.len());
    for c in data {
        assert!(c["_id"].is_string() && c["name"].is_string() && c["slug"].is_string(), "{c}");
        let subs = c["subcategory"].as_array().expect("subcategory list");
        assert!(!subs.is_empty());
        assert!(subs.iter().all(|s| s["_id"].is_string() && s["slug"].is_string()));
    }
}

#[tokio::test]
async fn the_eight_brands_have_logos() {
    let shop = spawn_shop().await;
    let (_, body) = shop.get_json("/api/get/brand/oem").await;
    let slugs: Vec<&str> = body["data"].as_array().expect("list").iter().filter_map(|b| b["slug"].as_str()).collect();
    for slug in ["audi", "bmw", "mercedes-benz", "jaguar", "range-rover", "land-rover", "volvo", "porsche"] {
        assert!(slugs.contains(&slug), "{slug} in {slugs:?}");
    }
    let logo = body["data"][0]["image"].as_str().expect("image");
    let resp = shop.get(logo).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "image/svg+xml");
    assert!(resp.text().await.expect("body").starts_with("<svg"));
}

#[tokio::test]
async fn recently_added_lists_the_newest_twelve() {
    let shop = spawn_shop().await;
    let (_, body) = shop.get_json("/api/get/new-products").await;
    let ids: Vec<&str> = body["data"].as_array().expect("list").iter().filter_map(|p| p["_id"].as_str()).collect();
    let expected: Vec<String> = (PRODUCTS - 12..PRODUCTS).rev().map(|n| seed::product(n).id.0).collect();
    assert_eq!(ids, expected);
}

#[tokio::test]
async fn hot_selling_ranks_by_units_sold() {
    let shop = spawn_shop().await;
    let (_, body) = shop.get_json("/api/get/suggestion").await;
    let result = body["result"].as_array().expect("result list");
    assert_eq!(result.len(), 12);
    let sold: Vec<u32> = result
        .iter()
        .map(|item| {
            assert_eq!(item["_id"], item["name"], "the title text is the name");
            let id = item["product_id"].as_str().expect("product_id");
            let n: u32 = id.trim_start_matches('p').parse().expect("a demo id");
            seed::product(n).units_sold
        })
        .collect();
    assert!(sold.windows(2).all(|w| w[0] >= w[1]), "{sold:?}");
    let best = (0..PRODUCTS).map(|n| seed::product(n).units_sold).max().expect("products");
    assert_eq!(sold[0], best);
}

#[tokio::test]
async fn a_product_has_every_field_of_the_specification() {
    let shop = spawn_shop().await;
    let expected = seed::product(5);
    let (status, body) = shop.get_json("/api/get/productById/p000005").await;
    assert_eq!(status, 200);
    let p = &body["data"];
    for field in [
        "_id",
        "name",
        "price",
        "quantity",
        "producttype",
        "images",
        "description",
        "category",
        "category_slug",
        "subcategory_slug",
        "oem",
        "oem_slug",
        "fuelType",
        "variant",
        "partNo",
        "inside_ncr",
        "outside_ncr",
    ] {
        assert!(!p[field].is_null(), "{field} missing in {p}");
    }
    assert_eq!(p["partNo"], expected.part_no.printed());
    assert_eq!(p["price"].as_f64(), Some(expected.price.rupees()));
    assert_eq!(p["inside_ncr"].as_f64(), Some(expected.inside_ncr.rupees()));
    assert!(p["images"][0]["name"].as_str().is_some_and(|s| s.ends_with(".svg")));
}

#[tokio::test]
async fn an_unknown_product_is_a_json_404() {
    let shop = spawn_shop().await;
    for id in ["p999999", "nope", "%27%20OR%201%3D1", "a%3Ab"] {
        let (status, body) = shop.get_json(&format!("/api/get/productById/{id}")).await;
        assert_eq!(status, 404, "{id}");
        assert_eq!(body["status"], "failed");
        assert_eq!(body["message"], "Product not found");
    }
}

#[tokio::test]
async fn a_part_number_typed_any_way_finds_the_part_first() {
    let shop = spawn_shop().await;
    let target = seed::product(42);
    let norm = normalize_part_number(target.part_no.printed());
    // Lower case, dashes instead of spaces, and a stray slash.
    let typed = format!("{}-{}/{}", &norm[..3].to_lowercase(), &norm[3..7], &norm[7..]);
    let (status, body) = shop.get_json(&format!("/api/get/productBySearch?search={typed}&page=1")).await;
    assert_eq!(status, 200);
    assert_eq!(body["results"][0]["_id"], target.id.0, "{body}");
}

#[tokio::test]
async fn name_words_find_products() {
    let shop = spawn_shop().await;
    let (_, body) = shop.get_json("/api/get/productBySearch?search=brak%20dis&page=1").await;
    let results = body["results"].as_array().expect("results");
    assert!(!results.is_empty(), "brake discs exist in the demo catalog");
    for p in results {
        let name = p["name"].as_str().expect("name").to_lowercase();
        assert!(name.contains("brake") && name.contains("disc"), "{name}");
    }
}

#[tokio::test]
async fn an_empty_search_pages_through_everything() {
    let shop = spawn_shop().await;
    let (_, first) = shop.get_json("/api/get/productBySearch?search=&page=1").await;
    assert_eq!(first["total"], PRODUCTS);
    assert_eq!(first["pages"], PRODUCTS.div_ceil(20));
    assert_eq!(first["page"], 1);
    assert_eq!(first["results"].as_array().map(Vec::len), Some(20));
    let (_, beyond) = shop.get_json("/api/get/productBySearch?search=&page=99").await;
    assert_eq!(beyond["results"].as_array().map(Vec::len), Some(0));
    assert_eq!(beyond["pages"], first["pages"]);
    let (_, missing) = shop.get_json("/api/get/productBySearch").await;
    assert_eq!(missing["page"], 1, "no page means page 1");
}

#[tokio::test]
async fn nothing_found_is_an_empty_page_not_an_error() {
    let shop = spawn_shop().await;
    let (status, body) = shop.get_json("/api/get/productBySearch?search=zzqxj&page=1").await;
    assert_eq!(status, 200);
    assert_eq!((body["total"].as_u64(), body["pages"].as_u64()), (Some(0), Some(0)));
}

#[tokio::test]
async fn a_bad_page_number_is_a_json_400() {
    let shop = spawn_shop().await;
    for page in ["0", "-1", "abc", "1.5", "999999999999"] {
        let (status, body) = shop.get_json(&format!("/api/get/productBySearch?search=disc&page={page}")).await;
        assert_eq!(status, 400, "page={page}");
        assert_eq!(body["status"], "failed");
        assert!(body["message"].as_str().is_some_and(|m| m.contains("page")), "{body}");
    }
}

#[tokio::test]
async fn odd_search_text_is_harmless() {
    let shop = spawn_shop().await;
    for term in ["%27%3B%20DELETE%20product%3B", "%F0%9F%9A%97", "%22%5C", "SELECT%20*%20FROM%20product", "-%2F.%20"] {
        let (status, body) = shop.get_json(&format!("/api/get/productBySearch?search={term}&page=1")).await;
        assert_eq!(status, 200, "{term}: {body}");
    }
    let long = "a".repeat(201);
    let (status, body) = shop.get_json(&format!("/api/get/productBySearch?search={long}")).await;
    assert_eq!(status, 400);
    assert_eq!(body["status"], "failed");
    let (_, all) = shop.get_json("/api/get/productBySearch?search=").await;
    assert_eq!(all["total"], PRODUCTS, "nothing was deleted");
}

fn result_ids(body: &serde_json::Value) -> Vec<String> {
    let results = body["results"].as_array().expect("results list");
    results.iter().map(|p| p["_id"].as_str().expect("_id").to_owned()).collect()
}

#[tokio::test]
async fn a_brand_lists_its_products_newest_first_twenty_a_page() {
    // 200 demo products rotate through the eight makers: 25 are BMW's, two pages.
    let products = 200;
    let shop = spawn_with(|config| config.seed_products = products).await;
    let expected: Vec<String> =
        (0..products).rev().map(seed::product).filter(|p| p.oem_slug == "bmw").map(|p| p.id.0).collect();
    assert_eq!(expected.len(), 25);

    let (status, first) = shop.get_json("/api/get/productByOem/bmw?page=1").await;
    assert_eq!(status, 200);
    assert_eq!(first["status"], "success");
    let counts = (first["pages"].as_u64(), first["page"].as_u64(), first["total"].as_u64());
    assert_eq!(counts, (Some(2), Some(1), Some(25)), "pages, page, total");
    assert_eq!(result_ids(&first), expected[..20], "the newest twenty first");
    for p in first["results"].as_array().expect("results") {
        assert_eq!((p["oem"].as_str(), p["oem_slug"].as_str()), (Some("BMW"), Some("bmw")), "{p}");
        assert!(p["partNo"].is_string() && p["price"].is_number() && p["images"].is_array(), "{p}");
    }

    let (_, second) = shop.get_json("/api/get/productByOem/bmw?page=2").await;
    assert_eq!((second["page"].as_u64(), second["pages"].as_u64()), (Some(2), Some(2)));
    assert_eq!(result_ids(&second), expected[20..], "the rest on page 2, none repeated or skipped");

    let (status, beyond) = shop.get_json("/api/get/productByOem/bmw?page=3").await;
    assert_eq!(status, 200);
    assert_eq!(result_ids(&beyond), Vec::<String>::new());
    assert_eq!((beyond["pages"].as_u64(), beyond["total"].as_u64()), (Some(2), Some(25)), "the real page count");

    let (_, no_page) = shop.get_json("/api/get/productByOem/bmw").await;
    assert_eq!(no_page["page"], 1, "no page means page 1");
    assert_eq!(result_ids(&no_page), expected[..20]);
}

#[tokio::test]
async fn every_brand_lists_its_own_products() {
    let shop = spawn_shop().await;
    for slug in ["audi", "mercedes-benz", "land-rover", "range-rover", "porsche"] {
        let expected: Vec<String> =
            (0..PRODUCTS).rev().map(seed::product).filter(|p| p.oem_slug == slug).map(|p| p.id.0).collect();
        let (status, body) = shop.get_json(&format!("/api/get/productByOem/{slug}?page=1")).await;
        assert_eq!(status, 200, "{slug}");
        assert_eq!(result_ids(&body), expected, "{slug}");
        assert_eq!(body["total"].as_u64(), Some(expected.len() as u64), "{slug}");
    }
}

#[tokio::test]
async fn an_unknown_brand_is_an_empty_page_not_an_error() {
    let shop = spawn_shop().await;
    for slug in ["lada", "BMW", "land%20rover", "%27%20OR%201%3D1", "bmw--audi", "%F0%9F%9A%97"] {
        let (status, body) = shop.get_json(&format!("/api/get/productByOem/{slug}?page=1")).await;
        assert_eq!(status, 200, "{slug}: {body}");
        assert_eq!(body["status"], "success");
        assert_eq!(result_ids(&body), Vec::<String>::new(), "{slug}");
        assert_eq!((body["pages"].as_u64(), body["total"].as_u64()), (Some(0), Some(0)), "{slug}");
    }
    let (_, all) = shop.get_json("/api/get/productBySearch?search=").await;
    assert_eq!(all["total"], PRODUCTS, "nothing was changed");
}

#[tokio::test]
async fn a_bad_page_of_a_brand_is_a_json_400() {
    let shop = spawn_shop().await;
    for page in ["0", "-1", "abc", "1.5", "999999999999", "100001"] {
        let (status, body) = shop.get_json(&format!("/api/get/productByOem/bmw?page={page}")).await;
        assert_eq!(status, 400, "page={page}");
        assert_eq!(body["status"], "failed");
        assert_eq!(body["code"], "page.invalid", "{body}");
        assert!(body["message"].as_str().is_some_and(|m| m.contains("page")), "{body}");
    }
}

#[tokio::test]
async fn unknown_api_paths_and_methods_answer_json() {
    let shop = spawn_shop().await;
    let (status, body) = shop.get_json("/api/get/nothing-here").await;
    assert_eq!(status, 404);
    assert_eq!(body["status"], "failed");
    let resp = shop.client.post(format!("{}/api/get/category", shop.base)).send().await.expect("answers");
    assert_eq!(resp.status(), 405);
    assert_eq!(resp.headers()["allow"], "GET, HEAD", "405 names the methods the path takes");
    let body: serde_json::Value = resp.json().await.expect("JSON");
    assert_eq!(body["status"], "failed");
    for (method, path, allowed) in [
        (reqwest::Method::GET, "/api/remove/u1/address/a1", "DELETE"),
        (reqwest::Method::DELETE, "/api/login", "POST"),
        (reqwest::Method::TRACE, "/api/user", "GET, HEAD"),
        (reqwest::Method::GET, "/api/razorpay/webhook", "POST"),
    ] {
        let resp = shop.client.request(method.clone(), format!("{}{path}", shop.base)).send().await.expect("answers");
        assert_eq!(resp.status(), 405, "{method} {path}");
        assert_eq!(resp.headers()["allow"], allowed, "{method} {path}");
    }
}

// ---------------------------------------------------------------------------
// Category and subcategory listings
// ---------------------------------------------------------------------------

/// The first `count` demo products, newest first (each is listed an hour after the one before).
fn demo_newest_first(count: u32) -> Vec<marque_domain::catalog::Product> {
    (0..count).rev().map(seed::product).collect()
}

/// A category's subcategories in the order the store gives them: by name.
fn subcategories_by_name(category: &str) -> Vec<marque_domain::catalog::Subcategory> {
    let mut subs = seed::categories().into_iter().find(|c| c.slug == category).expect("a demo category").subcategories;
    subs.sort_by(|a, b| (&a.name, &a.id).cmp(&(&b.name, &b.id)));
    subs
}

fn ids_of<'a>(products: impl IntoIterator<Item = &'a marque_domain::catalog::Product>) -> Vec<String> {
    products.into_iter().map(|p| p.id.0.clone()).collect()
}

#[tokio::test]
async fn a_category_without_filters_groups_its_products_by_subcategory() {
    // Few products, so some subcategories are empty and others hold more than a preview.
    let count = 40;
    let shop = spawn_with(|config| config.seed_products = count).await;
    let products = demo_newest_first(count);
    let has_products =
        |cat: &str, sub: &str| products.iter().any(|p| p.category_slug == cat && p.subcategory_slug == sub);
    let category = seed::categories()
        .into_iter()
        .find(|c| {
            let subs = &c.subcategories;
            subs.iter().any(|s| has_products(&c.slug, &s.slug)) && subs.iter().any(|s| !has_products(&c.slug, &s.slug))
        })
        .expect("40 demo products leave some subcategory of some category empty");

    let (status, body) = shop.get_json(&format!("/api/get/product/{}", category.slug)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((body["status"].as_str(), body["view"].as_str()), (Some("success"), Some("grouped")));
    assert_eq!(
        body["category"],
        serde_json::json!({ "_id": category.id, "name": category.name, "slug": category.slug })
    );
    assert_eq!(body["results"], serde_json::json!([]), "grouped pages hold no flat list");

    let mut expected_total = 0;
    let mut expected_groups = Vec::new();
    for sub in subcategories_by_name(&category.slug) {
        let of_sub: Vec<_> =
            products.iter().filter(|p| p.category_slug == category.slug && p.subcategory_slug == sub.slug).collect();
        if of_sub.is_empty() {
            continue;
        }
        expected_total += of_sub.len();
        expected_groups.push((
            sub.slug.clone(),
            sub.id.clone(),
            sub.name.clone(),
            of_sub.len(),
            ids_of(of_sub.into_iter().take(4)),
        ));
    }
    let groups: Vec<_> = body["subcategory"]
        .as_array()
        .expect("subcategory list")
        .iter()
        .map(|g| {
            (
                g["slug"].as_str().expect("slug").to_owned(),
                g["_id"].as_str().expect("_id").to_owned(),
                g["name"].as_str().expect("name").to_owned(),
                usize::try_from(g["count"].as_u64().expect("count")).expect("small"),
                result_ids(&serde_json::json!({ "results": g["products"] })),
            )
        })
        .collect();
    assert_eq!(groups, expected_groups, "non-empty subcategories in name order, counts, newest four each");
    assert!(groups.iter().all(|g| g.4.len() <= 4), "previews hold at most four products");
    assert_eq!(body["total"].as_u64(), Some(expected_total as u64), "total is the sum of the counts");
    assert_eq!((body["pages"].as_u64(), body["page"].as_u64()), (Some(1), Some(1)));

    // Blank filters are no filters, and a page number does not turn the groups into pages.
    let (_, blank) =
        shop.get_json(&format!("/api/get/product/{}?page=2&oem=&product_type=&fuel_type=%20", category.slug)).await;
    assert_eq!((blank["view"].as_str(), blank["page"].as_u64()), (Some("grouped"), Some(1)));
    assert_eq!(blank["subcategory"], body["subcategory"]);
}

#[tokio::test]
async fn a_group_preview_is_the_four_newest_of_a_bigger_subcategory() {
    let shop = spawn_shop().await;
    let products = demo_newest_first(PRODUCTS);
    let of = |cat: &str, sub: &str| -> Vec<&marque_domain::catalog::Product> {
        products.iter().filter(|p| p.category_slug == cat && p.subcategory_slug == sub).collect()
    };
    let (cat, sub) = seed::categories()
        .into_iter()
        .flat_map(|c| c.subcategories.into_iter().map(move |s| (c.slug.clone(), s.slug)))
        .find(|(c, s)| of(c, s).len() > 4)
        .expect("120 demo products fill some subcategory past four");
    let (_, body) = shop.get_json(&format!("/api/get/product/{cat}")).await;
    let groups = body["subcategory"].as_array().expect("groups");
    let group = groups.iter().find(|g| g["slug"] == sub.as_str()).expect("the subcategory is a group");
    assert_eq!(group["count"].as_u64(), Some(of(&cat, &sub).len() as u64));
    assert_eq!(
        result_ids(&serde_json::json!({ "results": group["products"] })),
        ids_of(of(&cat, &sub).into_iter().take(4))
    );
    assert!(group["products"][0]["price"].is_number() && group["products"][0]["partNo"].is_string());
}

#[tokio::test]
async fn filters_turn_a_category_into_one_list_newest_first() {
    let count = 400;
    let shop = spawn_with(|config| config.seed_products = count).await;
    let products = demo_newest_first(count);
    let in_brakes = |keep: &dyn Fn(&marque_domain::catalog::Product) -> bool| -> Vec<String> {
        ids_of(products.iter().filter(|p| p.category_slug == "brakes" && keep(p)))
    };
    let fuel = |p: &marque_domain::catalog::Product| p.fuel_type.map(|f| f.code().to_owned()).unwrap_or_default();
    let cases: Vec<(&str, Vec<String>)> = vec![
        ("oem=bmw", in_brakes(&|p| p.oem_slug == "bmw")),
        ("oem=BMW--audi", in_brakes(&|p| p.oem_slug == "bmw" || p.oem_slug == "audi")),
        ("product_type=old", in_brakes(&|p| p.condition.code() == "old")),
        ("fuel_type=diesel", in_brakes(&|p| fuel(p) == "diesel")),
        (
            "oem=mercedes-benz--land-rover&product_type=new&fuel_type=petrol--Diesel",
            in_brakes(&|p| {
                ["mercedes-benz", "land-rover"].contains(&p.oem_slug.as_str())
                    && p.condition.code() == "new"
                    && ["petrol", "diesel"].contains(&fuel(p).as_str())
            }),
        ),
    ];
    for (query, expected) in cases {
        assert!(
            !expected.is_empty() && expected.len() <= 20,
            "{query}: the demo catalog gives one page ({})",
            expected.len()
        );
        let (status, body) = shop.get_json(&format!("/api/get/product/brakes?{query}&page=1")).await;
        assert_eq!(status, 200, "{query}: {body}");
        assert_eq!((body["status"].as_str(), body["view"].as_str()), (Some("success"), Some("flat")), "{query}");
        assert_eq!(body["subcategory"], serde_json::json!([]), "{query}: no groups in a flat list");
        assert_eq!(result_ids(&body), expected, "{query}");
        assert_eq!(body["total"].as_u64(), Some(expected.len() as u64), "{query}");
        assert_eq!((body["pages"].as_u64(), body["page"].as_u64()), (Some(1), Some(1)), "{query}");
    }
}

#[tokio::test]
async fn a_filtered_category_pages_twenty_at_a_time() {
    let count = 400;
    let shop = spawn_with(|config| config.seed_products = count).await;
    let expected = ids_of(
        demo_newest_first(count)
            .iter()
            .filter(|p| p.category_slug == "brakes" && ["old", "new"].contains(&p.condition.code())),
    );
    assert!(expected.len() > 20 && expected.len() <= 40, "two pages in the demo catalog ({})", expected.len());

    let (_, first) = shop.get_json("/api/get/product/brakes?product_type=old--new&page=1").await;
    assert_eq!((first["pages"].as_u64(), first["total"].as_u64()), (Some(2), Some(expected.len() as u64)));
    assert_eq!(result_ids(&first), expected[..20]);
    let (_, second) = shop.get_json("/api/get/product/brakes?product_type=old--new&page=2").await;
    assert_eq!(second["page"].as_u64(), Some(2));
    assert_eq!(result_ids(&second), expected[20..], "the rest, none repeated or skipped");
    let (status, beyond) = shop.get_json("/api/get/product/brakes?product_type=old--new&page=9").await;
    assert_eq!(status, 200);
    assert_eq!(result_ids(&beyond), Vec::<String>::new());
    assert_eq!((beyond["pages"].as_u64(), beyond["page"].as_u64()), (Some(2), Some(9)), "the real page count");
}

#[tokio::test]
async fn a_subcategory_lists_its_own_products_with_the_same_filters() {
    // 48 subcategories: a thousand products fill the biggest past one page.
    let count = 1_000;
    let shop = spawn_with(|config| config.seed_products = count).await;
    let products = demo_newest_first(count);
    let (category, sub) = seed::categories()
        .into_iter()
        .flat_map(|c| c.subcategories.clone().into_iter().map(move |s| (c.clone(), s)))
        .max_by_key(|(c, s)| {
            products.iter().filter(|p| p.category_slug == c.slug && p.subcategory_slug == s.slug).count()
        })
        .expect("a subcategory");
    let of_sub: Vec<_> =
        products.iter().filter(|p| p.category_slug == category.slug && p.subcategory_slug == sub.slug).collect();
    assert!(of_sub.len() > 20, "the biggest subcategory fills two pages ({})", of_sub.len());

    let path = format!("/api/get/product/{}/{}", category.slug, sub.slug);
    let (status, first) = shop.get_json(&path).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["status"], "success");
    assert_eq!(
        first["category"],
        serde_json::json!({ "_id": category.id, "name": category.name, "slug": category.slug })
    );
    assert_eq!(first["subcategory"], serde_json::json!({ "_id": sub.id, "name": sub.name, "slug": sub.slug }));
    assert_eq!(result_ids(&first), ids_of(of_sub.iter().copied().take(20)));
    assert_eq!((first["page"].as_u64(), first["pages"].as_u64()), (Some(1), Some(of_sub.len().div_ceil(20) as u64)));
    assert_eq!(first["total"].as_u64(), Some(of_sub.len() as u64));
    let (_, second) = shop.get_json(&format!("{path}?page=2")).await;
    assert_eq!(result_ids(&second), ids_of(of_sub.iter().copied().skip(20).take(20)));

    let diesel_bmw = ids_of(
        of_sub.iter().copied().filter(|p| p.oem_slug == "bmw" && p.fuel_type.is_some_and(|f| f.code() == "diesel")),
    );
    let (_, filtered) = shop.get_json(&format!("{path}?oem=bmw&fuel_type=diesel&page=1")).await;
    assert_eq!(result_ids(&filtered), diesel_bmw);
    let (_, beyond) = shop.get_json(&format!("{path}?page=50")).await;
    assert_eq!(result_ids(&beyond), Vec::<String>::new());
    assert_eq!(beyond["pages"], first["pages"], "a page past the last still tells the real count");

    let authorized =
        shop.client.get(format!("{}{path}", shop.base)).bearer_auth("any-token").send().await.expect("answers");
    assert_eq!(authorized.status(), 200, "a token is accepted and not needed");
}

#[tokio::test]
async fn listing_filters_the_shop_does_not_offer_are_a_json_400() {
    let shop = spawn_shop().await;
    for base in ["/api/get/product/brakes", "/api/get/product/brakes/brake-disc"] {
        for query in [
            "product_type=xyz",
            "product_type=refurbished",
            "product_type=old-new",
            "product_type=old--",
            "fuel_type=lpg",
            "fuel_type=hybrid",
            "oem=tesla",
            "oem=bmw--tesla",
            "oem=bmw-",
            "oem=land%20rover",
            "oem=%27%20OR%201%3D1",
        ] {
            let (status, body) = shop.get_json(&format!("{base}?{query}")).await;
            assert_eq!(status, 400, "{base}?{query}: {body}");
            assert_eq!(
                (body["status"].as_str(), body["code"].as_str()),
                (Some("failed"), Some("filter.invalid")),
                "{query}"
            );
            assert_eq!(body["message"], "Unknown filter value");
        }
        for page in ["0", "abc", "-1", "1.5", "100001"] {
            let (status, body) = shop.get_json(&format!("{base}?page={page}&oem=bmw")).await;
            assert_eq!(status, 400, "{base}?page={page}");
            assert_eq!(body["code"], "page.invalid", "{body}");
        }
    }
}

#[tokio::test]
async fn an_unknown_category_or_subcategory_is_a_json_404() {
    let shop = spawn_shop().await;
    let other = subcategories_by_name("engine")
        .into_iter()
        .find(|s| !subcategories_by_name("brakes").iter().any(|b| b.slug == s.slug));
    let other = other.expect("an engine subcategory brakes has not").slug;
    for path in [
        "/api/get/product/nope".to_owned(),
        "/api/get/product/Brakes".to_owned(),
        "/api/get/product/nope?oem=bmw".to_owned(),
        "/api/get/product/%27%20OR%201%3D1".to_owned(),
        "/api/get/product/nope/brake-disc".to_owned(),
        "/api/get/product/brakes/nope".to_owned(),
        format!("/api/get/product/brakes/{other}"),
    ] {
        let (status, body) = shop.get_json(&path).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert_eq!(
            (body["status"].as_str(), body["code"].as_str()),
            (Some("failed"), Some("category.not_found")),
            "{path}"
        );
        assert_eq!(body["message"], "Category not found");
    }
}

// ---------------------------------------------------------------------------
// Sitemap and robots.txt
// ---------------------------------------------------------------------------

async fn xml(shop: &helpers::TestShop, path: &str) -> (u16, String) {
    let resp = shop.get(path).await;
    let status = resp.status().as_u16();
    if status == 200 {
        assert_eq!(resp.headers()["content-type"], "application/xml", "{path}");
    }
    (status, resp.text().await.expect("a body"))
}

/// Balanced elements and no bare ampersand: enough to tell a well-formed sitemap here.
fn assert_well_formed(xml: &str) {
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"), "{xml}");
    for tag in ["url", "loc", "sitemap", "urlset", "sitemapindex"] {
        assert_eq!(
            xml.matches(&format!("<{tag}>")).count() + xml.matches(&format!("<{tag} ")).count(),
            xml.matches(&format!("</{tag}>")).count(),
            "<{tag}>"
        );
    }
    for (i, _) in xml.match_indices('&') {
        let rest = &xml[i..];
        assert!(
            ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#39;"].iter().any(|e| rest.starts_with(e)),
            "bare & at {i}"
        );
    }
}

fn locs(xml: &str) -> Vec<String> {
    xml.split("<loc>").skip(1).map(|s| s.split("</loc>").next().expect("closed").to_owned()).collect()
}

#[tokio::test]
async fn robots_txt_allows_everything_and_points_at_the_sitemap() {
    let shop = spawn_shop().await;
    let resp = shop.get("/robots.txt").await;
    assert_eq!(resp.status(), 200);
    assert!(resp.headers()["content-type"].to_str().expect("ascii").starts_with("text/plain"));
    let text = resp.text().await.expect("text");
    assert!(text.contains("User-agent: *\nAllow: /\n"), "{text}");
    assert!(text.contains(&format!("Sitemap: {}/sitemap.xml", shop.base)), "{text}");
}

#[tokio::test]
async fn the_sitemap_lists_every_page_a_visitor_can_find() {
    let shop = spawn_shop().await;
    let (status, body) = xml(&shop, "/sitemap.xml").await;
    assert_eq!(status, 200);
    assert_well_formed(&body);
    assert!(body.contains("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"));
    let base = &shop.base;
    let product = seed::product(5);
    // Listed at 2026-01-01T00:00:00Z plus five hours.
    assert!(
        body.contains(&format!(
            "<url><loc>{base}/product?productId=p000005</loc><lastmod>2026-01-01T05:00:00+00:00</lastmod></url>"
        )),
        "{body}"
    );
    assert_eq!(product.created_at, 1_767_225_600 + 5 * 3_600);
    let found = locs(&body);
    let categories = seed::categories();
    let mut expected: Vec<String> =
        ["/", "/about", "/contactus", "/policy", "/termandcondition"].iter().map(|p| format!("{base}{p}")).collect();
    expected.extend(categories.iter().map(|c| format!("{base}/category/{}", c.slug)));
    for c in &categories {
        expected.extend(c.subcategories.iter().map(|s| format!("{base}/subcategory/{}/{}", c.slug, s.slug)));
    }
    expected.extend(seed::brands().iter().map(|b| format!("{base}/brand/{}", b.slug)));
    expected.extend((0..PRODUCTS).map(|n| format!("{base}/product?productId={}", seed::product(n).id)));
    let mut sorted_found = found.clone();
    sorted_found.sort();
    expected.sort();
    assert_eq!(sorted_found, expected, "home, static pages, categories, subcategories, brands, products; each once");
    assert!(found.contains(&format!("{base}/brand/mercedes-benz")));
    assert!(found.contains(&format!("{base}/category/brakes")));
}

#[tokio::test]
async fn sitemap_addresses_are_escaped() {
    let shop = spawn_with(|config| config.public_url = Some("https://parts.example/in&co/".into())).await;
    let (_, body) = xml(&shop, "/sitemap.xml").await;
    assert_well_formed(&body);
    assert!(body.contains("<loc>https://parts.example/in&amp;co/product?productId=p000001</loc>"), "{body}");
    assert!(!body.contains("in&co"));
    let robots = shop.get("/robots.txt").await.text().await.expect("text");
    assert!(robots.contains("Sitemap: https://parts.example/in&co/sitemap.xml"), "{robots}");
}

#[tokio::test]
async fn a_big_sitemap_becomes_an_index_of_parts() {
    let per_file = 50;
    let shop = spawn_with(|config| config.sitemap_urls = per_file).await;
    let (_, whole) = xml(&spawn_shop().await, "/sitemap.xml").await;
    let all = locs(&whole).len();
    let (status, index) = xml(&shop, "/sitemap.xml").await;
    assert_eq!(status, 200);
    assert_well_formed(&index);
    assert!(index.contains("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"), "{index}");
    let parts = locs(&index);
    assert_eq!(parts.len(), all.div_ceil(per_file));
    let mut listed = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        assert_eq!(part, &format!("{}/sitemap-{}.xml", shop.base, i + 1));
        let (status, body) = xml(&shop, &format!("/sitemap-{}.xml", i + 1)).await;
        assert_eq!(status, 200);
        assert_well_formed(&body);
        let in_part = locs(&body);
        assert!(!in_part.is_empty() && in_part.len() <= per_file, "part {} holds {}", i + 1, in_part.len());
        listed.extend(in_part);
    }
    let mut unique = listed.clone();
    unique.sort();
    unique.dedup();
    assert_eq!((listed.len(), unique.len()), (all, all), "the parts hold every address once");
    let (status, _) = xml(&shop, &format!("/sitemap-{}.xml", parts.len() + 1)).await;
    assert_eq!(status, 404);
}

/// Catalog reads carry a weak `ETag` and `Cache-Control: public, no-cache`; asking again
/// with the tag answers 304 without a body, and another page's tag does not match.
#[tokio::test]
async fn catalog_reads_revalidate_with_their_etag() {
    let shop = spawn_shop().await;
    let path = "/api/get/productByOem/bmw?page=1";
    let first = shop.get(path).await;
    assert_eq!(first.status(), 200);
    assert_eq!(first.headers()["cache-control"], "public, no-cache");
    let tag = first.headers()["etag"].to_str().expect("ascii tag").to_owned();
    assert!(tag.starts_with("W/\""), "{tag}");

    let ask = |path: &str| shop.client.get(format!("{}{path}", shop.base)).header("if-none-match", tag.clone()).send();
    let again = ask(path).await.expect("the server answers");
    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()["etag"], tag.as_str());
    assert!(again.bytes().await.expect("body").is_empty());

    let other = ask("/api/get/productByOem/bmw?page=2").await.expect("the server answers");
    assert_eq!(other.status(), 200, "another page has another tag");
    let missing = ask("/api/get/productById/nope").await.expect("the server answers");
    assert_eq!(missing.status(), 404);
    assert!(missing.headers().get("etag").is_none(), "only successful reads are tagged");
}
