#!/usr/bin/env bash
# Benchmark: issue 23's photographs rate. An apply through the admin API of N new parts (default 100),
# each naming one photograph of a zip of N camera-like JPEGs (4000 × 3000, ~4 MB each, made by
# `adapters/photos/examples/camera_photos.rs`), into a fresh copy of the catalog `make bench` seeded.
# The rows are written first; the background worker then processes the photographs (each scaled to the
# shop's widths as WebP and JPEG): their time runs from the rows' end until the last one is processed.
#
#   bench/import-photos.sh [photographs]      # default 100
#
# BENCH_BIN, BENCH_PORT (18082), BENCH_DATA_DIR (the seeded catalog, ~/.cache/marque-bench/100000;
# `make bench` seeds it). Needs a release build and the frontends' npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-100}
target=${CARGO_TARGET_DIR:-$HOME/.cache/marque-target}
bin=${BENCH_BIN:-$target/release/marque-server}
seeded=${BENCH_DATA_DIR:-$HOME/.cache/marque-bench/100000}
work="$seeded-photos"
port=${BENCH_PORT:-18082}
[ -x "$bin" ] || { echo "build first: cargo build --release -p marque-server" >&2; exit 1; }
[ -d "$seeded/db" ] || { echo "no seeded catalog in $seeded: run make bench first" >&2; exit 1; }

export RUST_LOG=${RUST_LOG:-warn} MARQUE_CATALOG_MISSES_PER_MINUTE=1000000 MARQUE_CATALOG_DEADLINE_MS=60000
rm -rf "$work"
mkdir -p "$work/web/shell/dist" "$work/photos"
cp -a "$seeded/db" "$work/db"
export MARQUE_DATA_DIR="$work" MARQUE_WEB_DIR="$work/web"

started=$(date +%s.%N)
CARGO_TARGET_DIR="$target" cargo run --release -q -p marque-photos --example camera_photos -- "$work/photos" "$count"
(cd "$work/photos" && zip -q -0 ../photos.zip ./*.jpg)
echo "$count photographs made and zipped in $(python3 -c "print(f'{$(date +%s.%N) - $started:.0f}')") s: $(du -m "$work/photos.zip" | cut -f1) MB"

# N new parts from an export's rows (new SKUs), photograph i named on row i.
"$bin" export-csv "$work/export.csv" >/dev/null
python3 bench/import-files.py "$work/export.csv" "$work/files" "$count" >/dev/null
python3 - "$work/files/new.csv" "$work/photos.csv" <<'PY'
import csv, sys
with open(sys.argv[1], newline="", encoding="utf-8-sig") as f:
    rows = list(csv.reader(f))
# The export has no `photos` column (its names would be the store's own): one is added.
header = rows[0]
if "photos" not in [h.lower() for h in header]:
    header.append("photos")
    for row in rows[1:]:
        row.append("")
photos = [h.lower() for h in header].index("photos")
for n, row in enumerate(rows[1:], start=1):
    row[photos] = f"p{n}.jpg"
with open(sys.argv[2], "w", newline="", encoding="utf-8") as f:
    csv.writer(f).writerows(rows)
PY

importer="bench-photos-$(date +%s)@marque.test"
setup=$("$bin" staff add --email "$importer" --name "Bench importer" --role catalog | grep -o 'code=[A-Za-z0-9_-]*' | cut -d= -f2)
. bench/serve.sh
start_bench_server /tmp/marque-bench-photos-server.log
node bench/import.mjs "http://127.0.0.1:$port" "$importer" "$setup" "$server" "photos:$work/photos.csv:$work/photos.zip"
echo "server RSS at the end: $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' "/proc/$server/status") (peak $(awk '/VmHWM/ {printf "%.0f MB", $2/1024}' "/proc/$server/status"))"
