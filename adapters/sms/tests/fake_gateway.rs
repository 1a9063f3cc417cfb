//! `SmsGatewayNotifier` against a local fake of MSG91's flow API (wiremock on port 0):
//! the exact request, and how each kind of failure reaches the port.

use std::collections::BTreeMap;
use std::time::Duration;

use marque_ports::{Attachment, Channel, Notification, Notifier, NotifyError};
use marque_sms::{SmsGatewayConfig, SmsGatewayNotifier};
use secrecy::SecretString;
use serde_json::json;
use wiremock::matchers::{body_json, header, method, path};
use wiremock::{Mock, MockBuilder, MockServer, ResponseTemplate};

const AUTH_KEY: &str = "test-auth-key-5f3c";

fn config(base_url: &str) -> SmsGatewayConfig {
    let mut config =
        SmsGatewayConfig::msg91(SecretString::from(AUTH_KEY), "MRQPRT", "1201160000000000001", "65f0c0ffee0tp");
    config.base_url = base_url.to_owned();
    config.timeout = Duration::from_millis(700);
    config.templates = BTreeMap::from([("order-shipped".to_owned(), "65f0shipped".to_owned())]);
    config
}

fn notifier(server: &MockServer) -> SmsGatewayNotifier {
    SmsGatewayNotifier::new(config(&server.uri())).expect("a valid configuration")
}

fn otp_sms(recipient: &str) -> Notification {
    Notification {
        channel: Channel::Sms,
        recipient: recipient.to_owned(),
        subject: String::new(),
        text: "482913 is your Marque code. It is valid for 10 minutes. Do not share it. - Marque Parts".to_owned(),
        template: Some("otp".to_owned()),
        attachments: Vec::new(),
    }
}

/// Every request the fake received must be a flow request.
fn the_flow_request() -> MockBuilder {
    Mock::given(method("POST")).and(path("/api/v5/flow"))
}

#[tokio::test]
async fn a_code_goes_out_as_one_flow_request_naming_the_dlt_template_sender_and_mobile() {
    let server = MockServer::start().await;
    the_flow_request()
        .and(header("authkey", AUTH_KEY))
        .and(header("content-type", "application/json"))
        .and(body_json(json!({
            "template_id": "65f0c0ffee0tp",
            "sender": "MRQPRT",
            "recipients": [{ "mobiles": "919876543210", "otp": "482913" }],
        })))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({ "type": "success", "message": "3763646c3058373530393938" })),
        )
        .expect(1)
        .mount(&server)
        .await;

    notifier(&server).send(&otp_sms("9876543210")).await.expect("the gateway accepts");
}

/// Expects exactly one flow request: the one-time-code template with 482913, to `mobiles`.
async fn expect_one_code_to(server: &MockServer, mobiles: &str) {
    the_flow_request()
        .and(body_json(json!({
            "template_id": "65f0c0ffee0tp",
            "sender": "MRQPRT",
            "recipients": [{ "mobiles": mobiles, "otp": "482913" }],
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "type": "success", "message": "ok" })))
        .expect(1)
        .mount(server)
        .await;
}

#[tokio::test]
async fn no_template_means_the_otp_template_and_a_prefixed_mobile_is_read() {
    let server = MockServer::start().await;
    expect_one_code_to(&server, "917012345678").await;
    let sms = Notification { template: None, ..otp_sms("+91 70123 45678") };
    notifier(&server).send(&sms).await.expect("the gateway accepts");
}

#[tokio::test]
async fn a_named_template_uses_its_configured_id_and_an_unknown_one_is_refused() {
    let server = MockServer::start().await;
    the_flow_request()
        .and(body_json(json!({
            "template_id": "65f0shipped",
            "sender": "MRQPRT",
            "recipients": [{ "mobiles": "919876543210", "otp": "482913" }],
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "type": "success", "message": "ok" })))
        .expect(1)
        .mount(&server)
        .await;
    let notifier = notifier(&server);

    notifier
        .send(&Notification { template: Some("order-shipped".to_owned()), ..otp_sms("9876543210") })
        .await
        .expect("sent");
    let unknown = notifier.send(&Notification { template: Some("birthday".to_owned()), ..otp_sms("9876543210") }).await;
    assert!(matches!(unknown, Err(NotifyError::Refused { .. })), "{unknown:?}");
}

#[tokio::test]
async fn attachments_are_ignored() {
    let server = MockServer::start().await;
    expect_one_code_to(&server, "919876543210").await;
    let invoice = Attachment {
        filename: "invoice.pdf".into(),
        content_type: "application/pdf".into(),
        bytes: b"%PDF-1.7".to_vec(),
    };
    let sms = Notification { attachments: vec![invoice], ..otp_sms("9876543210") };
    notifier(&server).send(&sms).await.expect("the gateway accepts the message alone");
}

#[tokio::test]
async fn what_is_refused_before_the_gateway_never_reaches_it() {
    let server = MockServer::start().await;
    the_flow_request().respond_with(ResponseTemplate::new(200)).expect(0).mount(&server).await;
    let notifier = notifier(&server);

    for bad in ["12345", "5876543210", "asha@example.in", ""] {
        let outcome = notifier.send(&otp_sms(bad)).await;
        assert!(matches!(outcome, Err(NotifyError::Refused { .. })), "{bad:?}: {outcome:?}");
    }
    let email = Notification { channel: Channel::Email, ..otp_sms("9876543210") };
    assert!(matches!(notifier.send(&email).await, Err(NotifyError::Refused { .. })));
    let no_code = Notification { text: "Your order has shipped.".to_owned(), ..otp_sms("9876543210") };
    assert!(matches!(notifier.send(&no_code).await, Err(NotifyError::Refused { .. })));
}

async fn outcome_when_the_gateway_answers(answer: ResponseTemplate) -> Result<(), NotifyError> {
    let server = MockServer::start().await;
    the_flow_request().respond_with(answer).expect(1).mount(&server).await;
    notifier(&server).send(&otp_sms("9876543210")).await
}

#[tokio::test]
async fn a_4xx_is_refused() {
    for status in [400, 401, 403, 404, 422] {
        let answer =
            ResponseTemplate::new(status).set_body_json(json!({ "type": "error", "message": "Invalid template" }));
        let outcome = outcome_when_the_gateway_answers(answer).await;
        assert!(
            matches!(&outcome, Err(NotifyError::Refused { reason }) if reason.contains("Invalid template")),
            "{status}: {outcome:?}"
        );
    }
}

#[tokio::test]
async fn an_error_in_a_200_body_is_refused() {
    let answer =
        ResponseTemplate::new(200).set_body_json(json!({ "type": "error", "message": "Mobile number not valid" }));
    let outcome = outcome_when_the_gateway_answers(answer).await;
    assert!(
        matches!(&outcome, Err(NotifyError::Refused { reason }) if reason.contains("Mobile number not valid")),
        "{outcome:?}"
    );
}

#[tokio::test]
async fn a_5xx_or_too_many_requests_is_unavailable() {
    for status in [500, 502, 503, 429] {
        let outcome =
            outcome_when_the_gateway_answers(ResponseTemplate::new(status).set_body_string("upstream trouble")).await;
        assert!(matches!(outcome, Err(NotifyError::Unavailable { .. })), "{status}: {outcome:?}");
    }
}

#[tokio::test]
async fn a_gateway_slower_than_the_timeout_is_unavailable() {
    let answer =
        ResponseTemplate::new(200).set_body_json(json!({ "type": "success" })).set_delay(Duration::from_secs(5));
    let started = std::time::Instant::now();
    let outcome = outcome_when_the_gateway_answers(answer).await;
    assert!(matches!(outcome, Err(NotifyError::Unavailable { .. })), "{outcome:?}");
    assert!(started.elapsed() < Duration::from_secs(4), "waited {:?}", started.elapsed());
}

#[tokio::test]
async fn a_gateway_that_is_not_there_is_unavailable() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    drop(listener);
    let notifier = SmsGatewayNotifier::new(config(&format!("http://127.0.0.1:{port}"))).expect("a valid configuration");
    let outcome = notifier.send(&otp_sms("9876543210")).await;
    assert!(matches!(outcome, Err(NotifyError::Unavailable { .. })), "{outcome:?}");
}
