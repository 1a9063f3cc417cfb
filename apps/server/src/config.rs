//! Configuration from `MARQUE_*` environment variables (or flags), with working defaults.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// Where the server runs and what it is connected to.
#[derive(Debug, Clone, Args)]
pub struct Config {
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
    pub s3: S3Config,

    /// Database URL: `surrealkv://<dir>`, `mem://` or `ws://host:port`.
    /// Defaults to `surrealkv://<data dir>/db`.
    #[arg(long, env = "MARQUE_DB")]
    pub db: Option<String>,

    /// Username and password for a `ws://` database server.
    #[arg(long, env = "MARQUE_DB_USER")]
    pub db_user: Option<String>,
    #[arg(long, env = "MARQUE_DB_PASS", hide_env_values = true)]
    pub db_pass: Option<Secret>,
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

    /// Remote entry overrides, `name=url` pairs separated by commas,
    /// e.g. `catalog=https://cdn.example/catalog/mf-manifest.json`.
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
    /// (see [`crate::identity::ShopIdentity::from_config`]).
    #[command(flatten)]
    pub identity: IdentityConfig,

    /// Products in the demo catalog written on first start or by `seed`.
    #[arg(long, env = "MARQUE_SEED_PRODUCTS", default_value_t = 600)]
    pub seed_products: u32,

    /// Expected value of the `x-client-validation` header on authorized calls; when set,
    /// an authorized call without it is refused (401). Unset: the header is not required.
    #[arg(long, env = "MARQUE_CLIENT_VALIDATION", hide_env_values = true)]
    pub client_validation: Option<Secret>,

    /// Google sign-in: the OAuth client's id and secret. Both set: sign-in with Google;
    /// neither in `dev`: the local stand-in (`/api/dev/signin`); neither in `prod`: no sign-in.
    #[arg(long, env = "MARQUE_GOOGLE_CLIENT_ID")]
    pub google_client_id: Option<String>,
    #[arg(long, env = "MARQUE_GOOGLE_CLIENT_SECRET", hide_env_values = true)]
    pub google_client_secret: Option<Secret>,
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
    pub gateways: GatewayConfig,

    /// Card payments (Razorpay, or the local sandbox in `dev`).
    #[command(flatten)]
    pub payment: PaymentConfig,

    /// What one order may hold, and how payments are reconciled with the provider.
    #[command(flatten)]
    pub orders: OrdersConfig,

    /// Key of the one-time code hashes (HMAC-SHA256). `dev` has a default; `prod` refuses to
    /// start without it.
    #[arg(long, env = "MARQUE_SECRET", hide_env_values = true)]
    pub secret: Option<Secret>,

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
    /// about 250 bytes a product) kept in memory and filled with the whole catalog once it settles after a
    /// change. Listings and searches are kept ready as well once asked, in half of
    /// `catalog_cache_mb` more. 0 turns both off (as does turning the catalog cache off).
    #[arg(long, env = "MARQUE_PRODUCT_PAGES_MB", default_value_t = 96)]
    pub product_pages_mb: u64,

    /// Where `GET /metrics` (Prometheus) is served: a loopback `ip:port` of its own, `public` (on
    /// the main port), or `off` (see `crate::metrics::MetricsAt`).
    #[arg(long, env = "MARQUE_METRICS", default_value = "127.0.0.1:9464")]
    pub metrics: String,

    /// How often, in milliseconds, the catalog cache reads the database's catalog
    /// version: a write by any instance shows within about this long.
    #[arg(long, env = "MARQUE_CATALOG_POLL_MS", default_value_t = 200)]
    pub catalog_poll_ms: u64,

    /// Rate limits on customers' writes (pay, addresses, wishlist, profile, invoices): the
    /// shop's defaults; not configurable from outside, tests lower them.
    #[arg(skip)]
    pub rate_limits: marque_app::ThrottleRules,

    /// Per-client limits (behind trusted proxies), connection deadlines and the catalog's
    /// budget of cache misses.
    #[command(flatten)]
    pub limits: crate::clients::LimitsConfig,

    /// Origins (`https://host[:port]`, separated by commas) the pages' Content-Security-Policy
    /// allows for scripts, frames, calls and images besides the shop's own, the checkout
    /// script's and the payment API's.
    #[arg(long, env = "MARQUE_CSP_EXTRA_ORIGINS", default_value = "")]
    pub csp_extra_origins: String,
}

/// Who runs the shop: published to the frontends, printed on invoices.
/// Each is optional here so `dev` can fill demo values; `prod` needs all but the chat number.
#[derive(Debug, Clone, Default, Args)]
pub struct IdentityConfig {
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
pub struct S3Config {
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
    #[arg(long, env = "MARQUE_S3_SECRET_ACCESS_KEY", hide_env_values = true)]
    pub s3_secret_access_key: Option<Secret>,
    /// `true` allows a plain `http://` endpoint (a store on the local network); default `false`.
    #[arg(long, env = "MARQUE_S3_ALLOW_HTTP", action = clap::ArgAction::Set, default_value_t = false)]
    pub s3_allow_http: bool,
    /// `true` addresses the bucket as `{bucket}.{endpoint}` (virtual-hosted style) instead of
    /// `{endpoint}/{bucket}` (path style, the default, which local stores expect).
    #[arg(long, env = "MARQUE_S3_VIRTUAL_HOSTED", action = clap::ArgAction::Set, default_value_t = false)]
    pub s3_virtual_hosted: bool,
}

/// The blob store the configuration chose.
#[derive(Debug, Clone)]
pub enum BlobBackend {
    /// Files under this directory.
    Local(PathBuf),
    /// This bucket (`Debug` leaves the secret key out).
    S3(marque_blobs_s3::S3Settings),
}

impl Config {
    /// The blob store: `<data dir>/blobs` for `MARQUE_BLOBS=local`, the bucket for `s3`.
    ///
    /// # Errors
    /// With `MARQUE_BLOBS=s3`, naming every one of `MARQUE_S3_BUCKET`, `MARQUE_S3_REGION`,
    /// `MARQUE_S3_ACCESS_KEY_ID` and `MARQUE_S3_SECRET_ACCESS_KEY` that is missing; an `http://`
    /// endpoint without `MARQUE_S3_ALLOW_HTTP=true`.
    pub fn blob_backend(&self) -> Result<BlobBackend, String> {
        if self.blobs == BlobsMode::Local {
            return Ok(BlobBackend::Local(self.data_dir.join("blobs")));
        }
        let c = &self.s3;
        let text = |v: &Option<String>| v.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned);
        let secret = c.s3_secret_access_key.as_ref().map(|v| v.expose().trim().to_owned()).filter(|v| !v.is_empty());
        let (bucket, region, key_id) = (text(&c.s3_bucket), text(&c.s3_region), text(&c.s3_access_key_id));
        let (Some(bucket), Some(region), Some(key_id), Some(secret)) = (bucket.clone(), region.clone(), key_id.clone(), secret.clone()) else {
            let missing: Vec<&str> = [
                ("MARQUE_S3_BUCKET", bucket.is_some()),
                ("MARQUE_S3_REGION", region.is_some()),
                ("MARQUE_S3_ACCESS_KEY_ID", key_id.is_some()),
                ("MARQUE_S3_SECRET_ACCESS_KEY", secret.is_some()),
            ]
            .into_iter()
            .filter(|(_, set)| !set)
            .map(|(name, _)| name)
            .collect();
            return Err(format!("MARQUE_BLOBS=s3 needs {}", missing.join(", ")));
        };
        let endpoint = text(&c.s3_endpoint);
        if endpoint.as_deref().is_some_and(|e| e.starts_with("http://")) && !c.s3_allow_http {
            return Err("MARQUE_S3_ENDPOINT is plain http://: set MARQUE_S3_ALLOW_HTTP=true for a store on a private network, or use https://".to_owned());
        }
        let mut settings = marque_blobs_s3::S3Settings::new(bucket, region, key_id, secret.into());
        settings.endpoint = endpoint;
        settings.allow_http = c.s3_allow_http;
        settings.virtual_hosted_style = c.s3_virtual_hosted;
        Ok(BlobBackend::S3(settings))
    }
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
pub struct GatewayConfig {
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
    #[arg(long, env = "MARQUE_SMTP_PASS", hide_env_values = true)]
    pub smtp_pass: Option<Secret>,
    /// The sender, e.g. `Marque Parts <no-reply@marqueparts.in>`.
    #[arg(long, env = "MARQUE_SMTP_FROM")]
    pub smtp_from: Option<String>,
    /// The SMS gateway's address (default MSG91's).
    #[arg(long, env = "MARQUE_SMS_BASE_URL")]
    pub sms_base_url: Option<String>,
    /// The SMS gateway's auth key.
    #[arg(long, env = "MARQUE_SMS_AUTH_KEY", hide_env_values = true)]
    pub sms_auth_key: Option<Secret>,
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
}

impl GatewayConfig {
    /// The refund notice template's id, when one is configured.
    #[must_use]
    pub fn refund_template(&self) -> Option<&str> {
        self.sms_refund_template_id.as_deref().map(str::trim).filter(|v| !v.is_empty())
    }

    /// The order confirmation template's id, when one is configured.
    #[must_use]
    pub fn order_template(&self) -> Option<&str> {
        self.sms_order_template_id.as_deref().map(str::trim).filter(|v| !v.is_empty())
    }
}

/// A configured secret: usable, but never printed by `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Self(s.to_owned()))
    }
}

/// The level the database user is defined on; see [`Config::db_auth`].
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

impl Config {
    /// The database URL, defaulting to the embedded engine inside the data dir.
    #[must_use]
    pub fn database_url(&self) -> String {
        match &self.db {
            Some(url) if !url.trim().is_empty() => url.trim().to_owned(),
            _ => format!("surrealkv://{}", self.data_dir.join("db").display()),
        }
    }

    /// Remote overrides parsed from [`Config::remotes`]; malformed pairs are reported.
    ///
    /// # Errors
    /// A message naming the first pair that is not `name=url`.
    pub fn remote_overrides(&self) -> Result<BTreeMap<String, String>, String> {
        let mut map = BTreeMap::new();
        for pair in self.remotes.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match pair.split_once('=') {
                Some((name, url)) if !name.trim().is_empty() && !url.trim().is_empty() => {
                    let url = url.trim();
                    // The shell's federation runtime is built without the manifest protocol (it composes by entry
                    // script, a request less and 1.5 KB less on every page).
                    if url.split(['?', '#']).next().is_some_and(|path| path.ends_with(".json")) {
                        return Err(format!(
                            "MARQUE_REMOTES: `{pair}` names a manifest; name the remote's entry script (remoteEntry.js)"
                        ));
                    }
                    map.insert(name.trim().to_owned(), url.to_owned());
                }
                _ => return Err(format!("MARQUE_REMOTES: `{pair}` is not name=url")),
            }
        }
        Ok(map)
    }

    /// A configuration for tests: in-memory database, nothing on disk.
    #[must_use]
    pub fn for_tests(web_dir: PathBuf) -> Self {
        Self {
            addr: "127.0.0.1:0".into(),
            data_dir: std::env::temp_dir(),
            db: Some("mem://".into()),
            blobs: BlobsMode::Local,
            s3: S3Config::default(),
            db_user: None,
            db_pass: None,
            db_auth: DbAuth::Database,
            db_namespace: "marque".into(),
            db_database: "shop".into(),
            db_timeout_ms: 30_000,
            db_cache_mb: 16,
            db_memtable_mb: 64,
            env: Environment::Dev,
            web_dir,
            public_url: None,
            remotes: String::new(),
            shop_name: "Marque Parts".into(),
            shop_description: "Buy new and used spare parts for luxury cars online.".into(),
            identity: IdentityConfig::default(),
            seed_products: 120,
            sitemap_urls: 50_000,
            client_validation: None,
            payment: PaymentConfig::default(),
            orders: OrdersConfig::default(),
            google_client_id: None,
            google_client_secret: None,
            google_issuer: None,
            notify: None,
            gateways: GatewayConfig::default(),
            secret: None,
            otp_valid_seconds: marque_domain::account::OTP_VALID_SECONDS,
            signup_messages_per_hour: 2000,
            catalog_cache_mb: 16,
            product_pages_mb: 8,
            catalog_poll_ms: 100,
            metrics: "off".to_owned(),
            rate_limits: marque_app::ThrottleRules::default(),
            limits: crate::clients::LimitsConfig::for_tests(),
            csp_extra_origins: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_stay_out_of_debug_output() {
        let mut config = Config::for_tests(PathBuf::from("web"));
        config.db_pass = Some("hunter2".parse().expect("infallible"));
        config.secret = Some("otp-key-42".parse().expect("infallible"));
        config.client_validation = Some("client-77".parse().expect("infallible"));
        let printed = format!("{config:?}");
        assert!(!printed.contains("hunter2") && !printed.contains("otp-key-42") && !printed.contains("client-77"));
    }

    #[test]
    fn pictures_go_to_the_data_dir_unless_s3_is_chosen_with_every_setting() {
        let mut config = Config::for_tests(PathBuf::from("web"));
        config.data_dir = PathBuf::from("/srv/marque");
        assert!(matches!(config.blob_backend(), Ok(BlobBackend::Local(dir)) if dir == std::path::Path::new("/srv/marque/blobs")));
        config.blobs = BlobsMode::S3;
        let refused = config.blob_backend().expect_err("nothing set");
        for name in ["MARQUE_S3_BUCKET", "MARQUE_S3_REGION", "MARQUE_S3_ACCESS_KEY_ID", "MARQUE_S3_SECRET_ACCESS_KEY"] {
            assert!(refused.contains(name), "{refused} names {name}");
        }
        config.s3.s3_bucket = Some("marque-pictures".into());
        config.s3.s3_region = Some("ap-south-1".into());
        config.s3.s3_access_key_id = Some("AKIA1".into());
        config.s3.s3_secret_access_key = Some(" ".parse().expect("infallible"));
        assert_eq!(config.blob_backend().expect_err("blank secret"), "MARQUE_BLOBS=s3 needs MARQUE_S3_SECRET_ACCESS_KEY");
        config.s3.s3_secret_access_key = Some("s3cret-access".parse().expect("infallible"));
        let Ok(BlobBackend::S3(settings)) = config.blob_backend() else { panic!("S3 with every setting") };
        assert_eq!((settings.bucket.as_str(), settings.region.as_str(), settings.endpoint.as_deref()), ("marque-pictures", "ap-south-1", None));
        config.s3.s3_endpoint = Some("http://127.0.0.1:9000".into());
        assert!(config.blob_backend().expect_err("plain http").contains("MARQUE_S3_ALLOW_HTTP"));
        config.s3.s3_allow_http = true;
        let backend = config.blob_backend().expect("allowed");
        assert!(!format!("{config:?} {backend:?}").contains("s3cret-access"), "the secret stays out of Debug");
    }

    #[test]
    fn payments_go_to_the_sandbox_only_in_dev() {
        let mut config = Config::for_tests(PathBuf::from("web"));
        assert_eq!(config.payment_mode(), Ok(PaymentMode::Sandbox));
        config.env = Environment::Prod;
        let refused = config.payment_mode().expect_err("prod without keys");
        assert!(
            refused.contains("MARQUE_RAZORPAY_KEY_ID")
                && refused.contains("MARQUE_RAZORPAY_KEY_SECRET")
                && refused.contains("MARQUE_RAZORPAY_WEBHOOK_SECRET"),
            "{refused}"
        );
        config.payment.razorpay_key_id = Some("rzp_live_1".into());
        config.payment.razorpay_key_secret = Some("s3cret-key".parse().expect("infallible"));
        let refused = config.payment_mode().expect_err("no webhook secret");
        assert!(refused.contains("MARQUE_RAZORPAY_WEBHOOK_SECRET") && !refused.contains("KEY_ID"), "{refused}");
        config.payment.razorpay_webhook_secret = Some("hook-s3cret".parse().expect("infallible"));
        let mode = config.payment_mode().expect("all three set");
        assert!(matches!(mode, PaymentMode::Razorpay { .. }));
        assert!(!format!("{config:?} {mode:?}").contains("s3cret"), "secrets stay out of Debug");
    }

    #[test]
    fn the_embedded_database_lives_in_the_data_dir() {
        let mut config = Config::for_tests(PathBuf::from("web"));
        config.db = None;
        config.data_dir = PathBuf::from("/srv/marque");
        assert_eq!(config.database_url(), "surrealkv:///srv/marque/db");
    }

    #[test]
    fn remote_overrides_parse_and_refuse_malformed_pairs() {
        let mut config = Config::for_tests(PathBuf::from("web"));
        config.remotes = " catalog=https://cdn.example/c/remoteEntry.js , ".into();
        let map = config.remote_overrides().expect("valid");
        assert_eq!(map.get("catalog").map(String::as_str), Some("https://cdn.example/c/remoteEntry.js"));
        config.remotes = "catalog".into();
        assert!(config.remote_overrides().is_err());
        config.remotes = "catalog=https://cdn.example/c/mf-manifest.json?v=2".into();
        let refused = config.remote_overrides().expect_err("a manifest");
        assert!(refused.contains("remoteEntry.js"), "{refused}");
    }
}

/// The shortest `MARQUE_SECRET` `prod` accepts (it keys the one-time code hashes).
pub const MIN_SECRET_CHARS: usize = 32;

/// The one-time code key used in `dev` when `MARQUE_SECRET` is not set.
pub const DEV_SECRET: &str = "marque-dev-secret-not-for-production";

impl Config {
    /// The key of one-time code hashes: `MARQUE_SECRET`, or in `dev` a fixed development key.
    ///
    /// # Errors
    /// In `prod` when `MARQUE_SECRET` is not set (or blank).
    pub fn otp_secret(&self) -> Result<String, String> {
        match (&self.secret, self.env) {
            (Some(s), _) if !s.expose().trim().is_empty() => Ok(s.expose().to_owned()),
            (_, Environment::Dev) => Ok(DEV_SECRET.to_owned()),
            (_, Environment::Prod) => Err("MARQUE_ENV=prod needs MARQUE_SECRET (the key of one-time code hashes)".to_owned()),
        }
    }
}

#[cfg(test)]
mod secret_tests {
    use super::*;

    #[test]
    fn prod_needs_a_secret_and_dev_has_one() {
        let mut config = Config::for_tests(PathBuf::from("web"));
        assert_eq!(config.otp_secret().as_deref(), Ok(DEV_SECRET));
        config.env = Environment::Prod;
        assert!(config.otp_secret().expect_err("refused").contains("MARQUE_SECRET"));
        config.secret = Some("k".parse().expect("infallible"));
        assert_eq!(config.otp_secret().as_deref(), Ok("k"));
    }
}

/// Limits on one order, and the reconciliation of payments with the provider.
#[derive(Debug, Clone, Args)]
pub struct OrdersConfig {
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

impl Default for OrdersConfig {
    fn default() -> Self {
        Self {
            max_units_per_line: marque_domain::checkout::OrderLimits::DEFAULT.units_per_line,
            max_lines_per_order: marque_domain::checkout::OrderLimits::DEFAULT.lines_per_order,
            reconcile_seconds: 300,
            test_exit_after_webhook_record: false,
        }
    }
}

impl OrdersConfig {
    /// The order limits, each at least 1.
    #[must_use]
    pub fn limits(&self) -> marque_domain::checkout::OrderLimits {
        marque_domain::checkout::OrderLimits {
            units_per_line: self.max_units_per_line.max(1),
            lines_per_order: self.max_lines_per_order.max(1),
        }
    }
}

/// Razorpay's keys, or none for the local sandbox (`dev` only).
#[derive(Debug, Clone, Default, Args)]
pub struct PaymentConfig {
    /// The public key id (`rzp_test_…` / `rzp_live_…`). Unset in `dev`: payments go through the
    /// local sandbox at `/sandbox/razorpay` (its Success and Failure buttons stand in for a bank).
    #[arg(long, env = "MARQUE_RAZORPAY_KEY_ID")]
    pub razorpay_key_id: Option<String>,
    #[arg(long, env = "MARQUE_RAZORPAY_KEY_SECRET", hide_env_values = true)]
    pub razorpay_key_secret: Option<Secret>,
    /// The secret set on Razorpay's dashboard for the webhook `{public URL}/api/razorpay/webhook`.
    #[arg(long, env = "MARQUE_RAZORPAY_WEBHOOK_SECRET", hide_env_values = true)]
    pub razorpay_webhook_secret: Option<Secret>,
    /// Razorpay's API (default `https://api.razorpay.com`); a sandbox's address in tests.
    #[arg(long, env = "MARQUE_RAZORPAY_API_URL")]
    pub razorpay_api_url: Option<String>,
    /// The checkout script browsers load (default Razorpay's).
    #[arg(long, env = "MARQUE_RAZORPAY_SCRIPT_URL")]
    pub razorpay_script_url: Option<String>,
}

/// Which payment adapter the shop uses. `Debug` leaves the secrets out.
#[derive(Clone, PartialEq, Eq)]
pub enum PaymentMode {
    /// Razorpay's HTTP API with these settings.
    Razorpay { key_id: String, key_secret: String, webhook_secret: String, api_url: Option<String>, script_url: Option<String> },
    /// The in-process sandbox (`dev` only).
    Sandbox,
}

impl std::fmt::Debug for PaymentMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PaymentMode::Razorpay { key_id, api_url, script_url, .. } => f
                .debug_struct("Razorpay")
                .field("key_id", key_id)
                .field("api_url", api_url)
                .field("script_url", script_url)
                .finish_non_exhaustive(),
            PaymentMode::Sandbox => f.write_str("Sandbox"),
        }
    }
}

impl Config {
    /// Razorpay when its key id is set, else the sandbox in `dev`.
    ///
    /// # Errors
    /// In `prod` without Razorpay's keys (each missing variable named); with a key id but no secrets.
    pub fn payment_mode(&self) -> Result<PaymentMode, String> {
        let p = &self.payment;
        let text = |v: &Option<String>| v.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned);
        let secret = |v: &Option<Secret>| v.as_ref().map(|v| v.expose().trim().to_owned()).filter(|v| !v.is_empty());
        let (key_id, key_secret, webhook_secret) =
            (text(&p.razorpay_key_id), secret(&p.razorpay_key_secret), secret(&p.razorpay_webhook_secret));
        if key_id.is_none() && key_secret.is_none() && webhook_secret.is_none() && self.env == Environment::Dev {
            return Ok(PaymentMode::Sandbox);
        }
        match (key_id, key_secret, webhook_secret) {
            (Some(key_id), Some(key_secret), Some(webhook_secret)) => Ok(PaymentMode::Razorpay {
                key_id,
                key_secret,
                webhook_secret,
                api_url: text(&p.razorpay_api_url),
                script_url: text(&p.razorpay_script_url),
            }),
            (key_id, key_secret, webhook_secret) => {
                let missing: Vec<&str> = [
                    ("MARQUE_RAZORPAY_KEY_ID", key_id.is_some()),
                    ("MARQUE_RAZORPAY_KEY_SECRET", key_secret.is_some()),
                    ("MARQUE_RAZORPAY_WEBHOOK_SECRET", webhook_secret.is_some()),
                ]
                .into_iter()
                .filter(|(_, set)| !set)
                .map(|(name, _)| name)
                .collect();
                let why = if self.env == Environment::Prod {
                    "MARQUE_ENV=prod takes payments through Razorpay only (the sandbox is for dev)"
                } else {
                    "Razorpay needs its key id and both secrets"
                };
                Err(format!("{why}: set {}", missing.join(", ")))
            }
        }
    }
}

impl Config {
    /// How messages are sent: `MARQUE_NOTIFY`, by default `outbox` in `dev` and `gateways` in `prod`.
    ///
    /// # Errors
    /// In `prod` with `MARQUE_NOTIFY=outbox`; with `gateways` when a required gateway setting
    /// is missing (each missing variable is named).
    pub fn notify_mode(&self) -> Result<NotifyMode, String> {
        let mode = self.notify.unwrap_or(match self.env {
            Environment::Dev => NotifyMode::Outbox,
            Environment::Prod => NotifyMode::Gateways,
        });
        if mode == NotifyMode::Outbox && self.env == Environment::Prod {
            return Err("MARQUE_ENV=prod refuses MARQUE_NOTIFY=outbox: messages must reach customers".to_owned());
        }
        if mode == NotifyMode::Gateways {
            let g = &self.gateways;
            let set = |v: &Option<String>| v.as_deref().is_some_and(|v| !v.trim().is_empty());
            let secret = |v: &Option<Secret>| v.as_ref().is_some_and(|v| !v.expose().trim().is_empty());
            let missing: Vec<&str> = [
                ("MARQUE_SMTP_HOST", set(&g.smtp_host)),
                ("MARQUE_SMTP_FROM", set(&g.smtp_from)),
                ("MARQUE_SMS_AUTH_KEY", secret(&g.sms_auth_key)),
                ("MARQUE_SMS_SENDER", set(&g.sms_sender)),
                ("MARQUE_SMS_DLT_ENTITY_ID", set(&g.sms_dlt_entity_id)),
                ("MARQUE_SMS_OTP_TEMPLATE_ID", set(&g.sms_otp_template_id)),
            ]
            .into_iter()
            .filter(|(_, ok)| !ok)
            .map(|(name, _)| name)
            .collect();
            if !missing.is_empty() {
                return Err(format!("MARQUE_NOTIFY=gateways needs {}", missing.join(", ")));
            }
        }
        Ok(mode)
    }
}

#[cfg(test)]
mod notify_tests {
    use super::*;

    fn gateways() -> GatewayConfig {
        let s = |v: &str| Some(v.to_owned());
        GatewayConfig {
            smtp_host: s("smtp.example.in"),
            smtp_from: s("Marque Parts <no-reply@marqueparts.in>"),
            sms_auth_key: Some("key".parse().expect("infallible")),
            sms_sender: s("MRQPRT"),
            sms_dlt_entity_id: s("1201159000000000001"),
            sms_otp_template_id: s("tmpl-otp"),
            ..GatewayConfig::default()
        }
    }

    #[test]
    fn dev_defaults_to_the_outbox_and_prod_refuses_it() {
        let mut config = Config::for_tests(PathBuf::from("web"));
        assert_eq!(config.notify_mode(), Ok(NotifyMode::Outbox));
        config.env = Environment::Prod;
        config.gateways = gateways();
        assert_eq!(config.notify_mode(), Ok(NotifyMode::Gateways), "prod defaults to the gateways");
        config.notify = Some(NotifyMode::Outbox);
        assert!(config.notify_mode().expect_err("refused").contains("outbox"));
    }

    #[test]
    fn gateways_need_every_setting_and_name_the_missing_ones() {
        let mut config = Config::for_tests(PathBuf::from("web"));
        config.env = Environment::Prod;
        let err = config.notify_mode().expect_err("nothing configured");
        for name in ["MARQUE_SMTP_HOST", "MARQUE_SMTP_FROM", "MARQUE_SMS_AUTH_KEY", "MARQUE_SMS_SENDER", "MARQUE_SMS_DLT_ENTITY_ID", "MARQUE_SMS_OTP_TEMPLATE_ID"] {
            assert!(err.contains(name), "{err} names {name}");
        }
        config.gateways = gateways();
        config.gateways.sms_sender = None;
        assert_eq!(config.notify_mode(), Err("MARQUE_NOTIFY=gateways needs MARQUE_SMS_SENDER".to_owned()));
        config.env = Environment::Dev;
        config.notify = Some(NotifyMode::Gateways);
        assert!(config.notify_mode().is_err(), "dev asking for the gateways needs them too");
    }
}

/// Secrets that are published in this repository (the `dev` defaults and the payment sandbox's),
/// refused in `prod` wherever a secret is configured.
const PUBLISHED_SECRETS: &[&str] = &[DEV_SECRET, "marque-sandbox-webhook-secret", "marque-sandbox-key-secret"];

impl Config {
    /// Everything `MARQUE_ENV=prod` refuses in this configuration, each naming the variable to
    /// set or change; empty in `dev` and for a configuration fit for production.
    #[must_use]
    pub fn prod_refusals(&self) -> Vec<String> {
        if self.env != Environment::Prod {
            return Vec::new();
        }
        let mut refusals = Vec::new();
        if let Err(e) = crate::identity::ShopIdentity::from_config(self) {
            refusals.push(e);
        }
        if let Err(e) = self.payment_mode() {
            refusals.push(e);
        }
        if let Err(e) = self.notify_mode() {
            refusals.push(e);
        }
        match self.secret.as_ref().map(|s| s.expose().trim()).filter(|s| !s.is_empty()) {
            None => refusals.push("MARQUE_SECRET is not set (the key of one-time code hashes)".to_owned()),
            Some(s) if PUBLISHED_SECRETS.contains(&s) => {
                refusals.push("MARQUE_SECRET is the published development key: set a random one".to_owned());
            }
            Some(s) if s.chars().count() < MIN_SECRET_CHARS => refusals.push(format!(
                "MARQUE_SECRET is shorter than {MIN_SECRET_CHARS} characters: set a long random key (openssl rand -hex 32)"
            )),
            Some(_) => {}
        }
        match self.public_url.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
            None => refusals.push(
                "MARQUE_PUBLIC_URL is not set (the shop's https:// address for links in emails, the sitemap, canonical \
                 links and Google sign-in; without it they would follow each request's Host header)"
                    .to_owned(),
            ),
            Some(u) if !u.starts_with("https://") => {
                refusals.push(format!("MARQUE_PUBLIC_URL `{u}` is not https:// (the shop is served over HTTPS in prod)"));
            }
            Some(_) => {}
        }
        let published = |s: &Option<Secret>| s.as_ref().is_some_and(|s| PUBLISHED_SECRETS.contains(&s.expose().trim()));
        for (name, secret) in [
            ("MARQUE_RAZORPAY_KEY_SECRET", &self.payment.razorpay_key_secret),
            ("MARQUE_RAZORPAY_WEBHOOK_SECRET", &self.payment.razorpay_webhook_secret),
            ("MARQUE_CLIENT_VALIDATION", &self.client_validation),
            ("MARQUE_DB_PASS", &self.db_pass),
            ("MARQUE_SMTP_PASS", &self.gateways.smtp_pass),
            ("MARQUE_SMS_AUTH_KEY", &self.gateways.sms_auth_key),
            ("MARQUE_GOOGLE_CLIENT_SECRET", &self.google_client_secret),
        ] {
            if published(secret) {
                refusals.push(format!("{name} is a published development secret: set the real one"));
            }
        }
        if self.client_validation.as_ref().is_none_or(|v| v.expose().trim().is_empty()) {
            refusals.push("MARQUE_CLIENT_VALIDATION is not set (the x-client-validation value authorized calls carry)".to_owned());
        }
        let url = self.database_url();
        if url.starts_with("mem://") {
            refusals.push("MARQUE_DB is mem://: the catalog, the customers and their orders would be lost at every restart".to_owned());
        }
        if url.starts_with("ws://") || url.starts_with("wss://") {
            let user = self.db_user.as_deref().map(str::trim).filter(|u| !u.is_empty());
            let pass = self.db_pass.as_ref().is_some_and(|p| !p.expose().is_empty());
            match user {
                None => refusals.push("MARQUE_DB_USER is not set: a database server needs the shop's own user".to_owned()),
                Some(u) if u.eq_ignore_ascii_case("root") => refusals.push(
                    "MARQUE_DB_USER is `root`: give the shop a user of its own on the database server".to_owned(),
                ),
                Some(_) => {}
            }
            if !pass {
                refusals.push("MARQUE_DB_PASS is not set: the database server's user needs a password".to_owned());
            }
            if self.db_auth == DbAuth::Root {
                refusals.push(
                    "MARQUE_DB_AUTH is `root`: sign in as a user of the shop's database (MARQUE_DB_AUTH=database)".to_owned(),
                );
            }
        }
        refusals
    }

    /// Refuses a `prod` configuration with every reason at once.
    ///
    /// # Errors
    /// One message listing each of [`Config::prod_refusals`].
    pub fn check_prod(&self) -> Result<(), String> {
        let refusals = self.prod_refusals();
        if refusals.is_empty() {
            return Ok(());
        }
        let lines: Vec<String> = refusals.iter().map(|r| format!("  - {r}")).collect();
        Err(format!("MARQUE_ENV=prod refuses to start:\n{}", lines.join("\n")))
    }
}

impl Config {
    /// A `prod` configuration that starts (every setting given, fake keys, an embedded database
    /// under `dir`), for tests.
    #[cfg(any(test, feature = "test-hooks"))]
    #[must_use]
    pub fn prod_for_tests(dir: &std::path::Path) -> Self {
        let secret = |v: &str| Some(v.parse::<Secret>().unwrap_or_else(|never| match never {}));
        let text = |v: &str| Some(v.to_owned());
        let mut c = Config::for_tests(PathBuf::from("/nonexistent-web-dir"));
        c.env = Environment::Prod;
        c.data_dir = dir.to_owned();
        c.db = Some(format!("surrealkv://{}", dir.join("db").display()));
        c.public_url = text("https://www.marqueparts.in");
        c.secret = secret("0123456789abcdef0123456789abcdef");
        c.client_validation = secret("client-validation-value");
        c.payment.razorpay_key_id = text("rzp_live_1");
        c.payment.razorpay_key_secret = secret("live-key-secret");
        c.payment.razorpay_webhook_secret = secret("live-hook-secret");
        c.gateways = GatewayConfig {
            smtp_host: text("127.0.0.1"),
            smtp_from: text("Marque Parts <no-reply@marqueparts.in>"),
            sms_auth_key: secret("key"),
            sms_sender: text("MRQPRT"),
            sms_dlt_entity_id: text("1201159000000000001"),
            sms_otp_template_id: text("tmpl-otp"),
            ..GatewayConfig::default()
        };
        c.identity = IdentityConfig {
            legal_name: text("Marque Parts Private Limited"),
            address: text("Plot 14, Okhla, New Delhi 110020"),
            gstin: text("07AAKCM4821R1ZU"),
            state: text("Delhi"),
            support_email: text("support@marqueparts.in"),
            support_phone: text("+91 11 4055 8200"),
            enquiry_phone: text("+91 98100 42424"),
            chat_number: None,
            grievance_name: text("Anita Sharma"),
            grievance_email: text("grievance@marqueparts.in"),
            grievance_phone: text("+91 11 4055 8201"),
        };
        c
    }
}

#[cfg(test)]
mod prod_tests {
    use super::*;

    fn s(v: &str) -> Option<Secret> {
        Some(v.parse().expect("infallible"))
    }

    /// A `prod` configuration with nothing to refuse.
    fn ready() -> Config {
        Config::prod_for_tests(std::path::Path::new("/srv/marque"))
    }

    fn refused_for(c: &Config, needle: &str) {
        let all = c.prod_refusals();
        assert!(all.iter().any(|r| r.contains(needle)), "{needle} in {all:?}");
    }

    #[test]
    fn a_complete_configuration_passes_and_dev_refuses_nothing() {
        assert_eq!(ready().prod_refusals(), Vec::<String>::new());
        assert_eq!(ready().check_prod(), Ok(()));
        assert!(Config::for_tests(PathBuf::from("web")).prod_refusals().is_empty());
    }

    #[test]
    fn every_refusal_is_collected_and_printed_together() {
        let mut c = Config::for_tests(PathBuf::from("web"));
        c.env = Environment::Prod;
        let err = c.check_prod().expect_err("nothing configured");
        for name in [
            "MARQUE_SHOP_LEGAL_NAME",
            "MARQUE_RAZORPAY_KEY_ID",
            "MARQUE_SMTP_HOST",
            "MARQUE_SECRET",
            "MARQUE_CLIENT_VALIDATION",
        ] {
            assert!(err.contains(name), "{name} in {err}");
        }
        assert!(err.lines().count() >= 6, "one line each: {err}");
    }

    #[test]
    fn dev_only_adapters_are_refused() {
        let mut c = ready();
        c.notify = Some(NotifyMode::Outbox);
        refused_for(&c, "outbox");
        let mut c = ready();
        c.payment = PaymentConfig::default();
        refused_for(&c, "MARQUE_RAZORPAY_KEY_ID");
    }

    #[test]
    fn default_secrets_are_refused() {
        let mut c = ready();
        c.secret = s(DEV_SECRET);
        refused_for(&c, "published development key");
        c.secret = None;
        refused_for(&c, "MARQUE_SECRET is not set");
        let mut c = ready();
        c.payment.razorpay_webhook_secret = s("marque-sandbox-webhook-secret");
        refused_for(&c, "MARQUE_RAZORPAY_WEBHOOK_SECRET is a published");
    }

    #[test]
    fn a_short_secret_a_missing_or_plain_public_address_and_a_memory_database_are_refused() {
        let mut c = ready();
        c.secret = s("prod-secret");
        refused_for(&c, "MARQUE_SECRET is shorter than 32 characters");
        let mut c = ready();
        c.public_url = None;
        refused_for(&c, "MARQUE_PUBLIC_URL is not set");
        c.public_url = Some("http://www.marqueparts.in".into());
        refused_for(&c, "is not https://");
        let mut c = ready();
        c.db = Some("mem://".into());
        refused_for(&c, "MARQUE_DB is mem://");
    }

    #[test]
    fn the_client_validation_value_is_required() {
        let mut c = ready();
        c.client_validation = s("  ");
        refused_for(&c, "MARQUE_CLIENT_VALIDATION is not set");
    }

    #[test]
    fn a_database_server_needs_a_user_of_the_shops_own() {
        let mut c = ready();
        c.db = Some("ws://db.internal:8000".into());
        refused_for(&c, "MARQUE_DB_USER is not set");
        refused_for(&c, "MARQUE_DB_PASS is not set");
        c.db_user = Some("root".into());
        c.db_pass = s("pw");
        refused_for(&c, "MARQUE_DB_USER is `root`");
        c.db_user = Some("marque".into());
        assert!(c.prod_refusals().is_empty(), "{:?}", c.prod_refusals());
        c.db_auth = DbAuth::Root;
        refused_for(&c, "MARQUE_DB_AUTH is `root`");
        c.db_auth = DbAuth::Namespace;
        assert!(c.prod_refusals().is_empty(), "{:?}", c.prod_refusals());
    }
}
