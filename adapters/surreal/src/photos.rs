//! Products' pictures as the back office sets them: the `images` field of a product (objects
//! since migration 16), written with its audit entry and a catalog version bump in one
//! transaction.

use async_trait::async_trait;
use marque_domain::catalog::{ImageFormat, ImageVariant, ProductId, ProductImage};
use marque_ports::{AuditEntry, ProductPhotos, ProductPhotosError};
use surrealdb::types::SurrealValue;

use crate::conn::Conn;

/// One picture as stored in a product's `images`.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(crate) struct ImageRow {
    name: String,
    width: Option<i64>,
    height: Option<i64>,
    variants: Vec<VariantRow>,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(crate) struct VariantRow {
    name: String,
    width: i64,
    height: i64,
    format: String,
}

impl From<&ProductImage> for ImageRow {
    fn from(image: &ProductImage) -> Self {
        ImageRow {
            name: image.name.clone(),
            width: image.width.map(i64::from),
            height: image.height.map(i64::from),
            variants: image
                .variants
                .iter()
                .map(|v| VariantRow {
                    name: v.name.clone(),
                    width: i64::from(v.width),
                    height: i64::from(v.height),
                    format: v.format.code().to_owned(),
                })
                .collect(),
        }
    }
}

impl ImageRow {
    /// The picture, or what about it cannot be read.
    pub(crate) fn into_image(self) -> Result<ProductImage, String> {
        let size = |n: i64| u32::try_from(n).map_err(|_| format!("size {n} of `{}`", self.name));
        let variants = self
            .variants
            .iter()
            .map(|v| {
                Ok(ImageVariant {
                    name: v.name.clone(),
                    width: size(v.width)?,
                    height: size(v.height)?,
                    format: ImageFormat::parse(&v.format).ok_or_else(|| format!("format {}", v.format))?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(ProductImage {
            width: self.width.map(size).transpose()?,
            height: self.height.map(size).transpose()?,
            name: self.name,
            variants,
        })
    }
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct ImagesRow {
    images: Vec<ImageRow>,
}

/// [`ProductPhotos`] on a SurrealDB connection. Get one from [`crate::Database::photos`].
#[derive(Debug, Clone)]
pub struct SurrealProductPhotos {
    db: Conn,
}

impl SurrealProductPhotos {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }
}

fn unavailable(e: &surrealdb::Error) -> ProductPhotosError {
    ProductPhotosError::Unavailable { reason: e.message().to_owned() }
}

/// The message the transaction throws for a missing product.
const NO_PRODUCT: &str = "photos: no such product";

#[async_trait]
impl ProductPhotos for SurrealProductPhotos {
    async fn images(&self, product: &ProductId) -> Result<Option<Vec<ProductImage>>, ProductPhotosError> {
        if product.as_str().is_empty() {
            return Ok(None);
        }
        // A product is in `product` or, unpublished, in `unpublished_product` (migration 14), never both.
        let mut answer = self
            .db
            .query(
                "SELECT images FROM type::record('product', $id); \
                 SELECT images FROM type::record('unpublished_product', $id);",
            )
            .bind(("id", product.0.clone()))
            .await
            .map_err(|e| unavailable(&e))?;
        let mut rows: Vec<ImagesRow> = answer.take(0).map_err(|e| unavailable(&e))?;
        if rows.is_empty() {
            rows = answer.take(1).map_err(|e| unavailable(&e))?;
        }
        rows.into_iter()
            .next()
            .map(|row| row.images.into_iter().map(ImageRow::into_image).collect::<Result<Vec<_>, _>>())
            .transpose()
            .map_err(|reason| ProductPhotosError::Unavailable {
                reason: format!("stored product `{product}` has an unreadable image: {reason}"),
            })
    }

    async fn set_images(
        &self,
        product: &ProductId,
        images: &[ProductImage],
        audit: &AuditEntry,
    ) -> Result<(), ProductPhotosError> {
        if product.as_str().is_empty() {
            return Err(ProductPhotosError::NotFound(product.clone()));
        }
        // Whichever of `product` and `unpublished_product` holds the id; the other UPDATE touches nothing.
        let surql = format!(
            "BEGIN; \
             LET $p = type::record('product', $id); \
             LET $u = type::record('unpublished_product', $id); \
             IF !record::exists($p) AND !record::exists($u) {{ THROW '{NO_PRODUCT}' }}; \
             IF record::exists($p) {{ UPDATE $p SET images = $images RETURN NONE; }} \
             ELSE {{ UPDATE $u SET images = $images RETURN NONE; }}; \
             {} \
             {} \
             COMMIT;",
            crate::catalog::RECORD_CHANGE,
            crate::audit::WRITE
        );
        // Pictures are shown in every answer holding the product, and move nothing else.
        let change = crate::catalog::CatalogChangeRow::from(&marque_ports::CatalogChange::shown(product));
        let rows: Vec<ImageRow> = images.iter().map(ImageRow::from).collect();
        crate::accounts::transaction_retrying(|| {
            self.db
                .query(surql.clone())
                .bind(("id", product.0.clone()))
                .bind(("images", rows.clone()))
                .bind(("change", change.clone()))
                .bind(crate::audit::bind(audit))
        })
        .await
        .map_err(|e| {
            if e.message().contains(NO_PRODUCT) {
                ProductPhotosError::NotFound(product.clone())
            } else {
                unavailable(&e)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use marque_domain::catalog::{Condition, Product};
    use marque_domain::{Money, PartNumber};
    use marque_ports::{Actor, CatalogStore};

    use super::*;

    async fn audit_rows(db: &crate::Database) -> Vec<(String, String)> {
        let mut answer =
            db.db.query("SELECT action, subject FROM audit ORDER BY action").await.expect("read the trail");
        let rows: Vec<surrealdb::types::Value> = answer.take(0).expect("rows");
        rows.into_iter()
            .map(|row| {
                let json = row.into_json_value();
                let field = |name: &str| json[name].as_str().expect("a text field").to_owned();
                (field("action"), field("subject"))
            })
            .collect()
    }

    #[tokio::test]
    async fn each_write_leaves_its_audit_row_and_a_refused_one_none() {
        let db = crate::Database::connect("mem://").await.expect("mem://");
        let product = Product {
            id: ProductId("p1".into()),
            name: "Disc".into(),
            price: Money::from_rupees(10),
            quantity: 1,
            condition: Condition::New,
            images: vec!["/a.svg".into()],
            description: String::new(),
            category: "Brakes".into(),
            category_slug: "brakes".into(),
            subcategory: "Discs".into(),
            subcategory_slug: "discs".into(),
            oem: "BMW".into(),
            oem_slug: "bmw".into(),
            fuel_type: None,
            variant: String::new(),
            part_no: PartNumber::parse("34116792217").expect("a part number"),
            inside_ncr: Money::ZERO,
            outside_ncr: Money::ZERO,
            gst_percent: 18,
            units_sold: 0,
            created_at: 0,
            details: marque_domain::catalog::ProductDetails {
                sku: "p1".into(),
                ..marque_domain::catalog::ProductDetails::default()
            },
        };
        db.catalog().add_products(&[product]).await.expect("add a product");
        let photos = db.photos();
        let audit = |action: &str, subject: &str| AuditEntry::new(1, Actor::System("test".into()), action, subject);
        photos.set_images(&ProductId("p1".into()), &[], &audit("photo.remove", "product:p1")).await.expect("set");
        let refused = photos.set_images(&ProductId("nope".into()), &[], &audit("photo.add", "product:nope")).await;
        assert!(matches!(refused, Err(ProductPhotosError::NotFound(_))), "{refused:?}");
        assert_eq!(audit_rows(&db).await, vec![("photo.remove".to_owned(), "product:p1".to_owned())]);
    }

    /// Migration 16 on products stored before it: each address becomes `{name, variants: []}`, in
    /// order, and a second run changes nothing.
    #[tokio::test]
    async fn pictures_stored_as_addresses_become_objects_with_their_address() {
        let db = surrealdb::engine::any::connect("mem://").await.expect("open mem://");
        db.use_ns("t").use_db("t").await.expect("use");
        let run = |surql: &'static str| {
            let db = db.clone();
            async move { db.query(surql).await.and_then(surrealdb::IndexedResults::check).expect("a migration") }
        };
        run(include_str!("schema/0001_catalog.surql")).await;
        run("CREATE product:old CONTENT { name: 'Disc', price: 100, quantity: 1, condition: 'new', \
             images: ['/media/parts/disc-1.svg', '/media/parts/disc-2.svg'], description: '', category: 'B', \
             category_slug: 'b', subcategory: 'D', subcategory_slug: 'd', oem: 'O', oem_slug: 'o', variant: '', \
             part_no: 'X1', part_norm: 'X1', inside_ncr: 0, outside_ncr: 0, gst_percent: 18, units_sold: 0, \
             created_at: 0 } RETURN NONE;")
        .await;
        let conn = crate::conn::Conn::Any(db.clone());
        for _ in 0..2 {
            crate::schema::apply_unrecorded(&conn, 16).await.expect("migration 16");
        }
        let images: Vec<surrealdb::types::Value> =
            db.query("SELECT VALUE images FROM product:old").await.and_then(|mut r| r.take(0)).expect("read");
        let images = images.into_iter().next().expect("the product").into_json_value();
        assert_eq!(
            images.to_string(),
            r#"[{"name":"/media/parts/disc-1.svg","variants":[]},{"name":"/media/parts/disc-2.svg","variants":[]}]"#
        );
    }
}
