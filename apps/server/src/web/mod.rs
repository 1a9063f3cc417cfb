//! The storefront: the shell's HTML with each page's head, the built frontends,
//! the composition manifest and the generated media.

mod assets;
mod head;
mod media;
mod pages;
mod routes;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use poem::web::{Json, StaticFileRequest};
use poem::{handler, Endpoint, EndpointExt, IntoResponse, Request, Response, Route};

pub use head::{PageHead, HEAD_MARKER};

use crate::app::Shop;
use crate::config::Config;

/// Everything the storefront routes need, loaded once at start-up.
#[derive(Debug)]
struct State {
    shop: Shop,
    template: String,
    shell_dir: PathBuf,
    composition: BTreeMap<String, String>,
    routes: routes::RouteTable,
    shop_description: String,
    /// The shop's identity as JSON, embedded in every page.
    identity_json: String,
    public_url: Option<String>,
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
    /// # Errors
    /// When the remote overrides in the configuration are malformed.
    pub fn load(config: &Config, shop: Shop) -> Result<Self, String> {
        let shell_dir = config.web_dir.join("shell").join("dist");
        let template = std::fs::read_to_string(shell_dir.join("index.html")).unwrap_or_else(|_| {
            tracing::warn!(dir = %shell_dir.display(), "the shell is not built; serving a placeholder page");
            head::PLACEHOLDER_TEMPLATE.to_owned()
        });
        let remote_dirs = assets::discover_remotes(&config.web_dir);
        let mut composition: BTreeMap<String, String> = remote_dirs
            .keys()
            .map(|name| (name.clone(), format!("/remotes/{name}/mf-manifest.json")))
            .collect();
        composition.extend(config.remote_overrides()?);
        let state = State {
            identity_json: serde_json::to_string(shop.identity.as_ref()).map_err(|e| e.to_string())?,
            shop,
            template,
            shell_dir,
            composition,
            routes: routes::RouteTable::embedded()?,
            shop_description: config.shop_description.clone(),
            public_url: config.public_url.as_ref().map(|u| u.trim_end_matches('/').to_owned()),
        };
        Ok(Self { state: Arc::new(state), remote_dirs })
    }

    pub fn routes(&self) -> impl Endpoint {
        let mut route = Route::new()
            .at("/composition.json", composition_manifest.data(self.state.clone()))
            .at("/media/*path", media::media);
        for (name, dir) in &self.remote_dirs {
            route = route.nest(format!("/remotes/{name}"), assets::files(dir.clone()));
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
    if let Some(file) = assets::shell_file(&state.shell_dir, path) {
        return assets::respond(files, &file);
    }
    let query = pages::Query::parse(req.uri().query());
    let page = pages::resolve(&state.shop, &state.routes, path, &query).await;
    let origin = state.public_url.clone().unwrap_or_else(|| request_origin(req));
    let html = head::render(&state.template, &page.head, &head::Site {
        name: &state.shop.identity.name,
        description: &state.shop_description,
        origin: &origin,
        identity_json: &state.identity_json,
    });
    Response::builder()
        .status(page.status)
        .content_type("text/html; charset=utf-8")
        .header("cache-control", "no-cache")
        .body(html)
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
