//! The server the tests start is the SDK's version: a store suite on `ws://` talks to the same SurrealDB
//! as the embedded engines. (Also what makes `cargo test --workspace --all-targets` build the `surreal`
//! binary itself, into `$CARGO_TARGET_DIR/debug/`, in the tests' resolution of features.)

#[test]
fn the_server_is_the_sdks_version() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_surreal"))
        .arg("version")
        .output()
        .expect("the surreal binary runs");
    assert!(out.status.success(), "surreal version failed: {}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.starts_with("3.3.5"), "surreal version printed {printed:?}");
}
