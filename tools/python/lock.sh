#!/usr/bin/env bash
# Rewrites the lock of one Python test tool (tools/python/NAME.txt) from what it asks for
# (tools/python/NAME.in, the tool at an exact version): pip-compile, itself pinned, resolves every
# dependency for Debian's python3 and records each at one version with the hashes of all its files.
#   tools/python/lock.sh schemathesis      (or: lock.sh schemathesis moto aiosmtpd)
# Then run tools/py-tool.sh NAME (make test does) and commit NAME.in and NAME.txt together.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
[ $# -gt 0 ] || { echo "usage: tools/python/lock.sh NAME..." >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install --quiet --disable-pip-version-check pip-tools==7.6.2
cd "$here"
for name in "$@"; do
  CUSTOM_COMPILE_COMMAND="tools/python/lock.sh $name" "$tmp/venv/bin/pip-compile" --quiet --generate-hashes --allow-unsafe --strip-extras \
    --no-emit-index-url --no-emit-find-links --output-file "$name.txt" "$name.in"
  echo "tools/python/$name.txt: $(grep -c '^[A-Za-z]' "$name.txt") packages" >&2
done
