# Morrow toolchain. Everything here needs only Go and make; `make test` also
# needs Erlang/OTP for the conformance suite, and .ci/ensure-erlang installs
# it (erlang-nox) when it is missing and it can, or says how. The race
# detector also needs cgo and a C compiler; `make test` says so and skips it
# without.

GO       ?= go
BIN      ?= bin
FUZZTIME ?= 10s

.PHONY: all build install test erlang race lint fuzz golden run clean bench

all: lint build test

# The binaries are linked statically (CGO_ENABLED=0): no Go package of
# Morrow uses cgo, but with cgo on, net (the http and Net natives) links the
# C resolver and the binary loads libc at every start; the static binary
# starts with about a sixth fewer instructions (docs/performance.md,
# "Start-up"). The race target below still uses cgo.
## build: compile bin/morrowc and bin/morrow
build:
	CGO_ENABLED=0 $(GO) build -o $(BIN)/morrowc ./cmd/morrowc
	CGO_ENABLED=0 $(GO) build -o $(BIN)/morrow ./cmd/morrow

## install: morrowc and morrow into $(go env GOPATH)/bin (or GOBIN)
install:
	CGO_ENABLED=0 $(GO) install ./cmd/...

## erlang: make sure erl/erlc are on PATH (installs erlang-nox as root)
erlang:
	@sh .ci/ensure-erlang

## test: the whole suite, the VM's fast loop with its index checks on (-tags vmcheck,
## runtime/vm/checked.go), then the runtime under the race detector
test: erlang
	$(GO) test ./...
	$(GO) test -tags vmcheck ./runtime/vm ./runtime/engine
	@$(MAKE) --no-print-directory race

race:
	@if [ "$$($(GO) env CGO_ENABLED)" = "1" ] && command -v "$$($(GO) env CC)" >/dev/null 2>&1; then \
		echo "$(GO) test -race ./runtime/..."; \
		$(GO) test -race ./runtime/...; \
	else \
		echo "make race: skipped, the race detector needs cgo and a C compiler ($$($(GO) env CC))"; \
	fi

## bench: Morrow vs Erlang/OTP benchmark table (docs/reference/runtime.md#benchmarks-and-targets; needs erlang-nox)
bench:
	$(GO) run ./bench/cmd/benchtable $(BENCHFLAGS)
	$(GO) run ./bench/cmd/echobench $(ECHOFLAGS)

# FMT_PATHS are the Morrow sources `make lint` keeps formatted. fixtures/ is
# left out on purpose: its files pin diagnostics to lines and columns (the
# `# ERROR` annotations and the .diag.golden snippets), and many exist to test
# layouts the formatter normalises (tabs, odd indentation widths, embedded
# suites, comments in odd places) or do not parse at all. The fixtures of
# docs/process.md (fixtures/process/doc_*.mr) stay as the document shows them.
# runtime/sched/testdata holds inputs of Go tests, kept as those tests expect.
# The Morrow blocks of docs/tour.md are the files of examples/ (checked by
# go test ./examples/), and lang/format's tests check README.md's.
FMT_PATHS ?= examples bench conformance stdlib/core/prelude.mr

## lint: gofmt must list nothing, go vet must pass, FMT_PATHS must be formatted
lint:
	@out="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*'))"; \
	if [ -n "$$out" ]; then echo "gofmt -l reports unformatted files:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run ./cmd/morrowc fmt --check $(FMT_PATHS)

## fuzz: a short run ($(FUZZTIME)) of every fuzz target, found with go test -list
fuzz:
	@set -e; \
	for dir in $$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -r -n1 dirname | sort -u); do \
		for target in $$($(GO) test -list '^Fuzz' $$dir | grep '^Fuzz'); do \
			echo "fuzz $$dir $$target ($(FUZZTIME))"; \
			$(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) $$dir; \
		done; \
	done

## golden: rewrite golden files (read the diff before committing)
golden:
	GOLDIE_UPDATE=1 $(GO) test ./fixtures/ ./examples/ ./lang/compiler/

## run: run examples/hello.mr
run:
	$(GO) run ./cmd/morrow run examples/hello.mr

clean:
	rm -rf $(BIN)
