#!/usr/bin/env bash
# Installs the SurrealDB server (tools/surreal-server: the `surrealdb-server` library at the SDK's
# version behind a one-line main, binary `surreal`) once, into a cache outside the clone, and
# prints the binary's path.
# Only the in-memory and SurrealKV engines are built: no TiKV, RocksDB, GraphQL, scripting or
# Postgres wire. Light optimisation (opt-level 1, no LTO) keeps the cold build near half of a
# full release build; the server stays fast enough for tests.
set -euo pipefail
version="${SURREAL_SERVER_VERSION:-3.3.5}"
root="${MARQUE_SURREAL_CACHE:-$HOME/.cache/marque-surreal}/$version"
bin="$root/bin/surreal"
if [ ! -x "$bin" ]; then
  start=$(date +%s)
  echo "installing surrealdb-server $version into $root (once; a long compile)" >&2
  CARGO_TARGET_DIR="$root/target" \
  CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_LTO=false \
  CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_DEBUG=false \
    cargo install --locked --path "$(dirname "$0")/surreal-server" --root "$root" >&2
  rm -rf "$root/target"
  echo "surrealdb-server $version installed in $(( $(date +%s) - start )) s" >&2
fi
echo "$bin"
