#!/usr/bin/env bash
# Benchmark: part-number and name search over HTTP against the release server,
# load from a second process (wrk) on loopback. Prints wrk's latency table.
#
#   bench/search.sh [products]     # default 600 (the demo catalog); e.g. 100000
#
# Needs `wrk` (Debian package) and a release build (`cargo build --release -p marque-server`).
# On the 600-product demo catalog, 4 connections, the release build answered a part-number
# search in a median 3.2 ms; the `shop` profile `make run` uses, in 4.7 ms (2 cores, 2026-11-21).
set -euo pipefail
cd "$(dirname "$0")/.."
products=${1:-600}
target=${CARGO_TARGET_DIR:-$HOME/.cache/marque-target}
bin="$target/release/marque-server"
data=${BENCH_DATA_DIR:-$HOME/.cache/marque-bench/$products}
port=${BENCH_PORT:-18080}
duration=${BENCH_DURATION:-15s}

[ -x "$bin" ] || { echo "build first: cargo build --release -p marque-server" >&2; exit 1; }
command -v wrk >/dev/null || { echo "install wrk: apt-get install wrk" >&2; exit 1; }

export MARQUE_DATA_DIR="$data" MARQUE_SEED_PRODUCTS="$products" MARQUE_WEB_DIR="$PWD/frontends" RUST_LOG=warn
# wrk is one client asking far more than a person: the per-client limits are set for it
# (BENCH_CATALOG_MISSES a minute past the answer cache, each within BENCH_CATALOG_DEADLINE_MS).
export MARQUE_CATALOG_MISSES_PER_MINUTE=${BENCH_CATALOG_MISSES:-1000000} MARQUE_CATALOG_DEADLINE_MS=${BENCH_CATALOG_DEADLINE_MS:-60000}
export MARQUE_SIGNUPS_PER_HOUR=${BENCH_SIGNUPS:-100000} MARQUE_CODE_REQUESTS_PER_HOUR=${BENCH_SIGNUPS:-100000}
if [ ! -d "$data/db" ]; then
  echo "seeding $products products into $data (once)"
  /usr/bin/time -f "seeded in %e s" "$bin" seed --products "$products"
fi
MARQUE_ADDR="127.0.0.1:$port" "$bin" serve > /tmp/marque-bench-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/api/health" >/dev/null && break; sleep 0.2; done

base="http://127.0.0.1:$port/api/get"
# A real part number of the catalog, typed lower-case with dashes instead of spaces.
part=$(curl -fs "$base/new-products" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["partNo"])')
typed=$(printf '%s' "$part" | tr 'A-Z ' 'a-z-')
check=$(curl -fs "$base/productBySearch?search=$typed&page=1" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["results"][0]["partNo"], d["total"])')
echo "catalog: $products products; part number '$part' typed as '$typed' -> first hit: $check"

run() {
  echo; echo "== $1"
  wrk -t1 -c4 -d"$duration" --latency "$2" | sed -n '/Latency Distribution/,/Requests\/sec/p'
}
run "part-number search ($typed)" "$base/productBySearch?search=$typed&page=1"
run "name search (brake disc)" "$base/productBySearch?search=brake%20disc&page=1"
run "name prefix (turb)" "$base/productBySearch?search=turb&page=1"
run "product by id" "$base/productById/p000042"
