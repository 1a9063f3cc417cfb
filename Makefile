# The two set-up commands of a fresh machine: `make run` and `make test`.
# Everything else here is what they call.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
# Builds are long on a small machine: keep them outside the clone so every
# clone (and every CI run) on this machine reuses them.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/marque-target
BIN_DEBUG := $(CARGO_TARGET_DIR)/debug/marque-server
BIN_SHOP := $(CARGO_TARGET_DIR)/shop/marque-server
# Python test tools (Schemathesis, moto, aiosmtpd) live in venvs outside the clone, each installed
# exactly as locked in tools/python/<tool>.txt by tools/py-tool.sh (again only when the lock changes).
SCHEMATHESIS_VENV := $(or $(MARQUE_PYTOOLS_CACHE),$(HOME)/.cache)/marque-schemathesis

.PHONY: surreal-server debug-bin poppler moto schemathesis razorpay-sdk lint-openapi lint-rust lint-fmt run test web-deps web-build chromium aiosmtpd test-rust test-fuzz test-web test-journey test-journey-admin contract generate bench bench-import bench-orders bench-web lighthouse

## The shop at http://localhost:8080 with the demo catalog (MARQUE_ADDR, MARQUE_DATA_DIR, ... to change).
# The `shop` profile (opt-level 1) compiles in about half the time of `release`
# and serves the demo catalog within ~1.5x of its speed (figures in bench/search.sh's note).
run: web-build
	cargo build --profile shop -p marque-server
	MARQUE_ENV="$${MARQUE_ENV:-dev}" MARQUE_OWNER_EMAIL="$${MARQUE_OWNER_EMAIL:-owner@marque.test}" MARQUE_WEB_DIR="$${MARQUE_WEB_DIR:-$(CURDIR)/frontends}" $(BIN_SHOP) serve

## Every test: Rust (domain, use cases, adapter contracts, HTTP black-box), Schemathesis on the live API, contract drift, frontends, browser journeys.
test: web-deps chromium aiosmtpd poppler moto schemathesis lint-fmt lint-openapi test-rust test-fuzz test-web test-journey

## The Rust habits: formatted as rustfmt.toml says, and no clippy warning (the workspace's lints, as errors).
## `make test` lints while it builds (LINTED below); this target checks without building. The SurrealDB test
## server (a `main` of one line) is left out: checking its HTTP stack costs clippy minutes.
lint-rust: lint-fmt
	cargo clippy --workspace --exclude marque-surreal-server --all-targets -- -D warnings

lint-fmt:
	cargo fmt --all --check

# Every test build of make compiles the workspace's crates with clippy (tools/rustc-clippy.sh, cargo's workspace
# wrapper, as `cargo clippy` sets it for its check): a clippy warning fails the build, as `make lint-rust` would.
# One compile of every dependency instead of clippy's check of them all and then the build (that check took 411 s
# of an empty-cache run on 2 cores, build scripts included). test-rust, debug-bin and contract share the one build.
LINTED := RUSTC_WORKSPACE_WRAPPER=$(CURDIR)/tools/rustc-clippy.sh

## Every Rust test, beside a real SurrealDB server (built with the tests by tools/surreal-server.sh,
## started on a free port by tools/with-surreal.sh): the store suites run on
## mem://, surrealkv:// and ws://, and the server tests that need one (two app instances) run too.
# MARQUE_TEST_MOTO: moto's S3-compatible server for marque-blobs-s3 and the shared-pictures test.
# MARQUE_TEST_AIOSMTPD: a Python that has aiosmtpd, for marque-smtp's real-server test.
# razorpay-sdk: Razorpay's Node SDK for the sandbox's SDK test (ignored without it, run here).
# poppler: pdftotext, with which marque-pdf's tests read invoices and credit notes back.
# TEST_THREADS: four on two cores, because many tests wait (on the SurrealDB server over ws://, on child processes):
# the store's ws:// suites 167 s instead of 200 s; the server's black-box tests 250 s here, 291 s in an empty-cache
# CI run (300 s with two threads), all passing.
TEST_THREADS ?= 4
test-rust: moto aiosmtpd razorpay-sdk poppler
	MARQUE_TEST_MOTO="$${MARQUE_TEST_MOTO:-$$(tools/moto-server.sh)}" \
	MARQUE_TEST_AIOSMTPD="$${MARQUE_TEST_AIOSMTPD:-$$(tools/py-tool.sh aiosmtpd)/bin/python}" \
	  $(LINTED) tools/with-surreal.sh cargo test --workspace --all-targets -- --include-ignored --test-threads $(TEST_THREADS)

## The SurrealDB server for the tests (tools/surreal-server, a member of the workspace), built together with every
## test target so the two share one build of SurrealDB.
surreal-server:
	$(LINTED) tools/surreal-server.sh

## The debug binary that Schemathesis and the journeys drive ($(BIN_DEBUG)) comes from the test build itself
## (`cargo test --workspace --all-targets --no-run`, already done by test-rust, so this takes seconds). Building
## `-p marque-server` alone would resolve features without the tests' dev-dependencies and recompile 34 crates
## (8-9 minutes here). The binary differs from `cargo build -p marque-server`'s only by its `test-hooks` feature
## (a Rust accessor for in-process tests that `main` never calls) and by dependency features the tests turn on.
debug-bin:
	$(LINTED) cargo test --workspace --all-targets --no-run --locked

## Schemathesis over every operation of /api/openapi.json on the debug server (tools/fuzz-api.sh):
## no 5xx, every answer as documented; FUZZ_MAX_EXAMPLES, FUZZ_SEED to change.
test-fuzz: schemathesis debug-bin
	MARQUE_SERVER_BIN=$(BIN_DEBUG) SCHEMATHESIS=$(SCHEMATHESIS_VENV)/bin/schemathesis tools/fuzz-api.sh

## Redocly's recommended rules over contract/openapi.json (Redocly's CLI pinned in tools/redocly): no error
## (warnings, such as a call that cannot fail with a 4xx, are shown and allowed).
lint-openapi:
	cd tools/redocly && npm ci --no-audit --no-fund
	cd tools/redocly && npm run --silent lint

# The frontends are built once per `make test` (web-build, which test-journey also needs; make runs it once).
# web-build type-checks every package first, so the tests here skip `npm test`'s own type-check (`test:built`).
test-web: web-deps web-build
	cd frontends && npm run check:api-client
	cd frontends && npm run test:built

test-journey: web-build chromium poppler debug-bin
	MARQUE_SERVER_BIN=$(BIN_DEBUG) MARQUE_WEB_DIR=$(CURDIR)/frontends node frontends/e2e/journey.mjs
	MARQUE_SERVER_BIN=$(BIN_DEBUG) MARQUE_WEB_DIR=$(CURDIR)/frontends node frontends/e2e/accounts.mjs
	MARQUE_SERVER_BIN=$(BIN_DEBUG) MARQUE_WEB_DIR=$(CURDIR)/frontends node frontends/e2e/checkout.mjs
	MARQUE_SERVER_BIN=$(BIN_DEBUG) MARQUE_WEB_DIR=$(CURDIR)/frontends node frontends/e2e/budget.mjs
	MARQUE_SERVER_BIN=$(BIN_DEBUG) MARQUE_WEB_DIR=$(CURDIR)/frontends node frontends/e2e/garage.mjs
	MARQUE_SERVER_BIN=$(BIN_DEBUG) MARQUE_WEB_DIR=$(CURDIR)/frontends node frontends/e2e/admin.mjs

## The back office's journey alone (frontends/e2e/admin.mjs, also the last line of `test-journey`): an owner added by
## the CLI sets up and signs in with TOTP, then catalog, photographs, storefront search and price, stock, an offer seen
## on /review, the audit trail, and a refused catalog member, at 1280 and 360 px.
test-journey-admin: web-build chromium debug-bin
	MARQUE_SERVER_BIN=$(BIN_DEBUG) MARQUE_WEB_DIR=$(CURDIR)/frontends node frontends/e2e/admin.mjs

web-deps:
	cd frontends && { [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund; }

## Razorpay's official Node SDK (pinned in tools/razorpay-sdk), which drives the payment sandbox in its tests.
razorpay-sdk:
	cd tools/razorpay-sdk && npm ci --no-audit --no-fund

web-build: web-deps
	cd frontends && npm run build

## Debian's chromium for the browser journey, installed when missing.
chromium:
	@command -v chromium >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

## Debian's poppler-utils: the checkout journey reads the downloaded invoice.pdf back with pdftotext.
poppler:
	@command -v pdftotext >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null; }

## moto's S3-compatible server (PyPI moto[server] 5.2.5, tools/python/moto.txt) in a venv at ~/.cache/marque-moto;
## the S3 picture store's tests start it (they say SKIPPED without MARQUE_TEST_MOTO).
moto:
	@tools/moto-server.sh >/dev/null

## Schemathesis (PyPI 4.32.5, tools/python/schemathesis.txt) in a venv at ~/.cache/marque-schemathesis.
schemathesis:
	@tools/py-tool.sh schemathesis >/dev/null

## aiosmtpd (PyPI 1.4.6, tools/python/aiosmtpd.txt), a real SMTP server for marque-smtp's tests, in a venv at
## ~/.cache/marque-aiosmtpd (the test says SKIPPED without MARQUE_TEST_AIOSMTPD or Debian's python3-aiosmtpd).
aiosmtpd:
	@tools/py-tool.sh aiosmtpd >/dev/null

## Every catalog read of issue 10 on the release server, 100,000 products seeded once,
## load from wrk on loopback, each figure beside a static file's (PRODUCTS, BENCH_DURATION to change).
bench:
	cargo build --release -p marque-server
	bench/catalog.sh $${PRODUCTS:-100000}

## Issue 23's bulk import and export at 100,000 rows through the admin API (bench/import.sh), on a copy of
## the store `make bench` seeded: export, dry run, apply, the same apply again, one price in ten changed.
bench-import:
	cargo build --release -p marque-server
	cd frontends && { [ -d node_modules ] || npm ci --no-audit --no-fund; }
	bench/import.sh $${PRODUCTS:-100000}

## Storefront reads while orders come in (about BENCH_ORDER_RATE a second, through the real pay calls),
## each beside the same read with no orders, on a copy of the store `make bench` seeded.
bench-orders:
	cargo build --release -p marque-server
	bench/orders.sh $${PRODUCTS:-100000}

## Lighthouse 12.8.2 (mobile, default simulated throttling) on every storefront page against the release server:
## each page's four scores and LCP, CLS, TBT (RUNS=3 for the median of three). Not part of `make test`.
LIGHTHOUSE_DIR ?= $(HOME)/.cache/marque-lighthouse
bench-web: web-build chromium lighthouse
	cargo build --release -p marque-server
	MARQUE_SERVER_BIN=$(CARGO_TARGET_DIR)/release/marque-server MARQUE_WEB_DIR=$(CURDIR)/frontends \
	  LIGHTHOUSE_DIR=$(LIGHTHOUSE_DIR) node bench/lighthouse.mjs $${RUNS:-1}

## Lighthouse itself (12.8.2, with its lockfile in tools/lighthouse), installed by `npm ci` into a cache outside
## the clone (it is no dependency of the shop); again whenever the lockfile changes.
lighthouse:
	@cmp -s tools/lighthouse/package-lock.json $(LIGHTHOUSE_DIR)/package-lock.json && \
	  test -f $(LIGHTHOUSE_DIR)/node_modules/lighthouse/package.json || { \
	  mkdir -p $(LIGHTHOUSE_DIR) && cp tools/lighthouse/package.json tools/lighthouse/package-lock.json $(LIGHTHOUSE_DIR)/ && \
	  cd $(LIGHTHOUSE_DIR) && npm ci --no-audit --no-fund; }

## Regenerate contract/openapi.json from the server, then the TypeScript client.
contract: debug-bin
	$(BIN_DEBUG) openapi > contract/openapi.json
	cd frontends && npm run generate -w @marque/api-client

## Regenerate frontends/packages/rules/src/generated.ts from the domain's rules (tools/codegen).
generate:
	cargo run -q -p marque-codegen
