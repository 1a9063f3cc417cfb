//! Built frontend files: where they are and how long browsers may keep them.
//!
//! Content-hashed files (`123.3f9a1c0b.js`) never change under their name, so each is read once,
//! when first asked for, and kept in memory with its brotli and gzip encodings and its headers
//! ([`HeldFiles`]): a request for one touches neither the disk nor a compressor. Entry files whose
//! names stay (`main.js`, `remoteEntry.js`: text the first load waits for) are held the same way
//! but checked against the disk (size and modification time) on every request, so a rebuild shows
//! at once and they still go out at the best compression. Other files are read from disk each time.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hasher as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};

use bytes::Bytes;
use poem::endpoint::StaticFilesEndpoint;
use poem::http::header::{self, HeaderValue};
use poem::http::{Method, StatusCode};
use poem::web::StaticFileRequest;
use poem::{Body, Endpoint, EndpointExt, IntoResponse, Request, Response};

use crate::encoding::{compressible_type, preferred, Encoding};

/// At most this much of hashed files (with their encodings) is held in memory; past it, files are
/// served from disk as before.
const MEMORY_BUDGET: usize = 32 << 20;
/// Larger files are served from disk.
const LARGEST_HELD: usize = 4 << 20;
/// Smaller files are not worth compressing (the headers outweigh the saving).
const SMALLEST_COMPRESSED: usize = 256;

/// What a held entry file was read from: its size and modification time on disk.
type Stamp = (u64, std::time::SystemTime);

/// The stamp of the file at `path` now; `None` when it is not a readable file.
fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?)).filter(|_| meta.is_file())
}

/// Entry files held in memory: text whose name stays from build to build.
fn is_held_entry(name: &str) -> bool {
    std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("js") || e.eq_ignore_ascii_case("css"))
}

/// One file in memory: its bytes as stored and compressed, and its constant headers.
#[derive(Debug)]
struct HeldFile {
    /// For an entry file, what it was read from; `None` for a content-hashed file (it never changes).
    stamp: Option<Stamp>,
    identity: Bytes,
    brotli: Option<Bytes>,
    gzip: Option<Bytes>,
    content_type: HeaderValue,
    etag: HeaderValue,
}

/// Files read and compressed at once: brotli at quality 11 takes tens of MB while it works, and the
/// first burst of requests for a file (32 at once in the bench) would otherwise compress it 32 times
/// side by side (~500 MB). The requests after the first find it held once they get a turn.
const LOADING_AT_ONCE: usize = 2;

/// The content-hashed and entry files served so far, by their path on disk; see the module documentation.
#[derive(Debug)]
pub struct HeldFiles {
    files: RwLock<HashMap<PathBuf, Arc<HeldFile>>>,
    /// The content-hashed files held, by the address they were asked at: given by
    /// [`HeldFiles::respond_ahead`] before any route is matched.
    by_address: RwLock<HashMap<Box<str>, Arc<HeldFile>>>,
    held_bytes: AtomicUsize,
    loading: tokio::sync::Semaphore,
}

impl Default for HeldFiles {
    fn default() -> Self {
        Self {
            files: RwLock::default(),
            by_address: RwLock::default(),
            held_bytes: AtomicUsize::new(0),
            loading: tokio::sync::Semaphore::new(LOADING_AT_ONCE),
        }
    }
}

impl HeldFiles {
    /// The answer for `file` (a content-hashed or entry file under a served folder, its path already
    /// checked), from memory; `None` when the file is not one to hold (neither kind, too large, missing,
    /// over the budget).
    pub async fn respond(&self, req: &Request, file: &Path) -> Option<Response> {
        let name = file.file_name()?.to_str()?;
        let held = if is_content_hashed(name) {
            let held = match self.get(file) {
                Some(held) => held,
                None => self.load(file, None).await?,
            };
            self.note_address(req.original_uri().path(), &held);
            held
        } else if is_held_entry(name) {
            // A syscall, no read: the file is read again only when it changed.
            let now = stamp(file)?;
            match self.get(file).filter(|held| held.stamp == Some(now)) {
                Some(held) => held,
                None => self.load(file, Some(now)).await?,
            }
        } else {
            return None;
        };
        Some(held.respond(req))
    }

    /// The answer for a content-hashed file already held, by the address it was asked at before
    /// (`GET` and `HEAD` only); `None` for anything else, which goes on to the routes.
    pub fn respond_ahead(&self, req: &Request) -> Option<Response> {
        if !matches!(*req.method(), Method::GET | Method::HEAD) {
            return None;
        }
        let by_address = self.by_address.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        let held = by_address.get(req.uri().path())?.clone();
        drop(by_address);
        Some(held.respond(req))
    }

    /// Remembers the address a held content-hashed file was asked at (a plain one: no
    /// percent-encoding, no empty, `.` or `..` segment), so that it is given ahead of the routes
    /// next time. An address names one file on disk, so they are as many as the files.
    fn note_address(&self, address: &str, held: &Arc<HeldFile>) {
        let plain =
            address.strip_prefix('/').is_some_and(|relative| !address.contains('%') && plain_segments(relative));
        if !plain {
            return;
        }
        if self.by_address.read().unwrap_or_else(std::sync::PoisonError::into_inner).contains_key(address) {
            return;
        }
        self.by_address.write().unwrap_or_else(std::sync::PoisonError::into_inner).insert(address.into(), held.clone());
    }

    fn get(&self, file: &Path) -> Option<Arc<HeldFile>> {
        self.files.read().unwrap_or_else(std::sync::PoisonError::into_inner).get(file).cloned()
    }

    async fn load(&self, file: &Path, stamp: Option<Stamp>) -> Option<Arc<HeldFile>> {
        if self.held_bytes.load(Ordering::Relaxed) >= MEMORY_BUDGET {
            return None;
        }
        let _turn = self.loading.acquire().await.ok()?;
        if let Some(held) = self.get(file).filter(|held| held.stamp == stamp) {
            return Some(held);
        }
        let path = file.to_path_buf();
        // Reading and compressing are blocking work: off the request threads, once per file (and version).
        let held = tokio::task::spawn_blocking(move || HeldFile::read(&path, stamp)).await.ok()??;
        let size = held.size();
        if self.held_bytes.fetch_add(size, Ordering::Relaxed) + size > MEMORY_BUDGET {
            self.held_bytes.fetch_sub(size, Ordering::Relaxed);
            return None;
        }
        let held = Arc::new(held);
        let mut files = self.files.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        let current = files.get(file).cloned();
        match current {
            // Another request loaded this version first.
            Some(kept) if kept.stamp == held.stamp => {
                self.held_bytes.fetch_sub(size, Ordering::Relaxed);
                Some(kept)
            }
            replaced => {
                if let Some(old) = replaced {
                    self.held_bytes.fetch_sub(old.size(), Ordering::Relaxed);
                }
                files.insert(file.to_path_buf(), held.clone());
                Some(held)
            }
        }
    }
}

impl HeldFile {
    fn read(path: &Path, stamp: Option<Stamp>) -> Option<Self> {
        let meta = std::fs::metadata(path).ok()?;
        if !meta.is_file() || meta.len() > LARGEST_HELD as u64 {
            return None;
        }
        let identity = std::fs::read(path).ok()?;
        // Written while it was read: held next time, when the writing is done.
        if stamp.is_some_and(|(len, _)| len != identity.len() as u64) {
            return None;
        }
        let mime = mime_guess::from_path(path).first_or_octet_stream();
        let compressible = identity.len() >= SMALLEST_COMPRESSED && compressible_type(mime.essence_str());
        let smaller = |encoded: Option<Vec<u8>>| encoded.filter(|e| e.len() < identity.len()).map(Bytes::from);
        let (brotli, gzip) = if compressible {
            (smaller(compress_brotli(&identity)), smaller(compress_gzip(&identity)))
        } else {
            (None, None)
        };
        let mut hasher = std::hash::DefaultHasher::new();
        hasher.write(&identity);
        // Weak: the same file goes out in several encodings.
        let etag = HeaderValue::from_str(&format!("W/\"{:016x}{:x}\"", hasher.finish(), identity.len())).ok()?;
        Some(Self {
            stamp,
            content_type: HeaderValue::from_str(mime.as_ref()).ok()?,
            etag,
            identity: Bytes::from(identity),
            brotli,
            gzip,
        })
    }

    fn size(&self) -> usize {
        self.identity.len()
            + self.brotli.as_ref().map_or(0, Bytes::len)
            + self.gzip.as_ref().map_or(0, Bytes::len)
            + 256
    }

    fn respond(&self, req: &Request) -> Response {
        let mut resp = Response::default();
        let headers = resp.headers_mut();
        headers.insert(header::CACHE_CONTROL, cache_control(self.stamp.is_none()));
        headers.insert(header::ETAG, self.etag.clone());
        if self.brotli.is_some() || self.gzip.is_some() {
            headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
        let revalidated = req
            .headers()
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| names_tag(v, &self.etag));
        if revalidated {
            resp.set_status(StatusCode::NOT_MODIFIED);
            return resp;
        }
        let headers = resp.headers_mut();
        headers.insert(header::CONTENT_TYPE, self.content_type.clone());
        let accepted = req.headers().get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()).unwrap_or("");
        let offered = [(Encoding::Brotli, &self.brotli), (Encoding::Gzip, &self.gzip)];
        let available: Vec<Encoding> = offered.iter().filter(|(_, b)| b.is_some()).map(|(e, _)| *e).collect();
        let body = match preferred(accepted, &available) {
            Some(encoding) => {
                headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding.token()));
                offered
                    .iter()
                    .find(|(e, _)| *e == encoding)
                    .and_then(|(_, b)| (*b).clone())
                    .unwrap_or_else(|| self.identity.clone())
            }
            None => self.identity.clone(),
        };
        resp.set_body(Body::from_bytes(body));
        resp
    }
}

/// Whether an `If-None-Match` value names `etag`.
fn names_tag(if_none_match: &str, etag: &HeaderValue) -> bool {
    etag.to_str().is_ok_and(|tag| marque_api::names_tag(if_none_match, tag))
}

/// Compressed once per file and kept: the highest quality brotli has.
fn compress_brotli(data: &[u8]) -> Option<Vec<u8>> {
    // A window no larger than the file (10 to 22 bits): as small a result, far less memory for small files.
    let lgwin = i32::try_from(data.len().max(1).next_power_of_two().trailing_zeros()).unwrap_or(22).clamp(10, 22);
    let params = brotli::enc::BrotliEncoderParams { quality: 11, lgwin, size_hint: data.len(), ..Default::default() };
    let mut out = Vec::with_capacity(data.len() / 3);
    brotli::BrotliCompress(&mut &data[..], &mut out, &params).ok()?;
    Some(out)
}

fn compress_gzip(data: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::with_capacity(data.len() / 3), flate2::Compression::best());
    encoder.write_all(data).ok()?;
    encoder.finish().ok()
}

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

/// A remote's files, served with the caching its names allow; hashed and entry ones from memory.
pub fn files(dir: PathBuf, held: Arc<HeldFiles>) -> impl Endpoint {
    let root = dir.clone();
    StaticFilesEndpoint::new(dir).around(move |next, req| {
        let held = held.clone();
        let root = root.clone();
        async move {
            // Hashed names are plain ASCII: a percent-encoded path is left to the endpoint's decoding.
            let plain = !req.uri().path().contains('%');
            if let Some(file) = file_path(&root, req.uri().path()).filter(|f| plain && is_held_file(f)) {
                if let Some(resp) = held.respond(&req, &file).await {
                    return Ok(resp);
                }
            }
            let immutable = is_content_hashed(req.uri().path());
            let mut resp = next.call(req).await?.into_response();
            resp.headers_mut().insert("cache-control", cache_control(immutable));
            Ok(resp)
        }
    })
}

/// The path under `dir` a request path names, when it names a file (a last segment with an
/// extension) and stays inside `dir`; the disk is not looked at.
pub fn file_path(dir: &Path, path: &str) -> Option<PathBuf> {
    let relative = path.trim_start_matches('/');
    let last = relative.rsplit('/').next()?;
    if !last.contains('.') || !plain_segments(relative) {
        return None;
    }
    Some(dir.join(relative))
}

/// Whether every `/`-separated part of `relative` names something in its folder (none empty, `.` or `..`).
fn plain_segments(relative: &str) -> bool {
    relative.split('/').all(|seg| !seg.is_empty() && seg != "." && seg != "..")
}

/// Whether a file is one [`HeldFiles`] may hold: content-hashed, or an entry file (`main.js`).
pub fn is_held_file(file: &Path) -> bool {
    file.file_name().and_then(|n| n.to_str()).is_some_and(|n| is_content_hashed(n) || is_held_entry(n))
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
    name.split('.').any(|part| part.len() >= 8 && part.chars().all(|c| c.is_ascii_hexdigit()))
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

    fn held(text: &'static str) -> Arc<HeldFile> {
        Arc::new(HeldFile {
            stamp: None,
            identity: Bytes::from_static(text.as_bytes()),
            brotli: None,
            gzip: None,
            content_type: HeaderValue::from_static("text/javascript"),
            etag: HeaderValue::from_static("W/\"1\""),
        })
    }

    fn asked(method: Method, address: &str) -> Request {
        Request::builder().method(method).uri(address.parse().expect("an address")).finish()
    }

    #[test]
    fn a_held_file_is_given_ahead_only_at_a_plain_address_it_was_asked_at_and_only_to_get_or_head() {
        let files = HeldFiles::default();
        let address = "/remotes/catalog/7.0123abcd.js";
        assert!(files.respond_ahead(&asked(Method::GET, address)).is_none(), "not asked yet");
        files.note_address(address, &held("export const a = 1;"));
        for method in [Method::GET, Method::HEAD] {
            let resp = files.respond_ahead(&asked(method.clone(), address)).expect("held");
            assert_eq!(resp.status(), StatusCode::OK, "{method}");
            assert_eq!(resp.headers()[header::ETAG], "W/\"1\"");
        }
        assert!(files.respond_ahead(&asked(Method::POST, address)).is_none(), "other methods go to the routes");
        assert!(files.respond_ahead(&asked(Method::GET, "/remotes/catalog/8.0123abcd.js")).is_none());
        for odd in ["/remotes/catalog/%37.0123abcd.js", "/remotes//catalog/7.0123abcd.js", "/remotes/./7.0123abcd.js"] {
            files.note_address(odd, &held("x"));
            assert!(files.respond_ahead(&asked(Method::GET, odd)).is_none(), "{odd} is not remembered");
        }
    }

    #[test]
    fn paths_cannot_leave_the_shell_folder() {
        let dir = std::env::temp_dir();
        assert_eq!(file_path(&dir, "/../etc/passwd"), None);
        assert_eq!(file_path(&dir, "/a/./b.js"), None);
        assert_eq!(file_path(&dir, "/search"), None);
        assert_eq!(file_path(&dir, "//etc/hosts"), None);
        assert_eq!(file_path(&dir, "/js/app.0123abcd.js"), Some(dir.join("js/app.0123abcd.js")));
    }
}
