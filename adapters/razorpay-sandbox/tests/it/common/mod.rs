//! What the sandbox's tests share: keys, a poem server on a free port, and the two ways of paying
//! (in process, and over HTTP as the checkout script does).

use async_trait::async_trait;
use marque_contract_tests::payment::{Attempt, Outcome, ProviderDriver};
use marque_ports::{PaymentId, PaymentOrderId};
use marque_razorpay::{RazorpayConfig, RazorpayGateway};
use marque_razorpay_sandbox::{PayAnswer, Sandbox, SandboxConfig};
use poem::listener::{Acceptor, Listener, TcpListener};
use poem::{Endpoint, Server};
use secrecy::SecretString;
use serde_json::{json, Value};
use tokio::sync::oneshot;

pub const KEY_ID: &str = "rzp_test_Sandbox000001";
pub const KEY_SECRET: &str = "sandbox-key-secret-1b7e";
pub const WEBHOOK_SECRET: &str = "sandbox-webhook-secret-94c2";

pub fn sandbox_config(public_base: &str, webhook_url: Option<String>) -> SandboxConfig {
    SandboxConfig {
        key_id: KEY_ID.to_owned(),
        key_secret: SecretString::from(KEY_SECRET),
        webhook_secret: SecretString::from(WEBHOOK_SECRET),
        webhook_url,
        public_base: public_base.to_owned(),
    }
}

/// A poem app on a free 127.0.0.1 port, stopped when dropped.
pub struct Served {
    pub base: String,
    stop: Option<oneshot::Sender<()>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Binds a free port, builds the app knowing its address, and serves it.
pub async fn serve<E: Endpoint + 'static>(app: impl FnOnce(&str) -> E) -> Served {
    let acceptor = TcpListener::bind("127.0.0.1:0").into_acceptor().await.expect("bind a free port");
    let port = acceptor.local_addr()[0].as_socket_addr().expect("a TCP address").port();
    let base = format!("http://127.0.0.1:{port}");
    let endpoint = app(&base);
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(Server::new_with_acceptor(acceptor).run_with_graceful_shutdown(
        endpoint,
        async {
            let _ = stopped.await;
        },
        Some(std::time::Duration::from_secs(1)),
    ));
    Served { base, stop: Some(stop) }
}

/// The sandbox served alone on a free port, and `RazorpayGateway` pointed at it.
pub async fn served_sandbox(webhook_url: Option<String>) -> (Sandbox, Served, RazorpayGateway) {
    let mut sandbox = None;
    let served = serve(|base| {
        let created = Sandbox::new(sandbox_config(base, webhook_url));
        let routes = created.routes();
        sandbox = Some(created);
        routes
    })
    .await;
    let gateway = RazorpayGateway::new(razorpay_config(&served.base)).expect("a valid configuration");
    (sandbox.expect("built by serve"), served, gateway)
}

pub fn razorpay_config(base_url: &str) -> RazorpayConfig {
    let mut config = RazorpayConfig::new(KEY_ID, SecretString::from(KEY_SECRET), SecretString::from(WEBHOOK_SECRET));
    config.base_url = base_url.to_owned();
    config.timeout = std::time::Duration::from_secs(5);
    config
}

/// Pays by calling the sandbox directly.
pub struct InProcess(pub Sandbox);

/// Pays as the checkout script does: `POST {base}/pay`.
pub struct OverHttp {
    pub base: String,
    pub client: reqwest::Client,
}

impl OverHttp {
    pub fn new(base: &str) -> Self {
        Self { base: base.to_owned(), client: reqwest::Client::new() }
    }

    pub async fn pay_json(&self, body: Value) -> (u16, Value) {
        let answer =
            self.client.post(format!("{}/pay", self.base)).json(&body).send().await.expect("the sandbox answers");
        (answer.status().as_u16(), answer.json().await.expect("a JSON answer"))
    }
}

fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Success => "success",
        Outcome::Authorized => "authorized",
        Outcome::Failure => "failure",
    }
}

#[async_trait]
impl ProviderDriver for InProcess {
    async fn pay(&self, order: &PaymentOrderId, outcome: Outcome) -> Attempt {
        let outcome = match outcome {
            Outcome::Success => marque_razorpay_sandbox::Outcome::Success,
            Outcome::Authorized => marque_razorpay_sandbox::Outcome::Authorized,
            Outcome::Failure => marque_razorpay_sandbox::Outcome::Failure,
        };
        match self.0.pay(&order.0, outcome).expect("a payable order") {
            PayAnswer::Paid(handler) => Attempt::Paid {
                payment_id: PaymentId(handler.razorpay_payment_id),
                signature: handler.razorpay_signature,
            },
            PayAnswer::Failed(failure) => {
                let metadata = failure.error.metadata.expect("metadata");
                Attempt::Failed {
                    payment_id: PaymentId(metadata["payment_id"].as_str().expect("payment_id").to_owned()),
                }
            }
        }
    }
    fn key_secret(&self) -> String {
        KEY_SECRET.to_owned()
    }
    fn webhook_secret(&self) -> String {
        WEBHOOK_SECRET.to_owned()
    }
}

#[async_trait]
impl ProviderDriver for OverHttp {
    async fn pay(&self, order: &PaymentOrderId, outcome: Outcome) -> Attempt {
        let (status, body) =
            self.pay_json(json!({ "order_id": order.0, "key_id": KEY_ID, "outcome": outcome_name(outcome) })).await;
        assert_eq!(status, 200, "{body}");
        match body["error"]["metadata"]["payment_id"].as_str() {
            Some(payment_id) => Attempt::Failed { payment_id: PaymentId(payment_id.to_owned()) },
            None => Attempt::Paid {
                payment_id: PaymentId(body["razorpay_payment_id"].as_str().expect("razorpay_payment_id").to_owned()),
                signature: body["razorpay_signature"].as_str().expect("razorpay_signature").to_owned(),
            },
        }
    }
    fn key_secret(&self) -> String {
        KEY_SECRET.to_owned()
    }
    fn webhook_secret(&self) -> String {
        WEBHOOK_SECRET.to_owned()
    }
}
