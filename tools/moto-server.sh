#!/usr/bin/env bash
# Installs moto's S3-compatible server (PyPI `moto[server]`, locked in tools/python/moto.txt with
# every dependency at an exact version and hash) once, into a virtual environment in a cache
# outside the clone (tools/py-tool.sh: ~/.cache/marque-moto), and prints the path of its `moto_server`.
# marque-blobs-s3's tests and the server's shared-picture test start it on a free port
# (MARQUE_TEST_MOTO, set by `make test-rust`).
set -euo pipefail
venv="$("$(dirname "$0")/py-tool.sh" moto)"
echo "$venv/bin/moto_server"
