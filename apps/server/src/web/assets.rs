//! Built frontend files: where they are and how long browsers may keep them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use poem::endpoint::StaticFilesEndpoint;
use poem::web::StaticFileRequest;
use poem::{Endpoint, EndpointExt, IntoResponse, Response};

/// Every `<web dir>/<name>/dist` holding an `mf-manifest.json`, except the shell: the remotes.
pub fn discover_remotes(web_dir: &Path) -> BTreeMap<String, PathBuf> {
    let Ok(entries) = std::fs::read_dir(web_dir) else { return BTreeMap::new() };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let dist = e.path().join("dist");
            (name != "shell" && dist.join("mf-manifest.json").is_file()).then_some((name, dist))
        })
        .collect()
}

/// A remote's files, served with the caching its names allow.
pub fn files(dir: PathBuf) -> impl Endpoint {
    StaticFilesEndpoint::new(dir).around(|next, req| async move {
        let immutable = is_content_hashed(req.uri().path());
        let mut resp = next.call(req).await?.into_response();
        resp.headers_mut().insert("cache-control", cache_control(immutable));
        Ok(resp)
    })
}

/// The shell file a request path names, if it names one (a file with an extension inside the dist folder).
pub fn shell_file(shell_dir: &Path, path: &str) -> Option<PathBuf> {
    let relative = path.trim_start_matches('/');
    let last = relative.rsplit('/').next()?;
    if !last.contains('.') || relative.split('/').any(|seg| seg.is_empty() || seg == ".." || seg == ".") {
        return None;
    }
    let file = shell_dir.join(relative);
    file.is_file().then_some(file)
}

pub fn respond(files: StaticFileRequest, file: &Path) -> Response {
    let immutable = file.file_name().and_then(|n| n.to_str()).is_some_and(is_content_hashed);
    match files.create_response(file, true, false) {
        Ok(resp) => {
            let mut resp = resp.into_response();
            resp.headers_mut().insert("cache-control", cache_control(immutable));
            resp
        }
        Err(err) => poem::Error::from(err).into_response(),
    }
}

fn cache_control(immutable: bool) -> poem::http::HeaderValue {
    poem::http::HeaderValue::from_static(if immutable { "public, max-age=31536000, immutable" } else { "no-cache" })
}

/// Chunks carry a content hash (`123.3f9a1c0b.js`) and never change; entries
/// (`remoteEntry.js`, `mf-manifest.json`) keep their names and must be revalidated.
fn is_content_hashed(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split('.')
        .any(|part| part.len() >= 8 && part.chars().all(|c| c.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hashed_names_are_immutable() {
        assert!(is_content_hashed("/remotes/catalog/123.3f9a1c0b.js"));
        assert!(is_content_hashed("main.0123abcd4567ef89.css"));
        assert!(!is_content_hashed("/remotes/catalog/remoteEntry.js"));
        assert!(!is_content_hashed("mf-manifest.json"));
    }

    #[test]
    fn paths_cannot_leave_the_shell_folder() {
        let dir = std::env::temp_dir();
        assert_eq!(shell_file(&dir, "/../etc/passwd"), None);
        assert_eq!(shell_file(&dir, "/search"), None);
        assert_eq!(shell_file(&dir, "//etc/hosts"), None);
    }
}
