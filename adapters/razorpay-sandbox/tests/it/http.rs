//! The sandbox's routes as a client sees them: Razorpay's shapes, the checkout script, the test bank.

use crate::common;

use common::{served_sandbox, OverHttp, KEY_ID, KEY_SECRET};
use serde_json::{json, Value};

async fn get(client: &reqwest::Client, url: String, auth: Option<(&str, &str)>) -> (u16, Value) {
    let mut request = client.get(url);
    if let Some((user, password)) = auth {
        request = request.basic_auth(user, Some(password));
    }
    let answer = request.send().await.expect("the sandbox answers");
    (answer.status().as_u16(), answer.json().await.expect("JSON"))
}

async fn create(client: &reqwest::Client, base: &str, auth: (&str, &str), body: Value) -> (u16, Value) {
    let answer = client
        .post(format!("{base}/v1/orders"))
        .basic_auth(auth.0, Some(auth.1))
        .json(&body)
        .send()
        .await
        .expect("answer");
    (answer.status().as_u16(), answer.json().await.expect("JSON"))
}

fn bad_request(description: &str) -> Value {
    json!({ "error": { "code": "BAD_REQUEST_ERROR", "description": description } })
}

#[tokio::test]
async fn the_orders_api_answers_in_razorpays_shapes() {
    let (_sandbox, served, _gateway) = served_sandbox(None).await;
    let client = reqwest::Client::new();
    let auth = (KEY_ID, KEY_SECRET);

    let (status, order) =
        create(&client, &served.base, auth, json!({ "amount": 50_000, "currency": "INR", "receipt": "MRQ-1" })).await;
    assert_eq!(status, 200, "{order}");
    assert_eq!(order["entity"], "order");
    assert_eq!(
        (order["amount"].as_i64(), order["amount_due"].as_i64(), order["amount_paid"].as_i64()),
        (Some(50_000), Some(50_000), Some(0))
    );
    assert_eq!(
        (order["currency"].as_str(), order["receipt"].as_str(), order["status"].as_str()),
        (Some("INR"), Some("MRQ-1"), Some("created"))
    );
    let id = order["id"].as_str().expect("id");
    assert_eq!(get(&client, format!("{}/v1/orders/{id}", served.base), Some(auth)).await, (200, order.clone()));

    let refused = create(&client, &served.base, auth, json!({ "amount": 99, "currency": "INR", "receipt": "r" })).await;
    assert_eq!(refused, (400, bad_request("The amount must be atleast INR 1.00")));
    let not_json = client
        .post(format!("{}/v1/orders", served.base))
        .basic_auth(KEY_ID, Some(KEY_SECRET))
        .body("{")
        .send()
        .await
        .expect("answer");
    assert_eq!(not_json.status().as_u16(), 400);
    let unknown = get(&client, format!("{}/v1/payments/pay_Nope0000000000", served.base), Some(auth)).await;
    assert_eq!(unknown, (400, bad_request("The id provided does not exist")));
}

#[tokio::test]
async fn the_api_wants_the_key_id_and_secret() {
    let (_sandbox, served, _gateway) = served_sandbox(None).await;
    let client = reqwest::Client::new();
    let body = json!({ "amount": 500, "currency": "INR", "receipt": "r" });
    let failed = (401, bad_request("Authentication failed"));
    assert_eq!(create(&client, &served.base, (KEY_ID, "wrong-secret"), body.clone()).await, failed);
    assert_eq!(create(&client, &served.base, ("rzp_test_other", KEY_SECRET), body).await, failed);
    assert_eq!(get(&client, format!("{}/v1/orders/order_X", served.base), None).await, failed);
}

#[tokio::test]
async fn the_checkout_script_is_javascript_from_here_without_eval() {
    let (sandbox, served, _gateway) = served_sandbox(None).await;
    let answer = reqwest::get(format!("{}/checkout.js", served.base)).await.expect("answer");
    assert_eq!(answer.status().as_u16(), 200);
    let content_type = answer.headers()["content-type"].to_str().expect("ascii").to_owned();
    assert!(content_type.starts_with("application/javascript"), "{content_type}");
    let script = answer.text().await.expect("text");
    assert_eq!(script, sandbox.checkout_script());
    assert!(
        script.contains(&format!("var BASE = \"{}\";", served.base)),
        "the script calls back to where it was served"
    );
    for forbidden in
        ["eval(", "new Function", "innerHTML", "onclick", "setAttribute('style'", "__SANDBOX_BASE__", "<script"]
    {
        assert!(!script.contains(forbidden), "the script holds {forbidden}");
    }
    for needed in [
        "window.Razorpay",
        "'Success'",
        "'Failure'",
        "role: 'dialog'",
        "'aria-modal': 'true'",
        "payment.failed",
        "ondismiss",
    ] {
        assert!(script.contains(needed), "the script lacks {needed}");
    }
}

#[tokio::test]
async fn the_test_bank_checks_the_key_and_pays_once() {
    let (sandbox, served, _gateway) = served_sandbox(None).await;
    let client = reqwest::Client::new();
    let (_, order) = create(
        &client,
        &served.base,
        (KEY_ID, KEY_SECRET),
        json!({ "amount": 12_500, "currency": "INR", "receipt": "r" }),
    )
    .await;
    let id = order["id"].as_str().expect("id");

    let shown = get(&client, format!("{}/checkout/orders/{id}?key_id={KEY_ID}", served.base), None).await;
    assert_eq!(shown, (200, json!({ "id": id, "amount": 12_500, "currency": "INR" })));
    let other_key = get(&client, format!("{}/checkout/orders/{id}?key_id=rzp_test_other", served.base), None).await;
    assert_eq!(other_key.0, 400);

    let bank = OverHttp::new(&served.base);
    let wrong_key = bank.pay_json(json!({ "order_id": id, "key_id": "rzp_test_other", "outcome": "success" })).await;
    assert_eq!(wrong_key.0, 400);

    let (status, failed) = bank.pay_json(json!({ "order_id": id, "key_id": KEY_ID, "outcome": "failure", "email": "a@b.in", "contact": "9876543210" })).await;
    assert_eq!(status, 200);
    let error = &failed["error"];
    assert_eq!(
        (error["code"].as_str(), error["description"].as_str(), error["reason"].as_str()),
        (Some("BAD_REQUEST_ERROR"), Some("Payment failed"), Some("payment_failed"))
    );
    assert_eq!(error["metadata"]["order_id"], id);
    let failed_payment = sandbox.payment(error["metadata"]["payment_id"].as_str().expect("payment_id")).expect("kept");
    assert_eq!((failed_payment.status.as_str(), failed_payment.email.as_deref()), ("failed", Some("a@b.in")));

    let (status, paid) = bank.pay_json(json!({ "order_id": id, "key_id": KEY_ID, "outcome": "success" })).await;
    assert_eq!(status, 200);
    assert_eq!(paid["razorpay_order_id"], id);
    let keys: Vec<&String> = paid.as_object().expect("object").keys().collect();
    assert_eq!(keys, ["razorpay_order_id", "razorpay_payment_id", "razorpay_signature"]);

    let again = bank.pay_json(json!({ "order_id": id, "key_id": KEY_ID, "outcome": "success" })).await;
    assert_eq!(again, (400, bad_request("This order has already been paid")));
    let (_, order) = get(&client, format!("{}/v1/orders/{id}", served.base), Some((KEY_ID, KEY_SECRET))).await;
    assert_eq!((order["status"].as_str(), order["attempts"].as_i64()), (Some("paid"), Some(2)));
}

#[tokio::test]
async fn the_sandbox_nests_under_a_prefix() {
    let served = common::serve(|base| {
        let sandbox =
            marque_razorpay_sandbox::Sandbox::new(common::sandbox_config(&format!("{base}/sandbox/razorpay"), None));
        poem::Route::new().nest("/sandbox/razorpay", sandbox.routes())
    })
    .await;
    let script = reqwest::get(format!("{}/sandbox/razorpay/checkout.js", served.base))
        .await
        .expect("answer")
        .text()
        .await
        .expect("text");
    assert!(script.contains(&format!("\"{}/sandbox/razorpay\"", served.base)));
}
