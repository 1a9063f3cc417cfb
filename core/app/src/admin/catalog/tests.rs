use super::*;
use marque_contract_tests::fixtures::{brand, category, part_number, product};
use marque_domain::catalog::editor::Sku;
use marque_domain::staff::{StaffId, StaffRole};
use marque_domain::Money;
use marque_ports::{MockCatalogEditor, MockCatalogStore};

struct Fixed;
impl Clock for Fixed {
    fn now(&self) -> i64 {
        1_780_295_400
    }
}

fn staff(role: StaffRole) -> Staff {
    Staff { id: StaffId("s1".into()), email: "ravi@marque.in".into(), name: "Ravi".into(), role }
}

/// A catalog with category Brakes (Discs) and brand BMW.
fn shop() -> MockCatalogStore {
    let mut catalog = MockCatalogStore::new();
    catalog.expect_categories().returning(|| Ok(vec![category("c1", "Brakes", &[("s1", "Discs")])]));
    catalog.expect_brands().returning(|| Ok(vec![brand("b1", "BMW")]));
    catalog
}

fn service(editor: MockCatalogEditor, catalog: MockCatalogStore) -> AdminCatalogService {
    AdminCatalogService::new(Arc::new(editor), Arc::new(catalog), Arc::new(Fixed))
}

fn draft(category_slug: &str, quantity: u32) -> ProductDraft {
    let fields = ProductPatch {
        name: Some("Front Brake Disc".into()),
        price: Some(Money::from_paise(149_950)),
        category_slug: Some(category_slug.into()),
        subcategory_slug: Some("discs".into()),
        oem_slug: Some("bmw".into()),
        part_no: Some(part_number("34 11 6 792 217")),
        sku: Some(Sku::parse("bmw-disc-1").expect("valid")),
        alternate_numbers: Some(vec![part_number("A 1")]),
        ..ProductPatch::default()
    };
    ProductDraft::new(fields, quantity).expect("complete")
}

fn json(text: Option<&str>) -> Value {
    serde_json::from_str(text.expect("values")).expect("JSON")
}

#[tokio::test]
async fn a_catalog_staff_member_creates_a_product_with_names_opening_stock_and_its_audit_entry() {
    let mut editor = MockCatalogEditor::new();
    editor
        .expect_create_product()
        .withf(|p, audit| {
            p.id.as_str().starts_with('p')
                && audit.subject == format!("product:{}", p.id)
                && audit.action == "product.create"
                && audit.at == 1_780_295_400
                && audit.actor == Actor::Staff { id: StaffId("s1".into()), email: "ravi@marque.in".into() }
                && audit.before.is_none()
                && json(audit.after.as_deref())["sku"] == "BMW-DISC-1"
        })
        .times(1)
        .returning(|_, _| Ok(()));
    let created = service(editor, shop()).create_product(&staff(StaffRole::Catalog), draft("brakes", 4)).await;
    let p = created.expect("created");
    assert_eq!((p.name.as_str(), p.price, p.quantity), ("Front Brake Disc", Money::from_paise(149_950), 4));
    assert_eq!((p.category.as_str(), p.subcategory.as_str(), p.oem.as_str()), ("Brakes", "Discs", "BMW"));
    assert_eq!((p.details.sku.as_str(), p.details.published, p.details.warranty_days.days()), ("BMW-DISC-1", true, 7));
    assert_eq!(p.created_at, 1_780_295_400);
}

#[tokio::test]
async fn fulfilment_is_refused_before_any_store_is_touched() {
    // Mocks without expectations panic on any call.
    let s = service(MockCatalogEditor::new(), MockCatalogStore::new());
    let fulfilment = staff(StaffRole::Fulfilment);
    let forbidden = |r: Result<_, AdminCatalogError>| matches!(r, Err(AdminCatalogError::Forbidden(_)));
    assert!(forbidden(s.create_product(&fulfilment, draft("brakes", 1)).await.map(drop)));
    assert!(forbidden(
        s.update_product(&fulfilment, &ProductId("p1".into()), &ProductPatch::default()).await.map(drop)
    ));
    assert!(forbidden(s.product(&fulfilment, &ProductId("p1".into())).await.map(drop)));
    assert!(forbidden(s.products(&fulfilment, &AdminProductQuery::default()).await.map(drop)));
    assert!(forbidden(s.categories(&fulfilment).await.map(drop)));
    assert!(forbidden(s.create_category(&fulfilment, "A".into(), "a".into()).await.map(drop)));
    assert!(forbidden(s.update_category(&fulfilment, "c1", CategoryChange::default()).await.map(drop)));
    assert!(forbidden(s.add_subcategory(&fulfilment, "c1", "A".into(), "a".into()).await.map(drop)));
    assert!(forbidden(s.brands(&fulfilment).await.map(drop)));
    assert!(forbidden(s.create_brand(&fulfilment, "A".into(), "a".into(), "/a.png".into()).await.map(drop)));
    assert!(forbidden(s.update_brand(&fulfilment, "b1", BrandChange::default()).await.map(drop)));
    let refused = s.create_product(&fulfilment, draft("brakes", 1)).await.expect_err("refused");
    assert_eq!(refused.message(), Message::StaffForbidden);
}

#[tokio::test]
async fn an_unknown_category_is_refused_and_nothing_is_written() {
    let mut editor = MockCatalogEditor::new();
    editor.expect_create_product().never();
    let refused = service(editor, shop()).create_product(&staff(StaffRole::Owner), draft("lamps", 1)).await;
    assert_eq!(refused, Err(AdminCatalogError::Invalid(Message::ProductPlacementUnknown)));
}

#[tokio::test]
async fn a_taken_sku_and_a_failing_store_are_reported() {
    let mut editor = MockCatalogEditor::new();
    editor.expect_create_product().times(1).returning(|_, _| Err(CatalogEditorError::DuplicateSku { sku: "X".into() }));
    editor.expect_create_product().returning(|_, _| Err(CatalogEditorError::Unavailable { reason: "down".into() }));
    let s = service(editor, shop());
    let taken = s.create_product(&staff(StaffRole::Catalog), draft("brakes", 1)).await.expect_err("taken");
    assert_eq!(
        (taken.clone(), taken.message()),
        (AdminCatalogError::Taken(Message::ProductSkuTaken), Message::ProductSkuTaken)
    );
    let down = s.create_product(&staff(StaffRole::Catalog), draft("brakes", 1)).await.expect_err("down");
    assert_eq!(down.message(), Message::CatalogUnavailable);
    assert_eq!(down, AdminCatalogError::Unavailable("down".into()));
}

#[tokio::test]
async fn an_update_audits_only_the_fields_it_changed_and_never_the_stock() {
    let stored = product("p1").category("Brakes", "Discs").brand("BMW").quantity(5).build();
    let mut editor = MockCatalogEditor::new();
    let before = stored.clone();
    editor.expect_product().returning(move |_| Ok(Some(before.clone())));
    editor
        .expect_update_product()
        .withf(|p, audit| {
            let (was, now) = (json(audit.before.as_deref()), json(audit.after.as_deref()));
            p.quantity == 5
                && audit.action == "product.update"
                && audit.subject == "product:p1"
                && now == serde_json::json!({ "price": 2_500, "warranty_days": 15 })
                && was == serde_json::json!({ "price": 100_000, "warranty_days": 7 })
        })
        .times(1)
        .returning(|p, _| Ok(p.clone()));
    let patch = ProductPatch {
        price: Some(Money::from_rupees(25)),
        warranty_days: Some(marque_domain::catalog::WarrantyDays::new(15).expect("valid")),
        name: Some(stored.name.clone()),
        ..ProductPatch::default()
    };
    let updated = service(editor, MockCatalogStore::new())
        .update_product(&staff(StaffRole::Catalog), &ProductId("p1".into()), &patch)
        .await
        .expect("updated");
    assert_eq!((updated.price, updated.quantity), (Money::from_rupees(25), 5));
}

#[tokio::test]
async fn unpublishing_alone_is_audited_as_such_and_a_missing_product_is_not_found() {
    let mut editor = MockCatalogEditor::new();
    editor.expect_product().withf(|id| id.as_str() == "p1").returning(|_| Ok(Some(product("p1").build())));
    editor.expect_product().returning(|_| Ok(None));
    editor
        .expect_update_product()
        .withf(|p, audit| {
            !p.details.published
                && audit.action == "product.unpublish"
                && json(audit.after.as_deref()) == serde_json::json!({ "published": false })
        })
        .times(1)
        .returning(|p, _| Ok(p.clone()));
    let s = service(editor, MockCatalogStore::new());
    let owner = staff(StaffRole::Owner);
    let unpublish = ProductPatch { published: Some(false), ..ProductPatch::default() };
    let hidden = s.update_product(&owner, &ProductId("p1".into()), &unpublish).await.expect("unpublished");
    assert!(!hidden.details.published);
    let missing = s.update_product(&owner, &ProductId("p9".into()), &unpublish).await;
    assert_eq!(missing, Err(AdminCatalogError::NotFound(Message::AdminProductNotFound)));
    assert_eq!(
        s.product(&owner, &ProductId("p9".into())).await,
        Err(AdminCatalogError::NotFound(Message::AdminProductNotFound))
    );
}

#[tokio::test]
async fn a_new_placement_takes_the_shops_names() {
    let mut editor = MockCatalogEditor::new();
    editor.expect_product().returning(|_| Ok(Some(product("p1").build())));
    editor
        .expect_update_product()
        .withf(|p, _| (p.category.as_str(), p.subcategory_slug.as_str(), p.oem.as_str()) == ("Brakes", "discs", "BMW"))
        .returning(|p, _| Ok(p.clone()));
    let patch = ProductPatch {
        category_slug: Some("brakes".into()),
        subcategory_slug: Some("discs".into()),
        oem_slug: Some("bmw".into()),
        ..ProductPatch::default()
    };
    let s = service(editor, shop());
    s.update_product(&staff(StaffRole::Catalog), &ProductId("p1".into()), &patch).await.expect("moved");
    let nowhere = ProductPatch { oem_slug: Some("saab".into()), ..ProductPatch::default() };
    let refused = s.update_product(&staff(StaffRole::Catalog), &ProductId("p1".into()), &nowhere).await;
    assert_eq!(refused, Err(AdminCatalogError::Invalid(Message::ProductPlacementUnknown)));
}

#[tokio::test]
async fn subcategories_keep_their_slugs_unique_within_a_category() {
    let mut editor = MockCatalogEditor::new();
    editor
        .expect_update_category()
        .withf(|c, audit| {
            c.subcategories.len() == 2
                && c.subcategories[1].slug == "pads"
                && audit.action == "category.update"
                && audit.subject == "category:c1"
                && json(audit.before.as_deref())["subcategories"].as_array().map(Vec::len) == Some(1)
        })
        .times(1)
        .returning(|_, _| Ok(()));
    let s = service(editor, shop());
    let catalog_staff = staff(StaffRole::Catalog);
    let added = s.add_subcategory(&catalog_staff, "c1", "Pads".into(), "pads".into()).await.expect("added");
    assert_eq!(added.subcategories.len(), 2);
    let twice = s.add_subcategory(&catalog_staff, "c1", "Discs again".into(), "discs".into()).await;
    assert_eq!(twice, Err(AdminCatalogError::Taken(Message::CatalogSlugTaken)));
    let nowhere = s.add_subcategory(&catalog_staff, "c9", "Pads".into(), "pads".into()).await;
    assert_eq!(nowhere, Err(AdminCatalogError::NotFound(Message::CatalogRecordNotFound)));
}

#[tokio::test]
async fn categories_and_brands_are_created_and_changed_with_their_audit_entries() {
    let mut editor = MockCatalogEditor::new();
    editor
        .expect_create_category()
        .withf(|c, audit| {
            c.id.starts_with('c') && audit.action == "category.create" && audit.subject == format!("category:{}", c.id)
        })
        .returning(|_, _| Ok(()));
    editor
        .expect_update_category()
        .withf(|c, audit| {
            c.slug == "brake-parts" && json(audit.after.as_deref()) == serde_json::json!({ "slug": "brake-parts" })
        })
        .returning(|_, _| Ok(()));
    editor
        .expect_create_brand()
        .withf(|b, audit| b.image == "/logos/saab.png" && audit.action == "brand.create")
        .returning(|_, _| Err(CatalogEditorError::SlugTaken { slug: "saab".into() }));
    editor
        .expect_update_brand()
        .withf(|b, audit| {
            b.name == "BMW"
                && b.image == "/logos/bmw.webp"
                && json(audit.before.as_deref()) == serde_json::json!({ "image": "/new-car-logo/bmw.png" })
        })
        .returning(|_, _| Ok(()));
    let s = service(editor, shop());
    let owner = staff(StaffRole::Owner);
    let created = s.create_category(&owner, "Lamps".into(), "lamps".into()).await.expect("created");
    assert!(created.subcategories.is_empty());
    let change = CategoryChange { slug: Some("brake-parts".into()), name: None };
    assert_eq!(s.update_category(&owner, "c1", change).await.map(|c| c.name), Ok("Brakes".into()));
    let taken = s.create_brand(&owner, "Saab".into(), "saab".into(), "/logos/saab.png".into()).await;
    assert_eq!(taken, Err(AdminCatalogError::Taken(Message::CatalogSlugTaken)));
    let logo = BrandChange { logo: Some("/logos/bmw.webp".into()), ..BrandChange::default() };
    assert_eq!(s.update_brand(&owner, "b1", logo).await.map(|b| b.slug), Ok("bmw".into()));
    let missing = s.update_brand(&owner, "b9", BrandChange::default()).await;
    assert_eq!(missing, Err(AdminCatalogError::NotFound(Message::CatalogRecordNotFound)));
}

#[tokio::test]
async fn a_grade_donor_or_margin_scheme_is_refused_on_a_new_part_before_any_write() {
    use marque_domain::catalog::{Condition, Grade, MarginScheme};
    // A creation: nothing is read or written.
    let mut fields = draft("brakes", 1).fields().clone();
    fields.grade = Some(Some(Grade::A));
    let refused = service(MockCatalogEditor::new(), MockCatalogStore::new())
        .create_product(&staff(StaffRole::Catalog), ProductDraft::new(fields.clone(), 1).expect("complete"))
        .await;
    assert_eq!(refused.err(), Some(AdminCatalogError::Invalid(Message::ProductUsedOnly)));
    // An update that makes a graded unit new, or puts a new part in the margin scheme: read, never written.
    let graded = product("p1").condition(Condition::Old).with(|p| p.details.grade = Some(Grade::B)).build();
    for patch in [
        ProductPatch { condition: Some(Condition::New), ..ProductPatch::default() },
        ProductPatch { condition: Some(Condition::NewWithoutBox), grade: Some(None), ..ProductPatch::default() },
    ] {
        let mut editor = MockCatalogEditor::new();
        let stored = graded.clone();
        editor.expect_product().returning(move |_| Ok(Some(stored.clone())));
        let margin = MarginScheme::new(Money::from_rupees(10)).expect("valid");
        let patch = ProductPatch { margin_scheme: patch.grade.map(|_| Some(margin)), ..patch };
        let refused = service(editor, MockCatalogStore::new())
            .update_product(&staff(StaffRole::Catalog), &ProductId("p1".into()), &patch)
            .await;
        assert_eq!(refused.err(), Some(AdminCatalogError::Invalid(Message::ProductUsedOnly)), "{patch:?}");
    }
}

#[tokio::test]
async fn a_regrade_is_audited_with_the_grades_before_and_after() {
    use marque_domain::catalog::{Condition, Grade};
    let stored = product("p1").condition(Condition::Refurbished).with(|p| p.details.grade = Some(Grade::B)).build();
    let mut editor = MockCatalogEditor::new();
    editor.expect_product().returning(move |_| Ok(Some(stored.clone())));
    editor
        .expect_update_product()
        .withf(|p, audit| {
            p.details.grade == Some(Grade::C)
                && audit.action == "product.update"
                && json(audit.before.as_deref()) == serde_json::json!({ "grade": "B" })
                && json(audit.after.as_deref()) == serde_json::json!({ "grade": "C" })
        })
        .times(1)
        .returning(|p, _| Ok(p.clone()));
    let patch = ProductPatch { grade: Some(Some(Grade::C)), ..ProductPatch::default() };
    let updated = service(editor, MockCatalogStore::new())
        .update_product(&staff(StaffRole::Catalog), &ProductId("p1".into()), &patch)
        .await
        .expect("updated");
    assert_eq!(updated.details.grade, Some(Grade::C));
}
