//! The `BlobStore` contract, one suite per promise in `marque_ports::blobs`.

use marque_ports::{BlobStore, BlobStoreError};

/// Calls `$callback!(suite_name)` once for every blob suite.
#[macro_export]
macro_rules! for_each_blob_suite {
    ($callback:ident) => {
        $callback!(blobs_round_trip_and_replace);
        $callback!(missing_blobs_are_none_and_deleting_them_is_harmless);
        $callback!(keys_outside_the_rule_are_refused);
    };
}

pub async fn blobs_round_trip_and_replace(store: &dyn BlobStore) {
    store.put("avatars/u1-a.png", vec![1, 2, 3]).await.expect("put");
    assert_eq!(store.get("avatars/u1-a.png").await, Ok(Some(vec![1, 2, 3])));
    store.put("avatars/u1-a.png", vec![9]).await.expect("replace");
    assert_eq!(store.get("avatars/u1-a.png").await, Ok(Some(vec![9])));
    store.put("top-level_key.bin", Vec::new()).await.expect("an empty blob is a blob");
    assert_eq!(store.get("top-level_key.bin").await, Ok(Some(Vec::new())));
}

pub async fn missing_blobs_are_none_and_deleting_them_is_harmless(store: &dyn BlobStore) {
    assert_eq!(store.get("avatars/none.png").await, Ok(None));
    store.delete("avatars/none.png").await.expect("deleting a missing blob");
    store.put("avatars/x.png", vec![1]).await.expect("put");
    store.delete("avatars/x.png").await.expect("delete");
    assert_eq!(store.get("avatars/x.png").await, Ok(None));
}

pub async fn keys_outside_the_rule_are_refused(store: &dyn BlobStore) {
    for key in ["", "/etc/passwd", "../up.png", "a/../../b", "a b.png", "a\\b", "é.png"] {
        let invalid = |r: &Result<_, BlobStoreError>| matches!(r, Err(BlobStoreError::InvalidKey { .. }));
        assert!(invalid(&store.put(key, vec![1]).await.map(drop)), "put {key:?}");
        assert!(invalid(&store.get(key).await.map(drop)), "get {key:?}");
        assert!(invalid(&store.delete(key).await), "delete {key:?}");
    }
}
