//! A [`CatalogStore`] that remembers the answers of another one, and forgets them all
//! as soon as the catalog changes anywhere.
//!
//! The catalog is read far more than it is written, and every storefront read is one
//! of a small number of questions (a product, a page of a listing, a page of a search).
//! [`CachedCatalogStore`] keeps each answer, keyed by its exact question, in a cache
//! bounded by an estimate of its bytes, and clears the whole cache when the store's
//! [`catalog_version`](CatalogStore::catalog_version) stamp changes. Whoever owns the
//! cache calls [`CachedCatalogStore::refresh`] every ~200 ms (the server does, on a
//! timer), so a write made by another process sharing the database shows within the
//! poll interval; a write made through this store clears the cache at once.
//!
//! Exactness: an answer is the inner store's answer to the same question, so order,
//! counts and windows are the store's. Two guards keep a stale answer from surviving:
//! - an answer read while the cache was being cleared is not kept (a generation
//!   number, checked and inserted under the same lock the clear takes);
//! - answers are only served while the version was confirmed recently
//!   ([`CachedCatalogStore::with_max_staleness`], 1 s by default): if the poller stops
//!   (a stalled task, a database that cannot be read), reads go to the store.
//!
//! [`CachedCatalogStore::answering_generation`] lets a reader keep something derived from
//! the answers (a serialised response) exactly as long as the answers themselves.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use marque_domain::catalog::{Category, OemBrand, Product, ProductId};
use marque_ports::{CatalogStore, CatalogStoreError, ProductListing, ProductQuery, ProductSlice, ProductStamp};

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
    answer: Answer,
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
}

/// What the poller last learned of the store's version.
#[derive(Debug)]
struct Seen {
    version: Option<u64>,
    /// When the version was last read successfully.
    confirmed_at: Option<Instant>,
}

/// A [`CatalogStore`] that caches the reads of `inner`; see the module documentation.
pub struct CachedCatalogStore {
    inner: Arc<dyn CatalogStore>,
    cache: quick_cache::sync::Cache<String, Entry, ByBytes>,
    /// Moves on every clear; an answer read under an older generation is not kept.
    generation: AtomicU64,
    /// Held shared while an answer is checked and stored, exclusively while clearing.
    clearing: RwLock<()>,
    seen: Mutex<Seen>,
    max_staleness: Duration,
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
            clearing: RwLock::new(()),
            seen: Mutex::new(Seen { version: None, confirmed_at: None }),
            max_staleness: Duration::from_secs(1),
        }
    }

    /// How long after the last successful [`refresh`](Self::refresh) the cache may still
    /// answer (1 s by default); later, reads go to the store until a refresh succeeds.
    #[must_use]
    pub fn with_max_staleness(mut self, max_staleness: Duration) -> Self {
        self.max_staleness = max_staleness;
        self
    }

    /// Reads the store's version and clears the cache when it moved. Returns whether it
    /// cleared. Call it every ~200 ms.
    ///
    /// # Errors
    /// [`CatalogStoreError::Unavailable`] when the version cannot be read; the cache
    /// is cleared then too, and stops answering until a refresh succeeds.
    pub async fn refresh(&self) -> Result<bool, CatalogStoreError> {
        // The answer reflects the store as of at least this instant.
        let asked_at = Instant::now();
        match self.inner.catalog_version().await {
            Ok(version) => {
                let moved = {
                    let mut seen = self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    let moved = seen.version != Some(version);
                    seen.version = Some(version);
                    seen.confirmed_at = Some(asked_at);
                    moved
                };
                if moved {
                    self.clear();
                }
                Ok(moved)
            }
            Err(e) => {
                {
                    let mut seen = self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    seen.version = None;
                    seen.confirmed_at = None;
                }
                self.clear();
                Err(e)
            }
        }
    }

    /// Forgets every answer.
    pub fn clear(&self) {
        let _exclusive = self.clearing.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.cache.clear();
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
        if !self.trusted() {
            return load.await;
        }
        match self.cache.get_value_or_guard_async(&key).await {
            Ok(entry) => Ok(entry.answer),
            Err(guard) => {
                let generation = self.generation.load(Ordering::Acquire);
                // On an error the guard drops unfilled, and a waiting caller loads instead.
                let answer = load.await?;
                let _shared = self.clearing.read().unwrap_or_else(std::sync::PoisonError::into_inner);
                if self.generation.load(Ordering::Acquire) == generation {
                    let _ = guard.insert(Entry { bytes: answer.bytes(), answer: answer.clone() });
                }
                Ok(answer)
            }
        }
    }

    /// The generation of the answers the cache gives right now; `None` while it gives none
    /// (the version was not confirmed recently). It moves on every clear, so something made
    /// from answers read while it was `g` is as fresh as they are for as long as it still is `g`.
    #[must_use]
    pub fn answering_generation(&self) -> Option<u64> {
        self.trusted().then(|| self.generation.load(Ordering::Acquire))
    }

    /// A write through this store: the cache forgets everything, whatever the outcome.
    fn written<T>(&self, outcome: Result<T, CatalogStoreError>) -> Result<T, CatalogStoreError> {
        self.clear();
        outcome
    }
}

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
        match self.answer(format!("best\0{limit}"), load).await? {
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

    async fn catalog_version(&self) -> Result<u64, CatalogStoreError> {
        self.inner.catalog_version().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marque_ports::MockCatalogStore;

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
        store.expect_catalog_version().returning(move || Ok(v.load(Ordering::SeqCst)));
        let calls = Arc::new(AtomicU64::new(0));
        let c = calls.clone();
        store.expect_search().returning(move |_| Ok(slice(c.fetch_add(1, Ordering::SeqCst) + 10)));
        let cached = CachedCatalogStore::new(Arc::new(store), 1 << 20);

        assert!(cached.refresh().await.expect("version"), "the first refresh learns the version");
        assert_eq!(cached.search(&query("brake")).await.expect("search").total, 10);
        assert_eq!(cached.search(&query("brake")).await.expect("search").total, 10, "from the cache");
        assert_eq!(cached.search(&query("disc")).await.expect("search").total, 11, "another question");
        assert!(!cached.refresh().await.expect("version"), "same version: nothing cleared");
        assert_eq!(cached.search(&query("brake")).await.expect("search").total, 10);

        version.store(2, Ordering::SeqCst);
        assert!(cached.refresh().await.expect("version"), "a new version clears");
        assert_eq!(cached.search(&query("brake")).await.expect("search").total, 12, "asked again");
        assert_eq!(calls.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn nothing_is_served_from_the_cache_without_a_recent_refresh() {
        let mut store = MockCatalogStore::new();
        store.expect_catalog_version().returning(|| Ok(7));
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
                Ok(1)
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
        store.expect_catalog_version().returning(|| Ok(1));
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
        store.expect_catalog_version().returning(|| Ok(1));
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
        store.expect_catalog_version().returning(|| Ok(3));
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
