//! The `BlobStore` contract, one suite per promise in `marque_ports::blobs`.

use futures::future::join_all;
use marque_ports::{BlobStore, BlobStoreError};

/// Calls `$callback!(suite_name)` once for every blob suite.
#[macro_export]
macro_rules! for_each_blob_suite {
    ($callback:ident) => {
        $callback!(blobs_round_trip_and_replace);
        $callback!(missing_blobs_are_none_and_deleting_them_is_harmless);
        $callback!(keys_outside_the_rule_are_refused);
        $callback!(keys_with_slashes_name_separate_blobs);
        $callback!(a_blob_of_several_megabytes_round_trips);
        $callback!(files_round_trip_through_the_store);
        $callback!(concurrent_writes_of_different_keys_all_land);
        $callback!(readers_of_a_key_being_replaced_see_one_whole_blob);
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

/// Deep keys, siblings and a prefix of a stored key: each key is its own blob, and a key that
/// is only a prefix of stored ones ("a directory") holds none.
pub async fn keys_with_slashes_name_separate_blobs(store: &dyn BlobStore) {
    store.put("avatars/2026/11/u1-a.png", b"deep".to_vec()).await.expect("put deep");
    store.put("avatars/2026/11/u1-b.png", b"sibling".to_vec()).await.expect("put sibling");
    store.put("avatars/2026/u1-a.png", b"shallower".to_vec()).await.expect("put shallower");
    assert_eq!(store.get("avatars/2026/11/u1-a.png").await, Ok(Some(b"deep".to_vec())));
    assert_eq!(store.get("avatars/2026/11/u1-b.png").await, Ok(Some(b"sibling".to_vec())));
    assert_eq!(store.get("avatars/2026/u1-a.png").await, Ok(Some(b"shallower".to_vec())));
    for prefix in ["avatars", "avatars/2026", "avatars/2026/11"] {
        assert_eq!(store.get(prefix).await, Ok(None), "{prefix} is a prefix, not a blob");
    }
    store.delete("avatars/2026/11/u1-a.png").await.expect("delete");
    assert_eq!(store.get("avatars/2026/11/u1-a.png").await, Ok(None));
    assert_eq!(store.get("avatars/2026/11/u1-b.png").await, Ok(Some(b"sibling".to_vec())), "the sibling stays");
}

/// Every byte of a blob larger than any picture the shop takes (6 MiB, not one repeated byte).
pub async fn a_blob_of_several_megabytes_round_trips(store: &dyn BlobStore) {
    let big: Vec<u8> = (0..6 * 1024 * 1024u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
    store.put("large/six-mib.bin", big.clone()).await.expect("put 6 MiB");
    let read = store.get("large/six-mib.bin").await.expect("get").expect("stored");
    assert_eq!(read.len(), big.len());
    assert!(read == big, "the bytes read back differ from those written");
}

/// A file put with `put_file` reads back whole with `get` and `get_file`; a missing key's
/// `get_file` is `false` (an import's zip of photographs goes this way).
pub async fn files_round_trip_through_the_store(store: &dyn BlobStore) {
    let big: Vec<u8> = (0..3 * 1024 * 1024u32).map(|i| (i.wrapping_mul(2_246_822_519) >> 24) as u8).collect();
    let dir = std::env::temp_dir().join(format!("marque-blob-file-{}-{:p}", std::process::id(), store));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let from = dir.join("in.bin");
    let to = dir.join("out.bin");
    std::fs::write(&from, &big).expect("write the file");
    store.put_file("imports/i1.zip", &from).await.expect("put_file");
    assert!(store.get("imports/i1.zip").await.expect("get").expect("stored") == big, "get differs");
    assert_eq!(store.get_file("imports/i1.zip", &to).await, Ok(true));
    assert!(std::fs::read(&to).expect("read back") == big, "get_file differs");
    assert_eq!(store.get_file("imports/none.zip", &to).await, Ok(false));
    let _ = std::fs::remove_dir_all(&dir);
}

/// 32 writes of different keys at once, then every key holds its own bytes.
pub async fn concurrent_writes_of_different_keys_all_land(store: &dyn BlobStore) {
    let blob = |n: u32| format!("blob number {n} ").repeat(usize::try_from(n).unwrap_or(1) * 50 + 1).into_bytes();
    let writes = (0..32).map(|n| async move { store.put(&format!("many/{n}.bin"), blob(n)).await });
    for (n, written) in join_all(writes).await.into_iter().enumerate() {
        written.unwrap_or_else(|e| panic!("put many/{n}.bin: {e}"));
    }
    let reads = join_all((0..32).map(|n| async move { (n, store.get(&format!("many/{n}.bin")).await) })).await;
    for (n, read) in reads {
        assert_eq!(read, Ok(Some(blob(n))), "many/{n}.bin");
    }
}

/// While 8 writers replace one key with different 256 KiB blobs, every read answers one of
/// them whole (or nothing before the first write lands); afterwards the key holds one of them.
pub async fn readers_of_a_key_being_replaced_see_one_whole_blob(store: &dyn BlobStore) {
    let versions: Vec<Vec<u8>> = (0..8u8).map(|v| vec![v; 256 * 1024]).collect();
    let writers = versions.iter().map(|bytes| store.put("avatars/contended.png", bytes.clone()));
    let readers = (0..16).map(|_| store.get("avatars/contended.png"));
    let (written, read) = futures::join!(join_all(writers), join_all(readers));
    for result in written {
        result.expect("every write succeeds");
    }
    for result in read {
        match result.expect("every read succeeds") {
            None => {}
            Some(bytes) => {
                assert!(versions.contains(&bytes), "a read saw {} bytes that no writer wrote whole", bytes.len())
            }
        }
    }
    let last = store.get("avatars/contended.png").await.expect("get").expect("written");
    assert!(versions.contains(&last), "the final blob is one writer's whole");
}
