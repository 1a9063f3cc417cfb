//! The catalog store on SurrealDB: brands, categories, products and product search.

mod rows;

use std::collections::HashSet;

use async_trait::async_trait;
use marque_domain::catalog::{Category, OemBrand, Product, ProductId};
use marque_domain::part_number::normalize_part_number;
use marque_ports::{CatalogStore, CatalogStoreError, ProductQuery, ProductSlice};
use surrealdb::engine::any::Any;
use surrealdb::method::Transaction;
use surrealdb::Surreal;

use crate::error::{refused_or_unavailable, unavailable};
use rows::{BrandRow, CategoryRow, CountRow, ProductRow, PRODUCT_FIELDS};

/// Rows per `INSERT` statement when adding products: big enough that seeding a
/// large catalog is a few hundred statements, small enough to keep each request modest.
const INSERT_CHUNK: usize = 1_000;

/// [`CatalogStore`] on a SurrealDB connection. Get one from [`crate::Database::catalog`].
#[derive(Debug, Clone)]
pub struct SurrealCatalogStore {
    db: Surreal<Any>,
}

impl SurrealCatalogStore {
    pub(crate) fn new(db: Surreal<Any>) -> Self {
        Self { db }
    }

    /// Opens `url` (see [`crate::Database::connect`]) and returns its catalog store.
    ///
    /// # Errors
    /// See [`crate::ConnectError`].
    pub async fn connect(url: &str) -> Result<Self, crate::ConnectError> {
        Ok(crate::Database::connect(url).await?.catalog())
    }

    async fn select_products(&self, surql: String, vars: Vars) -> Result<Vec<Product>, CatalogStoreError> {
        let mut query = self.db.query(surql);
        for var in vars {
            query = query.bind(var);
        }
        let rows: Vec<ProductRow> = query.await.and_then(|mut r| r.take(0)).map_err(|e| unavailable(&e))?;
        rows::products(rows)
    }

    /// Of `ids`, those already stored, in the order given.
    async fn stored_among(&self, tx: Option<&Transaction<Any>>, ids: Vec<String>) -> Result<Vec<String>, surrealdb::Error> {
        const SURQL: &str = "SELECT VALUE record::id(id) FROM $ids.map(|$id| type::record('product', $id))";
        let query = match tx {
            Some(tx) => tx.query(SURQL),
            None => self.db.query(SURQL),
        };
        let stored: Vec<String> = query.bind(("ids", ids.clone())).await.and_then(|mut r| r.take(0))?;
        let stored: HashSet<String> = stored.into_iter().collect();
        Ok(ids.into_iter().filter(|id| stored.contains(id)).collect())
    }

    /// The writes of `add_products`, inside `tx`; the caller commits or cancels.
    async fn insert_products(&self, tx: &Transaction<Any>, products: &[Product]) -> Result<(), CatalogStoreError> {
        let ids: Vec<String> = products.iter().map(|p| p.id.0.clone()).collect();
        let stored = self.stored_among(Some(tx), ids).await.map_err(|e| unavailable(&e))?;
        if let Some(id) = stored.into_iter().next() {
            return Err(CatalogStoreError::Duplicate { id });
        }
        for chunk in products.chunks(INSERT_CHUNK) {
            let rows: Vec<ProductRow> = chunk.iter().map(ProductRow::from).collect();
            let outcome = tx
                .query("INSERT INTO product $rows RETURN NONE")
                .bind(("rows", rows))
                .await
                .and_then(surrealdb::IndexedResults::check);
            if let Err(e) = outcome {
                return Err(self.write_error(&e, products).await);
            }
        }
        Ok(())
    }

    /// Maps a failed product write; a clash with a record stored meanwhile names the product.
    async fn write_error(&self, e: &surrealdb::Error, products: &[Product]) -> CatalogStoreError {
        if !e.is_already_exists() {
            return refused_or_unavailable(e);
        }
        let ids = products.iter().map(|p| p.id.0.clone()).collect();
        match self.stored_among(None, ids).await {
            Ok(stored) if !stored.is_empty() => CatalogStoreError::Duplicate { id: stored[0].clone() },
            _ => CatalogStoreError::Duplicate { id: e.message().to_owned() },
        }
    }

    async fn count(&self, surql: String, vars: Vars) -> Result<u64, CatalogStoreError> {
        let mut query = self.db.query(surql);
        for var in vars {
            query = query.bind(var);
        }
        let rows: Vec<CountRow> = query.await.and_then(|mut r| r.take(0)).map_err(|e| unavailable(&e))?;
        Ok(rows.first().map_or(0, |row| u64::try_from(row.n).unwrap_or(0)))
    }
}

/// Bound parameters of a query: user input only ever reaches SurrealQL this way.
type Vars = Vec<(&'static str, surrealdb::types::Value)>;

fn int(n: impl TryInto<i64>) -> surrealdb::types::Value {
    surrealdb::types::Value::from_t(n.try_into().unwrap_or(i64::MAX))
}

fn text(s: &str) -> surrealdb::types::Value {
    surrealdb::types::Value::from_t(s.to_owned())
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
const SEARCH: &str = "
LET $words = search::analyze('product_query', $text)
    .filter(|$w| string::len($w) >= 2)
    .map(|$w| string::slice($w, 0, 10))
    .distinct();
LET $terms = array::join($words, ' ');
SELECT {FIELDS}, search::score(1) AS score, part_norm = $part AS part_hit FROM product
    WHERE part_norm = $part OR name @1@ $terms
    ORDER BY part_hit DESC, score DESC, id ASC
    LIMIT $limit START $offset;
SELECT count() AS n FROM product WHERE part_norm = $part OR name @1@ $terms GROUP ALL;
";

const LISTING: &str = "
SELECT {FIELDS} FROM product ORDER BY created_at DESC, id ASC LIMIT $limit START $offset;
SELECT count() AS n FROM product GROUP ALL;
";

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
                "FOR $b IN $rows { \
                   UPSERT type::record('brand', $b.id) CONTENT { name: $b.name, slug: $b.slug, image: $b.image } RETURN NONE; \
                 };",
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
                "FOR $c IN $rows { \
                   UPSERT type::record('category', $c.id) \
                     CONTENT { name: $c.name, slug: $c.slug, subcategories: $c.subcategories } RETURN NONE; \
                 };",
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

        let tx = self.db.clone().begin().await.map_err(|e| unavailable(&e))?;
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
        let surql = format!("SELECT {PRODUCT_FIELDS} FROM type::record('product', $id)");
        let found = self.select_products(surql, vec![("id", text(id.as_str()))]).await?;
        Ok(found.into_iter().next())
    }

    async fn newest_products(&self, limit: u32) -> Result<Vec<Product>, CatalogStoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let surql = format!("SELECT {PRODUCT_FIELDS} FROM product ORDER BY created_at DESC, id ASC LIMIT $limit");
        self.select_products(surql, vec![("limit", int(limit))]).await
    }

    async fn best_selling_products(&self, limit: u32) -> Result<Vec<Product>, CatalogStoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let surql = format!(
            "SELECT {PRODUCT_FIELDS} FROM product WHERE units_sold > 0 ORDER BY units_sold DESC, id ASC LIMIT $limit"
        );
        self.select_products(surql, vec![("limit", int(limit))]).await
    }

    async fn search(&self, query: &ProductQuery) -> Result<ProductSlice, CatalogStoreError> {
        let typed = query.text.trim();
        let (surql, mut vars) = if typed.is_empty() {
            (LISTING.replace("{FIELDS}", PRODUCT_FIELDS), Vars::new())
        } else {
            let part = normalize_part_number(typed);
            (SEARCH.replace("{FIELDS}", PRODUCT_FIELDS), vec![("text", text(typed)), ("part", text(&part))])
        };
        vars.push(("limit", int(query.limit)));
        vars.push(("offset", int(query.offset)));
        let (select, count) = if typed.is_empty() { (0, 1) } else { (2, 3) };

        let mut request = self.db.query(surql);
        for var in vars {
            request = request.bind(var);
        }
        let mut response = request.await.map_err(|e| unavailable(&e))?;
        let rows: Vec<ProductRow> = if query.limit == 0 {
            Vec::new()
        } else {
            response.take(select).map_err(|e| unavailable(&e))?
        };
        let counted: Vec<CountRow> = response.take(count).map_err(|e| unavailable(&e))?;
        Ok(ProductSlice {
            products: rows::products(rows)?,
            total: counted.first().map_or(0, |row| u64::try_from(row.n).unwrap_or(0)),
        })
    }

    async fn count_products(&self) -> Result<u64, CatalogStoreError> {
        self.count("SELECT count() AS n FROM product GROUP ALL".to_owned(), Vars::new()).await
    }
}
