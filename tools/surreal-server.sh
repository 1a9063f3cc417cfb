#!/usr/bin/env bash
# Builds the SurrealDB server for the tests (tools/surreal-server: the `surrealdb-server` library at
# the SDK's version behind a one-line main, binary `surreal`) and prints the binary's path.
# Only the in-memory and SurrealKV engines are built: no TiKV, RocksDB, GraphQL, scripting, HTTP
# functions or Postgres wire.
# The server is a member of the workspace and is built by the same command as every test target
# (`cargo test --workspace --all-targets --no-run`, which `make test` runs next anyway): one
# resolution of features, so it shares the tests' build of `surrealdb-core` and its dependencies
# (optimised at opt-level 1 by the dev profile) instead of compiling SurrealDB a second time.
# Building only `-p marque-surreal-server` would resolve other features and compile it all again.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/marque-target}"
bin="$CARGO_TARGET_DIR/debug/surreal"
start=$(date +%s)
cargo test --workspace --all-targets --no-run --locked 1>&2
[ -x "$bin" ] || { echo "the build did not make $bin" >&2; exit 1; }
echo "the SurrealDB server and every test target built in $(( $(date +%s) - start )) s" >&2
echo "$bin"
