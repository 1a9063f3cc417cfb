//! The storefront: the shell's HTML with each page's head, the built frontends,
//! the composition manifest and the generated media; the compression of what it serves
//! ([`encoding`]) and the security headers of every response ([`hardening`]).
//!
//! It reads the catalog (page heads, the sitemap) and asks the API in-process for the answers a
//! page embeds; it depends on the use cases and `marque-api`, never on an adapter.

mod assets;
pub use assets::HeldFiles;
pub mod encoding;
mod first_load;
pub mod hardening;
mod head;
mod media;
mod pages;
mod routes;
mod signed_in;
mod sitemap;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::{Json, StaticFileRequest};
use poem::{handler, Endpoint, EndpointExt, IntoResponse, Request, Response, Route};

pub use first_load::ApiEndpoint;
pub use head::{PageHead, HEAD_MARKER};

use marque_api::{ClientValidation, ShopIdentity};
use marque_app::{AccountService, CatalogService};

/// What the storefront is configured with (built by the composition root from its settings).
#[derive(Debug, Clone)]
pub struct StorefrontOptions {
    /// The directory holding `shell/dist` and each remote's `dist` (`MARQUE_WEB_DIR`).
    pub web_dir: PathBuf,
    /// Remotes served from elsewhere: name → URL of their `mf-manifest.json` (`MARQUE_REMOTES`).
    pub remote_overrides: BTreeMap<String, String>,
    /// The shop's description in every page's head (`MARQUE_SHOP_DESCRIPTION`).
    pub shop_description: String,
    /// The public origin (`MARQUE_PUBLIC_URL`); else each request's own.
    pub public_url: Option<String>,
    /// Most addresses in one sitemap file (`MARQUE_SITEMAP_URLS`).
    pub sitemap_urls: usize,
}

/// The use cases and settings the storefront's pages read.
#[derive(Debug, Clone)]
pub struct StorefrontServices {
    pub catalog: CatalogService,
    /// Who runs the shop, embedded in every page.
    pub identity: Arc<ShopIdentity>,
    /// The `x-client-validation` value, given to the page and to the in-process API calls.
    pub client_validation: Option<Arc<ClientValidation>>,
}

/// Everything the storefront routes need, loaded once at start-up.
#[derive(Debug)]
struct State {
    shop: StorefrontServices,
    template: String,
    shell_dir: PathBuf,
    composition: BTreeMap<String, String>,
    routes: routes::RouteTable,
    shop_description: String,
    /// The shop's identity as JSON, embedded in every page.
    identity_json: String,
    public_url: Option<String>,
    sitemap_urls: usize,
    /// `composition` as JSON, embedded in every page.
    composition_json: String,
    /// The files of the remotes served here, for each page's preload hints.
    remote_files: BTreeMap<String, first_load::RemoteFiles>,
    /// The API, asked in-process for the answers a page embeds.
    api: ApiEndpoint,
    /// Content-hashed files of the shell and the remotes, held in memory once served.
    hashed: Arc<assets::HeldFiles>,
}

/// The storefront's routes over one loaded configuration.
#[derive(Debug, Clone)]
pub struct Storefront {
    state: Arc<State>,
    remote_dirs: BTreeMap<String, PathBuf>,
}

impl Storefront {
    /// Reads the shell's HTML and finds the built remotes under the web dir.
    ///
    /// `api` is the public API (paths under `/api`), asked in-process for the data a page embeds.
    ///
    /// # Errors
    /// When the embedded route table cannot be read or the composition cannot be written as JSON.
    pub fn load(config: &StorefrontOptions, shop: StorefrontServices, api: ApiEndpoint) -> Result<Self, String> {
        let shell_dir = config.web_dir.join("shell").join("dist");
        let template = std::fs::read_to_string(shell_dir.join("index.html")).unwrap_or_else(|_| {
            tracing::warn!(dir = %shell_dir.display(), "the shell is not built; serving a placeholder page");
            head::PLACEHOLDER_TEMPLATE.to_owned()
        });
        let remote_dirs = assets::discover_remotes(&config.web_dir);
        let overrides = config.remote_overrides.clone();
        let remote_files = first_load::local_remote_files(&remote_dirs, &|name| overrides.contains_key(name));
        // A remote served here is composed by its entry script, which the page preloads: the runtime then needs
        // no manifest fetch before it (a request less on the critical path).
        let mut composition: BTreeMap<String, String> = remote_dirs
            .keys()
            .map(|name| {
                let entry = remote_files.get(name).map(first_load::RemoteFiles::entry);
                (name.clone(), entry.map_or_else(|| format!("/remotes/{name}/remoteEntry.js"), str::to_owned))
            })
            .collect();
        composition.extend(overrides);
        let state = State {
            composition_json: serde_json::to_string(&composition).map_err(|e| e.to_string())?,
            remote_files,
            api,
            identity_json: serde_json::to_string(shop.identity.as_ref()).map_err(|e| e.to_string())?,
            shop,
            template,
            shell_dir,
            composition,
            routes: routes::RouteTable::embedded()?,
            shop_description: config.shop_description.clone(),
            public_url: config.public_url.as_ref().map(|u| u.trim_end_matches('/').to_owned()),
            sitemap_urls: config.sitemap_urls,
            hashed: Arc::new(assets::HeldFiles::default()),
        };
        Ok(Self { state: Arc::new(state), remote_dirs })
    }

    /// The content-hashed files held in memory, to give ahead of the routes
    /// ([`HeldFiles::respond_ahead`]).
    #[must_use]
    pub fn held_files(&self) -> Arc<HeldFiles> {
        self.state.hashed.clone()
    }

    pub fn routes(&self) -> impl Endpoint {
        let mut route = Route::new()
            .at("/composition.json", composition_manifest.data(self.state.clone()))
            .at("/robots.txt", robots.data(self.state.clone()))
            .at("/sitemap.xml", sitemap_index.data(self.state.clone()))
            .at("/media/*path", media::media);
        for (name, dir) in &self.remote_dirs {
            route = route.nest(format!("/remotes/{name}"), assets::files(dir.clone(), self.state.hashed.clone()));
        }
        route.at("/*path", storefront.data(self.state.clone())).at("/", storefront.data(self.state.clone()))
    }
}

/// Remote name → URL of its `mf-manifest.json`, read by the shell at start.
#[handler]
fn composition_manifest(state: poem::web::Data<&Arc<State>>) -> Response {
    Json(&state.composition).with_header("cache-control", "no-cache").into_response()
}

/// A shell asset when the path names one, otherwise the page for a storefront route.
#[handler]
async fn storefront(req: &Request, state: poem::web::Data<&Arc<State>>, files: StaticFileRequest) -> Response {
    let path = req.uri().path();
    if let Some(number) = sitemap::part_number(path) {
        return sitemap_part(req, &state, number).await;
    }
    if let Some(file) = assets::file_path(&state.shell_dir, path) {
        if assets::is_held_file(&file) {
            if let Some(resp) = state.hashed.respond(req, &file).await {
                return resp;
            }
        }
        if file.is_file() {
            return assets::respond(files, &file);
        }
    }
    let query = pages::Query::parse(req.uri().query());
    let mut page = pages::resolve(&state.shop.catalog, &state.routes, path, &query).await;
    if page.status == StatusCode::OK {
        if let Some(matched) = state.routes.find(path) {
            page.head.preloads = first_load::preloads(&state.remote_files, matched.page);
            let calls = first_load::initial_calls(&matched, &|key| query.get(key).map(str::to_owned));
            let answers = first_load::answers(&state.api, calls).await;
            page.head.preloads.extend(first_load::first_pictures(matched.page, &answers));
            page.head.initial_data = first_load::embedded(&answers);
            if let Some(token) = signed_in::cookie_token(req) {
                let validation = state.shop.client_validation.as_ref().map(|v| v.0.as_str());
                let query = |key: &str| query.get(key).map(str::to_owned);
                if let Some(customer) = signed_in::embedded(&state.api, &token, validation, matched.page, &query).await
                {
                    page.head.preloads.extend(customer.preloads);
                    page.head.session_data = Some(customer.data);
                }
            }
        }
    }
    // A page holding a customer's answers is theirs alone: never stored, by the browser or any cache between.
    let cache_control = if page.head.session_data.is_some() { "private, no-store" } else { "no-cache" };
    let origin = origin(req, &state);
    let html = head::render(
        &state.template,
        &page.head,
        &head::Site {
            name: &state.shop.identity.name,
            description: &state.shop_description,
            origin: &origin,
            identity_json: &state.identity_json,
            client_validation: state.shop.client_validation.as_ref().map_or("", |v| v.0.as_str()),
            composition_json: &state.composition_json,
        },
    );
    // Every storefront page sends only its origin to other sites; the sign-in landing, whose address
    // carries a one-time sign-in code until its script removes it, sends nothing at all.
    let referrer = if path.starts_with("/login/success") { "no-referrer" } else { "strict-origin-when-cross-origin" };
    let mut resp = Response::builder()
        .status(page.status)
        .content_type("text/html; charset=utf-8")
        .header("cache-control", cache_control)
        .header("referrer-policy", referrer)
        .body(html);
    // A customer's data beside text from the request is never compressed together (BREACH).
    if page.head.session_data.is_some() {
        resp.extensions_mut().insert(encoding::NeverCompress);
    }
    resp
}

/// `robots.txt`: crawl everything, start from the sitemap.
#[handler]
fn robots(req: &Request, state: poem::web::Data<&Arc<State>>) -> Response {
    Response::builder().content_type("text/plain; charset=utf-8").body(sitemap::robots(&origin(req, &state)))
}

/// `/sitemap.xml`: every address, or an index of the parts when they are too many for one file.
#[handler]
async fn sitemap_index(req: &Request, state: poem::web::Data<&Arc<State>>) -> Response {
    let urls = match sitemap::urls(&state.shop.catalog).await {
        Ok(urls) => urls,
        Err(e) => return sitemap_unavailable(&e),
    };
    let (sitemap::SitemapFile::UrlSet(xml) | sitemap::SitemapFile::Index(xml)) =
        sitemap::sitemap(&urls, &origin(req, &state), state.sitemap_urls);
    xml_response(xml)
}

/// `/sitemap-{number}.xml`: one part of a sitemap too big for one file.
async fn sitemap_part(req: &Request, state: &State, number: usize) -> Response {
    let urls = match sitemap::urls(&state.shop.catalog).await {
        Ok(urls) => urls,
        Err(e) => return sitemap_unavailable(&e),
    };
    match sitemap::part(&urls, &origin(req, state), state.sitemap_urls, number) {
        Some(xml) => xml_response(xml),
        None => Response::builder()
            .status(StatusCode::NOT_FOUND)
            .content_type("text/plain; charset=utf-8")
            .body("Not found"),
    }
}

fn xml_response(xml: String) -> Response {
    Response::builder().content_type("application/xml").header("cache-control", "max-age=3600").body(xml)
}

fn sitemap_unavailable(e: &marque_app::CatalogError) -> Response {
    tracing::error!(error = %e, "sitemap without catalog");
    Response::builder()
        .status(StatusCode::SERVICE_UNAVAILABLE)
        .content_type("text/plain; charset=utf-8")
        .body("The catalog is unavailable right now. Please try again.")
}

/// The configured public origin, or the request's own.
fn origin(req: &Request, state: &State) -> String {
    state.public_url.clone().unwrap_or_else(|| request_origin(req))
}

fn request_origin(req: &Request) -> String {
    let host = req
        .headers()
        .get("host")
        .and_then(|h| h.to_str().ok())
        .filter(|h| h.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']')))
        .unwrap_or("localhost");
    format!("http://{host}")
}

/// A customer's profile picture (`/media/avatars/{userId}-{random}.png`): new names for new
/// pictures, so each caches for a year.
#[handler]
pub async fn avatar(
    poem::web::Path(file): poem::web::Path<String>,
    accounts: poem::web::Data<&AccountService>,
) -> Response {
    match accounts.avatar(&file).await {
        Ok(Some(png)) => Response::builder()
            .content_type("image/png")
            .header("cache-control", "public, max-age=31536000, immutable")
            .header("x-content-type-options", "nosniff")
            .body(png),
        Ok(None) => Response::builder().status(StatusCode::NOT_FOUND).content_type("text/plain").body("no such image"),
        Err(e) => {
            tracing::error!(error = %e, "reading a picture failed");
            Response::builder().status(StatusCode::SERVICE_UNAVAILABLE).content_type("text/plain").body("try again")
        }
    }
}

/// A product's photograph (`/media/products/{productId}/{photoId}-{width}.{webp|jpeg}`): new names
/// for new photographs, so each caches for a year.
#[handler]
pub async fn product_photo(
    poem::web::Path((product, file)): poem::web::Path<(String, String)>,
    photos: poem::web::Data<&marque_app::admin::photos::PhotosService>,
) -> Response {
    match photos.file(&product, &file).await {
        Ok(Some((bytes, format))) => Response::builder()
            .content_type(format.media_type())
            .header("cache-control", "public, max-age=31536000, immutable")
            .header("x-content-type-options", "nosniff")
            .body(bytes),
        Ok(None) => Response::builder().status(StatusCode::NOT_FOUND).content_type("text/plain").body("no such image"),
        Err(e) => {
            tracing::error!(error = %e, "reading a photograph failed");
            Response::builder().status(StatusCode::SERVICE_UNAVAILABLE).content_type("text/plain").body("try again")
        }
    }
}
