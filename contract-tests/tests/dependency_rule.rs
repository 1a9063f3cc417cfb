//! The dependency rule of ARCHITECTURE.md §1, checked against the workspace's manifests.
//!
//! - `marque-domain` depends on serde and thiserror only (tests: proptest, serde_json);
//! - `marque-ports` on no workspace crate but `marque-domain`, and on no web, database,
//!   mail, HTTP-client or async-runtime crate;
//! - `marque-app` on no workspace crate but `marque-domain` and `marque-ports` (its tests
//!   may use `marque-contract-tests`), and on no web, database, mail or HTTP-client crate;
//! - the HTTP API (`marque-api`, apps/api) on no workspace crate but `marque-domain`,
//!   `marque-ports` and `marque-app`; the storefront (`marque-storefront`, apps/storefront) on
//!   those and `marque-api` (its tests may use `marque-contract-tests`): never on an adapter nor
//!   on `apps/server`, and shipping no database driver, mailer or HTTP client (poem is theirs);
//! - nothing depends on the binary (`marque-server`, apps/server) but its own tests;
//! - an adapter (`adapters/*`, the catalog cache's decorator included) on no workspace crate but
//!   `marque-domain` and `marque-ports` (its tests may use `marque-contract-tests`): never on
//!   `marque-app`, another adapter or an app, nor on poem;
//! - only `apps/server` depends on adapters (it is the one composition root), and only `apps/*`
//!   on poem, with one exception: a sandbox
//!   (`adapters/*-sandbox`, a local stand-in for an outside provider, dev and tests only) serves
//!   the provider's HTTP protocol with poem and reuses the wire format of the adapter it stands
//!   in for (`marque-razorpay-sandbox` → `marque-razorpay`), and nothing else of the adapters;
//! - a tool (`tools/*`, e.g. the code generator) on no workspace crate but `marque-domain`,
//!   and ships no web, database, mail, HTTP-client or async-runtime crate;
//! - an outside server built for the tests (`tools/*-server`, the SurrealDB server: a member only so
//!   it shares the tests' build of SurrealDB) on no workspace crate, and no crate depends on it.
//!
//! "Depends" counts every kind of dependency for workspace crates. For outside crates it
//! counts what ships (normal and build dependencies); test-only dependencies are free,
//! except in `marque-domain`, whose list is closed.

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Normal,
    Dev,
    Build,
}

impl Kind {
    fn ships(self) -> bool {
        self != Kind::Dev
    }

    fn label(self) -> &'static str {
        match self {
            Kind::Normal => "dependency",
            Kind::Dev => "dev-dependency",
            Kind::Build => "build-dependency",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layer {
    Domain,
    Ports,
    /// `marque-app`
    UseCases,
    /// `adapters/*`
    Adapter,
    /// `adapters/*-sandbox`: a provider's stand-in that serves its HTTP protocol (dev and tests)
    Sandbox,
    /// `marque-api` (apps/api): the poem-openapi Apis
    HttpApi,
    /// `marque-storefront` (apps/storefront): the storefront's hosting
    Storefront,
    /// `apps/server` (and any other binary under `apps/`): the composition root
    App,
    /// `tools/*`: build-time tools that read the domain (code generation)
    Tool,
    /// `tools/*-server`: an outside server the tests start (the SurrealDB server), built in the workspace
    TestServer,
    Other,
}

struct Package {
    name: String,
    layer: Layer,
    dependencies: Vec<(String, Kind)>,
}

/// Web framework, database driver, mailer and HTTP client: what adapters and apps are for.
fn is_driver(name: &str) -> bool {
    is_family(name, "poem") || is_outside_client(name)
}

/// Database driver, mailer and HTTP client: what only adapters are for.
fn is_outside_client(name: &str) -> bool {
    ["surrealdb", "lettre", "reqwest"].iter().any(|family| is_family(name, family))
}

fn is_runtime(name: &str) -> bool {
    ["tokio", "async-std", "smol"].iter().any(|family| is_family(name, family))
}

/// `name` is `family` or one of its crates (`poem-openapi`, `surrealdb-core`, `tokio-util`).
fn is_family(name: &str, family: &str) -> bool {
    name == family || name.strip_prefix(family).is_some_and(|rest| rest.starts_with('-') || rest.starts_with('_'))
}

fn packages(metadata: &Value) -> Vec<Package> {
    let root = metadata["workspace_root"].as_str().unwrap_or_default().trim_end_matches('/').to_owned();
    let empty = Vec::new();
    let listed = metadata["packages"].as_array().unwrap_or(&empty);
    listed
        .iter()
        .map(|p| {
            let name = p["name"].as_str().unwrap_or_default().to_owned();
            let manifest = p["manifest_path"].as_str().unwrap_or_default();
            let layer = match name.as_str() {
                "marque-domain" => Layer::Domain,
                "marque-ports" => Layer::Ports,
                "marque-app" => Layer::UseCases,
                "marque-api" => Layer::HttpApi,
                "marque-storefront" => Layer::Storefront,
                _ if manifest.starts_with(&format!("{root}/adapters/")) && name.ends_with("-sandbox") => Layer::Sandbox,
                _ if manifest.starts_with(&format!("{root}/adapters/")) => Layer::Adapter,
                _ if manifest.starts_with(&format!("{root}/apps/")) => Layer::App,
                _ if manifest.starts_with(&format!("{root}/tools/")) && name.ends_with("-server") => Layer::TestServer,
                _ if manifest.starts_with(&format!("{root}/tools/")) => Layer::Tool,
                _ => Layer::Other,
            };
            let dependencies = p["dependencies"]
                .as_array()
                .unwrap_or(&empty)
                .iter()
                .map(|d| {
                    let kind = match d["kind"].as_str() {
                        Some("dev") => Kind::Dev,
                        Some("build") => Kind::Build,
                        _ => Kind::Normal,
                    };
                    (d["name"].as_str().unwrap_or_default().to_owned(), kind)
                })
                .collect();
            Package { name, layer, dependencies }
        })
        .collect()
}

/// Every breach of the rule in `cargo metadata --format-version 1 --no-deps` output.
fn violations(metadata: &Value) -> Vec<String> {
    let packages = packages(metadata);
    let layer_of: BTreeMap<&str, Layer> = packages.iter().map(|p| (p.name.as_str(), p.layer)).collect();
    let mut found = Vec::new();
    for p in &packages {
        for (dep, kind) in &p.dependencies {
            let dep_layer = layer_of.get(dep.as_str()).copied();
            let breach = |why: &str| format!("{} has a {} on {dep}: {why}", p.name, kind.label());
            match p.layer {
                Layer::Domain => {
                    let allowed: &[&str] =
                        if kind.ships() { &["serde", "thiserror"] } else { &["proptest", "serde_json"] };
                    if !allowed.contains(&dep.as_str()) {
                        found
                            .push(breach("the domain is pure: serde and thiserror only (tests: proptest, serde_json)"));
                    }
                }
                Layer::Ports => {
                    if dep_layer.is_some() && dep != "marque-domain" {
                        found.push(breach("ports speak only in marque-domain's types"));
                    } else if kind.ships() && (is_driver(dep) || is_runtime(dep)) {
                        found.push(breach("ports name no framework, driver or runtime"));
                    }
                }
                Layer::UseCases => {
                    let allowed: &[&str] = if kind.ships() {
                        &["marque-domain", "marque-ports"]
                    } else {
                        &["marque-domain", "marque-ports", "marque-contract-tests"]
                    };
                    if dep_layer.is_some() && !allowed.contains(&dep.as_str()) {
                        found.push(breach("use cases see the domain and the ports, never an adapter or app"));
                    } else if kind.ships() && is_driver(dep) {
                        found.push(breach("use cases reach the outside world only through ports"));
                    }
                }
                Layer::Tool => {
                    if dep_layer.is_some() && dep != "marque-domain" {
                        found.push(breach("a tool reads the domain and nothing else of the workspace"));
                    } else if kind.ships() && (is_driver(dep) || is_runtime(dep)) {
                        found.push(breach("a tool names no framework, driver or runtime"));
                    }
                }
                Layer::TestServer => {
                    if dep_layer.is_some() {
                        found.push(breach("an outside server for the tests is built from outside crates only"));
                    }
                }
                Layer::Adapter | Layer::Sandbox => {
                    let allowed: &[&str] = if kind.ships() {
                        &["marque-domain", "marque-ports"]
                    } else {
                        &["marque-domain", "marque-ports", "marque-contract-tests"]
                    };
                    let stands_in_for =
                        p.layer == Layer::Sandbox && p.name.strip_suffix("-sandbox") == Some(dep.as_str());
                    let named_below = matches!(dep_layer, Some(Layer::UseCases | Layer::Adapter | Layer::Sandbox));
                    if dep_layer.is_some() && !allowed.contains(&dep.as_str()) && !stands_in_for && !named_below {
                        found.push(breach("adapters see the domain and the ports only"));
                    }
                }
                Layer::HttpApi | Layer::Storefront => {
                    let mut allowed = vec!["marque-domain", "marque-ports", "marque-app"];
                    if p.layer == Layer::Storefront {
                        allowed.push("marque-api");
                    }
                    if !kind.ships() {
                        allowed.push("marque-contract-tests");
                    }
                    if dep_layer.is_some() && !allowed.contains(&dep.as_str()) {
                        found.push(breach(
                            "the API and the storefront see the use cases, ports and domain (the storefront the API too), \
                             never an adapter or apps/server",
                        ));
                    } else if kind.ships() && is_outside_client(dep) {
                        found.push(breach("the API and the storefront reach the outside world only through ports"));
                    }
                }
                Layer::App | Layer::Other => {}
            }
            if dep_layer == Some(Layer::TestServer) {
                found.push(breach("the tests start the outside server as a process; no crate links it"));
            }
            if dep_layer == Some(Layer::App) && dep != &p.name {
                found.push(breach("nothing depends on the binary (apps/server); it depends on everything"));
            }
            let adapter_like = |layer: Option<Layer>| matches!(layer, Some(Layer::Adapter | Layer::Sandbox));
            if adapter_like(Some(p.layer))
                && matches!(dep_layer, Some(Layer::UseCases | Layer::HttpApi | Layer::Storefront))
            {
                found.push(breach("adapters implement ports; they never call use cases, the API or the storefront"));
            }
            let stands_in_for = p.layer == Layer::Sandbox && p.name.strip_suffix("-sandbox") == Some(dep.as_str());
            if p.layer != Layer::App && adapter_like(dep_layer) && !stands_in_for {
                found.push(breach(
                    "only apps/server wires adapters in (a sandbox may use the adapter it stands in for)",
                ));
            }
            if !matches!(p.layer, Layer::App | Layer::HttpApi | Layer::Storefront | Layer::Sandbox)
                && kind.ships()
                && is_family(dep, "poem")
            {
                found.push(breach("only apps/* (and sandboxes of outside providers) speak HTTP with poem"));
            }
        }
    }
    found
}

fn workspace_metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
    let output = Command::new(&cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--manifest-path"])
        .arg(&manifest)
        .output()
        .unwrap_or_else(|e| panic!("running {cargo} metadata: {e}"));
    assert!(output.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("cargo metadata printed no JSON: {e}"))
}

#[test]
fn the_workspace_keeps_the_dependency_rule() {
    let metadata = workspace_metadata();
    let names: Vec<String> = packages(&metadata).into_iter().map(|p| p.name).collect();
    for core in [
        "marque-domain",
        "marque-ports",
        "marque-app",
        "marque-catalog-cache",
        "marque-photos",
        "marque-api",
        "marque-storefront",
        "marque-server",
    ] {
        assert!(names.iter().any(|n| n == core), "{core} is missing from the workspace, so the rule checks nothing");
    }
    let found = violations(&metadata);
    assert!(found.is_empty(), "the dependency rule (ARCHITECTURE.md §1) is broken:\n  {}", found.join("\n  "));
}

// ---------------------------------------------------------------------------
// The checker itself, on made-up workspaces.
// ---------------------------------------------------------------------------

fn dep(name: &str, kind: Option<&str>) -> Value {
    serde_json::json!({ "name": name, "kind": kind })
}

fn package(name: &str, dir: &str, deps: Vec<Value>) -> Value {
    serde_json::json!({ "name": name, "manifest_path": format!("/ws/{dir}/Cargo.toml"), "dependencies": deps })
}

/// A workspace that keeps the rule, plus `extra` dependencies added to the named package.
fn workspace(extra: &[(&str, Value)]) -> Value {
    let mut packages = vec![
        package(
            "marque-domain",
            "core/domain",
            vec![dep("serde", None), dep("thiserror", None), dep("proptest", Some("dev"))],
        ),
        package(
            "marque-ports",
            "ports",
            vec![dep("marque-domain", None), dep("async-trait", None), dep("tokio", Some("dev"))],
        ),
        package(
            "marque-app",
            "core/app",
            vec![dep("marque-domain", None), dep("marque-ports", None), dep("marque-contract-tests", Some("dev"))],
        ),
        package(
            "marque-surreal",
            "adapters/surreal",
            vec![
                dep("marque-ports", None),
                dep("surrealdb", None),
                dep("tokio", None),
                dep("marque-contract-tests", Some("dev")),
            ],
        ),
        package(
            "marque-catalog-cache",
            "adapters/catalog-cache",
            vec![
                dep("marque-domain", None),
                dep("marque-ports", None),
                dep("tokio", None),
                dep("marque-ports", Some("dev")),
            ],
        ),
        package(
            "marque-razorpay",
            "adapters/razorpay",
            vec![dep("marque-ports", None), dep("reqwest", None), dep("poem", Some("dev"))],
        ),
        package(
            "marque-razorpay-sandbox",
            "adapters/razorpay-sandbox",
            vec![
                dep("marque-ports", None),
                dep("marque-razorpay", None),
                dep("poem", None),
                dep("marque-contract-tests", Some("dev")),
            ],
        ),
        package(
            "marque-contract-tests",
            "contract-tests",
            vec![dep("marque-ports", None), dep("serde_json", Some("dev"))],
        ),
        package("marque-codegen", "tools/codegen", vec![dep("marque-domain", None), dep("proptest", Some("dev"))]),
        package("marque-surreal-server", "tools/surreal-server", vec![dep("surrealdb-server", None)]),
        package(
            "marque-api",
            "apps/api",
            vec![
                dep("marque-app", None),
                dep("marque-ports", None),
                dep("marque-domain", None),
                dep("poem", None),
                dep("poem-openapi", None),
                dep("tokio", None),
            ],
        ),
        package(
            "marque-storefront",
            "apps/storefront",
            vec![
                dep("marque-app", None),
                dep("marque-api", None),
                dep("poem", None),
                dep("marque-contract-tests", Some("dev")),
            ],
        ),
        package(
            "marque-server",
            "apps/server",
            vec![
                dep("marque-app", None),
                dep("marque-api", None),
                dep("marque-storefront", None),
                dep("marque-server", Some("dev")),
                dep("marque-surreal", None),
                dep("marque-catalog-cache", None),
                dep("marque-razorpay", None),
                dep("marque-razorpay-sandbox", None),
                dep("poem", None),
                dep("poem-openapi", None),
            ],
        ),
    ];
    for (name, extra_dep) in extra {
        let target = packages.iter_mut().find(|p| p["name"] == *name).expect("a package of the made-up workspace");
        target["dependencies"].as_array_mut().expect("dependency list").push(extra_dep.clone());
    }
    serde_json::json!({ "workspace_root": "/ws", "packages": packages })
}

#[test]
fn a_workspace_that_keeps_the_rule_passes() {
    assert_eq!(violations(&workspace(&[])), Vec::<String>::new());
}

#[test]
fn every_kind_of_breach_is_caught() {
    let breaches: [(&str, Value, &str); 39] = [
        ("marque-domain", dep("chrono", None), "marque-domain has a dependency on chrono"),
        ("marque-domain", dep("tokio", Some("dev")), "marque-domain has a dev-dependency on tokio"),
        ("marque-domain", dep("marque-ports", None), "marque-domain has a dependency on marque-ports"),
        ("marque-ports", dep("marque-app", None), "marque-ports has a dependency on marque-app"),
        ("marque-ports", dep("tokio", None), "marque-ports has a dependency on tokio"),
        ("marque-ports", dep("surrealdb-core", None), "marque-ports has a dependency on surrealdb-core"),
        ("marque-app", dep("marque-surreal", None), "marque-app has a dependency on marque-surreal"),
        ("marque-app", dep("reqwest", None), "marque-app has a dependency on reqwest"),
        ("marque-app", dep("lettre", Some("build")), "marque-app has a build-dependency on lettre"),
        ("marque-surreal", dep("marque-app", None), "marque-surreal has a dependency on marque-app"),
        (
            "marque-surreal",
            dep("marque-razorpay", Some("dev")),
            "marque-surreal has a dev-dependency on marque-razorpay",
        ),
        ("marque-surreal", dep("poem", None), "marque-surreal has a dependency on poem"),
        (
            "marque-contract-tests",
            dep("marque-surreal", None),
            "marque-contract-tests has a dependency on marque-surreal",
        ),
        ("marque-contract-tests", dep("poem-openapi", None), "marque-contract-tests has a dependency on poem-openapi"),
        ("marque-codegen", dep("marque-ports", None), "marque-codegen has a dependency on marque-ports"),
        ("marque-codegen", dep("marque-surreal", Some("dev")), "marque-codegen has a dev-dependency on marque-surreal"),
        ("marque-codegen", dep("tokio", None), "marque-codegen has a dependency on tokio"),
        ("marque-surreal-server", dep("marque-ports", None), "marque-surreal-server has a dependency on marque-ports"),
        (
            "marque-surreal",
            dep("marque-surreal-server", Some("dev")),
            "marque-surreal has a dev-dependency on marque-surreal-server",
        ),
        (
            "marque-razorpay-sandbox",
            dep("marque-surreal", None),
            "marque-razorpay-sandbox has a dependency on marque-surreal",
        ),
        ("marque-razorpay-sandbox", dep("marque-app", None), "marque-razorpay-sandbox has a dependency on marque-app"),
        (
            "marque-razorpay",
            dep("marque-razorpay-sandbox", Some("dev")),
            "marque-razorpay has a dev-dependency on marque-razorpay-sandbox",
        ),
        ("marque-razorpay", dep("poem", None), "marque-razorpay has a dependency on poem"),
        ("marque-catalog-cache", dep("marque-app", None), "marque-catalog-cache has a dependency on marque-app"),
        (
            "marque-catalog-cache",
            dep("marque-surreal", None),
            "marque-catalog-cache has a dependency on marque-surreal",
        ),
        (
            "marque-catalog-cache",
            dep("marque-server", Some("dev")),
            "marque-catalog-cache has a dev-dependency on marque-server",
        ),
        (
            "marque-catalog-cache",
            dep("marque-contract-tests", None),
            "marque-catalog-cache has a dependency on marque-contract-tests",
        ),
        ("marque-catalog-cache", dep("poem", None), "marque-catalog-cache has a dependency on poem"),
        ("marque-api", dep("marque-surreal", None), "marque-api has a dependency on marque-surreal"),
        ("marque-api", dep("marque-catalog-cache", None), "marque-api has a dependency on marque-catalog-cache"),
        (
            "marque-api",
            dep("marque-razorpay-sandbox", Some("dev")),
            "marque-api has a dev-dependency on marque-razorpay-sandbox",
        ),
        ("marque-api", dep("marque-server", None), "marque-api has a dependency on marque-server"),
        ("marque-api", dep("marque-storefront", None), "marque-api has a dependency on marque-storefront"),
        ("marque-api", dep("reqwest", None), "marque-api has a dependency on reqwest"),
        ("marque-storefront", dep("marque-razorpay", None), "marque-storefront has a dependency on marque-razorpay"),
        (
            "marque-storefront",
            dep("marque-server", Some("dev")),
            "marque-storefront has a dev-dependency on marque-server",
        ),
        ("marque-storefront", dep("surrealdb", None), "marque-storefront has a dependency on surrealdb"),
        ("marque-surreal", dep("marque-api", None), "marque-surreal has a dependency on marque-api"),
        (
            "marque-contract-tests",
            dep("marque-server", Some("dev")),
            "marque-contract-tests has a dev-dependency on marque-server",
        ),
    ];
    for (package, extra, expected) in breaches {
        let found = violations(&workspace(&[(package, extra)]));
        assert!(found.iter().any(|v| v.starts_with(expected)), "expected `{expected}…`, found {found:?}");
    }
}

#[test]
fn crate_families_are_matched_whole() {
    assert!(
        is_family("poem-openapi", "poem") && is_family("tokio", "tokio") && is_family("surrealdb_core", "surrealdb")
    );
    assert!(!is_family("poems", "poem") && !is_family("tokionet", "tokio"));
}
