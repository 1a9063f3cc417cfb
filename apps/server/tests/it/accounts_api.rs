//! Black-box tests of the account and wishlist API: the real server over HTTP, codes read
//! from the development outbox.

use crate::helpers;

use std::io::Cursor;

use helpers::customers::{authed, code_for, customer, form, get_auth, post, read, register, PASSWORD};
use helpers::google;
use helpers::{location, no_redirects, query_value, spawn_shop, spawn_with, TestShop};
use marque_server::seed;
use marque_server::settings::flags::{GatewayFlags, IdentityFlags, PaymentFlags, S3Flags};
use marque_server::settings::{BlobsMode, Environment, SmtpSecurityMode};
use marque_server::{Flags, Settings};
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};

fn png(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, _| image::Rgb([u8::try_from(x % 256).unwrap_or(0), 40, 200]));
    let mut out = Vec::new();
    img.write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png).expect("encode");
    out
}

fn wrong_code(code: &str) -> String {
    if code == "000000" {
        "111111".into()
    } else {
        "000000".into()
    }
}

#[tokio::test]
async fn sign_up_then_the_code_from_the_outbox_logs_in() {
    let shop = spawn_shop().await;
    let (status, body) = register(&shop, form("Asha", "Asha@Example.in", "9876543210")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["status"].as_str(), body["email"].as_str(), body["mobile"].as_str()),
        (Some("success"), Some("asha@example.in"), Some("9876543210"))
    );
    let (_, outbox) = shop.get_json("/api/dev/outbox").await;
    let channels: Vec<(&str, &str)> = outbox
        .as_array()
        .expect("list")
        .iter()
        .map(|m| (m["channel"].as_str().unwrap_or(""), m["recipient"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(channels, vec![("email", "asha@example.in"), ("sms", "9876543210")], "newest first");
    assert!(outbox[0]["time"].as_i64().is_some());

    let code = code_for(&shop, "9876543210").await;
    let (status, body) = post(&shop, "/api/verify", json!({ "mobile": "9876543210", "otp": code })).await;
    assert_eq!((status, body["status"].as_str(), body["message"].as_str()), (200, Some("success"), Some("success")));
    let token = body["token"].as_str().expect("token");
    for path in ["/api/user", "/api/auth/user"] {
        let (status, me) = get_auth(&shop, path, token).await;
        assert_eq!(status, 200, "{path}: {me}");
        let user = &me["user"];
        assert_eq!(
            (user["name"].as_str(), user["email"].as_str(), user["mobile"].as_str()),
            (Some("Asha"), Some("asha@example.in"), Some("9876543210"))
        );
        assert_eq!(
            (
                user["googleEmail"].as_str(),
                user["profile"].as_str(),
                user["offerExp"].as_i64(),
                user["percentage"].as_i64()
            ),
            (Some(""), Some(""), Some(0), Some(0))
        );
        assert_eq!(
            (user["mobileVerified"].as_bool(), user["emailVerified"].as_bool()),
            (Some(true), Some(false)),
            "the SMS code proved the mobile only"
        );
        assert_eq!(user["address"], json!([]));
        assert!(user["_id"].as_str().is_some_and(|id| !id.is_empty()));
        assert!(user.get("password_hash").is_none() && user.get("password").is_none());
    }
}

/// Signs up with a 640×480 picture and verifies by email: the token, the customer's id and
/// the picture's address.
async fn customer_with_picture(shop: &TestShop) -> (String, String, String) {
    let _decoding = helpers::DECODING.read().await;
    let picture = Part::bytes(png(640, 480)).file_name("me.png").mime_str("image/png").expect("mime");
    let (status, body) = register(shop, form("Asha", "asha@example.in", "9876543210").part("profile", picture)).await;
    assert_eq!(status, 200, "{body}");
    let code = code_for(shop, "9876543210").await;
    let (_, body) =
        post(shop, "/api/verify", json!({ "email": "asha@example.in", "mobile": "9876543210", "otp": code })).await;
    let token = body["token"].as_str().expect("token").to_owned();
    let (_, me) = get_auth(shop, "/api/user", &token).await;
    let profile = me["user"]["profile"].as_str().expect("profile").to_owned();
    (token, me["user"]["_id"].as_str().expect("id").to_owned(), profile)
}

#[tokio::test]
async fn a_picture_becomes_a_256_pixel_png_served_with_a_long_cache() {
    let shop = spawn_shop().await;
    let (token, id, profile) = customer_with_picture(&shop).await;
    let id = id.as_str();
    assert!(profile.starts_with(&format!("/media/avatars/{id}-")) && profile.ends_with(".png"), "{profile}");
    let resp = shop.get(&profile).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "image/png");
    assert!(resp.headers()["cache-control"].to_str().expect("ascii").contains("max-age=31536000"));
    let img = image::load_from_memory(&resp.bytes().await.expect("bytes")).expect("a picture");
    assert_eq!((img.width(), img.height()), (256, 256));

    // A new picture on the profile page replaces it.
    let _decoding = helpers::DECODING.read().await;
    let form = Form::new().text("name", "Asha Rao").part("profile", Part::bytes(png(300, 900)).file_name("b.png"));
    let resp = authed(&shop, reqwest::Method::PATCH, &format!("/api/update/user/{id}"), &token)
        .await
        .multipart(form)
        .send()
        .await
        .expect("answer");
    let (status, body) = read(resp).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["user"]["name"], "Asha Rao");
    assert_ne!(body["user"]["profile"].as_str(), Some(profile.as_str()));
    assert_eq!(shop.get(&profile).await.status(), 404, "the replaced picture is gone");
}

#[tokio::test]
async fn a_text_file_posing_as_a_picture_and_an_oversized_upload_are_refused_and_nothing_is_stored() {
    let data = tempfile::tempdir().expect("temporary directory");
    let dir = data.path().to_owned();
    let shop = spawn_with(move |c| c.data_dir = dir).await;
    let fake =
        Part::bytes(b"hello, I am not a picture".to_vec()).file_name("me.png").mime_str("image/png").expect("mime");
    let (status, body) = register(&shop, form("Asha", "asha@example.in", "9876543210").part("profile", fake)).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["message"], "Please choose an image file (JPEG, PNG or WebP) up to 5 MB.");
    assert_eq!(body["code"], "avatar.invalid");

    let mut big = png(10, 10);
    big.resize(5 * 1024 * 1024 + 10, 0);
    let (status, body) = register(
        &shop,
        form("Asha", "asha@example.in", "9876543210").part("profile", Part::bytes(big).file_name("big.png")),
    )
    .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("avatar.invalid")), "{body}");

    let blobs = data.path().join("blobs");
    let stored = std::fs::read_dir(blobs.join("avatars")).map(|d| d.count()).unwrap_or(0);
    assert_eq!(stored, 0, "no picture stored");
    let (_, outbox) = shop.get_json("/api/dev/outbox").await;
    assert_eq!(outbox, json!([]), "no account, no code");
    let (status, _) = register(&shop, form("Asha", "asha@example.in", "9876543210")).await;
    assert_eq!(status, 200, "the refused sign-ups stored nothing");
}

#[tokio::test]
async fn bad_fields_duplicates_and_unknown_numbers() {
    let shop = spawn_shop().await;
    let (status, body) = register(
        &shop,
        Form::new()
            .text("name", "Asha")
            .text("email", "asha@example.in")
            .text("password", "short")
            .text("mobile", "9876543210"),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["message"], "Password must include atleast a number, a special character and 8-16 characters.");
    assert_eq!(body["code"], "password.rule");

    customer(&shop, "asha@example.in", "9876543210").await;
    let (status, body) = register(&shop, form("Ravi", "ASHA@example.in", "9123456780")).await;
    assert_eq!((status, body["message"].as_str()), (409, Some("An account with this email already exists")));
    let (status, body) = register(&shop, form("Ravi", "ravi@example.in", "9876543210")).await;
    assert_eq!((status, body["message"].as_str()), (409, Some("An account with this mobile number already exists")));
    assert_eq!(body["status"], "failed");
    assert_eq!(body["code"], "account.mobile_taken");

    let (status, body) = post(&shop, "/api/mobile/login", json!({ "mobile": "9000000000" })).await;
    assert_eq!((status, body["message"].as_str()), (404, Some("No account with this mobile number")));
    let (status, body) = post(&shop, "/api/mobile/login", json!({ "mobile": "98" })).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("mobile.too_short")));
}

#[tokio::test]
async fn email_login_of_an_unverified_account_sends_a_code_then_logs_in() {
    let shop = spawn_shop().await;
    register(&shop, form("Asha", "asha@example.in", "9876543210")).await;
    let (status, body) = post(&shop, "/api/login", json!({ "email": "asha@example.in", "password": PASSWORD })).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("not verified")), "{body}");
    assert_eq!((body["email"].as_str(), body["mobile"].as_str()), (Some("asha@example.in"), Some("9876543210")));
    assert!(body.get("token").is_none());
    let code = code_for(&shop, "asha@example.in").await;
    let (status, _) = post(&shop, "/api/verify", json!({ "email": "Asha@example.in", "otp": code })).await;
    assert_eq!(status, 200);
    let (status, body) = post(&shop, "/api/login", json!({ "email": "asha@example.in", "password": PASSWORD })).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("success")), "{body}");
    let (status, _) = get_auth(&shop, "/api/user", body["token"].as_str().expect("token")).await;
    assert_eq!(status, 200);

    let (status, body) =
        post(&shop, "/api/login", json!({ "email": "asha@example.in", "password": "wrong1!xx" })).await;
    assert_eq!(
        (status, body["status"].as_str(), body["message"].as_str()),
        (401, Some("failed"), Some("Invalid email or password"))
    );
}

#[tokio::test]
async fn mobile_login_sends_a_code_that_logs_in() {
    let shop = spawn_shop().await;
    register(&shop, form("Ravi", "ravi@example.in", "9123456780")).await;
    let (status, body) = post(&shop, "/api/mobile/login", json!({ "mobile": "9123456780" })).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("account.mobile_unknown")),
        "an unproven mobile logs nobody in: {body}"
    );
    // The sign-up's SMS code proves the number (and is used up, so the login sends a new one).
    let code = code_for(&shop, "9123456780").await;
    assert_eq!(post(&shop, "/api/verify", json!({ "mobile": "9123456780", "otp": code })).await.0, 200);
    let (status, body) = post(&shop, "/api/mobile/login", json!({ "mobile": "9123456780" })).await;
    assert_eq!(
        (status, body["status"].as_str(), body["mobile"].as_str()),
        (200, Some("success"), Some("9123456780")),
        "{body}"
    );
    let code = code_for(&shop, "9123456780").await;
    let (status, body) = post(&shop, "/api/verify", json!({ "mobile": "9123456780", "otp": code })).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["token"].as_str().is_some_and(|t| t.len() >= 43));
}

#[tokio::test]
async fn wrong_codes_five_tries_and_expiry() {
    let shop = spawn_shop().await;
    register(&shop, form("Asha", "asha@example.in", "9876543210")).await;
    let code = code_for(&shop, "9876543210").await;
    let wrong = wrong_code(&code);
    let (status, body) = post(&shop, "/api/verify", json!({ "mobile": "9876543210", "otp": wrong })).await;
    assert_eq!(
        (status, body["status"].as_str(), body["message"].as_str(), body["code"].as_str()),
        (400, Some("failed"), Some("Wrong OTP"), Some("otp.wrong"))
    );
    for _ in 0..4 {
        post(&shop, "/api/verify", json!({ "mobile": "9876543210", "otp": wrong })).await;
    }
    let (status, body) = post(&shop, "/api/verify", json!({ "mobile": "9876543210", "otp": code })).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("otp.expired")), "five wrong tries end the code");

    let shop = spawn_with(|c| c.otp_valid_seconds = 1).await;
    register(&shop, form("Asha", "asha@example.in", "9876543210")).await;
    let code = code_for(&shop, "9876543210").await;
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    let (status, body) = post(&shop, "/api/verify", json!({ "mobile": "9876543210", "otp": code })).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("otp.expired")), "{body}");
}

#[tokio::test]
async fn sessions_are_required_and_end_on_logout() {
    let shop = spawn_shop().await;
    let resp = shop.get("/api/user").await;
    let (status, body) = read(resp).await;
    assert_eq!(
        (status, body["status"].as_str(), body["code"].as_str()),
        (401, Some("failed"), Some("account.login_required"))
    );
    let (status, _) = get_auth(&shop, "/api/user", "not-a-token").await;
    assert_eq!(status, 401);

    let (token, _) = customer(&shop, "asha@example.in", "9876543210").await;
    let resp = authed(&shop, reqwest::Method::DELETE, "/api/logout", &token).await.send().await.expect("answer");
    let (status, body) = read(resp).await;
    assert_eq!((status, body), (200, json!({ "status": "success", "message": "success" })));
    assert_eq!(get_auth(&shop, "/api/user", &token).await.0, 401, "ended");

    let (_, body) = post(&shop, "/api/login", json!({ "email": "asha@example.in", "password": PASSWORD })).await;
    let token = body["token"].as_str().expect("token").to_owned();
    let (status, body) = get_auth(&shop, "/api/auth/logout", &token).await;
    assert_eq!((status, body), (200, json!({ "status": "success" })));
    assert_eq!(get_auth(&shop, "/api/auth/user", &token).await.0, 401);
}

#[tokio::test]
async fn a_configured_client_validation_header_is_required() {
    let shop = spawn_with(|c| c.client_validation = Some("client-42".into())).await;
    register(&shop, form("Asha", "asha@example.in", "9876543210")).await;
    let code = code_for(&shop, "9876543210").await;
    let (status, body) = post(&shop, "/api/verify", json!({ "mobile": "9876543210", "otp": code })).await;
    assert_eq!(status, 200, "logging in needs no header");
    let token = body["token"].as_str().expect("token").to_owned();
    assert_eq!(get_auth(&shop, "/api/user", &token).await.0, 401, "without the header");
    let resp = authed(&shop, reqwest::Method::GET, "/api/user", &token)
        .await
        .header("x-client-validation", "client-4")
        .send()
        .await
        .expect("answer");
    assert_eq!(resp.status(), 401, "a wrong value");
    let resp = authed(&shop, reqwest::Method::GET, "/api/user", &token)
        .await
        .header("x-client-validation", "client-42")
        .send()
        .await
        .expect("answer");
    assert_eq!(resp.status(), 200);
}

#[tokio::test]
async fn another_customers_account_and_wishlist_are_forbidden() {
    let shop = spawn_shop().await;
    let (token, _) = customer(&shop, "asha@example.in", "9876543210").await;
    let (_, ravi) = customer(&shop, "ravi@example.in", "9123456780").await;
    let resp = authed(&shop, reqwest::Method::PATCH, &format!("/api/update/user/{ravi}"), &token)
        .await
        .multipart(Form::new().text("name", "Hacked"))
        .send()
        .await
        .expect("answer");
    let (status, body) = read(resp).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("account.forbidden")));
    let (status, _) = get_auth(&shop, &format!("/api/get/wishlist/?user={ravi}"), &token).await;
    assert_eq!(status, 403);
    let product = seed::product(0).id.0;
    let resp = authed(&shop, reqwest::Method::POST, "/api/add/wishlist", &token)
        .await
        .json(&json!({ "_id": product, "user_id": ravi }))
        .send()
        .await
        .expect("answer");
    assert_eq!(resp.status(), 403);
    let (_, me) = post(&shop, "/api/login", json!({ "email": "ravi@example.in", "password": PASSWORD })).await;
    let (_, ravi_me) = get_auth(&shop, "/api/user", me["token"].as_str().expect("token")).await;
    assert_eq!(ravi_me["user"]["name"], "Asha", "unchanged");
}

#[tokio::test]
async fn resend_too_soon_and_login_bursts_are_limited() {
    let shop = spawn_shop().await;
    register(&shop, form("Asha", "asha@example.in", "9876543210")).await;
    let (status, body) = post(&shop, "/api/resendotp", json!({ "mobile": "9876543210" })).await;
    assert_eq!(
        (status, body["status"].as_str(), body["code"].as_str()),
        (429, Some("failed"), Some("otp.too_soon")),
        "{body}"
    );
    let mut last = 0;
    for _ in 0..11 {
        last = post(&shop, "/api/login", json!({ "email": "asha@example.in", "password": "wrong1!xx" })).await.0;
    }
    assert_eq!(last, 429, "the 11th attempt in a minute");
    let resp = shop
        .client
        .post(format!("{}/api/login", shop.base))
        .json(&json!({ "email": "asha@example.in", "password": "wrong1!xx" }))
        .send()
        .await
        .expect("answer");
    assert_eq!(resp.status(), 429);
    let wait: u64 = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After in seconds");
    assert!((1..=120).contains(&wait), "at most two minutes after a burst: {wait}");
}

async fn login(shop: &TestShop, email: &str, password: &str) -> (u16, Value) {
    post(shop, "/api/login", json!({ "email": email, "password": password })).await
}

async fn me(shop: &TestShop, token: &str) -> Value {
    let (status, body) = get_auth(shop, "/api/user", token).await;
    assert_eq!(status, 200, "{body}");
    body["user"].clone()
}

const STRANGER_PASSWORD: &str = "stranger1!";

fn stranger_form(email: &str, mobile: &str) -> Form {
    Form::new()
        .text("name", "Stranger")
        .text("email", email.to_owned())
        .text("password", STRANGER_PASSWORD)
        .text("mobile", mobile.to_owned())
}

/// Issue 19, pre-hijack by email: a stranger signs up with the owner's email and their own
/// mobile and proves the mobile; the owner's Google sign-in and the owner's own sign-up each
/// get an account the stranger's password never opens.
#[tokio::test]
async fn a_stranger_with_the_owners_email_never_opens_the_account_the_owner_proved() {
    let shop = spawn_shop().await;
    let (status, body) = register(&shop, stranger_form("owner@example.in", "9123456780")).await;
    assert_eq!(status, 200, "{body}");
    let code = code_for(&shop, "9123456780").await;
    let (status, body) =
        post(&shop, "/api/verify", json!({ "email": "owner@example.in", "mobile": "9123456780", "otp": code })).await;
    assert_eq!(status, 200, "the stranger proves their own phone: {body}");
    let stranger_token = body["token"].as_str().expect("token").to_owned();
    let stranger = me(&shop, &stranger_token).await;
    assert_eq!((stranger["emailVerified"].as_bool(), stranger["mobileVerified"].as_bool()), (Some(false), Some(true)));
    let (status, body) = login(&shop, "owner@example.in", STRANGER_PASSWORD).await;
    assert_eq!(
        (status, body["status"].as_str()),
        (200, Some("not verified")),
        "a claimed email logs nobody in: {body}"
    );
    assert!(body.get("token").is_none());

    // The owner signs in with Google: a new account, not the stranger's.
    let owner_token = helpers::google::sign_in(&shop, &shop, "owner@example.in").await;
    let owner = me(&shop, &owner_token).await;
    assert_ne!(owner["_id"], stranger["_id"], "never linked to an account that only claimed the email");
    assert_eq!((owner["email"].as_str(), owner["emailVerified"].as_bool()), (Some("owner@example.in"), Some(true)));
    assert_eq!(me(&shop, &stranger_token).await["email"], "", "the stranger's claim is gone");
    let (status, body) = login(&shop, "owner@example.in", STRANGER_PASSWORD).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("account.login_failed")), "{body}");

    // The same with the owner's own sign-up on a fresh shop: no 409, and the email's code proves it.
    let shop = spawn_shop().await;
    register(&shop, stranger_form("owner@example.in", "9123456780")).await;
    let code = code_for(&shop, "9123456780").await;
    post(&shop, "/api/verify", json!({ "email": "owner@example.in", "mobile": "9123456780", "otp": code })).await;
    let (status, body) = register(&shop, form("Owner", "owner@example.in", "9876543210")).await;
    assert_eq!(status, 200, "an unproven email is not a claim: {body}");
    let code = code_for(&shop, "owner@example.in").await;
    let (status, body) =
        post(&shop, "/api/verify", json!({ "email": "owner@example.in", "mobile": "9876543210", "otp": code })).await;
    assert_eq!(status, 200, "{body}");
    let owner_id = me(&shop, body["token"].as_str().expect("token")).await["_id"].clone();
    let (status, _) = login(&shop, "owner@example.in", STRANGER_PASSWORD).await;
    assert_eq!(status, 401, "the stranger's password does not open the owner's account");
    let (status, body) = login(&shop, "owner@example.in", PASSWORD).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("success")), "{body}");
    assert_eq!(me(&shop, body["token"].as_str().expect("token")).await["_id"], owner_id);
    let (status, body) = register(&shop, stranger_form("OWNER@example.in", "9000000001")).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("account.email_taken")), "a proven email is taken: {body}");
}

/// The other direction: a stranger signs up with the owner's mobile and their own email.
#[tokio::test]
async fn a_stranger_with_the_owners_mobile_never_opens_the_account_the_owner_proved() {
    let shop = spawn_shop().await;
    register(&shop, stranger_form("stranger@example.in", "9876543210")).await;
    let code = code_for(&shop, "stranger@example.in").await;
    let (status, body) =
        post(&shop, "/api/verify", json!({ "email": "stranger@example.in", "mobile": "9876543210", "otp": code }))
            .await;
    assert_eq!(status, 200, "the stranger proves their own email: {body}");
    let stranger_token = body["token"].as_str().expect("token").to_owned();
    let stranger_id = me(&shop, &stranger_token).await["_id"].clone();
    let (status, body) = post(&shop, "/api/mobile/login", json!({ "mobile": "9876543210" })).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("account.mobile_unknown")),
        "a claimed mobile logs nobody in: {body}"
    );

    let (status, body) = register(&shop, form("Owner", "owner@example.in", "9876543210")).await;
    assert_eq!(status, 200, "an unproven mobile is not a claim: {body}");
    let code = code_for(&shop, "9876543210").await;
    let (status, body) =
        post(&shop, "/api/verify", json!({ "email": "owner@example.in", "mobile": "9876543210", "otp": code })).await;
    assert_eq!(status, 200, "{body}");
    let owner = me(&shop, body["token"].as_str().expect("token")).await;
    assert_ne!(owner["_id"], stranger_id);
    assert_eq!(me(&shop, &stranger_token).await["mobile"], "", "the stranger's claim is gone");

    // A mobile login now reaches the owner's account only.
    let (status, _) = post(&shop, "/api/mobile/login", json!({ "mobile": "9876543210" })).await;
    assert_eq!(status, 200);
    let code = code_for(&shop, "9876543210").await;
    let (status, body) = post(&shop, "/api/verify", json!({ "mobile": "9876543210", "otp": code })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(me(&shop, body["token"].as_str().expect("token")).await["_id"], owner["_id"]);
    // The stranger's password opens only the stranger's own account, which no longer has the mobile.
    let (status, body) = login(&shop, "stranger@example.in", STRANGER_PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    let theirs = me(&shop, body["token"].as_str().expect("token")).await;
    assert_eq!((theirs["_id"].clone(), theirs["mobile"].as_str()), (stranger_id, Some("")));
}

#[tokio::test]
async fn sign_ups_past_the_hourly_message_budget_are_refused() {
    let shop = spawn_with(|c| c.signup_messages_per_hour = 2).await;
    let (status, body) = register(&shop, form("Asha", "asha@example.in", "9876543210")).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = register(&shop, form("Ravi", "ravi@example.in", "9123456780")).await;
    assert_eq!(
        (status, body["status"].as_str(), body["code"].as_str()),
        (429, Some("failed"), Some("request.too_many")),
        "{body}"
    );
    let (_, outbox) = shop.get_json("/api/dev/outbox").await;
    assert_eq!(outbox.as_array().map(Vec::len), Some(2), "the refused sign-up sent nothing");
}

async fn wishlist_of(shop: &TestShop, token: &str, user: &str) -> Vec<Value> {
    let (status, body) = get_auth(shop, &format!("/api/get/wishlist/?user={user}"), token).await;
    assert_eq!(status, 200, "{body}");
    body["result"].as_array().expect("result").clone()
}

async fn add(shop: &TestShop, token: &str, body: Value) -> (u16, Value) {
    read(
        authed(shop, reqwest::Method::POST, "/api/add/wishlist", token).await.json(&body).send().await.expect("answer"),
    )
    .await
}

#[tokio::test]
async fn wishlist_add_list_remove_with_catalog_fields() {
    let shop = spawn_shop().await;
    let (token, me) = customer(&shop, "asha@example.in", "9876543210").await;
    assert!(wishlist_of(&shop, &token, &me).await.is_empty());
    let p0 = seed::product(0);
    let p1 = seed::product(1);
    let posted = json!({ "_id": p0.id.0, "name": "Cheap fake", "quantity": 999, "producttype": "new", "price": 1, "image": "/x.png", "user_id": me });
    assert_eq!(add(&shop, &token, posted.clone()).await, (200, json!({ "status": "success" })));
    assert_eq!(add(&shop, &token, posted).await.0, 200, "twice keeps one");
    assert_eq!(add(&shop, &token, json!({ "_id": p1.id.0 })).await.0, 200);
    let list = wishlist_of(&shop, &token, &me).await;
    let ids: Vec<&str> = list.iter().filter_map(|e| e["_id"].as_str()).collect();
    assert_eq!(ids, vec![p1.id.0.as_str(), p0.id.0.as_str()], "newest first, once each");
    let entry = &list[1];
    assert_eq!(entry["name"], p0.name.as_str());
    assert_eq!(entry["price"].as_f64(), Some(p0.price.rupees()));
    assert_eq!(entry["quantity"].as_u64(), Some(u64::from(p0.quantity)));
    assert_eq!(entry["producttype"], p0.condition.code());
    assert_eq!(entry["image"].as_str(), p0.images.first().map(|i| i.name.as_str()));
    assert_eq!(entry["user_id"], me.as_str());
    let (status, body) = get_auth(&shop, &format!("/api/get/wishlist?user={me}"), &token).await;
    assert_eq!((status, body["result"].as_array().map(Vec::len)), (200, Some(2)), "also without the slash");
    let resp = authed(&shop, reqwest::Method::GET, &format!("/api/get/wishlist?user={me}"), &token)
        .await
        .send()
        .await
        .expect("answer");
    let cache = resp.headers().get("cache-control").and_then(|v| v.to_str().ok()).map(str::to_owned);
    assert_eq!(cache.as_deref(), Some("private, no-cache"), "a customer's answer is kept by no shared cache");

    let (status, body) = add(&shop, &token, json!({ "_id": "no-such-part" })).await;
    assert_eq!((status, body["status"].as_str()), (404, Some("failed")));

    let resp = authed(&shop, reqwest::Method::DELETE, &format!("/api/remove/wishlist/{}", p0.id.0), &token)
        .await
        .send()
        .await
        .expect("answer");
    assert_eq!(read(resp).await, (200, json!({ "status": "success" })));
    let ids: Vec<String> =
        wishlist_of(&shop, &token, &me).await.iter().filter_map(|e| e["_id"].as_str().map(str::to_owned)).collect();
    assert_eq!(ids, vec![p1.id.0.clone()]);
    let resp =
        shop.client.delete(format!("{}/api/remove/wishlist/{}", shop.base, p1.id.0)).send().await.expect("answer");
    assert_eq!(resp.status(), 401);
}

#[tokio::test]
async fn a_wishlist_of_49_takes_exactly_one_of_many_concurrent_adds() {
    let shop = spawn_shop().await;
    let (token, me) = customer(&shop, "asha@example.in", "9876543210").await;
    for n in 0..49 {
        let (status, _) = add(&shop, &token, json!({ "_id": seed::product(n).id.0 })).await;
        assert_eq!(status, 200);
    }
    let adds = (49..55).map(|n| add(&shop, &token, json!({ "_id": seed::product(n).id.0 })));
    let outcomes = futures::future::join_all(adds).await;
    let added = outcomes.iter().filter(|(s, b)| *s == 200 && b["status"] == "success").count();
    let full: Vec<&Value> = outcomes.iter().filter(|(_, b)| b["status"] == "failed").map(|(_, b)| b).collect();
    assert_eq!((added, full.len()), (1, 5), "{outcomes:?}");
    assert_eq!(full[0]["message"], "Your wishlist is full! Kindly remove some products from wishlist.");
    assert_eq!(wishlist_of(&shop, &token, &me).await.len(), 50);
}

/// A `prod` configuration with every required setting (gateways and Razorpay unreachable: nothing
/// in these tests sends or pays).
fn production(c: &mut Flags, dir: &std::path::Path) {
    c.env = Environment::Prod;
    c.db = Some(format!("surrealkv://{}", dir.join("db").display()));
    c.public_url = Some("https://spares.example.in".into());
    c.gateways = unreachable_gateways();
    c.secret = Some("prod-secret-0123456789abcdef-0123456789".into());
    c.client_validation = Some("client-check".into());
    c.staff.staff_seal_key = Some("ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100".into());
    let s = |v: &str| Some(v.to_owned());
    c.identity = IdentityFlags {
        legal_name: s("Spares Mumbai LLP"),
        address: s("4 Lamington Road, Mumbai 400007"),
        gstin: s("27AAPFU0939F1ZV"),
        state: s("maharashtra"),
        support_email: s("help@spares.in"),
        support_phone: s("+91 22 4000 1000"),
        enquiry_phone: s("+91 22 4000 1001"),
        chat_number: None,
        grievance_name: s("R. Iyer"),
        grievance_email: s("grievance@spares.in"),
        grievance_phone: s("+91 22 4000 1002"),
    };
    c.payment = PaymentFlags {
        razorpay_key_id: Some("rzp_live_Test".into()),
        razorpay_key_secret: Some("key-secret".into()),
        razorpay_webhook_secret: Some("webhook-secret".into()),
        razorpay_api_url: Some("http://127.0.0.1:9".into()),
        razorpay_script_url: None,
    };
}

#[tokio::test]
async fn the_outbox_exists_only_in_dev() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let shop = spawn_with(|c| production(c, dir.path())).await;
    let (status, _) = shop.get_json("/api/dev/outbox").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn google_sign_in_with_the_dev_provider_ends_with_a_working_token() {
    let shop = spawn_shop().await;
    let client = no_redirects();
    let start = client.get(format!("{}/api/google", shop.base)).send().await.expect("answer");
    let set_cookie =
        start.headers().get("set-cookie").and_then(|v| v.to_str().ok()).expect("the sign-in cookie").to_owned();
    assert!(set_cookie.starts_with("__Host-marque_signin="), "{set_cookie}");
    for attribute in ["Path=/", "Secure", "HttpOnly", "SameSite=Lax", "Max-Age=600"] {
        assert!(set_cookie.split("; ").any(|a| a == attribute), "{attribute} in {set_cookie}");
    }
    let cookie = set_cookie.split(';').next().expect("name=value").to_owned();
    let to_page = location(&start);
    assert!(to_page.starts_with("/api/dev/signin?"), "{to_page}");
    let page = client.get(format!("{}{to_page}", shop.base)).send().await.expect("answer");
    assert_eq!(page.status().as_u16(), 200);
    let html = page.text().await.expect("html");
    assert!(html.contains("<label for=\"dev-email\">Email</label>") && html.contains("name=\"email\""), "{html}");
    assert!(html.contains("value=\"dev.shopper@marqueparts.in\"") && html.contains(">Sign in</button>"), "{html}");
    assert!(html.contains("action=\"/api/dev/signin/continue\""), "{html}");

    let state = query_value(&to_page, "state");
    let redirect_uri = query_value(&to_page, "redirect_uri");
    assert_eq!(redirect_uri, format!("{}/api/google/callback", shop.base));
    let form = serde_urlencoded::to_string([
        ("state", state.as_str()),
        ("redirect_uri", redirect_uri.as_str()),
        ("email", "dev.shopper@marqueparts.in"),
    ])
    .expect("query");
    let to_callback =
        location(&client.get(format!("{}/api/dev/signin/continue?{form}", shop.base)).send().await.expect("answer"));
    assert!(to_callback.starts_with(&redirect_uri), "{to_callback}");
    let back = client.get(&to_callback).header("cookie", &cookie).send().await.expect("answer");
    assert_eq!(back.headers().get("referrer-policy").and_then(|v| v.to_str().ok()), Some("no-referrer"));
    let code = google::landing_code(&location(&back));
    let (status, session) = google::exchange(&shop, &code, Some(&cookie)).await;
    assert_eq!(status, 200, "{session}");
    let token = session["token"].as_str().expect("the session");
    assert_ne!(token, code);
    let (status, me) = get_auth(&shop, "/api/user", token).await;
    assert_eq!(status, 200, "{me}");
    assert!(me.to_string().contains("dev.shopper@marqueparts.in"), "{me}");

    // The same return again: the state was used up.
    assert_eq!(
        location(&client.get(&to_callback).header("cookie", &cookie).send().await.expect("answer")),
        "/login/failure"
    );
    // A state that was never started.
    let wrong = format!("{}/api/google/callback?state=nope&code=dev.shopper%40marqueparts.in", shop.base);
    assert_eq!(location(&client.get(wrong).header("cookie", &cookie).send().await.expect("answer")), "/login/failure");
    // Another shop's callback is refused by the dev page.
    let elsewhere = serde_urlencoded::to_string([
        ("state", "s"),
        ("redirect_uri", "https://evil.example/api/google/callback"),
        ("email", "a@b.in"),
    ])
    .expect("query");
    let refused =
        client.get(format!("{}/api/dev/signin/continue?{elsewhere}", shop.base)).send().await.expect("answer");
    assert_eq!(refused.status().as_u16(), 400);
}

#[tokio::test]
async fn google_sign_in_signs_in_the_same_account_twice() {
    let shop = spawn_shop().await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let token = google::sign_in(&shop, &shop, "twice@example.in").await;
        let (_, me) = get_auth(&shop, "/api/user", &token).await;
        ids.push(me.to_string());
    }
    assert_eq!(ids[0], ids[1]);
}

#[tokio::test]
async fn the_landing_code_is_no_session() {
    let shop = spawn_shop().await;
    let started = google::start(&shop).await;
    let code =
        google::landing_code(&google::callback(&shop, &started.state, "meera@example.in", Some(&started.cookie)).await);
    let (status, body) = get_auth(&shop, "/api/user", &code).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("account.login_required")), "{body}");
    // Nor does the exchange take a code without the browser's cookie, or that cookie after its code was refused.
    let (status, body) = google::exchange(&shop, &code, None).await;
    assert_eq!(status, 401, "{body}");
    let (status, body) = google::exchange(&shop, &code, Some(&started.cookie)).await;
    assert_eq!(status, 401, "a refused code is used up: {body}");
}

#[tokio::test]
async fn a_sign_in_returns_only_to_the_browser_that_started_it() {
    let shop = spawn_shop().await;
    // A stranger starts a sign-in and sends the return link to someone else, whose browser has no cookie
    // or the cookie of a sign-in of their own.
    let stranger = google::start(&shop).await;
    assert_eq!(google::callback(&shop, &stranger.state, "stranger@example.in", None).await, "/login/failure");
    let victim = google::start(&shop).await;
    assert_eq!(
        google::callback(&shop, &stranger.state, "stranger@example.in", Some(&victim.cookie)).await,
        "/login/failure"
    );
    let forged = "__Host-marque_signin=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    assert_eq!(google::callback(&shop, &victim.state, "stranger@example.in", Some(forged)).await, "/login/failure");
    // The stranger finishes in their own browser and mails the landing link: the victim's browser cannot use it.
    let code = google::landing_code(
        &google::callback(&shop, &stranger.state, "stranger@example.in", Some(&stranger.cookie)).await,
    );
    let (status, body) = google::exchange(&shop, &code, Some(&victim.cookie)).await;
    assert_eq!(status, 401, "{body}");
    // The victim's own sign-in still works.
    let code =
        google::landing_code(&google::callback(&shop, &victim.state, "victim@example.in", Some(&victim.cookie)).await);
    let (status, body) = google::exchange(&shop, &code, Some(&victim.cookie)).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn a_landing_code_works_once() {
    let shop = spawn_shop().await;
    let started = google::start(&shop).await;
    let code =
        google::landing_code(&google::callback(&shop, &started.state, "once@example.in", Some(&started.cookie)).await);
    let (first, second) = tokio::join!(
        google::exchange(&shop, &code, Some(&started.cookie)),
        google::exchange(&shop, &code, Some(&started.cookie))
    );
    let mut statuses = [first.0, second.0];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 401], "{first:?} {second:?}");
    let (status, body) = google::exchange(&shop, &code, Some(&started.cookie)).await;
    assert_eq!(status, 401, "{body}");
}

#[tokio::test]
async fn google_sign_in_without_a_provider_answers_json_404() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let shop = spawn_with(|c| production(c, dir.path())).await;
    let client = no_redirects();
    for path in ["/api/google", "/api/google/callback?state=a&code=b", "/api/dev/signin?state=a&redirect_uri=b"] {
        let resp = client.get(format!("{}{path}", shop.base)).send().await.expect("answer");
        let (status, body) = read(resp).await;
        assert_eq!(status, 404, "{path}: {body}");
    }
    // And the login page is told there is no third-party sign-in to offer.
    let (status, identity) = shop.get_json("/api/get/shop").await;
    assert_eq!((status, &identity["signIn"]), (200, &Value::Null), "{identity}");
}

/// Gateway settings `prod` accepts, pointing nowhere (no test sends through them).
fn unreachable_gateways() -> GatewayFlags {
    let s = |v: &str| Some(v.to_owned());
    GatewayFlags {
        smtp_host: s("127.0.0.1"),
        smtp_port: Some(9),
        smtp_security: Some(SmtpSecurityMode::Plain),
        smtp_from: s("Marque Parts <no-reply@marqueparts.in>"),
        sms_base_url: s("http://127.0.0.1:9"),
        sms_auth_key: Some("key".into()),
        sms_sender: s("MRQPRT"),
        sms_dlt_entity_id: s("1201159000000000001"),
        sms_otp_template_id: s("tmpl-otp"),
        ..GatewayFlags::default()
    }
}

/// Two instances that share nothing but an S3 bucket (each its own `mem://` database and data
/// directory): a picture uploaded through one is served by the other, and replacing it there
/// removes the old one for both. The bucket is moto's (`MARQUE_TEST_MOTO`, set by `make test`).
#[tokio::test]
async fn instances_sharing_a_bucket_serve_each_others_pictures() {
    let Some(moto) = marque_contract_tests::moto::Moto::start_or_skip("pictures shared between two servers through S3")
    else {
        return;
    };
    moto.create_bucket("marque-pictures");
    let endpoint = moto.endpoint();
    let dirs = [tempfile::tempdir().expect("temporary directory"), tempfile::tempdir().expect("temporary directory")];
    let on_s3 = |dir: std::path::PathBuf| {
        let endpoint = endpoint.clone();
        move |c: &mut Flags| {
            c.data_dir = dir;
            c.blobs = BlobsMode::S3;
            c.s3 = S3Flags {
                s3_bucket: Some("marque-pictures".into()),
                s3_region: Some("us-east-1".into()),
                s3_endpoint: Some(endpoint),
                s3_access_key_id: Some("testing".into()),
                s3_secret_access_key: Some("testing-secret".into()),
                s3_allow_http: true,
                s3_virtual_hosted: false,
            };
        }
    };
    let one = spawn_with(on_s3(dirs[0].path().to_owned())).await;
    let other = spawn_with(on_s3(dirs[1].path().to_owned())).await;

    let (token, id, profile) = customer_with_picture(&one).await;
    assert!(profile.starts_with("/media/avatars/"), "{profile}");

    let from_one = one.get(&profile).await;
    assert_eq!(from_one.status(), 200);
    let from_one = from_one.bytes().await.expect("bytes");
    let from_other = other.get(&profile).await;
    assert_eq!(
        (from_other.status().as_u16(), from_other.headers()["content-type"].to_str().ok()),
        (200, Some("image/png"))
    );
    assert_eq!(from_other.bytes().await.expect("bytes"), from_one, "the other instance serves the same picture");
    let img = image::load_from_memory(&from_one).expect("a picture");
    assert_eq!((img.width(), img.height()), (256, 256));
    for dir in &dirs {
        assert!(!dir.path().join("blobs").exists(), "nothing written to the local data directory");
    }

    // Replacing the picture through the first instance: the old one is gone for the second too.
    let _decoding = helpers::DECODING.read().await;
    let form = Form::new().text("name", "Asha").part("profile", Part::bytes(png(300, 900)).file_name("b.png"));
    let resp = authed(&one, reqwest::Method::PATCH, &format!("/api/update/user/{id}"), &token)
        .await
        .multipart(form)
        .send()
        .await
        .expect("answer");
    let (status, body) = read(resp).await;
    assert_eq!(status, 200, "{body}");
    let replaced = body["user"]["profile"].as_str().expect("profile").to_owned();
    assert_ne!(replaced, profile);
    assert_eq!(other.get(&profile).await.status(), 404, "the replaced picture is gone everywhere");
    assert_eq!(other.get(&replaced).await.status(), 200, "the new one is served by the other instance");
}

#[test]
fn s3_pictures_without_their_settings_refuse_to_start_and_say_which() {
    let mut flags = Flags::for_tests(std::path::PathBuf::from("/nonexistent-web-dir"));
    flags.blobs = BlobsMode::S3;
    flags.s3.s3_bucket = Some("marque-pictures".into());
    flags.s3.s3_access_key_id = Some("AKIA1".into());
    let refused = Settings::from_flags(flags).expect_err("refused");
    let text = format!("{refused:#}");
    assert!(text.contains("MARQUE_S3_REGION") && text.contains("MARQUE_S3_SECRET_ACCESS_KEY"), "{text}");
    assert!(
        !text.contains("MARQUE_S3_BUCKET") && !text.contains("MARQUE_S3_ACCESS_KEY_ID"),
        "only the missing ones: {text}"
    );
}
