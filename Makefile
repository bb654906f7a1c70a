# socload: make targets for people and pipelines. `make help` lists them.

PREFIX ?= /usr/local
SWIFT ?= swift
APT_PACKAGES := libsqlite3-dev libcurl4-openssl-dev sqlite3
RELEASE_BIN = $(shell $(SWIFT) build -c release --show-bin-path 2>/dev/null)/socload

.PHONY: help deps build run test install clean

help:
	@echo "make deps     install the missing system packages ($(APT_PACKAGES))"
	@echo "make build    build socload in release mode"
	@echo "make run      build, then run the main job on a bundled dataset"
	@echo "make test     build and run the whole test suite"
	@echo "make install  install socload into \$$PREFIX/bin (PREFIX=$(PREFIX))"
	@echo "make clean    remove build products"

deps:
	@./scripts/install-deps.sh $(APT_PACKAGES)

build: deps
	$(SWIFT) build -c release

run: build
	$(RELEASE_BIN) --version
	$(RELEASE_BIN) --help

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

install: build
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 "$(RELEASE_BIN)" "$(DESTDIR)$(PREFIX)/bin/socload"

clean:
	$(SWIFT) package clean
	rm -rf .build
