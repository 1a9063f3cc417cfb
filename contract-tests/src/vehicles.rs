//! The `VehicleStore` contract (`marque_ports::vehicles`): the vehicle table looked up make →
//! model → generation → engine, vehicles added once with their audit entry, and products' fitment
//! written whole on the version it was read at, read with the product, followed by the catalog
//! changes and narrowing listings and searches to a car exactly as the domain's rule says.

use marque_domain::catalog::{Condition, FuelType, Grade, Product, ProductId};
use marque_domain::staff::StaffId;
use marque_domain::vehicle::{
    fits_any, Car, Engine, EngineCode, FitmentNote, FitmentRow, GenerationId, ProductFit, Vehicle, VehicleId, YearRange,
};
use marque_ports::{
    Actor, AuditEntry, AuditLog, AuditQuery, CatalogChanges, CatalogStore, ProductListing, ProductQuery, StoredFitment,
    VehicleStore, VehicleStoreError,
};

use crate::fixtures::{brand_slug, product, window};

/// Calls `$callback!(suite_name)` once for every vehicle suite.
#[macro_export]
macro_rules! for_each_vehicle_suite {
    ($callback:ident) => {
        $callback!(vehicles_are_looked_up_make_model_generation_engine);
        $callback!(a_vehicle_is_added_once_with_its_audit_entry);
        $callback!(fitment_is_written_on_its_version_and_read_with_the_product);
        $callback!(listings_and_searches_narrowed_to_a_car_keep_exactly_the_fitting_products);
        $callback!(a_fitment_write_is_a_described_catalog_change);
    };
}

pub(crate) fn vehicle(
    make: &str,
    model: &str,
    generation: &str,
    engine: (&str, FuelType, &str),
    years: (i64, Option<i64>),
) -> Vehicle {
    let engine = Engine { code: EngineCode::parse(engine.0).expect("code"), fuel: engine.1, label: engine.2.into() };
    Vehicle::new(make, model, generation, engine, YearRange::new(years.0, years.1).expect("years")).expect("vehicle")
}

/// A small table: two generations of the X5 (three engines), an X3, an E-Class and a Range Rover.
pub(crate) fn table() -> Vec<Vehicle> {
    vec![
        vehicle("bmw", "X5", "G05", ("B57", FuelType::Diesel, "xDrive30d"), (2019, None)),
        vehicle("bmw", "X5", "G05", ("B58", FuelType::Petrol, "xDrive40i"), (2019, None)),
        vehicle("bmw", "X5", "F15", ("N57", FuelType::Diesel, "xDrive30d"), (2014, Some(2018))),
        vehicle("bmw", "X3", "G01", ("B47", FuelType::Diesel, "xDrive20d"), (2018, None)),
        vehicle("mercedes-benz", "E-Class", "W213", ("OM654", FuelType::Diesel, "E 220 d"), (2017, Some(2023))),
        vehicle("range-rover", "Range Rover", "L405", ("306DT", FuelType::Diesel, "3.0 SDV6"), (2013, Some(2021))),
    ]
}

fn entry(at: i64, action: &str, subject: &str) -> AuditEntry {
    let actor = Actor::Staff { id: StaffId("s1".into()), email: "catalog@marque.in".into() };
    AuditEntry::new(at, actor, action, subject)
}

fn generation(id: &str) -> GenerationId {
    GenerationId::parse(id).expect("generation")
}

pub(crate) fn row(
    generation_id: &str,
    engine: Option<&str>,
    years: Option<(i64, Option<i64>)>,
    note: &str,
) -> FitmentRow {
    FitmentRow {
        generation: generation(generation_id),
        engine: engine.map(|e| EngineCode::parse(e).expect("engine")),
        years: years.map(|(f, t)| YearRange::new(f, t).expect("years")),
        note: FitmentNote::parse(note).expect("note"),
    }
}

/// `rows` shown with the names of the table's vehicles.
pub(crate) fn shown(rows: Vec<FitmentRow>) -> Vec<ProductFit> {
    let known = table();
    rows.into_iter().map(|r| ProductFit::named(r, &known).expect("a known generation")).collect()
}

fn car(id: &str, year: Option<u16>) -> Car {
    Car { vehicle: VehicleId::parse(id).expect("vehicle id"), year }
}

async fn trail(audit: &dyn AuditLog, subject: &str) -> Vec<String> {
    let page = audit
        .entries(&AuditQuery { subject: Some(subject.into()), window: window(1, 50), ..AuditQuery::default() })
        .await
        .expect("the trail");
    page.records.into_iter().map(|r| r.entry.action).collect()
}

/// The lists come from the table, each step narrowed by the one before; seeding twice adds nothing.
pub async fn vehicles_are_looked_up_make_model_generation_engine(store: &dyn VehicleStore) {
    assert_eq!(store.seed_vehicles(&table()).await.expect("seed"), 6);
    assert_eq!(store.seed_vehicles(&table()).await.expect("seed again"), 0, "seeding is idempotent");

    let models = store.models(&brand_slug("bmw")).await.expect("models");
    let names: Vec<(&str, &str)> = models.iter().map(|m| (m.slug.as_str(), m.name.as_str())).collect();
    assert_eq!(names, [("x3", "X3"), ("x5", "X5")]);
    assert!(store.models(&brand_slug("porsche")).await.expect("models").is_empty());

    let generations = store.generations(&brand_slug("bmw"), "x5").await.expect("generations");
    let listed: Vec<(&str, &str, String)> =
        generations.iter().map(|g| (g.id.as_str(), g.code.as_str(), g.years.to_string())).collect();
    assert_eq!(listed, [("bmw-x5-f15", "F15", "2014–2018".to_owned()), ("bmw-x5-g05", "G05", "2019–".to_owned())]);
    assert!(store.generations(&brand_slug("audi"), "x5").await.expect("generations").is_empty());

    let engines = store.vehicles_of(&generation("bmw-x5-g05")).await.expect("vehicles");
    let ids: Vec<String> = engines.iter().map(|v| v.id().to_string()).collect();
    assert_eq!(ids, ["bmw-x5-g05.b57", "bmw-x5-g05.b58"]);
    assert_eq!(engines[0], table()[0], "a vehicle reads back as written");

    let found = store.vehicle(&VehicleId::parse("mercedes-benz-e-class-w213.om654").expect("id")).await.expect("read");
    assert_eq!(found, Some(table()[4].clone()));
    let missing = store.vehicle(&VehicleId::parse("bmw-x5-g05.s63").expect("id")).await.expect("read");
    assert_eq!(missing, None);
}

/// A staff member's vehicle is stored with its audit entry; the same vehicle again is refused and
/// leaves no second entry.
pub async fn a_vehicle_is_added_once_with_its_audit_entry(store: &dyn VehicleStore, audit: &dyn AuditLog) {
    let cayenne = vehicle("porsche", "Cayenne", "E3", ("DCB", FuelType::Petrol, "3.0 V6"), (2018, None));
    let subject = format!("vehicle:{}", cayenne.id());
    store.add_vehicle(&cayenne, &entry(10, "vehicle.add", &subject)).await.expect("added");
    assert_eq!(store.vehicle(&cayenne.id()).await.expect("read"), Some(cayenne.clone()));
    let again = store.add_vehicle(&cayenne, &entry(11, "vehicle.add", &subject)).await;
    assert_eq!(again, Err(VehicleStoreError::Duplicate { id: cayenne.id().to_string() }));
    assert_eq!(trail(audit, &subject).await, ["vehicle.add"]);
    assert_eq!(store.seed_vehicles(&[cayenne]).await.expect("seed"), 0, "the seed leaves a stored vehicle alone");
}

/// Fitment starts empty at version 0, is written only on the version named (with its audit entry),
/// comes back with the product (published or not) and survives nothing but its own writes.
pub async fn fitment_is_written_on_its_version_and_read_with_the_product(
    store: &dyn VehicleStore,
    catalog: &dyn CatalogStore,
    audit: &dyn AuditLog,
) {
    store.seed_vehicles(&table()).await.expect("seed");
    catalog.add_products(&[product("p1").build()]).await.expect("a product");
    let p1 = ProductId("p1".into());
    let empty = store.fitment(&p1).await.expect("read");
    assert_eq!((empty.fits.len(), empty.version), (0, 0));

    let fits = shown(vec![
        row("bmw-x5-g05", Some("B57"), Some((2019, Some(2023))), "front axle"),
        row("bmw-x3-g01", None, None, ""),
    ]);
    let v1 = store.set_fitment(&p1, &fits, 0, &entry(20, "product.fitment", "product:p1")).await.expect("written");
    assert_eq!(v1, 1);
    let stored = store.fitment(&p1).await.expect("read");
    assert_eq!((stored.fits.clone(), stored.version), (fits.clone(), 1));
    let read = catalog.product(&p1).await.expect("read").expect("the product");
    assert_eq!(read.details.fits, fits, "the product carries its fitment");
    let walked = catalog.products_after(None, 10).await.expect("a window");
    assert_eq!(walked, std::slice::from_ref(&read), "the walk of every product (the ready answers') reads it whole");
    // A list's products come without their fitment (no listing shows it), and are otherwise the product.
    let mut unfitted = read.clone();
    unfitted.details.fits.clear();
    let listed = catalog.list_products(&ProductListing { limit: 10, ..ProductListing::default() }).await;
    assert_eq!(listed.expect("a listing").products, [unfitted.clone()]);
    let searched = catalog
        .search(&ProductQuery { text: String::new(), offset: 0, limit: 10, fits: None, grades: Vec::new() })
        .await;
    assert_eq!(searched.expect("a search").products, [unfitted.clone()]);
    assert_eq!(catalog.newest_products(10).await.expect("newest"), [unfitted]);

    let stale = store.set_fitment(&p1, &[], 0, &entry(21, "product.fitment", "product:p1")).await;
    assert_eq!(stale, Err(VehicleStoreError::Changed { version: 1 }));
    let none =
        store.set_fitment(&ProductId("nope".into()), &fits, 0, &entry(22, "product.fitment", "product:nope")).await;
    assert!(matches!(none, Err(VehicleStoreError::ProductNotFound { .. })), "{none:?}");

    assert_eq!(store.set_fitment(&p1, &[], 1, &entry(23, "product.fitment", "product:p1")).await, Ok(2));
    assert!(catalog.product(&p1).await.expect("read").expect("the product").details.fits.is_empty());
    assert_eq!(trail(audit, "product:p1").await.len(), 2, "one entry per write, none for the refused ones");
    assert!(trail(audit, "product:nope").await.is_empty());

    // The seed gives a product without fitment its rows (at version 1) and leaves others alone.
    catalog.add_products(&[product("p2").build()]).await.expect("a second product");
    let p2 = ProductId("p2".into());
    let seeded = vec![(p1.clone(), fits.clone()), (p2.clone(), fits.clone())];
    store.seed_fitment(&seeded).await.expect("seeded");
    let again = vec![(p2.clone(), shown(vec![row("bmw-x5-f15", None, None, "")]))];
    store.seed_fitment(&again).await.expect("seeded again");
    assert_eq!(store.fitment(&p2).await.expect("read"), StoredFitment { fits: fits.clone(), version: 1 });
    assert!(store.fitment(&p1).await.expect("read").fits.is_empty(), "a written fitment stays");
    assert_eq!(catalog.product(&p2).await.expect("read").expect("p2").details.fits, fits);
}

/// Every listing and search narrowed to a car holds exactly the products whose rows fit it
/// ([`fits_any`]), with the other filters, newest first, counted over all windows.
pub async fn listings_and_searches_narrowed_to_a_car_keep_exactly_the_fitting_products(
    store: &dyn VehicleStore,
    catalog: &dyn CatalogStore,
) {
    store.seed_vehicles(&table()).await.expect("seed");
    let fitments: Vec<Vec<FitmentRow>> = vec![
        vec![row("bmw-x5-g05", None, None, "")],
        vec![row("bmw-x5-g05", Some("B57"), None, "")],
        vec![row("bmw-x5-g05", Some("B58"), None, "")],
        vec![row("bmw-x5-g05", None, Some((2021, None)), "")],
        vec![row("bmw-x5-f15", None, None, ""), row("bmw-x5-g05", Some("B57"), Some((2019, Some(2020))), "rear")],
        vec![row("mercedes-benz-e-class-w213", None, None, "")],
        vec![],
    ];
    let mut products: Vec<Product> = Vec::new();
    for (i, _) in fitments.iter().enumerate() {
        let mut p = product(&format!("f{i}"))
            .name(if i % 2 == 0 { "Brake Disc Front" } else { "Oil Filter" })
            .created_at(1_700_000_000 + i64::try_from(i % 3).expect("small"))
            .condition(if i < 3 { Condition::New } else { Condition::Old });
        if i == 5 {
            p = p.brand("BMW");
        }
        // The used units are graded A, B, A, C (issue 25), to narrow by grade and car together.
        if i >= 3 {
            p = p.with(|p| p.details.grade = Some([Grade::A, Grade::B, Grade::A, Grade::C][i - 3]));
        }
        products.push(p.build());
    }
    catalog.add_products(&products).await.expect("products");
    for (i, rows) in fitments.iter().enumerate() {
        let id = ProductId(format!("f{i}"));
        store.set_fitment(&id, &shown(rows.clone()), 0, &entry(30, "product.fitment", "product:x")).await.expect("fit");
    }
    let cars = [
        car("bmw-x5-g05.b57", None),
        car("bmw-x5-g05.b57", Some(2020)),
        car("bmw-x5-g05.b57", Some(2022)),
        car("bmw-x5-g05.b58", Some(2019)),
        car("bmw-x5-f15.n57", Some(2016)),
        car("bmw-x3-g01.b47", None),
        car("mercedes-benz-e-class-w213.om654", Some(2018)),
    ];
    let newest_first = |a: &&Product, b: &&Product| b.created_at.cmp(&a.created_at).then_with(|| a.id.cmp(&b.id));
    for car in &cars {
        let mut expected: Vec<&Product> =
            products.iter().zip(&fitments).filter(|(_, rows)| fits_any(rows, car)).map(|(p, _)| p).collect();
        expected.sort_by(newest_first);
        let expected_ids: Vec<&str> = expected.iter().map(|p| p.id.as_str()).collect();

        let listing = ProductListing { limit: 100, fits: Some(car.clone()), ..ProductListing::default() };
        let all = catalog.list_products(&listing).await.expect("a listing");
        let ids: Vec<&str> = all.products.iter().map(|p| p.id.as_str()).collect();
        assert_eq!((ids.as_slice(), all.total), (expected_ids.as_slice(), expected.len() as u64), "{car:?}");

        let second = ProductListing { offset: 1, limit: 2, ..listing.clone() };
        let window = catalog.list_products(&second).await.expect("a window");
        let window_ids: Vec<&str> = window.products.iter().map(|p| p.id.as_str()).collect();
        let want: Vec<&str> = expected_ids.iter().skip(1).take(2).copied().collect();
        assert_eq!((window_ids, window.total), (want, expected.len() as u64), "a later window of {car:?}");

        let used = ProductListing { conditions: vec![Condition::Old], ..listing.clone() };
        let old = catalog.list_products(&used).await.expect("with a condition");
        let want: Vec<&str> =
            expected.iter().filter(|p| p.condition == Condition::Old).map(|p| p.id.as_str()).collect();
        let old_ids: Vec<&str> = old.products.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(old_ids, want, "fits with another filter: {car:?}");

        let brand = ProductListing { brands: vec![brand_slug("bmw")], ..listing.clone() };
        let bmw = catalog.list_products(&brand).await.expect("with a brand");
        let want: Vec<&str> = expected.iter().filter(|p| p.oem_slug == "bmw").map(|p| p.id.as_str()).collect();
        assert_eq!(bmw.products.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), want);

        let search = |text: &str| ProductQuery {
            text: text.into(),
            offset: 0,
            limit: 50,
            fits: Some(car.clone()),
            grades: Vec::new(),
        };
        let everything = catalog.search(&search("")).await.expect("an empty search");
        assert_eq!(everything.products.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), expected_ids);
        let discs = catalog.search(&search("brake disc")).await.expect("a search");
        let mut found: Vec<&str> = discs.products.iter().map(|p| p.id.as_str()).collect();
        found.sort_unstable();
        let mut want: Vec<&str> =
            expected.iter().filter(|p| p.name.starts_with("Brake")).map(|p| p.id.as_str()).collect();
        want.sort_unstable();
        assert_eq!((found, discs.total), (want.clone(), want.len() as u64), "a search narrowed to {car:?}");

        // A grade filter with the car, on a listing and on searches (every product, and by name).
        let graded = |p: &&&Product, grades: &[Grade]| p.details.grade.is_some_and(|g| grades.contains(&g));
        let of_a = ProductListing { grades: vec![Grade::A], ..listing.clone() };
        let a = catalog.list_products(&of_a).await.expect("with a grade");
        let want: Vec<&str> = expected.iter().filter(|p| graded(p, &[Grade::A])).map(|p| p.id.as_str()).collect();
        assert_eq!(
            (a.products.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), a.total),
            (want.clone(), want.len() as u64),
            "fits and grade A: {car:?}"
        );
        let graded_search = |text: &str, grades: &[Grade]| ProductQuery { grades: grades.to_vec(), ..search(text) };
        let every_a = catalog.search(&graded_search("", &[Grade::A])).await.expect("an empty search");
        assert_eq!(every_a.products.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), want, "{car:?}");
        let discs = catalog.search(&graded_search("brake disc", &[Grade::A, Grade::C])).await.expect("a search");
        let mut found: Vec<&str> = discs.products.iter().map(|p| p.id.as_str()).collect();
        found.sort_unstable();
        let mut want: Vec<&str> = expected
            .iter()
            .filter(|p| p.name.starts_with("Brake") && graded(p, &[Grade::A, Grade::C]))
            .map(|p| p.id.as_str())
            .collect();
        want.sort_unstable();
        assert_eq!((found, discs.total), (want.clone(), want.len() as u64), "a graded search narrowed to {car:?}");
    }
    let unfitted = car("range-rover-range-rover-l405.306dt", Some(2015));
    let none = catalog
        .list_products(&ProductListing { limit: 20, fits: Some(unfitted), ..ProductListing::default() })
        .await
        .expect("a listing");
    assert_eq!((none.products.len(), none.total), (0, 0), "a car no product fits lists nothing");
}

/// A fitment write appears among the catalog changes, naming the product and the generations of
/// the rows before and after.
pub async fn a_fitment_write_is_a_described_catalog_change(
    store: &dyn VehicleStore,
    catalog: &dyn CatalogStore,
    changes: &dyn CatalogChanges,
) {
    store.seed_vehicles(&table()).await.expect("seed");
    catalog.add_products(&[product("c1").build()]).await.expect("a product");
    let c1 = ProductId("c1".into());
    store
        .set_fitment(
            &c1,
            &shown(vec![row("bmw-x5-g05", None, None, "")]),
            0,
            &entry(40, "product.fitment", "product:c1"),
        )
        .await
        .expect("first");
    store
        .set_fitment(
            &c1,
            &shown(vec![row("bmw-x3-g01", None, None, "")]),
            1,
            &entry(41, "product.fitment", "product:c1"),
        )
        .await
        .expect("second");
    let seen = changes.catalog_version().await.expect("the changes");
    let named: Vec<&marque_ports::CatalogChange> =
        seen.catalog_changes.iter().filter(|c| c.products.contains(&c1)).collect();
    assert_eq!(named.len(), 2, "{:?}", seen.catalog_changes);
    let mut generations: Vec<Vec<String>> = named
        .iter()
        .map(|c| {
            let mut g = c.fitment.clone();
            g.sort_unstable();
            g
        })
        .collect();
    generations.sort();
    assert_eq!(generations, [vec!["bmw-x3-g01".to_owned(), "bmw-x5-g05".to_owned()], vec!["bmw-x5-g05".to_owned()]]);
}
