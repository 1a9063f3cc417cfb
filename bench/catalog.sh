#!/usr/bin/env bash
# Benchmark: every storefront read of issue 10 against the release server, load from
# wrk (a second process) on loopback, each row beside the throughput of a small static
# file measured by the same server in the same run, and the ratio between the two
# (absolute figures move with whatever else the machine is doing; the ratio moves less).
#
#   bench/catalog.sh [products]      # default 100000; `make bench` runs it
#
# BENCH_DURATION (default 5s) per row, BENCH_THREADS / BENCH_CONNECTIONS (2 / 32), BENCH_SETTLE
# (seconds to wait after start, 8), BENCH_START_SECS (how long a start may take, 600),
# BENCH_DATA_DIR (default ~/.cache/marque-bench/<products>: the catalog is seeded once
# and reused; the seeding time is kept beside it), BENCH_PORT (18080), BENCH_BIN.
# BENCH_FITS=<n> (issue 25): seed every product with n fitment rows (its own generation, then its
# model line's; data dir <products>-fits<n>). The rows narrowed to a car read them.
# BENCH_FRESH=1 (issue 22): each row restarts the server and is measured from the moment it is ready.
# BENCH_IMPORT=<file>:<file> (issues 22, 23): the rows are measured during import applies (below).
# BENCH_EDITS=<ms> (issue 21): a `catalog` staff member changes one product's price every <ms>
# through the back office for the whole run (bench/edits.mjs; needs the frontends' npm packages).
# Needs `wrk` (Debian package) and a release build (`cargo build --release -p marque-server`).
set -euo pipefail
cd "$(dirname "$0")/.."
products=${1:-100000}
target=${CARGO_TARGET_DIR:-$HOME/.cache/marque-target}
bin=${BENCH_BIN:-$target/release/marque-server}
fits=${BENCH_FITS:-1}
data=${BENCH_DATA_DIR:-$HOME/.cache/marque-bench/$products$([ "$fits" = 1 ] || echo "-fits$fits")}
port=${BENCH_PORT:-18080}
duration=${BENCH_DURATION:-5s}
threads=${BENCH_THREADS:-2}
conns=${BENCH_CONNECTIONS:-32}

[ -x "$bin" ] || { echo "build first: cargo build --release -p marque-server" >&2; exit 1; }
command -v wrk >/dev/null || { echo "install wrk: apt-get install wrk" >&2; exit 1; }

# A web dir of its own: the shell's place holds one small content-hashed file, the
# static ceiling every row is compared with.
web="$data/web"
mkdir -p "$web/shell/dist"
asset="app.0123abcd.js"
head -c 1500 /dev/zero | tr '\0' 'x' | sed 's/^/var a="/; s/$/";/' > "$web/shell/dist/$asset"

export MARQUE_DATA_DIR="$data" MARQUE_SEED_PRODUCTS="$products" MARQUE_WEB_DIR="$web" RUST_LOG=warn
# wrk is one client asking far more than a person: the per-client limits are set for it
# (BENCH_CATALOG_MISSES a minute past the answer cache, each within BENCH_CATALOG_DEADLINE_MS).
export MARQUE_CATALOG_MISSES_PER_MINUTE=${BENCH_CATALOG_MISSES:-1000000} MARQUE_CATALOG_DEADLINE_MS=${BENCH_CATALOG_DEADLINE_MS:-60000}
export MARQUE_SIGNUPS_PER_HOUR=${BENCH_SIGNUPS:-100000} MARQUE_CODE_REQUESTS_PER_HOUR=${BENCH_SIGNUPS:-100000}
# The server's memory: SurrealKV's block cache and memtable are `MARQUE_DB_CACHE_MB` /
# `MARQUE_DB_MEMTABLE_MB` (16 / 64 by default); the binary chooses glibc's malloc arenas itself
# (docs/adr/0004) unless MALLOC_ARENA_MAX is set.
if [ ! -d "$data/db" ]; then
  echo "seeding $products products into $data (once)"
  start=$(date +%s.%N)
  "$bin" seed --products "$products" --fits "$fits"
  echo "$(echo "$(date +%s.%N) - $start" | bc)" > "$data/seed-seconds"
fi
seeded=$(cat "$data/seed-seconds" 2>/dev/null || echo "?")

# BENCH_IMPORT=<file>:<file> (issue 22's last regime, issue 23's storefront figures): a `catalog`
# staff member applies the two files in turn through `POST /api/admin/imports` for the whole run
# (bench/import.mjs; bench/import-files.py makes them, e.g. new.csv and plus1.csv).
if [ -n "${BENCH_IMPORT:-}" ]; then
  importer="bench-importer-$(date +%s)@marque.test"
  import_setup=$("$bin" staff add --email "$importer" --name "Bench importer" --role catalog | grep -o 'code=[A-Za-z0-9_-]*' | cut -d= -f2)
fi
if [ -n "${BENCH_EDITS:-}" ]; then
  editor="bench-editor-$(date +%s)@marque.test"
  setup=$("$bin" staff add --email "$editor" --name "Bench editor" --role catalog | grep -o 'code=[A-Za-z0-9_-]*' | cut -d= -f2)
fi

# Starts the server and waits until it reports ready (`/api/health` answers 503 until its first
# warm-up is done). A start may first bring an older store's schema up to date (minutes at
# 100,000 products): waited for while the server runs, up to BENCH_START_SECS (600).
start_server() {
  MARQUE_ADDR="127.0.0.1:$port" "$bin" serve >> /tmp/marque-bench-server.log 2>&1 &
  server=$!
  local began
  began=$(date +%s.%N)
  for _ in $(seq 1 $((5 * ${BENCH_START_SECS:-600}))); do
    curl -fs "http://127.0.0.1:$port/api/health" >/dev/null && break
    kill -0 $server 2>/dev/null || break
    sleep 0.2
  done
  curl -fs "http://127.0.0.1:$port/api/health" >/dev/null || { echo "the server did not start" >&2; cat /tmp/marque-bench-server.log >&2; exit 1; }
  ready_after=$(python3 -c "print(f'{$(date +%s.%N) - $began:.1f}')")
}
stop_server() {
  kill $server 2>/dev/null || true
  wait $server 2>/dev/null || true
}
: > /tmp/marque-bench-server.log
start_server
editing=
importing=
trap 'kill $editing $importing 2>/dev/null || true; stop_server' EXIT
echo "ready after ${ready_after} s"
# Measured once the ready product answers and the warm-up are done (BENCH_SETTLE seconds after
# ready, 8 by default). BENCH_FRESH=1: the regime right after a start instead (issue 22): each
# row restarts the server and is measured from the moment it reports ready, for BENCH_DURATION.
[ -n "${BENCH_FRESH:-}" ] || sleep "${BENCH_SETTLE:-8}"

origin="http://127.0.0.1:$port"
base="$origin/api/get"
if [ -n "${BENCH_EDITS:-}" ]; then
  node bench/edits.mjs "$origin" "$editor" "$setup" "$BENCH_EDITS" > /tmp/marque-bench-edits.log 2>&1 &
  editing=$!
  sleep 2
  kill -0 $editing 2>/dev/null || { echo "the editor stopped:" >&2; cat /tmp/marque-bench-edits.log >&2; exit 1; }
fi
if [ -n "${BENCH_IMPORT:-}" ]; then
  node bench/import.mjs "$origin" "$importer" "$import_setup" "$server" "loop:$BENCH_IMPORT" > /tmp/marque-bench-import.log 2>&1 &
  importing=$!
  # The first job is uploaded and running before the first row.
  sleep "${BENCH_IMPORT_LEAD:-5}"
  kill -0 $importing 2>/dev/null || { echo "the importer stopped:" >&2; cat /tmp/marque-bench-import.log >&2; exit 1; }
fi
# A real part number of the catalog, typed lower-case with dashes instead of spaces.
part=$(curl -fs "$base/new-products" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["partNo"])')
typed=$(printf '%s' "$part" | tr 'A-Z ' 'a-z-')
check=$(curl -fs "$base/productBySearch?search=$typed&page=1" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["results"][0]["partNo"], d["total"])')

# Product ids are p000000 … : each request asks for one at random.
lua=$(mktemp --suffix=.lua)
cat > "$lua" <<EOF
math.randomseed(os.time() + (tonumber(tostring({}):sub(8), 16) or 0))
request = function()
  return wrk.format("GET", string.format("/api/get/productById/p%06d", math.random(0, $products - 1)))
end
EOF

# The machine's steal time so far (ticks the host took from this virtual machine), /proc/stat's 8th field.
steal_ticks() { awk '$1 == "cpu" {print $9}' /proc/stat; }
all_ticks() { awk '$1 == "cpu" {t = 0; for (i = 2; i <= NF; i++) t += $i; print t}' /proc/stat; }

# wrk's throughput and 99th percentile, and the share of the cores the host stole meanwhile, as
# "req/s p99 steal%": a p99 of tens of ms in a row whose steal is several % is the host's, not ours.
measure() {
  local out s0 a0
  s0=$(steal_ticks)
  a0=$(all_ticks)
  if [ "${2:-}" = random ]; then
    out=$(wrk -t"$threads" -c"$conns" -d"$duration" --latency -s "$lua" "$origin" 2>&1)
  else
    out=$(wrk -t"$threads" -c"$conns" -d"$duration" --latency "$1" 2>&1)
  fi
  local rps p99 errors
  rps=$(printf '%s\n' "$out" | awk '/Requests\/sec/ {print $2}')
  p99=$(printf '%s\n' "$out" | awk '$1 == "99%" {print $2}')
  errors=$(printf '%s\n' "$out" | awk '/Non-2xx|Socket errors/ {printf "%s ", $0}')
  local steal
  steal=$(python3 -c "a = $(all_ticks) - $a0; print(f'{100 * ($(steal_ticks) - $s0) / a:.1f}%' if a else '?')")
  echo "${rps:-0} ${p99:-?} ${steal} ${errors}"
}

echo "catalog: $products products (seeded in ${seeded} s); part number '$part' typed as '$typed' -> first hit: $check"
echo "wrk -t$threads -c$conns -d$duration per row, on $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"

read -r static_before static_p99 static_steal _ < <(measure "$origin/$asset")
echo "static file ($asset, 1.5 KB): $static_before req/s, p99 $static_p99, steal $static_steal"
printf '\n%-62s %10s %9s %8s %9s %6s   %s\n' "call" "req/s" "p99" "ratio" "first" "steal" "(target)"

# The first answer to a call (before wrk repeats it): what a cache cannot hide.
cold() {
  [ -n "$1" ] || { echo "-"; return; }
  curl -o /dev/null -fs -w '%{time_total}' "$1" | awk '{printf "%.1fms", $1 * 1000}'
}

row() {
  local label=$1 url=$2 target=$3 mode=${4:-}
  local first
  if [ -n "${BENCH_FRESH:-}" ]; then
    stop_server
    start_server
  fi
  first=$(cold "$url")
  read -r rps p99 steal errors < <(measure "$url" "$mode")
  local ratio
  ratio=$(python3 -c "print(f'{$rps / $static_before:.3f}')" 2>/dev/null || echo "?")
  printf '%-62s %10s %9s %8s %9s %6s   %s %s\n' "$label" "$rps" "$p99" "$ratio" "$first" "$steal" "$target" "$errors"
}

row "productById (random ids)" "" "≥20000, p99≤10ms" random
row "search name broad: brake" "$base/productBySearch?search=brake&page=1" "≥2000, p99≤20ms"
row "search name broad: filter" "$base/productBySearch?search=filter&page=1" "≥2000, p99≤20ms"
row "search name prefix: tur" "$base/productBySearch?search=tur&page=1" "≥2000, p99≤20ms"
row "search name narrow: x5 brake disc" "$base/productBySearch?search=x5%20brake%20disc&page=1" "≥2000, p99≤20ms"
row "search part number: $typed" "$base/productBySearch?search=$typed&page=1" "≥2000, p99≤20ms"
row "category grouped: brakes" "$base/product/brakes" "≥2000, p99≤20ms"
row "category oem=bmw--audi p1" "$base/product/brakes?oem=bmw--audi&page=1" "≥2000, p99≤20ms"
row "category oem=bmw--audi p7" "$base/product/brakes?oem=bmw--audi&page=7" "≥2000, p99≤20ms"
row "category product_type=old&fuel_type=diesel p1" "$base/product/engine?product_type=old&fuel_type=diesel&page=1" "≥2000, p99≤20ms"
row "category product_type=old&fuel_type=diesel p7" "$base/product/engine?product_type=old&fuel_type=diesel&page=7" "≥2000, p99≤20ms"
row "subcategory brakes/brake-disc oem=bmw&fuel_type=petrol p1" "$base/product/brakes/brake-disc?oem=bmw&fuel_type=petrol&page=1" "≥2000, p99≤20ms"
row "subcategory brakes/brake-disc oem=bmw&fuel_type=petrol p7" "$base/product/brakes/brake-disc?oem=bmw&fuel_type=petrol&page=7" "≥2000, p99≤20ms"
row "productByOem/bmw p1" "$base/productByOem/bmw?page=1" "≥2000, p99≤20ms"
row "productByOem/bmw p50" "$base/productByOem/bmw?page=50" "≥2000, p99≤20ms"
# Issue 25: narrowed to a car (BMW X5 G05 3.0d, a popular generation of the demo list);
# `seed --fits N` (BENCH_FITS) gives every product N fitment rows.
car="fits=bmw-x5-g05.b57"
row "category grouped: brakes $car" "$base/product/brakes?$car" "≥2000, p99≤10ms"
row "category oem=bmw $car p1" "$base/product/brakes?oem=bmw&$car&page=1" "≥2000, p99≤10ms"
row "subcategory brakes/brake-disc $car" "$base/product/brakes/brake-disc?$car&page=1" "≥2000, p99≤10ms"
row "productByOem/bmw $car&year=2021 p1" "$base/productByOem/bmw?$car&year=2021&page=1" "≥2000, p99≤10ms"
row "search brake $car" "$base/productBySearch?search=brake&$car&page=1" "≥2000, p99≤10ms"
row "search, empty, $car p3" "$base/productBySearch?search=&$car&page=3" "≥2000, p99≤10ms"
row "new-products" "$base/new-products" "≥10000, p99≤10ms"
row "suggestion" "$base/suggestion" "≥10000, p99≤10ms"
row "category" "$base/category" "≥10000, p99≤10ms"
row "brand/oem" "$base/brand/oem" "≥10000, p99≤10ms"

read -r static_after static_after_p99 static_after_steal _ < <(measure "$origin/$asset")
printf '%-62s %10s %9s %8s %9s %6s   %s\n' "static file ($asset) again, at the end" "$static_after" "$static_after_p99" \
  "$(python3 -c "print(f'{$static_after / $static_before:.3f}')")" "-" "$static_after_steal" "≥40000, p99≤5ms"
rss=$(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' "/proc/$server/status")
hwm=$(awk '/VmHWM/ {printf "%.0f MB", $2/1024}' "/proc/$server/status")
# What the resident memory is: the heap and other anonymous pages, and pages of files (the binary's code).
parts=$(awk '/RssAnon/ {a=$2} /RssFile/ {f=$2} END {printf "%.0f MB anonymous, %.0f MB of files", a/1024, f/1024}' "/proc/$server/status")
echo "server RSS after the load: $rss (peak $hwm; target ≤ 200 MB): $parts"
if [ -n "$editing" ]; then
  kill -TERM $editing; wait $editing 2>/dev/null || true; editing=
  cat /tmp/marque-bench-edits.log
fi
if [ -n "$importing" ]; then
  kill -TERM $importing; wait $importing 2>/dev/null || true; importing=
  cat /tmp/marque-bench-import.log
fi
rm -f "$lua"
