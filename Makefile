# The two commands: `make run` and `make test`. Everything else is for developers.
CARGO ?= cargo
NPM ?= npm

.PHONY: run test check lint fmt bench perf perf-workspace perf-session deps ui ui-test app app-test no-test-hooks cli tour test-rust test-ui test-e2e bindings check-bindings test-map dist dist-debug dist-check

deps:
	@scripts/deps.sh

## The UI bundle (ui/dist), embedded into the app at build time.
ui: deps
	cd ui && $(NPM) run --silent build

## The UI with the end-to-end tests' hooks (ui/src/test-hooks.ts), for make test-e2e and perf.
ui-test: deps
	cd ui && COWRITING_TEST_HOOKS=1 $(NPM) run --silent build

## A bundle to ship has no test hooks.
no-test-hooks:
	@if grep -l '__cowriting' ui/dist/assets/*.js; then echo "ui/dist is a test build (it has window.__cowriting): run make ui" >&2; exit 1; fi

## The desktop app (debug build; serves ui/dist from the binary).
app: ui
	$(CARGO) build --locked -p cowriting-desktop

## The same with the test hooks built in (make test-e2e, make perf); make app builds it back without.
app-test: ui-test
	$(CARGO) build --locked -p cowriting-desktop

## The CLI, with Harper embedded (as in the app).
cli:
	$(CARGO) build --locked --features harper --bin cowriting

## Build and open the app on the bundled sample workspace.
run: app
	scripts/run-app.sh

## The README's tour of the CLI, as written, on a new copy of the sample workspace.
tour: cli
	scripts/tour.sh $(TARGET_DIR)/debug/cowriting

## Every test: Rust (unit, CLI, property, golden), UI (vitest + tsc), real-app end to end.
test: deps test-rust test-ui test-e2e

## The library and CLI tests build without Harper (fast); Harper's own tests run with it;
## the app's own unit tests (window guard, rendering, settings) in its crate. The app crate
## embeds ui/dist at compile time, so the bundle is built first (with the hooks test-e2e uses,
## so the app is not rebuilt twice); a fresh clone has no ui/dist.
test-rust: ui-test
	$(CARGO) test --locked
	$(CARGO) test --locked --features harper --test producers_harper
	$(CARGO) test --locked -p cowriting-desktop

test-ui: deps
	cd ui && $(NPM) run --silent typecheck && $(NPM) run --silent test

test-e2e: app-test cli
	scripts/e2e.sh

## TypeScript types for the IPC, generated from Rust (ts-rs), and the app's command list
## (src-tauri/src/commands.rs's table; its crate embeds ui/dist, so it needs a UI bundle).
bindings:
	$(CARGO) test --locked --lib --features ts -p cowriting-core -p cowriting-workspace -p cowriting-producers -p cowriting export_bindings
	test -d ui/dist || $(MAKE) ui
	COWRITING_WRITE_BINDINGS=1 $(CARGO) test --locked -p cowriting-desktop the_ui_command_list_is_the_table

## The committed bindings must be what the Rust code generates.
check-bindings: bindings
	git diff --exit-code -- ui/src/bindings || { echo "ui/src/bindings is stale: run 'make bindings' and commit" >&2; exit 1; }

## docs/tests.md, the map of the test files, generated from each file's header comment.
test-map:
	COWRITING_WRITE_TEST_MAP=1 $(CARGO) test --locked --test architecture the_test_map_is_generated_from_the_files

## fmt + clippy -D warnings (core and app) + rustdoc -D warnings + fresh IPC types.
lint: deps
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --locked --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) rustdoc --locked -p cowriting-cli --bin cowriting
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --locked --no-deps -p cowriting-core -p cowriting-workspace -p cowriting-producers -p cowriting-git -p cowriting
	$(MAKE) check-bindings

## What CI runs: tests and lints.
check: test lint

fmt:
	$(CARGO) fmt --all

## Criterion benchmarks; figures in docs/performance.md.
bench:
	$(CARGO) bench --bench core

## Measure the real app (cold start, keystrokes, 5 MB + 1,000 proposals, memory) beside
## its floors: a bare Tauri window (blank, and with bare CodeMirror: ui/perf).
perf: app-test
	$(CARGO) build --locked -p cowriting-desktop --example bare_window
	cd ui && npx vite build --config perf/vite.config.ts
	cd tests/e2e && if [ -z "$${DISPLAY:-}" ]; then xvfb-run -a -s "-screen 0 1280x800x24" node perf.mjs; else node perf.mjs; fi

## A workspace of any size: 40,000 generated pages (or $$COWRITING_PERF_WS) beside the sample:
## CLI status and search beside git and grep, the app's start, a click in the tree.
perf-workspace: app-test cli
	cd tests/e2e && if [ -z "$${DISPLAY:-}" ]; then xvfb-run -a -s "-screen 0 1280x800x24" node perf-workspace.mjs; else node perf-workspace.mjs; fi

## A long session: an agent proposing from outside while the writer decides and
## types; memory every 50 cycles beside a fresh app (CYCLES=N, default 300).
perf-session: app-test cli
	cd tests/e2e && if [ -z "$${DISPLAY:-}" ]; then xvfb-run -a -s "-screen 0 1280x800x24" node perf-session.mjs; else node perf-session.mjs; fi

## ---- The Debian package -------------------------------------------------------------
## Tauri's bundler (the npm @tauri-apps/cli in ui/, offline) makes the .deb from
## src-tauri/tauri.conf.json: the app, the desktop entry (src-tauri/linux/), the icons,
## .md/.markdown as files it opens, and the `cowriting` CLI as /usr/bin/cowriting. The
## CLI's path depends on the target folder and the profile, so it is passed here. The
## bundle settings live in tauri.conf.json itself (bundle.active: true): only `tauri build`
## reads them; `cargo build` (make app, run, test) never bundles, so a separate file merged
## with --config would keep nothing apart.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
TAURI := TAURI_APP_PATH=src-tauri TAURI_FRONTEND_PATH=ui ui/node_modules/.bin/tauri
deb_cli = '{"bundle":{"linux":{"deb":{"files":{"/usr/bin/cowriting":"$(abspath $(TARGET_DIR))/$(1)/cowriting"}}}}}'

## The release .deb (target/release/bundle/deb/).
dist: ui no-test-hooks
	$(CARGO) build --locked --release --features harper --bin cowriting
	$(TAURI) build --ci --bundles deb --config $(call deb_cli,release) -- --locked
	@echo "Built $$(ls -t $(TARGET_DIR)/release/bundle/deb/*.deb | head -1)"

## The same .deb from the debug profile (target/debug/bundle/deb/), for the CI check.
dist-debug: ui no-test-hooks cli
	$(TAURI) build --debug --ci --bundles deb --config $(call deb_cli,debug) -- --locked
	@echo "Built $$(ls -t $(TARGET_DIR)/debug/bundle/deb/*.deb | head -1)"

## Install the .deb, check the CLI on PATH, the desktop entry and its icons, start the app
## from its desktop entry with a .md file under Xvfb (screenshot: target/dist-check.png),
## uninstall. Root (or CI with sudo). A cowriting package it did not install (the user's own)
## is left alone: the .deb is then checked unpacked into a scratch folder (dpkg-deb -x), the
## app started from there. CI checks the debug-profile .deb, which reuses the
## debug build `make test` has just made: measured +1 min 45 s (the app crate rebuilt with
## the bundle config, then bundled) and +1 min for the check. The release build of
## `make dist` took 38 min (32 min of CPU: release CLI with Harper, then the app) on a
## 2-core machine, far more than CI should add; the two packages differ only in the
## profile (debug 177 MiB, release 29 MiB).
dist-check: dist-debug
	scripts/dist-check.sh $(TARGET_DIR)/debug/bundle/deb
