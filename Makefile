# masrl: the generator behind the awesome list of the survey on RL for
# LLM-based multi-agent systems. `make site` builds public/ from the corpus;
# `make test` runs every test. Both install what they need.

CORPUS ?= ../shared/corpus
# PROFILE is the profile the corpus is published with: survey (the
# survey's claims, pinned pool, orchestration sub-decisions and pages),
# which ../shared/corpus needs and cannot say itself (it is read-only
# input with no masrl.yaml). PROFILE= builds it as a list of one's own.
PROFILE ?= survey
GO     ?= go
BIN    := bin/masrl

# Every native Go build and test make runs uses the one configuration the
# releases are built with (make dist, make wheel): CGO off and -trimpath.
# The go command compiles each package once per configuration, so with
# two of them a fresh make test compiled the standard library and every
# dependency twice (the wheel's binary alone took 132 s, as long as
# bin/masrl); with one, the wheel, go vet, staticcheck and the tests reuse
# what bin/masrl compiled. The tests then run the code as it ships.
# GOFLAGS keeps what go env says (the environment or go env -w) and adds
# -trimpath.
CGO_ENABLED ?= 0
export CGO_ENABLED
export GOFLAGS := $(strip $(shell $(GO) env GOFLAGS) -trimpath)

# BUILD_GOGC and BUILD_GOMEMLIMIT are the GOGC and GOMEMLIMIT of the go
# commands that only compile, link or analyse (and of the compilers,
# linkers and analysers they start), never of a test: the compiler spends
# a good part of its CPU collecting garbage on a heap of a few hundred
# MB. With the collector off until a process's heap nears 1 GiB, a cold
# go build of cmd/masrl took 53.6 s of CPU instead of 59.1 s with
# GOGC=400 (73.1 s with the default 100; its largest process 685 MB
# instead of 406 MB), the validator's 16.2 s and 17.2 s instead of 18.3 s
# and 20.9 s, staticcheck's analysis with its cache empty 15.2 s and
# 14.9 s instead of 16.3 s and 16.8 s (largest process 1.05 GB instead
# of 535 MB): the limit bounds each process, where GOGC=off alone would
# let a large package's compile or the analysis grow without end. The
# tests run with the GOGC the environment gives, since masrl sets its own
# when GOGC is empty and some tests check that.
BUILD_GOGC       ?= off
BUILD_GOMEMLIMIT ?= 1GiB
BUILDENV := GOGC=$(BUILD_GOGC) GOMEMLIMIT=$(BUILD_GOMEMLIMIT)

.PHONY: all site test bench bench-quick bench-peers serve build clean browsertest

all: site

# GO_SRC is every file the Go binaries are built from (sources, embedded
# templates, data, assets and the example trace), so that make rebuilds
# bin/masrl and the WebAssembly validator only when one of them changed;
# a second make site is then the site build alone.
# Every top-level directory counts but those that are output, tests,
# benchmarks or the Python package, so a new package needs no edit here.
GO_SRC := go.mod go.sum $(shell find $(filter-out bench/ bin/ browsertest/ dist/ node_modules/ public/ python/,$(wildcard */)) -type f -not -name '*_test.go')

# The WebAssembly validator the traces page runs: the module, Go's loader
# for it (from the Go that built it) and the page's script, side by side.
VALIDATOR       := bin/validator
VALIDATOR_FILES := $(VALIDATOR)/masrl.wasm $(VALIDATOR)/wasm_exec.js $(VALIDATOR)/validator.js
WASM_EXEC       := $(firstword $(wildcard $(addsuffix /wasm_exec.js,$(addprefix $(shell $(GO) env GOROOT),/lib/wasm /misc/wasm))))

build: $(BIN)

$(BIN): $(GO_SRC)
	$(BUILDENV) $(GO) build -o $@ ./cmd/masrl
	@touch $@

# BASE_URL is where the site is published (masrl.yaml's base_url, or this).
# Empty, the default, builds a site without canonical links, Open Graph
# URLs, sitemap and feed, and says so: a local build must not publish
# localhost addresses. The Pages workflow passes the address Pages reports.
BASE_URL ?=
ADDR     ?= 127.0.0.1:8080

# site builds public/ with the WebAssembly validator on the traces page.
# DOWNLOADS=$(DIST) after make dist adds the native binaries.
DOWNLOADS ?= $(VALIDATOR)
site: $(BIN) $(VALIDATOR_FILES)
	./$(BIN) build --corpus $(CORPUS) $(if $(PROFILE),--profile $(PROFILE)) --out public $(if $(BASE_URL),--base-url $(BASE_URL)) --downloads $(DOWNLOADS)

$(VALIDATOR)/masrl.wasm: $(GO_SRC)
	@mkdir -p $(@D)
	$(BUILDENV) GOOS=js GOARCH=wasm $(GO) build -trimpath -buildvcs=false -o $@ ./cmd/masrl-wasm
	@touch $@

$(VALIDATOR)/wasm_exec.js: $(WASM_EXEC)
	@mkdir -p $(@D)
	cp $< $@

$(VALIDATOR)/validator.js: trace/validator/validator.js
	@mkdir -p $(@D)
	cp $< $@

# dist cross-compiles the masrl binary for the platforms the traces page
# offers (site.Platforms), puts the WebAssembly validator beside them and
# writes SHA256SUMS: the files of a release (release.yml uploads them).
# make site does not need it. CGO off, -trimpath, no symbol tables and no
# VCS stamp make the binaries depend on the sources alone, so their sums
# change only when the code does.
DIST      := bin/dist
PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

.PHONY: dist
dist: $(DIST)/SHA256SUMS

$(DIST)/SHA256SUMS: $(GO_SRC) $(VALIDATOR_FILES)
	@mkdir -p $(DIST)
	@for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; ext=; [ $$os = windows ] && ext=.exe; \
		echo "go build masrl for $$os/$$arch"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -buildvcs=false -ldflags='-s -w' -o $(DIST)/masrl-$$os-$$arch$$ext ./cmd/masrl || exit 1; \
	done
	cp $(VALIDATOR_FILES) $(DIST)/
	cd $(DIST) && sha256sum masrl-* masrl.wasm wasm_exec.js validator.js > SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS

serve: $(BIN) $(VALIDATOR_FILES) node_modules
	./$(BIN) serve --corpus $(CORPUS) $(if $(PROFILE),--profile $(PROFILE)) --out public --addr $(ADDR) --templates templates --data data --downloads $(DOWNLOADS)

# test builds the site and installs what the tests need first (Debian's
# chromium and shellcheck, the npm packages): the browser tests in
# browsertest/ load public/ and, with MASRL_BROWSER set, fail rather than
# skip when anything they need is missing. lint and actionlint run first.
# The packages the page's WebAssembly module is built from are tested again
# as that build (GOOS=js, run by Node through Go's go_js_wasm_exec), since
# files built only there (trace/otlp/proto_js.go) are tested only there:
# this module's packages among go list -deps of cmd/masrl-wasm for js/wasm
# (WASM_PKGS), so a package the module starts or stops importing joins or
# leaves the rerun by itself. trace/... tested trace/partial (17 s of CPU
# under Node) and trace/internal/gentables, which the module never
# imports, and missed internal/diag, internal/suggest, schema and
# internal/atomicfile, which it does.
# python-test runs the Python package's tests on its freshly built wheel.
# The native go test skips its own vet pass: make lint runs all of go
# vet (for the host; the wasm run keeps it, for the js-only files).
# -timeout 30m: go test's default of 10 minutes per package is a time
# limit that a busy machine can reach in browsertest (Lighthouse, a
# 10,000-entry papers site, the million-event viewer); the tests assert no
# time, so neither may their harness.
# The four parts run side by side (-j5), each as soon as what it needs
# is built: the native go test (test-native, after the site, node_modules
# and test-compile: browsertest, the longest, starts first and runs while
# the others compute), the WebAssembly rerun (test-wasm, after the
# validator, which compiled the standard library for js/wasm), lint and
# actionlint (test-lint, after test-compile) and the Python side (pip,
# the wheel, pytest's Ray cluster). One after the other, lint held the
# tests back 3 to 4 minutes while browsertest mostly waited on Chromium;
# now every part fills what the others leave of the two cores, to the
# end. No package is compiled twice at once: the wheel's go build waits
# for bin/masrl (see wheel), and go test, go vet, staticcheck and go fix
# for test-compile. Each target's output is printed whole when it ends
# (--output-sync=target).
# The four parts keep their temporary files (TMPDIR: go test's
# t.TempDir, the sites and traces the tests write, Chromium's profiles,
# the go command's work directory, pip's unpacking) in a directory of
# their own under TEST_TMPDIR, removed when they end, passed, failed or
# interrupted.
# TEST_TMPDIR is /dev/shm, a tmpfs, when it has TEST_TMPDIR_MIN_KB free
# (4 GiB; a container's default 64 MB is not enough), else the
# environment's TMPDIR: the tests create and remove tens of thousands of
# files (a 10,000-entry site in TestPapersPageBounded, the site package's
# builds), and on a disk file system that costs the kernel far more than
# in memory. On this machine's ext4 (mounted with discard), go test
# ./site spent 18.6 s and 19.6 s of system time with TMPDIR=/tmp and
# 2.1 s and 1.9 s with /dev/shm (user time 15 s either way), and
# TestPapersPageBounded 13.6 s against 2.9 s. pytest keeps the
# environment's TMPDIR (TEST_OUTER_TMPDIR): Ray's socket paths under its
# temporary folder must fit 107 bytes.
TEST_TMPDIR_MIN_KB ?= 4194304
TEST_TMPDIR ?= $(or $(shell df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 && $$4 >= $(TEST_TMPDIR_MIN_KB) {print "/dev/shm"}'),$(or $(TMPDIR),/tmp))

test: debian
	@tmp=$$(mktemp -d "$(TEST_TMPDIR)/masrl-test.XXXXXX") || exit 1; \
	trap 'rm -rf "$$tmp"' EXIT; trap 'exit 130' INT TERM HUP PIPE; \
	echo "make test: temporary files in $$tmp"; \
	TEST_OUTER_TMPDIR=$${TMPDIR:-/tmp} TMPDIR=$$tmp $(MAKE) --no-print-directory -j5 --output-sync=target test-native test-wasm test-lint python-test
	./$(BIN) readme README.md --check --corpus $(CORPUS) $(if $(PROFILE),--profile $(PROFILE))

# WASM_PKGS are the packages of this module the WebAssembly validator is
# built from (see test), as go list finds them for js/wasm.
WASM_PKGS = $(shell GOOS=js GOARCH=wasm $(GO) list -deps -f '{{if and (not .Standard) .Module .Module.Main}}{{.ImportPath}}{{end}}' ./cmd/masrl-wasm)

# test-compile compiles every package of the module with its tests, and
# what only the tests import (chromedp), once, after bin/masrl compiled
# the rest: go list -export -test -deps is what staticcheck asks the go
# command for, and go vet, go fix and go test find the same compiled
# packages in the build cache. Run side by side without it, each of them
# compiled the tests' packages (40 s of CPU) for itself.
# test-lint is lint and actionlint once those are compiled.
.PHONY: test-compile test-lint test-native test-wasm
test-compile: $(BIN)
	$(BUILDENV) $(GO) list -export -test -deps ./... > /dev/null

test-lint: test-compile debian
	@$(MAKE) --no-print-directory lint actionlint

test-native: site node_modules test-compile
	MASRL_CORPUS=$(abspath $(CORPUS)) MASRL_BROWSER=1 $(GO) test -vet=off -timeout 30m ./...

# test-wasm compiles the packages' tests for js/wasm first as test-compile
# does (with BUILD_GOGC), then runs them in Node as Go's go_js_wasm_exec
# does (an 8 MB stack, wasm_exec_node.js) but with V8's tiering budget
# 100 times its default: V8 then compiles a function again with its
# optimising compiler only once it has run far longer, which in a test
# binary that runs for a second or two (eight of the nine) is compiling
# that never pays back; the trace package's, which runs long, still gets
# its hot loops optimised. The same tests, warm: 26.4 s and 25.2 s of CPU
# instead of 33.5 s and 33.0 s. --single-threaded keeps V8's compiling
# and collecting on the thread that runs the test (a Go test binary is
# one thread of WebAssembly anyway), without background threads to hand
# work to and wait for: 23.9 s and 23.4 s instead of 25.9 s and 24.7 s.
WASM_NODE = node --stack-size=8192 --wasm-tiering-budget=180000000 --single-threaded $$($(GO) env GOROOT)/lib/wasm/wasm_exec_node.js
test-wasm: $(VALIDATOR_FILES)
	$(BUILDENV) GOOS=js GOARCH=wasm $(GO) list -export -test -deps $(or $(WASM_PKGS),$(error go list found no package of this module in cmd/masrl-wasm)) > /dev/null
	MASRL_CORPUS=$(abspath $(CORPUS)) GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_NODE)" $(WASM_PKGS)

# test-busy runs make test while stress-ng (Debian's, installed when
# missing) keeps every core busy with a CPU loop: no test may depend on a
# quiet machine, since CI and contributors run the tests on busy ones.
# The hog stops when make test ends, whether it passed or not.
.PHONY: test-busy stress-ng
test-busy: stress-ng
	@stress-ng --cpu 0 --cpu-method loop --timeout 60m --quiet & hog=$$!; \
	trap 'kill $$hog 2>/dev/null; wait $$hog 2>/dev/null' EXIT; \
	echo "stress-ng: $$(nproc) CPU hogs"; \
	$(MAKE) test

stress-ng:
	@command -v stress-ng >/dev/null 2>&1 || { apt-get update && apt-get install -y --no-install-recommends stress-ng; }

# lint runs the checks the Go community already trusts, pinned: gofmt, go
# vet, staticcheck (all its default checks), go mod tidy -diff (go.mod and
# go.sum say exactly what the code imports) and go fix -diff (the
# modernisations the Go release proposes are applied). Each prints what it
# would change and fails.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: lint
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(BUILDENV) $(GO) vet ./...
	$(BUILDENV) $(GO) run $(STATICCHECK) ./...
	$(GO) mod tidy -diff
	@out=$$($(BUILDENV) $(GO) fix -diff ./... 2>&1); if [ -n "$$out" ]; then echo "$$out"; echo "go fix -diff: run 'go fix ./...'"; exit 1; fi

# actionlint checks the workflows in .github/workflows (syntax, expressions,
# action inputs and, through Debian's shellcheck, their scripts), pinned
# like staticcheck. Without shellcheck it would skip the scripts silently,
# so make debian installs it first when missing.
ACTIONLINT ?= github.com/rhysd/actionlint/cmd/actionlint@v1.7.12

.PHONY: actionlint
actionlint: debian
	$(BUILDENV) $(GO) run $(ACTIONLINT)

# node_modules holds the front-end packages, at the versions
# package-lock.json pins: echarts and esbuild, from which make echarts
# rebuilds the chart library masrl embeds (TestBuild checks the bytes), and
# what the browser tests run: axe-core, Lighthouse and the W3C Nu HTML
# checker (vnu-jar, with the machine's java). npm ci reinstalls only when
# the lock changed.
node_modules: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch node_modules

# debian installs the Debian packages the tests use when one is missing,
# with one apt-get update: chromium for the browser tests (see
# DEVELOPERS.md for the flags it runs with), shellcheck for actionlint,
# a Java runtime for the Nu HTML checker and GNU time for benchrun's
# test. The tests run as root on CI.
.PHONY: debian
debian:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v shellcheck >/dev/null 2>&1 || missing="$$missing shellcheck"; \
	command -v java >/dev/null 2>&1 || missing="$$missing default-jre-headless"; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	if [ -n "$$missing" ]; then apt-get update && apt-get install -y --no-install-recommends $$missing; fi

# browsertest runs only the browser tests, verbosely, on a fresh build.
browsertest: site debian node_modules
	MASRL_CORPUS=$(abspath $(CORPUS)) MASRL_BROWSER=1 $(GO) test -count=1 -timeout 30m -v ./browsertest/

# bench-lighthouse measures the Lighthouse performance score (and total
# blocking time, largest contentful paint) of the audited pages
# LIGHTHOUSE_RUNS times each and prints the median and the range: a
# timing, so a measurement (BENCHMARKS.md), never a pass/fail test.
LIGHTHOUSE_RUNS ?= 5

.PHONY: bench-lighthouse
bench-lighthouse: site debian node_modules
	MASRL_CORPUS=$(abspath $(CORPUS)) MASRL_BROWSER=1 MASRL_LIGHTHOUSE_RUNS=$(LIGHTHOUSE_RUNS) $(GO) test -count=1 -timeout 60m -v -run '^TestLighthousePerformance$$' ./browsertest/

# fuzz-traces runs each trace reader's fuzz target for FUZZTIME under a
# memory limit, one after the other: GOMEMLIMIT holds the Go heap of the
# fuzzing processes near FUZZ_MEMLIMIT, and ulimit -v caps each process's
# address space at FUZZ_VMEM_KB (no cgroup needed; the Go runtime reserves
# about 1 GB of address space beyond its heap, hence 3 GB). An input that
# makes a reader allocate past its bound fails the target (each checks
# runtime.MemStats against a bound from trace.Limits), and one that takes
# the process past the limits dies with "out of memory": both leave the
# input in the package's testdata/fuzz for go test to replay. make test
# runs the seeds only. FUZZ_PARALLEL workers share the machine's cores.
# FUZZ_MINIMIZE bounds the shrinking of each new input: with go test's
# default (60 s) a young corpus spends nearly all its time shrinking
# (FuzzValidate: 1,885 inputs tried in 45 s, against 48,059 with 10x).
FUZZTIME      ?= 60s
FUZZ_MINIMIZE ?= 10x
FUZZ_MEMLIMIT ?= 1GiB
FUZZ_VMEM_KB  ?= 3000000
FUZZ_PARALLEL ?= 1
FUZZ_TRACE_TARGETS := ./trace/:FuzzLineReader ./trace/:FuzzValidate ./trace/:FuzzDifferential \
	./trace/otlp/:FuzzImport ./trace/otlp/:FuzzImportProto ./trace/viewer/:FuzzRead

.PHONY: fuzz-traces
fuzz-traces:
	@set -e; for t in $(FUZZ_TRACE_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$name in $$pkg for $(FUZZTIME) (GOMEMLIMIT=$(FUZZ_MEMLIMIT), ulimit -v $(FUZZ_VMEM_KB))"; \
		( ulimit -v $(FUZZ_VMEM_KB) && GOMEMLIMIT=$(FUZZ_MEMLIMIT) MASRL_CORPUS=$(abspath $(CORPUS)) \
			$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZ_MINIMIZE) -parallel $(FUZZ_PARALLEL) $$pkg ); \
	done

clean:
	rm -rf bin public .public.masrl-buffer browsertest/testdata/screenshots dist python/.venv python/build python/src/masrl/bin

# make bench measures masrl against the tools users would pick instead and
# rewrites the tables in BENCHMARKS.md, then measures the site at 10,000
# entries again with one core busy (stress-ng) into the -busy blocks;
# make bench-quick runs smaller sizes and fewer runs and only prints.
# Neither is part of make test.
bench: bench-peers bench-python
	$(GO) run ./bench/cmd/benchrun -corpus $(CORPUS) -hugo-newest $(HUGO_NEWEST_BIN) -md BENCHMARKS.md
	$(GO) run ./bench/cmd/benchrun -corpus $(CORPUS) -hugo-newest $(HUGO_NEWEST_BIN) -sections build -build-sizes 10000 -busy -md BENCHMARKS.md

bench-quick: bench-peers
	$(GO) run ./bench/cmd/benchrun -corpus $(CORPUS) -hugo-newest $(HUGO_NEWEST_BIN) -quick

# bench-live measures what a user waits for with masrl serve running: a
# one-row edit at 10,000 entries until the server serves it, against
# hugo server (Debian's and HUGO_NEWEST), and until the open page in
# Chromium shows it (browsertest's TestLiveReloadLatency). It prints the
# figures; BENCHMARKS.md's live section records them by hand, with the
# load average.
.PHONY: bench-live
bench-live: bench-peers debian
	$(GO) run ./bench/cmd/benchrun -corpus $(CORPUS) -hugo-newest $(HUGO_NEWEST_BIN) -sections live
	MASRL_BROWSER=1 MASRL_CORPUS=$(abspath $(CORPUS)) MASRL_RELOAD_SIZES=10000 $(GO) test -count=1 -run TestLiveReloadLatency -v -timeout 30m ./browsertest

# HUGO_NEWEST is the newest Hugo the Go module proxy builds here: v0.167.0
# and later need modules the proxy refuses (bep/imagemeta v1.1.0,
# spf13/fsync v0.10.2), and v0.166.0 needs Go 1.27, which the go command
# fetches as GOTOOLCHAIN=go1.27.3. The bench measures it beside Debian's
# hugo (0.111), which is what apt gives but not what a new user installs.
HUGO_NEWEST     ?= v0.166.0
HUGO_NEWEST_BIN := $(abspath bench/_work/hugo-$(HUGO_NEWEST))/hugo

# bench-peers installs what the benchmarks compare with: Debian's hugo,
# GNU time and stress-ng (one apt-get update, only when one is missing), Ajv from
# bench/trace's lock file and the newest Hugo the module proxy builds
# (HUGO_NEWEST); node_modules holds the charts masrl build publishes, as
# for make site.
bench-peers: node_modules
	@missing=""; command -v hugo >/dev/null 2>&1 || missing="$$missing hugo"; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	command -v stress-ng >/dev/null 2>&1 || missing="$$missing stress-ng"; \
	if [ -n "$$missing" ]; then apt-get update && apt-get install -y --no-install-recommends $$missing; fi
	@if [ -f bench/trace/package-lock.json ]; then cd bench/trace && npm ci --no-audit --no-fund; fi
	@[ -x $(HUGO_NEWEST_BIN) ] || GOTOOLCHAIN=go1.27.3 GOBIN=$(dir $(HUGO_NEWEST_BIN)) $(GO) install github.com/gohugoio/hugo@$(HUGO_NEWEST)

# Orchestration traces: the WebAssembly validator for the site (bin/), and
# the 1M-event benchmark against ajv and a Python validator
# (bench/trace/RESULTS.md). TRACE_EVENTS and TRACE_FILE choose the input.
TRACE_EVENTS ?= 1000000
TRACE_FILE   ?= /tmp/masrl-trace-$(TRACE_EVENTS).json

.PHONY: wasm wasm-smoke bench-trace trace-file

wasm: $(VALIDATOR_FILES)

# Runs trace/validator/validator.js in Node (stub DOM) against the built
# validator.
wasm-smoke: wasm
	node trace/validator/smoke.cjs $(VALIDATOR) trace/testdata/example.json trace/testdata/invalid/event-bad-type.json trace/otlp/testdata/genai.otlp.jsonl

trace-file:
	@[ -s $(TRACE_FILE) ] || $(GO) run ./cmd/synth trace -events $(TRACE_EVENTS) -seed 1 > $(TRACE_FILE)

bench-trace: build trace-file
	$(GO) test -run '^$$' -bench . -benchmem ./trace
	cd bench/trace && npm ci --no-audit --no-fund --silent
	bench/trace/run.sh $(TRACE_FILE) $(abspath $(CORPUS))/reference/trace_schema.json

# bench-viewer measures how long the file of masrl trace view takes to be
# interactive in Chromium (TestViewerOpenTime) at 100,000 and 1,000,000
# events; the figures go to BENCHMARKS.md by hand, with the load average.
.PHONY: bench-viewer
bench-viewer: debian
	MASRL_BROWSER=1 MASRL_VIEWER_EVENTS=100000,1000000 MASRL_VIEWER_RUNS=5 $(GO) test -count=1 -run TestViewerOpenTime -v -timeout 30m ./browsertest

# echarts rebuilds the chart library masrl embeds (site/chartlib) with the
# pinned esbuild, after site/chartlib/entry.js or package-lock.json
# changed; TestBuild fails until it is rebuilt.
.PHONY: echarts
echarts: node_modules
	$(GO) test ./site/chartlib -count=1 -run TestBuild -update

# otel-fixtures reruns the agent frameworks of trace/otlp/testdata/frameworks
# (the JavaScript ones pinned by its own package-lock.json, the Python ones
# by python/requirements.lock and the locks of python/adk, python/crewai
# and python/llama_index, with hashes, in git-ignored venvs;
# offline: each Python run in a network namespace of its own, OFFLINE,
# with each library's mock or a scripted model) and rewrites their OTLP files
# and the golden traces imported from them; TestFrameworks fails until the
# goldens match the files again. OFFLINE= runs them without the namespace
# where unprivileged user namespaces are off.
PYTHON ?= python3.11
OFFLINE ?= unshare -rn
OTEL_PY := trace/otlp/testdata/frameworks/python
.PHONY: otel-fixtures
otel-fixtures:
	cd trace/otlp/testdata/frameworks && npm ci --no-audit --no-fund --silent && \
	  node ai-sdk.mjs otel && node ai-sdk.mjs legacy && node openai-agents.mjs && \
	  node langgraph.mjs && node langgraph-react.mjs && node langgraph-turns.mjs && node group-chat.mjs
	test -x $(OTEL_PY)/.venv/bin/python || $(PYTHON) -m venv $(OTEL_PY)/.venv
	$(OTEL_PY)/.venv/bin/pip install --quiet --require-hashes -r $(OTEL_PY)/requirements.lock
	cd $(OTEL_PY) && for s in pydantic_ai_run.py openai_agents_run.py strands_swarm.py smolagents_run.py \
	    "autogen_swarm.py both" "autogen_swarm.py native" "autogen_swarm.py openinference"; do \
	  $(OFFLINE) .venv/bin/python $$s || exit 1; done
	test -x $(OTEL_PY)/adk/.venv/bin/python || $(PYTHON) -m venv $(OTEL_PY)/adk/.venv
	$(OTEL_PY)/adk/.venv/bin/pip install --quiet --require-hashes -r $(OTEL_PY)/adk/requirements.lock
	$(OFFLINE) $(OTEL_PY)/adk/.venv/bin/python $(OTEL_PY)/adk/adk_transfer.py
	test -x $(OTEL_PY)/crewai/.venv/bin/python || $(PYTHON) -m venv $(OTEL_PY)/crewai/.venv
	$(OTEL_PY)/crewai/.venv/bin/pip install --quiet --require-hashes -r $(OTEL_PY)/crewai/requirements.lock
	$(OFFLINE) $(OTEL_PY)/crewai/.venv/bin/python $(OTEL_PY)/crewai/crewai_crew.py
	test -x $(OTEL_PY)/llama_index/.venv/bin/python || $(PYTHON) -m venv $(OTEL_PY)/llama_index/.venv
	$(OTEL_PY)/llama_index/.venv/bin/pip install --quiet --require-hashes -r $(OTEL_PY)/llama_index/requirements.lock
	$(OFFLINE) $(OTEL_PY)/llama_index/.venv/bin/python $(OTEL_PY)/llama_index/llama_index_handoff.py
	$(GO) test ./trace/otlp -count=1 -run 'TestFrameworks' -update

# The Python package (python/): the masrl binary inside a wheel, and the
# masrl and masrl.ray modules that talk to it (docs/traces.md, "Traces at
# scale"). PY_VENV holds the packages python/requirements.txt pins, by
# hash: hatchling builds the wheel, pytest and ray[data] run the tests.
# pip byte-compiles what it installs (24 s of the machine's CPU where
# --no-compile takes 12 s): with PYTHONDONTWRITEBYTECODE set, as on this
# machine, no import writes a .pyc, so every Ray worker would compile
# ray, pyarrow and pandas from source at each start (pytest 56.5 s of
# the machine's CPU against 18.5 s).
PY_VENV := python/.venv

$(PY_VENV)/.installed: python/requirements.txt
	rm -rf $(PY_VENV)
	$(PYTHON) -m venv $(PY_VENV)
	$(PY_VENV)/bin/pip install --quiet --require-hashes -r python/requirements.txt
	@touch $@

# make wheel writes dist/masrl-VERSION-py3-none-PLATFORM.whl for this
# machine: the binary built as make dist builds it (CGO off, -trimpath, no
# symbol tables, no VCS stamp) into python/src/masrl/bin/, then the wheel,
# tagged by python/hatch_build.py for WHEEL_GOOS/WHEEL_GOARCH. Another
# platform: make wheel WHEEL_GOOS=darwin WHEEL_GOARCH=arm64 (one of
# $(PLATFORMS)). MASRL_VERSION is the wheel's version (the release sets
# it from the tag).
WHEEL_GOOS    ?= $(shell $(GO) env GOOS)
WHEEL_GOARCH  ?= $(shell $(GO) env GOARCH)
MASRL_VERSION ?= 0.0.0.dev0
WHEEL_BUILD   := python/build/wheel

# The wheel's binary is built after bin/masrl (an order-only
# prerequisite): both builds use the same configuration (see GOFLAGS), so
# the second only links, where two at once would compile every package
# twice (make test runs the Python side beside the Go side).
.PHONY: wheel python-test
wheel: $(PY_VENV)/.installed | $(BIN)
	rm -rf python/src/masrl/bin $(WHEEL_BUILD)
	@mkdir -p python/src/masrl/bin dist
	$(BUILDENV) CGO_ENABLED=0 GOOS=$(WHEEL_GOOS) GOARCH=$(WHEEL_GOARCH) $(GO) build -trimpath -buildvcs=false -ldflags='-s -w' \
	  -o python/src/masrl/bin/masrl$(if $(filter windows,$(WHEEL_GOOS)),.exe) ./cmd/masrl
	MASRL_GOOS=$(WHEEL_GOOS) MASRL_GOARCH=$(WHEEL_GOARCH) MASRL_VERSION=$(MASRL_VERSION) \
	  $(PY_VENV)/bin/python -m pip wheel --quiet --no-deps --no-build-isolation --wheel-dir $(WHEEL_BUILD) ./python
	cp $(WHEEL_BUILD)/*.whl dist/
	@ls $(WHEEL_BUILD)/*.whl

# python-test installs the wheel just built into PY_VENV and runs the
# package's tests with pytest against it (not the source tree), with
# cmd/synth for their synthetic traces: the API against the CLI, the wheel
# in a fresh virtual environment without Go, and masrl.ray on a local Ray
# cluster of 2 CPUs over 100,000 traces, shut down by the test.
python-test: wheel
	$(GO) build -o bin/synth ./cmd/synth
	$(PY_VENV)/bin/python -m pip install --quiet --no-deps --force-reinstall $(WHEEL_BUILD)/*.whl
	cd python && RAY_USAGE_STATS_ENABLED=0 MASRL_SYNTH=$(abspath bin/synth) MASRL_WHEEL=$$(ls $(abspath $(WHEEL_BUILD))/*.whl) \
	  TMPDIR=$${TEST_OUTER_TMPDIR:-$${TMPDIR:-/tmp}} ../$(PY_VENV)/bin/python -m pytest -p no:cacheprovider -q tests

# bench-python measures the Python package at scale (python/bench/scale.py):
# masrl trace stats --partial in one process, masrl.ray.stats on 2 local
# Ray workers and the merge of the partials, over BENCH_TRACES synthetic
# traces; it prints, and BENCHMARKS.md's "Traces at scale" records the
# figures by hand with the load.
BENCH_TRACES ?= 1000000

.PHONY: bench-python
bench-python: wheel
	$(GO) build -o bin/synth ./cmd/synth
	$(PY_VENV)/bin/python -m pip install --quiet --no-deps --force-reinstall $(WHEEL_BUILD)/*.whl
	RAY_USAGE_STATS_ENABLED=0 $(PY_VENV)/bin/python python/bench/scale.py --synth bin/synth --work bench/_work/python --traces $(BENCH_TRACES)
