# socload: make targets for people and pipelines. `make help` lists them.

PREFIX ?= /usr/local
SWIFT ?= swift
APT_PACKAGES := libsqlite3-dev libcurl4-openssl-dev zlib1g-dev libzstd-dev libsnappy-dev libpq-dev sqlite3 python3 time
# The tests also start a throwaway PostgreSQL 15 server, with PostGIS (scripts/with-postgres.sh), and
# check GeoPackages with GDAL (ogrinfo, validate_gpkg.py), completion scripts with zsh and fish, and
# socload report's page in headless Chromium.
TEST_PACKAGES := postgresql-15 postgresql-15-postgis-3 gdal-bin python3-gdal zsh fish python3-venv chromium
N ?= 1000000
SOCLOAD := .build/release/socload
DB ?= socload.sqlite
DOMAIN ?=

.PHONY: help deps build run test install clean datasets bench stress fuzz report

help:
	@echo "make deps     install the missing system packages ($(APT_PACKAGES))"
	@echo "make build    build socload in release mode"
	@echo "make run      build, then fetch n5m4-mism (bundled copy) and query it"
	@echo "make data/ID.sqlite   fetch dataset ID into its own database (DOMAIN=host to use a portal)"
	@echo "make test     build and run the whole test suite (beside a throwaway PostgreSQL server)"
	@echo "make install  install socload into \$$PREFIX/bin (PREFIX=$(PREFIX))"
	@echo "make fuzz     run libFuzzer on the readers ($(FUZZ_TARGETS)) for FUZZ_SECONDS=$(FUZZ_SECONDS) seconds each"
	@echo "make stress   kill loads with SIGKILL TRIALS=$(TRIALS) times and check the database each time"
	@echo "make bench    benchmark against sqlite3's .import and psql's \\copy (N=$(N)), then a simulated portal (PORTAL_N=$(PORTAL_N)); writes bench/results.md"
	@echo "make report   write PROJECT's report (socload.json): REPORT=report.html and its Atom feed report.atom"
	@echo "make datasets regenerate the bundled sample datasets"
	@echo "make clean    remove build products"

deps:
	@./scripts/install-deps.sh $(APT_PACKAGES)

build: deps
	$(SWIFT) build -c release

run: build
	$(SOCLOAD) fetch n5m4-mism --db $(DB) $(if $(DOMAIN),--domain $(DOMAIN),)
	$(SOCLOAD) query "select agency, count(*) as nominations, sum(holdover) as holdovers from n5m4_mism group by agency order by nominations desc" --db $(DB) --format table

# Pipelines: `make data/n5m4-mism.sqlite` (add DOMAIN=data.example.org to fetch from a portal).
# The binary is built when missing, not rebuilt (nor the installer re-run) for every dataset.
$(SOCLOAD):
	$(MAKE) build

data/%.sqlite: | $(SOCLOAD)
	@mkdir -p $(dir $@)
	$(SOCLOAD) fetch $* --db $@ --quiet $(if $(DOMAIN),--domain $(DOMAIN),)

datasets:
	$(SWIFT) run socload-datasets Datasets

test: deps
	@./scripts/install-deps.sh $(TEST_PACKAGES)
	$(SWIFT) build --build-tests
	./scripts/with-postgres.sh $(SWIFT) test --skip-build
	@echo "Benchmark smoke run (tiny N, debug build), so the generator and bench script cannot rot:"
	./scripts/with-postgres.sh sh -c 'python3 bench/bench.py --n 300 --runs 1 --sizes 100,300 --bin-dir .build/debug \
		--meta-mb 5 --data-dir .build/bench-smoke --out .build/bench-smoke/results.md --postgres "$$SOCLOAD_TEST_POSTGRES" > /dev/null \
		&& python3 bench/portal.py --n 40 --scale 0.01 --runs 1 --bin-dir $(CURDIR)/.build/debug \
		--out .build/bench-smoke/results.md --postgres "$$SOCLOAD_TEST_POSTGRES" > /dev/null'

# libFuzzer for FUZZ_SECONDS (600 by default) on each of FUZZ_TARGETS: rows (the rows.json reader
# and converter, from fuzz/corpus), metadata (dataset descriptions, from fuzz/corpus-metadata) and
# soda-page (SODA pages, from fuzz/corpus-soda-page). A crash input is saved in
# .build/fuzz-artifacts/TARGET-; add it to fuzz/regressions (rows) or fuzz/regressions-TARGET so the
# test suite keeps checking it.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= rows metadata soda-page
fuzz: deps
	$(SWIFT) build --product socload-fuzz --build-path .build/fuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING
	mkdir -p .build/fuzz-artifacts
	for target in $(FUZZ_TARGETS); do \
		seeds=fuzz/corpus-$$target; [ $$target = rows ] && seeds=fuzz/corpus; \
		mkdir -p .build/fuzz-corpus-$$target; \
		cp -n $$seeds/* .build/fuzz-corpus-$$target/ 2>/dev/null || true; \
		SOCLOAD_FUZZ_TARGET=$$target .build/fuzz/debug/socload-fuzz .build/fuzz-corpus-$$target \
			-max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=4096 \
			-artifact_prefix=.build/fuzz-artifacts/$$target- -print_final_stats=1 || exit 1; \
	done

# Crash safety under many more SIGKILLs than the test suite's 20 (TRIALS=200 by default).
TRIALS ?= 200
stress: deps
	$(SWIFT) build --build-tests
	$(SWIFT) build -c release --product socload
	SOCLOAD_BIN=$(CURDIR)/.build/release/socload SOCLOAD_STRESS_TRIALS=$(TRIALS) $(SWIFT) test --skip-build --filter CrashSafetyTests

# The benchmark: `make bench` (N=1000000), `make bench N=100000` for a quick one, and
# `SIZES=10000,100000,1000000,5000000` to add 5M rows to the memory table. See bench/results.md.
# The PostgreSQL rows load into a throwaway server with fsync on (default settings).
# `BASELINE=DIR` (a release build of the code before a change, e.g. a worktree's .build/release)
# runs its socload beside the new one on every socload row, alternating, and reports after/before.
# Then bench/portal.py mirrors a simulated portal of PORTAL_N datasets (1000) and refreshes it.
SIZES ?= 10000,100000,1000000
PORTAL_N ?= 1000
bench: build
	@./scripts/install-deps.sh $(TEST_PACKAGES)
	PG_FSYNC=on ./scripts/with-postgres.sh sh -c 'python3 bench/bench.py --n $(N) --sizes $(SIZES) --duckdb --postgres "$$SOCLOAD_TEST_POSTGRES" $(if $(BASELINE),--baseline-bin-dir $(BASELINE)) \
		&& python3 bench/portal.py --n $(PORTAL_N) --postgres "$$SOCLOAD_TEST_POSTGRES"'

# The report of a project's mirror (socload report): the page, and its Atom feed beside it.
PROJECT ?= socload.json
REPORT ?= report.html
report: build
	$(SOCLOAD) report --project $(PROJECT) --out $(REPORT)
	$(SOCLOAD) report --project $(PROJECT) --format atom --out $(basename $(REPORT)).atom

install: build
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 "$(SOCLOAD)" "$(DESTDIR)$(PREFIX)/bin/socload"
	install -d "$(DESTDIR)$(PREFIX)/share/socload/Datasets"
	install -m 644 Datasets/*.json "$(DESTDIR)$(PREFIX)/share/socload/Datasets/"

clean:
	$(SWIFT) package clean
	rm -rf .build
