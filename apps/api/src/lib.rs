//! The public HTTP contract: every call the storefront makes, described with poem-openapi.
//!
//! One Api per tag (`catalog`, `account`, `wishlist`, `address`, `checkout`, `orders`, `shop`,
//! `health`, `google` (sign-in), `privacy`), each built from the one service it calls, plus the
//! [`AuthContext`] every request carries for the session check. [`routes`] takes the [`Services`]
//! the composition root built and hands each Api its part; the OpenAPI document's post-processing
//! is in [`openapi`]; the finished responses of the catalog's calls are kept by
//! [`ResponseCache`]; the HTTP validators (conditional requests, `Allow`, body limits, the JSON
//! error shape) are [`http_cache`], [`allow`], [`body_limits`] and [`error`].

/// The response enum of a call that needs a session (account, wishlist, addresses, checkout, orders):
/// the body, 400 for a field that does not parse (an [`ErrorBody`], or the `bad_request = Type` given,
/// which must be `From<ErrorBody>`), 401 without a valid session, the call's own codes, and 503.
macro_rules! session_response {
    (@build $name:ident, $body:ty, $handler:ident, $handler_name:tt, $bad:ty, [$($extra:tt)*], { $($(#[doc = $doc:literal])* $variant:ident = $status:literal),* $(,)? }) => {
        // An answer is built once and moved straight into the response: the size of its largest
        // variant (a customer's whole data export) costs nothing worth a box.
        #[allow(clippy::large_enum_variant)]
        #[derive(ApiResponse)]
        #[oai(bad_request_handler = $handler_name)]
        enum $name {
            #[oai(status = 200)]
            Ok(Json<$body>),
            /// A field that does not parse; its message and code come from the shop's rules.
            #[oai(status = 400)]
            BadRequest(Json<$bad>),
            /// No valid session (`account.login_required`).
            #[oai(status = 401)]
            Unauthorized(Json<ErrorBody>),
            $(
                $(#[doc = $doc])*
                #[oai(status = $status)]
                $variant(Json<ErrorBody>),
            )*
            $($extra)*
            /// A store or service the call needs cannot be reached right now.
            #[oai(status = 503)]
            Unavailable(Json<ErrorBody>),
        }

        fn $handler(err: poem::Error) -> $name {
            match err.status() {
                poem::http::StatusCode::UNAUTHORIZED => $name::Unauthorized(ErrorBody::from_message(Message::LoginRequired)),
                poem::http::StatusCode::SERVICE_UNAVAILABLE => $name::Unavailable(ErrorBody::from_message(Message::AccountUnavailable)),
                _ => $name::BadRequest(Json(<$bad>::from(ErrorBody::from_poem(&err).0))),
            }
        }
    };
    ($name:ident, $body:ty, $handler:ident, $handler_name:tt, { $($rest:tt)* }) => {
        session_response!(@build $name, $body, $handler, $handler_name, ErrorBody, [], { $($rest)* });
    };
    ($name:ident, $body:ty, $handler:ident, $handler_name:tt, limited, { $($rest:tt)* }) => {
        session_response!($name, $body, $handler, $handler_name, bad_request = ErrorBody, limited, { $($rest)* });
    };
    ($name:ident, $body:ty, $handler:ident, $handler_name:tt, bad_request = $bad:ty, { $($rest:tt)* }) => {
        session_response!(@build $name, $body, $handler, $handler_name, $bad, [], { $($rest)* });
    };
    // A rate-limited call (see `limits`): 429 with `Retry-After` as well.
    ($name:ident, $body:ty, $handler:ident, $handler_name:tt, bad_request = $bad:ty, limited, { $($rest:tt)* }) => {
        session_response!(@build $name, $body, $handler, $handler_name, $bad, [
            /// Too many of these calls in a short time (`request.too_many`); `Retry-After` gives the seconds to wait.
            #[oai(status = 429)]
            TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
        ], { $($rest)* });
    };
}

/// Counts one rate-limited call of the customer and returns early from the handler with the
/// response's `TooMany` (429 + `Retry-After`) or `Unavailable` (503) when it may not go ahead.
macro_rules! throttle {
    ($throttle:expr, $action:expr, $customer:expr, $response:ident) => {
        if let Err(refusal) = $crate::limits::check(&$throttle, $action, $customer.id()).await {
            return match refusal {
                $crate::limits::Refusal::TooMany(body, secs) => $response::TooMany(body, secs),
                $crate::limits::Refusal::Unavailable(body) => $response::Unavailable(body),
            };
        }
    };
}

/// `Debug` for a request or answer type holding a secret (a password, a one-time code, a token):
/// the fields named after `hides` print as `[redacted]`, whatever they hold.
macro_rules! redacted_debug {
    ($ty:ident { $($shown:ident),* } hides $($hidden:ident),+) => {
        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($ty))
                    $(.field(stringify!($shown), &self.$shown))*
                    $(.field(stringify!($hidden), &format_args!("[redacted]")))+
                    .finish()
            }
        }
    };
}

/// [`throttle!`] for a per-client limit: counted under the key of the client that sent `req`
/// (see [`crate::clients`]).
macro_rules! by_client {
    ($throttle:expr, $action:expr, $req:expr, $response:ident) => {
        let client = $crate::auth::client_address($req);
        if let Err(refusal) = $crate::limits::check(&$throttle, $action, &client).await {
            return match refusal {
                $crate::limits::Refusal::TooMany(body, secs) => $response::TooMany(body, secs),
                $crate::limits::Refusal::Unavailable(body) => $response::Unavailable(body),
            };
        }
    };
}

mod account;
mod address;
#[macro_use]
pub mod admin;
pub mod allow;
mod auth;
pub mod avatar;
pub mod body_limits;
mod catalog;
pub mod catalog_budget;
mod checkout;
pub mod clients;
pub mod error;
mod garage;
mod google;
mod grievances;
mod health;
pub mod http_cache;
mod limits;
mod model;
pub mod openapi;
mod orders;
mod privacy;
pub mod response_cache;
mod returns;
mod shop;
mod vehicles;
mod wishlist;

use std::sync::Arc;

use marque_app::{
    AccountService, AddressService, CatalogService, CheckoutService, OrderService, PrivacyService, Throttle,
    WishlistService,
};
use poem::{Endpoint, EndpointExt, Route};

pub use auth::{ensure_owner, AuthContext, ClientValidation, Customer, CLIENT_VALIDATION_HEADER};
pub use catalog_budget::{BudgetedCatalogStore, CatalogGuard};
pub use error::{json_errors, ErrorBody};
pub use google::SignIn;
pub use health::{DatabaseReadiness, WarmUp};
pub use http_cache::names as names_tag;
pub use openapi::spec_json;
pub use response_cache::ResponseCache;
pub use shop::{GrievanceOfficer, PaymentSettings, ShopIdentity, SignInSettings};

/// The messages the `dev` outbox holds, as the JSON `GET /api/dev/outbox` answers.
pub type DevOutbox = Arc<dyn Fn() -> serde_json::Value + Send + Sync>;

/// The use cases and settings the API calls, built by the composition root. [`routes`] hands
/// each Api only its own part.
#[derive(Clone)]
pub struct Services {
    pub catalog: CatalogService,
    pub accounts: AccountService,
    pub wishlist: WishlistService,
    pub addresses: AddressService,
    pub checkout: CheckoutService,
    /// Purchase history, invoices and order confirmations.
    pub orders: OrderService,
    /// A customer's copy of their data, and the erasure of their account.
    pub privacy: PrivacyService,
    /// Staff: customers, their orders and offers (`admin-customers`).
    pub customers: marque_app::admin::customers::CustomersService,
    /// Staff: the audit trail (`admin-audit`).
    pub audit: marque_app::admin::audit::AuditService,
    /// Back office: products' photographs.
    pub photos: marque_app::admin::photos::PhotosService,
    /// Rate limits on customers' abusable writes, counted in the shared rate counters (`RateCounter`, one count for every instance).
    pub throttle: Throttle,
    /// Whether the database answers right now (`/api/health/ready`).
    pub readiness: DatabaseReadiness,
    /// Whether the instance has warmed its catalog answers once since it started (`/api/health/ready`
    /// answers 503 `warming` until then, at most its limit).
    pub warm_up: Arc<WarmUp>,
    /// Who runs the shop, published to the frontends.
    pub identity: Arc<ShopIdentity>,
    /// Sign-in with Google (or the `dev` stand-in); `None` when not configured.
    pub sign_in: Option<SignIn>,
    /// The expected `x-client-validation` header value on authorized calls, when configured.
    pub client_validation: Option<Arc<ClientValidation>>,
    /// Finished responses of the catalog's calls; `None` when the catalog cache is off.
    pub response_cache: Option<Arc<ResponseCache>>,
    /// Each client's budget of catalog searches and listings past the answer cache, and their deadline.
    pub catalog_guard: Arc<CatalogGuard>,
    /// The back office's staff: set-up, sign-in, sessions (also the admin schemes' [`admin::auth::AdminContext`]).
    pub staff: marque_app::admin::staff::StaffService,
    /// `GET /api/dev/outbox` (`MARQUE_ENV=dev` with `MARQUE_NOTIFY=outbox` only): the messages
    /// sent, as the JSON the route answers.
    pub dev_outbox: Option<DevOutbox>,
    /// The back office's stock ledger (`admin-stock`).
    pub stock: marque_app::admin::stock::StockService,
    /// The back office's catalog editor (`admin-catalog`).
    pub admin_catalog: marque_app::admin::catalog::AdminCatalogService,
    /// The back office's orders (`admin-orders`).
    pub admin_orders: marque_app::admin::orders::AdminOrdersService,
    /// The customer notices of an order, as staff see them (`admin-orders`).
    pub order_notices: marque_app::admin::notices::OrderNoticesService,
    /// The back office's cancellations and refunds (`admin-orders`).
    pub refunds: marque_app::admin::refunds::RefundsService,
    /// The back office's catalog imports: upload, progress, report, cancel (`admin-imports`).
    pub imports: marque_app::admin::imports::ImportService,
    /// The back office's catalog export as CSV (`admin-imports`).
    pub exports: marque_app::admin::imports::export::ExportService,
    /// The refunds' GST credit notes as PDFs, for customers (`orders`) and staff (`admin-orders`).
    pub credit_notes: marque_app::CreditNoteService,
    /// The contact page's grievance form (`grievances`).
    pub grievances: marque_app::GrievanceService,
    /// The grievance officer's tickets (`admin-grievances`).
    pub admin_grievances: marque_app::admin::grievances::AdminGrievancesService,
    /// The back office's first page (`admin-dashboard`).
    pub dashboard: marque_app::admin::dashboard::DashboardService,
    /// The vehicle table's lists and the car of a listing's `fits` (`vehicles`, `catalog`).
    pub vehicles: marque_app::VehicleService,
    /// The back office's vehicles and products' fitment (`admin-fitment`).
    pub admin_fitment: marque_app::admin::fitment::AdminFitmentService,
    /// Signed-in shoppers' garages (`garage`).
    pub garage: marque_app::GarageService,
    /// Returns within the warranty: customers' requests (`returns`) and the shop's moves (`admin-returns`).
    pub returns: marque_app::ReturnsService,
}

impl std::fmt::Debug for Services {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Services")
            .field("identity", &self.identity)
            .field("sign_in", &self.sign_in)
            .field("response_cache", &self.response_cache)
            .field("dev_outbox", &self.dev_outbox.is_some())
            .finish_non_exhaustive()
    }
}

impl Services {
    /// The session check's part: the accounts and the client validation value.
    #[must_use]
    pub fn auth(&self) -> AuthContext {
        AuthContext { accounts: self.accounts.clone(), client_validation: self.client_validation.clone() }
    }

    /// The staff schemes' part: the staff sessions and the client validation value.
    #[must_use]
    pub fn admin(&self) -> admin::auth::AdminContext {
        admin::auth::AdminContext {
            sessions: Arc::new(self.staff.clone()),
            client_validation: self.client_validation.clone(),
        }
    }
}

/// Every API route, mounted at `/api` by the caller.
pub fn routes(services: Services) -> impl Endpoint {
    let service = openapi::service(&services);
    let document = openapi::spec_json(&services);
    let allow = std::sync::Arc::new(allow::AllowTable::new(&document, "/api"));
    let viewer = service.swagger_ui();
    let sign_in = google::SignInContext::of(&services);
    let mut route = Route::new()
        .nest("/", service)
        .at(
            "/openapi.json",
            poem::endpoint::make_sync(move |_| {
                poem::Response::builder().content_type("application/json").body(document.clone())
            }),
        )
        .nest("/docs", viewer);
    route = route
        .at("/razorpay/webhook", poem::post(checkout::webhook).data(services.checkout.clone()))
        .at("/dev/signin", poem::get(google::dev_page))
        .at("/dev/signin/continue", poem::get(google::dev_continue));
    if let Some(outbox) = services.dev_outbox.clone() {
        route = route.at("/dev/outbox", poem::get(poem::endpoint::make_sync(move |_| poem::web::Json(outbox()))));
    }
    // Each layer's future is boxed: unboxed, a debug build nests every layer's future in the
    // next one's and a request's poll overflowed a 2 MiB thread stack.
    let pages = services.response_cache.clone();
    let route =
        route.data(sign_in).data(services.auth()).data(services.admin()).boxed().around(http_cache::revalidate).boxed();
    // Finished product answers are given before anything else reads the request (they carry their tag).
    let route = match pages {
        Some(pages) => route
            .around(move |next, req| {
                let pages = pages.clone();
                async move { response_cache::serve(next, req, &pages).await }
            })
            .boxed(),
        None => route,
    };
    route.around(wishlist_trailing_slash).boxed().around(json_errors).boxed().around(move |next, req| {
        let allow = allow.clone();
        async move { allow::allow_on_405(next, req, &allow).await }
    })
}

/// `GET /api/get/wishlist/` (the specification's spelling) is `GET /api/get/wishlist`.
async fn wishlist_trailing_slash<E: Endpoint>(next: E, mut req: poem::Request) -> poem::Result<poem::Response> {
    if req.uri().path() == "/get/wishlist/" {
        let rewritten = match req.uri().query() {
            Some(q) => format!("/get/wishlist?{q}"),
            None => "/get/wishlist".to_owned(),
        };
        if let Ok(uri) = rewritten.parse() {
            *req.uri_mut() = uri;
        }
    }
    next.call(req).await.map(poem::IntoResponse::into_response)
}
