#!/usr/bin/env bash
# cargo's RUSTC_WORKSPACE_WRAPPER for make's test builds (see the Makefile, LINTED): the workspace's own
# crates are compiled by clippy-driver, which is rustc with clippy's lints, every warning an error. So the
# one test build both lints and builds; `cargo clippy` would first check every dependency a second time.
# Dependencies are compiled by plain rustc (cargo wraps workspace members only).
# bash, not sh: dash drops environment variables whose names are not shell names, such as the
# `CARGO_BIN_EXE_marque-server` that cargo gives the server's integration tests.
exec clippy-driver "$@" -D warnings
