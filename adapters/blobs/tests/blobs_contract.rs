//! Every `BlobStore` suite on a fresh temporary directory.

use marque_blobs::LocalDiskBlobStore;

macro_rules! on_disk {
    ($suite:ident) => {
        #[tokio::test]
        async fn $suite() {
            let dir = tempfile::tempdir().expect("temporary directory");
            let store = LocalDiskBlobStore::new(dir.path().join("blobs"));
            marque_contract_tests::blobs::$suite(&store).await;
        }
    };
}

marque_contract_tests::for_each_blob_suite!(on_disk);

#[tokio::test]
async fn no_temporary_files_are_left_behind() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let store = LocalDiskBlobStore::new(dir.path());
    marque_ports::BlobStore::put(&store, "avatars/a.png", vec![1; 1000]).await.expect("put");
    let names: Vec<String> = std::fs::read_dir(dir.path().join("avatars"))
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["a.png".to_owned()]);
}
