//! The raw flags and `MARQUE_*` environment variables, as clap reads them: text and numbers with
//! their defaults, checked by nothing. [`super::Settings::from_flags`] parses them, once.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use secrecy::SecretString;

/// Every flag and `MARQUE_*` variable of the server.
#[derive(Debug, Clone, Args)]
pub struct Flags {
    /// Address to listen on; port 0 picks a free one.
    #[arg(long, env = "MARQUE_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: String,

    /// Directory for the embedded database and blobs.
    #[arg(long, env = "MARQUE_DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,

    /// Where uploaded pictures are kept: `local` (files under `<data dir>/blobs`) or `s3` (one
    /// bucket every instance shares, `MARQUE_S3_*`).
    #[arg(long, env = "MARQUE_BLOBS", value_enum, default_value_t = BlobsMode::Local)]
    pub blobs: BlobsMode,

    /// The S3-compatible bucket (`MARQUE_BLOBS=s3`).
    #[command(flatten)]
    pub s3: S3Flags,

    /// Database URL: `surrealkv://<dir>`, `mem://` or `ws://host:port`.
    /// Defaults to `surrealkv://<data dir>/db`.
    #[arg(long, env = "MARQUE_DB")]
    pub db: Option<String>,

    /// Username and password for a `ws://` database server.
    #[arg(long, env = "MARQUE_DB_USER")]
    pub db_user: Option<String>,
    #[arg(long, env = "MARQUE_DB_PASS", hide_env_values = true, value_parser = secret)]
    pub db_pass: Option<SecretString>,
    /// Where that user is defined on the server: `database` (default: a user of the shop's
    /// own database, `DEFINE USER … ON DATABASE … ROLES EDITOR`), `namespace` or `root`
    /// (`prod` refuses `root`).
    #[arg(long, env = "MARQUE_DB_AUTH", value_enum, default_value_t = DbAuth::Database)]
    pub db_auth: DbAuth,
    /// The namespace and database of the shop's data on the server.
    #[arg(long, env = "MARQUE_DB_NAMESPACE", default_value = "marque")]
    pub db_namespace: String,
    #[arg(long, env = "MARQUE_DB_DATABASE", default_value = "shop")]
    pub db_database: String,

    /// Milliseconds one call to a `ws://` database server may take before it answers 503: a
    /// backstop, as calls fail at once when a probe (every second, 2 s deadline) finds it gone.
    #[arg(long, env = "MARQUE_DB_TIMEOUT_MS", default_value_t = 30_000)]
    pub db_timeout_ms: u64,

    /// Megabytes of SurrealKV's block cache (`surrealkv://` only; 1 to 65536): blocks of the
    /// store's files read recently. The shop keeps its finished catalog answers above it.
    #[arg(long, env = "MARQUE_DB_CACHE_MB", default_value_t = 16)]
    pub db_cache_mb: u64,
    /// Whether search rankings, listing counts and the catalog's size come from the catalog index
    /// kept in the process (ADR 0019; about 15 MB at 100,000 products, built at start). `false`
    /// leaves them to the database's statements: the same answers, tens to hundreds of ms when cold.
    #[arg(long, env = "MARQUE_CATALOG_INDEX", default_value_t = true, action = clap::ArgAction::Set)]
    pub catalog_index: bool,
    /// Megabytes of SurrealKV's memtable (`surrealkv://` only; 4 to 16384): writes not yet
    /// flushed to a file. One transaction must fit in it.
    #[arg(long, env = "MARQUE_DB_MEMTABLE_MB", default_value_t = 64)]
    pub db_memtable_mb: u64,

    /// `dev` allows development-only adapters; `prod` refuses them.
    #[arg(long, env = "MARQUE_ENV", value_enum, default_value_t = Environment::Dev)]
    pub env: Environment,

    /// Folder holding the built frontends (`shell/dist`, `<remote>/dist`).
    #[arg(long, env = "MARQUE_WEB_DIR", default_value = "./frontends")]
    pub web_dir: PathBuf,

    /// Public origin used in canonical links and Open Graph tags
    /// (e.g. `https://www.marque.example`). Defaults to the request's host.
    #[arg(long, env = "MARQUE_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Remotes served from elsewhere, by their entry script: `name=url` pairs separated by commas,
    /// e.g. `catalog=https://cdn.example/catalog/remoteEntry.js` (a manifest URL is refused).
    #[arg(long, env = "MARQUE_REMOTES", default_value = "")]
    pub remotes: String,

    /// The shop's name, used in page titles.
    #[arg(long, env = "MARQUE_SHOP_NAME", default_value = "Marque Parts")]
    pub shop_name: String,

    /// Default page description.
    #[arg(
        long,
        env = "MARQUE_SHOP_DESCRIPTION",
        default_value = "Buy new and used spare parts for luxury cars online: Audi, BMW, Mercedes-Benz, Jaguar, Land Rover, Range Rover, Volvo and Porsche. Prices include GST, delivered across India."
    )]
    pub shop_description: String,

    /// The shop's identity as invoices, policies and the footer state it;
    /// `dev` fills demo values, `prod` refuses to start without each one
    /// (see [`super::identity::IdentitySettings`]).
    #[command(flatten)]
    pub identity: IdentityFlags,

    /// Products in the demo catalog written on first start or by `seed`.
    #[arg(long, env = "MARQUE_SEED_PRODUCTS", default_value_t = 600)]
    pub seed_products: u32,

    /// Expected value of the `x-client-validation` header on authorized calls; when set,
    /// an authorized call without it is refused (401). Unset: the header is not required.
    #[arg(long, env = "MARQUE_CLIENT_VALIDATION", hide_env_values = true, value_parser = secret)]
    pub client_validation: Option<SecretString>,

    /// Google sign-in: the OAuth client's id and secret. Both set: sign-in with Google;
    /// neither in `dev`: the local stand-in (`/api/dev/signin`); neither in `prod`: no sign-in.
    #[arg(long, env = "MARQUE_GOOGLE_CLIENT_ID")]
    pub google_client_id: Option<String>,
    #[arg(long, env = "MARQUE_GOOGLE_CLIENT_SECRET", hide_env_values = true, value_parser = secret)]
    pub google_client_secret: Option<SecretString>,
    /// The OpenID Connect issuer for sign-in (default Google's).
    #[arg(long, env = "MARQUE_GOOGLE_ISSUER")]
    pub google_issuer: Option<String>,

    /// How customers' messages are sent: `outbox` (kept in memory, `GET /api/dev/outbox`; `dev`
    /// only) or `gateways` (email by SMTP, SMS by the SMS gateway). Default: `outbox` in `dev`,
    /// `gateways` in `prod`.
    #[arg(long, env = "MARQUE_NOTIFY", value_enum)]
    pub notify: Option<NotifyMode>,

    /// The SMTP relay and SMS gateway settings (`MARQUE_NOTIFY=gateways`).
    #[command(flatten)]
    pub gateways: GatewayFlags,

    /// Card payments (Razorpay, or the local sandbox in `dev`).
    #[command(flatten)]
    pub payment: PaymentFlags,

    /// The back office's first owner and the seal key of authenticator secrets.
    #[command(flatten)]
    pub staff: super::staff::StaffFlags,

    /// What one order may hold, and how payments are reconciled with the provider.
    #[command(flatten)]
    pub orders: OrdersFlags,

    /// Key of the one-time code hashes (HMAC-SHA256). `dev` has a default; `prod` refuses to
    /// start without it.
    #[arg(long, env = "MARQUE_SECRET", hide_env_values = true, value_parser = secret)]
    pub secret: Option<SecretString>,

    /// How long a one-time code lives, in seconds (the shop's rule: 600).
    #[arg(long, env = "MARQUE_OTP_VALID_SECONDS", default_value_t = marque_domain::account::OTP_VALID_SECONDS)]
    pub otp_valid_seconds: u32,

    /// Messages all sign-ups together may send in an hour (one SMS and one email each); past
    /// it a sign-up is answered 429 and an error is logged. Shop-wide, across instances.
    #[arg(long, env = "MARQUE_SIGNUP_MESSAGES_PER_HOUR", default_value_t = 2000)]
    pub signup_messages_per_hour: u32,

    /// Most addresses in one sitemap file; past it `/sitemap.xml` becomes an index of
    /// `/sitemap-{n}.xml` parts. At most 50000, the sitemap protocol's limit.
    #[arg(long, env = "MARQUE_SITEMAP_URLS", default_value_t = 50_000)]
    pub sitemap_urls: usize,

    /// Megabytes of catalog answers kept in memory (0 turns the cache off). The cache
    /// forgets everything when the catalog's version in the database moves.
    #[arg(long, env = "MARQUE_CATALOG_CACHE_MB", default_value_t = 32)]
    pub catalog_cache_mb: u64,

    /// Megabytes of ready product answers (`GET /api/get/productById/{id}`, kept compressed:
    /// about 250 bytes a product) kept in memory and filled with the whole catalog once it settles
    /// after a change. Listings and searches are kept ready as well once asked, in half of
    /// `MARQUE_CATALOG_CACHE_MB` more. 0 turns both off (as does turning the catalog cache off).
    /// Default 96. `MARQUE_PRODUCT_PAGES_MB` is its older name.
    #[arg(long, env = "MARQUE_READY_PRODUCT_ANSWERS_MB")]
    pub ready_product_answers_mb: Option<u64>,

    /// The older name of `MARQUE_READY_PRODUCT_ANSWERS_MB`, still read.
    #[arg(long, env = "MARQUE_PRODUCT_PAGES_MB", hide = true)]
    pub product_pages_mb: Option<u64>,

    /// How often, in milliseconds, the catalog cache reads the database's catalog
    /// version: a write by any instance shows within about this long.
    #[arg(long, env = "MARQUE_CATALOG_POLL_MS", default_value_t = 200)]
    pub catalog_poll_ms: u64,

    /// Most seconds an instance reports itself unready (`/api/health/ready` 503 `warming`) while it
    /// warms its catalog answers after a start; past it, it reports ready anyway and logs why.
    #[arg(long, env = "MARQUE_WARM_UP_LIMIT_SECS", default_value_t = 60)]
    pub warm_up_limit_secs: u64,

    /// Tests only (refused in `prod`): milliseconds the first warm-up waits before it starts, so
    /// the readiness gate can be seen closed.
    #[arg(long, env = "MARQUE_TEST_WARM_UP_DELAY_MS", default_value_t = 0, hide = true)]
    pub test_warm_up_delay_ms: u64,

    /// Tests only (refused in `prod`): hosts, comma-separated, that a catalog import's photographs
    /// may be fetched from whatever their addresses, over plain `http` too (a local test server).
    #[arg(long, env = "MARQUE_TEST_PHOTO_HOSTS", default_value = "", hide = true)]
    pub test_photo_hosts: String,

    /// Where `GET /metrics` (Prometheus) is served: a loopback `ip:port` of its own, `public` (on
    /// the main port), or `off` (see `crate::metrics::MetricsAt`).
    #[arg(long, env = "MARQUE_METRICS", default_value = "127.0.0.1:9464")]
    pub metrics: String,

    /// Rate limits on customers' writes (pay, addresses, wishlist, profile, invoices): the
    /// shop's defaults; not configurable from outside, tests lower them.
    #[arg(skip)]
    pub rate_limits: marque_app::ThrottleRules,

    /// Per-client limits (behind trusted proxies), connection deadlines and the catalog's
    /// budget of cache misses.
    #[command(flatten)]
    pub limits: LimitsFlags,

    /// Origins (`https://host[:port]`, separated by commas) the pages' Content-Security-Policy
    /// allows for scripts, frames, calls and images besides the shop's own, the checkout
    /// script's and the payment API's.
    #[arg(long, env = "MARQUE_CSP_EXTRA_ORIGINS", default_value = "")]
    pub csp_extra_origins: String,
}

/// A secret as clap reads it: kept in a [`SecretString`] from the first moment.
#[allow(clippy::unnecessary_wraps)] // clap's value parsers return a `Result`
fn secret(raw: &str) -> Result<SecretString, std::convert::Infallible> {
    Ok(SecretString::from(raw))
}

/// Who runs the shop: published to the frontends, printed on invoices.
/// Each is optional here so `dev` can fill demo values; `prod` needs all but the chat number.
#[derive(Debug, Clone, Default, Args)]
pub struct IdentityFlags {
    /// Registered (legal) name, e.g. `Marque Parts Private Limited`.
    #[arg(long, env = "MARQUE_SHOP_LEGAL_NAME")]
    pub legal_name: Option<String>,

    /// Registered office address, one line.
    #[arg(long, env = "MARQUE_SHOP_ADDRESS")]
    pub address: Option<String>,

    /// The seller's GSTIN (15 characters, valid check character, registered in the seller state).
    #[arg(long, env = "MARQUE_SHOP_GSTIN")]
    pub gstin: Option<String>,

    /// The seller's state or union territory by name, e.g. `Delhi`; its GST state code is looked up.
    #[arg(long, env = "MARQUE_SHOP_STATE")]
    pub state: Option<String>,

    /// Customer support email address.
    #[arg(long, env = "MARQUE_SUPPORT_EMAIL")]
    pub support_email: Option<String>,

    /// Customer support phone number, as shown.
    #[arg(long, env = "MARQUE_SUPPORT_PHONE")]
    pub support_phone: Option<String>,

    /// Phone number for enquiries, shown in the announcement banner.
    #[arg(long, env = "MARQUE_ENQUIRY_PHONE")]
    pub enquiry_phone: Option<String>,

    /// WhatsApp chat number, digits with the country code (e.g. `919810042424`);
    /// empty means no chat link.
    #[arg(long, env = "MARQUE_CHAT_NUMBER")]
    pub chat_number: Option<String>,

    /// Grievance officer (IT Rules / Consumer Protection (E-Commerce) Rules): name, email, phone.
    #[arg(long, env = "MARQUE_GRIEVANCE_NAME")]
    pub grievance_name: Option<String>,
    #[arg(long, env = "MARQUE_GRIEVANCE_EMAIL")]
    pub grievance_email: Option<String>,
    #[arg(long, env = "MARQUE_GRIEVANCE_PHONE")]
    pub grievance_phone: Option<String>,
}

/// Where uploaded pictures are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BlobsMode {
    /// Files under `<data dir>/blobs`: one instance, or instances sharing that directory.
    Local,
    /// Objects in an S3-compatible bucket, shared by every instance configured with it.
    S3,
}

/// An S3-compatible bucket for pictures (AWS S3, MinIO, Cloudflare R2, …).
#[derive(Debug, Clone, Default, Args)]
pub struct S3Flags {
    /// The bucket's name.
    #[arg(long, env = "MARQUE_S3_BUCKET")]
    pub s3_bucket: Option<String>,
    /// The bucket's region, e.g. `ap-south-1` (S3-compatible stores usually take `us-east-1`).
    #[arg(long, env = "MARQUE_S3_REGION")]
    pub s3_region: Option<String>,
    /// An S3-compatible store's address, e.g. `https://minio.internal:9000`; unset for AWS S3.
    #[arg(long, env = "MARQUE_S3_ENDPOINT")]
    pub s3_endpoint: Option<String>,
    /// The access key's id and secret.
    #[arg(long, env = "MARQUE_S3_ACCESS_KEY_ID")]
    pub s3_access_key_id: Option<String>,
    #[arg(long, env = "MARQUE_S3_SECRET_ACCESS_KEY", hide_env_values = true, value_parser = secret)]
    pub s3_secret_access_key: Option<SecretString>,
    /// `true` allows a plain `http://` endpoint (a store on the local network); default `false`.
    #[arg(long, env = "MARQUE_S3_ALLOW_HTTP", action = clap::ArgAction::Set, default_value_t = false)]
    pub s3_allow_http: bool,
    /// `true` addresses the bucket as `{bucket}.{endpoint}` (virtual-hosted style) instead of
    /// `{endpoint}/{bucket}` (path style, the default, which local stores expect).
    #[arg(long, env = "MARQUE_S3_VIRTUAL_HOSTED", action = clap::ArgAction::Set, default_value_t = false)]
    pub s3_virtual_hosted: bool,
}

/// How customers' messages are sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum NotifyMode {
    /// Kept in memory and listed at `GET /api/dev/outbox` (`dev` only).
    Outbox,
    /// Email through the SMTP relay, SMS through the SMS gateway.
    Gateways,
}

/// How the connection to the SMTP relay is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SmtpSecurityMode {
    /// No TLS: a local test relay only.
    Plain,
    /// STARTTLS, required (port 587).
    Starttls,
    /// TLS from the first byte (port 465).
    Tls,
}

/// The SMTP relay and the SMS gateway (MSG91 flow API with India's DLT registrations).
#[derive(Debug, Clone, Default, Args)]
pub struct GatewayFlags {
    /// SMTP relay host.
    #[arg(long, env = "MARQUE_SMTP_HOST")]
    pub smtp_host: Option<String>,
    /// SMTP port (default 587 for starttls, 465 for tls, 25 for plain).
    #[arg(long, env = "MARQUE_SMTP_PORT")]
    pub smtp_port: Option<u16>,
    /// `plain`, `starttls` (default) or `tls`.
    #[arg(long, env = "MARQUE_SMTP_SECURITY", value_enum)]
    pub smtp_security: Option<SmtpSecurityMode>,
    /// SMTP username and password (both or neither).
    #[arg(long, env = "MARQUE_SMTP_USER")]
    pub smtp_user: Option<String>,
    #[arg(long, env = "MARQUE_SMTP_PASS", hide_env_values = true, value_parser = secret)]
    pub smtp_pass: Option<SecretString>,
    /// The sender, e.g. `Marque Parts <no-reply@marqueparts.in>`.
    #[arg(long, env = "MARQUE_SMTP_FROM")]
    pub smtp_from: Option<String>,
    /// The SMS gateway's address (default MSG91's).
    #[arg(long, env = "MARQUE_SMS_BASE_URL")]
    pub sms_base_url: Option<String>,
    /// The SMS gateway's auth key.
    #[arg(long, env = "MARQUE_SMS_AUTH_KEY", hide_env_values = true, value_parser = secret)]
    pub sms_auth_key: Option<SecretString>,
    /// The DLT sender header (six letters).
    #[arg(long, env = "MARQUE_SMS_SENDER")]
    pub sms_sender: Option<String>,
    /// The DLT principal entity id.
    #[arg(long, env = "MARQUE_SMS_DLT_ENTITY_ID")]
    pub sms_dlt_entity_id: Option<String>,
    /// The gateway's id of the approved one-time-code template.
    #[arg(long, env = "MARQUE_SMS_OTP_TEMPLATE_ID")]
    pub sms_otp_template_id: Option<String>,
    /// The gateway's id of the approved order confirmation template; unset means no order SMS.
    #[arg(long, env = "MARQUE_SMS_ORDER_TEMPLATE_ID")]
    pub sms_order_template_id: Option<String>,
    /// The gateway's id of the approved refund notice template (a payment refunded because its
    /// part sold out); unset means refunds are told by email only.
    #[arg(long, env = "MARQUE_SMS_REFUND_TEMPLATE_ID")]
    pub sms_refund_template_id: Option<String>,
    /// The gateway's id of the approved "order confirmed" notice template (staff confirmed the
    /// order); unset means that notice goes by email only.
    #[arg(long, env = "MARQUE_SMS_TEMPLATE_CONFIRMED")]
    pub sms_template_confirmed: Option<String>,
    /// The approved "order shipped" notice template (courier, AWB, tracking link); unset: email only.
    #[arg(long, env = "MARQUE_SMS_TEMPLATE_SHIPPED")]
    pub sms_template_shipped: Option<String>,
    /// The approved "order delivered" notice template; unset: email only.
    #[arg(long, env = "MARQUE_SMS_TEMPLATE_DELIVERED")]
    pub sms_template_delivered: Option<String>,
    /// The approved "order cancelled" notice template (with the refund's amount); unset: email only.
    #[arg(long, env = "MARQUE_SMS_TEMPLATE_CANCELLED")]
    pub sms_template_cancelled: Option<String>,
    /// The approved "order refunded" notice template (staff refunded part of an order); unset:
    /// email only.
    #[arg(long, env = "MARQUE_SMS_TEMPLATE_REFUNDED")]
    pub sms_template_refunded: Option<String>,
    /// The approved "return requested" notice template (the customer asked to return a part);
    /// unset: email only.
    #[arg(long, env = "MARQUE_SMS_TEMPLATE_RETURN_REQUESTED")]
    pub sms_template_return_requested: Option<String>,
    /// The approved "return approved" notice template; unset: email only.
    #[arg(long, env = "MARQUE_SMS_TEMPLATE_RETURN_APPROVED")]
    pub sms_template_return_approved: Option<String>,
    /// The approved "return refused" notice template; unset: email only.
    #[arg(long, env = "MARQUE_SMS_TEMPLATE_RETURN_REFUSED")]
    pub sms_template_return_refused: Option<String>,
    /// The approved "returned part received" notice template; unset: email only.
    #[arg(long, env = "MARQUE_SMS_TEMPLATE_RETURN_RECEIVED")]
    pub sms_template_return_received: Option<String>,
    /// The approved "return resolved" notice template (refund, replacement or store credit);
    /// unset: email only.
    #[arg(long, env = "MARQUE_SMS_TEMPLATE_RETURN_RESOLVED")]
    pub sms_template_return_resolved: Option<String>,
}

/// The level the database user is defined on; see [`Flags::db_auth`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DbAuth {
    Root,
    Namespace,
    Database,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Environment {
    Dev,
    Prod,
}

/// Limits on one order, and the reconciliation of payments with the provider.
#[derive(Debug, Clone, Args)]
pub struct OrdersFlags {
    /// Most units of one part in an order; past it the pay call answers 409 `checkout.too_many_units`.
    #[arg(long, env = "MARQUE_ORDER_MAX_UNITS", default_value_t = marque_domain::checkout::OrderLimits::DEFAULT.units_per_line)]
    pub max_units_per_line: u32,
    /// Most different parts in an order; past it the pay call answers 409 `checkout.too_many_lines`.
    #[arg(long, env = "MARQUE_ORDER_MAX_LINES", default_value_t = marque_domain::checkout::OrderLimits::DEFAULT.lines_per_order)]
    pub max_lines_per_order: usize,
    /// Seconds between reconciliations: the provider is asked about the last day's checkouts
    /// without an order, and each paid one is placed or refunded (also once at start).
    #[arg(long, env = "MARQUE_RECONCILE_SECONDS", default_value_t = 300)]
    pub reconcile_seconds: u64,
    /// Test-only, honoured in `dev` alone: the process exits right after noting a provider
    /// webhook, before acting on it (the fault test of webhooks handled at most once).
    #[arg(long, env = "MARQUE_TEST_EXIT_AFTER_WEBHOOK_RECORD", action = clap::ArgAction::Set, default_value_t = false)]
    pub test_exit_after_webhook_record: bool,
}

impl Default for OrdersFlags {
    fn default() -> Self {
        Self {
            max_units_per_line: marque_domain::checkout::OrderLimits::DEFAULT.units_per_line,
            max_lines_per_order: marque_domain::checkout::OrderLimits::DEFAULT.lines_per_order,
            reconcile_seconds: 300,
            test_exit_after_webhook_record: false,
        }
    }
}

/// Razorpay's keys, or none for the local sandbox (`dev` only).
#[derive(Debug, Clone, Default, Args)]
pub struct PaymentFlags {
    /// The public key id (`rzp_test_…` / `rzp_live_…`). Unset in `dev`: payments go through the
    /// local sandbox at `/sandbox/razorpay` (its Success and Failure buttons stand in for a bank).
    #[arg(long, env = "MARQUE_RAZORPAY_KEY_ID")]
    pub razorpay_key_id: Option<String>,
    #[arg(long, env = "MARQUE_RAZORPAY_KEY_SECRET", hide_env_values = true, value_parser = secret)]
    pub razorpay_key_secret: Option<SecretString>,
    /// The secret set on Razorpay's dashboard for the webhook `{public URL}/api/razorpay/webhook`.
    #[arg(long, env = "MARQUE_RAZORPAY_WEBHOOK_SECRET", hide_env_values = true, value_parser = secret)]
    pub razorpay_webhook_secret: Option<SecretString>,
    /// Razorpay's API (default `https://api.razorpay.com`); a sandbox's address in tests.
    #[arg(long, env = "MARQUE_RAZORPAY_API_URL")]
    pub razorpay_api_url: Option<String>,
    /// The checkout script browsers load (default Razorpay's).
    #[arg(long, env = "MARQUE_RAZORPAY_SCRIPT_URL")]
    pub razorpay_script_url: Option<String>,
}

/// The per-client limits, the connection deadlines and the catalog's budget of cache misses.
#[derive(Debug, Clone, Args)]
pub struct LimitsFlags {
    /// Proxies whose `X-Forwarded-For` is believed: CIDRs or addresses, separated by commas
    /// (e.g. `10.0.0.0/8,fd00::/8`). None by default: the socket's peer is the client.
    #[arg(long, env = "MARQUE_TRUSTED_PROXIES", default_value = "")]
    pub trusted_proxies: String,

    /// Most email logins, and apart from them most code checks (`/api/verify`), from one client in a minute.
    #[arg(long, env = "MARQUE_LOGIN_ATTEMPTS_PER_MINUTE", default_value_t = 10)]
    pub login_attempts_per_minute: u32,

    /// Most sign-ups (`POST /api/register`) from one client in an hour.
    #[arg(long, env = "MARQUE_SIGNUPS_PER_HOUR", default_value_t = 60)]
    pub signups_per_hour: u32,

    /// Most mobile logins, and apart from them most code resends, from one client in an hour.
    #[arg(long, env = "MARQUE_CODE_REQUESTS_PER_HOUR", default_value_t = 120)]
    pub code_requests_per_hour: u32,

    /// Most Google sign-ins started (`GET /api/google`) from one client in an hour.
    #[arg(long, env = "MARQUE_SIGN_INS_PER_HOUR", default_value_t = 240)]
    pub sign_ins_per_hour: u32,

    /// Most grievances (`POST /api/grievances`, the contact page's form) from one client in an hour.
    #[arg(long, env = "MARQUE_GRIEVANCES_PER_HOUR", default_value_t = 20)]
    pub grievances_per_hour: u32,

    /// Milliseconds a connection has to send a whole request head (from its opening, or from
    /// the first byte of the next request on a kept-alive connection) before it is closed.
    #[arg(long, env = "MARQUE_HEAD_TIMEOUT_MS", default_value_t = 10_000)]
    pub head_timeout_ms: u64,

    /// Milliseconds a request has to send its whole body (408 past it).
    #[arg(long, env = "MARQUE_BODY_TIMEOUT_MS", default_value_t = 30_000)]
    pub body_timeout_ms: u64,

    /// Milliseconds a kept-alive connection may wait for its next request before it is closed.
    #[arg(long, env = "MARQUE_IDLE_TIMEOUT_MS", default_value_t = 60_000)]
    pub idle_timeout_ms: u64,

    /// Most catalog searches and listings one client may have answered past the answer cache
    /// (each a database query) in a minute; past it 429 with `Retry-After`. Counted by each instance.
    #[arg(long, env = "MARQUE_CATALOG_MISSES_PER_MINUTE", default_value_t = 120)]
    pub catalog_misses_per_minute: u32,

    /// Milliseconds a search or listing past the answer cache may take before it answers 503.
    #[arg(long, env = "MARQUE_CATALOG_DEADLINE_MS", default_value_t = 3_000)]
    pub catalog_deadline_ms: u64,
}

impl Default for LimitsFlags {
    fn default() -> Self {
        Self {
            trusted_proxies: String::new(),
            login_attempts_per_minute: 10,
            signups_per_hour: 60,
            code_requests_per_hour: 120,
            sign_ins_per_hour: 240,
            grievances_per_hour: 20,
            head_timeout_ms: 10_000,
            body_timeout_ms: 30_000,
            idle_timeout_ms: 60_000,
            catalog_misses_per_minute: 120,
            catalog_deadline_ms: 3_000,
        }
    }
}

/// A text flag trimmed, `None` when unset or blank.
pub(crate) fn text(value: Option<&String>) -> Option<String> {
    value.map(|v| v.trim()).filter(|v| !v.is_empty()).map(str::to_owned)
}

/// A secret flag, `None` when unset or blank; kept as given, not trimmed (a key is its exact bytes).
pub(crate) fn given(value: Option<&SecretString>) -> Option<SecretString> {
    use secrecy::ExposeSecret as _;
    value.filter(|v| !v.expose_secret().trim().is_empty()).cloned()
}
