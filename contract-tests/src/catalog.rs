//! The `CatalogStore` contract, one suite per promise in `marque_ports::catalog`.
//!
//! Every suite takes a fresh, empty store and panics with a message naming the
//! broken promise. Adapters run them all, per engine, through
//! [`for_each_catalog_suite!`](crate::for_each_catalog_suite) or [`CATALOG_SUITE`].

use std::collections::BTreeSet;

use marque_domain::catalog::{Condition, FuelType, Product, ProductId};
use marque_domain::Money;
use marque_ports::{CatalogStore, CatalogStoreError, ProductListing, ProductQuery, ProductSlice, ProductStamp};

use crate::fixtures::{brand, brand_slug, category, product};

/// Calls `$callback!(suite_name)` once for every catalog suite, so an adapter's
/// tests can turn each suite into a test of its own, per engine:
///
/// ```text
/// macro_rules! on_mem {
///     ($suite:ident) => {
///         #[tokio::test]
///         async fn $suite() {
///             let store = fresh_store().await;
///             marque_contract_tests::catalog::$suite(&store).await;
///         }
///     };
/// }
/// marque_contract_tests::for_each_catalog_suite!(on_mem);
/// ```
#[macro_export]
macro_rules! for_each_catalog_suite {
    ($callback:ident) => {
        $callback!(brands_round_trip_ordered_by_name);
        $callback!(categories_round_trip_with_subcategories_ordered);
        $callback!(products_round_trip_exactly);
        $callback!(unknown_product_is_none);
        $callback!(duplicate_product_is_refused_and_nothing_written);
        $callback!(newest_first);
        $callback!(best_sellers_exclude_unsold_and_rank_by_units);
        $callback!(empty_search_lists_everything_newest_first);
        $callback!(part_number_in_any_spelling_finds_the_part);
        $callback!(exact_part_number_ranks_first);
        $callback!(name_prefixes_find_products);
        $callback!(every_word_must_match);
        $callback!(windows_neither_repeat_nor_skip);
        $callback!(odd_input_is_harmless);
        $callback!(listing_filters_by_brand);
        $callback!(listing_filters_by_category_and_subcategory);
        $callback!(listing_condition_and_fuel_lists_match_any_value);
        $callback!(listing_is_newest_first);
        $callback!(listing_windows_neither_repeat_nor_skip);
        $callback!(listing_of_an_unknown_slug_is_empty);
        $callback!(count_products);
        $callback!(product_stamps_walk_every_product_once_in_id_order);
        $callback!(product_stamps_after_any_id_are_harmless);
        $callback!(products_after_walk_every_product_once_as_stored);
        $callback!(empty_ids_are_invalid_and_nothing_is_written);
    };
}

/// A running suite: the future [`CatalogSuite`] returns.
pub type SuiteFuture<'a> = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'a>>;

/// One catalog suite, callable through a plain function pointer.
pub type CatalogSuite = for<'a> fn(&'a dyn CatalogStore) -> SuiteFuture<'a>;

macro_rules! boxed_suites {
    ($($suite:ident),* $(,)?) => {
        /// Boxed wrappers of the suites, for [`CATALOG_SUITE`].
        mod boxed {
            use super::{CatalogStore, SuiteFuture};
            $(
                pub(super) fn $suite(store: &dyn CatalogStore) -> SuiteFuture<'_> {
                    Box::pin(super::$suite(store))
                }
            )*
        }
    };
}

macro_rules! suite_entry {
    ($suite:ident) => {
        (stringify!($suite), boxed::$suite as CatalogSuite)
    };
}

boxed_suites!(
    brands_round_trip_ordered_by_name,
    categories_round_trip_with_subcategories_ordered,
    products_round_trip_exactly,
    unknown_product_is_none,
    duplicate_product_is_refused_and_nothing_written,
    newest_first,
    best_sellers_exclude_unsold_and_rank_by_units,
    empty_search_lists_everything_newest_first,
    part_number_in_any_spelling_finds_the_part,
    exact_part_number_ranks_first,
    name_prefixes_find_products,
    every_word_must_match,
    windows_neither_repeat_nor_skip,
    odd_input_is_harmless,
    listing_filters_by_brand,
    listing_filters_by_category_and_subcategory,
    listing_condition_and_fuel_lists_match_any_value,
    listing_is_newest_first,
    listing_windows_neither_repeat_nor_skip,
    listing_of_an_unknown_slug_is_empty,
    count_products,
    product_stamps_walk_every_product_once_in_id_order,
    product_stamps_after_any_id_are_harmless,
    products_after_walk_every_product_once_as_stored,
    empty_ids_are_invalid_and_nothing_is_written,
);

/// Every catalog suite by name, for runners that loop instead of generating tests.
pub const CATALOG_SUITE: &[(&str, CatalogSuite)] = &[
    suite_entry!(brands_round_trip_ordered_by_name),
    suite_entry!(categories_round_trip_with_subcategories_ordered),
    suite_entry!(products_round_trip_exactly),
    suite_entry!(unknown_product_is_none),
    suite_entry!(duplicate_product_is_refused_and_nothing_written),
    suite_entry!(newest_first),
    suite_entry!(best_sellers_exclude_unsold_and_rank_by_units),
    suite_entry!(empty_search_lists_everything_newest_first),
    suite_entry!(part_number_in_any_spelling_finds_the_part),
    suite_entry!(exact_part_number_ranks_first),
    suite_entry!(name_prefixes_find_products),
    suite_entry!(every_word_must_match),
    suite_entry!(windows_neither_repeat_nor_skip),
    suite_entry!(odd_input_is_harmless),
    suite_entry!(listing_filters_by_brand),
    suite_entry!(listing_filters_by_category_and_subcategory),
    suite_entry!(listing_condition_and_fuel_lists_match_any_value),
    suite_entry!(listing_is_newest_first),
    suite_entry!(listing_windows_neither_repeat_nor_skip),
    suite_entry!(listing_of_an_unknown_slug_is_empty),
    suite_entry!(count_products),
    suite_entry!(product_stamps_walk_every_product_once_in_id_order),
    suite_entry!(product_stamps_after_any_id_are_harmless),
    suite_entry!(products_after_walk_every_product_once_as_stored),
    suite_entry!(empty_ids_are_invalid_and_nothing_is_written),
];

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

async fn seed(store: &dyn CatalogStore, products: &[Product]) {
    store.add_products(products).await.unwrap_or_else(|e| panic!("seeding {} products: {e}", products.len()));
}

async fn search(store: &dyn CatalogStore, text: &str, offset: u64, limit: u32) -> ProductSlice {
    let query = ProductQuery { text: text.to_owned(), offset, limit, fits: None, grades: Vec::new() };
    store.search(&query).await.unwrap_or_else(|e| panic!("search {text:?} (offset {offset}, limit {limit}): {e}"))
}

/// Ids of the whole result of `text` (one big window), in rank order.
async fn search_ids(store: &dyn CatalogStore, text: &str) -> Vec<String> {
    let slice = search(store, text, 0, 1_000).await;
    assert_eq!(
        slice.total,
        slice.products.len() as u64,
        "search {text:?}: total must count exactly the products of the whole result"
    );
    ids(&slice.products)
}

async fn search_id_set(store: &dyn CatalogStore, text: &str) -> BTreeSet<String> {
    search_ids(store, text).await.into_iter().collect()
}

/// Every product of a listing (a window far bigger than any suite's catalog), filtered by `filters`.
fn whole(filters: ProductListing) -> ProductListing {
    ProductListing { offset: 0, limit: 1_000, ..filters }
}

fn of_brands(slugs: &[&str]) -> ProductListing {
    whole(ProductListing { brands: slugs.iter().map(|s| brand_slug(s)).collect(), ..ProductListing::default() })
}

fn of_category(category: &str, subcategory: Option<&str>) -> ProductListing {
    whole(ProductListing {
        category: Some(category.to_owned()),
        subcategory: subcategory.map(str::to_owned),
        ..ProductListing::default()
    })
}

async fn list(store: &dyn CatalogStore, listing: &ProductListing) -> ProductSlice {
    store.list_products(listing).await.unwrap_or_else(|e| panic!("list_products {listing:?}: {e}"))
}

/// Ids of the whole result of `listing` (one big window), in order.
async fn listed_ids(store: &dyn CatalogStore, listing: &ProductListing) -> Vec<String> {
    let slice = list(store, &whole(listing.clone())).await;
    assert_eq!(
        slice.total,
        slice.products.len() as u64,
        "{listing:?}: total must count exactly the products of the whole listing"
    );
    ids(&slice.products)
}

fn ids(products: &[Product]) -> Vec<String> {
    products.iter().map(|p| p.id.0.clone()).collect()
}

fn set(ids: &[&str]) -> BTreeSet<String> {
    ids.iter().map(|id| (*id).to_owned()).collect()
}

fn pid(id: &str) -> ProductId {
    ProductId(id.to_owned())
}

// ---------------------------------------------------------------------------
// Brands and categories
// ---------------------------------------------------------------------------

/// `put_brands` stores and replaces by id; `brands` lists them ordered by name.
pub async fn brands_round_trip_ordered_by_name(store: &dyn CatalogStore) {
    assert_eq!(store.brands().await.expect("brands of an empty store"), vec![], "a fresh store has no brands");
    store.put_brands(&[]).await.expect("storing no brands is fine");

    let mercedes = brand("b1", "Mercedes-Benz");
    let audi = brand("b2", "Audi");
    let bmw = brand("b3", "BMW");
    store.put_brands(&[mercedes.clone(), audi.clone(), bmw.clone()]).await.expect("put brands");
    assert_eq!(
        store.brands().await.expect("brands"),
        vec![audi.clone(), bmw.clone(), mercedes],
        "brands come back exactly as stored, ordered by name"
    );

    let renamed = brand("b1", "Alfa Romeo");
    let porsche = brand("b4", "Porsche");
    store.put_brands(&[porsche.clone(), renamed.clone()]).await.expect("put brands again");
    assert_eq!(
        store.brands().await.expect("brands"),
        vec![renamed, audi, bmw, porsche],
        "a brand with a known id replaces the stored one; new ones are added"
    );
}

/// `put_categories` stores and replaces by id; `categories` lists them by name,
/// each with its subcategories by name.
pub async fn categories_round_trip_with_subcategories_ordered(store: &dyn CatalogStore) {
    assert_eq!(store.categories().await.expect("categories of an empty store"), vec![]);

    let engine = category("c1", "Engine", &[("s2", "Pistons"), ("s1", "Gaskets"), ("s3", "Oil Pumps")]);
    let brakes = category("c2", "Brakes", &[("s5", "Pads"), ("s4", "Discs")]);
    let lighting = category("c3", "Lighting", &[]);
    store.put_categories(&[engine, brakes, lighting.clone()]).await.expect("put categories");

    assert_eq!(
        store.categories().await.expect("categories"),
        vec![
            category("c2", "Brakes", &[("s4", "Discs"), ("s5", "Pads")]),
            category("c1", "Engine", &[("s1", "Gaskets"), ("s3", "Oil Pumps"), ("s2", "Pistons")]),
            lighting.clone(),
        ],
        "categories ordered by name, subcategories ordered by name, everything as stored"
    );

    let brakes_again = category("c2", "Brakes", &[("s6", "Calipers")]);
    store.put_categories(std::slice::from_ref(&brakes_again)).await.expect("replace a category");
    let stored = store.categories().await.expect("categories");
    assert_eq!(stored.len(), 3, "replacing a category adds none");
    assert_eq!(stored[0], brakes_again, "a category with a known id is replaced whole, subcategories too");
    assert_eq!(stored[2], lighting);
}

// ---------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------

/// Every field of a product reads back exactly as written, whichever read returns it.
pub async fn products_round_trip_exactly(store: &dyn CatalogStore) {
    let full = product("p-001/α")
        .name("Bremsscheibe vorne – ब्रेक डिस्क ✓ \"Sport\"")
        .part_no(" A 000 180 26 09 ")
        .price(Money::from_paise(1_249_950))
        .quantity(u32::MAX)
        .units_sold(7)
        .created_at(1_714_000_123)
        .fuel_type(Some(FuelType::Diesel))
        .with(|p| {
            p.condition = Condition::NewWithoutBox;
            p.images = vec!["/img/a.jpg".into(), crate::fixtures::photo("p-full", "ab12"), "/img/a.jpg".into()];
            p.description = "Line one\nLine two\t'quoted' `ticks` ⟨angles⟩".into();
            p.category = "Brakes".into();
            p.category_slug = "brakes".into();
            p.subcategory = "Discs".into();
            p.subcategory_slug = "discs".into();
            p.oem = "Land Rover".into();
            p.oem_slug = "land-rover".into();
            p.variant = "Range Rover Sport (L494) 3.0 SDV6".into();
            p.inside_ncr = Money::from_paise(9_999);
            p.outside_ncr = Money::from_paise(49_950);
            p.gst_percent = 28;
        })
        .build();
    let sparse = product("00123")
        .name("x")
        .part_no("7")
        .price(Money::ZERO)
        .quantity(0)
        .created_at(-86_400)
        .with(|p| {
            p.condition = Condition::Other("stock_lot_B".into());
            p.images = vec![];
            p.description = String::new();
            p.variant = String::new();
            p.gst_percent = 0;
        })
        .build();
    let petrol = product("P3").fuel_type(Some(FuelType::Petrol)).units_sold(1).created_at(0).build();
    let originals = [full.clone(), sparse.clone(), petrol.clone()];
    seed(store, &originals).await;

    for original in &originals {
        let read = store.product(&original.id).await.expect("read a product");
        assert_eq!(read.as_ref(), Some(original), "product {} reads back exactly", original.id);
    }
    assert_eq!(full.part_no.printed(), "A 000 180 26 09");
    assert_eq!(full.part_no.normalized(), "A0001802609");

    let newest = store.newest_products(10).await.expect("newest");
    assert_eq!(newest, vec![full.clone(), petrol.clone(), sparse.clone()], "newest_products returns complete products");
    let best = store.best_selling_products(10).await.expect("best sellers");
    assert_eq!(best, vec![full.clone(), petrol.clone()], "best_selling_products returns complete products");
    let all = search(store, "", 0, 10).await;
    assert_eq!(all.products, vec![full.clone(), petrol, sparse], "search returns complete products");
    let by_part = search(store, "a0001802609", 0, 10).await;
    assert_eq!(by_part.products, vec![full.clone()], "a part-number hit is the complete product");
    let listed = list(store, &of_brands(&["land-rover"])).await;
    assert_eq!(listed.products, vec![full], "list_products returns complete products");
}

/// `product` answers `None` for ids never stored, including ones that could never exist.
pub async fn unknown_product_is_none(store: &dyn CatalogStore) {
    seed(store, &[product("p1").build()]).await;
    let long = "x".repeat(1_000);
    let odd =
        ["p2", "P1", "p1 ", "", " ", "!!!", "product:p1", "p1'; DELETE product; --", "⟨p1⟩", "`p1`", "\0", "🚗", &long];
    for id in odd {
        let found = store.product(&pid(id)).await.unwrap_or_else(|e| panic!("product({id:?}) must not fail: {e}"));
        assert_eq!(found, None, "product({id:?}) is None");
    }
    assert!(store.product(&pid("p1")).await.expect("read p1").is_some(), "the stored product is still there");
    assert_eq!(store.count_products().await.expect("count"), 1);
}

/// A batch with a known or repeated id is refused whole, naming the id.
pub async fn duplicate_product_is_refused_and_nothing_written(store: &dyn CatalogStore) {
    store.add_products(&[]).await.expect("adding no products is fine");
    let original = product("p1").name("Original Disc").build();
    seed(store, std::slice::from_ref(&original)).await;

    let clash = store.add_products(&[product("p2").build(), product("p1").name("Impostor").build()]).await;
    assert_eq!(
        clash,
        Err(CatalogStoreError::Duplicate { id: "p1".into() }),
        "an id already stored is refused as Duplicate naming it"
    );
    assert_eq!(store.product(&pid("p2")).await.expect("read p2"), None, "nothing of a refused batch is written");
    assert_eq!(store.product(&pid("p1")).await.expect("read p1"), Some(original), "the stored product is untouched");

    let twice = store.add_products(&[product("p3").build(), product("p4").build(), product("p3").build()]).await;
    assert_eq!(
        twice,
        Err(CatalogStoreError::Duplicate { id: "p3".into() }),
        "an id appearing twice in one batch is refused as Duplicate naming it"
    );
    for id in ["p3", "p4"] {
        assert_eq!(store.product(&pid(id)).await.expect("read"), None, "{id} of a refused batch is not written");
    }
    assert_eq!(store.count_products().await.expect("count"), 1);
    assert_eq!(search_ids(store, "impostor").await, Vec::<String>::new(), "a refused product is not searchable");
}

/// Newest first by `created_at`, ties by id, at most `limit`.
pub async fn newest_first(store: &dyn CatalogStore) {
    assert_eq!(store.newest_products(5).await.expect("newest of an empty store"), vec![]);
    seed(
        store,
        &[
            product("n1").created_at(100).build(),
            product("n2").created_at(300).build(),
            product("n3").created_at(200).build(),
            product("n0").created_at(300).build(),
            product("n4").created_at(-5).build(),
        ],
    )
    .await;
    assert_eq!(ids(&store.newest_products(10).await.expect("newest")), ["n0", "n2", "n3", "n1", "n4"]);
    assert_eq!(ids(&store.newest_products(3).await.expect("newest")), ["n0", "n2", "n3"], "at most `limit`");
    assert_eq!(ids(&store.newest_products(1).await.expect("newest")), ["n0"], "a tie at the cut is broken by id too");
    assert_eq!(store.newest_products(0).await.expect("newest"), vec![], "limit 0 returns none");
}

/// Best sellers rank by units sold (ties by id) and leave out what never sold.
pub async fn best_sellers_exclude_unsold_and_rank_by_units(store: &dyn CatalogStore) {
    assert_eq!(store.best_selling_products(5).await.expect("best sellers of an empty store"), vec![]);
    seed(
        store,
        &[
            product("s1").units_sold(5).build(),
            product("s2").units_sold(0).created_at(2_000_000_000).build(),
            product("s3").units_sold(12).build(),
            product("s4").units_sold(5).build(),
            product("s5").units_sold(1).build(),
            product("s0").units_sold(5).build(),
        ],
    )
    .await;
    assert_eq!(
        ids(&store.best_selling_products(10).await.expect("best sellers")),
        ["s3", "s0", "s1", "s4", "s5"],
        "units sold descending, then id; unsold products are left out"
    );
    assert_eq!(ids(&store.best_selling_products(2).await.expect("best sellers")), ["s3", "s0"], "at most `limit`");
    assert_eq!(
        ids(&store.best_selling_products(3).await.expect("best sellers")),
        ["s3", "s0", "s1"],
        "ties at the cut by id"
    );
    assert_eq!(store.best_selling_products(0).await.expect("best sellers"), vec![]);
}

// ---------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------

/// Empty (or blank) text matches every product, most recently listed first.
pub async fn empty_search_lists_everything_newest_first(store: &dyn CatalogStore) {
    let empty = search(store, "", 0, 20).await;
    assert_eq!((empty.products, empty.total), (vec![], 0), "an empty store finds nothing");

    seed(
        store,
        &[
            product("e1").name("Front Brake Disc").created_at(10).build(),
            product("e2").name("Oil Filter").created_at(50).build(),
            product("e3").name("Headlamp").created_at(30).build(),
            product("e4").name("Wiper Blade").created_at(50).build(),
            product("e5").name("Spark Plug").created_at(40).build(),
        ],
    )
    .await;
    let newest_order = ["e2", "e4", "e5", "e3", "e1"];
    for blank in ["", "   ", "\t\n "] {
        let all = search(store, blank, 0, 20).await;
        assert_eq!(ids(&all.products), newest_order, "{blank:?} lists every product newest first, ties by id");
        assert_eq!(all.total, 5);
    }
    let window = search(store, "", 2, 2).await;
    assert_eq!(ids(&window.products), ["e5", "e3"], "offset and limit cut a window of the listing");
    assert_eq!(window.total, 5, "total counts the whole listing, not the window");
}

/// A part number finds its parts however it is spelled.
pub async fn part_number_in_any_spelling_finds_the_part(store: &dyn CatalogStore) {
    seed(
        store,
        &[
            product("disc-a").name("Front Brake Disc").part_no("A 000 180 26 09").build(),
            product("disc-b").name("Brake Disc used").part_no("A0001802609").build(),
            product("filter").name("Oil Filter").part_no("11 42 7 953 129").build(),
            product("other").name("Rear Brake Disc").part_no("A 000 180 26 10").build(),
        ],
    )
    .await;
    for spelling in ["A 000 180 26 09", "a0001802609", "A000-180-2609", " a.000/180 26-09 "] {
        assert_eq!(
            search_id_set(store, spelling).await,
            set(&["disc-a", "disc-b"]),
            "{spelling:?} finds every unit of part A0001802609 and nothing else"
        );
    }
    for spelling in ["11427953129", "11-42-7-953-129", "11 42 7 953 129"] {
        assert_eq!(search_id_set(store, spelling).await, set(&["filter"]), "{spelling:?} finds the oil filter");
    }
    assert_eq!(search_ids(store, "A0001802608").await, Vec::<String>::new(), "a different part number finds nothing");
}

/// Products whose normalised part number equals the text come before every name-only match.
pub async fn exact_part_number_ranks_first(store: &dyn CatalogStore) {
    seed(
        store,
        &[
            // Name-only matches: the number is a word of their names, and the short
            // names give them every advantage a relevance score could.
            product("a-name").name("34116792219").part_no("X1").build(),
            product("b-name").name("Disc 34116792219").part_no("X2").build(),
            product("c-name").name("Brake disc fits 34116792219 and 34116792220").part_no("X3").build(),
            // Part-number hits with names that share nothing with the text, and ids that sort last.
            product("y-part").name("Front Brake Disc Ventilated").part_no("34 11 6 792 219").build(),
            product("z-part").name("Front Brake Disc").part_no("34116792219").build(),
            product("unrelated").name("Oil Filter").part_no("11427953129").build(),
        ],
    )
    .await;
    let ranked = search_ids(store, "34 11 6 792 219").await;
    assert_eq!(ranked.len(), 2, "{ranked:?}: only the two part-number hits (the spaced text is no name word)");

    let ranked = search_ids(store, "34116792219").await;
    assert_eq!(ranked.len(), 5, "{ranked:?}: two part-number hits and three name matches");
    assert_eq!(
        ranked[..2].iter().cloned().collect::<BTreeSet<_>>(),
        set(&["y-part", "z-part"]),
        "{ranked:?}: exact part-number matches rank before every name-only match"
    );
    assert_eq!(ranked[2..].iter().cloned().collect::<BTreeSet<_>>(), set(&["a-name", "b-name", "c-name"]));
}

/// Each word of the text that begins a word of the name (case-insensitively) is a match;
/// one-character words are ignored and only the first ten characters of a word count.
pub async fn name_prefixes_find_products(store: &dyn CatalogStore) {
    seed(
        store,
        &[
            product("disc").name("Front Brake Disc").build(),
            product("pads").name("Rear Brake Pad Set").build(),
            product("turbo").name("Turbocharger Assembly").build(),
            product("nozzle").name("Headlamp Washer Nozzle").build(),
            product("mount").name("Transmission Mount").build(),
        ],
    )
    .await;
    let cases: [(&str, &[&str]); 13] = [
        ("brak dis", &["disc"]),
        ("Brake", &["disc", "pads"]),
        ("BRAKE", &["disc", "pads"]),
        ("br", &["disc", "pads"]),
        ("front", &["disc"]),
        ("head", &["nozzle"]),
        ("was noz", &["nozzle"]),
        ("Turbocharger", &["turbo"]),
        ("turbochargers", &["turbo"]),
        ("transmission", &["mount"]),
        ("a brake", &["disc", "pads"]),
        ("brake  ,  disc", &["disc"]),
        ("rake", &[]),
    ];
    for (text, expected) in cases {
        assert_eq!(search_id_set(store, text).await, set(expected), "search {text:?}");
    }
}

/// Every word of the text must begin a word of the name, in any order.
pub async fn every_word_must_match(store: &dyn CatalogStore) {
    seed(
        store,
        &[
            product("disc").name("Front Brake Disc").build(),
            product("pads").name("Rear Brake Pad Set").build(),
            product("filter").name("Oil Filter").build(),
        ],
    )
    .await;
    let cases: [(&str, &[&str]); 7] = [
        ("brake zzz", &[]),
        ("rear disc", &[]),
        ("oil brake", &[]),
        ("disc front", &["disc"]),
        ("pad rear set", &["pads"]),
        ("brake pad", &["pads"]),
        ("brake brake", &["disc", "pads"]),
    ];
    for (text, expected) in cases {
        assert_eq!(search_id_set(store, text).await, set(expected), "search {text:?}");
    }
}

/// Consecutive windows over one result neither repeat nor skip, and `total` is the whole result.
pub async fn windows_neither_repeat_nor_skip(store: &dyn CatalogStore) {
    let mut products = Vec::new();
    for k in 0..23 {
        // Names tie on relevance in groups and listing times tie too, so only a
        // complete, deterministic order keeps the windows apart.
        let name = match k % 3 {
            0 => format!("Brake Pad {k}"),
            1 => "Brake Pad".to_owned(),
            _ => format!("Ceramic Brake Pad Kit {k}"),
        };
        products.push(product(&format!("w{:02}", 22 - k)).name(&name).created_at(i64::from(k % 4)).build());
    }
    products.push(product("other1").name("Oil Filter").created_at(3).build());
    products.push(product("other2").name("Spark Plug").created_at(1).build());
    seed(store, &products).await;

    for (text, expected_total) in [("brake pad", 23_u64), ("", 25)] {
        let whole = search(store, text, 0, 1_000).await;
        assert_eq!(whole.total, expected_total, "{text:?}: total");
        assert_eq!(whole.products.len() as u64, expected_total);
        for limit in [1_u32, 5, 7, 23] {
            let mut seen = Vec::new();
            let mut offset = 0;
            while offset < expected_total + 3 {
                let window = search(store, text, offset, limit).await;
                assert_eq!(window.total, expected_total, "{text:?}: every window reports the whole result's size");
                assert!(window.products.len() <= limit as usize, "{text:?}: a window holds at most `limit`");
                seen.extend(ids(&window.products));
                offset += u64::from(limit);
            }
            assert_eq!(
                seen,
                ids(&whole.products),
                "{text:?}: windows of {limit} put together are the whole result, in order, once each"
            );
        }
        let past_the_end = search(store, text, expected_total, 10).await;
        assert_eq!((past_the_end.products.len(), past_the_end.total), (0, expected_total), "{text:?}: past the end");
        let none = search(store, text, 0, 0).await;
        assert_eq!((none.products.len(), none.total), (0, expected_total), "{text:?}: limit 0 still counts");
    }
}

/// Whatever a visitor types, search answers (with or without results) and changes nothing.
pub async fn odd_input_is_harmless(store: &dyn CatalogStore) {
    seed(
        store,
        &[
            product("o1").name("Front Brake Disc").build(),
            product("o2").name("Oil Filter").build(),
            product("o3").name("O'Reilly \"Special\" Gasket; DROP").build(),
        ],
    )
    .await;
    let long_word = "a".repeat(1_000);
    let long_words = "brake ".repeat(200);
    let odd = [
        "'",
        "\"",
        "`",
        "\\",
        "' OR 1=1 --",
        "\"; DELETE product; --",
        "'; REMOVE TABLE product; --",
        "SELECT * FROM product",
        "$text",
        "$value",
        "NONE",
        "null",
        "true",
        "⟨⟩",
        "product:o1",
        "o1",
        "🚗💨",
        "ब्रेक डिस्क",
        "Bremsscheibe ß é",
        "!!!",
        "-",
        "*",
        "%",
        "_",
        "?",
        "()[]{}",
        "@@",
        "@1@",
        "1e400",
        "-1",
        "0x1F",
        "\0",
        "\n\t\r",
        "a",
        "a b c",
        &long_word,
        &long_words,
        "O'Reilly",
        "|$w| true",
        "/.*/",
        "<script>alert(1)</script>",
    ];
    for text in odd {
        let slice = search(store, text, 0, 10).await;
        assert!(slice.products.len() <= 10, "{text:?}: at most `limit`");
        assert!(slice.total >= slice.products.len() as u64, "{text:?}: total covers the window");
    }
    for (offset, limit) in [(u64::MAX, 10), (0, u32::MAX), (u64::MAX, u32::MAX)] {
        let slice = search(store, "brake", offset, limit).await;
        assert!(slice.products.len() <= 1, "huge windows are harmless ({offset}, {limit})");
    }
    assert_eq!(search_id_set(store, "o'reilly").await, set(&["o3"]), "quotes in a name are searchable");
    assert_eq!(store.count_products().await.expect("count"), 3, "no input changed the catalog");
    assert!(store.product(&pid("o1")).await.expect("read o1").is_some());
}

// ---------------------------------------------------------------------------
// Listings (brand, category and subcategory pages)
// ---------------------------------------------------------------------------

/// A brand filter lists that maker's products only; a list of makers lists any of them.
pub async fn listing_filters_by_brand(store: &dyn CatalogStore) {
    let empty = list(store, &of_brands(&["bmw"])).await;
    assert_eq!((empty.products, empty.total), (vec![], 0), "an empty store lists nothing");
    seed(
        store,
        &[
            product("b1").brand("BMW").created_at(10).build(),
            product("b2").brand("BMW").created_at(30).build(),
            product("m1").brand("Mercedes-Benz").created_at(20).build(),
            product("l1").brand("Land Rover").created_at(40).build(),
            product("r1").brand("Range Rover").created_at(50).build(),
            product("b3").brand("BMW").created_at(30).build(),
        ],
    )
    .await;
    assert_eq!(listed_ids(store, &of_brands(&["bmw"])).await, ["b2", "b3", "b1"], "BMW's products only, newest first");
    assert_eq!(listed_ids(store, &of_brands(&["mercedes-benz"])).await, ["m1"]);
    assert_eq!(
        listed_ids(store, &of_brands(&["land-rover"])).await,
        ["l1"],
        "a slug matches whole: land-rover is not range-rover"
    );
    assert_eq!(
        listed_ids(store, &of_brands(&["bmw", "land-rover"])).await,
        ["l1", "b2", "b3", "b1"],
        "a list of brands lists the products of any of them, in one newest-first order"
    );
    assert_eq!(
        listed_ids(store, &of_brands(&["land-rover", "bmw"])).await,
        ["l1", "b2", "b3", "b1"],
        "the order of the brand list changes nothing"
    );
    assert_eq!(
        listed_ids(store, &ProductListing::default()).await,
        ["r1", "l1", "b2", "b3", "m1", "b1"],
        "no filter lists every product"
    );
}

/// A category lists its products; category and subcategory together, that subcategory's.
pub async fn listing_filters_by_category_and_subcategory(store: &dyn CatalogStore) {
    seed(
        store,
        &[
            product("d1").category("Brakes", "Discs").created_at(10).build(),
            product("d2").category("Brakes", "Discs").created_at(20).build(),
            product("p1").category("Brakes", "Pads").created_at(30).build(),
            product("e1").category("Engine", "Others").created_at(40).build(),
            product("o1").category("Brakes", "Others").created_at(50).build(),
            product("f1").category("Filters", "Oil Filters").brand("BMW").created_at(60).build(),
            product("f2").category("Filters", "Oil Filters").brand("Audi").created_at(70).build(),
        ],
    )
    .await;
    assert_eq!(listed_ids(store, &of_category("brakes", None)).await, ["o1", "p1", "d2", "d1"]);
    assert_eq!(listed_ids(store, &of_category("brakes", Some("discs"))).await, ["d2", "d1"]);
    assert_eq!(
        listed_ids(store, &of_category("brakes", Some("others"))).await,
        ["o1"],
        "a subcategory slug that repeats across categories lists the given category's only"
    );
    assert_eq!(listed_ids(store, &of_category("engine", Some("others"))).await, ["e1"]);
    assert_eq!(
        listed_ids(store, &ProductListing { subcategory: Some("others".into()), ..ProductListing::default() }).await,
        ["o1", "e1"],
        "a subcategory alone holds on its own"
    );
    assert_eq!(
        listed_ids(store, &of_category("brakes", Some("oil-filters"))).await,
        Vec::<String>::new(),
        "a subcategory of another category lists nothing: every filter must hold"
    );
    let bmw_filters = ProductListing { brands: vec![brand_slug("bmw")], ..of_category("filters", Some("oil-filters")) };
    assert_eq!(listed_ids(store, &bmw_filters).await, ["f1"], "brand and category filters hold together");
}

/// Within the condition and fuel lists any value matches; every list given must hold.
pub async fn listing_condition_and_fuel_lists_match_any_value(store: &dyn CatalogStore) {
    let bmw = |id: &str, condition: Condition, fuel: Option<FuelType>, at: i64| {
        product(id).brand("BMW").condition(condition).fuel_type(fuel).created_at(at).build()
    };
    seed(
        store,
        &[
            bmw("n1", Condition::New, Some(FuelType::Petrol), 10),
            bmw("n2", Condition::NewWithoutBox, Some(FuelType::Petrol), 20),
            bmw("o1", Condition::Old, Some(FuelType::Diesel), 30),
            bmw("o2", Condition::Old, None, 40),
            bmw("r1", Condition::Refurbished, Some(FuelType::Diesel), 50),
            bmw("s1", Condition::Other("stock_lot".into()), Some(FuelType::Hybrid), 60),
            product("a1")
                .brand("Audi")
                .condition(Condition::Old)
                .fuel_type(Some(FuelType::Petrol))
                .created_at(70)
                .build(),
        ],
    )
    .await;
    let filtered = |brands: &[&str], conditions: &[Condition], fuels: &[FuelType]| ProductListing {
        conditions: conditions.to_vec(),
        fuels: fuels.to_vec(),
        ..of_brands(brands)
    };
    let cases: [(ProductListing, &[&str], &str); 12] = [
        (filtered(&[], &[Condition::New], &[]), &["n1"], "new does not take in new_without_box"),
        (filtered(&[], &[Condition::NewWithoutBox], &[]), &["n2"], "each stored code is its own condition"),
        (filtered(&[], &[Condition::Old], &[]), &["a1", "o2", "o1"], "old"),
        (filtered(&[], &[Condition::Old, Condition::New], &[]), &["a1", "o2", "o1", "n1"], "old or new"),
        (filtered(&[], &[Condition::Other("stock_lot".into())], &[]), &["s1"], "an unlabelled code matches itself"),
        (filtered(&[], &[], &[FuelType::Petrol]), &["a1", "n2", "n1"], "petrol"),
        (
            filtered(&[], &[], &[FuelType::Petrol, FuelType::Diesel]),
            &["a1", "r1", "o1", "n2", "n1"],
            "petrol or diesel; a product without a fuel matches no fuel filter",
        ),
        (filtered(&[], &[], &[FuelType::Electric]), &[], "a fuel nothing runs on"),
        (filtered(&[], &[Condition::Old], &[FuelType::Petrol]), &["a1"], "condition and fuel together"),
        (
            filtered(&["bmw"], &[Condition::Old], &[FuelType::Petrol, FuelType::Diesel]),
            &["o1"],
            "brand, condition and fuel together",
        ),
        (filtered(&["bmw"], &[Condition::Old, Condition::New], &[FuelType::Hybrid]), &[], "no BMW old or new hybrid"),
        (filtered(&["bmw", "audi"], &[Condition::Old], &[]), &["a1", "o2", "o1"], "any brand of the list, old"),
    ];
    for (listing, expected, what) in cases {
        assert_eq!(listed_ids(store, &listing).await, expected, "{what}: {listing:?}");
    }
}

/// Newest first by `created_at`, ties by id, for a filtered listing and for the whole catalog.
pub async fn listing_is_newest_first(store: &dyn CatalogStore) {
    seed(
        store,
        &[
            product("x1").brand("BMW").created_at(100).build(),
            product("x2").brand("BMW").created_at(300).build(),
            product("x3").brand("BMW").created_at(200).build(),
            product("x0").brand("BMW").created_at(300).build(),
            product("x4").brand("BMW").created_at(-5).build(),
            product("y1").brand("Audi").created_at(250).build(),
        ],
    )
    .await;
    assert_eq!(listed_ids(store, &of_brands(&["bmw"])).await, ["x0", "x2", "x3", "x1", "x4"]);
    assert_eq!(listed_ids(store, &ProductListing::default()).await, ["x0", "x2", "y1", "x3", "x1", "x4"]);
    let first = list(store, &ProductListing { limit: 1, ..of_brands(&["bmw"]) }).await;
    assert_eq!((ids(&first.products), first.total), (vec!["x0".to_owned()], 5), "a tie at the cut is broken by id");
    let second = list(store, &ProductListing { offset: 1, limit: 2, ..of_brands(&["bmw"]) }).await;
    assert_eq!(ids(&second.products), ["x2", "x3"], "offset and limit cut a window of the listing");
}

/// Consecutive windows over one listing neither repeat nor skip, and `total` is the whole listing.
pub async fn listing_windows_neither_repeat_nor_skip(store: &dyn CatalogStore) {
    let mut products = Vec::new();
    for k in 0..23_i64 {
        // Listing times tie in groups, so only a complete order keeps the windows apart.
        let condition = if k % 2 == 0 { Condition::Old } else { Condition::New };
        let sub = if k % 3 == 0 { "Discs" } else { "Pads" };
        products.push(
            product(&format!("w{:02}", 22 - k))
                .brand("BMW")
                .category("Brakes", sub)
                .condition(condition)
                .created_at(k % 4)
                .build(),
        );
        products.push(product(&format!("v{k:02}")).brand("Audi").category("Brakes", sub).created_at(k % 3).build());
    }
    seed(store, &products).await;

    let listings = [
        (of_brands(&["bmw"]), 23_u64),
        (ProductListing { conditions: vec![Condition::Old], ..of_brands(&["bmw"]) }, 12),
        (of_category("brakes", Some("discs")), 16),
        (of_brands(&["bmw", "audi"]), 46),
        (ProductListing::default(), 46),
    ];
    for (filters, expected_total) in listings {
        let all = list(store, &whole(filters.clone())).await;
        assert_eq!(all.total, expected_total, "{filters:?}: total");
        assert_eq!(all.products.len() as u64, expected_total);
        for limit in [1_u32, 5, 7, 23] {
            let mut seen = Vec::new();
            let mut offset = 0;
            while offset < expected_total + 3 {
                let window = list(store, &ProductListing { offset, limit, ..filters.clone() }).await;
                assert_eq!(window.total, expected_total, "{filters:?}: every window reports the whole listing's size");
                assert!(window.products.len() <= limit as usize, "{filters:?}: a window holds at most `limit`");
                seen.extend(ids(&window.products));
                offset += u64::from(limit);
            }
            assert_eq!(
                seen,
                ids(&all.products),
                "{filters:?}: windows of {limit} put together are the whole listing, in order, once each"
            );
        }
        let past_the_end = list(store, &ProductListing { offset: expected_total, limit: 10, ..filters.clone() }).await;
        assert_eq!((past_the_end.products.len(), past_the_end.total), (0, expected_total), "{filters:?}: past the end");
        let none = list(store, &ProductListing { offset: 0, limit: 0, ..filters.clone() }).await;
        assert_eq!((none.products.len(), none.total), (0, expected_total), "{filters:?}: limit 0 still counts");
        for (offset, limit) in [(u64::MAX, 10), (0, u32::MAX), (u64::MAX, u32::MAX)] {
            let huge = list(store, &ProductListing { offset, limit, ..filters.clone() }).await;
            assert_eq!(huge.total, expected_total, "{filters:?}: huge windows are harmless ({offset}, {limit})");
        }
    }
}

/// A slug no product carries lists nothing (an empty answer, not an error), and changes nothing.
pub async fn listing_of_an_unknown_slug_is_empty(store: &dyn CatalogStore) {
    seed(
        store,
        &[
            product("k1").brand("BMW").category("Brakes", "Discs").build(),
            product("k2").brand("Mercedes-Benz").category("Engine", "Pistons").build(),
        ],
    )
    .await;
    let odd = [
        "nope",
        "",
        " ",
        "Brakes",
        "brakes ",
        "BRAKES",
        "'; DELETE product; --",
        "\" OR true OR \"",
        "$category",
        "⟨⟩",
        "product:k1",
        "🚗",
        "\0",
    ];
    let mut listings = vec![of_brands(&["audi"]), of_brands(&["porsche", "volvo"]), of_brands(&["bmw-m"])];
    for slug in odd {
        listings.push(of_category(slug, None));
        listings.push(of_category("brakes", Some(slug)));
        listings.push(ProductListing { subcategory: Some(slug.to_owned()), ..ProductListing::default() });
    }
    for listing in listings {
        let slice = list(store, &listing).await;
        assert_eq!((ids(&slice.products), slice.total), (vec![], 0), "{listing:?} lists nothing");
    }
    assert_eq!(listed_ids(store, &of_category("brakes", Some("discs"))).await, ["k1"], "slugs are compared exactly");
    assert_eq!(store.count_products().await.expect("count"), 2, "no listing changed the catalog");
}

// ---------------------------------------------------------------------------
// Counting
// ---------------------------------------------------------------------------

/// `count_products` counts what is stored, and a refused batch adds nothing.
pub async fn count_products(store: &dyn CatalogStore) {
    assert_eq!(store.count_products().await.expect("count of an empty store"), 0);
    seed(store, &[product("c1").build(), product("c2").build(), product("c3").build()]).await;
    assert_eq!(store.count_products().await.expect("count"), 3);
    seed(store, &[product("c4").build(), product("c5").build()]).await;
    assert_eq!(store.count_products().await.expect("count"), 5);
    let refused = store.add_products(&[product("c6").build(), product("c1").build()]).await;
    assert!(matches!(refused, Err(CatalogStoreError::Duplicate { .. })), "{refused:?}");
    assert_eq!(store.count_products().await.expect("count"), 5, "a refused batch adds nothing");
}

// ---------------------------------------------------------------------------
// Product stamps (the sitemap)
// ---------------------------------------------------------------------------

async fn stamps(store: &dyn CatalogStore, after: Option<&str>, limit: u32) -> Vec<ProductStamp> {
    store
        .product_stamps(after.map(pid), limit)
        .await
        .unwrap_or_else(|e| panic!("product_stamps after {after:?}, limit {limit}: {e}"))
}

fn stamp_ids(stamps: &[ProductStamp]) -> Vec<String> {
    stamps.iter().map(|s| s.id.0.clone()).collect()
}

/// Windows of `product_stamps`, each after the last id of the one before, hold every
/// product once, in id order, each with its listing time.
pub async fn product_stamps_walk_every_product_once_in_id_order(store: &dyn CatalogStore) {
    assert_eq!(stamps(store, None, 10).await, vec![], "a fresh store has no products to stamp");
    // Added out of id order, listed in yet another order; `p10` sorts before `p2`.
    let ids = ["p7", "p10", "p2", "a1", "p1", "z9", "p11", "m5", "p3", "b-2", "p20", "B1", "p100"];
    let products: Vec<Product> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| product(id).created_at(1_700_000_000 + 977 * ((i as i64 * 5) % 13)).build())
        .collect();
    seed(store, &products).await;
    let mut expected: Vec<&str> = ids.to_vec();
    expected.sort_unstable();

    for limit in [1, 4, 5, 13, 50] {
        let mut walked: Vec<ProductStamp> = Vec::new();
        let mut after: Option<String> = None;
        loop {
            let window = stamps(store, after.as_deref(), limit).await;
            assert!(window.len() <= limit as usize, "limit {limit}: a window holds at most `limit` stamps");
            let Some(last) = window.last() else { break };
            after = Some(last.id.0.clone());
            walked.extend(window);
            assert!(walked.len() <= ids.len(), "limit {limit}: the walk never repeats, so it ends");
        }
        assert_eq!(stamp_ids(&walked), expected, "limit {limit}: every product once, in id (byte) order");
        for stamp in &walked {
            let listed = products.iter().find(|p| p.id == stamp.id).map(|p| p.created_at);
            assert_eq!(Some(stamp.listed_at), listed, "{}: the stamp is its listing time", stamp.id);
        }
    }
    assert_eq!(stamps(store, None, 0).await, vec![], "limit 0 is empty");
    assert_eq!(stamps(store, Some("z9"), 10).await, vec![], "nothing after the last id");
    assert_eq!(stamp_ids(&stamps(store, Some("p10"), 3).await), ["p100", "p11", "p2"], "strictly after `after`");
}

/// An `after` no product has, or that could never be an id, neither fails nor changes anything.
pub async fn product_stamps_after_any_id_are_harmless(store: &dyn CatalogStore) {
    seed(store, &[product("k1").build(), product("k3").build(), product("m1").build()]).await;
    assert_eq!(stamp_ids(&stamps(store, Some("k2"), 10).await), ["k3", "m1"], "an id no product has works as a bound");
    assert_eq!(stamp_ids(&stamps(store, Some(""), 10).await), ["k1", "k3", "m1"], "every id sorts after the empty one");
    for odd in ["'; DELETE product; --", "\" OR true OR \"", "$after", "⟨⟩", "product:k1", "🚗", "\0", " "] {
        let window = stamps(store, Some(odd), 10).await;
        let mut expected: Vec<&str> = ["k1", "k3", "m1"].into_iter().filter(|id| *id > odd).collect();
        expected.sort_unstable();
        assert_eq!(stamp_ids(&window), expected, "after {odd:?}");
    }
    assert_eq!(store.count_products().await.expect("count"), 3, "no window changed the catalog");
}

/// Windows of `products_after` walk every product once, in id order, each exactly as
/// `product` gives it; bounds behave as `product_stamps`' do.
pub async fn products_after_walk_every_product_once_as_stored(store: &dyn CatalogStore) {
    let window = |after: Option<&'static str>, limit: u32| async move {
        store
            .products_after(after.map(pid), limit)
            .await
            .unwrap_or_else(|e| panic!("products_after {after:?}, limit {limit}: {e}"))
    };
    assert_eq!(window(None, 10).await, vec![], "a fresh store has no products");
    let ids = ["p7", "p10", "p2", "a1", "p1", "z9", "p11", "m5", "b-2", "B1"];
    let products: Vec<Product> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| product(id).created_at(1_700_000_000 + 31 * i as i64).units_sold(i as u32).build())
        .collect();
    seed(store, &products).await;
    let mut expected: Vec<&str> = ids.to_vec();
    expected.sort_unstable();
    for limit in [1, 3, 10, 50] {
        let mut walked: Vec<Product> = Vec::new();
        let mut after: Option<ProductId> = None;
        loop {
            let page = store.products_after(after.clone(), limit).await.expect("products_after");
            assert!(page.len() <= limit as usize, "limit {limit}: at most `limit` products");
            let Some(last) = page.last() else { break };
            after = Some(last.id.clone());
            walked.extend(page);
            assert!(walked.len() <= ids.len(), "limit {limit}: the walk never repeats, so it ends");
        }
        let walked_ids: Vec<&str> = walked.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(walked_ids, expected, "limit {limit}: every product once, in id (byte) order");
        for p in &walked {
            let stored = store.product(&p.id).await.expect("product");
            assert_eq!(Some(p), stored.as_ref(), "{}: as `product` gives it", p.id);
        }
    }
    assert_eq!(window(None, 0).await, vec![], "limit 0 is empty");
    assert_eq!(window(Some("z9"), 10).await, vec![], "nothing after the last id");
    let after_p10: Vec<String> = window(Some("p10"), 2).await.into_iter().map(|p| p.id.0).collect();
    assert_eq!(after_p10, ["p11", "p2"], "strictly after `after`");
    let after_k: Vec<String> = window(Some("k"), 1).await.into_iter().map(|p| p.id.0).collect();
    assert_eq!(after_k, ["m5"], "an id no product has works as a bound");
    let from_empty: Vec<String> = window(Some(""), 1).await.into_iter().map(|p| p.id.0).collect();
    assert_eq!(from_empty, ["B1"], "every id sorts after the empty one");
}

// ---------------------------------------------------------------------------
// Refused writes
// ---------------------------------------------------------------------------

/// A brand, category or product with an empty id is `Invalid`, and its batch writes nothing.
pub async fn empty_ids_are_invalid_and_nothing_is_written(store: &dyn CatalogStore) {
    let refused = store.put_brands(&[brand("b1", "BMW"), brand("", "Audi")]).await;
    assert!(matches!(refused, Err(CatalogStoreError::Invalid { .. })), "put_brands with an empty id: {refused:?}");
    assert_eq!(store.brands().await.expect("brands"), vec![], "a refused brand batch writes nothing");

    let refused = store
        .put_categories(&[category("c1", "Brakes", &[("s1", "Discs")]), category("", "Engine", &[("s2", "Pistons")])])
        .await;
    assert!(matches!(refused, Err(CatalogStoreError::Invalid { .. })), "put_categories with an empty id: {refused:?}");
    assert_eq!(store.categories().await.expect("categories"), vec![], "a refused category batch writes nothing");

    let refused = store.add_products(&[product("e1").build(), product("").build()]).await;
    assert!(matches!(refused, Err(CatalogStoreError::Invalid { .. })), "add_products with an empty id: {refused:?}");
    assert_eq!(store.count_products().await.expect("count"), 0, "a refused product batch writes nothing");
}

#[cfg(test)]
mod tests {
    use super::CATALOG_SUITE;

    #[test]
    fn the_suite_list_and_the_macro_name_the_same_suites() {
        let mut from_macro: Vec<&str> = Vec::new();
        macro_rules! collect {
            ($suite:ident) => {
                from_macro.push(stringify!($suite));
            };
        }
        crate::for_each_catalog_suite!(collect);
        let listed: Vec<&str> = CATALOG_SUITE.iter().map(|(name, _)| *name).collect();
        assert_eq!(listed, from_macro);
        let mut unique = listed.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), listed.len(), "suite names are unique");
    }
}
