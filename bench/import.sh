#!/usr/bin/env bash
# Benchmark: issue 23's bulk import and export at 100,000 rows on the release server, driven through
# the admin API from a second process (bench/import.mjs), on a fresh copy of the catalog `make bench`
# seeded (bench/catalog.sh; seeded here when missing):
#
#   export            GET /api/admin/exports/products.csv of the 100,000-product catalog
#   dry-run new.csv   100,000 new parts checked (bench/import-files.py makes the files from an export:
#                     realistic names, Hindi in some, prices written three ways)
#   apply new.csv     the same rows created, into the catalog of 100,000
#   apply new.csv     again: every row unchanged, nothing written
#   apply prices10    the file with one price in ten changed
#
# each with its time, counts and the server's RSS (peak during the job, and 5 s after).
#
#   bench/import.sh [products]      # default 100000
#
# BENCH_BIN, BENCH_PORT (18081), BENCH_DATA_DIR (the seeded catalog, ~/.cache/marque-bench/<products>).
# RUST_LOG (warn): `warn,marque_app::admin::imports=debug` logs each batch's write and the next batch's read
# (milliseconds) in /tmp/marque-bench-import-server.log.
# Needs a release build (`cargo build --release -p marque-server`) and the frontends' npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."
products=${1:-100000}
target=${CARGO_TARGET_DIR:-$HOME/.cache/marque-target}
bin=${BENCH_BIN:-$target/release/marque-server}
seeded=${BENCH_DATA_DIR:-$HOME/.cache/marque-bench/$products}
work="$seeded-import"
port=${BENCH_PORT:-18081}
[ -x "$bin" ] || { echo "build first: cargo build --release -p marque-server" >&2; exit 1; }

export MARQUE_SEED_PRODUCTS="$products" RUST_LOG=${RUST_LOG:-warn}
export MARQUE_CATALOG_MISSES_PER_MINUTE=1000000 MARQUE_CATALOG_DEADLINE_MS=60000
if [ ! -d "$seeded/db" ]; then
  echo "seeding $products products into $seeded (once)"
  MARQUE_DATA_DIR="$seeded" "$bin" seed --products "$products"
fi
rm -rf "$work"
mkdir -p "$work/web/shell/dist"
cp -a "$seeded/db" "$work/db"
export MARQUE_DATA_DIR="$work" MARQUE_WEB_DIR="$work/web"

start=$(date +%s.%N)
"$bin" export-csv "$work/export.csv" >/dev/null
echo "CLI export-csv of $products products: $(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')") s, $(du -m "$work/export.csv" | cut -f1) MB"
python3 bench/import-files.py "$work/export.csv" "$work/files"

importer="bench-importer-$(date +%s)@marque.test"
setup=$("$bin" staff add --email "$importer" --name "Bench importer" --role catalog | grep -o 'code=[A-Za-z0-9_-]*' | cut -d= -f2)

. bench/serve.sh
start_bench_server /tmp/marque-bench-import-server.log
files="$work/files"
node bench/import.mjs "http://127.0.0.1:$port" "$importer" "$setup" "$server" \
  export "dry-run:$files/new.csv" "apply:$files/new.csv" "apply:$files/new.csv" "apply:$files/prices10.csv"
echo "server RSS at the end: $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' "/proc/$server/status") (peak $(awk '/VmHWM/ {printf "%.0f MB", $2/1024}' "/proc/$server/status"))"
