use std::sync::{Arc, Mutex};

use marque_domain::staff::{StaffId, StaffRole};
use marque_ports::{EncodedPhoto, EncodedVariant, MockBlobStore, MockPhotoEncoder, MockProductPhotos};
use mockall::predicate::eq;

use super::*;

struct At(i64);

impl Clock for At {
    fn now(&self) -> i64 {
        self.0
    }
}

fn staff(role: StaffRole) -> Staff {
    Staff { id: StaffId("s1".into()), email: "cat@marque.test".into(), name: "Cat".into(), role }
}

fn pid() -> ProductId {
    ProductId("p000001".into())
}

/// What the encoder gives for one upload: 320 and 640 pixels wide, WebP and JPEG.
fn encoded() -> EncodedPhoto {
    let v =
        |width: u32, format: ImageFormat| EncodedVariant { width, height: width * 3 / 4, format, bytes: vec![1, 2, 3] };
    EncodedPhoto {
        width: 4000,
        height: 3000,
        variants: vec![
            v(320, ImageFormat::Jpeg),
            v(320, ImageFormat::Webp),
            v(640, ImageFormat::Jpeg),
            v(640, ImageFormat::Webp),
        ],
    }
}

fn encoder_ok(times: usize) -> MockPhotoEncoder {
    let mut encoder = MockPhotoEncoder::new();
    encoder.expect_encode().times(times).returning(|_| Ok(encoded()));
    encoder
}

fn photos_with(images: Vec<ProductImage>) -> MockProductPhotos {
    let mut photos = MockProductPhotos::new();
    photos.expect_images().with(eq(pid())).returning(move |_| Ok(Some(images.clone())));
    photos
}

/// A blob store that records what it holds.
fn blobs(held: &Arc<Mutex<Vec<String>>>) -> MockBlobStore {
    let mut blobs = MockBlobStore::new();
    let put = held.clone();
    blobs.expect_put().returning(move |key, _| {
        put.lock().expect("lock").push(key.to_owned());
        Ok(())
    });
    let deleted = held.clone();
    blobs.expect_delete().returning(move |key| {
        deleted.lock().expect("lock").retain(|k| k != key);
        Ok(())
    });
    blobs
}

fn service(photos: MockProductPhotos, encoder: MockPhotoEncoder, blobs: MockBlobStore) -> PhotosService {
    PhotosService::new(Arc::new(photos), Arc::new(encoder), Arc::new(blobs), Arc::new(At(1_780_000_000)))
}

#[tokio::test]
async fn added_photographs_keep_their_variants_and_are_saved_with_their_audit_entry() {
    let held = Arc::new(Mutex::new(Vec::new()));
    let mut photos = photos_with(vec![ProductImage::plain("/media/parts/disc-1.svg")]);
    photos
        .expect_set_images()
        .withf(|product, images, audit| {
            product == &pid()
                && images.len() == 3
                && audit.action == "photo.add"
                && audit.subject == "product:p000001"
                && audit.at == 1_780_000_000
                && audit.before.as_deref() == Some(r#"{"images":["/media/parts/disc-1.svg"]}"#)
                && audit.after.as_deref().is_some_and(|a| a.contains("/media/products/p000001/"))
        })
        .times(1)
        .returning(|_, _, _| Ok(()));
    let service = service(photos, encoder_ok(2), blobs(&held));
    let images = service.add(&staff(StaffRole::Catalog), &pid(), vec![vec![1], vec![2]]).await.expect("added");
    assert_eq!(images.len(), 3);
    assert_eq!(images[0], ProductImage::plain("/media/parts/disc-1.svg"), "earlier pictures stay first");
    let new = &images[1];
    assert_eq!((new.width, new.height), (Some(4000), Some(3000)));
    assert_eq!(new.variants.len(), 4);
    assert!(new.name.starts_with("/media/products/p000001/") && new.name.ends_with("-640.jpeg"), "{}", new.name);
    assert_eq!(new.id().len(), 16);
    assert_ne!(images[1].id(), images[2].id(), "each photograph has its own id");
    let held = held.lock().expect("lock");
    assert_eq!(held.len(), 8, "four variants of each of two photographs");
    for v in images[1..].iter().flat_map(|i| &i.variants) {
        let key = v.name.strip_prefix('/').and_then(|k| k.strip_prefix("media/")).expect("under /media/");
        assert!(held.contains(&key.to_owned()), "{key} is stored");
    }
}

#[tokio::test]
async fn a_refused_file_keeps_nothing_of_the_upload() {
    let held = Arc::new(Mutex::new(Vec::new()));
    let mut encoder = MockPhotoEncoder::new();
    let mut calls = 0;
    encoder.expect_encode().times(2).returning(move |_| {
        calls += 1;
        if calls == 1 {
            Ok(encoded())
        } else {
            Err(PhotoEncodeError::NotAnImage("not a picture".into()))
        }
    });
    let mut photos = photos_with(vec![]);
    photos.expect_set_images().never();
    let service = service(photos, encoder, blobs(&held));
    let refused = service.add(&staff(StaffRole::Owner), &pid(), vec![vec![1], b"text".to_vec()]).await;
    assert_eq!(refused.as_ref().map_err(UserFacing::message), Err(Message::PhotoInvalid));
    assert!(held.lock().expect("lock").is_empty(), "the first photograph's files are deleted again");
}

#[tokio::test]
async fn a_failed_save_deletes_the_new_files() {
    let held = Arc::new(Mutex::new(Vec::new()));
    let mut photos = photos_with(vec![]);
    photos.expect_set_images().returning(|_, _, _| Err(ProductPhotosError::Unavailable { reason: "down".into() }));
    let service = service(photos, encoder_ok(1), blobs(&held));
    let refused = service.add(&staff(StaffRole::Catalog), &pid(), vec![vec![1]]).await;
    assert!(matches!(refused, Err(PhotosError::Unavailable(_))), "{refused:?}");
    assert!(held.lock().expect("lock").is_empty());
}

#[tokio::test]
async fn counts_and_sizes_are_checked_before_anything_is_encoded() {
    let full: Vec<ProductImage> = (0..11).map(|i| ProductImage::plain(format!("/a{i}.svg"))).collect();
    let mut photos = photos_with(full);
    photos.expect_set_images().never();
    let mut encoder = MockPhotoEncoder::new();
    encoder.expect_encode().never();
    let mut store = MockBlobStore::new();
    store.expect_put().never();
    let service = service(photos, encoder, store);
    let catalog = staff(StaffRole::Catalog);
    let e = service.add(&catalog, &pid(), vec![vec![1], vec![2]]).await.expect_err("13 in all");
    assert_eq!(e, PhotosError::Count(13));
    assert_eq!(e.message(), Message::PhotoCount);
    let e = service.add(&catalog, &pid(), vec![]).await.expect_err("no file");
    assert_eq!(e, PhotosError::Count(0));
    let e = service.add(&catalog, &pid(), vec![vec![0; MAX_PHOTO_FILE_BYTES + 1]]).await.expect_err("too big");
    assert_eq!(e.message(), Message::PhotoTooLarge);
}

#[tokio::test]
async fn every_call_refuses_a_fulfilment_role_before_reading_anything() {
    let mut photos = MockProductPhotos::new();
    photos.expect_images().never();
    photos.expect_set_images().never();
    let mut encoder = MockPhotoEncoder::new();
    encoder.expect_encode().never();
    let service = service(photos, encoder, MockBlobStore::new());
    let who = staff(StaffRole::Fulfilment);
    let forbidden = |r: Result<Vec<ProductImage>, PhotosError>| {
        assert!(matches!(r, Err(PhotosError::Forbidden(_))), "{r:?}");
    };
    forbidden(service.add(&who, &pid(), vec![vec![1]]).await);
    forbidden(service.reorder(&who, &pid(), &[]).await);
    forbidden(service.remove(&who, &pid(), "x").await);
    let e = service.remove(&who, &pid(), "x").await.expect_err("forbidden");
    assert_eq!(e.message(), Message::StaffForbidden);
}

#[tokio::test]
async fn an_unknown_product_is_not_found_and_a_down_store_unavailable() {
    let mut photos = MockProductPhotos::new();
    photos.expect_images().with(eq(ProductId("nope".into()))).returning(|_| Ok(None));
    photos
        .expect_images()
        .with(eq(pid()))
        .returning(|_| Err(ProductPhotosError::Unavailable { reason: "down".into() }));
    let mut encoder = MockPhotoEncoder::new();
    encoder.expect_encode().never();
    let service = service(photos, encoder, MockBlobStore::new());
    let owner = staff(StaffRole::Owner);
    let e = service.remove(&owner, &ProductId("nope".into()), "x").await.expect_err("no product");
    assert_eq!(e.message(), Message::AdminProductNotFound);
    let e = service.add(&owner, &ProductId("nope".into()), vec![vec![1]]).await.expect_err("no product");
    assert_eq!(e, PhotosError::ProductNotFound);
    let e = service.reorder(&owner, &pid(), &[]).await.expect_err("store down");
    assert!(matches!(e, PhotosError::Unavailable(_)), "{e:?}");
}

fn uploaded(id: &str) -> ProductImage {
    let variant = |width: u32, format: ImageFormat| ImageVariant {
        name: format!("/media/products/p000001/{id}-{width}.{}", format.code()),
        width,
        height: width * 3 / 4,
        format,
    };
    ProductImage {
        name: format!("/media/products/p000001/{id}-640.jpeg"),
        width: Some(640),
        height: Some(480),
        variants: vec![variant(640, ImageFormat::Webp), variant(640, ImageFormat::Jpeg)],
    }
}

#[tokio::test]
async fn a_new_order_must_name_each_picture_once() {
    let (a, b, c) = (uploaded("aaaa"), uploaded("bbbb"), ProductImage::plain("/media/parts/disc-1.svg"));
    let mut photos = photos_with(vec![a.clone(), b.clone(), c.clone()]);
    let wanted = vec![c.clone(), a.clone(), b.clone()];
    let saved = wanted.clone();
    photos
        .expect_set_images()
        .withf(move |_, images, audit| images == saved.as_slice() && audit.action == "photo.reorder")
        .times(1)
        .returning(|_, _, _| Ok(()));
    let service = service(photos, MockPhotoEncoder::new(), MockBlobStore::new());
    let who = staff(StaffRole::Catalog);
    let names = |list: &[&ProductImage]| list.iter().map(|i| i.name.clone()).collect::<Vec<_>>();
    let done = service.reorder(&who, &pid(), &names(&[&c, &a, &b])).await.expect("reordered");
    assert_eq!(done, wanted);
    for bad in [names(&[&c, &a]), names(&[&c, &a, &a]), vec![c.name.clone(), a.name.clone(), "/x.jpg".into()]] {
        let e = service.reorder(&who, &pid(), &bad).await.expect_err("not each once");
        assert_eq!(e.message(), Message::PhotoOrderInvalid, "{bad:?}");
    }
}

#[tokio::test]
async fn a_removed_photograph_loses_its_files_after_the_save() {
    let (a, b) = (uploaded("aaaa"), uploaded("bbbb"));
    let held = Arc::new(Mutex::new(vec![
        "products/p000001/aaaa-640.webp".to_owned(),
        "products/p000001/aaaa-640.jpeg".to_owned(),
        "products/p000001/bbbb-640.jpeg".to_owned(),
    ]));
    let saved = Arc::new(Mutex::new(false));
    let mut photos = photos_with(vec![a.clone(), b.clone()]);
    let kept = b.clone();
    let flag = saved.clone();
    photos
        .expect_set_images()
        .withf(move |_, images, audit| images == [kept.clone()] && audit.action == "photo.remove")
        .times(1)
        .returning(move |_, _, _| {
            *flag.lock().expect("lock") = true;
            Ok(())
        });
    let mut store = MockBlobStore::new();
    let deleted = held.clone();
    let after_save = saved.clone();
    store.expect_delete().returning(move |key| {
        assert!(*after_save.lock().expect("lock"), "files go only after the save");
        deleted.lock().expect("lock").retain(|k| k != key);
        Ok(())
    });
    let service = service(photos, MockPhotoEncoder::new(), store);
    let who = staff(StaffRole::Catalog);
    let e = service.remove(&who, &pid(), "cccc").await.expect_err("no such photograph");
    assert_eq!(e.message(), Message::PhotoNotFound);
    let left = service.remove(&who, &pid(), "aaaa").await.expect("removed");
    assert_eq!(left, vec![b]);
    assert_eq!(*held.lock().expect("lock"), vec!["products/p000001/bbbb-640.jpeg".to_owned()]);
}

#[tokio::test]
async fn files_are_served_by_their_extension_and_odd_names_are_none() {
    let mut store = MockBlobStore::new();
    store.expect_get().with(eq("products/p1/ab-320.webp")).returning(|_| Ok(Some(vec![7])));
    store.expect_get().with(eq("products/p1/ab-999.jpeg")).returning(|_| Ok(None));
    let service = service(MockProductPhotos::new(), MockPhotoEncoder::new(), store);
    assert_eq!(service.file("p1", "ab-320.webp").await.expect("read"), Some((vec![7], ImageFormat::Webp)));
    assert_eq!(service.file("p1", "ab-999.jpeg").await.expect("read"), None);
    assert_eq!(service.file("p1", "ab-320.gif").await.expect("not a photograph's file"), None);
}
