#!/usr/bin/env bash
# Measurement (not a test): four sign-ups at once, each carrying an 8000 × 8000 one-colour PNG
# (~190 KB on the wire, 192 MB decoded), against a server started here on a fresh in-memory
# database. Prints each sign-up's status, the server's resident memory before and its peak
# during them (VmHWM), and the latency of `GET /api/health/live` asked every 50 ms meanwhile.
#
#   bench/picture-bomb.sh            # BENCH_BIN (default: the debug build), BENCH_PORT (18090)
#
# The debug build decodes pictures optimised (Cargo.toml optimises `image` and `png` in test builds),
# so its memory figures are those of a release build; its latencies are higher.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-$HOME/.cache/marque-target}
bin=${BENCH_BIN:-$target/debug/marque-server}
port=${BENCH_PORT:-18090}
[ -x "$bin" ] || { echo "build first: cargo build -p marque-server" >&2; exit 1; }

work=$(mktemp -d)
python3 - "$work/bomb.png" <<'EOF'
import struct, sys, zlib
side = 8000
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
row = b"\0" + bytes([200, 40, 90]) * side
z = zlib.compressobj(9)
data = b"".join(z.compress(row) for _ in range(side)) + z.flush()
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
EOF
echo "picture: 8000 × 8000 RGB, $(stat -c %s "$work/bomb.png") bytes"

MARQUE_ADDR="127.0.0.1:$port" MARQUE_DB=mem:// MARQUE_DATA_DIR="$work/data" MARQUE_WEB_DIR="$work/web" MARQUE_ENV=dev \
  MARQUE_SEED_PRODUCTS=60 RUST_LOG=warn "$bin" serve > "$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
origin="http://127.0.0.1:$port"
for _ in $(seq 1 300); do curl -fs "$origin/api/health/live" >/dev/null && break; sleep 0.2; done
sleep 3
rss() { awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$server/status"; }
hwm() { awk '/VmHWM/ {printf "%.0f", $2/1024}' "/proc/$server/status"; }
start_rss=$(rss)
start_hwm=$(hwm)

# /api/health/live every 50 ms while the sign-ups run.
(
  while [ ! -e "$work/done" ]; do
    curl -s -o /dev/null -m 30 -w '%{time_total}\n' "$origin/api/health/live" >> "$work/live.txt" || echo "failed" >> "$work/live.txt"
    sleep 0.05
  done
) &
prober=$!

began=$(date +%s.%N)
signups=()
for n in 1 2 3 4; do
  curl -s -o "$work/signup-$n.json" -w '%{http_code} %{time_total}\n' \
    -F name=Asha -F "email=bomb$n@example.in" -F password='abcdef1!' -F "mobile=98765432$n$n" \
    -F "profile=@$work/bomb.png;type=image/png" "$origin/api/register" > "$work/status-$n.txt" &
  signups+=($!)
done
wait "${signups[@]}"
ended=$(date +%s.%N)
sleep 0.3
touch "$work/done"
wait "$prober" 2>/dev/null || true

for n in 1 2 3 4; do
  echo "sign-up $n: HTTP $(cut -d' ' -f1 "$work/status-$n.txt") in $(cut -d' ' -f2 "$work/status-$n.txt") s: $(head -c 160 "$work/signup-$n.json")"
done
echo "four sign-ups took $(python3 -c "print(f'{$ended - $began:.2f}')") s"
echo "server memory: $start_rss MB resident before (peak so far $start_hwm MB); peak during: $(hwm) MB (+$(( $(hwm) - start_rss )) MB); after: $(rss) MB"
python3 - "$work/live.txt" <<'EOF'
import sys
lines = [l.strip() for l in open(sys.argv[1]) if l.strip()]
times = sorted(float(l) * 1000 for l in lines if l != "failed")
failed = sum(1 for l in lines if l == "failed")
if times:
    pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
    print(f"/api/health/live meanwhile: {len(times)} answers, {failed} failed; median {pick(0.5):.1f} ms, p99 {pick(0.99):.1f} ms, max {times[-1]:.1f} ms")
else:
    print(f"/api/health/live meanwhile: no answer, {failed} failed")
EOF
