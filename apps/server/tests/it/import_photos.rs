//! Photographs in a catalog import (issue 23), as a catalog staff member and an attacker use them:
//! a zip whose names leave their folder and a zip bomb are refused whole at upload and queue
//! nothing; a name the zip lacks and an address on 127.0.0.1 refuse their rows (reported by line,
//! column, value and reason) and change nothing; a good zip and an address the test allowlist lets
//! through attach their photographs, in the order listed, seen on the storefront's product answer,
//! with the job's photograph counters, and a photograph that is not a picture is reported.

use std::io::{Cursor, Write as _};
use std::time::Duration;

use marque_domain::staff::StaffRole;
use marque_domain::Message;
use marque_ports::ImportJobs as _;
use reqwest::multipart::{Form, Part};
use reqwest::Method;
use serde_json::Value;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::helpers;
use helpers::customers::read;
use helpers::staff::{call, staff_token};
use helpers::{spawn_app_with, within, TestShop};

/// The worker's half-second turns, the rows, then the photographs (each decoded and encoded at
/// four widths in a debug build).
const WORKED: Duration = Duration::from_secs(60);

const HEADER: &str = "sku,name,price,quantity,category_slug,subcategory_slug,oem_slug,partNo,gst,photos\n";

fn row(sku: &str, photos: &str) -> String {
    format!("{sku},Imported {sku},1000,1,engine,oil-pump,bmw,{sku} 01,18,{photos}\n")
}

/// A JPEG or PNG of `w` × `h` pixels with some detail.
fn picture(w: u32, h: u32, format: image::ImageFormat) -> Vec<u8> {
    let img =
        image::RgbImage::from_fn(w, h, |x, y| image::Rgb([(x % 251) as u8, (y % 241) as u8, ((x + y) % 7 * 30) as u8]));
    let mut out = Vec::new();
    img.write_to(&mut Cursor::new(&mut out), format).expect("encode a picture");
    out
}

/// A zip of `entries` (deflated).
fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        zip.start_file(*name, options).expect("start");
        zip.write_all(bytes).expect("write");
    }
    zip.finish().expect("finish").into_inner()
}

async fn upload(shop: &TestShop, token: &str, csv: String, zip: Option<Vec<u8>>, mode: &str) -> (u16, Value) {
    let mut form = Form::new()
        .part("file", Part::bytes(csv.into_bytes()).file_name("parts.csv").mime_str("text/csv").expect("mime"))
        .text("mode", mode.to_owned());
    if let Some(zip) = zip {
        form = form.part("photos", Part::bytes(zip).file_name("photos.zip").mime_str("application/zip").expect("mime"));
    }
    let request = shop.client.post(format!("{}/api/admin/imports", shop.base)).multipart(form).bearer_auth(token);
    read(request.send().await.expect("the server answers")).await
}

/// Uploads and waits until the job and its photographs are over; the job as last read.
async fn imported(shop: &TestShop, token: &str, csv: String, zip: Option<Vec<u8>>, mode: &str) -> Value {
    let (status, queued) = upload(shop, token, csv, zip, mode).await;
    assert_eq!(status, 202, "{queued}");
    let id = queued["id"].as_str().expect("the job's id").to_owned();
    let mut job = Value::Null;
    within(WORKED, "the import and its photographs end", async || {
        let (status, body) = call(shop, Method::GET, &format!("/api/admin/imports/{id}"), Some(token), None).await;
        assert_eq!(status, 200, "{body}");
        job = body;
        let photos_over = job["photosDone"].as_u64().unwrap_or(0) + job["photosFailed"].as_u64().unwrap_or(0)
            >= job["photosTotal"].as_u64().unwrap_or(0);
        job["state"] != "queued" && job["state"] != "running" && photos_over
    })
    .await;
    assert_eq!(job["state"], "done", "{job}");
    job
}

/// The job's errors.csv, its header line left out, sorted.
async fn report(shop: &TestShop, token: &str, job: &Value) -> Vec<String> {
    let id = job["id"].as_str().expect("id");
    let file = crate::admin_imports::csv(shop, token, &format!("/api/admin/imports/{id}/errors.csv")).await;
    let text = String::from_utf8(file).expect("UTF-8");
    let mut lines: Vec<String> = text.lines().skip(1).map(str::to_owned).collect();
    lines.sort();
    lines
}

/// The product of `sku`, if stored.
async fn product_id(app: &marque_server::App, sku: &str) -> Option<String> {
    let found = app.database().import_jobs().products_by_sku(&[sku.to_owned()]).await.expect("reads");
    found.into_iter().next().map(|p| p.id.0)
}

/// A local server answering `/c.jpg` with a JPEG 480 pixels wide and `/page` with HTML.
async fn picture_server() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/c.jpg"))
        .respond_with(ResponseTemplate::new(200).insert_header("content-type", "image/jpeg").set_body_bytes(picture(
            480,
            200,
            image::ImageFormat::Jpeg,
        )))
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn a_zip_with_names_leaving_its_folder_or_a_zip_bomb_is_refused_whole_and_queues_nothing() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let token = staff_token(&app, &shop, StaffRole::Catalog).await;
    let jpeg = picture(64, 48, image::ImageFormat::Jpeg);
    let csv = || format!("{HEADER}{}", row("ZIP-BAD-1", "a.jpg"));

    for evil in ["../a.jpg", "dir/../../a.jpg", "/etc/a.jpg"] {
        let zip = zip_of(&[("a.jpg", &jpeg), (evil, &jpeg)]);
        let (status, body) = upload(&shop, &token, csv(), Some(zip), "apply").await;
        assert_eq!((status, body["code"].as_str()), (400, Some(Message::ImportZipUnsafePath.code())), "{evil}: {body}");
    }
    // 30 MB of zeros deflate to some tens of kilobytes.
    let zeros = vec![0u8; 30 * 1024 * 1024];
    let (status, body) = upload(&shop, &token, csv(), Some(zip_of(&[("a.jpg", &zeros)])), "apply").await;
    assert_eq!((status, body["code"].as_str()), (400, Some(Message::ImportZipBomb.code())), "{body}");
    let (status, body) = upload(&shop, &token, csv(), Some(b"not a zip at all".to_vec()), "apply").await;
    assert_eq!((status, body["code"].as_str()), (400, Some(Message::ImportZipInvalid.code())), "{body}");

    // Nothing was queued: the row's product never appears.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(product_id(&app, "ZIP-BAD-1").await, None);
}

#[tokio::test]
async fn a_name_the_zip_lacks_and_an_address_on_127_0_0_1_are_reported_and_change_nothing() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let token = staff_token(&app, &shop, StaffRole::Catalog).await;
    let server = picture_server().await;
    let local = format!("{}/c.jpg", server.uri());
    let local_https = local.replacen("http://", "https://", 1);
    let jpeg = picture(64, 48, image::ImageFormat::Jpeg);
    let csv = format!(
        "{HEADER}{}{}{}{}",
        row("PH-MISSING", "a.jpg|missing.jpg"),
        row("PH-LOCAL", &local),
        row("PH-LOCAL-TLS", &local_https),
        row("PH-NO-ZIP-NAME", "../a.jpg")
    );
    for mode in ["dry-run", "apply"] {
        let job = imported(&shop, &token, csv.clone(), Some(zip_of(&[("a.jpg", &jpeg)])), mode).await;
        assert_eq!((job["accepted"].as_u64(), job["rejected"].as_u64()), (Some(0), Some(4)), "{mode}: {job}");
        assert_eq!(job["photosTotal"], 0, "{job}");
        let lines = report(&shop, &token, &job).await;
        let expected = [
            format!("2,photos,missing.jpg,{},", Message::ImportPhotoNotInZip.code()),
            format!("3,photos,{local},{},", Message::ImportPhotoAddressRefused.code()),
            format!("4,photos,{local_https},{},", Message::ImportPhotoAddressRefused.code()),
            format!("5,photos,../a.jpg,{},", Message::ImportPhotoNameInvalid.code()),
        ];
        assert_eq!(lines.len(), expected.len(), "{lines:?}");
        for (line, start) in lines.iter().zip(&expected) {
            assert!(line.starts_with(start), "{line} should start with {start}");
        }
    }
    for sku in ["PH-MISSING", "PH-LOCAL", "PH-LOCAL-TLS", "PH-NO-ZIP-NAME"] {
        assert_eq!(product_id(&app, sku).await, None, "a refused row writes nothing: {sku}");
    }
    assert_eq!(server.received_requests().await.map(|r| r.len()), Some(0), "127.0.0.1 was never asked");

    // A file naming a photograph without any zip: the row is refused with its own reason.
    let job = imported(&shop, &token, format!("{HEADER}{}", row("PH-NO-ZIP", "a.jpg")), None, "apply").await;
    let lines = report(&shop, &token, &job).await;
    assert!(lines[0].starts_with(&format!("2,photos,a.jpg,{},", Message::ImportPhotosWithoutZip.code())), "{lines:?}");
    assert_eq!(product_id(&app, "PH-NO-ZIP").await, None);
}

#[tokio::test]
async fn a_good_zip_and_an_allowed_local_address_attach_photographs_in_order_on_the_storefront() {
    let server = picture_server().await;
    let (shop, app) = spawn_app_with(|f| f.test_photo_hosts = "127.0.0.1".to_owned()).await;
    let token = staff_token(&app, &shop, StaffRole::Catalog).await;
    let wide = picture(400, 100, image::ImageFormat::Png);
    let narrow = picture(240, 100, image::ImageFormat::Jpeg);
    let zip = zip_of(&[("shots/wide.png", &wide), ("narrow.jpg", &narrow), ("notes.txt", b"not a picture")]);
    let local = format!("{}/c.jpg", server.uri());
    let csv = format!(
        "{HEADER}{}{}",
        row("PH-GOOD", &format!("narrow.jpg|{local}|shots/wide.png")),
        row("PH-TEXT", "notes.txt|narrow.jpg")
    );

    let job = imported(&shop, &token, csv.clone(), Some(zip.clone()), "apply").await;
    assert_eq!((job["created"].as_u64(), job["rejected"].as_u64()), (Some(2), Some(0)), "{job}");
    assert_eq!(
        (job["photosTotal"].as_u64(), job["photosDone"].as_u64(), job["photosFailed"].as_u64()),
        (Some(5), Some(4), Some(1)),
        "{job}"
    );
    assert!(job["photosPerSecond"].as_u64().is_some(), "{job}");
    let lines = report(&shop, &token, &job).await;
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with(&format!("3,photos,notes.txt,{},", Message::PhotoInvalid.code())), "{lines:?}");

    // On the storefront, in the order listed: 240, 480 (fetched), 400 pixels wide.
    let id = product_id(&app, "PH-GOOD").await.expect("created");
    let mut widths = Vec::new();
    within(Duration::from_secs(10), "the storefront shows the photographs", async || {
        let (_, body) = call(&shop, Method::GET, &format!("/api/get/productById/{id}"), None, None).await;
        widths = body["data"]["images"]
            .as_array()
            .map(|images| images.iter().filter_map(|i| i["width"].as_u64()).collect())
            .unwrap_or_default();
        widths.len() == 3
    })
    .await;
    assert_eq!(widths, [240, 480, 400]);
    let text_row = product_id(&app, "PH-TEXT").await.expect("created");
    let (_, body) = call(&shop, Method::GET, &format!("/api/get/productById/{text_row}"), None, None).await;
    assert_eq!(body["data"]["images"].as_array().map(Vec::len), Some(1), "the picture after the refused file: {body}");
    assert_eq!(server.received_requests().await.map(|r| r.len()), Some(1), "fetched once");

    // The same file again: both products have photographs, so none is queued or fetched.
    let again = imported(&shop, &token, csv, Some(zip), "apply").await;
    assert_eq!(again["photosTotal"], 0, "{again}");
    assert_eq!(server.received_requests().await.map(|r| r.len()), Some(1));
}
