//! The `ProductPhotos` contract: a product's pictures set in order, every field of each picture
//! kept, the catalog's changes told (so caches forget the product), and an unknown product
//! refused without a write.

use marque_domain::catalog::{ProductId, ProductImage};
use marque_ports::{Actor, AuditEntry, CatalogChanges, CatalogStore, ProductPhotos, ProductPhotosError};

use crate::fixtures::{photo, product};

fn entry(action: &str, product: &str) -> AuditEntry {
    AuditEntry::new(1_780_000_000, Actor::System("contract".into()), action, format!("product:{product}"))
        .with_values(Some("{\"images\":[]}".into()), Some("{\"images\":[\"a\"]}".into()))
}

async fn version(changes: &dyn CatalogChanges) -> u64 {
    changes.catalog_version().await.unwrap_or_else(|e| panic!("catalog_version: {e}")).version
}

/// `set_images` replaces the pictures in the order given, keeping each one's size and variants;
/// the catalog store reads the same pictures back, and the catalog's changes name the product.
pub async fn images_are_set_in_order_and_tell_the_catalog_changes(
    photos: &dyn ProductPhotos,
    catalog: &dyn CatalogStore,
    changes: &dyn CatalogChanges,
) {
    catalog.add_products(&[product("ph1").build()]).await.expect("add_products");
    let id = ProductId("ph1".into());
    let seeded = photos.images(&id).await.expect("images").expect("the product exists");
    assert_eq!(seeded, vec![ProductImage::plain("/images/ph1.jpg")], "a plain picture reads back as one");

    let wanted = vec![photo("ph1", "b2"), ProductImage::plain("/images/ph1.jpg"), photo("ph1", "a1")];
    let before = changes.catalog_version().await.expect("catalog_version");
    photos.set_images(&id, &wanted, &entry("photo.add", "ph1")).await.expect("set_images");
    let seen = crate::catalog_changes::after_write(changes, &before).await;
    crate::catalog_changes::assert_seen(&seen, "setting pictures", |c| c.products == vec![id.clone()]);
    assert_eq!(photos.images(&id).await.expect("images"), Some(wanted.clone()));
    let read = catalog.product(&id).await.expect("product").expect("the product");
    assert_eq!(read.images, wanted, "the catalog reads every field of each picture");

    let reordered = vec![wanted[2].clone(), wanted[0].clone()];
    photos.set_images(&id, &reordered, &entry("photo.remove", "ph1")).await.expect("set_images again");
    assert_eq!(photos.images(&id).await.expect("images"), Some(reordered));

    photos.set_images(&id, &[], &entry("photo.remove", "ph1")).await.expect("no pictures at all");
    assert_eq!(photos.images(&id).await.expect("images"), Some(vec![]));
}

/// An unknown product has no pictures to read, and setting its pictures is `NotFound` and
/// moves nothing.
pub async fn an_unknown_product_is_not_found(photos: &dyn ProductPhotos, changes: &dyn CatalogChanges) {
    let ghost = ProductId("ghost".into());
    assert_eq!(photos.images(&ghost).await.expect("images"), None);
    assert_eq!(photos.images(&ProductId(String::new())).await.expect("an empty id"), None);
    let before = version(changes).await;
    let refused = photos.set_images(&ghost, &[photo("ghost", "x")], &entry("photo.add", "ghost")).await;
    assert_eq!(refused, Err(ProductPhotosError::NotFound(ghost.clone())));
    assert_eq!(photos.images(&ghost).await.expect("images"), None, "no product is created");
    assert_eq!(version(changes).await, before, "a refused write moves nothing");
}
