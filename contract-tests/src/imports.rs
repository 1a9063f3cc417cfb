//! The `ImportJobs` contract, one suite per promise in `marque_ports::imports`. Each suite gets an
//! empty store with the catalog editor and the stock ledger of the same database (a batch writes
//! products and their stock entries).

use futures::future::join_all;
use marque_domain::catalog::import::RowError;
use marque_domain::catalog::{Product, ProductId};
use marque_domain::stock::{LowStockThreshold, StockReason};
use marque_domain::{Message, Money};
use marque_ports::{
    Actor, AuditEntry, AuditLog, AuditQuery, CatalogEditor, ImportBatch, ImportCounts, ImportJob, ImportJobId,
    ImportJobs, ImportJobsError, ImportMode, ImportPhotoTask, ImportState, PhotoCounts, PhotoOutcome, StockLedger,
    StockTarget,
};

use crate::fixtures::{product, window};

/// Calls `$callback!(suite_name)` once for every import jobs suite.
#[macro_export]
macro_rules! for_each_imports_suite {
    ($callback:ident) => {
        $callback!(jobs_are_claimed_once_and_a_lapsed_claim_is_taken_over);
        $callback!(a_batch_writes_its_products_stock_report_and_counters_all_or_nothing);
        $callback!(a_cancelled_job_takes_no_more_batches_and_a_failed_one_keeps_its_reason);
        $callback!(a_restarted_import_resumes_after_the_last_batch_written);
        $callback!(a_batch_writes_fitment_whole_with_its_audit_entries);
        $callback!(photographs_are_claimed_after_the_rows_and_attached_with_their_counters);
        $callback!(an_update_keeps_the_low_stock_threshold_in_place_and_across_publishing);
    };
}

fn queued(id: &str, created_at: i64) -> ImportJob {
    ImportJob {
        id: ImportJobId(id.to_owned()),
        mode: ImportMode::Apply,
        create_missing: false,
        state: ImportState::Queued,
        file_name: "parts.csv".to_owned(),
        file_key: format!("imports/{id}.csv"),
        file_bytes: 1234,
        actor: "s1".to_owned(),
        actor_label: "asha@marque.test".to_owned(),
        counts: ImportCounts::default(),
        rows_total: 0,
        batches_done: 0,
        claimed_by: None,
        claimed_until: 0,
        created_at,
        started_at: None,
        finished_at: None,
        failure: None,
        photos_key: None,
        photos: PhotoCounts::default(),
        photos_started_at: None,
        photos_updated_at: None,
    }
}

fn audit(job: &str) -> AuditEntry {
    AuditEntry::new(
        100,
        Actor::Staff { id: marque_domain::staff::StaffId("s1".into()), email: "asha@marque.test".into() },
        "import.apply",
        format!("import:{job}"),
    )
}

fn batch(job: &str, index: u64, last: bool) -> ImportBatch {
    ImportBatch {
        index,
        created: Vec::new(),
        updated: Vec::new(),
        stock: Vec::new(),
        fitment: Vec::new(),
        rejected: Vec::new(),
        counts: ImportCounts::default(),
        rows_total: 10,
        audit: audit(job),
        last,
        photos: Vec::new(),
    }
}

fn counts(read: u64, created: u64, updated: u64, unchanged: u64) -> ImportCounts {
    let accepted = created + updated + unchanged;
    ImportCounts { rows_read: read, accepted, rejected: read - accepted, created, updated, unchanged }
}

fn new_product(id: &str, sku: &str, quantity: u32) -> Product {
    product(id).sku(sku).quantity(quantity).build()
}

async fn job(jobs: &dyn ImportJobs, id: &str) -> ImportJob {
    jobs.job(&ImportJobId(id.to_owned())).await.expect("read the job").expect("the job exists")
}

fn id(text: &str) -> ImportJobId {
    ImportJobId(text.to_owned())
}

pub async fn jobs_are_claimed_once_and_a_lapsed_claim_is_taken_over(
    jobs: &dyn ImportJobs,
    _editor: &dyn CatalogEditor,
    _stock: &dyn StockLedger,
    _audit: &dyn AuditLog,
) {
    let a = queued("ia", 10);
    jobs.create(&a).await.expect("create");
    jobs.create(&queued("ib", 20)).await.expect("create");
    assert_eq!(job(jobs, "ia").await, a, "a job reads back as created");
    assert_eq!(jobs.job(&id("nope")).await, Ok(None));

    let first = jobs.claim("w1", 100, 200).await.expect("claim").expect("a job");
    assert_eq!(first.id, id("ia"), "the oldest first");
    assert_eq!(
        (first.state, first.claimed_by.as_deref(), first.claimed_until),
        (ImportState::Running, Some("w1"), 200)
    );
    assert_eq!(first.started_at, Some(100));
    assert_eq!(jobs.claim("w2", 100, 200).await.expect("claim").map(|j| j.id), Some(id("ib")));
    assert_eq!(jobs.claim("w3", 150, 250).await.expect("claim"), None, "both are claimed");

    assert!(matches!(jobs.renew(&id("ia"), "w2", 300).await, Err(ImportJobsError::NotClaimed { .. })));
    jobs.renew(&id("ia"), "w1", 300).await.expect("w1 renews its own claim");
    assert!(matches!(jobs.renew(&id("nope"), "w1", 300).await, Err(ImportJobsError::NotFound { .. })));

    // w2 stopped: its claim on ib lapsed at 200, w1's on ia holds until 300.
    let taken = jobs.claim("w3", 250, 400).await.expect("claim").expect("a lapsed job");
    assert_eq!((taken.id, taken.claimed_by.as_deref(), taken.started_at), (id("ib"), Some("w3"), Some(100)));
    assert!(matches!(jobs.renew(&id("ib"), "w2", 500).await, Err(ImportJobsError::NotClaimed { .. })));

    // Claims made at once: each job goes to one worker.
    for n in 0..4 {
        jobs.create(&queued(&format!("ic{n}"), 30 + n)).await.expect("create");
    }
    let workers: Vec<String> = (0..8).map(|n| format!("x{n}")).collect();
    let claims = join_all(workers.iter().map(|w| jobs.claim(w, 260, 900))).await;
    let mut won: Vec<ImportJobId> = claims.into_iter().filter_map(|c| c.expect("claim")).map(|j| j.id).collect();
    won.sort();
    assert_eq!(won, [id("ic0"), id("ic1"), id("ic2"), id("ic3")]);
}

pub async fn a_batch_writes_its_products_stock_report_and_counters_all_or_nothing(
    jobs: &dyn ImportJobs,
    editor: &dyn CatalogEditor,
    stock: &dyn StockLedger,
    audit_log: &dyn AuditLog,
) {
    let old = new_product("p-old", "OLD-1", 2);
    editor.create_product(&old, &audit("setup")).await.expect("a stored product");
    jobs.create(&queued("i1", 10)).await.expect("create");
    jobs.claim("w1", 100, 200).await.expect("claim").expect("the job");

    let mut first = batch("i1", 0, false);
    first.created = vec![new_product("p-new", "NEW-1", 3)];
    first.updated = vec![Product { price: Money::from_rupees(1_111), ..old.clone() }];
    first.stock = vec![StockTarget { sku: "OLD-1".into(), quantity: 7 }];
    first.rejected = vec![
        RowError::new(4, "gst", "7", Message::ProductGstInvalid),
        RowError::new(4, "hsn", "87", Message::ProductHsnInvalid),
    ];
    first.counts = counts(3, 1, 1, 0);
    jobs.write_batch(&id("i1"), "w1", 110, &first).await.expect("the first batch");

    let created = editor.product(&ProductId("p-new".into())).await.expect("read").expect("created");
    assert_eq!((created.details.sku.as_str(), created.quantity), ("NEW-1", 3));
    let updated = editor.product(&old.id).await.expect("read").expect("stored");
    assert_eq!((updated.price, updated.quantity), (Money::from_rupees(1_111), 7), "the price and the stock on hand");
    let history = stock.history(&old.id, window(1, 10)).await.expect("history").entries;
    assert_eq!(
        (history[0].reason, history[0].delta, history[0].before, history[0].after, history[0].at),
        (StockReason::Import, 5, 2, 7, 110)
    );
    let opening = stock.history(&created.id, window(1, 10)).await.expect("history").entries;
    assert_eq!((opening.len(), opening[0].reason, opening[0].after), (1, StockReason::Opening, 3));
    let j = job(jobs, "i1").await;
    assert_eq!((j.counts, j.batches_done, j.rows_total, j.state), (counts(3, 1, 1, 0), 1, 10, ImportState::Running));
    assert_eq!(jobs.rejected(&id("i1")).await.expect("report"), first.rejected);
    let mut found: Vec<String> = jobs
        .products_by_sku(&["NEW-1".into(), "OLD-1".into(), "NOPE".into()])
        .await
        .expect("by SKU")
        .into_iter()
        .map(|p| p.details.sku)
        .collect();
    found.sort();
    assert_eq!(found, ["NEW-1", "OLD-1"]);

    // The same batch again, another worker's, or one whose new SKU is taken: nothing written.
    assert!(matches!(jobs.write_batch(&id("i1"), "w1", 120, &first).await, Err(ImportJobsError::NotClaimed { .. })));
    let mut second = batch("i1", 1, true);
    second.created = vec![new_product("p-two", "NEW-2", 1)];
    second.counts = counts(1, 1, 0, 0);
    assert!(matches!(jobs.write_batch(&id("i1"), "w2", 120, &second).await, Err(ImportJobsError::NotClaimed { .. })));
    let mut clash = second.clone();
    clash.created.push(new_product("p-clash", "OLD-1", 1));
    clash.rejected = vec![RowError::new(9, "sku", "X", Message::ImportSkuTwice)];
    assert!(matches!(jobs.write_batch(&id("i1"), "w1", 120, &clash).await, Err(ImportJobsError::DuplicateSku { .. })));
    assert_eq!(editor.product(&ProductId("p-two".into())).await.expect("read"), None, "not half-written");
    assert_eq!(jobs.rejected(&id("i1")).await.expect("report").len(), 2);
    assert_eq!(job(jobs, "i1").await.batches_done, 1);
    assert_eq!(stock.history(&old.id, window(1, 10)).await.expect("history").total, 2);

    jobs.write_batch(&id("i1"), "w1", 130, &second).await.expect("the last batch");
    let done = job(jobs, "i1").await;
    assert_eq!((done.state, done.finished_at, done.claimed_by), (ImportState::Done, Some(130), None));
    assert_eq!((done.counts, done.batches_done), (counts(4, 2, 1, 0), 2));
    assert!(editor.product(&ProductId("p-two".into())).await.expect("read").is_some());
    let query = AuditQuery {
        actor: None,
        action: None,
        subject: Some("import:i1".into()),
        from: None,
        until: None,
        window: window(1, 10),
    };
    let trail = audit_log.entries(&query).await.expect("the trail");
    assert_eq!(trail.total, 1, "one audit entry for the job, whatever its batches: {trail:?}");
    assert_eq!(trail.records[0].entry.action, "import.apply");
}

pub async fn a_cancelled_job_takes_no_more_batches_and_a_failed_one_keeps_its_reason(
    jobs: &dyn ImportJobs,
    _editor: &dyn CatalogEditor,
    _stock: &dyn StockLedger,
    _audit: &dyn AuditLog,
) {
    jobs.create(&queued("i1", 10)).await.expect("create");
    jobs.claim("w1", 100, 200).await.expect("claim").expect("the job");
    let cancelled = jobs.cancel(&id("i1"), 105).await.expect("cancel");
    assert_eq!((cancelled.state, cancelled.finished_at), (ImportState::Cancelled, Some(105)));
    assert!(matches!(
        jobs.write_batch(&id("i1"), "w1", 110, &batch("i1", 0, false)).await,
        Err(ImportJobsError::NotClaimed { .. })
    ));
    assert!(matches!(jobs.renew(&id("i1"), "w1", 300).await, Err(ImportJobsError::NotClaimed { .. })));
    assert_eq!(jobs.cancel(&id("i1"), 120).await.expect("cancel again").finished_at, Some(105), "over already");
    assert!(matches!(jobs.cancel(&id("nope"), 120).await, Err(ImportJobsError::NotFound { .. })));
    assert_eq!(jobs.claim("w2", 1_000, 1_100).await.expect("claim"), None, "a cancelled job is never claimed");

    jobs.create(&queued("i2", 20)).await.expect("create");
    jobs.claim("w1", 1_000, 1_100).await.expect("claim").expect("the job");
    assert!(matches!(
        jobs.fail(&id("i2"), "w2", 1_010, "import.file_gone").await,
        Err(ImportJobsError::NotClaimed { .. })
    ));
    jobs.fail(&id("i2"), "w1", 1_010, "import.file_gone").await.expect("fail");
    let failed = job(jobs, "i2").await;
    assert_eq!((failed.state, failed.failure.as_deref()), (ImportState::Failed, Some("import.file_gone")));
    assert_eq!(jobs.claim("w2", 5_000, 5_100).await.expect("claim"), None, "a failed job is never claimed");
}

pub async fn a_restarted_import_resumes_after_the_last_batch_written(
    jobs: &dyn ImportJobs,
    editor: &dyn CatalogEditor,
    _stock: &dyn StockLedger,
    _audit: &dyn AuditLog,
) {
    jobs.create(&queued("i1", 10)).await.expect("create");
    jobs.claim("w1", 100, 200).await.expect("claim").expect("the job");
    let mut first = batch("i1", 0, false);
    first.created = vec![new_product("p-a", "NEW-A", 1)];
    first.counts = counts(1, 1, 0, 0);
    jobs.write_batch(&id("i1"), "w1", 110, &first).await.expect("the first batch");

    // w1 stops; once its claim lapses another instance takes the job where it was left.
    assert_eq!(jobs.claim("w2", 150, 300).await.expect("claim"), None, "not before the claim lapses");
    let resumed = jobs.claim("w2", 250, 400).await.expect("claim").expect("the lapsed job");
    assert_eq!((resumed.batches_done, resumed.counts), (1, counts(1, 1, 0, 0)));
    let mut second = batch("i1", 1, true);
    second.created = vec![new_product("p-b", "NEW-B", 1)];
    second.counts = counts(1, 1, 0, 0);
    assert!(matches!(jobs.write_batch(&id("i1"), "w1", 260, &second).await, Err(ImportJobsError::NotClaimed { .. })));
    jobs.write_batch(&id("i1"), "w2", 260, &second).await.expect("the last batch");
    let done = job(jobs, "i1").await;
    assert_eq!((done.state, done.counts, done.batches_done), (ImportState::Done, counts(2, 2, 0, 0), 2));
    for p in ["p-a", "p-b"] {
        assert!(editor.product(&ProductId(p.into())).await.expect("read").is_some(), "{p} written once");
    }
}

/// A fitment row of `generation` (and `engine`), named as the vehicle table would name it.
fn fit(generation: &str, engine: Option<&str>, note: &str) -> marque_domain::vehicle::ProductFit {
    use marque_domain::vehicle::{EngineCode, FitmentNote, FitmentRow, GenerationId, ProductFit};
    ProductFit {
        row: FitmentRow {
            generation: GenerationId::parse(generation).expect("a generation"),
            engine: engine.map(|e| EngineCode::parse(e).expect("an engine")),
            years: None,
            note: FitmentNote::parse(note).expect("a note"),
        },
        make: "BMW".into(),
        model: "X5".into(),
        generation: "G05".into(),
        engine_label: engine.map(|_| "3.0d".to_owned()),
    }
}

fn fitment_audit(product: &str) -> AuditEntry {
    AuditEntry::new(
        105,
        Actor::Staff { id: marque_domain::staff::StaffId("s1".into()), email: "asha@marque.test".into() },
        "product.fitment",
        format!("product:{product}"),
    )
    .with_values(None, Some(r#"{"fits":[],"import":"i7"}"#.into()))
}

/// A batch's fitment (a product it creates and a stored one) is written with the products, read back
/// with them, and audited once per product; a later batch replaces a fitment whole.
pub async fn a_batch_writes_fitment_whole_with_its_audit_entries(
    jobs: &dyn ImportJobs,
    editor: &dyn CatalogEditor,
    _stock: &dyn StockLedger,
    audit_log: &dyn AuditLog,
) {
    use marque_ports::ImportFitment;
    let old = new_product("p-fit-old", "FIT-OLD", 1);
    editor.create_product(&old, &audit("setup")).await.expect("a stored product");
    jobs.create(&queued("i7", 10)).await.expect("create");
    jobs.claim("w1", 100, 200).await.expect("claim").expect("the job");

    let mut first = batch("i7", 0, false);
    first.created = vec![new_product("p-fit-new", "FIT-NEW", 1)];
    first.fitment = vec![
        ImportFitment {
            product: ProductId("p-fit-new".into()),
            fits: vec![fit("bmw-x5-g05", Some("B57"), "front axle")],
            audit: fitment_audit("p-fit-new"),
        },
        ImportFitment {
            product: old.id.clone(),
            fits: vec![fit("bmw-x5-g05", None, ""), fit("bmw-x3-g01", None, "")],
            audit: fitment_audit("p-fit-old"),
        },
    ];
    first.counts = counts(2, 1, 1, 0);
    jobs.write_batch(&id("i7"), "w1", 110, &first).await.expect("the first batch");
    let created = editor.product(&ProductId("p-fit-new".into())).await.expect("read").expect("created");
    assert_eq!(created.details.fits, first.fitment[0].fits);
    let stored = editor.product(&old.id).await.expect("read").expect("stored");
    assert_eq!(stored.details.fits, first.fitment[1].fits);
    // An import's lookup by SKU reads the products whole, their fitment included, as the editor does.
    let skus = [created.details.sku.clone(), stored.details.sku.clone()];
    let mut by_sku = jobs.products_by_sku(&skus).await.expect("by SKU");
    by_sku.sort_by(|a, b| a.id.0.cmp(&b.id.0));
    assert_eq!(by_sku, [created.clone(), stored.clone()]);
    for product in ["p-fit-new", "p-fit-old"] {
        let query = AuditQuery {
            actor: None,
            action: Some("product.fitment".into()),
            subject: Some(format!("product:{product}")),
            from: None,
            until: None,
            window: window(1, 10),
        };
        let trail = audit_log.entries(&query).await.expect("the trail");
        assert_eq!(trail.total, 1, "{product}: {trail:?}");
        assert!(trail.records[0].entry.after.as_deref().is_some_and(|a| a.contains("\"import\":\"i7\"")));
    }

    let mut second = batch("i7", 1, true);
    second.fitment =
        vec![ImportFitment { product: old.id.clone(), fits: Vec::new(), audit: fitment_audit("p-fit-old") }];
    second.counts = counts(1, 0, 1, 0);
    jobs.write_batch(&id("i7"), "w1", 120, &second).await.expect("the last batch");
    assert!(editor.product(&old.id).await.expect("read").expect("stored").details.fits.is_empty(), "replaced whole");
    assert_eq!(job(jobs, "i7").await.state, ImportState::Done);
}

fn photo_task(job: &str, line: u64, sku: &str, sources: &[&str]) -> ImportPhotoTask {
    ImportPhotoTask {
        id: format!("{job}-{line}"),
        job: id(job),
        line,
        column: "photos".into(),
        sku: sku.into(),
        sources: sources.iter().map(|s| (*s).to_owned()).collect(),
    }
}

fn picture(name: &str) -> marque_domain::catalog::ProductImage {
    marque_domain::catalog::ProductImage {
        name: name.into(),
        width: Some(800),
        height: Some(600),
        variants: Vec::new(),
    }
}

/// A batch queues its rows' photographs; they are claimed only once the job's rows are over, one
/// row at a time (a lapsed claim taken over), and finishing one appends its pictures in order,
/// reports its failures and moves the job's counters; a finished or foreign claim writes nothing;
/// a cancel drops the photographs not taken up.
pub async fn photographs_are_claimed_after_the_rows_and_attached_with_their_counters(
    jobs: &dyn ImportJobs,
    editor: &dyn CatalogEditor,
    _stock: &dyn StockLedger,
    _audit: &dyn AuditLog,
) {
    let old = new_product("p-old", "OLD-1", 2);
    editor.create_product(&old, &audit("setup")).await.expect("a stored product");
    jobs.create(&queued("i1", 10)).await.expect("create");
    jobs.claim("w1", 100, 200).await.expect("claim").expect("the job");
    let mut first = batch("i1", 0, false);
    first.photos = vec![photo_task("i1", 2, "OLD-1", &["a.jpg", "https://cdn.example/b.jpg"])];
    jobs.write_batch(&id("i1"), "w1", 110, &first).await.expect("first batch");
    assert_eq!(jobs.claim_photos("w2", 120, 300).await.expect("claim"), None, "the rows are not over");
    let mut last = batch("i1", 1, true);
    last.photos = vec![photo_task("i1", 3, "GONE-1", &["c.jpg"])];
    jobs.write_batch(&id("i1"), "w1", 130, &last).await.expect("last batch");
    assert_eq!(job(jobs, "i1").await.photos, PhotoCounts { total: 3, done: 0, failed: 0 });

    let (claimed_job, task) = jobs.claim_photos("w2", 140, 300).await.expect("claim").expect("a task");
    assert_eq!((claimed_job.id, task.clone()), (id("i1"), first.photos[0].clone()));
    assert_eq!(claimed_job.photos_started_at, Some(140));
    // Line 3's task next, for another worker; line 2's claim holds until 300.
    let (_, other) = jobs.claim_photos("w3", 150, 400).await.expect("claim").expect("the next task");
    assert_eq!(other.line, 3);
    assert_eq!(jobs.claim_photos("w3", 160, 400).await.expect("claim"), None, "both held");

    let outcome = PhotoOutcome {
        images: vec![picture("/media/products/p-old/x-1600.jpeg")],
        failed: vec![RowError::new(2, "photos", "https://cdn.example/b.jpg", Message::ImportPhotoFetchFailed)],
    };
    assert!(matches!(jobs.finish_photos(&task, "w3", 170, &outcome).await, Err(ImportJobsError::NotClaimed { .. })));
    jobs.finish_photos(&task, "w2", 170, &outcome).await.expect("finish");
    assert!(
        matches!(jobs.finish_photos(&task, "w2", 171, &outcome).await, Err(ImportJobsError::NotClaimed { .. })),
        "done already"
    );
    let stored = editor.product(&ProductId("p-old".into())).await.expect("read").expect("the product");
    let mut appended = old.images.clone();
    appended.push(picture("/media/products/p-old/x-1600.jpeg"));
    assert_eq!(stored.images, appended, "appended after the product's own");
    let after = job(jobs, "i1").await;
    assert_eq!((after.photos, after.photos_updated_at), (PhotoCounts { total: 3, done: 1, failed: 1 }, Some(170)));
    let report = jobs.rejected(&id("i1")).await.expect("report");
    assert_eq!(report, vec![RowError::new(2, "photos", "https://cdn.example/b.jpg", Message::ImportPhotoFetchFailed)]);

    // The other task's claim lapses at 400 and is taken over; its product is gone: all failed.
    let (_, again) = jobs.claim_photos("w4", 500, 600).await.expect("claim").expect("taken over");
    assert_eq!(again.line, 3);
    let pictures = PhotoOutcome { images: vec![picture("/media/products/x/c.jpeg")], failed: Vec::new() };
    jobs.finish_photos(&again, "w4", 510, &pictures).await.expect("finish");
    assert_eq!(job(jobs, "i1").await.photos, PhotoCounts { total: 3, done: 1, failed: 2 });
    assert_eq!(jobs.claim_photos("w4", 520, 600).await.expect("claim"), None, "nothing left");

    // A cancel drops what is not taken up.
    jobs.create(&queued("i2", 20)).await.expect("create");
    jobs.claim("w1", 1_000, 1_100).await.expect("claim").expect("the job");
    let mut only = batch("i2", 0, true);
    only.photos = vec![photo_task("i2", 2, "OLD-1", &["d.jpg"])];
    jobs.write_batch(&id("i2"), "w1", 1_010, &only).await.expect("batch");
    let cancelled = jobs.cancel(&id("i2"), 1_020).await.expect("cancel");
    assert_eq!(cancelled.photos, PhotoCounts { total: 0, done: 0, failed: 0 });
    assert_eq!(jobs.claim_photos("w1", 1_030, 1_100).await.expect("claim"), None, "cancelled");
}

/// An update names every field of the product but the low-stock threshold (the stock page's): an import's
/// update and the editor's keep it, whether the product stays in the shop, leaves it or comes back.
pub async fn an_update_keeps_the_low_stock_threshold_in_place_and_across_publishing(
    jobs: &dyn ImportJobs,
    editor: &dyn CatalogEditor,
    stock: &dyn StockLedger,
    _audit: &dyn AuditLog,
) {
    let hidden = |p: &mut Product| p.details.published = false;
    let stays = new_product("p-stays", "STAYS", 4);
    let leaves = new_product("p-leaves", "LEAVES", 4);
    let returns = product("p-returns").sku("RETURNS").quantity(4).with(hidden).build();
    for p in [&stays, &leaves, &returns] {
        editor.create_product(p, &audit("setup")).await.expect("a stored product");
    }
    let threshold = |n: i64| LowStockThreshold::new(n).expect("a valid threshold");
    for (p, n) in [(&stays, 12), (&leaves, 0), (&returns, 9)] {
        stock.set_threshold(&p.id, threshold(n), &audit("setup")).await.expect("a threshold of its own");
    }

    jobs.create(&queued("i-keep", 10)).await.expect("create");
    jobs.claim("w1", 100, 200).await.expect("claim").expect("the job");
    let mut only = batch("i-keep", 0, true);
    only.updated = vec![
        Product { price: Money::from_rupees(2_222), ..stays.clone() },
        product("p-leaves").sku("LEAVES").quantity(4).name("Left the shop").with(hidden).build(),
        product("p-returns").sku("RETURNS").quantity(4).name("Back in the shop").build(),
    ];
    only.counts = counts(3, 0, 3, 0);
    jobs.write_batch(&id("i-keep"), "w1", 110, &only).await.expect("the batch");

    let read = |id: &str| {
        let id = ProductId(id.to_owned());
        async move { editor.product(&id).await.expect("read").expect("still stored") }
    };
    let (a, b, c) = (read("p-stays").await, read("p-leaves").await, read("p-returns").await);
    assert_eq!((a.price, a.details.published), (Money::from_rupees(2_222), true), "updated in place");
    assert_eq!((b.name.as_str(), b.details.published), ("Left the shop", false), "moved out of the shop");
    assert_eq!((c.name.as_str(), c.details.published), ("Back in the shop", true), "moved into the shop");
    for (p, n) in [(&stays, 12), (&leaves, 0), (&returns, 9)] {
        assert_eq!(stock.threshold(&p.id).await, Ok(threshold(n)), "{}'s threshold after the import", p.id.0);
    }

    editor.update_product(&Product { name: "Renamed".into(), ..a }, &audit("edit")).await.expect("an edit in place");
    let mut shown = b;
    shown.details.published = true;
    editor.update_product(&shown, &audit("edit")).await.expect("an edit that publishes");
    assert_eq!(read("p-stays").await.name, "Renamed");
    assert!(read("p-leaves").await.details.published);
    for (p, n) in [(&stays, 12), (&leaves, 0), (&returns, 9)] {
        assert_eq!(stock.threshold(&p.id).await, Ok(threshold(n)), "{}'s threshold after the edits", p.id.0);
    }
}
