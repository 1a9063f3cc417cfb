//! A customer for black-box tests: signing up, reading codes from the development outbox,
//! and JSON calls with and without a session.

use reqwest::multipart::Form;
use serde_json::{json, Value};

use super::TestShop;

pub const PASSWORD: &str = "abcdef1!";

pub async fn read(resp: reqwest::Response) -> (u16, Value) {
    let status = resp.status().as_u16();
    let ct = resp.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let text = resp.text().await.expect("a body");
    assert!(ct.starts_with("application/json"), "content-type {ct}: {text}");
    (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("JSON ({e}): {text}")))
}

pub async fn post(shop: &TestShop, path: &str, body: Value) -> (u16, Value) {
    read(shop.client.post(format!("{}{path}", shop.base)).json(&body).send().await.expect("answer")).await
}

pub async fn authed(shop: &TestShop, method: reqwest::Method, path: &str, token: &str) -> reqwest::RequestBuilder {
    shop.client.request(method, format!("{}{path}", shop.base)).bearer_auth(token)
}

pub async fn get_auth(shop: &TestShop, path: &str, token: &str) -> (u16, Value) {
    read(authed(shop, reqwest::Method::GET, path, token).await.send().await.expect("answer")).await
}

pub fn form(name: &str, email: &str, mobile: &str) -> Form {
    Form::new()
        .text("name", name.to_owned())
        .text("email", email.to_owned())
        .text("password", PASSWORD)
        .text("mobile", mobile.to_owned())
}

pub async fn register(shop: &TestShop, form: Form) -> (u16, Value) {
    read(shop.client.post(format!("{}/api/register", shop.base)).multipart(form).send().await.expect("answer")).await
}

/// The newest code the outbox holds for this recipient.
pub async fn code_for(shop: &TestShop, recipient: &str) -> String {
    let (status, messages) = shop.get_json("/api/dev/outbox").await;
    assert_eq!(status, 200);
    let text = messages
        .as_array()
        .expect("a list")
        .iter()
        .find(|m| m["recipient"] == recipient)
        .and_then(|m| m["text"].as_str())
        .unwrap_or_else(|| panic!("no message to {recipient}: {messages}"))
        .to_owned();
    text.chars().take(6).collect()
}

/// Signs up and verifies by mobile, then proves the email with its own code too (so email and
/// password log in): the session token and the customer's id.
pub async fn customer(shop: &TestShop, email: &str, mobile: &str) -> (String, String) {
    let (status, body) = register(shop, form("Asha", email, mobile)).await;
    assert_eq!(status, 200, "{body}");
    let code = code_for(shop, mobile).await;
    let (status, body) = post(shop, "/api/verify", json!({ "mobile": mobile, "otp": code })).await;
    assert_eq!(status, 200, "{body}");
    let token = body["token"].as_str().expect("token").to_owned();
    let code = code_for(shop, &email.to_lowercase()).await;
    let (status, proved) = post(shop, "/api/verify", json!({ "email": email, "mobile": mobile, "otp": code })).await;
    assert_eq!(status, 200, "the email's own code: {proved}");
    let (_, me) = get_auth(shop, "/api/user", &token).await;
    (token, me["user"]["_id"].as_str().expect("id").to_owned())
}
