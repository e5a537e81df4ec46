# muon: common tasks. `make test` is the test command CI and the README use.
CARGO ?= cargo

.PHONY: build release test lint fmt check-example bench clean

build:
	$(CARGO) build

release:
	$(CARGO) build --release

test:
	$(CARGO) test

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt

clean:
	$(CARGO) clean
