//! The cache of finished responses (once called "ready answers") of the catalog's calls
//! (`GET /api/get/productById/{id}`, the listings, the
//! searches, the home page's lists): the bytes a call answered, kept by its question and given
//! again without asking the catalog, converting or serialising.
//!
//! The listings and searches are kept by their path and query as asked, in a cache of their
//! own, once asked.
//!
//! A product page is asked for by id among the whole catalog, so an answer cache that only
//! keeps what was asked misses nearly every time on a large catalog. [`ResponseCache`] keeps the
//! serialised answer of every product (about 700 bytes each, kept compressed): filled from the catalog, a window
//! at a time, once the catalog has settled after a change ([`ResponseCache::warm`]), and from
//! every answer the call gives meanwhile.
//!
//! Memory: a kept answer is compressed (zstd) against a dictionary made of the first product
//! answers kept (16 KB of them), which holds what every answer repeats (field names, the
//! catalog's phrases): a product's ~650 bytes keep in ~100–150. It is decompressed for each
//! request (a few microseconds), and the compression middleware encodes it for the client as it
//! does any answer. Answers kept before the dictionary exists stay as they are.
//!
//! Exactness: each answer is tagged with the catalog cache's
//! [`answering_stamp`](FollowedCatalog::answering_stamp) read *before* its product was read,
//! and with the products it was made of ([`FollowedCatalog::noting_sources`]). It is given
//! only while the stamp's generation is still the current one: any change to the catalog's
//! products, brands or categories (seen by the cache's version poll within ~200 ms, or written
//! through it) moves the generation, so a kept answer never outlives the cache's own answers.
//! A stock change (an order) forgets, at the same moment the catalog cache does and under its
//! lock, the answers made of a changed product and those ranked by sales; an answer read before
//! that forget is not kept after it ([`FollowedCatalog::keep_unless_forgotten`]).

use std::cell::RefCell;
use std::collections::HashSet;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use bytes::Bytes;
use marque_domain::catalog::ProductId;
use marque_ports::catalog_answers::{noting_sources, FollowedCatalog, Sources, Stamp};
use marque_ports::CatalogStoreError;
use poem::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use poem::http::{HeaderValue, Method, StatusCode};
use poem::{Body, Endpoint, IntoResponse, Request, Response};

use crate::http_cache;

/// The path (inside `/api`) of the call whose answers are kept.
const PREFIX: &str = "/get/productById/";
/// Products read per window while warming.
const WARM_WINDOW: u32 = 500;
/// Bytes of product answers the compression dictionary is made of.
const DICTIONARY_BYTES: usize = 16 * 1024;
/// zstd's level for kept answers (each is compressed once).
const LEVEL: i32 = 9;

/// One kept answer: a finished response's body and tag.
#[derive(Debug, Clone)]
struct Finished {
    generation: u64,
    /// What a listing was made of, for the stock forgets (`None` for a product's own answer,
    /// which is forgotten by its key).
    made_of: Option<Arc<MadeOf>>,
    /// The answer, compressed with the [`Packing`] when `packed`.
    body: Bytes,
    packed: bool,
    etag: HeaderValue,
}

/// The compression of kept answers: zstd with a dictionary made once, from the first product
/// answers kept, and never changed (every packed answer needs the one it was packed with).
struct Packing {
    compress: zstd_safe::CDict<'static>,
    decompress: zstd_safe::DDict<'static>,
}

thread_local! {
    // A context per thread: making one allocates ~100 KB, using one needs it to itself.
    static COMPRESSOR: RefCell<zstd_safe::CCtx<'static>> = RefCell::new(zstd_safe::CCtx::create());
    static DECOMPRESSOR: RefCell<zstd_safe::DCtx<'static>> = RefCell::new(zstd_safe::DCtx::create());
}

impl Packing {
    fn new(dictionary: &[u8]) -> Self {
        Self { compress: zstd_safe::CDict::create(dictionary, LEVEL), decompress: zstd_safe::DDict::create(dictionary) }
    }

    fn pack(&self, body: &[u8]) -> Option<Bytes> {
        let mut packed = Vec::with_capacity(zstd_safe::compress_bound(body.len()));
        COMPRESSOR.with_borrow_mut(|c| c.compress_using_cdict(&mut packed, body, &self.compress)).ok()?;
        // A copy of exactly its length.
        Some(Bytes::copy_from_slice(&packed))
    }

    fn unpack(&self, packed: &[u8]) -> Option<Vec<u8>> {
        let size = usize::try_from(zstd_safe::get_frame_content_size(packed).ok()??).ok()?;
        let mut body = Vec::with_capacity(size);
        DECOMPRESSOR.with_borrow_mut(|d| d.decompress_using_ddict(&mut body, packed, &self.decompress)).ok()?;
        (body.len() == size).then_some(body)
    }
}

/// The products a kept listing holds, as hashes of their ids (a collision only forgets more),
/// and whether it was ranked by sales.
#[derive(Debug)]
struct MadeOf {
    products: Box<[u64]>,
    by_sales: bool,
}

impl MadeOf {
    fn touched_by(&self, changed: &HashSet<u64>) -> bool {
        self.by_sales || self.products.iter().any(|p| changed.contains(p))
    }
}

#[derive(Debug, Clone, Copy)]
struct ByBytes;

impl quick_cache::Weighter<String, Finished> for ByBytes {
    fn weight(&self, key: &String, page: &Finished) -> u64 {
        // The key, the body, the tag and the entry's own bookkeeping.
        let made_of = page.made_of.as_ref().map_or(0, |m| 32 + m.products.len() * 8);
        (key.len() + page.body.len() + page.etag.len() + made_of + 96) as u64
    }
}

/// The kept answers; see the module documentation.
pub struct ResponseCache {
    catalog: Arc<dyn FollowedCatalog>,
    pages: quick_cache::sync::Cache<String, Finished, ByBytes>,
    capacity_bytes: u64,
    /// The other calls' answers, by path and query.
    listings: quick_cache::sync::Cache<String, Finished, ByBytes>,
    /// Set once [`DICTIONARY_BYTES`] of product answers were kept.
    packing: OnceLock<Packing>,
    /// The product answers kept so far, until the dictionary is made of them.
    samples: Mutex<Vec<u8>>,
    /// Hashes product ids for [`MadeOf`].
    hasher: std::collections::hash_map::RandomState,
}

/// Which kept answer a request asks for.
enum Question {
    Product(String),
    Listing(String),
}

impl std::fmt::Debug for ResponseCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResponseCache")
            .field("products", &self.pages.len())
            .field("listings", &self.listings.len())
            .finish_non_exhaustive()
    }
}

/// How a [`ResponseCache::warm`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Warmed {
    /// Every product's answer is kept.
    All(usize),
    /// The share for warming was full after this many products.
    Full(usize),
    /// The catalog changed meanwhile, or its cache gives no answers: warm again later.
    Interrupted,
}

impl ResponseCache {
    /// Answers read through `catalog`: products' in at most about `capacity_bytes`, the other
    /// calls' in at most about `listing_bytes`. They follow the catalog cache's stock forgets
    /// for as long as they live.
    #[must_use]
    pub fn new(catalog: Arc<dyn FollowedCatalog>, capacity_bytes: u64, listing_bytes: u64) -> Arc<Self> {
        let estimated_items = usize::try_from((capacity_bytes / 700).clamp(64, 1 << 21)).unwrap_or(1 << 21);
        let estimated_listings = usize::try_from((listing_bytes / 16_384).clamp(64, 1 << 16)).unwrap_or(1 << 16);
        let answers = Arc::new(Self {
            catalog: catalog.clone(),
            pages: quick_cache::sync::Cache::with_weighter(estimated_items, capacity_bytes.max(1), ByBytes),
            capacity_bytes,
            listings: quick_cache::sync::Cache::with_weighter(estimated_listings, listing_bytes.max(1), ByBytes),
            packing: OnceLock::new(),
            samples: Mutex::new(Vec::with_capacity(DICTIONARY_BYTES)),
            hasher: std::collections::hash_map::RandomState::new(),
        });
        let weak = Arc::downgrade(&answers);
        catalog.on_stock_forget(Box::new(move |products| {
            if let Some(answers) = weak.upgrade() {
                answers.forget(products);
            }
        }));
        answers
    }

    /// Forgets the answers made of any of `products`, and those ranked by sales.
    fn forget(&self, products: &HashSet<ProductId>) {
        for id in products {
            self.pages.remove(id.as_str());
        }
        let changed: HashSet<u64> = products.iter().map(|id| self.hasher.hash_one(id.as_str())).collect();
        self.listings.retain(|_, page| !page.made_of.as_ref().is_some_and(|m| m.touched_by(&changed)));
    }

    /// Whether any answer is kept for the listing or search at `path_and_query` (as asked).
    #[must_use]
    pub fn holds_listing(&self, path_and_query: &str) -> bool {
        self.fresh_answer(&Question::Listing(path_and_query.to_owned())).is_some()
    }

    /// The catalog cache's generation the kept answers must carry to be given (`None`: none is).
    #[must_use]
    pub fn generation(&self) -> Option<u64> {
        self.catalog.answering_generation()
    }

    /// Whether a fresh answer for `id` is kept (one the call would give now).
    #[must_use]
    pub fn holds_fresh(&self, id: &str) -> bool {
        self.fresh(id).is_some()
    }

    /// Number of product answers kept, and their bytes.
    #[must_use]
    pub fn usage(&self) -> (usize, u64) {
        (self.pages.len(), self.pages.weight())
    }

    /// The kept answer for `id`, when it is of the catalog's current generation.
    fn fresh(&self, id: &str) -> Option<Finished> {
        self.fresh_answer(&Question::Product(id.to_owned()))
    }

    fn cache<'q>(&self, question: &'q Question) -> (&quick_cache::sync::Cache<String, Finished, ByBytes>, &'q str) {
        match question {
            Question::Product(id) => (&self.pages, id),
            Question::Listing(key) => (&self.listings, key),
        }
    }

    fn fresh_answer(&self, question: &Question) -> Option<Finished> {
        let generation = self.catalog.answering_generation()?;
        let (cache, key) = self.cache(question);
        cache.get(key).filter(|page| page.generation == generation)
    }

    /// The page to keep for `body`, an answer read since `generation` was current.
    fn finished(&self, question: &Question, generation: u64, sources: &Sources, body: &[u8]) -> Option<Finished> {
        let etag = HeaderValue::from_str(&http_cache::tag_of(body)).ok()?;
        let made_of = matches!(question, Question::Listing(_)).then(|| {
            let products = sources.products.iter().map(|id| self.hasher.hash_one(id.as_str())).collect();
            Arc::new(MadeOf { products, by_sales: sources.by_sales })
        });
        let packed = self.packing(question, body).and_then(|packing| packing.pack(body));
        Some(match packed {
            Some(packed) => Finished { generation, made_of, body: packed, packed: true, etag },
            // A copy of exactly its length: the serialiser's buffer has room to spare.
            None => Finished { generation, made_of, body: Bytes::copy_from_slice(body), packed: false, etag },
        })
    }

    /// Keeps `body`, the answer to `question` read since `stamp` was taken and made of `sources`,
    /// unless the catalog cache forgot anything since.
    fn keep(&self, question: &Question, stamp: Stamp, sources: &Sources, body: &[u8]) {
        let Some(page) = self.finished(question, stamp.generation, sources, body) else { return };
        let (cache, key) = self.cache(question);
        keep_once(self.catalog.as_ref(), stamp, || cache.insert(key.to_owned(), page));
    }

    /// The compression, once there is one; a product answer kept before goes into its dictionary.
    fn packing(&self, question: &Question, body: &[u8]) -> Option<&Packing> {
        if let Some(packing) = self.packing.get() {
            return Some(packing);
        }
        if !matches!(question, Question::Product(_)) {
            return None;
        }
        let mut samples = self.samples.lock().ok()?;
        if let Some(packing) = self.packing.get() {
            return Some(packing);
        }
        let room = DICTIONARY_BYTES.saturating_sub(samples.len());
        samples.extend_from_slice(&body[..body.len().min(room)]);
        if samples.len() < DICTIONARY_BYTES {
            return None;
        }
        let dictionary = std::mem::take(&mut *samples);
        Some(self.packing.get_or_init(|| Packing::new(&dictionary)))
    }

    /// The answer's bytes as the call gives them.
    fn body(&self, page: &Finished) -> Option<Bytes> {
        if page.packed {
            self.packing.get()?.unpack(&page.body).map(Bytes::from)
        } else {
            Some(page.body.clone())
        }
    }

    /// The answer for a kept page, as the call gives it (`304` when revalidated with its tag);
    /// `None` when it cannot be decompressed (never expected: the call answers then).
    fn respond(&self, page: Finished, if_none_match: Option<&str>) -> Option<Response> {
        let mut resp = Response::default();
        let headers = resp.headers_mut();
        headers.insert(CACHE_CONTROL, HeaderValue::from_static(http_cache::POLICY));
        if if_none_match.is_some_and(|v| page.etag.to_str().is_ok_and(|tag| http_cache::names(v, tag))) {
            headers.insert(ETAG, page.etag);
            resp.set_status(StatusCode::NOT_MODIFIED);
            return Some(resp);
        }
        let body = self.body(&page)?;
        let headers = resp.headers_mut();
        // What `poem::web::Json`, which the call answers with, sets.
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json; charset=utf-8"));
        headers.insert(ETAG, page.etag);
        resp.set_body(Body::from_bytes(body));
        Some(resp)
    }

    /// Reads every product of the catalog and keeps its answer (up to nine tenths of the
    /// capacity). Call it once the catalog has settled after a change; it stops when the
    /// catalog changes again, and when the pages are dropped (it holds them only while it
    /// reads a window).
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the catalog cannot be read.
    pub async fn warm(pages: &Weak<Self>) -> Result<Warmed, CatalogStoreError> {
        let Some(generation) = pages.upgrade().and_then(|p| p.catalog.answering_generation()) else {
            return Ok(Warmed::Interrupted);
        };
        let mut after: Option<ProductId> = None;
        let mut warmed = 0;
        loop {
            let Some(this) = pages.upgrade() else { return Ok(Warmed::Interrupted) };
            // Taken before the window is read: a stock forget meanwhile makes it read again.
            let Some(stamp) = this.catalog.answering_stamp().filter(|s| s.generation == generation) else {
                return Ok(Warmed::Interrupted);
            };
            let window = this.catalog.products_after(after.clone(), WARM_WINDOW).await?;
            let Some(last) = window.last().map(|p| p.id.clone()) else { return Ok(Warmed::All(warmed)) };
            let mut ready = Vec::with_capacity(window.len());
            let mut held = 0;
            for product in window {
                if this.pages.get(product.id.as_str()).is_some_and(|p| p.generation == generation) {
                    held += 1;
                    continue;
                }
                let id = product.id.0.clone();
                let Ok(body) = crate::catalog::product_answer(product).into_body().into_bytes().await else { continue };
                let question = Question::Product(id);
                if let Some(page) = this.finished(&question, generation, &Sources::default(), &body) {
                    ready.push((question, page));
                }
            }
            let count = ready.len();
            let kept = keep_once(this.catalog.as_ref(), stamp, || {
                for (question, page) in ready {
                    let (cache, key) = this.cache(&question);
                    cache.insert(key.to_owned(), page);
                }
            });
            if !kept {
                continue;
            }
            warmed += held + count;
            after = Some(last);
            // Weighed as kept (compressed): past the share, the rest stays unread.
            if this.pages.weight() > this.capacity_bytes / 10 * 9 {
                return Ok(Warmed::Full(warmed));
            }
        }
    }
}

/// Middleware around the API: answers `GET /get/productById/{id}` from a kept answer when there
/// is a fresh one, and keeps the answers the call gives.
///
/// # Errors
/// Those of `next`; reading back an in-memory JSON body cannot fail.
pub async fn serve<E: Endpoint>(next: E, req: Request, pages: &ResponseCache) -> poem::Result<Response> {
    let question = if req.method() == Method::GET { question(&req) } else { None };
    let Some(question) = question else { return next.call(req).await.map(IntoResponse::into_response) };
    if let Some(page) = pages.fresh_answer(&question) {
        let if_none_match = req.headers().get(IF_NONE_MATCH).and_then(|v| v.to_str().ok());
        if let Some(resp) = pages.respond(page, if_none_match) {
            return Ok(resp);
        }
    }
    // Read before the product is: an answer read across a change is tagged with the old generation.
    let stamp = pages.catalog.answering_stamp();
    let (resp, sources) = noting_sources(pages.catalog.as_ref(), next.call(req)).await;
    let resp = resp?.into_response();
    match stamp {
        Some(stamp) if resp.status() == StatusCode::OK => {
            let (parts, body) = resp.into_parts();
            let bytes = body.into_bytes().await?;
            pages.keep(&question, stamp, &sources, &bytes);
            Ok(Response::from_parts(parts, Body::from_bytes(bytes)))
        }
        _ => Ok(resp),
    }
}

/// The kept answer a request asks for: a product by a plain id, or one of the other catalog
/// calls, whose answers depend on their path and query alone (no session, no header).
fn question(req: &Request) -> Option<Question> {
    let path = req.uri().path();
    if let Some(id) = path.strip_prefix(PREFIX) {
        return plain(id).then(|| Question::Product(id.to_owned()));
    }
    let listing = matches!(
        path,
        "/get/category" | "/get/brand/oem" | "/get/new-products" | "/get/suggestion" | "/get/productBySearch"
    ) || path.starts_with("/get/product/")
        || path.starts_with("/get/productByOem/");
    listing.then(|| Question::Listing(req.uri().path_and_query().map_or(path, |pq| pq.as_str()).to_owned()))
}

/// Ids kept: the ones a path carries as they are (no percent-encoding to undo).
fn plain(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// Warms `pages` with the whole catalog once the catalog cache's generation has stood still
/// for [`WARM_AFTER`] (at start, and after every change), on a task that ends with the pages.
/// A warm starts no sooner than [`WARM_SHARE`] times its predecessor's duration after it ended,
/// so a stream of catalog changes (an import in many parts) keeps warming to about a tenth of one
/// core; meanwhile products are kept as they are asked for. Stock changes (orders) move no
/// generation: they forget only their products' answers, kept again when asked.
pub fn spawn_warmer(pages: &Arc<ResponseCache>, poll: std::time::Duration) {
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
            let outcome = ResponseCache::warm(&weak).await;
            rested_until = tokio::time::Instant::now() + started.elapsed() * WARM_SHARE;
            match outcome {
                Ok(Warmed::All(n)) => {
                    tracing::debug!(products = n, "response cache: warmed");
                    warmed_for = Some(generation);
                }
                Ok(Warmed::Full(n)) => {
                    tracing::info!(
                        products = n,
                        "response cache: full before every product was read (MARQUE_READY_PRODUCT_ANSWERS_MB)"
                    );
                    warmed_for = Some(generation);
                }
                // The catalog changed meanwhile: warmed again once it settles.
                Ok(Warmed::Interrupted) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "response cache: warming failed; they fill as products are asked for");
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

/// Runs `keep` (once) unless the catalog cache cleared or forgot anything since `stamp`; whether it ran.
fn keep_once(catalog: &dyn FollowedCatalog, stamp: Stamp, keep: impl FnOnce()) -> bool {
    let mut keep = Some(keep);
    catalog.keep_unless_forgotten(stamp, &mut || {
        if let Some(keep) = keep.take() {
            keep();
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(n: u32) -> String {
        format!(
            r#"{{"data":{{"_id":"p{n:06}","category":"Brakes","description":"Front brake disc {n} for the BMW X5. Brand new in the maker's box.","price":{}}}}}"#,
            1_000 + n
        )
    }

    #[test]
    fn packed_answers_come_back_byte_for_byte_in_a_fraction_of_the_bytes() {
        let dictionary: Vec<u8> = (0..200).flat_map(|n| answer(n).into_bytes()).collect();
        let packing = Packing::new(&dictionary[..DICTIONARY_BYTES.min(dictionary.len())]);
        for n in [5, 500, 123_456] {
            let body = answer(n);
            let packed = packing.pack(body.as_bytes()).expect("packs");
            assert!(packed.len() * 3 < body.len(), "{} of {} bytes", packed.len(), body.len());
            assert_eq!(packing.unpack(&packed).as_deref(), Some(body.as_bytes()));
        }
        assert_eq!(packing.unpack(b"not a zstd frame"), None);
    }
}
