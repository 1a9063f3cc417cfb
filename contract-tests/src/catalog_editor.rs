//! The `CatalogEditor` contract (`marque_ports::catalog_editor`), one suite per promise.
//!
//! Every suite takes a fresh, empty database's catalog editor, the catalog store shoppers read
//! (the same data), the audit trail and the catalog's changes. Adapters run them all through
//! [`for_each_catalog_editor_suite!`](crate::for_each_catalog_editor_suite).

use marque_domain::catalog::{
    Category, Condition, CrossReference, Donor, Grade, MarginScheme, OemBrand, Product, ProductId, Subcategory,
};
use marque_domain::Money;
use marque_ports::{
    Actor, AdminProductQuery, AdminProductSort, AuditEntry, AuditLog, AuditQuery, CatalogChanges, CatalogEditor,
    CatalogEditorError, CatalogStore, ProductListing, ProductQuery,
};

use crate::fixtures::{brand, brand_slug, category, part_number, product, window};

/// Calls `$callback!(suite_name)` once for every catalog editor suite.
#[macro_export]
macro_rules! for_each_catalog_editor_suite {
    ($callback:ident) => {
        $callback!(creation_stores_the_product_and_its_audit_entry);
        $callback!(a_duplicate_sku_or_id_is_refused_and_leaves_no_trace);
        $callback!(an_update_changes_fields_but_never_stock_sales_or_images);
        $callback!(unpublished_products_are_invisible_to_every_shopper_read);
        $callback!(alternate_and_superseded_numbers_are_found_in_any_spelling);
        $callback!(categories_and_brands_keep_slugs_unique_and_products_follow);
        $callback!(the_admin_list_filters_sorts_and_counts);
        $callback!(every_write_tells_the_catalog_changes_what_it_changed);
        $callback!(used_units_keep_grade_donor_margin_and_cross_references);
        $callback!(grade_filters_narrow_listings_and_searches_and_follow_regrades);
    };
}

fn audit(action: &str, subject: &str) -> AuditEntry {
    AuditEntry::new(1_750_000_000, Actor::System("contract".into()), action, subject)
        .with_values(None, Some(format!("{{\"subject\":\"{subject}\"}}")))
}

async fn trail_of(trail: &dyn AuditLog, subject: &str) -> Vec<AuditEntry> {
    let query = AuditQuery { subject: Some(subject.to_owned()), window: window(1, 100), ..AuditQuery::default() };
    let page = trail.entries(&query).await.expect("the trail reads");
    page.records.into_iter().map(|r| r.entry).collect()
}

async fn create(editor: &dyn CatalogEditor, p: &Product) {
    let entry = audit("product.create", &format!("product:{}", p.id));
    editor.create_product(p, &entry).await.unwrap_or_else(|e| panic!("create {}: {e}", p.id));
}

fn unpublished(p: Product) -> Product {
    Product { details: marque_domain::catalog::ProductDetails { published: false, ..p.details.clone() }, ..p }
}

fn ids(products: &[Product]) -> Vec<&str> {
    products.iter().map(|p| p.id.as_str()).collect()
}

/// A product created with its opening stock reads back exactly, to the editor and to shoppers,
/// and its audit entry is stored with the values it was given.
pub async fn creation_stores_the_product_and_its_audit_entry(
    editor: &dyn CatalogEditor,
    catalog: &dyn CatalogStore,
    trail: &dyn AuditLog,
    _changes: &dyn CatalogChanges,
) {
    let p = product("p1")
        .sku("MB-1")
        .quantity(4)
        .with(|p| {
            p.details.alternate_numbers = vec![part_number("LR 012 345")];
            p.details.warranty_days = marque_domain::catalog::WarrantyDays::new(15).expect("valid");
            p.details.weight_grams = 2_500;
        })
        .build();
    let entry = audit("product.create", "product:p1");
    editor.create_product(&p, &entry).await.expect("created");
    assert_eq!(editor.product(&p.id).await.expect("reads"), Some(p.clone()), "the editor reads it as written");
    assert_eq!(catalog.product(&p.id).await.expect("reads"), Some(p.clone()), "shoppers read it as written");
    assert_eq!(trail_of(trail, "product:p1").await, vec![entry], "its audit entry, with its values");
}

/// A second product with a SKU already used (by a published or an unpublished product), or an id
/// already used, is refused; nothing of it is stored, its audit entry neither.
pub async fn a_duplicate_sku_or_id_is_refused_and_leaves_no_trace(
    editor: &dyn CatalogEditor,
    catalog: &dyn CatalogStore,
    trail: &dyn AuditLog,
    _changes: &dyn CatalogChanges,
) {
    create(editor, &product("p1").sku("SKU-1").build()).await;
    create(editor, &unpublished(product("p2").sku("SKU-2").build())).await;
    for (id, sku) in [("p3", "SKU-1"), ("p4", "SKU-2")] {
        let refused = editor
            .create_product(&product(id).sku(sku).build(), &audit("product.create", &format!("product:{id}")))
            .await;
        assert_eq!(refused, Err(CatalogEditorError::DuplicateSku { sku: sku.into() }), "{sku} is taken");
        assert_eq!(editor.product(&ProductId(id.into())).await.expect("reads"), None, "{id} not stored");
        assert!(trail_of(trail, &format!("product:{id}")).await.is_empty(), "no audit entry for {id}");
    }
    let again =
        editor.create_product(&product("p2").sku("OTHER").build(), &audit("product.create", "product:p2")).await;
    assert_eq!(again, Err(CatalogEditorError::DuplicateId { id: "p2".into() }));
    assert_eq!(trail_of(trail, "product:p2").await.len(), 1, "only the first creation's entry");
    // Taking another product's SKU in an update is refused too, and changes nothing.
    let mut p1 = editor.product(&ProductId("p1".into())).await.expect("reads").expect("stored");
    p1.details.sku = "SKU-2".into();
    p1.name = "Renamed".into();
    let refused = editor.update_product(&p1, &audit("product.update", "product:p1")).await;
    assert_eq!(refused, Err(CatalogEditorError::DuplicateSku { sku: "SKU-2".into() }));
    let stored = catalog.product(&ProductId("p1".into())).await.expect("reads").expect("stored");
    assert_eq!((stored.name.as_str(), stored.details.sku.as_str()), ("Spare p1", "SKU-1"));
    assert_eq!(trail_of(trail, "product:p1").await.len(), 1, "no entry for the refused update");
}

/// An update writes every editable field and its audit entry, keeps the stored stock, units sold,
/// listing time and images whatever the product it is given says, and answers the stored product.
pub async fn an_update_changes_fields_but_never_stock_sales_or_images(
    editor: &dyn CatalogEditor,
    catalog: &dyn CatalogStore,
    trail: &dyn AuditLog,
    _changes: &dyn CatalogChanges,
) {
    let original = product("p1").quantity(7).units_sold(3).created_at(1_700_000_123).build();
    create(editor, &original).await;
    let edit = Product {
        name: "Rear Brake Disc".into(),
        price: Money::from_paise(149_950),
        quantity: 0,
        units_sold: 99,
        created_at: 1,
        images: vec!["/elsewhere.jpg".into()],
        part_no: part_number("A 000 421 12 12"),
        ..original.clone()
    };
    let mut edit = edit;
    edit.details.sku = "NEW-SKU".into();
    edit.details.superseded_numbers = vec![part_number("A 000 421 00 00")];
    let entry = audit("product.update", "product:p1");
    let stored = editor.update_product(&edit, &entry).await.expect("updated");
    let expected = Product {
        quantity: 7,
        units_sold: 3,
        created_at: 1_700_000_123,
        images: original.images.clone(),
        ..edit.clone()
    };
    assert_eq!(stored, expected, "the answer is the stored product");
    assert_eq!(catalog.product(&original.id).await.expect("reads"), Some(expected), "shoppers see the edit");
    let entries = trail_of(trail, "product:p1").await;
    assert_eq!(entries.len(), 2, "creation and update: {entries:?}");
    assert!(entries.contains(&entry));
    let missing = editor.update_product(&product("nope").build(), &audit("product.update", "product:nope")).await;
    assert_eq!(missing, Err(CatalogEditorError::NotFound { id: "nope".into() }));
}

/// An unpublished product (created so, or unpublished later) is in no shopper's read; the editor
/// reads it; publishing it again brings it back everywhere, stock and all.
pub async fn unpublished_products_are_invisible_to_every_shopper_read(
    editor: &dyn CatalogEditor,
    catalog: &dyn CatalogStore,
    _trail: &dyn AuditLog,
    _changes: &dyn CatalogChanges,
) {
    let shown = product("p1").name("Front Brake Disc").part_no("A 111").units_sold(5).build();
    let hidden = unpublished(product("p2").name("Front Brake Pad").part_no("A 222").units_sold(9).build());
    let later = product("p3").name("Front Brake Hose").part_no("A 333").units_sold(7).quantity(6).build();
    for p in [&shown, &hidden, &later] {
        create(editor, p).await;
    }
    let unpublish = unpublished(later.clone());
    editor.update_product(&unpublish, &audit("product.unpublish", "product:p3")).await.expect("unpublished");

    for id in ["p2", "p3"] {
        let id = ProductId(id.into());
        assert_eq!(catalog.product(&id).await.expect("reads"), None, "{id}: 404 to shoppers");
        let admin = editor.product(&id).await.expect("reads").expect("the editor reads it");
        assert!(!admin.details.published, "{id} reads as unpublished");
    }
    let visible = |what: &str, listed: Vec<Product>| assert_eq!(ids(&listed), ["p1"], "{what}");
    visible("newest", catalog.newest_products(10).await.expect("reads"));
    visible("best sellers", catalog.best_selling_products(10).await.expect("reads"));
    let search = |text: &str| ProductQuery { text: text.into(), offset: 0, limit: 10, fits: None, grades: Vec::new() };
    visible("a name search", catalog.search(&search("brake")).await.expect("reads").products);
    visible("an empty search", catalog.search(&search("")).await.expect("reads").products);
    for part in ["A222", "a 333"] {
        assert_eq!(catalog.search(&search(part)).await.expect("reads").total, 0, "{part} finds nothing");
    }
    let listing = ProductListing { limit: 10, ..ProductListing::default() };
    let listed = catalog.list_products(&listing).await.expect("reads");
    assert_eq!((ids(&listed.products), listed.total), (vec!["p1"], 1), "a listing");
    assert_eq!(catalog.count_products().await.expect("reads"), 1);
    let stamps = catalog.product_stamps(None, 10).await.expect("reads");
    assert_eq!(stamps.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(), ["p1"], "the sitemap");
    visible("the whole-catalog walk", catalog.products_after(None, 10).await.expect("reads"));

    let republished = editor.update_product(&later, &audit("product.publish", "product:p3")).await.expect("published");
    assert!(republished.details.published);
    let back = catalog.product(&later.id).await.expect("reads").expect("shown again");
    assert_eq!((back.quantity, back.units_sold), (6, 7), "stock and sales kept through the move");
    assert_eq!(catalog.count_products().await.expect("reads"), 2);
}

/// Search finds a product by an alternate or a superseded number typed in any spelling, ranked
/// with the part-number hits.
pub async fn alternate_and_superseded_numbers_are_found_in_any_spelling(
    editor: &dyn CatalogEditor,
    catalog: &dyn CatalogStore,
    _trail: &dyn AuditLog,
    _changes: &dyn CatalogChanges,
) {
    let p = product("p1")
        .name("Oil Filter")
        .part_no("A 000 180 26 09")
        .with(|p| {
            p.details.alternate_numbers = vec![part_number("HU 718/5 X")];
            p.details.superseded_numbers = vec![part_number("A 000 180 16 09")];
        })
        .build();
    create(editor, &p).await;
    create(editor, &product("p2").name("HU718 5X Bracket").part_no("ZZ 1").build()).await;
    for typed in ["hu7185x", "HU-718/5-X", "a0001801609", "A 000 180 26 09"] {
        let found = catalog
            .search(&ProductQuery { text: typed.into(), offset: 0, limit: 10, fits: None, grades: Vec::new() })
            .await
            .expect("reads");
        assert_eq!(found.products.first().map(|p| p.id.as_str()), Some("p1"), "{typed} finds p1 first");
    }
    // An edit that drops a number stops it being found.
    let mut edit = p.clone();
    edit.details.superseded_numbers.clear();
    editor.update_product(&edit, &audit("product.update", "product:p1")).await.expect("updated");
    let found = catalog
        .search(&ProductQuery { text: "a0001801609".into(), offset: 0, limit: 10, fits: None, grades: Vec::new() })
        .await
        .expect("reads");
    assert_eq!(found.total, 0, "the dropped number finds nothing");
}

/// Categories and brands round-trip through the shoppers' store; renaming one carries its
/// products (published or not) along to the new name and slug.
pub async fn categories_and_brands_keep_slugs_unique_and_products_follow(
    editor: &dyn CatalogEditor,
    catalog: &dyn CatalogStore,
    _trail: &dyn AuditLog,
    _changes: &dyn CatalogChanges,
) {
    let brakes = category("c1", "Brakes", &[("s1", "Discs")]);
    editor.create_category(&brakes, &audit("category.create", "category:c1")).await.expect("created");
    editor.create_brand(&brand("b1", "Mercedes-Benz"), &audit("brand.create", "brand:b1")).await.expect("created");
    create(editor, &product("p1").category("Brakes", "Discs").brand("Mercedes-Benz").build()).await;
    create(editor, &unpublished(product("p2").category("Brakes", "Discs").brand("Mercedes-Benz").build())).await;

    let renamed = Category {
        name: "Brake Parts".into(),
        slug: "brake-parts".into(),
        subcategories: vec![
            Subcategory { id: "s1".into(), name: "Brake Discs".into(), slug: "discs".into() },
            Subcategory { id: "s2".into(), name: "Others".into(), slug: "others".into() },
        ],
        ..brakes
    };
    editor.update_category(&renamed, &audit("category.update", "category:c1")).await.expect("updated");
    let logo = OemBrand {
        name: "Mercedes".into(),
        slug: "mercedes".into(),
        image: "/logos/mb.svg".into(),
        ..brand("b1", "x")
    };
    editor.update_brand(&logo, &audit("brand.update", "brand:b1")).await.expect("updated");

    assert_eq!(catalog.categories().await.expect("reads"), vec![renamed]);
    assert_eq!(catalog.brands().await.expect("reads"), vec![logo]);
    for id in ["p1", "p2"] {
        let p = editor.product(&ProductId(id.into())).await.expect("reads").expect("stored");
        let placed = (
            p.category.as_str(),
            p.category_slug.as_str(),
            p.subcategory.as_str(),
            p.oem.as_str(),
            p.oem_slug.as_str(),
        );
        assert_eq!(placed, ("Brake Parts", "brake-parts", "Brake Discs", "Mercedes", "mercedes"), "{id}");
    }
    let listing = ProductListing { brands: vec![brand_slug("mercedes")], limit: 10, ..ProductListing::default() };
    assert_eq!(ids(&catalog.list_products(&listing).await.expect("reads").products), ["p1"]);
}

/// The back office's list holds published and unpublished products, filters by text (name, SKU,
/// any part number), category, brand and published, sorts, windows and counts.
pub async fn the_admin_list_filters_sorts_and_counts(
    editor: &dyn CatalogEditor,
    _catalog: &dyn CatalogStore,
    _trail: &dyn AuditLog,
    _changes: &dyn CatalogChanges,
) {
    let rupees = Money::from_rupees;
    create(editor, &product("p1").name("Front Brake Disc").price(rupees(300)).created_at(3).brand("BMW").build()).await;
    create(
        editor,
        &unpublished(product("p2").name("Rear Brake Disc").price(rupees(100)).created_at(2).brand("BMW").build()),
    )
    .await;
    create(
        editor,
        &product("p3")
            .name("Oil Filter")
            .price(rupees(200))
            .created_at(1)
            .sku("OF-77")
            .category("Engine", "Filters")
            .with(|p| p.details.alternate_numbers = vec![part_number("HU 718")])
            .build(),
    )
    .await;
    let list = |q: AdminProductQuery| async move {
        let slice = editor.products(&AdminProductQuery { window: window(1, 10), ..q }).await.expect("reads");
        (slice.products.iter().map(|p| p.id.0.clone()).collect::<Vec<_>>(), slice.total)
    };
    let all = list(AdminProductQuery::default()).await;
    assert_eq!(all, (vec!["p1".into(), "p2".into(), "p3".into()], 3), "newest first, published or not");
    let q = |text: &str| AdminProductQuery { text: text.into(), ..AdminProductQuery::default() };
    assert_eq!(list(q("brake")).await.1, 2, "by name, case-insensitive");
    assert_eq!(list(q("of-7")).await.0, ["p3"], "by SKU");
    assert_eq!(list(q("hu-718")).await.0, ["p3"], "by an alternate number in another spelling");
    let unpublished_only = AdminProductQuery { published: Some(false), ..AdminProductQuery::default() };
    assert_eq!(list(unpublished_only).await, (vec!["p2".into()], 1));
    let published_only = AdminProductQuery { published: Some(true), ..AdminProductQuery::default() };
    assert_eq!(list(published_only).await.1, 2);
    let engine = AdminProductQuery { category: Some("engine".into()), ..AdminProductQuery::default() };
    assert_eq!(list(engine).await.0, ["p3"]);
    let bmw = AdminProductQuery {
        brand: Some("bmw".into()),
        sort: AdminProductSort::PriceAscending,
        ..AdminProductQuery::default()
    };
    assert_eq!(list(bmw).await, (vec!["p2".into(), "p1".into()], 2), "by brand, cheapest first");
    let by_name = AdminProductQuery { sort: AdminProductSort::Name, ..AdminProductQuery::default() };
    assert_eq!(list(by_name).await.0, ["p1", "p3", "p2"]);
    let second = AdminProductQuery {
        sort: AdminProductSort::PriceDescending,
        window: window(2, 1),
        ..AdminProductQuery::default()
    };
    let slice = editor.products(&second).await.expect("reads");
    assert_eq!((ids(&slice.products), slice.total), (vec!["p3"], 3), "a window, counted over all");
}

/// Every write is seen by the catalog's changes, as a moved version or as a new described change
/// naming what it changed (the product, its listings, names and numbers; the category's or brand's
/// slugs), so every instance's caches follow.
pub async fn every_write_tells_the_catalog_changes_what_it_changed(
    editor: &dyn CatalogEditor,
    _catalog: &dyn CatalogStore,
    _trail: &dyn AuditLog,
    changes: &dyn CatalogChanges,
) {
    use crate::catalog_changes::{after_write, assert_seen};
    let read = || async { changes.catalog_version().await.expect("reads") };
    let p1 = ProductId("p1".into());
    let before = read().await;
    create(editor, &product("p1").build()).await;
    assert_seen(&after_write(changes, &before).await, "a creation", |c| {
        c.products == vec![p1.clone()] && c.names && c.home && c.placements.len() == 1 && !c.numbers.is_empty()
    });
    let before = read().await;
    editor
        .update_product(&product("p1").name("Renamed").build(), &audit("product.update", "product:p1"))
        .await
        .expect("updated");
    assert_seen(&after_write(changes, &before).await, "a rename", |c| c.products == vec![p1.clone()] && c.names);
    let before = read().await;
    editor
        .update_product(
            &product("p1").name("Renamed").price(Money::from_paise(4_321)).build(),
            &audit("product.update", "product:p1"),
        )
        .await
        .expect("updated");
    assert_seen(&after_write(changes, &before).await, "a price", |c| c.products == vec![p1.clone()]);
    let before = read().await;
    let mut hidden = product("p1").name("Renamed").price(Money::from_paise(4_321)).build();
    hidden.details.published = false;
    editor.update_product(&hidden, &audit("product.unpublish", "product:p1")).await.expect("unpublished");
    assert_seen(&after_write(changes, &before).await, "an unpublication", |c| {
        c.products == vec![p1.clone()] && c.names && c.home && c.placements.len() == 1
    });
    let before = read().await;
    editor
        .create_category(&category("c1", "Brakes", &[]), &audit("category.create", "category:c1"))
        .await
        .expect("created");
    assert_seen(&after_write(changes, &before).await, "a category", |c| c.categories.contains(&"brakes".to_owned()));
    let before = read().await;
    editor
        .update_category(&category("c1", "Lamps", &[]), &audit("category.update", "category:c1"))
        .await
        .expect("updated");
    assert_seen(&after_write(changes, &before).await, "a category's update", |c| {
        c.categories.contains(&"brakes".to_owned()) && c.categories.contains(&"lamps".to_owned())
    });
    let before = read().await;
    editor.create_brand(&brand("b1", "BMW"), &audit("brand.create", "brand:b1")).await.expect("created");
    assert_seen(&after_write(changes, &before).await, "a brand", |c| c.brands.contains(&"bmw".to_owned()));
    let before = read().await;
    editor.update_brand(&brand("b1", "Audi"), &audit("brand.update", "brand:b1")).await.expect("updated");
    assert_seen(&after_write(changes, &before).await, "a brand's update", |c| {
        c.brands.contains(&"bmw".to_owned()) && c.brands.contains(&"audi".to_owned())
    });
}

/// A used unit (issue 25): old or refurbished with a grade, a donor car, the margin scheme's purchase
/// price and cross-references.
fn used_unit(id: &str, grade: Grade, created_at: i64) -> Product {
    product(id)
        .name(&format!("Used Brake Disc {id}"))
        .condition(Condition::Old)
        .created_at(created_at)
        .with(|p| {
            p.details.grade = Some(grade);
            p.details.donor = Some(Donor {
                make: "BMW".into(),
                model: "X5".into(),
                generation: "G05".into(),
                year: 2019,
                odometer_km: 84_000,
            });
            p.details.margin_scheme = Some(MarginScheme::new(Money::from_rupees(2_500)).expect("a price"));
        })
        .build()
}

fn graded(grades: &[Grade]) -> ProductListing {
    ProductListing { limit: 50, grades: grades.to_vec(), ..ProductListing::default() }
}

fn searched(text: &str, grades: &[Grade]) -> ProductQuery {
    ProductQuery { text: text.into(), offset: 0, limit: 50, fits: None, grades: grades.to_vec() }
}

/// A used unit's grade, donor car, margin scheme and cross-references read back exactly, to the
/// editor and to shoppers' store (published or not, through publishing); a cross-reference's number
/// is found by search in any spelling, and an edit that drops it stops it being found.
pub async fn used_units_keep_grade_donor_margin_and_cross_references(
    editor: &dyn CatalogEditor,
    catalog: &dyn CatalogStore,
    _trail: &dyn AuditLog,
    _changes: &dyn CatalogChanges,
) {
    let mut p = used_unit("p1", Grade::B, 1_700_000_100);
    p.details.cross_references = vec![
        CrossReference::parse("Bosch", "0 986 494 104").expect("valid"),
        CrossReference::parse("ATE", "24.0122-0163.1").expect("valid"),
    ];
    create(editor, &p).await;
    create(editor, &product("p2").name("Plain Disc").build()).await;
    assert_eq!(editor.product(&p.id).await.expect("reads").as_ref(), Some(&p), "the editor reads it back");
    assert_eq!(catalog.product(&p.id).await.expect("reads").as_ref(), Some(&p), "so do shoppers");
    let plain = catalog.product(&ProductId("p2".into())).await.expect("reads").expect("stored");
    assert_eq!(
        (plain.details.grade, plain.details.donor, plain.details.margin_scheme, plain.details.cross_references.len()),
        (None, None, None, 0),
        "a new part carries none of them"
    );
    for typed in ["0986494104", "0 986 494 104", "0-986-494-104", "240122 01631", "24.0122-0163.1"] {
        let found = catalog.search(&searched(typed, &[])).await.expect("reads");
        assert_eq!(ids(&found.products), ["p1"], "{typed} finds the part by its cross-reference");
    }
    // Through unpublishing and publishing again, nothing of it is lost.
    let hidden = unpublished(p.clone());
    editor.update_product(&hidden, &audit("product.unpublish", "product:p1")).await.expect("unpublished");
    assert_eq!(editor.product(&p.id).await.expect("reads").as_ref(), Some(&hidden));
    editor.update_product(&p, &audit("product.publish", "product:p1")).await.expect("published");
    assert_eq!(catalog.product(&p.id).await.expect("reads").as_ref(), Some(&p));
    // Out of the margin scheme, no donor, one cross-reference fewer.
    let mut edit = p.clone();
    edit.details.margin_scheme = None;
    edit.details.donor = None;
    edit.details.cross_references.truncate(1);
    editor.update_product(&edit, &audit("product.update", "product:p1")).await.expect("updated");
    assert_eq!(catalog.product(&p.id).await.expect("reads").as_ref(), Some(&edit));
    assert_eq!(catalog.search(&searched("24 0122 0163 1", &[])).await.expect("reads").total, 0, "dropped");
    assert_eq!(ids(&catalog.search(&searched("0986494104", &[])).await.expect("reads").products), ["p1"]);
}

/// A grade filter keeps only the used units of its grades, in every listing (with the other filters)
/// and search (by name, by number, every product), and follows a regrade at once.
pub async fn grade_filters_narrow_listings_and_searches_and_follow_regrades(
    editor: &dyn CatalogEditor,
    catalog: &dyn CatalogStore,
    _trail: &dyn AuditLog,
    _changes: &dyn CatalogChanges,
) {
    create(editor, &used_unit("a1", Grade::A, 1_700_000_300)).await;
    create(editor, &used_unit("b1", Grade::B, 1_700_000_200)).await;
    let mut c1 = used_unit("c1", Grade::C, 1_700_000_100);
    c1.condition = Condition::Refurbished;
    create(editor, &c1).await;
    create(editor, &product("n1").name("New Brake Disc").created_at(1_700_000_400).build()).await;
    create(editor, &unpublished(used_unit("h1", Grade::A, 1_700_000_500))).await;
    let list = |listing: ProductListing| async move {
        let slice = catalog.list_products(&listing).await.expect("reads");
        (slice.products.iter().map(|p| p.id.0.clone()).collect::<Vec<_>>(), slice.total)
    };
    let owned = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert_eq!(list(graded(&[])).await, (owned(&["n1", "a1", "b1", "c1"]), 4));
    assert_eq!(list(graded(&[Grade::A])).await, (owned(&["a1"]), 1), "the unpublished A is no shopper's");
    assert_eq!(list(graded(&[Grade::C, Grade::A])).await, (owned(&["a1", "c1"]), 2));
    let in_category = ProductListing { category: Some("brakes".into()), ..graded(&[Grade::B]) };
    assert_eq!(list(in_category).await, (owned(&["b1"]), 1));
    let with_conditions = ProductListing { conditions: vec![Condition::Old], ..graded(&[Grade::A, Grade::C]) };
    assert_eq!(list(with_conditions).await, (owned(&["a1"]), 1), "c1 is refurbished");
    let window = ProductListing { offset: 1, limit: 1, ..graded(&Grade::ALL) };
    assert_eq!(list(window).await, (owned(&["b1"]), 3), "a window, counted over all");

    let search = |text: &'static str, grades: &'static [Grade]| async move {
        let found = catalog.search(&searched(text, grades)).await.expect("reads");
        let mut found_ids: Vec<String> = found.products.iter().map(|p| p.id.0.clone()).collect();
        if !text.is_empty() {
            found_ids.sort();
        }
        (found_ids, found.total)
    };
    assert_eq!(search("brake disc", &[]).await.1, 4);
    assert_eq!(search("brake disc", &[Grade::A, Grade::B]).await, (owned(&["a1", "b1"]), 2));
    assert_eq!(search("MQ c1", &[Grade::C]).await, (owned(&["c1"]), 1), "by part number");
    assert_eq!(search("MQ c1", &[Grade::A]).await, (Vec::new(), 0));
    assert_eq!(search("", &[Grade::B, Grade::C]).await, (owned(&["b1", "c1"]), 2), "every product, newest first");

    // A regrade moves the unit between the filters at once.
    let mut regraded = used_unit("b1", Grade::C, 1_700_000_200);
    regraded.details.grade = Some(Grade::C);
    editor.update_product(&regraded, &audit("product.update", "product:b1")).await.expect("regraded");
    assert_eq!(list(graded(&[Grade::B])).await, (Vec::new(), 0));
    assert_eq!(list(graded(&[Grade::C])).await, (owned(&["b1", "c1"]), 2));
    assert_eq!(search("brake disc", &[Grade::C]).await, (owned(&["b1", "c1"]), 2));
}
