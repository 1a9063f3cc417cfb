//! A [`CatalogStore`] that remembers the answers of another one, and forgets them as
//! soon as what they were made of changes anywhere.
//!
//! The catalog is read far more than it is written, and every storefront read is one
//! of a small number of questions (a product, a page of a listing, a page of a search).
//! [`CachedCatalogStore`] keeps each answer, keyed by its exact question, in a cache
//! bounded by an estimate of its bytes. Whoever owns the cache calls
//! [`CachedCatalogStore::refresh`] every ~200 ms ([`spawn_poller`] does, on a timer), which
//! reads the store's [`catalog_version`](CatalogChanges::catalog_version) through the
//! [`CatalogChanges`] port of the same database:
//! - when its `version` moved (a write that does not say what it changed: the seed, the
//!   command line's), the whole cache is cleared;
//! - when only stock changed (a reservation, a release, an order, by any process sharing
//!   the database), the answers holding one of the changed products are forgotten, with
//!   every answer ranked by sales. Nothing else in an answer depends on stock: listings
//!   and searches choose and order their products by what only the shop's writes change;
//! - for each new [`CatalogChange`] (a back-office write, docs/adr/0018), the answers it names
//!   are forgotten: those holding a product it names, and those whose question it names (a
//!   listing the product entered or left, a search its name or numbers may change, …).
//!
//! A write made through this store clears the cache at once.
//!
//! Exactness: an answer is the inner store's answer to the same question, so order,
//! counts and windows are the store's. Guards keep a stale answer from surviving:
//! - an answer read while the cache was clearing or forgetting is not kept (a counter,
//!   checked and inserted under the same lock the clear and the forget take);
//! - answers are only served while the version was confirmed recently
//!   ([`CachedCatalogStore::with_max_staleness`], 1 s by default): if the poller stops
//!   (a stalled task, a database that cannot be read), reads go to the store;
//! - a poll that comes more than half of [`STOCK_CHANGE_WINDOW`] after the previous one
//!   clears everything, since stock changes may have left the window unseen.
//!
//! Readers that keep something derived from the answers (serialised responses) follow
//! them with [`CachedCatalogStore::answering_stamp`], [`CachedCatalogStore::noting_sources`],
//! [`CachedCatalogStore::keep_unless_forgotten`] and [`CachedCatalogStore::on_forget`].
//!
//! An adapter of ports only: it decorates any [`CatalogStore`] and listens to any
//! [`CatalogChanges`]; it knows no database and no use case.

mod poller;

pub use poller::spawn_poller;

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use marque_domain::catalog::{Category, OemBrand, Product, ProductId};
use marque_ports::{
    CatalogChange, CatalogChanges, CatalogStore, CatalogStoreError, CatalogVersion, FollowedCatalog, ForgetHook,
    NotedRead, ProductListing, ProductQuery, ProductSlice, ProductStamp, Question, STOCK_CHANGE_WINDOW,
};
pub use marque_ports::{Forgotten, Sources, Stamp};

/// One cached answer.
#[derive(Debug, Clone)]
enum Answer {
    Brands(Arc<Vec<OemBrand>>),
    Categories(Arc<Vec<Category>>),
    Product(Option<Arc<Product>>),
    Products(Arc<Vec<Product>>),
    Slice(Arc<ProductSlice>),
    Count(u64),
}

/// An answer with its estimated size in bytes, computed once when it is stored, and its question.
#[derive(Debug, Clone)]
struct Entry {
    bytes: u64,
    question: Arc<Question>,
    answer: Answer,
}

/// Notes `answer`, the answer to `question`, in `sources`.
fn note(sources: &mut Sources, question: &Question, answer: &Answer) {
    let mut held = Vec::new();
    answer.for_each_product(|p| held.push(p));
    sources.note(question, held);
}

tokio::task_local! {
    /// The sources of the answers given while a [`CachedCatalogStore::noting_sources`] runs.
    static NOTED: RefCell<Sources>;
}

/// What a [`CachedCatalogStore::refresh`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refreshed {
    /// Nothing changed.
    Unchanged,
    /// Everything was forgotten (the version moved, or it is the first refresh).
    Cleared,
    /// Stock or described catalog changes: the answers they name were forgotten.
    Forgot(Forgotten),
}

#[derive(Debug, Clone, Copy)]
struct ByBytes;

impl quick_cache::Weighter<String, Entry> for ByBytes {
    fn weight(&self, key: &String, entry: &Entry) -> u64 {
        key.len() as u64 + entry.bytes
    }
}

/// Bytes a product holds, roughly: the struct and the text it owns.
fn product_bytes(p: &Product) -> u64 {
    let text = p.id.0.len()
        + p.name.len()
        + p.images
            .iter()
            .map(|i| i.name.len() + 64 + i.variants.iter().map(|v| v.name.len() + 40).sum::<usize>())
            .sum::<usize>()
        + p.description.len()
        + p.category.len()
        + p.category_slug.len()
        + p.subcategory.len()
        + p.subcategory_slug.len()
        + p.oem.len()
        + p.oem_slug.len()
        + p.variant.len()
        + p.part_no.printed().len()
        + p.part_no.normalized().len();
    (std::mem::size_of::<Product>() + text) as u64
}

fn products_bytes(products: &[Product]) -> u64 {
    products.iter().map(product_bytes).sum::<u64>() + 32
}

impl Answer {
    fn bytes(&self) -> u64 {
        let overhead = 64;
        overhead
            + match self {
                Answer::Brands(b) => {
                    b.iter().map(|b| (b.id.len() + b.name.len() + b.slug.len() + b.image.len() + 96) as u64).sum()
                }
                Answer::Categories(c) => c
                    .iter()
                    .map(|c| {
                        (c.id.len() + c.name.len() + c.slug.len() + 96) as u64
                            + c.subcategories
                                .iter()
                                .map(|s| (s.id.len() + s.name.len() + s.slug.len() + 72) as u64)
                                .sum::<u64>()
                    })
                    .sum(),
                Answer::Product(p) => p.as_deref().map_or(0, product_bytes),
                Answer::Products(p) => products_bytes(p),
                Answer::Slice(s) => products_bytes(&s.products),
                Answer::Count(_) => 0,
            }
    }

    fn for_each_product<'a>(&'a self, mut f: impl FnMut(&'a Product)) {
        match self {
            Answer::Product(Some(p)) => f(p),
            Answer::Products(p) => p.iter().for_each(f),
            Answer::Slice(s) => s.products.iter().for_each(f),
            Answer::Brands(_) | Answer::Categories(_) | Answer::Product(None) | Answer::Count(_) => {}
        }
    }

    fn holds_stale(&self, forgotten: &Forgotten) -> bool {
        let mut found = false;
        self.for_each_product(|p| found = found || forgotten.holds_stale(p));
        found
    }
}

/// What the poller last learned of the store's version.
#[derive(Debug, Default)]
struct Seen {
    version: Option<u64>,
    /// When the version was last read successfully.
    confirmed_at: Option<Instant>,
    /// The stock changes listed at that read (already acted on).
    stock_changes: HashSet<String>,
    /// The catalog changes listed at that read (already acted on).
    catalog_changes: HashSet<String>,
}

/// A [`CatalogStore`] that caches the reads of `inner`; see the module documentation.
pub struct CachedCatalogStore {
    inner: Arc<dyn CatalogStore>,
    /// How `inner`'s catalog moves: polled by [`CachedCatalogStore::refresh`].
    changes: Arc<dyn CatalogChanges>,
    cache: quick_cache::sync::Cache<String, Entry, ByBytes>,
    /// Moves on every clear.
    generation: AtomicU64,
    /// Moves on every clear and every forget; an answer read under an older count is not kept.
    forgets: AtomicU64,
    /// Held shared while an answer is checked and stored, exclusively while clearing or forgetting.
    clearing: RwLock<()>,
    seen: Mutex<Seen>,
    max_staleness: Duration,
    forget_hooks: RwLock<Vec<ForgetHook>>,
}

impl std::fmt::Debug for CachedCatalogStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CachedCatalogStore")
            .field("entries", &self.cache.len())
            .field("bytes", &self.cache.weight())
            .field("generation", &self.generation.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl CachedCatalogStore {
    /// Caches the reads of `inner` in at most about `capacity_bytes` of memory, forgetting
    /// them as `changes` (the catalog changes of `inner`'s database) tells.
    ///
    /// Nothing is served from the cache until the first [`refresh`](Self::refresh)
    /// has read the store's version.
    #[must_use]
    pub fn new(inner: Arc<dyn CatalogStore>, changes: Arc<dyn CatalogChanges>, capacity_bytes: u64) -> Self {
        // quick_cache sizes its tables from an item estimate: ~2 KB an answer.
        let estimated_items = usize::try_from((capacity_bytes / 2048).clamp(64, 1 << 20)).unwrap_or(1 << 20);
        Self {
            inner,
            changes,
            cache: quick_cache::sync::Cache::with_weighter(estimated_items, capacity_bytes.max(1), ByBytes),
            generation: AtomicU64::new(0),
            forgets: AtomicU64::new(0),
            clearing: RwLock::new(()),
            seen: Mutex::new(Seen::default()),
            max_staleness: Duration::from_secs(1),
            forget_hooks: RwLock::new(Vec::new()),
        }
    }

    /// How long after the last successful [`refresh`](Self::refresh) the cache may still
    /// answer (1 s by default); later, reads go to the store until a refresh succeeds.
    #[must_use]
    pub fn with_max_staleness(mut self, max_staleness: Duration) -> Self {
        self.max_staleness = max_staleness;
        self
    }

    /// Reads the store's version: clears the cache when it moved, forgets what new stock
    /// changes and catalog changes name otherwise. Call it every ~200 ms.
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the version cannot be read; the cache
    /// is cleared then too, and stops answering until a refresh succeeds.
    pub async fn refresh(&self) -> Result<Refreshed, CatalogStoreError> {
        // The answer reflects the store as of at least this instant.
        let asked_at = Instant::now();
        match self.changes.catalog_version().await {
            Ok(read) => {
                let refreshed = self.seen_now(read, asked_at);
                match &refreshed {
                    Refreshed::Cleared => self.clear(),
                    Refreshed::Forgot(forgotten) => self.forget(forgotten),
                    Refreshed::Unchanged => {}
                }
                Ok(refreshed)
            }
            Err(e) => {
                *self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Seen::default();
                self.clear();
                Err(e)
            }
        }
    }

    /// Records a version read at `asked_at` and tells what it asks to forget.
    fn seen_now(&self, read: CatalogVersion, asked_at: Instant) -> Refreshed {
        let mut seen = self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // Stock changes stay listed for STOCK_CHANGE_WINDOW: after a longer silence some may be gone unseen.
        let silent =
            seen.confirmed_at.is_none_or(|at| asked_at.saturating_duration_since(at) > STOCK_CHANGE_WINDOW / 2);
        let moved = seen.version != Some(read.version) || silent;
        let mut forgotten = Forgotten::default();
        let mut listed = HashSet::with_capacity(read.stock_changes.len());
        for change in read.stock_changes {
            if !moved && !seen.stock_changes.contains(&change.id) {
                forgotten.stock.extend(change.products);
            }
            listed.insert(change.id);
        }
        let mut described = HashSet::with_capacity(read.catalog_changes.len());
        for change in read.catalog_changes {
            if !moved && !seen.catalog_changes.contains(&change.id) {
                described.insert(change.id.clone());
                forgotten.changes.push(change);
            } else {
                described.insert(change.id);
            }
        }
        *seen = Seen {
            version: Some(read.version),
            confirmed_at: Some(asked_at),
            stock_changes: listed,
            catalog_changes: described,
        };
        if moved {
            Refreshed::Cleared
        } else if forgotten.is_empty() {
            Refreshed::Unchanged
        } else {
            Refreshed::Forgot(forgotten)
        }
    }

    /// Forgets every answer.
    pub fn clear(&self) {
        let _exclusive = self.clearing.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.forgets.fetch_add(1, Ordering::AcqRel);
        self.cache.clear();
    }

    /// Forgets the answers holding any of `products`, and those ranked by sales (a stock change).
    pub fn forget_stock(&self, products: &HashSet<ProductId>) {
        self.forget(&Forgotten { stock: products.clone(), changes: Vec::new() });
    }

    /// Forgets the answers `change` names (a described catalog write).
    pub fn forget_change(&self, change: CatalogChange) {
        self.forget(&Forgotten { stock: HashSet::new(), changes: vec![change] });
    }

    /// Forgets the answers `forgotten` names (whose question it names, or that hold a product
    /// it names); then tells the [`on_forget`](Self::on_forget) hooks, under the same lock.
    pub fn forget(&self, forgotten: &Forgotten) {
        let _exclusive = self.clearing.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        self.forgets.fetch_add(1, Ordering::AcqRel);
        self.cache.retain(|_, entry| !forgotten.asks_stale(&entry.question) && !entry.answer.holds_stale(forgotten));
        for hook in self.forget_hooks.read().unwrap_or_else(std::sync::PoisonError::into_inner).iter() {
            hook(forgotten);
        }
    }

    /// Calls `hook` with what every forget covers, while the forget holds its lock: a reader
    /// keeping something made of answers removes what is made of a stale one
    /// ([`Sources::stale_after`]). The hook must not call back into this cache.
    pub fn on_forget(&self, hook: impl Fn(&Forgotten) + Send + Sync + 'static) {
        self.forget_hooks.write().unwrap_or_else(std::sync::PoisonError::into_inner).push(Box::new(hook));
    }

    /// Runs `read` and gives, with its output, the [`Sources`] of every answer this cache (or its
    /// store, past it) gave meanwhile on this task.
    pub async fn noting_sources<F: std::future::Future>(read: F) -> (F::Output, Sources) {
        NOTED
            .scope(RefCell::new(Sources::default()), async move {
                let output = read.await;
                (output, NOTED.with(RefCell::take))
            })
            .await
    }

    /// Runs `keep` (which stores something made of answers read since `stamp` was taken) unless
    /// the cache cleared or forgot anything since, under the lock a clear and a forget take: what
    /// `keep` stores is then either refused here or seen by the next forget. Returns whether it ran.
    pub fn keep_unless_forgotten(&self, stamp: Stamp, keep: impl FnOnce()) -> bool {
        let _shared = self.clearing.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        if self.forgets.load(Ordering::Acquire) != stamp.forgets {
            return false;
        }
        keep();
        true
    }

    /// Number of answers held, and their estimated bytes.
    #[must_use]
    pub fn usage(&self) -> (usize, u64) {
        (self.cache.len(), self.cache.weight())
    }

    /// Whether the version was confirmed recently enough to answer from the cache.
    fn trusted(&self) -> bool {
        let seen = self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        seen.confirmed_at.is_some_and(|at| at.elapsed() <= self.max_staleness)
    }

    /// The cached answer to `key`, or `load`'s, kept when no clear happened meanwhile.
    ///
    /// Concurrent misses of one key wait for a single load (the first caller's) instead
    /// of all asking the store: under load a slow answer is computed once.
    async fn answer<F>(&self, question: Question, load: F) -> Result<Answer, CatalogStoreError>
    where
        F: std::future::Future<Output = Result<Answer, CatalogStoreError>>,
    {
        let question = Arc::new(question);
        let answer = self.cached_or_loaded(&question, load).await?;
        let _ = NOTED.try_with(|noted| note(&mut noted.borrow_mut(), &question, &answer));
        Ok(answer)
    }

    async fn cached_or_loaded<F>(&self, question: &Arc<Question>, load: F) -> Result<Answer, CatalogStoreError>
    where
        F: std::future::Future<Output = Result<Answer, CatalogStoreError>>,
    {
        if !self.trusted() {
            metrics::counter!("marque_catalog_cache_total", "outcome" => "bypass").increment(1);
            return load.await;
        }
        let key = key_of(question);
        match self.cache.get_value_or_guard_async(&key).await {
            Ok(entry) => {
                metrics::counter!("marque_catalog_cache_total", "outcome" => "hit").increment(1);
                Ok(entry.answer)
            }
            Err(guard) => {
                metrics::counter!("marque_catalog_cache_total", "outcome" => "miss").increment(1);
                let forgets = self.forgets.load(Ordering::Acquire);
                // On an error the guard drops unfilled, and a waiting caller loads instead.
                let answer = load.await?;
                let _shared = self.clearing.read().unwrap_or_else(std::sync::PoisonError::into_inner);
                if self.forgets.load(Ordering::Acquire) == forgets {
                    let entry = Entry { bytes: answer.bytes(), question: question.clone(), answer: answer.clone() };
                    let _ = guard.insert(entry);
                }
                Ok(answer)
            }
        }
    }

    /// The generation of the answers the cache gives right now; `None` while it gives none
    /// (the version was not confirmed recently). It moves on every clear (not on a forget),
    /// so something made from answers read while it was `g` is as fresh as they are for as
    /// long as it still is `g`, and no forget removed it.
    #[must_use]
    pub fn answering_generation(&self) -> Option<u64> {
        self.answering_stamp().map(|stamp| stamp.generation)
    }

    /// What a reader must take *before* it reads answers to keep something made of them: the
    /// generation, and the count of forgets [`keep_unless_forgotten`](Self::keep_unless_forgotten)
    /// checks. `None` while the cache gives no answers.
    #[must_use]
    pub fn answering_stamp(&self) -> Option<Stamp> {
        self.trusted().then(|| Stamp {
            // Forgets first: a clear between the two loads makes the stamp's count old, never new.
            forgets: self.forgets.load(Ordering::Acquire),
            generation: self.generation.load(Ordering::Acquire),
        })
    }

    /// A write through this store: the cache forgets everything, whatever the outcome.
    fn written<T>(&self, outcome: Result<T, CatalogStoreError>) -> Result<T, CatalogStoreError> {
        self.clear();
        outcome
    }
}

/// The cache's key of a question: its kind and arguments, written out.
fn key_of(question: &Question) -> String {
    match question {
        Question::Brands => "brands".to_owned(),
        Question::Categories => "categories".to_owned(),
        Question::Count => "count".to_owned(),
        Question::Product(id) => format!("product\0{}", id.as_str()),
        Question::Newest(limit) => format!("newest\0{limit}"),
        Question::BestSelling(limit) => format!("best\0{limit}"),
        Question::Search(query) => format!("search\0{query:?}"),
        Question::Listing(listing) => format!("list\0{listing:?}"),
    }
}

/// The inner store gave an answer of another kind than asked for: impossible, since
/// each key prefix only ever holds one kind; treated as a store failure.
fn mismatch() -> CatalogStoreError {
    CatalogStoreError::Unavailable { reason: "catalog cache: answer of an unexpected kind".into() }
}

impl FollowedCatalog for CachedCatalogStore {
    fn answering_generation(&self) -> Option<u64> {
        CachedCatalogStore::answering_generation(self)
    }

    fn answering_stamp(&self) -> Option<Stamp> {
        CachedCatalogStore::answering_stamp(self)
    }

    fn keep_unless_forgotten(&self, stamp: Stamp, keep: &mut dyn FnMut()) -> bool {
        CachedCatalogStore::keep_unless_forgotten(self, stamp, keep)
    }

    fn on_forget(&self, hook: ForgetHook) {
        CachedCatalogStore::on_forget(self, hook);
    }

    fn noting_sources<'a>(
        &'a self,
        read: NotedRead<'a>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Sources> + Send + 'a>> {
        Box::pin(async move { CachedCatalogStore::noting_sources(read).await.1 })
    }
}

#[async_trait]
impl CatalogStore for CachedCatalogStore {
    async fn put_brands(&self, brands: &[OemBrand]) -> Result<(), CatalogStoreError> {
        let outcome = self.inner.put_brands(brands).await;
        self.written(outcome)
    }

    async fn put_categories(&self, categories: &[Category]) -> Result<(), CatalogStoreError> {
        let outcome = self.inner.put_categories(categories).await;
        self.written(outcome)
    }

    async fn add_products(&self, products: &[Product]) -> Result<(), CatalogStoreError> {
        let outcome = self.inner.add_products(products).await;
        self.written(outcome)
    }

    async fn brands(&self) -> Result<Vec<OemBrand>, CatalogStoreError> {
        let load = async { Ok::<_, CatalogStoreError>(Answer::Brands(Arc::new(self.inner.brands().await?))) };
        match self.answer(Question::Brands, load).await? {
            Answer::Brands(b) => Ok(b.as_ref().clone()),
            _ => Err(mismatch()),
        }
    }

    async fn categories(&self) -> Result<Vec<Category>, CatalogStoreError> {
        let load = async { Ok::<_, CatalogStoreError>(Answer::Categories(Arc::new(self.inner.categories().await?))) };
        match self.answer(Question::Categories, load).await? {
            Answer::Categories(c) => Ok(c.as_ref().clone()),
            _ => Err(mismatch()),
        }
    }

    async fn product(&self, id: &ProductId) -> Result<Option<Product>, CatalogStoreError> {
        let load = async { Ok::<_, CatalogStoreError>(Answer::Product(self.inner.product(id).await?.map(Arc::new))) };
        match self.answer(Question::Product(id.clone()), load).await? {
            Answer::Product(p) => Ok(p.as_deref().cloned()),
            _ => Err(mismatch()),
        }
    }

    async fn newest_products(&self, limit: u32) -> Result<Vec<Product>, CatalogStoreError> {
        let load =
            async { Ok::<_, CatalogStoreError>(Answer::Products(Arc::new(self.inner.newest_products(limit).await?))) };
        match self.answer(Question::Newest(limit), load).await? {
            Answer::Products(p) => Ok(p.as_ref().clone()),
            _ => Err(mismatch()),
        }
    }

    async fn best_selling_products(&self, limit: u32) -> Result<Vec<Product>, CatalogStoreError> {
        let load = async {
            Ok::<_, CatalogStoreError>(Answer::Products(Arc::new(self.inner.best_selling_products(limit).await?)))
        };
        match self.answer(Question::BestSelling(limit), load).await? {
            Answer::Products(p) => Ok(p.as_ref().clone()),
            _ => Err(mismatch()),
        }
    }

    async fn search(&self, query: &ProductQuery) -> Result<ProductSlice, CatalogStoreError> {
        let load = async { Ok::<_, CatalogStoreError>(Answer::Slice(Arc::new(self.inner.search(query).await?))) };
        match self.answer(Question::Search(query.clone()), load).await? {
            Answer::Slice(s) => Ok(s.as_ref().clone()),
            _ => Err(mismatch()),
        }
    }

    async fn list_products(&self, listing: &ProductListing) -> Result<ProductSlice, CatalogStoreError> {
        let load =
            async { Ok::<_, CatalogStoreError>(Answer::Slice(Arc::new(self.inner.list_products(listing).await?))) };
        match self.answer(Question::Listing(listing.clone()), load).await? {
            Answer::Slice(s) => Ok(s.as_ref().clone()),
            _ => Err(mismatch()),
        }
    }

    async fn count_products(&self) -> Result<u64, CatalogStoreError> {
        let load = async { Ok::<_, CatalogStoreError>(Answer::Count(self.inner.count_products().await?)) };
        match self.answer(Question::Count, load).await? {
            Answer::Count(n) => Ok(n),
            _ => Err(mismatch()),
        }
    }

    /// Not cached: the sitemap walks every product once, and keeping that walk would
    /// only push the storefront's answers out.
    async fn product_stamps(
        &self,
        after: Option<ProductId>,
        limit: u32,
    ) -> Result<Vec<ProductStamp>, CatalogStoreError> {
        self.inner.product_stamps(after, limit).await
    }

    /// Not cached either: it walks the whole catalog once, for readers that keep their own copy.
    async fn products_after(&self, after: Option<ProductId>, limit: u32) -> Result<Vec<Product>, CatalogStoreError> {
        self.inner.products_after(after, limit).await
    }
}

#[cfg(test)]
mod tests;
