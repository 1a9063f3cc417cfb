//! The catalog editor's use cases: products (create, edit, unpublish and publish, read and list,
//! published or not), categories with their subcategories, and brands.
//!
//! Each method asks [`Staff::require`] for its area first ([`Area::Products`],
//! [`Area::Categories`], [`Area::Brands`]); each write builds its [`AuditEntry`] here (the values
//! before and after as JSON objects of the fields that changed) and hands it to the
//! [`CatalogEditor`], which stores it in the same transaction as the change.

use std::sync::Arc;

use marque_domain::catalog::editor::{self, ProductDraft, ProductPatch};
use marque_domain::catalog::used;
use marque_domain::catalog::{Category, OemBrand, Product, ProductId, Subcategory};
use marque_domain::staff::{Area, Forbidden, Staff};
use marque_domain::Message;
use marque_ports::{
    Actor, AdminProductQuery, AuditEntry, CatalogEditor, CatalogEditorError, CatalogStore, CatalogStoreError, Clock,
    ProductSlice,
};
use serde_json::{Map, Value};

/// Why a catalog editor call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AdminCatalogError {
    /// The staff member's role does not cover the area.
    #[error(transparent)]
    Forbidden(#[from] Forbidden),
    /// A value the shop refuses (400), with its message.
    #[error("refused: {}", .0.code())]
    Invalid(Message),
    /// A SKU or slug another record has (409), with its message.
    #[error("taken: {}", .0.code())]
    Taken(Message),
    /// No product, category or brand has this id (`admin.product_not_found` for a product,
    /// `catalog.record_not_found` for a category or brand).
    #[error("not found: {}", .0.code())]
    NotFound(Message),
    /// The catalog store could not be reached.
    #[error("the catalog is unavailable: {0}")]
    Unavailable(String),
}

impl AdminCatalogError {
    /// The message a staff member reads.
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            AdminCatalogError::Forbidden(f) => f.message(),
            AdminCatalogError::Invalid(m) | AdminCatalogError::Taken(m) | AdminCatalogError::NotFound(m) => *m,
            AdminCatalogError::Unavailable(_) => Message::CatalogUnavailable,
        }
    }
}

impl From<CatalogEditorError> for AdminCatalogError {
    fn from(e: CatalogEditorError) -> Self {
        match e {
            // Products' calls answer their own not-found (see `product_error`).
            CatalogEditorError::NotFound { .. } => AdminCatalogError::NotFound(Message::CatalogRecordNotFound),
            CatalogEditorError::DuplicateSku { .. } => AdminCatalogError::Taken(Message::ProductSkuTaken),
            CatalogEditorError::SlugTaken { .. } => AdminCatalogError::Taken(Message::CatalogSlugTaken),
            // A fresh random id that clashes, or a value the schema refuses: the store's fault.
            CatalogEditorError::DuplicateId { id } => AdminCatalogError::Unavailable(format!("id {id} clashed")),
            CatalogEditorError::Invalid { reason } | CatalogEditorError::Unavailable { reason } => {
                AdminCatalogError::Unavailable(reason)
            }
        }
    }
}

impl From<CatalogStoreError> for AdminCatalogError {
    fn from(e: CatalogStoreError) -> Self {
        AdminCatalogError::Unavailable(e.to_string())
    }
}

/// A change to a category: a new name, a new slug, or both.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CategoryChange {
    pub name: Option<String>,
    pub slug: Option<String>,
}

/// A change to a brand: name, slug, logo, any of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BrandChange {
    pub name: Option<String>,
    pub slug: Option<String>,
    pub logo: Option<String>,
}

/// The catalog editor. Names, slugs and logos arrive parsed (`marque_domain::catalog::editor`).
#[derive(Clone)]
pub struct AdminCatalogService {
    editor: Arc<dyn CatalogEditor>,
    catalog: Arc<dyn CatalogStore>,
    clock: Arc<dyn Clock>,
}

impl std::fmt::Debug for AdminCatalogService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdminCatalogService").finish_non_exhaustive()
    }
}

/// A product call's failure: a product that is not there is `admin.product_not_found`, as in the
/// back office's stock and photograph calls.
fn product_error(e: CatalogEditorError) -> AdminCatalogError {
    match e {
        CatalogEditorError::NotFound { .. } => AdminCatalogError::NotFound(Message::AdminProductNotFound),
        other => other.into(),
    }
}

/// A fresh identifier: `prefix` and 12 random hex digits.
fn new_id(prefix: &str) -> Result<String, AdminCatalogError> {
    let mut bytes = [0u8; 6];
    getrandom::fill(&mut bytes).map_err(|e| AdminCatalogError::Unavailable(format!("no randomness: {e}")))?;
    Ok(format!("{prefix}{}", hex::encode(bytes)))
}

/// A record as a flat JSON object (a product's details beside its other fields).
fn flat(value: &impl serde::Serialize) -> Map<String, Value> {
    let mut map = match serde_json::to_value(value) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    if let Some(Value::Object(details)) = map.remove("details") {
        map.extend(details);
    }
    map
}

/// The fields that differ between `before` and `after`, as the two JSON texts of an audit entry.
fn changed(before: &impl serde::Serialize, after: &impl serde::Serialize) -> (Option<String>, Option<String>) {
    let (before, after) = (flat(before), flat(after));
    let mut was = Map::new();
    let mut now = Map::new();
    for (key, value) in &after {
        if before.get(key) != Some(value) {
            was.insert(key.clone(), before.get(key).cloned().unwrap_or(Value::Null));
            now.insert(key.clone(), value.clone());
        }
    }
    (Some(Value::Object(was).to_string()), Some(Value::Object(now).to_string()))
}

fn whole(record: &impl serde::Serialize) -> Option<String> {
    Some(Value::Object(flat(record)).to_string())
}

impl AdminCatalogService {
    #[must_use]
    pub fn new(editor: Arc<dyn CatalogEditor>, catalog: Arc<dyn CatalogStore>, clock: Arc<dyn Clock>) -> Self {
        Self { editor, catalog, clock }
    }

    fn entry(&self, staff: &Staff, action: &str, subject: String) -> AuditEntry {
        AuditEntry::new(self.clock.now(), Actor::staff(staff), action, subject)
    }

    /// Sets the category, subcategory and brand names of `product` from the slugs `patch` carries
    /// (the domain's [`editor::place`]), reading only the lists it needs.
    async fn place(&self, product: &mut Product, patch: &ProductPatch) -> Result<(), AdminCatalogError> {
        let categories = if patch.category_slug.is_some() || patch.subcategory_slug.is_some() {
            self.catalog.categories().await?
        } else {
            Vec::new()
        };
        let brands = if patch.oem_slug.is_some() { self.catalog.brands().await? } else { Vec::new() };
        editor::place(product, patch, &categories, &brands).map_err(AdminCatalogError::Invalid)
    }

    /// Adds a product with its opening stock (written as the stock ledger's opening entry).
    ///
    /// # Errors
    /// [`AdminCatalogError::Forbidden`] without [`Area::Products`]; `Invalid` for a category,
    /// subcategory or brand the shop does not have; `Taken` for a SKU in use; `Unavailable`.
    pub async fn create_product(&self, staff: &Staff, draft: ProductDraft) -> Result<Product, AdminCatalogError> {
        staff.require(Area::Products)?;
        let mut product = draft.product(ProductId(new_id("p")?), self.clock.now());
        used::check_used_fields(&product).map_err(AdminCatalogError::Invalid)?;
        self.place(&mut product, draft.fields()).await?;
        let entry =
            self.entry(staff, "product.create", format!("product:{}", product.id)).with_values(None, whole(&product));
        self.editor.create_product(&product, &entry).await?;
        Ok(product)
    }

    /// Changes the fields `patch` carries (never the stock); `published` unpublishes or publishes.
    /// Audited as `product.unpublish` / `product.publish` when only that changed, else `product.update`.
    ///
    /// # Errors
    /// `Forbidden`, `NotFound`, `Invalid` (placement), `Taken` (SKU), `Unavailable`.
    pub async fn update_product(
        &self,
        staff: &Staff,
        id: &ProductId,
        patch: &ProductPatch,
    ) -> Result<Product, AdminCatalogError> {
        staff.require(Area::Products)?;
        let before =
            self.editor.product(id).await?.ok_or(AdminCatalogError::NotFound(Message::AdminProductNotFound))?;
        let mut after = before.clone();
        patch.apply_to(&mut after);
        used::check_used_fields(&after).map_err(AdminCatalogError::Invalid)?;
        self.place(&mut after, patch).await?;
        let (was, now) = changed(&before, &after);
        let action = match (before.details.published, after.details.published) {
            (true, false) if now.as_deref() == Some(r#"{"published":false}"#) => "product.unpublish",
            (false, true) if now.as_deref() == Some(r#"{"published":true}"#) => "product.publish",
            _ => "product.update",
        };
        let entry = self.entry(staff, action, format!("product:{id}")).with_values(was, now);
        self.editor.update_product(&after, &entry).await.map_err(product_error)
    }

    /// One product, published or not.
    ///
    /// # Errors
    /// `Forbidden`, `NotFound`, `Unavailable`.
    pub async fn product(&self, staff: &Staff, id: &ProductId) -> Result<Product, AdminCatalogError> {
        staff.require(Area::Products)?;
        self.editor.product(id).await?.ok_or(AdminCatalogError::NotFound(Message::AdminProductNotFound))
    }

    /// One window of the products `query` matches, published or not.
    ///
    /// # Errors
    /// `Forbidden`, `Unavailable`.
    pub async fn products(&self, staff: &Staff, query: &AdminProductQuery) -> Result<ProductSlice, AdminCatalogError> {
        staff.require(Area::Products)?;
        Ok(self.editor.products(query).await?)
    }

    /// Every category with its subcategories (`others` included: the storefront hides it, not the store).
    ///
    /// # Errors
    /// `Forbidden`, `Unavailable`.
    pub async fn categories(&self, staff: &Staff) -> Result<Vec<Category>, AdminCatalogError> {
        staff.require(Area::Categories)?;
        Ok(self.catalog.categories().await?)
    }

    /// Adds a category without subcategories.
    ///
    /// # Errors
    /// `Forbidden`, `Taken` (slug), `Unavailable`.
    pub async fn create_category(
        &self,
        staff: &Staff,
        name: String,
        slug: String,
    ) -> Result<Category, AdminCatalogError> {
        staff.require(Area::Categories)?;
        let category = Category { id: new_id("c")?, name, slug, subcategories: Vec::new() };
        let entry = self
            .entry(staff, "category.create", format!("category:{}", category.id))
            .with_values(None, whole(&category));
        self.editor.create_category(&category, &entry).await?;
        Ok(category)
    }

    async fn stored_category(&self, id: &str) -> Result<Category, AdminCatalogError> {
        let categories = self.catalog.categories().await?;
        categories.into_iter().find(|c| c.id == id).ok_or(AdminCatalogError::NotFound(Message::CatalogRecordNotFound))
    }

    /// Renames a category or changes its slug; its products follow.
    ///
    /// # Errors
    /// `Forbidden`, `NotFound`, `Taken` (slug), `Unavailable`.
    pub async fn update_category(
        &self,
        staff: &Staff,
        id: &str,
        change: CategoryChange,
    ) -> Result<Category, AdminCatalogError> {
        staff.require(Area::Categories)?;
        let before = self.stored_category(id).await?;
        let after = Category {
            name: change.name.unwrap_or_else(|| before.name.clone()),
            slug: change.slug.unwrap_or_else(|| before.slug.clone()),
            ..before.clone()
        };
        let (was, now) = changed(&before, &after);
        let entry = self.entry(staff, "category.update", format!("category:{id}")).with_values(was, now);
        self.editor.update_category(&after, &entry).await?;
        Ok(after)
    }

    /// Adds a subcategory to a category; its slug must be new within the category.
    ///
    /// # Errors
    /// `Forbidden`, `NotFound`, `Taken` (slug), `Unavailable`.
    pub async fn add_subcategory(
        &self,
        staff: &Staff,
        category_id: &str,
        name: String,
        slug: String,
    ) -> Result<Category, AdminCatalogError> {
        staff.require(Area::Categories)?;
        let before = self.stored_category(category_id).await?;
        if before.subcategories.iter().any(|s| s.slug == slug) {
            return Err(AdminCatalogError::Taken(Message::CatalogSlugTaken));
        }
        let mut after = before.clone();
        after.subcategories.push(Subcategory { id: new_id("s")?, name, slug });
        let (was, now) = changed(&before, &after);
        let entry = self.entry(staff, "category.update", format!("category:{category_id}")).with_values(was, now);
        self.editor.update_category(&after, &entry).await?;
        Ok(after)
    }

    /// Every brand.
    ///
    /// # Errors
    /// `Forbidden`, `Unavailable`.
    pub async fn brands(&self, staff: &Staff) -> Result<Vec<OemBrand>, AdminCatalogError> {
        staff.require(Area::Brands)?;
        Ok(self.catalog.brands().await?)
    }

    /// Adds a brand with its logo.
    ///
    /// # Errors
    /// `Forbidden`, `Taken` (slug), `Unavailable`.
    pub async fn create_brand(
        &self,
        staff: &Staff,
        name: String,
        slug: String,
        logo: String,
    ) -> Result<OemBrand, AdminCatalogError> {
        staff.require(Area::Brands)?;
        let brand = OemBrand { id: new_id("b")?, name, slug, image: logo };
        let entry = self.entry(staff, "brand.create", format!("brand:{}", brand.id)).with_values(None, whole(&brand));
        self.editor.create_brand(&brand, &entry).await?;
        Ok(brand)
    }

    /// Changes a brand's name, slug or logo; its products follow its name and slug.
    ///
    /// # Errors
    /// `Forbidden`, `NotFound`, `Taken` (slug), `Unavailable`.
    pub async fn update_brand(
        &self,
        staff: &Staff,
        id: &str,
        change: BrandChange,
    ) -> Result<OemBrand, AdminCatalogError> {
        staff.require(Area::Brands)?;
        let brands = self.catalog.brands().await?;
        let before = brands
            .into_iter()
            .find(|b| b.id == id)
            .ok_or(AdminCatalogError::NotFound(Message::CatalogRecordNotFound))?;
        let after = OemBrand {
            name: change.name.unwrap_or_else(|| before.name.clone()),
            slug: change.slug.unwrap_or_else(|| before.slug.clone()),
            image: change.logo.unwrap_or_else(|| before.image.clone()),
            ..before.clone()
        };
        let (was, now) = changed(&before, &after);
        let entry = self.entry(staff, "brand.update", format!("brand:{id}")).with_values(was, now);
        self.editor.update_brand(&after, &entry).await?;
        Ok(after)
    }
}

#[cfg(test)]
mod tests;
