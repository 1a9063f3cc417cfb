#!/usr/bin/env bash
# Measurement (not a test): one client sends random search terms as fast as it can (every one a miss
# of the answer cache, a database query) while another reads products; prints the reader's
# throughput and latency (p50, p99), without the budget (as before it existed) and with it.
#
#   bench/search-flood.sh [products]     # default 20000
#
# Both clients are wrk on loopback, told apart by `X-Forwarded-For` behind MARQUE_TRUSTED_PROXIES=127.0.0.1.
# The reader asks random product pages (GET /api/get/productById), answered from memory: what the flood
# takes from them is the machine's cores and the database's time, which the budget gives back.
# BENCH_BIN (default: the debug build; a release build is ~20 min on a 2-core machine), BENCH_DURATION (20s),
# BENCH_FLOOD_CONNECTIONS (8), BENCH_READ_CONNECTIONS (4), BENCH_BUDGET (the "after" budget a minute, 120),
# BENCH_DATA_DIR (~/.cache/marque-bench/flood-<products>, seeded once), BENCH_PORT (18091).
set -euo pipefail
cd "$(dirname "$0")/.."
products=${1:-20000}
target=${CARGO_TARGET_DIR:-$HOME/.cache/marque-target}
bin=${BENCH_BIN:-$target/debug/marque-server}
data=${BENCH_DATA_DIR:-$HOME/.cache/marque-bench/flood-$products}
port=${BENCH_PORT:-18091}
duration=${BENCH_DURATION:-20s}
flood_conns=${BENCH_FLOOD_CONNECTIONS:-8}
read_conns=${BENCH_READ_CONNECTIONS:-4}
budget=${BENCH_BUDGET:-120}
[ -x "$bin" ] || { echo "build first: cargo build -p marque-server" >&2; exit 1; }
command -v wrk >/dev/null || { echo "install wrk: apt-get install wrk" >&2; exit 1; }

mkdir -p "$data/web"
export MARQUE_DATA_DIR="$data" MARQUE_SEED_PRODUCTS="$products" MARQUE_WEB_DIR="$data/web" RUST_LOG=warn
export MARQUE_TRUSTED_PROXIES=127.0.0.1
if [ ! -d "$data/db" ]; then
  echo "seeding $products products into $data (once)"
  "$bin" seed --products "$products"
fi

work=$(mktemp -d)
cat > "$work/flood.lua" <<'EOF'
math.randomseed(os.time() + (tonumber(tostring({}):sub(8), 16) or 0))
local letters = "abcdefghijklmnopqrstuvwxyz"
wrk.headers["X-Forwarded-For"] = "203.0.113.9"
request = function()
  local n = math.random(3, 8)
  local t = {}
  for i = 1, n do
    local k = math.random(1, 26)
    t[i] = letters:sub(k, k)
  end
  return wrk.format("GET", "/api/get/productBySearch?search=" .. table.concat(t) .. "&page=1")
end
EOF
cat > "$work/read.lua" <<EOF
math.randomseed(os.time() + 7)
wrk.headers["X-Forwarded-For"] = "198.51.100.7"
request = function()
  return wrk.format("GET", string.format("/api/get/productById/p%06d", math.random(0, $products - 1)))
end
EOF

server=""
stop() { [ -n "$server" ] && { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; }; server=""; }
trap 'stop; rm -rf "$work"' EXIT

# One run: the server with `misses` a minute, the reader alone, then the reader beside the flood.
run() {
  local label=$1 misses=$2
  MARQUE_CATALOG_MISSES_PER_MINUTE=$misses MARQUE_CATALOG_DEADLINE_MS=${BENCH_DEADLINE_MS:-3000} \
    MARQUE_ADDR="127.0.0.1:$port" "$bin" serve > "$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 300); do curl -fs "http://127.0.0.1:$port/api/health/live" >/dev/null && break; sleep 0.2; done
  # The ready product answers are filled once after start; measured after that.
  sleep "${BENCH_SETTLE:-15}"
  local origin="http://127.0.0.1:$port"
  wrk -t1 -c"$read_conns" -d"$duration" --latency -s "$work/read.lua" "$origin" > "$work/alone.txt" 2>&1
  wrk -t1 -c"$flood_conns" -d"$duration" --latency -s "$work/flood.lua" "$origin" > "$work/flood.txt" 2>&1 &
  local flood=$!
  sleep 1
  wrk -t1 -c"$read_conns" -d"$duration" --latency -s "$work/read.lua" "$origin" > "$work/beside.txt" 2>&1
  wait "$flood"
  stop
  summary() { awk '/Requests\/sec/ {rps=$2} $1 == "50%" {p50=$2} $1 == "99%" {p99=$2} /Non-2xx/ {non=$4} END {printf "%s req/s, p50 %s, p99 %s, non-2xx %s", rps, p50, p99, (non == "" ? 0 : non)}' "$1"; }
  echo "== $label (MARQUE_CATALOG_MISSES_PER_MINUTE=$misses)"
  echo "   reader alone:            $(summary "$work/alone.txt")"
  echo "   reader beside the flood: $(summary "$work/beside.txt")"
  echo "   flood (random terms):    $(summary "$work/flood.txt")"
}

echo "catalog: $products products; $(basename "$bin") at $bin; wrk -t1, reader -c$read_conns, flood -c$flood_conns, $duration each;"
echo "$(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
run "before: no budget to speak of" 100000000
run "after: a budget per client" "$budget"
