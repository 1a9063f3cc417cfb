//! The composition root: builds adapters from configuration, hands them to the
//! use cases and mounts everything on one HTTP route tree. Only wiring lives here.

use std::sync::Arc;

use anyhow::Context as _;
use marque_app::CatalogService;
use marque_ports::CatalogStore;
use marque_surreal::{ConnectOptions, Credentials, Database};
use poem::middleware::{Compression, Tracing};
use poem::{EndpointExt, Route};

use crate::config::Config;
use crate::identity::ShopIdentity;
use crate::{api, seed, web};

/// The use cases the HTTP layer calls.
#[derive(Debug, Clone)]
pub struct Shop {
    pub catalog: CatalogService,
    /// Who runs the shop, published to the frontends.
    pub identity: Arc<ShopIdentity>,
}

/// A configured shop: its use cases and the storefront it hosts.
#[derive(Clone)]
pub struct App {
    pub config: Config,
    pub shop: Shop,
    catalog_store: Arc<dyn CatalogStore>,
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
    /// When the identity is incomplete (`prod`) or invalid, or the database
    /// cannot be opened or its schema cannot be applied.
    pub async fn connect(config: Config) -> anyhow::Result<Self> {
        let identity = Arc::new(ShopIdentity::from_config(&config).map_err(anyhow::Error::msg)?);
        let url = config.database_url();
        let options = ConnectOptions {
            credentials: config
                .db_user
                .clone()
                .zip(config.db_pass.as_ref())
                .map(|(username, password)| Credentials { username, password: password.expose().to_owned() }),
            ..ConnectOptions::default()
        };
        let database = Database::connect_with(&url, &options)
            .await
            .with_context(|| format!("opening the database at {url}"))?;
        let catalog_store: Arc<dyn CatalogStore> = Arc::new(database.catalog());
        let shop = Shop { catalog: CatalogService::new(catalog_store.clone()), identity };
        Ok(Self { config, shop, catalog_store })
    }

    /// Writes the demo catalog when the catalog is empty. Returns how many products it wrote.
    ///
    /// # Errors
    /// When the store cannot be read or written.
    pub async fn seed_if_empty(&self) -> anyhow::Result<u32> {
        if !self.shop.catalog.is_empty().await? {
            return Ok(0);
        }
        seed::write_demo_catalog(self.catalog_store.as_ref(), self.config.seed_products).await?;
        Ok(self.config.seed_products)
    }

    /// The whole HTTP surface: API, storefront pages, static files, media.
    ///
    /// # Errors
    /// When the remote overrides in the configuration are malformed.
    pub fn routes(&self) -> anyhow::Result<impl poem::Endpoint + 'static> {
        let storefront = web::Storefront::load(&self.config, self.shop.clone())
            .map_err(anyhow::Error::msg)?;
        Ok(Route::new()
            .nest("/api", api::routes(self.shop.clone()))
            .nest("/", storefront.routes())
            .with(Compression::new())
            .with(Tracing))
    }
}
