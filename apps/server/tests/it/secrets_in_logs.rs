//! No secret reaches the server's log: the real binary, logging at `debug`, goes through a sign-up
//! with a password, the one-time code, an email login, a Google sign-in (the stand-in, with the
//! browser opening the landing page) and a payment; its log then holds none of the password, the
//! code, the session tokens, the landing's code, the sign-in's state or cookie.

use crate::helpers;

use helpers::customers::{code_for, form, post, register, PASSWORD};
use helpers::payments::{call, delhi_address, product_with, sandbox, server_env};
use helpers::process::start;
use helpers::{google, no_redirects};
use marque_razorpay_sandbox::{Outcome, PayAnswer};
use reqwest::Method;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_of_sign_up_codes_google_and_payment_holds_no_secret() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let log = dir.path().join("server.log");
    let (sandbox, sandbox_url) = sandbox().await;
    let mut env = server_env(&dir.path().join("data"), &sandbox, &sandbox_url);
    env.push((
        "RUST_LOG",
        "debug,surrealdb=warn,surrealdb_core=warn,hyper=info,h2=info,reqwest=info,rustls=info".to_owned(),
    ));
    let server = start(&env, &log);
    let shop = server.shop();
    let mut secrets: Vec<(&str, String)> = vec![("password", PASSWORD.to_owned())];

    // Sign-up, the code, an email login.
    let (status, body) = register(&shop, form("Asha", "asha@example.in", "9876501234")).await;
    assert_eq!(status, 200, "{body}");
    let otp = code_for(&shop, "9876501234").await;
    let (status, verified) = post(&shop, "/api/verify", json!({ "mobile": "9876501234", "otp": otp })).await;
    assert_eq!(status, 200, "{verified}");
    // The email is proven by its own code before an email login opens the account.
    let email_otp = code_for(&shop, "asha@example.in").await;
    let (status, proved) =
        post(&shop, "/api/verify", json!({ "email": "asha@example.in", "mobile": "9876501234", "otp": email_otp }))
            .await;
    assert_eq!(status, 200, "{proved}");
    secrets.push(("email otp", email_otp));
    let (status, login) = post(&shop, "/api/login", json!({ "email": "asha@example.in", "password": PASSWORD })).await;
    assert_eq!(status, 200, "{login}");
    let token = login["token"].as_str().expect("a session").to_owned();
    secrets.extend([
        ("otp", otp),
        ("verify token", verified["token"].as_str().expect("token").to_owned()),
        ("login token", token.clone()),
    ]);

    // Google: the stand-in's page, the return, the landing page opened by the browser, the exchange.
    let started = google::start(&shop).await;
    let page = format!("/api/dev/signin?state={}&redirect_uri=x", started.state);
    assert_eq!(no_redirects().get(format!("{}{page}", shop.base)).send().await.expect("answer").status().as_u16(), 200);
    let landing = google::callback(&shop, &started.state, "meera@example.in", Some(&started.cookie)).await;
    let code = google::landing_code(&landing);
    let opened = no_redirects().get(format!("{}{landing}", shop.base)).send().await.expect("answer");
    assert_eq!(opened.status().as_u16(), 200);
    let (status, session) = google::exchange(&shop, &code, Some(&started.cookie)).await;
    assert_eq!(status, 200, "{session}");
    let cookie_value = started.cookie.split_once('=').expect("name=value").1.to_owned();
    secrets.extend([
        ("google state", started.state.clone()),
        ("landing code", code),
        ("sign-in cookie", cookie_value),
        ("google session", session["token"].as_str().expect("token").to_owned()),
    ]);

    // A payment.
    let (_, me) = call(&shop, Method::GET, "/api/user", &token, Value::Null).await;
    let user = me["user"]["_id"].as_str().expect("id").to_owned();
    let saved = delhi_address(&shop, &token, &user).await;
    let id = product_with(&shop, 1).await;
    let pay = json!({ "products": [{ "_id": id, "quantity": 1 }], "address": { "_id": saved["_id"] } });
    let (status, started_payment) = call(&shop, Method::POST, "/api/razorpay/pay", &token, pay).await;
    assert_eq!(status, 200, "{started_payment}");
    let order_id = started_payment["paymentResponse"]["id"].as_str().expect("the provider's order id");
    let PayAnswer::Paid(handler) = sandbox.pay(order_id, Outcome::Success).expect("the sandbox takes the payment")
    else {
        panic!("the sandbox refused the Success button");
    };
    let handler = serde_json::to_value(&handler).expect("JSON");
    let body = json!({ "razorpayOption": {
        "razorpay_order_id": handler["razorpay_order_id"], "razorpay_payment_id": handler["razorpay_payment_id"],
        "razorpay_signature": handler["razorpay_signature"]
    } });
    let (status, placed) = call(&shop, Method::POST, "/api/razorpay/success", &token, body).await;
    assert_eq!(status, 200, "{placed}");

    let logs = server.logs();
    assert!(
        logs.contains("/login/success") && logs.contains("/api/google/callback"),
        "the requests are logged: {logs}"
    );
    for (what, secret) in &secrets {
        assert!(secret.len() >= 6, "{what} is a real value");
        assert!(!holds(&logs, secret), "the {what} is in the log:\n{logs}");
    }
}

/// Whether `secret` is in `logs` as itself. A six-digit code counts only where it stands alone (not
/// inside a longer number, nor as the microseconds of a time or a duration after a `.`), so that
/// the log's own numbers are not taken for it.
fn holds(logs: &str, secret: &str) -> bool {
    if !secret.bytes().all(|b| b.is_ascii_digit()) {
        return logs.contains(secret);
    }
    logs.match_indices(secret).any(|(at, _)| {
        let before = logs[..at].chars().next_back();
        let after = logs[at + secret.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_digit() || c == '.') && !after.is_some_and(|c| c.is_ascii_digit())
    })
}
