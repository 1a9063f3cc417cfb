//! The back office's catalog store on SurrealDB ([`CatalogEditor`]).
//!
//! Published products are `product` records, unpublished ones `unpublished_product` records with
//! the same fields and key (migration 14): the shoppers' reads of `product` never see an unpublished
//! product and never filter for it. Publishing or unpublishing moves the record in one transaction.
//! Every write runs in one transaction with its audit row (`crate::audit::WRITE`) and a
//! `catalog_change` row saying what it may have changed in shoppers' answers (docs/adr/0018), so
//! every instance's caches forget exactly that.

use async_trait::async_trait;
use marque_domain::catalog::{Category, OemBrand, Product, ProductId};
use marque_domain::part_number::normalize_part_number;
use marque_ports::{
    AdminProductQuery, AdminProductSort, AuditEntry, CatalogChange, CatalogEditor, CatalogEditorError,
    CatalogStoreError, ProductSlice,
};
use surrealdb::types::SurrealValue;

use super::changes::{CatalogChangeRow, RECORD_CHANGE};
use super::rows::{self, rewrite_products, table, BrandRow, CategoryRow, ProductRow, PRODUCT_FIELDS};
use super::{int, text, Vars};
use crate::conn::{Conn, Tx};
use crate::error::is_conflict;

/// [`CatalogEditor`] on a SurrealDB connection. Get one from [`crate::Database::catalog_editor`].
///
/// - `create_product` and `update_product` read what they check (ids in both tables, the SKU in
///   both tables) inside their transaction; the unique SKU index of each table settles a race
///   between two writers of one table, and a transaction that loses a race is tried again.
/// - `update_product` keeps the stored stock, units sold, listing time and images: it reads them in
///   its transaction and writes the record back (deleted from one table, inserted into the one its
///   `published` names).
/// - `products` reads both tables (or the one a `published` filter names) and sorts the matches:
///   a back-office read, not a shopper's, so it may scan.
#[derive(Debug, Clone)]
pub struct SurrealCatalogEditor {
    db: Conn,
}

impl SurrealCatalogEditor {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }
}

const TABLES: [&str; 2] = ["product", "unpublished_product"];

/// The product with `$id` in either table.
const BOTH: &str = "[type::record('product', $id), type::record('unpublished_product', $id)]";

/// The ids (in either table) of the products with SKU `$sku`.
const SKU_HOLDERS: &str = "SELECT VALUE record::id(id) FROM product, unpublished_product WHERE sku = $sku";

/// The opening entry of a product's stock ledger (`stock_entry`, migration 15).
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct StockEntryRow {
    product: String,
    delta: i64,
    reason: String,
    before: i64,
    after: i64,
    actor: String,
    actor_label: String,
    at: i64,
}

fn unavailable(e: &surrealdb::Error) -> CatalogEditorError {
    CatalogEditorError::Unavailable { reason: e.message().to_owned() }
}

fn from_store(e: CatalogStoreError) -> CatalogEditorError {
    match e {
        CatalogStoreError::Invalid { reason } => CatalogEditorError::Invalid { reason },
        CatalogStoreError::Duplicate { id } => CatalogEditorError::DuplicateId { id },
        CatalogStoreError::Unavailable { reason } => CatalogEditorError::Unavailable { reason },
    }
}

/// A failed write: a lost race is `None` (try again), a schema violation the record's fault.
fn write_failed(e: &surrealdb::Error, sku: &str) -> Option<CatalogEditorError> {
    if is_conflict(e) {
        return None;
    }
    let message = e.message();
    if message.contains("product_sku") && message.contains("already contains") {
        return Some(CatalogEditorError::DuplicateSku { sku: sku.to_owned() });
    }
    Some(from_store(crate::error::refused_or_unavailable(e)))
}

/// Tries `attempt` (one transaction) again while it loses races, a bounded number of times.
async fn settled<T, F>(mut attempt: impl FnMut() -> F) -> Result<T, CatalogEditorError>
where
    F: std::future::Future<Output = Result<Result<T, CatalogEditorError>, surrealdb::Error>>,
{
    let mut tries = 0;
    loop {
        match attempt().await {
            Ok(outcome) => return outcome,
            Err(e) if is_conflict(&e) && tries < crate::error::CONFLICT_RETRIES => {
                tries += 1;
                crate::error::backoff(tries).await;
            }
            Err(e) => return Err(unavailable(&e)),
        }
    }
}

/// Commits `tx` when `outcome` is a success, else cancels it; a failing commit is returned as the
/// driver's error (a lost race is then tried again by [`settled`]).
async fn finish<T>(
    tx: Tx,
    outcome: Result<T, CatalogEditorError>,
) -> Result<Result<T, CatalogEditorError>, surrealdb::Error> {
    match outcome {
        Ok(value) => tx.commit().await.map(|()| Ok(value)),
        Err(refused) => {
            if let Err(e) = tx.cancel().await {
                tracing::warn!(error = %e.message(), "cancelling a refused catalog edit failed");
            }
            Ok(Err(refused))
        }
    }
}

/// Runs `surql` with `vars` inside `tx`, with the record of `change` and `audit`, and checks every
/// statement; a lost race comes back as the driver's error, anything else as the editor's.
async fn write(
    tx: &Tx,
    surql: String,
    vars: Vars,
    (audit, change): (&AuditEntry, &CatalogChange),
    sku: &str,
) -> Result<Result<(), CatalogEditorError>, surrealdb::Error> {
    let mut request = tx
        .query(surql)
        .query(RECORD_CHANGE)
        .bind(("change", CatalogChangeRow::from(change)))
        .query(crate::audit::WRITE)
        .bind(crate::audit::bind(audit));
    for var in vars {
        request = request.bind(var);
    }
    match request.await.and_then(surrealdb::IndexedResults::check) {
        Ok(_) => Ok(Ok(())),
        Err(e) => match write_failed(&e, sku) {
            None => Err(e),
            Some(refused) => Ok(Err(refused)),
        },
    }
}

impl SurrealCatalogEditor {
    /// The stored product with this id (either table), read inside `tx` when given.
    async fn read(&self, tx: Option<&Tx>, id: &str) -> Result<Option<Product>, surrealdb::Error> {
        let surql = format!("SELECT {PRODUCT_FIELDS} FROM {BOTH}");
        let request = match tx {
            Some(tx) => tx.query(surql),
            None => self.db.query(surql),
        };
        let rows: Vec<ProductRow> = request.bind(("id", id.to_owned())).await.and_then(|mut r| r.take(0))?;
        // An unreadable stored record is the store's failure.
        Ok(rows::products(rows).map_err(|e| surrealdb::Error::internal(e.to_string()))?.into_iter().next())
    }

    /// Whether a product other than `id` has `sku`, read inside `tx`.
    async fn sku_taken(tx: &Tx, sku: &str, id: &str) -> Result<bool, surrealdb::Error> {
        let holders: Vec<String> =
            tx.query(SKU_HOLDERS).bind(("sku", sku.to_owned())).await.and_then(|mut r| r.take(0))?;
        Ok(holders.iter().any(|holder| holder != id))
    }

    async fn try_create(
        &self,
        product: &Product,
        audit: &AuditEntry,
    ) -> Result<Result<(), CatalogEditorError>, surrealdb::Error> {
        let tx = self.db.begin().await?;
        let id = product.id.as_str();
        let sku = product.details.sku.as_str();
        let refused = if self.read(Some(&tx), id).await?.is_some() {
            Some(CatalogEditorError::DuplicateId { id: id.to_owned() })
        } else if Self::sku_taken(&tx, sku, id).await? {
            Some(CatalogEditorError::DuplicateSku { sku: sku.to_owned() })
        } else {
            None
        };
        if let Some(refused) = refused {
            return finish(tx, Err(refused)).await;
        }
        let quantity = i64::from(product.quantity);
        let entry = StockEntryRow {
            product: id.to_owned(),
            delta: quantity,
            reason: "opening".to_owned(),
            before: 0,
            after: quantity,
            actor: audit.actor.key(),
            actor_label: audit.actor.label(),
            at: audit.at,
        };
        let surql = format!(
            "INSERT INTO {} $row RETURN NONE; CREATE stock_entry CONTENT $entry RETURN NONE;",
            table(product.details.published)
        );
        let vars: Vars = vec![("row", ProductRow::from(product).into_value()), ("entry", entry.into_value())];
        let change = CatalogChange::of_product(None, Some(product).filter(|p| p.details.published));
        let outcome = write(&tx, surql, vars, (audit, &change), sku).await?;
        finish(tx, outcome).await
    }

    async fn try_update(
        &self,
        product: &Product,
        audit: &AuditEntry,
    ) -> Result<Result<Product, CatalogEditorError>, surrealdb::Error> {
        let tx = self.db.begin().await?;
        let id = product.id.as_str();
        let sku = product.details.sku.as_str();
        let Some(stored) = self.read(Some(&tx), id).await? else {
            return finish(tx, Err(CatalogEditorError::NotFound { id: id.to_owned() })).await;
        };
        if Self::sku_taken(&tx, sku, id).await? {
            return finish(tx, Err(CatalogEditorError::DuplicateSku { sku: sku.to_owned() })).await;
        }
        let written = Product {
            quantity: stored.quantity,
            units_sold: stored.units_sold,
            created_at: stored.created_at,
            images: stored.images.clone(),
            ..product.clone()
        };
        let surql = rewrite_products("rows", table(stored.details.published), table(written.details.published));
        let vars: Vars = vec![("rows", surrealdb::types::Value::from_t(vec![ProductRow::from(&written)]))];
        let in_shop = |p: &Product| p.details.published;
        let change =
            CatalogChange::of_product(Some(&stored).filter(|p| in_shop(p)), Some(&written).filter(|p| in_shop(p)));
        let outcome = write(&tx, surql, vars, (audit, &change), sku).await?;
        finish(tx, outcome.map(|()| written)).await
    }

    /// Writes a category or brand: `check` finds the stored record's slug (or refuses), then
    /// `surql` writes it, with the audit row and the version bump, in one transaction.
    async fn try_put(
        &self,
        put: &Put<'_>,
        audit: &AuditEntry,
    ) -> Result<Result<(), CatalogEditorError>, surrealdb::Error> {
        let tx = self.db.begin().await?;
        let read = format!(
            "RETURN {{ old: (SELECT VALUE slug FROM type::record('{t}', $id))[0], \
             clash: (SELECT VALUE record::id(id) FROM {t} WHERE slug = $slug AND record::id(id) != $id)[0] }};",
            t = put.table
        );
        let found: Option<SlugCheck> = tx
            .query(read)
            .bind(("id", put.id.to_owned()))
            .bind(("slug", put.slug.to_owned()))
            .await
            .and_then(|mut r| r.take(0))?;
        let found = found.unwrap_or(SlugCheck { old: None, clash: None });
        let refused = match (&found.old, put.creating) {
            _ if found.clash.is_some() => Some(CatalogEditorError::SlugTaken { slug: put.slug.to_owned() }),
            (Some(_), true) => Some(CatalogEditorError::Invalid { reason: format!("`{}` already exists", put.id) }),
            (None, false) => Some(CatalogEditorError::NotFound { id: put.id.to_owned() }),
            _ => None,
        };
        if let Some(refused) = refused {
            return finish(tx, Err(refused)).await;
        }
        let mut vars = put.vars.clone();
        let old_slug = found.old.as_deref().unwrap_or(put.slug);
        vars.push(("id", text(put.id)));
        vars.push(("old_slug", text(old_slug)));
        let change = if put.table == "brand" {
            CatalogChange::of_brand(&[old_slug, put.slug])
        } else {
            CatalogChange::of_category(&[old_slug, put.slug])
        };
        let outcome = write(&tx, put.surql.to_owned(), vars, (audit, &change), "").await?;
        finish(tx, outcome).await
    }
}

#[derive(Debug, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct SlugCheck {
    old: Option<String>,
    clash: Option<String>,
}

/// A category or brand write for [`SurrealCatalogEditor::try_put`].
struct Put<'a> {
    table: &'static str,
    id: &'a str,
    slug: &'a str,
    creating: bool,
    surql: &'static str,
    vars: Vars,
}

/// Stores a category; on an update its products (in both tables) follow its name and slug, and
/// each subcategory's name.
const PUT_CATEGORY: &str = "
UPSERT type::record('category', $id) CONTENT { name: $c.name, slug: $c.slug, subcategories: $c.subcategories } RETURN NONE;
UPDATE product SET category = $c.name, category_slug = $c.slug WHERE category_slug = $old_slug RETURN NONE;
UPDATE unpublished_product SET category = $c.name, category_slug = $c.slug WHERE category_slug = $old_slug RETURN NONE;
FOR $s IN $c.subcategories {
    UPDATE product SET subcategory = $s.name WHERE category_slug = $c.slug AND subcategory_slug = $s.slug AND subcategory != $s.name RETURN NONE;
    UPDATE unpublished_product SET subcategory = $s.name WHERE category_slug = $c.slug AND subcategory_slug = $s.slug AND subcategory != $s.name RETURN NONE;
};
";

/// Stores a brand; on an update its products (in both tables) follow its name and slug.
const PUT_BRAND: &str = "
UPSERT type::record('brand', $id) CONTENT { name: $b.name, slug: $b.slug, image: $b.image } RETURN NONE;
UPDATE product SET oem = $b.name, oem_slug = $b.slug WHERE oem_slug = $old_slug RETURN NONE;
UPDATE unpublished_product SET oem = $b.name, oem_slug = $b.slug WHERE oem_slug = $old_slug RETURN NONE;
";

/// The back office's product list: `{FROM}` the table(s), `{WHERE}` the filters, `{ORDER}` the sort.
const ADMIN_LIST: &str = "
RETURN (SELECT count() AS n FROM {FROM} {WHERE} GROUP ALL)[0].n ?? 0;
SELECT {FIELDS} FROM {FROM} {WHERE} ORDER BY {ORDER} LIMIT $limit START $offset;
";

fn order_by(sort: AdminProductSort) -> &'static str {
    match sort {
        AdminProductSort::Newest => "created_at DESC, id ASC",
        AdminProductSort::Name => "name ASC, id ASC",
        AdminProductSort::PriceAscending => "price ASC, id ASC",
        AdminProductSort::PriceDescending => "price DESC, id ASC",
        AdminProductSort::Sku => "sku ASC, id ASC",
    }
}

fn valid_id(id: &str) -> Result<(), CatalogEditorError> {
    if id.is_empty() {
        return Err(CatalogEditorError::Invalid { reason: "a catalog record needs a non-empty id".into() });
    }
    Ok(())
}

#[async_trait]
impl CatalogEditor for SurrealCatalogEditor {
    async fn create_product(&self, product: &Product, audit: &AuditEntry) -> Result<(), CatalogEditorError> {
        valid_id(product.id.as_str())?;
        settled(|| self.try_create(product, audit)).await
    }

    async fn update_product(&self, product: &Product, audit: &AuditEntry) -> Result<Product, CatalogEditorError> {
        if product.id.as_str().is_empty() {
            return Err(CatalogEditorError::NotFound { id: String::new() });
        }
        settled(|| self.try_update(product, audit)).await
    }

    async fn product(&self, id: &ProductId) -> Result<Option<Product>, CatalogEditorError> {
        if id.as_str().is_empty() {
            return Ok(None);
        }
        self.read(None, id.as_str()).await.map_err(|e| unavailable(&e))
    }

    async fn products(&self, query: &AdminProductQuery) -> Result<ProductSlice, CatalogEditorError> {
        let from = match query.published {
            None => TABLES.join(", "),
            Some(published) => table(published).to_owned(),
        };
        let mut conditions: Vec<&str> = Vec::new();
        let mut vars: Vars = vec![("limit", int(query.window.limit())), ("offset", int(query.window.offset()))];
        let typed = query.text.trim();
        if !typed.is_empty() {
            conditions.push(
                "(string::contains(string::lowercase(name), $lower) OR string::contains(string::lowercase(sku), $lower) \
                 OR part_norms CONTAINS $part)",
            );
            vars.push(("lower", text(&typed.to_lowercase())));
            vars.push(("part", text(&normalize_part_number(typed))));
        }
        if let Some(category) = &query.category {
            conditions.push("category_slug = $category");
            vars.push(("category", text(category)));
        }
        if let Some(brand) = &query.brand {
            conditions.push("oem_slug = $brand");
            vars.push(("brand", text(brand)));
        }
        let surql = ADMIN_LIST
            .replace("{FROM}", &from)
            .replace("{WHERE}", &super::where_clause(&conditions))
            .replace("{ORDER}", order_by(query.sort))
            .replace("{FIELDS}", PRODUCT_FIELDS);
        let mut request = self.db.query(surql);
        for var in vars {
            request = request.bind(var);
        }
        let mut response = request.await.map_err(|e| unavailable(&e))?;
        let total: Option<i64> = response.take(0).map_err(|e| unavailable(&e))?;
        let rows: Vec<ProductRow> = response.take(1).map_err(|e| unavailable(&e))?;
        Ok(ProductSlice {
            products: rows::products(rows).map_err(from_store)?,
            total: total.map_or(0, |n| u64::try_from(n).unwrap_or(0)),
        })
    }

    async fn create_category(&self, category: &Category, audit: &AuditEntry) -> Result<(), CatalogEditorError> {
        valid_id(&category.id)?;
        let put = Put {
            table: "category",
            id: &category.id,
            slug: &category.slug,
            creating: true,
            surql: PUT_CATEGORY,
            vars: vec![("c", CategoryRow::from(category).into_value())],
        };
        settled(|| self.try_put(&put, audit)).await
    }

    async fn update_category(&self, category: &Category, audit: &AuditEntry) -> Result<(), CatalogEditorError> {
        if category.id.is_empty() {
            return Err(CatalogEditorError::NotFound { id: String::new() });
        }
        let put = Put {
            table: "category",
            id: &category.id,
            slug: &category.slug,
            creating: false,
            surql: PUT_CATEGORY,
            vars: vec![("c", CategoryRow::from(category).into_value())],
        };
        settled(|| self.try_put(&put, audit)).await
    }

    async fn create_brand(&self, brand: &OemBrand, audit: &AuditEntry) -> Result<(), CatalogEditorError> {
        valid_id(&brand.id)?;
        let put = Put {
            table: "brand",
            id: &brand.id,
            slug: &brand.slug,
            creating: true,
            surql: PUT_BRAND,
            vars: vec![("b", BrandRow::from(brand).into_value())],
        };
        settled(|| self.try_put(&put, audit)).await
    }

    async fn update_brand(&self, brand: &OemBrand, audit: &AuditEntry) -> Result<(), CatalogEditorError> {
        if brand.id.is_empty() {
            return Err(CatalogEditorError::NotFound { id: String::new() });
        }
        let put = Put {
            table: "brand",
            id: &brand.id,
            slug: &brand.slug,
            creating: false,
            surql: PUT_BRAND,
            vars: vec![("b", BrandRow::from(brand).into_value())],
        };
        settled(|| self.try_put(&put, audit)).await
    }
}
