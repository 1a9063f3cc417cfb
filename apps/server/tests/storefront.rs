//! Storefront pages: the shell's HTML with each page's head, and the composition manifest.

mod helpers;

use helpers::{spawn_shop, spawn_with};
use marque_server::seed;

fn between<'a>(html: &'a str, start: &str, end: &str) -> &'a str {
    let from = html.find(start).map(|i| i + start.len()).unwrap_or_else(|| panic!("{start} in {html}"));
    let to = html[from..].find(end).map(|i| i + from).expect("end marker");
    &html[from..to]
}

async fn page(shop: &helpers::TestShop, path: &str) -> (u16, String) {
    let resp = shop.get(path).await;
    let status = resp.status().as_u16();
    assert!(resp.headers()["content-type"].to_str().expect("ascii").starts_with("text/html"));
    (status, resp.text().await.expect("html"))
}

#[tokio::test]
async fn home_has_the_default_title_description_and_canonical_link() {
    let shop = spawn_shop().await;
    let (status, html) = page(&shop, "/").await;
    assert_eq!(status, 200);
    assert_eq!(between(&html, "<title>", "</title>"), "Marque Parts");
    assert!(html.contains("<meta name=\"description\" content=\"Buy new and used spare parts for luxury cars"));
    assert!(html.contains(&format!("<link rel=\"canonical\" href=\"{}/\">", shop.base)));
}

#[tokio::test]
async fn static_and_search_pages_have_their_titles() {
    let shop = spawn_shop().await;
    for (path, title) in [
        ("/about", "About us - Marque Parts"),
        ("/contactus", "Contact us - Marque Parts"),
        ("/policy", "Privacy Policy - Marque Parts"),
        ("/termandcondition", "Terms and Conditions - Marque Parts"),
        ("/search?search=brake%20disc&page=2", "Search results for brake disc - Marque Parts"),
        ("/brand/bmw?page=1", "BMW Spare Parts - Marque Parts"),
        ("/category/brakes?page=1", "Brakes Parts - Marque Parts"),
    ] {
        let (status, html) = page(&shop, path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(between(&html, "<title>", "</title>"), title, "{path}");
    }
    let (_, html) = page(&shop, "/search?search=brake%20disc&page=2").await;
    assert!(html.contains("/search?search=brake+disc&amp;page=2\">"), "canonical keeps the term and page");
}

#[tokio::test]
async fn a_product_page_carries_open_graph_and_json_ld() {
    let shop = spawn_shop().await;
    let product = seed::product(9);
    let (status, html) = page(&shop, "/product?productId=p000009").await;
    assert_eq!(status, 200);
    assert_eq!(between(&html, "<title>", "</title>"), format!("{} - Marque Parts", product.name));
    assert!(html.contains("<meta property=\"og:type\" content=\"product\">"));
    assert!(html.contains(&format!("<meta property=\"og:title\" content=\"{} - Marque Parts\">", product.name)));
    assert!(html.contains(&format!("<meta property=\"og:image\" content=\"{}/media/parts/", shop.base)));
    let json_ld: serde_json::Value =
        serde_json::from_str(between(&html, "<script type=\"application/ld+json\">", "</script>")).expect("JSON-LD");
    assert_eq!(json_ld["@type"], "Product");
    assert_eq!(json_ld["name"], product.name);
    assert_eq!(json_ld["mpn"], product.part_no.printed());
    assert_eq!(json_ld["offers"]["priceCurrency"], "INR");
    assert_eq!(json_ld["offers"]["price"], product.price.decimal_rupees());
    let availability = if product.quantity >= 1 { "https://schema.org/InStock" } else { "https://schema.org/OutOfStock" };
    assert_eq!(json_ld["offers"]["availability"], availability);
}

#[tokio::test]
async fn an_out_of_stock_product_says_so_in_its_data() {
    let shop = spawn_shop().await;
    let n = (0..helpers::PRODUCTS).find(|n| seed::product(*n).quantity == 0).expect("the demo has one");
    let (_, html) = page(&shop, &format!("/product?productId={}", seed::product(n).id)).await;
    assert!(html.contains("https://schema.org/OutOfStock"));
}

#[tokio::test]
async fn unknown_pages_and_products_are_404_pages() {
    let shop = spawn_shop().await;
    let (status, html) = page(&shop, "/product?productId=p999999").await;
    assert_eq!(status, 404);
    assert_eq!(between(&html, "<title>", "</title>"), "Product not found - Marque Parts");
    assert!(html.contains("noindex"));
    let (status, _) = page(&shop, "/no/such/page").await;
    assert_eq!(status, 404);
    for path in ["/category/nope", "/subcategory/nope/discs", "/subcategory/brakes/nope"] {
        let (status, html) = page(&shop, path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(between(&html, "<title>", "</title>"), "Category not found - Marque Parts", "{path}");
    }
}

#[tokio::test]
async fn text_from_the_address_bar_is_escaped() {
    let shop = spawn_shop().await;
    let (_, html) = page(&shop, "/search?search=%3Cscript%3Ealert(1)%3C%2Fscript%3E").await;
    assert!(!html.contains("<script>alert(1)"));
    assert!(html.contains("&lt;script&gt;alert(1)"));
}

#[tokio::test]
async fn the_composition_manifest_follows_configuration() {
    let shop = spawn_with(|c| c.remotes = "catalog=https://cdn.example/catalog/mf-manifest.json".into()).await;
    let (status, body) = shop.get_json("/composition.json").await;
    assert_eq!(status, 200);
    assert_eq!(body["catalog"], "https://cdn.example/catalog/mf-manifest.json");
}

#[tokio::test]
async fn built_remotes_are_found_and_served() {
    let web = tempfile::tempdir().expect("temp dir");
    let dist = web.path().join("catalog/dist");
    std::fs::create_dir_all(&dist).expect("mkdir");
    std::fs::write(dist.join("mf-manifest.json"), "{}").expect("write");
    std::fs::write(dist.join("remoteEntry.js"), "var catalog;").expect("write");
    std::fs::write(dist.join("12.0123abcd.js"), "1").expect("write");
    let web_dir = web.path().to_path_buf();
    let shop = spawn_with(move |c| c.web_dir = web_dir).await;
    let (_, body) = shop.get_json("/composition.json").await;
    assert_eq!(body["catalog"], "/remotes/catalog/mf-manifest.json");
    let entry = shop.get("/remotes/catalog/remoteEntry.js").await;
    assert_eq!(entry.status(), 200);
    assert_eq!(entry.headers()["cache-control"], "no-cache");
    let chunk = shop.get("/remotes/catalog/12.0123abcd.js").await;
    assert_eq!(chunk.headers()["cache-control"], "public, max-age=31536000, immutable");
}

/// Real demo-catalog values for every `:param` the route table uses.
fn demo_param(name: &str) -> String {
    let category = seed::categories().into_iter().next().expect("a demo category");
    match name {
        "categorySlug" => category.slug,
        "subcategorySlug" => category.subcategories.first().expect("a demo subcategory").slug.clone(),
        "brandSlug" => seed::brands().into_iter().next().expect("a demo brand").slug,
        other => panic!("the route table has a :{other} this test has no demo value for; add one"),
    }
}

#[tokio::test]
async fn every_route_in_the_table_answers_200_and_other_paths_404() {
    let shop = spawn_shop().await;
    let table: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(helpers::repo_root().join("contract/routes.json")).expect("committed"),
    )
    .expect("JSON");
    let routes = table["routes"].as_array().expect("routes");
    assert!(!routes.is_empty());
    for route in routes {
        let pattern = route["path"].as_str().expect("path");
        let mut path: String = pattern
            .split('/')
            .map(|seg| seg.strip_prefix(':').map_or_else(|| seg.to_owned(), demo_param))
            .collect::<Vec<_>>()
            .join("/");
        if route["page"] == "catalog/Product" {
            path.push_str(&format!("?productId={}", seed::product(9).id));
        }
        let (status, html) = page(&shop, &path).await;
        assert_eq!(status, 200, "{pattern} as {path}");
        let landing = route["page"] == "account/LoginSuccess" || route["page"] == "account/LoginFailure";
        assert_eq!(html.contains("noindex"), landing, "{path}: only the sign-in landings are noindex");
    }
    for path in [
        "/nope", "/about/more", "/brand", "/review/more", "/orderhistory/other",
    ] {
        let (status, html) = page(&shop, path).await;
        assert_eq!(status, 404, "{path} is not in the route table");
        assert!(html.contains("<meta name=\"robots\" content=\"noindex\">"), "{path}");
        assert_eq!(between(&html, "<title>", "</title>"), "Page not found - Marque Parts", "{path}");
    }
}

#[tokio::test]
async fn every_page_embeds_the_shop_identity_the_api_serves() {
    let shop = spawn_shop().await;
    let (status, api) = shop.get_json("/api/get/shop").await;
    assert_eq!(status, 200);
    for path in ["/", "/about", "/nope"] {
        let (_, html) = page(&shop, path).await;
        let embedded: serde_json::Value = serde_json::from_str(between(
            &html,
            "<script id=\"marque-shop\" type=\"application/json\">",
            "</script>",
        ))
        .expect("JSON");
        assert_eq!(embedded, api, "{path}");
    }
    let keys: Vec<&str> = api.as_object().expect("object").keys().map(String::as_str).collect();
    let mut expected = vec![
        "name", "legalName", "address", "gstin", "state", "stateCode", "supportEmail", "supportPhone",
        "enquiryPhone", "chatNumber", "grievanceOfficer", "payment",
    ];
    let mut keys = keys;
    keys.sort_unstable();
    expected.sort_unstable();
    assert_eq!(keys, expected);
    let officer: Vec<&String> = api["grievanceOfficer"].as_object().expect("object").keys().collect();
    assert_eq!(officer, ["email", "name", "phone"]);
    assert_eq!(api["name"], "Marque Parts");
    assert_eq!(api["stateCode"], "07");
    assert!(api["gstin"].as_str().is_some_and(|g| g.starts_with("07")));
}

#[tokio::test]
async fn a_configured_identity_is_published_and_no_chat_number_is_null() {
    let shop = spawn_with(|c| {
        c.shop_name = "Spares Mumbai".into();
        c.identity.gstin = Some("27AAPFU0939F1ZV".into());
        c.identity.state = Some("Maharashtra".into());
        c.identity.chat_number = Some(String::new());
    })
    .await;
    let (_, api) = shop.get_json("/api/get/shop").await;
    assert_eq!(api["name"], "Spares Mumbai");
    assert_eq!(api["gstin"], "27AAPFU0939F1ZV");
    assert_eq!(api["stateCode"], "27");
    assert!(api["chatNumber"].is_null());
    let (_, html) = page(&shop, "/about").await;
    assert_eq!(between(&html, "<title>", "</title>"), "About us - Spares Mumbai");
}

#[tokio::test]
async fn account_pages_are_titled_crawlable_and_never_canonicalise_the_token() {
    let shop = spawn_shop().await;
    for (path, title, canonical, noindex) in [
        ("/login", "Login - Marque Parts", "/login", false),
        ("/login/success?token=secret-session-token", "Login - Marque Parts", "/login/success", true),
        ("/login/failure", "Login - Marque Parts", "/login/failure", true),
        ("/profile", "Profile - Marque Parts", "/profile", false),
        ("/wishlist", "Wishlist - Marque Parts", "/wishlist", false),
        ("/orderhistory?page=2", "Purchase History - Marque Parts", "/orderhistory", false),
        ("/orderhistory/render_invoice?orderId=o1", "Invoice - Marque Parts", "/orderhistory/render_invoice", false),
        ("/address", "Delivery address - Marque Parts", "/address", false),
        ("/review", "Review your order - Marque Parts", "/review", false),
    ] {
        let (status, html) = page(&shop, path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(between(&html, "<title>", "</title>"), title, "{path}");
        assert_eq!(html.contains("<meta name=\"robots\" content=\"noindex\">"), noindex, "{path}: noindex");
        assert!(html.contains(&format!("<link rel=\"canonical\" href=\"{}{canonical}\">", shop.base)), "{path}: {html}");
        assert!(!html.contains("secret-session-token"), "{path}: the token stays out of the page");
    }
}

#[tokio::test]
async fn the_sign_in_landing_sends_no_referrer() {
    let shop = spawn_shop().await;
    let landing = shop.get("/login/success?token=secret-session-token").await;
    assert_eq!(landing.headers()["referrer-policy"], "no-referrer");
    let home = shop.get("/").await;
    assert_eq!(home.headers()["referrer-policy"], "strict-origin-when-cross-origin");
}

#[tokio::test]
async fn the_client_validation_value_reaches_the_page_escaped() {
    let shop = spawn_with(|c| c.client_validation = Some("v<1>\"&".parse().expect("infallible"))).await;
    let (_, html) = page(&shop, "/").await;
    assert!(html.contains("<meta name=\"marque-client-validation\" content=\"v&lt;1&gt;&quot;&amp;\">"), "{html}");
    let plain = spawn_shop().await;
    let (_, html) = page(&plain, "/").await;
    assert!(!html.contains("marque-client-validation"), "no meta without a value");
}

/// The JSON of `<script id="{id}" type="application/json">` in a page.
fn embedded(html: &str, id: &str) -> serde_json::Value {
    let text = between(html, &format!("<script id=\"{id}\" type=\"application/json\">"), "</script>");
    serde_json::from_str(&text.replace("\\u003c", "<")).expect("embedded JSON")
}

#[tokio::test]
async fn a_catalog_page_embeds_the_apis_own_answers_to_its_first_calls_and_hints_its_remote() {
    let web = tempfile::tempdir().expect("temp dir");
    let dist = web.path().join("catalog/dist");
    std::fs::create_dir_all(&dist).expect("mkdir");
    let manifest = r#"{ "metaData": { "remoteEntry": { "name": "remoteEntry.js", "path": "" } },
        "exposes": [{ "name": "Product", "assets": { "js": { "sync": ["7.0123abcd.js", "__federation_expose_Product.89abcdef.js"], "async": ["i18n-hi.1.js"] } } }] }"#;
    std::fs::write(dist.join("mf-manifest.json"), manifest).expect("write");
    let web_dir = web.path().to_path_buf();
    let shop = spawn_with(move |c| c.web_dir = web_dir).await;
    let (_, first) = shop.get_json("/api/get/new-products").await;
    let id = first["data"][0]["_id"].as_str().expect("a product").to_owned();

    let (status, html) = page(&shop, &format!("/product?productId={id}")).await;
    assert_eq!(status, 200);
    let (_, api_answer) = shop.get_json(&format!("/api/get/productById/{id}")).await;
    assert_eq!(
        embedded(&html, "marque-data"),
        serde_json::json!([{ "path": format!("/api/get/productById/{id}"), "query": {}, "body": api_answer }])
    );
    assert_eq!(embedded(&html, "marque-composition")["catalog"], "/remotes/catalog/mf-manifest.json");
    for hint in [
        "<link rel=\"preload\" as=\"fetch\" crossorigin href=\"/remotes/catalog/mf-manifest.json\">",
        "<link rel=\"preload\" as=\"script\" href=\"/remotes/catalog/remoteEntry.js\">",
        "<link rel=\"preload\" as=\"script\" href=\"/remotes/catalog/__federation_expose_Product.89abcdef.js\">",
    ] {
        assert!(html.contains(hint), "{hint} in {html}");
    }
    assert!(!html.contains("i18n-hi"), "a chunk loaded later is not hinted");

    // A listing embeds its three calls with the page's filters; a refused filter's answer (400) is left out.
    let category = seed::categories().into_iter().next().expect("a demo category").slug;
    let (_, html) = page(&shop, &format!("/category/{category}?oem=bmw&page=1")).await;
    let data = embedded(&html, "marque-data");
    let paths: Vec<&str> = data.as_array().expect("list").iter().map(|a| a["path"].as_str().expect("path")).collect();
    let products = format!("/api/get/product/{category}");
    assert_eq!(paths, ["/api/get/category", "/api/get/brand/oem", products.as_str()]);
    assert_eq!(data[2]["query"], serde_json::json!({ "page": "1", "oem": "bmw" }));
    let (_, html) = page(&shop, &format!("/category/{category}?product_type=used")).await;
    assert_eq!(embedded(&html, "marque-data").as_array().map(Vec::len), Some(2));

    // Pages of the signed-in customer embed nothing of the API.
    let (_, html) = page(&shop, "/wishlist").await;
    assert!(!html.contains("marque-data"));
}
