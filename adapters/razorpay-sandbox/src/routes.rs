//! The sandbox over HTTP: Razorpay's API, the checkout script and the test bank's calls.

use marque_razorpay::protocol::{self, CaptureBody, ErrorBody, NewOrderBody, RefundBody};
use poem::http::StatusCode;
use poem::web::headers::authorization::Basic;
use poem::web::headers::{Authorization, HeaderMapExt};
use poem::web::{Data, Path, Query};
use poem::{get, handler, post, Body, EndpointExt, Request, Response, Route};
use serde::{Deserialize, Serialize};

use crate::{Outcome, PayAnswer, Prefill, Refusal, Sandbox};

/// The checkout script; `"__SANDBOX_BASE__"` becomes the sandbox's public base as a JS string.
const CHECKOUT_JS: &str = include_str!("checkout.js");

impl Sandbox {
    /// Every route of the sandbox, to be nested under [`crate::SandboxConfig::public_base`]'s path
    /// (e.g. `Route::new().nest("/sandbox/razorpay", sandbox.routes())`) or served alone.
    #[must_use]
    pub fn routes(&self) -> Route {
        Route::new()
            .at("/v1/orders", post(post_order.data(self.clone())))
            .at("/v1/orders/:id", get(get_order.data(self.clone())))
            .at("/v1/orders/:id/payments", get(get_order_payments.data(self.clone())))
            .at("/v1/payments/:id", get(get_payment.data(self.clone())))
            .at("/v1/payments/:id/capture", post(post_capture.data(self.clone())))
            .at("/v1/payments/:id/refund", post(post_refund.data(self.clone())))
            .at("/v1/payments/:id/refunds", get(get_payment_refunds.data(self.clone())))
            .at("/v1/payments/:id/refunds/:refund_id", get(get_payment_refund.data(self.clone())))
            .at("/v1/refunds/:id", get(get_refund.data(self.clone())))
            .at("/checkout.js", get(checkout_js.data(self.clone())))
            .at("/checkout/orders/:id", get(get_checkout_order.data(self.clone())))
            .at("/pay", post(post_pay.data(self.clone())))
    }

    /// The checkout script as served, with this sandbox's address in it.
    #[must_use]
    pub fn checkout_script(&self) -> String {
        let base = serde_json::to_string(&self.inner.config.public_base).unwrap_or_else(|_| "\"\"".to_owned());
        CHECKOUT_JS.replace("\"__SANDBOX_BASE__\"", &base)
    }
}

fn json<T: Serialize>(status: StatusCode, value: &T) -> Response {
    let body = serde_json::to_vec(value).unwrap_or_default();
    Response::builder().status(status).content_type("application/json").body(body)
}

fn answer<T: Serialize>(result: Result<T, Refusal>) -> Response {
    match result {
        Ok(value) => json(StatusCode::OK, &value),
        Err(refusal) => json(
            StatusCode::from_u16(refusal.status).unwrap_or(StatusCode::BAD_REQUEST),
            &ErrorBody::bad_request(refusal.description),
        ),
    }
}

/// Razorpay's API wants Basic auth with the key id and secret.
fn authenticated(sandbox: &Sandbox, request: &Request) -> Result<(), Refusal> {
    let credentials = request.headers().typed_get::<Authorization<Basic>>();
    match credentials {
        Some(Authorization(basic)) if sandbox.authenticates(basic.username(), basic.password()) => Ok(()),
        _ => Err(Refusal { status: 401, description: "Authentication failed".to_owned() }),
    }
}

/// A JSON body read by hand, so that a bad one gets Razorpay's error shape.
async fn read<T: for<'de> Deserialize<'de>>(body: Body) -> Result<T, Refusal> {
    let bytes = body.into_vec().await.map_err(|_| Refusal::bad_request("The request body could not be read"))?;
    serde_json::from_slice(&bytes).map_err(|e| Refusal::bad_request(format!("The request body is not valid: {e}")))
}

#[handler]
async fn post_order(sandbox: Data<&Sandbox>, request: &Request, body: Body) -> Response {
    answer(
        async {
            authenticated(&sandbox, request)?;
            let order: NewOrderBody = read(body).await?;
            sandbox.create_order(&order)
        }
        .await,
    )
}

#[handler]
fn get_order(sandbox: Data<&Sandbox>, request: &Request, Path(id): Path<String>) -> Response {
    answer(authenticated(&sandbox, request).and_then(|()| sandbox.order(&id)))
}

#[handler]
fn get_payment(sandbox: Data<&Sandbox>, request: &Request, Path(id): Path<String>) -> Response {
    answer(authenticated(&sandbox, request).and_then(|()| sandbox.payment(&id)))
}

#[handler]
fn get_order_payments(sandbox: Data<&Sandbox>, request: &Request, Path(id): Path<String>) -> Response {
    answer(authenticated(&sandbox, request).and_then(|()| sandbox.order_payments(&id)))
}

#[handler]
async fn post_capture(sandbox: Data<&Sandbox>, request: &Request, Path(id): Path<String>, body: Body) -> Response {
    answer(
        async {
            authenticated(&sandbox, request)?;
            let capture: CaptureBody = read(body).await?;
            sandbox.capture(&id, &capture)
        }
        .await,
    )
}

#[handler]
async fn post_refund(sandbox: Data<&Sandbox>, request: &Request, Path(id): Path<String>, body: Body) -> Response {
    answer(
        async {
            authenticated(&sandbox, request)?;
            // Razorpay takes an empty body as a full refund.
            let bytes =
                body.into_vec().await.map_err(|_| Refusal::bad_request("The request body could not be read"))?;
            let refund: RefundBody = if bytes.iter().all(u8::is_ascii_whitespace) {
                RefundBody { amount: None, speed: None, receipt: None, notes: None }
            } else {
                serde_json::from_slice(&bytes)
                    .map_err(|e| Refusal::bad_request(format!("The request body is not valid: {e}")))?
            };
            sandbox.refund(&id, &refund, request.header(protocol::REFUND_IDEMPOTENCY_HEADER))
        }
        .await,
    )
}

#[handler]
fn get_payment_refunds(sandbox: Data<&Sandbox>, request: &Request, Path(id): Path<String>) -> Response {
    answer(authenticated(&sandbox, request).and_then(|()| sandbox.payment_refunds(&id)))
}

#[handler]
fn get_payment_refund(
    sandbox: Data<&Sandbox>,
    request: &Request,
    Path((id, refund_id)): Path<(String, String)>,
) -> Response {
    answer(authenticated(&sandbox, request).and_then(|()| sandbox.payment_refund(&id, &refund_id)))
}

#[handler]
fn get_refund(sandbox: Data<&Sandbox>, request: &Request, Path(id): Path<String>) -> Response {
    answer(authenticated(&sandbox, request).and_then(|()| sandbox.refund_entity(&id)))
}

#[handler]
fn checkout_js(sandbox: Data<&Sandbox>) -> Response {
    Response::builder()
        .content_type("application/javascript; charset=utf-8")
        .header("cache-control", "no-cache")
        .body(sandbox.checkout_script())
}

#[derive(Debug, Deserialize)]
struct KeyQuery {
    #[serde(default)]
    key_id: String,
}

/// What the test bank page shows: the order's amount, once the key is the order's.
#[derive(Debug, Serialize)]
struct CheckoutOrder {
    id: String,
    amount: i64,
    currency: String,
}

#[handler]
fn get_checkout_order(sandbox: Data<&Sandbox>, Path(id): Path<String>, Query(query): Query<KeyQuery>) -> Response {
    answer(sandbox.checkout_order(&id, &query.key_id).map(|order| CheckoutOrder {
        id: order.id,
        amount: order.amount,
        currency: order.currency,
    }))
}

/// The test bank's button press.
#[derive(Debug, Deserialize)]
struct PayRequest {
    order_id: String,
    #[serde(default)]
    key_id: String,
    outcome: Outcome,
    #[serde(flatten)]
    prefill: Prefill,
}

#[handler]
async fn post_pay(sandbox: Data<&Sandbox>, body: Body) -> Response {
    let paid = async {
        let request: PayRequest = read(body).await?;
        sandbox.checkout_order(&request.order_id, &request.key_id)?;
        sandbox.pay_as(&request.order_id, request.outcome, request.prefill)
    }
    .await;
    match paid {
        Ok(PayAnswer::Paid(handler_response)) => json(StatusCode::OK, &handler_response),
        // A failed payment is the bank's answer, not a bad request: the script hands it on.
        Ok(PayAnswer::Failed(failure)) => json(StatusCode::OK, &failure),
        Err(refusal) => answer::<()>(Err(refusal)),
    }
}
