#!/usr/bin/env bash
# Installs moto's S3-compatible server (PyPI `moto[server]`, pinned) once, into a virtual
# environment in a cache outside the clone, and prints the path of its `moto_server`.
# marque-blobs-s3's tests and the server's shared-picture test start it on a free port
# (MARQUE_TEST_MOTO, set by `make test-rust`).
# Needs Debian's python3 with venv (python3-venv, installed with sudo-unless-root when missing).
set -euo pipefail
version="${MOTO_VERSION:-5.2.5}"
root="${MARQUE_MOTO_CACHE:-$HOME/.cache/marque-moto}/$version"
bin="$root/bin/moto_server"
if [ ! -x "$bin" ]; then
  start=$(date +%s)
  echo "installing moto[server] $version into $root (once)" >&2
  if ! /usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null; then
    SUDO=$( [ "$(id -u)" = 0 ] || echo sudo )
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
  fi
  rm -rf "$root"
  /usr/bin/python3 -m venv "$root"
  "$root/bin/pip" install --quiet --disable-pip-version-check "moto[server]==$version" >&2
  echo "moto[server] $version installed in $(( $(date +%s) - start )) s" >&2
fi
echo "$bin"
