# The two commands: `make run` and `make test`. Everything else is for developers.
CARGO ?= cargo

.PHONY: run test check lint fmt bench deps tour

deps:
	@scripts/deps.sh

## Build and run: until the desktop app lands, a tour of the CLI on the sample workspace.
run: deps
	$(CARGO) build --bin cowriting
	scripts/tour.sh target/debug/cowriting

## Every test: unit, integration (real CLI binary), property tests, golden files.
test: deps
	$(CARGO) test --locked

## fmt + clippy -D warnings.
lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --locked --all-targets -- -D warnings

## What CI runs: tests and lints.
check: test lint

fmt:
	$(CARGO) fmt --all

## Criterion benchmarks; figures in docs/performance.md.
bench:
	$(CARGO) bench --bench core
