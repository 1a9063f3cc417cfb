//! The composition root: builds adapters from configuration, hands them to the
//! use cases and mounts everything on one HTTP route tree. Only wiring lives here.

use std::sync::Arc;

use anyhow::Context as _;
use marque_app::{
    AccountService, AccountSettings, AddressService, CatalogService, CheckoutService, OrderService,
    OrderSettings, OtpSecret, PrivacyService, Throttle, WishlistService,
};
use marque_blobs::LocalDiskBlobStore;
use marque_catalog_cache::CachedCatalogStore;
use marque_blobs_s3::S3BlobStore;
use marque_outbox::Outbox;
use marque_pdf::PdfInvoiceRenderer;
use marque_google::{DevIdentityProvider, OidcConfig, OidcIdentityProvider};
use marque_ports::{
    BlobStore, CatalogChanges, CatalogStore, IdentityProvider, Notifier, PaymentGateway, Readiness, SystemClock,
};
use marque_razorpay::{RazorpayConfig, RazorpayGateway};
use marque_razorpay_sandbox::{Sandbox, SandboxConfig};
use marque_surreal::{ConnectOptions, Credentials, Database, StoreMemory, UserLevel};
use poem::{EndpointExt, Route};

use crate::config::{BlobBackend, Config, DbAuth, Environment, NotifyMode, PaymentMode};
use crate::identity::{PaymentSettings, SignInSettings};
use crate::identity::ShopIdentity;
use crate::api::ready_answers::{ReadyAnswers, Warmed};
use crate::encoding::TextCompression;
use crate::hardening::{self, PolicySources, SecurityHeaders};
use crate::{api, seed, web};

/// The use cases the HTTP layer calls.
#[derive(Debug, Clone)]
pub struct Shop {
    pub catalog: CatalogService,
    pub accounts: AccountService,
    pub wishlist: WishlistService,
    pub addresses: AddressService,
    pub checkout: CheckoutService,
    /// The local payment provider (`dev` without Razorpay keys), served at `/sandbox/razorpay`.
    pub sandbox: Option<Sandbox>,
    /// Purchase history, invoices and order confirmations.
    pub orders: OrderService,
    /// The messages sent with `MARQUE_NOTIFY=outbox` (`GET /api/dev/outbox`, `dev` only); else `None`.
    pub outbox: Option<Arc<Outbox>>,
    /// The expected `x-client-validation` header value on authorized calls, when configured.
    pub client_validation: Option<Arc<ClientValidation>>,
    /// Who runs the shop, published to the frontends.
    pub identity: Arc<ShopIdentity>,
    /// Sign-in with Google (or the `dev` stand-in); `None` when not configured.
    pub sign_in: Option<api::google::SignIn>,
    /// Rate limits on customers' abusable writes, counted in the account store (shared by instances).
    pub throttle: Throttle,
    /// Whether the database answers right now (`/api/health/ready`).
    pub readiness: DatabaseReadiness,
    /// Ready answers of `GET /api/get/productById/{id}`; `None` when the catalog cache is off.
    pub ready_answers: Option<Arc<ReadyAnswers>>,
    /// A customer's copy of their data, and the erasure of their account.
    pub privacy: PrivacyService,
    /// Each client's budget of catalog searches and listings past the answer cache, and their deadline.
    pub catalog_guard: Arc<crate::catalog_budget::CatalogGuard>,
}

/// The database's readiness probe, shared by the health routes.
#[derive(Clone)]
pub struct DatabaseReadiness(pub Arc<dyn Readiness>);

impl std::fmt::Debug for DatabaseReadiness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DatabaseReadiness(…)")
    }
}

/// The configured `x-client-validation` value. Never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct ClientValidation(pub String);

impl std::fmt::Debug for ClientValidation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClientValidation(…)")
    }
}

/// A configured shop: its use cases and the storefront it hosts.
#[derive(Clone)]
pub struct App {
    pub config: Config,
    pub shop: Shop,
    catalog_store: Arc<dyn CatalogStore>,
    database: Database,
    /// Background tasks (the hold sweeper, the memory trimmer) end once the last handle of the app is dropped.
    _alive: Arc<tokio::sync::watch::Sender<()>>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App").field("config", &self.config).field("shop", &self.shop).finish_non_exhaustive()
    }
}

impl App {
    /// Checks the shop's identity, connects the database named by the
    /// configuration and applies its schema.
    ///
    /// # Errors
    /// With `MARQUE_ENV=prod`, every refusal of [`Config::check_prod`] in one message; when the
    /// identity is invalid, or the database
    /// cannot be opened or its schema cannot be applied.
    pub async fn connect(config: Config) -> anyhow::Result<Self> {
        config.check_prod().map_err(anyhow::Error::msg)?;
        let mut identity = ShopIdentity::from_config(&config).map_err(anyhow::Error::msg)?;
        let (payments, sandbox) = payment_gateway(&config)?;
        let checkout_config = payments.checkout();
        identity.payment = Some(PaymentSettings { key: checkout_config.key_id, script: checkout_config.script_url });
        let provider = sign_in_provider(&config)?;
        identity.sign_in = provider.is_some().then(SignInSettings::google);
        let identity = Arc::new(identity);
        let secret = config.otp_secret().map_err(anyhow::Error::msg)?;
        let url = config.database_url();
        let options = connect_options(&config);
        let database = Database::connect_with(&url, &options)
            .await
            .with_context(|| format!("opening the database at {url}"))?;
        // The cache's misses of searches and listings go through each client's budget.
        let catalog_store: Arc<dyn CatalogStore> =
            Arc::new(crate::catalog_budget::BudgetedCatalogStore::new(Arc::new(database.catalog())));
        // Writes (the seed) go through the cache too, so it forgets at once.
        let (catalog_store, ready_answers) = cached_reads(catalog_store, Arc::new(database.catalog_changes()), &config).await;
        let (outbox, notifier): (Option<Arc<Outbox>>, Arc<dyn Notifier>) =
            match config.notify_mode().map_err(anyhow::Error::msg)? {
                NotifyMode::Outbox => {
                    let outbox = Arc::new(Outbox::new());
                    (Some(outbox.clone()), outbox)
                }
                NotifyMode::Gateways => (None, Arc::new(crate::notify::gateways(&config.gateways)?)),
            };
        let mut order_settings = OrderSettings::new(
            identity.seller().context("the shop's GSTIN and state make no seller")?,
        );
        order_settings.shop_name = config.shop_name.clone();
        // The outbox keeps every SMS; the gateway sends one only with an approved template.
        order_settings.confirmation_sms = outbox.is_some() || config.gateways.order_template().is_some();
        order_settings.refund_sms = outbox.is_some() || config.gateways.refund_template().is_some();
        let orders = OrderService::new(
            Arc::new(database.orders()),
            Arc::new(database.accounts()),
            Arc::new(PdfInvoiceRenderer::new().context("the invoice fonts")?),
            notifier.clone(),
            order_settings,
        );
        let blobs = blob_store(&config)?;
        let privacy = PrivacyService::new(
            Arc::new(database.accounts()),
            Arc::new(database.addresses()),
            Arc::new(database.wishlist()),
            Arc::new(database.orders()),
            blobs.clone(),
        );
        let mut settings = AccountSettings::new(OtpSecret::new(secret.into_bytes()));
        settings.otp_valid_secs = i64::from(config.otp_valid_seconds.max(1));
        settings.signup_messages_per_hour = config.signup_messages_per_hour;
        settings.shop_name = config.shop_name.clone();
        settings.attempts_per_minute = config.limits.login_attempts_per_minute.max(1);
        let mut rules = config.rate_limits;
        config.limits.apply(&mut rules);
        let throttle = Throttle::new(Arc::new(database.rate_counter()), Arc::new(SystemClock), rules);
        let accounts =
            AccountService::new(Arc::new(database.accounts()), Arc::new(database.rate_counter()), notifier, blobs, Arc::new(SystemClock), settings);
        let wishlist = WishlistService::new(Arc::new(database.wishlist()), catalog_store.clone());
        let client_validation = config
            .client_validation
            .as_ref()
            .filter(|v| !v.expose().is_empty())
            .map(|v| Arc::new(ClientValidation(v.expose().to_owned())));
        let sign_in = provider.map(|(provider, dev)| api::google::SignIn {
            provider,
            dev,
            public_url: config.public_url.as_ref().map(|u| u.trim_end_matches('/').to_owned()).filter(|u| !u.is_empty()),
        });
        let addresses = Arc::new(database.addresses());
        // Checkout reads stock and prices from the store itself, never from cached answers.
        let checkout =
            CheckoutService::new(Arc::new(database.catalog()), addresses.clone(), Arc::new(database.orders()), payments, Arc::new(SystemClock))
                .notifying(Arc::new(orders.clone()));
        let checkout = crate::payments::configure_checkout(checkout, &config);
        let (alive, alive_rx) = tokio::sync::watch::channel(());
        spawn_hold_sweeper(&checkout, alive_rx.clone());
        spawn_account_sweeper(&accounts, alive_rx.clone());
        crate::payments::spawn_reconciler(&checkout, &config, alive_rx.clone());
        crate::memory::spawn_trimmer(alive_rx);
        let shop = Shop {
            catalog: CatalogService::new(catalog_store.clone()),
            accounts,
            wishlist,
            addresses: AddressService::new(addresses),
            checkout,
            sandbox,
            orders,
            outbox,
            client_validation,
            identity,
            sign_in,
            throttle,
            readiness: DatabaseReadiness(Arc::new(database.readiness())),
            ready_answers,
            privacy,
            catalog_guard: Arc::new(crate::catalog_budget::CatalogGuard::new(
                config.limits.catalog_misses_per_minute,
                std::time::Duration::from_millis(config.limits.catalog_deadline_ms),
            )),
        };
        Ok(Self { config, shop, catalog_store, database, _alive: Arc::new(alive) })
    }

    /// The database itself, for black-box tests that put records (placed orders) in place.
    #[cfg(feature = "test-hooks")]
    #[must_use]
    pub fn database(&self) -> &Database {
        &self.database
    }

    /// Drops this handle (its background tasks end with it) and waits, at most `within`, for the
    /// embedded database to finish closing; `false` when something still held it open.
    pub async fn close(self, within: std::time::Duration) -> bool {
        let closing = self.database.closing();
        drop(self);
        closing.wait(within).await
    }

    /// Writes the demo catalog when the catalog is empty. Returns how many products it wrote.
    ///
    /// # Errors
    /// When the store cannot be read or written.
    pub async fn seed_if_empty(&self) -> anyhow::Result<u32> {
        self.seed_if_empty_reporting(|_, _| {}).await
    }

    /// [`App::seed_if_empty`], calling `progress(written, count)` after every batch.
    ///
    /// # Errors
    /// When the store cannot be read or written.
    pub async fn seed_if_empty_reporting(&self, progress: impl FnMut(u32, u32) + Send) -> anyhow::Result<u32> {
        if !self.shop.catalog.is_empty().await? {
            return Ok(0);
        }
        seed::write_demo_catalog_reporting(self.catalog_store.as_ref(), self.config.seed_products, progress).await?;
        Ok(self.config.seed_products)
    }

    /// The whole HTTP surface: API, storefront pages, static files, media.
    ///
    /// # Errors
    /// When the remote overrides in the configuration are malformed.
    pub fn routes(&self) -> anyhow::Result<impl poem::Endpoint + 'static> {
        // One API endpoint, served at /api and asked in-process by the storefront for the data pages embed.
        let api = web::ApiEndpoint::new(api::routes(self.shop.clone()));
        let storefront = web::Storefront::load(&self.config, self.shop.clone(), api.clone())
            .map_err(anyhow::Error::msg)?;
        let mut route = Route::new();
        if let Some(sandbox) = &self.shop.sandbox {
            route = route.nest(SANDBOX_PATH, sandbox.routes());
        }
        let headers = SecurityHeaders::new(&self.policy_sources()?, self.config.env == Environment::Prod)
            .map_err(anyhow::Error::msg)?;
        let proxies = Arc::new(self.config.limits.proxies().map_err(anyhow::Error::msg)?);
        if crate::metrics::MetricsAt::parse(&self.config.metrics).map_err(anyhow::Error::msg)? == crate::metrics::MetricsAt::Public {
            route = route.at("/metrics", poem::get(crate::metrics::scrape));
        }
        let operations = Arc::new(crate::metrics::Operations::new(&api::spec_json(&self.shop)));
        let body_deadline = crate::listener::BodyDeadline(std::time::Duration::from_millis(self.config.limits.body_timeout_ms.max(1)));
        Ok(route
            .nest("/api", api.endpoint())
            .at("/media/avatars/:file", web::avatar.data(self.shop.clone()))
            .nest("/", storefront.routes())
            .boxed()
            .around(hardening::limit_bodies)
            .boxed()
            .with(body_deadline)
            .boxed()
            .with(TextCompression)
            .boxed()
            .around(move |next, req| crate::metrics::count_requests(next, req, operations.clone()))
            .boxed()
            .around(crate::request_log::log_requests)
            .with(headers)
            .with(crate::clients::RememberClient(proxies)))
    }

    /// The origins the pages' Content-Security-Policy allows besides their own: the checkout
    /// script's and the payment API's, remotes served from elsewhere, and the operator's extras.
    ///
    /// # Errors
    /// When `MARQUE_REMOTES` is malformed or an extra origin is not `http(s)://host[:port]`.
    pub fn policy_sources(&self) -> anyhow::Result<PolicySources> {
        let payment_api = match self.config.payment_mode() {
            Ok(PaymentMode::Razorpay { api_url, .. }) => {
                hardening::origin_of(api_url.as_deref().unwrap_or(marque_razorpay::RAZORPAY_BASE_URL))
            }
            _ => None,
        };
        let mut extra = Vec::new();
        for raw in self.config.csp_extra_origins.split([',', ' ']).map(str::trim).filter(|o| !o.is_empty()) {
            let origin = hardening::origin_of(raw)
                .filter(|o| o == raw.trim_end_matches('/'))
                .with_context(|| format!("MARQUE_CSP_EXTRA_ORIGINS: `{raw}` is not an origin like https://host[:port]"))?;
            extra.push(origin);
        }
        Ok(PolicySources {
            payment_script: self.shop.identity.payment.as_ref().and_then(|p| hardening::origin_of(&p.script)),
            payment_api,
            remotes: self.config.remote_overrides().map_err(anyhow::Error::msg)?.values().filter_map(|u| hardening::origin_of(u)).collect(),
            extra,
        })
    }
}

/// How to reach the configured database: the shop's namespace and database, and the
/// `ws://` server's user when configured.
#[must_use]
pub fn connect_options(config: &Config) -> ConnectOptions {
    let level = match config.db_auth {
        DbAuth::Root => UserLevel::Root,
        DbAuth::Namespace => UserLevel::Namespace,
        DbAuth::Database => UserLevel::Database,
    };
    ConnectOptions {
        namespace: config.db_namespace.clone(),
        database: config.db_database.clone(),
        timeout: std::time::Duration::from_millis(config.db_timeout_ms.max(1)),
        store_memory: StoreMemory { block_cache_mb: config.db_cache_mb, memtable_mb: config.db_memtable_mb },
        credentials: config
            .db_user
            .clone()
            .zip(config.db_pass.as_ref())
            .map(|(username, password)| Credentials { username, password: password.expose().to_owned(), level }),
    }
}

/// Where the `dev` payment sandbox is served.
pub const SANDBOX_PATH: &str = "/sandbox/razorpay";

/// How often unpaid holds past their 15 minutes give their stock back.
const HOLD_SWEEP: std::time::Duration = std::time::Duration::from_secs(30);

/// Razorpay when configured, else (in `dev`) the in-process sandbox with the routes it serves.
///
/// # Errors
/// The configuration's refusal (see [`Config::payment_mode`]), or Razorpay's settings rejected.
pub fn payment_gateway(config: &Config) -> anyhow::Result<(Arc<dyn PaymentGateway>, Option<Sandbox>)> {
    match config.payment_mode().map_err(anyhow::Error::msg)? {
        PaymentMode::Razorpay { key_id, key_secret, webhook_secret, api_url, script_url } => {
            let mut settings =
                RazorpayConfig::new(key_id, secrecy::SecretString::from(key_secret), secrecy::SecretString::from(webhook_secret));
            if let Some(url) = api_url {
                settings.base_url = url;
            }
            if let Some(url) = script_url {
                settings.checkout_script_url = url;
            }
            let gateway = RazorpayGateway::new(settings).context("MARQUE_RAZORPAY_*: the payment settings")?;
            Ok((Arc::new(gateway), None))
        }
        PaymentMode::Sandbox => {
            // Webhooks need an address the sandbox can reach: the public URL, or a fixed port.
            let base = config
                .public_url
                .as_deref()
                .map(|u| u.trim_end_matches('/').to_owned())
                .filter(|u| !u.is_empty())
                .or_else(|| Some(format!("http://{}", config.addr)).filter(|_| !config.addr.ends_with(":0")));
            let webhook = base.map(|b| format!("{b}/api/razorpay/webhook"));
            let sandbox = Sandbox::new(SandboxConfig::dev(SANDBOX_PATH, webhook));
            Ok((Arc::new(sandbox.gateway()), Some(sandbox)))
        }
    }
}

/// The picture store: files under the data directory, or the shared S3 bucket.
///
/// # Errors
/// The configuration's refusal (see [`Config::blob_backend`]), or the S3 settings rejected.
pub fn blob_store(config: &Config) -> anyhow::Result<Arc<dyn BlobStore>> {
    match config.blob_backend().map_err(anyhow::Error::msg)? {
        BlobBackend::Local(root) => Ok(Arc::new(LocalDiskBlobStore::new(root))),
        BlobBackend::S3(settings) => {
            let store = S3BlobStore::new(&settings).context("MARQUE_S3_*: the picture bucket")?;
            tracing::info!(bucket = store.bucket(), endpoint = settings.endpoint.as_deref().unwrap_or("AWS S3"), "pictures in S3");
            Ok(Arc::new(store))
        }
    }
}

/// Releases expired holds every [`HOLD_SWEEP`] until `alive`'s sender (the app) is dropped.
fn spawn_hold_sweeper(checkout: &CheckoutService, alive: tokio::sync::watch::Receiver<()>) {
    let checkout = checkout.clone();
    spawn_every(HOLD_SWEEP, alive, move || {
        let checkout = checkout.clone();
        async move {
            match checkout.release_expired().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(released = n, "gave back the stock of unpaid holds"),
                Err(e) => tracing::warn!(error = %e, "releasing expired holds failed; trying again later"),
            }
            crate::payments::forget_old_events(&checkout).await;
        }
    });
}

/// How often ended sessions, unfinished sign-ins and day-old accounts that proved nothing are deleted.
const ACCOUNT_SWEEP: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// Housekeeping of the account store every [`ACCOUNT_SWEEP`] until `alive`'s sender (the app) is dropped.
fn spawn_account_sweeper(accounts: &AccountService, alive: tokio::sync::watch::Receiver<()>) {
    let accounts = accounts.clone();
    spawn_every(ACCOUNT_SWEEP, alive, move || {
        let accounts = accounts.clone();
        async move {
            match accounts.sweep().await {
                Ok(swept) if swept.sessions + swept.pending_sign_ins > 0 || !swept.accounts.is_empty() => tracing::info!(
                    sessions = swept.sessions,
                    pending_sign_ins = swept.pending_sign_ins,
                    unverified_accounts = swept.accounts.len(),
                    "swept the account store"
                ),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "sweeping the account store failed; trying again later"),
            }
        }
    });
}

/// Runs `work` every `period` (the first at once; a late tick is not made up for) on a task
/// that ends once `alive`'s sender (the app) is dropped.
pub(crate) fn spawn_every<F, Fut>(period: std::time::Duration, mut alive: tokio::sync::watch::Receiver<()>, mut work: F)
where
    F: FnMut() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = ticks.tick() => {}
                _ = alive.changed() => break,
            }
            work().await;
        }
    });
}

/// The sign-in provider: Google (OpenID Connect) when its client id and secret are configured,
/// else the local stand-in in `dev`, else none. The flag tells whether it is the stand-in.
///
/// # Errors
/// When only one of the client id and secret is set, or the issuer is not a URL.
pub fn sign_in_provider(config: &Config) -> anyhow::Result<Option<(Arc<dyn IdentityProvider>, bool)>> {
    let id = config.google_client_id.as_deref().map(str::trim).filter(|v| !v.is_empty());
    let secret = config.google_client_secret.as_ref().map(|s| s.expose().trim()).filter(|v| !v.is_empty());
    match (id, secret) {
        (Some(id), Some(secret)) => {
            let mut oidc = OidcConfig::google(id, secrecy::SecretString::from(secret.to_owned()));
            if let Some(issuer) = config.google_issuer.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
                issuer.clone_into(&mut oidc.issuer_url);
            }
            let provider = OidcIdentityProvider::new(oidc).context("MARQUE_GOOGLE_*: the sign-in settings")?;
            Ok(Some((Arc::new(provider), false)))
        }
        (None, None) if config.env == Environment::Dev => Ok(Some((Arc::new(DevIdentityProvider::new()), true))),
        (None, None) => Ok(None),
        _ => anyhow::bail!("MARQUE_GOOGLE_CLIENT_ID and MARQUE_GOOGLE_CLIENT_SECRET must be set together"),
    }
}
/// The store the storefront reads through: `store` behind a [`CachedCatalogStore`] whose
/// `changes` are polled every `catalog_poll_ms` by a task that ends with the last handle
/// of the cache; `store` itself when the cache is off (`catalog_cache_mb` 0). With it, the
/// ready product answers (`product_pages_mb`), warmed by a task of their own.
async fn cached_reads(
    store: Arc<dyn CatalogStore>,
    changes: Arc<dyn CatalogChanges>,
    config: &Config,
) -> (Arc<dyn CatalogStore>, Option<Arc<ReadyAnswers>>) {
    if config.catalog_cache_mb == 0 {
        return (store, None);
    }
    let poll = std::time::Duration::from_millis(config.catalog_poll_ms.max(10));
    // Answers stay usable for a few polls, so one slow poll does not empty the cache;
    // never longer than the second within which a write must show.
    let staleness = (poll * 4).min(std::time::Duration::from_millis(900));
    let cache = Arc::new(
        CachedCatalogStore::new(store, changes, config.catalog_cache_mb.saturating_mul(1 << 20)).with_max_staleness(staleness),
    );
    if let Err(e) = cache.refresh().await {
        tracing::warn!(error = %e, "catalog cache: the catalog version cannot be read yet");
    }
    marque_catalog_cache::spawn_poller(&cache, poll);
    let pages = (config.product_pages_mb > 0)
        .then(|| {
            let listings = config.catalog_cache_mb.saturating_mul(1 << 20) / 2;
            ReadyAnswers::new(cache.clone(), config.product_pages_mb.saturating_mul(1 << 20), listings)
        });
    if let Some(pages) = &pages {
        spawn_ready_answers_warmer(pages, poll);
    }
    (cache, pages)
}

/// Warms `pages` with the whole catalog once the catalog cache's generation has stood still
/// for [`WARM_AFTER`] (at start, and after every change), on a task that ends with the pages.
/// A warm starts no sooner than [`WARM_SHARE`] times its predecessor's duration after it ended,
/// so a stream of catalog changes (an import in many parts) keeps warming to about a tenth of one
/// core; meanwhile products are kept as they are asked for. Stock changes (orders) move no
/// generation: they forget only their products' answers, kept again when asked.
pub fn spawn_ready_answers_warmer(pages: &Arc<ReadyAnswers>, poll: std::time::Duration) {
    let weak = Arc::downgrade(pages);
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(poll);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut seen: Option<u64> = None;
        let mut since = tokio::time::Instant::now();
        let mut warmed_for: Option<u64> = None;
        let mut rested_until = tokio::time::Instant::now();
        loop {
            ticks.tick().await;
            let Some(generation) = weak.upgrade().map(|p| p.generation()) else { break };
            if generation != seen {
                seen = generation;
                since = tokio::time::Instant::now();
            }
            let Some(generation) = generation.filter(|g| warmed_for != Some(*g)) else { continue };
            if since.elapsed() < WARM_AFTER || tokio::time::Instant::now() < rested_until {
                continue;
            }
            let started = tokio::time::Instant::now();
            let outcome = ReadyAnswers::warm(&weak).await;
            rested_until = tokio::time::Instant::now() + started.elapsed() * WARM_SHARE;
            match outcome {
                Ok(Warmed::All(n)) => {
                    tracing::debug!(products = n, "ready answers: warmed");
                    warmed_for = Some(generation);
                }
                Ok(Warmed::Full(n)) => {
                    tracing::info!(products = n, "ready answers: full before every product was read (MARQUE_PRODUCT_PAGES_MB)");
                    warmed_for = Some(generation);
                }
                // The catalog changed meanwhile: warmed again once it settles.
                Ok(Warmed::Interrupted) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "ready answers: warming failed; they fill as products are asked for");
                    warmed_for = Some(generation);
                }
            }
        }
    });
}

/// How long the catalog must stand still before the product answers are warmed: a burst of
/// writes (an import) is not followed by a full read after each one.
const WARM_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

/// Rest after a warm, as a multiple of how long it took.
const WARM_SHARE: u32 = 9;
