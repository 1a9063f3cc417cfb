# Sourced by the import benches: starts `$bin serve` on 127.0.0.1:$port with its output in the log
# file $1, waits until it answers (at most 10 minutes: a start may bring an older store's schema up
# to date), stops it when the script exits, and leaves its pid in $server.
start_bench_server() {
  local log=$1
  MARQUE_ADDR="127.0.0.1:$port" "$bin" serve > "$log" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
  for _ in $(seq 1 3000); do
    curl -fs "http://127.0.0.1:$port/api/health" >/dev/null && break
    kill -0 $server 2>/dev/null || break
    sleep 0.2
  done
  curl -fs "http://127.0.0.1:$port/api/health" >/dev/null || { echo "the server did not start" >&2; cat "$log" >&2; exit 1; }
  sleep "${BENCH_SETTLE:-8}"
  echo "on $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg); server RSS at rest $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' "/proc/$server/status")"
}
