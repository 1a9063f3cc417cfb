use std::sync::{Arc, Mutex};

use marque_ports::{
    AccountStoreError, AddressStoreError, BlobStoreError, GarageStoreError, MockAccountStore, MockAddressStore,
    MockBlobStore, MockGarageStore, MockOrderStore, MockWishlistStore, UserId, WishlistStoreError,
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

type Stores = (MockAccountStore, MockAddressStore, MockWishlistStore, MockGarageStore, MockOrderStore, MockBlobStore);

/// Stores that note, in order, what was erased; `fail` names the one that is down.
fn stores(done: &Arc<Mutex<Vec<String>>>, fail: &str) -> Stores {
    let note = |what: &str| {
        let done = done.clone();
        let what = what.to_owned();
        move || done.lock().expect("lock").push(what.clone())
    };
    let (mut accounts, mut addresses, mut wishlist, mut garage, orders, mut blobs) = (
        MockAccountStore::new(),
        MockAddressStore::new(),
        MockWishlistStore::new(),
        MockGarageStore::new(),
        MockOrderStore::new(),
        MockBlobStore::new(),
    );
    let (down_addresses, down_wishlist, down_garage, down_blobs, down_accounts) =
        (fail == "addresses", fail == "wishlist", fail == "garage", fail == "blobs", fail == "accounts");
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
    let done_blobs = done.clone();
    blobs.expect_delete().returning(move |key| {
        done_blobs.lock().expect("lock").push(format!("picture {key}"));
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
    (accounts, addresses, wishlist, garage, orders, blobs)
}

fn service(s: Stores) -> PrivacyService {
    PrivacyService::new(
        Arc::new(s.0),
        Arc::new(s.1),
        Arc::new(s.2),
        Arc::new(s.3),
        Arc::new(s.4),
        Arc::new(s.5),
        Arc::new(marque_ports::SystemClock),
    )
}

#[tokio::test]
async fn erasure_removes_addresses_wishlist_and_picture_then_the_account() {
    let done = Arc::new(Mutex::new(Vec::new()));
    let privacy = service(stores(&done, ""));
    privacy.erase(&asha("/media/avatars/u1-0a0b.png")).await.expect("erased");
    assert_eq!(
        *done.lock().expect("lock"),
        ["addresses", "wishlist", "garage", "picture avatars/u1-0a0b.png", "account"]
    );

    done.lock().expect("lock").clear();
    privacy.erase(&asha("")).await.expect("erased");
    assert_eq!(
        *done.lock().expect("lock"),
        ["addresses", "wishlist", "garage", "account"],
        "no picture, nothing to delete"
    );
}

#[tokio::test]
async fn a_store_that_is_down_stops_the_erasure_before_the_account_goes() {
    for down in ["addresses", "wishlist", "garage", "blobs"] {
        let done = Arc::new(Mutex::new(Vec::new()));
        let outcome = service(stores(&done, down)).erase(&asha("/media/avatars/u1-0a0b.png")).await;
        assert!(matches!(outcome, Err(PrivacyError::Unavailable(_))), "{down}: {outcome:?}");
        assert!(!done.lock().expect("lock").contains(&"account".to_owned()), "{down}: the customer can ask again");
    }
    let done = Arc::new(Mutex::new(Vec::new()));
    assert!(service(stores(&done, "accounts")).erase(&asha("")).await.is_err());
}
