#!/usr/bin/env bash
# Single cold answers (issues 22 and 25): each call asked once, by curl, on a server that has never
# answered it (nothing kept yet), then asked again (kept). Beside each: the server's own time for the
# first answer (its `marque_http_request_duration_seconds` histogram, read from the metrics listener
# before and after), and a small static file the same server serves, asked the same way just before.
#
#   bench/cold-single.sh <binary> <data dir> <index on|off> <label>
#
# GAP=<seconds> (default 0): sleep before each call (and before its static file); GAP=none: every
# first answer asked right after the one before by one curl (no other column). On this kind of
# machine (a virtual machine with 2 cores) memory a process left alone for a moment is slow to touch
# again (bench/idle-touch.c measures it without the server), so a first answer asked after a pause
# costs more than the same work asked right after another: compare runs with the same GAP.
# CACHE=off: the answer cache off (MARQUE_CATALOG_CACHE_MB=0: no warm-up, nothing kept); by default it
# is on and the calls are measured once the instance reports ready and SETTLE seconds more (10).
# CAR=<vehicle id> (default bmw-x5-g05.b57): the rows narrowed to a car, asked for each of YEARS
# (default "2019 2021 2023") so that each is a first answer; skipped when the store has no such car.
set -u
bin=$1; data=$2; index=$3; label=$4
port=${PORT:-18300}
metrics_port=${METRICS_PORT:-19464}
gap=${GAP:-0}
export MARQUE_DATA_DIR="$data" MARQUE_WEB_DIR="$data/web" MARQUE_ADDR="127.0.0.1:$port" RUST_LOG=warn
export MARQUE_METRICS="127.0.0.1:$metrics_port"
export MARQUE_CATALOG_MISSES_PER_MINUTE=1000000 MARQUE_CATALOG_DEADLINE_MS=60000
[ "${CACHE:-on}" = off ] && export MARQUE_CATALOG_CACHE_MB=0
export MARQUE_CATALOG_INDEX=$([ "$index" = on ] && echo true || echo false)
asset="app.0123abcd.js"
mkdir -p "$data/web/shell/dist"
[ -f "$data/web/shell/dist/$asset" ] || head -c 1500 /dev/zero | tr '\0' 'x' | sed 's/^/var a="/; s/$/";/' > "$data/web/shell/dist/$asset"
"$bin" serve > "${TMPDIR:-/tmp}/server-$label.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null' EXIT
started=$(date +%s.%N)
for _ in $(seq 1 3000); do curl -fs "http://127.0.0.1:$port/api/health" >/dev/null && break; kill -0 $server 2>/dev/null || break; sleep 0.1; done
echo "$label: ready after $(echo "$(date +%s.%N) - $started" | bc) s; RSS $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$server/status); GAP=$gap s"
sleep "${SETTLE:-10}"
echo "RSS at rest before the calls: $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$server/status)"
origin="http://127.0.0.1:$port"
base="$origin/api/get"
# The server's time spent answering, all operations together (seconds).
served() {
  curl -s "http://127.0.0.1:$metrics_port/metrics" |
    awk '/^marque_http_request_duration_seconds_sum/ {s += $NF} END {printf "%.6f", s}'
}
ms() { python3 -c "print(f'{($1) * 1000:7.1f}')"; }
paths=("productBySearch?search=brake&page=1" "productBySearch?search=filter&page=1" "productBySearch?search=tur&page=1"
  "productBySearch?search=x5%20brake%20disc&page=1" "productBySearch?search=9y5-637-024-02&page=1" "product/brakes"
  "product/brakes?oem=bmw--audi&page=1" "product/brakes?oem=bmw--audi&page=7" "product/engine?product_type=old&fuel_type=diesel&page=1"
  "product/engine?product_type=old&fuel_type=diesel&page=7" "product/brakes/brake-disc?oem=bmw&fuel_type=petrol&page=1"
  "product/brakes/brake-disc?oem=bmw&fuel_type=petrol&page=7" "productByOem/bmw?page=1" "productByOem/bmw?page=50"
  "new-products" "suggestion" "productBySearch?search=&page=1")
car=${CAR:-bmw-x5-g05.b57}
if curl -fs "$base/vehicles?make=bmw&model=x5" | grep -q "${car%%.*}"; then
  for year in ${YEARS:-2019 2021 2023}; do
    paths+=("product/brakes?fits=$car&year=$year" "product/brakes?oem=bmw&fits=$car&year=$year&page=1"
      "product/brakes/brake-disc?fits=$car&year=$year&page=1" "productByOem/bmw?fits=$car&year=$year&page=1"
      "productBySearch?search=brake&fits=$car&year=$year&page=1" "productBySearch?search=&fits=$car&year=$year&page=3")
  done
fi
if [ "$gap" = none ]; then
  # Every call's first answer right after the one before, on one connection (one curl for all): what
  # the server's cold work costs while the machine's memory is warm.
  args=(); for path in "${paths[@]}"; do args+=(-o /dev/null "$base/$path"); done
  mapfile -t firsts < <(curl -s -w '%{http_code} %{time_total}\n' "${args[@]}")
  printf '%-64s %s %9s\n' "call" "code" "first"
  for i in "${!paths[@]}"; do
    printf '%-64s %s %6s ms\n' "${paths[$i]}" "${firsts[$i]% *}" "$(ms "${firsts[$i]#* }")"
  done
  echo "RSS after: $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$server/status)"
  exit 0
fi
printf '%-64s %s %9s %9s %9s %9s  %s\n' "call" "code" "first" "server" "static" "again" "body"
for path in "${paths[@]}"; do
  sleep "$gap"
  static=$(curl -o /dev/null -s -w '%{time_total}' "$origin/$asset")
  sleep "$gap"
  before=$(served)
  t=$(curl -o "${TMPDIR:-/tmp}/body-$label" -s -w '%{http_code} %{time_total}' "$base/$path")
  after=$(served)
  again=$(curl -o /dev/null -s -w '%{time_total}' "$base/$path")
  sum=$(python3 -c "import hashlib;d=open('${TMPDIR:-/tmp}/body-$label','rb').read();print(hashlib.sha1(d).hexdigest()[:10], len(d))")
  printf '%-64s %s %6s ms %6s ms %6s ms %6s ms  %s\n' "$path" "${t% *}" "$(ms "${t#* }")" "$(ms "$after - $before")" \
    "$(ms "$static")" "$(ms "$again")" "$sum"
done
echo "RSS after: $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$server/status) (peak $(awk '/VmHWM/ {printf "%.0f MB", $2/1024}' /proc/$server/status))"
