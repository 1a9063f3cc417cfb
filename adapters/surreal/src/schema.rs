//! The database schema as numbered migrations, each applied once and recorded in `migration`.

use surrealdb::types::SurrealValue;

use crate::conn::Conn;
use crate::ConnectError;

/// One step of the schema. Numbers only grow; a published migration never changes
/// (add a new one instead), because databases remember which numbers they ran.
struct Migration {
    number: u32,
    name: &'static str,
    surql: &'static str,
}

const MIGRATIONS: &[Migration] = &[
    Migration {
        number: 1,
        name: "catalog: brands, categories, products with full-text name search",
        surql: include_str!("schema/0001_catalog.surql"),
    },
    Migration {
        number: 2,
        name: "catalog: brand, category and subcategory listings newest first",
        surql: include_str!("schema/0002_listing_indexes.surql"),
    },
    Migration {
        number: 3,
        name: "accounts: customers, sessions, one-time codes, rate counters, wishlists",
        surql: include_str!("schema/0003_accounts.surql"),
    },
    Migration {
        number: 4,
        name: "catalog: the version stamp caches poll",
        surql: include_str!("schema/0004_catalog_version.surql"),
    },
    Migration {
        number: 5,
        name: "accounts: external sign-ins between start and return",
        surql: include_str!("schema/0005_pending_sign_in.surql"),
    },
    Migration {
        number: 6,
        name: "accounts: customers' delivery addresses",
        surql: include_str!("schema/0006_addresses.surql"),
    },
    Migration {
        number: 7,
        name: "orders: stock reservations, placed orders, number series, payment events",
        surql: include_str!("schema/0007_orders.surql"),
    },
    Migration {
        number: 8,
        name: "catalog: the stock changes caches poll",
        surql: include_str!("schema/0008_stock_changes.surql"),
    },
    Migration {
        number: 9,
        name: "accounts: email and mobile proven each by its own code, external identities by issuer and subject",
        surql: include_str!("schema/0009_proven_channels.surql"),
    },
    Migration {
        number: 10,
        name: "accounts: the codes external sign-ins end with",
        surql: include_str!("schema/0010_sign_in_codes.surql"),
    },
    Migration {
        number: 11,
        name: "orders: payment events handled once, holds per customer, refunds",
        surql: include_str!("schema/0011_payment_safety.surql"),
    },
    Migration { number: 12, name: "back office: the audit trail", surql: include_str!("schema/0012_audit.surql") },
    Migration {
        number: 13,
        name: "back office: staff, their set-up codes and sessions",
        surql: include_str!("schema/0013_staff.surql"),
    },
    Migration {
        number: 14,
        name: "back office: the catalog editor's fields, searched other numbers, unpublished products",
        surql: include_str!("schema/0014_catalog_editor.surql"),
    },
    Migration {
        number: 15,
        name: "back office: the stock ledger (entries, opening stock, low-stock thresholds)",
        surql: include_str!("schema/0015_stock_ledger.surql"),
    },
    Migration {
        number: 16,
        name: "back office: products' pictures as objects with their size and responsive variants",
        surql: include_str!("schema/0016_photos.surql"),
    },
    Migration {
        number: 17,
        name: "back office: offers end on a day in India; customers found by name",
        surql: include_str!("schema/0017_offers.surql"),
    },
    Migration {
        number: 18,
        name: "catalog changes: what each back-office write changed, for caches to forget only that",
        surql: include_str!("schema/0018_catalog_changes.surql"),
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

/// Brings the schema up to date: runs every migration the database has not recorded,
/// each in one transaction together with its record. Running it again is a no-op.
pub(crate) async fn migrate(db: &Conn) -> Result<(), ConnectError> {
    db.query(MIGRATION_TABLE)
        .await
        .and_then(surrealdb::IndexedResults::check)
        .map_err(|e| schema_error("defining the migration table", &e))?;
    let applied: Vec<u32> = applied(db).await?.into_iter().map(|m| m.number).collect();
    for migration in MIGRATIONS.iter().filter(|m| !applied.contains(&m.number)) {
        let surql = format!(
            "BEGIN;\n{}\nCREATE type::record('migration', $number) SET name = $name, applied_at = time::now() RETURN NONE;\nCOMMIT;",
            migration.surql
        );
        let outcome = db
            .query(surql)
            .bind(("number", i64::from(migration.number)))
            .bind(("name", migration.name))
            .await
            .and_then(surrealdb::IndexedResults::check);
        match outcome {
            Ok(_) => tracing::info!(number = migration.number, name = migration.name, "applied database migration"),
            // Another instance applied it at the same moment; its definitions are ours.
            Err(e) if e.is_already_exists() => {}
            Err(e) => return Err(schema_error(&format!("migration {} ({})", migration.number, migration.name), &e)),
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

#[cfg(test)]
mod tests {
    use surrealdb::types::SurrealValue;

    use super::{MIGRATIONS, MIGRATION_TABLE};

    #[test]
    fn migrations_are_numbered_one_up_without_gaps() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.number as usize, i + 1, "migration {} is out of place", m.name);
        }
    }

    /// Each migration's definitions are themselves idempotent, so two instances starting
    /// together (both seeing it unapplied) cannot break the schema.
    #[tokio::test]
    async fn every_migration_runs_twice_harmlessly() {
        let db = surrealdb::engine::any::connect("mem://").await.expect("open mem://");
        db.use_ns("t").use_db("t").await.expect("use");
        for surql in std::iter::once(MIGRATION_TABLE).chain(MIGRATIONS.iter().map(|m| m.surql)) {
            for round in 1..=2 {
                let outcome = db.query(surql).await.and_then(surrealdb::IndexedResults::check);
                assert!(outcome.is_ok(), "round {round} of {surql}: {:?}", outcome.err().map(|e| e.to_string()));
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
        for m in MIGRATIONS.iter().filter(|m| m.number < 9) {
            db.query(m.surql).await.and_then(surrealdb::IndexedResults::check).expect("an earlier migration");
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
        let ninth = MIGRATIONS.iter().find(|m| m.number == 9).expect("migration 9");
        db.query(ninth.surql).await.and_then(surrealdb::IndexedResults::check).expect("migration 9");
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
        db.query(ninth.surql)
            .await
            .and_then(surrealdb::IndexedResults::check)
            .expect("migration 9 again changes nothing");
    }

    /// Migration 17 on offers stored before it: an `offer_exp` above 0 (with a percentage) keeps the
    /// offer running that many days from the day of the upgrade, so today's `offerExp` is unchanged;
    /// anything else has no end date, and the stored `offer_exp` is gone.
    #[tokio::test]
    async fn offers_stored_before_migration_17_keep_their_days() {
        let db = surrealdb::engine::any::connect("mem://").await.expect("open mem://");
        db.use_ns("t").use_db("t").await.expect("use");
        for m in MIGRATIONS.iter().filter(|m| m.number < 17) {
            db.query(m.surql).await.and_then(surrealdb::IndexedResults::check).expect("an earlier migration");
        }
        let legacy = "
            CREATE user:running SET name = 'A', email = 'a@example.in', profile = '', offer_exp = 3, percentage = 10, created_at = 1;
            CREATE user:no_percent SET name = 'B', email = 'b@example.in', profile = '', offer_exp = 5, percentage = 0, created_at = 1;
            CREATE user:ended SET name = 'C', email = 'c@example.in', profile = '', offer_exp = 0, percentage = 20, created_at = 1;
            CREATE user:huge SET name = 'D', email = 'd@example.in', profile = '', offer_exp = 9999999999, percentage = 5, created_at = 1;
        ";
        db.query(legacy).await.and_then(surrealdb::IndexedResults::check).expect("legacy accounts");
        let before = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let seventeenth = MIGRATIONS.iter().find(|m| m.number == 17).expect("migration 17");
        db.query(seventeenth.surql).await.and_then(surrealdb::IndexedResults::check).expect("migration 17");
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
        db.query(seventeenth.surql)
            .await
            .and_then(surrealdb::IndexedResults::check)
            .expect("migration 17 again changes nothing");
        let again: Vec<Option<i64>> = db
            .query("SELECT VALUE offer_ends_on FROM user ORDER BY id")
            .await
            .and_then(|mut r| r.take(0))
            .expect("read");
        assert_eq!(again, ends);
    }
}
