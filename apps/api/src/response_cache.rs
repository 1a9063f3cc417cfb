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
//! only while the stamp's generation is still the current one: a change the catalog cache
//! clears everything for (a moved version, seen by its poll within ~200 ms, or a write through
//! it) moves the generation, so a kept answer never outlives the cache's own answers. A forget
//! (a stock change, or a described catalog change, docs/adr/0018) removes, at the same moment
//! the catalog cache forgets and under its lock, the answers made of a stale answer (one that
//! asked a question the forget names or held a product it names,
//! [`Sources::stale_after`]); an answer read before that forget is not kept after it
//! ([`FollowedCatalog::keep_unless_forgotten`]).

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{HashSet, VecDeque};
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use bytes::Bytes;
use marque_domain::catalog::ProductId;
use marque_ports::catalog_answers::{noting_sources, FollowedCatalog, Sources, Stamp};
use marque_ports::{CatalogStoreError, Forgotten, Question as CatalogQuestion};
use poem::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use poem::http::{HeaderValue, Method, StatusCode};
use poem::{Body, Endpoint, IntoResponse, Request, Response};

use crate::http_cache;

/// The path (inside `/api`) of the call whose answers are kept.
const PREFIX: &str = "/get/productById/";
/// Products read per window while warming: few, for the reason the catalog index reads few a
/// request (a window's products are garbage once their answers are kept, and a large window's
/// heap stays resident around the kept answers). At 100,000 products with 20 fitment rows each,
/// windows of 500 (and the index's pages of 5,000) left 233–245 MB of anonymous memory at rest,
/// windows of 50 (and pages of 100) 111 MB, and the warm-up took half the time (`bench/results/issue-25.md`).
const WARM_WINDOW: u32 = 50;
/// Product answers the compression dictionary is trained on (the first ones kept).
const DICTIONARY_SAMPLES: usize = 500;
/// The trained dictionary's size. Trained on 500 answers of the 100,000-product bench catalog
/// (~30 ms once), 64 KB packs an answer of ~900 bytes into ~90 (the first 16 KB of answers as they
/// are, the dictionary before: ~147), which is ~6 MB less at 100,000 products.
const DICTIONARY_BYTES: usize = 64 * 1024;
/// zstd's level for kept answers (each is compressed once).
const LEVEL: i32 = 9;

/// One kept answer: a finished response's body and tag.
#[derive(Debug, Clone)]
struct Finished {
    generation: u64,
    /// What a listing was made of, for the forgets (`None` for a product's own answer, which
    /// is forgotten by its key or by `held`).
    made_of: Option<Arc<MadeOf>>,
    /// A product answer's category and brand slugs, hashed (0 for a listing).
    held: [u64; 2],
    /// Which keep this is (each keep of any answer takes the next number).
    serial: u64,
    /// The answer's `ETag` (its first `tag_len` bytes), then the answer itself, compressed with the
    /// [`Packing`] when `packed`: one allocation, shared by every response given from it.
    stored: Bytes,
    tag_len: u8,
    packed: bool,
}

impl Finished {
    fn etag(&self) -> Option<HeaderValue> {
        HeaderValue::from_maybe_shared(self.stored.slice(..usize::from(self.tag_len))).ok()
    }

    /// The answer as kept (compressed when `packed`).
    fn kept(&self) -> Bytes {
        self.stored.slice(usize::from(self.tag_len)..)
    }
}

/// Product answers to train the dictionary on: one after the other, and each one's length.
#[derive(Debug, Default)]
struct Samples {
    bytes: Vec<u8>,
    sizes: Vec<usize>,
}

impl Samples {
    /// A dictionary trained on the samples ([`DICTIONARY_BYTES`]); should training fail, their last
    /// [`DICTIONARY_BYTES`] as they are (a dictionary too, if a poorer one).
    fn dictionary(&self) -> Vec<u8> {
        let mut trained = Vec::with_capacity(DICTIONARY_BYTES);
        match zstd_safe::train_from_buffer(&mut trained, &self.bytes, &self.sizes) {
            Ok(_) if trained.len() >= 8 => {
                // Its id 0 ("none"): an answer then carries no dictionary id (4 bytes of ~90).
                trained[4..8].fill(0);
                trained
            }
            _ => self.bytes[self.bytes.len().saturating_sub(DICTIONARY_BYTES)..].to_vec(),
        }
    }
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

    fn pack(&self, body: &[u8]) -> Option<Vec<u8>> {
        let mut packed = Vec::with_capacity(zstd_safe::compress_bound(body.len()));
        COMPRESSOR.with_borrow_mut(|c| c.compress_using_cdict(&mut packed, body, &self.compress)).ok()?;
        Some(packed)
    }

    fn unpack(&self, packed: &[u8]) -> Option<Vec<u8>> {
        let size = usize::try_from(zstd_safe::get_frame_content_size(packed).ok()??).ok()?;
        let mut body = Vec::with_capacity(size);
        DECOMPRESSOR.with_borrow_mut(|d| d.decompress_using_ddict(&mut body, packed, &self.decompress)).ok()?;
        (body.len() == size).then_some(body)
    }
}

/// What a kept answer was made of ([`Sources`]): the products its answers held and their
/// categories and brands, as hashes (a collision only forgets more), whether one was ranked by
/// sales, and the catalog questions asked.
#[derive(Debug)]
struct MadeOf {
    products: Box<[u64]>,
    categories: Box<[u64]>,
    brands: Box<[u64]>,
    by_sales: bool,
    questions: Box<[CatalogQuestion]>,
}

/// A forget's products, categories and brands, hashed as [`MadeOf`] keeps them.
struct Hashed {
    stock: HashSet<u64>,
    products: HashSet<u64>,
    categories: HashSet<u64>,
    brands: HashSet<u64>,
}

impl MadeOf {
    /// [`Sources::stale_after`] on the hashes.
    fn stale_after(&self, forgotten: &Forgotten, hashed: &Hashed) -> bool {
        let any = |kept: &[u64], named: &HashSet<u64>| kept.iter().any(|h| named.contains(h));
        (!hashed.stock.is_empty() && (self.by_sales || any(&self.products, &hashed.stock)))
            || any(&self.products, &hashed.products)
            || any(&self.categories, &hashed.categories)
            || any(&self.brands, &hashed.brands)
            || self.questions.iter().any(|q| forgotten.asks_stale(q))
    }
}

#[derive(Debug, Clone, Copy)]
struct ByBytes;

impl quick_cache::Weighter<String, Finished> for ByBytes {
    fn weight(&self, key: &String, page: &Finished) -> u64 {
        // The key, the body, the tag and the entry's own bookkeeping.
        let made_of = page
            .made_of
            .as_ref()
            .map_or(0, |m| 64 + (m.products.len() + m.categories.len() + m.brands.len()) * 8 + m.questions.len() * 96);
        (key.len() + page.stored.len() + made_of + 96) as u64
    }
}

/// The kept answers; see the module documentation.
pub struct ResponseCache {
    catalog: Arc<dyn FollowedCatalog>,
    pages: quick_cache::sync::Cache<String, Finished, ByBytes>,
    capacity_bytes: u64,
    /// The other calls' answers, by path and query.
    listings: quick_cache::sync::Cache<String, Finished, ByBytes>,
    /// Set once [`DICTIONARY_SAMPLES`] product answers were kept.
    packing: OnceLock<Packing>,
    /// The product answers kept so far, until the dictionary is trained on them.
    samples: Mutex<Samples>,
    /// Hashes product ids for [`MadeOf`].
    hasher: std::collections::hash_map::RandomState,
    /// The calls (paths inside `/api`) whose kept answers a forget removed, to be asked again in
    /// the background ([`ResponseCache::take_refill`]); the oldest past [`REFILL_MAX`] are dropped.
    refill: Mutex<VecDeque<String>>,
    /// The generation whose product answers were last warmed whole (`u64::MAX`: none yet).
    warmed: AtomicU64,
    /// Numbers the keeps ([`Finished::serial`]).
    keeps: AtomicU64,
}

/// Most calls waiting to be asked again after forgets.
const REFILL_MAX: usize = 1024;

/// Which kept answer a request asks for: borrowed from the request while it is looked up, owned
/// once the request has gone on to the call (a kept answer given costs no allocation).
enum Question<'a> {
    Product(Cow<'a, str>),
    Listing(Cow<'a, str>),
}

impl Question<'_> {
    fn into_owned(self) -> Question<'static> {
        match self {
            Question::Product(id) => Question::Product(Cow::Owned(id.into_owned())),
            Question::Listing(key) => Question::Listing(Cow::Owned(key.into_owned())),
        }
    }
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
            samples: Mutex::new(Samples::default()),
            hasher: std::collections::hash_map::RandomState::new(),
            refill: Mutex::new(VecDeque::new()),
            warmed: AtomicU64::new(u64::MAX),
            keeps: AtomicU64::new(0),
        });
        let weak = Arc::downgrade(&answers);
        catalog.on_forget(Box::new(move |forgotten| {
            if let Some(answers) = weak.upgrade() {
                answers.forget(forgotten);
            }
        }));
        answers
    }

    /// Forgets the answers made of a stale answer ([`Sources::stale_after`]).
    fn forget(&self, forgotten: &Forgotten) {
        let hash = |s: &str| self.hasher.hash_one(s);
        let changes = &forgotten.changes;
        let hashed = Hashed {
            stock: forgotten.stock.iter().map(|id| hash(id.as_str())).collect(),
            products: changes.iter().flat_map(|c| &c.products).map(|id| hash(id.as_str())).collect(),
            categories: changes.iter().flat_map(|c| &c.categories).map(|s| hash(s)).collect(),
            brands: changes.iter().flat_map(|c| &c.brands).map(|s| hash(s)).collect(),
        };
        let removed = Mutex::new(Vec::new());
        let note = |path: String| removed.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(path);
        // A product's answer is its product's alone: stale when that product is named, or its
        // category or brand; without those, by its key.
        if hashed.categories.is_empty() && hashed.brands.is_empty() {
            for id in forgotten.stock.iter().chain(changes.iter().flat_map(|c| &c.products)) {
                if self.pages.remove(id.as_str()).is_some() {
                    note(format!("{PREFIX}{}", id.as_str()));
                }
            }
        } else {
            self.pages.retain(|id, page| {
                let named = |h: u64| hashed.stock.contains(&h) || hashed.products.contains(&h);
                let stale = match &page.made_of {
                    Some(m) => m.stale_after(forgotten, &hashed),
                    None => {
                        named(hash(id))
                            || hashed.categories.contains(&page.held[0])
                            || hashed.brands.contains(&page.held[1])
                    }
                };
                if stale {
                    note(format!("{PREFIX}{id}"));
                }
                !stale
            });
        }
        self.listings.retain(|key, page| {
            let stale = page.made_of.as_ref().is_some_and(|m| m.stale_after(forgotten, &hashed));
            if stale {
                note(key.clone());
            }
            !stale
        });
        let removed = removed.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
        if !removed.is_empty() {
            let mut refill = self.refill.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            refill.extend(removed);
            let excess = refill.len().saturating_sub(REFILL_MAX);
            refill.drain(..excess);
        }
    }

    /// The calls (paths inside `/api`, with their query) whose kept answers forgets removed since
    /// the last take, each once: answers shoppers asked, to be asked again in the background.
    #[must_use]
    pub fn take_refill(&self) -> Vec<String> {
        let taken = std::mem::take(&mut *self.refill.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        let mut seen = HashSet::with_capacity(taken.len());
        taken.into_iter().filter(|path| seen.insert(path.clone())).collect()
    }

    /// Warms the product answers now ([`ResponseCache::warm`]), recording the generation it
    /// warmed so the background warmer does not read the catalog again for it.
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the catalog cannot be read.
    pub async fn warm_now(pages: &Arc<Self>) -> Result<Warmed, CatalogStoreError> {
        let generation = pages.generation();
        let outcome = Self::warm(&Arc::downgrade(pages)).await?;
        if let (Some(generation), Warmed::All(_) | Warmed::Full(_)) = (generation, outcome) {
            pages.warmed.store(generation, Ordering::Release);
        }
        Ok(outcome)
    }

    /// Whether any answer is kept for the listing or search at `path_and_query` (as asked).
    #[must_use]
    pub fn holds_listing(&self, path_and_query: &str) -> bool {
        self.fresh_answer(&Question::Listing(Cow::Borrowed(path_and_query))).is_some()
    }

    /// Which keep the answer kept for the listing or search at `path_and_query` is: a forgotten
    /// answer asked again (by a shopper or the refill) is another keep.
    #[must_use]
    pub fn listing_keep(&self, path_and_query: &str) -> Option<u64> {
        self.fresh_answer(&Question::Listing(Cow::Borrowed(path_and_query))).map(|page| page.serial)
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
        self.fresh_answer(&Question::Product(Cow::Borrowed(id)))
    }

    fn cache<'q>(&self, question: &'q Question<'_>) -> (&quick_cache::sync::Cache<String, Finished, ByBytes>, &'q str) {
        match question {
            Question::Product(id) => (&self.pages, id),
            Question::Listing(key) => (&self.listings, key),
        }
    }

    fn fresh_answer(&self, question: &Question<'_>) -> Option<Finished> {
        let generation = self.catalog.answering_generation()?;
        let (cache, key) = self.cache(question);
        cache.get(key).filter(|page| page.generation == generation)
    }

    /// The kept answer to `question` as the call would give it to `req` now, when one is kept.
    fn fresh_response(&self, question: &Question<'_>, req: &Request) -> Option<Response> {
        let page = self.fresh_answer(question)?;
        let if_none_match = req.headers().get(IF_NONE_MATCH).and_then(|v| v.to_str().ok());
        self.respond(page, if_none_match)
    }

    /// The page to keep for `body`, an answer read since `generation` was current.
    fn finished(&self, question: &Question<'_>, generation: u64, sources: &Sources, body: &[u8]) -> Option<Finished> {
        let etag = http_cache::tag_of(body);
        let tag_len = u8::try_from(etag.len()).ok().filter(|_| HeaderValue::from_str(&etag).is_ok())?;
        let hash = |s: &str| self.hasher.hash_one(s);
        // A product's answer holds its product alone: its key and two hashes say what it is made of.
        let single = |set: &HashSet<String>| match set.len() {
            0 => Some(0),
            1 => set.iter().next().map(|s| hash(s)),
            _ => None,
        };
        let compact = match question {
            Question::Product(_) => single(&sources.categories).zip(single(&sources.brands)),
            Question::Listing(_) => None,
        };
        let (made_of, held) = match compact {
            Some((category, brand)) => (None, [category, brand]),
            None => (
                Some(Arc::new(MadeOf {
                    products: sources.products.iter().map(|id| hash(id.as_str())).collect(),
                    categories: sources.categories.iter().map(|s| hash(s)).collect(),
                    brands: sources.brands.iter().map(|s| hash(s)).collect(),
                    by_sales: sources.by_sales,
                    questions: sources.questions.iter().cloned().collect(),
                })),
                [0, 0],
            ),
        };
        let packed = self.packing(question, body).and_then(|packing| packing.pack(body));
        let serial = self.keeps.fetch_add(1, Ordering::Relaxed);
        let kept = packed.as_deref().unwrap_or(body);
        // Exactly its length (the serialiser's buffer has room to spare): the tag, then the answer.
        let mut stored = Vec::with_capacity(etag.len() + kept.len());
        stored.extend_from_slice(etag.as_bytes());
        stored.extend_from_slice(kept);
        let stored = Bytes::from(stored);
        Some(Finished { generation, made_of, held, serial, stored, tag_len, packed: packed.is_some() })
    }

    /// Keeps `body`, the answer to `question` read since `stamp` was taken and made of `sources`,
    /// unless the catalog cache forgot anything since.
    fn keep(&self, question: &Question<'_>, stamp: Stamp, sources: &Sources, body: &[u8]) {
        let Some(page) = self.finished(question, stamp.generation, sources, body) else { return };
        let (cache, key) = self.cache(question);
        keep_once(self.catalog.as_ref(), stamp, || cache.insert(key.to_owned(), page));
    }

    /// The compression, once there is one; a product answer kept before goes into its dictionary.
    fn packing(&self, question: &Question<'_>, body: &[u8]) -> Option<&Packing> {
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
        samples.bytes.extend_from_slice(body);
        samples.sizes.push(body.len());
        if samples.sizes.len() < DICTIONARY_SAMPLES {
            return None;
        }
        let samples = std::mem::take(&mut *samples);
        Some(self.packing.get_or_init(|| Packing::new(&samples.dictionary())))
    }

    /// The answer's bytes as the call gives them.
    fn body(&self, page: &Finished) -> Option<Bytes> {
        if page.packed {
            self.packing.get()?.unpack(&page.kept()).map(Bytes::from)
        } else {
            Some(page.kept())
        }
    }

    /// The answer for a kept page, as the call gives it (`304` when revalidated with its tag);
    /// `None` when it cannot be decompressed (never expected: the call answers then).
    fn respond(&self, page: Finished, if_none_match: Option<&str>) -> Option<Response> {
        let mut resp = Response::default();
        let headers = resp.headers_mut();
        headers.insert(CACHE_CONTROL, HeaderValue::from_static(http_cache::POLICY));
        let etag = page.etag()?;
        if if_none_match.is_some_and(|v| etag.to_str().is_ok_and(|tag| http_cache::names(v, tag))) {
            headers.insert(ETAG, etag);
            resp.set_status(StatusCode::NOT_MODIFIED);
            return Some(resp);
        }
        let body = self.body(&page)?;
        let headers = resp.headers_mut();
        // What `poem::web::Json`, which the call answers with, sets.
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json; charset=utf-8"));
        headers.insert(ETAG, etag);
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
                let mut sources = Sources::default();
                sources.note(&CatalogQuestion::Product(product.id.clone()), [&product]);
                let Ok(body) = crate::catalog::product_answer(product).into_body().into_bytes().await else { continue };
                let question = Question::Product(Cow::Owned(id));
                if let Some(page) = this.finished(&question, generation, &sources, &body) {
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
    let uri = req.uri();
    let question = if req.method() == Method::GET { question(uri.path(), path_and_query(uri)) } else { None };
    let Some(question) = question else { return next.call(req).await.map(IntoResponse::into_response) };
    if let Some(resp) = pages.fresh_response(&question, &req) {
        return Ok(resp);
    }
    let question = question.into_owned();
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

/// Gives a fresh kept answer to a request addressed under `mount` (where the API is served,
/// `/api`) before any route is matched; any other request goes on to `next` as it came. The
/// answer is the one [`serve`] would give under the mount: a kept answer is `200` or `304`, which
/// no layer between the mount and [`serve`] changes.
///
/// # Errors
/// Those of `next`.
pub async fn serve_ahead<E: Endpoint>(
    next: E,
    req: Request,
    pages: &ResponseCache,
    mount: &str,
) -> poem::Result<Response> {
    if req.method() == Method::GET {
        let uri = req.uri();
        let under = uri.path().strip_prefix(mount).zip(path_and_query(uri).strip_prefix(mount));
        if let Some(resp) = under
            .and_then(|(path, path_and_query)| question(path, path_and_query))
            .and_then(|question| pages.fresh_response(&question, &req))
        {
            return Ok(resp);
        }
    }
    next.call(req).await.map(IntoResponse::into_response)
}

fn path_and_query(uri: &poem::http::Uri) -> &str {
    uri.path_and_query().map_or_else(|| uri.path(), poem::http::uri::PathAndQuery::as_str)
}

/// The kept answer a request asks for (its path, and its path with the query): a product by a
/// plain id, or one of the other catalog calls, whose answers depend on their path and query alone
/// (no session, no header).
fn question<'a>(path: &'a str, path_and_query: &'a str) -> Option<Question<'a>> {
    if let Some(id) = path.strip_prefix(PREFIX) {
        return plain(id).then_some(Question::Product(Cow::Borrowed(id)));
    }
    let listing = matches!(
        path,
        "/get/category" | "/get/brand/oem" | "/get/new-products" | "/get/suggestion" | "/get/productBySearch"
    ) || path.starts_with("/get/product/")
        || path.starts_with("/get/productByOem/");
    listing.then_some(Question::Listing(Cow::Borrowed(path_and_query)))
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
/// core; meanwhile products are kept as they are asked for. Forgets (stock changes, described
/// catalog changes) move no generation: they forget only the answers they name.
pub fn spawn_warmer(pages: &Arc<ResponseCache>, poll: std::time::Duration) {
    let weak = Arc::downgrade(pages);
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(poll);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut seen: Option<u64> = None;
        let mut since = tokio::time::Instant::now();
        let mut rested_until = tokio::time::Instant::now();
        loop {
            ticks.tick().await;
            let Some((generation, warmed)) = weak.upgrade().map(|p| (p.generation(), p.warmed.load(Ordering::Acquire)))
            else {
                break;
            };
            if generation != seen {
                seen = generation;
                since = tokio::time::Instant::now();
            }
            let Some(generation) = generation.filter(|g| *g != warmed) else { continue };
            if since.elapsed() < WARM_AFTER || tokio::time::Instant::now() < rested_until {
                continue;
            }
            let started = tokio::time::Instant::now();
            let outcome = ResponseCache::warm(&weak).await;
            rested_until = tokio::time::Instant::now() + started.elapsed() * WARM_SHARE;
            match outcome {
                Ok(Warmed::All(n)) => {
                    tracing::debug!(products = n, "response cache: warmed");
                    if let Some(pages) = weak.upgrade() {
                        pages.warmed.store(generation, Ordering::Release);
                    }
                }
                Ok(Warmed::Full(n)) => {
                    tracing::info!(
                        products = n,
                        "response cache: full before every product was read (MARQUE_READY_PRODUCT_ANSWERS_MB)"
                    );
                    if let Some(pages) = weak.upgrade() {
                        pages.warmed.store(generation, Ordering::Release);
                    }
                }
                // The catalog changed meanwhile: warmed again once it settles.
                Ok(Warmed::Interrupted) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "response cache: warming failed; they fill as products are asked for");
                    if let Some(pages) = weak.upgrade() {
                        pages.warmed.store(generation, Ordering::Release);
                    }
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
    fn a_question_is_read_from_the_path_without_copying_it() {
        let product = question("/get/productById/p000042", "/get/productById/p000042?x=1");
        assert!(matches!(product, Some(Question::Product(Cow::Borrowed("p000042")))));
        let listing = question("/get/product/brakes", "/get/product/brakes?oem=bmw&page=2");
        assert!(matches!(listing, Some(Question::Listing(Cow::Borrowed("/get/product/brakes?oem=bmw&page=2")))));
        assert!(question("/get/productById/p%2042", "/get/productById/p%2042").is_none(), "not a plain id");
        assert!(question("/get/wishlist", "/get/wishlist").is_none(), "a customer's answer is never kept");
        assert!(question("x/get/category", "x/get/category").is_none(), "under another mount");
    }

    #[test]
    fn packed_answers_come_back_byte_for_byte_in_a_fraction_of_the_bytes() {
        let mut samples = Samples::default();
        for n in 0..DICTIONARY_SAMPLES as u32 {
            let body = answer(n * 7);
            samples.bytes.extend_from_slice(body.as_bytes());
            samples.sizes.push(body.len());
        }
        let dictionary = samples.dictionary();
        assert!(dictionary.len() <= DICTIONARY_BYTES && dictionary.starts_with(&[0x37, 0xa4, 0x30, 0xec]), "trained");
        let packing = Packing::new(&dictionary);
        for n in [5, 500, 123_456] {
            let body = answer(n);
            let packed = packing.pack(body.as_bytes()).expect("packs");
            assert!(packed.len() * 3 < body.len() * 2, "{} of {} bytes", packed.len(), body.len());
            assert_eq!(zstd_safe::get_dict_id_from_frame(&packed), None, "no dictionary id in the frame");
            assert_eq!(packing.unpack(&packed).as_deref(), Some(body.as_bytes()));
        }
        assert_eq!(packing.unpack(b"not a zstd frame"), None);
        let few = Samples { bytes: b"{}".to_vec(), sizes: vec![2] };
        assert_eq!(few.dictionary(), b"{}", "too few to train on: the samples as they are");
    }
}
