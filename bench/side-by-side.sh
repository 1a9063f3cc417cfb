#!/usr/bin/env bash
# Two or more release servers kept running side by side (each idle while another is measured), loaded in
# alternation by wrk on loopback: what one server gives up to the other is then not the machine's drift
# between runs. Prints, per round, server and path: requests served in 4 s, and the server's own CPU time per
# request (user + system, in ns), which moves far less with the machine's load than requests per second.
# Used for issue 20 (bench/results/issue-20.md, third pairing).
#
#   bench/side-by-side.sh NAME:BIN:DATA_DIR[:ENV=VALUE] ...     e.g.
#   bench/side-by-side.sh before:/tmp/old/marque-server:$HOME/.cache/marque-bench/100000 \
#                         now:target/release/marque-server:/tmp/copy-of-store now-off:...:MARQUE_METRICS=off
#
# ROUNDS (5), PATHS (the static file and /api/get/brand/oem). Each DATA_DIR is a store of its own (a directory is locked
# by the server that opens it); bench/catalog.sh leaves the static file `app.0123abcd.js` in DATA_DIR/web.
set -euo pipefail
port=18100
names=()
cleanup() { for name in "${names[@]}"; do kill "$(cut -d' ' -f1 "/tmp/side-by-side-$name.pid")" 2>/dev/null || true; done; }
trap cleanup EXIT
for spec in "$@"; do
  IFS=: read -r name bin data envs <<< "$spec"
  port=$((port + 1))
  # shellcheck disable=SC2086 # envs is a list of NAME=VALUE words
  env MARQUE_DATA_DIR="$data" MARQUE_WEB_DIR="$data/web" RUST_LOG=warn MARQUE_ADDR="127.0.0.1:$port" \
    MARQUE_CATALOG_MISSES_PER_MINUTE=1000000 MARQUE_CATALOG_DEADLINE_MS=60000 $envs "$bin" serve \
    > "/tmp/side-by-side-$name.log" 2>&1 &
  echo "$! $port" > "/tmp/side-by-side-$name.pid"
  names+=("$name")
  until curl -fs "http://127.0.0.1:$port/api/health" >/dev/null; do
    kill -0 "$(cut -d' ' -f1 "/tmp/side-by-side-$name.pid")" 2>/dev/null || { cat "/tmp/side-by-side-$name.log" >&2; exit 1; }
    sleep 0.2
  done
done
sleep 10
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
echo "round server path requests cpu_ns_per_request"
for round in $(seq 1 "${ROUNDS:-5}"); do
  for name in "${names[@]}"; do
    read -r pid port < "/tmp/side-by-side-$name.pid"
    for path in ${PATHS:-/app.0123abcd.js /api/get/brand/oem}; do
      t0=$(ticks "$pid")
      requests=$(wrk -t2 -c32 -d4s "http://127.0.0.1:$port$path" | awk '/requests in/ {print $1}')
      t1=$(ticks "$pid")
      echo "$round $name $path $requests $(( (t1 - t0) * 10000000 / requests ))"
    done
  done
done
