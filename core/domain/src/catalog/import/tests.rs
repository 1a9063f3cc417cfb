use proptest::prelude::*;

use super::*;
use crate::catalog::{Dimensions, ProductDetails, ProductId};
use crate::Money;

fn header(names: &[&str]) -> ImportHeader {
    ImportHeader::parse(names).expect("a header").0.with_this_year(2026)
}

fn stored() -> Product {
    Product {
        id: ProductId("p1".into()),
        name: "Front Brake Disc".into(),
        price: Money::from_rupees(1250),
        quantity: 4,
        condition: Condition::New,
        images: Vec::new(),
        description: "Vented".into(),
        category: "Brakes".into(),
        category_slug: "brakes".into(),
        subcategory: "Discs".into(),
        subcategory_slug: "discs".into(),
        oem: "BMW".into(),
        oem_slug: "bmw".into(),
        fuel_type: Some(FuelType::Petrol),
        variant: "F10".into(),
        part_no: PartNumber::parse("34 11 6 793 244").expect("valid"),
        inside_ncr: Money::from_rupees(100),
        outside_ncr: Money::from_rupees(250),
        gst_percent: 28,
        units_sold: 3,
        created_at: 1,
        details: ProductDetails { sku: "BMW-DISC-1".into(), ..ProductDetails::default() },
    }
}

#[test]
fn headers_match_in_any_case_and_report_unknown_columns() {
    let (h, unknown) = ImportHeader::parse(&["\u{feff}SKU", " Price ", "FUELTYPE", "colour", "partno"]).expect("read");
    assert!(h.has(Column::Sku) && h.has(Column::Price) && h.has(Column::FuelType) && h.has(Column::PartNo));
    assert!(!h.has(Column::Name));
    assert_eq!(unknown, [RowError::new(1, "colour", "colour", Message::ImportColumnUnknown)]);

    assert_eq!(ImportHeader::parse(&["sku", "Sku"]), Err(Message::ImportColumnTwice));
    assert_eq!(ImportHeader::parse(&["name", "price"]), Err(Message::ImportSkuColumnMissing));
    assert_eq!(ImportHeader::parse(&["", " "]), Err(Message::ImportEmpty));
    let wide: Vec<String> = (0..10_000).map(|i| format!("c{i}")).collect();
    let wide: Vec<&str> = wide.iter().map(String::as_str).collect();
    assert_eq!(ImportHeader::parse(&wide), Err(Message::ImportTooManyColumns));
    assert_eq!(Column::from_header("weightgrams"), Some(Column::WeightGrams));
    for c in Column::ALL {
        assert_eq!(Column::from_header(&c.name().to_uppercase()), Some(c));
    }
}

#[test]
fn a_row_reads_every_column_with_the_editors_rules() {
    let names: Vec<&str> = Column::ALL.iter().map(|c| c.name()).collect();
    let h = header(&names);
    let cells = [
        "bmw-disc-1",
        "डिस्क ब्रेक, आगे",
        "₹1,25,000.50",
        "7",
        "old",
        "Two lines,\n\"quoted\"",
        "brakes",
        "discs",
        "bmw",
        "Diesel",
        " F10 ",
        "34 11 6 793 244",
        "100",
        "2,500",
        "18",
        "870830",
        "15",
        "12000",
        "no",
        "A1 | B-2",
        "X9",
        "",
    ];
    let row = h.row(2, &cells).expect("valid");
    assert_eq!(row.sku.as_str(), "BMW-DISC-1");
    assert_eq!(row.quantity, Some(7));
    let p = &row.patch;
    assert_eq!(p.name.as_deref(), Some("डिस्क ब्रेक, आगे"));
    assert_eq!(p.price, Some(Money::from_paise(12_500_050)));
    assert_eq!(p.condition, Some(Condition::Old));
    assert_eq!(p.description.as_deref(), Some("Two lines,\n\"quoted\""));
    assert_eq!(p.fuel_type, Some(Some(FuelType::Diesel)));
    assert_eq!(p.variant.as_deref(), Some("F10"));
    assert_eq!(p.outside_ncr, Some(Money::from_rupees(2500)));
    assert_eq!(p.gst_percent, Some(18));
    assert_eq!(p.hsn.as_ref().map(Hsn::as_str), Some("870830"));
    assert_eq!(p.warranty_days.map(WarrantyDays::days), Some(15));
    assert_eq!(p.weight_grams, Some(12_000));
    assert_eq!(p.published, Some(false));
    let printed: Vec<&str> = p.alternate_numbers.iter().flatten().map(PartNumber::printed).collect();
    assert_eq!(printed, ["A1", "B-2"]);
    assert_eq!(p.sku.as_ref().map(Sku::as_str), Some("BMW-DISC-1"));
    assert_eq!(p.dimensions_mm, None::<Dimensions>);
}

#[test]
fn empty_cells_keep_and_short_rows_are_padded() {
    let h = header(&["sku", "name", "price", "fuelType"]);
    let row = h.row(3, &["S1", "", "  "]).expect("valid");
    assert_eq!(row.patch, ProductPatch { sku: Some(Sku::parse("S1").expect("sku")), ..ProductPatch::default() });
    assert_eq!(row.quantity, None);
    let none = h.row(3, &["S1", "", "", "none"]).expect("valid");
    assert_eq!(none.patch.fuel_type, Some(None));
}

#[test]
fn every_refusal_of_a_row_is_reported_with_its_column_and_value() {
    let h = header(&["SKU", "Price", "GST", "hsn", "warrantyDays", "quantity", "published", "fuelType", "photos"]);
    let errors = h.row(5, &["S1", "-1", "7", "87", "30", "-2", "maybe", "steam", "../a.jpg"]).expect_err("refused");
    let found: Vec<(u64, &str, &str, Message)> =
        errors.iter().map(|e| (e.line, e.column.as_str(), e.value.as_str(), e.message)).collect();
    assert_eq!(
        found,
        [
            (5, "Price", "-1", Message::ProductPriceInvalid),
            (5, "GST", "7", Message::ProductGstInvalid),
            (5, "hsn", "87", Message::ProductHsnInvalid),
            (5, "warrantyDays", "30", Message::ProductWarrantyDays),
            (5, "quantity", "-2", Message::ImportQuantityInvalid),
            (5, "published", "maybe", Message::ImportBooleanInvalid),
            (5, "fuelType", "steam", Message::ImportFuelTypeInvalid),
            (5, "photos", "../a.jpg", Message::ImportPhotoNameInvalid),
        ]
    );
    let no_sku = h.row(6, &["", "10"]).expect_err("refused");
    assert_eq!(no_sku, [RowError::new(6, "SKU", "", Message::ProductSkuInvalid)]);
    let bad_sku = h.row(6, &["a b", "10"]).expect_err("refused");
    assert_eq!(bad_sku, [RowError::new(6, "SKU", "a b", Message::ProductSkuInvalid)]);
}

#[test]
fn too_wide_rows_and_huge_cells_are_refused_and_values_are_cut_in_reports() {
    let h = header(&["sku", "name"]);
    let wide = h.row(2, &["S1", "n", "", "extra"]).expect_err("refused");
    assert_eq!(wide, [RowError::new(2, "", "extra", Message::ImportRowTooWide)]);
    let megabyte = "x".repeat(1024 * 1024);
    let huge = h.row(2, &["S1", &megabyte]).expect_err("refused");
    assert_eq!(huge.len(), 1);
    assert_eq!((huge[0].message, huge[0].value.chars().count()), (Message::ImportCellTooLong, REPORTED_VALUE_MAX));
}

#[test]
fn a_known_sku_changes_only_the_columns_that_differ() {
    let h = header(&["sku", "name", "price", "quantity", "gst", "description"]);
    let same = h.row(2, &["bmw-disc-1", "Front Brake Disc", "1,250", "4", "28", ""]).expect("valid");
    assert_eq!(same.compare(Some(&stored())), Ok(RowChange::Unchanged));

    let row = h.row(2, &["BMW-DISC-1", "Front Brake Disc", "1,300.00", "6", "28", "New text"]).expect("valid");
    let Ok(RowChange::Update { patch, changed, stock }) = row.compare(Some(&stored())) else {
        panic!("an update expected")
    };
    assert_eq!(changed, [Column::Price, Column::Description, Column::Quantity]);
    assert_eq!(
        patch,
        ProductPatch {
            price: Some(Money::from_rupees(1300)),
            description: Some("New text".into()),
            ..ProductPatch::default()
        }
    );
    assert_eq!(stock, Some((4, 6)));
}

#[test]
fn a_new_sku_needs_every_column_a_product_cannot_be_without() {
    let h = header(&["sku", "name", "price", "category_slug", "subcategory_slug", "oem_slug", "partNo", "quantity"]);
    let partial = h.row(4, &["NEW-1", "Disc", "", "brakes"]).expect("valid");
    let refused = partial.compare(None).expect_err("refused");
    let missing: Vec<&str> = refused.iter().map(|e| e.column.as_str()).collect();
    assert_eq!(missing, ["price", "subcategory_slug", "oem_slug", "partNo"]);
    let complete = h.row(4, &["NEW-1", "Disc", "10", "brakes", "discs", "bmw", "A 1", "3"]).expect("valid");
    let Ok(RowChange::Create(draft)) = complete.compare(None) else { panic!("a creation expected") };
    assert_eq!(draft.quantity(), 3);
    assert_eq!(draft.fields().sku.as_ref().map(Sku::as_str), Some("NEW-1"));
}

#[test]
fn a_delete_cell_unpublishes_a_known_sku_and_refuses_an_unknown_one() {
    let h = header(&["sku", "published", "delete"]);
    for yes in ["true", "1", "Yes"] {
        let row = h.row(2, &["bmw-disc-1", "true", yes]).expect("valid");
        assert!(row.delete, "{yes}");
        let Ok(RowChange::Update { patch, changed, stock }) = row.compare(Some(&stored())) else {
            panic!("an update expected for {yes}")
        };
        assert_eq!((patch.published, changed, stock), (Some(false), vec![Column::Published], None), "{yes}");
    }
    // Already unpublished: nothing to do.
    let hidden = Product { details: ProductDetails { published: false, ..stored().details }, ..stored() };
    let row = h.row(2, &["bmw-disc-1", "", "yes"]).expect("valid");
    assert_eq!(row.compare(Some(&hidden)), Ok(RowChange::Unchanged));
    // No, 0 or an empty cell leave the product as the other cells say.
    for no in ["no", "0", ""] {
        let row = h.row(2, &["bmw-disc-1", "", no]).expect("valid");
        assert!(!row.delete, "{no}");
        assert_eq!(row.compare(Some(&stored())), Ok(RowChange::Unchanged), "{no}");
    }
    let unknown = h.row(3, &["NO-SUCH-SKU", "", "true"]).expect("valid").compare(None).expect_err("refused");
    assert_eq!(unknown, [RowError::new(3, "delete", "NO-SUCH-SKU", Message::ImportDeleteUnknown)]);
    let bad = h.row(4, &["bmw-disc-1", "", "perhaps"]).expect_err("refused");
    assert_eq!(bad, [RowError::new(4, "delete", "perhaps", Message::ImportBooleanInvalid)]);
}

fn word() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9]{0,8}(-[a-z0-9]{1,6}){0,2}"
}

/// Text a spreadsheet may hold: Hindi, commas, quotes, newlines, `|`; trimmed when `trimmed`.
fn text(trimmed: bool) -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 ,\"'|\n\r\tअ-ह़-्।₹]{0,40}".prop_map(move |s| if trimmed { s.trim().to_owned() } else { s })
}

fn numbers() -> impl Strategy<Value = Vec<PartNumber>> {
    prop::collection::vec("[A-Z]{1,3}[ -]?[0-9]{1,6}", 0..4)
        .prop_map(|typed| editor::other_numbers(&typed).expect("valid numbers"))
}

prop_compose! {
    fn product()(
        sku in "[A-Z0-9][A-Z0-9._/-]{0,39}",
        name in text(true).prop_filter("a name", |n| !n.is_empty()),
        paise in 0i64..10_000_000_000,
        quantity in 0u32..=100_000,
        condition in prop::sample::select(vec!["new", "new_without_box", "refurbished", "old", "stock_lot"]),
        description in text(false),
        slugs in (word(), word(), word()),
        fuel in prop::option::of(prop::sample::select(FuelType::ALL.to_vec())),
        variant in text(true),
        part in "[A-Z]{1,3} ?[0-9]{1,8}",
        ncr in (0i64..1_000_000, 0i64..1_000_000),
        gst in prop::sample::select(editor::GST_RATES.to_vec()),
        hsn in "[0-9]{4,8}",
        warranty in 2i64..=15,
        weight in 0i64..=1_000_000,
        published: bool,
        alternate in numbers(),
        superseded in numbers(),
        used in super::used::tests::details(),
    ) -> Product {
        // A grade, donor car or margin scheme only on a used condition.
        let carries = used.grade.is_some() || used.donor.is_some() || used.margin_scheme.is_some();
        let condition = if carries && !Condition::from(condition).is_used() { "old" } else { condition };
        Product {
            id: ProductId("p".into()),
            name,
            price: Money::from_paise(paise),
            quantity,
            condition: Condition::from(condition),
            images: Vec::new(),
            description,
            category: String::new(),
            category_slug: slugs.0,
            subcategory: String::new(),
            subcategory_slug: slugs.1,
            oem: String::new(),
            oem_slug: slugs.2,
            fuel_type: fuel,
            variant,
            part_no: PartNumber::parse(&part).expect("a part number"),
            inside_ncr: Money::from_paise(ncr.0),
            outside_ncr: Money::from_paise(ncr.1),
            gst_percent: gst,
            units_sold: 0,
            created_at: 0,
            details: ProductDetails {
                sku: Sku::parse(&sku).expect("a sku").as_str().to_owned(),
                alternate_numbers: alternate,
                superseded_numbers: superseded,
                hsn: Hsn::parse(&hsn).expect("an hsn"),
                warranty_days: WarrantyDays::new(warranty).expect("a warranty"),
                weight_grams: editor::weight_grams(weight).expect("a weight"),
                dimensions_mm: Dimensions::default(),
                published,
                ..used
            },
        }
    }
}

proptest! {
    /// Export → import is a no-op: any product's exported row reads back as "unchanged", and as a
    /// creation it carries exactly the product's fields.
    #[test]
    fn an_exported_row_reads_back_unchanged(product in product()) {
        let h = header(&ImportHeader::exported());
        let cells = export_cells(&product);
        let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
        let row = h.row(2, &cells).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        prop_assert_eq!(row.compare(Some(&product)), Ok(RowChange::Unchanged));
        prop_assert_eq!(row.quantity, Some(product.quantity));
        // Every field an export never leaves empty, blanked, then written back by the row.
        let mut rebuilt = product.clone();
        rebuilt.name = String::new();
        rebuilt.price = Money::from_paise(-1);
        rebuilt.condition = Condition::Other(String::new());
        rebuilt.part_no = PartNumber::parse("0").expect("a part number");
        rebuilt.inside_ncr = Money::from_paise(-1);
        rebuilt.outside_ncr = Money::from_paise(-1);
        rebuilt.gst_percent = 99;
        rebuilt.details = ProductDetails { published: !product.details.published, ..product.details.clone() };
        rebuilt.details.sku = String::new();
        rebuilt.details.hsn = Hsn::parse("0000").expect("an hsn");
        rebuilt.details.weight_grams = u32::MAX;
        row.patch.apply_to(&mut rebuilt);
        prop_assert_eq!(&rebuilt, &product);
        // The used unit's cells carry what the product has: read against the product without them,
        // the row gives them back (fitment apart, as the use case writes it).
        let mut bare = product.clone();
        bare.details.grade = None;
        bare.details.donor = None;
        bare.details.margin_scheme = None;
        bare.details.cross_references = Vec::new();
        bare.details.fits = Vec::new();
        let mut restored = bare.clone();
        if let Ok(RowChange::Update { patch, .. }) = row.compare(Some(&bare)) {
            patch.apply_to(&mut restored);
        }
        restored.details.fits = row.used.fits_to_write(Some(&bare)).map(<[_]>::to_vec).unwrap_or_default()
            .into_iter()
            .zip(&product.details.fits)
            .map(|(row, fit)| crate::vehicle::ProductFit { row, ..fit.clone() })
            .collect();
        prop_assert_eq!(&restored.details, &product.details);
        // Placement is by slug (the use case looks the names up).
        let slugs = (&row.patch.category_slug, &row.patch.subcategory_slug, &row.patch.oem_slug);
        prop_assert_eq!(slugs, (&Some(product.category_slug.clone()), &Some(product.subcategory_slug.clone()), &Some(product.oem_slug.clone())));
    }
}

#[test]
fn a_photos_cell_lists_the_rows_photographs_in_order() {
    use super::photos::PhotoSource;
    let h = header(&["sku", "photos"]);
    let row = h.row(2, &["S1", "a.jpg|https://cdn.example/b.jpg"]).expect("valid");
    assert_eq!(
        row.photos,
        vec![PhotoSource::File("a.jpg".into()), PhotoSource::Url("https://cdn.example/b.jpg".into())]
    );
    assert_eq!(h.row(3, &["S1", ""]).expect("valid").photos, vec![]);
}
