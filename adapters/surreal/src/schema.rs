//! The database schema as numbered migrations, each applied once and recorded in `migration`.

use surrealdb::types::{RecordId, SurrealValue};

use crate::conn::Conn;
use crate::ConnectError;

/// One step of the schema. Numbers only grow; a published migration never changes what it
/// leaves (add a new one instead), because databases remember which numbers they ran.
///
/// A migration runs in up to three parts, each idempotent, so a start that stops part-way (or
/// two instances starting together) leaves nothing a second run cannot finish:
/// 1. `surql`, its definitions, in one transaction;
/// 2. its `backfills`, changes to every row of a table, in batches of [`BACKFILL_BATCH`] rows,
///    each batch its own transaction: one transaction must fit in SurrealKV's memtable (64 MB by
///    default), and 100,000 products changed at once do not;
/// 3. `finish` with the migration's record, in one transaction: what needs the back-filled
///    rows, or the definitions, committed first. SurrealDB builds an index from the rows as
///    committed before the defining transaction, so an index defined in the transaction that
///    filled its field is empty for those rows; and it cannot build a full-text index over stored
///    rows with an analyzer defined in the same transaction.
///
/// Migrations 14–17 ran as one transaction each until 14 failed on a 100,000-product store (and
/// 17 on any store with customers); they now run in these parts and leave the same schema and
/// rows (migration 18 repairs the indexes the one-transaction 14 left empty where it did run).
struct Migration {
    number: u32,
    name: &'static str,
    surql: &'static str,
    backfills: &'static [Backfill],
    finish: &'static str,
}

/// A change to every row of `table`, made in batches: `surql` runs over `$ids`, the record ids of
/// one batch, and must change only rows not yet changed (a batch may run twice).
struct Backfill {
    table: &'static str,
    surql: &'static str,
}

/// Rows in one back-fill transaction: a product changed by migration 14 writes about 1.4 kB, so
/// a batch stays near 1 MB, well inside the smallest memtable accepted (4 MB).
const BACKFILL_BATCH: usize = 500;

const NO_BACKFILLS: &[Backfill] = &[];

const MIGRATIONS: &[Migration] = &[
    Migration {
        number: 1,
        name: "catalog: brands, categories, products with full-text name search",
        surql: include_str!("schema/0001_catalog.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 2,
        name: "catalog: brand, category and subcategory listings newest first",
        surql: include_str!("schema/0002_listing_indexes.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 3,
        name: "accounts: customers, sessions, one-time codes, rate counters, wishlists",
        surql: include_str!("schema/0003_accounts.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 4,
        name: "catalog: the version stamp caches poll",
        surql: include_str!("schema/0004_catalog_version.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 5,
        name: "accounts: external sign-ins between start and return",
        surql: include_str!("schema/0005_pending_sign_in.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 6,
        name: "accounts: customers' delivery addresses",
        surql: include_str!("schema/0006_addresses.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 7,
        name: "orders: stock reservations, placed orders, number series, payment events",
        surql: include_str!("schema/0007_orders.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 8,
        name: "catalog: the stock changes caches poll",
        surql: include_str!("schema/0008_stock_changes.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 9,
        name: "accounts: email and mobile proven each by its own code, external identities by issuer and subject",
        surql: include_str!("schema/0009_proven_channels.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 10,
        name: "accounts: the codes external sign-ins end with",
        surql: include_str!("schema/0010_sign_in_codes.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 11,
        name: "orders: payment events handled once, holds per customer, refunds",
        surql: include_str!("schema/0011_payment_safety.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 12,
        name: "back office: the audit trail",
        surql: include_str!("schema/0012_audit.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 13,
        name: "back office: staff, their set-up codes and sessions",
        surql: include_str!("schema/0013_staff.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 14,
        name: "back office: the catalog editor's fields, searched other numbers, unpublished products",
        surql: include_str!("schema/0014_catalog_editor.surql"),
        backfills: &[Backfill { table: "product", surql: include_str!("schema/0014_catalog_editor_products.surql") }],
        finish: include_str!("schema/0014_catalog_editor_indexes.surql"),
    },
    Migration {
        number: 15,
        name: "back office: the stock ledger (entries, opening stock, low-stock thresholds)",
        surql: include_str!("schema/0015_stock_ledger.surql"),
        backfills: &[
            Backfill { table: "product", surql: include_str!("schema/0015_stock_ledger_products.surql") },
            Backfill { table: "unpublished_product", surql: include_str!("schema/0015_stock_ledger_products.surql") },
        ],
        finish: "",
    },
    Migration {
        number: 16,
        name: "back office: products' pictures as objects with their size and responsive variants",
        surql: include_str!("schema/0016_photos.surql"),
        backfills: &[
            Backfill { table: "product", surql: include_str!("schema/0016_photos_products.surql") },
            Backfill { table: "unpublished_product", surql: include_str!("schema/0016_photos_products.surql") },
        ],
        finish: "",
    },
    Migration {
        number: 17,
        name: "back office: offers end on a day in India; customers found by name",
        surql: include_str!("schema/0017_offers.surql"),
        backfills: &[Backfill { table: "user", surql: include_str!("schema/0017_offers_customers.surql") }],
        finish: include_str!("schema/0017_offers_finish.surql"),
    },
    Migration {
        number: 18,
        name: "catalog: the SKU and part-number indexes rebuilt where migration 14 left them empty",
        surql: include_str!("schema/0018_rebuild_part_indexes.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 19,
        name: "catalog changes: what each back-office write changed, for caches to forget only that",
        surql: include_str!("schema/0019_catalog_changes.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 20,
        name: "back office: orders' versions, typed tracking links, the timeline and the admin list's indexes",
        surql: include_str!("schema/0020_order_desk.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 21,
        name: "back office: refunds of placed orders (lines, delivery, provider state) and the shop's cancellations",
        surql: include_str!("schema/0021_order_refunds.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 22,
        name: "grievance tickets from the contact page; refunds indexed by state for the dashboard",
        surql: include_str!("schema/0022_grievances.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 23,
        name: "catalog import jobs: their state, counters, claims and refused rows",
        surql: include_str!("schema/0023_import_jobs.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 24,
        name: "catalog import jobs: whether unknown categories and brands are created",
        surql: include_str!("schema/0024_import_extras.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 25,
        name: "vehicles and products' fitment, indexed by make, model, generation and fitted generation",
        surql: include_str!("schema/0025_vehicles_fitment.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 26,
        name: "signed-in shoppers' garages",
        surql: include_str!("schema/0026_garage.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 27,
        name: "the outbox of customers' order notices; the language a customer last chose",
        surql: include_str!("schema/0027_notice_outbox.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 28,
        name: "used parts: grade, donor car, margin scheme's purchase price, cross-references",
        surql: include_str!("schema/0028_used_parts.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 29,
        name: "store credit: the grants a customer can spend, with what remains of each",
        surql: include_str!("schema/0029_store_credit.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 30,
        name: "returns within the warranty",
        surql: include_str!("schema/0030_returns.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 31,
        name: "an order line keeps the margin scheme's purchase price of its used unit",
        surql: include_str!("schema/0031_order_margin_scheme.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 32,
        name: "store credit at checkout: the credit a reservation takes and an order was paid with",
        surql: include_str!("schema/0032_store_credit_checkout.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 33,
        name: "an order line keeps its product's warranty days as they were when the order was placed",
        surql: include_str!("schema/0033_order_warranty_days.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
    Migration {
        number: 34,
        name: "photographs in catalog imports: the zip, the counters and one task per row",
        surql: include_str!("schema/0034_import_photos.surql"),
        backfills: NO_BACKFILLS,
        finish: "",
    },
];

const MIGRATION_TABLE: &str = "
DEFINE TABLE IF NOT EXISTS migration SCHEMAFULL;
DEFINE FIELD IF NOT EXISTS name       ON migration TYPE string;
DEFINE FIELD IF NOT EXISTS applied_at ON migration TYPE datetime;
";

/// A migration the database has recorded as applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedMigration {
    pub number: u32,
    pub name: String,
}

#[derive(Debug, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct MigrationRow {
    number: i64,
    name: String,
}

/// Brings the schema up to date: runs every migration the database has not recorded, in its
/// parts (see [`Migration`]), the last together with its record. Running it again is a no-op.
pub(crate) async fn migrate(db: &Conn) -> Result<(), ConnectError> {
    db.query(MIGRATION_TABLE)
        .await
        .and_then(surrealdb::IndexedResults::check)
        .map_err(|e| schema_error("defining the migration table", &e))?;
    let applied: Vec<u32> = applied(db).await?.into_iter().map(|m| m.number).collect();
    for migration in MIGRATIONS.iter().filter(|m| !applied.contains(&m.number)) {
        match apply(db, migration, true).await {
            Ok(()) => tracing::info!(number = migration.number, name = migration.name, "applied database migration"),
            // Another instance applied it at the same moment (its record exists); its definitions are ours.
            Err(e) if e.is_already_exists() && recorded(db, migration.number).await? => {}
            Err(e) => return Err(schema_error(&format!("migration {} ({})", migration.number, migration.name), &e)),
        }
    }
    Ok(())
}

/// Whether migration `number` is recorded as applied.
async fn recorded(db: &Conn, number: u32) -> Result<bool, ConnectError> {
    Ok(applied(db).await?.iter().any(|m| m.number == number))
}

/// Runs `migration`'s parts; with `record`, its last transaction also records it as applied.
async fn apply(db: &Conn, migration: &Migration, record: bool) -> Result<(), surrealdb::Error> {
    let record_it = if record {
        "CREATE type::record('migration', $number) SET name = $name, applied_at = time::now() RETURN NONE;"
    } else {
        ""
    };
    if migration.backfills.is_empty() && migration.finish.is_empty() {
        return run(db, &format!("BEGIN;\n{}\n{record_it}\nCOMMIT;", migration.surql), migration).await;
    }
    run(db, &format!("BEGIN;\n{}\nCOMMIT;", migration.surql), migration).await?;
    for backfill in migration.backfills {
        backfill_in_batches(db, migration.number, backfill).await?;
    }
    run(db, &format!("BEGIN;\n{}\n{record_it}\nCOMMIT;", migration.finish), migration).await
}

async fn run(db: &Conn, surql: &str, migration: &Migration) -> Result<(), surrealdb::Error> {
    let results = db.query(surql).bind(("number", i64::from(migration.number))).bind(("name", migration.name)).await?;
    first_cause(results)
}

/// The error of the statement that failed a transaction: the others of its transaction answer
/// only "not executed", and a message naming the cause is what an operator needs.
fn first_cause(mut results: surrealdb::IndexedResults) -> Result<(), surrealdb::Error> {
    let mut errors: Vec<_> = results.take_errors().into_iter().collect();
    errors.sort_by_key(|(statement, _)| *statement);
    let not_executed =
        |e: &surrealdb::Error| matches!(e.query_details(), Some(surrealdb::types::QueryError::NotExecuted));
    let cause = errors.iter().position(|(_, e)| !not_executed(e)).unwrap_or(0);
    match errors.into_iter().nth(cause) {
        Some((_, error)) => Err(error),
        None => Ok(()),
    }
}

/// Every row of the back-fill's table, [`BACKFILL_BATCH`] at a time, each batch committed on its
/// own. The ids are read first (a few MB at 100,000 rows), so no batch scans the table again.
async fn backfill_in_batches(db: &Conn, number: u32, backfill: &Backfill) -> Result<(), surrealdb::Error> {
    let ids: Vec<RecordId> =
        db.query(format!("SELECT VALUE id FROM {}", backfill.table)).await.and_then(|mut r| r.take(0))?;
    let statement = format!("BEGIN;\n{}\nCOMMIT;", backfill.surql);
    let batches = ids.len().div_ceil(BACKFILL_BATCH);
    for (done, batch) in ids.chunks(BACKFILL_BATCH).enumerate() {
        first_cause(db.query(statement.as_str()).bind(("ids", batch.to_vec())).await?)?;
        if batches > 1 && ((done + 1) % 20 == 0 || done + 1 == batches) {
            tracing::info!(
                number,
                table = backfill.table,
                rows = (done * BACKFILL_BATCH + batch.len()),
                of = ids.len(),
                "database migration in progress"
            );
        }
    }
    Ok(())
}

/// The migrations the database has recorded, in order.
pub(crate) async fn applied(db: &Conn) -> Result<Vec<AppliedMigration>, ConnectError> {
    let rows: Vec<MigrationRow> = db
        .query("SELECT record::id(id) AS number, name FROM migration ORDER BY number")
        .await
        .and_then(|mut r| r.take(0))
        .map_err(|e| schema_error("reading applied migrations", &e))?;
    rows.into_iter()
        .map(|row| {
            let number = u32::try_from(row.number).map_err(|_| ConnectError::Schema {
                reason: format!("the migration table holds an impossible number {}", row.number),
            })?;
            Ok(AppliedMigration { number, name: row.name })
        })
        .collect()
}

/// Number of the newest migration this build knows.
#[must_use]
pub fn latest_migration() -> u32 {
    MIGRATIONS.iter().map(|m| m.number).max().unwrap_or(0)
}

fn schema_error(step: &str, e: &surrealdb::Error) -> ConnectError {
    ConnectError::Schema { reason: format!("{step}: {}", e.message()) }
}

/// Runs migration `number`'s parts without recording it (tests of one migration on old rows).
#[cfg(test)]
pub(crate) async fn apply_unrecorded(db: &Conn, number: u32) -> Result<(), surrealdb::Error> {
    let migration = MIGRATIONS.iter().find(|m| m.number == number).expect("a migration of that number");
    apply(db, migration, false).await
}

#[cfg(test)]
mod tests {
    use surrealdb::types::SurrealValue;

    use super::{apply_unrecorded, MIGRATIONS, MIGRATION_TABLE};
    use crate::conn::Conn;

    #[test]
    fn migrations_are_numbered_one_up_without_gaps() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.number as usize, i + 1, "migration {} is out of place", m.name);
        }
    }

    /// Each migration's parts are themselves idempotent, so two instances starting together
    /// (both seeing it unapplied), or a start after one that stopped part-way, cannot break the schema.
    #[tokio::test]
    async fn every_migration_runs_twice_harmlessly() {
        let db = surrealdb::engine::any::connect("mem://").await.expect("open mem://");
        db.use_ns("t").use_db("t").await.expect("use");
        db.query(MIGRATION_TABLE).await.and_then(surrealdb::IndexedResults::check).expect("the migration table");
        let db = Conn::Any(db);
        for m in MIGRATIONS {
            for round in 1..=2 {
                let outcome = apply_unrecorded(&db, m.number).await;
                assert!(
                    outcome.is_ok(),
                    "round {round} of migration {}: {:?}",
                    m.number,
                    outcome.err().map(|e| e.to_string())
                );
            }
        }
    }

    /// A customer's proofs and keys as migration 9 leaves them.
    #[derive(Debug, PartialEq, SurrealValue)]
    #[surreal(crate = "surrealdb::types")]
    struct ProvenRow {
        id: String,
        email_verified: bool,
        mobile_verified: bool,
        email_key: Option<String>,
        mobile: Option<String>,
        mobile_number: Option<String>,
    }

    /// Migration 9 on accounts stored before it: a verified account keeps its mobile proven and
    /// its email only where Google vouched for it; an unverified one proves nothing; unproven
    /// emails and mobiles leave the unique keys, so others may claim them.
    #[tokio::test]
    async fn accounts_stored_before_migration_9_keep_what_their_codes_proved() {
        let db = surrealdb::engine::any::connect("mem://").await.expect("open mem://");
        db.use_ns("t").use_db("t").await.expect("use");
        let conn = Conn::Any(db.clone());
        for m in MIGRATIONS.iter().filter(|m| m.number < 9) {
            apply_unrecorded(&conn, m.number).await.expect("an earlier migration");
        }
        let legacy = "
            CREATE user:signed_up SET name = 'A', email = 'a@example.in', email_key = 'a@example.in', mobile = '9876543210',
                password_hash = 'h', profile = '', verified = true, offer_exp = 0, percentage = 0, created_at = 1;
            CREATE user:linked SET name = 'B', email = 'B@example.in', email_key = 'b@example.in', google_email = 'b@example.in',
                mobile = '9123456780', password_hash = 'h', profile = '', verified = true, offer_exp = 0, percentage = 0, created_at = 1;
            CREATE user:google_only SET name = 'C', email = 'c@example.in', email_key = 'c@example.in', google_email = 'c@example.in',
                profile = '', verified = true, offer_exp = 0, percentage = 0, created_at = 1;
            CREATE user:never SET name = 'D', email = 'd@example.in', email_key = 'd@example.in', mobile = '9000000001',
                password_hash = 'h', profile = '', verified = false, offer_exp = 0, percentage = 0, created_at = 1;
            CREATE otp_challenge:signed_up SET code_hash = 'x', sent_at = 1, expires_at = 2, tries_left = 5, used = false;
        ";
        db.query(legacy).await.and_then(surrealdb::IndexedResults::check).expect("legacy accounts");
        apply_unrecorded(&conn, 9).await.expect("migration 9");
        let rows: Vec<ProvenRow> = db
            .query("SELECT record::id(id) AS id, email_verified, mobile_verified, email_key, mobile, mobile_number FROM user ORDER BY id")
            .await
            .and_then(|mut r| r.take(0))
            .expect("read");
        let rows: Vec<_> = rows
            .into_iter()
            .map(|r| (r.id, r.email_verified, r.mobile_verified, r.email_key, r.mobile, r.mobile_number))
            .collect();
        let s = |v: &str| Some(v.to_owned());
        assert_eq!(
            rows,
            vec![
                ("google_only".to_owned(), true, false, s("c@example.in"), None, None),
                ("linked".to_owned(), true, true, s("b@example.in"), s("9123456780"), s("9123456780")),
                ("never".to_owned(), false, false, None, None, s("9000000001")),
                ("signed_up".to_owned(), false, true, None, s("9876543210"), s("9876543210")),
            ]
        );
        let claims: Vec<Option<String>> =
            db.query("SELECT VALUE email_claim FROM user ORDER BY id").await.and_then(|mut r| r.take(0)).expect("read");
        assert_eq!(claims, vec![s("c@example.in"), s("b@example.in"), s("d@example.in"), s("a@example.in")]);
        let codes: Vec<i64> =
            db.query("SELECT VALUE tries_left FROM otp_challenge").await.and_then(|mut r| r.take(0)).expect("read");
        assert!(codes.is_empty(), "codes under the old key are dropped");
        apply_unrecorded(&conn, 9).await.expect("migration 9 again changes nothing");
    }

    /// Migration 17 on offers stored before it: an `offer_exp` above 0 (with a percentage) keeps the
    /// offer running that many days from the day of the upgrade, so today's `offerExp` is unchanged;
    /// anything else has no end date, and the stored `offer_exp` is gone.
    #[tokio::test]
    async fn offers_stored_before_migration_17_keep_their_days() {
        let db = surrealdb::engine::any::connect("mem://").await.expect("open mem://");
        db.use_ns("t").use_db("t").await.expect("use");
        let conn = Conn::Any(db.clone());
        for m in MIGRATIONS.iter().filter(|m| m.number < 17) {
            apply_unrecorded(&conn, m.number).await.expect("an earlier migration");
        }
        let legacy = "
            CREATE user:running SET name = 'Asha Rao', email = 'a@example.in', profile = '', offer_exp = 3, percentage = 10, created_at = 1;
            CREATE user:no_percent SET name = 'Bina', email = 'b@example.in', profile = '', offer_exp = 5, percentage = 0, created_at = 1;
            CREATE user:ended SET name = 'Chitra', email = 'c@example.in', profile = '', offer_exp = 0, percentage = 20, created_at = 1;
            CREATE user:huge SET name = 'Dev', email = 'd@example.in', profile = '', offer_exp = 9999999999, percentage = 5, created_at = 1;
        ";
        db.query(legacy).await.and_then(surrealdb::IndexedResults::check).expect("legacy accounts");
        let before = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        apply_unrecorded(&conn, 17).await.expect("migration 17");
        let found: Vec<String> = db
            .query("SELECT VALUE record::id(id) FROM user WHERE name @1@ 'chi'")
            .await
            .and_then(|mut r| r.take(0))
            .expect("staff's search by name");
        assert_eq!(found, vec!["ended".to_owned()], "customers stored before are found by name");
        let today = marque_domain::calendar::ist_day(i64::try_from(before).unwrap_or(0));
        let ends: Vec<Option<i64>> = db
            .query("SELECT VALUE offer_ends_on FROM user ORDER BY id")
            .await
            .and_then(|mut r| r.take(0))
            .expect("read");
        // Ordered by id: ended, huge, no_percent, running. (A run straddling midnight IST may see today + 1.)
        assert_eq!(ends[0], None, "an offerExp of 0 had ended");
        assert_eq!(ends[2], None, "0 % is no offer");
        let running = ends[3].expect("an end date");
        assert!(running == today + 2 || running == today + 3, "three days, today included: {running} vs {today}");
        let huge = ends[1].expect("an end date");
        assert!((today + 36_499..=today + 36_500).contains(&huge), "capped at 100 years: {huge}");
        let left: Vec<i64> = db
            .query("SELECT VALUE offer_exp FROM user WHERE offer_exp != NONE")
            .await
            .and_then(|mut r| r.take(0))
            .expect("read");
        assert!(left.is_empty(), "offer_exp is no longer stored");
        apply_unrecorded(&conn, 17).await.expect("migration 17 again changes nothing");
        let again: Vec<Option<i64>> = db
            .query("SELECT VALUE offer_ends_on FROM user ORDER BY id")
            .await
            .and_then(|mut r| r.take(0))
            .expect("read");
        assert_eq!(again, ends);
    }

    /// Products as a store kept them before migration 14 (keys `p000000`…, part numbers `X0`…).
    const LEGACY_PRODUCTS: &str = "
        FOR $i IN $from..$to {
            CREATE type::record('product', 'p' + string::slice(<string>(1000000 + $i), 1)) CONTENT {
                name: 'Brake disc ' + <string>$i, price: 100 + $i, quantity: $i % 7, condition: 'new',
                images: ['/media/parts/disc-1.svg'], description: 'A disc of some length to weigh like a real one. '
                    + string::repeat('Fits many cars. ', 40),
                category: 'Brakes', category_slug: 'brakes', subcategory: 'Disc', subcategory_slug: 'disc',
                oem: 'BMW', oem_slug: 'bmw', variant: '', part_no: 'X-' + <string>$i, part_norm: 'X' + <string>$i,
                inside_ncr: 0, outside_ncr: 0, gst_percent: 18, units_sold: 0, created_at: $i
            } RETURN NONE;
        };
    ";

    /// A store seeded before the back office (migrations 1–13) is brought up to date on
    /// `surrealkv://` with the smallest memtable accepted (4 MB), which the catalog's changes would
    /// overflow in one transaction (4,000 products, about 6 MB): every product gets its SKU, its
    /// threshold, its opening stock entry and its pictures as objects, and is found by its part
    /// number and its SKU through their indexes.
    #[tokio::test]
    async fn a_store_seeded_before_the_back_office_migrates_in_batches_and_finds_every_part() {
        let dir = tempfile::tempdir().expect("a directory");
        let url = format!("surrealkv://{}", dir.path().join("db").display());
        let options = crate::ConnectOptions {
            store_memory: crate::StoreMemory { block_cache_mb: 4, memtable_mb: 4 },
            ..crate::ConnectOptions::default()
        };
        let db = crate::Database::open_unmigrated(&url, &options).await.expect("open");
        let conn = db.db.clone();
        conn.query(MIGRATION_TABLE).await.and_then(surrealdb::IndexedResults::check).expect("migration table");
        for m in MIGRATIONS.iter().filter(|m| m.number <= 13) {
            apply_unrecorded(&conn, m.number).await.expect("an earlier migration");
            conn.query("CREATE type::record('migration', $n) SET name = 'old', applied_at = time::now() RETURN NONE")
                .bind(("n", i64::from(m.number)))
                .await
                .and_then(surrealdb::IndexedResults::check)
                .expect("recorded");
        }
        const PRODUCTS: i64 = 4_000;
        for from in (0..PRODUCTS).step_by(500) {
            conn.query(format!("BEGIN; {LEGACY_PRODUCTS} COMMIT;"))
                .bind(("from", from))
                .bind(("to", from + 500))
                .await
                .and_then(surrealdb::IndexedResults::check)
                .expect("legacy products");
        }

        super::migrate(&conn).await.expect("brought up to date");

        let applied: Vec<u32> = super::applied(&conn).await.expect("read").into_iter().map(|m| m.number).collect();
        assert_eq!(applied, (1..=super::latest_migration()).collect::<Vec<_>>());
        let count = |surql: &'static str| {
            let conn = conn.clone();
            async move {
                let n: Option<i64> = conn.query(surql).await.and_then(|mut r| r.take(0)).expect("count");
                n.unwrap_or(0)
            }
        };
        assert_eq!(count("RETURN (SELECT count() AS n FROM product WHERE sku != NONE GROUP ALL)[0].n").await, PRODUCTS);
        assert_eq!(
            count("RETURN (SELECT count() AS n FROM product WHERE low_stock_threshold = 5 GROUP ALL)[0].n").await,
            PRODUCTS
        );
        assert_eq!(
            count("RETURN (SELECT count() AS n FROM stock_entry WHERE reason = 'opening' GROUP ALL)[0].n").await,
            PRODUCTS
        );
        assert_eq!(
            count("RETURN (SELECT count() AS n FROM product WHERE images[0].name = '/media/parts/disc-1.svg' GROUP ALL)[0].n").await,
            PRODUCTS
        );
        // Found through the indexes (the search's own statement), first, last and between.
        for i in [0, 1_234, 3_999] {
            let by_part: Vec<String> = conn
                .query("SELECT VALUE record::id(id) FROM product WHERE part_norms CONTAINS $part")
                .bind(("part", format!("X{i}")))
                .await
                .and_then(|mut r| r.take(0))
                .expect("by part number");
            let key = format!("p{i:06}");
            assert_eq!(by_part, vec![key.clone()], "part number X{i}");
            let by_sku: Vec<String> = conn
                .query("SELECT VALUE record::id(id) FROM product WHERE sku = $sku")
                .bind(("sku", key.to_uppercase()))
                .await
                .and_then(|mut r| r.take(0))
                .expect("by SKU");
            assert_eq!(by_sku, vec![key], "SKU");
        }
        let duplicate =
            conn.query("UPDATE product:p000001 SET sku = 'P000002'").await.and_then(surrealdb::IndexedResults::check);
        assert!(duplicate.is_err(), "SKUs stored before the migration are kept unique");
        let plan: surrealdb::types::Value = conn
            .query("SELECT VALUE id FROM product WHERE part_norms CONTAINS 'X7' EXPLAIN")
            .await
            .and_then(|mut r| r.take(0))
            .expect("plan");
        assert!(plan.into_json_value().to_string().contains("product_part_norms"), "read through the index");
    }

    /// Migration 18 on a store where migration 14 ran in one transaction over its products
    /// (reproduced here: the back-fill and the index in one transaction leave the index empty):
    /// the rebuilt indexes find every product again.
    #[tokio::test]
    async fn migration_18_rebuilds_the_part_number_index_migration_14_left_empty() {
        let db = surrealdb::engine::any::connect("mem://").await.expect("open mem://");
        db.use_ns("t").use_db("t").await.expect("use");
        let conn = Conn::Any(db);
        for m in MIGRATIONS.iter().filter(|m| m.number < 14) {
            apply_unrecorded(&conn, m.number).await.expect("an earlier migration");
        }
        conn.query(format!("BEGIN; {LEGACY_PRODUCTS} COMMIT;"))
            .bind(("from", 0))
            .bind(("to", 10))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .expect("legacy products");
        let fourteen = MIGRATIONS.iter().find(|m| m.number == 14).expect("14");
        let backfill = fourteen.backfills[0].surql.replace("UPDATE $ids", "UPDATE product");
        conn.query(format!("BEGIN; {} {backfill} {} COMMIT;", fourteen.surql, fourteen.finish))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .expect("migration 14 as it first ran");
        let find = |part: &'static str| {
            let conn = conn.clone();
            async move {
                let found: Vec<String> = conn
                    .query("SELECT VALUE record::id(id) FROM product WHERE part_norms CONTAINS $part")
                    .bind(("part", part))
                    .await
                    .and_then(|mut r| r.take(0))
                    .expect("by part number");
                found
            }
        };
        assert!(find("X3").await.is_empty(), "the one-transaction migration 14 leaves the index empty");
        for m in MIGRATIONS.iter().filter(|m| (15..=18).contains(&m.number)) {
            apply_unrecorded(&conn, m.number).await.expect("a later migration");
        }
        assert_eq!(find("X3").await, vec!["p000003".to_owned()]);
    }
}
