//! The catalog store on SurrealDB: brands, categories, products and product search.

mod changes;
mod editor;
mod follow;
mod imports;
pub(crate) mod index;
mod rows;

pub use changes::SurrealCatalogChanges;
pub(crate) use changes::{CatalogChangeRow, RECORD_CHANGE};
pub use editor::SurrealCatalogEditor;
pub(crate) use follow::CatalogFollower;
pub use imports::SurrealImportJobs;
pub(crate) use IndexUse as CatalogIndexUse;

use std::collections::HashSet;

use async_trait::async_trait;
use marque_domain::catalog::{Category, Grade, OemBrand, Product, ProductId};
use marque_domain::filters::BrandSlug;
use marque_domain::part_number::normalize_part_number;
use marque_domain::vehicle::Car;
use marque_ports::{CatalogStore, CatalogStoreError, ProductListing, ProductQuery, ProductSlice, ProductStamp};

use crate::conn::{Conn, Tx};
use crate::error::{refused_or_unavailable, unavailable};
use rows::{BrandRow, CategoryRow, ProductRow, StampRow, LISTED_FIELDS, PRODUCT_FIELDS};

/// Rows per `INSERT` statement when adding products: big enough that seeding a
/// large catalog is a few hundred statements, small enough to keep each request modest.
const INSERT_CHUNK: usize = 1_000;

/// [`CatalogStore`] on a SurrealDB connection. Get one from [`crate::Database::catalog`].
///
/// - Product record keys are the [`ProductId`] strings; money is stored as paise.
/// - `add_products` checks every id, then inserts 1,000 rows a statement, all inside one
///   transaction. On `surrealkv://` its cost grows linearly with the batch; on `mem://`
///   the engine makes a large indexed transaction grow quadratically, so seed big
///   in-memory catalogs in batches of about a thousand.
/// - `search` ranks part-number hits first, then BM25 score, then id, and counts the
///   whole result: a broad one- or two-letter prefix scores every match, which is the
///   slow case on a large catalog. Newest and best-selling lists read through their
///   indexes and sort only the rows at or above the window's last value.
/// - `list_products` does the same through the index that starts with the fields its
///   filters pin (migration 2), then counts every match through the same index: the
///   count reads all of a broad listing's matches, the window does not.
///   - a brand page (one brand): `product_oem_newest` (`oem_slug, created_at`);
///   - a category page, grouped or filtered: `product_category_newest`
///     (`category_slug, created_at`); with brands too, SurrealDB either filters its
///     rows or intersects it with `product_oem_newest` (one range per brand);
///   - a subcategory page, and each group of a grouped category page:
///     `product_subcategory_newest` (`category_slug, subcategory_slug, created_at`).
///
///   Conditions and fuels are checked on the rows those indexes yield. The test
///   `listings_read_through_their_indexes` holds these plans to account.
/// - Both counts, the search's ranking and the catalog's size are answered by the in-process
///   index (`follow`, `index`; ADR 0019) whenever it is in step with the database, which a stamp
///   read with every such request proves; the database then only finds part numbers, reads the
///   listing's window through its index and fetches the window's products by key. Otherwise (the
///   index is being built, or a write it cannot follow by itself moved the version) the statements
///   above run as they are, and give the same answers.
/// - `product_stamps` reads the table itself in record-key (id) order: the first window
///   from the start, each next one as the key range just past the last id, so walking
///   the whole catalog reads each product once.
#[derive(Debug, Clone)]
pub struct SurrealCatalogStore {
    db: Conn,
    /// The in-process index of names and listing fields (ADR 0019), shared by the database's stores.
    index: CatalogFollower,
    uses: IndexUse,
}

/// When a [`SurrealCatalogStore`] answers from the in-process index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IndexUse {
    /// Whenever it is in step with the database; otherwise the database's own statements answer
    /// while it catches up in the background (the shop's store).
    WhenInStep,
    /// Never: the database's statements answer every read (the reference tests compare with).
    Never,
    /// Always: before each read the index is brought in step, rebuilt at once if need be, and a
    /// read it still cannot answer fails instead of taking the database's path, so that a test of
    /// the indexed path never passes on the database's answers (tests).
    Always,
}

impl SurrealCatalogStore {
    pub(crate) fn new(db: Conn, index: CatalogFollower, uses: IndexUse) -> Self {
        Self { db, index, uses }
    }

    /// What a read the index could not answer does: takes the database's path (`Ok`), or, when the
    /// index must answer ([`IndexUse::Always`]), fails.
    fn index_missed(&self, what: &str) -> Result<(), CatalogStoreError> {
        if self.uses == IndexUse::Always {
            return Err(CatalogStoreError::Unavailable {
                reason: format!("the catalog index was not in step to answer {what}"),
            });
        }
        Ok(())
    }

    /// Whether this read tries the index.
    async fn use_index(&self) -> bool {
        match self.uses {
            IndexUse::Never => false,
            IndexUse::WhenInStep => self.index.usable(),
            IndexUse::Always => {
                if let Err(e) = self.index.bring_in_step().await {
                    tracing::warn!(error = %e.message(), "bringing the catalog index in step failed");
                }
                self.index.usable()
            }
        }
    }

    /// Opens `url` (see [`crate::Database::connect`]) and returns its catalog store.
    ///
    /// # Errors
    /// See [`crate::ConnectError`].
    pub async fn connect(url: &str) -> Result<crate::Guarded<Self>, crate::ConnectError> {
        Ok(crate::Database::connect(url).await?.catalog())
    }

    /// Of `ids`, those already stored, in the order given.
    async fn stored_among(&self, tx: Option<&Tx>, ids: Vec<String>) -> Result<Vec<String>, surrealdb::Error> {
        // Published and unpublished products share one space of ids (migration 14).
        const SURQL: &str = "
            LET $published = SELECT VALUE record::id(id) FROM $ids.map(|$id| type::record('product', $id));
            LET $unpublished = SELECT VALUE record::id(id) FROM $ids.map(|$id| type::record('unpublished_product', $id));
            RETURN array::concat($published, $unpublished);";
        let query = match tx {
            Some(tx) => tx.query(SURQL),
            None => self.db.query(SURQL),
        };
        let stored: Vec<String> = query.bind(("ids", ids.clone())).await.and_then(|mut r| r.take(2))?;
        let stored: HashSet<String> = stored.into_iter().collect();
        Ok(ids.into_iter().filter(|id| stored.contains(id)).collect())
    }

    /// The writes of `add_products`, inside `tx`; the caller commits or cancels.
    async fn insert_products(&self, tx: &Tx, products: &[Product]) -> Result<(), CatalogStoreError> {
        let ids: Vec<String> = products.iter().map(|p| p.id.0.clone()).collect();
        let stored = self.stored_among(Some(tx), ids).await.map_err(|e| unavailable(&e))?;
        if let Some(id) = stored.into_iter().next() {
            return Err(CatalogStoreError::Duplicate { id });
        }
        let at = crate::stock::now_seconds();
        // Unpublished products go to their own table (migration 14), out of every shopper's read.
        let (published, unpublished): (Vec<&Product>, Vec<&Product>) =
            products.iter().partition(|p| p.details.published);
        let batches = published.chunks(INSERT_CHUNK).map(|c| ("product", c));
        for (table, chunk) in batches.chain(unpublished.chunks(INSERT_CHUNK).map(|c| ("unpublished_product", c))) {
            let rows: Vec<ProductRow> = chunk.iter().map(|p| ProductRow::from(*p)).collect();
            // Each product's stock starts the ledger as its opening entry, in the same transaction.
            let openings = crate::stock::opening_rows(chunk.iter().copied(), crate::stock::SEED_ACTOR, at);
            let outcome = tx
                .query(format!("INSERT INTO {table} $rows RETURN NONE"))
                .query("INSERT INTO stock_entry $openings RETURN NONE")
                .bind(("rows", rows))
                .bind(("openings", openings))
                .await
                .and_then(surrealdb::IndexedResults::check);
            if let Err(e) = outcome {
                return Err(self.write_error(&e, products).await);
            }
        }
        tx.query(BUMP_VERSION)
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map(drop)
            .map_err(|e| refused_or_unavailable(&e))
    }

    /// Maps a failed product write; a clash with a record stored meanwhile names the product.
    async fn write_error(&self, e: &surrealdb::Error, products: &[Product]) -> CatalogStoreError {
        if !e.is_already_exists() {
            return refused_or_unavailable(e);
        }
        let ids = products.iter().map(|p| p.id.0.clone()).collect();
        match self.stored_among(None, ids).await {
            Ok(stored) if !stored.is_empty() => CatalogStoreError::Duplicate { id: stored[0].clone() },
            _ => CatalogStoreError::Duplicate { id: clashing_key(e) },
        }
    }
}

/// Moves the catalog's version stamp (`catalog_meta:version`, see
/// [`SurrealCatalogChanges`]): every catalog write runs it in its own transaction,
/// so a reader that sees the new stamp also sees the write. The record is created on the
/// first write; a fresh database reads as version 0.
pub(crate) const BUMP_VERSION: &str = "UPSERT catalog_meta:version SET n = (n ?? 0) + 1 RETURN NONE;";

/// Bound parameters of a query: user input only ever reaches SurrealQL this way.
type Vars = Vec<(&'static str, surrealdb::types::Value)>;

fn int(n: impl TryInto<i64>) -> surrealdb::types::Value {
    surrealdb::types::Value::from_t(n.try_into().unwrap_or(i64::MAX))
}

fn text(s: &str) -> surrealdb::types::Value {
    surrealdb::types::Value::from_t(s.to_owned())
}

fn texts<'a>(values: impl IntoIterator<Item = &'a str>) -> surrealdb::types::Value {
    surrealdb::types::Value::from_t(values.into_iter().map(str::to_owned).collect::<Vec<String>>())
}

/// The key SurrealDB names in an "already exists" error (`product:p1` → `p1`), as far
/// as it can be read back; only used when the clashing record cannot be looked up.
fn clashing_key(e: &surrealdb::Error) -> String {
    let named = match e.already_exists_details() {
        Some(surrealdb::types::AlreadyExistsError::Record { id }) => id.clone(),
        _ => e.message().to_owned(),
    };
    let key = named.strip_prefix("product:").unwrap_or(&named);
    let unquoted = key.strip_prefix('`').and_then(|k| k.strip_suffix('`'));
    let unbracketed = key.strip_prefix('⟨').and_then(|k| k.strip_suffix('⟩'));
    unquoted.or(unbracketed).unwrap_or(key).to_owned()
}

fn refuse_empty_ids<'a>(what: &str, ids: impl IntoIterator<Item = &'a str>) -> Result<(), CatalogStoreError> {
    if ids.into_iter().any(str::is_empty) {
        return Err(CatalogStoreError::Invalid { reason: format!("a {what} needs a non-empty id") });
    }
    Ok(())
}

/// Search over product names and part numbers (the `search` contract of [`CatalogStore`]).
///
/// The name index holds edge n-grams (2–10 characters) of every name word. SurrealDB
/// analyses a query with the index's analyzer minus its n-gram filter, and `@@` then
/// needs every query term in the document's terms. So the text is first cut into the
/// index's words by `product_query` (same tokenizers and filters, no n-grams), words of
/// one character are dropped (they were never indexed) and the rest cut to 10
/// characters (the longest n-gram); every remaining word must then begin a name word.
/// Part numbers (a product's own, alternates and superseded ones, migration 14) are matched in
/// `part_norms` through its index in a statement of their own: an array predicate in the same
/// `WHERE` as the full-text match would turn both into a scan of the table.
const SEARCH: &str = "
LET $words = search::analyze('product_query', $text)
    .filter(|$w| string::len($w) >= 2)
    .map(|$w| string::slice($w, 0, 10))
    .distinct();
LET $terms = array::join($words, ' ');
LET $parts = (SELECT VALUE id FROM product WHERE part_norms CONTAINS $part);
LET $named = (SELECT id, search::score(1) AS score FROM product WHERE name @1@ $terms);
LET $ranked = (
    SELECT id, score, id IN $parts AS part_hit
    FROM array::concat($named, $parts.filter(|$p| $p NOT IN $named.id).map(|$p| { id: $p, score: 0 }))
    ORDER BY part_hit DESC, score DESC, id ASC
).id;
RETURN array::len($ranked);
SELECT {LISTED} FROM array::slice($ranked, $offset, $end);
";

/// [`SEARCH`]'s lookups when the in-process index ranks: the stamp, the query's terms as
/// `name @1@ $terms` would analyse them (repeats kept), and the part-number hits.
const SEARCH_INDEXED: &str = "
LET $words = search::analyze('product_query', $text)
    .filter(|$w| string::len($w) >= 2)
    .map(|$w| string::slice($w, 0, 10))
    .distinct();
RETURN search::analyze('product_query', array::join($words, ' '));
RETURN (SELECT VALUE record::id(id) FROM product WHERE part_norms CONTAINS $part);
";

/// The products of a ranked window, by key.
const BY_KEYS: &str = "SELECT {LISTED} FROM $ids.map(|$id| type::record('product', $id))";

/// Newest first, `created_at` descending then id ascending. Sorting on both keys would
/// read the whole table, so the `created_at` index first finds the listing time of the
/// window's last product (the edge) and only products at or above it are sorted.
const NEWEST: &str = "
LET $edge = (SELECT VALUE created_at FROM product ORDER BY created_at DESC LIMIT 1 START $last)[0]
    ?? (SELECT VALUE created_at FROM product ORDER BY created_at ASC LIMIT 1)[0]
    ?? 0;
SELECT {LISTED} FROM product WHERE created_at >= $edge
    ORDER BY created_at DESC, id ASC LIMIT $limit START $offset;
";

const COUNT_ALL: &str = "RETURN (SELECT count() AS n FROM product GROUP ALL)[0].n ?? 0;";

/// Best sellers, `units_sold` descending then id ascending, bounded like [`NEWEST`].
const BEST_SELLING: &str = "
LET $edge = (SELECT VALUE units_sold FROM product WHERE units_sold > 0 ORDER BY units_sold DESC LIMIT 1 START $last)[0]
    ?? 1;
SELECT {LISTED} FROM product WHERE units_sold >= $edge ORDER BY units_sold DESC, id ASC LIMIT $limit;
";

/// A listing newest first (the `list_products` contract of [`CatalogStore`]), bounded like
/// [`NEWEST`]: `{WHERE}` stands for the listing's filters and `{WHERE_EDGE}` for the same
/// plus `created_at >= $edge`. With one brand, a category or a subcategory pinned, the
/// listing indexes (`<pinned fields>, created_at`) find the edge and then read only the
/// rows at or above it; other filters (several brands, conditions, fuels) are checked on
/// the rows the index yields, or on the `created_at` index when nothing is pinned.
const LISTING: &str = "
LET $edge = (SELECT VALUE created_at FROM product {WHERE} ORDER BY created_at DESC LIMIT 1 START $last)[0]
    ?? (SELECT VALUE created_at FROM product {WHERE} ORDER BY created_at ASC LIMIT 1)[0]
    ?? 0;
SELECT {LISTED} FROM product {WHERE_EDGE} ORDER BY created_at DESC, id ASC LIMIT $limit START $offset;
";

/// A listing narrowed to a car (`fits`): [`crate::vehicles::FITTING`] finds the keys of the fitting
/// products through the fitment's generation index, and only those products are read (by key),
/// filtered, counted and ordered newest first. Only when the in-process index, which keeps every
/// product's fitment rows, cannot answer (not built yet, or behind the database).
const LISTING_FITTING: &str = "
RETURN (SELECT count() AS n FROM $fitting.map(|$k| type::record('product', $k)) {WHERE} GROUP ALL)[0].n ?? 0;
SELECT {LISTED} FROM $fitting.map(|$k| type::record('product', $k)) {WHERE}
    ORDER BY created_at DESC, id ASC LIMIT $limit START $offset;
";

/// [`SEARCH`] narrowed to a car: the ranking keeps only the fitting products.
fn search_fitting() -> String {
    let ranked_end = "    ORDER BY part_hit DESC, score DESC, id ASC\n).id;\n";
    let narrowed = format!("{ranked_end}LET $ranked = $ranked.filter(|$r| record::id($r) IN $fitting);\n");
    format!("{}{}", crate::vehicles::FITTING, SEARCH.replacen(ranked_end, &narrowed, 1))
}

/// `search` (a [`SEARCH`] or [`search_fitting`], whose total is its statement `total`) narrowed to
/// used units of `grades` (bound as `$grades`): the ranking keeps only their products, in its order.
/// Returns the statements and where their answer sits.
fn graded_search(search: String, grades: &[Grade], vars: &mut Vars, total: usize) -> (String, Answer) {
    if grades.is_empty() {
        return (search, Answer { total: Some(total), rows: total + 1 });
    }
    vars.push(("grades", texts(grades.iter().map(|g| g.letter()))));
    let ranked_end = "    ORDER BY part_hit DESC, score DESC, id ASC\n).id;\n";
    let narrowed = format!("{ranked_end}LET $ranked = $ranked.filter(|$r| $r.grade IN $grades);\n");
    let surql = search.replacen(ranked_end, &narrowed, 1);
    (surql, Answer { total: Some(total + 1), rows: total + 2 })
}

/// The count of a listing's matches, read through the same index as its window.
const LISTING_COUNT: &str = "RETURN (SELECT count() AS n FROM product {WHERE} GROUP ALL)[0].n ?? 0;";

/// The first window of product stamps (the `product_stamps` contract of [`CatalogStore`]):
/// the table is read in record-key order, which is id order, and stops after `$limit`
/// rows; nothing is sorted and no secondary index is needed.
const STAMPS_FIRST: &str = "SELECT record::id(id) AS id, created_at FROM product ORDER BY id ASC LIMIT $limit";

/// The window after a given id: the record range that starts just past it (`$after>..`),
/// read in key order from there, so each window costs its own size, not the table's.
const STAMPS_AFTER: &str =
    "SELECT record::id(id) AS id, created_at FROM type::record('product', $after>..) LIMIT $limit";

/// [`STAMPS_FIRST`] and [`STAMPS_AFTER`] with every product field (`products_after`).
const PRODUCTS_FIRST: &str = "SELECT {FIELDS} FROM product ORDER BY id ASC LIMIT $limit";
const PRODUCTS_AFTER: &str = "SELECT {FIELDS} FROM type::record('product', $after>..) LIMIT $limit";

/// The conditions of a listing's filters, each a fixed fragment whose values are bound
/// parameters. A list of one is an equality, which every index planner takes.
fn listing_filters(listing: &ProductListing) -> (Vec<&'static str>, Vars) {
    let mut conditions = Vec::new();
    let mut vars = Vars::new();
    match listing.brands.as_slice() {
        [] => {}
        [brand] => {
            conditions.push("oem_slug = $brand");
            vars.push(("brand", text(brand.as_str())));
        }
        brands => {
            conditions.push("oem_slug IN $brands");
            vars.push(("brands", texts(brands.iter().map(BrandSlug::as_str))));
        }
    }
    if let Some(category) = &listing.category {
        conditions.push("category_slug = $category");
        vars.push(("category", text(category)));
    }
    if let Some(subcategory) = &listing.subcategory {
        conditions.push("subcategory_slug = $subcategory");
        vars.push(("subcategory", text(subcategory)));
    }
    match listing.conditions.as_slice() {
        [] => {}
        [condition] => {
            conditions.push("condition = $condition");
            vars.push(("condition", text(condition.code())));
        }
        many => {
            conditions.push("condition IN $conditions");
            vars.push(("conditions", texts(many.iter().map(|c| c.code()))));
        }
    }
    match listing.fuels.as_slice() {
        [] => {}
        [fuel] => {
            conditions.push("fuel_type = $fuel");
            vars.push(("fuel", text(fuel.code())));
        }
        many => {
            conditions.push("fuel_type IN $fuels");
            vars.push(("fuels", texts(many.iter().map(|f| f.code()))));
        }
    }
    match listing.grades.as_slice() {
        [] => {}
        [grade] => {
            conditions.push("grade = $grade");
            vars.push(("grade", text(grade.letter())));
        }
        many => {
            conditions.push("grade IN $grades");
            vars.push(("grades", texts(many.iter().map(|g| g.letter()))));
        }
    }
    (conditions, vars)
}

/// `WHERE a AND b …`, or nothing without conditions.
fn where_clause(conditions: &[&str]) -> String {
    if conditions.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", conditions.join(" AND "))
    }
}

/// Where a query's answer sits among its statements.
#[derive(Clone, Copy)]
struct Answer {
    total: Option<usize>,
    rows: usize,
}

/// `surql` with the product fields in place: `{FIELDS}`, a product read whole ([`PRODUCT_FIELDS`]);
/// `{LISTED}`, a listing's or search's products, without their fitment ([`LISTED_FIELDS`]).
fn fields(surql: &str) -> String {
    surql.replace("{FIELDS}", PRODUCT_FIELDS).replace("{LISTED}", LISTED_FIELDS)
}

/// Binds a window: where it starts, its size, the index of its last row and of the
/// row after it (`array::slice` takes a start and an exclusive end).
fn window(offset: u64, limit: u32) -> Vars {
    let end = offset.saturating_add(u64::from(limit));
    vec![("offset", int(offset)), ("limit", int(limit)), ("last", int(end.saturating_sub(1))), ("end", int(end))]
}

impl SurrealCatalogStore {
    /// Runs [`follow::STAMP`] and then `surql` (with `{FIELDS}` and `{LISTED}` standing for the product
    /// fields, [`fields`]) in one request, and reads the stamp and the products of `surql`'s statement `rows`.
    async fn read_stamped(
        &self,
        surql: &str,
        vars: Vars,
        rows: usize,
    ) -> Result<(Vec<Product>, Option<follow::Stamp>), CatalogStoreError> {
        let mut request = self.db.query(follow::STAMP).query(fields(surql));
        for var in vars {
            request = request.bind(var);
        }
        let mut response = request.await.map_err(|e| unavailable(&e))?;
        let stamp: Option<follow::Stamp> = response.take(0).map_err(|e| unavailable(&e))?;
        let rows: Vec<ProductRow> = response.take(rows + 1).map_err(|e| unavailable(&e))?;
        Ok((rows::products(rows)?, stamp))
    }

    /// A count the database makes (`surql` is one `RETURN` of a number).
    async fn count_in_store(&self, surql: &str, vars: Vars) -> Result<u64, CatalogStoreError> {
        let mut request = self.db.query(surql);
        for var in vars {
            request = request.bind(var);
        }
        let counted: Option<i64> = request.await.and_then(|mut r| r.take(0)).map_err(|e| unavailable(&e))?;
        Ok(counted.map_or(0, |n| u64::try_from(n).unwrap_or(0)))
    }

    /// A count the index answers when in step with `stamp`, else the database (`surql`, `vars`).
    async fn count_indexed(
        &self,
        stamp: Option<&follow::Stamp>,
        count: impl FnOnce(&index::CatalogIndex) -> u64,
        (surql, vars): (&str, Vars),
    ) -> Result<u64, CatalogStoreError> {
        if let Some(stamp) = stamp {
            if let Ok(total) = self.index.answer(stamp, count).await {
                return Ok(total);
            }
        }
        self.index_missed("a count")?;
        self.count_in_store(surql, vars).await
    }

    /// A search ranked by the index: `None` when the index is not in step with the database, or a
    /// product of the window left meanwhile (the caller then asks the database).
    async fn search_indexed(
        &self,
        typed: &str,
        query: &ProductQuery,
    ) -> Result<Option<ProductSlice>, CatalogStoreError> {
        let mut response = self
            .db
            .query(follow::STAMP)
            .query(SEARCH_INDEXED)
            .bind(("text", text(typed)))
            .bind(("part", text(&normalize_part_number(typed))))
            .await
            .map_err(|e| unavailable(&e))?;
        let stamp: Option<follow::Stamp> = response.take(0).map_err(|e| unavailable(&e))?;
        let terms: Vec<String> = response.take(2).map_err(|e| unavailable(&e))?;
        let parts: Vec<String> = response.take(3).map_err(|e| unavailable(&e))?;
        let Some(stamp) = stamp else { return Ok(None) };
        let narrowed = (query.grades.as_slice(), query.fits.as_ref());
        let rank = |index: &index::CatalogIndex| index.rank(&terms, &parts, narrowed, (query.offset, query.limit));
        let Ok(ranked) = self.index.answer(&stamp, rank).await else { return Ok(None) };
        self.by_keys(ranked).await
    }

    /// A listing whose window and count the index answers (the products then read by key): `None`
    /// when the index is not in step with the database, or a product of the window left meanwhile
    /// (the caller then asks the database).
    async fn list_indexed(&self, listing: &ProductListing) -> Result<Option<ProductSlice>, CatalogStoreError> {
        let stamp = self.index.stamp().await.map_err(|e| unavailable(&e))?;
        let Ok(window) = self.index.answer(&stamp, |i| i.list_window(listing)).await else { return Ok(None) };
        self.by_keys(window).await
    }

    /// The products of a window the index chose, in its order; `None` when one of them is gone.
    async fn by_keys(&self, window: index::Ranked) -> Result<Option<ProductSlice>, CatalogStoreError> {
        if window.ids.is_empty() {
            return Ok(Some(ProductSlice { products: Vec::new(), total: window.total }));
        }
        let vars = vec![("ids", texts(window.ids.iter().map(String::as_str)))];
        let (found, _) = self.read_products(BY_KEYS, vars, Answer { total: None, rows: 0 }).await?;
        let mut by_id: std::collections::HashMap<String, Product> =
            found.into_iter().map(|p| (p.id.0.clone(), p)).collect();
        let products: Vec<Product> = window.ids.iter().filter_map(|id| by_id.remove(id)).collect();
        if products.len() != window.ids.len() {
            return Ok(None);
        }
        Ok(Some(ProductSlice { products, total: window.total }))
    }

    /// A search narrowed to a car by the database's statements ([`search_fitting`]).
    async fn search_by_car(
        &self,
        typed: &str,
        query: &ProductQuery,
        car: &Car,
    ) -> Result<ProductSlice, CatalogStoreError> {
        let mut vars = window(query.offset, query.limit);
        vars.push(("text", text(typed)));
        vars.push(("part", text(&normalize_part_number(typed))));
        vars.extend(crate::vehicles::fitting_vars(car));
        let (surql, answer) = graded_search(search_fitting(), &query.grades, &mut vars, 8);
        let (products, total) = self.read_products(&surql, vars, answer).await?;
        Ok(ProductSlice { products, total })
    }

    /// A listing narrowed to `car` ([`LISTING_FITTING`]).
    async fn list_fitting(&self, listing: &ProductListing, car: &Car) -> Result<ProductSlice, CatalogStoreError> {
        let (conditions, filter_vars) = listing_filters(listing);
        let surql =
            format!("{}{}", crate::vehicles::FITTING, LISTING_FITTING.replace("{WHERE}", &where_clause(&conditions)));
        let mut vars = window(listing.offset, listing.limit);
        vars.extend(filter_vars);
        vars.extend(crate::vehicles::fitting_vars(car));
        let (products, total) = self.read_products(&surql, vars, Answer { total: Some(2), rows: 3 }).await?;
        Ok(ProductSlice { products, total })
    }

    /// Runs `surql` (with `{FIELDS}` and `{LISTED}` standing for the product fields, [`fields`]) and reads its
    /// products and, when asked, the size of the whole result.
    async fn read_products(
        &self,
        surql: &str,
        vars: Vars,
        answer: Answer,
    ) -> Result<(Vec<Product>, u64), CatalogStoreError> {
        let mut request = self.db.query(fields(surql));
        for var in vars {
            request = request.bind(var);
        }
        let mut response = request.await.map_err(|e| unavailable(&e))?;
        let rows: Vec<ProductRow> = response.take(answer.rows).map_err(|e| unavailable(&e))?;
        let total = match answer.total {
            Some(index) => {
                let total: Option<i64> = response.take(index).map_err(|e| unavailable(&e))?;
                total.map_or(0, |n| u64::try_from(n).unwrap_or(0))
            }
            None => 0,
        };
        Ok((rows::products(rows)?, total))
    }
}

#[async_trait]
impl CatalogStore for SurrealCatalogStore {
    async fn put_brands(&self, brands: &[OemBrand]) -> Result<(), CatalogStoreError> {
        if brands.is_empty() {
            return Ok(());
        }
        refuse_empty_ids("brand", brands.iter().map(|b| b.id.as_str()))?;
        let rows: Vec<BrandRow> = brands.iter().map(BrandRow::from).collect();
        self.db
            .query(
                "BEGIN TRANSACTION; \
                 FOR $b IN $rows { \
                   UPSERT type::record('brand', $b.id) CONTENT { name: $b.name, slug: $b.slug, image: $b.image } RETURN NONE; \
                 }; \
                 UPSERT catalog_meta:version SET n = (n ?? 0) + 1 RETURN NONE; \
                 COMMIT TRANSACTION;",
            )
            .bind(("rows", rows))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map(drop)
            .map_err(|e| refused_or_unavailable(&e))
    }

    async fn put_categories(&self, categories: &[Category]) -> Result<(), CatalogStoreError> {
        if categories.is_empty() {
            return Ok(());
        }
        refuse_empty_ids("category", categories.iter().map(|c| c.id.as_str()))?;
        let rows: Vec<CategoryRow> = categories.iter().map(CategoryRow::from).collect();
        self.db
            .query(
                "BEGIN TRANSACTION; \
                 FOR $c IN $rows { \
                   UPSERT type::record('category', $c.id) \
                     CONTENT { name: $c.name, slug: $c.slug, subcategories: $c.subcategories } RETURN NONE; \
                 }; \
                 UPSERT catalog_meta:version SET n = (n ?? 0) + 1 RETURN NONE; \
                 COMMIT TRANSACTION;",
            )
            .bind(("rows", rows))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map(drop)
            .map_err(|e| refused_or_unavailable(&e))
    }

    async fn add_products(&self, products: &[Product]) -> Result<(), CatalogStoreError> {
        if products.is_empty() {
            return Ok(());
        }
        let mut seen = HashSet::with_capacity(products.len());
        if let Some(twice) = products.iter().find(|p| !seen.insert(p.id.as_str())) {
            return Err(CatalogStoreError::Duplicate { id: twice.id.0.clone() });
        }
        refuse_empty_ids("product", products.iter().map(|p| p.id.as_str()))?;

        let tx = self.db.begin().await.map_err(|e| unavailable(&e))?;
        match self.insert_products(&tx, products).await {
            Ok(()) => match tx.commit().await {
                Ok(_) => Ok(()),
                Err(e) => Err(self.write_error(&e, products).await),
            },
            Err(refused) => {
                // Nothing was committed; a failing cancel changes nothing for the caller.
                if let Err(e) = tx.cancel().await {
                    tracing::warn!(error = %e.message(), "cancelling a refused product batch failed");
                }
                Err(refused)
            }
        }
    }

    async fn brands(&self) -> Result<Vec<OemBrand>, CatalogStoreError> {
        let rows: Vec<BrandRow> = self
            .db
            .query("SELECT record::id(id) AS id, name, slug, image FROM brand")
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        let mut brands: Vec<OemBrand> = rows.into_iter().map(OemBrand::from).collect();
        brands.sort_by(|a, b| (&a.name, &a.id).cmp(&(&b.name, &b.id)));
        Ok(brands)
    }

    async fn categories(&self) -> Result<Vec<Category>, CatalogStoreError> {
        let rows: Vec<CategoryRow> = self
            .db
            .query("SELECT record::id(id) AS id, name, slug, subcategories FROM category")
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        let mut categories: Vec<Category> = rows.into_iter().map(Category::from).collect();
        categories.sort_by(|a, b| (&a.name, &a.id).cmp(&(&b.name, &b.id)));
        for category in &mut categories {
            category.subcategories.sort_by(|a, b| (&a.name, &a.id).cmp(&(&b.name, &b.id)));
        }
        Ok(categories)
    }

    async fn product(&self, id: &ProductId) -> Result<Option<Product>, CatalogStoreError> {
        // SurrealDB has no record with an empty key, and refuses to name one.
        if id.as_str().is_empty() {
            return Ok(None);
        }
        let surql = "SELECT {FIELDS} FROM type::record('product', $id)";
        let vars = vec![("id", text(id.as_str()))];
        let (found, _) = self.read_products(surql, vars, Answer { total: None, rows: 0 }).await?;
        Ok(found.into_iter().next())
    }

    async fn newest_products(&self, limit: u32) -> Result<Vec<Product>, CatalogStoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let (products, _) = self.read_products(NEWEST, window(0, limit), Answer { total: None, rows: 1 }).await?;
        Ok(products)
    }

    async fn best_selling_products(&self, limit: u32) -> Result<Vec<Product>, CatalogStoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let (products, _) = self.read_products(BEST_SELLING, window(0, limit), Answer { total: None, rows: 1 }).await?;
        Ok(products)
    }

    async fn search(&self, query: &ProductQuery) -> Result<ProductSlice, CatalogStoreError> {
        let typed = query.text.trim();
        // Every product newest first, narrowed: the listing of those products.
        if typed.is_empty() && (query.fits.is_some() || !query.grades.is_empty()) {
            let listing = ProductListing {
                offset: query.offset,
                limit: query.limit,
                fits: query.fits.clone(),
                grades: query.grades.clone(),
                ..ProductListing::default()
            };
            return self.list_products(&listing).await;
        }
        if self.use_index().await {
            if typed.is_empty() {
                let (products, stamp) = self.read_stamped(NEWEST, window(query.offset, query.limit), 1).await?;
                let total =
                    self.count_indexed(stamp.as_ref(), index::CatalogIndex::count, (COUNT_ALL, Vars::new())).await?;
                return Ok(ProductSlice { products, total });
            }
            if let Some(found) = self.search_indexed(typed, query).await? {
                return Ok(found);
            }
        }
        self.index_missed("a search")?;
        if let Some(car) = &query.fits {
            return self.search_by_car(typed, query, car).await;
        }
        let mut vars = window(query.offset, query.limit);
        let (surql, answer) = if typed.is_empty() {
            (format!("{COUNT_ALL}{NEWEST}"), Answer { total: Some(0), rows: 2 })
        } else {
            vars.push(("text", text(typed)));
            vars.push(("part", text(&normalize_part_number(typed))));
            graded_search(SEARCH.to_owned(), &query.grades, &mut vars, 5)
        };
        let (products, total) = self.read_products(&surql, vars, answer).await?;
        Ok(ProductSlice { products, total })
    }

    async fn list_products(&self, listing: &ProductListing) -> Result<ProductSlice, CatalogStoreError> {
        let (mut conditions, filter_vars) = listing_filters(listing);
        let filtered = where_clause(&conditions);
        conditions.push("created_at >= $edge");
        let surql = LISTING.replace("{WHERE_EDGE}", &where_clause(&conditions)).replace("{WHERE}", &filtered);
        let count = LISTING_COUNT.replace("{WHERE}", &filtered);
        let mut vars = window(listing.offset, listing.limit);
        vars.extend(filter_vars);
        if self.use_index().await {
            if let Some(found) = self.list_indexed(listing).await? {
                return Ok(found);
            }
        }
        self.index_missed("a listing")?;
        if let Some(car) = &listing.fits {
            return self.list_fitting(listing, car).await;
        }
        let surql = format!("{count}{surql}");
        let (products, total) = self.read_products(&surql, vars, Answer { total: Some(0), rows: 2 }).await?;
        Ok(ProductSlice { products, total })
    }

    async fn count_products(&self) -> Result<u64, CatalogStoreError> {
        let stamp = if self.use_index().await { self.index.stamp().await.ok() } else { None };
        self.count_indexed(stamp.as_ref(), index::CatalogIndex::count, (COUNT_ALL, Vars::new())).await
    }

    async fn product_stamps(
        &self,
        after: Option<ProductId>,
        limit: u32,
    ) -> Result<Vec<ProductStamp>, CatalogStoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        // Every id sorts after the empty one, which SurrealDB refuses to name.
        let request = match after.filter(|id| !id.as_str().is_empty()) {
            Some(after) => self.db.query(STAMPS_AFTER).bind(("after", after.0)),
            None => self.db.query(STAMPS_FIRST),
        };
        let rows: Vec<StampRow> =
            request.bind(("limit", int(limit))).await.and_then(|mut r| r.take(0)).map_err(|e| unavailable(&e))?;
        Ok(rows.into_iter().map(ProductStamp::from).collect())
    }

    async fn products_after(&self, after: Option<ProductId>, limit: u32) -> Result<Vec<Product>, CatalogStoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let mut vars = vec![("limit", int(limit))];
        let surql = match after.filter(|id| !id.as_str().is_empty()) {
            Some(after) => {
                vars.push(("after", text(after.as_str())));
                PRODUCTS_AFTER
            }
            None => PRODUCTS_FIRST,
        };
        let (products, _) = self.read_products(surql, vars, Answer { total: None, rows: 0 }).await?;
        Ok(products)
    }
}

#[cfg(test)]
mod tests {
    use surrealdb::types::{AlreadyExistsError, Error};

    use super::{clashing_key, listing_filters, where_clause, window, ProductListing, STAMPS_AFTER, STAMPS_FIRST};
    use marque_domain::catalog::Condition;
    use marque_domain::filters::{BrandSlug, FilterValue};

    /// The plan SurrealDB chooses for `surql` (one statement) with `vars`, as JSON text.
    async fn plan(db: &crate::conn::Conn, surql: &str, vars: super::Vars) -> String {
        let mut request = db.query(format!("{surql} EXPLAIN"));
        for var in vars {
            request = request.bind(var);
        }
        let mut response = request.await.expect("explain runs");
        let plan: surrealdb::types::Value = response.take(0).expect("a plan");
        plan.into_json_value().to_string()
    }

    /// Every listing reads through an index (never a scan and sort of the whole table),
    /// and each window of product stamps is a key range.
    #[tokio::test]
    async fn listings_read_through_their_indexes() {
        let db = crate::Database::connect("mem://").await.expect("open mem://");
        let catalog = db.catalog();
        let store = catalog.inner();
        let slug = |s: &str| BrandSlug::from_code(s).expect("a slug");
        let cases = [
            (ProductListing { brands: vec![slug("bmw")], ..ProductListing::default() }, vec!["product_oem_newest"]),
            (
                ProductListing { category: Some("brakes".into()), ..ProductListing::default() },
                vec!["product_category_newest"],
            ),
            (
                ProductListing {
                    category: Some("brakes".into()),
                    subcategory: Some("brake-disc".into()),
                    ..ProductListing::default()
                },
                vec!["product_subcategory_newest"],
            ),
            (
                ProductListing {
                    brands: vec![slug("bmw"), slug("audi")],
                    category: Some("brakes".into()),
                    conditions: vec![Condition::Old],
                    ..ProductListing::default()
                },
                vec!["product_category_newest", "product_oem_newest"],
            ),
        ];
        for (listing, indexes) in cases {
            let (mut conditions, vars) = listing_filters(&listing);
            let count = format!("SELECT count() AS n FROM product {} GROUP ALL", where_clause(&conditions));
            let edge = format!(
                "SELECT VALUE created_at FROM product {} ORDER BY created_at DESC LIMIT 1 START 19",
                where_clause(&conditions)
            );
            conditions.push("created_at >= 0");
            let rows = format!(
                "SELECT id FROM product {} ORDER BY created_at DESC, id ASC LIMIT 20",
                where_clause(&conditions)
            );
            for surql in [count, edge, rows] {
                let plan = plan(&store.db, &surql, vars.clone()).await;
                assert!(!plan.contains("TableScan"), "{surql}: {plan}");
                let through_one = indexes.iter().any(|index| plan.contains(index)) || plan.contains("IndexCountScan");
                assert!(through_one, "{surql} reads one of {indexes:?}: {plan}");
            }
        }
        let after = plan(&store.db, STAMPS_AFTER, vec![("after", super::text("p1")), ("limit", super::int(10))]).await;
        assert!(!after.contains("TableScan") && !after.contains("Sort"), "{after}");
        let first = plan(&store.db, STAMPS_FIRST, vec![("limit", super::int(10))]).await;
        assert!(
            first.contains("\"limit\":\"$limit\"") && !first.contains("Sort"),
            "the scan stops after the window: {first}"
        );
    }

    /// Search's two lookups read through their indexes: the part numbers (own, alternate,
    /// superseded) through `product_part_norms`, the name through its full-text index.
    #[tokio::test]
    async fn search_reads_part_numbers_and_names_through_their_indexes() {
        let db = crate::Database::connect("mem://").await.expect("open mem://");
        let catalog = db.catalog();
        let store = catalog.inner();
        let parts = plan(
            &store.db,
            "SELECT VALUE id FROM product WHERE part_norms CONTAINS $part",
            vec![("part", super::text("A1"))],
        )
        .await;
        assert!(!parts.contains("TableScan") && parts.contains("product_part_norms"), "{parts}");
        let named = plan(
            &store.db,
            "SELECT id, search::score(1) AS score FROM product WHERE name @1@ $terms",
            vec![("terms", super::text("brake"))],
        )
        .await;
        assert!(!named.contains("TableScan") && named.contains("product_name_search"), "{named}");
    }

    #[test]
    fn a_clash_names_the_product_key() {
        let clash = |id: &str| {
            Error::already_exists(
                format!("Database record `{id}` already exists"),
                AlreadyExistsError::Record { id: id.into() },
            )
        };
        assert_eq!(clashing_key(&clash("product:p1")), "p1");
        assert_eq!(clashing_key(&clash("product:`00123`")), "00123");
        assert_eq!(clashing_key(&clash("product:⟨p 1⟩")), "p 1");
    }

    #[test]
    fn windows_never_overflow() {
        let bound = |offset, limit| {
            window(offset, limit).into_iter().map(|(name, v)| (name, v.into_json_value())).collect::<Vec<_>>()
        };
        let numbers =
            |offset, limit| bound(offset, limit).iter().map(|(_, v)| v.as_i64().unwrap_or(-1)).collect::<Vec<_>>();
        // offset, limit, last, end
        assert_eq!(numbers(0, 20), [0, 20, 19, 20]);
        assert_eq!(numbers(u64::MAX, u32::MAX), [i64::MAX, i64::from(u32::MAX), i64::MAX, i64::MAX]);
        assert_eq!(numbers(0, 0), [0, 0, 0, 0]);
    }
}
