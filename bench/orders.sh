#!/usr/bin/env bash
# Benchmark: storefront reads while orders come in. Each row is measured twice with wrk, first
# with no orders, then while bench/orders.mjs places about BENCH_ORDER_RATE orders a second
# (each a stock hold and a sale, two stock changes) through the real pay calls. An order must
# cost the reads only the answers that held what it sold (see ARCHITECTURE.md, "Catalog reads
# at scale").
#
#   bench/orders.sh [products]      # default 100000; `make bench-orders` runs it
#
# It works on a copy of bench/catalog.sh's seeded store (run that once first), so the orders do
# not change the catalog other benches read. BENCH_DURATION (5s) per measurement,
# BENCH_THREADS / BENCH_CONNECTIONS (2 / 32), BENCH_ORDER_RATE (1 a second), BENCH_PORT (18081),
# BENCH_BIN (the release build).
set -euo pipefail
cd "$(dirname "$0")/.."
products=${1:-100000}
target=${CARGO_TARGET_DIR:-$HOME/.cache/marque-target}
bin=${BENCH_BIN:-$target/release/marque-server}
seeded=${BENCH_DATA_DIR:-$HOME/.cache/marque-bench/$products}
port=${BENCH_PORT:-18081}
duration=${BENCH_DURATION:-5s}
seconds=${duration%s}
threads=${BENCH_THREADS:-2}
conns=${BENCH_CONNECTIONS:-32}
rate=${BENCH_ORDER_RATE:-1}

[ -x "$bin" ] || { echo "build first: cargo build --release -p marque-server" >&2; exit 1; }
command -v wrk >/dev/null || { echo "install wrk: apt-get install wrk" >&2; exit 1; }
[ -d "$seeded/db" ] || { echo "seed first: bench/catalog.sh $products" >&2; exit 1; }

work=$(mktemp -d)
cp -r "$seeded/db" "$work/db"
cp -r "$seeded/web" "$work/web"
export MARQUE_DATA_DIR="$work" MARQUE_WEB_DIR="$work/web" MARQUE_ENV=dev RUST_LOG=warn
# wrk is one client asking far more than a person: the per-client limits are set for it
# (BENCH_CATALOG_MISSES a minute past the answer cache, each within BENCH_CATALOG_DEADLINE_MS).
export MARQUE_CATALOG_MISSES_PER_MINUTE=${BENCH_CATALOG_MISSES:-1000000} MARQUE_CATALOG_DEADLINE_MS=${BENCH_CATALOG_DEADLINE_MS:-60000}
export MARQUE_SIGNUPS_PER_HOUR=${BENCH_SIGNUPS:-100000} MARQUE_CODE_REQUESTS_PER_HOUR=${BENCH_SIGNUPS:-100000}
MARQUE_ADDR="127.0.0.1:$port" "$bin" serve > /tmp/marque-bench-orders.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 150); do curl -fs "http://127.0.0.1:$port/api/health" >/dev/null && break; sleep 0.2; done
curl -fs "http://127.0.0.1:$port/api/health" >/dev/null || { echo "the server did not start" >&2; cat /tmp/marque-bench-orders.log >&2; exit 1; }

origin="http://127.0.0.1:$port"
base="$origin/api/get"
node bench/orders.mjs customers "$origin" "$work/customers.json" 8 | grep -v "code sent"
# The ready product answers are warmed a second after start; measured after that.
sleep "${BENCH_SETTLE:-8}"

# wrk's throughput and 99th percentile, as "req/s p99".
measure() {
  local out rps p99
  out=$(wrk -t"$threads" -c"$conns" -d"$duration" --latency "$1" 2>&1)
  rps=$(printf '%s\n' "$out" | awk '/Requests\/sec/ {print $2}')
  p99=$(printf '%s\n' "$out" | awk '$1 == "99%" {print $2}')
  echo "${rps:-0} ${p99:-?}"
}

echo "catalog: $products products; wrk -t$threads -c$conns -d$duration per measurement; orders: about $rate a second; $(nproc) cores"
printf '\n%-44s %12s %9s   %12s %9s   %s\n' "call" "no orders" "p99" "with orders" "p99" "orders placed meanwhile"
row() {
  local label=$1 url=$2
  # Asked once first: the calm figure is of a kept answer, as a shop with no orders serves it.
  curl -fs -o /dev/null "$url"
  read -r calm calm_p99 < <(measure "$url")
  node bench/orders.mjs buy "$origin" "$work/customers.json" "$products" "$rate" "$seconds" > "$work/buy.log" 2>&1 &
  local buyer=$!
  read -r busy busy_p99 < <(measure "$url")
  wait "$buyer" || { cat "$work/buy.log" >&2; exit 1; }
  printf '%-44s %12s %9s   %12s %9s   %s\n' "$label" "$calm" "$calm_p99" "$busy" "$busy_p99" "$(cat "$work/buy.log")"
}

row "search name broad: brake" "$base/productBySearch?search=brake&page=1"
row "search name broad: filter" "$base/productBySearch?search=filter&page=1"
row "category grouped: brakes" "$base/product/brakes"
row "category oem=bmw--audi p7" "$base/product/brakes?oem=bmw--audi&page=7"
row "productByOem/bmw p1" "$base/productByOem/bmw?page=1"
row "new-products" "$base/new-products"
row "suggestion (best sellers: asked again per sale)" "$base/suggestion"
rss=$(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' "/proc/$server/status")
echo "server RSS after the load: $rss"
