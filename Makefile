# muon: common tasks. `make test` is the test command the README and CI use; it needs
# nothing beside the checkout. `make test-corpus` adds the tests that need the shared corpus
# (../shared/corpus) and fails when it is missing; CI runs both.
CARGO ?= cargo

.PHONY: build release test test-corpus lint fmt doc check-example bench differential differential-random differential-data seeds seeds-big clean

build:
	$(CARGO) build

release:
	$(CARGO) build --release

test:
	$(CARGO) test

test-corpus:
	@test -f ../shared/corpus/oracle.tsv || { echo "make test-corpus: ../shared/corpus/oracle.tsv is missing (the shared corpus must sit beside the checkout)" >&2; exit 1; }
	@test -f ../shared/mcrl2-examples/oracle.tsv || { echo "make test-corpus: ../shared/mcrl2-examples/oracle.tsv is missing (mCRL2's examples must sit beside the checkout)" >&2; exit 1; }
	$(CARGO) test --features corpus

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt

doc:
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps

# A real check on a bundled seed model: A.1 (tmin 1, tmax 10) against two heartbeat
# properties; prints a verdict per formula.
# Exit status 1 means a formula does not hold (R1 here, as in the seed); only 2 (an error) fails.
check-example: release
	./target/release/muon check lps/A1_binary_heartbeat.mcrl2 \
		-f formulas/heartbeat_R1_no_error.mcf -f formulas/heartbeat_A1_R2.mcf; \
		status=$$?; test $$status -le 1

# Benchmarks (never part of the tests): exploration and rewriting of the bundled models.
bench: release
	scripts/bench-lps2lts
	scripts/bench-rewrite

# muon beside mCRL2 202607.0's results on every untimed mCRL2 example (long; writes
# fixtures/differential.tsv). MCRL2=<bin dir> fills the rows the oracle left open.
differential: release
	scripts/differential $(if $(MCRL2),--mcrl2 $(MCRL2) --ltscompare,)

# Random specifications and formulas through muon and mCRL2 (needs mCRL2's tools beside the
# checkout, ../anchors/mcrl2-build/stage/bin, or MCRL2_BIN). N specifications from SEED.
N ?= 300
SEED ?= 1
differential-random: release
	scripts/differential-random --count $(N) --seed $(SEED) --jobs 2 --muon target/release/muon

# Random closed data expressions of every sort through `muon rewrite` and mCRL2's mcrl2i.
differential-data: release
	scripts/differential-data --count $(N) --seed $(SEED) --muon target/release/muon

# The seed table: every seed model of lps/ that runs in minutes, explored and checked with
# its formulas (writes lps/seed-results.tsv and lps/seed-table.md). MCRL2=<bin dir> adds
# mCRL2's state counts beside muon's. `seeds-big` runs the large models with guards.
seeds: release
	scripts/seeds $(if $(MCRL2),--mcrl2 $(MCRL2),)

seeds-big: release
	scripts/seeds --big $(if $(MCRL2),--mcrl2 $(MCRL2),)

clean:
	$(CARGO) clean
