//! Storefront pages: the shell's HTML with each page's head, and the composition manifest.

use crate::helpers;

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
    let availability =
        if product.quantity >= 1 { "https://schema.org/InStock" } else { "https://schema.org/OutOfStock" };
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
    let shop = spawn_with(|c| c.remotes = "catalog=https://cdn.example/catalog/remoteEntry.js".into()).await;
    let (status, body) = shop.get_json("/composition.json").await;
    assert_eq!(status, 200);
    assert_eq!(body["catalog"], "https://cdn.example/catalog/remoteEntry.js");
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
    // Composed by its entry script (the manifest here is no manifest, so the usual name is assumed).
    assert_eq!(body["catalog"], "/remotes/catalog/remoteEntry.js");
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
        // The back office's record pages (`/admin/products/:id`): the page is the same shell for any id.
        "id" => seed::product(9).id.to_string(),
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
        let marked = route["noindex"] == true;
        assert_eq!(
            html.contains("noindex"),
            landing || marked,
            "{path}: only the sign-in landings and the routes the table marks are noindex"
        );
    }
    for path in ["/nope", "/about/more", "/brand", "/review/more", "/orderhistory/other"] {
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
        let embedded: serde_json::Value =
            serde_json::from_str(between(&html, "<script id=\"marque-shop\" type=\"application/json\">", "</script>"))
                .expect("JSON");
        assert_eq!(embedded, api, "{path}");
    }
    let keys: Vec<&str> = api.as_object().expect("object").keys().map(String::as_str).collect();
    let mut expected = vec![
        "name",
        "legalName",
        "address",
        "gstin",
        "state",
        "stateCode",
        "supportEmail",
        "supportPhone",
        "enquiryPhone",
        "chatNumber",
        "grievanceOfficer",
        "payment",
        "signIn",
    ];
    let mut keys = keys;
    keys.sort_unstable();
    expected.sort_unstable();
    assert_eq!(keys, expected);
    let officer: Vec<&String> = api["grievanceOfficer"].as_object().expect("object").keys().collect();
    assert_eq!(officer, ["email", "name", "phone"]);
    assert_eq!(api["name"], "Marque Parts");
    assert_eq!(
        api["signIn"],
        serde_json::json!({ "provider": "google", "start": "/api/google" }),
        "dev offers the stand-in"
    );
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
async fn admin_pages_are_the_shell_kept_out_of_search_indexes() {
    let shop = spawn_shop().await;
    for (path, canonical) in [
        ("/admin", "/admin"),
        ("/admin/login", "/admin/login"),
        ("/admin/setup?code=one-time-setup-code", "/admin/setup"),
        ("/admin/products/new", "/admin/products/new"),
        ("/admin/products/p-123/", "/admin/products/p-123"),
        ("/admin/customers/c-1", "/admin/customers/c-1"),
        ("/admin/audit", "/admin/audit"),
    ] {
        let (status, html) = page(&shop, path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(between(&html, "<title>", "</title>"), "Admin - Marque Parts", "{path}");
        assert!(html.contains("<meta name=\"robots\" content=\"noindex\">"), "{path}: noindex");
        assert!(html.contains("id=\"marque-composition\""), "{path}: the shell composes the admin remote");
        assert!(
            html.contains(&format!("<link rel=\"canonical\" href=\"{}{canonical}\">", shop.base)),
            "{path}: {html}"
        );
        assert!(!html.contains("one-time-setup-code"), "{path}: the set-up code stays out of the page");
    }
    for path in ["/admin/nope", "/admin/products/p-1/more"] {
        let (status, _) = page(&shop, path).await;
        assert_eq!(status, 404, "{path} is not in the route table");
    }
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
        // A page load of the review is one of the address step (see `contract/routes.json`).
        ("/review", "Delivery address - Marque Parts", "/address", false),
    ] {
        let (status, html) = page(&shop, path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(between(&html, "<title>", "</title>"), title, "{path}");
        assert_eq!(html.contains("<meta name=\"robots\" content=\"noindex\">"), noindex, "{path}: noindex");
        assert!(
            html.contains(&format!("<link rel=\"canonical\" href=\"{}{canonical}\">", shop.base)),
            "{path}: {html}"
        );
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
    let shop = spawn_with(|c| c.client_validation = Some("v<1>\"&".into())).await;
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
    assert_eq!(embedded(&html, "marque-composition")["catalog"], "/remotes/catalog/remoteEntry.js");
    assert!(!html.contains("mf-manifest.json"), "the page fetches no manifest: {html}");
    let picture = api_answer["data"]["images"][0]["name"].as_str().expect("the product has a picture");
    let picture_hint = format!("<link rel=\"preload\" as=\"image\" fetchpriority=\"high\" href=\"{picture}\">");
    assert!(html.contains(&picture_hint), "{picture_hint} in {html}");
    for hint in [
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

    // The order review lives only in the tab: a page load of it is a page load of the address step, so the
    // page is prepared as that one (the shell changes the address before its first render).
    let (status, html) = page(&shop, "/review").await;
    assert_eq!(status, 200);
    let (_, address) = page(&shop, "/address").await;
    assert!(html.contains("<title>Delivery address"), "{html}");
    assert!(html.contains("/address\">"), "canonical /address: {html}");
    assert_eq!(html.len(), address.len(), "the same page as /address");

    // Pages of the signed-in customer embed nothing of the API.
    let (_, html) = page(&shop, "/wishlist").await;
    assert!(!html.contains("marque-data"));
}

/// A page asked with `cookie` (the browser's `Cookie` header): its status, `Cache-Control` and HTML.
async fn page_with_cookie(shop: &helpers::TestShop, path: &str, cookie: &str) -> (u16, String, String) {
    let resp = shop.client.get(format!("{}{path}", shop.base)).header("cookie", cookie).send().await.expect("answers");
    let cache = resp.headers().get("cache-control").map(|v| v.to_str().expect("ascii").to_owned()).unwrap_or_default();
    (resp.status().as_u16(), cache, resp.text().await.expect("html"))
}

/// What the page publishes of the token its customer answers were asked with (`token_tag` in `apps/storefront/src/signed_in.rs`).
fn tag_of(token: &str) -> String {
    use sha2::Digest as _;
    hex::encode(&sha2::Sha256::digest(format!("marque-page:{token}").as_bytes())[..16])
}

/// The signed-in customer's first answers: with the session cookie a page embeds the API's own answers, asked with
/// that token (the user on every page, the wishlist the session loads at start, the purchase history's page of
/// orders), never another customer's, and is sent `private, no-store`; a cookie that opens no session embeds nothing.
#[tokio::test]
async fn a_page_asked_with_the_session_cookie_embeds_that_customers_first_answers_only() {
    use helpers::customers::{authed, customer, get_auth};
    let shop = spawn_shop().await;
    let (asha, asha_id) = customer(&shop, "asha@example.in", "9876500001").await;
    let (ravi, ravi_id) = customer(&shop, "ravi@example.in", "9876500002").await;
    for (token, product) in [(&asha, "p000001"), (&ravi, "p000002")] {
        let resp = authed(&shop, reqwest::Method::POST, "/api/add/wishlist", token).await;
        let resp = resp.json(&serde_json::json!({ "_id": product })).send().await.expect("answers");
        assert_eq!(resp.status().as_u16(), 200);
    }
    let (_, asha_user) = get_auth(&shop, "/api/user", &asha).await;
    let (_, asha_wishlist) = get_auth(&shop, &format!("/api/get/wishlist/?user={asha_id}"), &asha).await;
    let (_, asha_orders) = get_auth(&shop, &format!("/api/get/orderhistory/{asha_id}?page=2"), &asha).await;
    assert_eq!(asha_wishlist["result"][0]["_id"], "p000001");
    let user = serde_json::json!({ "path": "/api/user", "query": {}, "body": asha_user });
    let wishlist =
        serde_json::json!({ "path": "/api/get/wishlist/", "query": { "user": asha_id }, "body": asha_wishlist });

    // The wishlist page (and every page): the user and the start wishlist, other cookies beside it ignored.
    let (status, cache, html) = page_with_cookie(&shop, "/wishlist", &format!("lang=hi; marque_session={asha}")).await;
    assert_eq!((status, cache.as_str()), (200, "private, no-store"));
    let data = embedded(&html, "marque-session-data");
    assert_eq!(data, serde_json::json!({ "for": tag_of(&asha), "answers": [user.clone(), wishlist.clone()] }));
    assert!(!html.contains(&asha), "the token itself is never written into the page");
    // Its largest paint, the first card's picture, is fetched at once.
    let picture = asha_wishlist["result"][0]["image"].as_str().expect("the product has a picture");
    let hint = format!("<link rel=\"preload\" as=\"image\" fetchpriority=\"high\" href=\"{picture}\">");
    assert!(html.contains(&hint), "{hint} in {html}");
    for other in [ravi_id.as_str(), "ravi@example.in", "p000002", &ravi, &tag_of(&ravi)] {
        assert!(!html.contains(other), "another customer's {other} in {html}");
    }
    // A catalog page keeps its own answers beside the customer's.
    let (_, cache, html) = page_with_cookie(&shop, "/", &format!("marque_session={asha}")).await;
    assert_eq!(cache, "private, no-store");
    assert!(html.contains("<script id=\"marque-data\""));
    assert_eq!(embedded(&html, "marque-session-data")["answers"], serde_json::json!([user, wishlist]));
    // The purchase history also gets the page of orders it asks first, with the address's page.
    let (_, _, html) = page_with_cookie(&shop, "/orderhistory?page=2", &format!("marque_session={asha}")).await;
    let answers = embedded(&html, "marque-session-data")["answers"].clone();
    assert_eq!(answers.as_array().map(Vec::len), Some(3));
    assert_eq!(
        answers[2],
        serde_json::json!({ "path": format!("/api/get/orderhistory/{asha_id}"), "query": { "page": "2" }, "body": asha_orders })
    );

    // The other customer's cookie: their answers, none of Asha's.
    let (_, _, html) = page_with_cookie(&shop, "/wishlist", &format!("marque_session={ravi}")).await;
    let data = embedded(&html, "marque-session-data");
    assert_eq!(
        (data["for"].as_str(), &data["answers"][0]["body"]["user"]["_id"]),
        (Some(tag_of(&ravi).as_str()), &serde_json::json!(ravi_id))
    );
    assert_eq!(data["answers"][1]["body"]["result"][0]["_id"], "p000002");
    for other in [asha_id.as_str(), "asha@example.in", "p000001"] {
        assert!(!html.contains(other), "another customer's {other} in {html}");
    }

    // No cookie, a made-up token, a malformed one, a signed-out session: the visitor's page, revalidated as before.
    let resp = authed(&shop, reqwest::Method::DELETE, "/api/logout", &asha).await.send().await.expect("answers");
    assert_eq!(resp.status().as_u16(), 200);
    for cookie in [
        "",
        "marque_session=made-up-token",
        "marque_session=<script>",
        &format!("marque_session={asha}"),
        &format!("session={ravi}"),
    ] {
        let (status, cache, html) = page_with_cookie(&shop, "/wishlist", cookie).await;
        assert_eq!((status, cache.as_str()), (200, "no-cache"), "{cookie}");
        assert!(!html.contains("marque-session-data"), "{cookie}: {html}");
    }
    // The cookie is no credential of the API: a call carrying only it is a visitor's.
    let resp = shop
        .client
        .get(format!("{}/api/user", shop.base))
        .header("cookie", format!("marque_session={ravi}"))
        .send()
        .await;
    assert_eq!(resp.expect("answers").status().as_u16(), 401);
}

/// With a client validation value configured, the in-process calls carry it, as the frontends' calls do.
#[tokio::test]
async fn the_customers_answers_are_asked_with_the_client_validation_value() {
    use helpers::customers::{code_for, form, post, register};
    let shop = spawn_with(|c| c.client_validation = Some("client-7".into())).await;
    let (status, body) = register(&shop, form("Asha", "asha@example.in", "9876500001")).await;
    assert_eq!(status, 200, "{body}");
    let code = code_for(&shop, "9876500001").await;
    let (status, body) = post(&shop, "/api/verify", serde_json::json!({ "mobile": "9876500001", "otp": code })).await;
    assert_eq!(status, 200, "{body}");
    let token = body["token"].as_str().expect("token");
    let (_, cache, html) = page_with_cookie(&shop, "/address", &format!("marque_session={token}")).await;
    assert_eq!(cache, "private, no-store");
    let answers = embedded(&html, "marque-session-data")["answers"].clone();
    assert_eq!(answers[0]["body"]["user"]["email"], "asha@example.in");
}

/// A web folder with a shell and one remote (`catalog`): the folder, the shell's `dist` and the remote's.
fn web_dir_with_a_remote() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let web = tempfile::tempdir().expect("temp dir");
    let remote = web.path().join("catalog/dist");
    let shell = web.path().join("shell/dist");
    std::fs::create_dir_all(&remote).expect("mkdir");
    std::fs::create_dir_all(&shell).expect("mkdir");
    std::fs::write(remote.join("mf-manifest.json"), "{}").expect("write");
    (web, shell, remote)
}

/// Content-hashed files (the shell's and the remotes') are served from memory, in the encoding the
/// browser takes (brotli, gzip, or as stored), revalidate with their tag, and stay the file's bytes.
#[tokio::test]
async fn hashed_files_are_served_encoded_from_memory() {
    use std::io::Read as _;
    let (web, shell, remote) = web_dir_with_a_remote();
    let script: String = (0..200).map(|i| format!("export const part{i} = \"brake disc {i}\";\n")).collect();
    std::fs::write(remote.join("7.0123abcd.js"), &script).expect("write");
    std::fs::write(shell.join("main.89abcdef.css"), "body { color: black; }\n".repeat(40)).expect("write");
    std::fs::write(shell.join("logo.89abcdef.png"), [0x89u8, b'P', b'N', b'G', 0, 1, 2, 3]).expect("write");
    let web_dir = web.path().to_path_buf();
    let shop = spawn_with(move |c| c.web_dir = web_dir).await;
    let get = async |path: &str, accept: &str| {
        let resp = shop
            .client
            .get(format!("{}{path}", shop.base))
            .header("accept-encoding", accept)
            .send()
            .await
            .expect("answers");
        let header = |name: &str| resp.headers().get(name).map(|v| v.to_str().expect("ascii").to_owned());
        let (status, encoding, tag, cache) =
            (resp.status().as_u16(), header("content-encoding"), header("etag"), header("cache-control"));
        (status, encoding, tag, cache, resp.bytes().await.expect("body").to_vec())
    };

    let path = "/remotes/catalog/7.0123abcd.js";
    let (status, encoding, tag, cache, plain) = get(path, "identity").await;
    assert_eq!((status, encoding), (200, None));
    assert_eq!(plain, script.as_bytes());
    // Asked again, it is given before the routes are matched: the same answer.
    let again = get(path, "identity").await;
    assert_eq!((again.0, &again.1, &again.2, &again.3, &again.4), (status, &None, &tag, &cache, &plain));
    assert_eq!(cache.as_deref(), Some("public, max-age=31536000, immutable"));
    let (_, encoding, br_tag, _, body) = get(path, "gzip, deflate, br").await;
    assert_eq!(encoding.as_deref(), Some("br"));
    assert!(body.len() < script.len() / 2, "compressed: {} of {} bytes", body.len(), script.len());
    let mut decoded = Vec::new();
    brotli::Decompressor::new(body.as_slice(), 4096).read_to_end(&mut decoded).expect("brotli");
    assert_eq!(decoded, script.as_bytes());
    assert_eq!(br_tag, tag, "one tag for every encoding (weak)");
    let (_, encoding, _, _, body) = get(path, "gzip").await;
    assert_eq!(encoding.as_deref(), Some("gzip"));
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(body.as_slice()).read_to_end(&mut decoded).expect("gzip");
    assert_eq!(decoded, script.as_bytes());

    assert_eq!(shop.revalidate(path, &tag.expect("a tag")).await, 304);

    let (status, encoding, _, cache, body) = get("/main.89abcdef.css", "gzip").await;
    assert_eq!(
        (status, encoding.as_deref(), cache.as_deref()),
        (200, Some("gzip"), Some("public, max-age=31536000, immutable"))
    );
    assert!(!body.is_empty());
    let (status, encoding, _, _, body) = get("/logo.89abcdef.png", "gzip, br").await;
    assert_eq!((status, encoding), (200, None), "images go out as stored");
    assert_eq!(body, [0x89u8, b'P', b'N', b'G', 0, 1, 2, 3]);
    let (status, _, _, _, _) = get("/remotes/catalog/9.fedcba98.js", "gzip").await;
    assert_eq!(status, 404, "a hashed name no file has");
}

/// Entry files (`main.js`, `remoteEntry.js`) are held too, at the best compression, but revalidate
/// (`no-cache`) and show a rebuild at once.
#[tokio::test]
async fn entry_files_are_held_compressed_and_follow_a_rebuild() {
    use std::io::Read as _;
    let (web, shell, remote) = web_dir_with_a_remote();
    let build = |n: usize| -> String {
        (0..200).map(|i| format!("export const part{i} = \"build {n} brake disc {i}\";\n")).collect()
    };
    std::fs::write(shell.join("main.js"), build(1)).expect("write");
    std::fs::write(remote.join("remoteEntry.js"), build(1)).expect("write");
    let web_dir = web.path().to_path_buf();
    let shop = spawn_with(move |c| c.web_dir = web_dir).await;
    let get = async |path: &str| {
        let resp = shop
            .client
            .get(format!("{}{path}", shop.base))
            .header("accept-encoding", "gzip, br")
            .send()
            .await
            .expect("answers");
        let header = |name: &str| resp.headers().get(name).map(|v| v.to_str().expect("ascii").to_owned());
        let (status, encoding, cache) = (resp.status().as_u16(), header("content-encoding"), header("cache-control"));
        let mut decoded = String::new();
        let body = resp.bytes().await.expect("body").to_vec();
        assert_eq!(encoding.as_deref(), Some("br"), "{path}");
        brotli::Decompressor::new(body.as_slice(), 4096).read_to_string(&mut decoded).expect("brotli");
        (status, cache, decoded)
    };
    for (path, file) in
        [("/main.js", shell.join("main.js")), ("/remotes/catalog/remoteEntry.js", remote.join("remoteEntry.js"))]
    {
        assert_eq!(get(path).await, (200, Some("no-cache".to_owned()), build(1)), "{path}");
        assert_eq!(get(path).await.2, build(1), "{path}, again");
        std::fs::write(&file, build(22)).expect("rebuild");
        assert_eq!(get(path).await, (200, Some("no-cache".to_owned()), build(22)), "{path} after a rebuild");
    }
}
