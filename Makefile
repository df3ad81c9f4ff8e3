# masrl: the generator behind the awesome list of the survey on RL for
# LLM-based multi-agent systems. `make site` builds public/ from the corpus;
# `make test` runs every test. Both install what they need.

CORPUS ?= ../shared/corpus
GO     ?= go
BIN    := bin/masrl

.PHONY: all site test bench bench-quick bench-peers serve build clean chromium browsertest

all: site

build: $(BIN)

$(BIN): FORCE
	$(GO) build -o $(BIN) ./cmd/masrl

FORCE:

# BASE_URL is where the site is published; feeds and the sitemap use it.
BASE_URL ?= http://127.0.0.1:8080/
ADDR     ?= 127.0.0.1:8080

# The site publishes echarts from node_modules (see DEVELOPERS.md) and, on
# its traces page, the binaries and the WebAssembly validator of $(DIST).
site: $(BIN) node_modules dist
	./$(BIN) build --corpus $(CORPUS) --out public --base-url $(BASE_URL) --downloads $(DIST)

# dist cross-compiles the masrl binary for the platforms the traces page
# offers (site.Platforms) and builds the WebAssembly validator beside them.
# CGO off, -trimpath, no symbol tables and no VCS stamp make the binaries
# depend on the sources alone, so the SHA-256 sums the page shows change
# only when the code does (a commit or a dirty tree alone would otherwise
# change them). The stamp rebuilds them only when a Go source, an
# embedded file or the module changes.
DIST      := bin/dist
PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
DIST_SRC  := go.mod go.sum $(shell find cmd corpus data trace site templates internal -type f -not -name '*_test.go' -not -path '*/testdata/*' 2>/dev/null)

.PHONY: dist
dist: $(DIST)/.stamp

$(DIST)/.stamp: $(DIST_SRC)
	@mkdir -p $(DIST)
	@for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; ext=; [ $$os = windows ] && ext=.exe; \
		echo "go build masrl for $$os/$$arch"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -buildvcs=false -ldflags='-s -w' -o $(DIST)/masrl-$$os-$$arch$$ext ./cmd/masrl || exit 1; \
	done
	$(MAKE) wasm
	cp bin/masrl.wasm bin/wasm_exec.js trace/validator/validator.js $(DIST)/
	@touch $@

serve: $(BIN) node_modules dist
	./$(BIN) serve --corpus $(CORPUS) --out public --addr $(ADDR) --templates templates --data data --downloads $(DIST)

# test builds the site and installs Chromium first: the browser tests in
# browsertest/ load public/ and, with MASRL_BROWSER set, fail rather than
# skip when anything they need is missing.
test: site chromium
	$(GO) vet ./...
	MASRL_CORPUS=$(abspath $(CORPUS)) MASRL_BROWSER=1 $(GO) test ./...
	$(GO) run ./cmd/masrl readme README.md --check --corpus $(CORPUS)

# lint runs the checks the Go community already trusts, pinned: gofmt, go
# vet, staticcheck (all its default checks), go mod tidy -diff (go.mod and
# go.sum say exactly what the code imports) and go fix -diff (the
# modernisations the Go release proposes are applied). Each prints what it
# would change and fails.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: lint
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) mod tidy -diff
	@out=$$($(GO) fix -diff ./... 2>&1); if [ -n "$$out" ]; then echo "$$out"; echo "go fix -diff: run 'go fix ./...'"; exit 1; fi

# node_modules holds the front-end packages the site serves from itself
# (echarts) and the browser tests inject (axe-core), at the versions
# package-lock.json pins. npm ci reinstalls only when the lock changed.
node_modules: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch node_modules

# chromium installs Debian's Chromium for the browser tests when missing
# (the tests run as root on CI). See DEVELOPERS.md for the flags it runs with.
chromium:
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)

# browsertest runs only the browser tests, verbosely, on a fresh build.
browsertest: site chromium
	MASRL_CORPUS=$(abspath $(CORPUS)) MASRL_BROWSER=1 $(GO) test -count=1 -v ./browsertest/

clean:
	rm -rf bin public .public.masrl-buffer browsertest/testdata/screenshots

# make bench measures masrl against the tools users would pick instead and
# rewrites the tables in BENCHMARKS.md; make bench-quick runs smaller sizes
# and fewer runs and only prints. Neither is part of make test.
bench: bench-peers
	$(GO) run ./bench/cmd/benchrun -corpus $(CORPUS) -md BENCHMARKS.md

bench-quick: bench-peers
	$(GO) run ./bench/cmd/benchrun -corpus $(CORPUS) -quick

# bench-peers installs what the benchmarks compare with: Debian's hugo and
# GNU time (one apt-get update, only when one is missing) and Ajv from
# bench/trace's lock file; node_modules holds the charts masrl build
# publishes, as for make site.
bench-peers: node_modules
	@missing=""; command -v hugo >/dev/null 2>&1 || missing="$$missing hugo"; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	if [ -n "$$missing" ]; then apt-get update && apt-get install -y $$missing; fi
	@if [ -f bench/trace/package-lock.json ]; then cd bench/trace && npm ci --no-audit --no-fund; fi

# Orchestration traces: the WebAssembly validator for the site (bin/), and
# the 1M-event benchmark against ajv and a Python validator
# (bench/trace/RESULTS.md). TRACE_EVENTS and TRACE_FILE choose the input.
TRACE_EVENTS ?= 1000000
TRACE_FILE   ?= /tmp/masrl-trace-$(TRACE_EVENTS).json

.PHONY: wasm wasm-smoke bench-trace trace-file

wasm:
	@mkdir -p bin
	GOOS=js GOARCH=wasm $(GO) build -o bin/masrl.wasm ./cmd/masrl-wasm
	@goroot=$$($(GO) env GOROOT); \
	if [ -f $$goroot/lib/wasm/wasm_exec.js ]; then cp $$goroot/lib/wasm/wasm_exec.js bin/; \
	else cp $$goroot/misc/wasm/wasm_exec.js bin/; fi

# Runs trace/validator/validator.js in Node (stub DOM) against bin/masrl.wasm.
wasm-smoke: wasm
	node trace/validator/smoke.cjs bin trace/testdata/example.json trace/testdata/invalid/event-bad-type.json

trace-file:
	@[ -s $(TRACE_FILE) ] || $(GO) run ./cmd/synth trace -events $(TRACE_EVENTS) -seed 1 > $(TRACE_FILE)

bench-trace: build trace-file
	$(GO) test -run '^$$' -bench . -benchmem ./trace
	cd bench/trace && npm ci --no-audit --no-fund --silent
	bench/trace/run.sh $(TRACE_FILE) $(abspath $(CORPUS))/reference/trace_schema.json

# echarts rebuilds the chart library masrl embeds (site/chartlib) with the
# pinned esbuild, after site/chartlib/entry.js or package-lock.json
# changed; TestBuild fails until it is rebuilt.
.PHONY: echarts
echarts: node_modules
	$(GO) test ./site/chartlib -count=1 -run TestBuild -update
