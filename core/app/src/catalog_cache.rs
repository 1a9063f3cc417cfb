//! A [`CatalogStore`] that remembers the answers of another one, and forgets them as
//! soon as what they were made of changes anywhere.
//!
//! The catalog is read far more than it is written, and every storefront read is one
//! of a small number of questions (a product, a page of a listing, a page of a search).
//! [`CachedCatalogStore`] keeps each answer, keyed by its exact question, in a cache
//! bounded by an estimate of its bytes. Whoever owns the cache calls
//! [`CachedCatalogStore::refresh`] every ~200 ms (the server does, on a timer), which reads
//! the store's [`catalog_version`](CatalogStore::catalog_version):
//! - when its `version` moved (a brand, category or product was written), the whole cache
//!   is cleared;
//! - when only stock changed (a reservation, a release, an order, by any process sharing
//!   the database), the answers holding one of the changed products are forgotten, with
//!   every answer ranked by sales. Nothing else in an answer depends on stock: listings
//!   and searches choose and order their products by what only the shop's writes change.
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
//! [`CachedCatalogStore::keep_unless_forgotten`] and [`CachedCatalogStore::on_stock_forget`].

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use marque_domain::catalog::{Category, OemBrand, Product, ProductId};
use marque_ports::{
    CatalogStore, CatalogStoreError, CatalogVersion, ProductListing, ProductQuery, ProductSlice, ProductStamp, STOCK_CHANGE_WINDOW,
};

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

/// An answer with its estimated size in bytes, computed once when it is stored.
#[derive(Debug, Clone)]
struct Entry {
    bytes: u64,
    /// Ranked by units sold: forgotten on any stock change.
    by_sales: bool,
    answer: Answer,
}

/// Which products an answer (or a response made of answers) was made of.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    /// Every product the answers held.
    pub products: HashSet<ProductId>,
    /// An answer was ranked by units sold (the best sellers): any stock change may reorder it.
    pub by_sales: bool,
}

impl Sources {
    /// Whether a stock change of `changed` makes what was made of these sources stale.
    #[must_use]
    pub fn touched_by(&self, changed: &HashSet<ProductId>) -> bool {
        self.by_sales || changed.iter().any(|id| self.products.contains(id))
    }

    fn note(&mut self, answer: &Answer, by_sales: bool) {
        self.by_sales |= by_sales;
        answer.for_each_product(|id| {
            if !self.products.contains(id) {
                self.products.insert(id.clone());
            }
        });
    }
}

tokio::task_local! {
    /// The sources of the answers given while a [`CachedCatalogStore::noting_sources`] runs.
    static NOTED: RefCell<Sources>;
}

/// What a reader of the cache saw when it started reading: see [`CachedCatalogStore::answering_stamp`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// Moves on every clear.
    pub generation: u64,
    /// Moves on every clear and every stock forget.
    forgets: u64,
}

/// What a [`CachedCatalogStore::refresh`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refreshed {
    /// Nothing changed.
    Unchanged,
    /// Everything was forgotten (the version moved, or it is the first refresh).
    Cleared,
    /// Only stock changed: the answers holding these products, and those ranked by sales,
    /// were forgotten.
    Forgot(HashSet<ProductId>),
}

/// Called with the products of each stock forget, under the forget's lock.
type ForgetHook = Box<dyn Fn(&HashSet<ProductId>) + Send + Sync>;

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
        + p.images.iter().map(|i| i.len() + 24).sum::<usize>()
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
                Answer::Brands(b) => b.iter().map(|b| (b.id.len() + b.name.len() + b.slug.len() + b.image.len() + 96) as u64).sum(),
                Answer::Categories(c) => c
                    .iter()
                    .map(|c| {
                        (c.id.len() + c.name.len() + c.slug.len() + 96) as u64
                            + c.subcategories.iter().map(|s| (s.id.len() + s.name.len() + s.slug.len() + 72) as u64).sum::<u64>()
                    })
                    .sum(),
                Answer::Product(p) => p.as_deref().map_or(0, product_bytes),
                Answer::Products(p) => products_bytes(p),
                Answer::Slice(s) => products_bytes(&s.products),
                Answer::Count(_) => 0,
            }
    }

    fn for_each_product(&self, mut f: impl FnMut(&ProductId)) {
        match self {
            Answer::Product(Some(p)) => f(&p.id),
            Answer::Products(p) => p.iter().for_each(|p| f(&p.id)),
            Answer::Slice(s) => s.products.iter().for_each(|p| f(&p.id)),
            Answer::Brands(_) | Answer::Categories(_) | Answer::Product(None) | Answer::Count(_) => {}
        }
    }

    fn mentions(&self, changed: &HashSet<ProductId>) -> bool {
        let mut found = false;
        self.for_each_product(|id| found |= changed.contains(id));
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
}

/// A [`CatalogStore`] that caches the reads of `inner`; see the module documentation.
pub struct CachedCatalogStore {
    inner: Arc<dyn CatalogStore>,
    cache: quick_cache::sync::Cache<String, Entry, ByBytes>,
    /// Moves on every clear.
    generation: AtomicU64,
    /// Moves on every clear and every stock forget; an answer read under an older count is not kept.
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
    /// Caches the reads of `inner` in at most about `capacity_bytes` of memory.
    ///
    /// Nothing is served from the cache until the first [`refresh`](Self::refresh)
    /// has read the store's version.
    #[must_use]
    pub fn new(inner: Arc<dyn CatalogStore>, capacity_bytes: u64) -> Self {
        // quick_cache sizes its tables from an item estimate: ~2 KB an answer.
        let estimated_items = usize::try_from((capacity_bytes / 2048).clamp(64, 1 << 20)).unwrap_or(1 << 20);
        Self {
            inner,
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

    /// Reads the store's version: clears the cache when it moved, forgets the answers holding
    /// the products of new stock changes otherwise. Call it every ~200 ms.
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the version cannot be read; the cache
    /// is cleared then too, and stops answering until a refresh succeeds.
    pub async fn refresh(&self) -> Result<Refreshed, CatalogStoreError> {
        // The answer reflects the store as of at least this instant.
        let asked_at = Instant::now();
        match self.inner.catalog_version().await {
            Ok(read) => {
                let refreshed = self.seen_now(read, asked_at);
                match &refreshed {
                    Refreshed::Cleared => self.clear(),
                    Refreshed::Forgot(products) => self.forget_stock(products),
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
        let silent = seen.confirmed_at.is_none_or(|at| asked_at.saturating_duration_since(at) > STOCK_CHANGE_WINDOW / 2);
        let moved = seen.version != Some(read.version) || silent;
        let mut changed = HashSet::new();
        let mut listed = HashSet::with_capacity(read.stock_changes.len());
        for change in read.stock_changes {
            if !moved && !seen.stock_changes.contains(&change.id) {
                changed.extend(change.products);
            }
            listed.insert(change.id);
        }
        *seen = Seen { version: Some(read.version), confirmed_at: Some(asked_at), stock_changes: listed };
        if moved {
            Refreshed::Cleared
        } else if changed.is_empty() {
            Refreshed::Unchanged
        } else {
            Refreshed::Forgot(changed)
        }
    }

    /// Forgets every answer.
    pub fn clear(&self) {
        let _exclusive = self.clearing.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.forgets.fetch_add(1, Ordering::AcqRel);
        self.cache.clear();
    }

    /// Forgets the answers holding any of `products`, and those ranked by sales; then tells
    /// the [`on_stock_forget`](Self::on_stock_forget) hooks, under the same lock.
    pub fn forget_stock(&self, products: &HashSet<ProductId>) {
        let _exclusive = self.clearing.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        self.forgets.fetch_add(1, Ordering::AcqRel);
        self.cache.retain(|_, entry| !entry.by_sales && !entry.answer.mentions(products));
        for hook in self.forget_hooks.read().unwrap_or_else(std::sync::PoisonError::into_inner).iter() {
            hook(products);
        }
    }

    /// Calls `hook` with the products of every stock forget, while the forget holds its lock:
    /// a reader keeping something made of answers removes what holds those products (and what
    /// was ranked by sales). The hook must not call back into this cache.
    pub fn on_stock_forget(&self, hook: impl Fn(&HashSet<ProductId>) + Send + Sync + 'static) {
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
    async fn answer<F>(&self, key: String, load: F) -> Result<Answer, CatalogStoreError>
    where
        F: std::future::Future<Output = Result<Answer, CatalogStoreError>>,
    {
        let by_sales = key.starts_with(BY_SALES);
        let answer = self.cached_or_loaded(key, by_sales, load).await?;
        let _ = NOTED.try_with(|noted| noted.borrow_mut().note(&answer, by_sales));
        Ok(answer)
    }

    async fn cached_or_loaded<F>(&self, key: String, by_sales: bool, load: F) -> Result<Answer, CatalogStoreError>
    where
        F: std::future::Future<Output = Result<Answer, CatalogStoreError>>,
    {
        if !self.trusted() {
            metrics::counter!("marque_catalog_cache_total", "outcome" => "bypass").increment(1);
            return load.await;
        }
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
                    let _ = guard.insert(Entry { bytes: answer.bytes(), by_sales, answer: answer.clone() });
                }
                Ok(answer)
            }
        }
    }

    /// The generation of the answers the cache gives right now; `None` while it gives none
    /// (the version was not confirmed recently). It moves on every clear (not on a stock
    /// forget), so something made from answers read while it was `g` is as fresh as they are
    /// for as long as it still is `g`, and no stock forget removed it.
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

/// The key prefix of the answers ranked by units sold.
const BY_SALES: &str = "best\0";

/// The key of a `product` question.
fn product_key(id: &ProductId) -> String {
    format!("product\0{}", id.as_str())
}

/// The inner store gave an answer of another kind than asked for: impossible, since
/// each key prefix only ever holds one kind; treated as a store failure.
fn mismatch() -> CatalogStoreError {
    CatalogStoreError::Unavailable { reason: "catalog cache: answer of an unexpected kind".into() }
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
        match self.answer("brands".to_owned(), load).await? {
            Answer::Brands(b) => Ok(b.as_ref().clone()),
            _ => Err(mismatch()),
        }
    }

    async fn categories(&self) -> Result<Vec<Category>, CatalogStoreError> {
        let load = async { Ok::<_, CatalogStoreError>(Answer::Categories(Arc::new(self.inner.categories().await?))) };
        match self.answer("categories".to_owned(), load).await? {
            Answer::Categories(c) => Ok(c.as_ref().clone()),
            _ => Err(mismatch()),
        }
    }

    async fn product(&self, id: &ProductId) -> Result<Option<Product>, CatalogStoreError> {
        let load = async { Ok::<_, CatalogStoreError>(Answer::Product(self.inner.product(id).await?.map(Arc::new))) };
        match self.answer(product_key(id), load).await? {
            Answer::Product(p) => Ok(p.as_deref().cloned()),
            _ => Err(mismatch()),
        }
    }

    async fn newest_products(&self, limit: u32) -> Result<Vec<Product>, CatalogStoreError> {
        let load = async { Ok::<_, CatalogStoreError>(Answer::Products(Arc::new(self.inner.newest_products(limit).await?))) };
        match self.answer(format!("newest\0{limit}"), load).await? {
            Answer::Products(p) => Ok(p.as_ref().clone()),
            _ => Err(mismatch()),
        }
    }

    async fn best_selling_products(&self, limit: u32) -> Result<Vec<Product>, CatalogStoreError> {
        let load = async { Ok::<_, CatalogStoreError>(Answer::Products(Arc::new(self.inner.best_selling_products(limit).await?))) };
        match self.answer(format!("{BY_SALES}{limit}"), load).await? {
            Answer::Products(p) => Ok(p.as_ref().clone()),
            _ => Err(mismatch()),
        }
    }

    async fn search(&self, query: &ProductQuery) -> Result<ProductSlice, CatalogStoreError> {
        let load = async { Ok::<_, CatalogStoreError>(Answer::Slice(Arc::new(self.inner.search(query).await?))) };
        match self.answer(format!("search\0{query:?}"), load).await? {
            Answer::Slice(s) => Ok(s.as_ref().clone()),
            _ => Err(mismatch()),
        }
    }

    async fn list_products(&self, listing: &ProductListing) -> Result<ProductSlice, CatalogStoreError> {
        let load = async { Ok::<_, CatalogStoreError>(Answer::Slice(Arc::new(self.inner.list_products(listing).await?))) };
        match self.answer(format!("list\0{listing:?}"), load).await? {
            Answer::Slice(s) => Ok(s.as_ref().clone()),
            _ => Err(mismatch()),
        }
    }

    async fn count_products(&self) -> Result<u64, CatalogStoreError> {
        let load = async { Ok::<_, CatalogStoreError>(Answer::Count(self.inner.count_products().await?)) };
        match self.answer("count".to_owned(), load).await? {
            Answer::Count(n) => Ok(n),
            _ => Err(mismatch()),
        }
    }

    /// Not cached: the sitemap walks every product once, and keeping that walk would
    /// only push the storefront's answers out.
    async fn product_stamps(&self, after: Option<ProductId>, limit: u32) -> Result<Vec<ProductStamp>, CatalogStoreError> {
        self.inner.product_stamps(after, limit).await
    }

    /// Not cached either: it walks the whole catalog once, for readers that keep their own copy.
    async fn products_after(&self, after: Option<ProductId>, limit: u32) -> Result<Vec<Product>, CatalogStoreError> {
        self.inner.products_after(after, limit).await
    }

    async fn catalog_version(&self) -> Result<CatalogVersion, CatalogStoreError> {
        self.inner.catalog_version().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marque_ports::MockCatalogStore;

    fn version_of(version: u64) -> CatalogVersion {
        CatalogVersion { version, stock_changes: Vec::new() }
    }

    fn slice(total: u64) -> ProductSlice {
        ProductSlice { products: Vec::new(), total }
    }

    fn query(text: &str) -> ProductQuery {
        ProductQuery { text: text.into(), offset: 0, limit: 20 }
    }

    #[tokio::test]
    async fn answers_come_from_the_cache_until_the_version_moves() {
        let mut store = MockCatalogStore::new();
        let version = Arc::new(AtomicU64::new(1));
        let v = version.clone();
        store.expect_catalog_version().returning(move || Ok(version_of(v.load(Ordering::SeqCst))));
        let calls = Arc::new(AtomicU64::new(0));
        let c = calls.clone();
        store.expect_search().returning(move |_| Ok(slice(c.fetch_add(1, Ordering::SeqCst) + 10)));
        let cached = CachedCatalogStore::new(Arc::new(store), 1 << 20);

        assert_eq!(cached.refresh().await.expect("version"), Refreshed::Cleared, "the first refresh learns the version");
        assert_eq!(cached.search(&query("brake")).await.expect("search").total, 10);
        assert_eq!(cached.search(&query("brake")).await.expect("search").total, 10, "from the cache");
        assert_eq!(cached.search(&query("disc")).await.expect("search").total, 11, "another question");
        assert_eq!(cached.refresh().await.expect("version"), Refreshed::Unchanged, "same version: nothing cleared");
        assert_eq!(cached.search(&query("brake")).await.expect("search").total, 10);

        version.store(2, Ordering::SeqCst);
        assert_eq!(cached.refresh().await.expect("version"), Refreshed::Cleared, "a new version clears");
        assert_eq!(cached.search(&query("brake")).await.expect("search").total, 12, "asked again");
        assert_eq!(calls.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn nothing_is_served_from_the_cache_without_a_recent_refresh() {
        let mut store = MockCatalogStore::new();
        store.expect_catalog_version().returning(|| Ok(version_of(7)));
        let calls = Arc::new(AtomicU64::new(0));
        let c = calls.clone();
        store.expect_count_products().returning(move || Ok(c.fetch_add(1, Ordering::SeqCst)));
        let cached = CachedCatalogStore::new(Arc::new(store), 1 << 20).with_max_staleness(Duration::from_millis(50));

        assert_eq!(cached.count_products().await.expect("count"), 0, "never refreshed: the store answers");
        assert_eq!(cached.count_products().await.expect("count"), 1, "and nothing was kept");
        cached.refresh().await.expect("version");
        assert_eq!(cached.count_products().await.expect("count"), 2);
        assert_eq!(cached.count_products().await.expect("count"), 2, "confirmed: from the cache");
        std::thread::sleep(Duration::from_millis(80));
        assert_eq!(cached.count_products().await.expect("count"), 3, "the poller fell silent: the store answers");
    }

    #[tokio::test]
    async fn a_failing_version_read_clears_and_stops_the_cache() {
        let mut store = MockCatalogStore::new();
        let up = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let u = up.clone();
        store.expect_catalog_version().returning(move || {
            if u.load(Ordering::SeqCst) {
                Ok(version_of(1))
            } else {
                Err(CatalogStoreError::Unavailable { reason: "down".into() })
            }
        });
        let calls = Arc::new(AtomicU64::new(0));
        let c = calls.clone();
        store.expect_count_products().returning(move || Ok(c.fetch_add(1, Ordering::SeqCst)));
        let cached = CachedCatalogStore::new(Arc::new(store), 1 << 20);
        cached.refresh().await.expect("version");
        assert_eq!(cached.count_products().await.expect("count"), 0);
        assert_eq!(cached.count_products().await.expect("count"), 0);
        up.store(false, Ordering::SeqCst);
        assert!(cached.refresh().await.is_err());
        assert_eq!(cached.count_products().await.expect("count"), 1, "not served from a cache that cannot be checked");
        assert_eq!(cached.usage().0, 0);
    }

    #[tokio::test]
    async fn a_write_through_the_cache_clears_it_at_once() {
        let mut store = MockCatalogStore::new();
        store.expect_catalog_version().returning(|| Ok(version_of(1)));
        store.expect_add_products().returning(|_| Ok(()));
        store.expect_count_products().times(2).returning(|| Ok(5));
        let cached = CachedCatalogStore::new(Arc::new(store), 1 << 20);
        cached.refresh().await.expect("version");
        cached.count_products().await.expect("count");
        cached.count_products().await.expect("count");
        cached.add_products(&[]).await.expect("write");
        cached.count_products().await.expect("count asked again after the write");
    }

    #[tokio::test]
    async fn the_cache_stays_within_its_bytes() {
        let mut store = MockCatalogStore::new();
        store.expect_catalog_version().returning(|| Ok(version_of(1)));
        store.expect_search().returning(|q| {
            let p = Product { id: ProductId(q.text.clone()), description: "x".repeat(2_000), ..sample() };
            Ok(ProductSlice { products: vec![p; 10], total: 10 })
        });
        let cached = CachedCatalogStore::new(Arc::new(store), 200_000);
        cached.refresh().await.expect("version");
        for n in 0..200 {
            cached.search(&query(&format!("q{n}"))).await.expect("search");
        }
        let (entries, bytes) = cached.usage();
        assert!(bytes <= 200_000, "{bytes} bytes in {entries} answers");
        assert!(entries > 0);
    }

    #[tokio::test]
    async fn the_answering_generation_moves_with_every_clear_and_needs_a_recent_refresh() {
        let mut store = MockCatalogStore::new();
        store.expect_catalog_version().returning(|| Ok(version_of(3)));
        let cached = CachedCatalogStore::new(Arc::new(store), 1 << 20).with_max_staleness(Duration::from_millis(50));
        assert_eq!(cached.answering_generation(), None, "never refreshed: no answers given");
        cached.refresh().await.expect("version");
        let first = cached.answering_generation().expect("confirmed");
        assert_eq!(cached.answering_generation(), Some(first), "steady while nothing changes");
        cached.clear();
        let second = cached.answering_generation().expect("still confirmed");
        assert_ne!(first, second, "a clear moves it");
        std::thread::sleep(Duration::from_millis(80));
        assert_eq!(cached.answering_generation(), None, "the poller fell silent");
    }

    fn with_stock(version: u64, changes: &[(&str, &[&str])]) -> CatalogVersion {
        CatalogVersion {
            version,
            stock_changes: changes
                .iter()
                .map(|(id, products)| marque_ports::StockChange {
                    id: (*id).to_owned(),
                    products: products.iter().map(|p| ProductId((*p).to_owned())).collect(),
                })
                .collect(),
        }
    }

    fn ids(ids: &[&str]) -> HashSet<ProductId> {
        ids.iter().map(|id| ProductId((*id).to_owned())).collect()
    }

    /// A store whose version reads come from `reads` in turn (the last one repeats), whose
    /// searches give one product named as the query, and whose best sellers are `b1`; every
    /// read counted.
    fn store_reading(reads: Vec<CatalogVersion>, calls: Arc<AtomicU64>) -> MockCatalogStore {
        let mut store = MockCatalogStore::new();
        let next = Mutex::new(reads.into_iter().collect::<std::collections::VecDeque<_>>());
        store.expect_catalog_version().returning(move || {
            let mut next = next.lock().expect("reads");
            Ok(if next.len() > 1 { next.pop_front() } else { next.front().cloned() }.expect("a read"))
        });
        let c = calls.clone();
        store.expect_search().returning(move |q| {
            c.fetch_add(1, Ordering::SeqCst);
            Ok(ProductSlice { products: vec![Product { id: ProductId(q.text.clone()), ..sample() }], total: 1 })
        });
        store.expect_best_selling_products().returning(move |_| {
            calls.fetch_add(1, Ordering::SeqCst);
            Ok(vec![Product { id: ProductId("b1".into()), ..sample() }])
        });
        store
    }

    #[tokio::test]
    async fn a_stock_change_forgets_the_answers_holding_its_products_and_the_best_sellers_only() {
        let calls = Arc::new(AtomicU64::new(0));
        let reads = vec![
            with_stock(1, &[("old", &["a"])]),
            with_stock(1, &[("old", &["a"]), ("s1", &["a", "zz"])]),
            with_stock(1, &[("s1", &["a", "zz"])]),
        ];
        let cached = CachedCatalogStore::new(Arc::new(store_reading(reads, calls.clone())), 1 << 20);
        assert_eq!(cached.refresh().await.expect("version"), Refreshed::Cleared, "first read: the changes listed then are past");
        for q in ["a", "b"] {
            cached.search(&query(q)).await.expect("search");
        }
        cached.best_selling_products(5).await.expect("best");
        assert_eq!(calls.load(Ordering::SeqCst), 3);

        assert_eq!(cached.refresh().await.expect("version"), Refreshed::Forgot(ids(&["a", "zz"])), "only the new change");
        cached.search(&query("b")).await.expect("search");
        assert_eq!(calls.load(Ordering::SeqCst), 3, "an answer without those products is still kept");
        cached.search(&query("a")).await.expect("search");
        cached.best_selling_products(5).await.expect("best");
        assert_eq!(calls.load(Ordering::SeqCst), 5, "the answer holding `a` and the best sellers were asked again");
        assert_eq!(cached.refresh().await.expect("version"), Refreshed::Unchanged, "a change seen before is not acted on twice");
    }

    #[tokio::test]
    async fn a_poll_after_a_long_silence_forgets_everything() {
        let calls = Arc::new(AtomicU64::new(0));
        let cached = CachedCatalogStore::new(Arc::new(store_reading(vec![with_stock(1, &[])], calls.clone())), 1 << 20)
            .with_max_staleness(STOCK_CHANGE_WINDOW);
        assert_eq!(cached.refresh().await.expect("version"), Refreshed::Cleared);
        // As if the last read were older than half the window: changes may have left it unseen.
        cached.seen.lock().expect("seen").confirmed_at = Instant::now().checked_sub(STOCK_CHANGE_WINDOW);
        assert_eq!(cached.refresh().await.expect("version"), Refreshed::Cleared);
        assert_eq!(cached.refresh().await.expect("version"), Refreshed::Unchanged);
    }

    #[tokio::test]
    async fn sources_name_what_a_response_was_made_of_and_a_forget_refuses_older_keeps() {
        let calls = Arc::new(AtomicU64::new(0));
        let cached = CachedCatalogStore::new(Arc::new(store_reading(vec![with_stock(1, &[])], calls)), 1 << 20);
        cached.refresh().await.expect("version");
        let (_, sources) = CachedCatalogStore::noting_sources(async {
            cached.search(&query("a")).await.expect("search");
            cached.search(&query("b")).await.expect("search");
        })
        .await;
        assert_eq!(sources, Sources { products: ids(&["a", "b"]), by_sales: false });
        assert!(sources.touched_by(&ids(&["b", "x"])) && !sources.touched_by(&ids(&["x"])));
        let (_, sources) = CachedCatalogStore::noting_sources(cached.best_selling_products(5)).await;
        assert!(sources.by_sales && sources.touched_by(&ids(&["x"])), "the best sellers move with any sale");

        let heard = Arc::new(Mutex::new(Vec::new()));
        let h = heard.clone();
        cached.on_stock_forget(move |products| h.lock().expect("heard").push(products.clone()));
        let stamp = cached.answering_stamp().expect("answering");
        assert!(cached.keep_unless_forgotten(stamp, || {}), "nothing forgotten since the stamp");
        cached.forget_stock(&ids(&["a"]));
        assert_eq!(*heard.lock().expect("heard"), vec![ids(&["a"])], "the hook heard the forget");
        assert!(!cached.keep_unless_forgotten(stamp, || panic!("kept")), "read before a forget: not kept");
        let after = cached.answering_stamp().expect("answering");
        assert_eq!(after.generation, stamp.generation, "a stock forget leaves the generation");
        cached.clear();
        assert!(!cached.keep_unless_forgotten(after, || panic!("kept")), "read before a clear: not kept");
    }

    fn sample() -> Product {
        use marque_domain::catalog::Condition;
        use marque_domain::{Money, PartNumber};
        Product {
            id: ProductId("p".into()),
            name: "Front Brake Disc".into(),
            price: Money::from_paise(100),
            quantity: 1,
            condition: Condition::New,
            images: vec![],
            description: String::new(),
            category: "Brakes".into(),
            category_slug: "brakes".into(),
            subcategory: "Discs".into(),
            subcategory_slug: "discs".into(),
            oem: "BMW".into(),
            oem_slug: "bmw".into(),
            fuel_type: None,
            variant: String::new(),
            part_no: PartNumber::parse("A 000 180 26 09").expect("part number"),
            inside_ncr: Money::from_paise(0),
            outside_ncr: Money::from_paise(0),
            gst_percent: 18,
            units_sold: 0,
            created_at: 0,
        }
    }
}
