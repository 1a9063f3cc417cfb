use std::sync::{Arc, Mutex};

use marque_domain::catalog::ProductId;
use marque_domain::order::ReturnState;
use marque_domain::Money;
use marque_ports::{
    AccountStoreError, AddressStoreError, BlobStoreError, GarageStoreError, MockAccountStore, MockAddressStore,
    MockBlobStore, MockGarageStore, MockOrderStore, MockReturnStore, MockStoreCreditStore, MockWishlistStore, OrderId,
    ReturnStoreError, UserId, WishlistStoreError,
};

use super::*;

fn asha(profile: &str) -> UserRecord {
    UserRecord {
        id: UserId("u1".into()),
        name: "Asha".into(),
        email: "asha@example.in".into(),
        google_email: None,
        mobile: "9876543210".into(),
        password_hash: None,
        profile: profile.into(),
        email_verified: true,
        mobile_verified: true,
        offer_ends_on: None,
        percentage: 0,
        created_at: 1_800_000_000,
    }
}

type Stores = (
    MockAccountStore,
    MockAddressStore,
    MockWishlistStore,
    MockGarageStore,
    MockOrderStore,
    MockReturnStore,
    MockStoreCreditStore,
    MockBlobStore,
);

/// A return of Asha's with `photos` photographs.
fn asked_back(id: &str, photos: usize) -> ProductReturn {
    ProductReturn {
        id: id.into(),
        order: OrderId("o1".into()),
        order_number: "MQ-000001".into(),
        customer: UserId("u1".into()),
        product: ProductId("p1".into()),
        product_name: "Brake disc".into(),
        quantity: 1,
        reason: "The disc is warped out of the box".into(),
        photos: (1..=photos).map(|n| format!("returns/{id}-{n}.jpg")).collect(),
        delivered_at: 1_800_000_000,
        warranty_days: 7,
        state: ReturnState::Resolved,
        note: None,
        resolution_note: None,
        outcome: None,
        restock: false,
        amount: None,
        refund: None,
        replacement_order: None,
        created_at: 1_800_003_600,
        updated_at: 1_800_003_600,
        handled_by: None,
        version: 3,
    }
}

/// Stores that note, in order, what was erased; `fail` names the one that is down.
fn stores(done: &Arc<Mutex<Vec<String>>>, fail: &str) -> Stores {
    let note = |what: &str| {
        let done = done.clone();
        let what = what.to_owned();
        move || done.lock().expect("lock").push(what.clone())
    };
    let (mut accounts, mut addresses, mut wishlist, mut garage, orders, mut returns, credit, mut blobs) = (
        MockAccountStore::new(),
        MockAddressStore::new(),
        MockWishlistStore::new(),
        MockGarageStore::new(),
        MockOrderStore::new(),
        MockReturnStore::new(),
        MockStoreCreditStore::new(),
        MockBlobStore::new(),
    );
    let (down_addresses, down_wishlist, down_garage, down_blobs, down_accounts, down_returns) = (
        fail == "addresses",
        fail == "wishlist",
        fail == "garage",
        fail == "blobs",
        fail == "accounts",
        fail == "returns",
    );
    let n = note("addresses");
    addresses.expect_remove_all().returning(move |u| {
        assert_eq!(u.0, "u1");
        n();
        if down_addresses {
            Err(AddressStoreError::Unavailable { reason: "down".into() })
        } else {
            Ok(())
        }
    });
    let n = note("wishlist");
    wishlist.expect_clear().returning(move |_| {
        n();
        if down_wishlist {
            Err(WishlistStoreError::Unavailable { reason: "down".into() })
        } else {
            Ok(())
        }
    });
    let n = note("garage");
    garage.expect_clear().returning(move |_| {
        n();
        if down_garage {
            Err(GarageStoreError::Unavailable { reason: "down".into() })
        } else {
            Ok(())
        }
    });
    returns.expect_returns_of().returning(|u| {
        assert_eq!(u.0, "u1");
        Ok(vec![asked_back("r2", 2), asked_back("r1", 0)])
    });
    let n = note("returns");
    returns.expect_forget_customer().returning(move |u| {
        assert_eq!(u.0, "u1");
        n();
        if down_returns {
            Err(ReturnStoreError::Unavailable { reason: "down".into() })
        } else {
            Ok(2)
        }
    });
    let done_blobs = done.clone();
    blobs.expect_delete().returning(move |key| {
        done_blobs.lock().expect("lock").push(format!("blob {key}"));
        if down_blobs {
            Err(BlobStoreError::Unavailable { reason: "down".into() })
        } else {
            Ok(())
        }
    });
    let n = note("account");
    accounts.expect_erase_user().returning(move |_| {
        n();
        if down_accounts {
            Err(AccountStoreError::Unavailable { reason: "down".into() })
        } else {
            Ok(())
        }
    });
    (accounts, addresses, wishlist, garage, orders, returns, credit, blobs)
}

fn service(s: Stores) -> PrivacyService {
    PrivacyService::new(
        Arc::new(s.0),
        Arc::new(s.1),
        Arc::new(s.2),
        Arc::new(s.3),
        Arc::new(s.4),
        Arc::new(s.5),
        Arc::new(s.6),
        Arc::new(s.7),
        Arc::new(marque_ports::SystemClock),
    )
}

#[tokio::test]
async fn erasure_removes_addresses_wishlist_return_photos_and_picture_then_the_account() {
    let done = Arc::new(Mutex::new(Vec::new()));
    let privacy = service(stores(&done, ""));
    privacy.erase(&asha("/media/avatars/u1-0a0b.png")).await.expect("erased");
    assert_eq!(
        *done.lock().expect("lock"),
        [
            "addresses",
            "wishlist",
            "garage",
            "blob returns/r2-1.jpg",
            "blob returns/r2-2.jpg",
            "returns",
            "blob avatars/u1-0a0b.png",
            "account"
        ],
        "the returns' photographs are deleted before their keys are forgotten"
    );

    done.lock().expect("lock").clear();
    privacy.erase(&asha("")).await.expect("erased");
    assert_eq!(
        *done.lock().expect("lock"),
        ["addresses", "wishlist", "garage", "blob returns/r2-1.jpg", "blob returns/r2-2.jpg", "returns", "account"],
        "no picture, nothing more to delete"
    );
}

#[tokio::test]
async fn a_store_that_is_down_stops_the_erasure_before_the_account_goes() {
    for down in ["addresses", "wishlist", "garage", "blobs", "returns"] {
        let done = Arc::new(Mutex::new(Vec::new()));
        let outcome = service(stores(&done, down)).erase(&asha("/media/avatars/u1-0a0b.png")).await;
        assert!(matches!(outcome, Err(PrivacyError::Unavailable(_))), "{down}: {outcome:?}");
        assert!(!done.lock().expect("lock").contains(&"account".to_owned()), "{down}: the customer can ask again");
    }
    let done = Arc::new(Mutex::new(Vec::new()));
    assert!(service(stores(&done, "accounts")).erase(&asha("")).await.is_err());
}

#[tokio::test]
async fn a_photo_that_cannot_be_deleted_keeps_the_returns_keys_to_delete_again() {
    let done = Arc::new(Mutex::new(Vec::new()));
    let outcome = service(stores(&done, "blobs")).erase(&asha("")).await;
    assert!(matches!(outcome, Err(PrivacyError::Unavailable(_))), "{outcome:?}");
    assert_eq!(*done.lock().expect("lock"), ["addresses", "wishlist", "garage", "blob returns/r2-1.jpg"]);
}

#[tokio::test]
async fn the_export_holds_the_returns_with_their_photos_and_the_store_credit_grants() {
    let done = Arc::new(Mutex::new(Vec::new()));
    let (mut accounts, mut addresses, mut wishlist, mut garage, mut orders, returns, mut credit, blobs) =
        stores(&done, "");
    accounts.checkpoint();
    addresses.expect_addresses().returning(|_| Ok(Vec::new()));
    wishlist.expect_wishlist().returning(|_| Ok(Vec::new()));
    garage.expect_garage().returning(|_| Ok(Vec::new()));
    orders.expect_orders_of().returning(|_| Ok(Vec::new()));
    let grant = StoredGrant {
        id: "g1".into(),
        amount: Money::from_paise(90_000),
        remaining: Money::from_paise(40_000),
        granted_at: 1_800_010_000,
        expires_at: 1_815_000_000,
        source: "return:r2".into(),
    };
    let kept = grant.clone();
    credit.expect_grants().returning(move |u| {
        assert_eq!(u.0, "u1");
        Ok(vec![kept.clone()])
    });
    let export = service((accounts, addresses, wishlist, garage, orders, returns, credit, blobs))
        .export(&asha(""))
        .await
        .expect("exported");
    assert_eq!(export.returns.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["r2", "r1"]);
    assert_eq!(export.returns[0].photos, ["returns/r2-1.jpg", "returns/r2-2.jpg"]);
    assert_eq!(export.store_credit, [grant]);
    assert!(done.lock().expect("lock").is_empty(), "an export erases nothing");
}
