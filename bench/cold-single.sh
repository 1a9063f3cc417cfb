#!/usr/bin/env bash
# Single cold answers: the server started with the answer cache off (MARQUE_CATALOG_CACHE_MB=0, so no
# warm-up and nothing kept), each call timed once by curl after the server reports healthy.
# Usage: bench/cold-single.sh <binary> <data dir> <index on|off> <label>
set -u
bin=$1; data=$2; index=$3; label=$4
port=18300
export MARQUE_DATA_DIR="$data" MARQUE_WEB_DIR="$data/web" MARQUE_ADDR="127.0.0.1:$port" RUST_LOG=warn
export MARQUE_CATALOG_MISSES_PER_MINUTE=1000000 MARQUE_CATALOG_DEADLINE_MS=60000 MARQUE_CATALOG_CACHE_MB=0
export MARQUE_CATALOG_INDEX=$([ "$index" = on ] && echo true || echo false)
"$bin" serve > ${TMPDIR:-/tmp}/server-$label.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null' EXIT
started=$(date +%s.%N)
for _ in $(seq 1 3000); do curl -fs "http://127.0.0.1:$port/api/health" >/dev/null && break; kill -0 $server 2>/dev/null || break; sleep 0.1; done
echo "$label: healthy after $(echo "$(date +%s.%N) - $started" | bc) s; RSS $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$server/status)"
sleep "${SETTLE:-10}"
echo "RSS at rest before any request: $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$server/status)"
base="http://127.0.0.1:$port/api/get"
for path in "productBySearch?search=brake&page=1" "productBySearch?search=filter&page=1" "productBySearch?search=tur&page=1" \
  "productBySearch?search=x5%20brake%20disc&page=1" "productBySearch?search=9y5-637-024-02&page=1" "product/brakes" \
  "product/brakes?oem=bmw--audi&page=1" "product/brakes?oem=bmw--audi&page=7" "product/engine?product_type=old&fuel_type=diesel&page=1" \
  "product/engine?product_type=old&fuel_type=diesel&page=7" "product/brakes/brake-disc?oem=bmw&fuel_type=petrol&page=1" \
  "product/brakes/brake-disc?oem=bmw&fuel_type=petrol&page=7" "productByOem/bmw?page=1" "productByOem/bmw?page=50" \
  "new-products" "suggestion" "productBySearch?search=&page=1"; do
  t=$(curl -o ${TMPDIR:-/tmp}/body-$label -s -w '%{http_code} %{time_total}' "$base/$path")
  again=$(curl -o /dev/null -s -w '%{time_total}' "$base/$path")
  sum=$(python3 -c "import json,hashlib;d=open('${TMPDIR:-/tmp}/body-$label','rb').read();print(hashlib.sha1(d).hexdigest()[:10], len(d))")
  printf '%-62s %s first %7.1f ms, again %7.1f ms  body %s\n' "$path" "${t% *}" "$(echo "${t#* } * 1000" | bc)" "$(echo "$again * 1000" | bc)" "$sum"
done
echo "RSS after: $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$server/status) (peak $(awk '/VmHWM/ {printf "%.0f MB", $2/1024}' /proc/$server/status))"
