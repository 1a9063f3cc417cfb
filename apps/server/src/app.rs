//! The composition root: builds adapters from configuration, hands them to the use cases,
//! the use cases to the API (`marque-api`) and the storefront (`marque-storefront`), and
//! mounts everything on one HTTP route tree. Only wiring lives here.

use std::sync::Arc;

use anyhow::Context as _;
use marque_api::response_cache::{self, ResponseCache};
use marque_api::{
    BudgetedCatalogStore, CatalogGuard, ClientValidation, DatabaseReadiness, PaymentSettings, Services, SignIn,
    SignInSettings, WarmUp,
};
use marque_app::{
    AccountService, AccountSettings, AddressService, CatalogService, CheckoutService, OrderService, OrderSettings,
    OtpSecret, PrivacyService, Throttle, WishlistService,
};
use marque_blobs::LocalDiskBlobStore;
use marque_blobs_s3::S3BlobStore;
use marque_catalog_cache::CachedCatalogStore;
use marque_google::{DevIdentityProvider, OidcConfig, OidcIdentityProvider};
use marque_outbox::Outbox;
use marque_pdf::PdfInvoiceRenderer;
use marque_ports::{BlobStore, CatalogChanges, CatalogStore, IdentityProvider, Notifier, PaymentGateway, SystemClock};
use marque_razorpay::{RazorpayConfig, RazorpayGateway};
use marque_razorpay_sandbox::{Sandbox, SandboxConfig};
use marque_storefront::encoding::TextCompression;
use marque_storefront::hardening::{self, PolicySources, SecurityHeaders};
use marque_storefront::{ApiEndpoint, Storefront, StorefrontOptions, StorefrontServices};
use marque_surreal::Database;
use poem::{EndpointExt, Route};

use crate::seed;
use crate::settings::blobs::Blobs;
use crate::settings::notifications::Notifications;
use crate::settings::payments::Payments;
use crate::settings::sign_in::SignIn as SignInChoice;
use crate::settings::{Environment, Settings};
use marque_app::admin::staff::{StaffService, StaffSettings};
use marque_app::housekeeping;

/// A configured shop: the use cases the API and the storefront call, and the adapters only the
/// wiring names (the database, the payment sandbox, the outbox).
#[derive(Clone)]
pub struct App {
    pub settings: Settings,
    /// What the API is built from (and the storefront's part of it).
    pub services: Services,
    /// The local payment provider (`dev` without Razorpay keys), served at `/sandbox/razorpay`.
    pub sandbox: Option<Sandbox>,
    /// The messages sent with `MARQUE_NOTIFY=outbox` (`GET /api/dev/outbox`, `dev` only); else `None`.
    pub outbox: Option<Arc<Outbox>>,
    catalog_store: Arc<dyn CatalogStore>,
    database: Database,
    /// Set once the warm-up task and the catalog index's build are started (by the first [`App::routes`]).
    warm_up_started: Arc<std::sync::atomic::AtomicBool>,
    /// Background tasks (the hold sweeper, the memory trimmer) end once the last handle of the app is dropped.
    _alive: Arc<tokio::sync::watch::Sender<()>>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("settings", &self.settings)
            .field("services", &self.services)
            .finish_non_exhaustive()
    }
}

impl App {
    /// Builds the adapters the settings (parsed and checked by [`Settings::from_flags`]) name,
    /// connects the database and applies its schema.
    ///
    /// # Errors
    /// When an adapter refuses its settings, or the database cannot be opened or its schema
    /// cannot be applied.
    pub async fn connect(settings: Settings) -> anyhow::Result<Self> {
        let mut identity = crate::identity::from_settings(&settings.identity);
        let (payments, sandbox) = payment_gateway(&settings)?;
        let checkout_config = payments.checkout();
        identity.payment = Some(PaymentSettings { key: checkout_config.key_id, script: checkout_config.script_url });
        let provider = sign_in_provider(&settings)?;
        identity.sign_in = provider.is_some().then(SignInSettings::google);
        let identity = Arc::new(identity);
        let secret = settings.codes.key.expose().to_owned();
        let url = settings.database.url.to_string();
        let options = settings.database.connect_options();
        let database =
            Database::connect_with(&url, &options).await.with_context(|| format!("opening the database at {url}"))?;
        // The cache's misses of searches and listings go through each client's budget.
        let catalog_store: Arc<dyn CatalogStore> = Arc::new(BudgetedCatalogStore::new(Arc::new(database.catalog())));
        // Writes (the seed) go through the cache too, so it forgets at once.
        let (catalog_store, response_cache) =
            cached_reads(catalog_store, Arc::new(database.catalog_changes()), &settings).await;
        let (outbox, notifier): (Option<Arc<Outbox>>, Arc<dyn Notifier>) = match &settings.notifications {
            Notifications::Outbox => {
                let outbox = Arc::new(Outbox::new());
                (Some(outbox.clone()), outbox)
            }
            Notifications::Gateways(gateways) => (None, Arc::new(crate::notify::gateways(gateways)?)),
        };
        let mut order_settings =
            OrderSettings::new(identity.seller().context("the shop's GSTIN and state make no seller")?);
        order_settings.shop_name = settings.identity.name.clone();
        // The outbox keeps every SMS; the gateway sends one only with an approved template.
        order_settings.confirmation_sms = outbox.is_some() || settings.notifications.order_template().is_some();
        order_settings.refund_sms = outbox.is_some() || settings.notifications.refund_template().is_some();
        let renderer: Arc<dyn marque_ports::InvoiceRenderer> =
            Arc::new(PdfInvoiceRenderer::new().context("the invoice fonts")?);
        let orders = OrderService::new(
            Arc::new(database.orders()),
            Arc::new(database.accounts()),
            renderer.clone(),
            notifier.clone(),
            order_settings,
        );
        let blobs = blob_store(&settings)?;
        let privacy = PrivacyService::new(
            Arc::new(database.accounts()),
            Arc::new(database.addresses()),
            Arc::new(database.wishlist()),
            Arc::new(database.garage()),
            Arc::new(database.orders()),
            Arc::new(database.returns()),
            Arc::new(database.store_credit()),
            blobs.clone(),
            Arc::new(SystemClock),
        );
        let mut account_settings = AccountSettings::new(OtpSecret::new(secret.into_bytes()));
        account_settings.otp_valid_secs = i64::from(settings.codes.valid_seconds);
        account_settings.signup_messages_per_hour = settings.codes.signup_messages_per_hour;
        account_settings.shop_name = settings.identity.name.clone();
        account_settings.attempts_per_minute = settings.limits.login_attempts_per_minute;
        let rules = settings.limits.rules;
        let throttle = Throttle::new(Arc::new(database.rate_counter()), Arc::new(SystemClock), rules);
        // One encoder for products' and returns' photographs: one decode at a time in all.
        let encoder: Arc<dyn marque_ports::PhotoEncoder> = Arc::new(marque_photos::ImagePhotoEncoder::new());
        let photos = marque_app::admin::photos::PhotosService::new(
            Arc::new(database.photos()),
            encoder.clone(),
            blobs.clone(),
            Arc::new(SystemClock),
        );
        let grievances = marque_app::GrievanceService::new(
            Arc::new(database.grievances()),
            notifier.clone(),
            Arc::new(SystemClock),
            marque_app::GrievanceOfficerContact {
                name: settings.identity.grievance_name.clone(),
                email: settings.identity.grievance_email.as_str().to_owned(),
                phone: settings.identity.grievance_phone.clone(),
            },
            &settings.identity.name,
        );
        let admin_grievances = marque_app::admin::grievances::AdminGrievancesService::new(
            Arc::new(database.grievances()),
            notifier.clone(),
            Arc::new(SystemClock),
        );
        // Catalog imports (issue 23): the uploaded file is kept beside the photographs until its job
        // is over; the worker reads and writes the store itself, never the cached answers, and its
        // batches move the catalog version like the editor's writes.
        let imports = marque_app::admin::imports::ImportService::new(
            Arc::new(database.import_jobs()),
            blobs.clone(),
            Arc::new(database.catalog()),
            Arc::new(database.catalog_editor()),
            Arc::new(SystemClock),
            worker_name(),
        )
        .with_vehicles(Arc::new(database.vehicles()))
        // Photographs named in the file: attached after the rows through the editor's pipeline;
        // addresses fetched behind the SSRF guard (its allowlist is for tests only).
        .with_photos(
            photos.clone(),
            Arc::new(
                marque_photos::fetch::GuardedPhotoFetcher::new()
                    .allowing_test_hosts(settings.imports.test_photo_hosts.clone()),
            ),
        );
        // Customers' order notices (issue 24): queued with each order change, sent by this worker.
        let notice_settings = notice_settings(&settings);
        let notice_worker = marque_app::NoticeWorker::new(
            Arc::new(database.notice_outbox()),
            notifier.clone(),
            Arc::new(SystemClock),
            worker_name(),
        );
        let accounts = AccountService::new(
            Arc::new(database.accounts()),
            Arc::new(database.rate_counter()),
            notifier,
            blobs.clone(),
            Arc::new(SystemClock),
            account_settings,
        );
        let wishlist = WishlistService::new(Arc::new(database.wishlist()), catalog_store.clone());
        let client_validation = settings
            .client_validation
            .as_ref()
            .map(|v| Arc::new(ClientValidation(secrecy::ExposeSecret::expose_secret(v).to_owned())));
        let sign_in = provider.map(|(provider, dev)| SignIn {
            provider,
            dev,
            public_url: settings.public_url.as_ref().map(|u| u.as_str().to_owned()),
        });
        let addresses = Arc::new(database.addresses());
        // Checkout reads stock and prices from the store itself, never from cached answers.
        let checkout = CheckoutService::new(
            Arc::new(database.catalog()),
            addresses.clone(),
            Arc::new(database.orders()),
            payments.clone(),
            Arc::new(SystemClock),
        )
        .with_store_credit(Arc::new(database.store_credit()))
        .notifying(Arc::new(orders.clone()));
        let refunds = marque_app::admin::refunds::RefundsService::new(
            Arc::new(database.order_desk()),
            payments,
            Arc::new(SystemClock),
            identity.seller().context("the shop's GSTIN and state make no seller")?,
        )
        .with_store_credit(Arc::new(database.store_credit()))
        .with_returns(Arc::new(database.returns()))
        .with_notices(notice_settings.clone());
        let returns = marque_app::ReturnsService::new(
            marque_app::ReturnsPorts {
                returns: Arc::new(database.returns()),
                desk: Arc::new(database.order_desk()),
                orders: Arc::new(database.orders()),
                catalog: Arc::new(database.catalog_editor()),
                encoder,
                blobs: blobs.clone(),
                clock: Arc::new(SystemClock),
            },
            refunds.clone(),
            identity.seller().context("the shop's GSTIN and state make no seller")?,
        )
        .with_notices(notice_settings.clone());
        let credit_notes = marque_app::CreditNoteService::new(
            Arc::new(database.order_desk()),
            renderer,
            identity.seller().context("the shop's GSTIN and state make no seller")?,
        );
        let checkout = crate::payments::configure_checkout(checkout, &settings);
        let (alive, alive_rx) = tokio::sync::watch::channel(());
        housekeeping::spawn_hold_sweeper(&checkout, alive_rx.clone());
        housekeeping::spawn_account_sweeper(&accounts, alive_rx.clone());
        housekeeping::spawn_reconciler(&checkout, settings.orders.reconcile, alive_rx.clone());
        housekeeping::spawn_refund_reconciler(&refunds, settings.orders.reconcile, alive_rx.clone());
        let staff = StaffService::new(
            Arc::new(database.staff()),
            Arc::new(database.rate_counter()),
            Arc::new(SystemClock),
            StaffSettings::new(settings.staff.seal_key.key()),
        );
        housekeeping::spawn_staff_sweeper(&staff, alive_rx.clone());
        housekeeping::spawn_import_worker(&imports, housekeeping::IMPORT_IDLE, alive_rx.clone());
        housekeeping::spawn_import_photo_worker(&imports, housekeeping::IMPORT_IDLE, alive_rx.clone());
        housekeeping::spawn_notice_worker(&notice_worker, housekeeping::NOTICE_TICK, alive_rx.clone());
        crate::memory::spawn_trimmer(alive_rx);
        let dev_outbox =
            outbox.clone().map(|outbox| -> marque_api::DevOutbox { Arc::new(move || outbox_json(&outbox)) });
        let services = Services {
            catalog: CatalogService::new(catalog_store.clone()),
            accounts,
            wishlist,
            addresses: AddressService::new(addresses),
            checkout,
            orders,
            privacy,
            customers: marque_app::admin::customers::CustomersService::new(
                Arc::new(database.accounts()),
                Arc::new(database.orders()),
                Arc::new(SystemClock),
            ),
            audit: marque_app::admin::audit::AuditService::new(Arc::new(database.audit_log())),
            photos,
            throttle,
            readiness: DatabaseReadiness(Arc::new(database.readiness())),
            // Nothing to warm without the catalog cache.
            warm_up: if settings.catalog.cache_mb == 0 {
                WarmUp::done()
            } else {
                WarmUp::new(settings.catalog.warm_up_limit)
            },
            identity,
            sign_in,
            client_validation,
            response_cache,
            catalog_guard: Arc::new(CatalogGuard::new(
                settings.limits.catalog_misses_per_minute,
                settings.limits.catalog_deadline,
            )),
            staff,
            dev_outbox,
            stock: marque_app::admin::stock::StockService::new(Arc::new(database.stock()), Arc::new(SystemClock)),
            // The editor reads and writes the store itself; its writes move the catalog version,
            // which every instance's cache polls.
            admin_catalog: marque_app::admin::catalog::AdminCatalogService::new(
                Arc::new(database.catalog_editor()),
                Arc::new(database.catalog()),
                Arc::new(SystemClock),
            ),
            admin_orders: marque_app::admin::orders::AdminOrdersService::new(
                Arc::new(database.order_desk()),
                Arc::new(SystemClock),
            )
            .with_notices(notice_settings),
            order_notices: marque_app::admin::notices::OrderNoticesService::new(Arc::new(database.notice_outbox())),
            refunds,
            credit_notes,
            imports,
            exports: marque_app::admin::imports::export::ExportService::new(
                Arc::new(database.catalog()),
                Arc::new(database.catalog_editor()),
            ),
            grievances,
            admin_grievances,
            dashboard: marque_app::admin::dashboard::DashboardService::new(
                Arc::new(database.order_desk()),
                Arc::new(database.grievances()),
                Arc::new(database.stock()),
                Arc::new(SystemClock),
            )
            .with_returns(Arc::new(database.returns()))
            .with_notices(Arc::new(database.notice_outbox())),
            vehicles: marque_app::VehicleService::new(Arc::new(database.vehicles())),
            garage: marque_app::GarageService::new(Arc::new(database.garage()), Arc::new(database.vehicles())),
            admin_fitment: marque_app::admin::fitment::AdminFitmentService::new(
                Arc::new(database.vehicles()),
                Arc::new(SystemClock),
            ),
            returns,
        };
        // The vehicle table's seed list, at every start: only vehicles not yet stored are added.
        let seed_list = seed::vehicles::vehicles().context("the vehicle seed list")?;
        marque_ports::VehicleStore::seed_vehicles(&database.vehicles(), &seed_list)
            .await
            .context("seeding the vehicle table")?;
        Ok(Self {
            settings,
            services,
            sandbox,
            outbox,
            catalog_store,
            database,
            warm_up_started: Arc::default(),
            _alive: Arc::new(alive),
        })
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
        self.seed_if_empty_reporting(1, |_, _| {}).await
    }

    /// [`App::seed_if_empty`] with `fits` fitment rows a product (1: each product's own generation;
    /// more for benchmarks, [`seed::write_demo_fitment`]), calling `progress(written, count)` after
    /// every batch.
    ///
    /// # Errors
    /// When the store cannot be read or written.
    pub async fn seed_if_empty_reporting(
        &self,
        fits: usize,
        progress: impl FnMut(u32, u32) + Send,
    ) -> anyhow::Result<u32> {
        if !self.services.catalog.is_empty().await? {
            return Ok(0);
        }
        seed::write_demo_catalog_reporting(self.catalog_store.as_ref(), self.settings.seed_products, progress).await?;
        seed::write_demo_fitment(&self.database.vehicles(), self.settings.seed_products, fits).await?;
        Ok(self.settings.seed_products)
    }

    /// The back office's first owner (`MARQUE_OWNER_EMAIL`): with no owner in the database, that
    /// owner is created and the answer is their one-time set-up link (24 hours); while that owner
    /// has not set up, each start gives a new link (the earlier one ends); else `None`. The caller
    /// prints it to standard output, never through the logger. In `dev` with the outbox, the link
    /// is also kept there as an email to the owner.
    ///
    /// # Errors
    /// When the staff store cannot be read or written, or the email is another staff member's.
    pub async fn ensure_first_owner(&self) -> anyhow::Result<Option<String>> {
        let Some(email) = &self.settings.staff.owner_email else { return Ok(None) };
        let Some(invitation) = self.services.staff.ensure_owner(email).await.map_err(|e| anyhow::anyhow!("{e}"))?
        else {
            return Ok(None);
        };
        let link = match &self.settings.public_url {
            Some(url) => format!("{}{}", url.as_str(), invitation.code.link()),
            None => invitation.code.link(),
        };
        if let Some(outbox) = self.outbox.as_ref().filter(|_| self.settings.env == Environment::Dev) {
            let note = marque_ports::Notification {
                channel: marque_ports::Channel::Email,
                recipient: invitation.staff.email.clone(),
                subject: "Set up your Marque back office account".to_owned(),
                text: format!("Open this link within 24 hours to set your password and authenticator: {link}"),
                template: None,
                attachments: Vec::new(),
            };
            if let Err(e) = marque_ports::Notifier::send(outbox.as_ref(), &note).await {
                tracing::warn!(error = %e, "keeping the owner's set-up link in the outbox failed");
            }
        }
        Ok(Some(link))
    }

    /// The whole HTTP surface: API, storefront pages, static files, media.
    ///
    /// # Errors
    /// When the storefront's route table or the security headers cannot be built.
    pub fn routes(&self) -> anyhow::Result<impl poem::Endpoint + 'static> {
        // One API endpoint, served at /api and asked in-process by the storefront for the data pages embed.
        let api = ApiEndpoint::new(marque_api::routes(self.services.clone()));
        let first = !self.warm_up_started.swap(true, std::sync::atomic::Ordering::AcqRel);
        // The in-process catalog index (ADR 0019) is built once at start, whether answers are cached or
        // not; the warm-up (and so readiness) waits for it, within the warm-up's limit.
        let index = first.then(|| {
            let database = self.database.clone();
            let limit = self.settings.catalog.warm_up_limit;
            tokio::spawn(async move { database.build_catalog_index(limit).await })
        });
        if self.settings.catalog.cache_mb > 0 && first {
            let warming = crate::warm_up::Warming {
                index,
                api: Arc::downgrade(&api.endpoint()),
                catalog: Arc::downgrade(&self.catalog_store),
                pages: self.services.response_cache.as_ref().map(Arc::downgrade),
                warm_up: self.services.warm_up.clone(),
                delay: self.settings.catalog.warm_up_delay,
                poll: self.settings.catalog.poll,
            };
            crate::warm_up::spawn(warming);
        }
        let storefront = Storefront::load(&self.storefront_options(), self.storefront_services(), api.clone())
            .map_err(anyhow::Error::msg)?;
        let mut route = Route::new();
        if let Some(sandbox) = &self.sandbox {
            route = route.nest(SANDBOX_PATH, sandbox.routes());
        }
        let headers = SecurityHeaders::new(&self.policy_sources()?, self.settings.env == Environment::Prod)
            .map_err(anyhow::Error::msg)?;
        let proxies = Arc::new(self.settings.limits.trusted_proxies.clone());
        if self.settings.metrics == crate::metrics::MetricsAt::Public {
            route = route.at("/metrics", poem::get(crate::metrics::scrape));
        }
        let body_deadline = crate::listener::BodyDeadline(self.settings.limits.body_timeout);
        let shop = route
            .nest(API_MOUNT, api.endpoint())
            .at("/media/avatars/:file", marque_storefront::avatar.data(self.services.accounts.clone()))
            .at("/media/products/:product/:file", marque_storefront::product_photo.data(self.services.photos.clone()))
            .nest("/", storefront.routes())
            .boxed();
        // What is ready (a kept catalog answer, a held content-hashed file) is given before any
        // route is matched: the same answer the routes give, without their work on every request.
        let held_files = storefront.held_files();
        let pages = self.services.response_cache.clone();
        let shop = shop
            .around(move |next, req| {
                let held_files = held_files.clone();
                let pages = pages.clone();
                async move {
                    // Files are never under the API's mount, kept answers only there.
                    let api = req.uri().path().strip_prefix(API_MOUNT).is_some_and(|rest| rest.starts_with('/'));
                    if api {
                        if let Some(pages) = pages {
                            return response_cache::serve_ahead(next, req, &pages, API_MOUNT).await;
                        }
                    } else if let Some(resp) = held_files.respond_ahead(&req) {
                        return Ok(resp);
                    }
                    next.call(req).await.map(poem::IntoResponse::into_response)
                }
            })
            .boxed()
            .around(marque_api::body_limits::limit_bodies)
            .boxed()
            .with(body_deadline)
            .boxed()
            .with(TextCompression)
            .boxed();
        // With `MARQUE_METRICS=off` nothing is recorded, so requests are not even named.
        let operations = (self.settings.metrics != crate::metrics::MetricsAt::Off)
            .then(|| Arc::new(crate::metrics::Operations::new(&marque_api::spec_json(&self.services))));
        Ok(shop
            .around(move |next, req| crate::request_log::log_requests(next, req, operations.clone()))
            .with(headers)
            .with(marque_api::clients::RememberClient(proxies)))
    }

    /// The storefront's options, from the settings (checked when they were parsed).
    #[must_use]
    pub fn storefront_options(&self) -> StorefrontOptions {
        StorefrontOptions {
            web_dir: self.settings.storefront.web_dir.clone(),
            remote_overrides: self.settings.storefront.remotes.clone(),
            shop_description: self.settings.storefront.description.clone(),
            public_url: self.settings.public_url.as_ref().map(|u| u.as_str().to_owned()),
            sitemap_urls: self.settings.storefront.sitemap_urls,
        }
    }

    /// The storefront's part of the use cases.
    #[must_use]
    pub fn storefront_services(&self) -> StorefrontServices {
        StorefrontServices {
            catalog: self.services.catalog.clone(),
            identity: self.services.identity.clone(),
            client_validation: self.services.client_validation.clone(),
        }
    }

    /// The origins the pages' Content-Security-Policy allows besides their own: the checkout
    /// script's and the payment API's, remotes served from elsewhere, and the operator's extras.
    ///
    /// # Errors
    /// None today (the origins were parsed with the settings); kept for the callers.
    pub fn policy_sources(&self) -> anyhow::Result<PolicySources> {
        let payment_api = match &self.settings.payments {
            Payments::Razorpay(razorpay) => {
                hardening::origin_of(razorpay.api_url.as_deref().unwrap_or(marque_razorpay::RAZORPAY_BASE_URL))
            }
            Payments::Sandbox => None,
        };
        let extra = self.settings.storefront.csp_extra_origins.clone();
        Ok(PolicySources {
            payment_script: self.services.identity.payment.as_ref().and_then(|p| hardening::origin_of(&p.script)),
            payment_api,
            remotes: self.settings.storefront.remotes.values().filter_map(|u| hardening::origin_of(u)).collect(),
            extra,
        })
    }
}

/// Where the `dev` payment sandbox is served.
pub const SANDBOX_PATH: &str = "/sandbox/razorpay";

/// Where the API is served.
const API_MOUNT: &str = "/api";

/// Razorpay when configured, else (in `dev`) the in-process sandbox with the routes it serves.
///
/// # Errors
/// Razorpay's settings rejected.
pub fn payment_gateway(config: &Settings) -> anyhow::Result<(Arc<dyn PaymentGateway>, Option<Sandbox>)> {
    match &config.payments {
        Payments::Razorpay(razorpay) => {
            let mut settings = RazorpayConfig::new(
                razorpay.key_id.clone(),
                razorpay.key_secret.clone(),
                razorpay.webhook_secret.clone(),
            );
            if let Some(url) = &razorpay.api_url {
                settings.base_url.clone_from(url);
            }
            if let Some(url) = &razorpay.script_url {
                settings.checkout_script_url.clone_from(url);
            }
            let gateway = RazorpayGateway::new(settings).context("MARQUE_RAZORPAY_*: the payment settings")?;
            Ok((Arc::new(gateway), None))
        }
        Payments::Sandbox => {
            // Webhooks need an address the sandbox can reach: the public URL, or a fixed port.
            let base = config
                .public_url
                .as_ref()
                .map(|u| u.as_str().to_owned())
                .or_else(|| Some(format!("http://{}", config.addr)).filter(|_| !config.addr.ends_with(":0")));
            let webhook = base.map(|b| format!("{b}/api/razorpay/webhook"));
            let sandbox = Sandbox::new(SandboxConfig::dev(SANDBOX_PATH, webhook));
            Ok((Arc::new(sandbox.gateway()), Some(sandbox)))
        }
    }
}

/// How order notices are signed and which go by SMS too: every one with the outbox, through the
/// gateway those whose DLT template is configured. A notice without its template goes by email
/// only, in `prod` too (the shop may not have every template approved yet): the start-up log names
/// each such notice once.
fn notice_settings(settings: &Settings) -> marque_app::NoticeSettings {
    let sms: std::collections::BTreeSet<_> = marque_domain::order::NoticeKind::ALL
        .into_iter()
        .filter(|kind| settings.notifications.notice_sms(*kind))
        .collect();
    for kind in marque_domain::order::NoticeKind::ALL.into_iter().filter(|k| !sms.contains(k)) {
        tracing::warn!(notice = kind.template(), "no SMS template for this order notice: it goes by email only");
    }
    marque_app::NoticeSettings { shop_name: settings.identity.name.clone(), sms }
}

/// This instance's name in the import jobs' claims: its process id and a random part, so two
/// instances on one machine (or a restart reusing a pid) never take one another's claim for theirs.
fn worker_name() -> String {
    let mut bytes = [0u8; 4];
    // Without randomness the pid alone still names this process while it runs.
    let _ = getrandom::fill(&mut bytes);
    format!("server-{}-{}", std::process::id(), hex::encode(bytes))
}

/// The picture store: files under the data directory, or the shared S3 bucket.
///
/// # Errors
/// The S3 settings rejected.
pub fn blob_store(config: &Settings) -> anyhow::Result<Arc<dyn BlobStore>> {
    match &config.blobs {
        Blobs::Local(root) => Ok(Arc::new(LocalDiskBlobStore::new(root.clone()))),
        Blobs::S3(settings) => {
            let store = S3BlobStore::new(settings).context("MARQUE_S3_*: the picture bucket")?;
            tracing::info!(
                bucket = store.bucket(),
                endpoint = settings.endpoint.as_deref().unwrap_or("AWS S3"),
                "pictures in S3"
            );
            Ok(Arc::new(store))
        }
    }
}

/// The sign-in provider: Google (OpenID Connect) when its client id and secret are configured,
/// else the local stand-in in `dev`, else none. The flag tells whether it is the stand-in.
///
/// # Errors
/// When the issuer is not a URL.
pub fn sign_in_provider(config: &Settings) -> anyhow::Result<Option<(Arc<dyn IdentityProvider>, bool)>> {
    match &config.sign_in {
        SignInChoice::Google { client_id, client_secret, issuer } => {
            let mut oidc = OidcConfig::google(client_id, client_secret.clone());
            if let Some(issuer) = issuer {
                issuer.clone_into(&mut oidc.issuer_url);
            }
            let provider = OidcIdentityProvider::new(oidc).context("MARQUE_GOOGLE_*: the sign-in settings")?;
            Ok(Some((Arc::new(provider), false)))
        }
        SignInChoice::DevStandIn => Ok(Some((Arc::new(DevIdentityProvider::new()), true))),
        SignInChoice::Off => Ok(None),
    }
}
/// The store the storefront reads through: `store` behind a [`CachedCatalogStore`] whose
/// `changes` are polled every `catalog_poll_ms` by a task that ends with the last handle
/// of the cache; `store` itself when the cache is off (`cache_mb` 0). With it, the
/// cache of finished responses (`ready_product_answers_mb`), warmed by a task of its own.
async fn cached_reads(
    store: Arc<dyn CatalogStore>,
    changes: Arc<dyn CatalogChanges>,
    settings: &Settings,
) -> (Arc<dyn CatalogStore>, Option<Arc<ResponseCache>>) {
    let config = &settings.catalog;
    if config.cache_mb == 0 {
        return (store, None);
    }
    let poll = config.poll;
    // Answers stay usable for a few polls, so one slow poll does not empty the cache;
    // never longer than the second within which a write must show.
    let staleness = (poll * 4).min(std::time::Duration::from_millis(900));
    let cache = Arc::new(
        CachedCatalogStore::new(store, changes, config.cache_mb.saturating_mul(1 << 20)).with_max_staleness(staleness),
    );
    if let Err(e) = cache.refresh().await {
        tracing::warn!(error = %e, "catalog cache: the catalog version cannot be read yet");
    }
    marque_catalog_cache::spawn_poller(&cache, poll);
    let pages = (config.ready_product_answers_mb > 0).then(|| {
        let listings = config.cache_mb.saturating_mul(1 << 20) / 2;
        ResponseCache::new(cache.clone(), config.ready_product_answers_mb.saturating_mul(1 << 20), listings)
    });
    if let Some(pages) = &pages {
        response_cache::spawn_warmer(pages, poll);
    }
    (cache, pages)
}

/// What `GET /api/dev/outbox` answers (`MARQUE_ENV=dev` only): every message the shop sent,
/// newest first, with the names of its attachments.
fn outbox_json(outbox: &Outbox) -> serde_json::Value {
    let messages: Vec<serde_json::Value> = outbox
        .messages()
        .into_iter()
        .map(|m| {
            serde_json::json!({
                "channel": match m.channel { marque_ports::Channel::Sms => "sms", marque_ports::Channel::Email => "email" },
                "recipient": m.recipient,
                "subject": m.subject,
                "text": m.text,
                "attachments": m.attachments,
                "time": m.time,
            })
        })
        .collect();
    serde_json::Value::Array(messages)
}
