//! The in-process catalog index (ADR 0019) against the database's own statements: after random
//! writes through the store (the seed's `add_products`), the back office (renames, moves,
//! publishing and unpublishing, new products, conditions and fuels, prices, category slug changes)
//! the stock ledger and fitment writes (rows of two generations, every engine or one, with and
//! without years), every search (ranking and window), every listing (filters, newest-first
//! order, window and count) and the catalog's size from the indexed store equal what SurrealDB
//! itself answers. The indexed store fails a read the index cannot answer, so none of these passes
//! on the database's answers.

use marque_contract_tests::fixtures::{brand, brand_slug, category, product};
use marque_domain::catalog::{Category, Condition, FuelType, Grade, OemBrand, Product, ProductId};
use marque_domain::stock::Adjustment;
use marque_domain::vehicle::{Car, EngineCode, FitmentRow, GenerationId, ProductFit, VehicleId, YearRange};
use marque_ports::{
    Actor, AuditEntry, CatalogChanges, CatalogEditor, CatalogStore, ProductListing, ProductQuery, StockLedger,
    StockLedgerError, VehicleStore,
};
use marque_surreal::Database;

/// A small fixed-seed generator (xorshift): the same edits on every run and engine.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n as u64).unwrap_or(0)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Names sharing words and prefixes, with repeats, punctuation and letters the `ascii` filter folds,
/// so that scores differ by term frequency, name length and term rarity.
const NAMES: [&str; 12] = [
    "Front Brake Disc",
    "Brake Pad Brake Set",
    "Oil Filter",
    "Filter Housing Oil Filter Kit",
    "Turbocharger",
    "Turbo Hose Clamp",
    "Br Bracket Brace",
    "Zebrawood Trim",
    "Éclairage Phare Avant",
    "X5 Brake-Line",
    "Rear Brake Caliper Left Rear",
    "Brakes",
];

fn brands() -> Vec<OemBrand> {
    vec![brand("b1", "BMW"), brand("b2", "Audi"), brand("b3", "Mercedes-Benz")]
}

fn categories() -> Vec<Category> {
    vec![
        category("c1", "Brakes", &[("s1", "Brake Disc"), ("s2", "Brake Pads")]),
        category("c2", "Engine", &[("s3", "Filters"), ("s4", "Turbo")]),
    ]
}

fn audit(action: &str, subject: &str) -> AuditEntry {
    AuditEntry::new(1_750_000_000, Actor::System("index test".into()), action, subject)
}

/// Product `n` of a batch: a name, brand, place, condition and fuel from `rng`.
fn random_product(rng: &mut Rng, n: usize) -> Product {
    let brand = rng.pick(&brands()).name.clone();
    let category = rng.pick(&categories()).clone();
    let sub = rng.pick(&category.subcategories).name.clone();
    let name = format!("{} {} {}", brand, rng.pick(&NAMES), rng.pick(&["", "Set", "Brake", "Kit Kit"]));
    product(&format!("p{n:04}"))
        .name(name.trim())
        .brand(&brand)
        .category(&category.name, &sub)
        .condition(rng.pick(&[Condition::New, Condition::Old, Condition::Refurbished]).clone())
        .fuel_type(*rng.pick(&[None, Some(FuelType::Diesel), Some(FuelType::Petrol)]))
        .created_at(1_700_000_000 + i64::try_from(rng.below(50)).unwrap_or(0))
        .part_no(&format!("A{} {}", rng.below(7), n))
        .with(|p| p.details.grade = grade_of(p, n))
        .build()
}

/// A used unit's grade, from a number rather than the generator (so the edits stay as they were):
/// none for a new part, and for one used unit in four.
fn grade_of(p: &Product, n: usize) -> Option<Grade> {
    if p.condition.is_used() {
        [None, Some(Grade::A), Some(Grade::B), Some(Grade::C)][n % 4]
    } else {
        None
    }
}

/// Up to three fitment rows of two generations of the X5 (every engine, or the B57 or B58 one;
/// every year, or a range): none for one product in four.
fn random_fits(rng: &mut Rng) -> Vec<ProductFit> {
    let mut fits: Vec<ProductFit> = Vec::new();
    for _ in 0..rng.below(4) {
        let (generation, code) = *rng.pick(&[("bmw-x5-g05", "G05"), ("bmw-x5-f15", "F15")]);
        let engine = *rng.pick(&[None, Some("b57"), Some("b58")]);
        let years = *rng.pick(&[None, Some((2019, Some(2021))), Some((2020, None))]);
        let row = FitmentRow {
            generation: GenerationId::parse(generation).expect("a generation"),
            engine: engine.map(|e| EngineCode::parse(e).expect("an engine")),
            years: years.map(|(from, to)| YearRange::new(from, to).expect("years")),
            note: None,
        };
        if fits.iter().any(|f| f.row.generation == row.generation && f.row.engine == row.engine) {
            continue;
        }
        let engine_label = engine.map(|e| if e == "b57" { "3.0d".to_owned() } else { "3.0i".to_owned() });
        fits.push(ProductFit { row, make: "BMW".into(), model: "X5".into(), generation: code.into(), engine_label });
    }
    fits
}

/// A fitment write on a product among the first `products` (its rows replaced by [`random_fits`]).
async fn refit(rng: &mut Rng, vehicles: &dyn VehicleStore, products: usize) -> String {
    let id = ProductId(format!("p{:04}", rng.below(products)));
    let stored = vehicles.fitment(&id).await.expect("fitment reads");
    let fits = random_fits(rng);
    let subject = format!("product:{}", id.as_str());
    vehicles.set_fitment(&id, &fits, stored.version, &audit("product.fitment", &subject)).await.expect("fitment");
    format!("fitment of {}: {} rows", id.as_str(), fits.len())
}

/// One write of the shop's staff: a back-office edit of a product among the first `products`, a new
/// product (`products` grows), a stock adjustment, or a category's rename.
async fn edit(rng: &mut Rng, editor: &dyn CatalogEditor, ledger: &dyn StockLedger, products: &mut usize) -> String {
    let kind = rng.below(12);
    if kind == 10 {
        let mut p = random_product(rng, *products);
        p.details.published = rng.below(4) != 0;
        editor.create_product(&p, &audit("product.create", &format!("product:{}", p.id.as_str()))).await.expect("new");
        *products += 1;
        return format!("new product {} (published: {})", p.id.as_str(), p.details.published);
    }
    if kind == 11 {
        let id = ProductId(format!("p{:04}", rng.below(*products)));
        let subject = format!("product:{}", id.as_str());
        let taken = Adjustment::parse(-1, "damaged", None).expect("an adjustment");
        let what = match ledger.adjust(&id, &taken, &audit("stock.adjust", &subject)).await {
            Ok(_) => "one unit taken",
            Err(StockLedgerError::BelowZero { .. }) => {
                let received = Adjustment::parse(5, "received", None).expect("an adjustment");
                ledger.adjust(&id, &received, &audit("stock.adjust", &subject)).await.expect("received");
                "five units received"
            }
            Err(e) => panic!("stock of {}: {e}", id.as_str()),
        };
        return format!("stock of {}: {what}", id.as_str());
    }
    if kind == 9 {
        let mut renamed = rng.pick(&categories()).clone();
        renamed.name = format!("{} {}", renamed.name, rng.below(3));
        renamed.slug = format!("{}-{}", renamed.slug, rng.below(3));
        // The stored one may already carry another slug: update by id, whatever it is now.
        let what = format!("category {} now {}", renamed.id, renamed.slug);
        editor.update_category(&renamed, &audit("category.update", &renamed.id)).await.expect("category");
        return what;
    }
    let id = ProductId(format!("p{:04}", rng.below(*products)));
    let mut p = editor.product(&id).await.expect("reads").expect("a stored product");
    let what = match kind {
        0 | 1 => {
            p.name = format!("{} {}", rng.pick(&NAMES), rng.pick(&["", "Brake", "Oil"])).trim().to_owned();
            "name"
        }
        2 | 3 => {
            let category = rng.pick(&categories()).clone();
            let sub = rng.pick(&category.subcategories).clone();
            (p.category, p.category_slug, p.subcategory, p.subcategory_slug) =
                (category.name, category.slug, sub.name, sub.slug);
            "place"
        }
        4 => {
            let brand = rng.pick(&brands()).clone();
            (p.oem, p.oem_slug) = (brand.name, brand.slug);
            "brand"
        }
        5 | 6 => {
            // Unpublishing takes the product out of the shop's table; publishing brings it back.
            p.details.published = !p.details.published;
            if p.details.published {
                "published"
            } else {
                "unpublished"
            }
        }
        7 => {
            p.condition = rng.pick(&[Condition::New, Condition::Old, Condition::Refurbished]).clone();
            p.fuel_type = *rng.pick(&[None, Some(FuelType::Diesel), Some(FuelType::Petrol)]);
            p.details.grade = grade_of(&p, p.name.len() + p.price.paise().unsigned_abs() as usize);
            "condition and fuel"
        }
        _ => {
            p.price = marque_domain::Money::from_paise(100 + i64::try_from(rng.below(10_000)).unwrap_or(0));
            "price"
        }
    };
    editor.update_product(&p, &audit("product.update", &format!("product:{}", id.as_str()))).await.expect("edit");
    format!("{what} of {}", id.as_str())
}

fn questions() -> (Vec<ProductQuery>, Vec<ProductListing>) {
    let texts = [
        "",
        "brake",
        "br",
        "bra",
        "filter",
        "oil filter",
        "tur",
        "turbocharger",
        "turbochar",
        "brake disc",
        "x5 brake",
        "eclair",
        "ÉCLAIRAGE",
        "brake-line",
        "bmw brake",
        "kit",
        "a3",
        "A3 17",
        "zz",
        "b",
        "-",
        "  ",
        "brakes brake",
        "brake brake",
        "brakebrakebrake",
    ];
    let mut queries = Vec::new();
    for text in texts {
        for (offset, limit) in [(0, 20), (20, 20), (3, 5)] {
            queries.push(ProductQuery { text: text.to_owned(), offset, limit, fits: None, grades: Vec::new() });
        }
    }
    // Narrowed to grades: a few texts (every product, names, a part number), one window each.
    for text in ["", "brake", "oil filter", "a3", "tur"] {
        queries.push(ProductQuery { text: text.to_owned(), offset: 0, limit: 20, fits: None, grades: vec![Grade::A] });
        let b_or_c = vec![Grade::B, Grade::C];
        queries.push(ProductQuery { text: text.to_owned(), offset: 3, limit: 5, fits: None, grades: b_or_c });
    }
    // Narrowed to a car: each engine of the G05 (with and without a year), the F15, and a generation
    // no row names; with a text, with grades, and as listings below.
    let cars: Vec<Car> = [
        ("bmw-x5-g05.b57", None),
        ("bmw-x5-g05.b57", Some(2022)),
        ("bmw-x5-g05.b58", Some(2020)),
        ("bmw-x5-g05.s58", None),
        ("bmw-x5-f15.b57", Some(2018)),
        ("bmw-x3-g01.b47", None),
    ]
    .into_iter()
    .map(|(id, year)| Car { vehicle: VehicleId::parse(id).expect("a vehicle id"), year })
    .collect();
    for car in &cars {
        for text in ["", "brake", "a3", "oil filter"] {
            let fits = Some(car.clone());
            queries.push(ProductQuery { text: text.to_owned(), offset: 0, limit: 20, fits, grades: Vec::new() });
        }
        let (fits, grades) = (Some(car.clone()), vec![Grade::A, Grade::B]);
        queries.push(ProductQuery { text: "brake".into(), offset: 2, limit: 5, fits, grades });
    }
    let mut listings = vec![
        ProductListing { limit: 20, ..ProductListing::default() },
        ProductListing { offset: 40, limit: 20, ..ProductListing::default() },
    ];
    let mut slugs: Vec<(String, Vec<String>)> = categories()
        .iter()
        .map(|c| (c.slug.clone(), c.subcategories.iter().map(|s| s.slug.clone()).collect()))
        .collect();
    for n in 0..3 {
        for c in categories() {
            slugs.push((format!("{}-{n}", c.slug), c.subcategories.iter().map(|s| s.slug.clone()).collect()));
        }
    }
    for (category, subs) in slugs {
        let pinned = ProductListing { category: Some(category), limit: 8, ..ProductListing::default() };
        listings.push(pinned.clone());
        listings.push(ProductListing { offset: 8, ..pinned.clone() });
        listings.push(ProductListing { brands: vec![brand_slug("bmw"), brand_slug("audi")], ..pinned.clone() });
        listings.push(ProductListing {
            conditions: vec![Condition::Old],
            fuels: vec![FuelType::Diesel],
            ..pinned.clone()
        });

        for sub in subs {
            listings.push(ProductListing { subcategory: Some(sub), ..pinned.clone() });
        }
    }
    listings.push(ProductListing { grades: vec![Grade::A], limit: 20, ..ProductListing::default() });
    listings.push(ProductListing {
        category: Some("brakes".into()),
        grades: vec![Grade::B, Grade::C],
        offset: 2,
        limit: 8,
        ..ProductListing::default()
    });
    for b in brands() {
        listings.push(ProductListing {
            brands: vec![brand_slug(&b.slug)],
            offset: 20,
            limit: 20,
            ..ProductListing::default()
        });
    }
    for car in cars {
        let fitted = ProductListing { fits: Some(car), limit: 10, ..ProductListing::default() };
        listings.push(ProductListing { offset: 10, ..fitted.clone() });
        listings.push(ProductListing { category: Some("brakes".into()), ..fitted.clone() });
        listings.push(ProductListing { brands: vec![brand_slug("bmw")], grades: vec![Grade::A], ..fitted.clone() });
        listings.push(fitted);
    }
    (queries, listings)
}

/// Every answer of `indexed` that differs from `direct`'s, described.
async fn differences(indexed: &dyn CatalogStore, direct: &dyn CatalogStore) -> Vec<String> {
    let (queries, listings) = questions();
    let mut differ = Vec::new();
    for q in &queries {
        let (a, b) = (indexed.search(q).await.expect("indexed"), direct.search(q).await.expect("direct"));
        if a != b {
            let ids = |s: &marque_ports::ProductSlice| s.products.iter().map(|p| p.id.0.clone()).collect::<Vec<_>>();
            differ.push(format!("{q:?}: {} {:?} != {} {:?}", a.total, ids(&a), b.total, ids(&b)));
        }
    }
    for l in &listings {
        let (a, b) = (indexed.list_products(l).await.expect("indexed"), direct.list_products(l).await.expect("direct"));
        if a != b {
            differ.push(format!("{l:?}: {} != {}", a.total, b.total));
        }
    }
    if indexed.count_products().await.expect("indexed") != direct.count_products().await.expect("direct") {
        differ.push("count".into());
    }
    differ
}

/// Seeds 150 products, then 8 rounds of 6 random writes (and a batch of new products through the
/// store every other round); before the writes and after each round, every compared answer of the
/// indexed store equals the database's own, and the index was in step to give it.
async fn the_index_answers_as_the_database_does(db: Database) {
    const SEEDED: usize = 150;
    let store = db.catalog();
    store.put_brands(&brands()).await.expect("brands");
    store.put_categories(&categories()).await.expect("categories");
    let mut rng = Rng(0x2022_0019);
    let mut writes: Vec<String> = Vec::new();
    let seeded: Vec<Product> = (0..SEEDED).map(|n| random_product(&mut rng, n)).collect();
    store.add_products(&seeded).await.expect("seed");
    let vehicles = db.vehicles();
    let mut fitter = Rng(0x2025_0025);
    let fitments: Vec<(ProductId, Vec<ProductFit>)> =
        seeded.iter().map(|p| (p.id.clone(), random_fits(&mut fitter))).filter(|(_, f)| !f.is_empty()).collect();
    vehicles.seed_fitment(&fitments).await.expect("seed fitment");
    let mut products = SEEDED;
    let (indexed, direct, editor, ledger) =
        (db.catalog_indexed(), db.catalog_unindexed(), db.catalog_editor(), db.stock());
    let (queries, listings) = questions();
    assert!(queries.len() + listings.len() >= 100, "a hundred questions or more");
    assert_eq!(differences(&indexed, &direct).await, Vec::<String>::new(), "before any edit");
    assert!(db.catalog_index_in_step().await, "the index answered");
    for round in 0..8u64 {
        let mut made = Vec::new();
        for _ in 0..6 {
            made.push(edit(&mut rng, &editor, &ledger, &mut products).await);
        }
        // Fitment from a generator of its own, so the edits above stay the seed's.
        let mut fitter = Rng(0x2025_0026 + round);
        for _ in 0..3 {
            made.push(refit(&mut fitter, &vehicles, products).await);
        }
        // The back office's writes reach the index as change rows naming their products, applied one
        // by one (a category rename rebuilds it instead).
        let differ = differences(&indexed, &direct).await;
        assert!(differ.is_empty(), "round {round}, after {made:?}: the index differs: {differ:?}");
        assert!(db.catalog_index_in_step().await, "round {round}: the index answered");
        if round % 2 == 1 {
            let more: Vec<Product> = (products..products + 10).map(|n| random_product(&mut rng, n)).collect();
            store.add_products(&more).await.expect("more products");
            products += more.len();
            // The store's batch moves the catalog version: the index is rebuilt.
            let differ = differences(&indexed, &direct).await;
            assert!(differ.is_empty(), "round {round}, after 10 products added: the index differs: {differ:?}");
        }
        writes.extend(made);
    }
    // The fixed seed made every kind of write at least once.
    for kind in [
        "name of",
        "place of",
        "brand of",
        "unpublished of",
        "condition and fuel of",
        "price of",
        "new product",
        "stock of",
        "category ",
        "fitment of",
    ] {
        assert!(writes.iter().any(|w| w.starts_with(kind)), "no write `{kind}` among {writes:?}");
    }
    // The shop's store answers the same, whichever way it takes.
    assert_eq!(differences(&db.catalog(), &direct).await, Vec::<String>::new(), "the shop's store");
}

/// The answer caches' poll reads the catalog changes through [`CatalogChanges`]; that read first
/// applies them to the index, so the answers it then forgets are asked again of an index that holds
/// the change (no shopper's read catches it up).
async fn reading_the_changes_applies_them_to_the_index(db: Database) {
    let store = db.catalog();
    store.put_brands(&brands()).await.expect("brands");
    store.put_categories(&categories()).await.expect("categories");
    let mut rng = Rng(0x2022_0022);
    let seeded: Vec<Product> = (0..20).map(|n| random_product(&mut rng, n)).collect();
    store.add_products(&seeded).await.expect("seed");
    // Built by the store that brings it in step itself: no poll of its own runs, so only the reads
    // below apply changes.
    let indexed = db.catalog_indexed();
    assert_eq!(indexed.count_products().await.expect("counts"), 20);
    assert_eq!(db.catalog_index_unapplied().await, Some(0), "built in step");
    let added = random_product(&mut rng, 20);
    let subject = format!("product:{}", added.id.as_str());
    db.catalog_editor().create_product(&added, &audit("product.create", &subject)).await.expect("created");
    assert_eq!(db.catalog_index_unapplied().await, Some(1), "the new product's change row is not applied yet");
    let read = db.catalog_changes().catalog_version().await.expect("the changes read");
    assert!(
        read.catalog_changes.iter().any(|c| c.products.contains(&added.id)),
        "the change names the new product: {read:?}"
    );
    assert_eq!(db.catalog_index_unapplied().await, Some(0), "reading the changes applied them to the index");
    let listing = ProductListing { limit: 50, ..ProductListing::default() };
    let listed = indexed.list_products(&listing).await.expect("lists");
    assert!(listed.products.iter().any(|p| p.id == added.id), "the index lists the new product");
}

#[tokio::test]
async fn changes_read_mem() {
    reading_the_changes_applies_them_to_the_index(crate::engines::in_memory().await).await;
}

#[tokio::test]
async fn changes_read_surrealkv() {
    let (db, _dir) = crate::engines::on_disk().await;
    reading_the_changes_applies_them_to_the_index(db).await;
}

#[tokio::test]
async fn mem() {
    the_index_answers_as_the_database_does(crate::engines::in_memory().await).await;
}

#[tokio::test]
async fn surrealkv() {
    let (db, _dir) = crate::engines::on_disk().await;
    the_index_answers_as_the_database_does(db).await;
}
