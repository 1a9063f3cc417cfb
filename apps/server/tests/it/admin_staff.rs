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

/// Runs `marque-server staff …` on the embedded database in `dir`: its standard output.
fn staff_cli(dir: &std::path::Path, args: &[&str]) -> String {
    let bin = std::env::var_os("MARQUE_SERVER_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_marque-server").into());
    let out = std::process::Command::new(bin)
        .arg("staff")
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("MARQUE_DB", format!("surrealkv://{}", dir.join("db").display()))
        .env("RUST_LOG", "warn")
        .output()
        .expect("marque-server runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "staff {args:?}: {stdout}\n{stderr}");
    assert!(!stderr.contains("setup?code="), "no link in the logs: {stderr}");
    stdout
}

#[tokio::test]
async fn the_command_line_adds_lists_and_removes_staff_on_a_stopped_embedded_database() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let added = staff_cli(dir.path(), &["add", "--email", "Cli@Marque.Test", "--name", "Cli Owner", "--role", "owner"]);
    let link =
        added.split_whitespace().find(|w| w.starts_with("/admin/setup?code=")).expect("a set-up link").to_owned();
    let listed = staff_cli(dir.path(), &["list"]);
    assert!(listed.contains("cli@marque.test\towner\tinvited\tCli Owner"), "{listed}");
    let again = staff_cli(dir.path(), &["add", "--email", "cli@marque.test", "--name", "Cli Owner", "--role", "owner"]);
    let new_link =
        again.split_whitespace().find(|w| w.starts_with("/admin/setup?code=")).expect("a new link").to_owned();
    assert_ne!(new_link, link, "a new link for someone who has not set up");

    let log = dir.path().join("server.log");
    let mut server = crate::helpers::process::start(
        &[("MARQUE_DB", format!("surrealkv://{}", dir.path().join("db").display()))],
        &log,
    );
    let shop = server.shop();
    let old_code = link.trim_start_matches("/admin/setup?code=");
    let (status, _) = post(&shop, "/api/admin/setup", json!({ "code": old_code, "password": STAFF_PASSWORD })).await;
    assert_eq!(status, 400, "the earlier link ended");
    let code = new_link.trim_start_matches("/admin/setup?code=");
    let (status, body) = post(&shop, "/api/admin/setup", json!({ "code": code, "password": STAFF_PASSWORD })).await;
    assert_eq!(status, 200, "{body}");
    let totp = crate::helpers::staff::totp_code(body["totpUri"].as_str().expect("uri"), 0);
    let signed_in = post(
        &shop,
        "/api/admin/login",
        json!({ "email": "cli@marque.test", "password": STAFF_PASSWORD, "totp": totp }),
    )
    .await;
    assert_eq!(signed_in.0, 200, "{}", signed_in.1);
    server.kill();
    assert!(!server.logs().contains(code), "the code never reaches the logs");

    let removed = staff_cli(dir.path(), &["remove", "--email", "cli@marque.test"]);
    assert!(removed.contains("removed cli@marque.test"), "{removed}");
    assert_eq!(staff_cli(dir.path(), &["list"]).trim(), "no staff");
}

#[tokio::test]
async fn the_first_owner_gets_a_link_until_they_set_up_and_dev_keeps_it_in_the_outbox() {
    let (shop, app) = spawn_app_with(|flags| flags.staff.owner_email = Some("boss@marque.test".into())).await;
    let first = app.ensure_first_owner().await.expect("created").expect("a link");
    assert!(first.starts_with("/admin/setup?code="), "{first}");
    let (_, outbox) = shop.get_json("/api/dev/outbox").await;
    let kept = outbox.as_array().expect("a list").iter().any(|m| {
        m["recipient"] == "boss@marque.test" && m["text"].as_str().is_some_and(|t| t.contains(first.as_str()))
    });
    assert!(kept, "dev keeps the link in the outbox: {outbox}");
    let second = app.ensure_first_owner().await.expect("read").expect("a new link while not set up");
    assert_ne!(first, second);
    let code = second.trim_start_matches("/admin/setup?code=");
    let (status, body) = post(&shop, "/api/admin/setup", json!({ "code": code, "password": STAFF_PASSWORD })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(app.ensure_first_owner().await.expect("read"), None, "an owner who set up gets no new link");
}

#[tokio::test]
async fn wrong_sign_ins_are_limited_with_retry_after_and_an_expired_session_is_refused() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let staff = set_up_staff(&app, &shop, StaffRole::Owner).await;
    for _ in 0..5 {
        let wrong = json!({ "email": staff.email, "password": "not the password at all", "totp": staff.code(0) });
        let (status, body) = post(&shop, "/api/admin/login", wrong).await;
        assert_eq!(status, 401, "{body}");
    }
    let right = json!({ "email": staff.email, "password": STAFF_PASSWORD, "totp": staff.code(0) });
    let resp = shop.client.post(format!("{}/api/admin/login", shop.base)).json(&right).send().await.expect("answer");
    assert_eq!(resp.status().as_u16(), 429, "past five wrong sign-ins in a minute");
    let retry: u64 = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("a Retry-After in seconds");
    assert!((1..=120).contains(&retry), "a sliding minute's wait: {retry}");
    let (status, body) = crate::helpers::customers::read(resp).await;
    assert_eq!((status, body["code"].as_str()), (429, Some("staff.too_many_attempts")), "{body}");

    // A session past its 12 hours is no session (put in place as the store keeps one).
    use marque_ports::StaffStore as _;
    let token = "an-expired-staff-session-token";
    let now = i64::try_from(
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_secs(),
    )
    .expect("fits");
    let session = marque_ports::StaffSession {
        token_hash: marque_app::SessionToken::new(token).hash(),
        staff: marque_domain::staff::StaffId(staff.id.clone()),
        expires_at: now - 1,
    };
    app.database().staff().create_session(&session).await.expect("stored");
    let (status, body) = call(&shop, Method::GET, "/api/admin/me", Some(token), None).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("staff.login_required")), "expired: {body}");
    let live = marque_ports::StaffSession {
        expires_at: now + 60,
        token_hash: marque_app::SessionToken::new("live").hash(),
        ..session
    };
    app.database().staff().create_session(&live).await.expect("stored");
    let (status, body) = call(&shop, Method::GET, "/api/admin/me", Some("live"), None).await;
    assert_eq!(status, 200, "the same session a minute before its end: {body}");
}

#[tokio::test]
async fn owners_invite_list_and_remove_staff_and_removal_ends_their_sessions() {
    let (shop, app) = spawn_app_with(|_| {}).await;
    let owner = staff_token(&app, &shop, StaffRole::Owner).await;
    let invite = json!({ "email": "Packer@Marque.Test", "name": "Packer", "role": "fulfilment" });
    let (status, body) = call(&shop, Method::POST, "/api/admin/staff", Some(&owner), Some(invite.clone())).await;
    assert_eq!(status, 201, "{body}");
    let id = body["_id"].as_str().expect("_id").to_owned();
    let link = body["setupLink"].as_str().expect("setupLink").to_owned();
    assert!(link.starts_with("/admin/setup?code="), "{link}");
    let (status, body) = call(&shop, Method::POST, "/api/admin/staff", Some(&owner), Some(invite)).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("staff.email_taken")), "{body}");
    let bad_role = json!({ "email": "x@marque.test", "name": "X", "role": "admin" });
    let (status, body) = call(&shop, Method::POST, "/api/admin/staff", Some(&owner), Some(bad_role)).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("staff.role_unknown")), "{body}");

    let code = link.trim_start_matches("/admin/setup?code=");
    let (status, body) = post(&shop, "/api/admin/setup", json!({ "code": code, "password": STAFF_PASSWORD })).await;
    assert_eq!(status, 200, "{body}");
    let totp = crate::helpers::staff::totp_code(body["totpUri"].as_str().expect("uri"), 0);
    let (status, body) = post(
        &shop,
        "/api/admin/login",
        json!({ "email": "packer@marque.test", "password": STAFF_PASSWORD, "totp": totp }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let packer = body["token"].as_str().expect("token").to_owned();

    // Oldest first, then by id: the owner and the packer joined in the same second here, so the two
    // pages may come in either order, but together they hold each exactly once.
    let (status, first) = call(&shop, Method::GET, "/api/admin/staff?page=1&size=1", Some(&owner), None).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!((first["total"].as_u64(), first["pages"].as_u64()), (Some(2), Some(2)), "{first}");
    assert_eq!(first["results"].as_array().map(Vec::len), Some(1));
    let (status, second) = call(&shop, Method::GET, "/api/admin/staff?page=2&size=1", Some(&owner), None).await;
    assert_eq!(status, 200, "{second}");
    let packer_row = [&first, &second]
        .into_iter()
        .map(|page| &page["results"][0])
        .find(|row| row["email"] == "packer@marque.test")
        .expect("the packer is on one of the two pages");
    assert_eq!(packer_row["status"], "active");
    assert_ne!(first["results"][0]["_id"], second["results"][0]["_id"], "no one listed twice");
    let (status, body) = call(&shop, Method::GET, "/api/admin/staff?size=101", Some(&owner), None).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("page.size_invalid")), "size at most 100: {body}");

    let (status, _) = call(&shop, Method::GET, "/api/admin/me", Some(&packer), None).await;
    assert_eq!(status, 200);
    let (status, body) = call(&shop, Method::DELETE, &format!("/api/admin/staff/{id}"), Some(&owner), None).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = call(&shop, Method::GET, "/api/admin/me", Some(&packer), None).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("staff.login_required")), "removed: {body}");
    let (status, body) = call(&shop, Method::DELETE, &format!("/api/admin/staff/{id}"), Some(&owner), None).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("staff.not_found")), "{body}");
    let (_, me) = call(&shop, Method::GET, "/api/admin/me", Some(&owner), None).await;
    let me_id = me["_id"].as_str().expect("_id").to_owned();
    let (status, body) = call(&shop, Method::DELETE, &format!("/api/admin/staff/{me_id}"), Some(&owner), None).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("staff.remove_self")), "{body}");
}
