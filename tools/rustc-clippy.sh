#!/bin/sh
# cargo's RUSTC_WORKSPACE_WRAPPER for make's test builds (see the Makefile, LINTED): the workspace's own
# crates are compiled by clippy-driver, which is rustc with clippy's lints, every warning an error. So the
# one test build both lints and builds; `cargo clippy` would first check every dependency a second time.
# Dependencies are compiled by plain rustc (cargo wraps workspace members only).
exec clippy-driver "$@" -D warnings
