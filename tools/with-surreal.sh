#!/usr/bin/env bash
# Runs a command beside a fresh SurrealDB server: builds it with the tests (tools/surreal-server.sh),
# starts it on a free loopback port with a temporary data dir and a root user of its own,
# exports where it is, runs the command, and stops the server whatever the command's outcome.
#   MARQUE_TEST_SURREAL_URL   ws://127.0.0.1:<port>
#   MARQUE_TEST_SURREAL_USER  / _PASS  the server's root user (tests create database users with it)
#   MARQUE_SURREAL_BIN        the server binary, for tests that start and stop servers of their own
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$("$here/surreal-server.sh")"
data="$(mktemp -d)"
port="$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
user=marque_root
pass="$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
"$bin" start --bind "127.0.0.1:$port" --user "$user" --pass "$pass" --log warn --no-banner \
  "surrealkv://$data/db" > "$data/server.log" 2>&1 &
server=$!
cleanup() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"; }
trap cleanup EXIT
for _ in $(seq 1 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then cat "$data/server.log" >&2; echo "the SurrealDB server did not start" >&2; exit 1; fi
  sleep 0.1
done
echo "SurrealDB server $("$bin" version 2>/dev/null | head -1) on ws://127.0.0.1:$port" >&2
export MARQUE_TEST_SURREAL_URL="ws://127.0.0.1:$port" MARQUE_TEST_SURREAL_USER="$user" \
  MARQUE_TEST_SURREAL_PASS="$pass" MARQUE_SURREAL_BIN="$bin"
"$@"
