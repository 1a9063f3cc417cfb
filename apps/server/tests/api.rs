//! Black-box tests of the catalog API: the real server over HTTP.

mod helpers;

use helpers::{spawn_shop, spawn_with, PRODUCTS};
use marque_domain::part_number::normalize_part_number;
use marque_server::seed;

#[tokio::test]
async fn health_is_ok() {
    let shop = spawn_shop().await;
    let (status, body) = shop.get_json("/api/health").await;
    assert_eq!(status, 200);
    assert_eq!(body["status"], "ok");
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
        "_id", "name", "price", "quantity", "producttype", "images", "description", "category", "category_slug",
        "subcategory_slug", "oem", "oem_slug", "fuelType", "variant", "partNo", "inside_ncr", "outside_ncr",
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
    let body: serde_json::Value = resp.json().await.expect("JSON");
    assert_eq!(body["status"], "failed");
}
