//! The back office's staff over HTTP: set-up, two-factor sign-in, sessions, limits, invitations.

use marque_domain::staff::StaffRole;
use reqwest::Method;
use serde_json::json;

use crate::helpers::customers::{customer, post};
use crate::helpers::spawn_app_with;
use crate::helpers::staff::{call, login, set_up_staff, staff_token, STAFF_PASSWORD};

#[tokio::test]
async fn a_set_up_staff_member_signs_in_with_a_computed_code_and_sees_their_areas() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let staff = set_up_staff(&app, &shop, StaffRole::Catalog).await;
    assert!(staff.totp_uri.starts_with("otpauth://totp/"), "{}", staff.totp_uri);
    assert!(staff.totp_uri.contains("issuer=Marque"), "{}", staff.totp_uri);
    let (status, body) = login(&shop, &staff, 0).await;
    assert_eq!(status, 200, "{body}");
    let token = body["token"].as_str().expect("token");
    let (status, me) = call(&shop, Method::GET, "/api/admin/me", Some(token), None).await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["_id"], staff.id.as_str());
    assert_eq!(me["email"], staff.email.as_str());
    assert_eq!(me["role"], "catalog");
    assert_eq!(
        me["areas"],
        json!(["dashboard", "products", "categories", "brands", "photos", "stock", "imports"]),
        "the catalog role's areas"
    );
}

#[tokio::test]
async fn a_set_up_link_works_once_and_the_password_rule_is_the_staff_one() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let invitation = app.services.staff.add("test", "once@marque.test", "Once", StaffRole::Owner).await.expect("added");
    let code = invitation.code.expose().to_owned();
    let (status, body) = post(&shop, "/api/admin/setup", json!({ "code": code, "password": "short" })).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("staff.password_rule")), "{body}");
    let (status, body) = post(&shop, "/api/admin/setup", json!({ "code": code, "password": STAFF_PASSWORD })).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["secret"].as_str().is_some_and(|s| s.len() >= 32), "the base32 secret: {body}");
    let (status, body) = post(&shop, "/api/admin/setup", json!({ "code": code, "password": STAFF_PASSWORD })).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("staff.setup_invalid")), "used once: {body}");
    let (status, body) =
        post(&shop, "/api/admin/setup", json!({ "code": "made-up", "password": STAFF_PASSWORD })).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("staff.setup_invalid")), "{body}");
}

#[tokio::test]
async fn wrong_passwords_wrong_codes_and_replayed_codes_are_refused_alike() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let staff = set_up_staff(&app, &shop, StaffRole::Owner).await;
    let wrong_password = json!({ "email": staff.email, "password": "not the password at all", "totp": staff.code(0) });
    let (status, body) = post(&shop, "/api/admin/login", wrong_password).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("staff.login_failed")), "{body}");
    let wrong_code = if staff.code(0) == "000000" { "111111" } else { "000000" };
    let wrong_totp = json!({ "email": staff.email, "password": STAFF_PASSWORD, "totp": wrong_code });
    let (status, body) = post(&shop, "/api/admin/login", wrong_totp).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("staff.login_failed")), "{body}");
    let unknown = json!({ "email": "nobody@marque.test", "password": STAFF_PASSWORD, "totp": staff.code(0) });
    let (status, body) = post(&shop, "/api/admin/login", unknown).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("staff.login_failed")), "{body}");
    let (status, body) = login(&shop, &staff, 0).await;
    assert_eq!(status, 200, "the right code: {body}");
    let (status, body) = login(&shop, &staff, 0).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("staff.login_failed")), "a replayed code: {body}");
    let (status, body) = login(&shop, &staff, -1).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("staff.login_failed")), "an earlier code: {body}");
    let (status, body) = login(&shop, &staff, 1).await;
    assert_eq!(status, 200, "the next step's code (one step of drift): {body}");
}

#[tokio::test]
async fn a_customer_token_is_no_staff_session_and_logout_revokes() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let (customer_token, _) = customer(&shop, "asha@marque.test", "9876543210").await;
    let (status, body) = call(&shop, Method::GET, "/api/admin/me", Some(&customer_token), None).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("staff.login_required")), "{body}");
    let (status, body) = call(&shop, Method::GET, "/api/admin/me", None, None).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("staff.login_required")), "{body}");
    let token = staff_token(&app, &shop, StaffRole::Fulfilment).await;
    let (status, _) = call(&shop, Method::GET, "/api/admin/me", Some(&token), None).await;
    assert_eq!(status, 200);
    let (status, body) = call(&shop, Method::DELETE, "/api/admin/logout", Some(&token), None).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = call(&shop, Method::GET, "/api/admin/me", Some(&token), None).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("staff.login_required")), "revoked: {body}");
}
