//! Products' photographs through the back office, black-box: a catalog staff member uploads three
//! photographs (several files in one form), puts them in another order and removes one; the
//! storefront's product answer shows them with their variants, and their files are served for a
//! year. A fulfilment token is refused (403) before the body is read; a file that is not a picture
//! is a 400 with the JSON error and stores nothing.

use std::io::Cursor;

use marque_domain::staff::StaffRole;
use reqwest::multipart::{Form, Part};
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers;
use helpers::customers::read;
use helpers::staff::{call, staff_token};
use helpers::TestShop;

/// A JPEG of `w` × `h` pixels with some detail.
fn jpeg(w: u32, h: u32) -> Vec<u8> {
    let img =
        image::RgbImage::from_fn(w, h, |x, y| image::Rgb([(x % 251) as u8, (y % 241) as u8, ((x + y) % 7 * 30) as u8]));
    let mut out = Vec::new();
    img.write_to(&mut Cursor::new(&mut out), image::ImageFormat::Jpeg).expect("encode a JPEG");
    out
}

async fn upload(shop: &TestShop, product: &str, token: &str, files: Vec<Vec<u8>>) -> (u16, Value) {
    let mut form = Form::new();
    for (i, bytes) in files.into_iter().enumerate() {
        form = form
            .part("photos", Part::bytes(bytes).file_name(format!("p{i}.jpg")).mime_str("image/jpeg").expect("mime"));
    }
    let request = shop
        .client
        .post(format!("{}/api/admin/products/{product}/photos", shop.base))
        .bearer_auth(token)
        .multipart(form);
    read(request.send().await.expect("the server answers")).await
}

async fn first_product(shop: &TestShop) -> String {
    let (status, body) = call(shop, Method::GET, "/api/get/new-products", None, None).await;
    assert_eq!(status, 200, "{body}");
    body["data"][0]["_id"].as_str().expect("a seeded product").to_owned()
}

fn names(images: &Value) -> Vec<String> {
    images.as_array().expect("images").iter().map(|i| i["name"].as_str().expect("a name").to_owned()).collect()
}

#[tokio::test]
async fn staff_upload_reorder_and_remove_photographs_and_shoppers_see_them_with_variants() {
    let (shop, app) = helpers::spawn_app_with(|_| {}).await;
    let product = first_product(&shop).await;
    let token = staff_token(&app, &shop, StaffRole::Catalog).await;
    let (_, before) = call(&shop, Method::GET, &format!("/api/get/productById/{product}"), None, None).await;
    let drawings = names(&before["data"]["images"]);

    let (status, body) = upload(&shop, &product, &token, vec![jpeg(1200, 900), jpeg(900, 1200), jpeg(500, 300)]).await;
    assert_eq!(status, 201, "{body}");
    let images = body["images"].as_array().expect("images").clone();
    assert_eq!(images.len(), drawings.len() + 3, "{body}");
    let photos: Vec<&Value> = images[drawings.len()..].iter().collect();
    assert_eq!((photos[0]["width"].as_u64(), photos[0]["height"].as_u64()), (Some(1200), Some(900)));
    assert_eq!((photos[1]["width"].as_u64(), photos[1]["height"].as_u64()), (Some(900), Some(1200)));
    let widths = |p: &Value, format: &str| -> Vec<u64> {
        p["variants"]
            .as_array()
            .expect("variants")
            .iter()
            .filter(|v| v["format"] == format)
            .map(|v| v["width"].as_u64().expect("a width"))
            .collect()
    };
    assert_eq!(widths(photos[0], "webp"), vec![320, 640, 1024, 1200]);
    assert_eq!(widths(photos[0], "jpeg"), vec![320, 640, 1024, 1200]);
    assert_eq!(widths(photos[2], "webp"), vec![320, 500], "never wider than the photograph");

    // Each variant is served, with its type and a year's caching.
    let variant = photos[0]["variants"][0]["name"].as_str().expect("a variant address");
    let served = shop.get(variant).await;
    assert_eq!(served.status(), 200, "{variant}");
    let header = |name: &str| served.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    assert_eq!(header("cache-control").as_deref(), Some("public, max-age=31536000, immutable"));
    assert!(header("content-type").is_some_and(|t| t.starts_with("image/")), "{:?}", header("content-type"));

    // Reorder: the last photograph first, then the drawings, then the other two.
    let mut order: Vec<String> = vec![photos[2]["name"].as_str().expect("name").to_owned()];
    order.extend(drawings.iter().cloned());
    order.extend([
        photos[0]["name"].as_str().expect("name").to_owned(),
        photos[1]["name"].as_str().expect("name").to_owned(),
    ]);
    let path = format!("/api/admin/products/{product}/photos/order");
    let (status, body) = call(&shop, Method::PUT, &path, Some(&token), Some(json!({ "names": order }))).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(names(&body["images"]), order);
    let (status, body) = call(&shop, Method::PUT, &path, Some(&token), Some(json!({ "names": order[..1] }))).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("photo.order_invalid")), "{body}");

    // Remove the second photograph; its files go.
    let removed_id = photos[0]["_id"].as_str().expect("an _id");
    let (status, body) =
        call(&shop, Method::DELETE, &format!("/api/admin/products/{product}/photos/{removed_id}"), Some(&token), None)
            .await;
    assert_eq!(status, 200, "{body}");
    order.retain(|n| n != photos[0]["name"].as_str().expect("name"));
    assert_eq!(names(&body["images"]), order);
    assert_eq!(shop.get(variant).await.status(), 404, "a removed photograph's files are deleted");
    let again = format!("/api/admin/products/{product}/photos/{removed_id}");
    let (status, body) = call(&shop, Method::DELETE, &again, Some(&token), None).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("photo.not_found")), "{body}");

    // The storefront's product answer follows (within a second: the catalog cache polls its version).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    let shown = loop {
        let (_, body) = call(&shop, Method::GET, &format!("/api/get/productById/{product}"), None, None).await;
        if names(&body["data"]["images"]) == order || std::time::Instant::now() > deadline {
            break body;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert_eq!(names(&shown["data"]["images"]), order, "{shown}");
    let first = &shown["data"]["images"][0];
    assert_eq!((first["width"].as_u64(), first["height"].as_u64()), (Some(500), Some(300)));
    assert_eq!(first["variants"].as_array().map(Vec::len), Some(4), "{first}");
    let drawing = &shown["data"]["images"][1];
    assert!(drawing.get("variants").is_none() && drawing.get("width").is_none(), "a drawing stays {{name}}: {drawing}");
}

#[tokio::test]
async fn a_fulfilment_token_is_refused_and_a_non_image_is_a_400_that_stores_nothing() {
    let (shop, app) = helpers::spawn_app_with(|_| {}).await;
    let product = first_product(&shop).await;
    let fulfilment = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let (status, body) = upload(&shop, &product, &fulfilment, vec![jpeg(64, 48)]).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("staff.forbidden")), "{body}");
    let path = format!("/api/admin/products/{product}/photos/order");
    let (status, body) = call(&shop, Method::PUT, &path, Some(&fulfilment), Some(json!({ "names": [] }))).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("staff.forbidden")), "{body}");
    let (status, body) = upload(&shop, &product, "not-a-token", vec![jpeg(64, 48)]).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("staff.login_required")), "{body}");

    let catalog = staff_token(&app, &shop, StaffRole::Catalog).await;
    let (_, before) = call(&shop, Method::GET, &format!("/api/get/productById/{product}"), None, None).await;
    let (status, body) = upload(&shop, &product, &catalog, vec![jpeg(64, 48), b"%PDF-1.7 a price list".to_vec()]).await;
    assert_eq!(
        (status, body["status"].as_str(), body["code"].as_str()),
        (400, Some("failed"), Some("photo.invalid")),
        "{body}"
    );
    assert!(body["message"].as_str().is_some_and(|m| m.contains("JPEG")), "{body}");
    let (_, after) = call(&shop, Method::GET, &format!("/api/get/productById/{product}"), None, None).await;
    assert_eq!(after["data"]["images"], before["data"]["images"], "nothing of the upload is kept");

    let (status, body) = upload(&shop, "no-such-product", &catalog, vec![jpeg(64, 48)]).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("admin.product_not_found")), "{body}");
}
