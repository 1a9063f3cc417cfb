#!/usr/bin/env bash
# Installs one Python test tool exactly as locked, into a virtual environment in a cache outside the
# clone, and prints the environment's directory:
#   tools/py-tool.sh schemathesis   ->  ~/.cache/marque-schemathesis   (bin/schemathesis)
#   tools/py-tool.sh moto           ->  ~/.cache/marque-moto           (bin/moto_server)
#   tools/py-tool.sh aiosmtpd       ->  ~/.cache/marque-aiosmtpd       (bin/python -m aiosmtpd)
# The lock, tools/python/NAME.txt, names the exact version of the tool and of every package it
# needs, each with its SHA-256 hashes: pip installs nothing else (--require-hashes, --no-deps), so
# a new release upstream cannot change what a fresh machine's CI runs. The environment is made
# again whenever the lock changes (its hash is kept beside it). To move a tool to a new version,
# edit tools/python/NAME.in and run tools/python/lock.sh NAME.
# Needs Debian's python3 with venv (python3-venv, installed with sudo-unless-root when missing).
# MARQUE_PYTOOLS_CACHE puts the environments elsewhere (default ~/.cache).
set -euo pipefail
name="${1:?usage: tools/py-tool.sh NAME (a lock in tools/python/NAME.txt)}"
lock="$(cd "$(dirname "$0")" && pwd)/python/$name.txt"
[ -f "$lock" ] || { echo "no lock for $name: $lock" >&2; exit 2; }
venv="${MARQUE_PYTOOLS_CACHE:-$HOME/.cache}/marque-$name"
sum="$(sha256sum "$lock" | cut -d' ' -f1)"
if [ "$(cat "$venv/.lock-sha256" 2>/dev/null || true)" != "$sum" ]; then
  start=$(date +%s)
  echo "installing $name from tools/python/$name.txt into $venv" >&2
  if ! /usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null; then
    SUDO=$( [ "$(id -u)" = 0 ] || echo sudo )
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
  fi
  rm -rf "$venv"
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input \
    --require-hashes --no-deps -r "$lock" >&2
  echo "$sum" > "$venv/.lock-sha256"
  echo "$name installed in $(( $(date +%s) - start )) s" >&2
fi
echo "$venv"
