//! What the storefront's pages need: the built frontends, remotes served from elsewhere, the
//! public address, the default description, the sitemap's size and the extra allowed origins.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::flags::Flags;
use super::SettingsError;

/// The shop's public origin (`MARQUE_PUBLIC_URL`): trimmed, without a trailing `/`, never blank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUrl(String);

impl PublicUrl {
    /// `None` when unset or blank.
    #[must_use]
    pub fn parse(raw: Option<&String>) -> Option<Self> {
        raw.map(|u| u.trim().trim_end_matches('/')).filter(|u| !u.is_empty()).map(|u| Self(u.to_owned()))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The storefront's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StorefrontSettings {
    /// The built frontends (`shell/dist`, `<remote>/dist`).
    pub web_dir: PathBuf,
    /// Remotes served from elsewhere: name → entry script URL.
    pub remotes: BTreeMap<String, String>,
    /// The default page description.
    pub description: String,
    /// Most addresses in one sitemap file.
    pub sitemap_urls: usize,
    /// Origins (`https://host[:port]`) the pages' Content-Security-Policy also allows.
    pub csp_extra_origins: Vec<String>,
}

impl StorefrontSettings {
    /// # Errors
    /// Each `MARQUE_REMOTES` pair that is not `name=url` or names a manifest, and each
    /// `MARQUE_CSP_EXTRA_ORIGINS` entry that is not an origin.
    pub fn parse(flags: &Flags) -> Result<Self, Vec<SettingsError>> {
        let mut errors = Vec::new();
        let remotes = remotes(&flags.remotes).map_err(|e| errors.extend(e)).unwrap_or_default();
        let mut csp_extra_origins = Vec::new();
        for raw in flags.csp_extra_origins.split([',', ' ']).map(str::trim).filter(|o| !o.is_empty()) {
            match marque_storefront::hardening::origin_of(raw).filter(|o| o == raw.trim_end_matches('/')) {
                Some(origin) => csp_extra_origins.push(origin),
                None => errors.push(SettingsError::invalid(
                    "MARQUE_CSP_EXTRA_ORIGINS",
                    format!("MARQUE_CSP_EXTRA_ORIGINS: `{raw}` is not an origin like https://host[:port]"),
                )),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Self {
            web_dir: flags.web_dir.clone(),
            remotes,
            description: flags.shop_description.clone(),
            sitemap_urls: flags.sitemap_urls,
            csp_extra_origins,
        })
    }
}

/// `MARQUE_REMOTES`: `name=url` pairs separated by commas, each url a remote's entry script.
fn remotes(raw: &str) -> Result<BTreeMap<String, String>, Vec<SettingsError>> {
    let mut map = BTreeMap::new();
    let mut errors = Vec::new();
    for pair in raw.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match pair.split_once('=') {
            Some((name, url)) if !name.trim().is_empty() && !url.trim().is_empty() => {
                let url = url.trim();
                // The shell's federation runtime is built without the manifest protocol (it composes by entry
                // script, a request less and 1.5 KB less on every page).
                if url.split(['?', '#']).next().is_some_and(|path| path.ends_with(".json")) {
                    errors.push(SettingsError::invalid(
                        "MARQUE_REMOTES",
                        format!("MARQUE_REMOTES: `{pair}` names a manifest; name the remote's entry script (remoteEntry.js)"),
                    ));
                } else {
                    map.insert(name.trim().to_owned(), url.to_owned());
                }
            }
            _ => errors
                .push(SettingsError::invalid("MARQUE_REMOTES", format!("MARQUE_REMOTES: `{pair}` is not name=url"))),
        }
    }
    if errors.is_empty() {
        Ok(map)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_overrides_parse_and_refuse_malformed_pairs() {
        let map = remotes(" catalog=https://cdn.example/c/remoteEntry.js , ").expect("valid");
        assert_eq!(map.get("catalog").map(String::as_str), Some("https://cdn.example/c/remoteEntry.js"));
        assert!(remotes("catalog").is_err());
        let refused = remotes("catalog=https://cdn.example/c/mf-manifest.json?v=2").expect_err("a manifest");
        assert!(refused[0].to_string().contains("remoteEntry.js"), "{refused:?}");
    }

    #[test]
    fn the_public_url_loses_its_trailing_slash_and_blank_is_none() {
        assert_eq!(
            PublicUrl::parse(Some(&" https://parts.example/ ".to_owned())).map(|u| u.0),
            Some("https://parts.example".to_owned())
        );
        assert_eq!(PublicUrl::parse(Some(&"  ".to_owned())), None);
    }

    #[test]
    fn extra_origins_must_be_origins() {
        let mut flags = Flags::for_tests(PathBuf::from("web"));
        flags.csp_extra_origins = "https://cdn.example.in, https://img.example.in:8443/".into();
        let parsed = StorefrontSettings::parse(&flags).expect("origins");
        assert_eq!(parsed.csp_extra_origins, ["https://cdn.example.in", "https://img.example.in:8443"]);
        flags.csp_extra_origins = "https://cdn.example.in/path".into();
        assert_eq!(StorefrontSettings::parse(&flags).expect_err("a path")[0].variables(), ["MARQUE_CSP_EXTRA_ORIGINS"]);
    }
}
