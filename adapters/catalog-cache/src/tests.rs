//! The cache's own tests, over mocks of the two ports it decorates and listens to.

use super::*;
use marque_ports::{ListingPlace, MockCatalogChanges, MockCatalogStore};

fn version_of(version: u64) -> CatalogVersion {
    CatalogVersion { version, ..CatalogVersion::default() }
}

fn slice(total: u64) -> ProductSlice {
    ProductSlice { products: Vec::new(), total }
}

fn query(text: &str) -> ProductQuery {
    ProductQuery { text: text.into(), offset: 0, limit: 20, fits: None, grades: Vec::new() }
}

#[tokio::test]
async fn answers_come_from_the_cache_until_the_version_moves() {
    let mut store = MockCatalogStore::new();
    let mut changes = MockCatalogChanges::new();
    let version = Arc::new(AtomicU64::new(1));
    let v = version.clone();
    changes.expect_catalog_version().returning(move || Ok(version_of(v.load(Ordering::SeqCst))));
    let calls = Arc::new(AtomicU64::new(0));
    let c = calls.clone();
    store.expect_search().returning(move |_| Ok(slice(c.fetch_add(1, Ordering::SeqCst) + 10)));
    let cached = CachedCatalogStore::new(Arc::new(store), Arc::new(changes), 1 << 20);

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
    let mut changes = MockCatalogChanges::new();
    changes.expect_catalog_version().returning(|| Ok(version_of(7)));
    let calls = Arc::new(AtomicU64::new(0));
    let c = calls.clone();
    store.expect_count_products().returning(move || Ok(c.fetch_add(1, Ordering::SeqCst)));
    let cached = CachedCatalogStore::new(Arc::new(store), Arc::new(changes), 1 << 20)
        .with_max_staleness(Duration::from_millis(50));

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
    let mut changes = MockCatalogChanges::new();
    let up = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let u = up.clone();
    changes.expect_catalog_version().returning(move || {
        if u.load(Ordering::SeqCst) {
            Ok(version_of(1))
        } else {
            Err(CatalogStoreError::Unavailable { reason: "down".into() })
        }
    });
    let calls = Arc::new(AtomicU64::new(0));
    let c = calls.clone();
    store.expect_count_products().returning(move || Ok(c.fetch_add(1, Ordering::SeqCst)));
    let cached = CachedCatalogStore::new(Arc::new(store), Arc::new(changes), 1 << 20);
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
    let mut changes = MockCatalogChanges::new();
    changes.expect_catalog_version().returning(|| Ok(version_of(1)));
    store.expect_add_products().returning(|_| Ok(()));
    store.expect_count_products().times(2).returning(|| Ok(5));
    let cached = CachedCatalogStore::new(Arc::new(store), Arc::new(changes), 1 << 20);
    cached.refresh().await.expect("version");
    cached.count_products().await.expect("count");
    cached.count_products().await.expect("count");
    cached.add_products(&[]).await.expect("write");
    cached.count_products().await.expect("count asked again after the write");
}

#[tokio::test]
async fn the_cache_stays_within_its_bytes() {
    let mut store = MockCatalogStore::new();
    let mut changes = MockCatalogChanges::new();
    changes.expect_catalog_version().returning(|| Ok(version_of(1)));
    store.expect_search().returning(|q| {
        let p = Product { id: ProductId(q.text.clone()), description: "x".repeat(2_000), ..sample() };
        Ok(ProductSlice { products: vec![p; 10], total: 10 })
    });
    let cached = CachedCatalogStore::new(Arc::new(store), Arc::new(changes), 200_000);
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
    let store = MockCatalogStore::new();
    let mut changes = MockCatalogChanges::new();
    changes.expect_catalog_version().returning(|| Ok(version_of(3)));
    let cached = CachedCatalogStore::new(Arc::new(store), Arc::new(changes), 1 << 20)
        .with_max_staleness(Duration::from_millis(50));
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
        catalog_changes: Vec::new(),
    }
}

fn ids(ids: &[&str]) -> HashSet<ProductId> {
    ids.iter().map(|id| ProductId((*id).to_owned())).collect()
}

/// A store whose searches give one product named as the query and whose best sellers are
/// `b1`, every read counted, and its changes, whose version reads come from `reads` in turn
/// (the last one repeats).
/// Changes whose version reads come from `reads` in turn (the last one repeats).
fn changes_reading(reads: Vec<CatalogVersion>) -> MockCatalogChanges {
    let mut changes = MockCatalogChanges::new();
    let next = Mutex::new(reads.into_iter().collect::<std::collections::VecDeque<_>>());
    changes.expect_catalog_version().returning(move || {
        let mut next = next.lock().expect("reads");
        Ok(if next.len() > 1 { next.pop_front() } else { next.front().cloned() }.expect("a read"))
    });
    changes
}

fn store_reading(reads: Vec<CatalogVersion>, calls: Arc<AtomicU64>) -> (MockCatalogStore, MockCatalogChanges) {
    let mut store = MockCatalogStore::new();
    let changes = changes_reading(reads);
    let c = calls.clone();
    store.expect_search().returning(move |q| {
        c.fetch_add(1, Ordering::SeqCst);
        Ok(ProductSlice { products: vec![Product { id: ProductId(q.text.clone()), ..sample() }], total: 1 })
    });
    store.expect_best_selling_products().returning(move |_| {
        calls.fetch_add(1, Ordering::SeqCst);
        Ok(vec![Product { id: ProductId("b1".into()), ..sample() }])
    });
    (store, changes)
}

#[tokio::test]
async fn a_stock_change_forgets_the_answers_holding_its_products_and_the_best_sellers_only() {
    let calls = Arc::new(AtomicU64::new(0));
    let reads = vec![
        with_stock(1, &[("old", &["a"])]),
        with_stock(1, &[("old", &["a"]), ("s1", &["a", "zz"])]),
        with_stock(1, &[("s1", &["a", "zz"])]),
    ];
    let (store, changes) = store_reading(reads, calls.clone());
    let cached = CachedCatalogStore::new(Arc::new(store), Arc::new(changes), 1 << 20);
    assert_eq!(
        cached.refresh().await.expect("version"),
        Refreshed::Cleared,
        "first read: the changes listed then are past"
    );
    for q in ["a", "b"] {
        cached.search(&query(q)).await.expect("search");
    }
    cached.best_selling_products(5).await.expect("best");
    assert_eq!(calls.load(Ordering::SeqCst), 3);

    assert_eq!(
        cached.refresh().await.expect("version"),
        Refreshed::Forgot(Forgotten { stock: ids(&["a", "zz"]), changes: Vec::new() }),
        "only the new change"
    );
    cached.search(&query("b")).await.expect("search");
    assert_eq!(calls.load(Ordering::SeqCst), 3, "an answer without those products is still kept");
    cached.search(&query("a")).await.expect("search");
    cached.best_selling_products(5).await.expect("best");
    assert_eq!(calls.load(Ordering::SeqCst), 5, "the answer holding `a` and the best sellers were asked again");
    assert_eq!(
        cached.refresh().await.expect("version"),
        Refreshed::Unchanged,
        "a change seen before is not acted on twice"
    );
}

#[tokio::test]
async fn a_poll_after_a_long_silence_forgets_everything() {
    let calls = Arc::new(AtomicU64::new(0));
    let (store, changes) = store_reading(vec![with_stock(1, &[])], calls.clone());
    let cached =
        CachedCatalogStore::new(Arc::new(store), Arc::new(changes), 1 << 20).with_max_staleness(STOCK_CHANGE_WINDOW);
    assert_eq!(cached.refresh().await.expect("version"), Refreshed::Cleared);
    // As if the last read were older than half the window: changes may have left it unseen.
    cached.seen.lock().expect("seen").confirmed_at = Instant::now().checked_sub(STOCK_CHANGE_WINDOW);
    assert_eq!(cached.refresh().await.expect("version"), Refreshed::Cleared);
    assert_eq!(cached.refresh().await.expect("version"), Refreshed::Unchanged);
}

#[tokio::test]
async fn sources_name_what_a_response_was_made_of_and_a_forget_refuses_older_keeps() {
    let calls = Arc::new(AtomicU64::new(0));
    let (store, changes) = store_reading(vec![with_stock(1, &[])], calls);
    let cached = CachedCatalogStore::new(Arc::new(store), Arc::new(changes), 1 << 20);
    cached.refresh().await.expect("version");
    let (_, sources) = CachedCatalogStore::noting_sources(async {
        cached.search(&query("a")).await.expect("search");
        cached.search(&query("b")).await.expect("search");
    })
    .await;
    assert_eq!(sources.products, ids(&["a", "b"]));
    assert!(!sources.by_sales);
    assert_eq!(sources.questions, vec![Question::Search(query("a")), Question::Search(query("b"))]);
    assert_eq!(sources.categories, HashSet::from(["brakes".to_owned()]), "the held products' categories");
    assert!(sources.touched_by(&ids(&["b", "x"])) && !sources.touched_by(&ids(&["x"])));
    let (_, sources) = CachedCatalogStore::noting_sources(cached.best_selling_products(5)).await;
    assert!(sources.by_sales && sources.touched_by(&ids(&["x"])), "the best sellers move with any sale");

    let heard = Arc::new(Mutex::new(Vec::new()));
    let h = heard.clone();
    cached.on_forget(move |forgotten| h.lock().expect("heard").push(forgotten.stock.clone()));
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
        details: marque_domain::catalog::ProductDetails::default(),
    }
}

#[tokio::test]
async fn the_poller_keeps_the_cache_confirmed_and_ends_with_it() {
    let reads = Arc::new(AtomicU64::new(0));
    let r = reads.clone();
    let mut changes = MockCatalogChanges::new();
    changes.expect_catalog_version().returning(move || {
        r.fetch_add(1, Ordering::SeqCst);
        Ok(version_of(1))
    });
    let cached = Arc::new(
        CachedCatalogStore::new(Arc::new(MockCatalogStore::new()), Arc::new(changes), 1 << 20)
            .with_max_staleness(Duration::from_millis(150)),
    );
    assert_eq!(cached.answering_generation(), None, "never refreshed");
    spawn_poller(&cached, Duration::from_millis(10));
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(cached.answering_generation().is_some(), "confirmed by the poller long after the staleness limit");
    assert!(reads.load(Ordering::SeqCst) >= 3, "polled every 10 ms: {}", reads.load(Ordering::SeqCst));

    drop(cached);
    tokio::time::sleep(Duration::from_millis(30)).await;
    let after_drop = reads.load(Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(reads.load(Ordering::SeqCst), after_drop, "the task ended with the cache");
}

/// A store whose every read is noted in `asked` (its kind and arguments), whose search for `disc`
/// holds `p1`, and changes read in turn from `reads`.
fn store_of(reads: Vec<CatalogVersion>, asked: Arc<Mutex<Vec<String>>>) -> (MockCatalogStore, MockCatalogChanges) {
    let mut store = MockCatalogStore::new();
    let changes = changes_reading(reads);
    let a = asked.clone();
    store.expect_search().returning(move |q| {
        a.lock().expect("asked").push(format!("search {}", q.text));
        let held = if q.text == "disc" { vec![Product { id: ProductId("p1".into()), ..sample() }] } else { vec![] };
        Ok(ProductSlice { total: held.len() as u64, products: held })
    });
    let a = asked.clone();
    store.expect_list_products().returning(move |l| {
        a.lock().expect("asked").push(format!("list {:?}/{:?}", l.category, l.brands.first().map(|b| b.as_str())));
        Ok(ProductSlice { products: vec![], total: 0 })
    });
    let a = asked.clone();
    store.expect_product().returning(move |id| {
        a.lock().expect("asked").push(format!("product {}", id.as_str()));
        Ok(Some(Product { id: id.clone(), ..sample() }))
    });
    let a = asked.clone();
    store.expect_newest_products().returning(move |_| {
        a.lock().expect("asked").push("newest".into());
        Ok(vec![])
    });
    store.expect_categories().returning(move || {
        asked.lock().expect("asked").push("categories".into());
        Ok(vec![])
    });
    (store, changes)
}

fn described(version: u64, changes: &[CatalogChange]) -> CatalogVersion {
    CatalogVersion { version, stock_changes: Vec::new(), catalog_changes: changes.to_vec() }
}

fn listing(category: Option<&str>, brand: Option<&str>) -> ProductListing {
    ProductListing {
        category: category.map(str::to_owned),
        brands: brand
            .map(|b| {
                <marque_domain::filters::BrandSlug as marque_domain::filters::FilterValue>::from_code(b)
                    .expect("a slug")
            })
            .into_iter()
            .collect(),
        limit: 20,
        ..ProductListing::default()
    }
}

/// Asks every question of the test once.
async fn ask_all(cached: &CachedCatalogStore) {
    for text in ["disc", "pump", "B7700"] {
        cached.search(&query(text)).await.expect("search");
    }
    for (category, brand) in [(Some("brakes"), None), (Some("lamps"), None), (None, Some("bmw")), (None, Some("audi"))]
    {
        cached.list_products(&listing(category, brand)).await.expect("listing");
    }
    for id in ["p1", "p2"] {
        cached.product(&ProductId(id.into())).await.expect("product");
    }
    cached.newest_products(12).await.expect("newest");
    cached.categories().await.expect("categories");
}

/// A cache over [`store_of`] `reads`: refreshed, every question asked once, refreshed again.
async fn asked_then_refreshed(reads: Vec<CatalogVersion>) -> (CachedCatalogStore, Arc<Mutex<Vec<String>>>) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let (store, changes) = store_of(reads, asked.clone());
    let cached = CachedCatalogStore::new(Arc::new(store), Arc::new(changes), 1 << 20);
    cached.refresh().await.expect("version");
    ask_all(&cached).await;
    cached.refresh().await.expect("version");
    (cached, asked)
}

/// What a second round of [`ask_all`] asked the store again.
async fn asked_again(cached: &CachedCatalogStore, asked: &Arc<Mutex<Vec<String>>>) -> Vec<String> {
    asked.lock().expect("asked").clear();
    ask_all(cached).await;
    let mut again = asked.lock().expect("asked").clone();
    again.sort();
    again
}

#[tokio::test]
async fn a_price_change_forgets_only_the_answers_holding_the_product() {
    let before = Product { id: ProductId("p1".into()), ..sample() };
    let after = Product { price: marque_domain::Money::from_paise(999), ..before.clone() };
    let change = CatalogChange { id: "c1".into(), ..CatalogChange::of_product(Some(&before), Some(&after)) };
    let asked = Arc::new(Mutex::new(Vec::new()));
    let (store, changes) =
        store_of(vec![described(1, &[]), described(1, std::slice::from_ref(&change))], asked.clone());
    let cached = CachedCatalogStore::new(Arc::new(store), Arc::new(changes), 1 << 20);
    cached.refresh().await.expect("version");
    ask_all(&cached).await;
    assert!(asked_again(&cached, &asked).await.is_empty(), "all kept");
    assert!(matches!(cached.refresh().await.expect("version"), Refreshed::Forgot(_)));
    assert_eq!(asked_again(&cached, &asked).await, vec!["product p1", "search disc"]);
    assert_eq!(cached.refresh().await.expect("version"), Refreshed::Unchanged, "seen once");
}

#[tokio::test]
async fn a_move_forgets_the_listings_it_leaves_and_enters_and_a_number_its_searches() {
    let before = Product { id: ProductId("p2".into()), ..sample() };
    let mut after = Product { category_slug: "lamps".into(), ..before.clone() };
    after.details.alternate_numbers = vec![marque_domain::PartNumber::parse("B-7700").expect("a number")];
    let change = CatalogChange { id: "c2".into(), ..CatalogChange::of_product(Some(&before), Some(&after)) };
    assert!(!change.names && !change.home, "{change:?}");
    let (cached, asked) = asked_then_refreshed(vec![described(1, &[]), described(1, &[change])]).await;
    assert_eq!(
        asked_again(&cached, &asked).await,
        vec![
            "list None/Some(\"bmw\")",
            "list Some(\"brakes\")/None",
            "list Some(\"lamps\")/None",
            "product p2",
            "search B7700"
        ],
        "its brand's listing too (it moved in it: forget more), not another brand's"
    );
}

#[tokio::test]
async fn unpublishing_forgets_every_search_and_the_home_lists_and_a_category_write_what_names_it() {
    let product = Product { id: ProductId("p2".into()), ..sample() };
    let gone = CatalogChange { id: "c3".into(), ..CatalogChange::of_product(Some(&product), None) };
    let renamed = CatalogChange { id: "c4".into(), ..CatalogChange::of_category(&["brakes", "brakes"]) };
    let reads = vec![described(1, &[]), described(1, std::slice::from_ref(&gone)), described(1, &[gone, renamed])];
    let (cached, asked) = asked_then_refreshed(reads).await;
    assert_eq!(
        asked_again(&cached, &asked).await,
        vec![
            "list None/Some(\"bmw\")",
            "list Some(\"brakes\")/None",
            "newest",
            "product p2",
            "search B7700",
            "search disc",
            "search pump"
        ]
    );
    cached.refresh().await.expect("version");
    assert_eq!(
        asked_again(&cached, &asked).await,
        vec!["categories", "list Some(\"brakes\")/None", "product p1", "product p2", "search disc"],
        "the category list, its listing and every answer holding one of its products"
    );
}

#[test]
fn a_change_of_an_unpublished_product_moves_nothing_a_shopper_reads_but_its_own_answer() {
    let change = CatalogChange::of_product(None, None);
    assert!(change.is_empty());
    let p = sample();
    let published = CatalogChange::of_product(None, Some(&p));
    assert!(published.names && published.home && published.placements == vec![ListingPlace::of(&p)]);
    assert_eq!(published.numbers, vec!["A0001802609".to_owned()]);
}

#[test]
fn a_fitment_write_makes_stale_the_answers_narrowed_to_a_car_of_its_generations_and_the_product() {
    use marque_domain::vehicle::{Car, VehicleId};
    use marque_ports::Question;
    let car = |id: &str| Some(Car { vehicle: VehicleId::parse(id).expect("a vehicle id"), year: Some(2021) });
    let change = CatalogChange::of_fitment(&ProductId("p1".into()), &["bmw-x5-g05", "bmw-x5-g05"]);
    assert_eq!(change.fitment, ["bmw-x5-g05"]);
    assert!(!change.is_empty());
    let listing = |fits| Question::Listing(ProductListing { fits, limit: 20, ..ProductListing::default() });
    assert!(change.asks_stale(&listing(car("bmw-x5-g05.b57"))));
    assert!(change.asks_stale(&listing(car("bmw-x5-g05.b58"))), "every engine of the generation");
    assert!(!change.asks_stale(&listing(car("bmw-x3-g01.b47"))), "another generation");
    assert!(!change.asks_stale(&listing(None)), "a listing without a car keeps its products");
    let search =
        |fits| Question::Search(ProductQuery { text: "disc".into(), offset: 0, limit: 20, fits, grades: Vec::new() });
    assert!(change.asks_stale(&search(car("bmw-x5-g05.b57"))));
    assert!(!change.asks_stale(&search(None)));
    assert!(change.asks_stale(&Question::Product(ProductId("p1".into()))), "the product answer lists its fitment");
}
