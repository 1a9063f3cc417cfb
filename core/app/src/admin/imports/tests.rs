use std::sync::Mutex;

use marque_contract_tests::fixtures::{brand, category, product};
use marque_domain::staff::StaffRole;
use marque_domain::Money;
use marque_ports::{BlobStoreError, MockBlobStore, MockCatalogEditor, MockCatalogStore, MockImportJobs};

use super::*;

const NOW: i64 = 1_780_295_400;

struct Fixed;
impl Clock for Fixed {
    fn now(&self) -> i64 {
        NOW
    }
}

fn staff(role: StaffRole) -> Staff {
    Staff { id: StaffId("s1".into()), email: "ravi@marque.in".into(), name: "Ravi".into(), role }
}

/// A shop with category Brakes (Discs) and brands Mercedes-Benz and BMW.
fn shop() -> MockCatalogStore {
    let mut catalog = MockCatalogStore::new();
    catalog.expect_categories().returning(|| Ok(vec![category("c1", "Brakes", &[("s1", "Discs")])]));
    catalog.expect_brands().returning(|| Ok(vec![brand("b1", "Mercedes-Benz"), brand("b2", "BMW")]));
    catalog
}

fn service(jobs: MockImportJobs, blobs: MockBlobStore, catalog: MockCatalogStore) -> ImportService {
    ImportService::new(
        Arc::new(jobs),
        Arc::new(blobs),
        Arc::new(catalog),
        Arc::new(MockCatalogEditor::new()),
        Arc::new(Fixed),
        "w1".into(),
    )
}

fn queued(mode: ImportMode, batches_done: u64) -> ImportJob {
    ImportJob {
        id: ImportJobId("i1".into()),
        mode,
        create_missing: false,
        state: ImportState::Running,
        file_name: "parts.csv".into(),
        file_key: "imports/i1.csv".into(),
        file_bytes: 10,
        actor: "s1".into(),
        actor_label: "ravi@marque.in".into(),
        counts: ImportCounts::default(),
        rows_total: 0,
        batches_done,
        claimed_by: Some("w1".into()),
        claimed_until: NOW + CLAIM_SECONDS,
        created_at: NOW - 5,
        started_at: Some(NOW),
        finished_at: None,
        failure: None,
        photos_key: None,
        photos: marque_ports::PhotoCounts::default(),
        photos_started_at: None,
        photos_updated_at: None,
    }
}

fn upload(text: &str) -> NewImport {
    NewImport {
        file_name: "parts.csv".into(),
        bytes: text.as_bytes().to_vec(),
        mode: ImportMode::Apply,
        create_missing: false,
        photos: None,
    }
}

/// The stored product `S-OLD`: ₹1,000, 1 in stock, category Brakes/Discs, brand Mercedes-Benz.
fn stored() -> Product {
    product("p-old").sku("S-OLD").build()
}

/// Jobs that hand out `job` once, renew its claim, read `stored` by SKU and keep each batch written.
fn jobs_running(job: ImportJob, written: Arc<Mutex<Vec<ImportBatch>>>) -> MockImportJobs {
    let mut jobs = MockImportJobs::new();
    let mut once = Some(job);
    jobs.expect_claim()
        .withf(|w, now, until| w == "w1" && *now == NOW && *until == NOW + CLAIM_SECONDS)
        .returning(move |_, _, _| Ok(once.take()));
    jobs.expect_renew().returning(|_, _, _| Ok(()));
    jobs.expect_products_by_sku()
        .returning(|skus| Ok(skus.iter().any(|s| s == "S-OLD").then(stored).into_iter().collect()));
    jobs.expect_write_batch().returning(move |id, worker, now, batch| {
        assert_eq!((id.0.as_str(), worker, now), ("i1", "w1", NOW));
        written.lock().expect("lock").push(batch.clone());
        Ok(())
    });
    jobs
}

fn blobs_holding(text: &'static str) -> MockBlobStore {
    let mut blobs = MockBlobStore::new();
    blobs.expect_get().withf(|key| key == "imports/i1.csv").returning(move |_| Ok(Some(text.as_bytes().to_vec())));
    blobs
}

const FILE: &str = "SKU,name,price,quantity,gst,category_slug,subcategory_slug,oem_slug,partNo\r\n\
NEW-1,Disc,\"1,250.00\",3,18,brakes,discs,bmw,A 1\r\n\
s-old,,\"₹1,100\",5,,,,,\r\n\
S-OLD-2,Pad,10,,7,brakes,discs,bmw,B 2\r\n\
DUP,Pad,10,,,brakes,discs,bmw,C 3\r\n\
DUP,Pad,10,,,brakes,discs,bmw,C 3\r\n\
NEW-2,Pad,10,,,brakes,drums,bmw,D 4\r\n";

#[tokio::test]
async fn only_owners_and_catalog_staff_import_and_nothing_is_kept_for_a_refused_role() {
    let s = service(MockImportJobs::new(), MockBlobStore::new(), MockCatalogStore::new());
    let refused = s.start(&staff(StaffRole::Fulfilment), upload("sku\nA\n")).await;
    assert!(matches!(refused, Err(ImportError::Forbidden(_))));
    assert!(matches!(
        s.job(&staff(StaffRole::Fulfilment), &ImportJobId("i1".into())).await,
        Err(ImportError::Forbidden(_))
    ));
    assert!(matches!(
        s.cancel(&staff(StaffRole::Fulfilment), &ImportJobId("i1".into())).await,
        Err(ImportError::Forbidden(_))
    ));
}

#[tokio::test]
async fn a_file_refused_whole_is_answered_at_once_and_not_kept() {
    let s = service(MockImportJobs::new(), MockBlobStore::new(), MockCatalogStore::new());
    let owner = staff(StaffRole::Owner);
    for (text, message) in [
        ("", Message::ImportEmpty),
        ("sku,name\r\n", Message::ImportNoRows),
        ("name,price\nDisc,10\n", Message::ImportSkuColumnMissing),
    ] {
        assert_eq!(s.start(&owner, upload(text)).await, Err(ImportError::Invalid(message)), "{text:?}");
    }
    let big = NewImport { bytes: vec![b'a'; FILE_MAX_BYTES + 1], ..upload("") };
    assert_eq!(s.start(&owner, big).await, Err(ImportError::TooLarge));
    assert_eq!(ImportError::TooLarge.message(), Message::ImportFileTooLarge);
}

#[tokio::test]
async fn a_catalog_member_queues_a_job_with_the_file_kept() {
    let mut blobs = MockBlobStore::new();
    blobs
        .expect_put()
        .withf(|key, bytes| key.starts_with("imports/i") && key.ends_with(".csv") && bytes == b"sku\nA\n")
        .returning(|_, _| Ok(()));
    let mut jobs = MockImportJobs::new();
    jobs.expect_create()
        .withf(|job| {
            job.state == ImportState::Queued
                && job.mode == ImportMode::Apply
                && job.file_key == format!("imports/{}.csv", job.id)
                && job.actor == "s1"
                && job.actor_label == "ravi@marque.in"
                && job.created_at == NOW
                && job.batches_done == 0
                && job.file_bytes == 6
        })
        .returning(|_| Ok(()));
    let job = service(jobs, blobs, MockCatalogStore::new())
        .start(&staff(StaffRole::Catalog), upload("sku\nA\n"))
        .await
        .expect("queued");
    assert_eq!(job.file_name, "parts.csv");
}

#[tokio::test]
async fn the_file_store_failing_is_unavailable_and_queues_nothing() {
    let mut blobs = MockBlobStore::new();
    blobs.expect_put().returning(|_, _| Err(BlobStoreError::Unavailable { reason: "disk".into() }));
    let s = service(MockImportJobs::new(), blobs, MockCatalogStore::new());
    assert!(matches!(s.start(&staff(StaffRole::Owner), upload("sku\nA\n")).await, Err(ImportError::Unavailable(_))));
}

#[tokio::test]
async fn an_apply_writes_one_batch_of_what_passes_and_reports_every_refused_row() {
    let written = Arc::new(Mutex::new(Vec::new()));
    let jobs = jobs_running(queued(ImportMode::Apply, 0), written.clone());
    let s = service(jobs, blobs_holding(FILE), shop());
    assert_eq!(s.run_next().await, Ok(Some(ImportJobId("i1".into()))));
    let batches = written.lock().expect("lock").clone();
    assert_eq!(batches.len(), 1);
    let b = &batches[0];
    assert_eq!((b.index, b.last, b.rows_total), (0, true, 6));
    assert_eq!(b.counts, ImportCounts { rows_read: 6, accepted: 2, rejected: 4, created: 1, updated: 1, unchanged: 0 });
    // The new SKU, placed by its slugs, with its opening stock.
    assert_eq!(b.created.len(), 1);
    let new = &b.created[0];
    assert_eq!((new.details.sku.as_str(), new.price, new.quantity), ("NEW-1", Money::from_rupees(1250), 3));
    assert_eq!((new.category.as_str(), new.subcategory.as_str(), new.oem.as_str()), ("Brakes", "Discs", "BMW"));
    // The known SKU: only its price written, its stock set to 5 through the ledger.
    assert_eq!(b.updated.len(), 1);
    assert_eq!(b.updated[0].price, Money::from_rupees(1100));
    assert_eq!(b.updated[0].name, stored().name);
    assert_eq!(b.stock, [StockTarget { sku: "S-OLD".into(), quantity: 5 }]);
    let report: Vec<(u64, &str, &str, Message)> =
        b.rejected.iter().map(|e| (e.line, e.column.as_str(), e.value.as_str(), e.message)).collect();
    assert_eq!(
        report,
        [
            (4, "gst", "7", Message::ProductGstInvalid),
            (5, "SKU", "DUP", Message::ImportSkuTwice),
            (6, "SKU", "DUP", Message::ImportSkuTwice),
            (7, "subcategory_slug", "drums", Message::ProductPlacementUnknown),
        ]
    );
    assert_eq!((b.audit.action.as_str(), b.audit.subject.as_str()), ("import.apply", "import:i1"));
    assert_eq!(b.audit.actor, Actor::Staff { id: StaffId("s1".into()), email: "ravi@marque.in".into() });
}

#[tokio::test]
async fn a_dry_run_counts_and_reports_the_same_and_writes_nothing_of_the_catalog() {
    let written = Arc::new(Mutex::new(Vec::new()));
    let jobs = jobs_running(queued(ImportMode::DryRun, 0), written.clone());
    service(jobs, blobs_holding(FILE), shop()).run_next().await.expect("ran");
    let b = written.lock().expect("lock")[0].clone();
    assert_eq!(b.counts, ImportCounts { rows_read: 6, accepted: 2, rejected: 4, created: 1, updated: 1, unchanged: 0 });
    assert!(b.created.is_empty() && b.updated.is_empty() && b.stock.is_empty());
    assert_eq!(b.rejected.len(), 4);
}

fn many_rows(n: usize) -> &'static str {
    let mut text = String::from("sku,price\n");
    for i in 0..n {
        text.push_str(&format!("S{i},10\n"));
    }
    Box::leak(text.into_boxed_str())
}

#[tokio::test]
async fn a_long_file_goes_in_batches_and_a_claimed_job_resumes_after_its_last_batch_written() {
    let file = many_rows(2 * BATCH_ROWS + 3);
    let written = Arc::new(Mutex::new(Vec::new()));
    let jobs = jobs_running(queued(ImportMode::DryRun, 1), written.clone());
    service(jobs, blobs_holding(file), shop()).run_next().await.expect("ran");
    let batches = written.lock().expect("lock").clone();
    let seen: Vec<(u64, u64, bool)> = batches.iter().map(|b| (b.index, b.counts.rows_read, b.last)).collect();
    assert_eq!(seen, [(1, BATCH_ROWS as u64, false), (2, 3, true)]);
    // Every one of them a new SKU without its other required columns.
    assert_eq!(batches[1].rejected[0].message, Message::ImportRequiredForNew);
    assert!(batches.iter().all(|b| b.rows_total == 2 * BATCH_ROWS as u64 + 3));
}

/// The next batch is read while the last one is written: the first write waits (on a second
/// thread) until the second batch's SKUs have been looked up, and would fail the job if it waited
/// in vain. Each batch is still written once, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_next_batch_is_read_while_the_last_one_is_written() {
    let file = many_rows(2 * BATCH_ROWS + 3);
    let (looked_up, seen_lookup) = std::sync::mpsc::channel::<()>();
    let seen_lookup = Mutex::new(seen_lookup);
    let written = Arc::new(Mutex::new(Vec::new()));
    let mut jobs = MockImportJobs::new();
    let mut once = Some(queued(ImportMode::DryRun, 0));
    jobs.expect_claim().returning(move |_, _, _| Ok(once.take()));
    jobs.expect_renew().returning(|_, _, _| Ok(()));
    let looked_up = Mutex::new(looked_up);
    jobs.expect_products_by_sku().returning(move |skus| {
        if skus.first().is_some_and(|s| s == &format!("S{BATCH_ROWS}")) {
            looked_up.lock().expect("lock").send(()).expect("the write still waits");
        }
        Ok(Vec::new())
    });
    let kept = written.clone();
    jobs.expect_write_batch().returning(move |_, _, _, batch| {
        if batch.index == 0 {
            let waited = seen_lookup.lock().expect("lock").recv_timeout(std::time::Duration::from_secs(60));
            if waited.is_err() {
                return Err(ImportJobsError::Unavailable { reason: "batch 1 was not read meanwhile".into() });
            }
        }
        kept.lock().expect("lock").push((batch.index, batch.last));
        Ok(())
    });
    service(jobs, blobs_holding(file), shop()).run_next().await.expect("ran");
    assert_eq!(*written.lock().expect("lock"), [(0, false), (1, false), (2, true)]);
}

#[tokio::test]
async fn a_cancelled_job_stops_at_its_next_batch() {
    let file = many_rows(BATCH_ROWS + 1);
    let mut jobs = MockImportJobs::new();
    let mut once = Some(queued(ImportMode::Apply, 0));
    jobs.expect_claim().returning(move |_, _, _| Ok(once.take()));
    jobs.expect_renew().times(1).returning(|_, _, _| Ok(()));
    jobs.expect_products_by_sku().returning(|_| Ok(Vec::new()));
    jobs.expect_write_batch()
        .times(1)
        .returning(|_, _, _, _| Err(ImportJobsError::NotClaimed { reason: "cancelled".into() }));
    assert_eq!(service(jobs, blobs_holding(file), shop()).run_next().await, Ok(Some(ImportJobId("i1".into()))));
}

#[tokio::test]
async fn a_job_whose_file_is_gone_fails_and_a_store_failing_leaves_the_claim_to_lapse() {
    let mut jobs = MockImportJobs::new();
    let mut once = Some(queued(ImportMode::Apply, 0));
    jobs.expect_claim().returning(move |_, _, _| Ok(once.take()));
    jobs.expect_fail()
        .withf(|id, w, _, reason| id.0 == "i1" && w == "w1" && reason == "import.file_gone")
        .times(1)
        .returning(|_, _, _, _| Ok(()));
    let mut blobs = MockBlobStore::new();
    blobs.expect_get().returning(|_| Ok(None));
    let s = service(jobs, blobs, MockCatalogStore::new());
    assert_eq!(s.run_next().await, Ok(Some(ImportJobId("i1".into()))));
    assert_eq!(s.run_next().await, Ok(None));

    let mut jobs = MockImportJobs::new();
    let mut once = Some(queued(ImportMode::Apply, 0));
    jobs.expect_claim().returning(move |_, _, _| Ok(once.take()));
    jobs.expect_renew().returning(|_, _, _| Ok(()));
    jobs.expect_products_by_sku().returning(|_| Err(ImportJobsError::Unavailable { reason: "down".into() }));
    let failed = service(jobs, blobs_holding(FILE), shop()).run_next().await;
    assert!(matches!(failed, Err(ImportError::Unavailable(_))));
}

#[tokio::test]
async fn the_errors_report_is_the_jobs_refused_rows_as_csv() {
    let mut jobs = MockImportJobs::new();
    jobs.expect_job().returning(|_| Ok(Some(queued(ImportMode::DryRun, 1))));
    jobs.expect_rejected().returning(|_| Ok(vec![RowError::new(4, "gst", "7", Message::ProductGstInvalid)]));
    let s = service(jobs, MockBlobStore::new(), MockCatalogStore::new());
    let csv = s.errors_csv(&staff(StaffRole::Catalog), &ImportJobId("i1".into())).await.expect("a report");
    let text = String::from_utf8(csv).expect("text");
    assert!(text.starts_with("line,column,value,code,message\n4,gst,7,product.gst_invalid,"), "{text}");

    let mut jobs = MockImportJobs::new();
    jobs.expect_job().returning(|_| Ok(None));
    let s = service(jobs, MockBlobStore::new(), MockCatalogStore::new());
    assert_eq!(s.errors_csv(&staff(StaffRole::Owner), &ImportJobId("nope".into())).await, Err(ImportError::NotFound));
}

/// `FILE` with two rows more: a new category and subcategory (engine, oil-pump) and a new brand (audi).
const MISSING: &str = "SKU,name,price,quantity,gst,category_slug,subcategory_slug,oem_slug,partNo\r\n\
NEW-2,Pad,10,,,brakes,drums,bmw,D 4\r\n\
NEW-3,Pump,10,,,engine,oil-pump,audi-sport,E 5\r\n\
NEW-4,Pump,10,,,engine,oil-pump,audi-sport,E 6\r\n";

#[tokio::test]
async fn create_missing_creates_each_unknown_slug_once_audited_and_a_dry_run_only_counts_on_it() {
    for mode in [ImportMode::Apply, ImportMode::DryRun] {
        let written = Arc::new(Mutex::new(Vec::new()));
        let job = ImportJob { create_missing: true, ..queued(mode, 0) };
        let jobs = jobs_running(job, written.clone());
        let mut editor = MockCatalogEditor::new();
        let times = usize::from(mode == ImportMode::Apply);
        editor
            .expect_update_category()
            .withf(|c, audit| {
                let subs: Vec<(&str, &str)> =
                    c.subcategories.iter().map(|s| (s.slug.as_str(), s.name.as_str())).collect();
                c.slug == "brakes"
                    && subs == [("discs", "Discs"), ("drums", "Drums")]
                    && audit.action == "category.update"
                    && audit.subject == "category:c1"
                    && audit.actor == Actor::Staff { id: StaffId("s1".into()), email: "ravi@marque.in".into() }
            })
            .times(times)
            .returning(|_, _| Ok(()));
        editor
            .expect_create_category()
            .withf(|c, audit| {
                (c.slug.as_str(), c.name.as_str(), c.subcategories.len()) == ("engine", "Engine", 1)
                    && (c.subcategories[0].slug.as_str(), c.subcategories[0].name.as_str()) == ("oil-pump", "Oil Pump")
                    && audit.action == "category.create"
                    && audit.after.as_deref().is_some_and(|v| v.contains("\"import\":\"i1\""))
            })
            .times(times)
            .returning(|_, _| Ok(()));
        editor
            .expect_create_brand()
            .withf(|b, audit| {
                (b.slug.as_str(), b.name.as_str()) == ("audi-sport", "Audi Sport") && audit.action == "brand.create"
            })
            .times(times)
            .returning(|_, _| Ok(()));
        let s = ImportService::new(
            Arc::new(jobs),
            Arc::new(blobs_holding(MISSING)),
            Arc::new(shop()),
            Arc::new(editor),
            Arc::new(Fixed),
            "w1".into(),
        );
        s.run_next().await.expect("ran");
        let b = written.lock().expect("lock")[0].clone();
        assert_eq!(
            b.counts,
            ImportCounts { rows_read: 3, accepted: 3, rejected: 0, created: 3, updated: 0, unchanged: 0 },
            "{mode:?}"
        );
        assert!(b.rejected.is_empty(), "{:?}", b.rejected);
        if mode == ImportMode::Apply {
            let placed: Vec<(&str, &str, &str)> =
                b.created.iter().map(|p| (p.category.as_str(), p.subcategory.as_str(), p.oem.as_str())).collect();
            assert_eq!(
                placed,
                [
                    ("Brakes", "Drums", "BMW"),
                    ("Engine", "Oil Pump", "Audi Sport"),
                    ("Engine", "Oil Pump", "Audi Sport")
                ]
            );
        } else {
            assert!(b.created.is_empty(), "a dry run writes nothing");
        }
    }
}

#[test]
fn a_created_slug_is_named_after_its_words() {
    assert_eq!(name_of("oil-pump"), "Oil Pump");
    assert_eq!(name_of("bmw"), "Bmw");
    assert_eq!(name_of("x5-2024"), "X5 2024");
}

/// 10,000 products of every kind: Hindi names, prices in paise, three categories and brands, part
/// numbers to supersede, fuel types, conditions, some unpublished; used units with grades, donor
/// cars and the margin scheme, cross-references, fitment.
fn ten_thousand() -> Vec<Product> {
    use marque_domain::catalog::{Condition, CrossReference, Donor, FuelType, Grade, MarginScheme};
    use marque_domain::vehicle::{FitmentNote, FitmentRow, VehicleId, YearRange};
    let x5 = VehicleId::parse("bmw-x5-g05.b57").expect("a vehicle");
    (0..10_000u32)
        .map(|i| {
            let id = format!("p{i:05}");
            let name =
                if i % 5 == 0 { format!("ब्रेक डिस्क, \"Disc\" {i}") } else { format!("Disc {i}") };
            let (category, sub, brand) = match i % 3 {
                0 => ("Brakes", "Discs", "BMW"),
                1 => ("Engine", "Oil Pumps", "Mercedes-Benz"),
                _ => ("Body", "Mirrors", "Audi"),
            };
            product(&id)
                .sku(&format!("SKU-{i:05}"))
                .name(&name)
                .price(Money::from_paise(10_000 + i64::from(i) * 37))
                .quantity(i % 50)
                .category(category, sub)
                .brand(brand)
                .part_no(&format!("{} {i:05}", 34 + i % 7))
                .fuel_type([None, Some(FuelType::Petrol), Some(FuelType::Diesel)][(i % 3) as usize])
                .condition(if i % 4 == 0 { Condition::Old } else { Condition::New })
                .with(|p| {
                    p.description = if i % 9 == 0 { "Two lines,\nquoted \"here\"".into() } else { String::new() };
                    p.details.published = i % 10 != 0;
                    p.details.superseded_numbers =
                        vec![marque_domain::PartNumber::parse(&format!("OLD.{i}")).expect("a part number")];
                    if i % 4 == 0 {
                        p.details.grade = Some(Grade::ALL[(i % 3) as usize]);
                        p.details.donor =
                            Donor::parse(("BMW", "X5", "G05"), 2015 + i64::from(i % 10), i64::from(i) * 10, 2026).ok();
                        if i % 8 == 0 {
                            p.details.margin_scheme = MarginScheme::new(Money::from_paise(5_000 + i64::from(i))).ok();
                        }
                    }
                    if i % 6 == 0 {
                        p.details.cross_references =
                            vec![CrossReference::parse("Bosch", &format!("0 986 {i:05}")).expect("a reference")];
                    }
                    if i % 5 == 1 {
                        let row = FitmentRow {
                            generation: x5.generation.clone(),
                            engine: (i % 2 == 0).then(|| x5.engine.clone()),
                            years: Some(YearRange::new(2019, (i % 3 == 0).then_some(2023)).expect("years")),
                            note: FitmentNote::parse(if i % 7 == 0 { "front axle" } else { "" }).expect("a note"),
                        };
                        let fit = ProductFit {
                            row,
                            make: "BMW".into(),
                            model: "X5".into(),
                            generation: "G05".into(),
                            engine_label: None,
                        };
                        p.details.fits = vec![fit];
                    }
                })
                .build()
        })
        .collect()
}

#[tokio::test]
async fn an_export_of_ten_thousand_products_imported_back_writes_nothing() {
    use marque_ports::{AdminProductSort, ProductSlice};
    let products = ten_thousand();
    // The export: published products in id order from the store, unpublished ones from the editor.
    let published: Vec<Product> = products.iter().filter(|p| p.details.published).cloned().collect();
    let hidden: Vec<Product> = products.iter().filter(|p| !p.details.published).cloned().collect();
    let mut catalog = MockCatalogStore::new();
    catalog.expect_products_after().returning(move |after, limit| {
        let after = after.map(|a| a.0).unwrap_or_default();
        Ok(published.iter().filter(|p| p.id.0 > after).take(limit as usize).cloned().collect())
    });
    let mut editor = MockCatalogEditor::new();
    editor.expect_products().returning(move |query| {
        assert_eq!((query.published, query.sort), (Some(false), AdminProductSort::Newest));
        let offset = usize::try_from(query.window.offset()).expect("an offset");
        let limit = usize::try_from(query.window.limit()).expect("a limit");
        Ok(ProductSlice { products: hidden.iter().skip(offset).take(limit).cloned().collect(), total: 0 })
    });
    let exports = export::ExportService::new(Arc::new(catalog), Arc::new(editor));
    let mut export = exports.everything();
    let mut file = Vec::new();
    while let Some(part) = export.next_chunk().await.expect("exported") {
        file.extend(part);
    }
    assert_eq!(export.rows(), 10_000);

    // The import of that file, against a store holding those products.
    let by_sku: HashMap<String, Product> = products.into_iter().map(|p| (p.details.sku.clone(), p)).collect();
    let written = Arc::new(Mutex::new(Vec::new()));
    let mut jobs = MockImportJobs::new();
    let mut once = Some(queued(ImportMode::Apply, 0));
    jobs.expect_claim().returning(move |_, _, _| Ok(once.take()));
    jobs.expect_renew().returning(|_, _, _| Ok(()));
    jobs.expect_products_by_sku()
        .returning(move |skus| Ok(skus.iter().filter_map(|s| by_sku.get(s).cloned()).collect()));
    let kept = written.clone();
    jobs.expect_write_batch().returning(move |_, _, _, batch| {
        kept.lock().expect("lock").push(batch.clone());
        Ok(())
    });
    let mut blobs = MockBlobStore::new();
    blobs.expect_get().returning(move |_| Ok(Some(file.clone())));
    service(jobs, blobs, shop()).run_next().await.expect("ran");
    let batches = written.lock().expect("lock").clone();
    assert_eq!(batches.len(), 10);
    let total = batches.iter().fold(ImportCounts::default(), |sum, b| sum.plus(b.counts));
    assert_eq!(
        total,
        ImportCounts { rows_read: 10_000, accepted: 10_000, unchanged: 10_000, ..ImportCounts::default() }
    );
    for b in &batches {
        assert!(b.created.is_empty() && b.updated.is_empty() && b.stock.is_empty() && b.rejected.is_empty());
        assert!(b.fitment.is_empty());
    }
}

/// The vehicle table's BMW X5 G05 3.0d (B57), the only generation it holds.
fn x5_table() -> marque_ports::MockVehicleStore {
    use marque_domain::catalog::FuelType;
    use marque_domain::vehicle::{Engine, EngineCode, YearRange};
    let mut vehicles = marque_ports::MockVehicleStore::new();
    vehicles.expect_vehicles_of().returning(|generation| {
        let engine =
            Engine { code: EngineCode::parse("B57").expect("code"), fuel: FuelType::Diesel, label: "3.0d".into() };
        let x5 = Vehicle::new("bmw", "X5", "G05", engine, YearRange::new(2019, None).expect("years")).expect("vehicle");
        Ok(if generation.as_str() == "bmw-x5-g05" { vec![x5] } else { Vec::new() })
    });
    vehicles
}

const USED_FILE: &str = "sku,name,price,producttype,category_slug,subcategory_slug,oem_slug,partNo,fits,crossReferences,\
grade,donorMake,donorModel,donorGeneration,donorYear,donorOdometerKm,marginScheme,purchasePrice\n\
USED-1,Used Disc,18000,old,brakes,discs,bmw,34 11 1,bmw-x5-g05.b57:2019-:front axle,Brembo:09.C394.13,B,BMW,X5,G05,2019,84000,true,\"9,000\"\n\
USED-2,Used Disc,18000,old,brakes,discs,bmw,34 11 2,bmw-x5-g05.n57|bmw-x5-g99,,,,,,,,,\n\
S-OLD,,,,,,,,BMW-X5-G05,,,,,,,,,\n\
USED-3,Used Disc,18000,new,brakes,discs,bmw,34 11 3,,,A,,,,,,,\n\
USED-4,Used Disc,18000,old,brakes,discs,bmw,34 11 4,,,,,,,,,true,\n";

#[tokio::test]
async fn used_parts_and_fitment_are_imported_with_the_editors_rules_and_the_fitment_is_audited_per_product() {
    let written = Arc::new(Mutex::new(Vec::new()));
    let jobs = jobs_running(queued(ImportMode::Apply, 0), written.clone());
    let s = service(jobs, blobs_holding(USED_FILE), shop()).with_vehicles(Arc::new(x5_table()));
    s.run_next().await.expect("ran");
    let b = written.lock().expect("lock")[0].clone();
    assert_eq!(b.counts, ImportCounts { rows_read: 5, accepted: 2, rejected: 3, created: 1, updated: 1, unchanged: 0 });
    let report: Vec<(u64, &str, &str, Message)> =
        b.rejected.iter().map(|e| (e.line, e.column.as_str(), e.value.as_str(), e.message)).collect();
    assert_eq!(
        report,
        [
            (3, "fits", "bmw-x5-g05.n57", Message::VehicleUnknown),
            (5, "producttype", "new", Message::ProductUsedOnly),
            (6, "purchasePrice", "", Message::ProductPurchasePriceInvalid),
        ]
    );
    // The used unit: its grade, donor, scheme and cross-reference on the product, its fitment apart.
    let [created] = &b.created[..] else { panic!("one product created: {:?}", b.created) };
    let d = &created.details;
    assert_eq!(d.grade, Some(marque_domain::catalog::Grade::B));
    let donor = d.donor.as_ref().expect("a donor");
    assert_eq!(
        (donor.make.as_str(), donor.generation.as_str(), donor.year, donor.odometer_km),
        ("BMW", "G05", 2019, 84_000)
    );
    assert_eq!(d.margin_scheme.map(|m| m.purchase_price), Some(Money::from_rupees(9_000)));
    assert_eq!(d.cross_references.len(), 1);
    // S-OLD: only its fitment changes, so the product itself is not rewritten.
    assert!(b.updated.is_empty(), "{:?}", b.updated);
    let fitment: Vec<(&str, usize)> = b.fitment.iter().map(|f| (f.product.as_str(), f.fits.len())).collect();
    assert_eq!(fitment, [(created.id.as_str(), 1), ("p-old", 1)]);
    let first = &b.fitment[0];
    assert_eq!(
        (first.fits[0].make.as_str(), first.fits[0].model.as_str(), first.fits[0].engine_label.as_deref()),
        ("BMW", "X5", Some("3.0d"))
    );
    assert_eq!(first.fits[0].row.note.as_ref().map(|n| n.as_str()), Some("front axle"));
    // Each fitment write is audited as the fitment editor audits it, naming the job.
    for f in &b.fitment {
        assert_eq!(
            (f.audit.action.as_str(), f.audit.subject.clone()),
            ("product.fitment", format!("product:{}", f.product))
        );
        let after: serde_json::Value = serde_json::from_str(f.audit.after.as_deref().expect("after")).expect("json");
        assert_eq!(after["import"], "i1");
        assert_eq!(after["fits"][0]["generation"], "bmw-x5-g05");
        assert_eq!(f.audit.actor, Actor::Staff { id: StaffId("s1".into()), email: "ravi@marque.in".into() });
    }

    // A dry run reports the same and writes no fitment.
    let written = Arc::new(Mutex::new(Vec::new()));
    let jobs = jobs_running(queued(ImportMode::DryRun, 0), written.clone());
    let s = service(jobs, blobs_holding(USED_FILE), shop()).with_vehicles(Arc::new(x5_table()));
    s.run_next().await.expect("ran");
    let dry = written.lock().expect("lock")[0].clone();
    assert_eq!(dry.counts, b.counts);
    assert!(dry.fitment.is_empty() && dry.created.is_empty());
}

const PHOTOS_FILE: &str = "SKU,name,price,gst,category_slug,subcategory_slug,oem_slug,partNo,Photos\r\n\
NEW-1,Disc,100,18,brakes,discs,bmw,A 1,https://cdn.example/a.jpg|https://cdn.example/b.jpg\r\n\
NEW-2,Disc,100,18,brakes,discs,bmw,A 2,front.jpg\r\n\
NEW-3,Disc,100,18,brakes,discs,bmw,A 3,https://10.0.0.1/a.jpg\r\n\
s-old,,,,,,,,https://cdn.example/c.jpg\r\n";

fn with_photos(s: ImportService) -> ImportService {
    let photos = PhotosService::new(
        Arc::new(marque_ports::MockProductPhotos::new()),
        Arc::new(marque_ports::MockPhotoEncoder::new()),
        Arc::new(MockBlobStore::new()),
        Arc::new(Fixed),
    );
    let mut fetcher = marque_ports::MockPhotoFetcher::new();
    fetcher.expect_precheck().returning(|url| {
        if url.starts_with("https://cdn.example/") {
            Ok(())
        } else {
            Err(PhotoFetchError::Refused(url.to_owned()))
        }
    });
    fetcher.expect_fetch().never();
    s.with_photos(photos, Arc::new(fetcher))
}

#[tokio::test]
async fn a_batch_queues_the_photographs_of_passing_rows_for_products_without_any_and_refuses_the_rest() {
    let written = Arc::new(Mutex::new(Vec::new()));
    let jobs = jobs_running(queued(ImportMode::Apply, 0), written.clone());
    let s = with_photos(service(jobs, blobs_holding(PHOTOS_FILE), shop()));
    s.run_next().await.expect("ran");
    let b = written.lock().expect("lock")[0].clone();
    // NEW-1 queues its two addresses in order; S-OLD has photographs already, so its row queues none.
    assert_eq!(
        b.photos,
        [ImportPhotoTask {
            id: "i1-2".into(),
            job: ImportJobId("i1".into()),
            line: 2,
            column: "Photos".into(),
            sku: "NEW-1".into(),
            sources: vec!["https://cdn.example/a.jpg".into(), "https://cdn.example/b.jpg".into()],
        }]
    );
    assert!(!stored().images.is_empty(), "the stored product has photographs");
    assert_eq!((b.counts.created, b.counts.rejected, b.counts.unchanged), (1, 2, 1));
    let report: Vec<(u64, &str, &str, Message)> =
        b.rejected.iter().map(|e| (e.line, e.column.as_str(), e.value.as_str(), e.message)).collect();
    assert_eq!(
        report,
        [
            (3, "Photos", "front.jpg", Message::ImportPhotosWithoutZip),
            (4, "Photos", "https://10.0.0.1/a.jpg", Message::ImportPhotoAddressRefused),
        ]
    );
    assert_eq!(b.created.iter().map(|p| p.details.sku.as_str()).collect::<Vec<_>>(), ["NEW-1"]);
}

#[tokio::test]
async fn a_dry_run_checks_photographs_but_queues_none() {
    let written = Arc::new(Mutex::new(Vec::new()));
    let jobs = jobs_running(queued(ImportMode::DryRun, 0), written.clone());
    with_photos(service(jobs, blobs_holding(PHOTOS_FILE), shop())).run_next().await.expect("ran");
    let b = written.lock().expect("lock")[0].clone();
    assert!(b.photos.is_empty());
    assert_eq!(b.rejected.len(), 2);
}
